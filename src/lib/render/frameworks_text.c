/* Text for the frameworks document: per interpreter, per framework, what it
 * was built with, the cuDNN it loads and from where, and the verdicts. The
 * document is read through its views (facts/views.h); what a framework's
 * child answered (its build, devices, modules) is read as it came, of any
 * type, the way the document carries it. */
#include <stdio.h>
#include <string.h>

#include "../facts/views.h"
#include "text.h"

static const char *mark(const struct cc_text *t, const char *status, const char **sgr)
{
        *sgr = "";
        if (status == NULL)
                return "  ?  ";
        if (strcmp(status, "pass") == 0) {
                *sgr = cc_text_sgr(t, CC_SGR_GREEN);
                return " ok  ";
        }
        if (strcmp(status, "fail") == 0) {
                *sgr = cc_text_sgr(t, CC_SGR_RED);
                return "FAIL ";
        }
        if (strcmp(status, "warn") == 0) {
                *sgr = cc_text_sgr(t, CC_SGR_YELLOW);
                return "warn ";
        }
        if (strcmp(status, "note") == 0)
                return "note ";
        return "  ?  ";
}

static int line(struct cc_text *t, int indent, const char *label, const char *value)
{
        return cc_text_field(t, indent, 10, label, value);
}

/* s escaped, then spaces up to width bytes. */
static int padded(struct cc_text *t, const char *s, size_t width)
{
        size_t before = t->b->len;

        if (cc_text_put(t, s) < 0)
                return -1;
        while (t->b->len - before < width)
                if (cc_buf_putc(t->b, ' ', t->err) < 0)
                        return -1;
        return 0;
}

/* What a framework mapped (its `modules`, as the child gave them). */
static int modules_text(struct cc_text *t, const cc_value *node)
{
        cc_vw_fw_modules mods;
        cc_vw_fw_modules_raw raw;
        const cc_value *files;
        size_t i;

        if (node == NULL)
                return 0;
        cc_vw_fw_modules_read(node, &mods, NULL);
        cc_vw_fw_modules_raw_read(node, &raw, NULL);
        files = raw.files;
        if (cc_text_printf(t, "      %smapped ", cc_text_sgr(t, CC_SGR_DIM)) < 0 ||
            cc_text_put(t, mods.when ? mods.when : "") < 0 ||
            cc_text_printf(t, ":%s %zu CUDA/cuDNN file%s of %lld\n", cc_text_sgr(t, CC_SGR_OFF), cc_v_len(files),
                           cc_v_len(files) == 1 ? "" : "s", (long long)mods.total) < 0)
                return -1;
        for (i = 0; i < cc_v_len(files); i++) {
                cc_vw_fw_module f;

                cc_vw_fw_module_at(files, i, &f, NULL);
                if (cc_text_printf(t, "        ") < 0 || padded(t, f.family ? f.family : "", 11) < 0 ||
                    cc_text_printf(t, " ") < 0 || cc_text_put(t, f.path) < 0 || cc_text_printf(t, "\n") < 0)
                        return -1;
        }
        return 0;
}

/* Text of many lines, each indented and escaped. */
static int lines(struct cc_text *t, const char *s)
{
        while (*s) {
                const char *nl = strchr(s, '\n');
                size_t n = nl ? (size_t)(nl - s) : strlen(s);
                char buf[512];

                if (n >= sizeof(buf))
                        n = sizeof(buf) - 1;
                memcpy(buf, s, n);
                buf[n] = '\0';
                if (cc_text_printf(t, "        ") < 0 || cc_text_put(t, buf) < 0 || cc_text_printf(t, "\n") < 0)
                        return -1;
                if (nl == NULL)
                        break;
                s = nl + 1;
        }
        return 0;
}

/* "cuDNN X, CUDA Y": what the framework was built with. */
static int build_text(struct cc_text *t, const cc_value *node)
{
        cc_vw_fw_build b;
        cc_vw_fw_build_raw raw;
        int said; /* cuda_build is there: true, false, or null when the framework could not say */
        char buf[160];

        cc_vw_fw_build_read(node, &b, NULL);
        cc_vw_fw_build_raw_read(node, &raw, NULL);
        said = CC_VW_HAS(&raw, fw_build_raw, cuda_build);
        snprintf(buf, sizeof(buf), "cuDNN %s, CUDA %s%s", b.cudnn ? b.cudnn : "unknown",
                 b.cuda                  ? b.cuda
                 : said && !b.cuda_build ? "none"
                                         : "unknown",
                 b.cuda_build || !said ? "" : " (CPU-only)");
        return line(t, 6, "built", buf);
}

