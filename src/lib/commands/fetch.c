/* cudnnctl_fetch: the public entry of fetch (src/lib/fetch/fetch.h). With
 * the machine's facts, the plan (src/lib/plan/plan.h) decides what fits:
 * the CUDA variant when none is asked, and which of the index's releases
 * the machine can use. */
#include "../fetch/fetch.h"
#include "../net/http.h"
#include "../plan/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cudnnctl_have_http(void)
{
        return cc_http_available();
}

/* The caller's callbacks, and what the plan said of the newest release it
 * refused. */
struct fit {
        const cudnnctl_fetch_options *user;
        cc_plan_input *in;
        char refused_version[64];
        char refused[768];
};

static int fits_machine(void *ctx, const cc_fetch_file *f)
{
        struct fit *t = ctx;
        char why[640];

        if (cc_plan_fits(t->in, f->version, f->cuda_major, why, sizeof(why)))
                return 1;
        if (t->refused_version[0] == '\0' || cc_version_cmp(f->version, t->refused_version) > 0) {
                snprintf(t->refused_version, sizeof(t->refused_version), "%s", f->version);
                snprintf(t->refused, sizeof(t->refused), "cuDNN %s for CUDA %d: %s", f->version, f->cuda_major, why);
        }
        return 0;
}

static void fit_progress(void *ctx, uint64_t done, uint64_t total)
{
        const struct fit *t = ctx;

        if (t->user->progress != NULL)
                t->user->progress(t->user->ctx, done, total);
}

static void fit_note(void *ctx, const char *line)
{
        const struct fit *t = ctx;

        if (t->user->note != NULL)
                t->user->note(t->user->ctx, line);
}

int cudnnctl_fetch(const cudnnctl_fetch_options *opts, cudnnctl_value **out, cudnnctl_error *err)
{
        cudnnctl_plan_options po;
        cc_fetch_opts o;
        struct fit t;
        int rc, planned = 0;

        *out = NULL;
        if (opts == NULL)
                return cc_err(err, CC_ERR_USAGE, "no options given");
        if (opts->source != 0 && opts->source != CUDNNCTL_FETCH_REDIST && opts->source != CUDNNCTL_FETCH_PYPI)
                return cc_err(err, CC_ERR_USAGE, "source %d: neither redist nor pypi", opts->source);
        memset(&o, 0, sizeof(o));
        memset(&t, 0, sizeof(t));
        o.version = opts->version;
        o.cuda_major = opts->cuda_major;
        o.system = opts->system;
        o.arch = opts->arch;
        o.source = opts->source == CUDNNCTL_FETCH_PYPI ? CC_FETCH_PYPI : CC_FETCH_REDIST;
        o.index = opts->index;
        o.cache = opts->cache;
        o.offline = opts->offline;
        o.dry_run = opts->dry_run;
        o.timeout_ms = opts->timeout_ms;
        o.progress = opts->progress;
        o.note = opts->note;
        o.ctx = opts->ctx;
        if (o.system != NULL && strcmp(o.system, "linux") != 0 && strcmp(o.system, "windows") != 0)
                return cc_err(err, CC_ERR_USAGE, "system '%s': linux or windows", o.system);
        if (o.arch != NULL && strcmp(o.arch, "x86_64") != 0 && strcmp(o.arch, "sbsa") != 0 &&
            strcmp(o.arch, "aarch64") != 0)
                return cc_err(err, CC_ERR_USAGE, "arch '%s': x86_64, sbsa or aarch64", o.arch);
        if (opts->facts == NULL)
                return cc_fetch_run(&o, out, err);
        /* For the machine of the facts: the plan's CUDA major and its fit. */
        memset(&po, 0, sizeof(po));
        po.cudnn = opts->version;
        t.user = opts;
        if ((t.in = calloc(1, sizeof(*t.in))) == NULL)
                return cc_err(err, CC_ERR_NOMEM, "out of memory");
        if (cc_plan_input_init(t.in, opts->facts, &po, err) < 0) {
                free(t.in);
                return -1;
        }
        if (o.cuda_major == 0)
                planned = o.cuda_major = cc_plan_cuda_major(t.in);
        o.fits = fits_machine;
        o.progress = fit_progress;
        o.note = fit_note;
        o.ctx = &t;
        rc = cc_fetch_run(&o, out, err);
        if (rc < 0 && err->code == CC_ERR_NOTFOUND && planned != 0) {
                /* the plan's variant is not offered (a wheel index without
                 * it, a cache without it): the newest other that fits */
                cc_err_clear(err);
                o.cuda_major = 0;
                planned = 0;
                rc = cc_fetch_run(&o, out, err);
        }
        if (rc == 0 && cc_v_set_str(*out, "variant_from",
                                    planned            ? "plan"
                                    : opts->cuda_major ? "asked"
                                                       : "newest",
                                    err) < 0) {
                cc_v_free(*out);
                *out = NULL;
                rc = -1;
        }
        if (rc < 0 && err->code == CC_ERR_NOTFOUND && t.refused[0] != '\0') {
                char why[sizeof(err->msg)];

                snprintf(why, sizeof(why), "%s", err->msg);
                cc_err(err, CC_ERR_NOTFOUND, "%s; the newest that does not fit this machine: %s", why, t.refused);
        }
        free(t.in);
        return rc;
}
