/* The transaction engine (txn.h says the phases and the promise). */
#include "txn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../formats/sha256.h"
#include "../platform/platform.h"

#define STATE_DIR CC_TXN_STATE
#define JOURNAL_MAGIC "cudnnctl-journal 1"
#define MAX_OPS 100000          /* operations in one transaction */
#define MAX_JOURNAL (64u << 20) /* bytes of a journal read back */
#define COPY_CHUNK (1u << 20)
#define MAX_SPOOL 200000 /* files spooled before a plan (an archive's members) */

/* The writer: a second thread that writes, hashes and syncs what is staged
 * while the main thread reads the source (decompression and writing run
 * side by side). The main thread hands it jobs through a bounded queue;
 * data travels in WBUFS buffers of WBUF bytes, so memory stays bounded.
 * The first error stops the work: later jobs are dropped, and the main
 * thread gets the error at its next call. Only the writer touches the
 * file system while it has work: the main thread waits for it to be idle
 * (writer_idle) before any write of its own, which also keeps the test
 * hook's count of writing calls in one order. */
#define WBUF (1u << 20)
#define WBUFS 8
#define QCAP (WBUFS + 8)

enum { J_OPEN = 1, J_DATA, J_CLOSE };

struct wjob {
        int kind;
        int spool;   /* a file spooled before the plan (key = slot) rather than an operation's */
        size_t slot; /* the operation, or the spool key */
        uint8_t *buf;
        size_t len;
};

/* A file spooled before the plan existed (cc_txn_spool_open). */
struct spooled {
        int closed; /* written whole and synced */
        uint64_t size;
        char sha256[65];
};

struct writer {
        cc_sync *sync;
        cc_thread *th;
        struct wjob q[QCAP];
        size_t head, count;
        uint8_t *bufs[WBUFS]; /* free buffers */
        size_t nfree, nalloc;
        int busy, quit, failed;
        cc_error err; /* the first failure */
        /* the writer thread's own: the file being written */
        cc_wfile *wf;
        struct wjob cur;
        uint64_t bytes;
        cc_sha256 sha;
};

struct cc_txn {
        char *target;
        char *state; /* target/.cudnnctl */
        char *dir;   /* state/txn-<id> */
        char *id;
        char *journal; /* dir/journal; NULL until the plan is written */
        char *label;
        cc_txn_op *ops;
        size_t n;
        cc_fs_lock *lock;
        int made_state; /* .cudnnctl was created by this transaction */
        int planned;    /* the journal holds the plan */
        int adopted;    /* spooled files were moved into new/ */
        struct writer *w;
        /* the file being handed to the writer (main thread) */
        int open_kind; /* 0 none, 1 an operation's, 2 a spooled one */
        size_t open_slot;
        uint8_t *fill;
        size_t fill_len;
        struct spooled *sp; /* per spool key */
        size_t nsp;
};

static const char *const KIND_NAMES[] = {NULL, "mkdir", "place", "replace", "remove", "rmdir", "setreg"};

const char *cc_txn_kind_name(int kind)
{
        return kind >= CC_TXN_MKDIR && kind < CC_TXN_KINDS ? KIND_NAMES[kind] : "?";
}

int cc_txn_kind_parse(const char *s)
{
        int k;

        for (k = CC_TXN_MKDIR; k < CC_TXN_KINDS; k++)
                if (strcmp(s, KIND_NAMES[k]) == 0)
                        return k;
        return 0;
}

int cc_txn_path_ok(const char *rel)
{
        const char *p = rel, *slash;

        if (rel == NULL || *rel == '\0' || *rel == '/' || strlen(rel) > 4096)
                return 0;
        for (;;) {
                size_t n;

                slash = strchr(p, '/');
                n = slash ? (size_t)(slash - p) : strlen(p);
                if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
                        return 0;
                /* The engine's own directory is out of reach, but for the
                 * manifests of what is installed (written by transactions). */
                if (p == rel && n == strlen(STATE_DIR) && strncmp(p, STATE_DIR, n) == 0 &&
                    strcmp(rel, STATE_DIR "/" CC_TXN_MANIFESTS) != 0 &&
                    !cc_starts_with(rel, STATE_DIR "/" CC_TXN_MANIFESTS "/"))
                        return 0;
                if (memchr(p, '\\', n) != NULL || memchr(p, ':', n) != NULL)
                        return 0;
                if (slash == NULL)
                        return 1;
                p = slash + 1;
        }
}

/* ---- registry values ------------------------------------------------------ */

#define REGVAL_MAGIC "cudnnctl-regval 1\n"

/* Whether path names a registry value: HKCU or HKLM, a key of at least one
 * component, a value name. */
static int reg_path_ok(const char *path)
{
        const char *first = strchr(path, '/'), *last = strrchr(path, '/');

        return first != NULL && last != first && (size_t)(first - path) == 4 &&
               (strncmp(path, "HKCU", 4) == 0 || strncmp(path, "HKLM", 4) == 0);
}

/* An operation whose content is staged: a file's, or a registry value's. */
static int staged_op(const cc_txn_op *o)
{
        return ((o->kind == CC_TXN_PLACE || o->kind == CC_TXN_REPLACE) && o->link == NULL) || o->kind == CC_TXN_SETREG;
}

int cc_txn_reg_split(const char *path, char hive[5], char **key, char **value, cc_error *err)
{
        const char *last;
        size_t i;

        *key = *value = NULL;
        if (path == NULL || !cc_txn_path_ok(path) || !reg_path_ok(path))
                return cc_err(err, CC_ERR_USAGE, "%s: not a registry value's path", path ? path : "(none)");
        memcpy(hive, path, 4);
        hive[4] = '\0';
        last = strrchr(path, '/');
        *key = cc_strndup(err, path + 5, (size_t)(last - path - 5));
        *value = cc_strdup(err, last + 1);
        if (*key == NULL || *value == NULL) {
                free(*key);
                free(*value);
                *key = *value = NULL;
                return -1;
        }
        for (i = 0; (*key)[i]; i++)
                if ((*key)[i] == '/')
                        (*key)[i] = '\\';
        return 0;
}

int cc_txn_regval_format(const cc_regval *v, cc_buf *out, cc_error *err)
{
        TRY_RET(cc_buf_puts(out, REGVAL_MAGIC, err));
        if (!v->present)
                return cc_buf_puts(out, "absent\n", err);
        TRY_RET(cc_buf_printf(out, err, "type %lu %zu\n", (unsigned long)v->type, v->len));
        return v->len ? cc_buf_append(out, v->data, v->len, err) : 0;
}

int cc_txn_regval_parse(const char *text, size_t len, cc_regval *out, cc_error *err)
{
        size_t m = strlen(REGVAL_MAGIC), hl;
        const char *nl;
        unsigned long type;
        unsigned long long n;
        char line[64], tail;

        memset(out, 0, sizeof(*out));
        if (len < m || memcmp(text, REGVAL_MAGIC, m) != 0)
                return cc_err(err, CC_ERR_FORMAT, "not a registry value record");
        text += m;
        len -= m;
        if (len == 7 && memcmp(text, "absent\n", 7) == 0)
                return 0;
        nl = memchr(text, '\n', len < sizeof(line) ? len : sizeof(line));
        if (nl == NULL)
                return cc_err(err, CC_ERR_FORMAT, "a registry value record without its type line");
        hl = (size_t)(nl - text);
        memcpy(line, text, hl);
        line[hl] = '\0';
        if (sscanf(line, "type %lu %llu%c", &type, &n, &tail) != 2 || type > 0xffffffffUL ||
            n != (unsigned long long)(len - hl - 1))
                return cc_err(err, CC_ERR_FORMAT, "a registry value record whose size or type is wrong");
        out->type = (uint32_t)type;
        out->len = (size_t)n;
        if ((out->data = cc_malloc(err, out->len ? out->len : 1)) == NULL)
                return -1;
        if (out->len)
                memcpy(out->data, nl + 1, out->len);
        out->present = 1;
        return 0;
}

