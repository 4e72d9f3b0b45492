/* verify's run-time layer (verify_int.h): the probes' answers judged, one
 * check each, in the order a person would read them: the driver and GPUs,
 * the cuDNN probe ran to its end, every library loads, the run-time version
 * against the header, the CUDA runtime it pairs with, the sub-library
 * version checks, every cuDNN module from one directory, cudnnCreate, and
 * GPU work against a CPU reference. Each check carries its evidence; what
 * cannot be checked says why. The probes themselves are verify_probes.c's. */
#include "verify_int.h"

#include "../inspect/inspect.h"
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
        /* what the driver probe read (borrowed from its answer) */
        cc_vw_driver_facts facts;
        cc_vw_loaded_lib libcuda;
        cc_vw_nvml nvml;
};

static int judge_driver(struct cc_vctx *v, const cc_value *pr, int runtime_version, struct driver_state *ds,
                        cc_error *err)
{
        const cc_vw_loaded_lib *lib = &ds->libcuda;
        const char *cvd = cc_machine_getenv(v->m, "CUDA_VISIBLE_DEVICES");
        cc_vw_probe run;
        cc_vw_status cuinit, dver, count;
        int64_t init, nvml_devs;
        char vb[32];

        memset(ds, 0, sizeof(*ds));
        cc_vw_probe_read(pr, &run, NULL);
        cc_vw_driver_facts_read(run.facts, &ds->facts, NULL);
        cc_vw_loaded_lib_read(ds->facts.libcuda, &ds->libcuda, NULL);
        cc_vw_nvml_read(ds->facts.nvml, &ds->nvml, NULL);
        cc_vw_status_read(ds->facts.cuInit, &cuinit, NULL);
        cc_vw_status_read(ds->facts.driver_version, &dver, NULL);
        cc_vw_status_read(ds->facts.device_count, &count, NULL);
        init = CC_VW_HAS(&ds->facts, driver_facts, cuInit) ? cuinit.code : -1;
        nvml_devs = ds->nvml.device_count;
        ds->driver_version = (int)dver.value;
        ds->devices = (int)count.code == 0 ? (int)cc_v_len(ds->facts.devices) : 0;
        if (!run.ran || run.crashed || run.timed_out || !run.complete) {
                ds->state = "error";
                ds->brief = "the driver probe failed";
                ds->why = cc_asprintf(err, "the driver probe %s%s%s", run.how, run.died_in ? " in " : "",
                                      run.died_in ? run.died_in : "");
        } else if (!lib->loaded) {
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
                                              lib->error ? lib->error : "not found");
                }
                free(stub);
        } else if (init == 34) {
                ds->state = "stub-loaded";
                ds->brief = v->windows ? "a stub nvcuda.dll is loaded instead of the driver"
                                       : "a stub libcuda.so.1 is loaded instead of the driver";
                ds->why = cc_asprintf(err,
                                      "the loader finds a stub driver library at %s (CUDA_ERROR_STUB_LIBRARY): "
                                      "a stub %s is on the search path instead of the driver",
                                      lib->path ? lib->path : "?", v->windows ? "nvcuda.dll" : "from the toolkit");
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
                                      lib->path ? lib->path : "", cvd ? " (CUDA_VISIBLE_DEVICES is set)" : "");
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
                ds->why = cc_asprintf(err, "cuInit failed: %lld %s", (long long)init, cuinit.name ? cuinit.name : "");
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
static char *probe_end(const cc_vw_probe *pr, cc_error *err)
{
        const char *in = pr->died_in;

        return cc_asprintf(err, "the probe child ended%s%s: %s", in ? " in " : "", in ? in : "",
                           pr->how ? pr->how : "failed");
}

/* The child ran to the end of its report ("complete": its last line was
 * the protocol's end marker, probe.h) and exited 0: a library that calls
 * exit(0) or closes every descriptor fails here. */
static int probe_ok(const cc_vw_probe *pr)
{
        return pr->ran && pr->complete && !pr->crashed && !pr->timed_out && CC_VW_HAS(pr, probe, exit) && pr->exit == 0;
}

/* ---- the evidence ------------------------------------------------------------------- */

/* The driver's evidence: its state, library, versions (the CUDA version it
 * supports, NVML's, the kernel module's) and devices. */
