/* The doctor's checks as pure functions of facts: small facts documents
 * written here, the findings they must (and must not) give, the order and
 * merging of findings, the areas, and the fixes for each shell. */
#include "testutil.h"

#include "doctor/doctor.h"
#include "explain/explain.h"
#include "formats/json.h"
#include "kb/kb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A doctor document around facts (JSON text) on system sys, live or not;
 * the checks run on it. */
static cc_value *run(const char *facts, const char *sys, int live)
{
        char *text;
        cc_value *doc = NULL;
        cc_error err = {0};
        int n;

        n = snprintf(NULL, 0, "{\"command\":\"doctor\",\"machine\":{\"system\":\"%s\",\"live\":%s},\"facts\":%s}", sys,
                     live ? "true" : "false", facts);
        text = malloc((size_t)n + 1);
        assert_non_null(text);
        snprintf(text, (size_t)n + 1,
                 "{\"command\":\"doctor\",\"machine\":{\"system\":\"%s\",\"live\":%s},\"facts\":%s}", sys,
                 live ? "true" : "false", facts);
        if (cc_json_parse(text, strlen(text), 0, &doc, &err) < 0)
                fail_msg("bad test facts: %s: %s", err.msg, text);
        free(text);
        assert_int_equal(cc_doctor_run_checks(doc, &err), 0);
        return doc;
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

static size_t count(const cc_value *doc, const char *id)
{
        const cc_value *fs = cc_v_get(doc, "findings");
        size_t i, n = 0;

        for (i = 0; i < cc_v_len(fs); i++)
                n += strcmp(cc_v_get_str(cc_v_at(fs, i), "id"), id) == 0;
        return n;
}

static const char *area_status(const cc_value *doc, const char *id)
{
        const cc_value *as = cc_v_get(doc, "areas");
        size_t i;

        for (i = 0; i < cc_v_len(as); i++)
                if (strcmp(cc_v_get_str(cc_v_at(as, i), "id"), id) == 0)
                        return cc_v_get_str(cc_v_at(as, i), "status");
        return NULL;
}

static void empty_facts(void **state)
{
        cc_value *doc = run("{}", "linux", 1);

        (void)state;
        /* nothing installed: the one error says so, with a fix */
        assert_non_null(finding(doc, "no-cudnn"));
        assert_string_equal(cc_v_get_str(finding(doc, "no-cudnn"), "severity"), "error");
        assert_non_null(cc_v_get_str(finding(doc, "no-cudnn"), "fix"));
        assert_int_equal(cc_v_len(cc_v_get(doc, "areas")), 8);
        assert_string_equal(area_status(doc, "frameworks"), "not-checked");
        assert_string_equal(cc_v_get_str(cc_v_get(doc, "summary"), "verdict"), "errors");
        assert_int_equal(cc_v_as_int(cc_v_get(cc_v_get(doc, "summary"), "errors")), 1);
        assert_string_equal(area_status(doc, "cudnn"), "error");
        cc_v_free(doc);
}

#define ONE_INSTALL                                                                                                    \
        "\"list\":{\"installations\":[{\"id\":1,\"prefix\":\"/usr\",\"version\":\"9.19.0\",\"majors\":[9],"            \
        "\"provenance\":{\"kind\":\"distro-package\"}}]},"                                                             \
        "\"which\":{\"results\":[{\"name\":\"libcudnn.so.9\",\"found\":true,\"path\":\"/usr/lib/libcudnn.so.9\","      \
        "\"how\":\"ld.so.cache\",\"installation\":1}]}"

static void hygiene(void **state)
{
        const char *facts =
            "{" ONE_INSTALL ",\"host\":{\"shell\":\"bash\",\"search_paths\":[{\"variable\":\"LD_LIBRARY_PATH\","
            "\"entries\":[{\"index\":1,\"entry\":\"\",\"kind\":\"empty\"},{\"index\":2,\"entry\":\"lib\",\"kind\":"
            "\"relative\"},{\"index\":3,\"entry\":\"/tmp/x\",\"kind\":\"absolute\",\"exists\":true,\"is_dir\":true,"
            "\"mode\":511,\"world_writable\":true},{\"index\":4,\"entry\":\"/gone\",\"kind\":\"absolute\","
            "\"exists\":false},{\"index\":5,\"entry\":\"/usr/lib\",\"kind\":\"absolute\",\"exists\":true,\"is_dir\":"
            "true,\"mode\":493,\"world_writable\":false}]},{\"variable\":\"PATH\",\"entries\":[{\"index\":1,"
            "\"entry\":\"/nope\",\"kind\":\"absolute\",\"exists\":false}]}]}}";
        cc_value *doc = run(facts, "linux", 0);
        const cc_value *w = finding(doc, "path-writable-dir"), *e = finding(doc, "path-empty-entry");

        (void)state;
        /* the empty and the relative entry: one finding, each entry an instance with its own evidence */
        assert_int_equal(count(doc, "path-empty-entry"), 1);
        assert_int_equal(cc_v_len(cc_v_path(e, "evidence/instances")), 2);
        assert_int_equal(cc_v_as_int(cc_v_path(e, "evidence/instances/0/index")), 1);
        assert_string_equal(cc_v_as_str(cc_v_path(e, "evidence/instances/0/entry")), "");
        assert_string_equal(cc_v_as_str(cc_v_path(e, "evidence/instances/0/variable")), "LD_LIBRARY_PATH");
        assert_int_equal(cc_v_as_int(cc_v_path(e, "evidence/instances/1/index")), 2);
        assert_string_equal(cc_v_as_str(cc_v_path(e, "evidence/instances/1/entry")), "lib");
        assert_non_null(strstr(cc_v_as_str(cc_v_path(e, "evidence/instances/1/summary")), "relative (lib)"));
        assert_string_equal(cc_v_get_str(e, "summary"),
                            "2 entries of LD_LIBRARY_PATH are empty or relative: each means the current directory, so "
                            "a library planted in whatever directory you run from is loaded");
        assert_non_null(w);
        assert_int_equal(cc_v_len(cc_v_path(w, "evidence/instances")), 1);
        assert_string_equal(cc_v_as_str(cc_v_path(w, "evidence/instances/0/mode")), "0777");
        assert_non_null(strstr(cc_v_get_str(w, "fix"), "chmod o-w '/tmp/x'"));
        /* one instance: the summary is the entry's own */
        assert_string_equal(cc_v_get_str(w, "summary"), cc_v_as_str(cc_v_path(w, "evidence/instances/0/summary")));
        /* a missing LD_LIBRARY_PATH entry is a note; a missing PATH entry on Linux is not ours to judge */
        assert_int_equal(count(doc, "path-missing-entry"), 1);
        assert_int_equal(cc_v_len(cc_v_path(finding(doc, "path-missing-entry"), "evidence/instances")), 1);
        assert_string_equal(cc_v_as_str(cc_v_path(finding(doc, "path-missing-entry"), "evidence/instances/0/entry")),
                            "/gone");
        assert_string_equal(cc_v_get_str(finding(doc, "path-missing-entry"), "severity"), "info");
        assert_string_equal(area_status(doc, "hygiene"), "warning");
        /* most severe first: the warnings before the note */
        {
                const cc_value *fs = cc_v_get(doc, "findings");
                size_t i;
                int seen_info = 0;

                for (i = 0; i < cc_v_len(fs); i++) {
                        const char *sev = cc_v_get_str(cc_v_at(fs, i), "severity");

                        if (strcmp(sev, "info") == 0)
                                seen_info = 1;
                        else
                                assert_false(seen_info);
                }
        }
        cc_v_free(doc);
}

static void setx(void **state)
{
        char facts[4096];
        cc_value *doc;

        (void)state;
        snprintf(facts, sizeof(facts),
                 "{" ONE_INSTALL
                 ",\"host\":{\"shell\":\"powershell\",\"registry_path\":[{\"key\":\"HKCU\\\\Environment\","
                 "\"length\":1024},{\"key\":\"HKLM\\\\x\",\"length\":900}]}}");
        doc = run(facts, "windows", 1);
        assert_int_equal(count(doc, "win-setx-truncation"), 1);
        cc_v_free(doc);
        snprintf(facts, sizeof(facts),
                 "{" ONE_INSTALL ",\"host\":{\"registry_path\":[{\"key\":\"HKCU\\\\Environment\",\"length\":1023}]}}");
        doc = run(facts, "windows", 1);
        assert_null(finding(doc, "win-setx-truncation"));
        cc_v_free(doc);
        /* the user's Path begins with the machine's entries (expanded): setx PATH "%PATH%;..." */
        snprintf(facts, sizeof(facts),
                 "{" ONE_INSTALL
                 ",\"host\":{\"registry_path\":[{\"key\":\"HKCU\\\\Environment\",\"length\":1024,\"value\":"
                 "\"C:\\\\WINDOWS\\\\system32;C:\\\\Windows\\\\;D:\\\\tools\\\\bi\"},{\"key\":\"HKLM\\\\x\","
                 "\"length\":40,\"value\":\"%%SystemRoot%%\\\\system32;%%SystemRoot%%;;C:\\\\x\"}]}}");
        doc = run(facts, "windows", 1);
        {
                const cc_value *f = finding(doc, "win-setx-truncation"), *ev = cc_v_get(f, "evidence");

                assert_non_null(f);
                assert_string_equal(cc_v_get_str(ev, "cut"), "user-copy");
                assert_int_equal(cc_v_as_int(cc_v_get(ev, "machine_entries_copied")), 2);
                assert_non_null(strstr(cc_v_get_str(f, "fix"), "doctor --fix win-setx-truncation"));
        }
        cc_v_free(doc);
        /* the machine's Path cut: setx /M */
        snprintf(facts, sizeof(facts),
                 "{" ONE_INSTALL
                 ",\"host\":{\"registry_path\":[{\"key\":\"HKCU\\\\Environment\",\"length\":10,\"value\":"
                 "\"C:\\\\WINDOWS\"},{\"key\":\"HKLM\\\\x\",\"length\":1024,\"value\":\"C:\\\\WINDOWS\"}]}}");
        doc = run(facts, "windows", 1);
        assert_string_equal(cc_v_get_str(cc_v_get(finding(doc, "win-setx-truncation"), "evidence"), "cut"), "machine");
        assert_non_null(strstr(cc_v_get_str(finding(doc, "win-setx-truncation"), "summary"), "setx /M"));
        cc_v_free(doc);
        /* how entries compare */
        assert_int_equal(cc_winpath_copied("C:\\Windows\\System32;C:\\Windows;C:\\a", "%SystemRoot%\\system32;"
                                                                                      "%SystemRoot%;C:\\b"),
                         2);
        /* a bare %VAR% may be any one entry; the next must agree too */
        assert_int_equal(cc_winpath_copied("C:\\a;C:\\Windows", "%SystemRoot%;C:\\a"), 1);
        assert_int_equal(cc_winpath_copied("C:\\b;C:\\a", "C:\\a;C:\\b"), 0);
        assert_int_equal(cc_winpath_copied("", "C:\\a"), 0);
        assert_true(cc_winpath_in_machine("c:\\tools\\", 9, "D:\\x;\"C:\\Tools\""));
        assert_false(cc_winpath_in_machine("C:\\tool", 7, "C:\\tools;%X%"));
        assert_false(cc_winpath_in_machine("C:\\a", 3, "%SystemRoot%"));
        /* a Linux machine never gets it */
        snprintf(facts, sizeof(facts), "{" ONE_INSTALL ",\"host\":{\"registry_path\":[{\"length\":1024}]}}");
        doc = run(facts, "linux", 1);
        assert_null(finding(doc, "win-setx-truncation"));
        cc_v_free(doc);
}

/* The registry's Path against this process's PATH: entries it lacks (a shell
 * older than an install), REG_SZ values whose %VAR% stay as written, values
 * too long for the Environment Variables dialog. */
#define REG_FACTS(machine_type, machine_expanded, user, process)                                                       \
        "{" ONE_INSTALL ",\"host\":{\"registry_path\":[{\"key\":\"HKCU\\\\Environment\",\"length\":20,\"type\":"       \
        "\"REG_EXPAND_SZ\",\"value\":\"" user "\",\"expanded\":\"" user "\"},{\"key\":\"HKLM\\\\S\",\"length\":40,"    \
        "\"type\":\"" machine_type "\",\"value\":\"%SystemRoot%;C:\\\\CUDA\\\\bin\",\"expanded\":\"" machine_expanded  \
        "\"}],\"search_paths\":[{\"variable\":\"PATH\",\"entries\":[" process "]}]}}"
#define ENTRY(i, e) "{\"index\":" #i ",\"entry\":\"" e "\",\"kind\":\"absolute\"}"

static void registry_path(void **state)
{
        cc_value *doc;
        const cc_value *f;

        (void)state;
        /* everything the registry has is in PATH (case, a trailing separator and the order do not matter) */
        doc = run(REG_FACTS("REG_EXPAND_SZ", "C:\\\\Windows;C:\\\\CUDA\\\\bin", "C:\\\\Users\\\\u\\\\bin;",
                            ENTRY(1, "c:\\\\cuda\\\\bin\\\\") "," ENTRY(2, "C:\\\\Windows") "," ENTRY(
                                3, "C:\\\\Users\\\\u\\\\bin") "," ENTRY(4, "C:\\\\extra")),
                  "windows", 1);
        assert_null(finding(doc, "win-path-stale-shell"));
        assert_null(finding(doc, "win-path-not-expanded"));
        assert_null(finding(doc, "win-path-long"));
        cc_v_free(doc);
        /* the CUDA folder and the user's entry are missing: a shell opened before the install */
        doc = run(REG_FACTS("REG_EXPAND_SZ", "C:\\\\Windows;C:\\\\CUDA\\\\bin", "C:\\\\Users\\\\u\\\\bin",
                            ENTRY(1, "C:\\\\Windows")),
                  "windows", 1);
        f = finding(doc, "win-path-stale-shell");
        assert_non_null(f);
        assert_string_equal(cc_v_get_str(f, "severity"), "warning");
        assert_int_equal(cc_v_len(cc_v_path(f, "evidence/missing")), 2);
        /* the machine's entries first, as Windows composes a new process's PATH */
        assert_string_equal(cc_v_as_str(cc_v_path(f, "evidence/missing/0/entry")), "C:\\CUDA\\bin");
        assert_string_equal(cc_v_as_str(cc_v_path(f, "evidence/missing/0/key")), "HKLM\\S");
        assert_string_equal(cc_v_as_str(cc_v_path(f, "evidence/missing/1/entry")), "C:\\Users\\u\\bin");
        assert_non_null(strstr(cc_v_get_str(f, "summary"), "lacks 2 entries"));
        assert_non_null(strstr(cc_v_get_str(f, "fix"), "GetEnvironmentVariable('Path','Machine')"));
        assert_string_equal(cc_v_as_str(cc_v_path(f, "evidence/cause")), "older-shell");
        cc_v_free(doc);
        /* the registry's entries from one on missing, and PATH's last entry the start of the first of them: the
         * environment was cut (Windows XP at 1024 characters, Wine), not an older shell */
        doc = run(REG_FACTS("REG_EXPAND_SZ", "C:\\\\Windows;C:\\\\CUDA\\\\bin", "C:\\\\Users\\\\u\\\\bin",
                            ENTRY(1, "C:\\\\Windows") "," ENTRY(2, "C:\\\\CU")),
                  "windows", 1);
        f = finding(doc, "win-path-stale-shell");
        assert_non_null(f);
        assert_string_equal(cc_v_as_str(cc_v_path(f, "evidence/cause")), "cut");
        assert_int_equal(cc_v_len(cc_v_path(f, "evidence/missing")), 2);
        assert_non_null(strstr(cc_v_get_str(f, "summary"), "was cut there"));
        assert_non_null(strstr(cc_v_get_str(f, "fix"), "shorten Path"));
        cc_v_free(doc);
        /* a missing entry before one that is there: an older shell, whatever PATH ends with */
        doc = run(REG_FACTS("REG_EXPAND_SZ", "C:\\\\Windows;C:\\\\CUDA\\\\bin", "C:\\\\Users\\\\u\\\\bin",
                            ENTRY(1, "C:\\\\Users\\\\u\\\\bin") "," ENTRY(2, "C:\\\\CU")),
                  "windows", 1);
        assert_string_equal(cc_v_as_str(cc_v_path(finding(doc, "win-path-stale-shell"), "evidence/cause")),
                            "older-shell");
        cc_v_free(doc);
        /* REG_SZ: %SystemRoot% is not expanded, and PATH has it as written: no stale shell, but the type is wrong */
        doc = run(REG_FACTS("REG_SZ", "%SystemRoot%;C:\\\\CUDA\\\\bin", "C:\\\\u",
                            ENTRY(1, "%SystemRoot%") "," ENTRY(2, "C:\\\\CUDA\\\\bin") "," ENTRY(3, "C:\\\\u")),
                  "windows", 1);
        assert_null(finding(doc, "win-path-stale-shell"));
        f = finding(doc, "win-path-not-expanded");
        assert_non_null(f);
        assert_string_equal(cc_v_as_str(cc_v_path(f, "evidence/key")), "HKLM\\S");
        assert_int_equal(cc_v_len(cc_v_path(f, "evidence/entries")), 1);
        assert_string_equal(cc_v_as_str(cc_v_path(f, "evidence/entries/0")), "%SystemRoot%");
        cc_v_free(doc);
        /* lengths: 1024 is a setx cut, 2048 a long value, 2047 neither */
        doc = run("{" ONE_INSTALL ",\"host\":{\"registry_path\":[{\"key\":\"HKCU\\\\Environment\",\"length\":2048},"
                  "{\"key\":\"HKLM\\\\S\",\"length\":2047}]}}",
                  "windows", 1);
        assert_int_equal(count(doc, "win-path-long"), 1);
        assert_string_equal(cc_v_as_str(cc_v_path(finding(doc, "win-path-long"), "evidence/key")), "HKCU\\Environment");
        assert_string_equal(cc_v_get_str(finding(doc, "win-path-long"), "severity"), "info");
        assert_non_null(strstr(cc_v_get_str(finding(doc, "win-path-long"), "fix"), "'User'"));
        assert_null(finding(doc, "win-setx-truncation"));
        cc_v_free(doc);
        /* not on Linux, and not without PATH facts */
        doc = run(REG_FACTS("REG_SZ", "%X%;C:\\\\CUDA\\\\bin", "C:\\\\u", ENTRY(1, "C:\\\\y")), "linux", 1);
        assert_null(finding(doc, "win-path-stale-shell"));
        assert_null(finding(doc, "win-path-not-expanded"));
        cc_v_free(doc);
}

#define VERIFY_DRIVER(state)                                                                                           \
        ",\"verify\":[{\"installation\":1,\"role\":\"plain-program\",\"document\":{\"layers\":[{\"id\":\"runtime\","   \
        "\"checks\":[{\"id\":\"driver\",\"status\":\"not-checked\",\"summary\":\"why\",\"evidence\":{\"state\":"       \
        "\"" state "\"}}]}]}}]"

static void driver_states(void **state)
{
        static const struct {
                const char *state, *id, *sev;
        } cases[] = {
            {"stub-only", "not-initialized", "warning"}, {"no-driver", "not-initialized", "warning"},
            {"stub-loaded", "not-initialized", "error"}, {"hidden", "not-initialized", "warning"},
            {"no-device", "not-initialized", "warning"}, {"too-old", "driver-too-old", "error"},
            {"error", "not-initialized", "error"},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                char facts[2048];
                cc_value *doc;
                const cc_value *f;

                snprintf(facts, sizeof(facts),
                         "{" ONE_INSTALL ",\"host\":{\"shell\":\"fish\",\"env\":{\"CUDA_VISIBLE_DEVICES\":\"\"}}"
                         ",\"verify\":[{\"installation\":1,\"role\":\"plain-program\",\"document\":{\"layers\":[{"
                         "\"id\":\"runtime\",\"checks\":[{\"id\":\"driver\",\"status\":\"not-checked\",\"summary\":"
                         "\"why\",\"evidence\":{\"state\":\"%s\"}}]}]}}]}",
                         cases[i].state);
                doc = run(facts, "linux", 1);
                f = finding(doc, cases[i].id);
                if (f == NULL)
                        fail_msg("state %s: no %s", cases[i].state, cases[i].id);
                assert_string_equal(cc_v_get_str(f, "severity"), cases[i].sev);
                assert_non_null(cc_v_get_str(f, "fix"));
                if (strcmp(cases[i].state, "hidden") == 0)
                        assert_non_null(strstr(cc_v_get_str(f, "fix"), "set -e CUDA_VISIBLE_DEVICES"));
                assert_string_equal(area_status(doc, "driver"), cases[i].sev);
                cc_v_free(doc);
                /* static: probes did not run, so the same facts say nothing about the driver state */
                doc = run(facts, "linux", 0);
                assert_null(finding(doc, "driver-too-old"));
                cc_v_free(doc);
        }
        {
                /* ok: nothing */
                cc_value *doc = run("{" ONE_INSTALL VERIFY_DRIVER("ok") "}", "linux", 1);

                assert_null(finding(doc, "not-initialized"));
                assert_null(finding(doc, "driver-too-old"));
                cc_v_free(doc);
        }
}

static void static_driver_files(void **state)
{
        const char *none = "{\"list\":{\"installations\":[{\"id\":1,\"prefix\":\"/usr\",\"version\":\"9.19.0\","
                           "\"majors\":[9],\"versions\":[{\"source\":\"dist-info\",\"cuda_major\":12}]}]},"
                           "\"host\":{\"driver_files\":{\"files\":[],\"version\":null}}}";
        const char *old = "{\"list\":{\"installations\":[{\"id\":1,\"prefix\":\"/usr\",\"version\":\"9.19.0\","
                          "\"majors\":[9],\"versions\":[{\"source\":\"dist-info\",\"cuda_major\":12}]}]},"
                          "\"host\":{\"driver_files\":{\"files\":[{\"path\":\"/usr/lib/libcuda.so.450.80.02\","
                          "\"driver_version\":\"450.80.02\"}],\"version\":\"450.80.02\"}}}";
        const char *ok = "{\"list\":{\"installations\":[{\"id\":1,\"prefix\":\"/usr\",\"version\":\"9.19.0\","
                         "\"majors\":[9],\"versions\":[{\"source\":\"dist-info\",\"cuda_major\":12}]}]},"
                         "\"host\":{\"driver_files\":{\"files\":[{\"path\":\"/usr/lib/libcuda.so.580.65.06\","
                         "\"driver_version\":\"580.65.06\"}],\"version\":\"580.65.06\"}}}";
        cc_value *doc;

        (void)state;
        doc = run(none, "linux", 0);
        assert_non_null(finding(doc, "not-initialized"));
        cc_v_free(doc);
        doc = run(old, "linux", 0);
        assert_non_null(finding(doc, "driver-too-old"));
        assert_null(finding(doc, "not-initialized"));
        cc_v_free(doc);
        doc = run(ok, "linux", 0);
        assert_null(finding(doc, "driver-too-old"));
        assert_null(finding(doc, "not-initialized"));
        assert_string_equal(area_status(doc, "driver"), "ok");
        cc_v_free(doc);
}

#define GPU_FACTS(ver, cudart, major, minor)                                                                           \
        "{\"list\":{\"installations\":[{\"id\":1,\"prefix\":\"/x\",\"version\":\"" ver "\",\"majors\":[9]}]},"         \
        "\"verify\":[{\"installation\":1,\"role\":\"plain-program\",\"document\":{\"probes\":{\"cudnn\":{"             \
        "\"facts\":{\"cudart_version\":" cudart "}},\"driver\":{\"facts\":{\"devices\":[{\"name\":\"G\","              \
        "\"cc_major\":" major ",\"cc_minor\":" minor "}]}}}}}]}"

static void gpu_arch(void **state)
{
        cc_value *doc;

        (void)state;
        /* the guide's pair on Hopper */
        doc = run(GPU_FACTS("8.2.2", "11040", "9", "0"), "linux", 1);
        assert_non_null(finding(doc, "guide-pair-unsupported-gpu"));
        cc_v_free(doc);
        doc = run(GPU_FACTS("9.19.0", "13010", "9", "0"), "linux", 1);
        assert_null(finding(doc, "gpu-too-new"));
        assert_null(finding(doc, "gpu-too-old"));
        cc_v_free(doc);
        doc = run(GPU_FACTS("9.19.0", "12080", "6", "0"), "linux", 1);
        assert_non_null(finding(doc, "gpu-too-old"));
        cc_v_free(doc);
        doc = run(GPU_FACTS("9.5.1", "12060", "12", "0"), "linux", 1);
        assert_non_null(finding(doc, "gpu-too-new"));
        cc_v_free(doc);
}

static void dedup_and_fixes(void **state)
{
        struct cc_dctx d;
        cc_error err = {0};
        cc_value *doc;
        char *s;

        (void)state;
        memset(&d, 0, sizeof(d));
        d.err = &err;
        d.shell = "bash";
        s = cc_fix_prepend(&d, "LD_LIBRARY_PATH", "/opt/x", &err);
        assert_string_equal(s, "export LD_LIBRARY_PATH='/opt/x'${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}");
        free(s);
        d.shell = "fish";
        s = cc_fix_prepend(&d, "LD_LIBRARY_PATH", "/opt/x", &err);
        assert_string_equal(s, "set -gx LD_LIBRARY_PATH '/opt/x' $LD_LIBRARY_PATH");
        free(s);
        d.shell = "powershell";
        s = cc_fix_prepend(&d, "PATH", "C:\\cudnn\\bin", &err);
        assert_string_equal(s, "$env:PATH = \"C:\\cudnn\\bin;\" + $env:PATH");
        free(s);
        d.shell = "cmd";
        s = cc_fix_prepend(&d, "PATH", "C:\\cudnn\\bin", &err);
        assert_string_equal(s, "set \"PATH=C:\\cudnn\\bin;%PATH%\"");
        free(s);
        s = cc_fix_unset(&d, "CUDA_VISIBLE_DEVICES", &err);
        assert_string_equal(s, "set CUDA_VISIBLE_DEVICES=");
        free(s);
        /* the same mixed set seen by list and by verify's two checks: one finding per distinct summary */
        doc = run("{\"list\":{\"installations\":[{\"id\":1,\"prefix\":\"/x\",\"version\":\"9.19.0\",\"majors\":[9],"
                  "\"problems\":[{\"kind\":\"mixed-versions\",\"failure_mode\":\"v9-sublibrary-version-mismatch\","
                  "\"summary\":\"two\"},{\"kind\":\"mixed-versions\",\"failure_mode\":"
                  "\"v9-sublibrary-version-mismatch\",\"summary\":\"two\"}]}]}}",
                  "linux", 0);
        assert_int_equal(count(doc, "v9-sublibrary-version-mismatch"), 1);
        cc_v_free(doc);
}

static void default_headers(void **state)
{
#define TWO                                                                                                            \
        "{\"list\":{\"installations\":[{\"id\":1,\"prefix\":\"/usr\",\"version\":\"9.14.0\",\"majors\":[9],"           \
        "\"files\":[{\"path\":\"/usr/include/x86_64-linux-gnu/cudnn_version_v9.h\",\"kind\":\"header\"},"              \
        "{\"path\":\"/usr/include/x86_64-linux-gnu/cudnn_version.h\",\"kind\":\"header\",\"role\":"                    \
        "\"cudnn_version\"}]},{\"id\":2,\"prefix\":\"/opt/c\",\"version\":\"%s\",\"majors\":[9]}]},"                   \
        "\"which\":{\"results\":[{\"name\":\"libcudnn.so.9\",\"found\":true,\"path\":\"/opt/c/lib/libcudnn.so.9\","    \
        "\"installation\":%d}]},\"host\":{\"include_search\":{\"cudnn_version_h\":"                                    \
        "\"/usr/include/x86_64-linux-gnu/cudnn_version.h\"}}}"
        char facts[2048];
        cc_value *doc;

        (void)state;
        snprintf(facts, sizeof(facts), TWO, "9.19.0", 2);
        doc = run(facts, "linux", 0);
        assert_non_null(finding(doc, "header-lib-mismatch"));
        cc_v_free(doc);
        /* the headers are the plain program's own installation's: nothing */
        snprintf(facts, sizeof(facts), TWO, "9.19.0", 1);
        doc = run(facts, "linux", 0);
        assert_null(finding(doc, "header-lib-mismatch"));
        cc_v_free(doc);
        /* two installations of the same release: nothing */
        snprintf(facts, sizeof(facts), TWO, "9.14.0", 2);
        doc = run(facts, "linux", 0);
        assert_null(finding(doc, "header-lib-mismatch"));
        cc_v_free(doc);
}

static void hostile_shapes(void **state)
{
        static const char *const facts[] = {
            "[]",
            "null",
            "{\"list\":[1,2],\"which\":\"x\",\"deps\":{},\"verify\":7,\"host\":[]}",
            "{\"list\":{\"installations\":[null,1,\"x\",{\"problems\":[null,{\"kind\":7}]}]}}",
            "{\"verify\":[{\"installation\":\"1\",\"role\":5,\"document\":{\"layers\":[{\"checks\":[{}]}]}}]}",
            "{\"host\":{\"search_paths\":[{\"entries\":[{\"kind\":\"empty\"}]},5,null]}}",
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(facts); i++) {
                cc_value *doc = run(facts[i], i % 2 ? "windows" : "linux", (int)(i % 3 == 0));

                assert_non_null(cc_v_get(doc, "summary"));
                cc_v_free(doc);
        }
}

/* The registry: every id once, with its defaults and its check; the
 * relations name registered ids; each registry id is a catalog row with the
 * same number (kb/catalog.tsv; the README's table is tests/docs). */
static void registry(void **state)
{
        static const char *const areas[] = {"driver",  "toolkit", "cudnn",   "loader",
                                            "headers", "runtime", "hygiene", "frameworks"};
        cc_error err = {0};
        const cc_kb_table *cat = cc_kb_get("catalog", &err);
        const struct cc_relation *rel;
        size_t i, j, n;

        (void)state;
        assert_non_null(cat);
        for (i = 0; i < CC_F_COUNT; i++) {
                const struct cc_finding_def *f = cc_finding_def((enum cc_fid)i);
                int area = 0, row = 0;

                assert_non_null(f);
                assert_int_equal(f->fid, i);
                assert_non_null(f->check);
                assert_int_equal(cc_fid_of(f->id), i);
                assert_true(strcmp(f->severity, "error") == 0 || strcmp(f->severity, "warning") == 0 ||
                            strcmp(f->severity, "info") == 0);
                for (j = 0; j < CC_ARRAY_LEN(areas); j++)
                        area |= strcmp(f->area, areas[j]) == 0;
                assert_true(area);
                for (j = 0; j < cat->nrows; j++) {
                        const char *num = cc_kb_cell(cat, j, "catalog_number");

                        if (strcmp(cc_kb_cell(cat, j, "id"), f->id) != 0)
                                continue;
                        row = 1;
                        if (f->catalog_number == 0)
                                assert_true(num == NULL || strcmp(num, "-") == 0);
                        else
                                assert_int_equal(atoi(num), f->catalog_number);
                }
                if (!row)
                        fail_msg("%s is in the registry but not in kb/catalog.tsv", f->id);
                /* and explain knows it (its list of finding ids is the catalog's) */
                {
                        cc_value *e = cc_catalog_entry(f->id, NULL, &err);

                        if (e == NULL)
                                fail_msg("explain has no entry for %s: %s", f->id, err.msg);
                        cc_v_free(e);
                }
        }
        assert_null(cc_finding_def(CC_F_NONE));
        assert_int_equal(cc_fid_of("no-such-finding"), CC_F_NONE);
        assert_int_equal(cc_fid_of(NULL), CC_F_NONE);
        rel = cc_relations(&n);
        assert_true(n > 0);
        for (i = 0; i < n; i++) {
                assert_true(rel[i].folder < CC_F_COUNT);
                assert_true(rel[i].victim < CC_F_COUNT || rel[i].victim == CC_F_ANY);
                /* a folder's rows are together: the runner takes them at the first */
                for (j = i + 2; j < n; j++)
                        if (rel[j].folder == rel[i].folder)
                                assert_int_equal(rel[j - 1].folder, rel[i].folder);
        }
}

/* A check says only its own id: another is an internal error, and nothing
 * is added. The defaults come from the registry. */
static void one_check_one_id(void **state)
{
        struct cc_dctx d;
        cc_error err = {0};
        cc_value *f;

        (void)state;
        memset(&d, 0, sizeof(d));
        d.err = &err;
        d.findings = cc_v_array(&err);
        assert_non_null(d.findings);
        d.running = CC_F_NO_CUDNN;
        f = cc_finding(&d, CC_F_NO_CUDNN, NULL, NULL, "%s", "x");
        assert_non_null(f);
        assert_string_equal(cc_v_get_str(f, "severity"), "error");
        assert_string_equal(cc_v_get_str(f, "area"), "cudnn");
        assert_non_null(cc_finding(&d, CC_F_NO_CUDNN, "info", "loader", "%s", "y"));
        assert_string_equal(cc_v_get_str(cc_v_at(d.findings, 1), "severity"), "info");
        assert_null(cc_finding(&d, CC_F_WIN_SUBLIB_126, NULL, NULL, "%s", "z"));
        assert_int_equal(err.code, CC_ERR_USAGE);
        assert_string_equal(err.msg, "doctor: internal error: the check for no-cudnn emitted win-sublib-126");
        assert_int_equal(cc_v_len(d.findings), 2);
        cc_finding_meta_free(&d);
        cc_v_free(d.findings);
}

/* Folding by the registry's relations: on Windows a renamed cuDNN DLL
 * explains its installation's missing sub-libraries (one finding, the other
 * in its evidence "also"); on Linux the renamed file explains nothing of the
 * kind, and both stand. */
static void fold_by_relation(void **state)
{
        static const char *facts =
            "{\"list\":{\"installations\":[{\"id\":1,\"prefix\":\"C:\\\\tools\",\"version\":\"8.9.7\",\"majors\":[8],"
            "\"problems\":[{\"kind\":\"name-content-mismatch\",\"failure_mode\":\"renamed-dll\",\"summary\":"
            "\"cudnn64_8.dll is cuDNN 7\",\"paths\":[\"C:\\\\tools\\\\cudnn64_8.dll\"]},{\"kind\":\"incomplete-set\","
            "\"failure_mode\":\"win-sublib-126\",\"summary\":\"cuDNN 8 libraries without cudnn_ops_infer\","
            "\"paths\":[]}]}]}}";
        cc_value *doc = run(facts, "windows", 0);
        const cc_value *r = finding(doc, "renamed-dll");

        (void)state;
        assert_non_null(r);
        assert_null(finding(doc, "win-sublib-126"));
        assert_int_equal(cc_v_len(cc_v_path(r, "evidence/also")), 1);
        assert_string_equal(cc_v_as_str(cc_v_path(r, "evidence/also/0/id")), "win-sublib-126");
        assert_string_equal(cc_v_as_str(cc_v_path(r, "evidence/also/0/summary")),
                            "cuDNN 8 libraries without cudnn_ops_infer");
        cc_v_free(doc);
        doc = run(facts, "linux", 0);
        r = finding(doc, "renamed-dll");
        assert_non_null(r);
        assert_null(cc_v_path(r, "evidence/also"));
        assert_non_null(finding(doc, "linux-v8-helper-rpath"));
        cc_v_free(doc);
}

/* Many instances of one condition: one finding; the text shows the first
 * few and a count, --verbose every one. */
static void instances_text(void **state)
{
        char facts[4096], *txt = NULL;
        size_t i, off;
        cc_error err = {0};
        cc_value *doc;
        const cc_value *f;

        (void)state;
        off = (size_t)snprintf(facts, sizeof(facts),
                               "{" ONE_INSTALL ",\"host\":{\"search_paths\":[{\"variable\":\"LD_LIBRARY_PATH\","
                               "\"entries\":[");
        for (i = 0; i < 9; i++)
                off +=
                    (size_t)snprintf(facts + off, sizeof(facts) - off,
                                     "%s{\"index\":%zu,\"entry\":\"/gone%zu\",\"kind\":\"absolute\",\"exists\":false}",
                                     i ? "," : "", i + 1, i);
        snprintf(facts + off, sizeof(facts) - off, "]}]}}");
        doc = run(facts, "linux", 0);
        f = finding(doc, "path-missing-entry");
        assert_int_equal(count(doc, "path-missing-entry"), 1);
        assert_int_equal(cc_v_len(cc_v_path(f, "evidence/instances")), 9);
        for (i = 0; i < 9; i++) {
                char want[32], p[64];

                snprintf(want, sizeof(want), "/gone%zu", i);
                snprintf(p, sizeof(p), "evidence/instances/%zu/entry", i);
                assert_string_equal(cc_v_as_str(cc_v_path(f, p)), want);
        }
        assert_string_equal(cc_v_get_str(f, "summary"), "9 entries of LD_LIBRARY_PATH do not exist");
        assert_string_equal(cc_v_get_str(f, "fix"),
                            "remove them from LD_LIBRARY_PATH (leftovers of an uninstalled toolkit?)");
        assert_int_equal(cudnnctl_doctor_text(doc, 0, 0, &txt, &err), 0);
        assert_non_null(strstr(txt, "  instances: 9\n    - LD_LIBRARY_PATH entry 1 (/gone0) does not exist\n"));
        assert_non_null(strstr(txt, "    - LD_LIBRARY_PATH entry 5 (/gone4) does not exist\n    ... and 4 more "
                                    "(--verbose shows all)\n"));
        assert_null(strstr(txt, "/gone5"));
        free(txt);
        assert_int_equal(cudnnctl_doctor_text(doc, 1, 0, &txt, &err), 0);
        assert_non_null(strstr(txt, "    - LD_LIBRARY_PATH entry 9 (/gone8) does not exist\n"));
        assert_null(strstr(txt, "more (--verbose"));
        free(txt);
        cc_v_free(doc);
}

/* The frameworks' facts: judged again, then one finding per problem. */
#define FW_LIST                                                                                                        \
        "\"list\":{\"installations\":[{\"id\":1,\"prefix\":\"/usr\",\"version\":\"9.14.0\",\"majors\":[9],"            \
        "\"provenance\":{\"kind\":\"distro-package\"},\"directories\":[{\"path\":\"/usr/lib/x86_64-linux-gnu\","       \
        "\"aliases\":[\"/lib/x86_64-linux-gnu\"]}]},{\"id\":2,\"prefix\":\"/v/site/nvidia/cudnn\",\"version\":"        \
        "\"9.19.0\",\"majors\":[9],\"provenance\":{\"kind\":\"pip-wheel\"},\"directories\":[{\"path\":"                \
        "\"/v/site/nvidia/cudnn/lib\"}]}]},\"which\":{\"results\":[{\"name\":\"libcudnn.so.9\",\"found\":true,"        \
        "\"path\":\"/lib/x86_64-linux-gnu/libcudnn.so.9\",\"installation\":1,\"installation_version\":\"9.14.0\"}]}"
#define FW_TORCH(RUNTIME, DIR)                                                                                         \
        "{\"name\":\"torch\",\"state\":\"ok\",\"info\":{\"version\":\"2.11.0\",\"file\":\"/v/site/torch/"              \
        "__init__.py\"},"                                                                                              \
        "\"distributions\":[{\"name\":\"torch\",\"version\":\"2.11.0\",\"requires\":[\"nvidia-cudnn-cu13==9.19.0."     \
        "56\"],"                                                                                                       \
        "\"location\":\"/v/site\"}],\"build\":{\"cuda\":\"13.0\",\"cudnn\":\"9.19.0\",\"cuda_build\":true},"           \
        "\"runtime\":{\"cudnn\":\"" RUNTIME                                                                            \
        "\"},\"gpu_call\":{\"what\":\"conv2d\",\"ok\":true},\"modules\":{\"when\":"                                    \
        "\"after-gpu-call\",\"files\":[{\"path\":\"" DIR "/libcudnn.so.9\",\"family\":\"cudnn\"},{\"path\":\"" DIR     \
        "/libcudnn_graph.so.9\",\"family\":\"cudnn\"}]}}"
#define FW_INTERP(FWS)                                                                                                 \
        "\"frameworks\":{\"expect\":null,\"interpreters\":[{\"path\":\"/v/bin/python3\",\"state\":\"probed\","         \
        "\"python\":{\"prefix\":\"/v\"},\"distributions\":[{\"name\":\"nvidia-cudnn-cu13\",\"version\":\"9.19.0.56\"," \
        "\"location\":\"/v/site\"}],\"frameworks\":[" FWS "]}]}"

static void frameworks_findings(void **state)
{
        cc_value *doc;
        const cc_value *f;

        (void)state;
        /* PyTorch loads its pinned wheel; a plain program gets the distro's 9.14: an info note, no warning */
        doc = run("{" FW_LIST "," FW_INTERP(FW_TORCH("9.19.0", "/v/site/nvidia/cudnn/lib")) "}", "linux", 1);
        f = finding(doc, "framework-other-cudnn");
        assert_non_null(f);
        assert_string_equal(cc_v_get_str(f, "severity"), "info");
        assert_non_null(strstr(cc_v_get_str(f, "summary"), "own cuDNN 9.19.0"));
        assert_non_null(strstr(cc_v_get_str(f, "summary"), "9.14.0"));
        assert_int_equal(cc_v_as_int(cc_v_path(doc, "summary/warnings")), 0);
        assert_string_equal(area_status(doc, "frameworks"), "ok");
        assert_string_equal(cc_v_get_str(cc_v_path(doc, "facts/frameworks/interpreters/0/frameworks/0"), "verdict"),
                            "pass");
        cc_v_free(doc);

        /* the distro's older copy first: older than the build, not the pinned wheel */
        doc = run("{" FW_LIST "," FW_INTERP(FW_TORCH("9.14.0", "/lib/x86_64-linux-gnu")) "}", "linux", 1);
        assert_non_null(finding(doc, "runtime-older-than-build"));
        assert_string_equal(cc_v_get_str(finding(doc, "runtime-older-than-build"), "severity"), "error");
        f = finding(doc, "framework-other-cudnn");
        assert_non_null(f);
        assert_string_equal(cc_v_get_str(f, "severity"), "warning");
        assert_string_equal(cc_v_get_str(cc_v_get(f, "evidence"), "expected"), "/v/site/nvidia/cudnn/lib");
        assert_string_equal(area_status(doc, "frameworks"), "error");
        cc_v_free(doc);

        /* TensorFlow without CUDA: on Windows the catalog's entry 10, elsewhere a CPU-only build */
        doc = run("{" FW_LIST "," FW_INTERP("{\"name\":\"tensorflow\",\"state\":\"ok\",\"info\":{\"version\":"
                                            "\"2.18.0\"},\"build\":{\"cuda_build\":false}}") "}",
                  "windows", 1);
        assert_non_null(finding(doc, "win-tf-native-gpu-dropped"));
        assert_null(finding(doc, "framework-cpu-only"));
        assert_non_null(strstr(cc_v_get_str(finding(doc, "win-tf-native-gpu-dropped"), "fix"), "WSL2"));
        cc_v_free(doc);
        doc = run("{" FW_LIST "," FW_INTERP("{\"name\":\"tensorflow\",\"state\":\"ok\",\"info\":{\"version\":"
                                            "\"2.18.0\"},\"build\":{\"cuda_build\":false}}") "}",
                  "linux", 1);
        assert_non_null(finding(doc, "framework-cpu-only"));
        cc_v_free(doc);

        /* two frameworks, two copies; a probe that hung */
        doc = run("{" FW_LIST "," FW_INTERP(FW_TORCH("9.19.0", "/v/site/nvidia/cudnn/lib") "," FW_TORCH(
                      "9.14.0", "/lib/x86_64-linux-gnu") ",{\"name\":\"jax\",\"state\":\"timed-out\",\"error\":"
                                                         "\"the jax probe timed out\"}") "}",
                  "linux", 1);
        assert_non_null(finding(doc, "two-stacks-one-process"));
        assert_non_null(finding(doc, "framework-probe-failed"));
        assert_non_null(strstr(cc_v_get_str(finding(doc, "framework-probe-failed"), "summary"), "timed out"));
        cc_v_free(doc);

        /* not gathered: the area says why */
        doc = run("{" FW_LIST ",\"frameworks\":{\"reason\":\"not checked (--no-frameworks)\"}}", "linux", 1);
        assert_string_equal(area_status(doc, "frameworks"), "not-checked");
        cc_v_free(doc);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(empty_facts),
            cmocka_unit_test(hygiene),
            cmocka_unit_test(setx),
            cmocka_unit_test(registry_path),
            cmocka_unit_test(driver_states),
            cmocka_unit_test(static_driver_files),
            cmocka_unit_test(gpu_arch),
            cmocka_unit_test(dedup_and_fixes),
            cmocka_unit_test(default_headers),
            cmocka_unit_test(hostile_shapes),
            cmocka_unit_test(frameworks_findings),
            cmocka_unit_test(registry),
            cmocka_unit_test(one_check_one_id),
            cmocka_unit_test(fold_by_relation),
            cmocka_unit_test(instances_text),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
