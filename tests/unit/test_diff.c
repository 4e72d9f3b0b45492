/* Tests of `cudnnctl diff`'s core (src/lib/commands/diff.c): a small doctor
 * document written here, edited one fact at a time, and the differences
 * cc_diff_docs finds: each in its area, with its subject, once; none for
 * identical documents or facts equal as versions; the run-to-run facts
 * (durations, times, the host name) counted apart and listed only with
 * `all`. */
#include "testutil.h"

#include "commands/diff.h"
#include "formats/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char base_json[] =
    "{\"schema_version\":2,\"tool\":\"cudnnctl\",\"command\":\"doctor\",\"mode\":\"live\","
    "\"facts\":{"
    "\"host\":{\"system\":\"linux\",\"name\":\"node01\","
    "\"env\":{\"PATH\":\"/usr/bin\",\"CUDA_HOME\":\"/usr/local/cuda\"},"
    "\"search_paths\":[{\"variable\":\"PATH\",\"entries\":[{\"index\":1,\"entry\":\"/usr/bin\",\"exists\":true}]}],"
    "\"toolkits\":[{\"prefix\":\"/usr/local/cuda-12.4\",\"aliases\":[\"/usr/local/cuda\"],\"version\":\"12.4\"}],"
    "\"driver_files\":{\"version\":\"580.95.05\"}},"
    "\"list\":{\"installations\":["
    "{\"id\":1,\"prefix\":\"/usr\",\"aliases\":[\"/\"],\"version\":\"9.19.0\",\"full_version\":\"9.19.0.56\","
    "\"provenance\":{\"kind\":\"distro-package\",\"packages\":[{\"name\":\"libcudnn9-cuda-12\"}]},"
    "\"files\":[{\"path\":\"/usr/lib/libcudnn.so.9\",\"type\":\"symlink\",\"link_state\":\"ok\"},"
    "{\"path\":\"/usr/lib/libcudnn.so.9.19.0\",\"type\":\"file\",\"size\":100}]},"
    "{\"id\":2,\"prefix\":\"/opt/venv/lib/python3.12/site-packages/nvidia/cudnn\",\"version\":\"9.14.0\","
    "\"provenance\":{\"kind\":\"pip-wheel\"}}]},"
    "\"which\":{\"results\":[{\"name\":\"libcudnn.so.9\",\"found\":true,\"how\":\"ld.so.cache\","
    "\"realpath\":\"/usr/lib/libcudnn.so.9.19.0\"},"
    "{\"name\":\"libcuda.so.1\",\"found\":true,\"realpath\":\"/usr/lib/libcuda.so.580.95.05\"}]},"
    "\"verify\":[{\"installation\":1,\"document\":{\"probes\":{"
    "\"driver\":{\"wall_ms\":5,\"facts\":{\"nvml\":{\"driver_version\":\"580.95.05\",\"cuda_driver_version\":13000},"
    "\"devices\":[{\"index\":0,\"uuid\":\"GPU-0\",\"name\":\"NVIDIA H100\",\"cc_major\":9,\"cc_minor\":0}]}},"
    "\"cudnn_gpu\":{\"wall_ms\":500,\"gpu\":[{\"op\":\"conv\",\"time_us\":6187}]}},"
    "\"summary\":{\"verdict\":\"passed\",\"wall_ms\":1584}}}],"
    "\"frameworks\":{\"interpreters\":[{\"path\":\"/usr/bin/python3\",\"state\":\"probed\","
    "\"python\":{\"version\":\"3.12.3\"},"
    "\"frameworks\":[{\"name\":\"torch\",\"info\":{\"version\":\"2.5.0\"},\"import\":{\"seconds\":3.2},"
    "\"build\":{\"cuda\":\"12.4\",\"cudnn\":\"9.1.0\"},"
    "\"cudnn\":{\"version\":\"9.19.0\",\"directory\":\"/usr/lib\"},\"verdict\":\"pass\"}]}]},"
    "\"gather_ms\":10},"
    "\"findings\":[{\"id\":\"multiple-installations\",\"severity\":\"info\",\"area\":\"cudnn\","
    "\"summary\":\"2 installations\",\"evidence\":{\"prefix\":\"/usr\"}}],"
    "\"summary\":{\"verdict\":\"healthy\",\"wall_ms\":11}}";

