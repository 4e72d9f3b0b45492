/* The install's pairing checks (src/lib/install/pairing.c) over machine
 * trees built here in a temporary directory and opened as --root: the
 * driver's files (libcuda.so.<version>, /proc/driver/nvidia/version; on
 * Windows C:\Windows\System32\nvcuda.dll from gen-pairing.sh), the GPUs'
 * /proc/driver/nvidia/gpus/<bus>/information. Each case plans a release
 * (cc_install_plan), adds the pairing checks, and asserts the verdict of
 * "driver" and "gpu" and the words of their reasons. */
#define _XOPEN_SOURCE 700
#include "testutil.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "facts/views.h"
#include "install/pairing.h"
#include "install/plan.h"
#include "machine/machine.h"
#include "platform/platform.h"

/* The real kernel module line of a 580 driver (an H200 machine's). */
#define NVRM(v)                                                                                                        \
        "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  " v                                                  \
        "  Release Build  (nixbld@)  \nGCC version:  gcc version 15.3.0 (GCC) \n"
#define INFO(model, excluded)                                                                                          \
        "Model: \t\t " model "\nIRQ:   \t\t 41\nGPU UUID: \t GPU-9f21c514-6e4d-ff06-ad3c-d8b59229c367\nBus Type: \t "  \
        "PCIe\nDevice Minor: \t 0\nGPU Excluded:\t " excluded "\n"

/* ---- trees ------------------------------------------------------------------ */

/* The tree of the running case: a failed assertion leaves the case at
 * once, and the teardown removes what it left. */
static char *live_root;

static char *mkroot(void)
{
        live_root = tu_mkroot("pairing");
        return live_root;
}

static void rmroot(char *root)
{
        if (root == live_root)
                live_root = NULL;
        tu_rmroot(root);
}

static int teardown(void **state)
{
        (void)state;
        if (live_root != NULL)
                rmroot(live_root);
        return 0;
}

/* root/rel with these bytes (rel with '/'). */
static void put(const char *root, const char *rel, const void *data, size_t n)
{
        char path[4096], *s;
        FILE *f;

        snprintf(path, sizeof(path), "%s/%s", root, rel);
        s = strrchr(path, '/');
        *s = '\0';
        tu_mkdirs(path);
        *s = '/';
        f = fopen(path, "wb");
        if (f == NULL)
                fail_msg("cannot create %s", path);
        assert_int_equal(fwrite(data, 1, n, f), n);
        fclose(f);
}

static void put_text(const char *root, const char *rel, const char *text)
{
        put(root, rel, text, strlen(text));
}

/* A GPU listed by the driver at bus. */
static void put_gpu(const char *root, const char *bus, const char *info)
{
        char rel[256];

        snprintf(rel, sizeof(rel), "proc/driver/nvidia/gpus/%s/information", bus);
        put_text(root, rel, info);
}

/* gen-pairing.sh's nvcuda.dll of driver ver into C:\Windows\System32; 0
 * when the fixtures have none (no mingw-w64). */
static int put_nvcuda(const char *root, const char *ver)
{
        char rel[64], *skipped = tu_fixture("pairing/.skipped"), *path;
        uint8_t *data;
        size_t n;

        if (tu_exists(skipped)) {
                free(skipped);
                return 0;
        }
        free(skipped);
        snprintf(rel, sizeof(rel), "pairing/%s/nvcuda.dll", ver);
        path = tu_fixture(rel);
        data = tu_read(path, &n);
        put(root, "Windows/System32/nvcuda.dll", data, n);
        free(data);
        free(path);
        return 1;
}

/* ---- planning and checking -------------------------------------------------- */

/* A release with no members: only its names matter here (kept in static
 * buffers: one release at a time). */
static void release(cc_source *s, const char *path, const char *version, int cuda_major, const char *system)
{
        static char pbuf[256], vbuf[32];

        snprintf(pbuf, sizeof(pbuf), "%s", path);
        snprintf(vbuf, sizeof(vbuf), "%s", version ? version : "");
        memset(s, 0, sizeof(*s));
        s->path = pbuf;
        s->is_archive = 1;
        s->layout = "redist";
        s->system = system;
        s->machine = "x86_64";
        s->version = version ? vbuf : NULL;
        s->major = version ? version[0] - '0' : -1;
        s->cuda_major = cuda_major;
}

