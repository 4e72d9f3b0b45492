/* cudnnctl compat: questions to the knowledge base, answered from the
 * compiled-in tables through the query layer (kb/query.h), as a fact tree
 * (docs/json.md, command "compat"). Every answer has its question, verdict,
 * reason and source; what the tables cannot answer is "unknown". */
#include <stdio.h>
#include <string.h>

#include "kb/kb.h"
#include "facts/views.h"
#include "kb/query.h"
#include "value.h"

struct compat {
        const cudnnctl_compat_options *o;
        cudnnctl_ver cuda, cudnn, driver;
        int sm;
        cc_value *answers;
        int yes, no, unknown;
        cc_error *err;
};

static const char *verdict_name(int v)
{
        return v == CC_KB_YES ? "yes" : v == CC_KB_NO ? "no" : "unknown";
}

static const char *vstr(const cudnnctl_ver *v, char *buf, size_t size)
{
        return cudnnctl_ver_str(v, buf, size);
}

static const char *os_name(int system)
{
        return system == CUDNNCTL_SYSTEM_WINDOWS ? "windows" : "linux";
}

/* The system a driver version is read for: --os, or this system. */
static int driver_system(const struct compat *c)
{
        if (c->o->system != CUDNNCTL_SYSTEM_HOST)
                return c->o->system;
#if defined(_WIN32)
        return CUDNNCTL_SYSTEM_WINDOWS;
#else
        return CUDNNCTL_SYSTEM_LINUX;
#endif
}

/* A new answer object (added to the list by done()). */
static cc_value *answer(struct compat *c, const char *id, const char *question, const cc_kb_answer *a)
{
        cc_value *o = cc_v_object(c->err);

        if (o == NULL)
                return NULL;
        if (cc_v_set_str(o, "id", id, c->err) < 0 || cc_v_set_str(o, "question", question, c->err) < 0 ||
            cc_v_set_str(o, "verdict", verdict_name(a->verdict), c->err) < 0 ||
            cc_v_set_str(o, "reason", a->reason, c->err) < 0 ||
            cc_v_set_str(o, "source", a->source[0] ? a->source : NULL, c->err) < 0) {
                cc_v_free(o);
                return NULL;
        }
        return o;
}

static int done(struct compat *c, cc_value *o, int verdict)
{
        if (o == NULL)
                return -1;
        c->yes += verdict == CC_KB_YES;
        c->no += verdict == CC_KB_NO;
        c->unknown += verdict == CC_KB_UNKNOWN;
        return cc_v_push(c->answers, o, c->err);
}

static int set_ver(cc_value *o, const char *key, const cudnnctl_ver *v, cc_error *err)
{
        char b[64];

        return cc_v_set_str(o, key, v->n ? vstr(v, b, sizeof(b)) : NULL, err);
}

/* A driver version as NVIDIA writes it ("470.57.02"). */
static int set_drv(cc_value *o, const char *key, const cudnnctl_ver *v, cc_error *err)
{
        char b[64];
        size_t off = 0;
        int i;

        if (v->n == 0)
                return cc_v_set_null(o, key, err);
        for (i = 0; i < v->n; i++) {
                int w = snprintf(b + off, sizeof(b) - off, i ? ".%02ld" : "%ld", v->part[i]);

                if (w < 0 || (size_t)w >= sizeof(b) - off)
                        break;
                off += (size_t)w;
        }
        return cc_v_set_str(o, key, b, err);
}

/* ---- the GPU -------------------------------------------------------------- */

