/* Text for the frameworks document: per interpreter, per framework, what it
 * was built with, the cuDNN it loads and from where, and the verdicts. */
#include <stdio.h>
#include <string.h>

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

static int modules_text(struct cc_text *t, const cc_value *fw)
{
        const cc_value *mods = cc_v_get(fw, "modules"), *files = cc_v_get(mods, "files");
        size_t i;

        if (mods == NULL)
                return 0;
        if (cc_text_printf(t, "      %smapped ", cc_text_sgr(t, CC_SGR_DIM)) < 0 ||
            cc_text_put(t, cc_v_get_str(mods, "when") ? cc_v_get_str(mods, "when") : "") < 0 ||
            cc_text_printf(t, ":%s %zu CUDA/cuDNN file%s of %lld\n", cc_text_sgr(t, CC_SGR_OFF), cc_v_len(files),
                           cc_v_len(files) == 1 ? "" : "s", (long long)cc_v_as_int(cc_v_get(mods, "total"))) < 0)
                return -1;
        for (i = 0; i < cc_v_len(files); i++) {
                const cc_value *f = cc_v_at(files, i);

                if (cc_text_printf(t, "        ") < 0 ||
                    padded(t, cc_v_get_str(f, "family") ? cc_v_get_str(f, "family") : "", 11) < 0 ||
                    cc_text_printf(t, " ") < 0 || cc_text_put(t, cc_v_get_str(f, "path")) < 0 ||
                    cc_text_printf(t, "\n") < 0)
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

static int framework_text(struct cc_text *t, const cc_value *fw, int verbose)
{
        const cc_value *info = cc_v_get(fw, "info"), *b = cc_v_get(fw, "build"), *cu = cc_v_get(fw, "cudnn");
        const cc_value *vs = cc_v_get(fw, "verdicts"), *devs = cc_v_get(fw, "devices");
        const char *version = cc_v_get_str(info, "version"), *sgr;
        const char *m = mark(t, cc_v_get_str(fw, "verdict"), &sgr);
        size_t i;

        if (version == NULL)
                version = cc_v_get_str(cc_v_at(cc_v_get(fw, "distributions"), 0), "version");
        if (cc_text_printf(t, "  %s%s%s %s", sgr, m, cc_text_sgr(t, sgr[0] ? CC_SGR_OFF : ""),
                           cc_text_sgr(t, CC_SGR_BOLD)) < 0 ||
            cc_text_put(t, cc_v_get_str(fw, "name")) < 0 || cc_text_printf(t, "%s ", cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
            cc_text_put(t, version ? version : "(version unknown)") < 0 || cc_text_printf(t, "\n") < 0)
                return -1;
        if (cc_v_get_str(fw, "error") != NULL && line(t, 6, "error", cc_v_get_str(fw, "error")) < 0)
                return -1;
        if (b != NULL) {
                char buf[160];

                snprintf(buf, sizeof(buf), "cuDNN %s, CUDA %s%s",
                         cc_v_get_str(b, "cudnn") ? cc_v_get_str(b, "cudnn") : "unknown",
                         cc_v_get_str(b, "cuda") ? cc_v_get_str(b, "cuda")
                         : cc_v_get(b, "cuda_build") != NULL && !cc_v_as_bool(cc_v_get(b, "cuda_build")) ? "none"
                                                                                                         : "unknown",
                         cc_v_as_bool(cc_v_get(b, "cuda_build")) || cc_v_get(b, "cuda_build") == NULL ? ""
                                                                                                      : " (CPU-only)");
                if (line(t, 6, "built", buf) < 0)
                        return -1;
        }
        if (cu != NULL && cc_v_get_str(fw, "state") && strcmp(cc_v_get_str(fw, "state"), "ok") == 0) {
                const cc_value *dirs = cc_v_get(cu, "directories");

                if (cc_text_printf(t, "      %-10s ", "loads") < 0)
                        return -1;
                if (!cc_v_as_bool(cc_v_get(cu, "loaded"))) {
                        const char *when = cc_v_get_str(cc_v_get(fw, "modules"), "when");

                        if (cc_text_printf(t, "no cuDNN library mapped %s\n",
                                           when && strcmp(when, "after-gpu-call") == 0 ? "after the GPU call"
                                           : when                                      ? "after import"
                                                  : "(the files were not read)") < 0)
                                return -1;
                } else {
                        if (cc_text_printf(t, "cuDNN ") < 0 ||
                            cc_text_put(t, cc_v_get_str(cu, "version") ? cc_v_get_str(cu, "version")
                                                                       : "(version unknown)") < 0)
                                return -1;
                        for (i = 0; i < cc_v_len(dirs); i++) {
                                const cc_value *d = cc_v_at(dirs, i);

                                if (cc_text_put(t, i ? "; and from " : " from ") < 0 ||
                                    cc_text_put(t, cc_v_get_str(d, "path")) < 0)
                                        return -1;
                                if (cc_v_as_int(cc_v_get(d, "installation")) > 0 &&
                                    (cc_text_printf(t, " (installation %lld, ",
                                                    (long long)cc_v_as_int(cc_v_get(d, "installation"))) < 0 ||
                                     cc_text_put(t, cc_v_get_str(d, "provenance") ? cc_v_get_str(d, "provenance")
                                                                                  : "unknown") < 0 ||
                                     cc_text_printf(t, ")") < 0))
                                        return -1;
                        }
                        if (cc_text_printf(t, "\n") < 0)
                                return -1;
                }
        }
        for (i = 0; i < cc_v_len(devs) && verbose; i++) {
                const cc_value *d = cc_v_at(devs, i);

                if (cc_text_printf(t, "      %-10s ", i ? "" : "devices") < 0 ||
                    cc_text_put(t, cc_v_get_str(d, "name") ? cc_v_get_str(d, "name") : "?") < 0 ||
                    (cc_v_get_str(d, "capability") &&
                     (cc_text_printf(t, " (sm ") < 0 || cc_text_put(t, cc_v_get_str(d, "capability")) < 0 ||
                      cc_text_printf(t, ")") < 0)) ||
                    cc_text_printf(t, "\n") < 0)
                        return -1;
        }
        for (i = 0; i < cc_v_len(vs); i++) {
                const cc_value *v = cc_v_at(vs, i);
                const char *st = cc_v_get_str(v, "status"), *id = cc_v_get_str(v, "id");

                if (!verbose && st != NULL && strcmp(st, "pass") == 0 &&
                    (id == NULL || strcmp(id, "one-directory") != 0))
                        continue;
                m = mark(t, st, &sgr);
                if (cc_text_printf(t, "      %s%s%s", sgr, m, cc_text_sgr(t, sgr[0] ? CC_SGR_OFF : "")) < 0 ||
                    padded(t, id ? id : "?", 14) < 0 || cc_text_printf(t, " ") < 0 ||
                    cc_text_put(t, cc_v_get_str(v, "summary")) < 0 || cc_text_printf(t, "\n") < 0)
                        return -1;
                if (cc_v_get_str(v, "fix") != NULL &&
                    (cc_text_printf(t, "           %-14s ", "fix:") < 0 || cc_text_put(t, cc_v_get_str(v, "fix")) < 0 ||
                     cc_text_printf(t, "\n") < 0))
                        return -1;
        }
        if (verbose && modules_text(t, fw) < 0)
                return -1;
        if (verbose && cc_v_get_str(fw, "output_tail") != NULL && cc_v_get_str(fw, "output_tail")[0] &&
            (line(t, 6, "printed", "(the last lines)") < 0 || lines(t, cc_v_get_str(fw, "output_tail")) < 0))
                return -1;
        return 0;
}

static int interpreter_text(struct cc_text *t, const cc_value *it, int verbose)
{
        const cc_value *py = cc_v_get(it, "python"), *src = cc_v_get(it, "sources"), *fws = cc_v_get(it, "frameworks");
        const cc_value *al = cc_v_get(it, "aliases");
        size_t i;

        if (cc_text_printf(t, "%sPython%s ", cc_text_sgr(t, CC_SGR_BOLD), cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
            cc_text_put(t, cc_v_get_str(it, "path")) < 0 || cc_text_printf(t, " (") < 0 ||
            cc_text_put(t, cc_v_get_str(py, "version") ? cc_v_get_str(py, "version") : "version unknown") < 0 ||
            cc_text_printf(t, "%s",
                           cc_v_as_bool(cc_v_get(py, "virtual_env")) ? ", virtual environment"
                           : cc_v_as_bool(cc_v_get(py, "conda"))     ? ", conda environment"
                                                                     : "") < 0)
                return -1;
        for (i = 0; i < cc_v_len(src); i++)
                if (cc_text_put(t, "; ") < 0 || cc_text_put(t, cc_v_as_str(cc_v_at(src, i))) < 0)
                        return -1;
        if (cc_text_printf(t, ")\n") < 0)
                return -1;
        for (i = 0; i < cc_v_len(al); i++)
                if (line(t, 2, "also as", cc_v_as_str(cc_v_at(al, i))) < 0)
                        return -1;
        if (cc_v_get_str(it, "error") != NULL)
                return cc_text_printf(t, "  %s", cc_text_sgr(t, CC_SGR_DIM)) < 0 ||
                               padded(t, cc_v_get_str(it, "state") ? cc_v_get_str(it, "state") : "error", 10) < 0 ||
                               cc_text_printf(t, "%s ", cc_text_sgr(t, CC_SGR_OFF)) < 0 ||
                               cc_text_put(t, cc_v_get_str(it, "error")) < 0 || cc_text_printf(t, "\n") < 0
                           ? -1
                           : 0;
        if (cc_v_len(fws) == 0)
                return cc_text_printf(t, "  no framework found (torch, tensorflow, jax, onnxruntime, cupy)\n");
        for (i = 0; i < cc_v_len(fws); i++)
                if (framework_text(t, cc_v_at(fws, i), verbose) < 0)
                        return -1;
        return 0;
}

int cudnnctl_frameworks_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text t = {&b, color, err};
        const cc_value *its = cc_v_get(doc, "interpreters"), *s = cc_v_get(doc, "summary");
        const cc_value *plain = cc_v_get(doc, "plain_program");
        size_t i;

        *out = NULL;
        if (cc_v_len(its) == 0 && cc_text_printf(&t, "no Python interpreter found (give one with --python PATH)\n") < 0)
                goto fail;
        for (i = 0; i < cc_v_len(its); i++)
                if ((i > 0 && cc_text_printf(&t, "\n") < 0) || interpreter_text(&t, cc_v_at(its, i), verbose) < 0)
                        goto fail;
        if (cc_v_get_str(plain, "path") != NULL &&
            (cc_text_printf(&t, "\na plain program loads ") < 0 || cc_text_put(&t, cc_v_get_str(plain, "path")) < 0 ||
             cc_text_printf(&t, "\n") < 0))
                goto fail;
        if (cc_text_printf(
                &t, "\n%lld interpreter%s, %lld framework%s: %lld failing, %lld with warnings, %lld note%s\n",
                (long long)cc_v_as_int(cc_v_get(s, "interpreters")),
                cc_v_as_int(cc_v_get(s, "interpreters")) == 1 ? "" : "s",
                (long long)cc_v_as_int(cc_v_get(s, "frameworks")),
                cc_v_as_int(cc_v_get(s, "frameworks")) == 1 ? "" : "s", (long long)cc_v_as_int(cc_v_get(s, "failed")),
                (long long)cc_v_as_int(cc_v_get(s, "warnings")), (long long)cc_v_as_int(cc_v_get(s, "notes")),
                cc_v_as_int(cc_v_get(s, "notes")) == 1 ? "" : "s") < 0)
                goto fail;
        *out = cc_buf_steal(&b);
        return 0;
fail:
        cc_buf_free(&b);
        return -1;
}
