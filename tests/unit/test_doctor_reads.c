/* What the run-time and frameworks checks read from the facts, source by
 * source: each value (a probe's number, a verify check's evidence, a package
 * name, a deps edge, a host fact, a framework's verdict and facts) must end
 * up in the finding that rests on it, so a value read from the wrong place,
 * or dropped for its shape, fails here. The facts are written with ' for ". */
#include "testutil.h"

#include "doctor/doctor.h"
#include "formats/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The checks run on facts (JSON with ' for ") on system sys, live or not. */
static cc_value *run(const char *facts, const char *sys, int live)
{
        const char *head = "{'command':'doctor','machine':{'system':'";
        size_t n = strlen(head) + strlen(sys) + strlen(facts) + 64, i;
        char *text = malloc(n);
        cc_value *doc = NULL;
        cc_error err = {0};

        assert_non_null(text);
        snprintf(text, n, "%s%s','live':%s},'facts':%s}", head, sys, live ? "true" : "false", facts);
        for (i = 0; text[i]; i++)
                if (text[i] == '\'')
                        text[i] = '"';
        if (cc_json_parse(text, strlen(text), 0, &doc, &err) < 0)
                fail_msg("bad test facts: %s: %s", err.msg, text);
        free(text);
        assert_int_equal(cc_doctor_run_checks(doc, &err), 0);
        return doc;
}

/* The first finding of id, or NULL. */
static const cc_value *finding(const cc_value *doc, const char *id)
{
        const cc_value *fs = cc_v_get(doc, "findings");
        size_t i;

        for (i = 0; i < cc_v_len(fs); i++)
                if (strcmp(cc_v_get_str(cc_v_at(fs, i), "id"), id) == 0)
                        return cc_v_at(fs, i);
        return NULL;
}

static const cc_value *must(const cc_value *doc, const char *id)
{
        const cc_value *f = finding(doc, id);

        if (f == NULL)
                fail_msg("no finding %s", id);
        return f;
}

static const char *ev_str(const cc_value *f, const char *key)
{
        return cc_v_get_str(cc_v_get(f, "evidence"), key);
}

static void contains(const char *s, const char *part)
{
        if (s == NULL || strstr(s, part) == NULL)
                fail_msg("'%s' does not contain '%s'", s ? s : "(null)", part);
}

/* An installation of list id 1 (its other keys: `more`), and a driver whose
 * files say 410.48: too old for any CUDA 11 or 12 build. */
#define OLD_DRIVER_INSTALL(more)                                                                                       \
        "'list':{'installations':[{'id':1,'prefix':'/usr','version':'9.1.0','majors':[9]" more "}]},"                  \
        "'host':{'driver_files':{'files':[{'path':'/usr/lib/libcuda.so.410.48','driver_version':'410.48'}],"           \
        "'version':'410.48'}}"

/* What cuDNN was built for, from each source the checks know, in their
 * order: the wheel's cuda_major, a package's name, a package's version, the
 * CUDA libraries its deps name. */
