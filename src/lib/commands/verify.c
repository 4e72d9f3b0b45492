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
#include "toolkits.h"
#include "verify_int.h"

#include "../install/source.h"

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

/* ---- the CUDA variants of the Windows installer's layout ----------------- */

/* The CUDA variant directory (bin\12.9\, include\12.9\, lib\12.9\x64\) a
 * path of the installation is in: its index in variants, -1 in none. */
static int variant_at(const char *prefix, const char *path, const cc_value *variants)
{
        size_t pl, i, n;
        const char *rest, *sep;

        if (prefix == NULL || path == NULL)
                return -1;
        pl = strlen(prefix);
        if (cc_strncasecmp(path, prefix, pl) != 0 || (path[pl] != '\\' && path[pl] != '/'))
                return -1;
        rest = path + pl + 1;
        sep = strpbrk(rest, "\\/"); /* past bin, include, lib */
        if (sep == NULL)
                return -1;
        rest = sep + 1;
        n = strcspn(rest, "\\/");
        if (rest[n] == '\0')
                return -1; /* a file directly in bin */
        for (i = 0; i < cc_v_len(variants); i++) {
                const char *v = cc_v_as_str(cc_v_at(variants, i));

                if (v != NULL && strlen(v) == n && cc_strncasecmp(rest, v, n) == 0)
                        return (int)i;
        }
        return -1;
}

/* Keep the elements of the array key of inst whose path (field) is in
 * variant k or in no variant's directory. */
static int keep_variant(cc_value *inst, const char *key, const char *field, const char *prefix,
                        const cc_value *variants, int k, cc_error *err)
{
        cc_value *old = cc_v_take(inst, key), *keep;
        size_t i;

        if (old == NULL)
                return 0;
        keep = cc_v_array(err);
        for (i = 0; keep != NULL && i < cc_v_len(old); i++) {
                const cc_value *e = cc_v_at(old, i);
                int at = variant_at(prefix, cc_v_get_str(e, field), variants);

                if ((at < 0 || at == k) && cc_v_push(keep, cc_v_copy(e, err), err) < 0) {
                        cc_v_free(old);
                        cc_v_free(keep);
                        return -1;
                }
        }
        cc_v_free(old);
        return cc_v_set(inst, key, keep, err);
}

/* The installation's facts as one CUDA variant's set: its files and version
 * evidence, and those in no variant's directory. */
static cc_value *variant_inst(const cc_value *inst, const cc_vw_installation *iv, int k, cc_error *err)
{
        cc_value *c = cc_v_copy(inst, err);

        if (c == NULL || keep_variant(c, "files", "path", iv->prefix, iv->cuda_variants, k, err) < 0 ||
            keep_variant(c, "versions", "file", iv->prefix, iv->cuda_variants, k, err) < 0) {
                cc_v_free(c);
                return NULL;
        }
        return c;
}

/* The variants as "12.9, 13.0". */
static char *variant_list(const cc_value *variants, cc_error *err)
{
        cc_buf b = {0};
        size_t i;

        for (i = 0; i < cc_v_len(variants); i++)
                if (cc_buf_printf(&b, err, "%s%s", i ? ", " : "", cc_v_as_str(cc_v_at(variants, i))) < 0) {
                        cc_buf_free(&b);
                        return NULL;
                }
        return b.data ? cc_buf_steal(&b) : cc_strdup(err, "");
}

static int pick_among(const cc_value *variants, const char *want, int by_major)
{
        const char *names[64];
        size_t i, n = cc_v_len(variants);

        if (n > CC_ARRAY_LEN(names))
                n = CC_ARRAY_LEN(names);
        for (i = 0; i < n; i++)
                names[i] = cc_v_as_str(cc_v_at(variants, i)) ? cc_v_as_str(cc_v_at(variants, i)) : "";
        return cc_cuda_variant_pick(names, n, want, by_major);
}

/* Which variants to verify: *one the index of the one (-1: every one) and
 * *why one line saying how it was chosen (caller frees). -1 when --cuda
 * names none of them (CC_ERR_NOTFOUND). */
