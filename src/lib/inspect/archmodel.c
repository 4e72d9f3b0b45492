/* The tree an extraction builds from an archive's members, and the members an
 * install must refuse (archmodel.h).
 *
 * Each member is first judged by itself (its name, type, mode and link
 * target: "lexical"), then placed in a model of the tree, in extraction
 * order: every directory component of its name is looked up in what the
 * earlier members built, symbolic links are followed (at most 40, as the
 * kernel does; absolute targets and ".." above the root leave the target),
 * missing directories are created as an extraction creates them, and what is
 * already at the final name decides whether it is a duplicate, a conflict or
 * a write through a symbolic link. Python's tarfile opens an existing name
 * for writing and keeps a directory symbolic link it finds, so a link that a
 * later member lands on stays in the model: the worst case is judged. At the
 * end every symbolic link is resolved against the finished tree.
 *
 * Bounds: names and targets over 4095 bytes are not placed, 40 links per
 * path, and a work budget per run (components stepped over); past it the
 * remaining members are "not judged", which is unsafe. */
#include "archmodel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AM_NONE SIZE_MAX
#define AM_ROOT 0
#define AM_MAX_LINKS 40
#define AM_MAX_PATH 4095
#define AM_MAX_COMPONENT 255
#define AM_MAX_WORK ((uint64_t)1 << 25) /* bytes of components stepped over, per run */
#define AM_QUOTE 160                    /* bytes of a name quoted in a reason */
#define AM_MAX_REASONS 16               /* reasons kept per member and run (its problems all count) */

enum { SYS_LINUX, SYS_WINDOWS, SYS_MACOS, SYS_COUNT };
enum { N_DIR, N_FILE, N_LINK, N_SPECIAL };
enum { R_OK, R_ESCAPE, R_LOOP, R_NOTDIR, R_EMPTYLINK, R_LIMIT };

struct am_member {
        char *name; /* name_len bytes + NUL */
        size_t name_len;
        char *link; /* link_len bytes + NUL, NULL if none */
        size_t link_len;
        int type;
        uint32_t mode;
        int has_mode;
        char *norm;     /* the name without "./", "//" and a trailing '/' */
        unsigned lex;   /* problems of the member by itself */
        cc_strv lexwhy; /* and their reasons */
        int placeable;  /* its name can be placed in the tree */
        unsigned bits;  /* all its problems, after judging */
        char *reason;   /* all its reasons, NULL when safe */
};

struct cc_archive_model {
        struct am_member *m;
        size_t n, cap;
        int judged;
        size_t unsafe;
};

struct node {
        size_t parent;
        char *name; /* the component as the first member that made it wrote it */
        char *key;  /* the component as this system compares it */
        int type;
        size_t member;      /* the member that made it, AM_NONE for an implied directory */
        const char *target; /* N_LINK: the target (owned by a member) */
        size_t target_len;
};

struct run {
        int sys;
        struct cc_archive_model *am;
        struct node *nodes;
        size_t nn, ncap;
        size_t *slots; /* node index + 1, 0 when empty */
        size_t nslots;
        uint64_t work;
        cc_buf key, key2; /* scratch */
        unsigned *bits;   /* per member */
        cc_strv *why;
        size_t *at;           /* the node a member was placed at */
        const char **ltarget; /* the symbolic link to resolve at the end */
        size_t *ltarget_len;  /* its length */
        size_t *lfrom;        /* a hard link's symbolic link member */
        cc_error *err;
};

struct res {
        int st;
        size_t dir;  /* the directory of the last component */
        size_t node; /* what is at the end, AM_NONE if nothing */
        const char *last;
        size_t last_len;   /* the last component when node is AM_NONE */
        int virt;          /* the path goes on below a name that does not exist */
        size_t first_link; /* the first and last symbolic link nodes followed */
        size_t last_link;
        int links;
        size_t blocker; /* R_NOTDIR: the node that is not a directory */
};

/* ---- small helpers -------------------------------------------------------- */

/* The bytes before the first NUL of s (len bytes). */
static size_t am_strnlen(const char *s, size_t len)
{
        const char *z = s != NULL && len > 0 ? memchr(s, '\0', len) : NULL;

        return z != NULL ? (size_t)(z - s) : len;
}

static int is_sep(int sys, char c)
{
        return c == '/' || (sys == SYS_WINDOWS && c == '\\');
}

static int drive_letter(const char *p, size_t len)
{
        return len >= 2 && ((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z')) && p[1] == ':';
}

/* s (len bytes) cut to AM_QUOTE bytes on a UTF-8 boundary, into buf. */
static const char *q(char *buf, size_t size, const char *s, size_t len)
{
        size_t n = len, nul;

        if (s == NULL) {
                s = "";
                n = len = 0;
        }
        nul = am_strnlen(s, len);

        if (nul < n)
                n = nul;
        if (n > AM_QUOTE) {
                n = AM_QUOTE;
                while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
                        n--;
                snprintf(buf, size, "%.*s...", (int)n, s);
        } else {
                snprintf(buf, size, "%.*s", (int)n, s);
        }
        return buf;
}

#define QBUF (AM_QUOTE + 8)

/* The name without "./" components, "//" and a trailing '/'. Caller frees. */
static char *lex_norm(const char *name, size_t len, cc_error *err)
{
        char *s = cc_malloc(err, len + 1);
        size_t i = 0, o = 0;

        if (s == NULL)
                return NULL;
        if (len > 0 && name[0] == '/')
                s[o++] = '/';
        while (i < len) {
                size_t n;

                while (i < len && name[i] == '/')
                        i++;
                n = i;
                while (n < len && name[n] != '/')
                        n++;
                n -= i;
                if (n > 0 && !(n == 1 && name[i] == '.')) {
                        if (o > 0 && s[o - 1] != '/')
                                s[o++] = '/';
                        memcpy(s + o, name + i, n);
                        o += n;
                }
                i += n;
        }
        s[o] = '\0';
        return s;
}

/* ---- case folding ------------------------------------------------------------ */

/* One code point from s (n > 0 bytes); returns the bytes used, *cp = -1 for
 * a byte that starts no valid sequence. */
static size_t utf8_get(const unsigned char *s, size_t n, long *cp)
{
        size_t need, k;
        long c;

        if (s[0] < 0x80) {
                *cp = s[0];
                return 1;
        }
        if (s[0] >= 0xC2 && s[0] <= 0xDF) {
                need = 1;
                c = s[0] & 0x1F;
        } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
                need = 2;
                c = s[0] & 0x0F;
        } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
                need = 3;
                c = s[0] & 0x07;
        } else {
                *cp = -1;
                return 1;
        }
        if (n <= need || (s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0) ||
            (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90)) {
                *cp = -1; /* cut short, overlong, a surrogate, past U+10FFFF */
                return 1;
        }
        for (k = 1; k <= need; k++) {
                if ((s[k] & 0xC0) != 0x80) {
                        *cp = -1;
                        return 1;
                }
                c = (c << 6) | (s[k] & 0x3F);
        }
        *cp = c;
        return need + 1;
}

