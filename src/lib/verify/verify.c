/* cudnnctl_verify: the three layers of proof for one cuDNN installation.
 *   1. static:  the header's version macros against the library's version
 *               (file names, exported constants, dist-info) and the set of
 *               sub-libraries its major needs;
 *   2. runtime: in probe children with a time limit, the CUDA driver, the
 *               CUDA runtime the installation pairs with, and cuDNN itself
 *               (load by full path, versions, sub-library version checks,
 *               where every module came from, cudnnCreate), then GPU work;
 *   3. compile: the guide's minimal program built against its headers and
 *               library with the machine's compiler, run, compared.
 * Every check is passed, failed or not-checked, with the evidence and, when
 * not checked, the reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../discover/discover.h"
#include "../machine/machine.h"
#include "../platform/platform.h"
#include "../probe/compile.h"
#include "../probe/probe.h"
#include "verify.h"

#define TRY(x)                                                                                                         \
        do {                                                                                                           \
                if ((x) < 0)                                                                                           \
                        goto fail;                                                                                     \
        } while (0)

/* Sub-libraries per major, in the order they are loaded (each after what it
 * needs). Linux stems; the Windows names are cudnn_<stem>64_<major>.dll. */
static const char *const subs_v9[] = {
    "graph", "engines_precompiled", "engines_runtime_compiled", "heuristic", "ops", "cnn", "adv"};
static const char *const subs_v9_optional[] = {"engines_tensor_ir", "ext"};
static const char *const subs_v8[] = {"ops_infer", "ops_train", "cnn_infer", "cnn_train", "adv_infer", "adv_train"};

struct vctx {
        cc_machine *m;
        const cudnnctl_verify_options *o;
        cc_value *inst; /* the installation's facts (a copy) */
        int major;
        int windows;
        char *lib_dir;                /* where the shim lives */
        char *include_dir;            /* where cudnn.h lives */
        char *shim;                   /* its path */
        cc_strv lib_stems, lib_paths; /* the sub-libraries present, load order */
        cc_strv missing;              /* required sub-libraries absent */
        cudnnctl_ver header;          /* from cudnn_version.h (cudnn.h for 7) */
        char *header_file;
        cc_value *layers;
        int nfailed, nnot;
        cc_value **driver; /* the driver probe shared between runs, or NULL */
};

/* ---- small helpers ------------------------------------------------------- */

static cc_value *check_new(const char *id, const char *title, const char *status, const char *summary, cc_error *err)
{
        cc_value *c = cc_v_object(err);

        if (c == NULL)
                return NULL;
        if (cc_v_set_str(c, "id", id, err) < 0 || cc_v_set_str(c, "title", title, err) < 0 ||
            cc_v_set_str(c, "status", status, err) < 0 || cc_v_set_str(c, "summary", summary, err) < 0) {
                cc_v_free(c);
                return NULL;
        }
        return c;
}

/* Append a check to a layer's list, counting its status. Takes c. */
static int add_check(struct vctx *v, cc_value *checks, cc_value *c, cc_error *err)
{
        const char *st = cc_v_get_str(c, "status");

        if (c == NULL)
                return -1;
        if (st != NULL && strcmp(st, "failed") == 0)
                v->nfailed++;
        else if (st != NULL && strcmp(st, "not-checked") == 0)
                v->nnot++;
        return cc_v_push(checks, c, err);
}

/* A check from a printf-style summary. */
static int add(struct vctx *v, cc_value *checks, const char *id, const char *title, const char *status,
               cc_value *evidence, cc_error *err, const char *fmt, ...) CC_PRINTF(8, 9);

static int add(struct vctx *v, cc_value *checks, const char *id, const char *title, const char *status,
               cc_value *evidence, cc_error *err, const char *fmt, ...)
{
        va_list ap;
        char *s;
        cc_value *c;

        va_start(ap, fmt);
        s = cc_vasprintf(err, fmt, ap);
        va_end(ap);
        if (s == NULL) {
                cc_v_free(evidence);
                return -1;
        }
        c = check_new(id, title, status, s, err);
        free(s);
        if (c == NULL) {
                cc_v_free(evidence);
                return -1;
        }
        if (evidence != NULL && cc_v_set(c, "evidence", evidence, err) < 0) {
                cc_v_free(c);
                return -1;
        }
        return add_check(v, checks, c, err);
}

/* The layer's status from its checks: failed if any failed, not-checked if
 * none passed and some could not be checked, else passed. */
static const char *layer_status(const cc_value *checks)
{
        size_t i, passed = 0, nc = 0;

        for (i = 0; i < cc_v_len(checks); i++) {
                const char *st = cc_v_get_str(cc_v_at(checks, i), "status");

                if (st == NULL)
                        continue;
                if (strcmp(st, "failed") == 0)
                        return "failed";
                if (strcmp(st, "passed") == 0)
                        passed++;
                else
                        nc++;
        }
        return passed == 0 && nc > 0 ? "not-checked" : "passed";
}

static int add_layer(struct vctx *v, const char *id, const char *title, cc_value *checks, cc_error *err)
{
        cc_value *l = cc_v_object(err);

        if (l == NULL) {
                cc_v_free(checks);
                return -1;
        }
        if (cc_v_set_str(l, "id", id, err) < 0 || cc_v_set_str(l, "title", title, err) < 0 ||
            cc_v_set_str(l, "status", layer_status(checks), err) < 0 || cc_v_set(l, "checks", checks, err) < 0) {
                cc_v_free(l);
                return -1;
        }
        return cc_v_push(v->layers, l, err);
}

static char *dir_of(const char *path, cc_error *err)
{
        const char *b = cc_basename(path);

        if (b == path)
                return cc_strdup(err, ".");
        return cc_strndup(err, path, (size_t)(b - path - 1) ? (size_t)(b - path - 1) : 1);
}

static int ver3_eq(const cudnnctl_ver *a, const cudnnctl_ver *b)
{
        int i;

        for (i = 0; i < 3; i++)
                if ((i < a->n ? a->part[i] : 0) != (i < b->n ? b->part[i] : 0))
                        return 0;
        return a->n > 0 && b->n > 0;
}

static const char *vstr(const cudnnctl_ver *v, char *buf, size_t n)
{
        return cudnnctl_ver_str(v, buf, n);
}

/* ---- choosing the installation ---------------------------------------- */

static int path_matches(const cc_value *inst, const char *path)
{
        const cc_value *a;
        size_t i;

        if (cc_v_get_str(inst, "prefix") && strcmp(cc_v_get_str(inst, "prefix"), path) == 0)
                return 1;
        a = cc_v_get(inst, "aliases");
        for (i = 0; i < cc_v_len(a); i++)
                if (cc_v_getstr(cc_v_at(a, i)) && strcmp(cc_v_getstr(cc_v_at(a, i)), path) == 0)
                        return 1;
        a = cc_v_get(inst, "directories");
        for (i = 0; i < cc_v_len(a); i++) {
                const cc_value *d = cc_v_at(a, i), *al = cc_v_get(d, "aliases");
                size_t j;

                if (cc_v_get_str(d, "path") && strcmp(cc_v_get_str(d, "path"), path) == 0)
                        return 1;
                for (j = 0; j < cc_v_len(al); j++)
                        if (cc_v_getstr(cc_v_at(al, j)) && strcmp(cc_v_getstr(cc_v_at(al, j)), path) == 0)
                                return 1;
        }
        a = cc_v_get(inst, "files");
        for (i = 0; i < cc_v_len(a); i++) {
                const cc_value *f = cc_v_at(a, i);

                if ((cc_v_get_str(f, "path") && strcmp(cc_v_get_str(f, "path"), path) == 0) ||
                    (cc_v_get_str(f, "resolves_to") && strcmp(cc_v_get_str(f, "resolves_to"), path) == 0))
                        return 1;
        }
        return 0;
}

static int name_matches(const cc_value *inst, const char *name)
{
        const cc_value *pk = cc_v_path(inst, "provenance/packages");
        size_t i;

        for (i = 0; i < cc_v_len(pk); i++)
                if (cc_v_get_str(cc_v_at(pk, i), "name") &&
                    cc_strcasecmp(cc_v_get_str(cc_v_at(pk, i), "name"), name) == 0)
                        return 1;
        return cc_v_get_str(inst, "prefix") && strcmp(cc_basename(cc_v_get_str(inst, "prefix")), name) == 0;
}

/* Which installation: INSTALL as an id, a path, or a package or directory
 * name; without it, the one a plain program loads. Sets *chosen_by. */
