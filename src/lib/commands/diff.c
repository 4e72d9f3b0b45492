/* cudnnctl diff: two doctor documents compared the way a person reasons about
 * a machine: the driver and GPUs, the toolkits, each cuDNN installation
 * (matched by prefix, its aliases and its provenance), what a plain program
 * loads, each framework, the environment, and the findings that appear or
 * disappear. Only the facts that describe the machine are compared; the
 * ones that differ from run to run (durations, temporary paths) are counted
 * apart and listed only when asked (`all`). */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

enum { A_DRIVER, A_TOOLKIT, A_CUDNN, A_LOADER, A_FRAMEWORKS, A_ENV, A_FINDINGS, A_VOLATILE, NAREAS };

static const char *const area_id[NAREAS] = {"driver",     "toolkits",    "cudnn",    "loader",
                                            "frameworks", "environment", "findings", "volatile"};
static const char *const area_title[NAREAS] = {"NVIDIA driver and GPUs",
                                               "CUDA toolkits",
                                               "cuDNN installations",
                                               "what a plain program loads",
                                               "Python frameworks",
                                               "search paths and environment",
                                               "findings",
                                               "facts that differ from run to run"};

/* At most this many file names are given with a change of an installation's files. */
enum { MAX_NAMES = 5, MAX_DEPTH = 64 };

struct dx {
        cc_value *groups[NAREAS]; /* arrays of changes */
        int64_t added, removed, changed, nvolatile;
        int all;
        cc_error *err;
};

/* ---- values ------------------------------------------------------------ */

static int veq(const cc_value *a, const cc_value *b, int depth)
{
        int ta = a ? cc_v_type(a) : CUDNNCTL_NULL, tb = b ? cc_v_type(b) : CUDNNCTL_NULL;
        size_t i, n;

        if (ta != tb || depth > MAX_DEPTH)
                return 0;
        switch (ta) {
        case CUDNNCTL_NULL:
                return 1;
        case CUDNNCTL_BOOL:
                return cc_v_as_bool(a) == cc_v_as_bool(b);
        case CUDNNCTL_INT:
                return cc_v_as_int(a) == cc_v_as_int(b);
        case CUDNNCTL_DOUBLE: {
                double x = cc_v_as_double(a), y = cc_v_as_double(b);

                return memcmp(&x, &y, sizeof(x)) == 0 || x == y;
        }
        case CUDNNCTL_STRING:
                return strcmp(cc_v_as_str(a), cc_v_as_str(b)) == 0;
        case CUDNNCTL_ARRAY:
                n = cc_v_len(a);
                if (n != cc_v_len(b))
                        return 0;
                for (i = 0; i < n; i++)
                        if (!veq(cc_v_at(a, i), cc_v_at(b, i), depth + 1))
                                return 0;
                return 1;
        case CUDNNCTL_OBJECT:
                n = cc_v_len(a);
                if (n != cc_v_len(b))
                        return 0;
                for (i = 0; i < n; i++) {
                        const char *k = cc_v_key_at(a, i);

                        if (cc_v_get(b, k) == NULL || !veq(cc_v_at(a, i), cc_v_get(b, k), depth + 1))
                                return 0;
                }
                return 1;
        default:
                return 0;
        }
}

/* Equal as facts: absent and null alike; versions compared as versions
 * ("9.14" is "9.14.0"). */
static int same(const cc_value *a, const cc_value *b, int version)
{
        if (version && cc_v_as_str(a) != NULL && cc_v_as_str(b) != NULL) {
                cudnnctl_ver x, y;

                if (cudnnctl_ver_parse(cc_v_as_str(a), &x) == 0 && cudnnctl_ver_parse(cc_v_as_str(b), &y) == 0)
                        return cudnnctl_ver_cmp(&x, &y) == 0;
        }
        return veq(a, b, 0);
}

static const cc_value *obj(const cc_value *v)
{
        return v != NULL && cc_v_type(v) == CUDNNCTL_OBJECT ? v : NULL;
}

static const cc_value *arr(const cc_value *v)
{
        return v != NULL && cc_v_type(v) == CUDNNCTL_ARRAY ? v : NULL;
}

/* ---- JSON pointers (RFC 6901) ----------------------------------------- */

static char *jp_key(const char *base, const char *key, cc_error *err)
{
        cc_buf b = {0};
        const char *p;

        if (cc_buf_puts(&b, base, err) < 0 || cc_buf_putc(&b, '/', err) < 0)
                goto fail;
        for (p = key; *p; p++)
                if ((*p == '~'   ? cc_buf_puts(&b, "~0", err)
                     : *p == '/' ? cc_buf_puts(&b, "~1", err)
                                 : cc_buf_putc(&b, *p, err)) < 0)
                        goto fail;
        return b.data;
fail:
        free(b.data);
        return NULL;
}

static char *jp_index(const char *base, size_t i, cc_error *err)
{
        cc_buf b = {0};

        if (cc_buf_printf(&b, err, "%s/%zu", base, i) < 0) {
                free(b.data);
                return NULL;
        }
        return b.data;
}

/* ---- changes ------------------------------------------------------------ */

/* One change into its area's group; before/after are copied (NULL: null);
 * extra (owned) is set as `files`. */
static int change(struct dx *x, int area, const char *kind, const char *subject, const char *what, const char *path,
                  const cc_value *before, const cc_value *after, cc_value *extra)
{
        cc_value *c;
        cc_error *err = x->err;

        if (area == A_VOLATILE)
                x->nvolatile++;
        else if (kind[0] == 'a')
                x->added++;
        else if (kind[0] == 'r')
                x->removed++;
        else
                x->changed++;
        if (area == A_VOLATILE && !x->all) {
                cc_v_free(extra);
                return 0;
        }
        c = cc_v_object(err);
        if (cc_v_set_str(c, "kind", kind, err) < 0 || cc_v_set_str(c, "subject", subject, err) < 0 ||
            cc_v_set_str(c, "what", what, err) < 0 || cc_v_set_str(c, "path", path, err) < 0 ||
            cc_v_set(c, "before", cc_v_copy(before, err), err) < 0 ||
            cc_v_set(c, "after", cc_v_copy(after, err), err) < 0 ||
            (extra != NULL && cc_v_set(c, "files", extra, err) < 0)) {
                if (c != NULL && extra != NULL && cc_v_get(c, "files") != extra)
                        cc_v_free(extra);
                cc_v_free(c);
                return -1;
        }
        return cc_v_push(x->groups[area], c, err);
}