static int utf8_put(cc_buf *b, long cp, cc_error *err)
{
        char u[4];
        size_t n;

        if (cp < 0x80) {
                u[0] = (char)cp;
                n = 1;
        } else if (cp < 0x800) {
                u[0] = (char)(0xC0 | (cp >> 6));
                u[1] = (char)(0x80 | (cp & 0x3F));
                n = 2;
        } else if (cp < 0x10000) {
                u[0] = (char)(0xE0 | (cp >> 12));
                u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
                u[2] = (char)(0x80 | (cp & 0x3F));
                n = 3;
        } else {
                u[0] = (char)(0xF0 | (cp >> 18));
                u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
                u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
                u[3] = (char)(0x80 | (cp & 0x3F));
                n = 4;
        }
        return cc_buf_append(b, u, n, err);
}

/* Simple lower case of the Latin, Greek and Cyrillic letters (what NTFS's
 * and APFS's case-insensitive comparison merges for these scripts). */
static long fold_cp(long c)
{
        if (c >= 'A' && c <= 'Z')
                return c + 32;
        if (c >= 0xC0 && c <= 0xDE && c != 0xD7)
                return c + 32;
        if ((c >= 0x100 && c <= 0x137) || (c >= 0x14A && c <= 0x177))
                return c | 1;
        if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E))
                return (c & 1) ? c + 1 : c;
        if (c == 0x178)
                return 0xFF;
        if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2)
                return c + 32;
        if (c >= 0x410 && c <= 0x42F)
                return c + 32;
        if (c >= 0x400 && c <= 0x40F)
                return c + 80;
        return c;
}

/* The canonical decomposition of the Latin-1 letters (macOS file systems
 * compare names decomposed): base letter and combining mark U+03xx. */
static int nfd_latin1(long c, long *base, long *mark)
{
        static const char bases[] = "AAAAAA.CEEEEIIII.NOOOOO..UUUUY.."
                                    "aaaaaa.ceeeeiiii.nooooo..uuuuy.y";
        static const unsigned char marks[] = {0x00, 0x01, 0x02, 0x03, 0x08, 0x0A, 0,    0x27, 0x00, 0x01, 0x02,
                                              0x08, 0x00, 0x01, 0x02, 0x08, 0,    0x03, 0x00, 0x01, 0x02, 0x03,
                                              0x08, 0,    0,    0x00, 0x01, 0x02, 0x08, 0x01, 0,    0};

        if (c < 0xC0 || c > 0xFF || bases[c - 0xC0] == '.')
                return 0;
        *base = bases[c - 0xC0];
        *mark = 0x300 + marks[(c - 0xC0) & 31];
        return 1;
}

/* The key of one component (len bytes) on this system, in b. */
static int make_key(int sys, const char *c, size_t len, cc_buf *b, cc_error *err)
{
        const unsigned char *s = (const unsigned char *)c;
        size_t i = 0, keep;

        b->len = 0;
        if (sys == SYS_LINUX)
                return cc_buf_append(b, c, len, err) < 0 || cc_buf_putc(b, '\0', err) < 0 ? -1 : 0;
        while (i < len) {
                long cp, base, mark;
                size_t k = utf8_get(s + i, len - i, &cp);

                if (cp < 0) {
                        if (cc_buf_putc(b, (char)s[i], err) < 0)
                                return -1;
                } else if (sys == SYS_MACOS && nfd_latin1(cp, &base, &mark)) {
                        if (utf8_put(b, fold_cp(base), err) < 0 || utf8_put(b, mark, err) < 0)
                                return -1;
                } else if (utf8_put(b, fold_cp(cp), err) < 0) {
                        return -1;
                }
                i += k;
        }
        if (sys == SYS_WINDOWS) { /* Win32 drops trailing dots and spaces */
                keep = b->len;
                while (keep > 0 && (b->data[keep - 1] == '.' || b->data[keep - 1] == ' '))
                        keep--;
                if (keep > 0)
                        b->len = keep;
        }
        return cc_buf_putc(b, '\0', err);
}

/* ---- the tree ------------------------------------------------------------------ */

static uint64_t node_hash(size_t parent, const char *key)
{
        uint64_t h = 1469598103934665603ull;
        size_t i;

        for (i = 0; i < sizeof(parent); i++) {
                h ^= (parent >> (8 * i)) & 0xFF;
                h *= 1099511628211ull;
        }
        for (; *key; key++) {
                h ^= (unsigned char)*key;
                h *= 1099511628211ull;
        }
        return h;
}

static size_t lookup(const struct run *r, size_t parent, const char *key)
{
        size_t i;

        if (r->nslots == 0)
                return AM_NONE;
        for (i = (size_t)(node_hash(parent, key) & (r->nslots - 1));; i = (i + 1) & (r->nslots - 1)) {
                size_t s = r->slots[i];

                if (s == 0)
                        return AM_NONE;
                if (r->nodes[s - 1].parent == parent && strcmp(r->nodes[s - 1].key, key) == 0)
                        return s - 1;
        }
}

static void slot_put(struct run *r, size_t idx)
{
        size_t i = (size_t)(node_hash(r->nodes[idx].parent, r->nodes[idx].key) & (r->nslots - 1));

        while (r->slots[i] != 0)
                i = (i + 1) & (r->nslots - 1);
        r->slots[i] = idx + 1;
}

/* A new node (the key is the one in r->key). Returns its index, AM_NONE when
 * out of memory. */
static size_t add_node(struct run *r, size_t parent, const char *name, size_t len, int type, size_t member)
{
        struct node *nd;
        size_t i;

        if (r->nn == r->ncap) {
                size_t ncap = r->ncap ? r->ncap * 2 : 256;
                struct node *p = cc_realloc(r->err, r->nodes, ncap * sizeof(*p));

                if (p == NULL)
                        return AM_NONE;
                r->nodes = p;
                r->ncap = ncap;
        }
        if ((r->nn + 1) * 2 > r->nslots) {
                size_t ns = r->nslots ? r->nslots * 2 : 512;
                size_t *p = cc_calloc(r->err, ns, sizeof(*p));

                if (p == NULL)
                        return AM_NONE;
                free(r->slots);
                r->slots = p;
                r->nslots = ns;
                for (i = 0; i < r->nn; i++)
                        slot_put(r, i);
        }
        nd = &r->nodes[r->nn];
        memset(nd, 0, sizeof(*nd));
        nd->parent = parent;
        nd->type = type;
        nd->member = member;
        nd->name = cc_strndup(r->err, name, len);
        nd->key = nd->name == NULL ? NULL : cc_strdup(r->err, parent == AM_NONE ? "" : r->key.data);
        if (nd->name == NULL || nd->key == NULL) {
                free(nd->name);
                free(nd->key);
                return AM_NONE;
        }
        r->nn++;
        if (parent != AM_NONE)
                slot_put(r, r->nn - 1);
        return r->nn - 1;
}

/* The node's path from the root ("" for the root), at most about 320 bytes
 * (then it starts with "..."). */
