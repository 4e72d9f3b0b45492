/* The cuDNN plan (see plan.h): every release row of the tables is a
 * candidate, newest first; the first that the driver runs, that supports
 * every GPU, that fits the framework and the toolkit is the answer, and the
 * newer ones it passed over say why not. A framework that loads a pinned
 * wheel is answered with that wheel. */
#include "plan/plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "kb/query.h"

/* ---- candidates --------------------------------------------------------- */

struct cand {
        cudnnctl_ver rel;   /* the release (3 or 4 components) */
        cudnnctl_ver build; /* the CUDA build ("13", "12", "10.2") */
        char build_s[16];
        int serves_major; /* 1: the build serves every minor of its major */
};

/* The reasons a candidate failed, by kind: the newest failure of each kind
 * is what "why not newer" shows. */
enum { WHY_CUDNN, WHY_CUDA, WHY_DRIVER, WHY_GPU, WHY_FW, WHY_TOOLKIT, WHY_N };
static const char *const why_kind[WHY_N] = {"cudnn", "cuda", "driver", "gpu", "framework", "toolkit"};

struct eval {
        int ok;
        int kind;             /* WHY_* of the failure */
        char reason[640];     /* the failure, or "" */
        char source[256];     /* its sources */
        int inferred;         /* some GPU only by binary compatibility */
        cudnnctl_ver use;     /* the CUDA it runs with (MAJOR.MINOR) */
        char gpu_reason[640]; /* the GPU answer(s) when ok */
        char gpu_source[256];
};

struct plan {
        const cc_plan_input *in;
        struct cand *c;
        size_t n, cap;
        cudnnctl_ver driver; /* n == 0: none */
        cudnnctl_ver want_cuda, want_cudnn;
        const cc_plan_framework *fw; /* the framework that constrains the choice, or NULL */
        cc_value *why;               /* [{about, text, source}] */
        cc_error *err;
};

static void cat(char *dst, size_t size, const char *fmt, ...) CC_PRINTF(3, 4);

static void cat(char *dst, size_t size, const char *fmt, ...)
{
        size_t len = strlen(dst);
        va_list ap;

        if (len + 1 >= size)
                return;
        va_start(ap, fmt);
        vsnprintf(dst + len, size - len, fmt, ap);
        va_end(ap);
}

static const char *vs(const cudnnctl_ver *v, char *b, size_t n)
{
        return cudnnctl_ver_str(v, b, n);
}

static cudnnctl_ver trunc_ver(const cudnnctl_ver *v, int k)
{
        cudnnctl_ver r = *v;
        int i;

        if (r.n > k)
                r.n = k;
        for (i = r.n; i < 4; i++)
                r.part[i] = 0;
        return r;
}

static int add_cand(struct plan *p, const cudnnctl_ver *rel, const char *build, const char *serves)
{
        size_t i;
        struct cand c;

        memset(&c, 0, sizeof(c));
        c.rel = *rel;
        snprintf(c.build_s, sizeof(c.build_s), "%s", build);
        if (cudnnctl_ver_parse(build, &c.build) < 0)
                return 0;
        c.serves_major = serves != NULL && strstr(serves, ".x") != NULL;
        for (i = 0; i < p->n; i++)
                if (cudnnctl_ver_cmp(&p->c[i].rel, rel) == 0 && strcmp(p->c[i].build_s, build) == 0)
                        return 0;
        if (p->n == p->cap) {
                size_t cap = p->cap ? p->cap * 2 : 64;
                struct cand *nc = realloc(p->c, cap * sizeof(*nc));

                if (nc == NULL)
                        return cc_err(p->err, CC_ERR_NOMEM, "out of memory");
                p->c = nc;
                p->cap = cap;
        }
        p->c[p->n++] = c;
        return 0;
}

/* Newest release first; of one release, the newest CUDA build first. */
static int cand_cmp(const void *a, const void *b)
{
        const struct cand *x = a, *y = b;
        cudnnctl_ver x3 = trunc_ver(&x->rel, 3), y3 = trunc_ver(&y->rel, 3);
        int c = cudnnctl_ver_cmp(&y3, &x3);

        if (c != 0)
                return c;
        c = cudnnctl_ver_cmp(&y->build, &x->build);
        return c != 0 ? c : cudnnctl_ver_cmp(&y->rel, &x->rel);
}