/* A field of two matched items: "changed" when they differ. rel: the
 * field's path below the items (for `path`), va/vb the values. */
static int field(struct dx *x, int area, const char *subject, const char *what, const char *pa, const char *pb,
                 const char *rel, const cc_value *va, const cc_value *vb, int version)
{
        char *path;
        int rv;

        if (same(va, vb, version))
                return 0;
        path = rel[0] ? jp_key(vb != NULL ? pb : pa, rel, x->err) : cc_strdup(x->err, vb != NULL ? pb : pa);
        if (path == NULL)
                return -1;
        /* a relative path of several keys: jp_key escaped its slashes; undo */
        if (strchr(rel, '/') != NULL) {
                char *s = path + strlen(vb != NULL ? pb : pa) + 1, *d = s;

                while (*s) {
                        if (s[0] == '~' && s[1] == '1') {
                                *d++ = '/';
                                s += 2;
                        } else {
                                *d++ = *s++;
                        }
                }
                *d = '\0';
        }
        rv = change(x, area, "changed", subject, what, path, va, vb, NULL);
        free(path);
        return rv;
}

/* ---- items and matching --------------------------------------------------- */

struct item {
        const cc_value *v;
        char *key;     /* what matches it to its counterpart */
        char *subject; /* for people */
        char *path;    /* JSON pointer in its document */
        const char *prefix, *kind;
        const cc_value *aliases;
        int matched;
};

struct items {
        struct item *it;
        size_t n, cap;
};

static void items_free(struct items *s)
{
        size_t i;

        for (i = 0; i < s->n; i++) {
                free(s->it[i].key);
                free(s->it[i].subject);
                free(s->it[i].path);
        }
        free(s->it);
        memset(s, 0, sizeof(*s));
}

/* Add an item; key, subject and path are taken (freed on failure too). */
static struct item *items_add(struct items *s, const cc_value *v, char *key, char *subject, char *path, cc_error *err)
{
        struct item *it;

        if (key == NULL || subject == NULL || path == NULL)
                goto fail;
        if (s->n == s->cap) {
                size_t cap = s->cap ? s->cap * 2 : 16;
                struct item *n = cc_realloc(err, s->it, cap * sizeof(*n));

                if (n == NULL)
                        goto fail;
                s->it = n;
                s->cap = cap;
        }
        it = &s->it[s->n++];
        memset(it, 0, sizeof(*it));
        it->v = v;
        it->key = key;
        it->subject = subject;
        it->path = path;
        return it;
fail:
        free(key);
        free(subject);
        free(path);
        return NULL;
}

static int in_strings(const cc_value *list, const char *s)
{
        size_t i;

        for (i = 0; s != NULL && i < cc_v_len(arr(list)); i++)
                if (cc_v_as_str(cc_v_at(list, i)) != NULL && strcmp(cc_v_as_str(cc_v_at(list, i)), s) == 0)
                        return 1;
        return 0;
}

/* A prefix match: the same kind, and one's prefix is the other's or one of its aliases. */
static int prefix_match(const struct item *a, const struct item *b)
{
        if ((a->kind == NULL) != (b->kind == NULL) || (a->kind != NULL && strcmp(a->kind, b->kind) != 0))
                return 0;
        if (a->prefix == NULL || b->prefix == NULL)
                return strcmp(a->key, b->key) == 0;
        return strcmp(a->prefix, b->prefix) == 0 || in_strings(b->aliases, a->prefix) ||
               in_strings(a->aliases, b->prefix);
}

static int key_match(const struct item *a, const struct item *b)
{
        return strcmp(a->key, b->key) == 0;
}

typedef int (*cmp_fn)(struct dx *x, const struct item *a, const struct item *b, void *ctx);
typedef const cc_value *(*val_fn)(const cc_value *item);

/* Match a's items to b's; unmatched ones are removed / added (their value
 * given by val), matched ones compared by cmp. */
static int match(struct dx *x, int area, struct items *a, struct items *b,
                 int (*eq)(const struct item *, const struct item *), cmp_fn cmp, void *ctx, val_fn val)
{
        size_t i, j;

        for (i = 0; i < a->n; i++) {
                struct item *ia = &a->it[i];

                for (j = 0; j < b->n; j++) {
                        struct item *ib = &b->it[j];

                        if (ib->matched || !eq(ia, ib))
                                continue;
                        ia->matched = ib->matched = 1;
                        if (cmp != NULL && cmp(x, ia, ib, ctx) < 0)
                                return -1;
                        break;
                }
                if (!ia->matched &&
                    change(x, area, "removed", ia->subject, "", ia->path, val ? val(ia->v) : NULL, NULL, NULL) < 0)
                        return -1;
        }
        for (j = 0; j < b->n; j++)
                if (!b->it[j].matched && change(x, area, "added", b->it[j].subject, "", b->it[j].path, NULL,
                                                val ? val(b->it[j].v) : NULL, NULL) < 0)
                        return -1;
        return 0;
}

/* A field by relative path ("info/version"). */
static int fld(struct dx *x, int area, const struct item *a, const struct item *b, const char *what, const char *rel,
               int version)
{
        return field(x, area, b->subject, what, a->path, b->path, rel, cc_v_path(a->v, rel), cc_v_path(b->v, rel),
                     version);
}

/* ---- driver and GPUs ------------------------------------------------------ */

/* The driver probe's facts of the first verify document that has them. */
static const cc_value *driver_probe(const cc_value *doc, char **path, cc_error *err)
{
        const cc_value *vs = arr(cc_v_path(doc, "facts/verify"));
        size_t i;

        *path = NULL;
        for (i = 0; i < cc_v_len(vs); i++) {
                const cc_value *f = obj(cc_v_path(cc_v_at(vs, i), "document/probes/driver/facts"));

                if (f != NULL) {
                        cc_buf b = {0};

                        if (cc_buf_printf(&b, err, "/facts/verify/%zu/document/probes/driver/facts", i) < 0) {
                                free(b.data);
                                return NULL;
                        }
                        *path = b.data;
                        return f;
                }
        }
        return NULL;
}

