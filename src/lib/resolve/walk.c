/* The dependency walk behind deps (walk.h): one object's dependencies
 * resolved like the loader. Linux: each DT_NEEDED resolved with the loader
 * chain of the object that needs it, objects already loaded matched by name
 * or SONAME. Windows: imports and delay imports, each resolved by the
 * Windows loader emulation. On both, cuDNN libraries get the libraries they
 * load at run time (dlopen / LoadLibrary): the names their read-only data
 * holds, and the sub-libraries of their major. Each edge is recorded as
 * facts on the node that has it. */
#include "walk.h"

#include "../formats/elf.h"
#include "../formats/loadnames.h"
#include "../formats/names.h"
#include "../formats/pe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODES 5000
#define MAX_OBJ ((size_t)4 << 30)
#define MAX_SCAN ((size_t)128 << 20)
#define MAX_RUNTIME_NAMES 64

enum edge_kind { EK_NEEDED, EK_IMPORT, EK_DELAY, EK_RUNTIME };

static void node_free(struct cc_dnode *d)
{
        free(d->path);
        free(d->realpath);
        free(d->soname);
        cc_strv_free(&d->names);
        cc_lnx_obj_free(&d->obj);
        cc_strv_free(&d->needed);
        cc_strv_free(&d->delay);
        cc_strv_free(&d->runtime);
        free(d->error);
        cc_v_free(d->edges);
        cc_v_free(d->versions);
}

struct cc_dnode *cc_walk_add_node(struct cc_walk *w, const char *path, int depth, size_t parent, cc_error *err)
{
        struct cc_dnode *d;

        if (w->n >= MAX_NODES) {
                cc_err(err, CC_ERR_LIMIT, "more than %d objects in the dependency tree", MAX_NODES);
                return NULL;
        }
        if (w->n == w->cap) {
                size_t nc = w->cap ? w->cap * 2 : 32;
                struct cc_dnode *nn = cc_realloc(err, w->nodes, nc * sizeof(*nn));

                if (nn == NULL)
                        return NULL;
                w->nodes = nn;
                w->cap = nc;
        }
        d = &w->nodes[w->n];
        memset(d, 0, sizeof(*d));
        d->depth = depth;
        d->parent = parent;
        d->path = cc_strdup(err, path);
        d->edges = cc_v_array(err);
        if (d->path == NULL || d->edges == NULL) {
                node_free(d);
                return NULL;
        }
        w->n++;
        return d;
}

/* ---- names a library loads at run time ------------------------------------- */

static int is_name_char(uint8_t c)
{
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
               c == '+';
}

/* The families of libraries cuDNN loads itself. */
static int interesting_runtime(const char *name, int system)
{
        static const char *const linux_prefixes[] = {"libcudnn", "libcublas", "libnvrtc",    "libcuda.so",
                                                     "libz.so",  "libcudart", "libnvJitLink"};
        static const char *const win_prefixes[] = {"cudnn",     "cublas", "nvrtc",    "nvcuda.",
                                                   "zlibwapi.", "cudart", "nvjitlink"};
        size_t i;

        if (system == CC_SYS_WINDOWS) {
                for (i = 0; i < CC_ARRAY_LEN(win_prefixes); i++)
                        if (cc_strncasecmp(name, win_prefixes[i], strlen(win_prefixes[i])) == 0)
                                return 1;
                return 0;
        }
        for (i = 0; i < CC_ARRAY_LEN(linux_prefixes); i++)
                if (strncmp(name, linux_prefixes[i], strlen(linux_prefixes[i])) == 0)
                        return 1;
        return 0;
}

/* A Linux library name: "lib...so", "lib...so.N[.N...]" or "lib...so.%d"
 * (and no other '%'). */
static int linux_name_ok(const char *buf)
{
        const char *so = strstr(buf, ".so");
        const char *p;

        if (strncmp(buf, "lib", 3) != 0 || so == NULL)
                return 0;
        p = so + 3;
        if (strcmp(p, ".%d") != 0) {
                while (*p) {
                        if (*p != '.' || !(p[1] >= '0' && p[1] <= '9'))
                                return 0;
                        p++;
                        while (*p >= '0' && *p <= '9')
                                p++;
                }
        }
        return strchr(buf, '%') == NULL || strstr(buf, ".%d") != NULL;
}

/* Library names in bytes: "lib...so[.N...]" or "lib...so.%d" (Linux) and
 * "....dll" (Windows, ASCII), each a whole NUL-terminated string. */
static int scan_ascii_names(const uint8_t *d, size_t n, int system, cc_strv *out, cc_error *err);

