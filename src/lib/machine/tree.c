/* File trees: the live file system or a directory seen as "/", with the
 * path rules of Linux or Windows. Symbolic links inside a rooted tree are
 * resolved here, component by component, so that an absolute link target
 * stays inside the root. Directory lookups are cached: a loader emulation
 * asks for the same (mostly missing) directories again and again. */
#include "tree.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINKS 40
#define MAX_COMPONENTS 4096
#define MAX_CACHED_DIRS 200000
#define MAX_CACHED_NAMES 2000000
#define MAX_LIST 100000

struct dir_ent {
        cc_stat st;
        char *host;
        char *canonical;
        cc_strv comps; /* canonical components below the root */
        char why[192];
        int why_kind;
};

struct cc_tree {
        int system;
        int nocase;
        int passthrough; /* a live Windows file system: the OS does everything */
        char *root;      /* host root; "" for the live POSIX file system */
        cc_smap dirs;    /* normalised virtual directory -> struct dir_ent */
        cc_smap lists;   /* host directory -> cc_strv (case-insensitive name lookups) */
        size_t cached_names;
        int slow; /* cc_tree_set_fast(t, 0): the general walk for every path */
};

static void free_dir_ent(void *ctx, const char *key, void *v)
{
        struct dir_ent *d = v;

        (void)ctx;
        (void)key;
        if (d == NULL)
                return;
        free(d->host);
        free(d->canonical);
        cc_strv_free(&d->comps);
        free(d);
}

static void free_list(void *ctx, const char *key, void *v)
{
        (void)ctx;
        (void)key;
        if (v != NULL) {
                cc_strv_free(v);
                free(v);
        }
}

int cc_tree_open(const char *root, int system, cc_tree **out, cc_error *err)
{
        cc_tree *t;
        int live = root == NULL || root[0] == '\0';

        *out = NULL;
        if (system != CC_SYS_LINUX && system != CC_SYS_WINDOWS)
                return cc_err(err, CC_ERR_USAGE, "unknown system for a file tree");
        if (live && (system == CC_SYS_WINDOWS) != (cc_host_is_windows() != 0))
                return cc_err(err, CC_ERR_USAGE,
                              "emulating %s over this machine's own files needs --root DIR (the tree that is %s)",
                              system == CC_SYS_WINDOWS ? "Windows" : "Linux", system == CC_SYS_WINDOWS ? "C:\\" : "/");
        if (!live) {
                cc_stat st;

                if (cc_stat_path(root, &st, err) < 0)
                        return -1;
                if (st.type == CC_FT_NONE)
                        return cc_err(err, CC_ERR_NOTFOUND, "%s: no such directory", root);
                if (st.type != CC_FT_DIR)
                        return cc_err(err, CC_ERR_USAGE, "%s: not a directory", root);
        }
        t = cc_calloc(err, 1, sizeof(*t));
        if (t == NULL)
                return -1;
        t->system = system;
        t->nocase = system == CC_SYS_WINDOWS;
        t->passthrough = live && system == CC_SYS_WINDOWS;
        t->dirs.nocase = t->nocase;
        t->lists.nocase = cc_host_is_windows();
        if (live) {
                t->root = cc_strdup(err, "");
        } else {
                size_t n = strlen(root);

                while (n > 1 && cc_is_sep(root[n - 1]))
                        n--;
                t->root = cc_strndup(err, root, n);
        }
        if (t->root == NULL) {
                free(t);
                return -1;
        }
        *out = t;
        return 0;
}

void cc_tree_free(cc_tree *t)
{
        if (t == NULL)
                return;
        cc_smap_each(&t->dirs, free_dir_ent, NULL);
        cc_smap_free(&t->dirs);
        cc_smap_each(&t->lists, free_list, NULL);
        cc_smap_free(&t->lists);
        free(t->root);
        free(t);
}

void cc_tree_set_fast(cc_tree *t, int on)
{
        t->slow = !on;
}

int cc_tree_system(const cc_tree *t)
{
        return t->system;
}

const char *cc_tree_root(const cc_tree *t)
{
        return t->root[0] ? t->root : NULL;
}

int cc_tree_nocase(const cc_tree *t)
{
        return t->nocase;
}

char cc_tree_sep(const cc_tree *t)
{
        return t->system == CC_SYS_WINDOWS ? '\\' : '/';
}

/* ---- virtual path strings ------------------------------------------------- */

static int is_vsep(const cc_tree *t, char c)
{
        return c == '/' || (t->system == CC_SYS_WINDOWS && c == '\\');
}

