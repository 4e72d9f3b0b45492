/* Tests of the file-name parsers: every cuDNN library/header name of every
 * major on both systems, archive and wheel names of every era, dist-info
 * names, and names that must not match. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "formats/names.h"

static void ver_eq(const cudnnctl_ver *v, const char *want, const char *what)
{
        char buf[64];

        cudnnctl_ver_str(v, buf, sizeof(buf));
        if (want == NULL ? v->n != 0 : strcmp(buf, want) != 0)
                fail_msg("%s: version %s, want %s", what, v->n ? buf : "(none)", want ? want : "(none)");
}

#define L CC_SYS_LINUX
#define W CC_SYS_WINDOWS
#define A CC_SYS_ANY

static void test_library_names(void **state)
{
        static const struct {
                const char *name;
                int kind, system;
                const char *role;
                int major;
                const char *version; /* NULL: n == 0 */
                int dev_link, known;
        } cases[] = {
            /* Linux shared libraries */
            {"libcudnn.so", CC_FK_SHARED, L, "cudnn", -1, NULL, 1, 1},
            {"libcudnn.so.7", CC_FK_SHARED, L, "cudnn", 7, NULL, 0, 1},
            {"libcudnn.so.7.6.5", CC_FK_SHARED, L, "cudnn", 7, "7.6.5", 0, 1},
            {"libcudnn.so.6", CC_FK_SHARED, L, "cudnn", 6, NULL, 0, 1},
            {"libcudnn.so.8", CC_FK_SHARED, L, "cudnn", 8, NULL, 0, 1},
            {"libcudnn_ops_infer.so.8", CC_FK_SHARED, L, "cudnn_ops_infer", 8, NULL, 0, 1},
            {"libcudnn_ops_infer.so.8.2.2", CC_FK_SHARED, L, "cudnn_ops_infer", 8, "8.2.2", 0, 1},
            {"libcudnn_ops_train.so.8", CC_FK_SHARED, L, "cudnn_ops_train", 8, NULL, 0, 1},
            {"libcudnn_cnn_infer.so.8", CC_FK_SHARED, L, "cudnn_cnn_infer", 8, NULL, 0, 1},
            {"libcudnn_cnn_train.so.8.9.7", CC_FK_SHARED, L, "cudnn_cnn_train", 8, "8.9.7", 0, 1},
            {"libcudnn_adv_infer.so", CC_FK_SHARED, L, "cudnn_adv_infer", -1, NULL, 1, 1},
            {"libcudnn_adv_train.so.8", CC_FK_SHARED, L, "cudnn_adv_train", 8, NULL, 0, 1},
            {"libcudnn.so.9", CC_FK_SHARED, L, "cudnn", 9, NULL, 0, 1},
            {"libcudnn.so.9.19.0", CC_FK_SHARED, L, "cudnn", 9, "9.19.0", 0, 1},
            {"libcudnn_graph.so.9", CC_FK_SHARED, L, "cudnn_graph", 9, NULL, 0, 1},
            {"libcudnn_ops.so.9", CC_FK_SHARED, L, "cudnn_ops", 9, NULL, 0, 1},
            {"libcudnn_cnn.so.9", CC_FK_SHARED, L, "cudnn_cnn", 9, NULL, 0, 1},
            {"libcudnn_adv.so.9.1.0", CC_FK_SHARED, L, "cudnn_adv", 9, "9.1.0", 0, 1},
            {"libcudnn_engines_precompiled.so.9.19.0", CC_FK_SHARED, L, "cudnn_engines_precompiled", 9, "9.19.0", 0, 1},
            {"libcudnn_engines_runtime_compiled.so.9", CC_FK_SHARED, L, "cudnn_engines_runtime_compiled", 9, NULL, 0,
             1},
            {"libcudnn_heuristic.so.9", CC_FK_SHARED, L, "cudnn_heuristic", 9, NULL, 0, 1},
            {"libcudnn_engines_tensor_ir.so.9", CC_FK_SHARED, L, "cudnn_engines_tensor_ir", 9, NULL, 0, 1},
            {"libcudnn_ext.so.9", CC_FK_SHARED, L, "cudnn_ext", 9, NULL, 0, 1},
            {"libcudnn_graph.so", CC_FK_SHARED, L, "cudnn_graph", -1, NULL, 1, 1},
            /* a role of another major, or none cuDNN ships */
            {"libcudnn_ops_infer.so.9", CC_FK_SHARED, L, "cudnn_ops_infer", 9, NULL, 0, 0},
            {"libcudnn_graph.so.8", CC_FK_SHARED, L, "cudnn_graph", 8, NULL, 0, 0},
            {"libcudnn_ops.so.8", CC_FK_SHARED, L, "cudnn_ops", 8, NULL, 0, 0},
            {"libcudnn_graph.so.7", CC_FK_SHARED, L, "cudnn_graph", 7, NULL, 0, 0},
            {"libcudnn_frontend.so", CC_FK_SHARED, L, "cudnn_frontend", -1, NULL, 1, 0},
            {"libcudnn_graph.so.10", CC_FK_SHARED, L, "cudnn_graph", 10, NULL, 0, 1}, /* newer than the table */
            /* static libraries */
            {"libcudnn_static.a", CC_FK_STATIC, L, "cudnn", -1, NULL, 0, 1},
            {"libcudnn_static_v7.a", CC_FK_STATIC, L, "cudnn", 7, NULL, 0, 1},
            {"libcudnn_static_v8.a", CC_FK_STATIC, L, "cudnn", 8, NULL, 0, 1},
            {"libcudnn_cnn_infer_static_v8.a", CC_FK_STATIC, L, "cudnn_cnn_infer", 8, NULL, 0, 1},
            {"libcudnn_adv_infer_static.a", CC_FK_STATIC, L, "cudnn_adv_infer", -1, NULL, 0, 1},
            {"libcudnn_adv_static_v9.a", CC_FK_STATIC, L, "cudnn_adv", 9, NULL, 0, 1},
            {"libcudnn_engines_precompiled_static_v9.a", CC_FK_STATIC, L, "cudnn_engines_precompiled", 9, NULL, 0, 1},
            /* Windows DLLs */
            {"cudnn64_7.dll", CC_FK_DLL, W, "cudnn", 7, NULL, 0, 1},
            {"cudnn64_8.dll", CC_FK_DLL, W, "cudnn", 8, NULL, 0, 1},
            {"cudnn_ops_infer64_8.dll", CC_FK_DLL, W, "cudnn_ops_infer", 8, NULL, 0, 1},
            {"cudnn_cnn_train64_8.dll", CC_FK_DLL, W, "cudnn_cnn_train", 8, NULL, 0, 1},
            {"cudnn_adv_infer64_8.dll", CC_FK_DLL, W, "cudnn_adv_infer", 8, NULL, 0, 1},
            {"cudnn64_9.dll", CC_FK_DLL, W, "cudnn", 9, NULL, 0, 1},
            {"cudnn_graph64_9.dll", CC_FK_DLL, W, "cudnn_graph", 9, NULL, 0, 1},
            {"cudnn_engines_precompiled64_9.dll", CC_FK_DLL, W, "cudnn_engines_precompiled", 9, NULL, 0, 1},
            {"cudnn_engines_runtime_compiled64_9.dll", CC_FK_DLL, W, "cudnn_engines_runtime_compiled", 9, NULL, 0, 1},
            {"cudnn_heuristic64_9.dll", CC_FK_DLL, W, "cudnn_heuristic", 9, NULL, 0, 1},
            {"cudnn_engines_tensor_ir64_9.dll", CC_FK_DLL, W, "cudnn_engines_tensor_ir", 9, NULL, 0, 1},
            {"CUDNN64_8.DLL", CC_FK_DLL, W, "cudnn", 8, NULL, 0, 1},
            {"Cudnn_Ops_Infer64_8.Dll", CC_FK_DLL, W, "cudnn_ops_infer", 8, NULL, 0, 1},
            {"cudnn_graph64_8.dll", CC_FK_DLL, W, "cudnn_graph", 8, NULL, 0, 0},
            /* Windows import libraries */
            {"cudnn.lib", CC_FK_IMPLIB, W, "cudnn", -1, NULL, 1, 1},
            {"CUDNN.LIB", CC_FK_IMPLIB, W, "cudnn", -1, NULL, 1, 1},
            {"cudnn64_8.lib", CC_FK_IMPLIB, W, "cudnn", 8, NULL, 0, 1},
            {"cudnn_ops_infer.lib", CC_FK_IMPLIB, W, "cudnn_ops_infer", -1, NULL, 1, 1},
            {"cudnn_ops_infer64_8.lib", CC_FK_IMPLIB, W, "cudnn_ops_infer", 8, NULL, 0, 1},
            {"cudnn_graph64_9.lib", CC_FK_IMPLIB, W, "cudnn_graph", 9, NULL, 0, 1},
            {"cudnn_adv.lib", CC_FK_IMPLIB, W, "cudnn_adv", -1, NULL, 1, 1},
            /* headers */
            {"cudnn.h", CC_FK_HEADER, A, "cudnn", -1, NULL, 0, 1},
            {"cudnn_version.h", CC_FK_HEADER, A, "cudnn_version", -1, NULL, 0, 1},
            {"cudnn_ops_infer.h", CC_FK_HEADER, A, "cudnn_ops_infer", -1, NULL, 0, 1},
            {"cudnn_adv_train.h", CC_FK_HEADER, A, "cudnn_adv_train", -1, NULL, 0, 1},
            {"cudnn_backend.h", CC_FK_HEADER, A, "cudnn_backend", -1, NULL, 0, 1},
            {"cudnn_graph.h", CC_FK_HEADER, A, "cudnn_graph", -1, NULL, 0, 1},
            {"cudnn_ops.h", CC_FK_HEADER, A, "cudnn_ops", -1, NULL, 0, 1},
            {"cudnn_v9.h", CC_FK_HEADER, A, "cudnn", 9, NULL, 0, 1},
            {"cudnn_graph_v9.h", CC_FK_HEADER, A, "cudnn_graph", 9, NULL, 0, 1},
            {"cudnn_version_v9.h", CC_FK_HEADER, A, "cudnn_version", 9, NULL, 0, 1},
            {"cudnn_backend_v9.h", CC_FK_HEADER, A, "cudnn_backend", 9, NULL, 0, 1},
            {"cudnn_ops_infer_v8.h", CC_FK_HEADER, A, "cudnn_ops_infer", 8, NULL, 0, 1},
            {"cudnn_ops_infer_v9.h", CC_FK_HEADER, A, "cudnn_ops_infer", 9, NULL, 0, 0},
            {"cudnn_version_v7.h", CC_FK_HEADER, A, "cudnn_version", 7, NULL, 0, 0},
            {"cudnn_frontend.h", CC_FK_HEADER, A, "cudnn_frontend", -1, NULL, 0, 0},
            {"cudnn_v.h", CC_FK_HEADER, A, "cudnn_v", -1, NULL, 0, 0}, /* no digits: part of the role */
            {"CUDNN.H", CC_FK_HEADER, A, "cudnn", -1, NULL, 0, 1},
            /* library names are not libraries of another kind */
            {"cudnn_engines_precompiled64_9.lib", CC_FK_IMPLIB, W, "cudnn_engines_precompiled", 9, NULL, 0, 1},
        };
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                cc_libname n;

                memset(&n, 0xAB, sizeof(n));
                if (cc_name_library(cases[i].name, &n) != 0)
                        fail_msg("%s: not recognised", cases[i].name);
                if (n.kind != cases[i].kind || n.system != cases[i].system || strcmp(n.role, cases[i].role) != 0 ||
                    n.major != cases[i].major || n.dev_link != cases[i].dev_link || n.known_role != cases[i].known)
                        fail_msg("%s: kind %d system %d role %s major %d dev %d known %d", cases[i].name, n.kind,
                                 n.system, n.role, n.major, n.dev_link, n.known_role);
                ver_eq(&n.version, cases[i].version, cases[i].name);
        }
}