/* Windows code often names DLLs in UTF-16 (LoadLibraryW): "c\0u\0d\0n\0n\0...\0\0". */
static int scan_wide_dll_names(const uint8_t *d, size_t n, cc_strv *out, cc_error *err)
{
        size_t i = 0;

        while (i + 1 < n && out->n < MAX_RUNTIME_NAMES) {
                char buf[128];
                size_t k = 0, j = i;

                if (!(is_name_char(d[i]) && d[i + 1] == 0) || (i >= 2 && d[i - 1] == 0 && is_name_char(d[i - 2]))) {
                        i++;
                        continue;
                }
                while (j + 1 < n && d[j + 1] == 0 && (is_name_char(d[j]) || d[j] == '.') && k < sizeof(buf) - 1) {
                        buf[k++] = (char)d[j];
                        j += 2;
                }
                buf[k] = '\0';
                i = j > i ? j : i + 1;
                if (j + 1 >= n || d[j] != 0 || d[j + 1] != 0 || k < 5 || !cc_ends_with_nocase(buf, ".dll"))
                        continue;
                if (!interesting_runtime(buf, CC_SYS_WINDOWS) || cc_strv_contains(out, buf))
                        continue;
                if (cc_strv_push(out, buf, err) < 0)
                        return -1;
        }
        return 0;
}

static int scan_names(const uint8_t *d, size_t n, int system, cc_strv *out, cc_error *err)
{
        if (system == CC_SYS_WINDOWS && scan_wide_dll_names(d, n, out, err) < 0)
                return -1;
        return scan_ascii_names(d, n, system, out, err);
}

/* A byte of a name's token: what scan_ascii_names reads as one string. */
static int is_token_char(uint8_t c)
{
        return is_name_char(c) || c == '.' || c == '%';
}

/* The Linux names, found from each ".so" (memmem runs through the bytes;
 * a library is hundreds of megabytes): the token around it is taken as
 * scan_ascii_names would take it, a whole NUL-terminated string starting
 * at a boundary. */
static int scan_so_names(const uint8_t *d, size_t n, cc_strv *out, cc_error *err)
{
        size_t i = 0;

        while (i < n && out->n < MAX_RUNTIME_NAMES) {
                const uint8_t *hit = cc_memmem(d + i, n - i, ".so", 3);
                size_t q, s, e;
                char buf[128];

                if (hit == NULL)
                        break;
                q = (size_t)(hit - d);
                /* back to the token's start (at most a name's length: a longer token is no name) */
                s = q;
                while (s > 0 && q - s < sizeof(buf) && is_token_char(d[s - 1]))
                        s--;
                e = q + 3;
                while (e < n && is_token_char(d[e]))
                        e++;
                i = e + 1;
                if (q - s >= sizeof(buf) || (s > 0 && d[s - 1] == '/') || e >= n || d[e] != 0 ||
                    e - s > sizeof(buf) - 1 || e - s < 5 || strncmp((const char *)d + s, "lib", 3) != 0)
                        continue;
                memcpy(buf, d + s, e - s);
                buf[e - s] = '\0';
                if (linux_name_ok(buf) && !cc_strv_contains(out, buf) && interesting_runtime(buf, CC_SYS_LINUX) &&
                    cc_strv_push(out, buf, err) < 0)
                        return -1;
        }
        return 0;
}

static int scan_ascii_names(const uint8_t *d, size_t n, int system, cc_strv *out, cc_error *err)
{
        size_t i = 0;

        if (system != CC_SYS_WINDOWS)
                return scan_so_names(d, n, out, err);

        while (i < n && out->n < MAX_RUNTIME_NAMES) {
                size_t s = i, e;
                char buf[128];

                /* a name starts at a string boundary: after a NUL or any byte
                 * that cannot be part of a file name */
                if (i > 0 && (is_name_char(d[i - 1]) || d[i - 1] == '.' || d[i - 1] == '/' || d[i - 1] == '%')) {
                        i++;
                        continue;
                }
                e = s;
                while (e < n && d[e] != 0 && e - s < sizeof(buf) - 1 &&
                       (is_name_char(d[e]) || d[e] == '.' || d[e] == '%'))
                        e++;
                if (e >= n || d[e] != 0 || e - s < 5) {
                        i = e + 1;
                        continue;
                }
                memcpy(buf, d + s, e - s);
                buf[e - s] = '\0';
                i = e + 1;
                if (!cc_ends_with_nocase(buf, ".dll"))
                        continue;
                if (strchr(buf, '%') != NULL && strstr(buf, ".%d") == NULL)
                        continue;
                if (!interesting_runtime(buf, system) || cc_strv_contains(out, buf))
                        continue;
                if (cc_strv_push(out, buf, err) < 0)
                        return -1;
        }
        return 0;
}

/* What a cuDNN library loads itself when its file holds no names to read
 * (kb/members.tsv): the v8 shim loads the six sub-libraries; the v9 shim
 * loads graph, ops, cnn and adv, and graph loads the engines and the
 * heuristic library, in this order (the loader traces of
 * docs/device/traces-h200.txt). */