static const char *node_path(const struct run *r, size_t n, char *buf, size_t size)
{
        size_t o = size - 1, depth = 0;

        buf[o] = '\0';
        while (n != AM_NONE && n != AM_ROOT && depth++ < 100000) {
                const char *nm = r->nodes[n].name;
                size_t l = strlen(nm);

                if (l + 1 + 3 > o) {
                        memcpy(buf, "...", 3);
                        memmove(buf + 3, buf + o, size - o);
                        return buf;
                }
                if (o != size - 1)
                        buf[--o] = '/';
                o -= l;
                memcpy(buf + o, nm, l);
                n = r->nodes[n].parent;
        }
        return buf + o;
}

#define PBUF 400

/* ---- resolution ---------------------------------------------------------------- */

struct seg {
        const char *p, *end;
};

/* The next component of the path on the stack, and whether it is the last. */
static int next_comp(int sys, struct seg *st, int *top, const char **c, size_t *len, int *is_last)
{
        int k;

        while (*top >= 0) {
                struct seg *s = &st[*top];
                const char *start;

                while (s->p < s->end && is_sep(sys, *s->p))
                        s->p++;
                if (s->p == s->end) {
                        (*top)--;
                        continue;
                }
                start = s->p;
                while (s->p < s->end && !is_sep(sys, *s->p))
                        s->p++;
                *c = start;
                *len = (size_t)(s->p - start);
                *is_last = 1;
                for (k = *top; k >= 0 && *is_last; k--) {
                        const char *p = st[k].p;

                        while (p < st[k].end && is_sep(sys, *p))
                                p++;
                        if (p < st[k].end)
                                *is_last = 0;
                }
                return 1;
        }
        return 0;
}

static int is_abs_target(int sys, const char *t, size_t len)
{
        return len > 0 && (t[0] == '/' || (sys == SYS_WINDOWS && (t[0] == '\\' || drive_letter(t, len))));
}

/* Resolve path (len bytes) from directory start. follow_last: a symbolic
 * link at the end is followed. create: missing directories on the way are
 * made (an extraction makes them). -1 only when out of memory. */
static int resolve(struct run *r, size_t start, const char *path, size_t len, int follow_last, int create,
                   struct res *res)
{
        struct seg st[AM_MAX_LINKS + 2];
        int top = 0, is_last;
        size_t cur = start, clen;
        const char *c;

        memset(res, 0, sizeof(*res));
        res->st = R_OK;
        res->node = AM_NONE;
        res->dir = AM_NONE;
        res->first_link = res->last_link = res->blocker = AM_NONE;
        if (path == NULL) { /* a link without a target */
                path = "";
                len = 0;
        }
        if (len > 0 && (path[0] == '/' || is_abs_target(r->sys, path, len))) {
                res->st = R_ESCAPE;
                return 0;
        }
        st[0].p = path;
        st[0].end = path + len;
        while (next_comp(r->sys, st, &top, &c, &clen, &is_last)) {
                size_t child;
                struct node *nd;

                r->work += clen + 1;
                if (r->work > AM_MAX_WORK) {
                        res->st = R_LIMIT;
                        return 0;
                }
                if (res->virt > 0) { /* below a name that does not exist */
                        if (clen == 2 && c[0] == '.' && c[1] == '.')
                                res->virt--;
                        else if (!(clen == 1 && c[0] == '.'))
                                res->virt++;
                        continue;
                }
                if (clen == 1 && c[0] == '.')
                        continue;
                if (clen == 2 && c[0] == '.' && c[1] == '.') {
                        if (cur == AM_ROOT) {
                                res->st = R_ESCAPE;
                                return 0;
                        }
                        cur = r->nodes[cur].parent;
                        continue;
                }
                if (make_key(r->sys, c, clen, &r->key, r->err) < 0)
                        return -1;
                child = lookup(r, cur, r->key.data);
                if (child == AM_NONE) {
                        if (is_last) {
                                res->dir = cur;
                                res->last = c;
                                res->last_len = clen;
                                return 0;
                        }
                        if (!create) {
                                res->virt = 1;
                                continue;
                        }
                        child = add_node(r, cur, c, clen, N_DIR, AM_NONE);
                        if (child == AM_NONE)
                                return -1;
                        cur = child;
                        continue;
                }
                nd = &r->nodes[child];
                if (nd->type == N_LINK && (!is_last || follow_last)) {
                        if (++res->links > AM_MAX_LINKS || top + 1 >= (int)CC_ARRAY_LEN(st)) {
                                res->st = R_LOOP;
                                return 0;
                        }
                        if (res->first_link == AM_NONE)
                                res->first_link = child;
                        res->last_link = child;
                        if (nd->target_len == 0) {
                                res->st = R_EMPTYLINK;
                                return 0;
                        }
                        if (is_abs_target(r->sys, nd->target, nd->target_len)) {
                                res->st = R_ESCAPE;
                                return 0;
                        }
                        top++;
                        st[top].p = nd->target;
                        st[top].end = nd->target + nd->target_len;
                        continue;
                }
                if (nd->type != N_DIR && !is_last) {
                        res->st = R_NOTDIR;
                        res->blocker = child;
                        return 0;
                }
                cur = child;
        }
        if (res->virt > 0)
                return 0;
        res->node = cur;
        res->dir = r->nodes[cur].parent;
        return 0;
}

/* ---- reasons ------------------------------------------------------------------- */

static int why(struct run *r, size_t i, unsigned bit, const char *fmt, ...) CC_PRINTF(4, 5);

/* A reason is one line: control characters of names become '?'. */
static void one_line(char *s)
{
        for (; *s; s++)
                if ((unsigned char)*s < 0x20 || *s == 0x7f)
                        *s = '?';
}

static int why(struct run *r, size_t i, unsigned bit, const char *fmt, ...)
{
        va_list ap;
        char *s;

        va_start(ap, fmt);
        s = cc_vasprintf(r->err, fmt, ap);
        va_end(ap);
        if (s == NULL)
                return -1;
        one_line(s);
        r->bits[i] |= bit;
        if (r->why[i].n > AM_MAX_REASONS || cc_strv_contains(&r->why[i], s)) {
                free(s);
                return 0;
        }
        if (r->why[i].n == AM_MAX_REASONS) {
                free(s);
                return cc_strv_push(&r->why[i], "more reasons are not shown", r->err);
        }
        return cc_strv_take(&r->why[i], s, r->err);
}

/* `entry N "name"` of member i, into buf. */
static const char *entry(const struct run *r, size_t i, char *buf, size_t size)
{
        char qb[QBUF];
        const struct am_member *mb = &r->am->m[i];

        snprintf(buf, size, "entry %zu \"%s\"", i + 1, q(qb, sizeof(qb), mb->name, mb->name_len));
        return buf;
}

#define EBUF (QBUF + 32)

