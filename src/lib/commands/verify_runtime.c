/* verify's run-time layer (verify_int.h): the probes' answers judged, one
 * check each, in the order a person would read them: the driver and GPUs,
 * the cuDNN probe ran to its end, every library loads, the run-time version
 * against the header, the CUDA runtime it pairs with, the sub-library
 * version checks, every cuDNN module from one directory, cudnnCreate, and
 * GPU work against a CPU reference. Each check carries its evidence; what
 * cannot be checked says why. The probes themselves are verify_probes.c's. */
#include "verify_int.h"

#include "../platform/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the driver ---------------------------------------------------------------------- */

struct driver_state {
        const char *state;  /* ok, no-driver, stub-only, stub-loaded, no-device, hidden, too-old, error */
        char *why;          /* the whole reason, with paths */
        const char *brief;  /* the reason in a few words, for the checks it stops */
        int driver_version; /* CUDA version the driver supports, 0 unknown */
        int devices;
};

static int judge_driver(struct cc_vctx *v, const cc_value *pr, int runtime_version, struct driver_state *ds,
                        cc_error *err)
{
        const cc_value *f = cc_v_get(pr, "facts");
        const cc_value *lib = cc_v_get(f, "libcuda");
        int64_t init = cc_v_get(f, "cuInit") ? cc_v_as_int(cc_v_path(f, "cuInit/code")) : -1;
        const char *cvd = cc_machine_getenv(v->m, "CUDA_VISIBLE_DEVICES");
        int64_t nvml_devs = cc_v_as_int(cc_v_path(f, "nvml/device_count"));
        char vb[32];

        memset(ds, 0, sizeof(*ds));
        ds->driver_version = (int)cc_v_as_int(cc_v_path(f, "driver_version/value"));
        ds->devices =
            (int)cc_v_as_int(cc_v_path(f, "device_count/code")) == 0 ? (int)cc_v_len(cc_v_get(f, "devices")) : 0;
        if (!cc_v_as_bool(cc_v_get(pr, "ran")) || cc_v_as_bool(cc_v_get(pr, "crashed")) ||
            cc_v_as_bool(cc_v_get(pr, "timed_out")) || !cc_v_as_bool(cc_v_get(pr, "complete"))) {
                ds->state = "error";
                ds->brief = "the driver probe failed";
                ds->why = cc_asprintf(err, "the driver probe %s%s%s", cc_v_get_str(pr, "how"),
                                      cc_v_get_str(pr, "died_in") ? " in " : "",
                                      cc_v_get_str(pr, "died_in") ? cc_v_get_str(pr, "died_in") : "");
        } else if (!cc_v_as_bool(cc_v_get(lib, "loaded"))) {
                char *stub = cc_vf_find_stub(v, err);

                if (stub != NULL) {
                        ds->state = "stub-only";
                        ds->brief = "no NVIDIA driver (only the toolkit's stub libcuda.so)";
                        ds->why =
                            cc_asprintf(err,
                                        "no NVIDIA driver: %s is not found by the loader; only the CUDA toolkit's "
                                        "stub %s exists (for linking, not for running)",
                                        v->windows ? "nvcuda.dll" : "libcuda.so.1", stub);
                } else {
                        ds->state = "no-driver";
                        ds->brief = "no NVIDIA driver";
                        ds->why = cc_asprintf(err, "no NVIDIA driver: %s cannot be loaded (%s)",
                                              v->windows ? "nvcuda.dll" : "libcuda.so.1",
                                              cc_v_get_str(lib, "error") ? cc_v_get_str(lib, "error") : "not found");
                }
                free(stub);
        } else if (init == 34) {
                ds->state = "stub-loaded";
                ds->brief = v->windows ? "a stub nvcuda.dll is loaded instead of the driver"
                                       : "a stub libcuda.so.1 is loaded instead of the driver";
                ds->why = cc_asprintf(err,
                                      "the loader finds a stub driver library at %s (CUDA_ERROR_STUB_LIBRARY): "
                                      "a stub %s is on the search path instead of the driver",
                                      cc_v_get_str(lib, "path") ? cc_v_get_str(lib, "path") : "?",
                                      v->windows ? "nvcuda.dll" : "from the toolkit");
        } else if (init == 100 && cvd != NULL && nvml_devs > 0) {
                ds->state = "hidden";
                ds->brief = "CUDA_VISIBLE_DEVICES hides every GPU";
                ds->why =
                    cc_asprintf(err, "CUDA_VISIBLE_DEVICES=\"%s\" hides every GPU (the driver sees %lld through NVML)",
                                cvd, (long long)nvml_devs);
        } else if (init == 100 || (init == 0 && ds->devices == 0)) {
                ds->state = "no-device";
                ds->brief = "no CUDA device";
                ds->why = cc_asprintf(err, "the NVIDIA driver is loaded (%s) but reports no CUDA device%s",
                                      cc_v_get_str(lib, "path") ? cc_v_get_str(lib, "path") : "",
                                      cvd ? " (CUDA_VISIBLE_DEVICES is set)" : "");
        } else if (init == 35 || (init == 0 && runtime_version > 0 && ds->driver_version > 0 &&
                                  ds->driver_version / 1000 < runtime_version / 1000)) {
                cudnnctl_ver dv, rv;

                cudnnctl_cuda_decode(ds->driver_version, &dv);
                cudnnctl_cuda_decode(runtime_version, &rv);
                ds->state = "too-old";
                ds->brief = "the driver is older than the CUDA runtime";
                ds->why =
                    cc_asprintf(err, "the driver supports CUDA %s, older than the CUDA runtime %s that cuDNN uses",
                                ds->driver_version ? cc_vf_vstr(&dv, vb, sizeof(vb)) : "unknown",
                                cudnnctl_ver_str(&rv, (char[32]){0}, 32));
        } else if (init != 0) {
                ds->state = "error";
                ds->brief = "cuInit failed";
                ds->why = cc_asprintf(
                    err, "cuInit failed: %lld %s", (long long)init,
                    cc_v_get_str(cc_v_get(f, "cuInit"), "name") ? cc_v_get_str(cc_v_get(f, "cuInit"), "name") : "");
        } else {
                ds->state = "ok";
                ds->why = NULL;
        }
        return (ds->why == NULL && strcmp(ds->state, "ok") != 0) ? -1 : 0;
}