static cc_value *parse(const char *text)
{
        cc_value *v = NULL;
        cc_error err = {0};

        if (cc_json_parse(text, strlen(text), 0, &v, &err) < 0)
                fail_msg("bad test JSON: %s: %s", err.msg, text);
        return v;
}

static cc_value *base(void)
{
        cc_value *d = parse(base_json);
        cc_error err = {0};

        assert_int_equal(cc_diff_check(d, &err), 0);
        return d;
}

/* The value at path ("facts/list/installations/0"; digits index arrays), for changing it. */
static cc_value *at(cc_value *doc, const char *path)
{
        char seg[128];
        const char *p = path;
        cc_value *v = doc;

        while (*p) {
                size_t n = strcspn(p, "/");

                assert_true(n < sizeof(seg));
                memcpy(seg, p, n);
                seg[n] = '\0';
                v = cc_v_type(v) == CUDNNCTL_ARRAY ? cc_v_atm(v, (size_t)strtoul(seg, NULL, 10)) : cc_v_getm(v, seg);
                if (v == NULL)
                        fail_msg("no %s in the test document", path);
                p += n;
                if (*p == '/')
                        p++;
        }
        return v;
}

/* Member key of the object at path set to json. */
static void set(cc_value *doc, const char *path, const char *key, const char *json)
{
        cc_error err = {0};

        assert_int_equal(cc_v_set(at(doc, path), key, parse(json), &err), 0);
}

/* json pushed onto the array at path. */
static void push(cc_value *doc, const char *path, const char *json)
{
        cc_error err = {0};

        assert_int_equal(cc_v_push(at(doc, path), parse(json), &err), 0);
}

static void drop(cc_value *doc, const char *path, const char *key)
{
        cc_value *v = cc_v_take(at(doc, path), key);

        assert_non_null(v);
        cc_v_free(v);
}

static cc_value *diff(const cc_value *a, const cc_value *b, int all)
{
        cc_value *d = NULL;
        cc_error err = {0};

        assert_int_equal(cc_diff_check(a, &err), 0);
        assert_int_equal(cc_diff_check(b, &err), 0);
        if (cc_diff_docs(a, b, "a.json", "b.json", all, &d, &err) < 0)
                fail_msg("cc_diff_docs: %s", err.msg);
        assert_string_equal(cc_v_get_str(d, "command"), "diff");
        return d;
}

static int64_t sum(const cc_value *d, const char *key)
{
        const cc_value *v = cc_v_get(cc_v_get(d, "summary"), key);

        assert_non_null(v);
        return cc_v_as_int(v);
}

/* Every change of d, whatever its area. */
static size_t nchanges(const cc_value *d)
{
        const cc_value *gs = cc_v_get(d, "groups");
        size_t i, n = 0;

        for (i = 0; i < cc_v_len(gs); i++)
                n += cc_v_len(cc_v_get(cc_v_at(gs, i), "changes"));
        return n;
}

/* No two changes of d alike (the same kind and what of one subject or one
 * path), and the groups hold what the summary counts. */