struct sub_set {
        int major;
        const char *role;
        const char *const *subs;
        size_t n;
};
static const char *const v8_shim[] = {"cudnn_ops_infer", "cudnn_ops_train", "cudnn_cnn_infer",
                                      "cudnn_cnn_train", "cudnn_adv_infer", "cudnn_adv_train"};
static const char *const v9_shim[] = {"cudnn_graph", "cudnn_ops", "cudnn_cnn", "cudnn_adv"};
static const char *const v9_graph[] = {"cudnn_engines_precompiled", "cudnn_heuristic",
                                       "cudnn_engines_runtime_compiled"};
static const struct sub_set sub_sets[] = {
    {8, "cudnn", v8_shim, CC_ARRAY_LEN(v8_shim)},
    {9, "cudnn", v9_shim, CC_ARRAY_LEN(v9_shim)},
    {9, "cudnn_graph", v9_graph, CC_ARRAY_LEN(v9_graph)},
};

/* Whether the library at path names what it loads by its own release
 * (cuDNN 9's shim and libcudnn_graph, whatever their file names say). */
static int loads_by_release(const char *path)
{
        cc_libname ln;

        return cc_name_library(cc_basename(path), &ln) == 0 && (ln.major == 9 || ln.major <= 0) &&
               (strcmp(ln.role, "cudnn") == 0 || strcmp(ln.role, "cudnn_graph") == 0);
}

/* The part of a Linux library name up to and including ".so". */
static size_t so_base_len(const char *name)
{
        const char *p = strstr(name, ".so");

        return p ? (size_t)(p - name) + 3 : strlen(name);
}

/* Add name to the group of its base in groups ("name1,name2\tsource"). */
static int group_add(cc_strv *groups, const char *name, int system, const char *source, cc_error *err)
{
        size_t bl = system == CC_SYS_WINDOWS ? strlen(name) : so_base_len(name), i;

        for (i = 0; i < groups->n; i++) {
                const char *g = groups->v[i];
                size_t gl = system == CC_SYS_WINDOWS ? strcspn(g, ",\t") : so_base_len(g);
                char *ng;

                if (gl != bl || (system == CC_SYS_WINDOWS ? cc_strncasecmp(g, name, bl) : strncmp(g, name, bl)) != 0)
                        continue;
                {
                        const char *tab = strchr(g, '\t');

                        ng = cc_asprintf(err, "%.*s,%s%s", (int)(tab - g), g, name, tab);
                }
                if (ng == NULL)
                        return -1;
                free(groups->v[i]);
                groups->v[i] = ng;
                return 0;
        }
        return cc_strv_take(groups, cc_asprintf(err, "%s\t%s", name, source), err);
}

/* A group's place in the order cuDNN loads its sub-libraries (sub_sets: the
 * shim loads graph first, at cudnnCreate, so the others, which need it,
 * find it loaded); names of no set keep their order, after. */
static size_t load_rank(const char *group, const cc_libname *ln)
{
        size_t i, k;

        for (i = 0; i < CC_ARRAY_LEN(sub_sets); i++) {
                if (sub_sets[i].major != ln->major || strcmp(sub_sets[i].role, ln->role) != 0)
                        continue;
                for (k = 0; k < sub_sets[i].n; k++) {
                        size_t n = strlen(sub_sets[i].subs[k]);

                        /* "lib" + sub + ".so" or "64_" (Windows) */
                        if (strncmp(group, "lib", 3) == 0 && strncmp(group + 3, sub_sets[i].subs[k], n) == 0 &&
                            (group[3 + n] == '.' || group[3 + n] == ','))
                                return k;
                        if (cc_strncasecmp(group, sub_sets[i].subs[k], n) == 0 && strncmp(group + n, "64_", 3) == 0)
                                return k;
                }
        }
        return (size_t)-1;
}

static void load_order(cc_strv *groups, const cc_libname *ln)
{
        size_t i, j;

        for (i = 1; i < groups->n; i++) /* insertion sort: stable, a few names */
                for (j = i; j > 0 && load_rank(groups->v[j], ln) < load_rank(groups->v[j - 1], ln); j--) {
                        char *t = groups->v[j];

                        groups->v[j] = groups->v[j - 1];
                        groups->v[j - 1] = t;
                }
}