/* ---- small helpers -------------------------------------------------------------------- */

/* a and b are one directory of this machine (links resolved). */
static int same_dir(const char *a, const char *b)
{
        char *ra = cc_realpath(a, NULL), *rb = cc_realpath(b, NULL);
        int same = ra && rb && strcmp(ra, rb) == 0;

        free(ra);
        free(rb);
        return same;
}

/* A probe that crashed or hung as a check's summary ("killed by signal 11
 * (SIGSEGV) in load libcudnn_graph.so.9"). */
static char *probe_end(const cc_value *pr, cc_error *err)
{
        const char *in = cc_v_get_str(pr, "died_in");

        return cc_asprintf(err, "the probe child ended%s%s: %s", in ? " in " : "", in ? in : "",
                           cc_v_get_str(pr, "how") ? cc_v_get_str(pr, "how") : "failed");
}

/* The child ran to the end of its report ("complete": its last line was
 * the protocol's end marker, probe.h) and exited 0: a library that calls
 * exit(0) or closes every descriptor fails here. */
static int probe_ok(const cc_value *pr)
{
        return cc_v_as_bool(cc_v_get(pr, "ran")) && cc_v_as_bool(cc_v_get(pr, "complete")) &&
               !cc_v_as_bool(cc_v_get(pr, "crashed")) && !cc_v_as_bool(cc_v_get(pr, "timed_out")) &&
               cc_v_as_int(cc_v_get(pr, "exit")) == 0 && cc_v_get(pr, "exit") != NULL &&
               cc_v_type(cc_v_get(pr, "exit")) == CUDNNCTL_INT;
}

/* ---- the evidence ------------------------------------------------------------------- */

/* The driver's evidence: its state, library, versions (the CUDA version it
 * supports, NVML's, the kernel module's) and devices. */
static cc_value *driver_evidence(const struct cc_vprobes *p, const struct driver_state *ds, const char *kmod,
                                 cc_error *err)
{
        cc_value *ev = cc_v_object(err);
        char b1[32];

        if (ev == NULL)
                return NULL;
        TRY(cc_v_set_str(ev, "state", ds->state, err));
        TRY(cc_v_set_str(ev, "library", cc_v_get_str(cc_v_path(p->drv, "facts/libcuda"), "path"), err));
        if (ds->driver_version) {
                cudnnctl_ver dv;

                cudnnctl_cuda_decode(ds->driver_version, &dv);
                TRY(cc_v_set_str(ev, "cuda_version", cc_vf_vstr(&dv, b1, sizeof(b1)), err));
        }
        TRY(cc_v_set_str(ev, "nvml_driver_version", cc_v_get_str(cc_v_path(p->drv, "facts/nvml"), "driver_version"),
                         err));
        TRY(cc_v_set_str(ev, "kernel_module_version", kmod, err));
        TRY(cc_v_set_int(ev, "devices", ds->devices, err));
        if (cc_v_get(cc_v_get(p->drv, "facts"), "devices"))
                TRY(cc_v_set(ev, "device_list", cc_v_copy(cc_v_path(p->drv, "facts/devices"), err), err));
        return ev;
fail:
        cc_v_free(ev);
        return NULL;
}

