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
        if (cc_v_set_str(f, CC_K(finding, id), def->id, d->err) < 0 ||
            cc_v_set_str(f, CC_K(finding, severity), severity ? severity : def->severity, d->err) < 0 ||
            cc_v_set_str(f, CC_K(finding, area), area ? area : def->area, d->err) < 0 ||
            cc_v_set_str(f, CC_K(finding, summary), s, d->err) < 0 ||
            cc_v_set(f, CC_K(finding, evidence), cc_v_object(d->err), d->err) < 0 ||
            cc_v_set_null(f, CC_K(finding, fix), d->err) < 0) {
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
        cc_vw_finding fv;
        cc_vw_finding_evidence ev;

        cc_vw_finding_read(f, &fv, NULL);
        cc_vw_finding_evidence_read(fv.evidence, &ev, NULL);
        return ev.installation;
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
        return cc_v_set(cc_v_getm(f, CC_K(finding, evidence)), key, value, err);
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
        rc = cc_v_set_str(f, CC_K(finding, fix), s, err);
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

const cc_vw_installation *cc_dx_inst(const struct cc_dctx *d, int64_t id)
{
        size_t i;

        for (i = 0; i < d->v.ninsts; i++)
                if (d->v.insts[i].id == id)
                        return &d->v.insts[i];
        return NULL;
}

const cc_value *cc_dx_install(const struct cc_dctx *d, int64_t id)
{
        const cc_vw_installation *in = cc_dx_inst(d, id);

        /* the element itself, also one that is not an object */
        return in != NULL ? cc_v_at(d->v.list.installations, (size_t)(in - d->v.insts)) : NULL;
}

const cc_value *cc_dx_verify_of(const struct cc_dctx *d, int64_t id)
{
        size_t i;

        for (i = 0; i < cc_v_len(d->verify); i++) {
                cc_vw_verify_entry e;

                cc_vw_verify_entry_at(d->verify, i, &e, NULL);
                if (e.installation == id && e.document != NULL)
                        return e.document;
        }
        return NULL;
}

const cc_value *cc_dx_verify_check(const cc_value *vdoc, const char *id)
{
        cc_vw_verify_doc vd;
        size_t i, j;

        cc_vw_verify_doc_read(vdoc, &vd, NULL);
        for (i = 0; i < cc_v_len(vd.layers); i++) {
                cc_vw_layer l;

                cc_vw_layer_at(vd.layers, i, &l, NULL);
                for (j = 0; j < cc_v_len(l.checks); j++) {
                        cc_vw_check c;

                        cc_vw_check_at(l.checks, j, &c, NULL);
                        if (c.id != NULL && strcmp(c.id, id) == 0)
                                return c.node_;
                }
        }
        return NULL;
}

const cc_value *cc_dx_which(const struct cc_dctx *d, const char *name)
{
        cc_vw_which_doc w;
        size_t i;

        cc_vw_which_doc_read(d->which, &w, NULL);
        for (i = 0; i < cc_v_len(w.results); i++) {
                cc_vw_resolution r;

                cc_vw_resolution_at(w.results, i, &r, NULL);
                if (r.name != NULL && (d->windows ? cc_strcasecmp(r.name, name) == 0 : strcmp(r.name, name) == 0))
                        return r.node_;
        }
        return NULL;
}

const cc_value *cc_dx_plain_cudnn(const struct cc_dctx *d)
{
        cc_vw_which_doc w;
        size_t i;

        cc_vw_which_doc_read(d->which, &w, NULL);
        for (i = 0; i < cc_v_len(w.results); i++) {
                cc_vw_resolution r;

                cc_vw_resolution_at(w.results, i, &r, NULL);
                if (r.name == NULL || !r.found)
                        continue;
                if (cc_starts_with(r.name, "libcudnn.so") ||
                    (cc_starts_with(r.name, "cudnn64_") && cc_ends_with_nocase(r.name, ".dll")))
                        return r.node_;
        }
        return NULL;
}

const cc_value *cc_dx_deps_of(const struct cc_dctx *d, int64_t id)
{
        size_t i;

        for (i = 0; i < cc_v_len(d->deps); i++) {
                cc_vw_deps_entry e;

                cc_vw_deps_entry_at(d->deps, i, &e, NULL);
                if (e.installation == id && e.document != NULL)
                        return e.document;
        }
        return NULL;
}

const cc_value *cc_dx_deps_edge(const struct cc_dctx *d, int64_t id, const char *name)
{
        cc_vw_deps_doc dd;
        size_t i, j;

        cc_vw_deps_doc_read(cc_dx_deps_of(d, id), &dd, NULL);
        for (i = 0; name != NULL && i < cc_v_len(dd.nodes); i++) {
                cc_vw_node n;

                cc_vw_node_at(dd.nodes, i, &n, NULL);
                for (j = 0; j < cc_v_len(n.edges); j++) {
                        cc_vw_edge e;

                        cc_vw_edge_at(n.edges, j, &e, NULL);
                        if (e.name != NULL && cc_strcasecmp(e.name, name) == 0)
                                return e.node_;
                }
        }
        return NULL;
}

const cc_value *cc_dx_inst_file(const cc_value *inst, const char *name)
{
        cc_vw_installation in;
        size_t i;

        cc_vw_installation_read(inst, &in, NULL);
        for (i = 0; name != NULL && i < cc_v_len(in.files); i++) {
                cc_vw_file f;

                cc_vw_file_at(in.files, i, &f, NULL);
                if (f.path != NULL && cc_strcasecmp(cc_basename(f.path), name) == 0)
                        return f.node_;
        }
        return NULL;
}

int cc_dx_major(const cc_value *inst)
{
        cc_vw_installation in;
        size_t n;

        cc_vw_installation_read(inst, &in, NULL);
        n = cc_v_len(in.majors);
        return n > 0 ? (int)cc_v_as_int(cc_v_at(in.majors, n - 1)) : 0;
}

int cc_dx_device_sm(const cc_value *gpu)
{
        cc_vw_device g;

        cc_vw_device_read(gpu, &g, NULL);
        /* Facts may come from another machine's document (--facts): a number
         * outside what a compute capability can be is not one. */
        if (!CC_VW_HAS(&g, device, cc_major) || !CC_VW_HAS(&g, device, cc_minor) || g.cc_major < 1 || g.cc_major > 99 ||
            g.cc_minor < 0 || g.cc_minor > 9)
                return -1;
        return (int)(g.cc_major * 10 + g.cc_minor);
}

/* The driver probe's facts in verify document vdoc (empty when it has none). */
static void driver_facts_of(const cc_value *vdoc, cc_vw_driver_facts *out)
{
        cc_vw_verify_doc vd;
        cc_vw_verify_probes ps;
        cc_vw_probe pr;

        cc_vw_verify_doc_read(vdoc, &vd, NULL);
        cc_vw_verify_probes_read(vd.probes, &ps, NULL);
        cc_vw_probe_read(ps.driver, &pr, NULL);
        cc_vw_driver_facts_read(pr.facts, out, NULL);
}

const cc_value *cc_dx_devices(const struct cc_dctx *d)
{
        size_t i;

        for (i = 0; i < cc_v_len(d->verify); i++) {
                cc_vw_verify_entry e;
                cc_vw_driver_facts df;

                cc_vw_verify_entry_at(d->verify, i, &e, NULL);
                driver_facts_of(e.document, &df);
                if (df.devices != NULL)
                        return df.devices;
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

/* Whether obj has key, whatever its value. A view's CC_VW_HAS says "there,
 * with its type"; the area lines below were written to take a key that is
 * there with null as there (a verify entry whose document is null, a build
 * whose cuda_build was not read, a program that printed no runtime
 * version), and keep saying what they said. */
static int has_key(const cc_value *obj, const char *key)
{
        return cc_v_type(obj) == CUDNNCTL_OBJECT && cudnnctl_value_get(obj, key) != NULL;
}

/* "torch 2.11.0: cuDNN 9.19.0 from DIR; tensorflow 2.18: CPU-only". */
static char *frameworks_line(const struct cc_dctx *d, const char **status, cc_error *err)
{
        cc_vw_fw_facts fw;
        cc_buf b = {0};
        size_t i, k, n = 0;

        if (cc_vw_fw_facts_read(d->v.facts.frameworks, &fw, NULL) < 0 || fw.interpreters == NULL) {
                *status = "not-checked";
                return cc_strdup(err, fw.reason ? fw.reason : "not checked (no framework facts)");
        }
        for (i = 0; i < cc_v_len(fw.interpreters); i++) {
                cc_vw_interpreter it;

                cc_vw_interpreter_at(fw.interpreters, i, &it, NULL);
                for (k = 0; k < cc_v_len(it.frameworks); k++) {
                        cc_vw_framework f;
                        cc_vw_fw_info info;
                        cc_vw_fw_build build;
                        cc_vw_fw_cudnn cu;
                        const char *name, *ver;
                        int cpu, rc;

                        cc_vw_framework_at(it.frameworks, k, &f, NULL);
                        cc_vw_fw_info_read(f.info, &info, NULL);
                        cc_vw_fw_build_read(f.build, &build, NULL);
                        cc_vw_fw_cudnn_read(f.cudnn, &cu, NULL);
                        name = cc_dx_str(f.name);
                        ver = info.version;
                        cpu = has_key(f.build, CC_K(fw_build, cuda_build)) && !build.cuda_build;
                        if (f.state == NULL || strcmp(f.state, "ok") != 0)
                                rc = cc_buf_printf(&b, err, "%s%s: %s", n ? "; " : "", name,
                                                   f.state ? f.state : "no answer");
                        else if (cpu)
                                rc = cc_buf_printf(&b, err, "%s%s %s: CPU-only", n ? "; " : "", name, ver ? ver : "");
                        else if (cu.loaded)
                                rc = cc_buf_printf(&b, err, "%s%s %s: cuDNN %s from %s", n ? "; " : "", name,
                                                   ver ? ver : "", cu.version ? cu.version : "?",
                                                   cc_dx_str(cu.directory));
                        else
                                rc = cc_buf_printf(&b, err, "%s%s %s: no cuDNN mapped", n ? "; " : "", name,
                                                   ver ? ver : "");
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
                return cc_asprintf(err, "none found in %zu Python interpreter%s", cc_v_len(fw.interpreters),
                                   cc_v_len(fw.interpreters) == 1 ? "" : "s");
        }
        return cc_buf_steal(&b);
}

/* The summary and status of verify check `id` of verify document vdoc (an
 * empty view when it has none). */
static void check_of(const cc_value *vdoc, const char *id, cc_vw_check *out)
{
        cc_vw_check_read(cc_dx_verify_check(vdoc, id), out, NULL);
}

static char *driver_line(const struct cc_dctx *d, const cc_value *pv, const char **status, cc_error *err)
{
        cc_vw_check c;
        cc_vw_driver_evidence ev;
        cc_vw_driver_facts df;
        cc_vw_nvml nvml;
        cc_vw_driver_files files;
        const cc_value *dev = cc_dx_devices(d);
        const char *nv, *fv;
        cc_buf b = {0};
        size_t i;

        check_of(pv, "driver", &c);
        cc_vw_driver_evidence_read(c.evidence, &ev, NULL);
        driver_facts_of(pv, &df);
        cc_vw_nvml_read(df.nvml, &nvml, NULL);
        cc_vw_driver_files_read(d->v.host.driver_files, &files, NULL);
        nv = nvml.driver_version;
        fv = files.version;
        if (ev.state == NULL || !d->live) {
                *status = fv ? "ok" : "not-checked";
                return fv ? cc_asprintf(err, "driver %s (from its files; not loaded: static check)", fv)
                          : cc_strdup(err, d->live ? "not checked (no installation was proved)"
                                                   : "not checked (static check: nothing is loaded)");
        }
        if (strcmp(ev.state, "ok") != 0) {
                *status = "not-checked";
                return cc_asprintf(err, "%s", c.summary);
        }
        if (cc_buf_printf(&b, err, "driver %s", nv ? nv : fv ? fv : "(version unknown)") < 0)
                return NULL;
        for (i = 0; i < cc_v_len(dev); i++) {
                cc_vw_device g;
                int sm = cc_dx_device_sm(cc_v_at(dev, i));
                char smb[16];

                cc_vw_device_at(dev, i, &g, NULL);
                if (sm >= 0)
                        snprintf(smb, sizeof(smb), "%d", sm);
                if (cc_buf_printf(&b, err, "%s %s (sm_%s)", i ? "," : ";", g.name ? g.name : "GPU",
                                  sm >= 0 ? smb : "unknown") < 0) {
                        cc_buf_free(&b);
                        return NULL;
                }
        }
        return cc_buf_steal(&b);
}

/* pv_there: the verify entry has a document key at all (pv is NULL when
 * that is not an object). */
static char *runtime_line(const struct cc_dctx *d, const cc_value *pv, int pv_there, const char **status, cc_error *err)
{
        cc_vw_verify_doc vd;
        cc_vw_verify_summary sum;
        cc_vw_check gw, vc;
        cc_vw_version_evidence ver;
        cc_vw_compile comp;
        cc_vw_compile_printed printed;
        cc_buf b = {0};
        size_t i;
        int rc = 0;

        if (!pv_there || !d->live) {
                *status = "not-checked";
                return cc_strdup(err, d->live ? "not checked (no installation to prove)"
                                              : "not checked (static check: nothing is loaded or run)");
        }
        cc_vw_verify_doc_read(pv, &vd, NULL);
        cc_vw_verify_summary_read(vd.summary, &sum, NULL);
        check_of(pv, "gpu-work", &gw);
        check_of(pv, "version", &vc);
        cc_vw_version_evidence_read(vc.evidence, &ver, NULL);
        cc_vw_compile_read(vd.compile, &comp, NULL);
        cc_vw_compile_printed_read(comp.printed, &printed, NULL);
        if (sum.verdict != NULL && strcmp(sum.verdict, "passed") != 0)
                *status = strcmp(sum.verdict, "failed") == 0 ? "error" : "partial";
        for (i = 0; i < cc_v_len(vd.layers) && rc == 0; i++) {
                cc_vw_layer l;

                cc_vw_layer_at(vd.layers, i, &l, NULL);
                rc = cc_buf_printf(&b, err, "%s%s %s", i ? ", " : "layers: ", l.id, l.status);
        }
        if (rc == 0 && CC_VW_HAS(&ver, version_evidence, cudnnGetVersion))
                rc = cc_buf_printf(&b, err, "; cudnnGetVersion %lld", (long long)ver.cudnnGetVersion);
        if (rc == 0 && has_key(comp.printed, CC_K(compile_printed, runtime_version)))
                rc = cc_buf_printf(&b, err, "; the compiled program: %lld", (long long)printed.runtime_version);
        if (rc == 0)
                rc = cc_buf_printf(&b, err, "; GPU work %s", gw.node_ ? gw.status : "not run");
        if (rc < 0) {
                cc_buf_free(&b);
                return NULL;
        }
        return cc_buf_steal(&b);
}

/* The one-line verdict of an area when it has no warning or error. */
static char *area_line(const struct cc_dctx *d, const char *id, const char **status, cc_error *err)
{
        const cc_value *pv = NULL;
        int pv_there = 0;
        size_t i;

        /* the last proof of what a program loads (not of an "other" installation) */
        for (i = 0; i < cc_v_len(d->verify); i++) {
                cc_vw_verify_entry e;

                cc_vw_verify_entry_at(d->verify, i, &e, NULL);
                if (strcmp(e.role ? e.role : "", "other") != 0) {
                        pv = e.document;
                        pv_there = has_key(e.node_, CC_K(verify_entry, document));
                }
        }
        *status = "ok";
        if (strcmp(id, "driver") == 0)
                return driver_line(d, pv, status, err);
        if (strcmp(id, "toolkit") == 0) {
                const cc_value *tk = d->v.host.toolkits;
                cc_buf b = {0};

                if (cc_v_len(tk) == 0) {
                        *status = "none";
                        return cc_strdup(err, "no CUDA toolkit found (not needed to run cuDNN programs, only to build "
                                              "CUDA code)");
                }
                for (i = 0; i < cc_v_len(tk); i++) {
                        cc_vw_toolkit t;

                        cc_vw_toolkit_at(tk, i, &t, NULL);
                        if (cc_buf_printf(&b, err, "%sCUDA %s in %s", i ? "; " : "",
                                          t.version ? t.version : "(version unknown)", t.prefix) < 0) {
                                cc_buf_free(&b);
                                return NULL;
                        }
                }
                return cc_buf_steal(&b);
        }
        if (strcmp(id, "cudnn") == 0) {
                cc_buf b = {0};

                if (d->v.ninsts == 0) {
                        *status = "none";
                        return cc_strdup(err, "none found");
                }
                for (i = 0; i < d->v.ninsts; i++) {
                        const cc_vw_installation *in = &d->v.insts[i];
                        cc_vw_provenance pvn;

                        cc_vw_provenance_read(in->provenance, &pvn, NULL);
                        char *ver = cc_dx_inst_version(in, err);

                        if (ver == NULL ||
                            cc_buf_printf(&b, err, "%s%s in %s (%s)", i ? "; " : "", ver, in->prefix, pvn.kind) < 0) {
                                free(ver);
                                cc_buf_free(&b);
                                return NULL;
                        }
                        free(ver);
                }
                return cc_buf_steal(&b);
        }
        if (strcmp(id, "loader") == 0) {
                cc_vw_resolution r;

                if (cc_vw_resolution_read(cc_dx_plain_cudnn(d), &r, NULL) < 0) {
                        *status = "none";
                        return cc_strdup(err, "a plain program finds no cuDNN");
                }
                return cc_asprintf(err, "%s => %s (%s), cuDNN %s", r.name, r.path, r.how ? r.how : "found",
                                   r.installation_version ? r.installation_version : "version unknown");
        }
        if (strcmp(id, "headers") == 0) {
                cc_vw_check c;

                check_of(pv, "header-vs-library", &c);
                if (c.node_ == NULL) {
                        *status = "not-checked";
                        return cc_strdup(err, "not checked (no installation was verified)");
                }
                if (strcmp(c.status ? c.status : "", "passed") != 0)
                        *status = "not-checked";
                return cc_strdup(err, c.summary);
        }
        if (strcmp(id, "runtime") == 0)
                return runtime_line(d, pv, pv_there, status, err);
        if (strcmp(id, "frameworks") == 0)
                return frameworks_line(d, status, err);
        if (strcmp(id, "hygiene") == 0) {
                const cc_value *sp = d->v.host.search_paths;
                size_t n = 0;

                for (i = 0; i < cc_v_len(sp); i++) {
                        cc_vw_search_path p;

                        cc_vw_search_path_at(sp, i, &p, NULL);
                        n += cc_v_len(p.entries);
                }
                return cc_asprintf(err, "%zu search-path entries looked at", n);
        }
        return cc_strdup(err, "");
}

/* The disagreement group of the release most of an installation's
 * libraries have (headers do not count), or -1 when none has a library. */
static long lib_group(const cc_vw_installation *in)
{
        size_t i, j, n, nmost = 0;
        long most = -1;

        for (i = 0; i < cc_v_len(in->disagreements); i++) {
                cc_vw_disagreement g;

                cc_vw_disagreement_at(in->disagreements, i, &g, NULL);
                for (j = 0, n = 0; j < cc_v_len(g.files); j++)
                        n += !cc_ends_with(cc_dx_str(cc_v_as_str(cc_v_at(g.files, j))), ".h");
                if (n > nmost) {
                        nmost = n;
                        most = (long)i;
                }
        }
        return most;
}

const char *cc_dx_inst_lib_version(const cc_vw_installation *in)
{
        cc_vw_disagreement g;
        long k;

        if (in->version != NULL)
                return in->version;
        k = lib_group(in);
        if (k < 0)
                return NULL;
        cc_vw_disagreement_at(in->disagreements, (size_t)k, &g, NULL);
        return g.version;
}

char *cc_dx_inst_version(const cc_vw_installation *in, cc_error *err)
{
        size_t i, j, most, nfiles;
        cc_buf b = {0};
        int rc = 0;

        if (in->version != NULL)
                return cc_strdup(err, in->version);
        if (cc_v_len(in->disagreements) < 2)
                return cc_strdup(err, "version unknown");
        /* the release most libraries have, then the others with their files */
        most = lib_group(in) < 0 ? 0 : (size_t)lib_group(in);
        for (i = 0; rc == 0 && i < cc_v_len(in->disagreements); i++) {
                cc_vw_disagreement g;

                cc_vw_disagreement_at(in->disagreements, i, &g, NULL);
                rc = cc_buf_printf(&b, err, "%s%s", i ? " + " : "", cc_dx_str(g.version));
        }
        for (i = 0; rc == 0 && i < cc_v_len(in->disagreements); i++) {
                cc_vw_disagreement g;

                cc_vw_disagreement_at(in->disagreements, i, &g, NULL);
                nfiles = cc_v_len(g.files);
                if (i == most || nfiles == 0)
                        continue;
                rc = cc_buf_puts(&b, " (", err);
                for (j = 0; rc == 0 && j < nfiles && j < 2; j++)
                        rc = cc_buf_printf(&b, err, "%s%s", j ? ", " : "",
                                           cc_basename(cc_dx_str(cc_v_as_str(cc_v_at(g.files, j)))));
                if (rc == 0 && nfiles > 2)
                        rc = cc_buf_printf(&b, err, " and %zu more", nfiles - 2);
                if (rc == 0)
                        rc = cc_buf_printf(&b, err, ": %s)", cc_dx_str(g.version));
        }
        if (rc < 0) {
                cc_buf_free(&b);
                return NULL;
        }
        return cc_buf_steal(&b);
}

/* ---- folding ----------------------------------------------------------------- */

/* Whether folder fm explains finding g (record gm) by subject `kind`. */
static int explains(const struct cc_dmeta *fm, const cc_value *g, const struct cc_dmeta *gm, enum cc_subject kind)
{
        cc_vw_finding gv;
        const char *sum;
        size_t i, k;
        char b[32];

        cc_vw_finding_read(g, &gv, NULL);
        sum = gv.summary;

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

/* Victim's id and summary go to into's evidence "also"; by a relation of
 * kind `kind` (CAUSES, SUPERSEDES) into takes victim's severity when that
 * is worse. */
static int fold_into(struct cc_dctx *d, cc_value *into, const cc_value *victim, enum cc_relation_kind kind)
{
        cc_value *ev = cc_v_getm(into, CC_K(finding, evidence));
        cc_value *also = cc_v_getm(ev, CC_K(finding_evidence, also)), *o;
        cc_vw_finding vv;

        if (also == NULL) {
                if (cc_v_set(ev, CC_K(finding_evidence, also), cc_v_array(d->err), d->err) < 0)
                        return -1;
                also = cc_v_getm(ev, CC_K(finding_evidence, also));
        }
        cc_vw_finding_read(victim, &vv, NULL);
        /* a cause is as severe as the worst of what it explains */
        {
                cc_vw_finding iv;

                cc_vw_finding_read(into, &iv, NULL);
                if (kind != CC_REL_EXPLAINS && sev_rank(vv.severity) < sev_rank(iv.severity) &&
                    cc_v_set_str(into, CC_K(finding, severity), vv.severity, d->err) < 0)
                        return -1;
        }
        o = cc_v_object(d->err);
        if (cc_v_push(also, o, d->err) < 0 || cc_v_set_str(o, "id", vv.id, d->err) < 0 ||
            cc_v_set_str(o, "summary", vv.summary, d->err) < 0)
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
                                        if (fold_into(d, f, g, rel[k].kind) < 0)
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
                        cc_vw_finding f;
                        size_t j;
                        int dup = 0;

                        cc_vw_finding_at(*findings, i, &f, NULL);
                        if (sev_rank(f.severity) != sev)
                                continue;
                        /* two checks that saw the same thing say it once */
                        for (j = 0; j < k && !dup; j++) {
                                cc_vw_finding g;

                                cc_vw_finding_read(v[j], &g, NULL);
                                dup = f.id && f.summary && g.id && g.summary && strcmp(g.id, f.id) == 0 &&
                                      strcmp(g.summary, f.summary) == 0;
                        }
                        if (!dup)
                                v[k++] = cc_v_at(*findings, i);
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
                cc_vw_finding fv;
                const char *id;
                cc_value *c = NULL;

                cc_vw_finding_read(f, &fv, NULL);
                id = fv.id;

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
                if (cc_v_set(f, CC_K(finding, catalog), c ? c : cc_v_null(err), err) < 0)
                        return -1;
        }
        return 0;
}

/* The runner's typed reading of the facts (d->v), and the old pointers of
 * the context taken from it; -1 when out of memory. */
static int read_facts(struct cc_dctx *d, const cc_value *doc)
{
        cc_vw_doctor dv;
        cc_vw_machine mv;
        size_t i;

        cc_vw_doctor_read(doc, &dv, NULL);
        cc_vw_machine_read(dv.machine, &mv, NULL);
        cc_vw_doctor_facts_read(dv.facts, &d->v.facts, NULL);
        cc_vw_list_doc_read(d->v.facts.list, &d->v.list, NULL);
        cc_vw_which_doc_read(d->v.facts.which, &d->v.which, NULL);
        cc_vw_host_read(d->v.facts.host, &d->v.host, NULL);
        d->v.ninsts = cc_v_len(d->v.list.installations);
        d->v.insts = cc_calloc(d->err, d->v.ninsts ? d->v.ninsts : 1, sizeof(*d->v.insts));
        if (d->v.insts == NULL)
                return -1;
        for (i = 0; i < d->v.ninsts; i++)
                cc_vw_installation_at(d->v.list.installations, i, &d->v.insts[i], NULL);
        d->facts = dv.facts;
        d->list = d->v.facts.list;
        d->which = d->v.facts.which;
        d->deps = d->v.facts.deps;
        d->verify = d->v.facts.verify;
        d->host = d->v.facts.host;
        d->windows = mv.system != NULL && strcmp(mv.system, "windows") == 0;
        d->live = mv.live;
        d->shell = d->v.host.shell;
        return 0;
}

int cc_doctor_run_checks(cc_value *doc, cc_error *err)
{
        struct cc_dctx d;
        cc_value *areas_v = NULL, *sum = NULL;
        size_t i, j, nerr = 0, nwarn = 0, ninfo = 0;
        enum cc_fid fid;

        memset(&d, 0, sizeof(d));
        d.err = err;
        if (read_facts(&d, doc) < 0)
                return -1;
        d.findings = cc_v_array(err);
        if (d.findings == NULL)
                goto fail;
        /* The frameworks' verdicts are decided again from their facts (so
         * a recheck on another machine's facts decides the same way). */
        {
                cc_value *fw = cc_v_getm(cc_v_getm(doc, CC_K(doctor, facts)), CC_K(doctor_facts, frameworks));
                cc_vw_fw_facts fv;

                cc_vw_fw_facts_read(fw, &fv, NULL);
                if (fv.interpreters != NULL && cc_fw_judge(cc_v_getm(fw, CC_K(fw_facts, interpreters)), d.list,
                                                           cc_dx_plain_cudnn(&d), fv.expect, d.windows, err) < 0)
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

                if (cc_v_push(areas_v, a, err) < 0 || cc_v_set(a, CC_K(area, findings), ids, err) < 0)
                        goto fail;
                for (j = 0; j < cc_v_len(d.findings); j++) {
                        cc_vw_finding f;
                        int r;

                        cc_vw_finding_at(d.findings, j, &f, NULL);
                        r = sev_rank(f.severity);
                        if (f.area == NULL || strcmp(f.area, areas[i].id) != 0)
                                continue;
                        if (r < worst)
                                worst = r;
                        if (cc_v_push(ids, cc_v_str(f.id, err), err) < 0)
                                goto fail;
                }
                line = area_line(&d, areas[i].id, &status, err);
                if (line == NULL)
                        goto fail;
                if (worst == 0)
                        status = "error";
                else if (worst == 1)
                        status = "warning";
                if (cc_v_set_str(a, CC_K(area, id), areas[i].id, err) < 0 ||
                    cc_v_set_str(a, CC_K(area, title), areas[i].title, err) < 0 ||
                    cc_v_set_str(a, CC_K(area, status), status, err) < 0 ||
                    cc_v_set_str(a, CC_K(area, summary), line, err) < 0) {
                        free(line);
                        goto fail;
                }
                free(line);
        }
        for (j = 0; j < cc_v_len(d.findings); j++) {
                cc_vw_finding f;
                int r;

                cc_vw_finding_at(d.findings, j, &f, NULL);
                r = sev_rank(f.severity);
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
        free(d.v.insts);
        d.v.insts = NULL;
        d.v.ninsts = 0;
        if (cc_v_set(doc, CC_K(doctor, areas), areas_v, err) < 0) {
                areas_v = NULL;
                goto fail;
        }
        areas_v = NULL;
        if (cc_v_set(doc, CC_K(doctor, findings), d.findings, err) < 0) {
                d.findings = NULL;
                goto fail;
        }
        d.findings = NULL;
        if (cc_v_set(doc, CC_K(doctor, summary), sum, err) < 0)
                return -1;
        return 0;
fail:
        free(d.v.insts);
        cc_finding_meta_free(&d);
        cc_v_free(d.findings);
        cc_v_free(areas_v);
        cc_v_free(sum);
        return -1;
}
