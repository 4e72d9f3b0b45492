/* cudnnctl env / exec: one installation first on the loader's search path of
 * one shell or one program, the other cuDNN directories off it, and the
 * commands that undo it (docs/json.md, command "env").
 *
 * The document says every change as data (the variable's value before and
 * after, each entry added, removed or kept with why, each variable set or
 * unset); cudnnctl_env_script writes it in a shell's own syntax and
 * cudnnctl_exec applies it to a program. What env changed is remembered in
 * the shell itself: CUDNNCTL_ENV names the installation, and the first env
 * of a shell keeps every value it replaces in CUDNNCTL_SAVED_<NAME> (absent:
 * the variable was not set), so `env --unset` puts back exactly what was
 * there, as conda's activate does with its backups. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../facts/views.h"
#include "../fetch/index.h"
#include "../platform/platform.h"
#include "cudnnctl/cudnnctl.h"
#include "change.h"
#include "pick.h"
#include "toolkits.h"

#define MAX_ENTRIES 4096
#define MAX_LIST 8192
#define SAVED "CUDNNCTL_SAVED_"
#define MARK "CUDNNCTL_ENV"

/* The variables env sets besides the search path: where build systems
 * (cudnn-frontend's CMake, PyTorch's build) look for cuDNN. */
static const char *const HOME_VARS[] = {"CUDNN_PATH", "CUDNN_HOME"};

struct ectx {
        cc_machine *m;
        int win;
        char sep;
        const char *var; /* LD_LIBRARY_PATH or PATH */
        cc_value *doc;   /* the document */
        cc_value *changes, *removed, *kept, *added, *notes;
        const char *base; /* the value to start from instead of the variable's (the registry's Path) */
        cc_strv add;      /* the directories put first, in order */
        cc_strv add_real; /* their canonical paths */
};

/* ---- small helpers ----------------------------------------------------- */

static char *dupf(cc_error *err, const char *fmt, ...) CC_PRINTF(2, 3);
static char *dupf(cc_error *err, const char *fmt, ...)
{
        cc_buf b = {0};
        va_list ap;
        int rc;

        va_start(ap, fmt);
        rc = cc_buf_vprintf(&b, err, fmt, ap);
        va_end(ap);
        if (rc < 0) {
                cc_buf_free(&b);
                return NULL;
        }
        return b.data ? cc_buf_steal(&b) : cc_strdup(err, "");
}

static char *canonical(struct ectx *e, const char *p)
{
        cc_tree_res r;
        char *out = NULL;

        memset(&r, 0, sizeof(r));
        if (cc_tree_resolve(e->m->tree, p, 1, &r, NULL) == 0 && r.st.type != CC_FT_NONE && r.canonical != NULL)
                out = cc_strdup(NULL, r.canonical);
        cc_tree_res_free(&r);
        return out;
}

static int in_list(struct ectx *e, const cc_strv *v, const char *p)
{
        size_t i;

        for (i = 0; i < v->n; i++)
                if (cc_tree_path_eq(e->m->tree, v->v[i], p))
                        return 1;
        return 0;
}

/* The first file name in dir that one of the patterns matches, or NULL
 * (a directory that cannot be listed matches nothing). */
static char *holds(struct ectx *e, const char *dir, const char *const *pats, size_t npats)
{
        cc_strv names = {0};
        char *hit = NULL;
        size_t i, k;

        if (cc_tree_list(e->m->tree, dir, MAX_LIST, &names, NULL) < 0)
                return NULL;
        for (i = 0; i < names.n && hit == NULL; i++)
                for (k = 0; k < npats && hit == NULL; k++)
                        if (cc_glob_match(pats[k], names.v[i], e->win))
                                hit = cc_strdup(NULL, names.v[i]);
        cc_strv_free(&names);
        return hit;
}

static char *holds_cudnn(struct ectx *e, const char *dir)
{
        static const char *const lin[] = {"libcudnn.so*", "libcudnn_*.so*"};
        static const char *const win[] = {"cudnn64_*.dll", "cudnn_*64_*.dll"};

        return e->win ? holds(e, dir, win, 2) : holds(e, dir, lin, 2);
}

/* CUDA's own libraries: a toolkit's library directory, which the search
 * path needs whatever cuDNN it also holds. */
