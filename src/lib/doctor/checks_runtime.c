/* Checks on the run-time proof (the verify facts) and on the GPUs and the
 * driver against the knowledge base: no driver or no device (the reason for
 * CUDNN_STATUS_NOT_INITIALIZED), a driver too old for the CUDA runtime,
 * GPUs a cuDNN build cannot run on (the guide's own pair on Hopper),
 * version checks and mixed loads, GPU results that disagree, a crash while
 * loading, the compile layer, and nvidia-smi's "CUDA Version" taken for the
 * toolkit's. cc_src_proof gives the finding each failed verify check is to
 * the checks of those ids (here and in the other checks_*.c). */
#include "doctor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../facts/views.h"
#include "../kb/query.h"

/* The verify document of the installation a plain program gets (or the
 * first proved). */
static const cc_value *plain_verify(const struct cc_dctx *d, int64_t *id)
{
        size_t i;

        for (i = 0; i < cc_v_len(d->verify); i++) {
                cc_vw_verify_entry e;

                cc_vw_verify_entry_at(d->verify, i, &e, NULL);
                if (e.role != NULL && strcmp(e.role, "other") != 0 && e.document != NULL) {
                        *id = e.installation;
                        return e.document;
                }
        }
        return NULL;
}

/* The facts of a verify document's cuDNN probe (empty when there are none). */
static void cudnn_facts_of(const cc_value *vdoc, cc_vw_cudnn_facts *out)
{
        cc_vw_verify_doc vd;
        cc_vw_verify_probes pr;
        cc_vw_probe p;

        cc_vw_verify_doc_read(vdoc, &vd, NULL);
        cc_vw_verify_probes_read(vd.probes, &pr, NULL);
        cc_vw_probe_read(pr.cudnn, &p, NULL);
        cc_vw_cudnn_facts_read(p.facts, out, NULL);
}

/* The `driver` check of a verify document and its evidence (empty when
 * there is none). */
static void driver_check(const cc_value *vdoc, cc_vw_check *c, cc_vw_driver_evidence *ev)
{
        cc_vw_check_read(cc_dx_verify_check(vdoc, "driver"), c, NULL);
        cc_vw_driver_evidence_read(c->evidence, ev, NULL);
}

/* The CUDA major in a package name or version: libcudnn9-cuda-12,
 * 8.9.7.29-1+cuda12.2; 0 when none. */
static long pkg_cuda(const char *s, const char *mark)
{
        const char *p = s ? strstr(s, mark) : NULL;
        long v = 0;

        if (p == NULL)
                return 0;
        for (p += strlen(mark); *p >= '0' && *p <= '9' && v < 100; p++)
                v = v * 10 + (*p - '0');
        return v >= 7 && v < 100 ? v : 0;
}

/* The CUDA major a library's file name says it belongs to: libcublasLt.so.12,
 * libnvrtc.so.12, libcudart.so.11.0, cublasLt64_12.dll, nvrtc64_120_0.dll,
 * cudart64_110.dll (11), cudart64_12.dll; 0 when none. */
static int starts_nocase(const char *s, const char *prefix)
{
        return cc_strncasecmp(s, prefix, strlen(prefix)) == 0;
}

static long cuda_of_name(const char *n)
{
        static const char *const so[] = {"libcublasLt.so.", "libnvrtc.so.", "libcudart.so.", "libcublas.so."};
        static const char *const dll[] = {"cublasLt64_", "nvrtc64_", "cudart64_", "cublas64_"};
        size_t i;
        long v;

        if (n == NULL)
                return 0;
        for (i = 0; i < CC_ARRAY_LEN(so); i++)
                if (cc_starts_with(n, so[i]))
                        return pkg_cuda(n, ".so.");
        for (i = 0; i < CC_ARRAY_LEN(dll); i++) {
                if (!starts_nocase(n, dll[i]))
                        continue;
                v = pkg_cuda(n + strlen(dll[i]) - 1, "_");
                /* nvrtc64_120_0.dll, cudart64_110.dll: the major and minor run together */
                while (v >= 100)
                        v /= 10;
                return v >= 7 ? v : 0;
        }
        return 0;
}

/* The CUDA major the cuDNN libraries of installation id load at run time
 * (libcublasLt.so.12, libnvrtc.so.12, cublasLt64_12.dll named in them: the
 * deps facts); 0. */