static int choose_variant(cc_machine *m, const cudnnctl_verify_options *o, const cc_vw_installation *iv, int *one,
                          char **why, cc_error *err)
{
        const cc_value *vs = iv->cuda_variants;
        cc_value *tks = NULL;
        const char *cpath;
        size_t i, known = 0;
        int k = -1, rv = -1;
        char *list = NULL;
        cc_vw_toolkit use;

        *one = -1;
        *why = NULL;
        if (o->cuda != NULL) {
                k = pick_among(vs, o->cuda, 0);
                if (k < 0) {
                        list = variant_list(vs, err);
                        if (list != NULL)
                                cc_err(err, CC_ERR_NOTFOUND, "%s: no cuDNN build for CUDA %s there (it has %s)",
                                       iv->prefix, o->cuda, list);
                        goto done;
                }
                *one = k;
                *why = cc_asprintf(err, "--cuda %s", o->cuda);
                rv = *why ? 0 : -1;
                goto done;
        }
        if (cc_v_len(vs) == 1) {
                *one = 0;
                *why = cc_strdup(err, "the only CUDA variant there");
                rv = *why ? 0 : -1;
                goto done;
        }
        if (o->install != NULL && (k = variant_at(iv->prefix, o->install, vs)) >= 0) {
                *one = k;
                *why = cc_asprintf(err, "INSTALL %s is in its directory", o->install);
                rv = *why ? 0 : -1;
                goto done;
        }
        /* the toolkit a plain program uses: CUDA_PATH's, else the only one */
        tks = cc_toolkit_facts(m, err);
        if (tks == NULL)
                goto done;
        memset(&use, 0, sizeof(use));
        cpath = cc_machine_getenv(m, "CUDA_PATH");
        for (i = 0; i < cc_v_len(tks); i++) {
                cc_vw_toolkit t;
                size_t a;
                int named = 0;

                cc_vw_toolkit_at(tks, i, &t, NULL);
                if (t.version == NULL)
                        continue;
                known++;
                if (use.prefix == NULL)
                        use = t;
                if (cpath != NULL && *cpath) {
                        named = cc_tree_path_eq(m->tree, t.prefix, cpath);
                        for (a = 0; a < cc_v_len(t.aliases) && !named; a++)
                                named = cc_tree_path_eq(m->tree, cc_v_as_str(cc_v_at(t.aliases, a)), cpath);
                        if (named) {
                                use = t;
                                known = 1;
                                break;
                        }
                }
        }
        if (use.prefix != NULL && known == 1 && (k = pick_among(vs, use.version, 1)) >= 0) {
                *one = k;
                *why = cpath != NULL && *cpath && cc_tree_path_eq(m->tree, use.prefix, cpath)
                           ? cc_asprintf(err, "CUDA_PATH's toolkit %s is CUDA %s", use.prefix, use.version)
                           : cc_asprintf(err, "the toolkit %s (CUDA %s), the one found", use.prefix, use.version);
                rv = *why ? 0 : -1;
                goto done;
        }
        list = variant_list(vs, err);
        if (list == NULL)
                goto done;
        if (use.prefix != NULL && known == 1)
                *why = cc_asprintf(err, "the toolkit %s is CUDA %s, which none of %s is for: every one is verified",
                                   use.prefix, use.version, list);
        else
                *why = cc_asprintf(err,
                                   "%s: every one is verified (no CUDA_PATH toolkit and %zu toolkits of a known "
                                   "version: --cuda chooses one)",
                                   list, known);
        rv = *why ? 0 : -1;
done:
        cc_v_free(tks);
        free(list);
        return rv;
}

/* ---- the document --------------------------------------------------------- */

static void vctx_free(struct cc_vctx *v)
{
        cc_v_free(v->inst);
        cc_v_free(v->layers);
        free(v->lib_dir);
        free(v->include_dir);
        free(v->shim);
        free(v->header_file);
        cc_strv_free(&v->lib_stems);
        cc_strv_free(&v->lib_paths);
        cc_strv_free(&v->missing);
        memset(v, 0, sizeof(*v));
}

/* One set of files verified, every layer: v (zeroed) takes inst; its
 * layers go to v->layers, the probes' and the compile proof's facts to
 * doc. */
static int verify_set(cc_machine *m, const cudnnctl_verify_options *opts, cc_vf_driver *driver, cc_value *inst,
                      cc_value *doc, struct cc_vctx *v, cc_error *err)
{
        struct cc_vf_compile comp;
        cc_value *dnn = NULL;
        int started = 0, rv = -1;

        v->m = m;
        v->o = opts;
        v->driver = driver;
        v->inst = inst;
        cc_vw_installation_read(v->inst, &v->iv, NULL);
        v->layers = cc_v_array(err);
        if (v->layers == NULL)
                return -1;
        TRY(gather_files(v, err));
        TRY(cc_vf_layer_static(v, err));
        started = 1; /* from here the fail path ends the job and frees it */
        TRY(cc_vf_compile_start(v, &comp, err));
        TRY(cc_vf_layer_runtime(v, doc, &dnn, err));
        started = 0;
        TRY(cc_vf_layer_compile(v, doc, dnn, &comp, err));
        rv = 0;
fail:
        if (started) /* the compile proof's child ends before its strings go */
                (void)cc_vf_layer_compile(NULL, NULL, NULL, &comp, NULL);
        cc_v_free(dnn);
        return rv;
}