struct result {
        cc_plan plan;
        const char *verdict[2], *reason[2]; /* driver, gpu */
};

/* Plan src into an empty prefix of the machine at root, add the pairing
 * checks; exactly one "driver" and one "gpu" check must come of it. */
static void run(const char *root, int windows, const cc_source *src, int force, struct result *r)
{
        cudnnctl_machine_options mo;
        cc_machine *m = NULL;
        cc_plan_in in;
        cc_error err = {0};
        const cc_value *checks;
        size_t i, nd = 0, ng = 0;

        memset(r, 0, sizeof(*r));
        memset(&mo, 0, sizeof(mo));
        mo.root = root;
        mo.system = windows ? CUDNNCTL_SYSTEM_WINDOWS : CUDNNCTL_SYSTEM_LINUX;
        if (cudnnctl_machine_open(&mo, &m, &err) < 0)
                fail_msg("machine: %s", err.msg);
        memset(&in, 0, sizeof(in));
        in.target = windows ? "C:\\cudnn" : "/opt/cudnn";
        in.system = windows ? CC_SYS_WINDOWS : CC_SYS_LINUX;
        in.lib_dir = "lib";
        in.force = force;
        in.target_writable = 1;
        in.free_bytes = UINT64_MAX;
        in.manifest_id = "cudnn-test";
        if (cc_install_plan(src, &in, &r->plan, &err) < 0)
                fail_msg("plan: %s", err.msg);
        assert_int_equal(r->plan.stop, 0); /* nothing but the pairing stops here */
        if (cc_pairing_checks(m, src, force, &r->plan, &err) < 0)
                fail_msg("pairing: %s", err.msg);
        cudnnctl_machine_free(m);
        checks = cc_v_get(r->plan.doc, CC_K(install_plan, checks));
        for (i = 0; i < cc_v_len(checks); i++) {
                const cc_value *c = cc_v_at(checks, i);
                const char *id = cc_v_get_str(c, "id");
                int k = strcmp(id, "driver") == 0 ? 0 : strcmp(id, "gpu") == 0 ? 1 : -1;

                if (k < 0)
                        continue;
                if (k == 0)
                        nd++;
                else
                        ng++;
                r->verdict[k] = cc_v_get_str(c, "verdict");
                r->reason[k] = cc_v_get_str(c, "reason");
                assert_non_null(r->verdict[k]);
                assert_non_null(r->reason[k]);
                assert_null(strchr(r->reason[k], '\n'));
                printf("  %-6s %-4s %s\n", id, r->verdict[k], r->reason[k]);
        }
        assert_int_equal(nd, 1);
        assert_int_equal(ng, 1);
        /* the plan and its summary agree on a stop */
        {
                const cc_value *sum = cc_v_get(r->plan.doc, CC_K(install_plan, summary));
                int stop = strcmp(r->verdict[0], "stop") == 0 || strcmp(r->verdict[1], "stop") == 0;

                assert_int_equal(r->plan.stop, stop);
                assert_int_equal(cc_v_as_bool(cc_v_get(sum, CC_K(plan_summary, stop))), stop);
        }
}

static void done(struct result *r)
{
        cc_plan_free(&r->plan);
}

/* The reason has every one of the words (NULL-ended). */
static void says(const char *reason, ...)
{
        va_list ap;
        const char *w;

        va_start(ap, reason);
        while ((w = va_arg(ap, const char *)) != NULL)
                if (strstr(reason, w) == NULL)
                        fail_msg("the reason lacks \"%s\": %s", w, reason);
        va_end(ap);
}

#define CUDA13 "cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz"
#define CUDA12 "cudnn-linux-x86_64-9.19.0.56_cuda12-archive.tar.xz"

/* ---- the driver ------------------------------------------------------------- */

/* A machine with the toolkit and no driver (this project's CI): it still
 * installs, and says which driver it will need. */