static const char *const not_libraries[] = {
    "libcublas.so.12",
    "cudnnfoo.txt",
    "libcudnn.so.x.y",
    "cudnn.dll.bak",
    "",
    "libcudnn",
    "libcudnn.so.",
    "libcudnn.so.7.",
    "libcudnn.so..7",
    "libcudnn.so.7.6.5.1",
    "libcudnn.so.1234",
    "libcudnn.so.9.bak",
    "libcudnn.so.9.19.0~",
    "libcudnnfoo.so",
    "libcudnn_.so",
    "libcudnn__.so.9",
    "libcudnn_Ops.so.9",
    "libcudnn-ops.so.9",
    "libcudnn.a",
    "libcudnn_v7.a",
    "libcudnn_static_v.a",
    "libcudnn_static_vx.a",
    "libcudnn_static.a.old",
    "LIBCUDNN.SO.8",
    "cudnn.dll",
    "cudnn64_.dll",
    "cudnn64_8.dll.bak",
    "cudnn64_8.dl",
    "cudnn_64_8.dll",
    "nvcudnn64_8.dll",
    "cudnn32_8.dll",
    "cudnn64_x.dll",
    "cudnn64_1234.dll",
    "cublas64_12.dll",
    "cudnnfoo.h",
    "cudnn-.h",
    "cudnn_.h",
    ".h",
    "x.lib",
    "cudnn-11.4-linux-x64-v8.2.2.26.tgz",
    "nvidia_cudnn_cu13-9.19.0.56.dist-info",
    "lib/libcudnn.so",
};