static int ask_gpu(struct compat *c)
{
        cc_kb_answer a = {0};
        cc_value *o;
        char q[200], cb[16];
        int by_name;

        snprintf(q, sizeof(q), "What is the compute capability of '%s'?", c->o->gpu);
        c->sm = cc_kb_gpu_sm(c->o->gpu);
        snprintf(cb, sizeof(cb), "%d.%d", c->sm / 10, c->sm % 10);
        by_name = c->sm > 0 && cc_kb_gpu_sm_is_name(c->o->gpu);
        if (c->sm > 0) {
                a.verdict = CC_KB_YES;
                snprintf(a.reason, sizeof(a.reason), "'%s' is compute capability %s (sm_%d)%s", c->o->gpu, cb, c->sm,
                         by_name ? ", from the GPU table" : "");
                if (by_name)
                        snprintf(a.source, sizeof(a.source), "GPU");
        } else {
                a.verdict = CC_KB_UNKNOWN;
                snprintf(a.reason, sizeof(a.reason),
                         "'%s' is not in the GPU table and not a compute capability (give sm_XY, such as sm_90)",
                         c->o->gpu);
        }
        o = answer(c, "gpu", q, &a);
        if (o != NULL && (cc_v_set_str(o, "gpu", c->o->gpu, c->err) < 0 ||
                          (c->sm > 0 ? cc_v_set_int(o, "sm", c->sm, c->err) : cc_v_set_null(o, "sm", c->err)) < 0 ||
                          cc_v_set_str(o, "compute_capability", c->sm > 0 ? cb : NULL, c->err) < 0)) {
                cc_v_free(o);
                o = NULL;
        }
        return done(c, o, a.verdict);
}

/* ---- CUDA <-> cuDNN --------------------------------------------------------- */

/* How a releases row serves CUDA `cuda`: 2 built for it, 1 through its
 * major ("11.x"), 0 not. */
static int row_serves(const cc_kb_table *t, size_t r, const cudnnctl_ver *cuda)
{
        const char *serves = cc_kb_cell(t, r, "serves"), *build = cc_kb_cell(t, r, "cuda_build");
        cudnnctl_ver s, b;

        if (serves == NULL || build == NULL || cudnnctl_ver_parse(build, &b) < 0)
                return 0;
        if (b.n >= 2 && b.part[0] == cuda->part[0] && cuda->n >= 2 && b.part[1] == cuda->part[1])
                return 2;
        if (cc_ends_with(serves, ".x")) {
                char maj[16];

                snprintf(maj, sizeof(maj), "%.*s", (int)(strlen(serves) - 2), serves);
                return cudnnctl_ver_parse(maj, &s) == 0 && s.part[0] == cuda->part[0] ? 1 : 0;
        }
        if (cudnnctl_ver_parse(serves, &s) < 0)
                return 0;
        return s.part[0] == cuda->part[0] && (cuda->n < 2 || s.part[1] == cuda->part[1]) && cuda->n >= 2 ? 2 : 0;
}