static void built_for_sources(void **state)
{
        static const struct {
                const char *facts, *cuda;
        } cases[] = {
            {"{" OLD_DRIVER_INSTALL(",'versions':[{'component':'cudnn','source':'dist-info','version':'9.1.0',"
                                    "'cuda_major':12}]") "}",
             "12"},
            {"{" OLD_DRIVER_INSTALL(",'provenance':{'kind':'distro-package','packages':[{'manager':'dpkg','name':"
                                    "'libcudnn9-cuda-11','version':'9.1.0.70-1'}]}") "}",
             "11"},
            {"{" OLD_DRIVER_INSTALL(",'provenance':{'kind':'distro-package','packages':[{'manager':'dpkg','name':"
                                    "'libcudnn8','version':'8.9.7.29-1+cuda12.2'}]}") "}",
             "12"},
            {"{" OLD_DRIVER_INSTALL("") ",'deps':[{'installation':1,'target':'/usr/lib/libcudnn.so.9','document':{"
                                        "'nodes':[{'id':0,'path':'/usr/lib/libcudnn_ops.so.9','edges':[{'name':"
                                        "'libcublasLt.so.11','kind':'runtime','status':'missing'}]}]}}]}",
             "11"},
        };
        size_t i;
        cc_value *doc;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                const cc_value *f;

                doc = run(cases[i].facts, "linux", 0);
                f = must(doc, "driver-too-old");
                assert_string_equal(ev_str(f, "built_for_cuda"), cases[i].cuda);
                assert_string_equal(ev_str(f, "driver_version"), "410.48");
                assert_int_equal(cc_v_as_int(cc_v_get(cc_v_get(f, "evidence"), "installation")), 1);
                contains(cc_v_get_str(f, "summary"), "cuDNN 9.1.0");
                cc_v_free(doc);
        }
        /* nothing says what it was built for: nothing to compare */
        doc = run("{" OLD_DRIVER_INSTALL("") "}", "linux", 0);
        assert_null(finding(doc, "driver-too-old"));
        cc_v_free(doc);
        /* live, the cuDNN probe's cudnnGetCudartVersion says it first */
        doc = run("{'list':{'installations':[{'id':1,'prefix':'/usr','version':'9.8.0','majors':[9],'versions':[{"
                  "'component':'cudnn','source':'dist-info','version':'9.8.0','cuda_major':11}]}]},"
                  "'verify':[{'installation':1,'role':'plain-program','document':{'layers':[{'id':'runtime',"
                  "'checks':[{'id':'driver','status':'failed','summary':'driver 520.61.05 is older than CUDA 12.8',"
                  "'evidence':{'state':'too-old','cuda_version':'11.8'}}]}],'probes':{'cudnn':{'facts':{"
                  "'cudart_version':12080}}}}}]}",
                  "linux", 1);
        contains(cc_v_get_str(must(doc, "driver-too-old"), "fix"), "built for CUDA 12.8");
        assert_string_equal(cc_v_get_str(must(doc, "driver-too-old"), "summary"),
                            "driver 520.61.05 is older than CUDA 12.8");
        assert_string_equal(
            cc_v_get_str(cc_v_get(cc_v_get(must(doc, "driver-too-old"), "evidence"), "driver"), "state"), "too-old");
        cc_v_free(doc);
}

#define ONE_V9 "'list':{'installations':[{'id':1,'prefix':'/opt/c9','version':'9.19.0','majors':[9]}]}"
#define LIVE_DOC(checks, more)                                                                                         \
        ",'verify':[{'installation':1,'role':'plain-program','document':{'layers':[{'id':'runtime','checks':[" checks  \
        "]}]" more "}}]"

/* The values of a failed verify check go to the finding as they are (an
 * array for version-checks); the compile layer's missing headers decide its
 * finding; an installation that could not be verified says so. */