/* Set the value of a SETREG path from the record in file rec. */
static int reg_set_from(const char *path, const char *rec, cc_error *err)
{
        char hive[5], *key = NULL, *value = NULL, *text = NULL;
        size_t len = 0;
        cc_regval v;
        int rc = -1;

        memset(&v, 0, sizeof(v));
        TRY_RET(cc_txn_reg_split(path, hive, &key, &value, err));
        if (cc_read_file(rec, 8u << 20, &text, &len, err) < 0 || cc_txn_regval_parse(text, len, &v, err) < 0)
                goto out;
        rc = cc_reg_write(hive, key, value, &v, err);
out:
        cc_regval_free(&v);
        free(text);
        free(key);
        free(value);
        return rc;
}

/* Keep the value of a SETREG path as it is now in file old (written beside
 * and renamed, synced): the backup undo and rollback read. */
static int reg_backup(const char *path, const char *old, cc_error *err)
{
        char hive[5], *key = NULL, *value = NULL, *part = NULL, *dir = NULL;
        cc_regval v;
        cc_buf b = {0};
        cc_wfile *f = NULL;
        int rc = -1;

        memset(&v, 0, sizeof(v));
        TRY_RET(cc_txn_reg_split(path, hive, &key, &value, err));
        if (cc_reg_read(hive, key, value, &v, err) < 0 || cc_txn_regval_format(&v, &b, err) < 0)
                goto out;
        if ((part = cc_asprintf(err, "%s.part", old)) == NULL)
                goto out;
        {
                cc_error ignored = {0};

                (void)cc_fs_unlink(part, &ignored); /* a part left by a kill */
        }
        if (cc_fs_create(part, 0600, &f, err) < 0)
                goto out;
        if (cc_fs_write(f, b.data, b.len, err) < 0) {
                cc_fs_close_abort(f);
                goto out;
        }
        if (cc_fs_close_synced(f, err) < 0 || cc_fs_rename(part, old, err) < 0)
                goto out;
        if ((dir = cc_dirname(old, 0, err)) == NULL || cc_fs_sync_dir(dir, err) < 0)
                goto out;
        rc = 0;
out:
        cc_regval_free(&v);
        cc_buf_free(&b);
        free(part);
        free(dir);
        free(key);
        free(value);
        return rc;
}

/* ---- small helpers -------------------------------------------------------- */

static char *join(const char *a, const char *b, cc_error *err)
{
        return cc_asprintf(err, "%s/%s", a, b);
}

static char *slot(const cc_txn *t, const char *sub, size_t i, cc_error *err)
{
        return cc_asprintf(err, "%s/%s/%zu", t->dir, sub, i);
}

/* Every parent of rel under target is a real directory (not a link, not
 * absent): nothing this step writes can land outside the target. */
static int parents_ok(const char *target, const char *rel, cc_error *err)
{
        const char *p = rel;
        int rc = 0;

        while (rc == 0 && (p = strchr(p, '/')) != NULL) {
                char *sub = cc_strndup(err, rel, (size_t)(p - rel)), *full;
                cc_stat st;

                if (sub == NULL)
                        return -1;
                full = join(target, sub, err);
                if (full == NULL)
                        rc = -1;
                else if (cc_lstat_path(full, &st, err) < 0)
                        rc = -1;
                else if (st.type != CC_FT_DIR)
                        rc = cc_err(err, CC_ERR_IO, "%s: %s, not a directory: nothing is written through it", full,
                                    st.type == CC_FT_LINK   ? "a symbolic link"
                                    : st.type == CC_FT_NONE ? "absent"
                                                            : "not a directory");
                free(full);
                free(sub);
                p++;
        }
        return rc;
}

/* Journal strings: bytes outside '!'..'~' and '%' as %XX, so a field is
 * one space-free token. */
static int put_escaped(cc_buf *b, const char *s, cc_error *err)
{
        if (strcmp(s, "-") == 0) /* "-" alone is the empty field */
                return cc_buf_puts(b, "%2D", err);
        for (; *s; s++) {
                unsigned char c = (unsigned char)*s;

                if (c <= ' ' || c > '~' || c == '%')
                        TRY_RET(cc_buf_printf(b, err, "%%%02X", c));
                else
                        TRY_RET(cc_buf_putc(b, (char)c, err));
        }
        return 0;
}

static int hexval(char c)
{
        return c >= '0' && c <= '9'   ? c - '0'
               : c >= 'A' && c <= 'F' ? c - 'A' + 10
               : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                      : -1;
}

static char *unescape(const char *s, cc_error *err)
{
        size_t n = strlen(s), i, o = 0;
        char *out = cc_malloc(err, n + 1);

        if (out == NULL)
                return NULL;
        for (i = 0; i < n; i++) {
                int hi, lo;

                if (s[i] != '%') {
                        out[o++] = s[i];
                        continue;
                }
                hi = n - i >= 3 ? hexval(s[i + 1]) : -1;
                lo = n - i >= 3 ? hexval(s[i + 2]) : -1;
                if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
                        free(out);
                        cc_err(err, CC_ERR_FORMAT, "journal: a malformed escape");
                        return NULL;
                }
                out[o++] = (char)(hi * 16 + lo);
                i += 2;
        }
        out[o] = '\0';
        return out;
}

static void ops_free(cc_txn_op *ops, size_t n)
{
        size_t i;

        for (i = 0; i < n; i++) {
                free(ops[i].path);
                free(ops[i].link);
        }
        free(ops);
}

static int ops_copy(const cc_txn_op *src, size_t n, cc_txn_op **out, cc_error *err)
{
        cc_txn_op *ops = cc_calloc(err, n ? n : 1, sizeof(*ops));
        size_t i;

        if (ops == NULL)
                return -1;
        for (i = 0; i < n; i++) {
                ops[i] = src[i];
                ops[i].path = cc_strdup(err, src[i].path);
                ops[i].link = src[i].link ? cc_strdup(err, src[i].link) : NULL;
                if (ops[i].path == NULL || (src[i].link && ops[i].link == NULL)) {
                        ops_free(ops, i + 1);
                        return -1;
                }
        }
        *out = ops;
        return 0;
}

/* ---- the journal ---------------------------------------------------------- */

static int journal_header(const cc_txn *t, const char *label, cc_buf *b, cc_error *err)
{
        size_t i;

        TRY_RET(cc_buf_printf(b, err, "%s\nlabel ", JOURNAL_MAGIC));
        TRY_RET(put_escaped(b, label ? label : "", err));
        TRY_RET(cc_buf_putc(b, '\n', err));
        for (i = 0; i < t->n; i++) {
                const cc_txn_op *o = &t->ops[i];

                TRY_RET(cc_buf_printf(b, err, "op %zu %s %o %llu %s ", i, cc_txn_kind_name(o->kind), o->mode & 07777,
                                      (unsigned long long)o->size, o->sha256[0] ? o->sha256 : "-"));
                TRY_RET(put_escaped(b, o->path, err));
                TRY_RET(cc_buf_putc(b, ' ', err));
                if (o->link)
                        TRY_RET(put_escaped(b, o->link, err));
                else
                        TRY_RET(cc_buf_putc(b, '-', err));
                TRY_RET(cc_buf_putc(b, '\n', err));
        }
        return cc_buf_printf(b, err, "plan %zu\n", t->n);
}

static int journal_line(const cc_txn *t, const char *word, size_t i, cc_error *err)
{
        char line[64];

        snprintf(line, sizeof(line), "%s %zu\n", word, i);
        return cc_fs_append_synced(t->journal, line, err);
}

/* A journal read back: the plan, which steps began, whether committed. */
struct jread {
        char *label;
        cc_txn_op *ops;
        size_t n;
        unsigned char *begun; /* per op */
        int planned;          /* the "plan N" line was there: the header is whole */
        int committed;
};