static char *holds_cuda(struct ectx *e, const char *dir)
{
        static const char *const lin[] = {"libcudart.so*", "libcublas.so*", "libcublasLt.so*"};
        static const char *const win[] = {"cudart64_*.dll", "cublas64_*.dll", "cublasLt64_*.dll"};

        return e->win ? holds(e, dir, win, 3) : holds(e, dir, lin, 3);
}

static int change(struct ectx *e, const char *name, const char *value, cc_error *err)
{
        cc_value *c = cc_v_object(err);

        if (cc_v_push(e->changes, c, err) < 0)
                return -1;
        if (cc_v_set_str(c, "name", name, err) < 0)
                return -1;
        return value ? cc_v_set_str(c, "value", value, err) : cc_v_set_null(c, "value", err);
}

static int entry_why(cc_value *arr, const char *entry, const char *why, cc_error *err)
{
        cc_value *o = cc_v_object(err);

        if (cc_v_push(arr, o, err) < 0 || cc_v_set_str(o, "entry", entry, err) < 0)
                return -1;
        return cc_v_set_str(o, "why", why, err);
}

static int note(struct ectx *e, cc_error *err, const char *fmt, ...) CC_PRINTF(3, 4);
static int note(struct ectx *e, cc_error *err, const char *fmt, ...)
{
        cc_buf b = {0};
        va_list ap;
        int rc;

        va_start(ap, fmt);
        rc = cc_buf_vprintf(&b, err, fmt, ap);
        va_end(ap);
        if (rc < 0)
                return -1;
        rc = cc_v_push(e->notes, cc_v_str(b.data ? b.data : "", err), err);
        cc_buf_free(&b);
        return rc;
}

/* ---- the installation's directories ------------------------------------ */

static int is_variant(const char *b, size_t n)
{
        return n > 0 && b[0] >= '1' && b[0] <= '9' && memchr(b, '.', n) != NULL && strspn(b, "0123456789.") >= n;
}

/* The CUDA build a directory is named for (bin\13.0, bin\13.0\x64): "13.0"
 * into buf, else NULL. */
static const char *variant_of(const char *dir, char *buf, size_t size)
{
        const char *b = cc_basename(dir), *e = b + strlen(b);

        if (cc_strcasecmp(b, "x64") == 0 && b - dir >= 2) {
                /* the component before \x64 */
                e = b - 1;
                b = e;
                while (b > dir && b[-1] != '/' && b[-1] != '\\')
                        b--;
        }
        if (!is_variant(b, (size_t)(e - b)) || (size_t)(e - b) >= size)
                return NULL;
        memcpy(buf, b, (size_t)(e - b));
        buf[e - b] = '\0';
        return buf;
}

static int major_of(const char *v)
{
        return v ? atoi(v) : 0;
}

static int has_toolkit(const cc_value *toolkits, int major)
{
        size_t k;

        for (k = 0; k < cc_v_len(toolkits); k++) {
                const char *tv = cc_v_get_str(cc_v_at(toolkits, k), "version");

                if (tv != NULL && major_of(tv) == major)
                        return 1;
        }
        return 0;
}

static int is_lib(const cc_vw_file *f)
{
        return f->path != NULL && f->kind != NULL &&
               (strcmp(f->kind, "shared-library") == 0 || strcmp(f->kind, "dll") == 0);
}

/* The directories of the installation's shared libraries, in the order its
 * files list them; of a Windows installer layout with a directory per CUDA
 * build, only one build's: `cuda` (MAJOR or MAJOR.MINOR) when given, else
 * the newest whose toolkit is on the machine, else the newest. all: every
 * build's. */