static void proof_values(void **state)
{
        cc_value *doc;
        const cc_value *f, *vals;

        (void)state;
        doc = run("{" ONE_V9 LIVE_DOC("{'id':'version-checks','status':'failed','summary':'cudnnOpsVersionCheck: 1002',"
                                      "'evidence':[{'function':'cudnnGraphVersionCheck','status':'called'},"
                                      "{'function':'cudnnOpsVersionCheck','status':'called'}]}",
                                      "") "}",
                  "linux", 1);
        f = must(doc, "v9-sublibrary-version-mismatch");
        assert_string_equal(ev_str(f, "check"), "version-checks");
        vals = cc_v_get(cc_v_get(f, "evidence"), "values");
        assert_int_equal(cc_v_type(vals), CUDNNCTL_ARRAY);
        assert_int_equal(cc_v_len(vals), 2);
        assert_string_equal(cc_v_get_str(cc_v_at(vals, 1), "function"), "cudnnOpsVersionCheck");
        contains(cc_v_get_str(f, "summary"), "installation 1 (/opt/c9): cudnnOpsVersionCheck: 1002");
        cc_v_free(doc);

        /* the compile layer failed: a missing header, else the toolset */
        doc = run("{" ONE_V9 LIVE_DOC("{'id':'compile','status':'failed','summary':'cudnn.h: fatal error',"
                                      "'evidence':{'exit':1}}",
                                      ",'compile':{'status':'failed','reason':'x','missing_headers':["
                                      "'cudnn_graph.h']}") "}",
                  "linux", 1);
        assert_non_null(must(doc, "header-missing"));
        assert_null(finding(doc, "host-compiler-toolset"));
        assert_int_equal(
            cc_v_as_int(cc_v_get(cc_v_get(cc_v_get(must(doc, "header-missing"), "evidence"), "values"), "exit")), 1);
        cc_v_free(doc);
        doc = run("{" ONE_V9 LIVE_DOC("{'id':'compile','status':'failed','summary':'cl.exe: unsupported'}",
                                      ",'compile':{'status':'failed','reason':'x','missing_headers':[]}") "}",
                  "linux", 1);
        assert_non_null(must(doc, "host-compiler-toolset"));
        assert_null(finding(doc, "header-missing"));
        cc_v_free(doc);

        /* a failed handle check is the driver's when the driver is not ok */
        doc = run("{" ONE_V9 LIVE_DOC("{'id':'driver','status':'failed','summary':'no driver','evidence':{'state':"
                                      "'no-driver'}},{'id':'handle','status':'failed','summary':'1001',"
                                      "'evidence':{'code':1001}}",
                                      "") "}",
                  "linux", 1);
        f = must(doc, "not-initialized");
        contains(cc_v_get_str(f, "summary"), "no NVIDIA driver");
        assert_int_equal(cc_v_as_int(cc_v_get(cc_v_get(cc_v_get(f, "evidence"), "handle"), "code")), 1001);
        assert_string_equal(ev_str(f, "detail"), "no driver");
        cc_v_free(doc);

        /* an entry without a document: could not be verified; a null
         * document with its error gives no finding here (as the checks have
         * always read it) */
        doc = run("{" ONE_V9 ",'verify':[{'installation':1,'role':'plain-program','error':'boom'}]}", "linux", 1);
        contains(cc_v_get_str(must(doc, "cudnn-probe-crashed"), "summary"),
                 "installation 1 (/opt/c9) could not be verified: boom");
        cc_v_free(doc);
        doc = run("{" ONE_V9 ",'verify':[{'installation':1,'role':'plain-program','document':null,'error':'boom'}]}",
                  "linux", 1);
        assert_null(finding(doc, "cudnn-probe-crashed"));
        cc_v_free(doc);
}

/* The driver check's evidence, the host's environment and WSL, the
 * toolkits against nvidia-smi's CUDA version. */