/* `entry N "name" (-> "target")` of a symbolic link node. */
static const char *link_desc(const struct run *r, size_t n, char *buf, size_t size)
{
        const struct node *nd = &r->nodes[n];
        char eb[EBUF], qb[QBUF];

        if (nd->member == AM_NONE)
                snprintf(buf, size, "a symbolic link");
        else
                snprintf(buf, size, "%s (-> \"%s\")", entry(r, nd->member, eb, sizeof(eb)),
                         q(qb, sizeof(qb), nd->target, nd->target_len));
        return buf;
}

#define LBUF (EBUF + QBUF + 16)

/* What a node is, for a reason: an entry, or the directory its path names. */
static const char *node_desc(const struct run *r, size_t n, char *buf, size_t size)
{
        char pb[PBUF];

        if (n == AM_ROOT)
                snprintf(buf, size, "the target directory itself");
        else if (r->nodes[n].member == AM_NONE)
                snprintf(buf, size, "the directory \"%s\" that other entries' names make",
                         node_path(r, n, pb, sizeof(pb)));
        else
                entry(r, r->nodes[n].member, buf, size);
        return buf;
}

#define NBUF (PBUF + 64)

/* Two names the same after this system's folding of every component. */
static int keys_equal(struct run *r, const char *a, const char *b, int *equal)
{
        struct seg sa = {a, a + strlen(a)}, sb = {b, b + strlen(b)};
        int ta = 0, tb = 0, la, lb;
        const char *ca, *cb;
        size_t na, nb;

        *equal = 0;
        for (;;) {
                int ha = next_comp(r->sys, &sa, &ta, &ca, &na, &la);
                int hb = next_comp(r->sys, &sb, &tb, &cb, &nb, &lb);

                if (!ha || !hb) {
                        *equal = !ha && !hb;
                        return 0;
                }
                if (make_key(r->sys, ca, na, &r->key, r->err) < 0 || make_key(r->sys, cb, nb, &r->key2, r->err) < 0)
                        return -1;
                if (strcmp(r->key.data, r->key2.data) != 0)
                        return 0;
        }
}

/* ---- judging one member ----------------------------------------------------------- */

static int not_judged(struct run *r, size_t i)
{
        return why(r, i, CC_AM_P_NOT_JUDGED,
                   "not judged: resolving the archive's paths and links took more than the work bound");
}

/* A hard link: what its target is. *ntype: the node it makes (a link to a
 * symbolic link is one); *lt, *ltl: that link's target; *from: its member. */
static int judge_hardlink(struct run *r, size_t i, int *ntype, const char **lt, size_t *ltl, size_t *from)
{
        const struct am_member *mb = &r->am->m[i];
        struct res res;
        char qb[QBUF], lb[LBUF], nb[NBUF];
        const struct node *nd;

        *ntype = N_FILE;
        *from = AM_NONE;
        if (mb->link == NULL || mb->link_len == 0 || memchr(mb->link, '\0', mb->link_len) != NULL ||
            mb->link_len > AM_MAX_PATH || mb->link[0] == '/' || drive_letter(mb->link, mb->link_len) ||
            (r->sys == SYS_WINDOWS && mb->link[0] == '\\'))
                return 0; /* the lexical reasons say why */
        q(qb, sizeof(qb), mb->link, mb->link_len);
        if (resolve(r, AM_ROOT, mb->link, mb->link_len, 0, 0, &res) < 0)
                return -1;
        switch (res.st) {
        case R_ESCAPE:
                if (res.links > 0)
                        return why(r, i, CC_AM_P_HARDLINK | CC_AM_P_ESCAPE,
                                   "hard link target \"%s\" leads outside the target through the symbolic link %s", qb,
                                   link_desc(r, res.first_link, lb, sizeof(lb)));
                return why(r, i, CC_AM_P_HARDLINK | CC_AM_P_ESCAPE, "hard link target \"%s\" leads outside the target",
                           qb);
        case R_LOOP:
                return why(r, i, CC_AM_P_HARDLINK | CC_AM_P_LINK_LOOP,
                           "hard link target \"%s\" takes more than 40 symbolic links to resolve", qb);
        case R_NOTDIR:
                return why(r, i, CC_AM_P_HARDLINK, "hard link target \"%s\" is below %s, which is not a directory", qb,
                           node_desc(r, res.blocker, nb, sizeof(nb)));
        case R_EMPTYLINK:
                return why(r, i, CC_AM_P_HARDLINK, "hard link target \"%s\" passes through %s, which has no target", qb,
                           link_desc(r, res.last_link, lb, sizeof(lb)));
        case R_LIMIT:
                return not_judged(r, i);
        default:
                break;
        }
        if (res.links > 0 && why(r, i, CC_AM_P_HARDLINK | CC_AM_P_THROUGH_LINK,
                                 "hard link target \"%s\" passes through the symbolic link %s", qb,
                                 link_desc(r, res.first_link, lb, sizeof(lb))) < 0)
                return -1;
        if (res.node == AM_NONE)
                return why(r, i, CC_AM_P_HARDLINK, "hard link to \"%s\", which no earlier entry created", qb);
        nd = &r->nodes[res.node];
        switch (nd->type) {
        case N_DIR:
                return why(r, i, CC_AM_P_HARDLINK, "hard link to a directory, %s",
                           node_desc(r, res.node, nb, sizeof(nb)));
        case N_SPECIAL:
                *ntype = N_SPECIAL;
                return why(r, i, CC_AM_P_HARDLINK | CC_AM_P_SPECIAL, "hard link to %s, which is not a regular file",
                           node_desc(r, res.node, nb, sizeof(nb)));
        case N_LINK:
                *ntype = N_LINK;
                *lt = nd->target;
                *ltl = nd->target_len;
                *from = nd->member;
                return 0;
        default:
                if (nd->member != AM_NONE && (r->am->m[nd->member].lex | r->bits[nd->member]) != 0)
                        return why(r, i, CC_AM_P_HARDLINK, "hard link to %s, which is unsafe",
                                   node_desc(r, res.node, nb, sizeof(nb)));
                return 0;
        }
}

