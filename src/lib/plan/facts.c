/* A doctor document to the plan's input (plan.h): what the document holds
 * is copied, what it does not stays empty (unknown). */
#include "plan/plan.h"

#include <stdio.h>
#include <string.h>

static void put(char *dst, size_t n, const char *s)
{
        snprintf(dst, n, "%s", s ? s : "");
}

static void add_gpu(cc_plan_input *in, const char *name, int sm)
{
        if (in->ngpus >= CC_PLAN_MAX_GPUS)
                return;
        put(in->gpus[in->ngpus].name, sizeof(in->gpus[0].name), name ? name : "GPU");
        in->gpus[in->ngpus].sm = sm;
        in->ngpus++;
}

/* "nvidia-cudnn-cu13==9.19.0.56; platform_system == ..." -> the wheel's name and version. */
static int pin_of(const char *req, char *name, size_t nn, char *ver, size_t vn)
{
        const char *eq;
        size_t k;

        if (req == NULL || strncmp(req, "nvidia-cudnn-cu", 15) != 0 || (eq = strstr(req, "==")) == NULL)
                return 0;
        k = (size_t)(eq - req);
        while (k > 0 && req[k - 1] == ' ')
                k--;
        snprintf(name, nn, "%.*s", (int)k, req);
        eq += 2;
        for (k = 0; eq[k] != '\0' && ((eq[k] >= '0' && eq[k] <= '9') || eq[k] == '.'); k++)
                ;
        snprintf(ver, vn, "%.*s", (int)k, eq);
        return ver[0] != '\0';
}

static void read_framework(cc_plan_input *in, const cc_value *f, const char *interp)
{
        cc_plan_framework *o;
        const cc_value *build = cc_v_get(f, "build"), *dists = cc_v_get(f, "distributions");
        const cc_value *cb;
        size_t i, j;

        if (in->nfw >= CC_PLAN_MAX_FRAMEWORKS || cc_v_get_str(f, "name") == NULL)
                return;
        o = &in->fw[in->nfw++];
        memset(o, 0, sizeof(*o));
        put(o->name, sizeof(o->name), cc_v_get_str(f, "name"));
        put(o->version, sizeof(o->version), cc_v_get_str(cc_v_get(f, "info"), "version"));
        put(o->interpreter, sizeof(o->interpreter), interp);
        put(o->build_cudnn, sizeof(o->build_cudnn), cc_v_get_str(build, "cudnn"));
        put(o->build_cuda, sizeof(o->build_cuda), cc_v_get_str(build, "cuda"));
        cb = cc_v_get(build, "cuda_build");
        o->gpu_build = cudnnctl_value_type(cb) == CUDNNCTL_BOOL ? cudnnctl_value_bool(cb) : -1;
        for (i = 0; i < cc_v_len(dists) && o->wheel[0] == '\0'; i++) {
                const cc_value *req = cc_v_get(cc_v_at(dists, i), "requires");

                for (j = 0; j < cc_v_len(req); j++) {
                        const char *r = cudnnctl_value_str(cc_v_at(req, j));

                        /* a requirement only for an extra is not a pin */
                        if (r != NULL && strstr(r, "extra ==") == NULL &&
                            pin_of(r, o->wheel, sizeof(o->wheel), o->wheel_version, sizeof(o->wheel_version)))
                                break;
                }
        }
        if (o->version[0] == '\0' && cc_v_len(dists) > 0)
                put(o->version, sizeof(o->version), cc_v_get_str(cc_v_at(dists, 0), "version"));
}

void cc_plan_read_facts(const cc_value *doctor, cc_plan_input *in)
{
        const char *fw = in->want_framework, *cuda = in->want_cuda, *cudnn = in->want_cudnn;
        const cc_value *facts = cc_v_get(doctor, "facts"), *host = cc_v_get(facts, "host"), *a;
        const char *sys = cc_v_get_str(host, "system");
        size_t i, j;

        memset(in, 0, sizeof(*in));
        in->want_framework = fw;
        in->want_cuda = cuda;
        in->want_cudnn = cudnn;
        if (sys == NULL)
                sys = cc_v_get_str(cc_v_get(doctor, "machine"), "system");
        in->system = sys != NULL && strcmp(sys, "windows") == 0 ? CUDNNCTL_SYSTEM_WINDOWS : CUDNNCTL_SYSTEM_LINUX;
        put(in->driver, sizeof(in->driver), cc_v_get_str(cc_v_get(host, "driver_files"), "version"));
        /* the GPUs: the first verify document whose driver probe listed them */
        a = cc_v_get(facts, "verify");
        for (i = 0; i < cc_v_len(a) && in->ngpus == 0; i++) {
                const cc_value *devs = cc_v_path(cc_v_at(a, i), "document/probes/driver/facts/devices");

                for (j = 0; j < cc_v_len(devs); j++) {
                        const cc_value *d = cc_v_at(devs, j);
                        const cc_value *ma = cc_v_get(d, "cc_major"), *mi = cc_v_get(d, "cc_minor");
                        int sm = cudnnctl_value_type(ma) == CUDNNCTL_INT && cudnnctl_value_type(mi) == CUDNNCTL_INT
                                     ? (int)(cudnnctl_value_int(ma) * 10 + cudnnctl_value_int(mi))
                                     : 0;

                        add_gpu(in, cc_v_get_str(d, "name"), sm);
                }
        }
        a = cc_v_get(host, "toolkits");
        for (i = 0; i < cc_v_len(a) && in->ntoolkits < CC_PLAN_MAX_TOOLKITS; i++) {
                const char *v = cc_v_get_str(cc_v_at(a, i), "version");

                if (v == NULL)
                        continue;
                put(in->toolkits[in->ntoolkits], sizeof(in->toolkits[0]), v);
                put(in->toolkit_dirs[in->ntoolkits], sizeof(in->toolkit_dirs[0]),
                    cc_v_get_str(cc_v_at(a, i), "prefix"));
                in->ntoolkits++;
        }
        a = cc_v_path(facts, "list/installations");
        for (i = 0; i < cc_v_len(a) && in->ninstalled < CC_PLAN_MAX_INSTALLED; i++) {
                put(in->installed[in->ninstalled], sizeof(in->installed[0]), cc_v_get_str(cc_v_at(a, i), "version"));
                put(in->installed_where[in->ninstalled], sizeof(in->installed_where[0]),
                    cc_v_get_str(cc_v_at(a, i), "prefix"));
                in->ninstalled++;
        }
        a = cc_v_path(facts, "frameworks/interpreters");
        for (i = 0; i < cc_v_len(a); i++) {
                const cc_value *it = cc_v_at(a, i), *fws = cc_v_get(it, "frameworks");
                const char *path = cc_v_get_str(it, "path");

                for (j = 0; j < cc_v_len(fws); j++) {
                        const cc_value *f = cc_v_at(fws, j);
                        size_t k;

                        read_framework(in, f, path);
                        /* no GPUs from the probes: a framework's devices */
                        if (in->ngpus == 0)
                                for (k = 0; k < cc_v_len(cc_v_get(f, "devices")); k++) {
                                        const cc_value *d = cc_v_at(cc_v_get(f, "devices"), k);
                                        const char *cap = cc_v_get_str(d, "capability");
                                        cudnnctl_ver v;

                                        if (cap != NULL && cudnnctl_ver_parse(cap, &v) == 0 && v.n == 2)
                                                add_gpu(in, cc_v_get_str(d, "name"), (int)(v.part[0] * 10 + v.part[1]));
                                }
                }
        }
}