/* The run-time loads of a cuDNN library (node d, its bytes data/size). */
static int runtime_loads(struct cc_walk *w, struct cc_dnode *d, const uint8_t *data, size_t size, uint64_t roff,
                         uint64_t rsize, cc_error *err)
{
        static const char named[] = "named in the library's read-only data (loaded with dlopen/LoadLibrary)";
        cc_libname ln;
        cc_strv found = {0};
        const char *base = cc_basename(d->path);
        size_t i, kept = 0;
        int rv = -1;

        if (cc_name_library(base, &ln) < 0 || (ln.kind != CC_FK_SHARED && ln.kind != CC_FK_DLL))
                return 0;
        /* names held in the file's read-only data */
        if (rsize > 0 && cc_range_ok(size, roff, rsize)) {
                if (scan_names(data + roff, (size_t)rsize, w->m->system, &found, err) < 0)
                        goto done;
        } else if (size <= MAX_SCAN) {
                if (scan_names(data, size, w->m->system, &found, err) < 0)
                        goto done;
        }
        for (i = 0; i < found.n; i++) {
                const char *nm = found.v[i];

                if (cc_strv_contains(&d->needed, nm) || cc_strv_contains(&d->delay, nm) ||
                    (d->soname && strcmp(d->soname, nm) == 0) ||
                    (w->m->system == CC_SYS_WINDOWS && cc_strcasecmp(nm, base) == 0))
                        continue;
                if (w->m->system == CC_SYS_LINUX) {
                        /* the CUDA major, from libcublasLt.so.13 and the like */
                        const char *p = strstr(nm, ".so.");

                        if (p &&
                            (cc_starts_with(nm, "libcublas") || cc_starts_with(nm, "libnvrtc.") ||
                             cc_starts_with(nm, "libcudart.")) &&
                            p[4] >= '0' && p[4] <= '9' && w->cuda_major < 0)
                                w->cuda_major = atoi(p + 4);
                }
                if (group_add(&d->runtime, nm, w->m->system, named, err) < 0)
                        goto done;
                kept++;
        }
        if (kept > 1)
                load_order(&d->runtime, &ln);
        if (kept == 0) {
                for (i = 0; i < CC_ARRAY_LEN(sub_sets); i++) {
                        size_t k;

                        if (sub_sets[i].major != ln.major || strcmp(sub_sets[i].role, ln.role) != 0)
                                continue;
                        for (k = 0; k < sub_sets[i].n; k++) {
                                char *nm = w->m->system == CC_SYS_WINDOWS
                                               ? cc_asprintf(err, "%s64_%d.dll", sub_sets[i].subs[k], ln.major)
                                               : cc_asprintf(err, "lib%s.so", sub_sets[i].subs[k]);
                                int rc;

                                if (nm == NULL)
                                        goto done;
                                rc = group_add(&d->runtime, nm, w->m->system,
                                               "cuDNN loads its sub-libraries at run time (the file names none "
                                               "readable here; the sub-libraries of its major)",
                                               err);
                                free(nm);
                                if (rc < 0)
                                        goto done;
                        }
                }
        }
        rv = 0;
done:
        cc_strv_free(&found);
        return rv;
}

/* ---- reading one node -------------------------------------------------------- */