static cc_value *driver_evidence(const struct driver_state *ds, const char *kmod, cc_error *err)
{
        cc_value *ev = cc_v_object(err);
        char b1[32];

        if (ev == NULL)
                return NULL;
        TRY(cc_v_set_str(ev, CC_K(driver_evidence, state), ds->state, err));
        TRY(cc_v_set_str(ev, CC_K(driver_evidence, library), ds->libcuda.path, err));
        if (ds->driver_version) {
                cudnnctl_ver dv;

                cudnnctl_cuda_decode(ds->driver_version, &dv);
                TRY(cc_v_set_str(ev, CC_K(driver_evidence, cuda_version), cc_vf_vstr(&dv, b1, sizeof(b1)), err));
        }
        TRY(cc_v_set_str(ev, CC_K(driver_evidence, nvml_driver_version), ds->nvml.driver_version, err));
        TRY(cc_v_set_str(ev, CC_K(driver_evidence, kernel_module_version), kmod, err));
        TRY(cc_v_set_int(ev, CC_K(driver_evidence, devices), ds->devices, err));
        if (CC_VW_HAS(&ds->facts, driver_facts, devices))
                TRY(cc_v_set(ev, CC_K(driver_evidence, device_list), cc_v_copy(ds->facts.devices, err), err));
        return ev;
fail:
        cc_v_free(ev);
        return NULL;
}

/* The cuDNN modules the process mapped (after the GPU work when it ran):
 * every one, and those from outside the installation's directory (*ncudnn
 * and *nother of them, the first of those in *first_other). */