static int ask_cudnn_for_cuda(struct compat *c)
{
        cc_kb_answer a = {0};
        cc_error e = {0};
        const cc_kb_table *t = cc_kb_get("releases", &e);
        cc_value *o, *list;
        char q[200], cb[48], exact[256] = "", first[48] = "", last[48] = "";
        size_t r, nmajor = 0, nexact = 0;

        vstr(&c->cuda, cb, sizeof(cb));
        snprintf(q, sizeof(q), "Which cuDNN releases pair with CUDA %s?", cb);
        list = cc_v_array(c->err);
        if (list == NULL)
                return -1;
        if (t == NULL) {
                a.verdict = CC_KB_UNKNOWN;
                snprintf(a.reason, sizeof(a.reason), "%s", e.msg);
        }
        for (r = 0; t != NULL && r < t->nrows; r++) {
                int m = row_serves(t, r, &c->cuda);
                const char *f = cc_kb_cell(t, r, "cudnn_first"), *l = cc_kb_cell(t, r, "cudnn_last");
                const char *src = cc_kb_cell(t, r, "source");
                cc_value *e1;

                if (m == 0 || f == NULL)
                        continue;
                e1 = cc_v_object(c->err);
                if (e1 == NULL || cc_v_set_str(e1, "cudnn", f, c->err) < 0 ||
                    cc_v_set_str(e1, "cudnn_last", l != NULL && strcmp(l, f) != 0 ? l : NULL, c->err) < 0 ||
                    cc_v_set_str(e1, "cuda_build", cc_kb_cell(t, r, "cuda_build"), c->err) < 0 ||
                    cc_v_set_str(e1, "match", m == 2 ? "exact" : "major", c->err) < 0 ||
                    cc_v_set_str(e1, "source", src, c->err) < 0) {
                        cc_v_free(e1);
                        cc_v_free(list);
                        return -1;
                }
                if (cc_v_push(list, e1, c->err) < 0) {
                        cc_v_free(list);
                        return -1;
                }
                if (src != NULL && strstr(a.source, src) == NULL)
                        snprintf(a.source + strlen(a.source), sizeof(a.source) - strlen(a.source), "%s%s",
                                 a.source[0] ? "; " : "", src);
                if (m == 2) {
                        size_t n = strlen(exact);

                        snprintf(exact + n, sizeof(exact) - n, "%s%s%s%s (CUDA %s build)", nexact ? ", " : "", f,
                                 l != NULL && strcmp(l, f) != 0 ? "-" : "", l != NULL && strcmp(l, f) != 0 ? l : "",
                                 cc_kb_cell(t, r, "cuda_build"));
                        nexact++;
                } else {
                        if (nmajor == 0)
                                snprintf(first, sizeof(first), "%s", f);
                        snprintf(last, sizeof(last), "%s", l ? l : f);
                        nmajor++;
                }
        }
        if (t != NULL) {
                if (nexact + nmajor == 0) {
                        a.verdict = CC_KB_UNKNOWN;
                        snprintf(a.reason, sizeof(a.reason), "no cuDNN release in the tables was built for CUDA %s",
                                 cb);
                } else {
                        a.verdict = CC_KB_YES;
                        snprintf(a.reason, sizeof(a.reason), "%s%s%s", nexact ? "built for CUDA " : "",
                                 nexact ? cb : "", nexact ? ": " : "");
                        snprintf(a.reason + strlen(a.reason), sizeof(a.reason) - strlen(a.reason), "%s", exact);
                        if (nmajor)
                                snprintf(a.reason + strlen(a.reason), sizeof(a.reason) - strlen(a.reason),
                                         "%sthe CUDA %ld.x builds of %s to %s (%zu rows) serve every CUDA %ld.x "
                                         "release",
                                         nexact ? "; also " : "", c->cuda.part[0], first, last, nmajor,
                                         c->cuda.part[0]);
                }
        }
        o = answer(c, "cudnn-for-cuda", q, &a);
        if (o == NULL || cc_v_set_str(o, "cuda", cb, c->err) < 0) {
                cc_v_free(o);
                cc_v_free(list);
                return -1;
        }
        if (cc_v_set(o, "releases", list, c->err) < 0) {
                cc_v_free(o);
                return -1;
        }
        return done(c, o, a.verdict);
}