static const cc_value *which_result(const cc_value *doc, const char *name, size_t *at)
{
        const cc_value *rs = arr(cc_v_path(doc, "facts/which/results"));
        size_t i;

        for (i = 0; i < cc_v_len(rs); i++) {
                const char *n = cc_v_get_str(cc_v_at(rs, i), "name");

                if (n != NULL && strcmp(n, name) == 0) {
                        *at = i;
                        return cc_v_at(rs, i);
                }
        }
        return NULL;
}

/* The directory of a resolution's winner (its realpath, else its path), as a new string value. */
static cc_value *winner_dir(const cc_value *r, cc_error *err)
{
        const char *p = cc_v_get_str(r, "realpath");
        const char *slash;

        if (p == NULL)
                p = cc_v_get_str(r, "path");
        if (p == NULL)
                return cc_v_null(err);
        slash = strrchr(p, '/');
        if (slash == NULL)
                slash = strrchr(p, '\\');
        return slash == NULL ? cc_v_str(p, err) : cc_v_strn(p, (size_t)(slash == p ? 1 : slash - p), err);
}

static int gpu_items(const cc_value *probe, const char *ppath, struct items *s, cc_error *err)
{
        const cc_value *ds = arr(cc_v_get(probe, "devices"));
        size_t i;

        for (i = 0; i < cc_v_len(ds); i++) {
                const cc_value *d = obj(cc_v_at(ds, i));
                const char *uuid = cc_v_get_str(d, "uuid"), *name = cc_v_get_str(d, "name");
                int64_t index =
                    cc_v_type(cc_v_get(d, "index")) == CUDNNCTL_INT ? cc_v_as_int(cc_v_get(d, "index")) : (int64_t)i;
                char *base;

                if (d == NULL)
                        continue;
                base = jp_key(ppath, "devices", err);
                if (base == NULL)
                        return -1;
                {
                        cc_buf k = {0}, sub = {0};

                        if (uuid != NULL ? cc_buf_puts(&k, uuid, err)
                                         : cc_buf_printf(&k, err, "%lld\n%s", (long long)index, name ? name : "") < 0) {
                                free(k.data);
                                free(base);
                                return -1;
                        }
                        if (cc_buf_printf(&sub, err, "GPU %lld (%s)", (long long)index, name ? name : "unnamed") < 0) {
                                free(k.data);
                                free(sub.data);
                                free(base);
                                return -1;
                        }
                        if (items_add(s, d, k.data, sub.data, jp_index(base, i, err), err) == NULL) {
                                free(base);
                                return -1;
                        }
                }
                free(base);
        }
        return 0;
}

static int gpu_cmp(struct dx *x, const struct item *a, const struct item *b, void *ctx)
{
        (void)ctx;
        TRY_RET(fld(x, A_DRIVER, a, b, "compute capability (major)", "cc_major", 0));
        TRY_RET(fld(x, A_DRIVER, a, b, "compute capability (minor)", "cc_minor", 0));
        return fld(x, A_DRIVER, a, b, "memory", "memory_bytes", 0);
}

static const cc_value *gpu_val(const cc_value *d)
{
        return cc_v_get(d, "name");
}

static int diff_driver(struct dx *x, const cc_value *a, const cc_value *b)
{
        cc_error *err = x->err;
        char *pa = NULL, *pb = NULL;
        const cc_value *fa = driver_probe(a, &pa, err), *fb = driver_probe(b, &pb, err);
        const cc_value *va, *vb, *ra, *rb;
        const char *qa, *qb;
        struct items ga = {0}, gb = {0};
        size_t ia = 0, ib = 0;
        int rv = -1;

        if ((fa != NULL && pa == NULL) || (fb != NULL && pb == NULL))
                goto fail;
        /* the driver's version: what NVML says where a probe ran, else its files */
        va = cc_v_path(fa, "nvml/driver_version");
        qa = "/facts/verify/nvml/driver_version";
        if (cc_v_as_str(va) == NULL)
                va = cc_v_path(a, "facts/host/driver_files/version");
        vb = cc_v_path(fb, "nvml/driver_version");
        if (cc_v_as_str(vb) == NULL)
                vb = cc_v_path(b, "facts/host/driver_files/version");
        (void)qa;
        qa = cc_v_as_str(cc_v_path(fa, "nvml/driver_version")) != NULL ? pa : "/facts/host/driver_files";
        qb = cc_v_as_str(cc_v_path(fb, "nvml/driver_version")) != NULL ? pb : "/facts/host/driver_files";
        {
                const char *rel_a = qa == pa ? "nvml/driver_version" : "version";
                const char *rel_b = qb == pb ? "nvml/driver_version" : "version";
                char *full = jp_key(cc_v_as_str(vb) != NULL ? qb : qa, "x", err);

                if (full == NULL)
                        goto fail;
                full[strlen(full) - 1] = '\0';
                if (!same(va, vb, 1)) {
                        cc_buf p = {0};

                        if (cc_buf_printf(&p, err, "%s%s", full, cc_v_as_str(vb) != NULL ? rel_b : rel_a) < 0 ||
                            change(x, A_DRIVER, "changed", "driver", "version", p.data, va, vb, NULL) < 0) {
                                free(p.data);
                                free(full);
                                goto fail;
                        }
                        free(p.data);
                }
                free(full);
        }
        if (fa != NULL || fb != NULL)
                TRY(field(x, A_DRIVER, "driver", "newest CUDA it runs", pa ? pa : pb, pb ? pb : pa,
                          "nvml/cuda_driver_version", cc_v_path(fa, "nvml/cuda_driver_version"),
                          cc_v_path(fb, "nvml/cuda_driver_version"), 0));
        /* where libcuda.so.1 comes from (the file name carries the version: its directory) */
        ra = which_result(a, "libcuda.so.1", &ia);
        rb = which_result(b, "libcuda.so.1", &ib);
        if (ra != NULL || rb != NULL) {
                cc_value *da = winner_dir(ra, err), *db = winner_dir(rb, err);
                char *p = jp_index("/facts/which/results", rb != NULL ? ib : ia, err);
                char *pr = p ? jp_key(p, "realpath", err) : NULL;
                int r = -1;

                if (da != NULL && db != NULL && pr != NULL)
                        r = same(da, db, 0)
                                ? 0
                                : change(x, A_DRIVER, "changed", "driver", "libcuda.so.1 directory", pr, da, db, NULL);
                cc_v_free(da);
                cc_v_free(db);
                free(p);
                free(pr);
                TRY(r);
        }
        if (fa != NULL)
                TRY(gpu_items(fa, pa, &ga, err));
        if (fb != NULL)
                TRY(gpu_items(fb, pb, &gb, err));
        TRY(match(x, A_DRIVER, &ga, &gb, key_match, gpu_cmp, NULL, gpu_val));
        rv = 0;
fail:
        items_free(&ga);
        items_free(&gb);
        free(pa);
        free(pb);
        return rv;
}