static void test_library_rejects(void **state)
{
        char longname[400];
        size_t i;
        cc_libname n;

        (void)state;
        for (i = 0; i < sizeof(not_libraries) / sizeof(not_libraries[0]); i++)
                if (cc_name_library(not_libraries[i], &n) != -1)
                        fail_msg("'%s' taken for a cuDNN library (role %s)", not_libraries[i], n.role);
        assert_int_equal(cc_name_library(NULL, &n), -1);
        assert_int_equal(cc_name_library("libcudnn.so", NULL), -1);
        /* a role that does not fit: refused, not truncated */
        memset(longname, 0, sizeof(longname));
        memcpy(longname, "libcudnn_", 9);
        memset(longname + 9, 'a', 80);
        memcpy(longname + 89, ".so.9", 5);
        assert_int_equal(cc_name_library(longname, &n), -1);
        memset(longname + 9, 'a', sizeof(longname) - 10);
        assert_int_equal(cc_name_library(longname, &n), -1);
}

static void test_archive_names(void **state)
{
        static const struct {
                const char *name;
                int era;
                const char *format, *version, *platform;
                int system;
                const char *arch, *cuda, *package;
                int dup;
        } cases[] = {
            /* legacy (<= 8.3.0) */
            {"cudnn-11.4-linux-x64-v8.2.2.26.tgz", CC_ERA_LEGACY, "tgz", "8.2.2.26", "linux-x64", L, "x86_64", "11.4",
             "", 0},
            {"cudnn-10.2-windows10-x64-v7.6.5.32.zip", CC_ERA_LEGACY, "zip", "7.6.5.32", "windows10-x64", W, "x86_64",
             "10.2", "", 0},
            {"cudnn-10.2-windows7-x64-v7.6.5.32.zip", CC_ERA_LEGACY, "zip", "7.6.5.32", "windows7-x64", W, "x86_64",
             "10.2", "", 0},
            {"cudnn-11.4-windows-x64-v8.2.2.26.zip", CC_ERA_LEGACY, "zip", "8.2.2.26", "windows-x64", W, "x86_64",
             "11.4", "", 0},
            {"cudnn-9.0-linux-x64-v7.tgz", CC_ERA_LEGACY, "tgz", "7", "linux-x64", L, "x86_64", "9.0", "", 0},
            {"cudnn-9.0-linux-x64-v7.1.tgz", CC_ERA_LEGACY, "tgz", "7.1", "linux-x64", L, "x86_64", "9.0", "", 0},
            {"cudnn-10.2-linux-ppc64le-v7.6.5.32.tgz", CC_ERA_LEGACY, "tgz", "7.6.5.32", "linux-ppc64le", L, "ppc64le",
             "10.2", "", 0},
            {"cudnn-10.0-osx-x64-v7.4.1.5.tgz", CC_ERA_LEGACY, "tgz", "7.4.1.5", "osx-x64", A, "x86_64", "10.0", "", 0},
            {"cudnn-11.2-linux-x64-v8.1.0.77.tar.gz", CC_ERA_LEGACY, "tar.gz", "8.1.0.77", "linux-x64", L, "x86_64",
             "11.2", "", 0},
            {"cudnn-9.0-linux-x64-v7.1.solitairetheme8", CC_ERA_LEGACY, "solitairetheme8", "7.1", "linux-x64", L,
             "x86_64", "9.0", "", 0},
            /* redist (>= 8.3.1) */
            {"cudnn-linux-x86_64-8.3.2.44_cuda11.5-archive.tar.xz", CC_ERA_REDIST, "tar.xz", "8.3.2.44", "linux-x86_64",
             L, "x86_64", "11.5", "", 0},
            {"cudnn-windows-x86_64-8.5.0.96_cuda11-archive.zip", CC_ERA_REDIST, "zip", "8.5.0.96", "windows-x86_64", W,
             "x86_64", "11", "", 0},
            {"cudnn-linux-sbsa-9.1.0.70_cuda12-archive.tar.xz", CC_ERA_REDIST, "tar.xz", "9.1.0.70", "linux-sbsa", L,
             "sbsa", "12", "", 0},
            {"cudnn-linux-aarch64-9.12.0.46_cuda13-archive.tar.xz", CC_ERA_REDIST, "tar.xz", "9.12.0.46",
             "linux-aarch64", L, "aarch64", "13", "", 0},
            {"cudnn-linux-ppc64le-8.9.7.29_cuda12-archive.tar.xz", CC_ERA_REDIST, "tar.xz", "8.9.7.29", "linux-ppc64le",
             L, "ppc64le", "12", "", 0},
            {"cudnn-windows-x86_64-9.19.0.56_cuda13-archive.zip", CC_ERA_REDIST, "zip", "9.19.0.56", "windows-x86_64",
             W, "x86_64", "13", "", 0},
            {"cudnn-windows-x86_64-8.5.0.96_cuda11-archive.ZIP", CC_ERA_REDIST, "zip", "8.5.0.96", "windows-x86_64", W,
             "x86_64", "11", "", 0},
            /* wheels */
            {"nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl", CC_ERA_WHEEL, "whl", "9.1.0.70",
             "manylinux2014_x86_64", L, "x86_64", "12", "nvidia_cudnn_cu12", 0},
            {"nvidia_cudnn_cu11-8.9.5.29-py3-none-win_amd64.whl", CC_ERA_WHEEL, "whl", "8.9.5.29", "win_amd64", W,
             "x86_64", "11", "nvidia_cudnn_cu11", 0},
            {"nvidia_cudnn_cu13-9.19.0.56-py3-none-manylinux_2_27_aarch64.whl", CC_ERA_WHEEL, "whl", "9.19.0.56",
             "manylinux_2_27_aarch64", L, "aarch64", "13", "nvidia_cudnn_cu13", 0},
            {"nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl", CC_ERA_WHEEL, "whl",
             "9.1.0.70", "manylinux2014_x86_64.manylinux_2_17_x86_64", L, "x86_64", "12", "nvidia_cudnn_cu12", 0},
            {"nvidia_cudnn_cu12-9.1.0.70-1-py3-none-manylinux2014_x86_64.whl", CC_ERA_WHEEL, "whl", "9.1.0.70",
             "manylinux2014_x86_64", L, "x86_64", "12", "nvidia_cudnn_cu12", 0},
            {"nvidia_cudnn-8.0.5.39-py3-none-manylinux1_x86_64.whl", CC_ERA_WHEEL, "whl", "8.0.5.39",
             "manylinux1_x86_64", L, "x86_64", "", "nvidia_cudnn", 0},
            {"nvidia_cudnn_cu12-9.1.0.70-py3-none-macosx_11_0_arm64.whl", CC_ERA_WHEEL, "whl", "9.1.0.70",
             "macosx_11_0_arm64", A, "aarch64", "12", "nvidia_cudnn_cu12", 0},
            /* download duplicates: the name is still read, the suffix noted */
            {"cudnn-11.4-linux-x64-v8.2.2.26 (1).tgz", CC_ERA_LEGACY, "tgz", "8.2.2.26", "linux-x64", L, "x86_64",
             "11.4", "", 1},
            {"cudnn-windows-x86_64-8.5.0.96_cuda11-archive(2).zip", CC_ERA_REDIST, "zip", "8.5.0.96", "windows-x86_64",
             W, "x86_64", "11", "", 1},
            {"cudnn-windows-x86_64-8.5.0.96_cuda11-archive - Copy.zip", CC_ERA_REDIST, "zip", "8.5.0.96",
             "windows-x86_64", W, "x86_64", "11", "", 1},
            {"cudnn-linux-x86_64-8.3.2.44_cuda11.5-archive copy.tar.xz", CC_ERA_REDIST, "tar.xz", "8.3.2.44",
             "linux-x86_64", L, "x86_64", "11.5", "", 1},
            {"nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64 (3).whl", CC_ERA_WHEEL, "whl", "9.1.0.70",
             "manylinux2014_x86_64", L, "x86_64", "12", "nvidia_cudnn_cu12", 1},
        };
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                cc_archname a;

                memset(&a, 0xAB, sizeof(a));
                if (cc_name_archive(cases[i].name, &a) != 0)
                        fail_msg("%s: not recognised", cases[i].name);
                if (a.era != cases[i].era || strcmp(a.format, cases[i].format) != 0 ||
                    strcmp(a.platform, cases[i].platform) != 0 || a.system != cases[i].system ||
                    strcmp(a.arch, cases[i].arch) != 0 || strcmp(a.cuda, cases[i].cuda) != 0 ||
                    strcmp(a.package, cases[i].package) != 0 || a.dup_suffix != cases[i].dup)
                        fail_msg("%s: era %d format %s platform %s system %d arch %s cuda %s package %s dup %d",
                                 cases[i].name, a.era, a.format, a.platform, a.system, a.arch, a.cuda, a.package,
                                 a.dup_suffix);
                ver_eq(&a.version, cases[i].version, cases[i].name);
        }
}