/* The cuDNN modules the process mapped (after the GPU work when it ran):
 * every one, and those from outside the installation's directory. */
static cc_value *modules_evidence(const struct cc_vctx *v, const cc_value *mods, cc_error *err)
{
        cc_value *cud = cc_v_array(err), *other = cc_v_array(err), *ev = NULL;
        size_t i;

        if (cud == NULL || other == NULL)
                goto fail;
        for (i = 0; i < cc_v_len(mods); i++) {
                const char *p = cc_v_as_str(cc_v_at(mods, i));
                char *d;

                if (p == NULL ||
                    cc_strncasecmp(cc_basename(p), v->windows ? "cudnn" : "libcudnn", v->windows ? 5 : 8) != 0)
                        continue;
                /* On Windows only DLLs: cudnnctl.exe itself starts with "cudnn". */
                if (v->windows && !cc_ends_with_nocase(p, ".dll"))
                        continue;
                d = cc_dirname(p, 1, err);
                if (d == NULL || cc_v_push(cud, cc_v_str(p, err), err) < 0 ||
                    (v->lib_dir && !same_dir(d, v->lib_dir) && cc_v_push(other, cc_v_str(p, err), err) < 0)) {
                        free(d);
                        goto fail;
                }
                free(d);
        }
        ev = cc_v_object(err);
        if (ev == NULL)
                goto fail;
        if (cc_v_set(ev, "cudnn_modules", cud, err) < 0) {
                cud = NULL;
                goto fail;
        }
        cud = NULL;
        if (cc_v_set(ev, "from_elsewhere", other, err) < 0) {
                other = NULL;
                goto fail;
        }
        other = NULL;
        TRY(cc_v_set(ev, "all_modules", cc_v_copy(mods, err), err));
        return ev;
fail:
        cc_v_free(cud);
        cc_v_free(other);
        cc_v_free(ev);
        return NULL;
}

/* ---- judging each answer ------------------------------------------------------------- */

static int check_driver(struct cc_vctx *v, cc_value *checks, const struct cc_vprobes *p, const struct driver_state *ds,
                        const char *kmod, cc_error *err)
{
        cc_value *ev = driver_evidence(p, ds, kmod, err);
        char b1[32];

        if (ev == NULL)
                return -1;
        if (strcmp(ds->state, "ok") == 0) {
                cudnnctl_ver dv;

                cudnnctl_cuda_decode(ds->driver_version, &dv);
                return cc_vf_add(v, checks, "driver", "NVIDIA driver and GPUs", "passed", ev, err,
                                 "driver %s (CUDA %s), %d GPU%s%s%s",
                                 cc_v_get_str(cc_v_path(p->drv, "facts/nvml"), "driver_version")
                                     ? cc_v_get_str(cc_v_path(p->drv, "facts/nvml"), "driver_version")
                                     : (kmod ? kmod : "version unknown"),
                                 cc_vf_vstr(&dv, b1, sizeof(b1)), ds->devices, ds->devices == 1 ? "" : "s",
                                 ds->devices > 0 ? ": " : "",
                                 ds->devices > 0 && cc_v_get_str(cc_v_path(p->drv, "facts/devices/0"), "name")
                                     ? cc_v_get_str(cc_v_path(p->drv, "facts/devices/0"), "name")
                                     : "");
        }
        return cc_vf_add(v, checks, "driver", "NVIDIA driver and GPUs",
                         strcmp(ds->state, "too-old") == 0 || strcmp(ds->state, "error") == 0 ? "failed"
                                                                                              : "not-checked",
                         ev, err, "%s", ds->why);
}

/* A death in a step a check below reports is failed there; any other is a
 * check of its own. */
static int check_probe_end(struct cc_vctx *v, cc_value *checks, const struct cc_vprobes *p, const char *died,
                           cc_error *err)
{
        char *s;
        int rc;

        if (probe_ok(p->dnn) || (died != NULL && (strncmp(died, "load ", 5) == 0 || strcmp(died, "cudnnCreate") == 0)))
                return 0;
        s = probe_end(p->dnn, err);
        if (s == NULL)
                return -1;
        rc = cc_vf_add(v, checks, "probe", "the cuDNN probe ran to its end", "failed",
                       cc_v_str(cc_v_get_str(p->dnn, "output_tail"), err), err, "%s", s);
        free(s);
        return rc;
}