static const char *verdict_of(int nfailed, int nnot)
{
        return nfailed > 0 ? "failed" : nnot > 0 ? "passed-with-unchecked" : "passed";
}

void cc_vf_driver_free(cc_vf_driver *d)
{
        cc_v_free(d->answer);
        cc_sync_free(d->s);
        memset(d, 0, sizeof(*d));
}

int cudnnctl_verify(cudnnctl_machine *m, const cudnnctl_verify_options *opts, cudnnctl_value **out, cudnnctl_error *err)
{
        return cc_verify_listed(m, opts, NULL, NULL, out, err);
}

int cc_verify_listed(cc_machine *m, const cudnnctl_verify_options *opts, const cc_value *listed, cc_vf_driver *driver,
                     cc_value **out, cc_error *err)
{
        cudnnctl_verify_options defaults;
        struct cc_vctx v;
        cc_vw_installation iv;
        cudnnctl_value *list = NULL;
        cc_value *doc = NULL, *chosen_by = NULL, *inst = NULL, *summary = NULL, *layers = NULL, *variants = NULL,
                 *scratch = NULL, *one_inst = NULL;
        cc_vf_driver own_driver = {0};
        const cc_value *picked;
        cc_vw_provenance pv;
        int64_t t0 = cc_monotonic_us();
        char *why = NULL;
        int rc, rv = -1, one = -1, nfailed = 0, nnot = 0, major = 0;
        size_t k, nvar, nsets = 0;

        if (out == NULL || m == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_verify: no machine or no place for the result");
        *out = NULL;
        if (opts == NULL) {
                memset(&defaults, 0, sizeof(defaults));
                opts = &defaults;
        }
        memset(&v, 0, sizeof(v));
        if (driver == NULL)
                driver = &own_driver; /* one driver probe for every variant */
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
        cc_vw_installation_read(picked, &iv, NULL);
        cc_vw_provenance_read(iv.provenance, &pv, NULL);
        nvar = cc_v_len(iv.cuda_variants);
        if (nvar == 0 && opts->cuda != NULL) {
                cc_err(err, CC_ERR_USAGE,
                       "%s: --cuda %s: this installation has no directory per CUDA version (the Windows "
                       "installer's bin\\12.9\\, bin\\13.0\\...) to choose from",
                       iv.prefix ? iv.prefix : "the installation", opts->cuda);
                goto fail;
        }
        if (nvar > 0 && choose_variant(m, opts, &iv, &one, &why, err) < 0)
                goto fail;
        doc = cc_doc_new("verify", m, err);
        layers = cc_v_array(err);
        inst = cc_v_object(err);
        if (doc == NULL || layers == NULL || inst == NULL)
                goto fail;
        if (nvar > 0 && (variants = cc_v_array(err)) == NULL)
                goto fail;
        /* each set: the installation, or each CUDA variant verified */
        for (k = 0; k < (nvar > 0 ? nvar : 1); k++) {
                const char *vname = nvar > 0 ? cc_v_as_str(cc_v_at(iv.cuda_variants, k)) : NULL;
                cc_value *vi, *ve = NULL;
                size_t l;
                char hb[32];

                if (nvar > 0 && one >= 0 && (int)k != one)
                        continue;
                vi = nvar > 0 ? variant_inst(picked, &iv, (int)k, err) : cc_v_copy(picked, err);
                scratch = cc_v_object(err);
                if (vi == NULL || scratch == NULL) {
                        cc_v_free(vi);
                        goto fail;
                }
                v.cuda_variant = vname;
                if (verify_set(m, opts, driver, vi, scratch, &v, err) < 0)
                        goto fail;
                for (l = 0; vname != NULL && l < cc_v_len(v.layers); l++)
                        TRY(cc_v_set_str(cc_v_atm(v.layers, l), CC_K(layer, cuda_variant), vname, err));
                TRY(cc_v_concat(layers, v.layers, err));
                v.layers = NULL;
                nfailed += v.nfailed;
                nnot += v.nnot;
                if (nsets == 0) {
                        /* the installation's directories: the (first) set's */
                        TRY(cc_v_set_str(inst, CC_K(verify_installation, lib_dir), v.lib_dir, err));
                        TRY(cc_v_set_str(inst, CC_K(verify_installation, include_dir), v.include_dir, err));
                        major = v.major;
                }
                if (vname != NULL) {
                        ve = cc_v_object(err);
                        if (cc_v_push(variants, ve, err) < 0)
                                goto fail;
                        TRY(cc_v_set_str(ve, CC_K(verify_variant, cuda_variant), vname, err));
                        TRY(cc_v_set_str(ve, CC_K(verify_variant, version),
                                         v.header.n ? cc_vf_vstr(&v.header, hb, sizeof(hb)) : NULL, err));
                        TRY(cc_v_set_str(ve, CC_K(verify_variant, lib_dir), v.lib_dir, err));
                        TRY(cc_v_set_str(ve, CC_K(verify_variant, include_dir), v.include_dir, err));
                        TRY(cc_v_set_str(ve, CC_K(verify_variant, verdict), verdict_of(v.nfailed, v.nnot), err));
                        TRY(cc_v_set_int(ve, CC_K(verify_variant, failed), v.nfailed, err));
                        TRY(cc_v_set_int(ve, CC_K(verify_variant, not_checked), v.nnot, err));
                }
                /* the probes and the compile proof: the document's for one
                 * set, each variant's own for several */
                if (one >= 0 || nvar == 0) {
                        one_inst = scratch;
                        scratch = NULL;
                } else {
                        cc_value *pr = cc_v_take(scratch, "probes"), *co = cc_v_take(scratch, "compile");

                        if (pr != NULL && cc_v_set(ve, CC_K(verify_variant, probes), pr, err) < 0) {
                                cc_v_free(co);
                                goto fail;
                        }
                        if (co != NULL && cc_v_set(ve, CC_K(verify_variant, compile), co, err) < 0)
                                goto fail;
                        cc_v_free(scratch);
                        scratch = NULL;
                }
                vctx_free(&v);
                nsets++;
        }
        TRY(cc_v_set_int(inst, CC_K(verify_installation, id), iv.id, err));
        TRY(cc_v_set_str(inst, CC_K(verify_installation, prefix), iv.prefix, err));
        TRY(cc_v_set_str(inst, CC_K(verify_installation, version), iv.version, err));
        TRY(cc_v_set_str(inst, CC_K(verify_installation, full_version), iv.full_version, err));
        TRY(cc_v_set_str(inst, CC_K(verify_installation, provenance), pv.kind, err));
        TRY(cc_v_set_int(inst, CC_K(verify_installation, major), major, err));
        TRY(cc_v_set(inst, CC_K(verify_installation, chosen_by), chosen_by, err));
        chosen_by = NULL;
        if (nvar > 0) {
                TRY(cc_v_set(inst, CC_K(verify_installation, cuda_variants), cc_v_copy(iv.cuda_variants, err), err));
                TRY(one >= 0 ? cc_v_set_str(inst, CC_K(verify_installation, cuda_variant),
                                            cc_v_as_str(cc_v_at(iv.cuda_variants, (size_t)one)), err)
                             : cc_v_set_null(inst, CC_K(verify_installation, cuda_variant), err));
                TRY(cc_v_set_str(inst, CC_K(verify_installation, variant_chosen_by), why, err));
        }
        TRY(cc_v_set(doc, CC_K(verify_doc, installation), inst, err));
        inst = NULL;
        TRY(cc_v_set_str(doc, CC_K(verify_doc, gpu_requested),
                         opts->gpu == CUDNNCTL_GPU_ON    ? "on"
                         : opts->gpu == CUDNNCTL_GPU_OFF ? "off"
                                                         : "auto",
                         err));
        TRY(cc_v_set(doc, CC_K(verify_doc, layers), layers, err));
        layers = NULL;
        if (one_inst != NULL) {
                cc_value *pr = cc_v_take(one_inst, "probes"), *co = cc_v_take(one_inst, "compile");

                if (pr != NULL && cc_v_set(doc, CC_K(verify_doc, probes), pr, err) < 0) {
                        cc_v_free(co);
                        goto fail;
                }
                if (co != NULL && cc_v_set(doc, CC_K(verify_doc, compile), co, err) < 0)
                        goto fail;
        }
        if (variants != NULL) {
                TRY(cc_v_set(doc, CC_K(verify_doc, variants), variants, err));
                variants = NULL;
        }
        summary = cc_v_object(err);
        if (summary == NULL)
                goto fail;
        TRY(cc_v_set_str(summary, CC_K(verify_summary, verdict), verdict_of(nfailed, nnot), err));
        TRY(cc_v_set_int(summary, CC_K(verify_summary, failed), nfailed, err));
        TRY(cc_v_set_int(summary, CC_K(verify_summary, not_checked), nnot, err));
        TRY(cc_v_set_int(summary, CC_K(verify_summary, wall_ms), (cc_monotonic_us() - t0) / 1000, err));
        TRY(cc_v_set(doc, CC_K(verify_doc, summary), summary, err));
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
        cc_v_free(layers);
        cc_v_free(variants);
        cc_v_free(scratch);
        cc_v_free(one_inst);
        cc_vf_driver_free(&own_driver);
        free(why);
        vctx_free(&v);
        return rv;
}