static void test_no_driver(void **state)
{
        char *root = mkroot();
        cc_source s;
        struct result r;

        (void)state;
        tu_mkdirs(root);
        release(&s, CUDA13, "9.19.0", 13, "linux");
        run(root, 0, &s, 0, &r);
        assert_string_equal(r.verdict[0], "warn");
        says(r.reason[0], "no NVIDIA driver found", "/proc/driver/nvidia/version", "the release installs",
             "Linux driver >= 580", "every CUDA 13.x", "minor-version compatibility", NULL);
        /* a machine without a driver sees no GPU */
        assert_string_equal(r.verdict[1], "warn");
        says(r.reason[1], "no NVIDIA GPU seen", "not checked", "cudnnctl compat --cudnn 9.19.0", NULL);
        done(&r);
        rmroot(root);
}

static const struct drv_case {
        const char *name;
        const char *archive; /* the source's name (the legacy ones carry the CUDA minor) */
        const char *version;
        int cuda_major;
        const char *driver; /* into /proc/driver/nvidia/version and libcuda.so.<driver> */
        const char *verdict;
        const char *words[4];
} drv_cases[] = {
    {"580 runs a cuda13 build",
     CUDA13,
     "9.19.0",
     13,
     "580.159.04",
     "ok",
     {"driver 580.159.04 (from /usr/lib/x86_64-linux-gnu/libcuda.so.580.159.04, /proc/driver/nvidia/version)",
      "runs a cuDNN built for CUDA 13", "every CUDA 13.x runs on a Linux driver >= 580", NULL}},
    {"580 below 13.0's own minimum: by the floor, with limits",
     CUDA13,
     "9.19.0",
     13,
     "580.20.01",
     "ok",
     {"runs a cuDNN built for CUDA 13", ">= 580 by minor-version compatibility", "below 580.65.06", "PTX JIT"}},
    {"570 is too old for a cuda13 build",
     CUDA13,
     "9.19.0",
     13,
     "570.86.10",
     "stop",
     {"driver 570.86.10", "too old for a cuDNN built for CUDA 13", "needs a Linux driver >= 580",
      "--force to install it anyway"}},
    {"570 runs a cuda12 build",
     CUDA12,
     "9.19.0",
     12,
     "570.86.10",
     "ok",
     {"runs a cuDNN built for CUDA 12", ">= 525.60.13", NULL, NULL}},
    {"11.0's own minimum is below CUDA 11's floor",
     "cudnn-linux-x86_64-8.9.7.29_cuda11-archive.tar.xz",
     "8.9.7",
     11,
     "450.51.05",
     "warn",
     {"below 450.80.02", "meets 450.51.05, CUDA 11.0's own minimum", "only if it was built with CUDA 11.0", NULL}},
    {"an 11.4 legacy archive on a 460 driver: by minor-version compatibility",
     "cudnn-11.4-linux-x64-v8.2.2.26.tgz",
     "8.2.2",
     11,
     "460.32.03",
     "ok",
     {"runs a cuDNN built for CUDA 11.4", "only by minor-version compatibility", "470.42.01", "450.80.02"}},
    {"CUDA 10 has no minor-version compatibility: 10.2 needs its own minimum",
     "cudnn-10.2-linux-x64-v7.6.5.32.tgz",
     "7.6.5",
     10,
     "418.39",
     "stop",
     {"too old for a cuDNN built for CUDA 10.2", "440.33", "no minor-version compatibility", NULL}},
    {"10.2's own minimum met",
     "cudnn-10.2-linux-x64-v7.6.5.32.tgz",
     "7.6.5",
     10,
     "440.33",
     "ok",
     {"runs a cuDNN built for CUDA 10.2", ">= 440.33", NULL, NULL}},
};

static void test_driver_versions(void **state)
{
        size_t i, k;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(drv_cases); i++) {
                const struct drv_case *t = &drv_cases[i];
                char *root = mkroot(), rel[128], text[256];
                cc_source s;
                struct result r;

                printf("%s\n", t->name);
                snprintf(rel, sizeof(rel), "usr/lib/x86_64-linux-gnu/libcuda.so.%s", t->driver);
                put_text(root, rel, "");
                snprintf(text, sizeof(text), NVRM("%s"), t->driver);
                put_text(root, "proc/driver/nvidia/version", text);
                release(&s, t->archive, t->version, t->cuda_major, "linux");
                run(root, 0, &s, 0, &r);
                assert_string_equal(r.verdict[0], t->verdict);
                for (k = 0; k < CC_ARRAY_LEN(t->words) && t->words[k] != NULL; k++)
                        says(r.reason[0], t->words[k], NULL);
                done(&r);
                rmroot(root);
        }
}