/* Member i lands where node n already is. */
static int land_on(struct run *r, size_t i, size_t n, int ntype, const char *lt, size_t ltl)
{
        struct node *nd = &r->nodes[n];
        const struct am_member *mb = &r->am->m[i];
        size_t prev = nd->member;
        char nb[NBUF], lb[LBUF], eb[EBUF], pb[PBUF];
        int same = 0, folded = 0;

        if (nd->type == N_DIR) {
                if (ntype == N_DIR) {
                        r->at[i] = n;
                        if (nd->member == AM_NONE)
                                nd->member = i;
                        return 0;
                }
                return why(r, i, CC_AM_P_CONFLICT, "would replace %s, a directory", node_desc(r, n, nb, sizeof(nb)));
        }
        if (nd->type == N_LINK && ntype != N_LINK) {
                struct res lr;

                /* an extraction that opens the name, or keeps a directory
                 * link, follows the link: it stays in the model */
                r->at[i] = n;
                if (resolve(r, nd->parent, nd->target, nd->target_len, 1, 0, &lr) < 0)
                        return -1;
                if (prev != AM_NONE && why(r, prev, CC_AM_P_DUPLICATE, "%s is written where this symbolic link is",
                                           entry(r, i, eb, sizeof(eb))) < 0)
                        return -1;
                if (lr.st == R_ESCAPE)
                        return why(r, i, CC_AM_P_THROUGH_LINK | CC_AM_P_ESCAPE,
                                   "lands on the symbolic link %s: an extraction that follows it (Python's tarfile "
                                   "does) writes outside the target",
                                   link_desc(r, n, lb, sizeof(lb)));
                if (lr.st == R_OK && lr.node != AM_NONE)
                        return why(r, i, CC_AM_P_THROUGH_LINK,
                                   "lands on the symbolic link %s: an extraction that follows it (Python's tarfile "
                                   "does) writes to \"%s\"",
                                   link_desc(r, n, lb, sizeof(lb)), node_path(r, lr.node, pb, sizeof(pb)));
                if (lr.st == R_OK && lr.virt == 0 && lr.dir != AM_NONE) {
                        const char *d = node_path(r, lr.dir, pb, sizeof(pb));

                        return why(r, i, CC_AM_P_THROUGH_LINK,
                                   "lands on the symbolic link %s: an extraction that follows it (Python's tarfile "
                                   "does) writes to \"%s%s%.*s\"",
                                   link_desc(r, n, lb, sizeof(lb)), d, d[0] ? "/" : "", (int)lr.last_len, lr.last);
                }
                return why(r, i, CC_AM_P_THROUGH_LINK,
                           "lands on the symbolic link %s: an extraction that follows it (Python's tarfile does) "
                           "writes where it points",
                           link_desc(r, n, lb, sizeof(lb)));
        }
        if (ntype == N_DIR)
                return why(r, i, CC_AM_P_CONFLICT, "a directory where %s is, which is not one",
                           node_desc(r, n, nb, sizeof(nb)));
        if (prev != AM_NONE) {
                same = strcmp(r->am->m[prev].norm, mb->norm) == 0;
                if (!same && r->sys != SYS_LINUX && keys_equal(r, r->am->m[prev].norm, mb->norm, &folded) < 0)
                        return -1;
                entry(r, prev, nb, sizeof(nb));
                entry(r, i, eb, sizeof(eb));
                if (same) {
                        if (why(r, i, CC_AM_P_DUPLICATE, "%s has the same name: this later one wins", nb) < 0 ||
                            why(r, prev, CC_AM_P_DUPLICATE, "%s has the same name and wins over this one", eb) < 0)
                                return -1;
                } else if (folded) {
                        if (why(r, i, CC_AM_P_CASE,
                                "names the same file as %s on a case-insensitive file system: this later one wins",
                                nb) < 0 ||
                            why(r, prev, CC_AM_P_CASE,
                                "%s names the same file on a case-insensitive file system and wins over this one",
                                eb) < 0)
                                return -1;
                } else {
                        if (why(r, i, CC_AM_P_DUPLICATE, "lands on the same file as %s: this later one wins", nb) < 0 ||
                            why(r, prev, CC_AM_P_DUPLICATE, "%s lands on the same file and wins over this one", eb) < 0)
                                return -1;
                }
        }
        nd->type = ntype;
        nd->member = i;
        nd->target = lt;
        nd->target_len = ltl;
        r->at[i] = n;
        return 0;
}

static int judge_member(struct run *r, size_t i)
{
        const struct am_member *mb = &r->am->m[i];
        struct res res;
        int ntype;
        const char *lt = NULL;
        size_t ltl = 0, from = AM_NONE, n;
        char lb[LBUF], nb[NBUF], pb[PBUF];

        if (r->work > AM_MAX_WORK)
                return not_judged(r, i);
        if (!mb->placeable || (r->sys == SYS_WINDOWS && mb->name[0] == '\\'))
                return 0; /* the lexical reasons say why */
        switch (mb->type) {
        case CC_AM_FILE:
                ntype = N_FILE;
                break;
        case CC_AM_DIR:
                ntype = N_DIR;
                break;
        case CC_AM_SYMLINK:
                ntype = N_LINK;
                if (mb->link != NULL && mb->link_len <= AM_MAX_PATH) {
                        lt = mb->link;
                        ltl = mb->link_len;
                }
                break;
        case CC_AM_HARDLINK:
                if (judge_hardlink(r, i, &ntype, &lt, &ltl, &from) < 0)
                        return -1;
                break;
        default:
                ntype = N_SPECIAL;
                break;
        }
        if (resolve(r, AM_ROOT, mb->name, mb->name_len, 0, 1, &res) < 0)
                return -1;
        switch (res.st) {
        case R_ESCAPE:
                if (res.links > 0)
                        return why(r, i, CC_AM_P_ESCAPE | CC_AM_P_THROUGH_LINK,
                                   "written through the symbolic link %s: it lands outside the target",
                                   link_desc(r, res.first_link, lb, sizeof(lb)));
                return why(r, i, CC_AM_P_ESCAPE, "its \"..\" components lead outside the target");
        case R_LOOP:
                return why(r, i, CC_AM_P_THROUGH_LINK | CC_AM_P_LINK_LOOP,
                           "its path takes more than 40 symbolic links to resolve, from %s",
                           link_desc(r, res.first_link, lb, sizeof(lb)));
        case R_NOTDIR:
                return why(r, i, CC_AM_P_CONFLICT, "a parent directory of it is %s, which is not a directory",
                           node_desc(r, res.blocker, nb, sizeof(nb)));
        case R_EMPTYLINK:
                return why(r, i, CC_AM_P_THROUGH_LINK, "its path passes through %s, which has no target",
                           link_desc(r, res.last_link, lb, sizeof(lb)));
        case R_LIMIT:
                return not_judged(r, i);
        default:
                break;
        }
        if (res.links > 0) {
                const char *where = res.node != AM_NONE ? node_path(r, res.node, pb, sizeof(pb))
                                                        : node_path(r, res.dir, pb, sizeof(pb));

                if (why(r, i, CC_AM_P_THROUGH_LINK, "written through the symbolic link %s, into \"%s%s%.*s\"",
                        link_desc(r, res.first_link, lb, sizeof(lb)), where, res.node == AM_NONE && where[0] ? "/" : "",
                        res.node == AM_NONE ? (int)res.last_len : 0, res.node == AM_NONE ? res.last : "") < 0)
                        return -1;
        }
        if (res.node != AM_NONE) {
                if (land_on(r, i, res.node, ntype, lt, ltl) < 0)
                        return -1;
        } else {
                if (make_key(r->sys, res.last, res.last_len, &r->key, r->err) < 0)
                        return -1;
                n = add_node(r, res.dir, res.last, res.last_len, ntype, i);
                if (n == AM_NONE)
                        return -1;
                r->nodes[n].target = lt;
                r->nodes[n].target_len = ltl;
                r->at[i] = n;
        }
        if (ntype == N_LINK && lt != NULL && r->at[i] != AM_NONE && r->nodes[r->at[i]].type == N_LINK) {
                r->ltarget[i] = lt;
                r->ltarget_len[i] = ltl;
                r->lfrom[i] = from;
        }
        return 0;
}