static void each_once(const cc_value *d)
{
        const cc_value *gs = cc_v_get(d, "groups");
        size_t i, j, k, l, nvol = 0;

        for (i = 0; i < cc_v_len(gs); i++) {
                const cc_value *cs = cc_v_get(cc_v_at(gs, i), "changes");

                if (strcmp(cc_v_get_str(cc_v_at(gs, i), "area"), "volatile") == 0)
                        nvol = cc_v_len(cs);
                for (j = 0; j < cc_v_len(cs); j++)
                        for (k = i; k < cc_v_len(gs); k++) {
                                const cc_value *cs2 = cc_v_get(cc_v_at(gs, k), "changes");

                                for (l = k == i ? j + 1 : 0; l < cc_v_len(cs2); l++) {
                                        const cc_value *x = cc_v_at(cs, j), *y = cc_v_at(cs2, l);

                                        if (strcmp(cc_v_get_str(x, "kind"), cc_v_get_str(y, "kind")) == 0 &&
                                            strcmp(cc_v_get_str(x, "subject"), cc_v_get_str(y, "subject")) == 0 &&
                                            strcmp(cc_v_get_str(x, "what"), cc_v_get_str(y, "what")) == 0)
                                                fail_msg("%s %s %s said twice", cc_v_get_str(x, "kind"),
                                                         cc_v_get_str(x, "subject"), cc_v_get_str(x, "what"));
                                        if (strcmp(cc_v_get_str(x, "kind"), cc_v_get_str(y, "kind")) == 0 &&
                                            strcmp(cc_v_get_str(x, "path"), cc_v_get_str(y, "path")) == 0 &&
                                            strcmp(cc_v_get_str(x, "what"), cc_v_get_str(y, "what")) == 0)
                                                fail_msg("%s %s %s said twice", cc_v_get_str(x, "kind"),
                                                         cc_v_get_str(x, "path"), cc_v_get_str(x, "what"));
                                }
                        }
        }
        assert_int_equal(sum(d, "differences"), sum(d, "added") + sum(d, "removed") + sum(d, "changed"));
        assert_int_equal(nchanges(d) - nvol, (size_t)sum(d, "differences"));
        if (cc_v_as_bool(cc_v_get(d, "all")))
                assert_int_equal(nvol, (size_t)sum(d, "volatile"));
        else
                assert_int_equal(nvol, 0);
        assert_string_equal(cc_v_get_str(cc_v_get(d, "summary"), "verdict"),
                            sum(d, "differences") ? "different" : "same");
}

/* The one change of area whose subject and what are these (NULL: any what). */
static const cc_value *find(const cc_value *d, const char *area, const char *kind, const char *subject,
                            const char *what)
{
        const cc_value *gs = cc_v_get(d, "groups"), *found = NULL;
        size_t i, j;

        for (i = 0; i < cc_v_len(gs); i++) {
                const cc_value *cs = cc_v_get(cc_v_at(gs, i), "changes");

                if (strcmp(cc_v_get_str(cc_v_at(gs, i), "area"), area) != 0)
                        continue;
                for (j = 0; j < cc_v_len(cs); j++) {
                        const cc_value *c = cc_v_at(cs, j);

                        if (strcmp(cc_v_get_str(c, "kind"), kind) != 0 ||
                            strcmp(cc_v_get_str(c, "subject"), subject) != 0 ||
                            (what != NULL && strcmp(cc_v_get_str(c, "what"), what) != 0))
                                continue;
                        if (found != NULL)
                                fail_msg("%s: %s %s %s twice", area, kind, subject, what ? what : "");
                        found = c;
                }
        }
        if (found == NULL)
                fail_msg("%s: no %s %s %s", area, kind, subject, what ? what : "");
        return found;
}

/* The one difference of a against b: in area, kind, subject, what. */
static const cc_value *only(const cc_value *d, const char *area, const char *kind, const char *subject,
                            const char *what)
{
        each_once(d);
        assert_int_equal(sum(d, "differences"), 1);
        assert_int_equal(sum(d, kind[0] == 'a' ? "added" : kind[0] == 'r' ? "removed" : "changed"), 1);
        return find(d, area, kind, subject, what);
}

static void str_is(const cc_value *v, const char *s)
{
        assert_non_null(cc_v_as_str(v));
        assert_string_equal(cc_v_as_str(v), s);
}

static void test_identical(void **state)
{
        cc_value *a = base(), *b = base(), *d;
        char *text = NULL;
        cc_error err = {0};
        int all;

        (void)state;
        for (all = 0; all < 2; all++) {
                d = diff(a, b, all);
                each_once(d);
                assert_int_equal(sum(d, "differences"), 0); /* the exit status 0 */
                assert_int_equal(sum(d, "volatile"), 0);
                assert_int_equal(cc_v_len(cc_v_get(d, "groups")), 0);
                str_is(cc_v_get(cc_v_get(d, "sources"), "before"), "a.json");
                str_is(cc_v_get(cc_v_get(d, "summary"), "verdict_after"), "healthy");
                assert_int_equal(cudnnctl_diff_text(d, 0, 0, &text, &err), 0);
                assert_non_null(strstr(text, "No differences between a.json and b.json\n"));
                free(text);
                cc_v_free(d);
        }
        /* a document against itself */
        d = diff(a, a, 0);
        assert_int_equal(sum(d, "differences"), 0);
        cc_v_free(d);
        /* versions equal as versions, and keys in another order, are no difference */
        set(b, "facts/list/installations/1", "version", "\"9.14\"");
        set(b, "facts/host/toolkits/0", "version", "\"12.4.0\"");
        drop(b, "facts", "gather_ms");
        set(b, "facts", "gather_ms", "10");
        d = diff(a, b, 1);
        each_once(d);
        assert_int_equal(sum(d, "differences"), 0);
        assert_int_equal(sum(d, "volatile"), 0);
        cc_v_free(d);
        cc_v_free(a);
        cc_v_free(b);
}