/* ---- toolkits and installations ------------------------------------------- */

/* a, b, c and d joined (NULL: nothing), a new string. */
static char *cat4(cc_error *err, const char *a, const char *b, const char *c, const char *d)
{
        cc_buf o = {0};

        if (cc_buf_puts(&o, a ? a : "", err) < 0 || cc_buf_puts(&o, b ? b : "", err) < 0 ||
            cc_buf_puts(&o, c ? c : "", err) < 0 || cc_buf_puts(&o, d ? d : "", err) < 0) {
                free(o.data);
                return NULL;
        }
        return o.data;
}

static int prefixed_items(const cc_value *list, const char *base, const char *what, int with_kind, struct items *s,
                          cc_error *err)
{
        size_t i;

        for (i = 0; i < cc_v_len(arr(list)); i++) {
                const cc_value *v = obj(cc_v_at(list, i));
                const char *prefix = cc_v_get_str(v, "prefix");
                const char *kind = with_kind ? cc_v_get_str(obj(cc_v_get(v, "provenance")), "kind") : NULL;
                struct item *it;
                char *sub;

                if (v == NULL)
                        continue;
                {
                        cc_buf o = {0};

                        if ((with_kind ? cc_buf_printf(&o, err, "%s %s (%s)", what, prefix ? prefix : "(no prefix)",
                                                       kind ? kind : "unknown provenance")
                                       : cc_buf_printf(&o, err, "%s %s", what, prefix ? prefix : "(no prefix)")) < 0) {
                                free(o.data);
                                return -1;
                        }
                        sub = o.data;
                }
                it = items_add(s, v, cat4(err, prefix, "\n", kind, NULL), sub, jp_index(base, i, err), err);
                if (it == NULL)
                        return -1;
                it->prefix = prefix;
                it->kind = kind;
                it->aliases = cc_v_get(v, "aliases");
        }
        return 0;
}

static const cc_value *version_val(const cc_value *v)
{
        return cc_v_get(v, "version");
}

static int toolkit_cmp(struct dx *x, const struct item *a, const struct item *b, void *ctx)
{
        (void)ctx;
        TRY_RET(fld(x, A_TOOLKIT, a, b, "version", "version", 1));
        return fld(x, A_TOOLKIT, a, b, "nvcc", "nvcc", 0);
}

/* The names of a list of objects' `key` (or strings), sorted and joined, as a new string value. */
static int cmp_str(const void *p, const void *q)
{
        return strcmp(*(const char *const *)p, *(const char *const *)q);
}

static cc_value *joined(const cc_value *list, const char *key, const char *key2, cc_error *err)
{
        size_t i, n = 0, len = cc_v_len(arr(list));
        const char **names;
        cc_buf b = {0};
        cc_value *v;

        if (len == 0)
                return cc_v_null(err);
        names = cc_calloc(err, len, 2 * sizeof(*names));
        if (names == NULL)
                return NULL;
        for (i = 0; i < len; i++) {
                const cc_value *e = cc_v_at(list, i);
                const char *s = key ? cc_v_get_str(e, key) : cc_v_as_str(e);

                if (s != NULL)
                        names[n++] = s;
                (void)key2;
        }
        qsort((void *)names, n, sizeof(*names), cmp_str);
        for (i = 0; i < n; i++)
                if ((i && cc_buf_puts(&b, ", ", err) < 0) || cc_buf_puts(&b, names[i], err) < 0) {
                        free(b.data);
                        free((void *)names);
                        return NULL;
                }
        free((void *)names);
        v = n ? cc_v_str(b.data, err) : cc_v_null(err);
        free(b.data);
        return v;
}

static int derived(struct dx *x, int area, const struct item *a, const struct item *b, const char *what,
                   const char *rel, cc_value *va, cc_value *vb)
{
        int rv = -1;

        if (va != NULL && vb != NULL)
                rv = field(x, area, b->subject, what, a->path, b->path, rel, va, vb, 0);
        cc_v_free(va);
        cc_v_free(vb);
        return rv;
}

/* The verify verdict of installation id in doc. */
static const cc_value *proof_of(const cc_value *doc, const cc_value *inst)
{
        const cc_value *vs = arr(cc_v_path(doc, "facts/verify")), *id = cc_v_get(inst, "id");
        size_t i;

        for (i = 0; id != NULL && i < cc_v_len(vs); i++)
                if (veq(cc_v_get(cc_v_at(vs, i), "installation"), id, 0))
                        return cc_v_path(cc_v_at(vs, i), "document/summary/verdict");
        return NULL;
}

struct fileref {
        const char *path;
        const cc_value *v;
};

static int cmp_fileref(const void *p, const void *q)
{
        return strcmp(((const struct fileref *)p)->path, ((const struct fileref *)q)->path);
}

static struct fileref *filerefs(const cc_value *files, size_t *n, cc_error *err)
{
        size_t i, len = cc_v_len(arr(files));
        struct fileref *r = cc_calloc(err, len ? len : 1, sizeof(*r));

        *n = 0;
        if (r == NULL)
                return NULL;
        for (i = 0; i < len; i++) {
                const char *p = cc_v_get_str(cc_v_at(files, i), "path");

                if (p != NULL) {
                        r[*n].path = p;
                        r[*n].v = cc_v_at(files, i);
                        (*n)++;
                }
        }
        qsort(r, *n, sizeof(*r), cmp_fileref);
        return r;
}

static int file_differs(const cc_value *a, const cc_value *b)
{
        static const char *const keys[] = {"type", "size", "name_version", "link_state", "resolves_to", "kind"};
        size_t k;

        for (k = 0; k < CC_ARRAY_LEN(keys); k++)
                if (!veq(cc_v_get(a, keys[k]), cc_v_get(b, keys[k]), 0))
                        return 1;
        return 0;
}