static int load_cands(struct plan *p)
{
        const cc_kb_table *t = cc_kb_get("releases", p->err);
        size_t r;

        if (t == NULL)
                return -1;
        for (r = 0; r < t->nrows; r++) {
                const char *f = cc_kb_cell(t, r, "cudnn_first"), *l = cc_kb_cell(t, r, "cudnn_last");
                const char *b = cc_kb_cell(t, r, "cuda_build"), *s = cc_kb_cell(t, r, "serves");
                cudnnctl_ver fv, lv;

                if (f == NULL || b == NULL || cudnnctl_ver_parse(f, &fv) < 0)
                        continue;
                if (l == NULL || cudnnctl_ver_parse(l, &lv) < 0)
                        lv = fv;
                if (add_cand(p, &lv, b, s) < 0)
                        return -1;
                if (cudnnctl_ver_cmp(&fv, &lv) != 0 && add_cand(p, &fv, b, s) < 0)
                        return -1;
                /* --cudnn inside a range row: the release asked for is one of the range */
                if (p->want_cudnn.n >= 3 && cudnnctl_ver_cmp(&fv, &lv) != 0) {
                        cudnnctl_ver w = trunc_ver(&p->want_cudnn, 3), f3 = trunc_ver(&fv, 3), l3 = trunc_ver(&lv, 3);

                        if (cudnnctl_ver_cmp(&f3, &w) < 0 && cudnnctl_ver_cmp(&w, &l3) < 0 &&
                            add_cand(p, &p->want_cudnn, b, s) < 0)
                                return -1;
                }
        }
        qsort(p->c, p->n, sizeof(*p->c), cand_cmp);
        return 0;
}

/* ---- the facts of one candidate ---------------------------------------- */

/* The newest CUDA release of a major in the drivers table whose own minimum
 * the driver meets (any, without a driver); n == 0 when none. */
static cudnnctl_ver newest_cuda_of(const struct plan *p, long major)
{
        cc_error e = {0};
        const cc_kb_table *t = cc_kb_get("drivers", &e);
        const char *col = p->in->system == CUDNNCTL_SYSTEM_WINDOWS ? "windows" : "linux";
        cudnnctl_ver best = {0};
        size_t r;

        if (t == NULL)
                return best;
        for (r = 0; r < t->nrows; r++) {
                const char *cs = cc_kb_cell(t, r, "cuda"), *ds = cc_kb_cell(t, r, col);
                cudnnctl_ver c, d;

                if (cs == NULL || cudnnctl_ver_parse(cs, &c) < 0 || c.part[0] != major)
                        continue;
                if (p->driver.n > 0 &&
                    (ds == NULL || cudnnctl_ver_parse(ds, &d) < 0 || cudnnctl_ver_cmp(&d, &p->driver) > 0))
                        continue;
                if (best.n == 0 || cudnnctl_ver_cmp(&c, &best) > 0)
                        best = c;
        }
        return trunc_ver(&best, 2);
}

/* The toolkit of this CUDA major on the machine: its index, or -1. */
static int toolkit_of(const cc_plan_input *in, long major)
{
        size_t i;

        for (i = 0; i < in->ntoolkits; i++) {
                cudnnctl_ver v;

                if (cudnnctl_ver_parse(in->toolkits[i], &v) == 0 && v.part[0] == major)
                        return (int)i;
        }
        return -1;
}

static int fail(struct eval *e, int kind, const char *source, const char *fmt, ...) CC_PRINTF(4, 5);

static int fail(struct eval *e, int kind, const char *source, const char *fmt, ...)
{
        va_list ap;

        e->ok = 0;
        e->kind = kind;
        snprintf(e->source, sizeof(e->source), "%s", source ? source : "");
        va_start(ap, fmt);
        vsnprintf(e->reason, sizeof(e->reason), fmt, ap);
        va_end(ap);
        return 0;
}