static void test_driver(void **state)
{
        cc_value *a = base(), *b = base(), *d;
        const cc_value *c;

        (void)state;
        /* NVML's version and the files' both move: one difference */
        set(b, "facts/host", "driver_files", "{\"version\":\"590.44.01\"}");
        set(b, "facts/verify/0/document/probes/driver/facts/nvml", "driver_version", "\"590.44.01\"");
        d = diff(a, b, 0);
        c = only(d, "driver", "changed", "driver", "version");
        str_is(cc_v_get(c, "before"), "580.95.05");
        str_is(cc_v_get(c, "after"), "590.44.01");
        str_is(cc_v_get(c, "path"), "/facts/verify/0/document/probes/driver/facts/nvml/driver_version");
        cc_v_free(d);
        /* and the newest CUDA it runs with it: two */
        set(b, "facts/verify/0/document/probes/driver/facts/nvml", "cuda_driver_version", "13010");
        d = diff(a, b, 0);
        each_once(d);
        assert_int_equal(sum(d, "differences"), 2);
        find(d, "driver", "changed", "driver", "version");
        c = find(d, "driver", "changed", "driver", "newest CUDA it runs");
        assert_int_equal(cc_v_as_int(cc_v_get(c, "before")), 13000);
        assert_int_equal(cc_v_as_int(cc_v_get(c, "after")), 13010);
        cc_v_free(d);
        cc_v_free(a);
        cc_v_free(b);
}

static void test_installations(void **state)
{
        cc_value *a = base(), *b, *d;
        const cc_value *c;

        (void)state;
        /* version changed (the full version compared where both have one) */
        b = base();
        set(b, "facts/list/installations/0", "version", "\"9.20.0\"");
        set(b, "facts/list/installations/0", "full_version", "\"9.20.0.48\"");
        d = diff(a, b, 0);
        c = only(d, "cudnn", "changed", "installation /usr (distro-package)", "version");
        str_is(cc_v_get(c, "before"), "9.19.0.56");
        str_is(cc_v_get(c, "after"), "9.20.0.48");
        cc_v_free(d);
        /* matched by prefix through an alias ("/" is one of /usr's): no added or removed */
        set(b, "facts/list/installations/0", "prefix", "\"/\"");
        set(b, "facts/list/installations/0", "aliases", "[]");
        d = diff(a, b, 0);
        only(d, "cudnn", "changed", "installation / (distro-package)", "version");
        cc_v_free(d);
        cc_v_free(b);
        /* the same prefix of another provenance is another installation */
        b = base();
        set(b, "facts/list/installations/0/provenance", "kind", "\"tarball\"");
        d = diff(a, b, 0);
        each_once(d);
        assert_int_equal(sum(d, "differences"), 2);
        c = find(d, "cudnn", "removed", "installation /usr (distro-package)", NULL);
        str_is(cc_v_get(c, "before"), "9.19.0");
        c = find(d, "cudnn", "added", "installation /usr (tarball)", NULL);
        str_is(cc_v_get(c, "after"), "9.19.0");
        cc_v_free(d);
        cc_v_free(b);
        /* added, and the other way removed */
        b = base();
        push(b, "facts/list/installations",
             "{\"id\":3,\"prefix\":\"/opt/cudnn-9.8\",\"version\":\"9.8.0\",\"provenance\":{\"kind\":\"tarball\"}}");
        d = diff(a, b, 0);
        c = only(d, "cudnn", "added", "installation /opt/cudnn-9.8 (tarball)", NULL);
        str_is(cc_v_get(c, "after"), "9.8.0");
        str_is(cc_v_get(c, "path"), "/facts/list/installations/2");
        assert_int_equal(cc_v_type(cc_v_get(c, "before")), CUDNNCTL_NULL);
        cc_v_free(d);
        d = diff(b, a, 0);
        c = only(d, "cudnn", "removed", "installation /opt/cudnn-9.8 (tarball)", NULL);
        str_is(cc_v_get(c, "before"), "9.8.0");
        cc_v_free(d);
        cc_v_free(b);
        /* a file gone: one change naming it */
        b = base();
        set(b, "facts/list/installations/0", "files",
            "[{\"path\":\"/usr/lib/libcudnn.so.9\",\"type\":\"symlink\",\"link_state\":\"ok\"}]");
        d = diff(a, b, 0);
        c = only(d, "cudnn", "changed", "installation /usr (distro-package)", "files");
        assert_int_equal(cc_v_as_int(cc_v_get(cc_v_get(c, "files"), "removed")), 1);
        str_is(cc_v_at(cc_v_get(cc_v_get(c, "files"), "names"), 0), "- libcudnn.so.9.19.0");
        cc_v_free(d);
        cc_v_free(b);
        cc_v_free(a);
}