static const cc_value *choose(struct vctx *v, const cc_value *list, cc_value **chosen_by, cc_error *err)
{
        const cc_value *insts = cc_v_get(list, "installations");
        const char *want = v->o->install;
        size_t i;

        if (want == NULL) {
                const char *names[] = {"cudnn"};
                cudnnctl_which_options wo;
                cudnnctl_value *w = NULL;
                const cc_value *res;

                memset(&wo, 0, sizeof(wo));
                if (cudnnctl_which(v->m, names, 1, &wo, &w, err) < 0)
                        return NULL;
                res = cc_v_get(w, "results");
                for (i = 0; i < cc_v_len(res); i++) {
                        const cc_value *r = cc_v_at(res, i);
                        int64_t id = cc_v_getint(cc_v_get(r, "installation"));

                        if (!cc_v_getbool(cc_v_get(r, "found")) || id < 1 || (size_t)id > cc_v_len(insts))
                                continue;
                        *chosen_by = cc_v_strf(err, "what a plain program loads: %s => %s (%s)",
                                               cc_v_get_str(r, "name"), cc_v_get_str(r, "path"),
                                               cc_v_get_str(r, "how") ? cc_v_get_str(r, "how") : "found");
                        cc_v_free(w);
                        return *chosen_by ? cc_v_at(insts, (size_t)id - 1) : NULL;
                }
                cc_v_free(w);
                if (cc_v_len(insts) == 1) {
                        *chosen_by = cc_v_str("the only installation found (a plain program finds no cuDNN on the "
                                              "loader's search path)",
                                              err);
                        return *chosen_by ? cc_v_at(insts, 0) : NULL;
                }
                if (cc_v_len(insts) == 0)
                        cc_err(err, CC_ERR_NOTFOUND,
                               "no cuDNN installation found on this machine (see 'cudnnctl list')");
                else
                        cc_err(err, CC_ERR_NOTFOUND,
                               "a plain program finds no cuDNN and %zu installations exist: name one (see 'cudnnctl "
                               "list')",
                               cc_v_len(insts));
                return NULL;
        }
        {
                char *end;
                long id = strtol(want, &end, 10);

                if (*want && *end == '\0') {
                        if (id < 1 || (size_t)id > cc_v_len(insts)) {
                                cc_err(err, CC_ERR_NOTFOUND, "installation %s: 'cudnnctl list' found %zu", want,
                                       cc_v_len(insts));
                                return NULL;
                        }
                        *chosen_by = cc_v_strf(err, "installation %ld of 'cudnnctl list'", id);
                        return *chosen_by ? cc_v_at(insts, (size_t)id - 1) : NULL;
                }
        }
        {
                char *abs = cc_machine_abs(v->m, want, err);
                char *real = NULL;

                if (abs == NULL)
                        return NULL;
                if (v->m->live)
                        real = cc_realpath(abs, NULL);
                for (i = 0; i < cc_v_len(insts); i++)
                        if (path_matches(cc_v_at(insts, i), abs) || (real && path_matches(cc_v_at(insts, i), real))) {
                                *chosen_by = cc_v_strf(err, "the installation that holds %s", want);
                                free(abs);
                                free(real);
                                return *chosen_by ? cc_v_at(insts, i) : NULL;
                        }
                free(abs);
                free(real);
        }
        for (i = 0; i < cc_v_len(insts); i++)
                if (name_matches(cc_v_at(insts, i), want)) {
                        *chosen_by = cc_v_strf(err, "the installation named %s", want);
                        return *chosen_by ? cc_v_at(insts, i) : NULL;
                }
        cc_err(err, CC_ERR_NOTFOUND, "%s: no cuDNN installation found there or by that name (see 'cudnnctl list')",
               want);
        return NULL;
}

/* ---- the installation's files ------------------------------------------ */

static char *lib_name(const struct vctx *v, const char *stem)
{
        cc_error e = {0};

        if (v->windows)
                return stem ? cc_asprintf(&e, "cudnn_%s64_%d.dll", stem, v->major)
                            : cc_asprintf(&e, "cudnn64_%d.dll", v->major);
        return stem ? cc_asprintf(&e, "libcudnn_%s.so.%d", stem, v->major)
                    : cc_asprintf(&e, "libcudnn.so.%d", v->major);
}

/* The path of a library file of this installation by name, or NULL. */
static const char *find_file(const struct vctx *v, const char *name)
{
        const cc_value *files = cc_v_get(v->inst, "files");
        size_t i;

        for (i = 0; i < cc_v_len(files); i++) {
                const char *p = cc_v_get_str(cc_v_at(files, i), "path");

                if (p != NULL && (v->windows ? cc_strcasecmp(cc_basename(p), name) : strcmp(cc_basename(p), name)) == 0)
                        return p;
        }
        return NULL;
}

/* Any library file of a role and this major (a versioned name when the
 * SONAME link is missing). */
static const char *find_role(const struct vctx *v, const char *role)
{
        const cc_value *files = cc_v_get(v->inst, "files");
        size_t i;

        for (i = 0; i < cc_v_len(files); i++) {
                const cc_value *f = cc_v_at(files, i);
                const char *k = cc_v_get_str(f, "kind"), *r = cc_v_get_str(f, "role");

                if (k && r && strcmp(r, role) == 0 && strcmp(k, "header") != 0 && strstr(k, "library") != NULL &&
                    strstr(k, "import") == NULL && strstr(k, "static") == NULL &&
                    cc_v_getint(cc_v_get(f, "major")) == v->major)
                        return cc_v_get_str(f, "path");
        }
        return NULL;
}

static int add_lib(struct vctx *v, const char *stem, int required, cc_error *err)
{
        char *name = lib_name(v, stem), *role = cc_asprintf(err, "cudnn_%s", stem);
        const char *p = NULL;
        int rv = 0;

        if (name == NULL || role == NULL) {
                rv = cc_err(err, CC_ERR_NOMEM, "out of memory");
                goto done;
        }
        p = find_file(v, name);
        if (p == NULL)
                p = find_role(v, role);
        if (p != NULL) {
                rv = cc_strv_push(&v->lib_stems, stem, err) < 0 || cc_strv_push(&v->lib_paths, p, err) < 0 ? -1 : 0;
        } else if (required) {
                rv = cc_strv_push(&v->missing, name, err);
        }
done:
        free(name);
        free(role);
        return rv;
}

static int gather_files(struct vctx *v, cc_error *err)
{
        const cc_value *majors = cc_v_get(v->inst, "majors"), *files = cc_v_get(v->inst, "files");
        const char *shim;
        char *name;
        size_t i;

        v->windows = cc_v_get_str(v->inst, "system") && strcmp(cc_v_get_str(v->inst, "system"), "windows") == 0;
        for (i = 0; i < cc_v_len(majors); i++)
                if (cc_v_getint(cc_v_at(majors, i)) > v->major)
                        v->major = (int)cc_v_getint(cc_v_at(majors, i));
        name = lib_name(v, NULL);
        if (name == NULL)
                return cc_err(err, CC_ERR_NOMEM, "out of memory");
        shim = find_file(v, name);
        if (shim == NULL)
                shim = find_role(v, "cudnn");
        if ((shim == NULL && cc_strv_push(&v->missing, name, err) < 0) ||
            (shim != NULL && (v->shim = cc_strdup(err, shim)) == NULL)) {
                free(name);
                return -1;
        }
        free(name);
        if (v->major >= 9) {
                for (i = 0; i < CC_ARRAY_LEN(subs_v9); i++)
                        TRY(add_lib(v, subs_v9[i], 1, err));
                for (i = 0; i < CC_ARRAY_LEN(subs_v9_optional); i++)
                        TRY(add_lib(v, subs_v9_optional[i], 0, err));
        } else if (v->major == 8) {
                for (i = 0; i < CC_ARRAY_LEN(subs_v8); i++)
                        TRY(add_lib(v, subs_v8[i], 1, err));
        }
        if (v->shim != NULL)
                v->lib_dir = dir_of(v->shim, err);
        else if (v->lib_paths.n > 0)
                v->lib_dir = dir_of(v->lib_paths.v[0], err);
        for (i = 0; i < cc_v_len(files); i++) {
                const char *p = cc_v_get_str(cc_v_at(files, i), "path");

                if (p != NULL && cc_strcasecmp(cc_basename(p), "cudnn.h") == 0) {
                        v->include_dir = dir_of(p, err);
                        break;
                }
        }
        return 0;
fail:
        return -1;
}

/* ---- layer 1: static --------------------------------------------------- */