static void jread_free(struct jread *j)
{
        free(j->label);
        ops_free(j->ops, j->n);
        free(j->begun);
        memset(j, 0, sizeof(*j));
}

/* Split a line into at most max space-separated fields. */
static size_t fields(char *line, char **f, size_t max)
{
        size_t n = 0;
        char *p = line;

        while (n < max && *p) {
                while (*p == ' ')
                        p++;
                if (*p == '\0')
                        break;
                f[n++] = p;
                while (*p && *p != ' ')
                        p++;
                if (*p)
                        *p++ = '\0';
        }
        return n;
}

static int parse_size(const char *s, uint64_t max, uint64_t *out)
{
        char *end;
        unsigned long long v;

        if (*s < '0' || *s > '9')
                return -1;
        v = strtoull(s, &end, 10);
        if (*end != '\0' || v > max)
                return -1;
        *out = v;
        return 0;
}

/* Parse a journal's text (modified in place: each line's end becomes a
 * NUL); path names it in errors. */
static int journal_parse(char *text, size_t len, const char *path, struct jread *j, cc_error *err)
{
        char *p, *nl;
        int rc = -1;

        memset(j, 0, sizeof(*j));
        p = text;
        if (len < strlen(JOURNAL_MAGIC) + 1) {
                cc_err(err, CC_ERR_FORMAT, "%s: not a cudnnctl journal", path);
                goto out;
        }
        if (strncmp(p, JOURNAL_MAGIC "\n", strlen(JOURNAL_MAGIC) + 1) != 0) {
                cc_err(err, CC_ERR_FORMAT, "%s: not a cudnnctl journal", path);
                goto out;
        }
        p += strlen(JOURNAL_MAGIC) + 1;
        /* Only whole lines count: a line cut by a crash is ignored. */
        for (; (nl = memchr(p, '\n', len - (size_t)(p - text))) != NULL; p = nl + 1) {
                char *f[9];
                size_t nf;
                uint64_t v;

                *nl = '\0';
                if (memchr(p, '\0', (size_t)(nl - p)) != NULL)
                        continue;
                nf = fields(p, f, 9);
                if (nf == 0)
                        continue;
                if (strcmp(f[0], "op") == 0 && nf == 8 && !j->planned) {
                        cc_txn_op o, *grown;
                        uint64_t idx;
                        char *end;

                        memset(&o, 0, sizeof(o));
                        o.mode = (unsigned)(strtoul(f[3], &end, 8) & 07777);
                        if (parse_size(f[1], MAX_OPS, &idx) < 0 || idx != j->n || !(o.kind = cc_txn_kind_parse(f[2])) ||
                            *end != '\0' || parse_size(f[4], UINT64_MAX, &o.size) < 0) {
                                cc_err(err, CC_ERR_FORMAT, "%s: a malformed operation line", path);
                                goto out;
                        }
                        if (strlen(f[5]) == 64)
                                memcpy(o.sha256, f[5], 65);
                        o.path = unescape(f[6], err);
                        if (o.path != NULL && strcmp(f[7], "-") != 0 && (o.link = unescape(f[7], err)) == NULL) {
                                free(o.path);
                                goto out;
                        }
                        if (o.path == NULL)
                                goto out;
                        if (o.link != NULL && o.kind != CC_TXN_PLACE && o.kind != CC_TXN_REPLACE) {
                                cc_err(err, CC_ERR_FORMAT, "%s: a link target on a %s", path, cc_txn_kind_name(o.kind));
                                free(o.path);
                                free(o.link);
                                goto out;
                        }
                        if (!cc_txn_path_ok(o.path) || (o.kind == CC_TXN_SETREG && !reg_path_ok(o.path))) {
                                cc_err(err, CC_ERR_FORMAT, "%s: an operation on an unsafe path", path);
                                free(o.path);
                                free(o.link);
                                goto out;
                        }
                        grown = cc_realloc(err, j->ops, (j->n + 1) * sizeof(*grown));
                        if (grown == NULL) {
                                free(o.path);
                                free(o.link);
                                goto out;
                        }
                        j->ops = grown;
                        j->ops[j->n++] = o;
                } else if (strcmp(f[0], "label") == 0 && nf == 2 && j->label == NULL && j->n == 0) {
                        j->label = unescape(f[1], err);
                        if (j->label == NULL)
                                goto out;
                } else if (strcmp(f[0], "plan") == 0 && nf == 2 && !j->planned) {
                        if (parse_size(f[1], MAX_OPS, &v) < 0 || v != j->n) {
                                cc_err(err, CC_ERR_FORMAT, "%s: the plan's count does not match its operations", path);
                                goto out;
                        }
                        j->planned = 1;
                        j->begun = cc_calloc(err, j->n ? j->n : 1, 1);
                        if (j->begun == NULL)
                                goto out;
                } else if (strcmp(f[0], "begin") == 0 && nf == 2 && j->planned) {
                        if (parse_size(f[1], j->n ? j->n - 1 : 0, &v) < 0 || j->n == 0) {
                                cc_err(err, CC_ERR_FORMAT, "%s: a step out of the plan", path);
                                goto out;
                        }
                        j->begun[v] = 1;
                } else if (strcmp(f[0], "commit") == 0 && nf == 1 && j->planned) {
                        j->committed = 1;
                }
        }
        rc = 0;
out:
        if (rc < 0)
                jread_free(j);
        return rc;
}

static int journal_read(const char *path, struct jread *j, cc_error *err)
{
        char *text = NULL;
        size_t len = 0;
        int rc;

        memset(j, 0, sizeof(*j));
        TRY_RET(cc_read_file(path, MAX_JOURNAL, &text, &len, err));
        rc = journal_parse(text, len, path, j, err);
        free(text);
        return rc;
}

int cc_txn_journal_parse(const char *text, size_t len, cc_txn_info *out, unsigned char **begun, int *whole,
                         cc_error *err)
{
        struct jread j;
        char *copy;

        memset(out, 0, sizeof(*out));
        *begun = NULL;
        *whole = 0;
        if (len > MAX_JOURNAL)
                return cc_err(err, CC_ERR_LIMIT, "journal: over %u bytes", MAX_JOURNAL);
        copy = cc_strndup(err, text, len);
        if (copy == NULL)
                return -1;
        if (journal_parse(copy, len, "journal", &j, err) < 0) {
                free(copy);
                return -1;
        }
        free(copy);
        out->label = j.label;
        out->ops = j.ops;
        out->n = j.n;
        out->committed = j.committed;
        *begun = j.begun;
        *whole = j.planned;
        return 0;
}

/* ---- undo ----------------------------------------------------------------- */

/* Undo operation i of a transaction whose directory is dir, from what is
 * on disk. Idempotent: run twice (a recovery killed half way), it does
 * nothing the second time. */
static int undo_op(const char *target, const char *dir, const cc_txn_op *o, size_t i, cc_error *err)
{
        char *path = NULL, *old = NULL;
        cc_stat st, ost;
        int rc = -1;

        path = join(target, o->path, err);
        old = cc_asprintf(err, "%s/old/%zu", dir, i);
        if (path == NULL || old == NULL)
                goto out;
        if (o->kind == CC_TXN_SETREG) {
                /* old/i is there once the value was kept, before it was set */
                TRY(cc_lstat_path(old, &ost, err));
                if (ost.type == CC_FT_FILE)
                        TRY(reg_set_from(o->path, old, err));
                rc = 0;
                goto out;
        }
        TRY(parents_ok(target, o->path, err));
        TRY(cc_lstat_path(path, &st, err));
        TRY(cc_lstat_path(old, &ost, err));
        switch (o->kind) {
        case CC_TXN_MKDIR:
                if (st.type == CC_FT_DIR)
                        TRY(cc_fs_rmdir(path, err));
                break;
        case CC_TXN_PLACE:
                /* The path was absent when the step began (apply checks):
                 * whatever is there now is the placed file. */
                if (st.type == CC_FT_FILE || st.type == CC_FT_LINK)
                        TRY(cc_fs_unlink(path, err));
                break;
        case CC_TXN_REPLACE:
        case CC_TXN_REMOVE:
                /* old/i exists only once the first rename happened; the
                 * rename back replaces the new file (if any) in one step. */
                if (ost.type == CC_FT_FILE || ost.type == CC_FT_LINK)
                        TRY(cc_fs_rename(old, path, err));
                break;
        case CC_TXN_RMDIR:
                if (st.type == CC_FT_NONE)
                        TRY(cc_fs_mkdir(path, o->mode ? o->mode : 0755, err));
                break;
        }
        rc = 0;
fail:
out:
        free(path);
        free(old);
        return rc;
}

