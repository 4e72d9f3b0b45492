/* The doctor's check runner: findings, areas, the summary; and the helpers
 * the checks share. Checks are pure functions of the facts. */
#include "doctor.h"
#include "../frameworks/frameworks.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kb/kb.h"

/* What the runner keeps of each finding beside its JSON: its id, and the
 * subjects its check set (registry.h). */
struct cc_dsubj {
        int explains; /* 1: f explains it; 0: f is about it */
        enum cc_subject kind;
        char *value;
};

struct cc_dmeta {
        enum cc_fid fid;
        struct cc_dsubj *subj;
        size_t nsubj;
        int folded;
};

void cc_finding_meta_free(struct cc_dctx *d)
{
        size_t i, k;

        for (i = 0; i < d->nmeta; i++) {
                for (k = 0; k < d->meta[i].nsubj; k++)
                        free(d->meta[i].subj[k].value);
                free(d->meta[i].subj);
        }
        free(d->meta);
        d->meta = NULL;
        d->nmeta = d->capmeta = 0;
}

cc_value *cc_finding(struct cc_dctx *d, enum cc_fid fid, const char *severity, const char *area, const char *fmt, ...)
{
        const struct cc_finding_def *def = cc_finding_def(fid);
        cc_value *f;
        char *s;
        va_list ap;

        /* A check says only its own finding: where another check's id would
         * fit, the facts belong to that check (or to a relation). */
        if (def == NULL || fid != d->running) {
                cc_err(d->err, CC_ERR_USAGE, "doctor: internal error: the check for %s emitted %s",
                       cc_fid_id(d->running), cc_fid_id(fid));
                return NULL;
        }
        if (d->nmeta == d->capmeta) {
                size_t cap = d->capmeta ? 2 * d->capmeta : 16;
                struct cc_dmeta *m = cc_realloc(d->err, d->meta, cap * sizeof(*m));

                if (m == NULL)
                        return NULL;
                d->meta = m;
                d->capmeta = cap;
        }
        f = cc_v_object(d->err);
        if (cc_v_push(d->findings, f, d->err) < 0)
                return NULL;
        memset(&d->meta[d->nmeta], 0, sizeof(d->meta[d->nmeta]));
        d->meta[d->nmeta++].fid = fid;
        va_start(ap, fmt);
        s = cc_vasprintf(d->err, fmt, ap);
        va_end(ap);
        if (s == NULL)
                return NULL;
        if (cc_v_set_str(f, "id", def->id, d->err) < 0 ||
            cc_v_set_str(f, "severity", severity ? severity : def->severity, d->err) < 0 ||
            cc_v_set_str(f, "area", area ? area : def->area, d->err) < 0 || cc_v_set_str(f, "summary", s, d->err) < 0 ||
            cc_v_set(f, "evidence", cc_v_object(d->err), d->err) < 0 || cc_v_set_null(f, "fix", d->err) < 0) {
                free(s);
                return NULL;
        }
        free(s);
        return f;
}

/* The runner's record of finding f, or NULL. */
static struct cc_dmeta *meta_of(struct cc_dctx *d, const cc_value *f)
{
        size_t i;

        for (i = 0; f != NULL && i < d->nmeta && i < cc_v_len(d->findings); i++)
                if (cc_v_at(d->findings, i) == f)
                        return &d->meta[i];
        return NULL;
}

static int add_subject(struct cc_dctx *d, const cc_value *f, int explains, enum cc_subject kind, const char *value)
{
        struct cc_dmeta *m = meta_of(d, f);
        struct cc_dsubj *s;

        if (m == NULL)
                return -1; /* f is NULL: the error is set */
        if (value == NULL)
                return 0;
        s = cc_realloc(d->err, m->subj, (m->nsubj + 1) * sizeof(*s));
        if (s == NULL)
                return -1;
        m->subj = s;
        s[m->nsubj].explains = explains;
        s[m->nsubj].kind = kind;
        s[m->nsubj].value = cc_strdup(d->err, value);
        if (s[m->nsubj].value == NULL)
                return -1;
        m->nsubj++;
        return 0;
}

int cc_finding_explains(struct cc_dctx *d, const cc_value *f, enum cc_subject kind, const char *value)
{
        return add_subject(d, f, 1, kind, value);
}

int cc_finding_about(struct cc_dctx *d, const cc_value *f, enum cc_subject kind, const char *value)
{
        return add_subject(d, f, 0, kind, value);
}

int cc_finding_explains_id(struct cc_dctx *d, const cc_value *f, enum cc_subject kind, int64_t id)
{
        char b[32];

        snprintf(b, sizeof(b), "%lld", (long long)id);
        return add_subject(d, f, 1, kind, b);
}