static int read_node(struct cc_walk *w, struct cc_dnode *d, cc_error *err)
{
        cc_map mp;
        cc_error rerr = {0};
        int rv = -1;

        if (cc_tree_map(w->m->tree, d->path, MAX_OBJ, &mp, &rerr) < 0) {
                if (rerr.code == CC_ERR_NOMEM) {
                        *err = rerr;
                        return -1;
                }
                d->error = cc_strdup(err, rerr.msg);
                return d->error ? 0 : -1;
        }
        if (w->m->system == CC_SYS_LINUX) {
                cc_elf *e = NULL;

                if (cc_elf_parse_opts(mp.data, mp.size, CC_ELF_NO_SYMBOLS, &e, &rerr) < 0) {
                        d->error = cc_strdup(err, rerr.msg);
                        rv = d->error ? 0 : -1;
                        goto done;
                }
                d->obj.path = cc_strdup(err, d->path);
                d->obj.origin = d->program ? cc_lnx_program_origin(w->m->tree, d->path, err)
                                           : cc_tree_dirname(w->m->tree, d->path, err);
                d->obj.rpath = e->rpath ? cc_strdup(err, e->rpath) : NULL;
                d->obj.runpath = e->runpath ? cc_strdup(err, e->runpath) : NULL;
                d->obj.nodeflib = (e->flags_1 & CC_DF_1_NODEFLIB) != 0;
                d->obj.elfclass = e->bits;
                d->obj.machine = e->machine;
                d->soname = e->soname ? cc_strdup(err, e->soname) : NULL;
                if (d->obj.path == NULL || d->obj.origin == NULL || (e->rpath && !d->obj.rpath) ||
                    (e->runpath && !d->obj.runpath) || (e->soname && !d->soname)) {
                        cc_elf_free(e);
                        goto done;
                }
                {
                        size_t i;

                        for (i = 0; i < e->needed.n; i++)
                                if (cc_strv_push(&d->needed, e->needed.v[i], err) < 0) {
                                        cc_elf_free(e);
                                        goto done;
                                }
                }
                if (w->cuda_major < 0 && e->runpath) {
                        const char *p = strstr(e->runpath, "/cu");

                        while (p && !(p[3] >= '1' && p[3] <= '9' && (p[4] == '/' || (p[5] == '/' && p[4] >= '0'))))
                                p = strstr(p + 3, "/cu");
                        if (p)
                                w->cuda_major = atoi(p + 3);
                }
                if (!d->interp && !w->opts->no_runtime && loads_by_release(d->path))
                        (void)cc_elf_load_release(e, mp.data, mp.size, d->release);
                if (!d->interp && !w->opts->no_runtime &&
                    runtime_loads(w, d, mp.data, mp.size, e->rodata_off, e->rodata_size, err) < 0) {
                        cc_elf_free(e);
                        goto done;
                }
                cc_elf_free(e);
        } else {
                cc_pe *pe = NULL;
                size_t i;

                if (cc_pe_parse(mp.data, mp.size, &pe, &rerr) < 0) {
                        d->error = cc_strdup(err, rerr.msg);
                        rv = d->error ? 0 : -1;
                        goto done;
                }
                for (i = 0; i < pe->imports.n; i++)
                        if (cc_strv_push(&d->needed, pe->imports.v[i], err) < 0) {
                                cc_pe_free(pe);
                                goto done;
                        }
                for (i = 0; i < pe->delay_imports.n; i++)
                        if (cc_strv_push(&d->delay, pe->delay_imports.v[i], err) < 0) {
                                cc_pe_free(pe);
                                goto done;
                        }
                if (pe->export_name && (d->soname = cc_strdup(err, pe->export_name)) == NULL) {
                        cc_pe_free(pe);
                        goto done;
                }
                if (!w->opts->no_runtime &&
                    runtime_loads(w, d, mp.data, mp.size, pe->rdata_off, pe->rdata_size, err) < 0) {
                        cc_pe_free(pe);
                        goto done;
                }
                cc_pe_free(pe);
        }
        if (w->on_bytes != NULL && w->on_bytes(w, d, mp.data, mp.size, err) < 0)
                goto done;
        if (cc_map_changed(&mp)) {
                /* truncated or rewritten while read: nothing read from it is kept */
                cc_strv_free(&d->needed);
                cc_strv_free(&d->delay);
                cc_strv_free(&d->runtime);
                cc_v_free(d->versions);
                d->versions = NULL;
                d->error = cc_asprintf(err, "%s: changed while read", d->path);
                rv = d->error ? 0 : -1;
                goto done;
        }
        rv = 0;
done:
        cc_unmap(&mp);
        return rv;
}

/* ---- matching what is loaded ----------------------------------------------------- */

size_t cc_walk_find_loaded(const struct cc_walk *w, const char *name, const char *realpath)
{
        size_t i, k;

        for (i = 0; i < w->n; i++) {
                const struct cc_dnode *d = &w->nodes[i];

                if (realpath && d->realpath && cc_tree_path_eq(w->m->tree, d->realpath, realpath))
                        return i;
                if (name == NULL)
                        continue;
                for (k = 0; k < d->names.n; k++)
                        if (cc_tree_name_eq(w->m->tree, d->names.v[k], name))
                                return i;
        }
        return (size_t)-1;
}

int cc_walk_add_name(struct cc_walk *w, struct cc_dnode *d, const char *name, cc_error *err)
{
        if (name == NULL || cc_strv_contains(&d->names, name))
                return 0;
        (void)w;
        return cc_strv_push(&d->names, name, err);
}

/* The loader chain of node i for the Linux loader: i, its parent, ... */
static int make_chain(struct cc_walk *w, size_t i, cc_lnx_obj **chain, size_t *n, cc_error *err)
{
        size_t k = 0, j;

        *chain = cc_calloc(err, (size_t)w->nodes[i].depth + 2, sizeof(**chain));
        if (*chain == NULL)
                return -1;
        for (j = i; j != (size_t)-1 && k < (size_t)w->nodes[i].depth + 2; j = w->nodes[j].parent)
                (*chain)[k++] = w->nodes[j].obj; /* shallow: owned by the nodes */
        *n = k;
        return 0;
}

/* ---- edges ----------------------------------------------------------------------- */

static const char *kind_name(int k)
{
        switch (k) {
        case EK_IMPORT:
                return "import";
        case EK_DELAY:
                return "delay-import";
        case EK_RUNTIME:
                return "runtime";
        default:
                return "needed";
        }
}