static int layer_static(struct vctx *v, cc_error *err)
{
        const cc_value *vers = cc_v_get(v->inst, "versions");
        cc_value *checks = cc_v_array(err), *libs = NULL, *ev = NULL;
        cc_strv disagree = {0};
        size_t i, nlib = 0;
        char hb[32], lb[32];

        if (checks == NULL)
                return -1;
        for (i = 0; i < cc_v_len(vers); i++) {
                const cc_value *x = cc_v_at(vers, i);
                const char *src = cc_v_get_str(x, "source"), *file = cc_v_get_str(x, "file");

                if (src == NULL || strcmp(src, "header") != 0 || file == NULL)
                        continue;
                /* cudnn_version.h (cudnn.h for cuDNN 7) over its _vN copy. */
                if (v->header.n == 0 || strncmp(cc_basename(file), "cudnn_version.h", 15) == 0) {
                        cudnnctl_ver_parse(cc_v_get_str(x, "version"), &v->header);
                        free(v->header_file);
                        v->header_file = cc_strdup(err, file);
                }
        }
        libs = cc_v_array(err);
        if (libs == NULL)
                goto fail;
        for (i = 0; i < cc_v_len(vers); i++) {
                const cc_value *x = cc_v_at(vers, i);
                const char *src = cc_v_get_str(x, "source");
                cudnnctl_ver lv;

                if (src == NULL || strcmp(src, "header") == 0 || strcmp(src, "header-sublibrary") == 0 ||
                    cudnnctl_ver_parse(cc_v_get_str(x, "version"), &lv) < 0)
                        continue;
                nlib++;
                TRY(cc_v_push(libs,
                              cc_v_strf(err, "%s (%s%s%s)", cc_v_get_str(x, "version"), src,
                                        cc_v_get_str(x, "file") ? ", " : "",
                                        cc_v_get_str(x, "file") ? cc_v_get_str(x, "file") : ""),
                              err));
                if (v->header.n > 0 && !ver3_eq(&v->header, &lv))
                        TRY(cc_strv_pushf(&disagree, 1, err, "%s from %s %s", cc_v_get_str(x, "version"), src,
                                          cc_v_get_str(x, "file") ? cc_v_get_str(x, "file") : ""));
        }
        ev = cc_v_object(err);
        if (ev == NULL)
                goto fail;
        TRY(cc_v_set_str(ev, "header", v->header.n ? vstr(&v->header, hb, sizeof(hb)) : NULL, err));
        TRY(cc_v_set_str(ev, "header_file", v->header_file, err));
        TRY(cc_v_set(ev, "library", libs, err));
        libs = NULL;
        if (v->header.n == 0 && nlib == 0)
                TRY(add(v, checks, "header-vs-library", "header and library versions", "not-checked", ev, err,
                        "neither the header nor the library tells a version"));
        else if (v->header.n == 0)
                TRY(add(v, checks, "header-vs-library", "header and library versions", "not-checked", ev, err,
                        "no cuDNN header in this installation (cudnn_version.h / cudnn.h): nothing to compare the "
                        "library with"));
        else if (nlib == 0)
                TRY(add(v, checks, "header-vs-library", "header and library versions", "not-checked", ev, err,
                        "header %s, but no static source tells the library's version (the run-time layer does)",
                        vstr(&v->header, hb, sizeof(hb))));
        else if (disagree.n > 0)
                TRY(add(v, checks, "header-vs-library", "header and library versions", "failed", ev, err,
                        "header %s disagrees with the library: %s", vstr(&v->header, hb, sizeof(hb)), disagree.v[0]));
        else
                TRY(add(v, checks, "header-vs-library", "header and library versions", "passed", ev, err,
                        "header %s = library (%zu source%s)", vstr(&v->header, hb, sizeof(hb)), nlib,
                        nlib == 1 ? "" : "s"));
        ev = NULL;
        /* The set of libraries its major needs. */
        ev = cc_v_object(err);
        if (ev == NULL)
                goto fail;
        TRY(cc_v_set(ev, "present", cc_v_strv(&v->lib_paths, err), err));
        TRY(cc_v_set(ev, "missing", cc_v_strv(&v->missing, err), err));
        TRY(cc_v_set_str(ev, "shim", v->shim, err));
        if (v->major == 0)
                TRY(add(v, checks, "library-set", "the libraries of its major", "not-checked", ev, err,
                        "the cuDNN major of this installation is not known"));
        else if (v->missing.n > 0)
                TRY(add(v, checks, "library-set", "the libraries of its major", "failed", ev, err,
                        "cuDNN %d needs %s, which is not in %s", v->major, v->missing.v[0],
                        v->lib_dir ? v->lib_dir : "this installation"));
        else
                TRY(add(v, checks, "library-set", "the libraries of its major", "passed", ev, err,
                        "all %zu libraries of cuDNN %d are there", v->lib_paths.n + 1, v->major));
        ev = NULL;
        (void)lb;
        cc_strv_free(&disagree);
        return add_layer(v, "static", "header and library (static)", checks, err);
fail:
        cc_v_free(checks);
        cc_v_free(libs);
        cc_v_free(ev);
        cc_strv_free(&disagree);
        return -1;
}

/* ---- layer 2: run time ------------------------------------------------- */

/* A probe run with the verify options' time limit and program. */
static cc_value *probe(struct vctx *v, const char *const *args, size_t n, int timeout_ms, cc_error *err)
{
        cc_probe_ctl c;

        memset(&c, 0, sizeof(c));
        c.exe = v->o->probe_exe;
        c.timeout_ms = timeout_ms;
        /* The child sees the machine's environment: the process's with
         * --set applied, as which and list saw it. */
        c.env_set = (const char *const *)v->m->env.kv.v;
        c.nenv_set = v->m->env.kv.n;
        return cc_probe_run(&c, args, n, err);
}

/* A stub libcuda the toolkit ships for linking, when one exists. */
static char *find_stub(struct vctx *v, cc_error *err)
{
        static const char *const rel[] = {"lib/stubs/libcuda.so", "lib64/stubs/libcuda.so",
                                          "targets/x86_64-linux/lib/stubs/libcuda.so", "../cu13/lib/stubs/libcuda.so",
                                          "../cu12/lib/stubs/libcuda.so"};
        static const char *const roots[] = {"/usr/local/cuda", "/usr/local/cuda-13.0", "/usr/local/cuda-12"};
        const char *prefix = cc_v_get_str(v->inst, "prefix");
        size_t i, j;

        if (v->windows)
                return NULL;
        for (j = 0; j < CC_ARRAY_LEN(roots) + 1; j++) {
                const char *root = j == 0 ? prefix : roots[j - 1];

                for (i = 0; root != NULL && i < CC_ARRAY_LEN(rel); i++) {
                        char *p = cc_asprintf(err, "%s/%s", root, rel[i]);
                        cc_stat st;

                        if (p == NULL)
                                return NULL;
                        if (cc_tree_stat(v->m->tree, p, &st, NULL) == 0 && st.type == CC_FT_FILE) {
                                char *real = cc_realpath(p, NULL);

                                if (real != NULL) {
                                        free(p);
                                        return real;
                                }
                                return p;
                        }
                        free(p);
                }
        }
        return NULL;
}

/* /proc/driver/nvidia/version: "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  ..." */
static char *kernel_module_version(cc_error *err)
{
        char *text = NULL, *out = NULL;
        char vb[64];
        size_t len;
        cc_error ignore = {0};

        if (cc_read_stream("/proc/driver/nvidia/version", 65536, &text, &len, &ignore) < 0)
                return NULL;
        if (cc_nvrm_version(text, vb, sizeof(vb)) == 0)
                out = cc_strdup(err, vb);
        free(text);
        return out;
}

struct driver_state {
        const char *state;  /* ok, no-driver, stub-only, stub-loaded, no-device, hidden, too-old, error */
        char *why;          /* the whole reason, with paths */
        const char *brief;  /* the reason in a few words, for the checks it stops */
        int driver_version; /* CUDA version the driver supports, 0 unknown */
        int devices;
};

static int judge_driver(struct vctx *v, const cc_value *pr, int runtime_version, struct driver_state *ds, cc_error *err)
{
        const cc_value *f = cc_v_get(pr, "facts");
        const cc_value *lib = cc_v_get(f, "libcuda");
        int64_t init = cc_v_get(f, "cuInit") ? cc_v_getint(cc_v_path(f, "cuInit/code")) : -1;
        const char *cvd = cc_machine_getenv(v->m, "CUDA_VISIBLE_DEVICES");
        int64_t nvml_devs = cc_v_getint(cc_v_path(f, "nvml/device_count"));
        char vb[32];

        memset(ds, 0, sizeof(*ds));
        ds->driver_version = (int)cc_v_getint(cc_v_path(f, "driver_version/value"));
        ds->devices =
            (int)cc_v_getint(cc_v_path(f, "device_count/code")) == 0 ? (int)cc_v_len(cc_v_get(f, "devices")) : 0;
        if (!cc_v_getbool(cc_v_get(pr, "ran")) || cc_v_getbool(cc_v_get(pr, "crashed")) ||
            cc_v_getbool(cc_v_get(pr, "timed_out")) || !cc_v_getbool(cc_v_get(pr, "complete"))) {
                ds->state = "error";
                ds->brief = "the driver probe failed";
                ds->why = cc_asprintf(err, "the driver probe %s%s%s", cc_v_get_str(pr, "how"),
                                      cc_v_get_str(pr, "died_in") ? " in " : "",
                                      cc_v_get_str(pr, "died_in") ? cc_v_get_str(pr, "died_in") : "");
        } else if (!cc_v_getbool(cc_v_get(lib, "loaded"))) {
                char *stub = find_stub(v, err);

                if (stub != NULL) {
                        ds->state = "stub-only";
                        ds->brief = "no NVIDIA driver (only the toolkit's stub libcuda.so)";
                        ds->why =
                            cc_asprintf(err,
                                        "no NVIDIA driver: %s is not found by the loader; only the CUDA toolkit's "
                                        "stub %s exists (for linking, not for running)",
                                        v->windows ? "nvcuda.dll" : "libcuda.so.1", stub);
                } else {
                        ds->state = "no-driver";
                        ds->brief = "no NVIDIA driver";
                        ds->why = cc_asprintf(err, "no NVIDIA driver: %s cannot be loaded (%s)",
                                              v->windows ? "nvcuda.dll" : "libcuda.so.1",
                                              cc_v_get_str(lib, "error") ? cc_v_get_str(lib, "error") : "not found");
                }
                free(stub);
        } else if (init == 34) {
                ds->state = "stub-loaded";
                ds->brief = v->windows ? "a stub nvcuda.dll is loaded instead of the driver"
                                       : "a stub libcuda.so.1 is loaded instead of the driver";
                ds->why = cc_asprintf(err,
                                      "the loader finds a stub driver library at %s (CUDA_ERROR_STUB_LIBRARY): "
                                      "a stub %s is on the search path instead of the driver",
                                      cc_v_get_str(lib, "path") ? cc_v_get_str(lib, "path") : "?",
                                      v->windows ? "nvcuda.dll" : "from the toolkit");
        } else if (init == 100 && cvd != NULL && nvml_devs > 0) {
                ds->state = "hidden";
                ds->brief = "CUDA_VISIBLE_DEVICES hides every GPU";
                ds->why =
                    cc_asprintf(err, "CUDA_VISIBLE_DEVICES=\"%s\" hides every GPU (the driver sees %lld through NVML)",
                                cvd, (long long)nvml_devs);
        } else if (init == 100 || (init == 0 && ds->devices == 0)) {
                ds->state = "no-device";
                ds->brief = "no CUDA device";
                ds->why = cc_asprintf(err, "the NVIDIA driver is loaded (%s) but reports no CUDA device%s",
                                      cc_v_get_str(lib, "path") ? cc_v_get_str(lib, "path") : "",
                                      cvd ? " (CUDA_VISIBLE_DEVICES is set)" : "");
        } else if (init == 35 || (init == 0 && runtime_version > 0 && ds->driver_version > 0 &&
                                  ds->driver_version / 1000 < runtime_version / 1000)) {
                cudnnctl_ver dv, rv;

                cudnnctl_cuda_decode(ds->driver_version, &dv);
                cudnnctl_cuda_decode(runtime_version, &rv);
                ds->state = "too-old";
                ds->brief = "the driver is older than the CUDA runtime";
                ds->why =
                    cc_asprintf(err, "the driver supports CUDA %s, older than the CUDA runtime %s that cuDNN uses",
                                ds->driver_version ? vstr(&dv, vb, sizeof(vb)) : "unknown",
                                cudnnctl_ver_str(&rv, (char[32]){0}, 32));
        } else if (init != 0) {
                ds->state = "error";
                ds->brief = "cuInit failed";
                ds->why = cc_asprintf(
                    err, "cuInit failed: %lld %s", (long long)init,
                    cc_v_get_str(cc_v_get(f, "cuInit"), "name") ? cc_v_get_str(cc_v_get(f, "cuInit"), "name") : "");
        } else {
                ds->state = "ok";
                ds->why = NULL;
        }
        return (ds->why == NULL && strcmp(ds->state, "ok") != 0) ? -1 : 0;
}