static void test_archive_rejects(void **state)
{
        static const char *const names[] = {
            "cudnn-11.4-linux-x64-v8.2.2.26.rar",
            "cudnn-11.4-linux-x64-v8.2.2.26",
            "cudnn.tgz",
            ".tgz",
            "(1).tgz",
            "13).whl", /* found by the fuzzer: the "(" search ran before the name */
            "1).tgz",
            ").zip",
            "x(1).zip",
            "cudnn-linux-x86_64-8.3.2.44-archive.tar.xz",
            "cudnn-linux-mips-8.3.2.44_cuda11.5-archive.tar.xz",
            "cudnn-macos-x86_64-8.3.2.44_cuda11.5-archive.tar.xz",
            "cudnn-linux-x86_64-8.3_cuda11.5-archive.tar.xz",
            "cudnn-linux-x86_64-8.3.2.44_cuda-archive.tar.xz",
            "cudnn-linux-x86_64-8.3.2.44_cudaX-archive.tar.xz",
            "cudnn-linux-x86_64-8.3.2.44_cuda11.5-archive.solitairetheme8",
            "cudnn-linux-x86_64-8.3.2.44_cuda11.5.tar.xz",
            "cudnn-11-linux-x64-v8.2.2.26.tgz",
            "cudnn-11.4-linux-x64-8.2.2.26.tgz",
            "cudnn-11.4-linux-v8.2.2.26.tgz",
            "cudnn-11.4-linux-mips-v8.2.2.26.tgz",
            "cudnn-11.4-beos-x64-v8.2.2.26.tgz",
            "cudnn-11.4-linux-x64-v8.2.2.26.1.2.tgz",
            "cudnn-11.4-linux-x64-v.tgz",
            "cudnn-11.4-linux-x64-vx.tgz",
            "Cudnn-11.4-linux-x64-v8.2.2.26.tgz",
            "nvidia_cublas_cu12-12.1.3.1-py3-none-manylinux1_x86_64.whl",
            "nvidia_cudnn_frontend-1.0.0-py3-none-any.whl",
            "nvidia_cudnn_cuX-9.1.0.70-py3-none-any.whl",
            "nvidia_cudnn_cu12-9.1.0.70-py3-none.whl",
            "nvidia_cudnn_cu12-9-py3-none-any.whl",
            "nvidia_cudnn_cu12-9.1.0.70-x-y-z-w-v.whl",
            "nvidia_cudnn_cu12--py3-none-any.whl",
            "libcudnn.so.8",
            "",
        };
        cc_archname a;
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
                if (cc_name_archive(names[i], &a) != -1)
                        fail_msg("'%s' taken for an archive", names[i]);
        assert_int_equal(cc_name_archive(NULL, &a), -1);
        assert_int_equal(cc_name_archive("cudnn-11.4-linux-x64-v8.2.2.26.tgz", NULL), -1);
}