/* Remove a transaction's directory (new/, old/, the journal). */
static int remove_txn_dir(const char *dir, cc_error *err)
{
        return cc_remove_tree(dir, err);
}

/* Remove .cudnnctl when it holds nothing but the lock: a target that had
 * none is left without one. Called holding the lock, which it lets go: the
 * lock file is removed first (nobody else is inside; on Windows the removal
 * is pending until the handle closes, which the lock's FILE_SHARE_DELETE
 * allows), then the lock is released, then the directory removed. */
static void tidy_state(const char *state, cc_fs_lock **lock)
{
        cc_strv names = {0};
        cc_error ignored = {0};
        int gone = 0;

        if (cc_list_dir(state, 16, &names, &ignored) == 0 && names.n == 1 && strcmp(names.v[0], "lock") == 0) {
                char *lockp = join(state, "lock", &ignored);

                gone = lockp != NULL && cc_fs_unlink(lockp, &ignored) == 0;
                free(lockp);
        }
        cc_strv_free(&names);
        cc_fs_lock_release(*lock);
        *lock = NULL;
        if (gone)
                (void)cc_fs_rmdir(state, &ignored);
}

/* ---- recovery ------------------------------------------------------------- */

static int push_line(cc_value *report, const char *name, const char *what, cc_error *err)
{
        return cc_v_push(report, cc_v_strf(err, "%s: %s", name, what), err);
}

/* Recover every txn-* under state; the lock is held. */
static int recover_locked(const char *target, const char *state, cc_value *report, cc_error *err)
{
        cc_strv names = {0};
        size_t k;
        int rc = 0;

        if (cc_list_dir(state, 0, &names, err) < 0)
                return -1;
        for (k = 0; k < names.n && rc == 0; k++) {
                char *dir, *journal, *newdir;
                struct jread j;
                cc_stat st;

                if (strncmp(names.v[k], "txn-", 4) != 0)
                        continue;
                dir = join(state, names.v[k], err);
                journal = dir ? join(dir, "journal", err) : NULL;
                newdir = dir ? join(dir, "new", err) : NULL;
                if (newdir == NULL) {
                        free(dir);
                        free(journal);
                        rc = -1;
                        break;
                }
                if (cc_lstat_path(journal, &st, err) < 0) {
                        rc = -1;
                } else if (st.type == CC_FT_NONE) {
                        /* Killed before the journal was whole: nothing was applied. */
                        rc = remove_txn_dir(dir, err);
                        if (rc == 0)
                                rc = push_line(report, names.v[k],
                                               "removed an unfinished transaction that had changed nothing", err);
                } else if (journal_read(journal, &j, err) < 0) {
                        cc_err_prefix(err, "%s: cannot recover", dir);
                        rc = -1;
                } else {
                        if (!j.planned) {
                                rc = remove_txn_dir(dir, err);
                                if (rc == 0)
                                        rc = push_line(report, names.v[k],
                                                       "removed an unfinished transaction that had changed nothing",
                                                       err);
                        } else if (j.committed) {
                                /* Committed: only leftover staging to clean. */
                                if (cc_lstat_path(newdir, &st, err) < 0)
                                        rc = -1;
                                else if (st.type == CC_FT_DIR && (rc = cc_remove_tree(newdir, err)) == 0)
                                        rc = push_line(report, names.v[k],
                                                       "removed the staging of a committed transaction", err);
                        } else {
                                size_t i, undone = 0;

                                for (i = j.n; i-- > 0 && rc == 0;)
                                        if (j.begun[i]) {
                                                rc = undo_op(target, dir, &j.ops[i], i, err);
                                                undone++;
                                        }
                                if (rc == 0)
                                        rc = cc_fs_sync_dir(target, err);
                                if (rc == 0)
                                        rc = remove_txn_dir(dir, err);
                                if (rc == 0)
                                        rc = cc_v_push(
                                            report,
                                            cc_v_strf(err, "%s: undid an interrupted transaction (%zu steps put back)",
                                                      names.v[k], undone),
                                            err);
                        }
                        jread_free(&j);
                }
                free(dir);
                free(journal);
                free(newdir);
        }
        cc_strv_free(&names);
        return rc;
}

int cc_txn_recover(const char *target, cc_value **report, cc_error *err)
{
        char *state = NULL, *lockp = NULL;
        cc_fs_lock *lock = NULL;
        cc_value *r = cc_v_array(err);
        cc_stat st;
        int rc = -1;

        *report = NULL;
        if (r == NULL)
                return -1;
        state = join(target, STATE_DIR, err);
        lockp = state ? join(state, "lock", err) : NULL;
        if (lockp == NULL)
                goto out;
        TRY(cc_lstat_path(state, &st, err));
        if (st.type == CC_FT_NONE) {
                rc = 0;
                goto out;
        }
        if (st.type != CC_FT_DIR) {
                cc_err(err, CC_ERR_IO, "%s: not a directory (a link or a file where cudnnctl keeps its journal)",
                       state);
                goto out;
        }
        TRY(cc_fs_lock_take(lockp, &lock, err));
        TRY(recover_locked(target, state, r, err));
        rc = 0;
fail:
out:
        if (lock != NULL && rc == 0)
                tidy_state(state, &lock);
        cc_fs_lock_release(lock);
        free(state);
        free(lockp);
        if (rc == 0)
                *report = r;
        else
                cc_v_free(r);
        return rc;
}

/* ---- begin ---------------------------------------------------------------- */

static int check_plan(const char *target, const cc_txn_op *ops, size_t n, cc_error *err)
{
        size_t i;

        if (n > MAX_OPS)
                return cc_err(err, CC_ERR_LIMIT, "%s: %zu operations in one transaction (at most %d)", target, n,
                              MAX_OPS);
        for (i = 0; i < n; i++) {
                if (ops[i].kind < CC_TXN_MKDIR || ops[i].kind >= CC_TXN_KINDS)
                        return cc_err(err, CC_ERR_USAGE, "operation %zu: an unknown kind", i);
                if (!cc_txn_path_ok(ops[i].path) || (ops[i].kind == CC_TXN_SETREG && !reg_path_ok(ops[i].path)))
                        return cc_err(err, CC_ERR_USAGE, "operation %zu: %s: not a safe relative path", i,
                                      ops[i].path ? ops[i].path : "(none)");
                if (ops[i].link != NULL && (ops[i].kind != CC_TXN_PLACE && ops[i].kind != CC_TXN_REPLACE))
                        return cc_err(err, CC_ERR_USAGE, "operation %zu: a link target on a %s", i,
                                      cc_txn_kind_name(ops[i].kind));
        }
        return 0;
}