static long deps_cuda(const struct cc_dctx *d, int64_t id)
{
        cc_vw_deps_doc deps;
        size_t i, k;

        cc_vw_deps_doc_read(cc_dx_deps_of(d, id), &deps, NULL);
        for (i = 0; i < cc_v_len(deps.nodes); i++) {
                cc_vw_node node;
                const char *b;

                cc_vw_node_at(deps.nodes, i, &node, NULL);
                b = node.path ? cc_basename(node.path) : NULL;
                if (b == NULL || !(cc_starts_with(b, "libcudnn") || starts_nocase(b, "cudnn")))
                        continue;
                for (k = 0; k < cc_v_len(node.edges); k++) {
                        cc_vw_edge edge;
                        long v;

                        cc_vw_edge_at(node.edges, k, &edge, NULL);
                        if ((v = cuda_of_name(edge.name)) > 0)
                                return v;
                }
        }
        return 0;
}

/* The CUDA version an installation was built for: cudnnGetCudartVersion
 * (13010 -> 13.1), else the wheel's cuda_major, the package's name or
 * version (libcudnn9-cuda-12, 8.9.7.29-1+cuda12.2), the CUDA libraries its
 * files name; else unknown. */
static void built_for(const struct cc_dctx *d, const cc_vw_installation *inst, const cc_value *vdoc, cudnnctl_ver *cuda)
{
        cc_vw_cudnn_facts cf;
        cc_vw_provenance pv;
        size_t i;
        long m;

        memset(cuda, 0, sizeof(*cuda));
        cudnn_facts_of(vdoc, &cf);
        if (cf.cudart_version >= 1000) {
                cudnnctl_cuda_decode((long)cf.cudart_version, cuda);
                return;
        }
        for (i = 0; i < cc_v_len(inst->versions); i++) {
                cc_vw_version v;

                cc_vw_version_at(inst->versions, i, &v, NULL);
                if (CC_VW_HAS(&v, version, cuda_major)) {
                        cuda->n = 1;
                        cuda->part[0] = (long)v.cuda_major;
                        return;
                }
        }
        cc_vw_provenance_read(inst->provenance, &pv, NULL);
        for (i = 0; i < cc_v_len(pv.packages); i++) {
                cc_vw_package pk;

                cc_vw_package_at(pv.packages, i, &pk, NULL);
                if (pk.name == NULL || !cc_starts_with(pk.name, "libcudnn"))
                        continue;
                if ((m = pkg_cuda(pk.name, "-cuda-")) > 0 || (m = pkg_cuda(pk.version, "+cuda")) > 0) {
                        cuda->n = 1;
                        cuda->part[0] = m;
                        return;
                }
        }
        /* NVIDIA's archive unpacked where it was: cudnn-linux-x86_64-9.1.0.70_cuda12-archive */
        if (((m = deps_cuda(d, inst->id)) > 0) || (inst->prefix != NULL && strstr(inst->prefix, "-archive") != NULL &&
                                                   (m = pkg_cuda(inst->prefix, "_cuda")) > 0)) {
                cuda->n = 1;
                cuda->part[0] = m;
        }
}

/* A driver version as NVIDIA writes it: 470.42.01, 527.41. */
static const char *drv_str(const cudnnctl_ver *v, char *buf, size_t n)
{
        if (v->n >= 3)
                snprintf(buf, n, "%ld.%02ld.%02ld", v->part[0], v->part[1], v->part[2]);
        else if (v->n == 2)
                snprintf(buf, n, "%ld.%02ld", v->part[0], v->part[1]);
        else
                cudnnctl_ver_str(v, buf, n);
        return buf;
}

static const char *driver_install_fix(const struct cc_dctx *d)
{
        cc_vw_host host;
        cc_vw_wsl wsl;

        cc_vw_host_read(d->host, &host, NULL);
        cc_vw_wsl_read(host.wsl, &wsl, NULL);
        if (d->windows)
                return "install the NVIDIA driver for this GPU from nvidia.com (or Windows Update), then reboot";
        if (wsl.detected)
                return "WSL uses the Windows driver: install or update the NVIDIA driver on Windows (not inside "
                       "WSL), then 'wsl --shutdown'";
        return "install the NVIDIA driver: Debian 12 'sudo apt-get install nvidia-driver' (non-free), Ubuntu "
               "'sudo ubuntu-drivers install', or NVIDIA's CUDA repository 'sudo apt-get install cuda-drivers'; "
               "then reboot";
}

/* Live: the driver's state in the proof of the installation a plain
 * program gets: too old (driver-too-old), or anything else that is not "ok"
 * (not-initialized: what makes cudnnCreate return NOT_INITIALIZED). */