static void test_distinfo_names(void **state)
{
        static const struct {
                const char *name, *package, *version_str, *version;
                int cuda, cudnn;
        } cases[] = {
            {"nvidia_cudnn_cu13-9.19.0.56.dist-info", "nvidia_cudnn_cu13", "9.19.0.56", "9.19.0.56", 13, 1},
            {"nvidia_cudnn_cu12-9.1.0.70.dist-info", "nvidia_cudnn_cu12", "9.1.0.70", "9.1.0.70", 12, 1},
            {"nvidia-cudnn-cu11-8.6.0.163.dist-info", "nvidia_cudnn_cu11", "8.6.0.163", "8.6.0.163", 11, 1},
            {"NVIDIA_CUDNN_CU12-9.1.0.70.dist-info", "nvidia_cudnn_cu12", "9.1.0.70", "9.1.0.70", 12, 1},
            {"nvidia.cudnn.cu12-9.1.0.70.dist-info", "nvidia_cudnn_cu12", "9.1.0.70", "9.1.0.70", 12, 1},
            {"nvidia_cudnn-8.0.5.39.dist-info", "nvidia_cudnn", "8.0.5.39", "8.0.5.39", -1, 1},
            {"torch-2.11.0.dist-info", "torch", "2.11.0", "2.11.0", -1, 0},
            {"torch-2.11.0+cu130.dist-info", "torch", "2.11.0+cu130", "2.11.0", -1, 0},
            {"nvidia_nccl_cu13-2.28.9.dist-info", "nvidia_nccl_cu13", "2.28.9", "2.28.9", 13, 0},
            {"nvidia_cudnn_frontend-1.2.0.dist-info", "nvidia_cudnn_frontend", "1.2.0", "1.2.0", -1, 0},
            {"pkg-1.0rc1.dist-info", "pkg", "1.0rc1", "1.0", -1, 0},
            {"pkg-1!2.0.dist-info", "pkg", "1!2.0", "1", -1, 0},
            {"nvidia_cudnn_cu12-9.1.0.70-py3.8.egg-info", "nvidia_cudnn_cu12", "9.1.0.70", "9.1.0.70", 12, 1},
            {"nvidia_cudnn_cu12-9.1.0.70.egg-info", "nvidia_cudnn_cu12", "9.1.0.70", "9.1.0.70", 12, 1},
            {"nvidia_cudnn.egg-info", "nvidia_cudnn", "", NULL, -1, 1},
        };
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                cc_distname d;

                memset(&d, 0xAB, sizeof(d));
                if (cc_name_distinfo(cases[i].name, &d) != 0)
                        fail_msg("%s: not recognised", cases[i].name);
                if (strcmp(d.package, cases[i].package) != 0 || strcmp(d.version_str, cases[i].version_str) != 0 ||
                    d.cuda_major != cases[i].cuda || d.is_cudnn != cases[i].cudnn)
                        fail_msg("%s: package %s version %s cuda %d cudnn %d", cases[i].name, d.package, d.version_str,
                                 d.cuda_major, d.is_cudnn);
                ver_eq(&d.version, cases[i].version, cases[i].name);
        }
}