/* The number of ".N" parts after ".so" (-1 for a ".%d" pattern). */
static int so_parts(const char *name)
{
        const char *p = name + so_base_len(name);
        int n = 0;

        if (strcmp(p, ".%d") == 0)
                return -1;
        for (; *p; p++)
                n += *p == '.';
        return n;
}

/* Candidate file names for a run-time load, in the order the library tries
 * them: the most specific name first, a ".%d" pattern with the CUDA major,
 * the bare ".so" last; a cuDNN sub-library named only as "libcudnn_X.so"
 * gets cuDNN's own suffixes (.so.M.m.p, .so.M.m, .so.M, .so) from the
 * version of the library that loads it. */
static int push_new(cc_strv *out, char *c, cc_error *err)
{
        if (c == NULL)
                return -1;
        if (cc_strv_contains(out, c)) {
                free(c);
                return 0;
        }
        return cc_strv_take(out, c, err);
}

static int runtime_candidates(struct cc_walk *w, const struct cc_dnode *d, const char *group, cc_strv *out,
                              cc_error *err)
{
        cc_strv raw = {0};
        cc_libname ln;
        int rv = -1, level, have_ln;
        size_t i;

        if (cc_split_pathlist(group, ',', MAX_RUNTIME_NAMES, &raw, err) < 0)
                goto done;
        if (w->m->system == CC_SYS_WINDOWS) {
                for (i = 0; i < raw.n; i++)
                        if (push_new(out, cc_strdup(err, raw.v[i]), err) < 0)
                                goto done;
                rv = 0;
                goto done;
        }
        have_ln = cc_name_library(cc_basename(d->path), &ln) == 0 && ln.major > 0;
        if (d->release[0] > 0) {
                /* the release its code names them by, not its file's name (a
                 * copy made with cp -L is named libcudnn.so.9 and still asks
                 * for libcudnn_graph.so.9.14.0) */
                have_ln = 1;
                ln.major = d->release[0];
                ln.version.n = 3;
                ln.version.part[0] = d->release[0];
                ln.version.part[1] = d->release[1];
                ln.version.part[2] = d->release[2];
        }
        /* versioned names, most specific first */
        for (level = 8; level >= 1; level--)
                for (i = 0; i < raw.n; i++)
                        if (so_parts(raw.v[i]) == level && push_new(out, cc_strdup(err, raw.v[i]), err) < 0)
                                goto done;
        /* "%d" patterns: the CUDA major */
        for (i = 0; i < raw.n && w->cuda_major > 0; i++)
                if (so_parts(raw.v[i]) == -1 &&
                    push_new(out, cc_asprintf(err, "%.*s.%d", (int)so_base_len(raw.v[i]), raw.v[i], w->cuda_major),
                             err) < 0)
                        goto done;
        /* bare names (and the bases of patterns) last; a cuDNN sub-library
         * gets cuDNN's suffixes first */
        for (i = 0; i < raw.n; i++) {
                const char *nm = raw.v[i];
                int parts = so_parts(nm);

                if (parts > 0)
                        continue;
                if (parts == 0 && cc_starts_with(nm, "libcudnn") && have_ln) {
                        if (ln.version.n >= 3 &&
                            (push_new(out,
                                      cc_asprintf(err, "%s.%ld.%ld.%ld", nm, ln.version.part[0], ln.version.part[1],
                                                  ln.version.part[2]),
                                      err) < 0 ||
                             push_new(out, cc_asprintf(err, "%s.%ld.%ld", nm, ln.version.part[0], ln.version.part[1]),
                                      err) < 0))
                                goto done;
                        if (push_new(out, cc_asprintf(err, "%s.%d", nm, ln.major), err) < 0)
                                goto done;
                }
                if (push_new(out, cc_strndup(err, nm, so_base_len(nm)), err) < 0)
                        goto done;
        }
        rv = 0;
done:
        cc_strv_free(&raw);
        return rv;
}

static int set_resolution(cc_value *e, const cc_resolution *r, cc_error *err)
{
        if (cc_v_set(e, "path", cc_v_str(r->path, err), err) < 0 ||
            cc_v_set(e, "realpath", cc_v_str(r->realpath, err), err) < 0 ||
            cc_v_set_str(e, "how", cc_how_name(r->how), err) < 0 ||
            cc_v_set(e, "origin", cc_v_str(r->origin, err), err) < 0)
                return -1;
        if (r->win_error && cc_v_set_int(e, "windows_error", r->win_error, err) < 0)
                return -1;
        if (r->notes.n && cc_v_set(e, "notes", cc_v_strv(&r->notes, err), err) < 0)
                return -1;
        return 0;
}