static int driver_state(struct cc_dctx *d, enum cc_fid fid)
{
        int64_t id = 0;
        const cc_value *pv = plain_verify(d, &id);
        cc_vw_check c;
        cc_vw_driver_evidence ev;
        cc_vw_installation inst;
        const char *state;
        cudnnctl_ver cuda, exact, floor;
        cc_kb_answer a;
        char need[160] = "";
        cc_value *f;
        char *line;

        driver_check(pv, &c, &ev);
        state = ev.state;
        if (!d->live || state == NULL || strcmp(state, "ok") == 0 ||
            (strcmp(state, "too-old") == 0) != (fid == CC_F_DRIVER_TOO_OLD))
                return 0;
        cc_vw_installation_read(cc_dx_install(d, id), &inst, NULL);
        built_for(d, &inst, pv, &cuda);
        memset(&a, 0, sizeof(a));
        memset(&exact, 0, sizeof(exact));
        memset(&floor, 0, sizeof(floor));
        if (cuda.n > 0)
                (void)cc_kb_min_driver(&cuda, d->windows ? CUDNNCTL_SYSTEM_WINDOWS : CUDNNCTL_SYSTEM_LINUX, &exact,
                                       &floor, &a);
        if (exact.n > 0 || floor.n > 0) {
                char b1[32], b2[32], b3[32];

                if (exact.n > 0)
                        snprintf(need, sizeof(need),
                                 " (cuDNN here is built for CUDA %s: driver %s or newer; at least %s with CUDA's "
                                 "minor-version compatibility)",
                                 cudnnctl_ver_str(&cuda, b1, sizeof(b1)), drv_str(&exact, b2, sizeof(b2)),
                                 floor.n ? drv_str(&floor, b3, sizeof(b3)) : "unknown");
                else
                        snprintf(need, sizeof(need),
                                 " (cuDNN here is built for CUDA %s: driver %s or newer, CUDA %ld's minor-version "
                                 "compatibility floor)",
                                 cudnnctl_ver_str(&cuda, b1, sizeof(b1)), drv_str(&floor, b3, sizeof(b3)),
                                 cuda.part[0]);
        }
        if (strcmp(state, "no-driver") == 0 || strcmp(state, "stub-only") == 0) {
                cc_vw_check handle;

                cc_vw_check_read(cc_dx_verify_check(pv, "handle"), &handle, NULL);
                f = cc_finding(d, CC_F_NOT_INITIALIZED, "warning", "driver",
                               "no NVIDIA driver%s: cudnnCreate returns CUDNN_STATUS_NOT_INITIALIZED, so nothing can "
                               "run on a GPU and the GPU checks could not run",
                               strcmp(state, "stub-only") == 0 ? " (only the CUDA toolkit's stub libcuda.so, which is "
                                                                 "for linking, not running)"
                                                               : "");
                TRY_RET(cc_finding_ev_str(f, "state", state, d->err));
                TRY_RET(cc_finding_ev_str(f, "detail", c.summary, d->err));
                TRY_RET(cc_finding_ev(f, "handle", cc_v_copy(handle.evidence, d->err), d->err));
                return cc_finding_fix(f, d->err, "%s%s", driver_install_fix(d), need);
        }
        if (strcmp(state, "stub-loaded") == 0) {
                f = cc_finding(d, CC_F_NOT_INITIALIZED, "error", "driver",
                               "the loader finds the CUDA toolkit's stub libcuda instead of the driver: every CUDA "
                               "call fails (cudaErrorStubLibrary, 34)");
                TRY_RET(cc_finding_ev_str(f, "state", state, d->err));
                TRY_RET(cc_finding_ev_str(f, "detail", c.summary, d->err));
                TRY_RET(cc_finding_ev_str(f, "library", ev.library, d->err));
                return cc_finding_fix(f, d->err,
                                      "remove the toolkit's lib/stubs (or lib64/stubs) directory from LD_LIBRARY_PATH "
                                      "and from /etc/ld.so.conf.d, then 'sudo ldconfig'");
        }
        if (strcmp(state, "hidden") == 0) {
                char *u = cc_fix_unset(d, "CUDA_VISIBLE_DEVICES", d->err);
                cc_vw_host host;
                cc_vw_env env;

                cc_vw_host_read(d->host, &host, NULL);
                cc_vw_env_read(host.env, &env, NULL);
                if (u == NULL)
                        return -1;
                f = cc_finding(d, CC_F_NOT_INITIALIZED, "warning", "driver",
                               "CUDA_VISIBLE_DEVICES hides every GPU the driver has: cuDNN sees no device");
                if (cc_finding_ev_str(f, "CUDA_VISIBLE_DEVICES", env.CUDA_VISIBLE_DEVICES, d->err) < 0 ||
                    cc_finding_fix(f, d->err, "%s (or list the GPUs to use, e.g. 0)", u) < 0) {
                        free(u);
                        return -1;
                }
                free(u);
                return 0;
        }
        if (strcmp(state, "no-device") == 0) {
                f = cc_finding(d, CC_F_NOT_INITIALIZED, "warning", "driver",
                               "the NVIDIA driver is loaded but reports no usable GPU: cudnnCreate fails with "
                               "CUDNN_STATUS_NOT_INITIALIZED");
                TRY_RET(cc_finding_ev_str(f, "detail", c.summary, d->err));
                return cc_finding_fix(f, d->err,
                                      "check 'nvidia-smi' and 'dmesg | grep -i nvrm'; in a container, run it with the "
                                      "GPUs (--gpus all); in a VM, pass the GPU through");
        }
        if (strcmp(state, "too-old") == 0) {
                f = cc_finding(d, CC_F_DRIVER_TOO_OLD, "error", "driver", "%s", c.summary);
                TRY_RET(cc_finding_ev(f, "driver", cc_v_copy(c.evidence, d->err), d->err));
                return cc_finding_fix(f, d->err, "update the NVIDIA driver%s", need);
        }
        line = cc_asprintf(d->err, "%s", c.summary ? c.summary : state);
        if (line == NULL)
                return -1;
        f = cc_finding(d, CC_F_NOT_INITIALIZED, "error", "driver", "the CUDA driver could not be used: %s", line);
        free(line);
        TRY_RET(cc_finding_ev(f, "driver", cc_v_copy(c.evidence, d->err), d->err));
        return cc_finding_fix(f, d->err, "%s", driver_install_fix(d));
}