static void test_distinfo_rejects(void **state)
{
        static const char *const names[] = {
            "torch.dist-info",
            "torch-.dist-info",
            "-1.0.dist-info",
            "torch-abc.dist-info",
            "foo bar-1.0.dist-info",
            "nvidia_cudnn_cu13-9.19.0.56",
            ".dist-info",
            "torch-2.0.dist-info/",
            "torch-2.0.DIST-INFO",
            "to+rch-2.0.dist-info",
            "foo-bar.egg-info",
            "",
            "torch-2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.dist-info",
        };
        cc_distname d;
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
                if (cc_name_distinfo(names[i], &d) != -1)
                        fail_msg("'%s' taken for a dist-info name", names[i]);
        assert_int_equal(cc_name_distinfo(NULL, &d), -1);
        assert_int_equal(cc_name_distinfo("torch-2.0.dist-info", NULL), -1);
}

/* One name is at most one kind of thing. */
static void test_names_exclusive(void **state)
{
        static const char *const names[] = {
            "libcudnn.so.9",
            "cudnn64_9.dll",
            "cudnn_graph.h",
            "cudnn.lib",
            "cudnn-11.4-linux-x64-v8.2.2.26.tgz",
            "cudnn-linux-sbsa-9.1.0.70_cuda12-archive.tar.xz",
            "nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl",
            "nvidia_cudnn_cu13-9.19.0.56.dist-info",
        };
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
                cc_libname l;
                cc_archname a;
                cc_distname d;
                int hits = (cc_name_library(names[i], &l) == 0) + (cc_name_archive(names[i], &a) == 0) +
                           (cc_name_distinfo(names[i], &d) == 0);

                if (hits != 1)
                        fail_msg("%s matched %d parsers", names[i], hits);
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_library_names),   cmocka_unit_test(test_library_rejects),
            cmocka_unit_test(test_archive_names),   cmocka_unit_test(test_archive_rejects),
            cmocka_unit_test(test_distinfo_names),  cmocka_unit_test(test_distinfo_rejects),
            cmocka_unit_test(test_names_exclusive),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