static int is_alpha(char c)
{
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* Windows: the length of a "\\?\" prefix (0 if none). */
static size_t win_verbatim(const char *p)
{
        if ((p[0] == '\\' || p[0] == '/') && (p[1] == '\\' || p[1] == '/') && (p[2] == '?' || p[2] == '.') &&
            (p[3] == '\\' || p[3] == '/') && is_alpha(p[4]) && p[5] == ':')
                return 4;
        return 0;
}

int cc_tree_is_abs(const cc_tree *t, const char *p)
{
        if (t->system != CC_SYS_WINDOWS)
                return p[0] == '/';
        if (is_vsep(t, p[0]) && is_vsep(t, p[1]))
                return 1; /* UNC and \\?\ paths */
        p += win_verbatim(p);
        if (is_alpha(p[0]) && p[1] == ':')
                return p[2] == '\\' || p[2] == '/';
        return p[0] == '\\' || p[0] == '/';
}

/* Split a virtual path into its drive (Windows: the upper-case letter, 0 for
 * Linux) and components ("" and "." dropped). UNC paths give drive '\\'. */
static int vsplit(const cc_tree *t, const char *p, char *drive, cc_strv *comps, cc_error *err)
{
        *drive = 0;
        if (t->system == CC_SYS_WINDOWS) {
                p += win_verbatim(p);
                if (is_alpha(p[0]) && p[1] == ':') {
                        *drive = (char)(p[0] & ~0x20);
                        p += 2;
                } else if (is_vsep(t, p[0]) && is_vsep(t, p[1])) {
                        *drive = '\\';
                        p += 2;
                } else {
                        *drive = 'C';
                }
        }
        while (*p) {
                const char *s;

                while (is_vsep(t, *p))
                        p++;
                s = p;
                while (*p && !is_vsep(t, *p))
                        p++;
                if (p == s || (p - s == 1 && s[0] == '.'))
                        continue;
                if (comps->n >= MAX_COMPONENTS)
                        return cc_err(err, CC_ERR_LIMIT, "a path of more than %d components", MAX_COMPONENTS);
                if (cc_strv_pushn(comps, s, (size_t)(p - s), err) < 0)
                        return -1;
        }
        return 0;
}

/* Write drive + components as a virtual path. */
static char *vjoin(const cc_tree *t, char drive, char *const *comps, size_t n, cc_error *err)
{
        cc_buf b = {0};
        char sep = cc_tree_sep(t);
        size_t i;

        if (t->system == CC_SYS_WINDOWS) {
                if (drive == '\\') {
                        if (cc_buf_puts(&b, "\\\\", err) < 0)
                                goto fail;
                } else if (cc_buf_putc(&b, drive ? drive : 'C', err) < 0 || cc_buf_puts(&b, ":\\", err) < 0) {
                        goto fail;
                }
        } else if (cc_buf_putc(&b, '/', err) < 0) {
                goto fail;
        }
        for (i = 0; i < n; i++) {
                if ((i && cc_buf_putc(&b, sep, err) < 0) || cc_buf_puts(&b, comps[i], err) < 0)
                        goto fail;
        }
        return cc_buf_steal(&b);
fail:
        cc_buf_free(&b);
        return NULL;
}

/* A POSIX path that cc_tree_abs would give back as it is: absolute, with no
 * empty or "." component and no separator at the end ("/" alone is one). */
static int posix_clean(const char *p)
{
        size_t comps = 0;

        if (p[0] != '/')
                return 0;
        if (p[1] == '\0')
                return 1;
        while (*p == '/') {
                const char *s = ++p;

                p += strcspn(p, "/");
                if (p == s || (p - s == 1 && s[0] == '.') || ++comps > MAX_COMPONENTS)
                        return 0;
        }
        return 1;
}

char *cc_tree_abs(const cc_tree *t, const char *cwd, const char *vpath, cc_error *err)
{
        cc_strv comps = {0};
        char drive = 0;
        char *r = NULL;

        /* the common case (a directory and a name the resolver joined) without
         * splitting it into components and joining them again */
        if (t->system != CC_SYS_WINDOWS && posix_clean(vpath))
                return cc_strdup(err, vpath);
        if (cc_tree_is_abs(t, vpath)) {
                if (vsplit(t, vpath, &drive, &comps, err) < 0)
                        goto fail;
        } else {
                if (cwd == NULL || !cc_tree_is_abs(t, cwd)) {
                        cc_err(err, CC_ERR_USAGE, "%s: a relative path and no current directory", vpath);
                        goto fail;
                }
                if (vsplit(t, cwd, &drive, &comps, err) < 0)
                        goto fail;
                if (t->system == CC_SYS_WINDOWS && is_alpha(vpath[0]) && vpath[1] == ':') {
                        /* "D:x": relative to the current directory of that drive; only C: is known */
                        char d2 = (char)(vpath[0] & ~0x20);

                        if (d2 != drive) {
                                cc_strv_free(&comps);
                                drive = d2;
                        }
                        vpath += 2;
                }
                {
                        char d;

                        if (vsplit(t, vpath, &d, &comps, err) < 0)
                                goto fail;
                }
        }
        r = vjoin(t, drive, comps.v, comps.n, err);
fail:
        cc_strv_free(&comps);
        return r;
}

char *cc_tree_join(const cc_tree *t, const char *dir, const char *name, cc_error *err)
{
        size_t n = strlen(dir);

        if (n == 0)
                return cc_strdup(err, name);
        if (is_vsep(t, dir[n - 1]))
                return cc_asprintf(err, "%s%s", dir, name);
        return cc_asprintf(err, "%s%c%s", dir, cc_tree_sep(t), name);
}

char *cc_tree_dirname(const cc_tree *t, const char *vpath, cc_error *err)
{
        cc_strv comps = {0};
        char drive;
        char *r = NULL;

        if (!cc_tree_is_abs(t, vpath)) {
                const char *b = cc_basename(vpath);

                if (b == vpath)
                        return cc_strdup(err, ".");
                return cc_strndup(err, vpath, (size_t)(b - vpath - 1));
        }
        if (vsplit(t, vpath, &drive, &comps, err) == 0)
                r = vjoin(t, drive, comps.v, comps.n ? comps.n - 1 : 0, err);
        cc_strv_free(&comps);
        return r;
}

int cc_tree_name_eq(const cc_tree *t, const char *a, const char *b)
{
        return t->nocase ? cc_strcasecmp(a, b) == 0 : strcmp(a, b) == 0;
}

int cc_tree_path_eq(const cc_tree *t, const char *a, const char *b)
{
        for (;; a++, b++) {
                char ca = *a, cb = *b;

                if (is_vsep(t, ca) && is_vsep(t, cb))
                        continue;
                if (t->nocase) {
                        ca = (char)cc_ascii_tolower((unsigned char)ca);
                        cb = (char)cc_ascii_tolower((unsigned char)cb);
                }
                if (ca != cb)
                        return 0;
                if (ca == '\0')
                        return 1;
        }
}

/* ---- host side ------------------------------------------------------------ */

static char *host_of(const cc_tree *t, char *const *comps, size_t n, cc_error *err)
{
        cc_buf b = {0};
        size_t i;

        if (cc_buf_puts(&b, t->root, err) < 0)
                goto fail;
        if (n == 0 && cc_buf_putc(&b, t->root[0] ? cc_path_sep() : '/', err) < 0)
                goto fail;
        for (i = 0; i < n; i++)
                if (cc_buf_putc(&b, t->root[0] || i ? cc_path_sep() : '/', err) < 0 ||
                    cc_buf_puts(&b, comps[i], err) < 0)
                        goto fail;
        return cc_buf_steal(&b);
fail:
        cc_buf_free(&b);
        return NULL;
}

/* The names of a host directory, cached (for case-insensitive matching). */
static const cc_strv *host_list(cc_tree *t, const char *host, cc_error *err)
{
        cc_strv *names;
        void *v = NULL;
        cc_error lerr = {0};

        if (cc_smap_get(&t->lists, host, &v))
                return v;
        names = cc_calloc(err, 1, sizeof(*names));
        if (names == NULL)
                return NULL;
        if (cc_list_dir(host, MAX_LIST, names, &lerr) < 0)
                cc_strv_free(names); /* unreadable: matches nothing */
        if (t->cached_names + names->n > MAX_CACHED_NAMES) {
                /* Over the cache's budget: answer from this listing, then drop it. */
                cc_smap_each(&t->lists, free_list, NULL);
                cc_smap_free(&t->lists);
                t->lists.nocase = cc_host_is_windows();
                t->cached_names = 0;
        }
        if (cc_smap_put(&t->lists, host, names, NULL, err) < 0) {
                cc_strv_free(names);
                free(names);
                return NULL;
        }
        t->cached_names += names->n;
        return names;
}

/* The on-disk spelling of name in host directory hdir: name itself when it
 * exists, else (case-insensitive trees) the first name equal but for case.
 * *spelled is NULL when there is none. */
static int spell(cc_tree *t, const char *hdir, const char *name, const char **spelled, cc_error *err)
{
        const cc_strv *names;
        size_t i;

        *spelled = NULL;
        names = host_list(t, hdir, err);
        if (names == NULL)
                return -1;
        for (i = 0; i < names->n; i++) {
                if (strcmp(names->v[i], name) == 0) {
                        *spelled = names->v[i];
                        return 0;
                }
        }
        for (i = 0; i < names->n; i++) {
                if (cc_strcasecmp(names->v[i], name) == 0) {
                        *spelled = names->v[i];
                        return 0;
                }
        }
        return 0;
}

static void set_why(cc_tree_res *out, int kind, const char *fmt, ...) CC_PRINTF(3, 4);

static void set_why(cc_tree_res *out, int kind, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(out->why, sizeof(out->why), fmt, ap);
        va_end(ap);
        out->why_kind = kind;
}

/* An OS error about host path hp, told about the virtual path of cur: the
 * host's spelling of the root never shows. */
static void os_why(cc_tree_res *out, const cc_tree *t, char *const *cur, size_t n, const char *hp, const cc_error *e)
{
        const char *msg = e->msg;
        size_t hl = strlen(hp);
        char *v = vjoin(t, 'C', cur, n, NULL);
        int kind = strstr(msg, "ermission denied")  ? CC_WHY_ACCESS
                   : strstr(msg, "Not a directory") ? CC_WHY_NOTDIR
                   : strstr(msg, "symbolic links")  ? CC_WHY_LOOP
                                                    : CC_WHY_OTHER;

        if (strncmp(msg, hp, hl) == 0 && msg[hl] == ':')
                msg += hl + 1;
        while (*msg == ' ')
                msg++;
        set_why(out, kind, "%s: %s", v ? v : "?", msg);
        free(v);
}

/* Follow the pending components (a stack: the next one last) from cur (the
 * canonical components reached so far, a directory). Fills out. */
static int walk(cc_tree *t, cc_strv *cur, cc_strv *stack, int follow, cc_tree_res *out, cc_error *err)
{
        int links = 0, need_stat = 1;
        char *hp = NULL;

        memset(&out->st, 0, sizeof(out->st));
        out->st.type = CC_FT_DIR;
        while (stack->n > 0) {
                char *c = stack->v[--stack->n];
                const char *name = c;
                cc_stat st;
                cc_error serr = {0};
                int last = stack->n == 0;

                if (strcmp(c, ".") == 0 || c[0] == '\0') {
                        free(c);
                        need_stat = 1;
                        continue;
                }
                if (strcmp(c, "..") == 0) {
                        free(c);
                        if (cur->n > 0)
                                free(cur->v[--cur->n]);
                        need_stat = 1;
                        continue;
                }
                free(hp);
                hp = NULL;
                if (t->nocase && !cc_host_is_windows()) {
                        char *hdir = host_of(t, cur->v, cur->n, err);

                        if (hdir == NULL || spell(t, hdir, c, &name, err) < 0) {
                                free(hdir);
                                free(c);
                                return -1;
                        }
                        free(hdir);
                        if (name == NULL) {
                                free(c);
                                out->st.type = CC_FT_NONE;
                                return 0;
                        }
                }
                if (cc_strv_push(cur, name, err) < 0) {
                        free(c);
                        return -1;
                }
                free(c);
                hp = host_of(t, cur->v, cur->n, err);
                if (hp == NULL)
                        return -1;
                if (cc_lstat_path(hp, &st, &serr) < 0) {
                        os_why(out, t, cur->v, cur->n, hp, &serr);
                        out->st.type = CC_FT_NONE;
                        free(hp);
                        return 0;
                }
                if (st.type == CC_FT_NONE) {
                        out->st.type = CC_FT_NONE;
                        free(hp);
                        return 0;
                }
                if (st.type == CC_FT_LINK && (!last || follow)) {
                        cc_error lerr = {0};
                        char *target = cc_readlink(hp, &lerr);
                        cc_strv tc = {0};
                        char drive = 0;
                        size_t i;

                        if (target == NULL) {
                                if (lerr.code == CC_ERR_UNSUPPORTED) {
                                        /* the host follows its own reparse points */
                                        if (cc_stat_path(hp, &st, &serr) < 0 || st.type == CC_FT_NONE) {
                                                out->st.type = CC_FT_NONE;
                                                free(hp);
                                                return 0;
                                        }
                                        goto plain;
                                }
                                os_why(out, t, cur->v, cur->n, hp, &lerr);
                                out->st.type = CC_FT_NONE;
                                free(hp);
                                return 0;
                        }
                        if (++links > MAX_LINKS) {
                                free(target);
                                char *v = vjoin(t, 'C', cur->v, cur->n, NULL);

                                set_why(out, CC_WHY_LOOP, "%s: too many levels of symbolic links", v ? v : "?");
                                free(v);
                                out->st.type = CC_FT_NONE;
                                free(hp);
                                return 0;
                        }
                        free(cur->v[--cur->n]);
                        if (target[0] == '/' || (t->system == CC_SYS_WINDOWS && cc_tree_is_abs(t, target))) {
                                while (cur->n > 0)
                                        free(cur->v[--cur->n]);
                        }
                        if (vsplit(t, target, &drive, &tc, err) < 0) {
                                free(target);
                                cc_strv_free(&tc);
                                free(hp);
                                return -1;
                        }
                        if (t->system == CC_SYS_WINDOWS && drive != 'C' && cc_tree_is_abs(t, target)) {
                                set_why(out, CC_WHY_OUTSIDE, "a link points outside the tree (%s)", target);
                                free(target);
                                cc_strv_free(&tc);
                                out->st.type = CC_FT_NONE;
                                free(hp);
                                return 0;
                        }
                        free(target);
                        /* push the target's components in front of what is left */
                        for (i = tc.n; i > 0; i--) {
                                if (stack->n >= MAX_COMPONENTS * 4) {
                                        cc_strv_free(&tc);
                                        set_why(out, CC_WHY_OTHER, "link targets too long");
                                        out->st.type = CC_FT_NONE;
                                        free(hp);
                                        return 0;
                                }
                                if (cc_strv_take(stack, tc.v[i - 1], err) < 0) {
                                        tc.v[i - 1] = NULL;
                                        cc_strv_free(&tc);
                                        free(hp);
                                        return -1;
                                }
                                tc.v[i - 1] = NULL;
                        }
                        cc_strv_free(&tc);
                        need_stat = 1;
                        continue;
                }
        plain:
                if (!last && st.type != CC_FT_DIR) {
                        char *v = vjoin(t, 'C', cur->v, cur->n, NULL);

                        set_why(out, CC_WHY_NOTDIR, "%s: not a directory", v ? v : "?");
                        free(v);
                        out->st.type = CC_FT_NONE;
                        free(hp);
                        return 0;
                }
                out->st = st;
                need_stat = 0;
        }
        if (hp == NULL || need_stat) {
                cc_stat st;
                cc_error serr = {0};

                free(hp);
                hp = host_of(t, cur->v, cur->n, err);
                if (hp == NULL)
                        return -1;
                if (cc_stat_path(hp, &st, &serr) < 0 || st.type == CC_FT_NONE) {
                        if (serr.msg[0])
                                os_why(out, t, cur->v, cur->n, hp, &serr);
                        out->st.type = CC_FT_NONE;
                        free(hp);
                        return 0;
                }
                out->st = st;
        }
        out->host = hp;
        out->canonical = vjoin(t, 'C', cur->v, cur->n, err);
        if (out->canonical == NULL) {
                free(out->host);
                out->host = NULL;
                return -1;
        }
        return 0;
}

static int push_reversed(cc_strv *stack, char *const *v, size_t n, cc_error *err)
{
        size_t i;

        for (i = n; i > 0; i--)
                if (cc_strv_push(stack, v[i - 1], err) < 0)
                        return -1;
        return 0;
}

/* A directory (following every link), from the cache or walked and cached. */
static struct dir_ent *lookup_dir(cc_tree *t, char drive, char *const *comps, size_t n, cc_error *err)
{
        struct dir_ent *d;
        void *v = NULL;
        char *key;
        cc_strv cur = {0}, stack = {0};
        cc_tree_res r;

        key = vjoin(t, drive, comps, n, err);
        if (key == NULL)
                return NULL;
        if (cc_smap_get(&t->dirs, key, &v)) {
                free(key);
                return v;
        }
        d = cc_calloc(err, 1, sizeof(*d));
        if (d == NULL) {
                free(key);
                return NULL;
        }
        memset(&r, 0, sizeof(r));
        if (n > 0) {
                /* The parent from the cache, then one more step. */
                struct dir_ent *p = lookup_dir(t, drive, comps, n - 1, err);

                if (p == NULL)
                        goto fail;
                if (p->st.type != CC_FT_DIR) {
                        d->st.type = CC_FT_NONE;
                        memcpy(d->why, p->why, sizeof(d->why));
                        d->why_kind = p->why_kind;
                        goto store;
                }
                {
                        size_t i;

                        for (i = 0; i < p->comps.n; i++)
                                if (cc_strv_push(&cur, p->comps.v[i], err) < 0)
                                        goto fail;
                }
                if (cc_strv_push(&stack, comps[n - 1], err) < 0)
                        goto fail;
        }
        if (walk(t, &cur, &stack, 1, &r, err) < 0)
                goto fail;
        d->st = r.st;
        memcpy(d->why, r.why, sizeof(d->why));
        d->why_kind = r.why_kind;
        if (r.st.type == CC_FT_DIR) {
                d->host = r.host;
                d->canonical = r.canonical;
                r.host = r.canonical = NULL;
                d->comps = cur;
                memset(&cur, 0, sizeof(cur));
        } else {
                if (r.st.type != CC_FT_NONE && d->why[0] == '\0') {
                        snprintf(d->why, sizeof(d->why), "%s: not a directory", r.canonical ? r.canonical : key);
                        d->why_kind = CC_WHY_NOTDIR;
                }
                d->st.type = CC_FT_NONE;
        }
store:
        cc_tree_res_free(&r);
        cc_strv_free(&cur);
        cc_strv_free(&stack);
        if (t->dirs.n >= MAX_CACHED_DIRS) {
                cc_smap_each(&t->dirs, free_dir_ent, NULL);
                cc_smap_free(&t->dirs);
                t->dirs.nocase = t->nocase;
        }
        if (cc_smap_put(&t->dirs, key, d, NULL, err) < 0) {
                free_dir_ent(NULL, NULL, d);
                free(key);
                return NULL;
        }
        free(key);
        return d;
fail:
        cc_tree_res_free(&r);
        cc_strv_free(&cur);
        cc_strv_free(&stack);
        free_dir_ent(NULL, NULL, d);
        free(key);
        return NULL;
}

static int resolve_passthrough(cc_tree *t, const char *vpath, int follow, cc_tree_res *out, cc_error *err)
{
        cc_error serr = {0};

        (void)t;
        if ((follow ? cc_stat_path(vpath, &out->st, &serr) : cc_lstat_path(vpath, &out->st, &serr)) < 0) {
                set_why(out, strstr(serr.msg, "denied") ? CC_WHY_ACCESS : CC_WHY_OTHER, "%s", serr.msg);
                out->st.type = CC_FT_NONE;
                return 0;
        }
        if (out->st.type == CC_FT_NONE)
                return 0;
        out->host = cc_strdup(err, vpath);
        if (out->host == NULL)
                return -1;
        out->canonical = cc_realpath(vpath, &serr);
        if (out->canonical == NULL) {
                if (serr.code == CC_ERR_NOMEM) {
                        *err = serr;
                        return -1;
                }
                out->canonical = cc_strdup(err, vpath);
                if (out->canonical == NULL)
                        return -1;
        }
        return 0;
}

/* The common case of a loader's search, without splitting the path into
 * components and joining them again: a clean absolute path of a Linux tree
 * whose directory is in the cache, its last component a file, a directory,
 * missing, or a link to a name in the same directory (libz.so.1 ->
 * libz.so.1.2.13). Anything else (a link elsewhere, an error that needs its
 * why) is left to the general walk: 1, out untouched. */
static int resolve_fast_at(cc_tree *t, const char *vpath, int follow, int links, cc_tree_res *out, cc_error *err)
{
        char key[1024], *name = NULL, *hp = NULL;
        const char *slash;
        struct dir_ent *d;
        void *v = NULL;
        size_t kl, hl;
        int first = 1;

        if (t->slow || t->system != CC_SYS_LINUX || t->nocase || !posix_clean(vpath))
                return 1;
        slash = strrchr(vpath, '/');
        if (slash[1] == '\0' || strcmp(slash + 1, "..") == 0)
                return 1;
        kl = slash == vpath ? 1 : (size_t)(slash - vpath);
        if (kl >= sizeof(key))
                return 1;
        memcpy(key, vpath, kl);
        key[kl] = '\0';
        if (cc_smap_get(&t->dirs, key, &v)) {
                d = v;
        } else {
                /* the directory looked up (and cached) as the general walk
                 * looks up a path's parent: a link's target in another
                 * directory is then not walked from the root each time */
                cc_strv comps = {0};
                char drive = 0;

                if (vsplit(t, key, &drive, &comps, err) < 0)
                        return -1;
                d = lookup_dir(t, drive, comps.v, comps.n, err);
                cc_strv_free(&comps);
                if (d == NULL)
                        return -1;
                if (d->st.type != CC_FT_DIR && links > 0)
                        return 1; /* the walk from the link says why */
        }
        if (d->st.type != CC_FT_DIR) {
                out->st.type = CC_FT_NONE;
                memcpy(out->why, d->why, sizeof(out->why));
                out->why_kind = d->why_kind;
                return 0;
        }
        hl = strlen(d->host);
        name = cc_strdup(err, slash + 1);
        if (name == NULL)
                return -1;
        for (;;) {
                cc_stat st;
                cc_error serr = {0};
                char *target;

                hp = hl > 0 && (d->host[hl - 1] == '/' || d->host[hl - 1] == cc_path_sep())
                         ? cc_cat(err, d->host, name, (char *)NULL)
                         : cc_cat(err, d->host, (char[]){cc_path_sep(), '\0'}, name, (char *)NULL);
                if (hp == NULL)
                        goto fail;
                if (cc_lstat_path(hp, &st, &serr) < 0)
                        goto general; /* the walk says why */
                if (st.type == CC_FT_NONE) {
                        out->st.type = CC_FT_NONE;
                        out->no_entry = first && links == 0;
                        free(hp);
                        free(name);
                        return 0;
                }
                first = 0;
                if (st.type != CC_FT_LINK || !follow) {
                        out->st = st;
                        out->host = hp;
                        out->canonical = strcmp(d->canonical, "/") == 0
                                             ? cc_cat(err, "/", name, (char *)NULL)
                                             : cc_cat(err, d->canonical, "/", name, (char *)NULL);
                        free(name);
                        if (out->canonical == NULL) {
                                free(out->host);
                                out->host = NULL;
                                return -1;
                        }
                        return 0;
                }
                target = cc_readlink(hp, &serr);
                if (target == NULL) {
                        if (serr.code == CC_ERR_NOMEM) {
                                *err = serr;
                                goto fail;
                        }
                        goto general;
                }
                if (++links > MAX_LINKS || target[0] == '\0' || strcmp(target, ".") == 0 || strcmp(target, "..") == 0) {
                        free(target);
                        goto general;
                }
                if (strchr(target, '/') != NULL) {
                        /* elsewhere: the same way from the target's own directory, when
                         * the target names no "." or ".." (those the walk takes apart) */
                        char *next = target[0] == '/' ? target
                                     : strcmp(d->canonical, "/") == 0
                                         ? cc_cat(err, "/", target, (char *)NULL)
                                         : cc_cat(err, d->canonical, "/", target, (char *)NULL);
                        int rc;

                        if (next != target)
                                free(target);
                        if (next == NULL)
                                goto fail;
                        rc = posix_clean(next) && strstr(next, "/../") == NULL && !cc_ends_with(next, "/..")
                                 ? resolve_fast_at(t, next, follow, links, out, err)
                                 : 1;
                        free(next);
                        free(hp);
                        free(name);
                        return rc;
                }
                free(name);
                free(hp);
                hp = NULL;
                name = target;
        }
general:
        free(hp);
        free(name);
        return 1;
fail:
        free(hp);
        free(name);
        return -1;
}

static int resolve_fast(cc_tree *t, const char *vpath, int follow, cc_tree_res *out, cc_error *err)
{
        return resolve_fast_at(t, vpath, follow, 0, out, err);
}

int cc_tree_resolve(cc_tree *t, const char *vpath, int follow, cc_tree_res *out, cc_error *err)
{
        cc_strv comps = {0}, cur = {0}, stack = {0};
        char drive = 0;
        struct dir_ent *d;
        int rv = -1;
        size_t i;

        memset(out, 0, sizeof(*out));
        if (!cc_tree_is_abs(t, vpath))
                return cc_err(err, CC_ERR_USAGE, "%s: not an absolute path", vpath);
        if (t->passthrough)
                return resolve_passthrough(t, vpath, follow, out, err);
        rv = resolve_fast(t, vpath, follow, out, err);
        if (rv != 1)
                return rv;
        rv = -1;
        if (vsplit(t, vpath, &drive, &comps, err) < 0)
                goto done;
        if (t->system == CC_SYS_WINDOWS && drive != 'C') {
                out->st.type = CC_FT_NONE;
                set_why(out, CC_WHY_OUTSIDE, "%s: outside the tree (only C:\\ is in it)", vpath);
                rv = 0;
                goto done;
        }
        if (comps.n == 0) {
                rv = walk(t, &cur, &stack, follow, out, err);
                goto done;
        }
        d = lookup_dir(t, drive, comps.v, comps.n - 1, err);
        if (d == NULL)
                goto done;
        if (d->st.type != CC_FT_DIR) {
                out->st.type = CC_FT_NONE;
                memcpy(out->why, d->why, sizeof(out->why));
                out->why_kind = d->why_kind;
                rv = 0;
                goto done;
        }
        for (i = 0; i < d->comps.n; i++)
                if (cc_strv_push(&cur, d->comps.v[i], err) < 0)
                        goto done;
        if (push_reversed(&stack, &comps.v[comps.n - 1], 1, err) < 0)
                goto done;
        rv = walk(t, &cur, &stack, follow, out, err);
done:
        cc_strv_free(&comps);
        cc_strv_free(&cur);
        cc_strv_free(&stack);
        if (rv < 0)
                cc_tree_res_free(out);
        return rv;
}

void cc_tree_res_free(cc_tree_res *r)
{
        if (r == NULL)
                return;
        free(r->host);
        free(r->canonical);
        r->host = r->canonical = NULL;
}

static int must_exist(const cc_tree_res *r, const char *vpath, cc_error *err)
{
        if (r->st.type != CC_FT_NONE)
                return 0;
        if (r->why[0])
                return cc_err(err, CC_ERR_NOTFOUND, "%s: %s", vpath, r->why);
        return cc_err(err, CC_ERR_NOTFOUND, "%s: no such file or directory", vpath);
}

static int stat_common(cc_tree *t, const char *vpath, int follow, cc_stat *out, cc_error *err)
{
        cc_tree_res r;

        if (cc_tree_resolve(t, vpath, follow, &r, err) < 0)
                return -1;
        *out = r.st;
        cc_tree_res_free(&r);
        return 0;
}

int cc_tree_stat(cc_tree *t, const char *vpath, cc_stat *out, cc_error *err)
{
        return stat_common(t, vpath, 1, out, err);
}

int cc_tree_lstat(cc_tree *t, const char *vpath, cc_stat *out, cc_error *err)
{
        return stat_common(t, vpath, 0, out, err);
}

static char *res_string(cc_tree *t, const char *vpath, int canonical, int follow, cc_error *err)
{
        cc_tree_res r;
        char *s;

        if (cc_tree_resolve(t, vpath, follow, &r, err) < 0)
                return NULL;
        if (must_exist(&r, vpath, err) < 0) {
                cc_tree_res_free(&r);
                return NULL;
        }
        if (canonical) {
                s = r.canonical;
                r.canonical = NULL;
        } else {
                s = r.host;
                r.host = NULL;
        }
        cc_tree_res_free(&r);
        return s;
}

char *cc_tree_canonical(cc_tree *t, const char *vpath, cc_error *err)
{
        return res_string(t, vpath, 1, 1, err);
}

char *cc_tree_host(cc_tree *t, const char *vpath, cc_error *err)
{
        return res_string(t, vpath, 0, 1, err);
}

char *cc_tree_readlink(cc_tree *t, const char *vpath, cc_error *err)
{
        char *host = res_string(t, vpath, 0, 0, err), *target;

        if (host == NULL)
                return NULL;
        target = cc_readlink(host, err);
        if (target == NULL)
                cc_err_prefix(err, "%s", vpath);
        free(host);
        return target;
}

int cc_tree_list(cc_tree *t, const char *vdir, size_t max_entries, cc_strv *out, cc_error *err)
{
        char *host = res_string(t, vdir, 0, 1, err);
        int rc;

        if (host == NULL)
                return -1;
        rc = cc_list_dir(host, max_entries, out, err);
        free(host);
        return rc;
}

int cc_tree_map(cc_tree *t, const char *vpath, size_t max_size, cc_map *out, cc_error *err)
{
        char *host = res_string(t, vpath, 0, 1, err);
        int rc;

        memset(out, 0, sizeof(*out));
        if (host == NULL)
                return -1;
        rc = cc_map_file(host, max_size, out, err);
        free(host);
        return rc;
}

int cc_tree_read(cc_tree *t, const char *vpath, size_t max_size, char **out, size_t *len, cc_error *err)
{
        char *host = res_string(t, vpath, 0, 1, err);
        int rc;

        *out = NULL;
        if (host == NULL)
                return -1;
        rc = cc_read_file(host, max_size, out, len, err);
        free(host);
        return rc;
}

/* ---- globbing ------------------------------------------------------------- */

static int fold(int c, int nocase)
{
        return nocase ? cc_ascii_tolower(c) : c;
}

/* A bracket expression at p (after '['): 1 if c matches, with *end after ']';
 * -1 if there is no closing ']' (then '[' is literal). */
static int bracket(const char *p, int c, int nocase, const char **end)
{
        int neg = 0, hit = 0;
        const char *q = p;

        if (*q == '!' || *q == '^') {
                neg = 1;
                q++;
        }
        if (*q == ']') {
                hit |= fold(']', nocase) == c;
                q++;
        }
        while (*q && *q != ']') {
                int lo = fold((unsigned char)*q, nocase);

                if (q[1] == '-' && q[2] && q[2] != ']') {
                        int hi = fold((unsigned char)q[2], nocase);

                        hit |= c >= lo && c <= hi;
                        q += 3;
                } else {
                        hit |= c == lo;
                        q++;
                }
        }
        if (*q != ']')
                return -1;
        *end = q + 1;
        return hit != neg;
}

int cc_glob_match(const char *p, const char *s, int nocase)
{
        const char *star_p = NULL, *star_s = NULL;

        while (*s) {
                int c = fold((unsigned char)*s, nocase);

                if (*p == '*') {
                        star_p = ++p;
                        star_s = s;
                        continue;
                }
                if (*p == '?') {
                        p++;
                        s++;
                        continue;
                }
                if (*p == '[') {
                        const char *end;
                        int m = bracket(p + 1, c, nocase, &end);

                        if (m == 1) {
                                p = end;
                                s++;
                                continue;
                        }
                        if (m == -1 && c == '[') {
                                p++;
                                s++;
                                continue;
                        }
                } else if (*p && fold((unsigned char)*p, nocase) == c) {
                        p++;
                        s++;
                        continue;
                }
                if (star_p == NULL)
                        return 0;
                p = star_p;
                s = ++star_s;
        }
        while (*p == '*')
                p++;
        return *p == '\0';
}

static int has_magic(const char *s)
{
        return strpbrk(s, "*?[") != NULL;
}

int cc_tree_glob(cc_tree *t, const char *pattern, size_t max, cc_strv *out, cc_error *err)
{
        cc_strv comps = {0}, cur = {0}, next = {0};
        char drive = 0;
        size_t i, j, k;
        int rv = -1;

        if (!cc_tree_is_abs(t, pattern))
                return cc_err(err, CC_ERR_USAGE, "%s: not an absolute pattern", pattern);
        if (vsplit(t, pattern, &drive, &comps, err) < 0)
                goto done;
        {
                char *root = vjoin(t, drive, NULL, 0, err);

                if (root == NULL || cc_strv_take(&cur, root, err) < 0)
                        goto done;
        }
        for (i = 0; i < comps.n; i++) {
                const char *c = comps.v[i];

                for (j = 0; j < cur.n; j++) {
                        if (!has_magic(c)) {
                                char *p = cc_tree_join(t, cur.v[j], c, err);

                                if (p == NULL || cc_strv_take(&next, p, err) < 0)
                                        goto done;
                        } else {
                                cc_strv names = {0};
                                cc_error lerr = {0};

                                if (cc_tree_list(t, cur.v[j], MAX_LIST, &names, &lerr) < 0) {
                                        if (lerr.code == CC_ERR_NOMEM) {
                                                *err = lerr;
                                                goto done;
                                        }
                                        continue;
                                }
                                for (k = 0; k < names.n; k++) {
                                        char *p;

                                        if (names.v[k][0] == '.' && c[0] != '.')
                                                continue;
                                        if (!cc_glob_match(c, names.v[k], t->nocase))
                                                continue;
                                        if (next.n >= max) {
                                                cc_strv_free(&names);
                                                cc_err(err, CC_ERR_LIMIT, "%s: more than %zu matches", pattern, max);
                                                goto done;
                                        }
                                        p = cc_tree_join(t, cur.v[j], names.v[k], err);
                                        if (p == NULL || cc_strv_take(&next, p, err) < 0) {
                                                cc_strv_free(&names);
                                                goto done;
                                        }
                                }
                                cc_strv_free(&names);
                        }
                }
                cc_strv_free(&cur);
                cur = next;
                memset(&next, 0, sizeof(next));
        }
        for (j = 0; j < cur.n; j++) {
                cc_stat st;

                if (cc_tree_stat(t, cur.v[j], &st, err) < 0)
                        goto done;
                if (st.type == CC_FT_NONE)
                        continue;
                if (cc_strv_push(out, cur.v[j], err) < 0)
                        goto done;
        }
        cc_strv_sort(out);
        rv = 0;
done:
        cc_strv_free(&comps);
        cc_strv_free(&cur);
        cc_strv_free(&next);
        return rv;
}