/* Does candidate c pass? check_driver / need_toolkit: whether those count. */
static int evaluate(const struct plan *p, const struct cand *c, int check_driver, int need_toolkit, struct eval *e)
{
        const cc_plan_input *in = p->in;
        char rb[48], bb[48], ub[48];
        cc_kb_answer a;
        long major = c->build.part[0];
        int tk = toolkit_of(in, major);
        size_t i;

        memset(e, 0, sizeof(*e));
        e->ok = 1;
        vs(&c->rel, rb, sizeof(rb));
        if (p->want_cudnn.n > 0) {
                cudnnctl_ver x = trunc_ver(&c->rel, p->want_cudnn.n > 3 ? 3 : p->want_cudnn.n);
                cudnnctl_ver w = trunc_ver(&p->want_cudnn, 3);

                if (cudnnctl_ver_cmp(&x, &w) != 0)
                        return fail(e, WHY_CUDNN, NULL, "not the release asked for (--cudnn %s)", in->want_cudnn);
        }
        /* the CUDA it runs with: --cuda, the toolkit of its major, else the
         * newest of its major the driver runs */
        if (!c->serves_major) {
                e->use = trunc_ver(&c->build, 2);
        } else if (p->want_cuda.n > 0 && p->want_cuda.part[0] == major) {
                e->use = trunc_ver(&p->want_cuda, 2);
        } else if (tk >= 0) {
                cudnnctl_ver_parse(in->toolkits[tk], &e->use);
                e->use = trunc_ver(&e->use, 2);
        } else {
                e->use = newest_cuda_of(p, major);
                if (e->use.n == 0)
                        e->use = trunc_ver(&c->build, 2);
        }
        vs(&e->use, ub, sizeof(ub));
        if (p->want_cuda.n > 0) {
                cudnnctl_ver w2 = trunc_ver(&p->want_cuda, 2);

                if (p->want_cuda.part[0] != major || (!c->serves_major && cudnnctl_ver_cmp(&w2, &e->use) != 0))
                        return fail(e, WHY_CUDA, "SP; RJ", "its CUDA %s build does not serve CUDA %s (--cuda)",
                                    vs(&c->build, bb, sizeof(bb)), in->want_cuda);
        }
        if (check_driver && p->driver.n > 0) {
                if (cc_kb_driver_runs_cuda(&p->driver, &c->build, in->system, &a) != CC_KB_YES)
                        return fail(e, WHY_DRIVER, a.source, "its CUDA %s build: %s", vs(&c->build, bb, sizeof(bb)),
                                    a.reason);
                if (cc_kb_driver_runs_cuda(&p->driver, &e->use, in->system, &a) != CC_KB_YES)
                        return fail(e, WHY_DRIVER, a.source, "CUDA %s: %s", ub, a.reason);
        }
        for (i = 0; i < in->ngpus; i++) {
                const cc_plan_gpu *g = &in->gpus[i];
                int v;

                if (g->sm <= 0)
                        continue;
                v = cc_kb_cudnn_runs_on(&c->rel, &e->use, g->sm, &a);
                if (v != CC_KB_YES)
                        return fail(e, WHY_GPU, a.source, "%s (sm_%d) with CUDA %s: %s", g->name, g->sm, ub,
                                    v == CC_KB_NO ? a.reason
                                    : a.reason[0] ? a.reason
                                                  : "unknown");
                if (a.inferred)
                        e->inferred = 1;
                cat(e->gpu_reason, sizeof(e->gpu_reason), "%s%s (sm_%d): %s", e->gpu_reason[0] ? "; " : "", g->name,
                    g->sm, a.reason);
                snprintf(e->gpu_source, sizeof(e->gpu_source), "%s", a.source);
        }
        if (p->fw != NULL && p->fw->build_cudnn[0] != '\0') {
                cudnnctl_ver fb, fc;

                if (cudnnctl_ver_parse(p->fw->build_cudnn, &fb) == 0) {
                        if (cc_kb_cudnn_satisfies(p->fw->name, &fb, &c->rel, &a) != CC_KB_YES)
                                return fail(e, WHY_FW, a.source, "%s %s was built with cuDNN %s: %s", p->fw->name,
                                            p->fw->version, p->fw->build_cudnn, a.reason);
                }
                if (p->fw->build_cuda[0] != '\0' && cudnnctl_ver_parse(p->fw->build_cuda, &fc) == 0 &&
                    fc.part[0] != major)
                        return fail(e, WHY_FW, NULL, "%s %s was built with CUDA %s: it needs a CUDA %ld build",
                                    p->fw->name, p->fw->version, p->fw->build_cuda, fc.part[0]);
                if (cc_kb_cudnn_known_bad_for(&c->rel, p->fw->name, &a) == CC_KB_YES)
                        return fail(e, WHY_FW, a.source, "%s", a.reason);
        }
        if (need_toolkit && in->ntoolkits > 0 && tk < 0)
                return fail(e, WHY_TOOLKIT, NULL, "no CUDA %ld toolkit on this machine (toolkits: %s%s)", major,
                            in->toolkits[0], in->ntoolkits > 1 ? ", ..." : "");
        return 1;
}

/* ---- the document ----------------------------------------------------------- */

static int why(struct plan *p, const char *about, const char *source, const char *fmt, ...) CC_PRINTF(4, 5);

static int why(struct plan *p, const char *about, const char *source, const char *fmt, ...)
{
        char text[1024];
        va_list ap;
        cc_value *o;

        va_start(ap, fmt);
        vsnprintf(text, sizeof(text), fmt, ap);
        va_end(ap);
        o = cc_v_object(p->err);
        if (o == NULL || cc_v_set_str(o, "about", about, p->err) < 0 || cc_v_set_str(o, "text", text, p->err) < 0 ||
            cc_v_set_str(o, "source", source && source[0] ? source : NULL, p->err) < 0) {
                cc_v_free(o);
                return -1;
        }
        return cc_v_push(p->why, o, p->err);
}

/* The search: the index of the first candidate that passes, or -1; the
 * newest failure of each kind among the candidates before it is said. */
static long search(const struct plan *p, int check_driver, int need_toolkit, struct eval *best,
                   struct eval newer[WHY_N], long newer_at[WHY_N])
{
        size_t i;
        int k;

        for (k = 0; k < WHY_N; k++)
                newer_at[k] = -1;
        for (i = 0; i < p->n; i++) {
                struct eval e;

                evaluate(p, &p->c[i], check_driver, need_toolkit, &e);
                if (e.ok) {
                        *best = e;
                        return (long)i;
                }
                if (newer_at[e.kind] < 0) {
                        newer[e.kind] = e;
                        newer_at[e.kind] = (long)i;
                }
        }
        return -1;
}

static const char *fw_title(const char *n)
{
        return strcmp(n, "torch") == 0         ? "PyTorch"
               : strcmp(n, "tensorflow") == 0  ? "TensorFlow"
               : strcmp(n, "jax") == 0         ? "JAX"
               : strcmp(n, "onnxruntime") == 0 ? "ONNX Runtime"
               : strcmp(n, "cupy") == 0        ? "CuPy"
                                               : n;
}