/* Which cuDNN it loads, and from where (the judge's `cudnn`). */
static int loads_text(struct cc_text *t, const cc_value *node, const cc_value *modules)
{
        cc_vw_fw_cudnn cu;
        size_t i;

        cc_vw_fw_cudnn_read(node, &cu, NULL);
        if (cc_text_printf(t, "      %-10s ", "loads") < 0)
                return -1;
        if (!cu.loaded) {
                cc_vw_fw_modules mods;

                cc_vw_fw_modules_read(modules, &mods, NULL);
                return cc_text_printf(t, "no cuDNN library mapped %s\n",
                                      mods.when && strcmp(mods.when, "after-gpu-call") == 0 ? "after the GPU call"
                                      : mods.when                                           ? "after import"
                                                  : "(the files were not read)");
        }
        if (cc_text_printf(t, "cuDNN ") < 0 || cc_text_put(t, cu.version ? cu.version : "(version unknown)") < 0)
                return -1;
        for (i = 0; i < cc_v_len(cu.directories); i++) {
                cc_vw_fw_cudnn_dir d;

                cc_vw_fw_cudnn_dir_at(cu.directories, i, &d, NULL);
                if (cc_text_put(t, i ? "; and from " : " from ") < 0 || cc_text_put(t, d.path) < 0)
                        return -1;
                if (d.installation > 0 &&
                    (cc_text_printf(t, " (installation %lld, ", (long long)d.installation) < 0 ||
                     cc_text_put(t, d.provenance ? d.provenance : "unknown") < 0 || cc_text_printf(t, ")") < 0))
                        return -1;
        }
        return cc_text_printf(t, "\n");
}