static cc_value *modules_evidence(const struct cc_vctx *v, const cc_value *mods, size_t *ncudnn, size_t *nother,
                                  const char **first_other, cc_error *err)
{
        cc_value *cud = cc_v_array(err), *other = cc_v_array(err), *ev = NULL;
        size_t i;

        *ncudnn = *nother = 0;
        *first_other = NULL;

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
                if (d == NULL || cc_v_push(cud, cc_v_str(p, err), err) < 0) {
                        free(d);
                        goto fail;
                }
                (*ncudnn)++;
                if (v->lib_dir && !same_dir(d, v->lib_dir)) {
                        if (cc_v_push(other, cc_v_str(p, err), err) < 0) {
                                free(d);
                                goto fail;
                        }
                        if ((*nother)++ == 0)
                                *first_other = p;
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

static int check_driver(struct cc_vctx *v, cc_value *checks, const struct driver_state *ds, const char *kmod,
                        cc_error *err)
{
        cc_value *ev = driver_evidence(ds, kmod, err);
        char b1[32];

        if (ev == NULL)
                return -1;
        if (strcmp(ds->state, "ok") == 0) {
                cudnnctl_ver dv;
                cc_vw_device d0;

                cudnnctl_cuda_decode(ds->driver_version, &dv);
                cc_vw_device_at(ds->facts.devices, 0, &d0, NULL);
                return cc_vf_add(v, checks, "driver", "NVIDIA driver and GPUs", "passed", ev, err,
                                 "driver %s (CUDA %s), %d GPU%s%s%s",
                                 ds->nvml.driver_version ? ds->nvml.driver_version : (kmod ? kmod : "version unknown"),
                                 cc_vf_vstr(&dv, b1, sizeof(b1)), ds->devices, ds->devices == 1 ? "" : "s",
                                 ds->devices > 0 ? ": " : "", ds->devices > 0 && d0.name ? d0.name : "");
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

        if (probe_ok(&p->dnn_run) ||
            (died != NULL && (strncmp(died, "load ", 5) == 0 || strcmp(died, "cudnnCreate") == 0)))
                return 0;
        s = probe_end(&p->dnn_run, err);
        if (s == NULL)
                return -1;
        rc = cc_vf_add(v, checks, "probe", "the cuDNN probe ran to its end", "failed",
                       cc_v_str(p->dnn_run.output_tail, err), err, "%s", s);
        free(s);
        return rc;
}

/* Loading every library by full path. */
static int check_load(struct cc_vctx *v, cc_value *checks, const struct cc_vprobes *p, const char *died, cc_error *err)
{
        const cc_value *loads = p->facts.loads, *shim = p->facts.shim;
        cc_vw_loaded_lib l;
        size_t nbad = 0, i;
        const char *first = NULL;
        cc_value *ev;

        for (i = 0; i < cc_v_len(loads); i++) {
                cc_vw_loaded_lib_at(loads, i, &l, NULL);
                if (!l.loaded) {
                        if (first == NULL)
                                first = l.error;
                        nbad++;
                }
        }
        cc_vw_loaded_lib_read(shim, &l, NULL);
        if (shim != NULL && !l.loaded) {
                if (first == NULL)
                        first = l.error;
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
                                 "loading %s ended the process (%s)", died + 5, p->dnn_run.how);
        /* the shim opened as a program does, and the probe ended before the
         * libraries were opened by their paths */
        if (died != NULL && cc_v_len(loads) == 0 && shim != NULL && v->lib_paths.n > 0)
                return cc_vf_add(v, checks, "load", "every library loads", "not-checked", ev, err,
                                 "the shim loaded; the probe ended in %s (%s) before the other libraries were "
                                 "opened by their paths",
                                 died, p->dnn_run.how);
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
        const cc_vw_cudnn_facts *f = &p->facts;
        cc_vw_cudnn_properties pr;
        cudnnctl_ver rv, pv = {0};
        cc_value *ev = NULL;
        char b1[32], b2[32];
        int agree;

        if (!CC_VW_HAS(f, cudnn_facts, version))
                return cc_vf_add(v, checks, "version", "run-time version", "not-checked", NULL, err,
                                 "cudnnGetVersion was not called (%s)",
                                 p->dnn_run.died_in ? p->dnn_run.died_in : "no library exports it");
        cudnnctl_cudnn_decode((long)p->dnn_version, &rv);
        /* each part an int, or the status of a failed call */
        cc_vw_cudnn_properties_read(f->properties, &pr, NULL);
        if (cc_v_type(pr.major) == CUDNNCTL_INT) {
                pv.n = 3;
                pv.part[0] = (long)cc_v_as_int(pr.major);
                pv.part[1] = (long)cc_v_as_int(pr.minor);
                pv.part[2] = (long)cc_v_as_int(pr.patch);
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
        if (CC_VW_HAS(f, cudnn_facts, max_device_version))
                TRY(cc_v_set_int(ev, "cudnnGetMaxDeviceVersion", f->max_device_version, err));
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
        cc_vw_loaded_lib lib;
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
                TRY(cc_v_set(ev, "cudaDriverGetVersion", cc_v_copy(p->rt_facts.driver_version, err), err));
                TRY(cc_v_set(ev, "cudaGetDeviceCount", cc_v_copy(p->rt_facts.device_count, err), err));
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
        cc_vw_loaded_lib_read(p->rt_facts.cudart, &lib, NULL);
        if (p->rt == NULL || !probe_ok(&p->rt_run) || p->rt_version <= 0)
                return cc_vf_add(v, checks, "cudart", "CUDA runtime", "failed", ev, err, "%s: %s", p->cudart,
                                 p->rt && lib.error ? lib.error : "cudaRuntimeGetVersion could not be read");
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
        const cc_value *vc = p->facts.version_checks;
        size_t nbad = 0, ncalled = 0, i;
        char *first = NULL;
        int rc;

        for (i = 0; i < cc_v_len(vc); i++) {
                cc_vw_version_check c;
                cc_vw_status res;
                const char *st;

                cc_vw_version_check_at(vc, i, &c, NULL);
                cc_vw_status_read(c.result, &res, NULL);
                st = c.status;
                if (st && strcmp(st, "called") == 0) {
                        ncalled++;
                        if (res.code == 0)
                                continue;
                }
                nbad++;
                if (first == NULL && st && strcmp(st, "called") == 0)
                        first = cc_asprintf(err, "%s: %s", c.function, res.name ? res.name : "an unknown status");
                else if (first == NULL)
                        first = cc_asprintf(
                            err, "%s: the cudnn_%s library %s", c.function, c.sublibrary ? c.sublibrary : "?",
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

/* The cuDNN release of the library at path (M.m.p), from its contents or
 * its full file name: 0, or -1 when none can be read. */
static int module_release(struct cc_vctx *v, const char *path, cudnnctl_ver *out)
{
        cc_error e = {0};
        cc_value *vers = cc_file_versions(v->m, path, &e);
        size_t i;
        int rc = -1;

        for (i = 0; rc < 0 && i < cc_v_len(vers); i++) {
                cc_vw_version ve;

                cc_vw_version_at(vers, i, &ve, NULL);
                if (ve.version != NULL && (ve.component == NULL || strcmp(ve.component, "cudnn") == 0) &&
                    cudnnctl_ver_parse(ve.version, out) == 0 && out->n >= 3 && cc_cudnn_ver_plausible(out)) {
                        out->n = 3;
                        rc = 0;
                }
        }
        cc_v_free(vers);
        return rc;
}

/* Every cuDNN module the process mapped came from that directory, or from
 * another one with the same release (cuDNN 9 takes its sub-libraries by
 * their full release name wherever the search finds them: one release from
 * two directories works; two releases are a mixed set). */
static int check_one_directory(struct cc_vctx *v, cc_value *checks, const struct cc_vprobes *p, cc_error *err)
{
        const cc_vw_cudnn_facts *f = &p->facts;
        /* the paths mapped, or why they could not be listed */
        const cc_value *mods = CC_VW_HAS(f, cudnn_facts, modules_after_gpu) ? f->modules_after_gpu : f->modules;
        size_t ncudnn, nother, i;
        const char *first_other, *other_path = NULL, *unknown = NULL;
        cudnnctl_ver want, got;
        char wb[32], gb[32];
        int have_want;
        cc_value *ev = modules_evidence(v, mods, &ncudnn, &nother, &first_other, err), *others;

        if (ev == NULL)
                return -1;
        if (mods == NULL || cc_v_type(mods) != CUDNNCTL_ARRAY)
                return cc_vf_add(v, checks, "one-directory", "every cuDNN module from one directory", "not-checked", ev,
                                 err, "the probe did not list its modules (%s)",
                                 cc_v_as_str(mods) ? cc_v_as_str(mods) : "it ended before");
        if (nother == 0)
                return cc_vf_add(v, checks, "one-directory", "every cuDNN module from one directory", "passed", ev, err,
                                 "%zu cuDNN module%s mapped, all from %s", ncudnn, ncudnn == 1 ? "" : "s",
                                 v->lib_dir ? v->lib_dir : "?");
        /* the release the installation is, else the one its library reports */
        have_want = v->iv.version != NULL && cudnnctl_ver_parse(v->iv.version, &want) == 0 && want.n >= 3;
        if (!have_want && p->dnn_version > 0) {
                cudnnctl_cudnn_decode(p->dnn_version, &want);
                have_want = want.n >= 3;
        }
        others = cc_v_getm(ev, "from_elsewhere");
        for (i = 0; i < cc_v_len(others); i++) {
                const char *path = cc_v_as_str(cc_v_at(others, i));

                if (path == NULL)
                        continue;
                if (module_release(v, path, &got) < 0) {
                        if (unknown == NULL)
                                unknown = path;
                } else if (!have_want || !cc_vf_ver3_eq(&want, &got)) {
                        other_path = path;
                        break;
                }
        }
        if (other_path != NULL)
                return cc_vf_add(v, checks, "one-directory", "every cuDNN module from one directory", "failed", ev, err,
                                 "%s (cuDNN %s) was loaded from outside %s (cuDNN %s): a mixed set", other_path,
                                 cc_vf_vstr(&got, gb, sizeof(gb)), v->lib_dir ? v->lib_dir : "?",
                                 have_want ? cc_vf_vstr(&want, wb, sizeof(wb)) : "release unknown");
        if (unknown != NULL)
                return cc_vf_add(v, checks, "one-directory", "every cuDNN module from one directory", "not-checked", ev,
                                 err, "%s was loaded from outside %s and its release could not be read", unknown,
                                 v->lib_dir ? v->lib_dir : "?");
        return cc_vf_add(v, checks, "one-directory", "every cuDNN module from one directory", "passed", ev, err,
                         "%zu cuDNN modules mapped, %zu of them (%s first) from outside %s, of the same release %s: "
                         "one release from two directories, which works until one of them changes",
                         ncudnn, nother, first_other, v->lib_dir ? v->lib_dir : "?", cc_vf_vstr(&want, wb, sizeof(wb)));
}

/* cudnnCreate: without a usable GPU its failure is expected, not a fault. */
static int check_handle(struct cc_vctx *v, cc_value *checks, const struct cc_vprobes *p, const struct driver_state *ds,
                        const char *died, cc_error *err)
{
        const cc_value *cr = p->facts.create; /* a status, or "not-exported" */
        cc_vw_status st;
        int64_t code;
        const char *nm;

        cc_vw_status_read(cr, &st, NULL);
        code = st.code;
        nm = st.name;
        if (cr == NULL && died != NULL && strcmp(died, "cudnnCreate") == 0)
                return cc_vf_add(v, checks, "handle", "cudnnCreate / cudnnDestroy", "failed", NULL, err,
                                 "cudnnCreate did not return: %s", p->dnn_run.how);
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
static int judge_gpu_work(struct cc_vctx *v, cc_value *checks, const cc_vw_probe *g, cc_value *ev, cc_error *err)
{
        const cc_value *res = g->gpu;
        size_t npass = 0, nfail = 0, nskip = 0, i;
        cc_vw_gpu_op op, bad, skipped;
        int have_bad = 0, have_skipped = 0;
        const char *st;
        char *s;
        int rc;

        memset(&bad, 0, sizeof(bad));
        memset(&skipped, 0, sizeof(skipped));
        for (i = 0; i < cc_v_len(res); i++) {
                cc_vw_gpu_op_at(res, i, &op, NULL);
                st = op.status;
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
                cc_vw_gpu_op_at(res, i, &op, NULL);
                st = op.status;
                if (!have_bad && (st == NULL || (strcmp(st, "passed") != 0 && strcmp(st, "not-run") != 0))) {
                        bad = op;
                        have_bad = 1;
                }
                if (!have_skipped && st != NULL && strcmp(st, "not-run") == 0) {
                        skipped = op;
                        have_skipped = 1;
                }
        }
        if (nfail > 0)
                return cc_vf_add(v, checks, "gpu-work", "GPU work against a CPU reference", "failed", ev, err,
                                 "%zu of %zu failed: %s: %s", nfail, cc_v_len(res), bad.op ? bad.op : "?",
                                 bad.reason ? bad.reason : "?");
        if (npass == 0)
                return cc_vf_add(v, checks, "gpu-work", "GPU work against a CPU reference",
                                 v->o->gpu == CUDNNCTL_GPU_ON ? "failed" : "not-checked", ev, err,
                                 "no operation could run: %s: %s", skipped.op ? skipped.op : "?",
                                 skipped.reason ? skipped.reason : "?");
        if (nskip > 0)
                return cc_vf_add(v, checks, "gpu-work", "GPU work against a CPU reference", "passed", ev, err,
                                 "%zu operation%s on the GPU match the CPU reference; %zu not run (%s: %s)", npass,
                                 npass == 1 ? "" : "s", nskip, skipped.op ? skipped.op : "?",
                                 skipped.reason ? skipped.reason : "?");
        return cc_vf_add(v, checks, "gpu-work", "GPU work against a CPU reference", "passed", ev, err,
                         "%zu operations on the GPU match the CPU reference", npass);
}

/* GPU work, only where a handle exists on a GPU: run it, judge it, keep
 * its answer in probes ("cudnn_gpu"); else say why it did not run. */
static int check_gpu_work(struct cc_vctx *v, cc_value *checks, cc_value *probes, struct cc_vprobes *p,
                          const struct driver_state *ds, cc_error *err)
{
        const char *why;
        cc_vw_status create;
        int gpu;

        cc_vw_status_read(p->facts.create, &create, NULL);
        gpu = v->o->gpu != CUDNNCTL_GPU_OFF && strcmp(ds->state, "ok") == 0 && ds->devices > 0 && create.code == 0 &&
              cc_v_type(p->facts.create) == CUDNNCTL_OBJECT;
        if (gpu && p->cudart != NULL) {
                cc_value *g, *ev;
                cc_vw_probe gv;
                char *seed = NULL;

                g = cc_vf_gpu_probe(v, p, &seed, err);
                if (g == NULL) {
                        free(seed);
                        return -1;
                }
                cc_vw_probe_read(g, &gv, NULL);
                ev = cc_v_object(err);
                if (ev == NULL || cc_v_set(ev, "operations", cc_v_copy(gv.gpu, err), err) < 0 ||
                    cc_v_set_str(ev, "seed", seed, err) < 0) {
                        cc_v_free(ev);
                        cc_v_free(g);
                        free(seed);
                        return -1;
                }
                free(seed);
                if (judge_gpu_work(v, checks, &gv, ev, err) < 0) {
                        cc_v_free(g);
                        return -1;
                }
                return cc_v_set(probes, CC_K(verify_probes, cudnn_gpu), g, err);
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
        TRY(check_driver(v, checks, &ds, kmod, err));
        died = probe_ok(&p.dnn_run) ? NULL : p.dnn_run.died_in;
        TRY(check_probe_end(v, checks, &p, died, err));
        TRY(check_load(v, checks, &p, died, err));
        TRY(check_version(v, checks, &p, err));
        TRY(check_cudart(v, checks, &p, err));
        TRY(check_version_checks(v, checks, &p, err));
        TRY(check_one_directory(v, checks, &p, err));
        TRY(check_handle(v, checks, &p, &ds, died, err));
        TRY(check_gpu_work(v, checks, probes, &p, &ds, err));
        TRY(cc_v_set(probes, CC_K(verify_probes, driver), p.drv, err));
        p.drv = NULL;
        TRY(cc_v_set(probes, CC_K(verify_probes, cudnn), cc_v_copy(p.dnn, err), err));
        *cudnn_probe = p.dnn;
        p.dnn = NULL;
        if (p.rt != NULL) {
                TRY(cc_v_set(probes, CC_K(verify_probes, cudart), p.rt, err));
                p.rt = NULL;
        }
        TRY(cc_v_set(doc, CC_K(verify_doc, probes), probes, err));
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