int cc_finding_about_id(struct cc_dctx *d, const cc_value *f, enum cc_subject kind, int64_t id)
{
        char b[32];

        snprintf(b, sizeof(b), "%lld", (long long)id);
        return add_subject(d, f, 0, kind, b);
}

/* The installation a finding's evidence names, or 0. */
static int64_t ev_inst(const cc_value *f)
{
        const cc_value *v = cc_v_path(f, "evidence/installation");

        return cc_v_type(v) == CUDNNCTL_INT ? cc_v_as_int(v) : 0;
}

cc_value *cc_finding_mine(struct cc_dctx *d, int64_t id)
{
        size_t i;

        for (i = 0; i < d->nmeta && i < cc_v_len(d->findings); i++) {
                cc_value *f = cc_v_atm(d->findings, i);

                if (d->meta[i].fid == d->running && (id == 0 || ev_inst(f) == id))
                        return f;
        }
        return NULL;
}

int cc_finding_ev(cc_value *f, const char *key, cc_value *value, cc_error *err)
{
        if (f == NULL) {
                cc_v_free(value);
                return -1;
        }
        return cc_v_set(cc_v_getm(f, "evidence"), key, value, err);
}

int cc_finding_ev_str(cc_value *f, const char *key, const char *s, cc_error *err)
{
        return cc_finding_ev(f, key, cc_v_str(s, err), err);
}

int cc_finding_fix(cc_value *f, cc_error *err, const char *fmt, ...)
{
        char *s;
        va_list ap;
        int rc;

        if (f == NULL)
                return -1;
        va_start(ap, fmt);
        s = cc_vasprintf(err, fmt, ap);
        va_end(ap);
        if (s == NULL)
                return -1;
        rc = cc_v_set_str(f, "fix", s, err);
        free(s);
        return rc;
}

char *cc_fix_prepend(const struct cc_dctx *d, const char *var, const char *dir, cc_error *err)
{
        const char *sh = d->shell ? d->shell : "sh";

        if (strcmp(sh, "powershell") == 0)
                return cc_asprintf(err, "$env:%s = \"%s;\" + $env:%s", var, dir, var);
        if (strcmp(sh, "cmd") == 0)
                return cc_asprintf(err, "set \"%s=%s;%%%s%%\"", var, dir, var);
        if (strcmp(sh, "fish") == 0)
                return cc_asprintf(err, "set -gx %s '%s' $%s", var, dir, var);
        return cc_asprintf(err, "export %s='%s'${%s:+:$%s}", var, dir, var, var);
}

char *cc_fix_unset(const struct cc_dctx *d, const char *var, cc_error *err)
{
        const char *sh = d->shell ? d->shell : "sh";

        if (strcmp(sh, "powershell") == 0)
                return cc_asprintf(err, "Remove-Item Env:%s", var);
        if (strcmp(sh, "cmd") == 0)
                return cc_asprintf(err, "set %s=", var);
        if (strcmp(sh, "fish") == 0)
                return cc_asprintf(err, "set -e %s", var);
        return cc_asprintf(err, "unset %s", var);
}

const cc_value *cc_dx_install(const struct cc_dctx *d, int64_t id)
{
        const cc_value *insts = cc_v_get(d->list, "installations");
        size_t i;

        for (i = 0; i < cc_v_len(insts); i++)
                if (cc_v_as_int(cc_v_get(cc_v_at(insts, i), "id")) == id)
                        return cc_v_at(insts, i);
        return NULL;
}

const cc_value *cc_dx_verify_of(const struct cc_dctx *d, int64_t id)
{
        size_t i;

        for (i = 0; i < cc_v_len(d->verify); i++) {
                const cc_value *e = cc_v_at(d->verify, i);

                if (cc_v_as_int(cc_v_get(e, "installation")) == id &&
                    cc_v_type(cc_v_get(e, "document")) == CUDNNCTL_OBJECT)
                        return cc_v_get(e, "document");
        }
        return NULL;
}

const cc_value *cc_dx_verify_check(const cc_value *vdoc, const char *id)
{
        const cc_value *layers = cc_v_get(vdoc, "layers");
        size_t i, j;

        for (i = 0; i < cc_v_len(layers); i++) {
                const cc_value *checks = cc_v_get(cc_v_at(layers, i), "checks");

                for (j = 0; j < cc_v_len(checks); j++) {
                        const char *cid = cc_v_get_str(cc_v_at(checks, j), "id");

                        if (cid != NULL && strcmp(cid, id) == 0)
                                return cc_v_at(checks, j);
                }
        }
        return NULL;
}