/* Loading every library by full path. */
static int check_load(struct cc_vctx *v, cc_value *checks, const struct cc_vprobes *p, const char *died, cc_error *err)
{
        const cc_value *loads = cc_v_get(p->facts, "loads"), *shim = cc_v_get(p->facts, "shim");
        size_t nbad = 0, i;
        const char *first = NULL;
        cc_value *ev;

        for (i = 0; i < cc_v_len(loads); i++)
                if (!cc_v_as_bool(cc_v_get(cc_v_at(loads, i), "loaded"))) {
                        if (first == NULL)
                                first = cc_v_get_str(cc_v_at(loads, i), "error");
                        nbad++;
                }
        if (shim != NULL && !cc_v_as_bool(cc_v_get(shim, "loaded"))) {
                if (first == NULL)
                        first = cc_v_get_str(shim, "error");
                nbad++;
        }
        ev = cc_v_object(err);
        if (ev == NULL)
                return -1;
        if (cc_v_set(ev, "libraries", cc_v_copy(loads, err), err) < 0 ||
            cc_v_set(ev, "shim", cc_v_copy(shim, err), err) < 0) {
                cc_v_free(ev);
                return -1;
        }
        if (died != NULL && strncmp(died, "load ", 5) == 0)
                return cc_vf_add(v, checks, "load", "every library loads", "failed", ev, err,
                                 "loading %s ended the process (%s)", died + 5, cc_v_get_str(p->dnn, "how"));
        if (cc_v_len(loads) == 0 && shim == NULL)
                return cc_vf_add(v, checks, "load", "every library loads", "failed", ev, err,
                                 "the probe loaded nothing (%s)", died ? died : "no library to load");
        if (nbad > 0)
                return cc_vf_add(v, checks, "load", "every library loads", "failed", ev, err, "%zu of %zu failed: %s",
                                 nbad, cc_v_len(loads) + (shim != NULL), first ? first : "?");
        return cc_vf_add(v, checks, "load", "every library loads", "passed", ev, err,
                         "%zu libraries loaded by full path from %s", cc_v_len(loads) + (shim != NULL),
                         v->lib_dir ? v->lib_dir : "?");
}

/* The version the library reports, against the header and the files. */
static int check_version(struct cc_vctx *v, cc_value *checks, const struct cc_vprobes *p, cc_error *err)
{
        const cc_value *f = p->facts, *pr = cc_v_get(f, "properties");
        cudnnctl_ver rv, pv = {0};
        cc_value *ev = NULL;
        char b1[32], b2[32];
        int agree;

        if (cc_v_get(f, "version") == NULL)
                return cc_vf_add(v, checks, "version", "run-time version", "not-checked", NULL, err,
                                 "cudnnGetVersion was not called (%s)",
                                 cc_v_get_str(p->dnn, "died_in") ? cc_v_get_str(p->dnn, "died_in")
                                                                 : "no library exports it");
        cudnnctl_cudnn_decode((long)p->dnn_version, &rv);
        if (cc_v_type(cc_v_get(pr, "major")) == CUDNNCTL_INT) {
                pv.n = 3;
                pv.part[0] = (long)cc_v_as_int(cc_v_get(pr, "major"));
                pv.part[1] = (long)cc_v_as_int(cc_v_get(pr, "minor"));
                pv.part[2] = (long)cc_v_as_int(cc_v_get(pr, "patch"));
        }
        agree =
            rv.n > 0 && (v->header.n == 0 || cc_vf_ver3_eq(&rv, &v->header)) && (pv.n == 0 || cc_vf_ver3_eq(&rv, &pv));
        ev = cc_v_object(err);
        if (ev == NULL)
                return -1;
        TRY(cc_v_set_int(ev, "cudnnGetVersion", p->dnn_version, err));
        TRY(cc_v_set_str(ev, "runtime", rv.n ? cc_vf_vstr(&rv, b1, sizeof(b1)) : NULL, err));
        TRY(cc_v_set_str(ev, "cudnnGetProperty", pv.n ? cc_vf_vstr(&pv, b2, sizeof(b2)) : NULL, err));
        TRY(cc_v_set_str(ev, "header", v->header.n ? cudnnctl_ver_str(&v->header, (char[32]){0}, 32) : NULL, err));
        if (cc_v_get(f, "max_device_version"))
                TRY(cc_v_set_int(ev, "cudnnGetMaxDeviceVersion", cc_v_as_int(cc_v_get(f, "max_device_version")), err));
        if (rv.n == 0)
                return cc_vf_add(v, checks, "version", "run-time version", "failed", ev, err,
                                 "cudnnGetVersion returned %lld, which is not a cuDNN version",
                                 (long long)p->dnn_version);
        if (!agree)
                return cc_vf_add(v, checks, "version", "run-time version", "failed", ev, err,
                                 "cudnnGetVersion says %s but the header says %s%s%s", cc_vf_vstr(&rv, b1, sizeof(b1)),
                                 v->header.n ? cudnnctl_ver_str(&v->header, (char[32]){0}, 32) : "nothing",
                                 pv.n ? " and cudnnGetProperty " : "", pv.n ? cc_vf_vstr(&pv, b2, sizeof(b2)) : "");
        return cc_vf_add(v, checks, "version", "run-time version", "passed", ev, err, "cudnnGetVersion %lld = %s%s",
                         (long long)p->dnn_version, cc_vf_vstr(&rv, b1, sizeof(b1)),
                         v->header.n ? " = header" : " (no header to compare)");
fail:
        cc_v_free(ev);
        return -1;
}