static int resolve_one(struct cc_walk *w, size_t i, const char *name, cc_resolution *r, cc_error *err)
{
        if (w->m->system == CC_SYS_LINUX) {
                cc_lnx_obj *chain = NULL;
                size_t n = 0;
                int rc;

                if (make_chain(w, i, &chain, &n, err) < 0)
                        return -1;
                rc = cc_lnx_resolve(w->lc, name, chain, n, 0, r, err);
                free(chain);
                return rc;
        }
        {
                const struct cc_dnode *d = &w->nodes[i];
                cc_win_ctx *c = d->standard && w->wc_std ? w->wc_std : w->wc;

                return cc_win_resolve(c, name, w->nodes[d->load_root].path, 0, r, err);
        }
}

/* A run-time load by cuDNN is a plain LoadLibrary: the standard order. */
static int resolve_runtime(struct cc_walk *w, size_t i, const char *name, cc_resolution *r, cc_error *err)
{
        if (w->m->system == CC_SYS_WINDOWS && w->wc_std != NULL)
                return cc_win_resolve(w->wc_std, name, w->nodes[i].path, 0, r, err);
        return resolve_one(w, i, name, r, err);
}

static int is_apiset(const char *name)
{
        return cc_strncasecmp(name, "api-ms-win-", 11) == 0 || cc_strncasecmp(name, "ext-ms-", 7) == 0;
}

/* Resolve one dependency of node i. */
static int edge(struct cc_walk *w, size_t i, const char *name, int kind, const char *source, cc_error *err)
{
        cc_value *e = cc_v_object(err);
        cc_strv cands = {0};
        cc_resolution r, *earlier = NULL; /* what the names before the last tried */
        size_t nearlier = 0, j, hit;
        int rv = -1;

        memset(&r, 0, sizeof(r));
        if (cc_v_push(w->nodes[i].edges, e, err) < 0)
                return -1;
        w->edges++;
        if (kind == EK_RUNTIME) {
                if (runtime_candidates(w, &w->nodes[i], name, &cands, err) < 0)
                        goto done;
                if (cands.n == 0 && cc_strv_push(&cands, name, err) < 0)
                        goto done;
                name = cands.v[0];
        } else if (cc_strv_push(&cands, name, err) < 0) {
                goto done;
        }
        if (cc_v_set_str(e, "name", name, err) < 0 || cc_v_set_str(e, "kind", kind_name(kind), err) < 0 ||
            (source && cc_v_set_str(e, "source", source, err) < 0) ||
            (cands.n > 1 && cc_v_set(e, "candidates", cc_v_strv(&cands, err), err) < 0))
                goto done;
        if (w->m->system == CC_SYS_WINDOWS && is_apiset(name)) {
                rv = cc_v_set_str(e, "status", "api-set", err) < 0 ? -1 : 0;
                goto done;
        }
        /* already loaded? (by any candidate name) */
        for (j = 0; j < cands.n; j++) {
                hit = cc_walk_find_loaded(w, cands.v[j], NULL);
                if (hit != (size_t)-1) {
                        if (cc_v_set_str(e, "status", "already-loaded", err) < 0 ||
                            cc_v_set_int(e, "node", (int64_t)hit, err) < 0 ||
                            cc_v_set_str(e, "path", w->nodes[hit].path, err) < 0 ||
                            cc_v_set_str(e, "how", cc_how_name(w->nodes[hit].preload ? CC_HOW_PRELOAD : CC_HOW_LOADED),
                                         err) < 0)
                                goto done;
                        rv = 0;
                        goto done;
                }
        }
        if (cands.n > 1 && (earlier = cc_calloc(err, cands.n - 1, sizeof(*earlier))) == NULL)
                goto done;
        for (j = 0; j < cands.n; j++) {
                if (j > 0) {
                        /* keep what the earlier names tried: the loader tried
                         * them all (facts made of it only if no name is found) */
                        earlier[nearlier++] = r;
                        memset(&r, 0, sizeof(r));
                }
                if ((kind == EK_RUNTIME ? resolve_runtime(w, i, cands.v[j], &r, err)
                                        : resolve_one(w, i, cands.v[j], &r, err)) < 0)
                        goto done;
                if (r.found)
                        break;
        }
        if (cands.n > 1 && r.found && cc_v_set_str(e, "resolved_name", r.name, err) < 0)
                goto done;
        if (!r.found) {
                int failed = cc_resolution_fails(&r);
                cc_value *all;

                if (cc_v_set_str(e, "status", failed ? "fails" : "missing", err) < 0 || set_resolution(e, &r, err) < 0)
                        goto done;
                /* what every name tried, in the loader's order */
                all = cc_v_array(err);
                if (cc_v_set(e, "tried", all, err) < 0)
                        goto done;
                for (j = 0; j <= nearlier; j++) {
                        cc_value *t = cc_resolution_tried(j < nearlier ? &earlier[j] : &r, err);

                        if (t == NULL || cc_v_concat(all, t, err) < 0)
                                goto done;
                }
                if (failed)
                        w->failed++;
                else if (kind == EK_RUNTIME)
                        w->runtime_missing++;
                else if (kind != EK_DELAY)
                        w->missing++;
                else
                        w->runtime_missing++;
                rv = 0;
                goto done;
        }
        hit = cc_walk_find_loaded(w, NULL, r.realpath);
        if (hit != (size_t)-1) {
                /* a new name for an object already loaded (the same file) */
                if (cc_walk_add_name(w, &w->nodes[hit], r.name, err) < 0 ||
                    cc_v_set_str(e, "status", "already-loaded", err) < 0 ||
                    cc_v_set_int(e, "node", (int64_t)hit, err) < 0 || set_resolution(e, &r, err) < 0)
                        goto done;
                rv = 0;
                goto done;
        }
        if (w->nodes[i].depth + 1 > w->max_depth) {
                if (cc_v_set_str(e, "status", "depth-limit", err) < 0 || set_resolution(e, &r, err) < 0)
                        goto done;
                if (!cc_strv_contains(&w->notes, "the tree is cut at --max-depth") &&
                    cc_strv_push(&w->notes, "the tree is cut at --max-depth", err) < 0)
                        goto done;
                rv = 0;
                goto done;
        }
        {
                struct cc_dnode *d = cc_walk_add_node(w, r.path, w->nodes[i].depth + 1, i, err);

                if (d == NULL)
                        goto done;
                d->realpath = cc_strdup(err, r.realpath);
                d->standard = kind == EK_RUNTIME || w->nodes[i].standard;
                /* a run-time LoadLibrary starts a new load: its own directory */
                d->load_root = d->standard && kind == EK_RUNTIME ? w->n - 1 : w->nodes[i].load_root;
                if (d->realpath == NULL || cc_walk_add_name(w, d, r.name, err) < 0)
                        goto done;
                if (cc_v_set_str(e, "status", "loaded", err) < 0 ||
                    cc_v_set_int(e, "node", (int64_t)(w->n - 1), err) < 0 || set_resolution(e, &r, err) < 0)
                        goto done;
        }
        rv = 0;
done:
        cc_resolution_free(&r);
        for (j = 0; j < nearlier; j++)
                cc_resolution_free(&earlier[j]);
        free(earlier);
        cc_strv_free(&cands);
        return rv;
}