static int files_cmp(struct dx *x, const struct item *a, const struct item *b)
{
        cc_error *err = x->err;
        size_t na, nb, i = 0, j = 0;
        struct fileref *fa = filerefs(cc_v_get(a->v, "files"), &na, err);
        struct fileref *fb = fa ? filerefs(cc_v_get(b->v, "files"), &nb, err) : NULL;
        int64_t add = 0, rem = 0, chg = 0;
        cc_value *names = NULL, *extra = NULL, *ca = NULL, *cb = NULL;
        char *path = NULL;
        int rv = -1;

        if (fa == NULL || fb == NULL)
                goto fail;
        names = cc_v_array(err);
        if (names == NULL)
                goto fail;
        while (i < na || j < nb) {
                int c = i >= na ? 1 : j >= nb ? -1 : strcmp(fa[i].path, fb[j].path);
                const char *mark = NULL, *p = NULL;

                if (c < 0) {
                        rem++;
                        mark = "-";
                        p = fa[i++].path;
                } else if (c > 0) {
                        add++;
                        mark = "+";
                        p = fb[j++].path;
                } else {
                        if (file_differs(fa[i].v, fb[j].v)) {
                                chg++;
                                mark = "~";
                                p = fb[j].path;
                        }
                        i++;
                        j++;
                }
                if (mark != NULL && cc_v_len(names) < MAX_NAMES &&
                    cc_v_push(names, cc_v_strf(err, "%s %s", mark, cc_basename(p)), err) < 0)
                        goto fail;
        }
        if (add + rem + chg == 0) {
                rv = 0;
                goto fail;
        }
        extra = cc_v_object(err);
        if (cc_v_set_int(extra, "added", add, err) < 0 || cc_v_set_int(extra, "removed", rem, err) < 0 ||
            cc_v_set_int(extra, "changed", chg, err) < 0 || cc_v_set(extra, "names", names, err) < 0) {
                names = NULL;
                goto fail;
        }
        names = NULL;
        ca = cc_v_int((int64_t)na, err);
        cb = cc_v_int((int64_t)nb, err);
        path = jp_key(b->path, "files", err);
        if (ca == NULL || cb == NULL || path == NULL)
                goto fail;
        rv = change(x, A_CUDNN, "changed", b->subject, "files", path, ca, cb, extra);
        extra = NULL;
fail:
        cc_v_free(names);
        cc_v_free(extra);
        cc_v_free(ca);
        cc_v_free(cb);
        free(path);
        free(fa);
        free(fb);
        return rv;
}

static int install_cmp(struct dx *x, const struct item *a, const struct item *b, void *ctx)
{
        const cc_value *const *docs = ctx;
        const cc_value *fa = cc_v_get(a->v, "full_version"), *fb = cc_v_get(b->v, "full_version");
        const cc_value *pa, *pb;

        if (cc_v_as_str(fa) != NULL && cc_v_as_str(fb) != NULL)
                TRY_RET(fld(x, A_CUDNN, a, b, "version", "full_version", 1));
        else
                TRY_RET(fld(x, A_CUDNN, a, b, "version", "version", 1));
        TRY_RET(derived(x, A_CUDNN, a, b, "packages", "provenance/packages",
                        joined(cc_v_path(a->v, "provenance/packages"), "name", NULL, x->err),
                        joined(cc_v_path(b->v, "provenance/packages"), "name", NULL, x->err)));
        TRY_RET(derived(x, A_CUDNN, a, b, "problems", "problems",
                        joined(cc_v_get(a->v, "problems"), "kind", NULL, x->err),
                        joined(cc_v_get(b->v, "problems"), "kind", NULL, x->err)));
        pa = proof_of(docs[0], a->v);
        pb = proof_of(docs[1], b->v);
        if (!same(pa, pb, 0)) {
                char *p = jp_key(b->path, "id", x->err);
                int r = p ? change(x, A_CUDNN, "changed", b->subject, "verify verdict", p, pa, pb, NULL) : -1;

                free(p);
                TRY_RET(r);
        }
        return files_cmp(x, a, b);
}

/* ---- loader --------------------------------------------------------------- */

static int loader_items(const cc_value *doc, struct items *s, cc_error *err)
{
        const cc_value *rs = arr(cc_v_path(doc, "facts/which/results"));
        size_t i;

        for (i = 0; i < cc_v_len(rs); i++) {
                const cc_value *r = obj(cc_v_at(rs, i));
                const char *name = cc_v_get_str(r, "name");

                /* the driver's library is the driver's area */
                if (name == NULL || cc_starts_with(name, "libcuda.so") || cc_strcasecmp(name, "nvcuda.dll") == 0)
                        continue;
                if (items_add(s, r, cc_strdup(err, name), cc_strdup(err, name),
                              jp_index("/facts/which/results", i, err), err) == NULL)
                        return -1;
        }
        return 0;
}

static int loader_cmp(struct dx *x, const struct item *a, const struct item *b, void *ctx)
{
        (void)ctx;
        TRY_RET(fld(x, A_LOADER, a, b, "found", "found", 0));
        TRY_RET(fld(x, A_LOADER, a, b, "how", "how", 0));
        return derived(x, A_LOADER, a, b, "directory", "realpath", winner_dir(a->v, x->err), winner_dir(b->v, x->err));
}

static const cc_value *loader_val(const cc_value *r)
{
        return cc_v_get(r, "realpath") != NULL && cc_v_as_str(cc_v_get(r, "realpath")) ? cc_v_get(r, "realpath")
                                                                                       : cc_v_get(r, "path");
}

/* ---- frameworks ------------------------------------------------------------ */

static int fw_items(const cc_value *doc, struct items *interp, struct items *fws, cc_error *err)
{
        const cc_value *is = arr(cc_v_path(doc, "facts/frameworks/interpreters"));
        size_t i, j;

        for (i = 0; i < cc_v_len(is); i++) {
                const cc_value *in = obj(cc_v_at(is, i)), *fl;
                const char *py = cc_v_get_str(in, "path");
                char *base;

                if (py == NULL)
                        continue;
                base = jp_index("/facts/frameworks/interpreters", i, err);
                if (base == NULL || items_add(interp, in, cc_strdup(err, py), cat4(err, "python ", py, NULL, NULL),
                                              cc_strdup(err, base), err) == NULL) {
                        free(base);
                        return -1;
                }
                fl = arr(cc_v_get(in, "frameworks"));
                for (j = 0; j < cc_v_len(fl); j++) {
                        const cc_value *f = obj(cc_v_at(fl, j));
                        const char *name = cc_v_get_str(f, "name");
                        char *fb;

                        if (name == NULL)
                                continue;
                        fb = jp_key(base, "frameworks", err);
                        if (fb == NULL ||
                            items_add(fws, f, cat4(err, py, "\n", name, NULL), cat4(err, name, " in ", py, NULL),
                                      jp_index(fb, j, err), err) == NULL) {
                                free(fb);
                                free(base);
                                return -1;
                        }
                        free(fb);
                }
                free(base);
        }
        return 0;
}