/* The CUDA runtime it pairs with. Takes p->cudart_how. */
static int check_cudart(struct cc_vctx *v, cc_value *checks, struct cc_vprobes *p, cc_error *err)
{
        cc_value *ev = cc_v_object(err), *how;
        cudnnctl_ver bv, lv;
        char b1[32], b2[32];

        if (ev == NULL)
                return -1;
        TRY(cc_v_set_int(ev, "cudnnGetCudartVersion", p->cudart_version, err));
        TRY(cc_v_set_str(ev, "cudart", p->cudart, err));
        how = p->cudart_how; /* cc_v_set takes it, also when it fails */
        p->cudart_how = NULL;
        TRY(cc_v_set(ev, "found", how ? how : cc_v_null(err), err));
        if (p->rt != NULL) {
                TRY(cc_v_set_int(ev, "cudaRuntimeGetVersion", p->rt_version, err));
                TRY(cc_v_set(ev, "cudaDriverGetVersion", cc_v_copy(cc_v_path(p->rt, "facts/driver_version"), err),
                             err));
                TRY(cc_v_set(ev, "cudaGetDeviceCount", cc_v_copy(cc_v_path(p->rt, "facts/device_count"), err), err));
        }
        cudnnctl_cuda_decode((long)p->cudart_version, &bv);
        cudnnctl_cuda_decode((long)p->rt_version, &lv);
        if (p->cudart_version <= 0)
                return cc_vf_add(v, checks, "cudart", "CUDA runtime", "not-checked", ev, err,
                                 "cudnnGetCudartVersion was not read");
        if (p->cudart == NULL)
                return cc_vf_add(v, checks, "cudart", "CUDA runtime", "failed", ev, err,
                                 "cuDNN was built for CUDA %s, and no libcudart of CUDA %ld is found for it",
                                 cc_vf_vstr(&bv, b1, sizeof(b1)), bv.part[0]);
        if (p->rt == NULL || !probe_ok(p->rt) || p->rt_version <= 0)
                return cc_vf_add(v, checks, "cudart", "CUDA runtime", "failed", ev, err, "%s: %s", p->cudart,
                                 p->rt && cc_v_get_str(cc_v_path(p->rt, "facts/cudart"), "error")
                                     ? cc_v_get_str(cc_v_path(p->rt, "facts/cudart"), "error")
                                     : "cudaRuntimeGetVersion could not be read");
        if (lv.part[0] != bv.part[0])
                return cc_vf_add(v, checks, "cudart", "CUDA runtime", "failed", ev, err,
                                 "cuDNN was built for CUDA %s but the runtime it pairs with is %s",
                                 cc_vf_vstr(&bv, b1, sizeof(b1)), cc_vf_vstr(&lv, b2, sizeof(b2)));
        return cc_vf_add(v, checks, "cudart", "CUDA runtime", "passed", ev, err, "built for CUDA %s; %s is CUDA %s%s",
                         cc_vf_vstr(&bv, b1, sizeof(b1)), cc_basename(p->cudart), cc_vf_vstr(&lv, b2, sizeof(b2)),
                         lv.part[1] < bv.part[1] ? " (same major: CUDA's minor-version compatibility)" : "");
fail:
        cc_v_free(ev);
        return -1;
}