/* The libcudart the installation pairs with: what its libraries would load
 * for the CUDA major cuDNN was built with. */
static char *find_cudart(struct vctx *v, int cudart_version, cc_value **how, cc_error *err)
{
        int major = cudart_version / 1000, minor = (cudart_version % 1000) / 10;
        char *name;
        const char *names[1];
        cudnnctl_which_options wo;
        cudnnctl_value *w = NULL;
        const cc_value *r;
        char *out = NULL;

        if (major <= 0)
                return NULL;
        if (v->windows)
                name = major >= 12 ? cc_asprintf(err, "cudart64_%d.dll", major)
                                   : cc_asprintf(err, "cudart64_%d%d.dll", major, major >= 11 ? 0 : minor);
        else
                name = major >= 11 ? cc_asprintf(err, "libcudart.so.%d", major)
                                   : cc_asprintf(err, "libcudart.so.%d.%d", major, minor);
        if (name == NULL)
                return NULL;
        names[0] = name;
        memset(&wo, 0, sizeof(wo));
        wo.from = v->lib_paths.n > 0 ? v->lib_paths.v[0] : v->shim;
        /* Windows: a DLL loaded by full path (as the probe and frameworks load
         * cuDNN) has its dependencies searched from its own directory first
         * (LOAD_WITH_ALTERED_SEARCH_PATH); the standard order would skip the
         * installation's bin directory, where the zip's cudart sits. */
        if (v->windows)
                wo.win_mode = CUDNNCTL_WIN_ALTERED;
        if (cudnnctl_which(v->m, names, 1, &wo, &w, err) == 0) {
                r = cc_v_path(w, "results/0");
                if (cc_v_getbool(cc_v_get(r, "found")) && cc_v_get_str(r, "path") != NULL) {
                        out = cc_strdup(err, cc_v_get_str(r, "path"));
                        *how = cc_v_strf(err, "%s => %s (%s, as %s would load it)", name, out,
                                         cc_v_get_str(r, "how") ? cc_v_get_str(r, "how") : "found",
                                         cc_basename(wo.from ? wo.from : "a program"));
                }
        }
        cc_v_free(w);
        if (out == NULL && !v->windows) {
                /* Not on any search path of cuDNN's: the CUDA toolkit's copy. */
                /* The installation's own directory (an archive copied into a
                 * toolkit), then the toolkit's. */
                const char *dirs[] = {v->lib_dir ? v->lib_dir : "/usr/local/cuda/lib64", "/usr/local/cuda/lib64",
                                      "/usr/local/cuda/lib", "/usr/local/cuda/targets/x86_64-linux/lib"};
                const char *home = cc_machine_getenv(v->m, "CUDA_HOME");
                size_t i;

                for (i = 0; out == NULL && i < CC_ARRAY_LEN(dirs) + 2; i++) {
                        char *p = i < CC_ARRAY_LEN(dirs) ? cc_asprintf(err, "%s/%s", dirs[i], name)
                                  : home
                                      ? cc_asprintf(err, "%s/lib%s/%s", home, i == CC_ARRAY_LEN(dirs) ? "64" : "", name)
                                      : NULL;
                        cc_stat st;

                        if (p != NULL && cc_tree_stat(v->m->tree, p, &st, NULL) == 0 && st.type == CC_FT_FILE) {
                                out = p;
                                *how = cc_v_strf(err, "%s => %s (%s: cuDNN's own search path finds none)", name, out,
                                                 i == 0 && v->lib_dir ? "beside cuDNN" : "the CUDA toolkit's copy");
                        } else {
                                free(p);
                        }
                }
        }
        if (out == NULL && v->windows && cc_machine_getenv(v->m, "CUDA_PATH") != NULL) {
                /* Windows: the toolkit's copy, bin\x64 (CUDA 13) then bin. */
                size_t i;

                for (i = 0; out == NULL && i < 2; i++) {
                        char *p = cc_asprintf(err, "%s\\bin%s\\%s", cc_machine_getenv(v->m, "CUDA_PATH"),
                                              i == 0 ? "\\x64" : "", name);
                        cc_stat st;

                        if (p != NULL && cc_tree_stat(v->m->tree, p, &st, NULL) == 0 && st.type == CC_FT_FILE) {
                                out = p;
                                *how = cc_v_strf(err,
                                                 "%s => %s (the CUDA toolkit's copy: cuDNN's own search path "
                                                 "finds none)",
                                                 name, out);
                        } else {
                                free(p);
                        }
                }
        }
        free(name);
        return out;
}

static int same_dir(const char *a, const char *b)
{
        char *ra = cc_realpath(a, NULL), *rb = cc_realpath(b, NULL);
        int same = ra && rb && strcmp(ra, rb) == 0;

        free(ra);
        free(rb);
        return same;
}

/* A probe that crashed or hung as a check's summary ("killed by signal 11
 * (SIGSEGV) in load libcudnn_graph.so.9"). */
static char *probe_end(const cc_value *pr, cc_error *err)
{
        const char *in = cc_v_get_str(pr, "died_in");

        return cc_asprintf(err, "the probe child ended%s%s: %s", in ? " in " : "", in ? in : "",
                           cc_v_get_str(pr, "how") ? cc_v_get_str(pr, "how") : "failed");
}

/* The child ran to the end of its report ("complete": its last line was
 * the protocol's end marker, probe.h) and exited 0: a library that calls
 * exit(0) or closes every descriptor fails here. */
static int probe_ok(const cc_value *pr)
{
        return cc_v_getbool(cc_v_get(pr, "ran")) && cc_v_getbool(cc_v_get(pr, "complete")) &&
               !cc_v_getbool(cc_v_get(pr, "crashed")) && !cc_v_getbool(cc_v_get(pr, "timed_out")) &&
               cc_v_getint(cc_v_get(pr, "exit")) == 0 && cc_v_get(pr, "exit") != NULL &&
               cc_v_type(cc_v_get(pr, "exit")) == CUDNNCTL_INT;
}