static void driver_and_host(void **state)
{
        cc_value *doc;
        const cc_value *f;

        (void)state;
        doc = run("{" ONE_V9 LIVE_DOC("{'id':'driver','status':'failed','summary':'stub','evidence':{'state':"
                                      "'stub-loaded','library':'/usr/local/cuda/lib64/stubs/libcuda.so.1'}}",
                                      "") "}",
                  "linux", 1);
        f = must(doc, "not-initialized");
        assert_string_equal(ev_str(f, "library"), "/usr/local/cuda/lib64/stubs/libcuda.so.1");
        assert_string_equal(cc_v_get_str(f, "severity"), "error");
        cc_v_free(doc);
        doc = run("{" ONE_V9 ",'host':{'shell':'bash','env':{'CUDA_VISIBLE_DEVICES':'-1'}}" LIVE_DOC(
                      "{'id':'driver','status':'failed','summary':'hidden','evidence':{'state':'hidden'}}", "") "}",
                  "linux", 1);
        assert_string_equal(ev_str(must(doc, "not-initialized"), "CUDA_VISIBLE_DEVICES"), "-1");
        cc_v_free(doc);
        doc = run("{" ONE_V9 ",'host':{'shell':'bash','wsl':{'detected':true,'proc_version':null}}" LIVE_DOC(
                      "{'id':'driver','status':'failed','summary':'none','evidence':{'state':'no-driver'}}", "") "}",
                  "linux", 1);
        contains(cc_v_get_str(must(doc, "not-initialized"), "fix"), "wsl --shutdown");
        cc_v_free(doc);

        /* nvidia-smi's 13.0 with toolkit 12.4 only; none when 13.0 is installed */
        doc = run("{" ONE_V9 ",'host':{'toolkits':[{'prefix':'/usr/local/cuda-12.4','version':'12.4'}]}" LIVE_DOC(
                      "{'id':'driver','status':'passed','summary':'ok','evidence':{'state':'ok','cuda_version':"
                      "'13.0'}}",
                      "") "}",
                  "linux", 1);
        f = must(doc, "smi-cuda-version-not-toolkit");
        assert_string_equal(ev_str(f, "driver_cuda_version"), "13.0");
        contains(cc_v_get_str(f, "summary"), "(12.4)");
        assert_int_equal(cc_v_len(cc_v_get(cc_v_get(f, "evidence"), "toolkits")), 1);
        cc_v_free(doc);
        doc = run("{" ONE_V9 ",'host':{'toolkits':[{'prefix':'/usr/local/cuda-13.0','version':'13.0.1'}]}" LIVE_DOC(
                      "{'id':'driver','status':'passed','summary':'ok','evidence':{'state':'ok','cuda_version':"
                      "'13.0'}}",
                      "") "}",
                  "linux", 1);
        assert_null(finding(doc, "smi-cuda-version-not-toolkit"));
        cc_v_free(doc);

        /* a GPU newer than the library's maximum: its name, the maximum */
        doc = run("{" ONE_V9 ",'verify':[{'installation':1,'role':'plain-program','document':{'probes':{'cudnn':{"
                  "'facts':{'cudart_version':12020,'max_device_version':900}},'driver':{'facts':{'devices':[{"
                  "'index':0,'name':'Blackwell X','cc_major':10,'cc_minor':0}]}}}}}]}",
                  "linux", 1);
        f = must(doc, "gpu-too-new");
        contains(cc_v_get_str(f, "summary"), "cannot run on Blackwell X (sm_100)");
        assert_int_equal(cc_v_as_int(cc_v_get(cc_v_get(f, "evidence"), "cudnnGetMaxDeviceVersion")), 900);
        assert_string_equal(ev_str(f, "compute_capability"), "10.0");
        cc_v_free(doc);
}

/* A torch of interpreter /e/bin/python (its other keys: `more`). */
#define FW(name, more) "{'name':'" name "','state':'ok','info':{'version':'1.0'}" more "}"
#define INTERP(prefix, conda, fws)                                                                                     \
        "'frameworks':{'expect':null,'interpreters':[{'path':'/e/bin/"                                                 \
        "python','state':'probed','python':{'prefix':'" prefix "','conda':" conda "},'frameworks':[" fws "]}]}"
#define MODS(files) ",'modules':{'when':'after-gpu-call','files':[" files "]}"
#define CUDNN_AT(dir) "{'path':'" dir "/libcudnn.so.9','family':'cudnn'}"

