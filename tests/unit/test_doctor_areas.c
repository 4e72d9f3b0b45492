/* What the runner and the installation, loader and hygiene checks read from
 * the facts: every area's one-line summary (each reads another corner of the
 * facts: the driver probe's devices and NVML, the proof's layers, version
 * evidence and compiled program, the toolkits, installations, what a plain
 * program loads, the search paths, the frameworks), and the values the
 * findings of the loader checks rest on (a deps document's edges and mixed
 * set, the host's environment, WSL, the registry's PATH). A value read from
 * the wrong place, or dropped for its shape, fails here. The facts are
 * written with ' for ". */
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

static const cc_value *area(const cc_value *doc, const char *id)
{
        const cc_value *as = cc_v_get(doc, "areas");
        size_t i;

        for (i = 0; i < cc_v_len(as); i++)
                if (strcmp(cc_v_get_str(cc_v_at(as, i), "id"), id) == 0)
                        return cc_v_at(as, i);
        fail_msg("no area %s", id);
        return NULL;
}

static const char *line(const cc_value *doc, const char *id)
{
        return cc_v_get_str(area(doc, id), "summary");
}

static const cc_value *finding(const cc_value *doc, const char *id)
{
        const cc_value *fs = cc_v_get(doc, "findings");
        size_t i;

        for (i = 0; i < cc_v_len(fs); i++)
                if (strcmp(cc_v_get_str(cc_v_at(fs, i), "id"), id) == 0)
                        return cc_v_at(fs, i);
        return NULL;
}

static const char *ev_str(const cc_value *f, const char *key)
{
        assert_non_null(f);
        return cc_v_get_str(cc_v_get(f, "evidence"), key);
}

#define HOST                                                                                                           \
        "'host':{'system':'linux','shell':'bash','env':{},'search_paths':[{'variable':'LD_LIBRARY_PATH','length':6,"   \
        "'entries':[{'index':1,'entry':'/opt/a','kind':'absolute','exists':true,'is_dir':true}]},{'variable':'PATH',"  \
        "'length':13,'entries':[{'index':1,'entry':'/usr/bin','kind':'absolute','exists':true,'is_dir':true},"         \
        "{'index':2,'entry':'/bin','kind':'absolute','exists':true,'is_dir':true}]}],'include_search':{'dirs':[],"     \
        "'cudnn_h':null,'cudnn_version_h':null},'toolkits':[{'prefix':'/usr/local/cuda-13.0','version':'13.0'},"       \
        "{'prefix':'/opt/cuda','version':null}],'driver_files':{'files':[],'version':'580.1',"                         \
        "'versions_disagree':false}}"
#define LIST                                                                                                           \
        "'list':{'roots':[],'installations':[{'id':1,'prefix':'/usr','version':'9.14.0','majors':[9],"                 \
        "'provenance':{'kind':'distro-package'}},{'id':2,'prefix':'/v/nvidia/cudnn','version':null,'majors':[9],"      \
        "'provenance':{'kind':'pip-wheel'}}]}"
#define WHICH                                                                                                          \
        "'which':{'results':[{'name':'libcudnn.so.9','found':true,'path':'/usr/lib/x86_64-linux-gnu/libcudnn.so.9',"   \
        "'how':'ld.so.cache','installation':1,'installation_version':'9.14.0'}]}"
#define PROOF                                                                                                          \
        "{'layers':[{'id':'static','status':'passed','checks':[{'id':'header-vs-library','status':'passed',"           \
        "'summary':'headers 9.14.0 = library 9.14.0'}]},{'id':'runtime','status':'passed','checks':[{'id':'driver',"   \
        "'status':'passed','summary':'driver ok','evidence':{'state':'ok'}},{'id':'version','status':'passed',"        \
        "'summary':'v','evidence':{'cudnnGetVersion':91400}},{'id':'gpu-work','status':'passed','summary':'g'}]},"     \
        "{'id':'compile','status':'passed','checks':[]}],'probes':{'driver':{'ran':true,'facts':{'devices':["          \
        "{'index':0,'name':'NVIDIA H200','cc_major':9,'cc_minor':0},{'index':1,'cc_major':120,'cc_minor':0}],"         \
        "'nvml':{'init':0,'driver_version':'580.95.05'}}}},'compile':{'status':'passed','printed':"                    \
        "{'runtime_version':91400}},'summary':{'verdict':'passed-with-unchecked'}}"