static int lib_dirs(struct ectx *e, const cc_vw_installation *in, const cc_value *toolkits, const char *cuda, int all,
                    char **variant, cc_error *err)
{
        cc_strv dirs = {0};
        char pick[32] = "";
        size_t i;
        int rv = -1;

        *variant = NULL;
        for (i = 0; i < cc_v_len(in->files); i++) {
                cc_vw_file f;
                char *d;

                cc_vw_file_at(in->files, i, &f, NULL);
                if (!is_lib(&f))
                        continue;
                d = cc_tree_dirname(e->m->tree, f.path, err);
                if (d == NULL)
                        goto fail;
                if (!in_list(e, &dirs, d) && cc_strv_push(&dirs, d, err) < 0) {
                        free(d);
                        goto fail;
                }
                free(d);
        }
        /* one CUDA build of a layout that has several */
        for (i = 0; i < dirs.n && !all; i++) {
                char vb[32];
                const char *v = variant_of(dirs.v[i], vb, sizeof(vb));
                int better;

                if (v == NULL)
                        continue;
                if (cuda != NULL)
                        better = strcmp(v, cuda) == 0 || (strchr(cuda, '.') == NULL && major_of(v) == atoi(cuda) &&
                                                          (!pick[0] || cc_version_cmp(v, pick) > 0));
                else if (!pick[0])
                        better = 1;
                else {
                        int hv = has_toolkit(toolkits, major_of(v)), hp = has_toolkit(toolkits, major_of(pick));

                        better = hv > hp || (hv == hp && cc_version_cmp(v, pick) > 0);
                }
                if (better)
                        snprintf(pick, sizeof(pick), "%s", v);
        }
        if (cuda != NULL && !pick[0]) {
                cc_err(err, CC_ERR_NOTFOUND, "%s: no CUDA %s build of cuDNN there", in->prefix, cuda);
                goto fail;
        }
        for (i = 0; i < dirs.n; i++) {
                char vb[32];
                const char *v = variant_of(dirs.v[i], vb, sizeof(vb));

                if (v != NULL && pick[0] && strcmp(pick, v) != 0)
                        continue;
                TRY(cc_strv_push(&e->add, dirs.v[i], err));
        }
        if (pick[0] && (*variant = cc_strdup(err, pick)) == NULL)
                goto fail;
        rv = 0;
fail:
        cc_strv_free(&dirs);
        return rv;
}

/* Every directory of the other installations, with who they are. */
static int other_dirs(struct ectx *e, const cc_value *insts, int64_t chosen, cc_strv *dirs, cc_strv *who, cc_error *err)
{
        size_t i, k, j;

        for (i = 0; i < cc_v_len(insts); i++) {
                cc_vw_installation in;

                cc_vw_installation_read(cc_v_at(insts, i), &in, NULL);
                if (in.id == chosen)
                        continue;
                for (k = 0; k < cc_v_len(in.directories); k++) {
                        cc_vw_inst_dir d;

                        cc_vw_inst_dir_at(in.directories, k, &d, NULL);
                        for (j = 0; j <= cc_v_len(d.aliases); j++) {
                                const char *p = j == 0 ? d.path : cc_v_as_str(cc_v_at(d.aliases, j - 1));

                                if (p == NULL)
                                        continue;
                                TRY(cc_strv_push(dirs, p, err));
                                if (cc_strv_take(who,
                                                 dupf(err, "cuDNN %s (installation %" PRId64 ")",
                                                      in.version ? in.version : "of an unknown release", in.id),
                                                 err) < 0)
                                        return -1;
                        }
                }
        }
        return 0;
fail:
        return -1;
}

/* The toolkit of CUDA `major` with the newest version, and its directory of
 * DLLs (bin\x64 from CUDA 13, bin before), or NULL. */
static char *toolkit_bin(struct ectx *e, const cc_value *toolkits, int major, char **version, cc_error *err)
{
        const char *best = NULL, *bestv = NULL;
        size_t i;

        *version = NULL;
        for (i = 0; i < cc_v_len(toolkits); i++) {
                const char *v = cc_v_get_str(cc_v_at(toolkits, i), "version");

                if (v != NULL && major_of(v) == major && (bestv == NULL || cc_version_cmp(v, bestv) > 0)) {
                        bestv = v;
                        best = cc_v_get_str(cc_v_at(toolkits, i), "prefix");
                }
        }
        if (best == NULL)
                return NULL;
        {
                static const char *const subs[] = {"bin\\x64", "bin"};

                for (i = 0; i < CC_ARRAY_LEN(subs); i++) {
                        char *d = cc_tree_join(e->m->tree, best, subs[i], err);
                        char *h;

                        if (d == NULL)
                                return NULL;
                        if ((h = holds_cuda(e, d)) != NULL) {
                                free(h);
                                *version = cc_strdup(err, bestv);
                                return d;
                        }
                        free(d);
                }
        }
        return NULL;
}

/* ---- the new value of the search path ---------------------------------- */

/* Whether p is the Windows directory or inside it (%SystemRoot%). */
static int under_windir(struct ectx *e, const char *p)
{
        const char *w = cc_machine_getenv(e->m, "SystemRoot");
        size_t n;

        if (w == NULL || w[0] == '\0')
                w = "C:\\Windows";
        n = strlen(w);
        while (n > 0 && (w[n - 1] == '\\' || w[n - 1] == '/'))
                n--;
        return n > 0 && cc_strncasecmp(p, w, n) == 0 && (p[n] == '\0' || p[n] == '\\' || p[n] == '/');
}

