/* Typed views over fact documents (src/lib/facts): keys from the schema,
 * values by type, and every missing or mistyped key reported. */
#include "testutil.h"

#include "facts/views.h"
#include "formats/json.h"

#include <stdlib.h>
#include <string.h>

static cc_value *parse(const char *text)
{
        cc_value *v = NULL;
        cc_error err = {0};

        assert_int_equal(cc_json_parse(text, strlen(text), 0, &v, &err), 0);
        return v;
}

static int reported(const cc_vw_report *r, const char *needle)
{
        size_t i;

        for (i = 0; i < r->problems.n; i++)
                if (strstr(r->problems.v[i], needle) != NULL)
                        return 1;
        return 0;
}

static void test_read_typed(void **state)
{
        cc_value *v = parse("{\"id\":3,\"prefix\":\"/usr\",\"majors\":[9],\"provenance\":{\"kind\":\"distro-package\"},"
                            "\"version\":\"9.14.0\",\"files\":[{\"path\":\"/usr/lib/libcudnn.so.9\",\"major\":9}]}");
        cc_vw_installation in;
        cc_vw_file f;
        cc_vw_provenance pv;
        cc_vw_report r = {0};

        (void)state;
        assert_int_equal(cc_vw_installation_read(v, &in, &r), 0);
        assert_int_equal(r.count, 0);
        assert_ptr_equal(in.node_, v);
        assert_int_equal(in.id, 3);
        assert_string_equal(in.prefix, "/usr");
        assert_string_equal(in.version, "9.14.0");
        assert_true(CC_VW_HAS(&in, installation, files));
        assert_false(CC_VW_HAS(&in, installation, full_version));
        assert_null(in.full_version);
        assert_int_equal(cc_v_len(in.majors), 1);
        assert_int_equal(cc_vw_provenance_read(in.provenance, &pv, &r), 0);
        assert_string_equal(pv.kind, "distro-package");
        assert_int_equal(cc_vw_file_at(in.files, 0, &f, &r), 0);
        assert_string_equal(f.path, "/usr/lib/libcudnn.so.9");
        assert_int_equal(f.major, 9);
        assert_int_equal(cc_vw_file_at(in.files, 1, &f, &r), -1); /* no such element */
        assert_null(f.node_);
        assert_int_equal(r.count, 1);
        assert_true(reported(&r, "file: missing"));
        cc_vw_report_free(&r);
        cc_v_free(v);
}

static void test_report(void **state)
{
        /* a foreign document: a required key missing, others of the wrong type, null where null is not a value */
        cc_value *v = parse("{\"id\":\"3\",\"majors\":null,\"provenance\":7,\"version\":null,\"files\":{}}");
        cc_vw_installation in;
        cc_vw_report r = {0};

        (void)state;
        assert_int_equal(cc_vw_installation_read(v, &in, &r), 0);
        assert_true(reported(&r, "installation: id is a string, not an int"));
        assert_true(reported(&r, "installation: prefix is missing"));
        assert_true(reported(&r, "installation: majors is null, not an array"));
        assert_true(reported(&r, "installation: provenance is an int, not an object"));
        assert_true(reported(&r, "installation: files is an object, not an array"));
        assert_false(reported(&r, "version")); /* null is one of its values */
        assert_int_equal(r.count, 5);
        /* what was wrong reads as absent */
        assert_int_equal(in.id, 0);
        assert_false(CC_VW_HAS(&in, installation, id));
        assert_null(in.prefix);
        assert_null(in.provenance);
        assert_null(in.files);
        cc_vw_report_free(&r);
        cc_v_free(v);

        /* not an object at all */
        v = parse("[1,2]");
        assert_int_equal(cc_vw_finding_read(v, &(cc_vw_finding){0}, &r), -1);
        assert_true(reported(&r, "finding: is an array, not an object"));
        cc_vw_report_free(&r);
        cc_v_free(v);
        /* a report of NULL is allowed; the cap keeps lines but counts all */
        v = parse("{}");
        assert_int_equal(cc_vw_finding_read(v, &(cc_vw_finding){0}, NULL), 0);
        r.max = 2;
        assert_int_equal(cc_vw_finding_read(v, &(cc_vw_finding){0}, &r), 0);
        assert_int_equal(r.problems.n, 2);
        assert_int_equal(r.count, 5); /* id, severity, area, summary, evidence */
        cc_vw_report_free(&r);
        cc_v_free(v);
}

static void test_keys(void **state)
{
        size_t i, k, j;

        (void)state;
        /* CC_K is the schema's key, and every key of a view is distinct */
        assert_string_equal(CC_K(installation, prefix), "prefix");
        assert_string_equal(CC_K(probe, timed_out), "timed_out");
        assert_string_equal(CC_K(edge, node), "node");
        assert_true(cc_vw_nviews >= 20);
        for (i = 0; i < cc_vw_nviews; i++) {
                assert_true(cc_vw_views[i].nfields > 0 && cc_vw_views[i].nfields <= 64);
                for (k = 0; k < cc_vw_views[i].nfields; k++)
                        for (j = k + 1; j < cc_vw_views[i].nfields; j++)
                                assert_true(strcmp(cc_vw_views[i].fields[k].key, cc_vw_views[i].fields[j].key) != 0);
        }
}

static void test_numbers(void **state)
{
        cc_value *v = parse("{\"ran\":true,\"exit\":null,\"wall_ms\":12,\"signal\":9}");
        cc_value *p = parse("{\"index\":1,\"entry\":\"\",\"kind\":\"empty\",\"world_writable\":null,\"mode\":1.5}");
        cc_vw_probe pr;
        cc_vw_path_entry pe;
        cc_vw_report r = {0};

        (void)state;
        assert_int_equal(cc_vw_probe_read(v, &pr, &r), 0);
        assert_int_equal(r.count, 0);
        assert_true(pr.ran);
        assert_false(CC_VW_HAS(&pr, probe, exit));
        assert_int_equal(pr.wall_ms, 12);
        assert_int_equal(pr.signal, 9);
        assert_int_equal(cc_vw_path_entry_read(p, &pe, &r), 0);
        assert_true(reported(&r, "path_entry: mode is a number, not an int"));
        assert_int_equal(r.count, 1);
        assert_string_equal(pe.entry, "");
        cc_vw_report_free(&r);
        cc_v_free(v);
        cc_v_free(p);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_read_typed),
            cmocka_unit_test(test_report),
            cmocka_unit_test(test_keys),
            cmocka_unit_test(test_numbers),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