/* Static: the driver's files against what the installations need: none
 * (not-initialized), or too old for an installation's CUDA build. */
static int driver_static(struct cc_dctx *d, enum cc_fid fid)
{
        cc_vw_host host;
        cc_vw_driver_files df;
        cc_vw_list_doc list;
        const char *dv;
        cudnnctl_ver drv;
        size_t i;

        cc_vw_host_read(d->host, &host, NULL);
        cc_vw_driver_files_read(host.driver_files, &df, NULL);
        cc_vw_list_doc_read(d->list, &list, NULL);
        dv = df.version;
        if (d->live || cc_v_len(list.installations) == 0)
                return 0;
        if (dv == NULL || cudnnctl_ver_parse(dv, &drv) < 0) {
                if (cc_v_len(df.files) > 0 || fid != CC_F_NOT_INITIALIZED)
                        return 0;
                {
                        cc_value *f = cc_finding(d, CC_F_NOT_INITIALIZED, "warning", "driver",
                                                 "no NVIDIA driver library (libcuda.so.<version> / nvcuda.dll) in "
                                                 "this tree: programs here cannot use a GPU unless the driver comes "
                                                 "from the host (containers get it at run time)");

                        TRY_RET(cc_finding_ev_str(f, "mode", "static", d->err));
                        return cc_finding_fix(f, d->err, "%s", driver_install_fix(d));
                }
        }
        for (i = 0; i < cc_v_len(list.installations) && fid == CC_F_DRIVER_TOO_OLD; i++) {
                cc_vw_installation in;
                cudnnctl_ver cuda;
                cc_kb_answer a;
                char b[32];
                cc_value *f;

                cc_vw_installation_at(list.installations, i, &in, NULL);
                built_for(d, &in, NULL, &cuda);
                if (cuda.n == 0)
                        continue;
                memset(&a, 0, sizeof(a));
                cudnnctl_ver_str(&cuda, b, sizeof(b)); /* "12" when only the major is known */
                if (cuda.n == 1) {
                        /* only the major: the minor-version-compatibility floor applies */
                        cuda.n = 2;
                        cuda.part[1] = 0;
                }
                if (cc_kb_driver_runs_cuda(&drv, &cuda, d->windows ? CUDNNCTL_SYSTEM_WINDOWS : CUDNNCTL_SYSTEM_LINUX,
                                           &a) != CC_KB_NO)
                        continue;
                f = cc_finding(d, CC_F_DRIVER_TOO_OLD, "error", "driver",
                               "driver %s (from its files) is too old for cuDNN %s built for CUDA %s: %s", dv,
                               in.version ? in.version : "?", b, a.reason);
                TRY_RET(cc_finding_ev_str(f, "driver_version", dv, d->err));
                TRY_RET(cc_finding_ev_str(f, "built_for_cuda", b, d->err));
                TRY_RET(cc_finding_ev(f, "installation", cc_v_int(in.id, d->err), d->err));
                TRY_RET(cc_finding_ev_str(f, "source", a.source, d->err));
                TRY_RET(cc_finding_fix(f, d->err, "update the NVIDIA driver (%s)", a.reason));
        }
        /* the CUDA runtime a plain program loads (which: libcudart.so.N, cudart64_NN.dll) */
        for (i = 0; i < cc_v_len(d->v.which.results) && fid == CC_F_DRIVER_TOO_OLD; i++) {
                cc_vw_resolution w;
                cudnnctl_ver cuda = {0};
                cc_kb_answer a;
                long major;
                cc_value *f;

                cc_vw_resolution_at(d->v.which.results, i, &w, NULL);
                if (!w.found || w.path == NULL || w.name == NULL ||
                    !(cc_starts_with(w.name, "libcudart.so.") || starts_nocase(w.name, "cudart64_")) ||
                    (major = cuda_of_name(w.name)) <= 0)
                        continue;
                cuda.n = 2;
                cuda.part[0] = major;
                memset(&a, 0, sizeof(a));
                if (cc_kb_driver_runs_cuda(&drv, &cuda, d->windows ? CUDNNCTL_SYSTEM_WINDOWS : CUDNNCTL_SYSTEM_LINUX,
                                           &a) != CC_KB_NO)
                        continue;
                f = cc_finding(d, CC_F_DRIVER_TOO_OLD, "error", "driver",
                               "driver %s (from its files) is too old for the CUDA %ld runtime a plain program loads "
                               "(%s): %s",
                               dv, major, w.path, a.reason);
                TRY_RET(cc_finding_ev_str(f, "driver_version", dv, d->err));
                TRY_RET(cc_finding_ev(f, "runtime_cuda", cc_v_int(major, d->err), d->err));
                TRY_RET(cc_finding_ev_str(f, "runtime", w.path, d->err));
                TRY_RET(cc_finding_ev_str(f, "source", a.source, d->err));
                TRY_RET(cc_finding_fix(f, d->err, "update the NVIDIA driver (%s)", a.reason));
        }
        return 0;
}