/* The minimum driver of the CUDA the plan runs with, as "580.65.06". */
static void driver_needed(const struct plan *p, const cudnnctl_ver *use, char *buf, size_t n, char *src, size_t sn)
{
        cudnnctl_ver exact, floor;
        cc_kb_answer a;

        buf[0] = '\0';
        if (cc_kb_min_driver(use, p->in->system, &exact, &floor, &a) == CC_KB_YES)
                cc_kb_driver_str(&exact, buf, n);
        snprintf(src, sn, "%s", a.source);
}

static int set_machine(struct plan *p, cc_value *doc)
{
        const cc_plan_input *in = p->in;
        cc_value *m = cc_v_object(p->err), *a;
        size_t i;

        if (m == NULL || cc_v_set(doc, "machine", m, p->err) < 0) {
                cc_v_free(m);
                return -1;
        }
        if (cc_v_set_str(m, "system", in->system == CUDNNCTL_SYSTEM_WINDOWS ? "windows" : "linux", p->err) < 0 ||
            cc_v_set_str(m, "driver", in->driver[0] ? in->driver : NULL, p->err) < 0)
                return -1;
        {
                cudnnctl_ver mx;
                cc_kb_answer an;
                char b[32];

                if (p->driver.n > 0 && cc_kb_driver_max_cuda(&p->driver, in->system, &mx, &an) == CC_KB_YES) {
                        if (cc_v_set_str(m, "max_cuda", vs(&mx, b, sizeof(b)), p->err) < 0)
                                return -1;
                } else if (cc_v_set_null(m, "max_cuda", p->err) < 0) {
                        return -1;
                }
        }
        if ((a = cc_v_array(p->err)) == NULL || cc_v_set(m, "gpus", a, p->err) < 0)
                return -1;
        for (i = 0; i < in->ngpus; i++) {
                cc_value *g = cc_v_object(p->err);

                if (g == NULL || cc_v_push(a, g, p->err) < 0 || cc_v_set_str(g, "name", in->gpus[i].name, p->err) < 0)
                        return -1;
                if ((in->gpus[i].sm > 0 ? cc_v_set_int(g, "sm", in->gpus[i].sm, p->err)
                                        : cc_v_set_null(g, "sm", p->err)) < 0)
                        return -1;
        }
        if ((a = cc_v_array(p->err)) == NULL || cc_v_set(m, "toolkits", a, p->err) < 0)
                return -1;
        for (i = 0; i < in->ntoolkits; i++) {
                cc_value *t = cc_v_object(p->err);

                if (t == NULL || cc_v_push(a, t, p->err) < 0 ||
                    cc_v_set_str(t, "version", in->toolkits[i], p->err) < 0 ||
                    cc_v_set_str(t, "prefix", in->toolkit_dirs[i][0] ? in->toolkit_dirs[i] : NULL, p->err) < 0)
                        return -1;
        }
        if ((a = cc_v_array(p->err)) == NULL || cc_v_set(m, "cudnn", a, p->err) < 0)
                return -1;
        for (i = 0; i < in->ninstalled; i++) {
                cc_value *t = cc_v_object(p->err);

                if (t == NULL || cc_v_push(a, t, p->err) < 0 ||
                    cc_v_set_str(t, "version", in->installed[i][0] ? in->installed[i] : NULL, p->err) < 0 ||
                    cc_v_set_str(t, "prefix", in->installed_where[i], p->err) < 0)
                        return -1;
        }
        if ((a = cc_v_array(p->err)) == NULL || cc_v_set(m, "frameworks", a, p->err) < 0)
                return -1;
        for (i = 0; i < in->nfw; i++) {
                const cc_plan_framework *f = &in->fw[i];
                cc_value *t = cc_v_object(p->err);

                if (t == NULL || cc_v_push(a, t, p->err) < 0 || cc_v_set_str(t, "name", f->name, p->err) < 0 ||
                    cc_v_set_str(t, "version", f->version[0] ? f->version : NULL, p->err) < 0 ||
                    cc_v_set_str(t, "interpreter", f->interpreter[0] ? f->interpreter : NULL, p->err) < 0 ||
                    (f->gpu_build < 0 ? cc_v_set_null(t, "gpu_build", p->err)
                                      : cc_v_set_bool(t, "gpu_build", f->gpu_build, p->err)) < 0 ||
                    cc_v_set_str(t, "build_cudnn", f->build_cudnn[0] ? f->build_cudnn : NULL, p->err) < 0 ||
                    cc_v_set_str(t, "build_cuda", f->build_cuda[0] ? f->build_cuda : NULL, p->err) < 0 ||
                    cc_v_set_str(t, "wheel", f->wheel[0] ? f->wheel : NULL, p->err) < 0 ||
                    cc_v_set_str(t, "wheel_version", f->wheel_version[0] ? f->wheel_version : NULL, p->err) < 0)
                        return -1;
        }
        return 0;
}

/* The framework that decides: --for, else the first GPU framework found
 * that pins a wheel, else the first GPU framework. */