/* The driver's files that do not give one version: not judged. */
static void test_driver_unreadable(void **state)
{
        char *root = mkroot();
        cc_source s;
        struct result r;

        (void)state;
        release(&s, CUDA13, "9.19.0", 13, "linux");
        /* the kernel module and the library of two releases */
        put_text(root, "proc/driver/nvidia/version", NVRM("580.159.04"));
        put_text(root, "usr/lib/x86_64-linux-gnu/libcuda.so.570.86.10", "");
        run(root, 0, &s, 0, &r);
        assert_string_equal(r.verdict[0], "warn");
        says(r.reason[0], "disagree", "580.159.04 from /proc/driver/nvidia/version",
             "570.86.10 from /usr/lib/x86_64-linux-gnu/libcuda.so.570.86.10", "not checked", NULL);
        done(&r);
        rmroot(root);

        /* WSL: libcuda.so.1.1 names no driver version */
        root = mkroot();
        put_text(root, "usr/lib/wsl/lib/libcuda.so.1.1", "");
        run(root, 0, &s, 0, &r);
        assert_string_equal(r.verdict[0], "warn");
        says(r.reason[0], "/usr/lib/wsl/lib/libcuda.so.1.1 does not say its version", "not checked",
             "Linux driver >= 580", NULL);
        done(&r);
        rmroot(root);

        /* a version file that is no text of the module, one that is a
         * directory */
        root = mkroot();
        put_text(root, "proc/driver/nvidia/version", "\x01\x02garbage 999999999999999999999999.1\n");
        run(root, 0, &s, 0, &r);
        assert_string_equal(r.verdict[0], "warn");
        says(r.reason[0], "/proc/driver/nvidia/version does not say its version", NULL);
        done(&r);
        rmroot(root);
        root = mkroot();
        {
                char dir[4096];

                snprintf(dir, sizeof(dir), "%s/proc/driver/nvidia/version", root);
                tu_mkdirs(dir);
        }
        run(root, 0, &s, 0, &r);
        assert_string_equal(r.verdict[0], "warn");
        says(r.reason[0], "no NVIDIA driver found", NULL);
        done(&r);
        rmroot(root);
}

static void test_unknown_cuda_major(void **state)
{
        char *root = mkroot();
        cc_source s;
        struct result r;

        (void)state;
        put_text(root, "proc/driver/nvidia/version", NVRM("580.159.04"));
        put_gpu(root, "0000:00:06.0", INFO("NVIDIA H200", "No"));
        release(&s, "cudnn-9.19.0", "9.19.0", -1, "linux");
        run(root, 0, &s, 0, &r);
        assert_string_equal(r.verdict[0], "warn");
        says(r.reason[0], "the CUDA major the release was built for is unknown",
             "driver 580.159.04 (from /proc/driver/nvidia/version) not checked", NULL);
        /* the GPU against every build of the release: H200 is in all */
        assert_string_equal(r.verdict[1], "ok");
        says(r.reason[1], "NVIDIA H200 (sm_90)", NULL);
        done(&r);
        rmroot(root);

        /* a CUDA major the tables have no row of */
        root = mkroot();
        put_text(root, "proc/driver/nvidia/version", NVRM("580.159.04"));
        release(&s, "cudnn-linux-x86_64-9.19.0.56_cuda14-archive.tar.xz", "9.19.0", 14, "linux");
        run(root, 0, &s, 0, &r);
        assert_string_equal(r.verdict[0], "warn");
        says(r.reason[0], "driver 580.159.04", "CUDA 14", "not in the tables", NULL);
        done(&r);
        rmroot(root);
}