static int layer_runtime(struct vctx *v, cc_value *doc, cc_value **cudnn_probe, cc_error *err)
{
        cc_value *checks = cc_v_array(err), *probes = cc_v_object(err), *drv = NULL, *dnn = NULL, *rt = NULL;
        cc_value *ev = NULL, *cudart_how = NULL;
        struct driver_state ds;
        char *cudart = NULL, *kmod = NULL, *seed = NULL, *major = NULL, *s = NULL;
        const cc_value *f;
        const char *died = NULL;
        cc_strv args = {0};
        int64_t rt_version = 0, dnn_version = 0, cudart_version = 0;
        int gpu = 0, timeout = v->o->timeout_ms > 0 ? v->o->timeout_ms : 60000;
        char b1[32], b2[32];
        size_t i;

        memset(&ds, 0, sizeof(ds));
        if (checks == NULL || probes == NULL)
                goto fail;
        if (!v->m->live) {
                TRY(add(v, checks, "runtime", "run-time probes", "not-checked", NULL, err,
                        "--root: nothing from that tree is loaded or run"));
                cc_v_free(probes);
                return add_layer(v, "runtime", "run time (probes in a child process)", checks, err);
        }
        /* cuDNN first: its CUDA runtime version says which libcudart and
         * which driver it needs. */
        TRY(cc_strv_push(&args, "cudnn", err));
        major = cc_asprintf(err, "%d", v->major);
        TRY(major ? cc_strv_push(&args, "--major", err) : -1);
        TRY(cc_strv_push(&args, major, err));
        for (i = 0; i < v->lib_paths.n; i++) {
                TRY(cc_strv_push(&args, "--lib", err));
                TRY(cc_strv_pushf(&args, 0, err, "%s=%s", v->lib_stems.v[i], v->lib_paths.v[i]));
        }
        if (v->shim != NULL) {
                TRY(cc_strv_push(&args, "--shim", err));
                TRY(cc_strv_push(&args, v->shim, err));
        }
        /* The driver, then cuDNN without the GPU: what is cheap and decides
         * whether the GPU work can run. */
        {
                const char *dargs[] = {"driver"};

                if (v->driver != NULL && *v->driver != NULL)
                        drv = cc_v_copy(*v->driver, err);
                else
                        drv = probe(v, dargs, 1, timeout, err);
                if (drv == NULL)
                        goto fail;
                if (v->driver != NULL && *v->driver == NULL && (*v->driver = cc_v_copy(drv, err)) == NULL)
                        goto fail;
        }
        dnn = probe(v, (const char *const *)args.v, args.n, timeout, err);
        if (dnn == NULL)
                goto fail;
        f = cc_v_get(dnn, "facts");
        dnn_version = cc_v_getint(cc_v_get(f, "version"));
        cudart_version = cc_v_getint(cc_v_get(f, "cudart_version"));
        cudart = find_cudart(v, (int)cudart_version, &cudart_how, err);
        if (cudart != NULL) {
                const char *rargs[] = {"cudart", cudart};

                rt = probe(v, rargs, 2, timeout, err);
                if (rt == NULL)
                        goto fail;
                rt_version = cc_v_getint(cc_v_path(rt, "facts/runtime_version/value"));
        }
        TRY(judge_driver(v, drv, (int)(rt_version ? rt_version : cudart_version), &ds, err));
        kmod = kernel_module_version(err);

        /* Driver. */
        ev = cc_v_object(err);
        if (ev == NULL)
                goto fail;
        TRY(cc_v_set_str(ev, "state", ds.state, err));
        TRY(cc_v_set_str(ev, "library", cc_v_get_str(cc_v_path(drv, "facts/libcuda"), "path"), err));
        if (ds.driver_version) {
                cudnnctl_ver dv;

                cudnnctl_cuda_decode(ds.driver_version, &dv);
                TRY(cc_v_set_str(ev, "cuda_version", vstr(&dv, b1, sizeof(b1)), err));
        }
        TRY(cc_v_set_str(ev, "nvml_driver_version", cc_v_get_str(cc_v_path(drv, "facts/nvml"), "driver_version"), err));
        TRY(cc_v_set_str(ev, "kernel_module_version", kmod, err));
        TRY(cc_v_set_int(ev, "devices", ds.devices, err));
        if (cc_v_get(cc_v_get(drv, "facts"), "devices"))
                TRY(cc_v_set(ev, "device_list", cc_v_copy(cc_v_path(drv, "facts/devices"), err), err));
        if (strcmp(ds.state, "ok") == 0) {
                cudnnctl_ver dv;

                cudnnctl_cuda_decode(ds.driver_version, &dv);
                TRY(add(v, checks, "driver", "NVIDIA driver and GPUs", "passed", ev, err,
                        "driver %s (CUDA %s), %d GPU%s%s%s",
                        cc_v_get_str(cc_v_path(drv, "facts/nvml"), "driver_version")
                            ? cc_v_get_str(cc_v_path(drv, "facts/nvml"), "driver_version")
                            : (kmod ? kmod : "version unknown"),
                        vstr(&dv, b1, sizeof(b1)), ds.devices, ds.devices == 1 ? "" : "s", ds.devices > 0 ? ": " : "",
                        ds.devices > 0 && cc_v_get_str(cc_v_path(drv, "facts/devices/0"), "name")
                            ? cc_v_get_str(cc_v_path(drv, "facts/devices/0"), "name")
                            : ""));
        } else {
                TRY(add(v, checks, "driver", "NVIDIA driver and GPUs",
                        strcmp(ds.state, "too-old") == 0 || strcmp(ds.state, "error") == 0 ? "failed" : "not-checked",
                        ev, err, "%s", ds.why));
        }
        ev = NULL;

        /* Loading every library by full path. */
        died = probe_ok(dnn) ? NULL : cc_v_get_str(dnn, "died_in");
        /* A death in a step a check below reports is failed there; any other
         * is a check of its own. */
        if (!probe_ok(dnn) && !(died != NULL && (strncmp(died, "load ", 5) == 0 || strcmp(died, "cudnnCreate") == 0))) {
                s = probe_end(dnn, err);
                TRY(s ? 0 : -1);
                TRY(add(v, checks, "probe", "the cuDNN probe ran to its end", "failed",
                        cc_v_str(cc_v_get_str(dnn, "output_tail"), err), err, "%s", s));
                free(s);
                s = NULL;
        }
        {
                const cc_value *loads = cc_v_get(f, "loads"), *shim = cc_v_get(f, "shim");
                size_t nbad = 0;
                const char *first = NULL;

                for (i = 0; i < cc_v_len(loads); i++)
                        if (!cc_v_getbool(cc_v_get(cc_v_at(loads, i), "loaded"))) {
                                if (first == NULL)
                                        first = cc_v_get_str(cc_v_at(loads, i), "error");
                                nbad++;
                        }
                if (shim != NULL && !cc_v_getbool(cc_v_get(shim, "loaded"))) {
                        if (first == NULL)
                                first = cc_v_get_str(shim, "error");
                        nbad++;
                }
                ev = cc_v_object(err);
                if (ev == NULL)
                        goto fail;
                TRY(cc_v_set(ev, "libraries", cc_v_copy(loads, err), err));
                TRY(cc_v_set(ev, "shim", cc_v_copy(shim, err), err));
                if (died != NULL && strncmp(died, "load ", 5) == 0)
                        TRY(add(v, checks, "load", "every library loads", "failed", ev, err,
                                "loading %s ended the process (%s)", died + 5, cc_v_get_str(dnn, "how")));
                else if (cc_v_len(loads) == 0 && shim == NULL)
                        TRY(add(v, checks, "load", "every library loads", "failed", ev, err,
                                "the probe loaded nothing (%s)", died ? died : "no library to load"));
                else if (nbad > 0)
                        TRY(add(v, checks, "load", "every library loads", "failed", ev, err, "%zu of %zu failed: %s",
                                nbad, cc_v_len(loads) + (shim != NULL), first ? first : "?"));
                else
                        TRY(add(v, checks, "load", "every library loads", "passed", ev, err,
                                "%zu libraries loaded by full path from %s", cc_v_len(loads) + (shim != NULL),
                                v->lib_dir ? v->lib_dir : "?"));
                ev = NULL;
        }

        /* The version the library reports, against the header and the files. */
        if (cc_v_get(f, "version") != NULL) {
                cudnnctl_ver rv, pv = {0};
                const cc_value *pr = cc_v_get(f, "properties");
                int agree;

                cudnnctl_cudnn_decode((long)dnn_version, &rv);
                if (cc_v_type(cc_v_get(pr, "major")) == CUDNNCTL_INT) {
                        pv.n = 3;
                        pv.part[0] = (long)cc_v_getint(cc_v_get(pr, "major"));
                        pv.part[1] = (long)cc_v_getint(cc_v_get(pr, "minor"));
                        pv.part[2] = (long)cc_v_getint(cc_v_get(pr, "patch"));
                }
                agree = rv.n > 0 && (v->header.n == 0 || ver3_eq(&rv, &v->header)) && (pv.n == 0 || ver3_eq(&rv, &pv));
                ev = cc_v_object(err);
                if (ev == NULL)
                        goto fail;
                TRY(cc_v_set_int(ev, "cudnnGetVersion", dnn_version, err));
                TRY(cc_v_set_str(ev, "runtime", rv.n ? vstr(&rv, b1, sizeof(b1)) : NULL, err));
                TRY(cc_v_set_str(ev, "cudnnGetProperty", pv.n ? vstr(&pv, b2, sizeof(b2)) : NULL, err));
                TRY(cc_v_set_str(ev, "header", v->header.n ? cudnnctl_ver_str(&v->header, (char[32]){0}, 32) : NULL,
                                 err));
                if (cc_v_get(f, "max_device_version"))
                        TRY(cc_v_set_int(ev, "cudnnGetMaxDeviceVersion", cc_v_getint(cc_v_get(f, "max_device_version")),
                                         err));
                if (rv.n == 0)
                        TRY(add(v, checks, "version", "run-time version", "failed", ev, err,
                                "cudnnGetVersion returned %lld, which is not a cuDNN version", (long long)dnn_version));
                else if (!agree)
                        TRY(add(v, checks, "version", "run-time version", "failed", ev, err,
                                "cudnnGetVersion says %s but the header says %s%s%s", vstr(&rv, b1, sizeof(b1)),
                                v->header.n ? cudnnctl_ver_str(&v->header, (char[32]){0}, 32) : "nothing",
                                pv.n ? " and cudnnGetProperty " : "", pv.n ? vstr(&pv, b2, sizeof(b2)) : ""));
                else
                        TRY(add(v, checks, "version", "run-time version", "passed", ev, err,
                                "cudnnGetVersion %lld = %s%s", (long long)dnn_version, vstr(&rv, b1, sizeof(b1)),
                                v->header.n ? " = header" : " (no header to compare)"));
                ev = NULL;
        } else {
                TRY(add(v, checks, "version", "run-time version", "not-checked", NULL, err,
                        "cudnnGetVersion was not called (%s)",
                        cc_v_get_str(dnn, "died_in") ? cc_v_get_str(dnn, "died_in") : "no library exports it"));
        }

        /* The CUDA runtime it pairs with. */
        ev = cc_v_object(err);
        if (ev == NULL)
                goto fail;
        TRY(cc_v_set_int(ev, "cudnnGetCudartVersion", cudart_version, err));
        TRY(cc_v_set_str(ev, "cudart", cudart, err));
        TRY(cc_v_set(ev, "found", cudart_how ? cudart_how : cc_v_null(err), err));
        cudart_how = NULL;
        if (rt != NULL) {
                TRY(cc_v_set_int(ev, "cudaRuntimeGetVersion", rt_version, err));
                TRY(cc_v_set(ev, "cudaDriverGetVersion", cc_v_copy(cc_v_path(rt, "facts/driver_version"), err), err));
                TRY(cc_v_set(ev, "cudaGetDeviceCount", cc_v_copy(cc_v_path(rt, "facts/device_count"), err), err));
        }
        {
                cudnnctl_ver bv, lv;

                cudnnctl_cuda_decode((long)cudart_version, &bv);
                cudnnctl_cuda_decode((long)rt_version, &lv);
                if (cudart_version <= 0)
                        TRY(add(v, checks, "cudart", "CUDA runtime", "not-checked", ev, err,
                                "cudnnGetCudartVersion was not read"));
                else if (cudart == NULL)
                        TRY(add(v, checks, "cudart", "CUDA runtime", "failed", ev, err,
                                "cuDNN was built for CUDA %s, and no libcudart of CUDA %ld is found for it",
                                vstr(&bv, b1, sizeof(b1)), bv.part[0]));
                else if (rt == NULL || !probe_ok(rt) || rt_version <= 0)
                        TRY(add(v, checks, "cudart", "CUDA runtime", "failed", ev, err, "%s: %s", cudart,
                                rt && cc_v_get_str(cc_v_path(rt, "facts/cudart"), "error")
                                    ? cc_v_get_str(cc_v_path(rt, "facts/cudart"), "error")
                                    : "cudaRuntimeGetVersion could not be read"));
                else if (lv.part[0] != bv.part[0])
                        TRY(add(v, checks, "cudart", "CUDA runtime", "failed", ev, err,
                                "cuDNN was built for CUDA %s but the runtime it pairs with is %s",
                                vstr(&bv, b1, sizeof(b1)), vstr(&lv, b2, sizeof(b2))));
                else
                        TRY(add(v, checks, "cudart", "CUDA runtime", "passed", ev, err,
                                "built for CUDA %s; %s is CUDA %s%s", vstr(&bv, b1, sizeof(b1)), cc_basename(cudart),
                                vstr(&lv, b2, sizeof(b2)),
                                lv.part[1] < bv.part[1] ? " (same major: CUDA's minor-version compatibility)" : ""));
                ev = NULL;
        }

        /* The sub-library version checks of its major. */
        {
                const cc_value *vc = cc_v_get(f, "version_checks");
                size_t nbad = 0, ncalled = 0;
                char *first = NULL;

                for (i = 0; i < cc_v_len(vc); i++) {
                        const cc_value *c = cc_v_at(vc, i);
                        const char *st = cc_v_get_str(c, "status");

                        if (st && strcmp(st, "called") == 0) {
                                ncalled++;
                                if (cc_v_getint(cc_v_path(c, "result/code")) == 0)
                                        continue;
                        }
                        nbad++;
                        if (first == NULL && st && strcmp(st, "called") == 0)
                                first = cc_asprintf(err, "%s: %s", cc_v_get_str(c, "function"),
                                                    cc_v_get_str(cc_v_get(c, "result"), "name")
                                                        ? cc_v_get_str(cc_v_get(c, "result"), "name")
                                                        : "an unknown status");
                        else if (first == NULL)
                                first = cc_asprintf(err, "%s: the cudnn_%s library %s", cc_v_get_str(c, "function"),
                                                    cc_v_get_str(c, "sublibrary") ? cc_v_get_str(c, "sublibrary") : "?",
                                                    st && strcmp(st, "not-exported") == 0 ? "does not export it"
                                                                                          : "is not loaded");
                }
                if (v->major < 8)
                        TRY(add(v, checks, "version-checks", "sub-library version checks", "passed", cc_v_copy(vc, err),
                                err, "cuDNN %d has no sub-libraries to check", v->major));
                else if (cc_v_len(vc) == 0)
                        TRY(add(v, checks, "version-checks", "sub-library version checks", "not-checked", NULL, err,
                                "the probe did not reach them"));
                else if (nbad > 0)
                        TRY(add(v, checks, "version-checks", "sub-library version checks", "failed", cc_v_copy(vc, err),
                                err, "%zu of %zu failed: %s", nbad, cc_v_len(vc), first ? first : "?"));
                else
                        TRY(add(v, checks, "version-checks", "sub-library version checks", "passed", cc_v_copy(vc, err),
                                err, "%zu of %zu: CUDNN_STATUS_SUCCESS", ncalled, cc_v_len(vc)));
                free(first);
        }

        /* Every cuDNN module the process mapped came from that directory. */
        {
                const cc_value *mods =
                    cc_v_get(f, "modules_after_gpu") ? cc_v_get(f, "modules_after_gpu") : cc_v_get(f, "modules");
                cc_value *cud = cc_v_array(err), *other = cc_v_array(err);

                if (cud == NULL || other == NULL) {
                        cc_v_free(cud);
                        cc_v_free(other);
                        goto fail;
                }
                for (i = 0; i < cc_v_len(mods); i++) {
                        const char *p = cc_v_getstr(cc_v_at(mods, i));
                        char *d;

                        if (p == NULL ||
                            cc_strncasecmp(cc_basename(p), v->windows ? "cudnn" : "libcudnn", v->windows ? 5 : 8) != 0)
                                continue;
                        /* On Windows only DLLs: cudnnctl.exe itself starts with "cudnn". */
                        if (v->windows && !cc_ends_with_nocase(p, ".dll"))
                                continue;
                        d = dir_of(p, err);
                        if (d == NULL || cc_v_push(cud, cc_v_str(p, err), err) < 0 ||
                            (v->lib_dir && !same_dir(d, v->lib_dir) && cc_v_push(other, cc_v_str(p, err), err) < 0)) {
                                free(d);
                                cc_v_free(cud);
                                cc_v_free(other);
                                goto fail;
                        }
                        free(d);
                }
                ev = cc_v_object(err);
                if (ev == NULL) {
                        cc_v_free(cud);
                        cc_v_free(other);
                        goto fail;
                }
                TRY(cc_v_set(ev, "cudnn_modules", cud, err));
                TRY(cc_v_set(ev, "from_elsewhere", other, err));
                TRY(cc_v_set(ev, "all_modules", cc_v_copy(mods, err), err));
                if (mods == NULL || cc_v_type(mods) != CUDNNCTL_ARRAY)
                        TRY(add(v, checks, "one-directory", "every cuDNN module from one directory", "not-checked", ev,
                                err, "the probe did not list its modules (%s)",
                                cc_v_getstr(mods) ? cc_v_getstr(mods) : "it ended before"));
                else if (cc_v_len(cc_v_get(ev, "from_elsewhere")) > 0)
                        TRY(add(v, checks, "one-directory", "every cuDNN module from one directory", "failed", ev, err,
                                "%s was loaded from outside %s: a mixed set",
                                cc_v_getstr(cc_v_at(cc_v_get(ev, "from_elsewhere"), 0)), v->lib_dir));
                else
                        TRY(add(v, checks, "one-directory", "every cuDNN module from one directory", "passed", ev, err,
                                "%zu cuDNN module%s mapped, all from %s", cc_v_len(cc_v_get(ev, "cudnn_modules")),
                                cc_v_len(cc_v_get(ev, "cudnn_modules")) == 1 ? "" : "s",
                                v->lib_dir ? v->lib_dir : "?"));
                ev = NULL;
        }

        /* cudnnCreate. */
        {
                const cc_value *cr = cc_v_get(f, "create");
                int64_t code = cc_v_getint(cc_v_get(cr, "code"));
                const char *nm = cc_v_get_str(cr, "name");

                if (cr == NULL && died != NULL && strcmp(died, "cudnnCreate") == 0)
                        TRY(add(v, checks, "handle", "cudnnCreate / cudnnDestroy", "failed", NULL, err,
                                "cudnnCreate did not return: %s", cc_v_get_str(dnn, "how")));
                else if (cr == NULL)
                        TRY(add(v, checks, "handle", "cudnnCreate / cudnnDestroy", "not-checked", NULL, err,
                                "not reached: the probe child ended in %s", died ? died : "an earlier step"));
                else if (cc_v_type(cr) != CUDNNCTL_OBJECT)
                        TRY(add(v, checks, "handle", "cudnnCreate / cudnnDestroy", "failed", cc_v_copy(cr, err), err,
                                "cudnnCreate is not exported"));
                else if (code == 0)
                        TRY(add(v, checks, "handle", "cudnnCreate / cudnnDestroy", "passed", cc_v_copy(cr, err), err,
                                "CUDNN_STATUS_SUCCESS"));
                else if (strcmp(ds.state, "ok") != 0 && strcmp(ds.state, "too-old") != 0 &&
                         strcmp(ds.state, "error") != 0)
                        TRY(add(v, checks, "handle", "cudnnCreate / cudnnDestroy", "not-checked", cc_v_copy(cr, err),
                                err, "%lld %s, as expected without a usable GPU: %s", (long long)code, nm ? nm : "",
                                ds.brief));
                else
                        TRY(add(v, checks, "handle", "cudnnCreate / cudnnDestroy", "failed", cc_v_copy(cr, err), err,
                                "%lld %s%s%s", (long long)code, nm ? nm : "(unknown status)",
                                strcmp(ds.state, "ok") != 0 ? ": " : "", strcmp(ds.state, "ok") != 0 ? ds.why : ""));
        }

        /* GPU work: only where a handle exists on a GPU. */
        gpu = v->o->gpu != CUDNNCTL_GPU_OFF && strcmp(ds.state, "ok") == 0 && ds.devices > 0 &&
              cc_v_getint(cc_v_path(f, "create/code")) == 0 && cc_v_type(cc_v_get(f, "create")) == CUDNNCTL_OBJECT;
        if (gpu && cudart != NULL) {
                cc_value *g;
                const cc_value *res;
                size_t npass = 0, nfail = 0, nskip = 0;

                seed = cc_asprintf(err, "%llu", (unsigned long long)time(NULL) ^ (unsigned long long)cc_monotonic_us());
                TRY(seed ? cc_strv_push(&args, "--seed", err) : -1);
                TRY(cc_strv_push(&args, seed, err));
                TRY(cc_strv_push(&args, "--cudart", err));
                TRY(cc_strv_push(&args, cudart, err));
                TRY(cc_strv_push(&args, "--gpu", err));
                g = probe(v, (const char *const *)args.v, args.n, timeout * 5, err);
                if (g == NULL)
                        goto fail;
                res = cc_v_get(g, "gpu");
                for (i = 0; i < cc_v_len(res); i++) {
                        const char *st = cc_v_get_str(cc_v_at(res, i), "status");

                        /* not-run: this library has no such API (an older major, an
                         * entry point a later release dropped); the load and
                         * version checks judge the library itself. */
                        if (st && strcmp(st, "passed") == 0)
                                npass++;
                        else if (st && strcmp(st, "not-run") == 0)
                                nskip++;
                        else
                                nfail++;
                }
                ev = cc_v_object(err);
                if (ev == NULL) {
                        cc_v_free(g);
                        goto fail;
                }
                TRY(cc_v_set(ev, "operations", cc_v_copy(res, err), err));
                TRY(cc_v_set_str(ev, "seed", seed, err));
                if (!probe_ok(g)) {
                        s = probe_end(g, err);
                        TRY(add(v, checks, "gpu-work", "GPU work against a CPU reference", "failed", ev, err,
                                "%s after %zu operation%s", s ? s : "?", cc_v_len(res), cc_v_len(res) == 1 ? "" : "s"));
                } else if (cc_v_len(res) == 0) {
                        TRY(add(v, checks, "gpu-work", "GPU work against a CPU reference", "failed", ev, err,
                                "the probe ran no GPU operation"));
                } else {
                        const cc_value *bad = NULL, *skipped = NULL;
                        const char *st;

                        for (i = 0; i < cc_v_len(res); i++) {
                                st = cc_v_get_str(cc_v_at(res, i), "status");
                                if (bad == NULL &&
                                    (st == NULL || (strcmp(st, "passed") != 0 && strcmp(st, "not-run") != 0)))
                                        bad = cc_v_at(res, i);
                                if (skipped == NULL && st != NULL && strcmp(st, "not-run") == 0)
                                        skipped = cc_v_at(res, i);
                        }
                        if (nfail > 0)
                                TRY(add(v, checks, "gpu-work", "GPU work against a CPU reference", "failed", ev, err,
                                        "%zu of %zu failed: %s: %s", nfail, cc_v_len(res),
                                        cc_v_get_str(bad, "op") ? cc_v_get_str(bad, "op") : "?",
                                        cc_v_get_str(bad, "reason") ? cc_v_get_str(bad, "reason") : "?"));
                        else if (npass == 0)
                                TRY(add(v, checks, "gpu-work", "GPU work against a CPU reference",
                                        v->o->gpu == CUDNNCTL_GPU_ON ? "failed" : "not-checked", ev, err,
                                        "no operation could run: %s: %s",
                                        cc_v_get_str(skipped, "op") ? cc_v_get_str(skipped, "op") : "?",
                                        cc_v_get_str(skipped, "reason") ? cc_v_get_str(skipped, "reason") : "?"));
                        else if (nskip > 0)
                                TRY(add(v, checks, "gpu-work", "GPU work against a CPU reference", "passed", ev, err,
                                        "%zu operation%s on the GPU match the CPU reference; %zu not run (%s: %s)",
                                        npass, npass == 1 ? "" : "s", nskip,
                                        cc_v_get_str(skipped, "op") ? cc_v_get_str(skipped, "op") : "?",
                                        cc_v_get_str(skipped, "reason") ? cc_v_get_str(skipped, "reason") : "?"));
                        else
                                TRY(add(v, checks, "gpu-work", "GPU work against a CPU reference", "passed", ev, err,
                                        "%zu operations on the GPU match the CPU reference", npass));
                }
                ev = NULL;
                TRY(cc_v_set(probes, "cudnn_gpu", g, err));
        } else {
                const char *why = v->o->gpu == CUDNNCTL_GPU_OFF ? "--no-gpu"
                                  : strcmp(ds.state, "ok") != 0 ? ds.brief
                                  : ds.devices == 0             ? "no CUDA device"
                                  : cudart == NULL              ? "no CUDA runtime library to allocate GPU memory with"
                                                                : "no cuDNN handle";

                TRY(add(v, checks, "gpu-work", "GPU work against a CPU reference",
                        v->o->gpu == CUDNNCTL_GPU_ON ? "failed" : "not-checked", NULL, err, "%s%s",
                        v->o->gpu == CUDNNCTL_GPU_ON ? "--gpu asked for GPU work, but it cannot run: " : "",
                        why ? why : "?"));
        }
        TRY(cc_v_set(probes, "driver", drv, err));
        drv = NULL;
        TRY(cc_v_set(probes, "cudnn", cc_v_copy(dnn, err), err));
        *cudnn_probe = dnn;
        dnn = NULL;
        if (rt != NULL) {
                TRY(cc_v_set(probes, "cudart", rt, err));
                rt = NULL;
        }
        TRY(cc_v_set(doc, "probes", probes, err));
        probes = NULL;
        free(s);
        free(cudart);
        free(kmod);
        free(seed);
        free(major);
        free(ds.why);
        cc_strv_free(&args);
        return add_layer(v, "runtime", "run time (probes in a child process)", checks, err);
fail:
        cc_v_free(checks);
        cc_v_free(probes);
        cc_v_free(drv);
        cc_v_free(dnn);
        cc_v_free(rt);
        cc_v_free(ev);
        cc_v_free(cudart_how);
        free(cudart);
        free(kmod);
        free(seed);
        free(major);
        free(s);
        free(ds.why);
        cc_strv_free(&args);
        return -1;
}