static void test_frameworks(void **state)
{
        cc_value *a = base(), *b = base(), *d;
        const cc_value *c;

        (void)state;
        set(b, "facts/frameworks/interpreters/0/frameworks/0/info", "version", "\"2.6.0\"");
        d = diff(a, b, 0);
        c = only(d, "frameworks", "changed", "torch in /usr/bin/python3", "version");
        str_is(cc_v_get(c, "before"), "2.5.0");
        str_is(cc_v_get(c, "after"), "2.6.0");
        str_is(cc_v_get(c, "path"), "/facts/frameworks/interpreters/0/frameworks/0/info/version");
        cc_v_free(d);
        /* the upgrade with the cuDNN it loads and is built with */
        set(b, "facts/frameworks/interpreters/0/frameworks/0/cudnn", "version", "\"9.20.0\"");
        set(b, "facts/frameworks/interpreters/0/frameworks/0/build", "cudnn", "\"9.5.1\"");
        d = diff(a, b, 0);
        each_once(d);
        assert_int_equal(sum(d, "differences"), 3);
        find(d, "frameworks", "changed", "torch in /usr/bin/python3", "version");
        find(d, "frameworks", "changed", "torch in /usr/bin/python3", "loaded cuDNN");
        find(d, "frameworks", "changed", "torch in /usr/bin/python3", "built with cuDNN");
        cc_v_free(d);
        cc_v_free(a);
        cc_v_free(b);
}

static void test_findings(void **state)
{
        cc_value *a = base(), *b = base(), *d;
        const cc_value *c;

        (void)state;
        push(b, "findings",
             "{\"id\":\"driver-too-old\",\"severity\":\"error\",\"area\":\"driver\",\"summary\":\"too old\","
             "\"evidence\":{\"library\":\"libcuda.so.1\"}}");
        set(b, "summary", "verdict", "\"errors\"");
        d = diff(a, b, 0);
        c = only(d, "findings", "added", "driver-too-old (libcuda.so.1)", NULL);
        str_is(cc_v_get(c, "after"), "too old");
        str_is(cc_v_get(cc_v_get(d, "summary"), "verdict_before"), "healthy");
        str_is(cc_v_get(cc_v_get(d, "summary"), "verdict_after"), "errors");
        cc_v_free(d);
        d = diff(b, a, 0);
        c = only(d, "findings", "removed", "driver-too-old (libcuda.so.1)", NULL);
        str_is(cc_v_get(c, "before"), "too old");
        cc_v_free(d);
        /* the same id about something else is another finding; its severity is a change */
        cc_v_free(b);
        b = base();
        set(b, "findings/0/evidence", "prefix", "\"/opt/x\"");
        d = diff(a, b, 0);
        each_once(d);
        assert_int_equal(sum(d, "differences"), 2);
        find(d, "findings", "removed", "multiple-installations (/usr)", NULL);
        find(d, "findings", "added", "multiple-installations (/opt/x)", NULL);
        cc_v_free(d);
        cc_v_free(b);
        b = base();
        set(b, "findings/0", "severity", "\"warning\"");
        d = diff(a, b, 0);
        only(d, "findings", "changed", "multiple-installations (/usr)", "severity");
        cc_v_free(d);
        cc_v_free(b);
        cc_v_free(a);
}