const cc_value *cc_dx_which(const struct cc_dctx *d, const char *name)
{
        const cc_value *res = cc_v_get(d->which, "results");
        size_t i;

        for (i = 0; i < cc_v_len(res); i++) {
                const char *n = cc_v_get_str(cc_v_at(res, i), "name");

                if (n != NULL && (d->windows ? cc_strcasecmp(n, name) == 0 : strcmp(n, name) == 0))
                        return cc_v_at(res, i);
        }
        return NULL;
}

const cc_value *cc_dx_plain_cudnn(const struct cc_dctx *d)
{
        const cc_value *res = cc_v_get(d->which, "results");
        size_t i;

        for (i = 0; i < cc_v_len(res); i++) {
                const cc_value *r = cc_v_at(res, i);
                const char *n = cc_v_get_str(r, "name");

                if (n == NULL || !cc_v_as_bool(cc_v_get(r, "found")))
                        continue;
                if (cc_starts_with(n, "libcudnn.so") ||
                    (cc_starts_with(n, "cudnn64_") && cc_ends_with_nocase(n, ".dll")))
                        return r;
        }
        return NULL;
}

const cc_value *cc_dx_deps_of(const struct cc_dctx *d, int64_t id)
{
        size_t i;

        for (i = 0; i < cc_v_len(d->deps); i++) {
                const cc_value *e = cc_v_at(d->deps, i);

                if (cc_v_as_int(cc_v_get(e, "installation")) == id &&
                    cc_v_type(cc_v_get(e, "document")) == CUDNNCTL_OBJECT)
                        return cc_v_get(e, "document");
        }
        return NULL;
}

const cc_value *cc_dx_deps_edge(const struct cc_dctx *d, int64_t id, const char *name)
{
        const cc_value *nodes = cc_v_get(cc_dx_deps_of(d, id), "nodes");
        size_t i, j;

        for (i = 0; name != NULL && i < cc_v_len(nodes); i++) {
                const cc_value *edges = cc_v_get(cc_v_at(nodes, i), "edges");

                for (j = 0; j < cc_v_len(edges); j++) {
                        const char *n = cc_v_get_str(cc_v_at(edges, j), "name");

                        if (n != NULL && cc_strcasecmp(n, name) == 0)
                                return cc_v_at(edges, j);
                }
        }
        return NULL;
}

const cc_value *cc_dx_inst_file(const cc_value *inst, const char *name)
{
        const cc_value *files = cc_v_get(inst, "files");
        size_t i;

        for (i = 0; name != NULL && i < cc_v_len(files); i++) {
                const char *p = cc_v_get_str(cc_v_at(files, i), "path");

                if (p != NULL && cc_strcasecmp(cc_basename(p), name) == 0)
                        return cc_v_at(files, i);
        }
        return NULL;
}

int cc_dx_major(const cc_value *inst)
{
        const cc_value *mj = cc_v_get(inst, "majors");

        return cc_v_len(mj) > 0 ? (int)cc_v_as_int(cc_v_at(mj, cc_v_len(mj) - 1)) : 0;
}

int cc_dx_device_sm(const cc_value *gpu)
{
        const cc_value *mj = cc_v_get(gpu, "cc_major"), *mn = cc_v_get(gpu, "cc_minor");
        int64_t major = cc_v_as_int(mj), minor = cc_v_as_int(mn);

        /* Facts may come from another machine's document (--facts): a number
         * outside what a compute capability can be is not one. */
        if (cc_v_type(mj) != CUDNNCTL_INT || cc_v_type(mn) != CUDNNCTL_INT || major < 1 || major > 99 || minor < 0 ||
            minor > 9)
                return -1;
        return (int)(major * 10 + minor);
}

const cc_value *cc_dx_devices(const struct cc_dctx *d)
{
        size_t i;

        for (i = 0; i < cc_v_len(d->verify); i++) {
                const cc_value *dev =
                    cc_v_path(cc_v_get(cc_v_at(d->verify, i), "document"), "probes/driver/facts/devices");

                if (dev != NULL)
                        return dev;
        }
        return NULL;
}

/* ---- areas ------------------------------------------------------------------- */

static const struct {
        const char *id, *title;
} areas[] = {
    {"driver", "NVIDIA driver and GPUs"},
    {"toolkit", "CUDA toolkits"},
    {"cudnn", "cuDNN installations"},
    {"loader", "what a plain program loads"},
    {"headers", "headers"},
    {"runtime", "run-time proof"},
    {"hygiene", "loader-path hygiene"},
    {"frameworks", "Python frameworks"},
};

static int sev_rank(const char *s)
{
        return s == NULL ? 3 : strcmp(s, "error") == 0 ? 0 : strcmp(s, "warning") == 0 ? 1 : 2;
}