static int new_path(struct ectx *e, const cc_value *insts, int64_t chosen, cc_buf *out, cc_error *err)
{
        const char *old = e->base ? e->base : cc_machine_getenv(e->m, e->var);
        cc_strv parts = {0}, others = {0}, who = {0}, kept = {0};
        size_t i, k;
        int rv = -1;

        TRY(other_dirs(e, insts, chosen, &others, &who, err));
        for (i = 0; i < e->add.n; i++) {
                TRY(cc_v_push(e->added, cc_v_str(e->add.v[i], err), err));
                TRY(cc_strv_push(&kept, e->add.v[i], err));
        }
        if (old != NULL)
                TRY(cc_split_pathlist_any(old, cc_pathlist_seps(e->m->system, e->var), MAX_ENTRIES, &parts, err));
        for (i = 0; i < parts.n; i++) {
                const char *p = parts.v[i];
                char *real = NULL, *lib = NULL, *cuda = NULL;
                const char *why = NULL;
                int other = -1;

                if (p[0] == '\0') {
                        TRY(entry_why(e->removed, p,
                                      e->win ? "empty" : "empty: the loader reads it as the current directory", err));
                        continue;
                }
                if (e->win && strchr(p, '%') != NULL && !cc_tree_is_abs(e->m->tree, p)) {
                        /* %SystemRoot%\system32 as the registry holds it: not
                         * env's to judge or expand */
                        TRY(cc_strv_push(&kept, p, err));
                        continue;
                }
                if (!cc_tree_is_abs(e->m->tree, p)) {
                        TRY(entry_why(e->removed, p, "relative: it names another directory in each current directory",
                                      err));
                        continue;
                }
                if (e->win && under_windir(e, p)) {
                        /* System32 and the like stay whatever they hold: the
                         * loader searches them before PATH anyway */
                        if ((lib = holds_cudnn(e, p)) != NULL) {
                                char *w = dupf(err,
                                               "holds %s, but it is the Windows directory: kept (the loader "
                                               "searches it before PATH; 'cudnnctl doctor' says what to do with "
                                               "a stale copy there)",
                                               lib);

                                free(lib);
                                lib = NULL;
                                if (w == NULL || entry_why(e->kept, p, w, err) < 0) {
                                        free(w);
                                        goto fail;
                                }
                                free(w);
                        }
                        TRY(cc_strv_push(&kept, p, err));
                        continue;
                }
                real = canonical(e, p);
                for (k = 0; k < e->add.n; k++)
                        if (cc_tree_path_eq(e->m->tree, p, e->add.v[k]) ||
                            (real && e->add_real.v[k][0] && cc_tree_path_eq(e->m->tree, real, e->add_real.v[k])))
                                why = "the chosen directory: now first";
                if (why == NULL && in_list(e, &kept, p))
                        why = "a repeat of an earlier entry";
                for (k = 0; why == NULL && k < others.n && other < 0; k++)
                        if (cc_tree_path_eq(e->m->tree, p, others.v[k]) ||
                            (real && cc_tree_path_eq(e->m->tree, real, others.v[k])))
                                other = (int)k;
                if (why == NULL && (other >= 0 || (lib = holds_cudnn(e, p)) != NULL)) {
                        cuda = holds_cuda(e, p);
                        if (cuda != NULL) {
                                char *w = dupf(err, "holds %s and CUDA's own %s: kept, after the chosen directory",
                                               other >= 0 ? who.v[other] : lib, cuda);

                                if (w == NULL || entry_why(e->kept, p, w, err) < 0) {
                                        free(w);
                                        free(real);
                                        free(lib);
                                        free(cuda);
                                        goto fail;
                                }
                                free(w);
                        } else {
                                char *w = other >= 0 ? dupf(err, "%s: it could shadow or mix with the chosen one",
                                                            who.v[other])
                                                     : dupf(err,
                                                            "holds %s, a cuDNN library: it could shadow or mix "
                                                            "with the chosen one",
                                                            lib);

                                if (w == NULL || entry_why(e->removed, p, w, err) < 0) {
                                        free(w);
                                        free(real);
                                        free(lib);
                                        goto fail;
                                }
                                free(w);
                                free(real);
                                free(lib);
                                continue;
                        }
                }
                free(real);
                free(lib);
                free(cuda);
                if (why != NULL) {
                        TRY(entry_why(e->removed, p, why, err));
                        continue;
                }
                TRY(cc_strv_push(&kept, p, err));
        }
        for (i = 0; i < kept.n; i++) {
                const char *seps = cc_pathlist_seps(e->m->system, e->var);

                if (kept.v[i][strcspn(kept.v[i], seps)] != '\0') {
                        cc_err(err, CC_ERR_USAGE,
                               "%s: a directory whose name holds '%c' cannot be on %s (%s splits it there)", kept.v[i],
                               kept.v[i][strcspn(kept.v[i], seps)], e->var, e->win ? "Windows" : "the loader");
                        goto fail;
                }
                if ((i && cc_buf_putc(out, e->sep, err) < 0) || cc_buf_puts(out, kept.v[i], err) < 0)
                        goto fail;
        }
        rv = 0;
fail:
        cc_strv_free(&parts);
        cc_strv_free(&others);
        cc_strv_free(&who);
        cc_strv_free(&kept);
        return rv;
}