static int framework_text(struct cc_text *t, const cc_value *node, int verbose)
{
        cc_vw_framework fw;
        cc_vw_fwprobe as; /* build, devices and modules as the child gave them */
        cc_vw_fw_info info;
        cc_vw_distribution first;
        const char *version, *sgr;
        const char *m;
        size_t i;

        cc_vw_framework_read(node, &fw, NULL);
        cc_vw_fwprobe_read(node, &as, NULL);
        cc_vw_fw_info_read(fw.info, &info, NULL);
        cc_vw_distribution_at(fw.distributions, 0, &first, NULL);
        m = mark(t, fw.verdict, &sgr);
        version = info.version ? info.version : first.version;
        if (cc_text_printf(t, "  %s%s%s %s", sgr, m, cc_text_sgr(t, sgr[0] ? CC_SGR_OFF : ""),
                           cc_text_sgr(t, CC_SGR_BOLD)) < 0 ||
            cc_text_put(t, fw.name) < 0 || cc_text_printf(t, "%s ", cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
            cc_text_put(t, version ? version : "(version unknown)") < 0 || cc_text_printf(t, "\n") < 0)
                return -1;
        if (fw.error != NULL && line(t, 6, "error", fw.error) < 0)
                return -1;
        if (as.build != NULL && build_text(t, as.build) < 0)
                return -1;
        if (fw.cudnn != NULL && fw.state && strcmp(fw.state, "ok") == 0 && loads_text(t, fw.cudnn, as.modules) < 0)
                return -1;
        for (i = 0; i < cc_v_len(as.devices) && verbose; i++) {
                cc_vw_fw_device d;

                cc_vw_fw_device_at(as.devices, i, &d, NULL);
                if (cc_text_printf(t, "      %-10s ", i ? "" : "devices") < 0 ||
                    cc_text_put(t, d.name ? d.name : "?") < 0 ||
                    (d.capability && (cc_text_printf(t, " (sm ") < 0 || cc_text_put(t, d.capability) < 0 ||
                                      cc_text_printf(t, ")") < 0)) ||
                    cc_text_printf(t, "\n") < 0)
                        return -1;
        }
        for (i = 0; i < cc_v_len(fw.verdicts); i++) {
                cc_vw_verdict v;

                cc_vw_verdict_at(fw.verdicts, i, &v, NULL);
                if (!verbose && v.status != NULL && strcmp(v.status, "pass") == 0 &&
                    (v.id == NULL || strcmp(v.id, "one-directory") != 0))
                        continue;
                m = mark(t, v.status, &sgr);
                if (cc_text_printf(t, "      %s%s%s", sgr, m, cc_text_sgr(t, sgr[0] ? CC_SGR_OFF : "")) < 0 ||
                    padded(t, v.id ? v.id : "?", 14) < 0 || cc_text_printf(t, " ") < 0 ||
                    cc_text_put(t, v.summary) < 0 || cc_text_printf(t, "\n") < 0)
                        return -1;
                if (v.fix != NULL && (cc_text_printf(t, "           %-14s ", "fix:") < 0 || cc_text_put(t, v.fix) < 0 ||
                                      cc_text_printf(t, "\n") < 0))
                        return -1;
        }
        if (verbose && modules_text(t, as.modules) < 0)
                return -1;
        if (verbose && fw.output_tail != NULL && fw.output_tail[0] &&
            (line(t, 6, "printed", "(the last lines)") < 0 || lines(t, fw.output_tail) < 0))
                return -1;
        return 0;
}

static int interpreter_text(struct cc_text *t, const cc_value *node, int verbose)
{
        cc_vw_interpreter it;
        cc_vw_python py;
        size_t i;

        cc_vw_interpreter_read(node, &it, NULL);
        cc_vw_python_read(it.python, &py, NULL);
        if (cc_text_printf(t, "%sPython%s ", cc_text_sgr(t, CC_SGR_BOLD), cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
            cc_text_put(t, it.path) < 0 || cc_text_printf(t, " (") < 0 ||
            cc_text_put(t, py.version ? py.version : "version unknown") < 0 ||
            cc_text_printf(t, "%s",
                           py.virtual_env ? ", virtual environment"
                           : py.conda     ? ", conda environment"
                                          : "") < 0)
                return -1;
        for (i = 0; i < cc_v_len(it.sources); i++)
                if (cc_text_put(t, "; ") < 0 || cc_text_put(t, cc_v_as_str(cc_v_at(it.sources, i))) < 0)
                        return -1;
        if (cc_text_printf(t, ")\n") < 0)
                return -1;
        for (i = 0; i < cc_v_len(it.aliases); i++)
                if (line(t, 2, "also as", cc_v_as_str(cc_v_at(it.aliases, i))) < 0)
                        return -1;
        if (it.error != NULL)
                return cc_text_printf(t, "  %s", cc_text_sgr(t, CC_SGR_DIM)) < 0 ||
                               padded(t, it.state ? it.state : "error", 10) < 0 ||
                               cc_text_printf(t, "%s ", cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                               cc_text_put(t, it.error) < 0 || cc_text_printf(t, "\n") < 0
                           ? -1
                           : 0;
        if (it.state != NULL && strcmp(it.state, "skipped") == 0)
                return cc_text_printf(t, "  not started: ") < 0 || cc_text_put(t, it.reason ? it.reason : "?") < 0 ||
                               cc_text_printf(t, "\n") < 0
                           ? -1
                           : 0;
        if (cc_v_len(it.frameworks) == 0)
                return cc_text_printf(t, "  no framework found (torch, tensorflow, jax, onnxruntime, cupy)\n");
        for (i = 0; i < cc_v_len(it.frameworks); i++)
                if (framework_text(t, cc_v_at(it.frameworks, i), verbose) < 0)
                        return -1;
        return 0;
}

static int is_skipped(const cc_value *it)
{
        const char *st = cc_v_get_str(it, CC_K(interpreter, state));

        return st != NULL && strcmp(st, "skipped") == 0;
}

int cudnnctl_frameworks_text(const cudnnctl_value *node, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text t = {&b, color, err};
        cc_vw_fw_doc doc;
        cc_vw_fw_summary s;
        cc_vw_resolution plain;
        size_t i, shown = 0, nskipped = 0;

        *out = NULL;
        cc_vw_fw_doc_read(node, &doc, NULL);
        cc_vw_fw_summary_read(doc.summary, &s, NULL);
        cc_vw_resolution_read(doc.plain_program, &plain, NULL);
        if (cc_v_len(doc.interpreters) == 0 &&
            cc_text_printf(&t, "no Python interpreter found (give one with --python PATH)\n") < 0)
                goto fail;
        for (i = 0; i < cc_v_len(doc.interpreters); i++) {
                const cc_value *it = cc_v_at(doc.interpreters, i);

                if (!verbose && is_skipped(it)) {
                        nskipped++;
                        continue;
                }
                if ((shown++ > 0 && cc_text_printf(&t, "\n") < 0) || interpreter_text(&t, it, verbose) < 0)
                        goto fail;
        }
        /* folded: the interpreters not started, one line each (--verbose: a block each, with the reason) */
        if (nskipped > 0 &&
            cc_text_printf(&t,
                           "%s%zu interpreter%s not started, their files holding no framework (--verbose for why):\n",
                           shown > 0 ? "\n" : "", nskipped, nskipped == 1 ? "" : "s") < 0)
                goto fail;
        for (i = 0; i < cc_v_len(doc.interpreters) && nskipped > 0; i++)
                if (is_skipped(cc_v_at(doc.interpreters, i)) &&
                    (cc_text_printf(&t, "  ") < 0 ||
                     cc_text_put(&t, cc_v_get_str(cc_v_at(doc.interpreters, i), CC_K(interpreter, path))) < 0 ||
                     cc_text_printf(&t, "\n") < 0))
                        goto fail;
        if (plain.path != NULL && (cc_text_printf(&t, "\na plain program loads ") < 0 ||
                                   cc_text_put(&t, plain.path) < 0 || cc_text_printf(&t, "\n") < 0))
                goto fail;
        if (cc_text_printf(&t,
                           "\n%lld interpreter%s, %lld framework%s: %lld failing, %lld with warnings, %lld note%s\n",
                           (long long)s.interpreters, s.interpreters == 1 ? "" : "s", (long long)s.frameworks,
                           s.frameworks == 1 ? "" : "s", (long long)s.failed, (long long)s.warnings, (long long)s.notes,
                           s.notes == 1 ? "" : "s") < 0)
                goto fail;
        *out = cc_buf_steal(&b);
        return 0;
fail:
        cc_buf_free(&b);
        return -1;
}