const char *cc_dx_str(const char *s)
{
        return s != NULL ? s : "?";
}

/* "torch 2.11.0: cuDNN 9.19.0 from DIR; tensorflow 2.18: CPU-only". */
static char *frameworks_line(const struct cc_dctx *d, const char **status, cc_error *err)
{
        const cc_value *fw = cc_v_get(d->facts, "frameworks"), *its = cc_v_get(fw, "interpreters");
        cc_buf b = {0};
        size_t i, k, n = 0;

        if (fw == NULL || its == NULL) {
                *status = "not-checked";
                return cc_strdup(err, cc_v_get_str(fw, "reason") ? cc_v_get_str(fw, "reason")
                                                                 : "not checked (no framework facts)");
        }
        for (i = 0; i < cc_v_len(its); i++) {
                const cc_value *fws = cc_v_get(cc_v_at(its, i), "frameworks");

                for (k = 0; k < cc_v_len(fws); k++) {
                        const cc_value *f = cc_v_at(fws, k), *cu = cc_v_get(f, "cudnn");
                        const char *ver = cc_v_get_str(cc_v_get(f, "info"), "version");
                        const char *state = cc_v_get_str(f, "state");
                        int cpu = cc_v_get(cc_v_get(f, "build"), "cuda_build") != NULL &&
                                  !cc_v_as_bool(cc_v_path(f, "build/cuda_build"));
                        int rc;

                        if (state == NULL || strcmp(state, "ok") != 0)
                                rc = cc_buf_printf(&b, err, "%s%s: %s", n ? "; " : "",
                                                   cc_dx_str(cc_v_get_str(f, "name")), state ? state : "no answer");
                        else if (cpu)
                                rc = cc_buf_printf(&b, err, "%s%s %s: CPU-only", n ? "; " : "",
                                                   cc_dx_str(cc_v_get_str(f, "name")), ver ? ver : "");
                        else if (cc_v_as_bool(cc_v_get(cu, "loaded")))
                                rc = cc_buf_printf(&b, err, "%s%s %s: cuDNN %s from %s", n ? "; " : "",
                                                   cc_dx_str(cc_v_get_str(f, "name")), ver ? ver : "",
                                                   cc_v_get_str(cu, "version") ? cc_v_get_str(cu, "version") : "?",
                                                   cc_dx_str(cc_v_get_str(cu, "directory")));
                        else
                                rc = cc_buf_printf(&b, err, "%s%s %s: no cuDNN mapped", n ? "; " : "",
                                                   cc_dx_str(cc_v_get_str(f, "name")), ver ? ver : "");
                        if (rc < 0) {
                                cc_buf_free(&b);
                                return NULL;
                        }
                        n++;
                }
        }
        if (n == 0) {
                *status = "none";
                cc_buf_free(&b);
                return cc_asprintf(err, "none found in %zu Python interpreter%s", cc_v_len(its),
                                   cc_v_len(its) == 1 ? "" : "s");
        }
        return cc_buf_steal(&b);
}