/* Does cuDNN have a build for CUDA? */
static int ask_cudnn_pairs_cuda(struct compat *c)
{
        cc_kb_answer b, a = {0};
        cc_strv builds = {0};
        cc_error e = {0};
        const cc_kb_table *t = cc_kb_get("releases", &e);
        char q[200], cb[48], nb[48], match[64] = "";
        size_t r;
        int best = 0;
        cc_value *o;

        vstr(&c->cuda, cb, sizeof(cb));
        vstr(&c->cudnn, nb, sizeof(nb));
        snprintf(q, sizeof(q), "Does cuDNN %s have a build for CUDA %s?", nb, cb);
        cc_kb_cudnn_cuda_builds(&c->cudnn, &builds, &b);
        snprintf(a.source, sizeof(a.source), "%s", b.source);
        if (b.verdict != CC_KB_YES || t == NULL) {
                a.verdict = CC_KB_UNKNOWN;
                snprintf(a.reason, sizeof(a.reason), "%s", t == NULL ? e.msg : b.reason);
        } else {
                /* the release's rows: the best way one serves this CUDA */
                for (r = 0; r < t->nrows; r++) {
                        cudnnctl_ver f, l;
                        const char *fs = cc_kb_cell(t, r, "cudnn_first"), *ls = cc_kb_cell(t, r, "cudnn_last");
                        int k = c->cudnn.n < 3 ? c->cudnn.n : 3, m, i;
                        int in = 1;

                        if (fs == NULL || cudnnctl_ver_parse(fs, &f) < 0 || cudnnctl_ver_parse(ls ? ls : fs, &l) < 0)
                                continue;
                        for (i = 0; i < 4; i++) {
                                if (i >= k) {
                                        f.part[i] = l.part[i] = 0;
                                }
                        }
                        f.n = l.n = k;
                        {
                                cudnnctl_ver x = c->cudnn;

                                for (i = k; i < 4; i++)
                                        x.part[i] = 0;
                                x.n = k;
                                in = cudnnctl_ver_cmp(&f, &x) <= 0 && cudnnctl_ver_cmp(&x, &l) <= 0;
                        }
                        if (!in)
                                continue;
                        m = row_serves(t, r, &c->cuda);
                        if (m > best) {
                                best = m;
                                snprintf(match, sizeof(match), "%s", cc_kb_cell(t, r, "cuda_build"));
                        }
                }
                if (best == 2) {
                        a.verdict = CC_KB_YES;
                        snprintf(a.reason, sizeof(a.reason), "cuDNN %s has a CUDA %s build", nb, match);
                } else if (best == 1) {
                        a.verdict = CC_KB_YES;
                        snprintf(a.reason, sizeof(a.reason),
                                 "cuDNN %s's CUDA %s build serves every CUDA %ld.x release, %s included", nb, match,
                                 c->cuda.part[0], cb);
                } else {
                        a.verdict = CC_KB_NO;
                        snprintf(a.reason, sizeof(a.reason), "cuDNN %s has no build for CUDA %s: %.380s", nb, cb,
                                 b.reason);
                }
        }
        o = answer(c, "cudnn-pairs-cuda", q, &a);
        if (o != NULL && (cc_v_set_str(o, "cuda", cb, c->err) < 0 || cc_v_set_str(o, "cudnn", nb, c->err) < 0 ||
                          cc_v_set(o, "builds", cc_v_strv(&builds, c->err), c->err) < 0 ||
                          cc_v_set_str(o, "cuda_build", best ? match : NULL, c->err) < 0)) {
                cc_v_free(o);
                o = NULL;
        }
        cc_strv_free(&builds);
        return done(c, o, a.verdict);
}

static int ask_builds_of_cudnn(struct compat *c)
{
        cc_kb_answer a;
        cc_strv builds = {0};
        char q[200], nb[48];
        cc_value *o;

        vstr(&c->cudnn, nb, sizeof(nb));
        snprintf(q, sizeof(q), "Which CUDA builds does cuDNN %s have?", nb);
        cc_kb_cudnn_cuda_builds(&c->cudnn, &builds, &a);
        o = answer(c, "cuda-builds-of-cudnn", q, &a);
        if (o != NULL && (cc_v_set_str(o, "cudnn", nb, c->err) < 0 ||
                          cc_v_set(o, "builds", cc_v_strv(&builds, c->err), c->err) < 0)) {
                cc_v_free(o);
                o = NULL;
        }
        cc_strv_free(&builds);
        return done(c, o, a.verdict);
}

static int ask_known_bad(struct compat *c)
{
        cc_kb_answer general, all, a = {0};
        char q[200], nb[48];
        cc_value *o;

        vstr(&c->cudnn, nb, sizeof(nb));
        snprintf(q, sizeof(q), "Is cuDNN %s free of known problems?", nb);
        cc_kb_cudnn_known_bad_for(&c->cudnn, NULL, &general);
        cc_kb_cudnn_known_bad(&c->cudnn, &all);
        snprintf(a.source, sizeof(a.source), "%s", all.source);
        if (general.verdict == CC_KB_YES) {
                a.verdict = CC_KB_NO;
                snprintf(a.reason, sizeof(a.reason), "%s", general.reason);
        } else if (all.verdict == CC_KB_YES) {
                a.verdict = CC_KB_YES;
                snprintf(a.reason, sizeof(a.reason), "for every program yes; but %.440s", all.reason);
        } else {
                a.verdict = all.verdict == CC_KB_NO ? CC_KB_YES : CC_KB_UNKNOWN;
                snprintf(a.reason, sizeof(a.reason), "%s", all.reason);
        }
        o = answer(c, "cudnn-known-bad", q, &a);
        if (o != NULL && (cc_v_set_str(o, "cudnn", nb, c->err) < 0 ||
                          cc_v_set_bool(o, "listed", all.verdict == CC_KB_YES, c->err) < 0)) {
                cc_v_free(o);
                o = NULL;
        }
        return done(c, o, a.verdict);
}