/* The sub-library version checks of its major. */
static int check_version_checks(struct cc_vctx *v, cc_value *checks, const struct cc_vprobes *p, cc_error *err)
{
        const cc_value *vc = cc_v_get(p->facts, "version_checks");
        size_t nbad = 0, ncalled = 0, i;
        char *first = NULL;
        int rc;

        for (i = 0; i < cc_v_len(vc); i++) {
                const cc_value *c = cc_v_at(vc, i);
                const char *st = cc_v_get_str(c, "status");

                if (st && strcmp(st, "called") == 0) {
                        ncalled++;
                        if (cc_v_as_int(cc_v_path(c, "result/code")) == 0)
                                continue;
                }
                nbad++;
                if (first == NULL && st && strcmp(st, "called") == 0)
                        first = cc_asprintf(err, "%s: %s", cc_v_get_str(c, "function"),
                                            cc_v_get_str(cc_v_get(c, "result"), "name")
                                                ? cc_v_get_str(cc_v_get(c, "result"), "name")
                                                : "an unknown status");
                else if (first == NULL)
                        first =
                            cc_asprintf(err, "%s: the cudnn_%s library %s", cc_v_get_str(c, "function"),
                                        cc_v_get_str(c, "sublibrary") ? cc_v_get_str(c, "sublibrary") : "?",
                                        st && strcmp(st, "not-exported") == 0 ? "does not export it" : "is not loaded");
        }
        if (v->major < 8)
                rc = cc_vf_add(v, checks, "version-checks", "sub-library version checks", "passed", cc_v_copy(vc, err),
                               err, "cuDNN %d has no sub-libraries to check", v->major);
        else if (cc_v_len(vc) == 0)
                rc = cc_vf_add(v, checks, "version-checks", "sub-library version checks", "not-checked", NULL, err,
                               "the probe did not reach them");
        else if (nbad > 0)
                rc = cc_vf_add(v, checks, "version-checks", "sub-library version checks", "failed", cc_v_copy(vc, err),
                               err, "%zu of %zu failed: %s", nbad, cc_v_len(vc), first ? first : "?");
        else
                rc = cc_vf_add(v, checks, "version-checks", "sub-library version checks", "passed", cc_v_copy(vc, err),
                               err, "%zu of %zu: CUDNN_STATUS_SUCCESS", ncalled, cc_v_len(vc));
        free(first);
        return rc;
}

/* Every cuDNN module the process mapped came from that directory. */
static int check_one_directory(struct cc_vctx *v, cc_value *checks, const struct cc_vprobes *p, cc_error *err)
{
        const cc_value *f = p->facts;
        const cc_value *mods =
            cc_v_get(f, "modules_after_gpu") ? cc_v_get(f, "modules_after_gpu") : cc_v_get(f, "modules");
        cc_value *ev = modules_evidence(v, mods, err);

        if (ev == NULL)
                return -1;
        if (mods == NULL || cc_v_type(mods) != CUDNNCTL_ARRAY)
                return cc_vf_add(v, checks, "one-directory", "every cuDNN module from one directory", "not-checked", ev,
                                 err, "the probe did not list its modules (%s)",
                                 cc_v_as_str(mods) ? cc_v_as_str(mods) : "it ended before");
        if (cc_v_len(cc_v_get(ev, "from_elsewhere")) > 0)
                return cc_vf_add(v, checks, "one-directory", "every cuDNN module from one directory", "failed", ev, err,
                                 "%s was loaded from outside %s: a mixed set",
                                 cc_v_as_str(cc_v_at(cc_v_get(ev, "from_elsewhere"), 0)), v->lib_dir);
        return cc_vf_add(v, checks, "one-directory", "every cuDNN module from one directory", "passed", ev, err,
                         "%zu cuDNN module%s mapped, all from %s", cc_v_len(cc_v_get(ev, "cudnn_modules")),
                         cc_v_len(cc_v_get(ev, "cudnn_modules")) == 1 ? "" : "s", v->lib_dir ? v->lib_dir : "?");
}

/* cudnnCreate: without a usable GPU its failure is expected, not a fault. */
static int check_handle(struct cc_vctx *v, cc_value *checks, const struct cc_vprobes *p, const struct driver_state *ds,
                        const char *died, cc_error *err)
{
        const cc_value *cr = cc_v_get(p->facts, "create");
        int64_t code = cc_v_as_int(cc_v_get(cr, "code"));
        const char *nm = cc_v_get_str(cr, "name");

        if (cr == NULL && died != NULL && strcmp(died, "cudnnCreate") == 0)
                return cc_vf_add(v, checks, "handle", "cudnnCreate / cudnnDestroy", "failed", NULL, err,
                                 "cudnnCreate did not return: %s", cc_v_get_str(p->dnn, "how"));
        if (cr == NULL)
                return cc_vf_add(v, checks, "handle", "cudnnCreate / cudnnDestroy", "not-checked", NULL, err,
                                 "not reached: the probe child ended in %s", died ? died : "an earlier step");
        if (cc_v_type(cr) != CUDNNCTL_OBJECT)
                return cc_vf_add(v, checks, "handle", "cudnnCreate / cudnnDestroy", "failed", cc_v_copy(cr, err), err,
                                 "cudnnCreate is not exported");
        if (code == 0)
                return cc_vf_add(v, checks, "handle", "cudnnCreate / cudnnDestroy", "passed", cc_v_copy(cr, err), err,
                                 "CUDNN_STATUS_SUCCESS");
        if (strcmp(ds->state, "ok") != 0 && strcmp(ds->state, "too-old") != 0 && strcmp(ds->state, "error") != 0)
                return cc_vf_add(v, checks, "handle", "cudnnCreate / cudnnDestroy", "not-checked", cc_v_copy(cr, err),
                                 err, "%lld %s, as expected without a usable GPU: %s", (long long)code, nm ? nm : "",
                                 ds->brief);
        return cc_vf_add(v, checks, "handle", "cudnnCreate / cudnnDestroy", "failed", cc_v_copy(cr, err), err,
                         "%lld %s%s%s", (long long)code, nm ? nm : "(unknown status)",
                         strcmp(ds->state, "ok") != 0 ? ": " : "", strcmp(ds->state, "ok") != 0 ? ds->why : "");
}