/* Make a new transaction directory under t->state, named by its id. */
static int make_txn_dir(cc_txn *t, cc_error *err)
{
        char *sub = NULL;
        int attempt;

        /* An id that sorts by time; a second transaction in the same second
         * gets the next suffix. */
        for (attempt = 0; attempt < 100 && t->dir == NULL; attempt++) {
                char stamp[32];
                cc_error e2 = {0};
                cc_stat s2;

                cc_utc_text((int64_t)time(NULL), 1, stamp);
                free(t->id);
                t->id = cc_asprintf(err, "%s-%02d", stamp, attempt);
                if (t->id == NULL)
                        return -1;
                sub = cc_asprintf(err, "%s/txn-%s", t->state, t->id);
                if (sub == NULL)
                        return -1;
                if (cc_fs_mkdir(sub, 0700, &e2) == 0) {
                        t->dir = sub;
                        break;
                }
                if (cc_lstat_path(sub, &s2, err) < 0) {
                        free(sub);
                        return -1;
                }
                free(sub);
                if (s2.type == CC_FT_NONE) { /* not a name clash: the mkdir failed */
                        *err = e2;
                        return -1;
                }
        }
        if (t->dir == NULL)
                return cc_err(err, CC_ERR_IO, "%s: cannot make a transaction directory", t->state);
        sub = cc_asprintf(err, "%s/new", t->dir);
        if (sub == NULL || cc_fs_mkdir(sub, 0700, err) < 0) {
                free(sub);
                return -1;
        }
        free(sub);
        sub = cc_asprintf(err, "%s/old", t->dir);
        if (sub == NULL || cc_fs_mkdir(sub, 0700, err) < 0) {
                free(sub);
                return -1;
        }
        free(sub);
        return 0;
}

int cc_txn_open(const char *target, const char *label, cc_value **recovered, cc_txn **out, cc_error *err)
{
        cc_txn *t;
        cc_value *rep = NULL;
        cc_stat st;
        char *lockp = NULL;

        *out = NULL;
        if (recovered)
                *recovered = NULL;
        TRY_RET(cc_txn_recover(target, &rep, err));
        t = cc_calloc(err, 1, sizeof(*t));
        if (t == NULL) {
                cc_v_free(rep);
                return -1;
        }
        t->target = cc_strdup(err, target);
        t->state = join(target, STATE_DIR, err);
        t->label = cc_strdup(err, label ? label : "");
        if (t->target == NULL || t->state == NULL || t->label == NULL)
                goto fail;
        TRY(cc_lstat_path(t->state, &st, err));
        if (st.type == CC_FT_NONE) {
                TRY(cc_fs_mkdir(t->state, 0755, err));
                t->made_state = 1;
        } else if (st.type != CC_FT_DIR) {
                cc_err(err, CC_ERR_IO, "%s: not a directory (a link or a file where cudnnctl keeps its journal)",
                       t->state);
                goto fail;
        }
        lockp = join(t->state, "lock", err);
        if (lockp == NULL)
                goto fail;
        TRY(cc_fs_lock_take(lockp, &t->lock, err));
        TRY(make_txn_dir(t, err));
        free(lockp);
        *out = t;
        if (recovered)
                *recovered = rep;
        else
                cc_v_free(rep);
        return 0;
fail:
        free(lockp);
        cc_v_free(rep);
        cc_txn_abort(t);
        return -1;
}

static int writer_idle(cc_txn *t, cc_error *err);

int cc_txn_plan(cc_txn *t, const cc_txn_op *ops, size_t n, cc_error *err)
{
        cc_buf head = {0};
        cc_wfile *wf = NULL;
        char *tmp = NULL;
        int rc = -1;

        if (t->planned || t->open_kind != 0)
                return cc_err(err, CC_ERR_USAGE, "%s: the plan is written once, with no file open", t->dir);
        TRY_RET(check_plan(t->target, ops, n, err));
        TRY_RET(writer_idle(t, err));
        TRY_RET(ops_copy(ops, n, &t->ops, err));
        t->n = n;
        t->journal = join(t->dir, "journal", err);
        if (t->journal == NULL)
                goto out;
        /* The header goes to journal.tmp, synced, then is renamed: a journal
         * that exists is whole up to its "plan" line. */
        tmp = cc_asprintf(err, "%s.tmp", t->journal);
        if (tmp == NULL || journal_header(t, t->label, &head, err) < 0)
                goto out;
        TRY(cc_fs_create(tmp, 0600, &wf, err));
        if (cc_fs_write(wf, head.data, head.len, err) < 0) {
                cc_fs_close_abort(wf);
                goto out;
        }
        TRY(cc_fs_close_synced(wf, err));
        TRY(cc_fs_rename(tmp, t->journal, err));
        TRY(cc_fs_sync_dir(t->dir, err));
        TRY(cc_fs_sync_dir(t->state, err));
        t->planned = 1;
        rc = 0;
fail:
out:
        free(tmp);
        cc_buf_free(&head);
        return rc;
}

int cc_txn_begin(const char *target, const cc_txn_op *ops, size_t n, const char *label, cc_value **recovered,
                 cc_txn **out, cc_error *err)
{
        cc_txn *t = NULL;

        *out = NULL;
        if (recovered)
                *recovered = NULL;
        TRY_RET(check_plan(target, ops, n, err));
        TRY_RET(cc_txn_open(target, label, recovered, &t, err));
        if (cc_txn_plan(t, ops, n, err) < 0) {
                if (recovered) {
                        cc_v_free(*recovered);
                        *recovered = NULL;
                }
                cc_txn_abort(t);
                return -1;
        }
        *out = t;
        return 0;
}

/* ---- staging: the writer ---------------------------------------------------- */

static char *job_path(const cc_txn *t, const struct wjob *j, cc_error *err)
{
        return j->spool ? cc_asprintf(err, "%s/new/s%zu", t->dir, j->slot) : slot(t, "new", j->slot, err);
}

/* One job, on the writer thread. */
static int do_job(cc_txn *t, struct writer *w, const struct wjob *j, cc_error *err)
{
        char hex[65];
        int rc;

        switch (j->kind) {
        case J_OPEN: {
                char *p = job_path(t, j, err);
                unsigned mode = j->spool ? 0600 : (t->ops[j->slot].mode ? t->ops[j->slot].mode : 0644);

                if (p == NULL)
                        return -1;
                rc = cc_fs_create(p, mode, &w->wf, err);
                free(p);
                if (rc < 0)
                        return -1;
                w->cur = *j;
                w->bytes = 0;
                cc_sha256_init(&w->sha);
                return 0;
        }
        case J_DATA:
                if (w->wf == NULL)
                        return cc_err(err, CC_ERR_USAGE, "no file is being staged");
                if (w->bytes + j->len < w->bytes || (!w->cur.spool && t->ops[w->cur.slot].size != CC_TXN_SIZE_UNKNOWN &&
                                                     w->bytes + j->len > t->ops[w->cur.slot].size))
                        return cc_err(err, CC_ERR_FORMAT, "%s: more bytes than the plan's %llu",
                                      t->ops[w->cur.slot].path, (unsigned long long)t->ops[w->cur.slot].size);
                TRY_RET(cc_fs_write(w->wf, j->buf, j->len, err));
                cc_sha256_update(&w->sha, j->buf, j->len);
                w->bytes += j->len;
                return 0;
        case J_CLOSE: {
                cc_wfile *wf = w->wf;

                if (wf == NULL)
                        return cc_err(err, CC_ERR_USAGE, "no file is being staged");
                w->wf = NULL;
                cc_sha256_final_hex(&w->sha, hex);
                if (w->cur.spool) {
                        struct spooled *sp = &t->sp[w->cur.slot];

                        sp->size = w->bytes;
                        memcpy(sp->sha256, hex, sizeof(hex));
                        TRY_RET(cc_fs_close_synced(wf, err));
                        sp->closed = 1;
                        return 0;
                } else {
                        cc_txn_op *o = &t->ops[w->cur.slot];

                        if (o->size == CC_TXN_SIZE_UNKNOWN)
                                o->size = w->bytes;
                        if (w->bytes != o->size) {
                                cc_fs_close_abort(wf);
                                return cc_err(err, CC_ERR_FORMAT, "%s: %llu bytes where the plan has %llu", o->path,
                                              (unsigned long long)w->bytes, (unsigned long long)o->size);
                        }
                        if (o->sha256[0] && strcmp(o->sha256, hex) != 0) {
                                cc_fs_close_abort(wf);
                                return cc_err(err, CC_ERR_FORMAT, "%s: SHA-256 %s where the plan has %s", o->path, hex,
                                              o->sha256);
                        }
                        memcpy(o->sha256, hex, sizeof(hex));
                        return cc_fs_close_synced(wf, err);
                }
        }
        }
        return cc_err(err, CC_ERR_USAGE, "an unknown job");
}