/* Each GPU against the cuDNN build a plain program gets (and the others
 * proved): the guide's own pair on a GPU it cannot run on, a GPU too old or
 * too new for the build. */
static int gpu_arch(struct cc_dctx *d, enum cc_fid fid)
{
        const cc_value *dev = cc_dx_devices(d);
        size_t i, g;

        for (i = 0; i < cc_v_len(d->verify); i++) {
                cc_vw_verify_entry e;
                cc_vw_installation inst;
                cc_vw_cudnn_facts cf;
                int64_t maxdev;
                cudnnctl_ver ver, cuda;

                cc_vw_verify_entry_at(d->verify, i, &e, NULL);
                cc_vw_installation_read(cc_dx_install(d, e.installation), &inst, NULL);
                cudnn_facts_of(e.document, &cf);
                maxdev = cf.max_device_version;
                if (inst.node_ == NULL || cudnnctl_ver_parse(inst.version, &ver) < 0)
                        continue;
                built_for(d, &inst, e.document, &cuda);
                for (g = 0; g < cc_v_len(dev); g++) {
                        const cc_value *gp = cc_v_at(dev, g);
                        int sm = cc_dx_device_sm(gp);
                        cc_vw_device gv;
                        const char *name;
                        cc_kb_answer a;
                        int guide = 0, r;
                        enum cc_fid gid;
                        cc_value *f;
                        char b1[32], b2[32];

                        if (sm < 0)
                                continue; /* no valid compute capability: nothing to judge */
                        cc_vw_device_read(gp, &gv, NULL);
                        name = gv.name ? gv.name : "GPU";
                        memset(&a, 0, sizeof(a));
                        r = cc_kb_cudnn_runs_on(&ver, &cuda, sm, &a);
                        if (r != CC_KB_NO && !(maxdev > 0 && sm * 10 > maxdev && ver.part[0] >= 9))
                                continue;
                        guide = ver.part[0] == 8 && ver.part[1] == 2 && sm >= 89;
                        gid = guide                      ? CC_F_GUIDE_PAIR_UNSUPPORTED_GPU
                              : r == CC_KB_NO && sm < 75 ? CC_F_GPU_TOO_OLD
                                                         : CC_F_GPU_TOO_NEW;
                        if (gid != fid)
                                continue;
                        f = cc_finding(d, fid, "error", "driver",
                                       "cuDNN %s (built for CUDA %s) cannot run on %s (sm_%d): %s",
                                       cudnnctl_ver_str(&ver, b1, sizeof(b1)),
                                       cuda.n ? cudnnctl_ver_str(&cuda, b2, sizeof(b2)) : "unknown", name, sm,
                                       r == CC_KB_NO ? a.reason : "the GPU is newer than the library's maximum");
                        TRY_RET(cc_finding_ev(f, "installation", cc_v_int(inst.id, d->err), d->err));
                        TRY_RET(cc_finding_ev(f, "compute_capability", cc_v_strf(d->err, "%d.%d", sm / 10, sm % 10),
                                              d->err));
                        if (maxdev > 0)
                                TRY_RET(cc_finding_ev(f, "cudnnGetMaxDeviceVersion", cc_v_int(maxdev, d->err), d->err));
                        TRY_RET(cc_finding_ev_str(f, "source", a.source, d->err));
                        TRY_RET(
                            cc_finding_fix(f, d->err,
                                           "install a cuDNN built for this GPU: 'cudnnctl compat --gpu sm_%d' lists "
                                           "the releases and CUDA builds that support it (for sm_%d: %s)",
                                           sm, sm,
                                           sm >= 100  ? "cuDNN 9.7+ built for CUDA 12.8 or later"
                                           : sm >= 89 ? "cuDNN 8.9 or 9.x, or the CUDA 11.8 build of 8.6+"
                                                      : "a release whose support matrix lists it"));
                }
        }
        return 0;
}