/* ---- drivers ------------------------------------------------------------------ */

static int ask_driver_for_cuda(struct compat *c, int system)
{
        cc_kb_answer a;
        cudnnctl_ver exact, floor;
        char q[200], cb[48];
        cc_value *o;

        vstr(&c->cuda, cb, sizeof(cb));
        snprintf(q, sizeof(q), "Which %s driver does CUDA %s need?",
                 system == CUDNNCTL_SYSTEM_WINDOWS ? "Windows" : "Linux", cb);
        cc_kb_min_driver(&c->cuda, system, &exact, &floor, &a);
        o = answer(c, "driver-for-cuda", q, &a);
        if (o != NULL &&
            (cc_v_set_str(o, "os", os_name(system), c->err) < 0 || cc_v_set_str(o, "cuda", cb, c->err) < 0 ||
             set_drv(o, "driver_min", &exact, c->err) < 0 || set_drv(o, "driver_floor", &floor, c->err) < 0)) {
                cc_v_free(o);
                o = NULL;
        }
        return done(c, o, a.verdict);
}

static int ask_driver_runs(struct compat *c, const cudnnctl_ver *cuda, const char *id, const char *what)
{
        cc_kb_answer a;
        int system = driver_system(c);
        char q[240], cb[48];
        cc_value *o;

        vstr(cuda, cb, sizeof(cb));
        snprintf(q, sizeof(q), "Does %s driver %s run CUDA %s%s?",
                 system == CUDNNCTL_SYSTEM_WINDOWS ? "Windows" : "Linux", c->o->driver, cb, what);
        cc_kb_driver_runs_cuda(&c->driver, cuda, system, &a);
        o = answer(c, id, q, &a);
        if (o != NULL &&
            (cc_v_set_str(o, "os", os_name(system), c->err) < 0 ||
             cc_v_set_str(o, "driver", c->o->driver, c->err) < 0 || cc_v_set_str(o, "cuda", cb, c->err) < 0)) {
                cc_v_free(o);
                o = NULL;
        }
        return done(c, o, a.verdict);
}

static int ask_driver_max(struct compat *c)
{
        cc_kb_answer a;
        cudnnctl_ver max;
        int system = driver_system(c);
        char q[200];
        cc_value *o;

        snprintf(q, sizeof(q), "Which CUDA versions does %s driver %s support?",
                 system == CUDNNCTL_SYSTEM_WINDOWS ? "Windows" : "Linux", c->o->driver);
        cc_kb_driver_max_cuda(&c->driver, system, &max, &a);
        o = answer(c, "cuda-for-driver", q, &a);
        if (o != NULL &&
            (cc_v_set_str(o, "os", os_name(system), c->err) < 0 ||
             cc_v_set_str(o, "driver", c->o->driver, c->err) < 0 || set_ver(o, "max_cuda", &max, c->err) < 0)) {
                cc_v_free(o);
                o = NULL;
        }
        return done(c, o, a.verdict);
}

/* ---- cuDNN on a GPU ---------------------------------------------------------------- */

static int ask_runs_on(struct compat *c)
{
        cc_kb_answer a;
        char q[240], nb[48], cb[48];
        cc_value *o;

        vstr(&c->cudnn, nb, sizeof(nb));
        vstr(&c->cuda, cb, sizeof(cb));
        if (cc_kb_gpu_sm_is_name(c->o->gpu))
                snprintf(q, sizeof(q), "Does cuDNN %s%s%s run on %s (sm_%d)?", nb, c->cuda.n ? " with CUDA " : "",
                         c->cuda.n ? cb : "", c->o->gpu, c->sm);
        else
                snprintf(q, sizeof(q), "Does cuDNN %s%s%s run on sm_%d?", nb, c->cuda.n ? " with CUDA " : "",
                         c->cuda.n ? cb : "", c->sm);
        cc_kb_cudnn_runs_on(&c->cudnn, &c->cuda, c->sm, &a);
        o = answer(c, "cudnn-runs-on-gpu", q, &a);
        if (o != NULL &&
            (cc_v_set_str(o, "cudnn", nb, c->err) < 0 || cc_v_set_str(o, "cuda", c->cuda.n ? cb : NULL, c->err) < 0 ||
             cc_v_set_int(o, "sm", c->sm, c->err) < 0 ||
             cc_v_set_str(o, CC_K(compat_answer, support),
                          a.verdict != CC_KB_YES ? NULL
                          : a.inferred           ? "binary-compatibility"
                                                 : "listed",
                          c->err) < 0)) {
                cc_v_free(o);
                o = NULL;
        }
        return done(c, o, a.verdict);
}