static int interp_cmp(struct dx *x, const struct item *a, const struct item *b, void *ctx)
{
        (void)ctx;
        TRY_RET(fld(x, A_FRAMEWORKS, a, b, "python", "python/version", 1));
        return fld(x, A_FRAMEWORKS, a, b, "state", "state", 0);
}

static const cc_value *interp_val(const cc_value *v)
{
        return cc_v_path(v, "python/version");
}

static int fw_cmp(struct dx *x, const struct item *a, const struct item *b, void *ctx)
{
        (void)ctx;
        TRY_RET(fld(x, A_FRAMEWORKS, a, b, "version", "info/version", 1));
        TRY_RET(fld(x, A_FRAMEWORKS, a, b, "built for CUDA", "build/cuda", 1));
        TRY_RET(fld(x, A_FRAMEWORKS, a, b, "built with cuDNN", "build/cudnn", 1));
        TRY_RET(fld(x, A_FRAMEWORKS, a, b, "loaded cuDNN", "cudnn/version", 1));
        TRY_RET(fld(x, A_FRAMEWORKS, a, b, "loads cuDNN from", "cudnn/directory", 0));
        TRY_RET(fld(x, A_FRAMEWORKS, a, b, "state", "state", 0));
        return fld(x, A_FRAMEWORKS, a, b, "verdict", "verdict", 0);
}

static const cc_value *fw_val(const cc_value *v)
{
        return cc_v_path(v, "info/version");
}

/* ---- environment ------------------------------------------------------------ */

static int env_items(const cc_value *doc, struct items *s, cc_error *err)
{
        const cc_value *env = obj(cc_v_path(doc, "facts/host/env"));
        size_t i;

        for (i = 0; i < cc_v_len(env); i++) {
                const char *k = cc_v_key_at(env, i);

                if (items_add(s, cc_v_at(env, i), cc_strdup(err, k), cc_strdup(err, k),
                              jp_key("/facts/host/env", k, err), err) == NULL)
                        return -1;
        }
        return 0;
}

static int env_cmp(struct dx *x, const struct item *a, const struct item *b, void *ctx)
{
        (void)ctx;
        return field(x, A_ENV, b->subject, "value", a->path, b->path, "", a->v, b->v, 0);
}

static const cc_value *self_val(const cc_value *v)
{
        return v;
}

static int entry_items(const cc_value *doc, struct items *s, cc_error *err)
{
        const cc_value *sp = arr(cc_v_path(doc, "facts/host/search_paths"));
        size_t i, j;

        for (i = 0; i < cc_v_len(sp); i++) {
                const char *var = cc_v_get_str(cc_v_at(sp, i), "variable");
                const cc_value *es = arr(cc_v_get(cc_v_at(sp, i), "entries"));
                char *base = jp_index("/facts/host/search_paths", i, err), *eb;

                if (base == NULL)
                        return -1;
                eb = jp_key(base, "entries", err);
                free(base);
                if (eb == NULL)
                        return -1;
                for (j = 0; var != NULL && j < cc_v_len(es); j++) {
                        const char *e = cc_v_get_str(cc_v_at(es, j), "entry");

                        if (e == NULL)
                                continue;
                        if (items_add(s, cc_v_at(es, j), cat4(err, var, "\n", e, NULL),
                                      cat4(err, var, " entry ", e, NULL), jp_index(eb, j, err), err) == NULL) {
                                free(eb);
                                return -1;
                        }
                }
                free(eb);
        }
        return 0;
}

static int entry_cmp(struct dx *x, const struct item *a, const struct item *b, void *ctx)
{
        (void)ctx;
        TRY_RET(fld(x, A_ENV, a, b, "exists", "exists", 0));
        TRY_RET(fld(x, A_ENV, a, b, "is a directory", "is_dir", 0));
        TRY_RET(fld(x, A_ENV, a, b, "canonical", "canonical", 0));
        return fld(x, A_ENV, a, b, "world-writable", "world_writable", 0);
}

static int diff_env(struct dx *x, const cc_value *a, const cc_value *b)
{
        struct items ea = {0}, eb = {0}, sa = {0}, sb = {0};
        static const char *const host_keys[][2] = {
            {"system", "system"},
            {"wsl/detected", "WSL"},
            {"include_search/cudnn_h", "cudnn.h a build finds"},
            {"include_search/cudnn_version_h", "cudnn_version.h a build finds"},
        };
        const cc_value *ha = cc_v_path(a, "facts/host"), *hb = cc_v_path(b, "facts/host");
        size_t k;
        int rv = -1;

        for (k = 0; k < CC_ARRAY_LEN(host_keys); k++)
                TRY(field(x, A_ENV, host_keys[k][1], host_keys[k][0], "/facts/host", "/facts/host", host_keys[k][0],
                          cc_v_path(ha, host_keys[k][0]), cc_v_path(hb, host_keys[k][0]), 0));
        TRY(env_items(a, &ea, x->err));
        TRY(env_items(b, &eb, x->err));
        TRY(match(x, A_ENV, &ea, &eb, key_match, env_cmp, NULL, self_val));
        TRY(entry_items(a, &sa, x->err));
        TRY(entry_items(b, &sb, x->err));
        /* an entry that comes or goes is the variable's change, said above */
        for (k = 0; k < sa.n; k++) {
                size_t j;

                for (j = 0; j < sb.n; j++)
                        if (!sb.it[j].matched && strcmp(sa.it[k].key, sb.it[j].key) == 0) {
                                sb.it[j].matched = 1;
                                TRY(entry_cmp(x, &sa.it[k], &sb.it[j], NULL));
                                break;
                        }
        }
        rv = 0;
fail:
        items_free(&ea);
        items_free(&eb);
        items_free(&sa);
        items_free(&sb);
        return rv;
}

/* ---- findings ---------------------------------------------------------------- */

/* What a finding is about, from its evidence: an installation's prefix, an
 * interpreter and framework, a path, a variable... (ids renumber: not those). */