/* The one-line verdict of an area when it has no warning or error. */
static char *area_line(const struct cc_dctx *d, const char *id, const char **status, cc_error *err)
{
        const cc_value *pv = NULL;
        size_t i;

        for (i = 0; i < cc_v_len(d->verify); i++)
                if (strcmp(cc_v_get_str(cc_v_at(d->verify, i), "role") ? cc_v_get_str(cc_v_at(d->verify, i), "role")
                                                                       : "",
                           "other") != 0)
                        pv = cc_v_get(cc_v_at(d->verify, i), "document");
        *status = "ok";
        if (strcmp(id, "driver") == 0) {
                const cc_value *ev = cc_v_get(cc_dx_verify_check(pv, "driver"), "evidence");
                const cc_value *dev = cc_dx_devices(d);
                const char *state = cc_v_get_str(ev, "state");
                const char *nv = cc_v_get_str(cc_v_path(pv, "probes/driver/facts/nvml"), "driver_version");
                const char *fv = cc_v_get_str(cc_v_get(d->host, "driver_files"), "version");
                cc_buf b = {0};

                if (state == NULL || !d->live) {
                        *status = fv ? "ok" : "not-checked";
                        return fv ? cc_asprintf(err, "driver %s (from its files; not loaded: static check)", fv)
                                  : cc_strdup(err, d->live ? "not checked (no installation was proved)"
                                                           : "not checked (static check: nothing is loaded)");
                }
                if (strcmp(state, "ok") != 0) {
                        *status = "not-checked";
                        return cc_asprintf(err, "%s", cc_v_get_str(cc_dx_verify_check(pv, "driver"), "summary"));
                }
                if (cc_buf_printf(&b, err, "driver %s", nv ? nv : fv ? fv : "(version unknown)") < 0)
                        return NULL;
                for (i = 0; i < cc_v_len(dev); i++) {
                        const cc_value *g = cc_v_at(dev, i);

                        int sm = cc_dx_device_sm(g);
                        char smb[16];

                        if (sm >= 0)
                                snprintf(smb, sizeof(smb), "%d", sm);
                        if (cc_buf_printf(&b, err, "%s %s (sm_%s)", i ? "," : ";",
                                          cc_v_get_str(g, "name") ? cc_v_get_str(g, "name") : "GPU",
                                          sm >= 0 ? smb : "unknown") < 0) {
                                cc_buf_free(&b);
                                return NULL;
                        }
                }
                return cc_buf_steal(&b);
        }
        if (strcmp(id, "toolkit") == 0) {
                const cc_value *tk = cc_v_get(d->host, "toolkits");
                cc_buf b = {0};

                if (cc_v_len(tk) == 0) {
                        *status = "none";
                        return cc_strdup(err, "no CUDA toolkit found (not needed to run cuDNN programs, only to build "
                                              "CUDA code)");
                }
                for (i = 0; i < cc_v_len(tk); i++) {
                        const char *v = cc_v_get_str(cc_v_at(tk, i), "version");

                        if (cc_buf_printf(&b, err, "%sCUDA %s in %s", i ? "; " : "", v ? v : "(version unknown)",
                                          cc_v_get_str(cc_v_at(tk, i), "prefix")) < 0) {
                                cc_buf_free(&b);
                                return NULL;
                        }
                }
                return cc_buf_steal(&b);
        }
        if (strcmp(id, "cudnn") == 0) {
                const cc_value *insts = cc_v_get(d->list, "installations");
                cc_buf b = {0};

                if (cc_v_len(insts) == 0) {
                        *status = "none";
                        return cc_strdup(err, "none found");
                }
                for (i = 0; i < cc_v_len(insts); i++) {
                        const cc_value *in = cc_v_at(insts, i);
                        const char *v = cc_v_get_str(in, "version");

                        if (cc_buf_printf(&b, err, "%s%s in %s (%s)", i ? "; " : "", v ? v : "version unknown",
                                          cc_v_get_str(in, "prefix"),
                                          cc_v_get_str(cc_v_get(in, "provenance"), "kind")) < 0) {
                                cc_buf_free(&b);
                                return NULL;
                        }
                }
                return cc_buf_steal(&b);
        }
        if (strcmp(id, "loader") == 0) {
                const cc_value *r = cc_dx_plain_cudnn(d);

                if (r == NULL) {
                        *status = "none";
                        return cc_strdup(err, "a plain program finds no cuDNN");
                }
                return cc_asprintf(err, "%s => %s (%s), cuDNN %s", cc_v_get_str(r, "name"), cc_v_get_str(r, "path"),
                                   cc_v_get_str(r, "how") ? cc_v_get_str(r, "how") : "found",
                                   cc_v_get_str(r, "installation_version") ? cc_v_get_str(r, "installation_version")
                                                                           : "version unknown");
        }
        if (strcmp(id, "headers") == 0) {
                const cc_value *c = cc_dx_verify_check(pv, "header-vs-library");

                if (c == NULL) {
                        *status = "not-checked";
                        return cc_strdup(err, "not checked (no installation was verified)");
                }
                if (strcmp(cc_v_get_str(c, "status") ? cc_v_get_str(c, "status") : "", "passed") != 0)
                        *status = "not-checked";
                return cc_strdup(err, cc_v_get_str(c, "summary"));
        }
        if (strcmp(id, "runtime") == 0) {
                const cc_value *sum = cc_v_get(pv, "summary"), *layers = cc_v_get(pv, "layers");
                const char *verdict = cc_v_get_str(sum, "verdict");
                const cc_value *gw = cc_dx_verify_check(pv, "gpu-work");
                const cc_value *ver = cc_v_get(cc_dx_verify_check(pv, "version"), "evidence");
                const cc_value *printed = cc_v_path(pv, "compile/printed");
                cc_buf b = {0};
                int rc = 0;

                if (pv == NULL || !d->live) {
                        *status = "not-checked";
                        return cc_strdup(err, d->live ? "not checked (no installation to prove)"
                                                      : "not checked (static check: nothing is loaded or run)");
                }
                if (verdict != NULL && strcmp(verdict, "passed") != 0)
                        *status = strcmp(verdict, "failed") == 0 ? "error" : "partial";
                for (i = 0; i < cc_v_len(layers) && rc == 0; i++)
                        rc = cc_buf_printf(&b, err, "%s%s %s",
                                           i ? ", " : "layers: ", cc_v_get_str(cc_v_at(layers, i), "id"),
                                           cc_v_get_str(cc_v_at(layers, i), "status"));
                if (rc == 0 && cc_v_get(ver, "cudnnGetVersion") != NULL)
                        rc = cc_buf_printf(&b, err, "; cudnnGetVersion %lld",
                                           (long long)cc_v_as_int(cc_v_get(ver, "cudnnGetVersion")));
                if (rc == 0 && cc_v_get(printed, "runtime_version") != NULL)
                        rc = cc_buf_printf(&b, err, "; the compiled program: %lld",
                                           (long long)cc_v_as_int(cc_v_get(printed, "runtime_version")));
                if (rc == 0)
                        rc = cc_buf_printf(&b, err, "; GPU work %s", gw ? cc_v_get_str(gw, "status") : "not run");
                if (rc < 0) {
                        cc_buf_free(&b);
                        return NULL;
                }
                return cc_buf_steal(&b);
        }
        if (strcmp(id, "frameworks") == 0)
                return frameworks_line(d, status, err);
        if (strcmp(id, "hygiene") == 0) {
                const cc_value *sp = cc_v_get(d->host, "search_paths");
                size_t n = 0;

                for (i = 0; i < cc_v_len(sp); i++)
                        n += cc_v_len(cc_v_get(cc_v_at(sp, i), "entries"));
                return cc_asprintf(err, "%zu search-path entries looked at", n);
        }
        return cc_strdup(err, "");
}