/* The verify checks the proof reads, and the finding a failure of each is
 * unless proof_class says otherwise. */
static const struct {
        const char *check;
        enum cc_fid fid;
        const char *area;
} proof_map[] = {
    {"probe", CC_F_CUDNN_PROBE_CRASHED, "runtime"},
    {"version-checks", CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, "runtime"},
    {"one-directory", CC_F_V9_SUBLIBRARY_VERSION_MISMATCH, "runtime"},
    {"load", CC_F_V9_SUBLIBRARY_LOADING_FAILED, "runtime"},
    {"version", CC_F_HEADER_LIB_MISMATCH, "headers"},
    {"cudart", CC_F_CUDA_MAJOR_MISMATCH, "runtime"},
    {"handle", CC_F_NOT_INITIALIZED, "runtime"},
    {"gpu-work", CC_F_GPU_WORK_WRONG, "runtime"},
    {"compile", CC_F_HOST_COMPILER_TOOLSET, "headers"},
};

/* The finding failed verify check c (proof_map row k) of verify document
 * vdoc is, for an installation of major `major`; CC_F_NONE when another
 * finding says it. */
static enum cc_fid proof_class(const struct cc_dctx *d, size_t k, const cc_value *vdoc, const cc_vw_check *c, int major)
{
        const char *check = proof_map[k].check, *sum = c->summary, *drv_state;
        enum cc_fid fid = proof_map[k].fid;
        cc_vw_check dc;
        cc_vw_driver_evidence ev;
        cc_vw_verify_doc vd;
        cc_vw_compile comp;

        driver_check(vdoc, &dc, &ev);
        drv_state = ev.state;
        cc_vw_verify_doc_read(vdoc, &vd, NULL);
        cc_vw_compile_read(vd.compile, &comp, NULL);

