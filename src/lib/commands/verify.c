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
 * not checked, the reason. This file: the entry points, choosing the
 * installation and its files, the document; the layers are verify_*.c
 * (verify_int.h). */
#include "pick.h"
#include "verify_int.h"

#include "../platform/platform.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sub-libraries per major, in the order they are loaded (each after what it
 * needs). Linux stems; the Windows names are cudnn_<stem>64_<major>.dll. */
static const char *const subs_v9[] = {
    "graph", "engines_precompiled", "engines_runtime_compiled", "heuristic", "ops", "cnn", "adv"};
static const char *const subs_v9_optional[] = {"engines_tensor_ir", "ext"};
static const char *const subs_v8[] = {"ops_infer", "ops_train", "cnn_infer", "cnn_train", "adv_infer", "adv_train"};

/* ---- small helpers ------------------------------------------------------- */

static cc_value *check_new(const char *id, const char *title, const char *status, const char *summary, cc_error *err)
{
        cc_value *c = cc_v_object(err);

        if (c == NULL)
                return NULL;
        if (cc_v_set_str(c, CC_K(check, id), id, err) < 0 || cc_v_set_str(c, CC_K(check, title), title, err) < 0 ||
            cc_v_set_str(c, CC_K(check, status), status, err) < 0 ||
            cc_v_set_str(c, CC_K(check, summary), summary, err) < 0) {
                cc_v_free(c);
                return NULL;
        }
        return c;
}

/* Append a check of status st to a layer's list, counting it. Takes c. */
static int add_check(struct cc_vctx *v, cc_value *checks, cc_value *c, const char *st, cc_error *err)
{
        if (c == NULL)
                return -1;
        if (st != NULL && strcmp(st, "failed") == 0)
                v->nfailed++;
        else if (st != NULL && strcmp(st, "not-checked") == 0)
                v->nnot++;
        return cc_v_push(checks, c, err);
}

/* A check from a printf-style summary. */
int cc_vf_add(struct cc_vctx *v, cc_value *checks, const char *id, const char *title, const char *status,
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
        if (evidence != NULL && cc_v_set(c, CC_K(check, evidence), evidence, err) < 0) {
                cc_v_free(c);
                return -1;
        }
        return add_check(v, checks, c, status, err);
}

/* The layer's status from its checks: failed if any failed, not-checked if
 * none passed and some could not be checked, else passed. */