#define VERIFY "'verify':[{'installation':1,'role':'plain-program','document':" PROOF "}]"
#define NOFW "'frameworks':{'reason':'not checked (--no-frameworks)'}"

/* Each area's line, read from its corner of the facts. */
static void area_lines(void **state)
{
        cc_value *doc;

        (void)state;
        doc = run("{" HOST "," LIST "," WHICH ",'deps':[]," VERIFY "," NOFW "}", "linux", 1);
        assert_string_equal(line(doc, "driver"), "driver 580.95.05; NVIDIA H200 (sm_90), GPU (sm_unknown)");
        assert_string_equal(line(doc, "toolkit"),
                            "CUDA 13.0 in /usr/local/cuda-13.0; CUDA (version unknown) in /opt/cuda");
        assert_string_equal(line(doc, "cudnn"),
                            "9.14.0 in /usr (distro-package); version unknown in /v/nvidia/cudnn (pip-wheel)");
        assert_string_equal(line(doc, "loader"),
                            "libcudnn.so.9 => /usr/lib/x86_64-linux-gnu/libcudnn.so.9 (ld.so.cache), cuDNN 9.14.0");
        assert_string_equal(line(doc, "headers"), "headers 9.14.0 = library 9.14.0");
        assert_string_equal(cc_v_get_str(area(doc, "headers"), "status"), "ok");
        assert_string_equal(line(doc, "runtime"), "layers: static passed, runtime passed, compile passed; "
                                                  "cudnnGetVersion 91400; the compiled program: 91400; GPU work "
                                                  "passed");
        assert_string_equal(cc_v_get_str(area(doc, "runtime"), "status"), "partial");
        assert_string_equal(line(doc, "hygiene"), "3 search-path entries looked at");
        assert_string_equal(line(doc, "frameworks"), "not checked (--no-frameworks)");
        assert_string_equal(cc_v_get_str(area(doc, "frameworks"), "status"), "not-checked");
        cc_v_free(doc);

        /* static: the driver from its files, nothing proved */
        doc = run("{" HOST "," LIST "," WHICH ",'deps':[]," VERIFY "," NOFW "}", "linux", 0);
        assert_string_equal(line(doc, "driver"), "driver 580.1 (from its files; not loaded: static check)");
        assert_string_equal(line(doc, "runtime"), "not checked (static check: nothing is loaded or run)");
        cc_v_free(doc);

        /* nothing found, nothing proved */
        doc = run("{'list':{'roots':[],'installations':[]},'which':{'results':[]},'deps':[],'verify':[]," NOFW "}",
                  "linux", 1);
        assert_string_equal(line(doc, "driver"), "not checked (no installation was proved)");
        assert_string_equal(line(doc, "cudnn"), "none found");
        assert_string_equal(line(doc, "loader"), "a plain program finds no cuDNN");
        assert_string_equal(line(doc, "headers"), "not checked (no installation was verified)");
        assert_string_equal(line(doc, "runtime"), "not checked (no installation to prove)");
        assert_string_equal(cc_v_get_str(area(doc, "toolkit"), "status"), "none");
        cc_v_free(doc);
}

/* The frameworks' line, after the judge decided again from their facts. */
static void frameworks_line(void **state)
{
        cc_value *doc;

        (void)state;
        doc = run("{" LIST ",'frameworks':{'expect':null,'interpreters':[{'path':'/v/bin/python3','state':'probed',"
                  "'frameworks':[{'name':'tensorflow','state':'ok','info':{'version':'2.18.0'},'build':"
                  "{'cuda_build':false}},{'name':'jax','state':'timed-out'},{'name':'cupy','state':'ok','info':"
                  "{'version':'13.4'}}]},{'path':'/usr/bin/python3','state':'probed','frameworks':[]}]}}",
                  "linux", 1);
        assert_string_equal(line(doc, "frameworks"),
                            "tensorflow 2.18.0: CPU-only; jax: timed-out; cupy 13.4: no cuDNN mapped");
        cc_v_free(doc);
        doc =
            run("{" LIST ",'frameworks':{'expect':null,'interpreters':[{'path':'/p','state':'probed'}]}}", "linux", 1);
        assert_string_equal(line(doc, "frameworks"), "none found in 1 Python interpreter");
        assert_string_equal(cc_v_get_str(area(doc, "frameworks"), "status"), "none");
        cc_v_free(doc);
}