/* Windows: nvcuda.dll's version resource, and the tables' Windows rows. */
static void test_windows_rows(void **state)
{
        static const struct {
                const char *driver, *archive;
                int cuda_major;
                const char *verdict, *w1, *w2;
        } cases[] = {
            /* CUDA 13's Windows floor is not in the tables: 13.0's minimum is enough */
            {"580.88", "cudnn-windows-x86_64-9.19.0.56_cuda13-archive.zip", 13, "ok", ">= 580.88, CUDA 13.0's minimum",
             "that floor is not in the tables"},
            {"576.02", "cudnn-windows-x86_64-9.19.0.56_cuda13-archive.zip", 13, "warn",
             "below 580.88, CUDA 13.0's minimum", "the Windows floor of every CUDA 13.x"},
            /* above CUDA 12's Linux floor (525.60.13), below the Windows one (528.33) */
            {"526.41", "cudnn-windows-x86_64-9.19.0.56_cuda12-archive.zip", 12, "stop", "driver 526.41",
             "needs a Windows driver >= 528.33"},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                char *root = mkroot();
                cc_source s;
                struct result r;

                if (!put_nvcuda(root, cases[i].driver)) {
                        rmroot(root);
                        skip();
                }
                release(&s, cases[i].archive, "9.19.0", cases[i].cuda_major, "windows");
                run(root, 1, &s, 0, &r);
                assert_string_equal(r.verdict[0], cases[i].verdict);
                says(r.reason[0], cases[i].w1, cases[i].w2, "C:\\Windows\\System32\\nvcuda.dll", NULL);
                assert_string_equal(r.verdict[1], "warn");
                says(r.reason[1], "Windows machine", "not checked", NULL);
                done(&r);
                rmroot(root);
        }
        /* no driver on Windows */
        {
                char *root = mkroot();
                cc_source s;
                struct result r;

                release(&s, "cudnn-windows-x86_64-9.19.0.56_cuda12-archive.zip", "9.19.0", 12, "windows");
                run(root, 1, &s, 0, &r);
                assert_string_equal(r.verdict[0], "warn");
                says(r.reason[0], "no C:\\Windows\\System32\\nvcuda.dll", "Windows driver >= 528.33", NULL);
                done(&r);
                rmroot(root);
        }
}

/* ---- the GPUs --------------------------------------------------------------- */

static void test_gpu_below_range(void **state)
{
        char *root = mkroot();
        cc_source s;
        struct result r;

        (void)state;
        put_text(root, "proc/driver/nvidia/version", NVRM("580.159.04"));
        put_gpu(root, "0000:3b:00.0", INFO("Tesla P100-PCIE-16GB", "No"));
        release(&s, CUDA13, "9.19.0", 13, "linux");
        run(root, 0, &s, 0, &r);
        assert_string_equal(r.verdict[0], "ok");
        assert_string_equal(r.verdict[1], "stop");
        says(r.reason[1], "Tesla P100-PCIE-16GB (sm_60)", "7.5/8.0/8.6/8.9/9.0/10.0/12.0", "not 6.0", "cuDNN 9.10.2",
             "--force to install it anyway", NULL);
        done(&r);
        rmroot(root);
}

static void test_gpu_supported(void **state)
{
        char *root = mkroot();
        cc_source s;
        struct result r;

        (void)state;
        put_text(root, "proc/driver/nvidia/version", NVRM("580.159.04"));
        put_gpu(root, "0000:00:06.0", INFO("NVIDIA H200", "No"));
        put_gpu(root, "0000:00:07.0", INFO("NVIDIA H200", "No"));
        release(&s, CUDA13, "9.19.0", 13, "linux");
        run(root, 0, &s, 0, &r);
        assert_string_equal(r.verdict[1], "ok");
        says(r.reason[1], "NVIDIA H200 x2 (sm_90)", "7.5/8.0/8.6/8.9/9.0/10.0/12.0", "so 9.0", NULL);
        done(&r);
        rmroot(root);

        /* one GPU the tables do not know, one the driver leaves out, a
         * name that is no text */
        root = mkroot();
        put_gpu(root, "0000:00:06.0", INFO("NVIDIA H200", "No"));
        put_gpu(root, "0000:00:07.0", INFO("NVIDIA Graphics Device", "No"));
        put_gpu(root, "0000:00:08.0", INFO("Tesla P100-PCIE-16GB", "Yes"));
        put_gpu(root, "0000:00:09.0", "Model: \t\t NVIDIA\x1b[31m H200\r\n");
        run(root, 0, &s, 0, &r);
        assert_string_equal(r.verdict[1], "warn");
        says(r.reason[1], "NVIDIA Graphics Device: not in kb/gpus.tsv", "Tesla P100-PCIE-16GB: excluded",
             "NVIDIA H200 (sm_90)", "NVIDIA?[31m H200: not in kb/gpus.tsv", NULL);
        assert_null(strchr(r.reason[1], '\x1b'));
        assert_null(strchr(r.reason[1], '\r'));
        done(&r);
        rmroot(root);

        /* a build the GPU runs only with a newer CUDA: the tables cannot say */
        root = mkroot();
        put_gpu(root, "0000:00:06.0", INFO("NVIDIA GeForce RTX 5090", "No"));
        release(&s, CUDA12, "9.19.0", 12, "linux");
        run(root, 0, &s, 0, &r);
        assert_string_equal(r.verdict[1], "warn");
        says(r.reason[1], "NVIDIA GeForce RTX 5090 (sm_120)", "CUDA >= 12.8", NULL);
        done(&r);
        rmroot(root);

        /* no version: nothing to judge the GPUs against */
        root = mkroot();
        put_gpu(root, "0000:00:06.0", INFO("NVIDIA H200", "No"));
        release(&s, CUDA13, NULL, 13, "linux");
        run(root, 0, &s, 0, &r);
        assert_string_equal(r.verdict[1], "warn");
        says(r.reason[1], "the release's version is unknown", "NVIDIA H200", NULL);
        done(&r);
        rmroot(root);
}