        if (strcmp(check, "handle") == 0 && drv_state != NULL && strcmp(drv_state, "ok") != 0)
                return CC_F_NONE; /* cudnnCreate fails because of the driver: driver_state says it */
        if (major == 8 && !d->windows && (strcmp(check, "version-checks") == 0 || strcmp(check, "one-directory") == 0))
                fid = CC_F_LINUX_V8_MIXED_HELPERS;
        if (d->windows && strcmp(check, "one-directory") == 0)
                fid = CC_F_WIN_SUBLIB_127;
        if (strcmp(check, "load") == 0 && d->windows)
                fid = CC_F_WIN_SUBLIB_126;
        if (strcmp(check, "load") == 0 && sum != NULL &&
            (strstr(sum, "signal") || strstr(sum, "timed out") || strstr(sum, "crash")))
                fid = CC_F_CUDNN_PROBE_CRASHED;
        if (strcmp(check, "compile") == 0 && cc_v_len(comp.missing_headers))
                fid = CC_F_HEADER_MISSING;
        if (strcmp(check, "gpu-work") == 0 && sum != NULL &&
            (strstr(sum, "ARCH_MISMATCH") || strstr(sum, "no kernel image") || strstr(sum, "EXECUTION_FAILED")))
                fid = CC_F_GPU_TOO_NEW;
        return fid;
}

int cc_src_proof(struct cc_dctx *d, enum cc_fid fid)
{
        size_t i;

        if (!d->live)
                return 0;
        for (i = 0; i < cc_v_len(d->verify); i++) {
                cc_vw_verify_entry e;
                cc_vw_installation inst;
                const cc_value *vdoc;
                int64_t id;
                const char *prefix;
                int major;
                size_t k;

                cc_vw_verify_entry_at(d->verify, i, &e, NULL);
                vdoc = e.document;
                id = e.installation;
                cc_vw_installation_read(cc_dx_install(d, id), &inst, NULL);
                prefix = inst.prefix;
                major = cc_dx_major(inst.node_);
                /* Only an entry without the key at all is "not verified": the
                 * null document the doctor writes with `error` when verify
                 * failed has no checks, so it gives nothing here (kept as the
                 * checks have always read it). */
                if (vdoc == NULL && cc_v_get(e.node_, CC_K(verify_entry, document)) == NULL) {
                        cc_value *f;

                        if (e.error == NULL || fid != CC_F_CUDNN_PROBE_CRASHED)
                                continue;
                        f = cc_finding(d, fid, "warning", "runtime", "installation %lld (%s) could not be verified: %s",
                                       (long long)id, prefix ? prefix : "?", e.error);
                        TRY_RET(cc_finding_fix(f, d->err, "run 'cudnnctl verify %lld -v' to see why", (long long)id));
                        continue;
                }
                for (k = 0; k < CC_ARRAY_LEN(proof_map); k++) {
                        cc_vw_check c;
                        const char *st, *sum;
                        cc_value *f;

                        cc_vw_check_read(cc_dx_verify_check(vdoc, proof_map[k].check), &c, NULL);
                        st = c.status;
                        sum = c.summary;
                        if (st == NULL || strcmp(st, "failed") != 0 || proof_class(d, k, vdoc, &c, major) != fid)
                                continue;
                        f = cc_finding(d, fid, "error", proof_map[k].area, "installation %lld (%s): %s", (long long)id,
                                       prefix ? prefix : "?", sum ? sum : "failed");
                        TRY_RET(cc_finding_ev(f, "installation", cc_v_int(id, d->err), d->err));
                        TRY_RET(cc_finding_ev_str(f, "check", proof_map[k].check, d->err));
                        TRY_RET(cc_finding_ev(f, "values", cc_v_copy(c.evidence, d->err), d->err));
                        TRY_RET(cc_finding_fix(f, d->err, "'cudnnctl verify %lld -v' shows the whole check; %s",
                                               (long long)id,
                                               fid == CC_F_HOST_COMPILER_TOOLSET
                                                   ? "use a host compiler the CUDA toolkit supports, with one "
                                                     "installation's include and lib directories"
                                               : fid == CC_F_HEADER_MISSING
                                                   ? "install every cudnn*.h of the library's release beside cudnn.h"
                                               : fid == CC_F_CUDA_MAJOR_MISMATCH
                                                   ? "install the cuDNN build for the CUDA major this machine has, or "
                                                     "that CUDA's runtime libraries"
                                               : fid == CC_F_GPU_WORK_WRONG
                                                   ? "update the driver and cuDNN; if it persists, report it with the "
                                                     "JSON of 'cudnnctl verify --json --gpu'"
                                                   : "reinstall one complete release of cuDNN and keep other copies "
                                                     "off the search path"));
                }
        }
        return 0;
}