/* The run-to-run facts: durations, times and the host name. */
static void test_volatile(void **state)
{
        static const char *const paths[] = {
            "/facts/host/name",
            "/facts/verify/0/document/probes/driver/wall_ms",
            "/facts/verify/0/document/probes/cudnn_gpu/gpu/0/time_us",
            "/facts/frameworks/interpreters/0/frameworks/0/import/seconds",
            "/facts/gather_ms",
            "/summary/wall_ms",
        };
        cc_value *a = base(), *b = base(), *d;
        const cc_value *c, *g;
        char *text = NULL;
        cc_error err = {0};
        size_t i, j;

        (void)state;
        set(b, "facts/host", "name", "\"node02\"");
        set(b, "facts/verify/0/document/probes/driver", "wall_ms", "7");
        set(b, "facts/verify/0/document/probes/cudnn_gpu/gpu/0", "time_us", "6001");
        set(b, "facts/frameworks/interpreters/0/frameworks/0/import", "seconds", "2.9");
        set(b, "facts", "gather_ms", "12");
        set(b, "summary", "wall_ms", "13");
        /* left out, counted */
        d = diff(a, b, 0);
        each_once(d);
        assert_int_equal(sum(d, "differences"), 0);
        assert_int_equal(sum(d, "volatile"), CC_ARRAY_LEN(paths));
        assert_int_equal(cc_v_len(cc_v_get(d, "groups")), 0);
        assert_int_equal(cudnnctl_diff_text(d, 0, 0, &text, &err), 0);
        assert_non_null(strstr(text, "No differences"));
        assert_non_null(strstr(text, "6 facts that differ from run to run left out (--all shows them)"));
        assert_null(strstr(text, "node02"));
        free(text);
        cc_v_free(d);
        /* listed with all, each once, and still no difference */
        d = diff(a, b, 1);
        each_once(d);
        assert_int_equal(sum(d, "differences"), 0);
        assert_int_equal(cc_v_len(cc_v_get(d, "groups")), 1);
        g = cc_v_at(cc_v_get(d, "groups"), 0);
        assert_string_equal(cc_v_get_str(g, "area"), "volatile");
        assert_int_equal(cc_v_len(cc_v_get(g, "changes")), CC_ARRAY_LEN(paths));
        for (i = 0; i < CC_ARRAY_LEN(paths); i++) {
                size_t n = 0;

                for (j = 0; j < cc_v_len(cc_v_get(g, "changes")); j++)
                        n += strcmp(cc_v_get_str(cc_v_at(cc_v_get(g, "changes"), j), "path"), paths[i]) == 0;
                if (n != 1)
                        fail_msg("%s listed %zu times", paths[i], n);
        }
        c = find(d, "volatile", "changed", "/facts/host/name", NULL);
        str_is(cc_v_get(c, "before"), "node01");
        str_is(cc_v_get(c, "after"), "node02");
        assert_int_equal(cudnnctl_diff_text(d, 0, 0, &text, &err), 0);
        assert_non_null(strstr(text, "~ /facts/host/name: node01 \xe2\x86\x92 node02\n"));
        assert_non_null(strstr(text, "; 6 facts that differ from run to run\n"));
        free(text);
        cc_v_free(d);
        cc_v_free(b);
        /* the host name alone; unknown on one side (null) */
        b = base();
        set(b, "facts/host", "name", "null");
        d = diff(a, b, 0);
        each_once(d);
        assert_int_equal(sum(d, "differences"), 0);
        assert_int_equal(sum(d, "volatile"), 1);
        cc_v_free(d);
        d = diff(a, b, 1);
        c = find(d, "volatile", "changed", "/facts/host/name", NULL);
        assert_int_equal(cc_v_type(cc_v_get(c, "after")), CUDNNCTL_NULL);
        cc_v_free(d);
        cc_v_free(b);
        /* "name" elsewhere is no run-to-run fact: a GPU's name is the GPU's */
        b = base();
        set(b, "facts/verify/0/document/probes/driver/facts/devices/0", "name", "\"NVIDIA H200\"");
        d = diff(a, b, 1);
        each_once(d);
        assert_int_equal(sum(d, "volatile"), 0);
        cc_v_free(d);
        cc_v_free(b);
        cc_v_free(a);
}