/* ---- folding ----------------------------------------------------------------- */

/* Whether folder fm explains finding g (record gm) by subject `kind`. */
static int explains(const struct cc_dmeta *fm, const cc_value *g, const struct cc_dmeta *gm, enum cc_subject kind)
{
        const char *sum = cc_v_get_str(g, "summary");
        size_t i, k;
        char b[32];

        for (i = 0; i < fm->nsubj; i++) {
                const struct cc_dsubj *s = &fm->subj[i];

                if (!s->explains || s->kind != kind)
                        continue;
                switch (kind) {
                case CC_SUBJ_INSTALLATION:
                        /* what a finding's evidence names is what it is about */
                        snprintf(b, sizeof(b), "%lld", (long long)ev_inst(g));
                        if (ev_inst(g) != 0 && strcmp(b, s->value) == 0)
                                return 1;
                        break;
                case CC_SUBJ_NAMES_WINNER:
                case CC_SUBJ_NAMES_SHADOWED:
                case CC_SUBJ_NAMES_TARGET:
                        if (sum != NULL && strstr(sum, s->value) != NULL)
                                return 1;
                        break;
                default:
                        /* DLL names as Windows compares them */
                        for (k = 0; k < gm->nsubj; k++)
                                if (!gm->subj[k].explains && gm->subj[k].kind == kind &&
                                    (kind == CC_SUBJ_BAD_IMAGE ? cc_strcasecmp(gm->subj[k].value, s->value)
                                                               : strcmp(gm->subj[k].value, s->value)) == 0)
                                        return 1;
                        break;
                }
        }
        return 0;
}

/* Victim's id and summary go to into's evidence "also". */
static int fold_into(struct cc_dctx *d, cc_value *into, const cc_value *victim)
{
        cc_value *ev = cc_v_getm(into, "evidence"), *also = cc_v_getm(ev, "also"), *o;

        if (also == NULL) {
                if (cc_v_set(ev, "also", cc_v_array(d->err), d->err) < 0)
                        return -1;
                also = cc_v_getm(ev, "also");
        }
        o = cc_v_object(d->err);
        if (cc_v_push(also, o, d->err) < 0 || cc_v_set_str(o, "id", cc_v_get_str(victim, "id"), d->err) < 0 ||
            cc_v_set_str(o, "summary", cc_v_get_str(victim, "summary"), d->err) < 0)
                return -1;
        return 0;
}

/* One finding per cause: for each folder id of the relations, in their order,
 * each of its findings folds the findings its relations name; then the
 * folded ones leave the list. */