static char *finding_subject(const cc_value *f, cc_error *err)
{
        static const char *const keys[] = {"prefix", "path", "variable", "entry", "directory", "library", "name"};
        const cc_value *ev = obj(cc_v_get(f, "evidence"));
        const char *py = cc_v_get_str(ev, "python"), *fw = cc_v_get_str(ev, "framework");
        size_t k;

        if (py != NULL)
                return cat4(err, fw, fw ? " in " : "", py, NULL);
        if (cc_v_get_str(obj(cc_v_get(ev, "installation")), "prefix") != NULL)
                return cc_strdup(err, cc_v_get_str(cc_v_get(ev, "installation"), "prefix"));
        for (k = 0; k < CC_ARRAY_LEN(keys); k++)
                if (cc_v_get_str(ev, keys[k]) != NULL)
                        return cc_strdup(err, cc_v_get_str(ev, keys[k]));
        return cc_strdup(err, "");
}

static int finding_items(const cc_value *doc, struct items *s, cc_error *err)
{
        const cc_value *fs = arr(cc_v_get(doc, "findings"));
        size_t i;

        for (i = 0; i < cc_v_len(fs); i++) {
                const cc_value *f = obj(cc_v_at(fs, i));
                const char *id = cc_v_get_str(f, "id");
                char *subj;

                if (id == NULL)
                        continue;
                subj = finding_subject(f, err);
                if (subj == NULL)
                        return -1;
                if (items_add(s, f, cat4(err, id, "\n", subj, NULL),
                              subj[0] ? cat4(err, id, " (", subj, ")") : cc_strdup(err, id),
                              jp_index("/findings", i, err), err) == NULL) {
                        free(subj);
                        return -1;
                }
                free(subj);
        }
        return 0;
}

static int finding_cmp(struct dx *x, const struct item *a, const struct item *b, void *ctx)
{
        (void)ctx;
        return fld(x, A_FINDINGS, a, b, "severity", "severity", 0);
}

static const cc_value *finding_val(const cc_value *f)
{
        return cc_v_get(f, "summary");
}

/* ---- run to run ---------------------------------------------------------------- */

static int volatile_key(const char *k)
{
        static const char *const exact[] = {"seconds",   "duration", "pid",      "hostname", "host_name", "time",
                                            "timestamp", "started",  "finished", "elapsed",  "date"};
        size_t i;

        if (k == NULL)
                return 0;
        if (cc_ends_with(k, "_ms") || cc_ends_with(k, "_us") || cc_ends_with(k, "_ns") || cc_ends_with(k, "_seconds"))
                return 1;
        for (i = 0; i < CC_ARRAY_LEN(exact); i++)
                if (strcmp(k, exact[i]) == 0)
                        return 1;
        return 0;
}

/* The host name (`facts.host.name`): its key, "name", is no run-to-run
 * key elsewhere. */
static int volatile_path(const char *path)
{
        return strcmp(path, "/facts/host/name") == 0;
}

/* A string naming the compile proof's temporary directory. */
static int volatile_str(const cc_value *v)
{
        const char *s = cc_v_as_str(v);

        return s != NULL && strstr(s, "cudnnctl-compile-") != NULL;
}

static int walk(struct dx *x, const cc_value *a, const cc_value *b, const char *path, const char *key, int vol,
                int depth)
{
        int ta = cc_v_type(a), tb = cc_v_type(b);
        size_t i;

        if (depth > MAX_DEPTH)
                return 0;
        vol = vol || volatile_key(key) || volatile_path(path);
        if (ta == tb && ta == CUDNNCTL_OBJECT) {
                for (i = 0; i < cc_v_len(a); i++) {
                        const char *k = cc_v_key_at(a, i);
                        const cc_value *vb = cc_v_get(b, k);
                        char *p;
                        int r;

                        if (vb == NULL)
                                continue;
                        p = jp_key(path, k, x->err);
                        r = p ? walk(x, cc_v_at(a, i), vb, p, k, vol, depth + 1) : -1;
                        free(p);
                        TRY_RET(r);
                }
                return 0;
        }
        if (ta == tb && ta == CUDNNCTL_ARRAY) {
                size_t n = cc_v_len(a) < cc_v_len(b) ? cc_v_len(a) : cc_v_len(b);

                for (i = 0; i < n; i++) {
                        char *p = jp_index(path, i, x->err);
                        int r = p ? walk(x, cc_v_at(a, i), cc_v_at(b, i), p, key, vol, depth + 1) : -1;

                        free(p);
                        TRY_RET(r);
                }
                return 0;
        }
        if ((vol || volatile_str(a) || volatile_str(b)) && !veq(a, b, 0))
                return change(x, A_VOLATILE, "changed", path, "", path, a, b, NULL);
        return 0;
}

/* ---- the document --------------------------------------------------------------- */

int cc_diff_check(const cc_value *doc, cc_error *err)
{
        const cc_value *sv = cc_v_get(doc, "schema_version");
        const char *cmd;

        if (cc_v_type(doc) != CUDNNCTL_OBJECT)
                return cc_err(err, CC_ERR_FORMAT, "not a doctor document (a JSON %s, not an object)",
                              cc_v_type(doc) == CUDNNCTL_ARRAY ? "array" : "value");
        cmd = cc_v_get_str(doc, "command");
        if (cmd == NULL)
                return cc_err(err, CC_ERR_FORMAT, "not a doctor document (no \"command\")");
        if (strcmp(cmd, "doctor") != 0)
                return cc_err(err, CC_ERR_FORMAT, "not a doctor document (its command is \"%.64s\")", cmd);
        if (sv == NULL || cc_v_type(sv) != CUDNNCTL_INT || cc_v_as_int(sv) < 1)
                return cc_err(err, CC_ERR_FORMAT, "not a doctor document (no schema_version)");
        if (cc_v_as_int(sv) > CUDNNCTL_JSON_SCHEMA_VERSION)
                return cc_err(err, CC_ERR_UNSUPPORTED, "schema_version %lld is newer than this tool reads (%d)",
                              (long long)cc_v_as_int(sv), CUDNNCTL_JSON_SCHEMA_VERSION);
        if (obj(cc_v_get(doc, "facts")) == NULL)
                return cc_err(err, CC_ERR_FORMAT, "a doctor document without its \"facts\"");
        return 0;
}