static void writer_main(void *arg)
{
        cc_txn *t = arg;
        struct writer *w = t->w;

        cc_sync_lock(w->sync);
        for (;;) {
                struct wjob j;
                cc_error e = {0};
                int rc = 0;

                while (w->count == 0 && !w->quit)
                        cc_sync_wait(w->sync);
                if (w->count == 0)
                        break;
                j = w->q[w->head];
                w->head = (w->head + 1) % QCAP;
                w->count--;
                w->busy = 1;
                if (!w->failed) {
                        cc_sync_unlock(w->sync);
                        rc = do_job(t, w, &j, &e);
                        cc_sync_lock(w->sync);
                }
                if (rc < 0 && !w->failed) {
                        w->failed = 1;
                        w->err = e;
                }
                if (w->failed && w->wf != NULL) { /* the file being written goes with the staging */
                        cc_fs_close_abort(w->wf);
                        w->wf = NULL;
                }
                if (j.buf != NULL)
                        w->bufs[w->nfree++] = j.buf;
                w->busy = 0;
                cc_sync_wake(w->sync);
        }
        cc_sync_unlock(w->sync);
}

/* Start the writer (on first use). */
static int writer_start(cc_txn *t, cc_error *err)
{
        struct writer *w;

        if (t->w != NULL)
                return 0;
        w = cc_calloc(err, 1, sizeof(*w));
        if (w == NULL)
                return -1;
        if (cc_sync_new(&w->sync, err) < 0) {
                free(w);
                return -1;
        }
        t->w = w;
        if (cc_thread_start(writer_main, t, &w->th, err) < 0) {
                cc_sync_free(w->sync);
                free(w);
                t->w = NULL;
                return -1;
        }
        return 0;
}

/* Stop the writer and join its thread. What is still queued is dropped
 * (the transaction is given up); after writer_idle nothing is. */
static void writer_stop(cc_txn *t)
{
        struct writer *w = t->w;
        size_t i;

        if (w == NULL)
                return;
        cc_sync_lock(w->sync);
        if (!w->failed) {
                w->failed = 1;
                cc_err(&w->err, CC_ERR_USAGE, "the transaction was given up");
        }
        w->quit = 1;
        cc_sync_wake(w->sync);
        cc_sync_unlock(w->sync);
        cc_thread_join(w->th);
        if (w->wf != NULL)
                cc_fs_close_abort(w->wf);
        for (i = 0; i < w->nfree; i++)
                free(w->bufs[i]);
        cc_sync_free(w->sync);
        free(w);
        t->w = NULL;
        free(t->fill);
        t->fill = NULL;
        t->fill_len = 0;
}

/* The writer's first failure, as the caller's error. Called locked. */
static int writer_failed(struct writer *w, cc_error *err)
{
        if (!w->failed)
                return 0;
        *err = w->err;
        return -1;
}

/* Queue a job (data: its buffer, now the writer's). */
static int writer_put(cc_txn *t, const struct wjob *j, cc_error *err)
{
        struct writer *w = t->w;
        int rc;

        cc_sync_lock(w->sync);
        while (w->count == QCAP && !w->failed)
                cc_sync_wait(w->sync);
        rc = writer_failed(w, err);
        if (rc == 0) {
                w->q[(w->head + w->count) % QCAP] = *j;
                w->count++;
                cc_sync_wake(w->sync);
        } else if (j->buf != NULL) {
                w->bufs[w->nfree++] = j->buf;
        }
        cc_sync_unlock(w->sync);
        return rc;
}

/* A free buffer into t->fill. */
static int writer_buffer(cc_txn *t, cc_error *err)
{
        struct writer *w = t->w;
        uint8_t *b = NULL;
        int rc;

        cc_sync_lock(w->sync);
        if (w->nfree == 0 && w->nalloc < WBUFS) {
                w->nalloc++; /* counted now: the buffer is made outside the lock */
        } else {
                while (w->nfree == 0 && !w->failed)
                        cc_sync_wait(w->sync);
                if (w->nfree > 0)
                        b = w->bufs[--w->nfree];
        }
        rc = writer_failed(w, err);
        cc_sync_unlock(w->sync);
        if (rc < 0) {
                if (b != NULL) {
                        cc_sync_lock(w->sync);
                        w->bufs[w->nfree++] = b;
                        cc_sync_unlock(w->sync);
                }
                return -1;
        }
        if (b == NULL) {
                b = cc_malloc(err, WBUF);
                if (b == NULL) {
                        cc_sync_lock(w->sync);
                        w->nalloc--;
                        cc_sync_unlock(w->sync);
                        return -1;
                }
        }
        t->fill = b;
        t->fill_len = 0;
        return 0;
}

/* Hand the filled part of t->fill to the writer. */
static int writer_flush(cc_txn *t, cc_error *err)
{
        struct wjob j = {0};

        if (t->fill == NULL || t->fill_len == 0)
                return 0;
        j.kind = J_DATA;
        j.buf = t->fill;
        j.len = t->fill_len;
        t->fill = NULL;
        t->fill_len = 0;
        return writer_put(t, &j, err);
}

/* Wait until the writer has done everything queued; its failure, if any. */
static int writer_idle(cc_txn *t, cc_error *err)
{
        struct writer *w = t->w;
        int rc;

        if (w == NULL)
                return 0;
        cc_sync_lock(w->sync);
        while ((w->count > 0 || w->busy) && !w->failed)
                cc_sync_wait(w->sync);
        rc = writer_failed(w, err);
        cc_sync_unlock(w->sync);
        return rc;
}

static int open_job(cc_txn *t, int spool, size_t slot_no, cc_error *err)
{
        struct wjob j = {0};

        if (t->open_kind != 0)
                return cc_err(err, CC_ERR_USAGE, "%zu: another file is being staged", slot_no);
        TRY_RET(writer_start(t, err));
        j.kind = J_OPEN;
        j.spool = spool;
        j.slot = slot_no;
        TRY_RET(writer_put(t, &j, err));
        t->open_kind = spool ? 2 : 1;
        t->open_slot = slot_no;
        return 0;
}

/* ---- staging -------------------------------------------------------------- */

int cc_txn_stage_open(cc_txn *t, size_t i, cc_error *err)
{
        if (!t->planned || i >= t->n || !staged_op(&t->ops[i]))
                return cc_err(err, CC_ERR_USAGE, "operation %zu: not a file to stage", i);
        return open_job(t, 0, i, err);
}

int cc_txn_spool_open(cc_txn *t, size_t key, cc_error *err)
{
        if (t->planned)
                return cc_err(err, CC_ERR_USAGE, "%zu: files are spooled before the plan", key);
        if (key >= MAX_SPOOL)
                return cc_err(err, CC_ERR_LIMIT, "%zu: more than %d spooled files", key, MAX_SPOOL);
        if (key >= t->nsp) {
                size_t n = key + 1 > t->nsp * 2 ? key + 1 : t->nsp * 2;
                struct spooled *p;

                TRY_RET(writer_idle(t, err)); /* the writer fills t->sp */
                p = cc_realloc(err, t->sp, n * sizeof(*p));
                if (p == NULL)
                        return -1;
                memset(p + t->nsp, 0, (n - t->nsp) * sizeof(*p));
                t->sp = p;
                t->nsp = n;
        }
        return open_job(t, 1, key, err);
}