/* What the loader checks' findings rest on: the deps documents. */
static void deps_sources(void **state)
{
        cc_value *doc;
        const cc_value *f;

        (void)state;
        doc = run("{" LIST ",'which':{'results':[]},'deps':[{'installation':1,'target':'/usr/lib/libcudnn.so.9',"
                  "'document':{'nodes':[{'id':0,'path':'/usr/lib/libcudnn.so.9','edges':[{'name':"
                  "'libcudnn_graph.so.9','kind':'runtime','status':'loaded'},{'name':'libnvrtc.so.13','kind':'runtime',"
                  "'status':'missing','candidates':['libnvrtc.so.13']},{'name':'libfoo.so.1','kind':'needed',"
                  "'status':'missing'},{'name':'libfoo.so.1','kind':'needed','status':'missing'}]}],"
                  "'summary':{'objects':1,'edges':4,'missing':2,'runtime_missing':1,'fails':0,'unreadable':0,"
                  "'cudnn':{'directories':['/usr/lib','/opt/lib'],'versions':['9.19.0','9.14.0'],'mixed':true,"
                  "'sets':[{'directory':'/usr/lib','versions':['9.19.0'],'files':['libcudnn.so.9']},"
                  "{'directory':'/opt/lib','versions':['9.14.0'],'files':['libcudnn_graph.so.9','libcudnn_ops.so.9',"
                  "'libcudnn_cnn.so.9']}]}}}}],"
                  "'verify':[]," NOFW "}",
                  "linux", 0);
        f = finding(doc, "nvrtc-missing");
        assert_string_equal(ev_str(f, "requester"), "/usr/lib/libcudnn.so.9");
        assert_string_equal(ev_str(f, "kind"), "runtime");
        assert_string_equal(cc_v_as_str(cc_v_at(cc_v_get(cc_v_get(f, "evidence"), "candidates"), 0)), "libnvrtc.so.13");
        assert_non_null(strstr(cc_v_get_str(f, "fix"), "'cudnnctl deps --missing /usr/lib/libcudnn.so.9'"));
        f = finding(doc, "dependency-missing");
        assert_string_equal(cc_v_get_str(f, "summary"), "/usr/lib/libcudnn.so.9 needs libfoo.so.1 (a dependency), "
                                                        "which cannot be found (not on the search path)");
        assert_int_equal(cc_v_as_int(cc_v_get(cc_v_get(f, "evidence"), "installation")), 1);
        f = finding(doc, "v9-sublibrary-version-mismatch");
        /* the shim's release, then the directory that gives the other one: the cause */
        assert_non_null(strstr(cc_v_get_str(f, "summary"),
                               "loading /usr/lib/libcudnn.so.9 (cuDNN 9.19.0) takes cuDNN 9.14.0 libraries from "
                               "/opt/lib (libcudnn_graph.so.9 and 2 more): a mixed set"));
        assert_string_equal(cc_v_as_str(cc_v_at(cc_v_get(cc_v_get(f, "evidence"), "directories"), 1)), "/opt/lib");
        assert_string_equal(cc_v_as_str(cc_v_at(cc_v_get(cc_v_get(f, "evidence"), "versions"), 1)), "9.14.0");
        assert_null(finding(doc, "split-directories"));
        cc_v_free(doc);
        /* one release from two directories: not a mixed set, a warning of its own */
        doc = run("{" LIST ",'which':{'results':[]},'deps':[{'installation':1,'target':'/usr/lib/libcudnn.so.9',"
                  "'document':{'nodes':[],'summary':{'objects':1,'edges':0,'missing':0,'runtime_missing':0,'fails':0,"
                  "'unreadable':0,'cudnn':{'directories':['/usr/lib','/opt/lib'],'versions':['9.14.0'],'mixed':false,"
                  "'split':true,'sets':[{'directory':'/usr/lib','versions':['9.14.0'],'files':['libcudnn.so.9']},"
                  "{'directory':'/opt/lib','versions':['9.14.0'],'files':['libcudnn_graph.so.9.14.0']}]}}}}],"
                  "'verify':[]," NOFW "}",
                  "linux", 0);
        assert_null(finding(doc, "v9-sublibrary-version-mismatch"));
        f = finding(doc, "split-directories");
        assert_non_null(f);
        assert_string_equal(cc_v_get_str(f, "severity"), "warning");
        assert_non_null(strstr(cc_v_get_str(f, "summary"),
                               "loading /usr/lib/libcudnn.so.9 takes cuDNN 9.14.0 from 2 directories: libcudnn.so.9 "
                               "from /usr/lib; libcudnn_graph.so.9.14.0 from /opt/lib"));
        cc_v_free(doc);
}