/* ---- the changes ------------------------------------------------------- */

/* Remember a value env replaces, once per shell (the first env's). */
static int save(struct ectx *e, const char *name, cc_error *err)
{
        const char *v = cc_machine_getenv(e->m, name);
        char key[64];

        if (cc_machine_getenv(e->m, MARK) != NULL || v == NULL)
                return 0;
        snprintf(key, sizeof(key), SAVED "%s", name);
        return change(e, key, v, err);
}

static int set_env(struct ectx *e, const cc_value *list, const cudnnctl_env_options *o, cc_error *err)
{
        cc_vw_list_doc ld;
        cc_vw_installation in;
        cc_vw_provenance pv;
        cc_value *chosen_by = NULL, *inst = NULL, *toolkits = NULL;
        const cc_value *picked;
        cc_buf path = {0};
        char *variant = NULL, *tkv = NULL, *bin = NULL;
        int major = 0, rv = -1;
        size_t i;

        cc_vw_list_doc_read(list, &ld, NULL);
        picked = cc_pick_installation(e->m, list, o->install, &chosen_by, err);
        if (picked == NULL)
                return -1;
        cc_vw_installation_read(picked, &in, NULL);
        cc_vw_provenance_read(in.provenance, &pv, NULL);
        toolkits = cc_toolkit_facts(e->m, err);
        if (toolkits == NULL)
                goto fail;
        TRY(lib_dirs(e, &in, toolkits, o->cuda, 0, &variant, err));
        if (e->add.n == 0) {
                cc_err(err, CC_ERR_NOTFOUND, "installation %" PRId64 " (%s) has no cuDNN library to put on %s", in.id,
                       in.prefix, e->var);
                goto fail;
        }
        /* Windows: the CUDA DLLs cuDNN needs (cuBLAS), from the toolkit of its
         * CUDA major, after it; a toolkit's own directory has them already. */
        if (e->win) {
                if (variant != NULL)
                        major = major_of(variant);
                for (i = 0; major == 0 && i < cc_v_len(pv.packages); i++) {
                        const char *name = cc_v_get_str(cc_v_at(pv.packages, i), "name");

                        if (name != NULL && cc_strncasecmp(name, "nvidia-cudnn-cu", 15) == 0)
                                major = atoi(name + 15);
                }
                if (pv.toolkit != NULL || (bin = holds_cuda(e, e->add.v[0])) != NULL) {
                        free(bin);
                        bin = NULL;
                } else if (major == 0) {
                        TRY(note(e, err,
                                 "the installation does not say which CUDA it was built for: put that CUDA's bin "
                                 "directory on PATH too (cuDNN's DLLs load its cuBLAS)"));
                } else if ((bin = toolkit_bin(e, toolkits, major, &tkv, err)) == NULL) {
                        if (err->code == CC_ERR_NOMEM)
                                goto fail;
                        TRY(note(e, err,
                                 "no CUDA %d toolkit found: cuDNN's DLLs load its cuBLAS, so install it (or the "
                                 "nvidia-cublas-cu%d wheel) and put its bin directory on PATH",
                                 major, major));
                } else if (!in_list(e, &e->add, bin)) {
                        TRY(cc_strv_push(&e->add, bin, err));
                        TRY(note(e, err, "%s: the CUDA %s toolkit's DLLs (cuBLAS), which cuDNN's DLLs load", bin, tkv));
                }
                TRY(note(e, err,
                         "Python 3.8 and later ignore PATH for the DLLs of extension modules: a program loads "
                         "this cuDNN with os.add_dll_directory(r\"%s\") before importing the module, or through "
                         "CUDNN_PATH where the framework reads it",
                         e->add.v[0]));
        }
        for (i = 0; i < e->add.n; i++) {
                char *r = canonical(e, e->add.v[i]);

                TRY(cc_strv_take(&e->add_real, r ? r : cc_strdup(err, ""), err));
        }
        TRY(new_path(e, ld.installations, in.id, &path, err));
        /* the values replaced, once per shell; then the new ones */
        TRY(save(e, e->var, err));
        for (i = 0; i < CC_ARRAY_LEN(HOME_VARS); i++)
                TRY(save(e, HOME_VARS[i], err));
        TRY(change(e, e->var, path.data ? path.data : "", err));
        for (i = 0; i < CC_ARRAY_LEN(HOME_VARS); i++)
                TRY(change(e, HOME_VARS[i], in.prefix, err));
        TRY(change(e, MARK, in.prefix, err));
        TRY(cc_v_set_str(e->doc, "after", path.data ? path.data : "", err));

        inst = cc_v_object(err);
        TRY(cc_v_set(e->doc, "installation", inst, err));
        TRY(cc_v_set_int(inst, "id", in.id, err));
        TRY(cc_v_set_str(inst, "prefix", in.prefix, err));
        TRY(cc_v_set_str(inst, "version", in.version, err));
        TRY(cc_v_set_str(inst, "full_version", in.full_version, err));
        TRY(cc_v_set_str(inst, "provenance", pv.kind, err));
        TRY(cc_v_set_str(inst, "cuda_variant", variant, err));
        {
                cc_value *cb = chosen_by;

                chosen_by = NULL; /* the set takes it, also when it fails */
                TRY(cc_v_set(inst, "chosen_by", cb, err));
        }
        if (pv.kind != NULL && strcmp(pv.kind, "pip") == 0)
                TRY(note(e, err,
                         "a wheel's cuDNN belongs to its Python environment: programs of other environments loading "
                         "it get a release their framework was not built for"));
        rv = 0;
fail:
        cc_v_free(chosen_by);
        cc_v_free(toolkits);
        cc_buf_free(&path);
        free(variant);
        free(tkv);
        free(bin);
        return rv;
}