/* ---- layer 3: compile and link ----------------------------------------- */

static int layer_compile(struct vctx *v, cc_value *doc, const cc_value *dnn, cc_error *err)
{
        cc_value *checks = cc_v_array(err), *res = NULL;
        cc_strv incs = {0};
        char *implib_dir = NULL;
        cc_compile_opts co;
        const char *prefix = cc_v_get_str(v->inst, "prefix");
        const char *home = cc_machine_getenv(v->m, "CUDA_HOME"), *cpath = cc_machine_getenv(v->m, "CUDA_PATH");
        const char *st, *reason;
        const cc_value *pr;
        size_t i;

        if (checks == NULL)
                return -1;
        if (!v->m->live || v->o->no_compile) {
                TRY(add(v, checks, "compile", "the guide's program compiles, links and runs", "not-checked", NULL, err,
                        "%s", v->o->no_compile ? "--no-compile" : "--root: nothing from that tree is run"));
                return add_layer(v, "compile", "compile, link and run", checks, err);
        }
        /* Where cuda_runtime_api.h may be: the installation itself (a CUDA
         * toolkit), the wheel's sibling CUDA headers, the toolkit's. */
        if (v->include_dir != NULL)
                TRY(cc_strv_push(&incs, v->include_dir, err));
        if (prefix != NULL) {
                TRY(cc_strv_pushf(&incs, 1, err, "%s/../cu13/include", prefix));
                TRY(cc_strv_pushf(&incs, 1, err, "%s/../cuda_runtime/include", prefix));
                TRY(cc_strv_pushf(&incs, 1, err, "%s/../cu12/include", prefix));
        }
        if (home != NULL)
                TRY(cc_strv_pushf(&incs, 1, err, "%s/include", home));
        if (cpath != NULL)
                TRY(cc_strv_pushf(&incs, 1, err, "%s%cinclude", cpath, v->windows ? '\\' : '/'));
        if (!v->windows) {
                TRY(cc_strv_pushf(&incs, 1, err, "/usr/local/cuda/include"));
                TRY(cc_strv_pushf(&incs, 1, err, "/usr/include"));
        }
        for (i = 0; i < incs.n;) {
                cc_stat sst;

                if (cc_stat_path(incs.v[i], &sst, NULL) == 0 && sst.type == CC_FT_DIR) {
                        i++;
                } else {
                        free(incs.v[i]);
                        memmove(&incs.v[i], &incs.v[i + 1], (incs.n - i - 1) * sizeof(*incs.v));
                        incs.n--;
                }
        }
        memset(&co, 0, sizeof(co));
        co.include_dir = v->include_dir;
        co.lib_dir = v->lib_dir;
        co.dll_dir = v->lib_dir;
        /* Windows links against the import library (NVIDIA's zip: lib\x64\cudnn.lib),
         * not in bin\ with the DLLs. */
        if (v->windows && find_file(v, "cudnn.lib") != NULL) {
                implib_dir = dir_of(find_file(v, "cudnn.lib"), err);
                if (implib_dir == NULL)
                        goto fail;
                co.lib_dir = implib_dir;
        }
        co.cuda_include_dirs = (const char *const *)incs.v;
        co.ncuda_include_dirs = incs.n;
        co.major = v->major;
        co.path_env = cc_machine_getenv(v->m, "PATH");
        co.timeout_ms = v->o->timeout_ms > 0 ? v->o->timeout_ms : 60000;
        co.windows = v->windows;
        if (cc_compile_probe(&co, &res, err) < 0)
                goto fail;
        st = cc_v_get_str(res, "status");
        reason = cc_v_get_str(res, "reason");
        pr = cc_v_get(res, "printed");
        if (st == NULL || strcmp(st, "passed") != 0) {
                TRY(add(v, checks, "compile", "the guide's program compiles, links and runs", st ? st : "failed", NULL,
                        err, "%s", reason ? reason : "?"));
        } else {
                cudnnctl_ver hv = {0}, rv = {0};
                int64_t rtv = cc_v_getint(cc_v_get(pr, "runtime_version"));
                int64_t probe_v = cc_v_getint(cc_v_path(dnn, "facts/version"));
                int64_t pc = cc_v_getint(cc_v_get(pr, "create_status"));
                const cc_value *probe_create = cc_v_path(dnn, "facts/create/code");
                char b1[32], b2[32];

                if (cc_v_get_str(pr, "header_version") != NULL)
                        cudnnctl_ver_parse(cc_v_get_str(pr, "header_version"), &hv);
                cudnnctl_cudnn_decode((long)rtv, &rv);
                if (v->header.n > 0 && hv.n > 0 && !ver3_eq(&hv, &v->header))
                        TRY(add(v, checks, "compile", "the guide's program compiles, links and runs", "failed", NULL,
                                err, "the program saw header %s, but the installation's header says %s",
                                vstr(&hv, b1, sizeof(b1)), vstr(&v->header, b2, sizeof(b2))));
                else if (hv.n > 0 && rv.n > 0 && !ver3_eq(&hv, &rv))
                        TRY(add(v, checks, "compile", "the guide's program compiles, links and runs", "failed", NULL,
                                err,
                                "the program was built with header %s and runs library %s: header and library "
                                "disagree",
                                vstr(&hv, b1, sizeof(b1)), vstr(&rv, b2, sizeof(b2))));
                else if (probe_v > 0 && rtv != probe_v)
                        TRY(add(v, checks, "compile", "the guide's program compiles, links and runs", "failed", NULL,
                                err, "the program runs cuDNN %lld, the probe loaded %lld: they load different copies",
                                (long long)rtv, (long long)probe_v));
                else if (probe_create != NULL && cc_v_type(probe_create) == CUDNNCTL_INT &&
                         cc_v_getint(probe_create) != pc)
                        TRY(add(v, checks, "compile", "the guide's program compiles, links and runs", "failed", NULL,
                                err, "cudnnCreate gave %lld in the program and %lld in the probe", (long long)pc,
                                (long long)cc_v_getint(probe_create)));
                else
                        TRY(add(v, checks, "compile", "the guide's program compiles, links and runs", "passed", NULL,
                                err, "built with %s; it printed header %s, cudnnGetVersion %lld, cudnnCreate %lld%s%s",
                                cc_v_get_str(cc_v_get(res, "compiler"), "version")
                                    ? cc_v_get_str(cc_v_get(res, "compiler"), "version")
                                    : "the C compiler",
                                hv.n ? vstr(&hv, b1, sizeof(b1)) : "?", (long long)rtv, (long long)pc,
                                cc_v_get_str(pr, "create_status_name") ? " " : "",
                                cc_v_get_str(pr, "create_status_name") ? cc_v_get_str(pr, "create_status_name") : ""));
        }
        TRY(cc_v_set(doc, "compile", res, err));
        res = NULL;
        cc_strv_free(&incs);
        free(implib_dir);
        return add_layer(v, "compile", "compile, link and run", checks, err);
fail:
        cc_v_free(checks);
        cc_v_free(res);
        cc_strv_free(&incs);
        free(implib_dir);
        return -1;
}