/* What they rest on in the host facts: the environment, WSL, the headers a
 * build finds, the registry's PATH. */
static void host_sources(void **state)
{
        cc_value *doc;
        const cc_value *f;

        (void)state;
        doc = run("{'host':{'system':'linux','shell':'bash','env':{'CONDA_PREFIX':'/opt/conda'},'search_paths':[],"
                  "'wsl':{'detected':true,'proc_version':'Linux 5.15 microsoft-standard-WSL2'},'include_search':"
                  "{'dirs':['/usr/include'],'cudnn_h':'/usr/include/cudnn.h','cudnn_version_h':"
                  "'/usr/include/cudnn_version.h'},'toolkits':[],'driver_files':{'files':[],'version':null,"
                  "'versions_disagree':false}},'list':{'roots':[],'installations':[{'id':1,'prefix':'/usr',"
                  "'version':'9.14.0','majors':[9],'provenance':{'kind':'distro-package'}},{'id':2,'prefix':"
                  "'/opt/conda','version':'9.10.0','majors':[9],'provenance':{'kind':'conda-package'},'files':"
                  "[{'path':'/usr/include/cudnn_version.h','kind':'header','role':'cudnn_version'}]}]},"
                  "'which':{'results':[{'name':'libcudnn.so.9','found':true,'path':'/usr/lib/libcudnn.so.9',"
                  "'how':'ld.so.cache','installation':1},{'name':'libcuda.so.1','found':false}]},'deps':[],"
                  "'verify':[]," NOFW "}",
                  "linux", 0);
        f = finding(doc, "conda-vs-system-order");
        assert_string_equal(cc_v_get_str(f, "summary"), "the active conda environment has cuDNN 9.10.0 in "
                                                        "/opt/conda/lib, but a plain program gets 9.14.0 from "
                                                        "/usr/lib/libcudnn.so.9");
        assert_string_equal(ev_str(f, "how"), "ld.so.cache");
        f = finding(doc, "wsl-libcuda");
        assert_string_equal(ev_str(f, "proc_version"), "Linux 5.15 microsoft-standard-WSL2");
        f = finding(doc, "header-lib-mismatch");
        assert_string_equal(ev_str(f, "header"), "/usr/include/cudnn_version.h");
        assert_int_equal(cc_v_as_int(cc_v_get(cc_v_get(f, "evidence"), "header_installation")), 2);
        assert_int_equal(cc_v_as_int(cc_v_get(cc_v_get(f, "evidence"), "library_installation")), 1);
        f = finding(doc, "multiple-installations");
        assert_non_null(f);
        assert_string_equal(cc_v_get_str(cc_v_at(cc_v_get(cc_v_get(f, "evidence"), "installations"), 1), "provenance"),
                            "conda-package");
        cc_v_free(doc);

        doc = run("{'host':{'system':'windows','shell':'cmd','env':{},'search_paths':[],'registry_path':[{'key':"
                  "'HKCU\\\\Environment','value':'C:\\\\x','length':1024}],'toolkits':[]},'list':{'installations':[]},"
                  "'which':{'results':[]},'deps':[],'verify':[]," NOFW "}",
                  "windows", 1);
        f = finding(doc, "win-setx-truncation");
        assert_string_equal(ev_str(f, "key"), "HKCU\\Environment");
        assert_int_equal(cc_v_as_int(cc_v_get(cc_v_get(f, "evidence"), "length")), 1024);
        cc_v_free(doc);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(area_lines),
            cmocka_unit_test(frameworks_line),
            cmocka_unit_test(deps_sources),
            cmocka_unit_test(host_sources),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