int cc_txn_stage_write(cc_txn *t, const void *p, size_t n, cc_error *err)
{
        const uint8_t *c = p;

        if (t->open_kind == 0)
                return cc_err(err, CC_ERR_USAGE, "no file is being staged");
        while (n > 0) {
                size_t k;

                if (t->fill == NULL)
                        TRY_RET(writer_buffer(t, err));
                k = WBUF - t->fill_len < n ? WBUF - t->fill_len : n;
                memcpy(t->fill + t->fill_len, c, k);
                t->fill_len += k;
                c += k;
                n -= k;
                if (t->fill_len == WBUF)
                        TRY_RET(writer_flush(t, err));
        }
        return 0;
}

int cc_txn_stage_close(cc_txn *t, cc_error *err)
{
        struct wjob j = {0};

        if (t->open_kind == 0)
                return cc_err(err, CC_ERR_USAGE, "no file is being staged");
        t->open_kind = 0;
        TRY_RET(writer_flush(t, err));
        j.kind = J_CLOSE;
        return writer_put(t, &j, err);
}

int cc_txn_stage_wait(cc_txn *t, cc_error *err)
{
        if (t->open_kind != 0)
                return cc_err(err, CC_ERR_USAGE, "a file is still being staged");
        return writer_idle(t, err);
}

int cc_txn_stage_copy(cc_txn *t, size_t i, const char *from, cc_error *err)
{
        cc_map m;
        int rc;

        /* A mapping rather than a read loop: cc_map_file guards a file cut
         * short under us (SIGBUS) and cc_map_check reports it. The bytes are
         * copied into the writer's buffers here, on this thread: a fault is
         * the main thread's to catch. */
        TRY_RET(cc_map_file(from, (size_t)-1, &m, err));
        rc = cc_txn_stage_open(t, i, err);
        if (rc == 0) {
                size_t off;

                for (off = 0; rc == 0 && off < m.size; off += COPY_CHUNK)
                        rc = cc_txn_stage_write(t, (const char *)m.data + off,
                                                m.size - off < COPY_CHUNK ? m.size - off : COPY_CHUNK, err);
                if (rc == 0)
                        rc = cc_map_check(&m, from, err);
                if (rc == 0)
                        rc = cc_txn_stage_close(t, err);
                else
                        t->open_kind = 0; /* abandoned: the transaction goes */
        }
        cc_unmap(&m);
        return rc;
}

int cc_txn_stage_spooled(cc_txn *t, size_t i, size_t key, cc_error *err)
{
        cc_txn_op *o;
        char *from = NULL, *to = NULL;
        int rc = -1;

        if (!t->planned || i >= t->n || !staged_op(&t->ops[i]))
                return cc_err(err, CC_ERR_USAGE, "operation %zu: not a file to stage", i);
        TRY_RET(cc_txn_stage_wait(t, err));
        o = &t->ops[i];
        if (key >= t->nsp || !t->sp[key].closed)
                return cc_err(err, CC_ERR_USAGE, "%s: nothing was spooled for it (%zu)", o->path, key);
        if (o->size != CC_TXN_SIZE_UNKNOWN && t->sp[key].size != o->size)
                return cc_err(err, CC_ERR_FORMAT, "%s: %llu bytes where the plan has %llu", o->path,
                              (unsigned long long)t->sp[key].size, (unsigned long long)o->size);
        if (o->sha256[0] && strcmp(o->sha256, t->sp[key].sha256) != 0)
                return cc_err(err, CC_ERR_FORMAT, "%s: SHA-256 %s where the plan has %s", o->path, t->sp[key].sha256,
                              o->sha256);
        from = cc_asprintf(err, "%s/new/s%zu", t->dir, key);
        to = slot(t, "new", i, err);
        if (from == NULL || to == NULL)
                goto out;
        TRY(cc_fs_chmod(from, o->mode ? o->mode : 0644, err));
        TRY(cc_fs_rename(from, to, err));
        o->size = t->sp[key].size;
        memcpy(o->sha256, t->sp[key].sha256, sizeof(o->sha256));
        t->sp[key].closed = 0; /* moved: one operation only */
        t->adopted = 1;
        rc = 0;
fail:
out:
        free(from);
        free(to);
        return rc;
}

const char *cc_txn_op_sha256(const cc_txn *t, size_t i)
{
        return i < t->n ? t->ops[i].sha256 : "";
}

const char *cc_txn_dir(const cc_txn *t)
{
        return t->dir;
}

const char *cc_txn_id(const cc_txn *t)
{
        return t->id;
}

/* ---- apply and commit ----------------------------------------------------- */

/* Whether the plan's view of path still holds: what a PLACE or MKDIR
 * expects absent is absent, what a REPLACE or REMOVE expects is a file or a
 * link, what an RMDIR expects is a directory. */
static int precondition(const cc_txn_op *o, const char *path, cc_error *err)
{
        cc_stat st;

        TRY_RET(cc_lstat_path(path, &st, err));
        switch (o->kind) {
        case CC_TXN_MKDIR:
        case CC_TXN_PLACE:
                if (st.type != CC_FT_NONE)
                        return cc_err(err, CC_ERR_IO, "%s: appeared since the plan was made", path);
                break;
        case CC_TXN_REPLACE:
        case CC_TXN_REMOVE:
                if (st.type != CC_FT_FILE && st.type != CC_FT_LINK)
                        return cc_err(err, CC_ERR_IO, "%s: %s since the plan was made", path,
                                      st.type == CC_FT_NONE ? "gone" : "no longer a file");
                break;
        case CC_TXN_RMDIR:
                if (st.type != CC_FT_DIR)
                        return cc_err(err, CC_ERR_IO, "%s: no longer a directory", path);
                break;
        }
        return 0;
}

static int apply_op(cc_txn *t, size_t i, int *begun, cc_error *err)
{
        const cc_txn_op *o = &t->ops[i];
        char *path = join(t->target, o->path, err), *nw = slot(t, "new", i, err), *old = slot(t, "old", i, err);
        int rc = -1;

        if (path == NULL || nw == NULL || old == NULL)
                goto out;
        if (o->kind == CC_TXN_SETREG) {
                TRY(journal_line(t, "begin", i, err));
                *begun = 1;
                TRY(reg_backup(o->path, old, err));
                TRY(reg_set_from(o->path, nw, err));
                rc = 0;
                goto out;
        }
        TRY(parents_ok(t->target, o->path, err));
        TRY(precondition(o, path, err));
        /* A link is staged now (links have no content to sync). */
        if (o->link != NULL)
                TRY(cc_fs_symlink(o->link, nw, err));
        TRY(journal_line(t, "begin", i, err));
        *begun = 1;
        switch (o->kind) {
        case CC_TXN_MKDIR:
                TRY(cc_fs_mkdir(path, o->mode ? o->mode : 0755, err));
                break;
        case CC_TXN_PLACE:
                TRY(cc_fs_rename(nw, path, err));
                break;
        case CC_TXN_REPLACE:
                TRY(cc_fs_rename(path, old, err));
                TRY(cc_fs_rename(nw, path, err));
                break;
        case CC_TXN_REMOVE:
                TRY(cc_fs_rename(path, old, err));
                break;
        case CC_TXN_RMDIR:
                TRY(cc_fs_rmdir(path, err));
                break;
        }
        rc = 0;
fail:
out:
        free(path);
        free(nw);
        free(old);
        return rc;
}