/* At the end: where member i's symbolic link points in the finished tree. */
static int judge_link(struct run *r, size_t i)
{
        struct res res;
        char qb[QBUF], lb[LBUF], eb[EBUF], pb[PBUF];
        size_t dir = r->nodes[r->at[i]].parent;
        const char *t = r->ltarget[i];
        size_t tl = r->ltarget_len[i];

        if (is_abs_target(r->sys, t, tl) || t[0] == '/')
                return r->lfrom[i] == AM_NONE
                           ? 0 /* the lexical reasons say why */
                           : why(r, i, CC_AM_P_HARDLINK | CC_AM_P_LINK_ESCAPE,
                                 "hard link to the symbolic link %s, which points outside the target",
                                 entry(r, r->lfrom[i], eb, sizeof(eb)));
        if (resolve(r, dir, t, tl, 1, 0, &res) < 0)
                return -1;
        q(qb, sizeof(qb), t, tl);
        switch (res.st) {
        case R_ESCAPE:
                if (r->lfrom[i] != AM_NONE)
                        return why(r, i, CC_AM_P_HARDLINK | CC_AM_P_LINK_ESCAPE,
                                   "hard link to the symbolic link %s, which points outside the target from here",
                                   entry(r, r->lfrom[i], eb, sizeof(eb)));
                if (res.links > 0)
                        return why(r, i, CC_AM_P_LINK_ESCAPE,
                                   "symbolic link points outside the archive through the symbolic link %s",
                                   link_desc(r, res.first_link, lb, sizeof(lb)));
                return why(r, i, CC_AM_P_LINK_ESCAPE, "symbolic link points outside the archive (\"%s\" from \"%s\")",
                           qb, node_path(r, dir, pb, sizeof(pb)));
        case R_LOOP:
                return why(r, i, CC_AM_P_LINK_LOOP, "symbolic link loop: \"%s\" takes more than 40 links to resolve",
                           qb);
        case R_LIMIT:
                return not_judged(r, i);
        default:
                return 0;
        }
}

/* ---- a run and the verdicts ------------------------------------------------------ */

static void run_free(struct run *r)
{
        size_t i;

        for (i = 0; i < r->nn; i++) {
                free(r->nodes[i].name);
                free(r->nodes[i].key);
        }
        free(r->nodes);
        free(r->slots);
        cc_buf_free(&r->key);
        cc_buf_free(&r->key2);
        if (r->why != NULL)
                for (i = 0; i < r->am->n; i++)
                        cc_strv_free(&r->why[i]);
        free(r->why);
        free(r->bits);
        free(r->at);
        free(r->ltarget);
        free(r->ltarget_len);
        free(r->lfrom);
        memset(r, 0, sizeof(*r));
}

static int run_model(struct run *r, struct cc_archive_model *am, int sys, cc_error *err)
{
        size_t i, n = am->n ? am->n : 1;

        memset(r, 0, sizeof(*r));
        r->sys = sys;
        r->am = am;
        r->err = err;
        r->bits = cc_calloc(err, n, sizeof(*r->bits));
        r->why = cc_calloc(err, n, sizeof(*r->why));
        r->at = cc_malloc(err, n * sizeof(*r->at));
        r->ltarget = cc_calloc(err, n, sizeof(*r->ltarget));
        r->ltarget_len = cc_calloc(err, n, sizeof(*r->ltarget_len));
        r->lfrom = cc_malloc(err, n * sizeof(*r->lfrom));
        if (r->bits == NULL || r->why == NULL || r->at == NULL || r->ltarget == NULL || r->ltarget_len == NULL ||
            r->lfrom == NULL)
                return -1;
        for (i = 0; i < n; i++)
                r->at[i] = r->lfrom[i] = AM_NONE;
        if (add_node(r, AM_NONE, "", 0, N_DIR, AM_NONE) == AM_NONE)
                return -1;
        for (i = 0; i < am->n; i++)
                if (judge_member(r, i) < 0)
                        return -1;
        for (i = 0; i < am->n; i++)
                if (r->ltarget[i] != NULL && judge_link(r, i) < 0)
                        return -1;
        return 0;
}

/* ---- lexical judgement ------------------------------------------------------------ */

static int lexwhy(struct am_member *mb, unsigned bit, cc_error *err, const char *fmt, ...) CC_PRINTF(4, 5);

static int lexwhy(struct am_member *mb, unsigned bit, cc_error *err, const char *fmt, ...)
{
        va_list ap;
        char *s;

        va_start(ap, fmt);
        s = cc_vasprintf(err, fmt, ap);
        va_end(ap);
        if (s == NULL)
                return -1;
        one_line(s);
        mb->lex |= bit;
        return cc_strv_take(&mb->lexwhy, s, err);
}

static int has_dotdot(const char *p, size_t len)
{
        size_t i = 0;

        while (i < len) {
                size_t n = i;

                while (n < len && p[n] != '/' && p[n] != '\\')
                        n++;
                if (n - i == 2 && p[i] == '.' && p[i + 1] == '.')
                        return 1;
                i = n + 1;
        }
        return 0;
}

/* The Windows device names a component must not be (before any dot). */
static int win_reserved(const char *c, size_t n)
{
        static const char *const dev[] = {"CON", "PRN", "AUX", "NUL"};
        size_t k, base = 0;

        while (base < n && c[base] != '.')
                base++;
        while (base > 0 && c[base - 1] == ' ')
                base--;
        for (k = 0; k < CC_ARRAY_LEN(dev); k++)
                if (base == 3 && cc_strncasecmp(c, dev[k], 3) == 0)
                        return 1;
        return base == 4 && (cc_strncasecmp(c, "COM", 3) == 0 || cc_strncasecmp(c, "LPT", 3) == 0) && c[3] >= '1' &&
               c[3] <= '9';
}