int cc_walk_expand(struct cc_walk *w, size_t i, cc_error *err)
{
        size_t k;

        if (w->nodes[i].expanded)
                return 0;
        w->nodes[i].expanded = 1;
        if (read_node(w, i < w->n ? &w->nodes[i] : NULL, err) < 0)
                return -1;
        if (w->nodes[i].soname && cc_walk_add_name(w, &w->nodes[i], w->nodes[i].soname, err) < 0)
                return -1;
        if (w->nodes[i].error || w->nodes[i].interp)
                return 0;
        /* the node array may move while edges add nodes: index, never hold pointers */
        for (k = 0; k < w->nodes[i].needed.n; k++) {
                char *nm = cc_strdup(err, w->nodes[i].needed.v[k]);
                int rc;

                if (nm == NULL)
                        return -1;
                rc = edge(w, i, nm, w->m->system == CC_SYS_WINDOWS ? EK_IMPORT : EK_NEEDED, NULL, err);
                free(nm);
                if (rc < 0)
                        return -1;
        }
        for (k = 0; k < w->nodes[i].delay.n; k++) {
                char *nm = cc_strdup(err, w->nodes[i].delay.v[k]);
                int rc;

                if (nm == NULL)
                        return -1;
                rc = edge(w, i, nm, EK_DELAY, NULL, err);
                free(nm);
                if (rc < 0)
                        return -1;
        }
        for (k = 0; k < w->nodes[i].runtime.n; k++) {
                const char *tab = strchr(w->nodes[i].runtime.v[k], '\t');
                char *nm = cc_strndup(err, w->nodes[i].runtime.v[k], (size_t)(tab - w->nodes[i].runtime.v[k]));
                char *src = cc_strdup(err, tab + 1);
                int rc;

                if (nm == NULL || src == NULL) {
                        free(nm);
                        free(src);
                        return -1;
                }
                rc = edge(w, i, nm, EK_RUNTIME, src, err);
                free(nm);
                free(src);
                if (rc < 0)
                        return -1;
        }
        return 0;
}

void cc_walk_free(struct cc_walk *w)
{
        size_t i;

        for (i = 0; i < w->n; i++)
                node_free(&w->nodes[i]);
        free(w->nodes);
        cc_strv_free(&w->notes);
        cc_lnx_ctx_free(w->lc);
        cc_win_ctx_free(w->wc);
        cc_win_ctx_free(w->wc_std);
        memset(w, 0, sizeof(*w));
}