int cc_diff_docs(const cc_value *before, const cc_value *after, const char *name_before, const char *name_after,
                 int all, cc_value **out, cc_error *err)
{
        struct dx x;
        struct items a = {0}, b = {0}, a2 = {0}, b2 = {0};
        const cc_value *docs[2];
        cc_value *doc = NULL, *groups = NULL, *src = NULL, *sum = NULL;
        int rv = -1, i;

        *out = NULL;
        memset(&x, 0, sizeof(x));
        x.all = all;
        x.err = err;
        docs[0] = before;
        docs[1] = after;
        for (i = 0; i < NAREAS; i++)
                if ((x.groups[i] = cc_v_array(err)) == NULL)
                        goto fail;
        TRY(diff_driver(&x, before, after));

        TRY(prefixed_items(cc_v_path(before, "facts/host/toolkits"), "/facts/host/toolkits", "toolkit", 0, &a, err));
        TRY(prefixed_items(cc_v_path(after, "facts/host/toolkits"), "/facts/host/toolkits", "toolkit", 0, &b, err));
        TRY(match(&x, A_TOOLKIT, &a, &b, prefix_match, toolkit_cmp, NULL, version_val));
        items_free(&a);
        items_free(&b);

        TRY(prefixed_items(cc_v_path(before, "facts/list/installations"), "/facts/list/installations", "installation",
                           1, &a, err));
        TRY(prefixed_items(cc_v_path(after, "facts/list/installations"), "/facts/list/installations", "installation", 1,
                           &b, err));
        TRY(match(&x, A_CUDNN, &a, &b, prefix_match, install_cmp, (void *)docs, version_val));
        items_free(&a);
        items_free(&b);

        TRY(loader_items(before, &a, err));
        TRY(loader_items(after, &b, err));
        TRY(match(&x, A_LOADER, &a, &b, key_match, loader_cmp, NULL, loader_val));
        items_free(&a);
        items_free(&b);

        TRY(fw_items(before, &a, &a2, err));
        TRY(fw_items(after, &b, &b2, err));
        TRY(match(&x, A_FRAMEWORKS, &a, &b, key_match, interp_cmp, NULL, interp_val));
        TRY(match(&x, A_FRAMEWORKS, &a2, &b2, key_match, fw_cmp, NULL, fw_val));
        items_free(&a);
        items_free(&b);
        items_free(&a2);
        items_free(&b2);

        TRY(diff_env(&x, before, after));

        TRY(finding_items(before, &a, err));
        TRY(finding_items(after, &b, err));
        TRY(match(&x, A_FINDINGS, &a, &b, key_match, finding_cmp, NULL, finding_val));
        items_free(&a);
        items_free(&b);

        TRY(walk(&x, before, after, "", NULL, 0, 0));

        doc = cc_v_object(err);
        src = cc_v_object(err);
        groups = cc_v_array(err);
        sum = cc_v_object(err);
        if (cc_v_set_int(doc, "schema_version", CUDNNCTL_JSON_SCHEMA_VERSION, err) < 0 ||
            cc_v_set_str(doc, "tool", "cudnnctl", err) < 0 ||
            cc_v_set_str(doc, "tool_version", cudnnctl_version(), err) < 0 ||
            cc_v_set_str(doc, "command", "diff", err) < 0 || cc_v_set_str(src, "before", name_before, err) < 0 ||
            cc_v_set_str(src, "after", name_after, err) < 0 || cc_v_set(doc, "sources", src, err) < 0) {
                src = NULL;
                goto fail;
        }
        src = NULL;
        if (cc_v_set_bool(doc, "all", all, err) < 0)
                goto fail;
        for (i = 0; i < NAREAS; i++) {
                cc_value *g;

                if (cc_v_len(x.groups[i]) == 0)
                        continue;
                g = cc_v_object(err);
                if (cc_v_set_str(g, "area", area_id[i], err) < 0 || cc_v_set_str(g, "title", area_title[i], err) < 0 ||
                    cc_v_set(g, "changes", x.groups[i], err) < 0) {
                        x.groups[i] = NULL;
                        cc_v_free(g);
                        goto fail;
                }
                x.groups[i] = NULL;
                if (cc_v_push(groups, g, err) < 0)
                        goto fail;
        }
        if (cc_v_set(doc, "groups", groups, err) < 0) {
                groups = NULL;
                goto fail;
        }
        groups = NULL;
        if (cc_v_set_int(sum, "differences", x.added + x.removed + x.changed, err) < 0 ||
            cc_v_set_int(sum, "added", x.added, err) < 0 || cc_v_set_int(sum, "removed", x.removed, err) < 0 ||
            cc_v_set_int(sum, "changed", x.changed, err) < 0 || cc_v_set_int(sum, "volatile", x.nvolatile, err) < 0 ||
            cc_v_set(sum, "verdict_before", cc_v_copy(cc_v_path(before, "summary/verdict"), err), err) < 0 ||
            cc_v_set(sum, "verdict_after", cc_v_copy(cc_v_path(after, "summary/verdict"), err), err) < 0 ||
            cc_v_set_str(sum, "verdict", x.added + x.removed + x.changed ? "different" : "same", err) < 0 ||
            cc_v_set(doc, "summary", sum, err) < 0) {
                sum = NULL;
                goto fail;
        }
        sum = NULL;
        *out = doc;
        doc = NULL;
        rv = 0;
fail:
        items_free(&a);
        items_free(&b);
        items_free(&a2);
        items_free(&b2);
        for (i = 0; i < NAREAS; i++)
                cc_v_free(x.groups[i]);
        cc_v_free(doc);
        cc_v_free(src);
        cc_v_free(groups);
        cc_v_free(sum);
        return rv;
}

int cudnnctl_diff_check(const cudnnctl_value *doc, cudnnctl_error *err)
{
        return cc_diff_check(doc, err);
}

int cudnnctl_diff(const cudnnctl_value *before, const cudnnctl_value *after, const cudnnctl_diff_options *opts,
                  cudnnctl_value **out, cudnnctl_error *err)
{
        *out = NULL;
        if (cc_diff_check(before, err) < 0) {
                cc_err_prefix(err, "before");
                return -1;
        }
        if (cc_diff_check(after, err) < 0) {
                cc_err_prefix(err, "after");
                return -1;
        }
        return cc_diff_docs(before, after, opts && opts->before_name ? opts->before_name : "before",
                            opts && opts->after_name ? opts->after_name : "after", opts ? opts->all : 0, out, err);
}