static const cc_plan_framework *pick_framework(const cc_plan_input *in)
{
        size_t i;

        for (i = 0; in->want_framework != NULL && i < in->nfw; i++)
                if (strcmp(in->fw[i].name, in->want_framework) == 0 && in->fw[i].gpu_build != 0)
                        return &in->fw[i];
        if (in->want_framework != NULL)
                return NULL;
        for (i = 0; i < in->nfw; i++)
                if (in->fw[i].gpu_build == 1 && in->fw[i].wheel[0] != '\0')
                        return &in->fw[i];
        for (i = 0; i < in->nfw; i++)
                if (in->fw[i].gpu_build == 1)
                        return &in->fw[i];
        return NULL;
}

static int set_plan(struct plan *p, cc_value *doc, const struct cand *c, const struct eval *e, const char *where,
                    const char *target, const char *command)
{
        cc_value *o = cc_v_object(p->err);
        char rb[48], bb[48], ub[48];

        if (o == NULL || cc_v_set(doc, "plan", o, p->err) < 0) {
                cc_v_free(o);
                return -1;
        }
        return cc_v_set_str(o, "cudnn", vs(&c->rel, rb, sizeof(rb)), p->err) < 0 ||
                       cc_v_set_str(o, "cuda_build", vs(&c->build, bb, sizeof(bb)), p->err) < 0 ||
                       cc_v_set_str(o, "cuda", e->use.n ? vs(&e->use, ub, sizeof(ub)) : NULL, p->err) < 0 ||
                       cc_v_set_str(o, "platform",
                                    p->in->system == CUDNNCTL_SYSTEM_WINDOWS ? "windows-x86_64" : "linux-x86_64",
                                    p->err) < 0 ||
                       cc_v_set_str(o, "where", where, p->err) < 0 || cc_v_set_str(o, "target", target, p->err) < 0 ||
                       cc_v_set_str(o, "command", command, p->err) < 0 ||
                       cc_v_set_str(o, "support",
                                    p->in->ngpus == 0 ? NULL
                                    : e->inferred     ? "binary-compatibility"
                                                      : "listed",
                                    p->err) < 0
                   ? -1
                   : 0;
}

/* A toolkit / side-by-side install of candidate c. */
static int plan_install(struct plan *p, cc_value *doc, const struct cand *c, const struct eval *e)
{
        char cmd[512], target[300], rb[48], ub[48];
        cudnnctl_ver r3 = trunc_ver(&c->rel, 3);
        int tk = toolkit_of(p->in, c->build.part[0]);

        vs(&r3, rb, sizeof(rb));
        vs(&e->use, ub, sizeof(ub));
        if (tk >= 0) {
                snprintf(cmd, sizeof(cmd), "cudnnctl install %s --cuda %s", rb, p->in->toolkits[tk]);
                snprintf(target, sizeof(target), "%s",
                         p->in->toolkit_dirs[tk][0] ? p->in->toolkit_dirs[tk] : p->in->toolkits[tk]);
                if (why(p, "where", NULL, "into the CUDA %s toolkit (%s): its CUDA major matches the build",
                        p->in->toolkits[tk], target) < 0)
                        return -1;
                return set_plan(p, doc, c, e, "toolkit", target, cmd);
        }
        if (p->in->system == CUDNNCTL_SYSTEM_WINDOWS)
                snprintf(target, sizeof(target), "%%ProgramFiles%%\\NVIDIA\\CUDNN\\v%ld.%ld", r3.part[0], r3.part[1]);
        else
                snprintf(target, sizeof(target), "/opt/cudnn/%s-cuda%ld", rb, c->build.part[0]);
        snprintf(cmd, sizeof(cmd), "cudnnctl install %s --into %s", rb, target);
        if (why(p, "where", NULL,
                "side by side (%s): no CUDA %ld toolkit on this machine%s; a program finds it through its own "
                "search path, or install the CUDA %s toolkit first and then 'cudnnctl install %s --cuda %s'",
                target, c->build.part[0], p->in->ntoolkits ? " (only other majors)" : "", ub, rb, ub) < 0)
                return -1;
        return set_plan(p, doc, c, e, "side-by-side", target, cmd);
}

static int say_newer(struct plan *p, long chosen, struct eval newer[WHY_N], long newer_at[WHY_N])
{
        int k;

        for (k = 0; k < WHY_N; k++) {
                char rb[48], bb[48];

                if (newer_at[k] < 0 || (chosen >= 0 && newer_at[k] >= chosen) || k == WHY_CUDNN || k == WHY_CUDA)
                        continue;
                if (why(p, why_kind[k], newer[k].source, "not cuDNN %s (CUDA %s build): %s",
                        vs(&p->c[newer_at[k]].rel, rb, sizeof(rb)), vs(&p->c[newer_at[k]].build, bb, sizeof(bb)),
                        newer[k].reason) < 0)
                        return -1;
        }
        return 0;
}

static int parse_want(const char *s, const char *what, cudnnctl_ver *v, cc_error *err)
{
        v->n = 0;
        if (s == NULL)
                return 0;
        if (cudnnctl_ver_parse(s, v) < 0)
                return cc_err(err, CC_ERR_USAGE, "%s '%.80s': not a version", what, s);
        return 0;
}