/* --force turns both stops into warnings; the plan may go on. */
static void test_force(void **state)
{
        char *root = mkroot();
        cc_source s;
        struct result r;

        (void)state;
        put_text(root, "proc/driver/nvidia/version", NVRM("570.86.10"));
        put_gpu(root, "0000:00:06.0", INFO("NVIDIA H200", "No"));
        put_gpu(root, "0000:3b:00.0", INFO("Tesla P100-PCIE-16GB", "No"));
        release(&s, CUDA13, "9.19.0", 13, "linux");
        run(root, 0, &s, 0, &r);
        assert_string_equal(r.verdict[0], "stop");
        assert_string_equal(r.verdict[1], "stop");
        says(r.reason[1], "Tesla P100-PCIE-16GB (sm_60)", "NVIDIA H200 (sm_90)", NULL);
        done(&r);
        run(root, 0, &s, 1, &r);
        assert_string_equal(r.verdict[0], "warn");
        says(r.reason[0], "too old for a cuDNN built for CUDA 13", "(--force)", NULL);
        assert_string_equal(r.verdict[1], "warn");
        says(r.reason[1], "Tesla P100-PCIE-16GB (sm_60)", "(--force)", NULL);
        assert_int_equal(r.plan.stop, 0);
        done(&r);
        rmroot(root);
}

/* Many GPUs listed: over the bound, said so. */
static void test_gpu_limit(void **state)
{
        char *root = mkroot(), bus[32];
        cc_source s;
        struct result r;
        int i;

        (void)state;
        for (i = 0; i < 65; i++) {
                snprintf(bus, sizeof(bus), "0000:%02x:00.0", i);
                put_gpu(root, bus, INFO("NVIDIA H200", "No"));
        }
        release(&s, CUDA13, "9.19.0", 13, "linux");
        run(root, 0, &s, 0, &r);
        assert_string_equal(r.verdict[1], "warn");
        says(r.reason[1], "more than 64 GPUs", NULL);
        done(&r);
        rmroot(root);
}

static void test_bad_calls(void **state)
{
        cc_plan p;
        cc_source s;
        cc_error err = {0};

        (void)state;
        memset(&p, 0, sizeof(p));
        release(&s, CUDA13, "9.19.0", 13, "linux");
        assert_int_equal(cc_pairing_checks(NULL, &s, 0, &p, &err), -1);
        assert_int_equal(err.code, CC_ERR_USAGE);
        assert_non_null(strstr(err.msg, "cc_pairing_checks"));
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test_teardown(test_no_driver, teardown),
            cmocka_unit_test_teardown(test_driver_versions, teardown),
            cmocka_unit_test_teardown(test_driver_unreadable, teardown),
            cmocka_unit_test_teardown(test_unknown_cuda_major, teardown),
            cmocka_unit_test_teardown(test_windows_rows, teardown),
            cmocka_unit_test_teardown(test_gpu_below_range, teardown),
            cmocka_unit_test_teardown(test_gpu_supported, teardown),
            cmocka_unit_test_teardown(test_force, teardown),
            cmocka_unit_test_teardown(test_gpu_limit, teardown),
            cmocka_unit_test_teardown(test_bad_calls, teardown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
