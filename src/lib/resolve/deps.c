/* cudnnctl_deps: a dependency tree resolved like the loader. Linux: ld.so's
 * breadth-first order, objects already loaded matched by name or SONAME
 * (the interpreter is loaded first), each DT_NEEDED resolved with the loader
 * chain of the object that needs it. Windows: imports and delay imports,
 * each resolved by the Windows loader emulation. On both, cuDNN libraries
 * get the libraries they load at run time (dlopen / LoadLibrary): the names
 * their read-only data holds, and the sub-libraries of their major. */
#include "resolve.h"

#include "../formats/elf.h"
#include "../formats/names.h"
#include "../formats/pe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_DEPTH 32
#define MAX_NODES 5000
#define MAX_OBJ ((size_t)4 << 30)
#define MAX_SCAN ((size_t)128 << 20)
#define MAX_RUNTIME_NAMES 64

enum edge_kind { EK_NEEDED, EK_IMPORT, EK_DELAY, EK_RUNTIME };

struct dnode {
        char *path;     /* virtual, as loaded */
        char *realpath; /* canonical */
        char *soname;
        cc_strv names; /* names that match it as "already loaded" */
        int depth;
        size_t parent; /* (size_t)-1 for the root and the interpreter */
        int interp;
        cc_lnx_obj obj;  /* Linux: its RPATH/RUNPATH/origin */
        cc_strv needed;  /* DT_NEEDED or imports */
        cc_strv delay;   /* delay imports */
        cc_strv runtime; /* run-time loads: "name\tsource" */
        char *error;     /* the file could not be read */
        cc_value *edges;
        int expanded;
        int preload;      /* LD_PRELOAD / /etc/ld.so.preload */
        int program;      /* Linux: the main program (its $ORIGIN: cc_lnx_program_origin) */
        int standard;     /* Windows: loaded by a plain LoadLibrary (a run-time load), so its own imports
                             are searched in the standard order whatever the top-level mode */
        size_t load_root; /* Windows: the DLL whose directory is the DLL load directory for this node's
                             imports (the one named in the LoadLibraryEx call) */
};

struct walk {
        cc_machine *m;
        const cudnnctl_deps_options *opts;
        cc_lnx_ctx *lc;
        cc_win_ctx *wc;
        cc_win_ctx *wc_std; /* the standard order, for run-time loads (NULL: wc is already standard) */
        struct dnode *nodes;
        size_t n, cap;
        int max_depth;
        size_t missing, runtime_missing, failed, edges, unreadable;
        int cuda_major; /* from run-time names and RUNPATHs, for "libnvrtc.so.%d"; -1 unknown */
        cc_strv notes;
};

static void node_free(struct dnode *d)
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
}

static struct dnode *add_node(struct walk *w, const char *path, int depth, size_t parent, cc_error *err)
{
        struct dnode *d;