/* A framework that loads a pinned wheel: that wheel, in its environment. */
static int plan_wheel(struct plan *p, cc_value *doc, const cc_plan_framework *f, const char **verdict)
{
        struct cand c;
        struct eval e;
        char cmd[900], bb[16];
        const char *cu = strrchr(f->wheel, '-');

        memset(&c, 0, sizeof(c));
        if (cudnnctl_ver_parse(f->wheel_version, &c.rel) < 0 || cu == NULL || strncmp(cu, "-cu", 3) != 0)
                return 0;
        snprintf(bb, sizeof(bb), "%s", cu + 3);
        if (cudnnctl_ver_parse(bb, &c.build) < 0)
                return 0;
        snprintf(c.build_s, sizeof(c.build_s), "%s", bb);
        c.serves_major = 1;
        {
                const cc_plan_framework *keep = p->fw;

                p->fw = NULL; /* its own pin: the framework's rule holds by construction */
                evaluate(p, &c, 1, 0, &e);
                p->fw = keep;
        }
        if (why(p, "framework", "PT; OBS",
                "%s %s loads the cuDNN wheel its distribution pins (%s==%s) from its own environment, not a "
                "toolkit's cuDNN: the plan is that wheel",
                fw_title(f->name), f->version, f->wheel, f->wheel_version) < 0)
                return -1;
        if (!e.ok) {
                *verdict = e.kind == WHY_DRIVER ? "driver-first" : "none";
                if (why(p, why_kind[e.kind], e.source, "the pinned cuDNN %s: %s", f->wheel_version, e.reason) < 0)
                        return -1;
                if (e.kind == WHY_GPU &&
                    why(p, "change", NULL,
                        "change %s first: a build of it that pins a cuDNN supporting this GPU (another CUDA variant "
                        "or release)",
                        fw_title(f->name)) < 0)
                        return -1;
        } else {
                *verdict = "install";
                if (e.gpu_reason[0] && why(p, "gpu", e.gpu_source, "%s", e.gpu_reason) < 0)
                        return -1;
        }
        snprintf(cmd, sizeof(cmd), "%s -m pip install %s==%s", f->interpreter[0] ? f->interpreter : "python3", f->wheel,
                 f->wheel_version);
        return set_plan(p, doc, &c, &e, "wheel", f->interpreter[0] ? f->interpreter : NULL, cmd) < 0 ? -1 : 1;
}

/* The plan's state for one machine, as cc_plan_decide sets it up, without
 * the document. */
static int plan_init(struct plan *p, const cc_plan_input *in, cc_error *err)
{
        memset(p, 0, sizeof(*p));
        p->in = in;
        p->err = err;
        if (parse_want(in->want_cuda, "--cuda", &p->want_cuda, err) < 0 ||
            parse_want(in->want_cudnn, "--cudnn", &p->want_cudnn, err) < 0)
                return -1;
        if (in->driver[0] != '\0' && cudnnctl_ver_parse(in->driver, &p->driver) < 0)
                p->driver.n = 0;
        p->fw = pick_framework(in);
        return 0;
}

/* newer_than_tables: null when no index was read; else the index, the
 * releases it lists that are newer than every release of the tables, and
 * the error of reading it. Such a release is named, never planned: its
 * driver, GPU and framework support is not in the tables. */
static int set_newer(struct plan *p, cc_value *doc)
{
        const cc_plan_input *in = p->in;
        cc_value *o, *list;
        cudnnctl_ver newest = {0};
        char nb[48];
        size_t i, n = 0;

        if (in->index == NULL)
                return cc_v_set_null(doc, "newer_than_tables", p->err);
        for (i = 0; i < p->n; i++)
                if (newest.n == 0 || cudnnctl_ver_cmp(&p->c[i].rel, &newest) > 0)
                        newest = p->c[i].rel;
        newest = trunc_ver(&newest, 3);
        vs(&newest, nb, sizeof(nb));
        o = cc_v_object(p->err);
        if (o == NULL || cc_v_set(doc, "newer_than_tables", o, p->err) < 0) {
                cc_v_free(o);
                return -1;
        }
        list = cc_v_array(p->err);
        if (list == NULL || cc_v_set(o, "releases", list, p->err) < 0) {
                cc_v_free(list);
                return -1;
        }
        if (cc_v_set_str(o, "index", in->index, p->err) < 0 ||
            cc_v_set_str(o, "tables_newest", newest.n ? nb : NULL, p->err) < 0 ||
            cc_v_set_str(o, "error", in->index_error, p->err) < 0)
                return -1;
        if (in->index_error != NULL)
                return why(p, "tables", NULL,
                           "the index of releases could not be read (%s): planned from the tables "
                           "alone",
                           in->index_error);
        for (i = 0; i < in->nindex_versions; i++) {
                cudnnctl_ver v;

                if (cudnnctl_ver_parse(in->index_versions[i], &v) < 0)
                        continue;
                v = trunc_ver(&v, 3);
                if (newest.n > 0 && cudnnctl_ver_cmp(&v, &newest) > 0) {
                        if (cc_v_push(list, cc_v_str(in->index_versions[i], p->err), p->err) < 0)
                                return -1;
                        n++;
                }
        }
        if (n == 0)
                return 0;
        return why(p, "tables", "RDL",
                   "the index lists %zu release%s newer than the tables (%s%s), whose driver, GPU and framework "
                   "support the tables do not hold: the plan keeps to the tables' newest fitting release (the "
                   "tables end at %s; a newer cudnnctl knows more)",
                   n, n == 1 ? "" : "s", cc_v_as_str(cc_v_at(list, 0)), n > 1 ? ", ..." : "", nb);
}