/* The directories the operations touched, synced once each. */
static int sync_touched(const cc_txn *t, cc_error *err)
{
        cc_strv dirs = {0};
        size_t i;
        int rc = 0;

        for (i = 0; i < t->n && rc == 0; i++) {
                char *d, *full;

                if (t->ops[i].kind == CC_TXN_SETREG)
                        continue; /* a registry value: flushed when set */
                d = cc_dirname(t->ops[i].path, 0, err);
                if (d == NULL)
                        rc = -1;
                else {
                        full = strcmp(d, ".") == 0 ? cc_strdup(err, t->target) : join(t->target, d, err);
                        if (full == NULL)
                                rc = -1;
                        else if (!cc_strv_contains(&dirs, full))
                                rc = cc_strv_take(&dirs, full, err);
                        else
                                free(full);
                        free(d);
                }
        }
        for (i = 0; i < dirs.n && rc == 0; i++) {
                cc_stat st;

                if (cc_lstat_path(dirs.v[i], &st, err) < 0)
                        rc = -1;
                else if (st.type == CC_FT_DIR)
                        rc = cc_fs_sync_dir(dirs.v[i], err);
        }
        if (rc == 0)
                rc = cc_fs_sync_dir(t->dir, err);
        cc_strv_free(&dirs);
        return rc;
}

int cc_txn_apply_commit(cc_txn *t, int *undo_failed, cc_error *err)
{
        size_t i, applied = 0;
        int begun = 0;
        char *newdir = NULL;
        cc_error uerr = {0};
        int rc = -1;

        if (undo_failed)
                *undo_failed = 0;
        if (!t->planned)
                return cc_err(err, CC_ERR_USAGE, "%s: no plan to apply", t->dir);
        /* Everything staged is on disk before the first step; a staging
         * failure found here ends the transaction with nothing applied. */
        if (cc_txn_stage_wait(t, err) < 0)
                goto undo;
        writer_stop(t);
        if (t->adopted) {
                newdir = cc_asprintf(err, "%s/new", t->dir);
                rc = newdir == NULL ? -1 : cc_fs_sync_dir(newdir, err);
                free(newdir);
                newdir = NULL;
                if (rc < 0)
                        goto undo;
                rc = -1;
        }
        for (i = 0; i < t->n; i++) {
                begun = 0;
                if (apply_op(t, i, &begun, err) < 0)
                        goto undo;
                TRY(journal_line(t, "done", i, err));
                applied = i + 1;
        }
        if (sync_touched(t, err) < 0 || cc_fs_append_synced(t->journal, "commit\n", err) < 0)
                goto undo;
        /* Committed. The staging directory is empty now; old/ stays for
         * rollback. */
        newdir = cc_asprintf(err, "%s/new", t->dir);
        if (newdir != NULL)
                (void)cc_remove_tree(newdir, &uerr);
        free(newdir);
        return 0;
fail:
undo:
        /* The step that failed is undone too when it had begun (undo reads
         * the disk: a step that did nothing is a no-op); one that failed its
         * checks before beginning touched nothing, and its path may hold
         * somebody else's file. */
        for (i = applied < t->n && begun ? applied + 1 : applied; i-- > 0;)
                if (undo_op(t->target, t->dir, &t->ops[i], i, &uerr) < 0)
                        break;
        if (uerr.code == 0) {
                (void)cc_fs_sync_dir(t->target, &uerr);
                if (remove_txn_dir(t->dir, &uerr) == 0) {
                        free(t->dir);
                        t->dir = NULL;
                }
        } else if (undo_failed) {
                *undo_failed = 1;
        }
        return rc;
}

void cc_txn_abort(cc_txn *t)
{
        cc_error ignored = {0};

        if (t == NULL)
                return;
        writer_stop(t);
        if (t->dir != NULL)
                (void)remove_txn_dir(t->dir, &ignored);
        free(t->dir);
        t->dir = NULL;
        cc_txn_free(t);
}

void cc_txn_free(cc_txn *t)
{
        if (t == NULL)
                return;
        writer_stop(t);
        if (!t->planned && t->dir != NULL) {
                cc_error ignored = {0};

                /* opened and never planned: nothing was applied, what was
                 * spooled goes */
                (void)remove_txn_dir(t->dir, &ignored);
        }
        if (t->state != NULL && t->lock != NULL)
                tidy_state(t->state, &t->lock); /* lets the lock go */
        cc_fs_lock_release(t->lock);
        free(t->target);
        free(t->state);
        free(t->dir);
        free(t->id);
        free(t->journal);
        free(t->label);
        free(t->sp);
        ops_free(t->ops, t->n);
        free(t);
}

/* ---- history -------------------------------------------------------------- */

void cc_txn_info_free(cc_txn_info *v, size_t n)
{
        size_t i;

        if (v == NULL)
                return;
        for (i = 0; i < n; i++) {
                free(v[i].id);
                free(v[i].label);
                ops_free(v[i].ops, v[i].n);
        }
        free(v);
}

int cc_txn_list(const char *target, cc_txn_info **out, size_t *nout, cc_strv *unreadable, cc_error *err)
{
        char *state = join(target, STATE_DIR, err);
        cc_strv names = {0};
        cc_txn_info *v = NULL;
        size_t k, n = 0;
        cc_stat st;
        int rc = -1;

        *out = NULL;
        *nout = 0;
        if (state == NULL)
                return -1;
        TRY(cc_lstat_path(state, &st, err));
        if (st.type != CC_FT_DIR) {
                rc = 0;
                goto out;
        }
        TRY(cc_list_dir(state, 0, &names, err));
        v = cc_calloc(err, names.n ? names.n : 1, sizeof(*v));
        if (v == NULL)
                goto out;
        for (k = 0; k < names.n; k++) {
                char *journal;
                struct jread j;
                cc_error e2 = {0};

                if (strncmp(names.v[k], "txn-", 4) != 0)
                        continue;
                journal = cc_asprintf(err, "%s/%s/journal", state, names.v[k]);
                if (journal == NULL)
                        goto fail;
                if (journal_read(journal, &j, &e2) < 0 || !j.planned) {
                        if (e2.code == 0)
                                jread_free(&j);
                        if (unreadable != NULL &&
                            cc_strv_pushf(unreadable, 0, err, "%s: %s", journal, e2.code ? e2.msg : "not whole") < 0) {
                                free(journal);
                                goto fail;
                        }
                        free(journal);
                        continue;
                }
                free(journal);
                v[n].id = cc_strdup(err, names.v[k] + 4);
                v[n].label = j.label;
                v[n].ops = j.ops;
                v[n].n = j.n;
                v[n].committed = j.committed;
                j.label = NULL;
                j.ops = NULL;
                j.n = 0;
                jread_free(&j);
                n++;
                if (v[n - 1].id == NULL)
                        goto fail;
        }
        *out = v;
        *nout = n;
        v = NULL;
        n = 0;
        rc = 0;
        goto out;
fail:
out:
        cc_txn_info_free(v, n);
        cc_strv_free(&names);
        free(state);
        return rc;
}

char *cc_txn_backup(const char *target, const char *id, size_t i, cc_error *err)
{
        return cc_asprintf(err, "%s/%s/txn-%s/old/%zu", target, STATE_DIR, id, i);
}

int cc_txn_prune(const char *target, size_t keep, cc_error *err)
{
        cc_txn_info *v = NULL;
        size_t n = 0, i, seen = 0;
        int rc = 0;

        TRY_RET(cc_txn_list(target, &v, &n, NULL, err));
        /* names sort by time: the newest last */
        for (i = n; i-- > 0 && rc == 0;) {
                char *old;
                cc_stat st;

                if (!v[i].committed)
                        continue;
                if (++seen <= keep)
                        continue;
                old = cc_asprintf(err, "%s/%s/txn-%s/old", target, STATE_DIR, v[i].id);
                if (old == NULL) {
                        rc = -1;
                        break;
                }
                if (cc_lstat_path(old, &st, err) < 0)
                        rc = -1;
                else if (st.type == CC_FT_DIR)
                        rc = cc_remove_tree(old, err);
                free(old);
        }
        cc_txn_info_free(v, n);
        return rc;
}