static int fold(struct cc_dctx *d)
{
        size_t nrel, r, k, i, j, n = cc_v_len(d->findings);
        const struct cc_relation *rel = cc_relations(&nrel);
        cc_value *keep;

        if (n > d->nmeta)
                n = d->nmeta;
        for (r = 0; r < nrel; r++) {
                if (r > 0 && rel[r].folder == rel[r - 1].folder)
                        continue; /* a folder's rows are taken together, at its first */
                for (i = 0; i < n; i++) {
                        cc_value *f = cc_v_atm(d->findings, i);

                        if (d->meta[i].fid != rel[r].folder || d->meta[i].folded || d->meta[i].nsubj == 0)
                                continue;
                        for (j = 0; j < n; j++) {
                                const cc_value *g = cc_v_at(d->findings, j);

                                if (j == i || d->meta[j].folded)
                                        continue;
                                for (k = r; k < nrel && rel[k].folder == rel[r].folder; k++) {
                                        if (rel[k].victim != CC_F_ANY && rel[k].victim != d->meta[j].fid)
                                                continue;
                                        if (!explains(&d->meta[i], g, &d->meta[j], rel[k].subject))
                                                continue;
                                        if (fold_into(d, f, g) < 0)
                                                return -1;
                                        d->meta[j].folded = 1;
                                        break;
                                }
                        }
                }
        }
        keep = cc_v_array(d->err);
        if (keep == NULL)
                return -1;
        for (i = 0; i < cc_v_len(d->findings); i++)
                if ((i >= n || !d->meta[i].folded) &&
                    cc_v_push(keep, cc_v_copy(cc_v_at(d->findings, i), d->err), d->err) < 0) {
                        cc_v_free(keep);
                        return -1;
                }
        cc_v_free(d->findings);
        d->findings = keep;
        cc_finding_meta_free(d);
        return 0;
}

/* Most severe first, keeping the checks' order within a severity; a finding
 * with the id and summary of one already kept is dropped. */
static int sort_findings(cc_value **findings, cc_error *err)
{
        size_t n = cc_v_len(*findings), i, k = 0;
        const cc_value **v;
        cc_value *sorted;
        int sev;

        v = cc_calloc(err, n ? n : 1, sizeof(*v));
        sorted = cc_v_array(err);
        if (v == NULL || sorted == NULL) {
                free(v);
                cc_v_free(sorted);
                return -1;
        }
        for (sev = 0; sev <= 3; sev++)
                for (i = 0; i < n; i++) {
                        const cc_value *f = cc_v_at(*findings, i);
                        const char *id = cc_v_get_str(f, "id"), *sm = cc_v_get_str(f, "summary");
                        size_t j;
                        int dup = 0;

                        if (sev_rank(cc_v_get_str(f, "severity")) != sev)
                                continue;
                        /* two checks that saw the same thing say it once */
                        for (j = 0; j < k && !dup; j++)
                                dup = id && sm && cc_v_get_str(v[j], "id") && cc_v_get_str(v[j], "summary") &&
                                      strcmp(cc_v_get_str(v[j], "id"), id) == 0 &&
                                      strcmp(cc_v_get_str(v[j], "summary"), sm) == 0;
                        if (!dup)
                                v[k++] = f;
                }
        for (i = 0; i < k; i++)
                if (cc_v_push(sorted, cc_v_copy(v[i], err), err) < 0) {
                        free(v);
                        cc_v_free(sorted);
                        return -1;
                }
        free(v);
        cc_v_free(*findings);
        *findings = sorted;
        return 0;
}

/* Where each finding's knowledge comes from: the catalog's row. */
static int add_catalog(cc_value *findings, cc_error *err)
{
        cc_error ke = {0};
        const cc_kb_table *t = cc_kb_get("catalog", &ke);
        size_t i, r;

        for (i = 0; i < cc_v_len(findings); i++) {
                cc_value *f = cc_v_atm(findings, i);
                const char *id = cc_v_get_str(f, "id");
                cc_value *c = NULL;

                for (r = 0; t != NULL && r < t->nrows; r++) {
                        const char *rid = cc_kb_cell(t, r, "id");

                        if (rid == NULL || strcmp(rid, id) != 0)
                                continue;
                        c = cc_v_object(err);
                        if (c == NULL || cc_v_set_str(c, "number", cc_kb_cell(t, r, "catalog_number"), err) < 0 ||
                            cc_v_set_str(c, "title", cc_kb_cell(t, r, "title"), err) < 0 ||
                            cc_v_set_str(c, "source", cc_kb_cell(t, r, "source"), err) < 0) {
                                cc_v_free(c);
                                return -1;
                        }
                        break;
                }
                if (cc_v_set(f, "catalog", c ? c : cc_v_null(err), err) < 0)
                        return -1;
        }
        return 0;
}