int cc_plan_decide(const cc_plan_input *in, cc_value **out, cc_error *err)
{
        struct plan p;
        struct eval best, newer[WHY_N];
        long newer_at[WHY_N], at = -1;
        cc_value *doc = NULL, *q, *steps;
        const char *verdict = "none";
        int have_tk = in->ntoolkits > 0;
        char db[48], ds[256];

        *out = NULL;
        if (plan_init(&p, in, err) < 0)
                return -1;
        doc = cc_v_object(err);
        if (doc == NULL || cc_v_set_int(doc, "schema_version", CUDNNCTL_JSON_SCHEMA_VERSION, err) < 0 ||
            cc_v_set_str(doc, "tool", "cudnnctl", err) < 0 ||
            cc_v_set_str(doc, "tool_version", cudnnctl_version(), err) < 0 ||
            cc_v_set_str(doc, "command", "plan", err) < 0)
                goto fail;
        q = cc_v_object(err);
        if (q == NULL || cc_v_set(doc, "query", q, err) < 0) {
                cc_v_free(q);
                goto fail;
        }
        if (cc_v_set_str(q, "for", in->want_framework, err) < 0 || cc_v_set_str(q, "cuda", in->want_cuda, err) < 0 ||
            cc_v_set_str(q, "cudnn", in->want_cudnn, err) < 0 || set_machine(&p, doc) < 0)
                goto fail;
        p.why = cc_v_array(err);
        if (p.why == NULL || cc_v_set(doc, "why", p.why, err) < 0) {
                cc_v_free(p.why);
                goto fail;
        }
        if (load_cands(&p) < 0)
                goto fail;
        if (in->want_framework != NULL && p.fw == NULL &&
            why(&p, "framework", NULL,
                "%s with GPU support was not found on this machine: the plan is a cuDNN for programs in general (a "
                "%s wheel brings the cuDNN it pins: pip installs it with the framework)",
                fw_title(in->want_framework), fw_title(in->want_framework)) < 0)
                goto fail;
        if (in->ngpus == 0 &&
            why(&p, "gpu", NULL,
                "no GPU is known (%s): the compute capability is not checked; give --gpu to plan for one",
                p.driver.n ? "the facts list none" : "without a driver none is listed") < 0)
                goto fail;
        if (p.driver.n == 0 && why(&p, "driver", NULL,
                                   "no NVIDIA driver: the driver comes first; the plan assumes a driver that runs "
                                   "the build chosen") < 0)
                goto fail;
        if (p.fw != NULL && p.fw->wheel[0] != '\0' && p.want_cudnn.n == 0 && p.want_cuda.n == 0) {
                int w = plan_wheel(&p, doc, p.fw, &verdict);

                if (w < 0)
                        goto fail;
                if (w > 0) {
                        if (p.driver.n == 0 && strcmp(verdict, "install") == 0)
                                verdict = "driver-first";
                        goto finish;
                }
        }
        if (p.fw != NULL &&
            why(&p, "framework", NULL, "%s %s: its build (cuDNN %s, CUDA %s) constrains the release",
                fw_title(p.fw->name), p.fw->version, p.fw->build_cudnn[0] ? p.fw->build_cudnn : "unknown",
                p.fw->build_cuda[0] ? p.fw->build_cuda : "unknown") < 0)
                goto fail;
        at = search(&p, 1, have_tk, &best, newer, newer_at);
        if (at < 0 && have_tk)
                at = search(&p, 1, 0, &best, newer, newer_at);
        if (at >= 0) {
                verdict = p.driver.n ? "install" : "driver-first";
                if (say_newer(&p, at, newer, newer_at) < 0)
                        goto fail;
                if (best.gpu_reason[0] && why(&p, "gpu", best.gpu_source, "%s", best.gpu_reason) < 0)
                        goto fail;
                if (plan_install(&p, doc, &p.c[at], &best) < 0)
                        goto fail;
        } else if (p.driver.n > 0) {
                struct eval n2[WHY_N];
                long a2[WHY_N];

                if (say_newer(&p, -1, newer, newer_at) < 0)
                        goto fail;
                at = search(&p, 0, 0, &best, n2, a2);
                if (at >= 0) {
                        verdict = "driver-first";
                        if (plan_install(&p, doc, &p.c[at], &best) < 0)
                                goto fail;
                } else if (cc_v_set_null(doc, "plan", err) < 0) {
                        goto fail;
                }
        } else {
                if (say_newer(&p, -1, newer, newer_at) < 0 || cc_v_set_null(doc, "plan", err) < 0)
                        goto fail;
        }
finish:
        /* the driver the plan needs */
        {
                const cc_value *pl = cc_v_get(doc, "plan");
                const char *cuda = cc_v_get_str(pl, "cuda");
                cudnnctl_ver use;

                db[0] = '\0';
                if (cuda != NULL && cudnnctl_ver_parse(cuda, &use) == 0)
                        driver_needed(&p, &use, db, sizeof(db), ds, sizeof(ds));
                if (strcmp(verdict, "driver-first") == 0 && cuda != NULL &&
                    why(&p, "driver", ds,
                        "the driver first: install an NVIDIA driver %s%s (the minimum of CUDA %s, which the plan's "
                        "build "
                        "runs with)%s",
                        db[0] ? ">= " : "", db[0] ? db : "(its minimum for this CUDA is not in the tables)", cuda,
                        p.driver.n ? "; the driver on this machine is too old for every build that fits" : "") < 0)
                        goto fail;
                if (cc_v_set_str(doc, "driver_needed", db[0] ? db : NULL, err) < 0)
                        goto fail;
        }
        if (strcmp(verdict, "none") == 0 &&
            why(&p, "change", NULL, "%s",
                in->ngpus > 0
                    ? "no cuDNN release in the tables fits: a GPU newer than every build the tables know needs a "
                      "newer release (and driver) than the tables hold; update cudnnctl, or change the driver first"
                    : "no cuDNN release in the tables fits what was asked") < 0)
                goto fail;
        steps = cc_v_array(err);
        if (steps == NULL || cc_v_set(doc, "steps", steps, err) < 0) {
                cc_v_free(steps);
                goto fail;
        }
        {
                const cc_value *pl = cc_v_get(doc, "plan");
                const char *cmd = cc_v_get_str(pl, "command");

                if (strcmp(verdict, "driver-first") == 0 &&
                    cc_v_push(steps,
                              cc_v_strf(err, "install an NVIDIA driver%s%s", db[0] ? " >= " : "", db[0] ? db : ""),
                              err) < 0)
                        goto fail;
                if (cmd != NULL && cc_v_push(steps, cc_v_str(cmd, err), err) < 0)
                        goto fail;
        }
        if (cc_v_set_str(doc, "verdict", verdict, err) < 0 || set_newer(&p, doc) < 0)
                goto fail;
        free(p.c);
        *out = doc;
        return 0;
fail:
        free(p.c);
        cc_v_free(doc);
        return -1;
}