/* ---- frameworks ------------------------------------------------------------------------ */

static int ask_framework_build(struct compat *c, const char *fw, const char *title, const char *version,
                               const char *variant, int system)
{
        cc_kb_answer a;
        cudnnctl_ver need_cudnn, need_cuda;
        char q[240], id[64], nb[48], cb[48];
        cc_value *o;
        int rc;

        snprintf(q, sizeof(q), "What does %s %s%s%s%s%s need?", title, version, variant[0] ? " " : "", variant,
                 system ? " on " : "", system ? (system == CUDNNCTL_SYSTEM_WINDOWS ? "Windows" : "Linux") : "");
        cc_kb_framework_needs(fw, version, variant, system ? system : CUDNNCTL_SYSTEM_LINUX, &need_cudnn, &need_cuda,
                              &a);
        snprintf(id, sizeof(id), "%s-needs", fw);
        o = answer(c, id, q, &a);
        if (o != NULL &&
            (cc_v_set_str(o, "framework", fw, c->err) < 0 || cc_v_set_str(o, "version", version, c->err) < 0 ||
             cc_v_set_str(o, "variant", variant[0] ? variant : NULL, c->err) < 0 ||
             cc_v_set_str(o, "os", system ? os_name(system) : NULL, c->err) < 0 ||
             set_ver(o, "cudnn", &need_cudnn, c->err) < 0 || set_ver(o, "cuda", &need_cuda, c->err) < 0)) {
                cc_v_free(o);
                o = NULL;
        }
        if ((rc = done(c, o, a.verdict)) < 0 || a.verdict != CC_KB_YES)
                return rc;
        /* cross-checks with the values given */
        if (c->cudnn.n > 0) {
                cc_kb_answer s;

                vstr(&c->cudnn, nb, sizeof(nb));
                snprintf(q, sizeof(q), "Does %s %s%s%s accept cuDNN %s at run time?", title, version,
                         variant[0] ? " " : "", variant, nb);
                cc_kb_cudnn_satisfies(fw, &need_cudnn, &c->cudnn, &s);
                snprintf(id, sizeof(id), "%s-accepts-cudnn", fw);
                o = answer(c, id, q, &s);
                if (o != NULL &&
                    (cc_v_set_str(o, "cudnn", nb, c->err) < 0 || set_ver(o, "build_cudnn", &need_cudnn, c->err) < 0)) {
                        cc_v_free(o);
                        o = NULL;
                }
                if ((rc = done(c, o, s.verdict)) < 0)
                        return rc;
        }
        if (strcmp(fw, "tensorflow") == 0 && c->cuda.n > 0 && need_cuda.n > 0) {
                cc_kb_answer s = {0};

                vstr(&c->cuda, cb, sizeof(cb));
                snprintf(q, sizeof(q), "Does TensorFlow %s fit CUDA %s?", version, cb);
                s.verdict = need_cuda.part[0] == c->cuda.part[0] ? CC_KB_YES : CC_KB_NO;
                snprintf(s.reason, sizeof(s.reason),
                         "TensorFlow %s was built with CUDA %s: it loads the CUDA %ld "
                         "libraries, %s CUDA %s",
                         version, vstr(&need_cuda, nb, sizeof(nb)), need_cuda.part[0],
                         s.verdict == CC_KB_YES ? "the major of" : "not those of", cb);
                snprintf(s.source, sizeof(s.source), "TF");
                o = answer(c, "tensorflow-fits-cuda", q, &s);
                if ((rc = done(c, o, s.verdict)) < 0)
                        return rc;
        }
        if (c->driver.n > 0 && need_cuda.n > 0) {
                char what[160];

                snprintf(what, sizeof(what), " (what %s %s%s%s is built with)", title, version, variant[0] ? " " : "",
                         variant);
                snprintf(id, sizeof(id), "driver-runs-%s", fw);
                if ((rc = ask_driver_runs(c, &need_cuda, id, what)) < 0)
                        return rc;
        }
        return 0;
}