int cc_doctor_run_checks(cc_value *doc, cc_error *err)
{
        struct cc_dctx d;
        cc_value *areas_v = NULL, *sum = NULL;
        size_t i, j, nerr = 0, nwarn = 0, ninfo = 0;
        const char *sys = cc_v_get_str(cc_v_get(doc, "machine"), "system");
        enum cc_fid fid;

        memset(&d, 0, sizeof(d));
        d.facts = cc_v_get(doc, "facts");
        d.list = cc_v_get(d.facts, "list");
        d.which = cc_v_get(d.facts, "which");
        d.deps = cc_v_get(d.facts, "deps");
        d.verify = cc_v_get(d.facts, "verify");
        d.host = cc_v_get(d.facts, "host");
        d.windows = sys != NULL && strcmp(sys, "windows") == 0;
        d.live = cc_v_as_bool(cc_v_get(cc_v_get(doc, "machine"), "live"));
        d.shell = cc_v_get_str(d.host, "shell");
        d.err = err;
        d.findings = cc_v_array(err);
        if (d.findings == NULL)
                return -1;
        /* The frameworks' verdicts are decided again from their facts (so
         * a recheck on another machine's facts decides the same way). */
        {
                cc_value *fw = cc_v_getm(cc_v_getm(doc, "facts"), "frameworks");

                if (cc_v_getm(fw, "interpreters") != NULL &&
                    cc_fw_judge(cc_v_getm(fw, "interpreters"), d.list, cc_dx_plain_cudnn(&d),
                                cc_v_get_str(fw, "expect"), d.windows, err) < 0)
                        goto fail;
        }
        /* every check, in the registry's order */
        for (fid = 0; fid < CC_F_COUNT; fid++) {
                d.running = fid;
                if (cc_finding_def(fid)->check(&d) < 0)
                        goto fail;
        }
        d.running = CC_F_NONE;
        if (fold(&d) < 0)
                goto fail;
        if (sort_findings(&d.findings, err) < 0 || add_catalog(d.findings, err) < 0)
                goto fail;
        areas_v = cc_v_array(err);
        if (areas_v == NULL)
                goto fail;
        for (i = 0; i < CC_ARRAY_LEN(areas); i++) {
                cc_value *a = cc_v_object(err), *ids = cc_v_array(err);
                const char *status = NULL;
                char *line;
                int worst = 3;

                if (cc_v_push(areas_v, a, err) < 0 || cc_v_set(a, "findings", ids, err) < 0)
                        goto fail;
                for (j = 0; j < cc_v_len(d.findings); j++) {
                        const cc_value *f = cc_v_at(d.findings, j);
                        const char *ar = cc_v_get_str(f, "area");
                        int r = sev_rank(cc_v_get_str(f, "severity"));

                        if (ar == NULL || strcmp(ar, areas[i].id) != 0)
                                continue;
                        if (r < worst)
                                worst = r;
                        if (cc_v_push(ids, cc_v_str(cc_v_get_str(f, "id"), err), err) < 0)
                                goto fail;
                }
                line = area_line(&d, areas[i].id, &status, err);
                if (line == NULL)
                        goto fail;
                if (worst == 0)
                        status = "error";
                else if (worst == 1)
                        status = "warning";
                if (cc_v_set_str(a, "id", areas[i].id, err) < 0 || cc_v_set_str(a, "title", areas[i].title, err) < 0 ||
                    cc_v_set_str(a, "status", status, err) < 0 || cc_v_set_str(a, "summary", line, err) < 0) {
                        free(line);
                        goto fail;
                }
                free(line);
        }
        for (j = 0; j < cc_v_len(d.findings); j++) {
                int r = sev_rank(cc_v_get_str(cc_v_at(d.findings, j), "severity"));

                nerr += r == 0;
                nwarn += r == 1;
                ninfo += r == 2;
        }
        sum = cc_v_object(err);
        if (sum == NULL ||
            cc_v_set_str(sum, "verdict",
                         nerr    ? "errors"
                         : nwarn ? "warnings"
                                 : "healthy",
                         err) < 0 ||
            cc_v_set_int(sum, "errors", (int64_t)nerr, err) < 0 ||
            cc_v_set_int(sum, "warnings", (int64_t)nwarn, err) < 0 ||
            cc_v_set_int(sum, "infos", (int64_t)ninfo, err) < 0)
                goto fail;
        if (cc_v_set(doc, "areas", areas_v, err) < 0) {
                areas_v = NULL;
                goto fail;
        }
        areas_v = NULL;
        if (cc_v_set(doc, "findings", d.findings, err) < 0) {
                d.findings = NULL;
                goto fail;
        }
        d.findings = NULL;
        if (cc_v_set(doc, "summary", sum, err) < 0)
                return -1;
        return 0;
fail:
        cc_finding_meta_free(&d);
        cc_v_free(d.findings);
        cc_v_free(areas_v);
        cc_v_free(sum);
        return -1;
}