static int lex_name(struct am_member *mb, cc_error *err)
{
        const char *s = mb->name;
        size_t len = mb->name_len, i, nul = am_strnlen(s, len);
        int control = 0, colon = 0, winbad = 0, longc = 0, trail = 0;
        char reserved[16] = "";

        if (len == 0)
                return lexwhy(mb, CC_AM_P_NAME, err, "empty name");
        if (nul < len && lexwhy(mb, CC_AM_P_NAME, err, "name contains a NUL byte") < 0)
                return -1;
        if (len > AM_MAX_PATH && lexwhy(mb, CC_AM_P_LONG, err, "name longer than %d bytes", AM_MAX_PATH) < 0)
                return -1;
        for (i = 0; i < len;) {
                size_t n = i;

                while (n < len && s[n] != '/' && s[n] != '\\')
                        n++;
                if (n - i > AM_MAX_COMPONENT)
                        longc = 1;
                if (n > i && (s[n - 1] == '.' || s[n - 1] == ' ') && !(n - i == 1 && s[i] == '.') &&
                    !(n - i == 2 && s[i] == '.' && s[i + 1] == '.'))
                        trail = 1;
                if (reserved[0] == '\0' && n - i < sizeof(reserved) && win_reserved(s + i, n - i))
                        snprintf(reserved, sizeof(reserved), "%.*s", (int)(n - i), s + i);
                i = n + 1;
        }
        for (i = 0; i < nul; i++) {
                unsigned char c = (unsigned char)s[i];

                if (c < 0x20 || c == 0x7f)
                        control = 1;
                if (c == ':' && !(i == 1 && drive_letter(s, len)))
                        colon = 1;
                if (c == '<' || c == '>' || c == '"' || c == '|' || c == '?' || c == '*')
                        winbad = 1;
        }
        if (longc && lexwhy(mb, CC_AM_P_LONG, err, "a name component is longer than %d bytes", AM_MAX_COMPONENT) < 0)
                return -1;
        if (!cc_utf8_valid(s, len) && lexwhy(mb, CC_AM_P_NAME, err, "name is not valid UTF-8") < 0)
                return -1;
        if (control && lexwhy(mb, CC_AM_P_NAME, err, "name contains control characters") < 0)
                return -1;
        if (s[0] == '/' && lexwhy(mb, CC_AM_P_ABSOLUTE, err, "absolute path") < 0)
                return -1;
        if (s[0] == '\\' && lexwhy(mb, CC_AM_P_ABSOLUTE, err, "absolute path on Windows") < 0)
                return -1;
        if (drive_letter(s, len) && lexwhy(mb, CC_AM_P_ABSOLUTE, err, "path starts with a drive letter") < 0)
                return -1;
        if (memchr(s, '\\', len) != NULL && lexwhy(mb, CC_AM_P_NAME, err, "path contains a backslash") < 0)
                return -1;
        if (has_dotdot(s, len) && lexwhy(mb, CC_AM_P_DOTDOT, err, "path contains a \"..\" component") < 0)
                return -1;
        if (colon &&
            lexwhy(mb, CC_AM_P_NAME, err, "name contains ':' (on Windows: an alternate data stream of a file)") < 0)
                return -1;
        if (winbad &&
            lexwhy(mb, CC_AM_P_NAME, err, "name contains a character Windows does not allow (< > \" | ? *)") < 0)
                return -1;
        if (reserved[0] &&
            lexwhy(mb, CC_AM_P_NAME, err, "the name component \"%s\" is a device on Windows", reserved) < 0)
                return -1;
        if (trail && lexwhy(mb, CC_AM_P_NAME, err,
                            "a name component ends in a dot or a space (on Windows: dropped from the name)") < 0)
                return -1;
        mb->placeable = nul == len && len <= AM_MAX_PATH && !longc && !(mb->lex & CC_AM_P_ABSOLUTE);
        return 0;
}

static int lex_rest(struct am_member *mb, cc_error *err)
{
        static const char *const special[] = {
            [CC_AM_CHARDEV] = "a character device",
            [CC_AM_BLOCKDEV] = "a block device",
            [CC_AM_FIFO] = "a FIFO (named pipe)",
            [CC_AM_SOCKET] = "a socket",
            [CC_AM_OTHER] = "an entry of a type an install does not write",
        };
        const char *t = mb->link;
        size_t tl = mb->link_len;

        if (mb->type >= CC_AM_CHARDEV && mb->type <= CC_AM_OTHER &&
            lexwhy(mb, CC_AM_P_SPECIAL, err, "%s", special[mb->type]) < 0)
                return -1;
        if (mb->has_mode && (mb->type == CC_AM_FILE || mb->type == CC_AM_DIR || mb->type == CC_AM_HARDLINK) &&
            (mb->mode & 07002) != 0) {
                char what[64] = "";

                if (mb->mode & 04000)
                        strcat(what, ", setuid");
                if (mb->mode & 02000)
                        strcat(what, ", setgid");
                if (mb->mode & 01000)
                        strcat(what, ", sticky");
                if (mb->mode & 00002)
                        strcat(what, ", world-writable");
                if (lexwhy(mb, CC_AM_P_MODE, err, "mode %04o:%s", (unsigned)(mb->mode & 07777), what + 1) < 0)
                        return -1;
        }
        if (mb->type == CC_AM_SYMLINK) {
                if (t == NULL || tl == 0)
                        return lexwhy(mb, CC_AM_P_NAME, err, "symbolic link with an empty target");
                if (am_strnlen(t, tl) < tl &&
                    lexwhy(mb, CC_AM_P_NAME, err, "symbolic link target contains a NUL byte") < 0)
                        return -1;
                if (tl > AM_MAX_PATH &&
                    lexwhy(mb, CC_AM_P_LONG, err, "symbolic link target longer than %d bytes", AM_MAX_PATH) < 0)
                        return -1;
                if ((t[0] == '/' || t[0] == '\\') &&
                    lexwhy(mb, CC_AM_P_LINK_ESCAPE, err, "symbolic link to an absolute path") < 0)
                        return -1;
                if (drive_letter(t, tl) &&
                    lexwhy(mb, CC_AM_P_LINK_ESCAPE, err, "symbolic link to a drive letter path") < 0)
                        return -1;
                if (memchr(t, '\\', tl) != NULL &&
                    lexwhy(mb, CC_AM_P_NAME, err, "symbolic link target contains a backslash") < 0)
                        return -1;
        }
        if (mb->type == CC_AM_HARDLINK) {
                if (t == NULL || tl == 0)
                        return lexwhy(mb, CC_AM_P_HARDLINK, err, "hard link with an empty target");
                if (am_strnlen(t, tl) < tl &&
                    lexwhy(mb, CC_AM_P_HARDLINK, err, "hard link target contains a NUL byte") < 0)
                        return -1;
                if ((t[0] == '/' || t[0] == '\\' || drive_letter(t, tl)) &&
                    lexwhy(mb, CC_AM_P_HARDLINK | CC_AM_P_ESCAPE, err, "hard link to an absolute path") < 0)
                        return -1;
                if (has_dotdot(t, tl) &&
                    lexwhy(mb, CC_AM_P_HARDLINK, err, "hard link target contains a \"..\" component") < 0)
                        return -1;
                if (memchr(t, '\\', tl) != NULL &&
                    lexwhy(mb, CC_AM_P_NAME, err, "hard link target contains a backslash") < 0)
                        return -1;
        }
        return 0;
}

/* ---- the public interface --------------------------------------------------------- */

cc_archive_model *cc_am_new(cc_error *err)
{
        return cc_calloc(err, 1, sizeof(cc_archive_model));
}

static void member_free(struct am_member *mb)
{
        free(mb->name);
        free(mb->link);
        free(mb->norm);
        free(mb->reason);
        cc_strv_free(&mb->lexwhy);
}

void cc_am_free(cc_archive_model *m)
{
        size_t i;

        if (m == NULL)
                return;
        for (i = 0; i < m->n; i++)
                member_free(&m->m[i]);
        free(m->m);
        free(m);
}