/* The GPU probe's operations against the CPU reference. Takes ev. */
static int judge_gpu_work(struct cc_vctx *v, cc_value *checks, const cc_value *g, cc_value *ev, cc_error *err)
{
        const cc_value *res = cc_v_get(g, "gpu");
        size_t npass = 0, nfail = 0, nskip = 0, i;
        const cc_value *bad = NULL, *skipped = NULL;
        const char *st;
        char *s;
        int rc;

        for (i = 0; i < cc_v_len(res); i++) {
                st = cc_v_get_str(cc_v_at(res, i), "status");
                /* not-run: this library has no such API (an older major, an
                 * entry point a later release dropped); the load and
                 * version checks judge the library itself. */
                if (st && strcmp(st, "passed") == 0)
                        npass++;
                else if (st && strcmp(st, "not-run") == 0)
                        nskip++;
                else
                        nfail++;
        }
        if (!probe_ok(g)) {
                s = probe_end(g, err);
                rc = cc_vf_add(v, checks, "gpu-work", "GPU work against a CPU reference", "failed", ev, err,
                               "%s after %zu operation%s", s ? s : "?", cc_v_len(res), cc_v_len(res) == 1 ? "" : "s");
                free(s);
                return rc;
        }
        if (cc_v_len(res) == 0)
                return cc_vf_add(v, checks, "gpu-work", "GPU work against a CPU reference", "failed", ev, err,
                                 "the probe ran no GPU operation");
        for (i = 0; i < cc_v_len(res); i++) {
                st = cc_v_get_str(cc_v_at(res, i), "status");
                if (bad == NULL && (st == NULL || (strcmp(st, "passed") != 0 && strcmp(st, "not-run") != 0)))
                        bad = cc_v_at(res, i);
                if (skipped == NULL && st != NULL && strcmp(st, "not-run") == 0)
                        skipped = cc_v_at(res, i);
        }
        if (nfail > 0)
                return cc_vf_add(v, checks, "gpu-work", "GPU work against a CPU reference", "failed", ev, err,
                                 "%zu of %zu failed: %s: %s", nfail, cc_v_len(res),
                                 cc_v_get_str(bad, "op") ? cc_v_get_str(bad, "op") : "?",
                                 cc_v_get_str(bad, "reason") ? cc_v_get_str(bad, "reason") : "?");
        if (npass == 0)
                return cc_vf_add(v, checks, "gpu-work", "GPU work against a CPU reference",
                                 v->o->gpu == CUDNNCTL_GPU_ON ? "failed" : "not-checked", ev, err,
                                 "no operation could run: %s: %s",
                                 cc_v_get_str(skipped, "op") ? cc_v_get_str(skipped, "op") : "?",
                                 cc_v_get_str(skipped, "reason") ? cc_v_get_str(skipped, "reason") : "?");
        if (nskip > 0)
                return cc_vf_add(v, checks, "gpu-work", "GPU work against a CPU reference", "passed", ev, err,
                                 "%zu operation%s on the GPU match the CPU reference; %zu not run (%s: %s)", npass,
                                 npass == 1 ? "" : "s", nskip,
                                 cc_v_get_str(skipped, "op") ? cc_v_get_str(skipped, "op") : "?",
                                 cc_v_get_str(skipped, "reason") ? cc_v_get_str(skipped, "reason") : "?");
        return cc_vf_add(v, checks, "gpu-work", "GPU work against a CPU reference", "passed", ev, err,
                         "%zu operations on the GPU match the CPU reference", npass);
}

/* GPU work, only where a handle exists on a GPU: run it, judge it, keep
 * its answer in probes ("cudnn_gpu"); else say why it did not run. */