/* Everything at once: each difference once, the same ones as apart. */
static void test_together(void **state)
{
        cc_value *a = base(), *b = base(), *d;

        (void)state;
        set(b, "facts/host", "name", "\"node02\"");
        set(b, "facts/host", "driver_files", "{\"version\":\"590.44.01\"}");
        set(b, "facts/verify/0/document/probes/driver/facts/nvml", "driver_version", "\"590.44.01\"");
        set(b, "facts/list/installations/0", "full_version", "\"9.20.0.48\"");
        push(b, "facts/list/installations",
             "{\"id\":3,\"prefix\":\"/opt/cudnn-9.8\",\"version\":\"9.8.0\",\"provenance\":{\"kind\":\"tarball\"}}");
        set(b, "facts/frameworks/interpreters/0/frameworks/0/info", "version", "\"2.6.0\"");
        set(b, "", "findings",
            "[{\"id\":\"driver-too-old\",\"severity\":\"error\",\"evidence\":{\"library\":\"libcuda.so.1\"}}]");
        set(b, "facts", "gather_ms", "12");
        d = diff(a, b, 1);
        each_once(d);
        assert_int_equal(sum(d, "differences"), 6);
        assert_int_equal(sum(d, "added"), 2);
        assert_int_equal(sum(d, "removed"), 1);
        assert_int_equal(sum(d, "changed"), 3);
        assert_int_equal(sum(d, "volatile"), 2);
        find(d, "driver", "changed", "driver", "version");
        find(d, "cudnn", "changed", "installation /usr (distro-package)", "version");
        find(d, "cudnn", "added", "installation /opt/cudnn-9.8 (tarball)", NULL);
        find(d, "frameworks", "changed", "torch in /usr/bin/python3", "version");
        find(d, "findings", "removed", "multiple-installations (/usr)", NULL);
        find(d, "findings", "added", "driver-too-old (libcuda.so.1)", NULL);
        find(d, "volatile", "changed", "/facts/host/name", NULL);
        find(d, "volatile", "changed", "/facts/gather_ms", NULL);
        cc_v_free(d);
        cc_v_free(a);
        cc_v_free(b);
}

static void test_check(void **state)
{
        static const struct {
                const char *json;
                int code;
        } cases[] = {
            {"[]", CC_ERR_FORMAT},
            {"{\"schema_version\":2,\"facts\":{}}", CC_ERR_FORMAT},
            {"{\"command\":\"verify\",\"schema_version\":2,\"facts\":{}}", CC_ERR_FORMAT},
            {"{\"command\":\"doctor\",\"facts\":{}}", CC_ERR_FORMAT},
            {"{\"command\":\"doctor\",\"schema_version\":99,\"facts\":{}}", CC_ERR_UNSUPPORTED},
            {"{\"command\":\"doctor\",\"schema_version\":2}", CC_ERR_FORMAT},
            {"{\"command\":\"doctor\",\"schema_version\":1,\"facts\":{}}", 0},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                cc_value *v = parse(cases[i].json);
                cc_error err = {0};
                int rc = cc_diff_check(v, &err);

                if (cases[i].code ? rc != -1 || err.code != cases[i].code : rc != 0)
                        fail_msg("%s: %d (%d: %s)", cases[i].json, rc, err.code, err.msg);
                cc_v_free(v);
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_identical),  cmocka_unit_test(test_driver),   cmocka_unit_test(test_installations),
            cmocka_unit_test(test_frameworks), cmocka_unit_test(test_findings), cmocka_unit_test(test_volatile),
            cmocka_unit_test(test_together),   cmocka_unit_test(test_check),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