/* The frameworks' facts each finding quotes. */
static void frameworks(void **state)
{
        const char *list = "'list':{'installations':[{'id':1,'prefix':'/e','version':'9.3.0','majors':[9],"
                           "'directories':[{'path':'/e/lib'}]},{'id':2,'prefix':'/usr','version':'9.1.0','majors':"
                           "[9],'directories':[{'path':'/usr/lib'}]}]}";
        char facts[4096];
        cc_value *doc;
        const cc_value *f;

        (void)state;
        /* a conda environment's torch loading /usr's copy */
        snprintf(facts, sizeof(facts), "{%s,%s}", list, INTERP("/e", "true", FW("torch", MODS(CUDNN_AT("/usr/lib")))));
        doc = run(facts, "linux", 1);
        f = must(doc, "conda-vs-system-order");
        assert_string_equal(ev_str(f, "conda_prefix"), "/e");
        assert_string_equal(ev_str(f, "loads"), "/usr/lib");
        assert_string_equal(ev_str(f, "loaded_version"), "9.1.0");
        assert_string_equal(ev_str(f, "python"), "/e/bin/python");
        contains(cc_v_get_str(f, "summary"), "loads cuDNN 9.1.0 from /usr/lib, not the environment's own 9.3.0");
        cc_v_free(doc);
        snprintf(facts, sizeof(facts), "{%s,%s}", list, INTERP("/e", "false", FW("torch", MODS(CUDNN_AT("/usr/lib")))));
        doc = run(facts, "linux", 1);
        assert_null(finding(doc, "conda-vs-system-order"));
        cc_v_free(doc);

        /* two directories in one process: both in the evidence */
        snprintf(facts, sizeof(facts), "{%s,%s}", list,
                 INTERP("/x", "false", FW("torch", MODS(CUDNN_AT("/usr/lib") "," CUDNN_AT("/e/lib")))));
        doc = run(facts, "linux", 1);
        f = must(doc, "framework-mixed-load");
        assert_int_equal(cc_v_len(cc_v_get(cc_v_get(f, "evidence"), "directories")), 2);
        assert_string_equal(ev_str(f, "framework"), "torch");
        assert_string_equal(ev_str(f, "version"), "1.0");
        cc_v_free(doc);

        /* ONNX Runtime's CUDA provider not created for want of cuDNN */
        snprintf(facts, sizeof(facts), "{%s,%s}", list,
                 INTERP("/x", "false",
                        FW("onnxruntime", ",'gpu_call':{'what':'a session','ok':false,'error':'libcudnn.so.9: "
                                          "cannot open (cuDNN)','cuda_provider_created':false,'log':'the log'}")));
        doc = run(facts, "linux", 1);
        f = must(doc, "pip-cudnn-not-on-path");
        assert_string_equal(ev_str(f, "call"), "a session");
        assert_string_equal(ev_str(f, "log"), "the log");
        assert_null(finding(doc, "framework-gpu-failed"));
        cc_v_free(doc);
        /* TensorFlow out of memory for cuDNN */
        snprintf(facts, sizeof(facts), "{%s,%s}", list,
                 INTERP("/x", "false",
                        FW("tensorflow", ",'gpu_call':{'what':'conv2d','ok':false,'error':'CUDNN_STATUS_"
                                         "INTERNAL_ERROR'}")));
        doc = run(facts, "linux", 1);
        contains(cc_v_get_str(must(doc, "internal-error-gpu-memory"), "summary"), "CUDNN_STATUS_INTERNAL_ERROR");
        cc_v_free(doc);
        /* a CPU-only build: where its distribution is */
        snprintf(facts, sizeof(facts), "{%s,%s}", list,
                 INTERP("/x", "false",
                        FW("torch", ",'build':{'cuda_build':false},'distributions':[{'name':'torch','location':"
                                    "'/usr/lib/python3/dist-packages'}]")));
        doc = run(facts, "linux", 1);
        f = must(doc, "framework-cpu-only");
        assert_string_equal(ev_str(f, "distribution_location"), "/usr/lib/python3/dist-packages");
        contains(cc_v_get_str(f, "fix"), "python3-torch");
        cc_v_free(doc);
        /* a build of another major than the copy it loads */
        snprintf(facts, sizeof(facts), "{%s,%s}", list,
                 INTERP("/x", "false",
                        FW("torch", ",'build':{'cudnn':'8.9.7','cuda_build':true},'runtime':{'cudnn':'9.1.0'}" MODS(
                                        CUDNN_AT("/usr/lib")))));
        doc = run(facts, "linux", 1);
        f = must(doc, "major-mismatch");
        assert_string_equal(ev_str(f, "build_cudnn"), "8.9.7");
        contains(cc_v_get_str(f, "fix"), "major 8");
        contains(cc_v_get_str(f, "fix"), "/usr/lib");
        cc_v_free(doc);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(built_for_sources),
            cmocka_unit_test(proof_values),
            cmocka_unit_test(driver_and_host),
            cmocka_unit_test(frameworks),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