/* --unset: what the shell's first env saved, put back; without it, the
 * installation's directories taken off and the variables pointing at it
 * unset. */
static int unset_env(struct ectx *e, const cc_value *list, const cudnnctl_env_options *o, cc_error *err)
{
        const char *mark = cc_machine_getenv(e->m, MARK);
        const char *names[1 + CC_ARRAY_LEN(HOME_VARS)];
        cc_value *chosen_by = NULL;
        cc_buf path = {0};
        char key[64];
        size_t i;
        int rv = -1;

        names[0] = e->var;
        for (i = 0; i < CC_ARRAY_LEN(HOME_VARS); i++)
                names[i + 1] = HOME_VARS[i];
        if (mark != NULL) {
                for (i = 0; i < CC_ARRAY_LEN(names); i++) {
                        const char *v;

                        snprintf(key, sizeof(key), SAVED "%s", names[i]);
                        v = cc_machine_getenv(e->m, key);
                        TRY(change(e, names[i], v, err));
                        if (v != NULL)
                                TRY(change(e, key, NULL, err));
                }
                TRY(change(e, MARK, NULL, err));
                TRY(cc_v_set_str(e->doc, "restored_from", MARK, err));
                TRY(note(e, err, "puts back the values this shell had before its first 'cudnnctl env' (%s)", mark));
                rv = 0;
                goto fail;
        }
        if (o->install == NULL) {
                cc_err(err, CC_ERR_NOTFOUND,
                       "nothing to undo: " MARK " is not set (no 'cudnnctl env' in this shell); name the INSTALL "
                       "to take off %s",
                       e->var);
                return -1;
        }
        {
                const cc_value *picked = cc_pick_installation(e->m, list, o->install, &chosen_by, err);
                const char *old = cc_machine_getenv(e->m, e->var);
                cc_vw_installation in;
                cc_strv parts = {0};
                char *variant = NULL;
                int first = 1;

                if (picked == NULL)
                        return -1;
                cc_vw_installation_read(picked, &in, NULL);
                if (lib_dirs(e, &in, NULL, NULL, 1, &variant, err) < 0)
                        goto fail;
                free(variant);
                if (old != NULL &&
                    cc_split_pathlist_any(old, cc_pathlist_seps(e->m->system, e->var), MAX_ENTRIES, &parts, err) < 0)
                        goto fail;
                for (i = 0; i < parts.n; i++) {
                        char *real = canonical(e, parts.v[i]);
                        int mine = in_list(e, &e->add, parts.v[i]) || (real && in_list(e, &e->add, real));

                        free(real);
                        if (mine) {
                                if (entry_why(e->removed, parts.v[i], "the installation's directory", err) < 0)
                                        break;
                                continue;
                        }
                        if ((!first && cc_buf_putc(&path, e->sep, err) < 0) || cc_buf_puts(&path, parts.v[i], err) < 0)
                                break;
                        first = 0;
                }
                cc_strv_free(&parts);
                if (i < parts.n)
                        goto fail;
                if (old != NULL)
                        TRY(change(e, e->var, path.data ? path.data : "", err));
                for (i = 0; i < CC_ARRAY_LEN(HOME_VARS); i++) {
                        const char *v = cc_machine_getenv(e->m, HOME_VARS[i]);

                        if (v != NULL && in.prefix != NULL && cc_tree_path_eq(e->m->tree, v, in.prefix))
                                TRY(change(e, HOME_VARS[i], NULL, err));
                }
                TRY(cc_v_set_str(e->doc, "after", old ? (path.data ? path.data : "") : NULL, err));
                {
                        cc_value *io = cc_v_object(err);

                        TRY(cc_v_set(e->doc, "installation", io, err));
                        TRY(cc_v_set_int(io, "id", in.id, err));
                        TRY(cc_v_set_str(io, "prefix", in.prefix, err));
                        TRY(cc_v_set_str(io, "version", in.version, err));
                        cc_value *cb = chosen_by;

                        chosen_by = NULL; /* the set takes it, also when it fails */
                        TRY(cc_v_set(io, "chosen_by", cb, err));
                }
        }
        rv = 0;
fail:
        cc_v_free(chosen_by);
        cc_buf_free(&path);
        return rv;
}