        if (w->n >= MAX_NODES) {
                cc_err(err, CC_ERR_LIMIT, "more than %d objects in the dependency tree", MAX_NODES);
                return NULL;
        }
        if (w->n == w->cap) {
                size_t nc = w->cap ? w->cap * 2 : 32;
                struct dnode *nn = cc_realloc(err, w->nodes, nc * sizeof(*nn));

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

static int scan_ascii_names(const uint8_t *d, size_t n, int system, cc_strv *out, cc_error *err)
{
        size_t i = 0;

        while (i < n && out->n < MAX_RUNTIME_NAMES) {
                size_t s = i, e;
                char buf[128];

                /* a name starts at a string boundary: after a NUL or any byte
                 * that cannot be part of a file name */
                if (i > 0 && (is_name_char(d[i - 1]) || d[i - 1] == '.' || d[i - 1] == '/' || d[i - 1] == '%')) {
                        i++;
                        continue;
                }
                if (d[i] != 'l' && system != CC_SYS_WINDOWS) {
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
                if (system == CC_SYS_WINDOWS) {
                        if (!cc_ends_with_nocase(buf, ".dll"))
                                continue;
                } else {
                        char *so = strstr(buf, ".so");
                        const char *p;

                        if (strncmp(buf, "lib", 3) != 0 || so == NULL)
                                continue;
                        p = so + 3;
                        if (strcmp(p, ".%d") != 0) {
                                int ok = 1;

                                while (*p && ok) {
                                        if (*p != '.' || !(p[1] >= '0' && p[1] <= '9'))
                                                ok = 0;
                                        p++;
                                        while (ok && *p >= '0' && *p <= '9')
                                                p++;
                                }
                                if (!ok)
                                        continue;
                        }
                }
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
 * (compat.md §3): the v8 shim loads the six sub-libraries; the v9 shim
 * loads graph, ops, cnn and adv, and graph loads the engines and the
 * heuristic library. */
struct sub_set {
        int major;
        const char *role;
        const char *const *subs;
        size_t n;
};
static const char *const v8_shim[] = {"cudnn_ops_infer", "cudnn_ops_train", "cudnn_cnn_infer",
                                      "cudnn_cnn_train", "cudnn_adv_infer", "cudnn_adv_train"};
static const char *const v9_shim[] = {"cudnn_graph", "cudnn_ops", "cudnn_cnn", "cudnn_adv"};
static const char *const v9_graph[] = {"cudnn_engines_precompiled", "cudnn_engines_runtime_compiled",
                                       "cudnn_heuristic"};
static const struct sub_set sub_sets[] = {
    {8, "cudnn", v8_shim, CC_ARRAY_LEN(v8_shim)},
    {9, "cudnn", v9_shim, CC_ARRAY_LEN(v9_shim)},
    {9, "cudnn_graph", v9_graph, CC_ARRAY_LEN(v9_graph)},
};

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

/* The run-time loads of a cuDNN library (node d, its bytes data/size). */
static int runtime_loads(struct walk *w, struct dnode *d, const uint8_t *data, size_t size, uint64_t roff,
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
                                               "readable here; compat.md section 3)",
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

static int read_node(struct walk *w, struct dnode *d, cc_error *err)
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
        if (cc_map_changed(&mp)) {
                /* truncated or rewritten while read: nothing read from it is kept */
                cc_strv_free(&d->needed);
                cc_strv_free(&d->delay);
                cc_strv_free(&d->runtime);
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

static size_t find_loaded(const struct walk *w, const char *name, const char *realpath)
{
        size_t i, k;

        for (i = 0; i < w->n; i++) {
                const struct dnode *d = &w->nodes[i];

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

static int add_name(struct walk *w, struct dnode *d, const char *name, cc_error *err)
{
        if (name == NULL || cc_strv_contains(&d->names, name))
                return 0;
        (void)w;
        return cc_strv_push(&d->names, name, err);
}

/* The loader chain of node i for the Linux loader: i, its parent, ... */
static int make_chain(struct walk *w, size_t i, cc_lnx_obj **chain, size_t *n, cc_error *err)
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

static int runtime_candidates(struct walk *w, const struct dnode *d, const char *group, cc_strv *out, cc_error *err)
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

static int set_resolution(cc_value *e, const cc_resolution *r, int full, cc_error *err)
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
        if (full) {
                cc_value *f = cc_resolution_facts(r, err);

                if (f == NULL)
                        return -1;
                if (cc_v_set(e, "tried", cc_v_take(f, "tried"), err) < 0) {
                        cc_v_free(f);
                        return -1;
                }
                cc_v_free(f);
        }
        return 0;
}

static int resolve_one(struct walk *w, size_t i, const char *name, cc_resolution *r, cc_error *err)
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
                const struct dnode *d = &w->nodes[i];
                cc_win_ctx *c = d->standard && w->wc_std ? w->wc_std : w->wc;

                return cc_win_resolve(c, name, w->nodes[d->load_root].path, 0, r, err);
        }
}

/* A run-time load by cuDNN is a plain LoadLibrary: the standard order. */
static int resolve_runtime(struct walk *w, size_t i, const char *name, cc_resolution *r, cc_error *err)
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
static int edge(struct walk *w, size_t i, const char *name, int kind, const char *source, cc_error *err)
{
        cc_value *e = cc_v_object(err);
        cc_strv cands = {0};
        cc_resolution r;
        cc_value *all_tried = NULL;
        size_t j, hit;
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
                hit = find_loaded(w, cands.v[j], NULL);
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
        for (j = 0; j < cands.n; j++) {
                if (j > 0 && !r.found) {
                        /* keep what the earlier names tried: the loader tried them all */
                        cc_value *f = cc_resolution_facts(&r, err);
                        cc_value *t = f ? cc_v_take(f, "tried") : NULL;

                        cc_v_free(f);
                        if (t == NULL)
                                goto done;
                        if (all_tried == NULL)
                                all_tried = t;
                        else if (cc_v_concat(all_tried, t, err) < 0)
                                goto done;
                }
                cc_resolution_free(&r);
                if ((kind == EK_RUNTIME ? resolve_runtime(w, i, cands.v[j], &r, err)
                                        : resolve_one(w, i, cands.v[j], &r, err)) < 0)
                        goto done;
                if (r.found)
                        break;
        }
        if (cands.n > 1 && r.found && cc_v_set_str(e, "resolved_name", r.name, err) < 0)
                goto done;
        if (!r.found) {
                int failed = r.ntried > 0 && r.tries[r.ntried - 1].outcome == CC_TRY_FAILED;

                if (cc_v_set_str(e, "status", failed ? "fails" : "missing", err) < 0 ||
                    set_resolution(e, &r, 1, err) < 0)
                        goto done;
                if (all_tried != NULL) {
                        cc_value *last = cc_v_take(e, "tried");

                        if (last != NULL && cc_v_concat(all_tried, last, err) < 0)
                                goto done;
                        if (cc_v_set(e, "tried", all_tried, err) < 0) {
                                all_tried = NULL;
                                goto done;
                        }
                        all_tried = NULL;
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
        hit = find_loaded(w, NULL, r.realpath);
        if (hit != (size_t)-1) {
                /* a new name for an object already loaded (the same file) */
                if (add_name(w, &w->nodes[hit], r.name, err) < 0 ||
                    cc_v_set_str(e, "status", "already-loaded", err) < 0 ||
                    cc_v_set_int(e, "node", (int64_t)hit, err) < 0 || set_resolution(e, &r, 0, err) < 0)
                        goto done;
                rv = 0;
                goto done;
        }
        if (w->nodes[i].depth + 1 > w->max_depth) {
                if (cc_v_set_str(e, "status", "depth-limit", err) < 0 || set_resolution(e, &r, 0, err) < 0)
                        goto done;
                if (!cc_strv_contains(&w->notes, "the tree is cut at --max-depth") &&
                    cc_strv_push(&w->notes, "the tree is cut at --max-depth", err) < 0)
                        goto done;
                rv = 0;
                goto done;
        }
        {
                struct dnode *d = add_node(w, r.path, w->nodes[i].depth + 1, i, err);

                if (d == NULL)
                        goto done;
                d->realpath = cc_strdup(err, r.realpath);
                d->standard = kind == EK_RUNTIME || w->nodes[i].standard;
                /* a run-time LoadLibrary starts a new load: its own directory */
                d->load_root = d->standard && kind == EK_RUNTIME ? w->n - 1 : w->nodes[i].load_root;
                if (d->realpath == NULL || add_name(w, d, r.name, err) < 0)
                        goto done;
                if (cc_v_set_str(e, "status", "loaded", err) < 0 ||
                    cc_v_set_int(e, "node", (int64_t)(w->n - 1), err) < 0 || set_resolution(e, &r, 0, err) < 0)
                        goto done;
        }
        rv = 0;
done:
        cc_resolution_free(&r);
        cc_strv_free(&cands);
        cc_v_free(all_tried);
        return rv;
}

static int expand(struct walk *w, size_t i, cc_error *err)
{
        size_t k;

        if (w->nodes[i].expanded)
                return 0;
        w->nodes[i].expanded = 1;
        if (read_node(w, i < w->n ? &w->nodes[i] : NULL, err) < 0)
                return -1;
        if (w->nodes[i].soname && add_name(w, &w->nodes[i], w->nodes[i].soname, err) < 0)
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

/* ---- the document ------------------------------------------------------------------ */

static cc_value *node_facts(struct walk *w, size_t i, cc_error *err)
{
        struct dnode *d = &w->nodes[i];
        cc_value *o = cc_v_object(err);

        if (o == NULL)
                return NULL;
        if (cc_v_set_int(o, "id", (int64_t)i, err) < 0 || cc_v_set_str(o, "path", d->path, err) < 0 ||
            cc_v_set(o, "realpath", cc_v_str(d->realpath, err), err) < 0 ||
            cc_v_set(o, "soname", cc_v_str(d->soname, err), err) < 0 || cc_v_set_int(o, "depth", d->depth, err) < 0 ||
            cc_v_set(o, "parent", d->parent == (size_t)-1 ? cc_v_null(err) : cc_v_int((int64_t)d->parent, err), err) <
                0 ||
            cc_v_set_bool(o, "interpreter", d->interp, err) < 0 || cc_v_set_bool(o, "preload", d->preload, err) < 0 ||
            cc_v_set(o, "error", cc_v_str(d->error, err), err) < 0 ||
            cc_v_set(o, "versions", cc_file_versions(w->m, d->path, err), err) < 0)
                goto fail;
        if (w->m->system == CC_SYS_LINUX && !d->interp && !d->error &&
            (cc_v_set(o, "rpath", cc_v_str(d->obj.rpath, err), err) < 0 ||
             cc_v_set(o, "runpath", cc_v_str(d->obj.runpath, err), err) < 0 ||
             cc_v_set_bool(o, "nodeflib", d->obj.nodeflib, err) < 0))
                goto fail;
        if (cc_v_set(o, "edges", d->edges, err) < 0) {
                d->edges = NULL;
                goto fail;
        }
        d->edges = NULL;
        return o;
fail:
        cc_v_free(o);
        return NULL;
}

/* libcuda.so.1 / nvcuda.dll come with the NVIDIA driver, not with CUDA or
 * cuDNN: when they are missing, say so, and point at the toolkit's stub
 * (which is for linking only) when one sits next to a library in the tree. */
static int driver_note(struct walk *w, const cc_value *nodes, cc_error *err)
{
        size_t i, j;
        const char *missing = NULL;
        char *stub = NULL;
        int rv = 0;

        for (i = 0; i < cc_v_len(nodes) && missing == NULL; i++) {
                const cc_value *edges = cc_v_get(cc_v_at(nodes, i), "edges");

                for (j = 0; j < cc_v_len(edges) && missing == NULL; j++) {
                        const cc_value *e = cc_v_at(edges, j);
                        const char *nm = cc_v_get_str(e, "name"), *st = cc_v_get_str(e, "status");

                        if (nm && st && strcmp(st, "missing") == 0 &&
                            (strncmp(nm, "libcuda.so", 10) == 0 || cc_strcasecmp(nm, "nvcuda.dll") == 0))
                                missing = nm;
                }
        }
        if (missing == NULL)
                return 0;
        for (i = 0; i < cc_v_len(nodes) && stub == NULL && w->m->system == CC_SYS_LINUX; i++) {
                const char *real = cc_v_get_str(cc_v_at(nodes, i), "realpath");
                char *dir, *p;
                cc_stat st;

                if (real == NULL)
                        continue;
                dir = cc_tree_dirname(w->m->tree, real, err);
                p = dir ? cc_asprintf(err, "%s/stubs/libcuda.so", dir) : NULL;
                free(dir);
                if (p == NULL)
                        return -1;
                if (cc_tree_stat(w->m->tree, p, &st, err) == 0 && st.type == CC_FT_FILE)
                        stub = p;
                else
                        free(p);
        }
        rv = cc_strv_pushf(
            &w->notes, 1, err,
            "%s is the NVIDIA driver's library, not CUDA's or cuDNN's: the loader finds none, so no driver "
            "is installed (or it is not on the loader's path) and cuDNN cannot start on this machine%s%s%s",
            missing, stub ? " (" : "", stub ? stub : "",
            stub ? " is the CUDA toolkit's stub, for linking only: it must not be put on the path)" : "");
        free(stub);
        return rv;
}

/* The cuDNN this process would load: from how many directories, of which
 * versions. More than one of either is a mixed set (failure-modes.md 4,
 * 16, 19): sub-libraries of different releases in one process. */
static int cudnn_summary(struct walk *w, const cc_value *nodes, cc_value *sum, cc_error *err)
{
        cc_strv dirs = {0}, vers = {0};
        cc_value *o = NULL;
        size_t i, j;
        int rv = -1;

        for (i = 0; i < cc_v_len(nodes); i++) {
                const cc_value *n = cc_v_at(nodes, i);
                const char *real = cc_v_get_str(n, "realpath");
                const cc_value *vs = cc_v_get(n, "versions");
                cc_libname ln;
                char *dir;

                if (real == NULL || cc_name_library(cc_basename(real), &ln) < 0 ||
                    (ln.kind != CC_FK_SHARED && ln.kind != CC_FK_DLL))
                        continue;
                dir = cc_tree_dirname(w->m->tree, real, err);
                if (dir == NULL)
                        goto done;
                if (!cc_strv_contains(&dirs, dir) && cc_strv_push(&dirs, dir, err) < 0) {
                        free(dir);
                        goto done;
                }
                free(dir);
                for (j = 0; j < cc_v_len(vs); j++) {
                        const cc_value *e = cc_v_at(vs, j);
                        const char *v = cc_v_get_str(e, "version"), *comp = cc_v_get_str(e, "component");
                        cudnnctl_ver pv;
                        char buf[64];

                        if (v == NULL || (comp && strcmp(comp, "cudnn") != 0) || cudnnctl_ver_parse(v, &pv) < 0 ||
                            pv.n < 3 || !cc_cudnn_ver_plausible(&pv))
                                continue;
                        pv.n = 3; /* releases, not builds: 9.19.0.56 and 9.19.0 are one */
                        cudnnctl_ver_str(&pv, buf, sizeof(buf));
                        if (!cc_strv_contains(&vers, buf) && cc_strv_push(&vers, buf, err) < 0)
                                goto done;
                }
        }
        o = cc_v_object(err);
        if (o == NULL || cc_v_set(o, "directories", cc_v_strv(&dirs, err), err) < 0 ||
            cc_v_set(o, "versions", cc_v_strv(&vers, err), err) < 0 ||
            cc_v_set_bool(o, "mixed", dirs.n > 1 || vers.n > 1, err) < 0)
                goto done;
        if (dirs.n > 1 || vers.n > 1) {
                cc_buf b = {0};

                if (cc_buf_printf(&b, err, "this process would load cuDNN from %zu director%s", dirs.n,
                                  dirs.n == 1 ? "y" : "ies") < 0)
                        goto nfail;
                for (i = 0; i < dirs.n; i++)
                        if (cc_buf_printf(&b, err, "%s%s", i ? ", " : " (", dirs.v[i]) < 0)
                                goto nfail;
                if (cc_buf_printf(&b, err, "%s with %zu version%s", dirs.n ? ")" : "", vers.n, vers.n == 1 ? "" : "s") <
                    0)
                        goto nfail;
                for (i = 0; i < vers.n; i++)
                        if (cc_buf_printf(&b, err, "%s%s", i ? ", " : " (", vers.v[i]) < 0)
                                goto nfail;
                if (cc_buf_printf(&b, err,
                                  "%s: a mixed set, which fails with "
                                  "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH, missing symbols or wrong "
                                  "results; keep one complete cuDNN on the path",
                                  vers.n ? ")" : "") < 0)
                        goto nfail;
                if (cc_strv_take(&w->notes, cc_buf_steal(&b), err) < 0)
                        goto done;
                goto set;
        nfail:
                cc_buf_free(&b);
                goto done;
        }
set:
        if (cc_v_set(sum, "cudnn", o, err) < 0) {
                o = NULL;
                goto done;
        }
        o = NULL;
        rv = 0;
done:
        cc_v_free(o);
        cc_strv_free(&dirs);
        cc_strv_free(&vers);
        return rv;
}

int cudnnctl_deps(cudnnctl_machine *m, const char *target, const cudnnctl_deps_options *opts, cudnnctl_value **out,
                  cudnnctl_error *err)
{
        static cudnnctl_deps_options defaults;
        struct walk w;
        cc_value *doc = NULL, *nodes = NULL, *sum = NULL;
        char *root_path = NULL;
        int root_program = 0; /* the target is a program (an interpreter named; an EXE) */
        cc_resolution rr;
        int rv = -1, is_path;
        size_t i;

        *out = NULL;
        memset(&w, 0, sizeof(w));
        memset(&rr, 0, sizeof(rr));
        if (opts == NULL)
                opts = &defaults;
        w.m = m;
        w.opts = opts;
        w.max_depth = opts->max_depth > 0 ? opts->max_depth : DEFAULT_MAX_DEPTH;
        w.cuda_major = -1;
        doc = cc_doc_new("deps", m, err);
        if (doc == NULL || cc_v_set_str(doc, "target", target, err) < 0)
                goto done;
        is_path = strchr(target, '/') != NULL || (m->system == CC_SYS_WINDOWS && strchr(target, '\\') != NULL);
        if (!is_path) {
                cc_stat st;
                char *abs = cc_machine_abs(m, target, err);

                if (abs == NULL || cc_tree_stat(m->tree, abs, &st, err) < 0) {
                        free(abs);
                        goto done;
                }
                if (st.type == CC_FT_FILE)
                        is_path = 1;
                free(abs);
        }
        if (is_path) {
                cc_stat st;

                root_path = cc_machine_abs(m, target, err);
                if (root_path == NULL || cc_tree_stat(m->tree, root_path, &st, err) < 0)
                        goto done;
                if (st.type != CC_FT_FILE) {
                        cc_err(err, CC_ERR_NOTFOUND, "%s: %s", target,
                               st.type == CC_FT_NONE ? "no such file" : "not a regular file");
                        goto done;
                }
        }
        root_program = root_path != NULL && cc_is_program(m, root_path);
        if (m->system == CC_SYS_LINUX) {
                if (cc_lnx_ctx_open(m, root_path, &w.lc, err) < 0) {
                        /* a library, not a program: the loader of a plain program */
                        cc_err_clear(err);
                        if (cc_lnx_ctx_open(m, NULL, &w.lc, err) < 0)
                                goto done;
                }
                if (cc_v_set(doc, "loader", cc_lnx_ctx_facts(w.lc, err), err) < 0)
                        goto done;
                {
                        /* what the loader's own setup says (a corrupt cache, a preload not found) */
                        const cc_value *ln = cc_v_path(doc, "loader/notes");
                        size_t k;

                        for (k = 0; k < cc_v_len(ln); k++)
                                if (cc_strv_push(&w.notes, cc_v_getstr(cc_v_at(ln, k)), err) < 0)
                                        goto done;
                }
        } else {
                const char *app = root_program ? root_path : NULL;

                if (cc_win_ctx_open(m, app, &opts->resolve, &w.wc, err) < 0)
                        goto done;
                if (cc_v_set(doc, "loader", cc_win_ctx_facts(w.wc, err), err) < 0)
                        goto done;
                if (opts->resolve.win_mode != CUDNNCTL_WIN_STANDARD) {
                        /* cuDNN's own run-time loads are plain LoadLibrary calls */
                        cudnnctl_which_options so = opts->resolve;

                        so.win_mode = CUDNNCTL_WIN_STANDARD;
                        so.win_search = 0;
                        if (cc_win_ctx_open(m, app, &so, &w.wc_std, err) < 0)
                                goto done;
                }
        }
        if (!is_path) {
                /* a name: what a plain program gets */
                if (w.lc ? cc_lnx_resolve(w.lc, target, NULL, 0, 0, &rr, err) < 0
                         : cc_win_resolve(w.wc, target, NULL, 0, &rr, err) < 0)
                        goto done;
                if (cc_v_set(doc, "target_resolution", cc_resolution_facts(&rr, err), err) < 0)
                        goto done;
                if (!rr.found) {
                        /* a result, not an error: the document says why */
                        int failed = rr.ntried > 0 && rr.tries[rr.ntried - 1].outcome == CC_TRY_FAILED;

                        sum = cc_v_object(err);
                        if (sum == NULL || cc_v_set_int(sum, "objects", 0, err) < 0 ||
                            cc_v_set_int(sum, "edges", 0, err) < 0 || cc_v_set_int(sum, "missing", 1, err) < 0 ||
                            cc_v_set_int(sum, "runtime_missing", 0, err) < 0 ||
                            cc_v_set_int(sum, "fails", failed, err) < 0 ||
                            cc_v_set_int(sum, "unreadable", 0, err) < 0) {
                                cc_v_free(sum);
                                goto done;
                        }
                        if (cc_v_set_str(doc, "target_status", failed ? "fails" : "missing", err) < 0 ||
                            cc_v_set(doc, "nodes", cc_v_array(err), err) < 0 ||
                            cc_v_set(doc, "summary", sum, err) < 0 ||
                            cc_v_set(doc, "notes", cc_v_strv(&rr.notes, err), err) < 0)
                                goto done;
                        *out = doc;
                        doc = NULL;
                        rv = 0;
                        goto done;
                }
                root_path = cc_strdup(err, rr.path);
                if (root_path == NULL)
                        goto done;
        }
        if (cc_v_set_str(doc, "target_status", "found", err) < 0 || add_node(&w, root_path, 0, (size_t)-1, err) == NULL)
                goto done;
        w.nodes[0].realpath = cc_tree_canonical(m->tree, root_path, err);
        w.nodes[0].program = root_program;
        if (w.nodes[0].realpath == NULL || add_name(&w, &w.nodes[0], root_path, err) < 0 ||
            (rr.name && add_name(&w, &w.nodes[0], rr.name, err) < 0))
                goto done;
        /* ld.so is loaded before anything else: its SONAME matches DT_NEEDED entries */
        if (w.lc != NULL) {
                const char *interp = cc_lnx_ctx_interp(w.lc);
                cc_stat st;

                if (interp != NULL && cc_tree_stat(m->tree, interp, &st, err) == 0 && st.type == CC_FT_FILE) {
                        struct dnode *d = add_node(&w, interp, 0, (size_t)-1, err);

                        if (d == NULL)
                                goto done;
                        d->interp = 1;
                        d->realpath = cc_tree_canonical(m->tree, interp, err);
                        if (d->realpath == NULL || add_name(&w, d, interp, err) < 0 ||
                            add_name(&w, d, cc_basename(interp), err) < 0 || expand(&w, w.n - 1, err) < 0)
                                goto done;
                }
                /* then LD_PRELOAD and /etc/ld.so.preload, before the program's own dependencies */
                {
                        const cc_strv *pre = cc_lnx_ctx_preloads(w.lc);
                        size_t k;

                        for (k = 0; k < pre->n; k++) {
                                struct dnode *d;

                                if (find_loaded(&w, pre->v[k], NULL) != (size_t)-1)
                                        continue;
                                d = add_node(&w, pre->v[k], 0, (size_t)-1, err);
                                if (d == NULL)
                                        goto done;
                                d->preload = 1;
                                d->realpath = cc_tree_canonical(m->tree, pre->v[k], err);
                                if (d->realpath == NULL || add_name(&w, d, pre->v[k], err) < 0 ||
                                    add_name(&w, d, cc_basename(pre->v[k]), err) < 0)
                                        goto done;
                        }
                }
        }
        /* breadth first, like ld.so */
        for (i = 0; i < w.n; i++)
                if (expand(&w, i, err) < 0)
                        goto done;
        nodes = cc_v_array(err);
        if (nodes == NULL)
                goto done;
        for (i = 0; i < w.n; i++) {
                if (w.nodes[i].error)
                        w.unreadable++;
                if (cc_v_push(nodes, node_facts(&w, i, err), err) < 0)
                        goto done;
        }
        if (cc_v_set(doc, "nodes", nodes, err) < 0) {
                nodes = NULL;
                goto done;
        }
        nodes = NULL;
        sum = cc_v_object(err);
        if (sum == NULL || cc_v_set_int(sum, "objects", (int64_t)w.n, err) < 0 ||
            cc_v_set_int(sum, "edges", (int64_t)w.edges, err) < 0 ||
            cc_v_set_int(sum, "missing", (int64_t)(w.missing + w.failed), err) < 0 ||
            cc_v_set_int(sum, "runtime_missing", (int64_t)w.runtime_missing, err) < 0 ||
            cc_v_set_int(sum, "fails", (int64_t)w.failed, err) < 0 ||
            cc_v_set_int(sum, "unreadable", (int64_t)w.unreadable, err) < 0) {
                cc_v_free(sum);
                goto done;
        }
        if (driver_note(&w, cc_v_get(doc, "nodes"), err) < 0 ||
            cudnn_summary(&w, cc_v_get(doc, "nodes"), sum, err) < 0) {
                cc_v_free(sum);
                goto done;
        }
        if (cc_v_set(doc, "summary", sum, err) < 0 || cc_v_set(doc, "notes", cc_v_strv(&w.notes, err), err) < 0)
                goto done;
        *out = doc;
        doc = NULL;
        rv = 0;
done:
        cc_v_free(nodes);
        cc_v_free(doc);
        for (i = 0; i < w.n; i++)
                node_free(&w.nodes[i]);
        free(w.nodes);
        cc_strv_free(&w.notes);
        cc_lnx_ctx_free(w.lc);
        cc_win_ctx_free(w.wc);
        cc_win_ctx_free(w.wc_std);
        cc_resolution_free(&rr);
        free(root_path);
        return rv;
}