/* ---- the document --------------------------------------------------------- */

int cudnnctl_verify(cudnnctl_machine *m, const cudnnctl_verify_options *opts, cudnnctl_value **out, cudnnctl_error *err)
{
        return cc_verify_listed(m, opts, NULL, NULL, out, err);
}

int cc_verify_listed(cc_machine *m, const cudnnctl_verify_options *opts, const cc_value *listed, cc_value **driver,
                     cc_value **out, cc_error *err)
{
        cudnnctl_verify_options defaults;
        struct vctx v;
        cudnnctl_list_options lo;
        cudnnctl_value *list = NULL;
        cc_value *doc = NULL, *chosen_by = NULL, *inst = NULL, *summary = NULL, *dnn = NULL;
        const cc_value *picked;
        int64_t t0 = cc_monotonic_us();
        const char *verdict;
        char *extra[2] = {NULL, NULL};
        int rc, rv = -1;

        if (out == NULL || m == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_verify: no machine or no place for the result");
        *out = NULL;
        if (opts == NULL) {
                memset(&defaults, 0, sizeof(defaults));
                opts = &defaults;
        }
        memset(&v, 0, sizeof(v));
        v.m = m;
        v.o = opts;
        v.driver = driver;
        memset(&lo, 0, sizeof(lo));
        /* INSTALL as a path is searched too, where the usual places miss it:
         * a library file's directory, and the prefix above lib/, lib64/, bin/. */
        if (listed == NULL && opts->install != NULL && (extra[0] = cc_machine_abs(m, opts->install, err)) != NULL) {
                cc_stat st;

                if (cc_tree_stat(m->tree, extra[0], &st, NULL) == 0 && st.type == CC_FT_FILE) {
                        char *d = cc_tree_dirname(m->tree, extra[0], err);

                        free(extra[0]);
                        extra[0] = d;
                }
                if (extra[0] != NULL) {
                        const char *b = cc_basename(extra[0]);

                        lo.extra_roots = (const char *const *)extra;
                        lo.nextra_roots = 1;
                        if (cc_strcasecmp(b, "lib") == 0 || cc_strcasecmp(b, "lib64") == 0 ||
                            cc_strcasecmp(b, "bin") == 0) {
                                extra[1] = cc_tree_dirname(m->tree, extra[0], err);
                                lo.nextra_roots = extra[1] ? 2 : 1;
                        }
                }
        }
        cc_err_clear(err);
        if (listed != NULL) {
                /* the caller listed the machine already (the doctor) */
                list = cc_v_copy(listed, err);
                rc = list ? 0 : -1;
        } else {
                rc = cudnnctl_list(m, &lo, &list, err);
        }
        free(extra[0]);
        free(extra[1]);
        if (rc < 0)
                return -1;
        picked = choose(&v, list, &chosen_by, err);
        if (picked == NULL)
                goto fail;
        v.inst = cc_v_copy(picked, err);
        if (v.inst == NULL)
                goto fail;
        TRY(gather_files(&v, err));
        doc = cc_doc_new("verify", m, err);
        v.layers = cc_v_array(err);
        inst = cc_v_object(err);
        if (doc == NULL || v.layers == NULL || inst == NULL)
                goto fail;
        TRY(cc_v_set_int(inst, "id", cc_v_getint(cc_v_get(picked, "id")), err));
        TRY(cc_v_set_str(inst, "prefix", cc_v_get_str(picked, "prefix"), err));
        TRY(cc_v_set_str(inst, "version", cc_v_get_str(picked, "version"), err));
        TRY(cc_v_set_str(inst, "full_version", cc_v_get_str(picked, "full_version"), err));
        TRY(cc_v_set_str(inst, "provenance", cc_v_get_str(cc_v_get(picked, "provenance"), "kind"), err));
        TRY(cc_v_set_int(inst, "major", v.major, err));
        TRY(cc_v_set_str(inst, "lib_dir", v.lib_dir, err));
        TRY(cc_v_set_str(inst, "include_dir", v.include_dir, err));
        TRY(cc_v_set(inst, "chosen_by", chosen_by, err));
        chosen_by = NULL;
        TRY(cc_v_set(doc, "installation", inst, err));
        inst = NULL;
        TRY(cc_v_set_str(doc, "gpu_requested",
                         opts->gpu == CUDNNCTL_GPU_ON    ? "on"
                         : opts->gpu == CUDNNCTL_GPU_OFF ? "off"
                                                         : "auto",
                         err));
        TRY(layer_static(&v, err));
        TRY(layer_runtime(&v, doc, &dnn, err));
        TRY(layer_compile(&v, doc, dnn, err));
        TRY(cc_v_set(doc, "layers", v.layers, err));
        v.layers = NULL;
        summary = cc_v_object(err);
        if (summary == NULL)
                goto fail;
        verdict = v.nfailed > 0 ? "failed" : v.nnot > 0 ? "passed-with-unchecked" : "passed";
        TRY(cc_v_set_str(summary, "verdict", verdict, err));
        TRY(cc_v_set_int(summary, "failed", v.nfailed, err));
        TRY(cc_v_set_int(summary, "not_checked", v.nnot, err));
        TRY(cc_v_set_int(summary, "wall_ms", (cc_monotonic_us() - t0) / 1000, err));
        TRY(cc_v_set(doc, "summary", summary, err));
        summary = NULL;
        *out = doc;
        doc = NULL;
        rv = 0;
fail:
        cc_v_free(list);
        cc_v_free(doc);
        cc_v_free(chosen_by);
        cc_v_free(inst);
        cc_v_free(summary);
        cc_v_free(dnn);
        cc_v_free(v.inst);
        cc_v_free(v.layers);
        free(v.lib_dir);
        free(v.include_dir);
        free(v.shim);
        free(v.header_file);
        cc_strv_free(&v.lib_stems);
        cc_strv_free(&v.lib_paths);
        cc_strv_free(&v.missing);
        return rv;
}

int cudnnctl_probe_child(int argc, char **argv)
{
        return cc_probe_child(argc, argv);
}