static int ask_torch(struct compat *c)
{
        cc_kb_answer a;
        cc_strv variants = {0};
        const char *plus = strchr(c->o->torch, '+');
        char version[64], want[32] = "";
        size_t i, asked = 0;
        int rc = 0;

        snprintf(version, sizeof(version), "%.*s", plus ? (int)(plus - c->o->torch) : (int)strlen(c->o->torch),
                 c->o->torch);
        if (plus != NULL)
                snprintf(want, sizeof(want), "%s", plus + 1);
        else if (c->cuda.n >= 2)
                snprintf(want, sizeof(want), "cu%ld%ld", c->cuda.part[0], c->cuda.part[1]);
        cc_kb_framework_variants("torch", version, CUDNNCTL_SYSTEM_LINUX, &variants, &a);
        for (i = 0; rc == 0 && i < variants.n; i++) {
                if (want[0] != '\0' && cc_strcasecmp(variants.v[i], want) != 0)
                        continue;
                rc = ask_framework_build(c, "torch", "PyTorch", version, variants.v[i], 0);
                asked++;
        }
        if (rc == 0 && asked == 0) {
                /* not in the tables, or not that variant: one answer that says so */
                rc = ask_framework_build(c, "torch", "PyTorch", version, want, 0);
        }
        cc_strv_free(&variants);
        return rc;
}

static int ask_tf(struct compat *c)
{
        int rc = 0;

        if (c->o->system != CUDNNCTL_SYSTEM_HOST)
                return ask_framework_build(c, "tensorflow", "TensorFlow", c->o->tf, "", c->o->system);
        rc = ask_framework_build(c, "tensorflow", "TensorFlow", c->o->tf, "", CUDNNCTL_SYSTEM_LINUX);
        if (rc == 0)
                rc = ask_framework_build(c, "tensorflow", "TensorFlow", c->o->tf, "", CUDNNCTL_SYSTEM_WINDOWS);
        return rc;
}

/* ---- the document ------------------------------------------------------------------ */

static int parse_opt(const char *what, const char *s, cudnnctl_ver *v, int with_variant, cc_error *err)
{
        char buf[64];
        const char *plus = with_variant && s != NULL ? strchr(s, '+') : NULL;
        size_t n;

        v->n = 0;
        if (s == NULL)
                return 0;
        n = plus ? (size_t)(plus - s) : strlen(s);
        if (n < sizeof(buf)) {
                memcpy(buf, s, n);
                buf[n] = '\0';
                if (cudnnctl_ver_parse(buf, v) == 0 && (plus == NULL || plus[1] != '\0'))
                        return 0;
        }
        return cc_err(err, CC_ERR_USAGE, "%s '%.80s': not a version (like %s)", what, s,
                      strcmp(what, "driver version") == 0       ? "470.57.02"
                      : strcmp(what, "cuDNN version") == 0      ? "8.2.2"
                      : strcmp(what, "PyTorch version") == 0    ? "2.4.1 or 2.4.1+cu121"
                      : strcmp(what, "TensorFlow version") == 0 ? "2.15"
                                                                : "11.4");
}