static int check_gpu_work(struct cc_vctx *v, cc_value *checks, cc_value *probes, struct cc_vprobes *p,
                          const struct driver_state *ds, cc_error *err)
{
        const char *why;
        int gpu = v->o->gpu != CUDNNCTL_GPU_OFF && strcmp(ds->state, "ok") == 0 && ds->devices > 0 &&
                  cc_v_as_int(cc_v_path(p->facts, "create/code")) == 0 &&
                  cc_v_type(cc_v_get(p->facts, "create")) == CUDNNCTL_OBJECT;

        if (gpu && p->cudart != NULL) {
                cc_value *g, *ev;
                char *seed = NULL;

                g = cc_vf_gpu_probe(v, p, &seed, err);
                if (g == NULL) {
                        free(seed);
                        return -1;
                }
                ev = cc_v_object(err);
                if (ev == NULL || cc_v_set(ev, "operations", cc_v_copy(cc_v_get(g, "gpu"), err), err) < 0 ||
                    cc_v_set_str(ev, "seed", seed, err) < 0) {
                        cc_v_free(ev);
                        cc_v_free(g);
                        free(seed);
                        return -1;
                }
                free(seed);
                if (judge_gpu_work(v, checks, g, ev, err) < 0) {
                        cc_v_free(g);
                        return -1;
                }
                return cc_v_set(probes, "cudnn_gpu", g, err);
        }
        why = v->o->gpu == CUDNNCTL_GPU_OFF  ? "--no-gpu"
              : strcmp(ds->state, "ok") != 0 ? ds->brief
              : ds->devices == 0             ? "no CUDA device"
              : p->cudart == NULL            ? "no CUDA runtime library to allocate GPU memory with"
                                             : "no cuDNN handle";
        return cc_vf_add(v, checks, "gpu-work", "GPU work against a CPU reference",
                         v->o->gpu == CUDNNCTL_GPU_ON ? "failed" : "not-checked", NULL, err, "%s%s",
                         v->o->gpu == CUDNNCTL_GPU_ON ? "--gpu asked for GPU work, but it cannot run: " : "",
                         why ? why : "?");
}

/* ---- the layer ---------------------------------------------------------------------- */

int cc_vf_layer_runtime(struct cc_vctx *v, cc_value *doc, cc_value **cudnn_probe, cc_error *err)
{
        cc_value *checks = cc_v_array(err), *probes = cc_v_object(err);
        struct cc_vprobes p;
        struct driver_state ds;
        char *kmod = NULL;
        const char *died;

        memset(&p, 0, sizeof(p));
        memset(&ds, 0, sizeof(ds));
        if (checks == NULL || probes == NULL)
                goto fail;
        if (!v->m->live) {
                TRY(cc_vf_add(v, checks, "runtime", "run-time probes", "not-checked", NULL, err,
                              "--root: nothing from that tree is loaded or run"));
                cc_v_free(probes);
                return cc_vf_add_layer(v, "runtime", "run time (probes in a child process)", checks, err);
        }
        p.timeout_ms = v->o->timeout_ms > 0 ? v->o->timeout_ms : 60000;
        TRY(cc_vf_run_probes(v, &p, err));
        TRY(judge_driver(v, p.drv, (int)(p.rt_version ? p.rt_version : p.cudart_version), &ds, err));
        kmod = cc_vf_kernel_module_version(err);
        TRY(check_driver(v, checks, &p, &ds, kmod, err));
        died = probe_ok(p.dnn) ? NULL : cc_v_get_str(p.dnn, "died_in");
        TRY(check_probe_end(v, checks, &p, died, err));
        TRY(check_load(v, checks, &p, died, err));
        TRY(check_version(v, checks, &p, err));
        TRY(check_cudart(v, checks, &p, err));
        TRY(check_version_checks(v, checks, &p, err));
        TRY(check_one_directory(v, checks, &p, err));
        TRY(check_handle(v, checks, &p, &ds, died, err));
        TRY(check_gpu_work(v, checks, probes, &p, &ds, err));
        TRY(cc_v_set(probes, "driver", p.drv, err));
        p.drv = NULL;
        TRY(cc_v_set(probes, "cudnn", cc_v_copy(p.dnn, err), err));
        *cudnn_probe = p.dnn;
        p.dnn = NULL;
        if (p.rt != NULL) {
                TRY(cc_v_set(probes, "cudart", p.rt, err));
                p.rt = NULL;
        }
        TRY(cc_v_set(doc, "probes", probes, err));
        probes = NULL;
        free(kmod);
        free(ds.why);
        cc_vf_vprobes_free(&p);
        return cc_vf_add_layer(v, "runtime", "run time (probes in a child process)", checks, err);
fail:
        cc_v_free(checks);
        cc_v_free(probes);
        free(kmod);
        free(ds.why);
        cc_vf_vprobes_free(&p);
        return -1;
}