int cc_plan_fits(const cc_plan_input *in, const char *release, int cuda_major, char *whybuf, size_t whysize)
{
        struct plan p;
        struct cand c;
        struct eval e;
        cc_error err = {0};

        if (whysize > 0)
                whybuf[0] = '\0';
        memset(&c, 0, sizeof(c));
        if (plan_init(&p, in, &err) < 0 || cudnnctl_ver_parse(release, &c.rel) < 0 || cuda_major <= 0) {
                snprintf(whybuf, whysize, "%s", err.msg[0] ? err.msg : "not a release and CUDA major");
                return 0;
        }
        snprintf(c.build_s, sizeof(c.build_s), "%d", cuda_major);
        c.build.n = 1;
        c.build.part[0] = cuda_major;
        c.serves_major = 1;
        evaluate(&p, &c, 1, 0, &e);
        if (!e.ok)
                snprintf(whybuf, whysize, "%s", e.reason);
        return e.ok;
}

int cc_plan_cuda_major(const cc_plan_input *in)
{
        cc_value *doc = NULL;
        cc_error err = {0};
        cudnnctl_ver b;
        const char *s;
        int major = 0;

        if (cc_plan_decide(in, &doc, &err) < 0)
                return 0;
        s = cc_v_get_str(cc_v_get(doc, "plan"), "cuda_build");
        if (s != NULL && cudnnctl_ver_parse(s, &b) == 0)
                major = (int)b.part[0];
        cc_v_free(doc);
        return major;
}

/* ---- the public entry and its text ------------------------------------------- */

int cc_plan_input_init(cc_plan_input *in, const cc_value *facts, const cudnnctl_plan_options *o, cc_error *err)
{
        size_t i;

        in->want_framework = o->framework;
        in->want_cuda = o->cuda;
        in->want_cudnn = o->cudnn;
        cc_plan_read_facts(facts, in);
        if (o->system != CUDNNCTL_SYSTEM_HOST)
                in->system = o->system;
        if (o->driver != NULL) {
                cudnnctl_ver v;

                if (cudnnctl_ver_parse(o->driver, &v) < 0)
                        return cc_err(err, CC_ERR_USAGE, "--driver '%.80s': not a version", o->driver);
                snprintf(in->driver, sizeof(in->driver), "%s", o->driver);
        }
        if (o->ngpus > 0)
                in->ngpus = 0;
        for (i = 0; i < o->ngpus && i < CC_PLAN_MAX_GPUS; i++) {
                int sm = cc_kb_gpu_sm(o->gpus[i]);

                if (sm <= 0)
                        return cc_err(err, CC_ERR_USAGE, "--gpu '%.80s': not a compute capability or a known GPU name",
                                      o->gpus[i]);
                snprintf(in->gpus[in->ngpus].name, sizeof(in->gpus[0].name), "%s", o->gpus[i]);
                in->gpus[in->ngpus++].sm = sm;
        }
        return 0;
}