int cc_compat_tables(const cudnnctl_compat_options *opts, cc_value **out, cc_error *err)
{
        struct compat c;
        cudnnctl_ver tv, tfv;
        cc_value *doc = NULL, *q, *sum;

        *out = NULL;
        memset(&c, 0, sizeof(c));
        c.o = opts;
        c.err = err;
        if (opts->system != CUDNNCTL_SYSTEM_HOST && opts->system != CUDNNCTL_SYSTEM_LINUX &&
            opts->system != CUDNNCTL_SYSTEM_WINDOWS)
                return cc_err(err, CC_ERR_USAGE, "system %d: not linux or windows", opts->system);
        if (parse_opt("CUDA version", opts->cuda, &c.cuda, 0, err) < 0 ||
            parse_opt("cuDNN version", opts->cudnn, &c.cudnn, 0, err) < 0 ||
            parse_opt("driver version", opts->driver, &c.driver, 0, err) < 0 ||
            parse_opt("PyTorch version", opts->torch, &tv, 1, err) < 0 ||
            parse_opt("TensorFlow version", opts->tf, &tfv, 0, err) < 0)
                return -1;
        if (opts->gpu != NULL && opts->gpu[0] == '\0')
                return cc_err(err, CC_ERR_USAGE, "GPU '': give sm_XY or a GPU name");
        doc = cc_v_object(err);
        if (doc == NULL)
                return -1;
        q = cc_v_object(err);
        if (cc_v_set_int(doc, "schema_version", CUDNNCTL_JSON_SCHEMA_VERSION, err) < 0 ||
            cc_v_set_str(doc, "tool", "cudnnctl", err) < 0 ||
            cc_v_set_str(doc, "tool_version", cudnnctl_version(), err) < 0 ||
            cc_v_set_str(doc, "command", "compat", err) < 0 || cc_v_set_str(q, "cuda", opts->cuda, err) < 0 ||
            cc_v_set_str(q, "cudnn", opts->cudnn, err) < 0 || cc_v_set_str(q, "driver", opts->driver, err) < 0 ||
            cc_v_set_str(q, "gpu", opts->gpu, err) < 0 || cc_v_set_str(q, "torch", opts->torch, err) < 0 ||
            cc_v_set_str(q, "tf", opts->tf, err) < 0 ||
            cc_v_set_str(q, "os", opts->system == CUDNNCTL_SYSTEM_HOST ? NULL : os_name(opts->system), err) < 0 ||
            cc_v_set(doc, "query", q, err) < 0)
                goto fail;
        c.answers = cc_v_array(err);
        if (c.answers == NULL)
                goto fail;
        if (opts->gpu != NULL && ask_gpu(&c) < 0)
                goto fail;
        if (c.cuda.n > 0) {
                if (c.cudnn.n == 0 && ask_cudnn_for_cuda(&c) < 0)
                        goto fail;
                if (c.cudnn.n > 0 && ask_cudnn_pairs_cuda(&c) < 0)
                        goto fail;
                if (opts->system == CUDNNCTL_SYSTEM_HOST) {
                        if (ask_driver_for_cuda(&c, CUDNNCTL_SYSTEM_LINUX) < 0 ||
                            ask_driver_for_cuda(&c, CUDNNCTL_SYSTEM_WINDOWS) < 0)
                                goto fail;
                } else if (ask_driver_for_cuda(&c, opts->system) < 0) {
                        goto fail;
                }
                if (c.driver.n > 0 && ask_driver_runs(&c, &c.cuda, "driver-runs-cuda", "") < 0)
                        goto fail;
        }
        if (c.cudnn.n > 0) {
                if (c.cuda.n == 0 && ask_builds_of_cudnn(&c) < 0)
                        goto fail;
                if (ask_known_bad(&c) < 0)
                        goto fail;
                if (c.sm > 0 && ask_runs_on(&c) < 0)
                        goto fail;
        }
        if (c.driver.n > 0 && ask_driver_max(&c) < 0)
                goto fail;
        if (opts->torch != NULL && ask_torch(&c) < 0)
                goto fail;
        if (opts->tf != NULL && ask_tf(&c) < 0)
                goto fail;
        if (cc_v_set(doc, "answers", c.answers, err) < 0) {
                c.answers = NULL;
                goto fail;
        }
        c.answers = NULL;
        sum = cc_v_object(err);
        if (cc_v_set_int(sum, "yes", c.yes, err) < 0 || cc_v_set_int(sum, "no", c.no, err) < 0 ||
            cc_v_set_int(sum, "unknown", c.unknown, err) < 0 ||
            cc_v_set_str(sum, "verdict",
                         c.no        ? "no"
                         : c.unknown ? "unknown"
                                     : "yes",
                         err) < 0 ||
            cc_v_set(doc, "summary", sum, err) < 0)
                goto fail;
        *out = doc;
        return 0;
fail:
        cc_v_free(c.answers);
        cc_v_free(doc);
        return -1;
}