int cc_am_add(cc_archive_model *m, const cc_am_member *in, cc_error *err)
{
        struct am_member mb;

        memset(&mb, 0, sizeof(mb));
        if (m->n == m->cap) {
                size_t ncap = m->cap ? m->cap * 2 : 64;
                struct am_member *p = cc_realloc(err, m->m, ncap * sizeof(*p));

                if (p == NULL)
                        return -1;
                m->m = p;
                m->cap = ncap;
        }
        mb.name_len = in->name != NULL ? in->name_len : 0;
        mb.name = cc_malloc(err, mb.name_len + 1);
        if (mb.name == NULL)
                goto fail;
        if (mb.name_len > 0)
                memcpy(mb.name, in->name, mb.name_len);
        mb.name[mb.name_len] = '\0';
        if (in->link != NULL) {
                mb.link_len = in->link_len;
                mb.link = cc_malloc(err, mb.link_len + 1);
                if (mb.link == NULL)
                        goto fail;
                memcpy(mb.link, in->link, mb.link_len);
                mb.link[mb.link_len] = '\0';
        }
        mb.type = in->type >= CC_AM_FILE && in->type <= CC_AM_OTHER ? in->type : CC_AM_OTHER;
        mb.mode = in->mode & 07777;
        mb.has_mode = in->has_mode;
        mb.norm = lex_norm(mb.name, am_strnlen(mb.name, mb.name_len), err);
        if (mb.norm == NULL || lex_name(&mb, err) < 0 || lex_rest(&mb, err) < 0)
                goto fail;
        m->m[m->n++] = mb;
        m->judged = 0;
        return 0;
fail:
        member_free(&mb);
        return -1;
}

/* The reasons of member i from the three runs, each said once; a reason not
 * seen on Linux names the systems that have it. */
static int merge(cc_archive_model *m, size_t i, struct run *runs, cc_error *err)
{
        struct am_member *mb = &m->m[i];
        cc_strv all = {0};
        cc_buf out = {0};
        size_t k;
        int rv = -1;

        mb->bits = mb->lex | runs[SYS_LINUX].bits[i] | runs[SYS_WINDOWS].bits[i] | runs[SYS_MACOS].bits[i];
        free(mb->reason);
        mb->reason = NULL;
        if (mb->bits == 0)
                return 0;
        for (k = 0; k < mb->lexwhy.n; k++)
                if (cc_strv_push(&all, mb->lexwhy.v[k], err) < 0)
                        goto fail;
        for (k = 0; k < runs[SYS_LINUX].why[i].n; k++)
                if (cc_strv_pushf(&all, 1, err, "%s", runs[SYS_LINUX].why[i].v[k]) < 0)
                        goto fail;
        for (k = 0; k < runs[SYS_WINDOWS].why[i].n; k++) {
                const char *s = runs[SYS_WINDOWS].why[i].v[k];

                if (cc_strv_contains(&runs[SYS_LINUX].why[i], s))
                        continue;
                if (cc_strv_pushf(&all, 1, err, "%s (on Windows%s)", s,
                                  cc_strv_contains(&runs[SYS_MACOS].why[i], s) ? " and macOS" : "") < 0)
                        goto fail;
        }
        for (k = 0; k < runs[SYS_MACOS].why[i].n; k++) {
                const char *s = runs[SYS_MACOS].why[i].v[k];

                if (cc_strv_contains(&runs[SYS_LINUX].why[i], s) || cc_strv_contains(&runs[SYS_WINDOWS].why[i], s))
                        continue;
                if (cc_strv_pushf(&all, 1, err, "%s (on macOS)", s) < 0)
                        goto fail;
        }
        for (k = 0; k < all.n; k++)
                if ((k > 0 && cc_buf_puts(&out, "; ", err) < 0) || cc_buf_puts(&out, all.v[k], err) < 0)
                        goto fail;
        mb->reason = out.len > 0 ? cc_buf_steal(&out) : cc_strdup(err, "unsafe");
        if (mb->reason == NULL)
                goto fail;
        rv = 0;
fail:
        cc_strv_free(&all);
        cc_buf_free(&out);
        return rv;
}

int cc_am_judge(cc_archive_model *m, cc_error *err)
{
        struct run runs[SYS_COUNT];
        size_t i;
        int s, rv = -1;

        memset(runs, 0, sizeof(runs));
        if (m->judged)
                return 0;
        for (s = 0; s < SYS_COUNT; s++)
                if (run_model(&runs[s], m, s, err) < 0)
                        goto fail;
        m->unsafe = 0;
        for (i = 0; i < m->n; i++) {
                if (merge(m, i, runs, err) < 0)
                        goto fail;
                m->unsafe += m->m[i].bits != 0;
        }
        m->judged = 1;
        rv = 0;
fail:
        for (s = 0; s < SYS_COUNT; s++)
                if (runs[s].am != NULL)
                        run_free(&runs[s]);
        return rv;
}

size_t cc_am_count(const cc_archive_model *m)
{
        return m != NULL ? m->n : 0;
}

unsigned cc_am_problems(const cc_archive_model *m, size_t i)
{
        return m != NULL && i < m->n ? m->m[i].bits : 0;
}

const char *cc_am_reason(const cc_archive_model *m, size_t i)
{
        return m != NULL && i < m->n ? m->m[i].reason : NULL;
}

size_t cc_am_unsafe_count(const cc_archive_model *m)
{
        return m != NULL ? m->unsafe : 0;
}

const char *cc_am_problem_name(unsigned bit)
{
        static const char *const names[CC_AM_NPROBLEMS] = {
            "name",           "absolute",       "dotdot",   "escape",   "through-symlink",
            "symlink-escape", "symlink-loop",   "hardlink", "special",  "mode",
            "duplicate",      "case-collision", "too-long", "conflict", "not-judged",
        };
        int k;

        for (k = 0; k < CC_AM_NPROBLEMS; k++)
                if (bit == 1u << k)
                        return names[k];
        return NULL;
}

int cc_archive_judge(const cc_am_member *members, size_t n, cc_am_verdict **out, cc_error *err)
{
        cc_archive_model *m = cc_am_new(err);
        cc_am_verdict *v = NULL;
        size_t i;
        int rv = -1;

        *out = NULL;
        if (m == NULL)
                return -1;
        for (i = 0; i < n; i++)
                if (cc_am_add(m, &members[i], err) < 0)
                        goto fail;
        if (cc_am_judge(m, err) < 0)
                goto fail;
        v = cc_calloc(err, n ? n : 1, sizeof(*v));
        if (v == NULL)
                goto fail;
        for (i = 0; i < n; i++) {
                v[i].problems = m->m[i].bits;
                v[i].reason = m->m[i].reason; /* moved */
                m->m[i].reason = NULL;
        }
        *out = v;
        rv = 0;
fail:
        cc_am_free(m);
        return rv;
}

void cc_am_verdicts_free(cc_am_verdict *v, size_t n)
{
        size_t i;

        if (v == NULL)
                return;
        for (i = 0; i < n; i++)
                free(v[i].reason);
        free(v);
}