int cc_check_not_initialized(struct cc_dctx *d)
{
        size_t before = cc_v_len(d->findings), i;
        cc_value *f;

        TRY_RET(driver_state(d, CC_F_NOT_INITIALIZED));
        /* no usable driver or GPU (the live driver's state, not a proof's
         * failure of one installation): the GPU work of every installation
         * the proof asked for could not run, for this one cause */
        f = cc_v_len(d->findings) > before ? cc_v_atm(d->findings, before) : NULL;
        for (i = 0; f != NULL && i < cc_v_len(d->verify); i++) {
                cc_vw_verify_entry e;

                cc_vw_verify_entry_at(d->verify, i, &e, NULL);
                TRY_RET(cc_finding_explains_id(d, f, CC_SUBJ_INSTALLATION, e.installation));
        }
        TRY_RET(driver_static(d, CC_F_NOT_INITIALIZED));
        return cc_src_proof(d, CC_F_NOT_INITIALIZED);
}

int cc_check_driver_too_old(struct cc_dctx *d)
{
        TRY_RET(driver_state(d, CC_F_DRIVER_TOO_OLD));
        return driver_static(d, CC_F_DRIVER_TOO_OLD);
}

int cc_check_guide_pair_unsupported_gpu(struct cc_dctx *d)
{
        return gpu_arch(d, CC_F_GUIDE_PAIR_UNSUPPORTED_GPU);
}

int cc_check_gpu_too_old(struct cc_dctx *d)
{
        return gpu_arch(d, CC_F_GPU_TOO_OLD);
}

/* A GPU newer than the build supports, or GPU work failing with an
 * architecture error. */
int cc_check_gpu_too_new(struct cc_dctx *d)
{
        TRY_RET(gpu_arch(d, CC_F_GPU_TOO_NEW));
        return cc_src_proof(d, CC_F_GPU_TOO_NEW);
}

/* Loading cuDNN crashed or hung in the child, or an installation could not
 * be verified. */
int cc_check_cudnn_probe_crashed(struct cc_dctx *d)
{
        return cc_src_proof(d, CC_F_CUDNN_PROBE_CRASHED);
}

int cc_check_gpu_work_wrong(struct cc_dctx *d)
{
        return cc_src_proof(d, CC_F_GPU_WORK_WRONG);
}

int cc_check_host_compiler_toolset(struct cc_dctx *d)
{
        return cc_src_proof(d, CC_F_HOST_COMPILER_TOOLSET);
}

/* nvidia-smi's "CUDA Version" is the newest CUDA the driver supports. */
int cc_check_smi_cuda_version_not_toolkit(struct cc_dctx *d)
{
        int64_t id = 0;
        const cc_value *pv = plain_verify(d, &id);
        cc_vw_check c;
        cc_vw_driver_evidence ev;
        cc_vw_host host;
        const char *dcuda;
        const cc_value *tk;
        cudnnctl_ver dv, tv, newest;
        char b[32];
        size_t i;
        cc_value *f;

        driver_check(pv, &c, &ev);
        cc_vw_host_read(d->host, &host, NULL);
        dcuda = ev.cuda_version;
        tk = host.toolkits;
        if (!d->live || dcuda == NULL || cudnnctl_ver_parse(dcuda, &dv) < 0)
                return 0;
        memset(&newest, 0, sizeof(newest));
        for (i = 0; i < cc_v_len(tk); i++) {
                cc_vw_toolkit t;

                cc_vw_toolkit_at(tk, i, &t, NULL);
                if (cudnnctl_ver_parse(t.version, &tv) == 0 && cudnnctl_ver_cmp(&tv, &newest) > 0)
                        newest = tv;
        }
        if (newest.n > 0) {
                cudnnctl_ver a = newest;

                a.n = 2;
                if (cudnnctl_ver_cmp(&a, &dv) >= 0)
                        return 0;
        }
        f = cc_finding(d, CC_F_SMI_CUDA_VERSION_NOT_TOOLKIT, NULL, NULL,
                       "nvidia-smi shows \"CUDA Version: %s\": the newest CUDA this driver supports, not an installed "
                       "toolkit (%s)",
                       dcuda, newest.n ? cudnnctl_ver_str(&newest, b, sizeof(b)) : "no CUDA toolkit is installed here");
        TRY_RET(cc_finding_ev_str(f, "driver_cuda_version", dcuda, d->err));
        TRY_RET(cc_finding_ev(f, "toolkits", cc_v_copy(tk, d->err), d->err));
        return cc_finding_fix(f, d->err,
                              "pick cuDNN by the CUDA version of the toolkit or framework that uses it (here: %s), "
                              "not by nvidia-smi; 'nvcc --version' shows a toolkit's",
                              newest.n ? b : "the framework's build, e.g. torch.version.cuda");
}