static const char *layer_status(const cc_value *checks)
{
        size_t i, passed = 0, nc = 0;

        for (i = 0; i < cc_v_len(checks); i++) {
                cc_vw_check c;
                const char *st;

                cc_vw_check_at(checks, i, &c, NULL);
                st = c.status;
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

int cc_vf_add_layer(struct cc_vctx *v, const char *id, const char *title, cc_value *checks, cc_error *err)
{
        cc_value *l = cc_v_object(err);

        if (l == NULL) {
                cc_v_free(checks);
                return -1;
        }
        if (cc_v_set_str(l, CC_K(layer, id), id, err) < 0 || cc_v_set_str(l, CC_K(layer, title), title, err) < 0 ||
            cc_v_set_str(l, CC_K(layer, status), layer_status(checks), err) < 0 ||
            cc_v_set(l, CC_K(layer, checks), checks, err) < 0) {
                cc_v_free(l);
                return -1;
        }
        return cc_v_push(v->layers, l, err);
}

int cc_vf_ver3_eq(const cudnnctl_ver *a, const cudnnctl_ver *b)
{
        int i;

        for (i = 0; i < 3; i++)
                if ((i < a->n ? a->part[i] : 0) != (i < b->n ? b->part[i] : 0))
                        return 0;
        return a->n > 0 && b->n > 0;
}

const char *cc_vf_vstr(const cudnnctl_ver *v, char *buf, size_t n)
{
        return cudnnctl_ver_str(v, buf, n);
}

/* ---- choosing the installation ---------------------------------------- */

/* One of the strings of the array a is s. */
/* ---- the installation's files ------------------------------------------ */

static char *lib_name(const struct cc_vctx *v, const char *stem)
{
        cc_error e = {0};

        if (v->windows)
                return stem ? cc_asprintf(&e, "cudnn_%s64_%d.dll", stem, v->major)
                            : cc_asprintf(&e, "cudnn64_%d.dll", v->major);
        return stem ? cc_asprintf(&e, "libcudnn_%s.so.%d", stem, v->major)
                    : cc_asprintf(&e, "libcudnn.so.%d", v->major);
}

/* The path of a library file of this installation by name, or NULL. */
const char *cc_vf_find_file(const struct cc_vctx *v, const char *name)
{
        size_t i;

        for (i = 0; i < cc_v_len(v->iv.files); i++) {
                cc_vw_file f;
                const char *p;

                cc_vw_file_at(v->iv.files, i, &f, NULL);
                p = f.path;
                if (p != NULL && (v->windows ? cc_strcasecmp(cc_basename(p), name) : strcmp(cc_basename(p), name)) == 0)
                        return p;
        }
        return NULL;
}

/* Any library file of a role and this major (a versioned name when the
 * SONAME link is missing). */
static const char *find_role(const struct cc_vctx *v, const char *role)
{
        size_t i;

        for (i = 0; i < cc_v_len(v->iv.files); i++) {
                cc_vw_file f;
                const char *k, *r;

                cc_vw_file_at(v->iv.files, i, &f, NULL);
                k = f.kind;
                r = f.role;
                if (k && r && strcmp(r, role) == 0 && strcmp(k, "header") != 0 && strstr(k, "library") != NULL &&
                    strstr(k, "import") == NULL && strstr(k, "static") == NULL && f.major == v->major)
                        return f.path;
        }
        return NULL;
}

static int add_lib(struct cc_vctx *v, const char *stem, int required, cc_error *err)
{
        char *name = lib_name(v, stem), *role = cc_asprintf(err, "cudnn_%s", stem);
        const char *p = NULL;
        int rv = 0;

        if (name == NULL || role == NULL) {
                rv = cc_err(err, CC_ERR_NOMEM, "out of memory");
                goto done;
        }
        p = cc_vf_find_file(v, name);
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

static int gather_files(struct cc_vctx *v, cc_error *err)
{
        const cc_value *majors = v->iv.majors, *files = v->iv.files;
        const char *shim;
        char *name;
        size_t i;

        v->windows = v->iv.system && strcmp(v->iv.system, "windows") == 0;
        for (i = 0; i < cc_v_len(majors); i++)
                if (cc_v_as_int(cc_v_at(majors, i)) > v->major)
                        v->major = (int)cc_v_as_int(cc_v_at(majors, i));
        name = lib_name(v, NULL);
        if (name == NULL)
                return cc_err(err, CC_ERR_NOMEM, "out of memory");
        shim = cc_vf_find_file(v, name);
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
                v->lib_dir = cc_dirname(v->shim, 1, err);
        else if (v->lib_paths.n > 0)
                v->lib_dir = cc_dirname(v->lib_paths.v[0], 1, err);
        for (i = 0; i < cc_v_len(files); i++) {
                cc_vw_file f;
                const char *p;

                cc_vw_file_at(files, i, &f, NULL);
                p = f.path;
                if (p != NULL && cc_strcasecmp(cc_basename(p), "cudnn.h") == 0) {
                        v->include_dir = cc_dirname(p, 1, err);
                        break;
                }
        }
        return 0;
fail:
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
        struct cc_vctx v;
        cudnnctl_value *list = NULL;
        cc_value *doc = NULL, *chosen_by = NULL, *inst = NULL, *summary = NULL, *dnn = NULL;
        const cc_value *picked;
        cc_vw_provenance pv;
        int64_t t0 = cc_monotonic_us();
        const char *verdict;
        int rc, rv = -1, started = 0;
        struct cc_vf_compile comp;

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
        if (listed != NULL) {
                /* the caller listed the machine already (the doctor) */
                list = cc_v_copy(listed, err);
                rc = list ? 0 : -1;
        } else {
                rc = cc_pick_list(m, opts->install, &list, err);
        }
        if (rc < 0)
                return -1;
        picked = cc_pick_installation(m, list, opts->install, &chosen_by, err);
        if (picked == NULL)
                goto fail;
        v.inst = cc_v_copy(picked, err);
        if (v.inst == NULL)
                goto fail;
        cc_vw_installation_read(v.inst, &v.iv, NULL);
        cc_vw_provenance_read(v.iv.provenance, &pv, NULL);
        TRY(gather_files(&v, err));
        doc = cc_doc_new("verify", m, err);
        v.layers = cc_v_array(err);
        inst = cc_v_object(err);
        if (doc == NULL || v.layers == NULL || inst == NULL)
                goto fail;
        TRY(cc_v_set_int(inst, CC_K(verify_installation, id), v.iv.id, err));
        TRY(cc_v_set_str(inst, CC_K(verify_installation, prefix), v.iv.prefix, err));
        TRY(cc_v_set_str(inst, CC_K(verify_installation, version), v.iv.version, err));
        TRY(cc_v_set_str(inst, CC_K(verify_installation, full_version), v.iv.full_version, err));
        TRY(cc_v_set_str(inst, CC_K(verify_installation, provenance), pv.kind, err));
        TRY(cc_v_set_int(inst, CC_K(verify_installation, major), v.major, err));
        TRY(cc_v_set_str(inst, CC_K(verify_installation, lib_dir), v.lib_dir, err));
        TRY(cc_v_set_str(inst, CC_K(verify_installation, include_dir), v.include_dir, err));
        TRY(cc_v_set(inst, CC_K(verify_installation, chosen_by), chosen_by, err));
        chosen_by = NULL;
        TRY(cc_v_set(doc, CC_K(verify_doc, installation), inst, err));
        inst = NULL;
        TRY(cc_v_set_str(doc, CC_K(verify_doc, gpu_requested),
                         opts->gpu == CUDNNCTL_GPU_ON    ? "on"
                         : opts->gpu == CUDNNCTL_GPU_OFF ? "off"
                                                         : "auto",
                         err));
        TRY(cc_vf_layer_static(&v, err));
        started = 1; /* from here the fail path ends the job and frees it */
        TRY(cc_vf_compile_start(&v, &comp, err));
        TRY(cc_vf_layer_runtime(&v, doc, &dnn, err));
        started = 0;
        TRY(cc_vf_layer_compile(&v, doc, dnn, &comp, err));
        TRY(cc_v_set(doc, CC_K(verify_doc, layers), v.layers, err));
        v.layers = NULL;
        summary = cc_v_object(err);
        if (summary == NULL)
                goto fail;
        verdict = v.nfailed > 0 ? "failed" : v.nnot > 0 ? "passed-with-unchecked" : "passed";
        TRY(cc_v_set_str(summary, CC_K(verify_summary, verdict), verdict, err));
        TRY(cc_v_set_int(summary, CC_K(verify_summary, failed), v.nfailed, err));
        TRY(cc_v_set_int(summary, CC_K(verify_summary, not_checked), v.nnot, err));
        TRY(cc_v_set_int(summary, CC_K(verify_summary, wall_ms), (cc_monotonic_us() - t0) / 1000, err));
        TRY(cc_v_set(doc, CC_K(verify_doc, summary), summary, err));
        summary = NULL;
        *out = doc;
        doc = NULL;
        rv = 0;
fail:
        if (started) /* the compile proof's child ends before its strings go */
                (void)cc_vf_layer_compile(NULL, NULL, NULL, &comp, NULL);
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