int cudnnctl_env(cudnnctl_machine *m, const cudnnctl_env_options *opts, cudnnctl_value **out, cudnnctl_error *err)
{
        return cc_env_doc(m, opts, NULL, out, err);
}

int cc_env_doc(cc_machine *m, const cudnnctl_env_options *opts, const char *base, cc_value **out, cc_error *err)
{
        struct ectx e;
        cc_value *list = NULL;
        int rv = -1;

        if (m == NULL || opts == NULL || out == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_env: no machine, options or place for the result");
        *out = NULL;
        if (opts->install == NULL && !opts->unset)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_env: no installation");
        memset(&e, 0, sizeof(e));
        e.m = m;
        e.base = base;
        e.win = m->system == CC_SYS_WINDOWS;
        e.sep = e.win ? ';' : ':';
        e.var = e.win ? "PATH" : "LD_LIBRARY_PATH";
        e.doc = cc_doc_new("env", m, err);
        if (e.doc == NULL)
                return -1;
        e.changes = cc_v_array(err);
        e.removed = cc_v_array(err);
        e.kept = cc_v_array(err);
        e.added = cc_v_array(err);
        e.notes = cc_v_array(err);
        TRY(cc_v_set_str(e.doc, "action", opts->unset ? "unset" : "set", err));
        TRY(cc_v_set_null(e.doc, "installation", err));
        TRY(cc_v_set_str(e.doc, "variable", e.var, err));
        TRY(cc_v_set_str(e.doc, "before", base ? base : cc_machine_getenv(m, e.var), err));
        TRY(cc_v_set_null(e.doc, "after", err));
        TRY(cc_v_set(e.doc, "added", e.added, err));
        TRY(cc_v_set(e.doc, "removed", e.removed, err));
        TRY(cc_v_set(e.doc, "kept", e.kept, err));
        TRY(cc_v_set(e.doc, "changes", e.changes, err));
        TRY(cc_v_set(e.doc, "notes", e.notes, err));
        if (opts->install != NULL)
                TRY(cc_pick_list(m, opts->install, &list, err));
        if (opts->unset)
                TRY(unset_env(&e, list, opts, err));
        else
                TRY(set_env(&e, list, opts, err));
        *out = e.doc;
        e.doc = NULL;
        rv = 0;
fail:
        cc_v_free(list);
        cc_v_free(e.doc);
        cc_strv_free(&e.add);
        cc_strv_free(&e.add_real);
        return rv;
}

int cc_env_path_none(cc_machine *m, const char *base, char **after, cc_value **removed, cc_value **kept, cc_error *err)
{
        struct ectx e;
        cc_value *list = NULL;
        cc_buf path = {0};
        int rv = -1;

        *after = NULL;
        *removed = *kept = NULL;
        memset(&e, 0, sizeof(e));
        e.m = m;
        e.base = base ? base : "";
        e.win = m->system == CC_SYS_WINDOWS;
        e.sep = e.win ? ';' : ':';
        e.var = e.win ? "PATH" : "LD_LIBRARY_PATH";
        e.removed = cc_v_array(err);
        e.kept = cc_v_array(err);
        e.added = cc_v_array(err);
        if (e.removed == NULL || e.kept == NULL || e.added == NULL)
                goto fail;
        TRY(cc_pick_list_all(m, &list, err));
        TRY(new_path(&e, cc_v_get(list, "installations"), -1, &path, err));
        if ((*after = cc_strdup(err, path.data ? path.data : "")) == NULL)
                goto fail;
        *removed = e.removed;
        *kept = e.kept;
        e.removed = e.kept = NULL;
        rv = 0;
fail:
        cc_buf_free(&path);
        cc_v_free(list);
        cc_v_free(e.removed);
        cc_v_free(e.kept);
        cc_v_free(e.added);
        return rv;
}

/* ---- exec and the parent shell ----------------------------------------- */

int cudnnctl_exec(const cudnnctl_value *doc, const char *const *argv, int *status, cudnnctl_error *err)
{
        const cc_value *changes = cc_v_get(doc, "changes");
        size_t i;

        if (argv == NULL || argv[0] == NULL || status == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_exec: no program to run");
        if (cc_v_get_str(doc, "command") == NULL || strcmp(cc_v_get_str(doc, "command"), "env") != 0)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_exec: not an env document");
        for (i = 0; i < cc_v_len(changes); i++) {
                const char *name = cc_v_get_str(cc_v_at(changes, i), "name");

                if (name == NULL)
                        return cc_err(err, CC_ERR_FORMAT, "not an env document: a change without a variable's name");
                TRY_RET(cc_env_put(name, cc_v_get_str(cc_v_at(changes, i), "value"), err));
        }
        return cc_exec_program(argv, status, err);
}

const char *cudnnctl_env_parent_shell(void)
{
        static const struct {
                const char *name, *shell;
        } K[] = {{"bash", "bash"},
                 {"zsh", "zsh"},
                 {"fish", "fish"},
                 {"dash", "sh"},
                 {"sh", "sh"},
                 {"ksh", "sh"},
                 {"mksh", "sh"},
                 {"ash", "sh"},
                 {"busybox", "sh"},
                 {"cmd", "cmd"},
                 {"powershell", "powershell"},
                 {"pwsh", "powershell"}};
        char *name = cc_parent_name(), *dot;
        const char *base, *shell = NULL;
        size_t i;

        if (name == NULL)
                return NULL;
        base = cc_basename(name);
        if (base[0] == '-') /* a login shell's argv[0] */
                base++;
        dot = strrchr(name, '.');
        if (dot != NULL && cc_strcasecmp(dot, ".exe") == 0)
                *dot = '\0';
        for (i = 0; i < CC_ARRAY_LEN(K) && shell == NULL; i++)
                if (cc_strcasecmp(base, K[i].name) == 0)
                        shell = K[i].shell;
        free(name);
        return shell;
}

int cudnnctl_write_text(const char *path, const char *text, cudnnctl_error *err)
{
        cc_stat st;
        cc_error e = {0};

        if (path == NULL || text == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_write_text: no path or no text");
        if (cc_lstat_path(path, &st, &e) == 0) {
                if (st.type == CC_FT_LINK)
                        return cc_err(err, CC_ERR_USAGE, "%s: a symbolic link: not written through", path);
                if (st.type == CC_FT_DIR)
                        return cc_err(err, CC_ERR_USAGE, "%s: a directory", path);
        }
        return cc_write_file(path, text, strlen(text), 0, err);
}
