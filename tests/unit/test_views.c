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

/* What the probe children report, read as verify's judges read it: a
 * status with its value, a device, keys that are a status or a string (no
 * problem reported for either), and a CHECK whose evidence is an array. */
static void test_probe_facts(void **state)
{
        cc_value *drv = parse("{\"libcuda\":{\"name\":\"libcuda.so.1\",\"loaded\":true,\"path\":\"/lib/libcuda.so.1\"},"
                              "\"driver_version\":{\"code\":0,\"name\":\"CUDA_SUCCESS\",\"value\":13000},"
                              "\"cuInit\":{\"code\":0,\"name\":\"CUDA_SUCCESS\"},\"device_count\":{\"code\":0},"
                              "\"devices\":[{\"index\":0,\"name\":\"NVIDIA H200\",\"cc_major\":9,\"cc_minor\":0,"
                              "\"memory_bytes\":150109880320},{\"index\":1}],"
                              "\"nvml\":{\"init\":0,\"driver_version\":\"580.95.05\",\"device_count\":2}}");
        cc_value *dnn = parse("{\"version\":91900,\"cudart_version\":13000,\"create\":\"not-exported\","
                              "\"properties\":{\"major\":9,\"minor\":{\"code\":3,\"name\":\"CUDNN_STATUS_BAD_PARAM\"},"
                              "\"patch\":0},\"modules\":\"cannot list: denied\",\"version_checks\":[{\"function\":"
                              "\"cudnnOpsVersionCheck\",\"sublibrary\":\"ops\",\"status\":\"not-loaded\"}]}");
        cc_value *rt = parse("{\"cudart\":{\"name\":\"libcudart.so.13\",\"loaded\":false,\"error\":\"not found\"},"
                             "\"device_count\":\"not exported: cudaGetDeviceCount\"}");
        cc_value *chk = parse("{\"id\":\"version-checks\",\"status\":\"passed\",\"summary\":\"1 of 1\","
                              "\"evidence\":[{\"function\":\"cudnnOpsVersionCheck\"}]}");
        cc_vw_driver_facts df;
        cc_vw_status st;
        cc_vw_device dev;
        cc_vw_nvml nv;
        cc_vw_cudnn_facts cf;
        cc_vw_cudnn_properties pr;
        cc_vw_version_check vc;
        cc_vw_cudart_facts rf;
        cc_vw_loaded_lib lib;
        cc_vw_check c;
        cc_vw_report r = {0};

        (void)state;
        assert_int_equal(cc_vw_driver_facts_read(drv, &df, &r), 0);
        assert_int_equal(cc_vw_status_read(df.driver_version, &st, &r), 0);
        assert_int_equal(st.value, 13000);
        assert_int_equal(cc_vw_device_at(df.devices, 0, &dev, &r), 0);
        assert_string_equal(dev.name, "NVIDIA H200");
        assert_int_equal(dev.cc_major * 10 + dev.cc_minor, 90);
        assert_int_equal(cc_vw_device_at(df.devices, 1, &dev, &r), 0);
        assert_false(CC_VW_HAS(&dev, device, cc_major)); /* not read: absent, not 0 */
        assert_int_equal(cc_vw_nvml_read(df.nvml, &nv, &r), 0);
        assert_string_equal(nv.driver_version, "580.95.05");
        assert_int_equal(cc_vw_cudnn_facts_read(dnn, &cf, &r), 0);
        assert_int_equal(cf.version, 91900);
        assert_int_equal(cc_v_type(cf.create), CUDNNCTL_STRING);
        assert_int_equal(cc_vw_status_read(cf.create, &st, NULL), -1); /* not a status */
        assert_int_equal(cc_v_type(cf.modules), CUDNNCTL_STRING);
        assert_int_equal(cc_vw_cudnn_properties_read(cf.properties, &pr, &r), 0);
        assert_int_equal(cc_v_type(pr.major), CUDNNCTL_INT);
        assert_int_equal(cc_vw_status_read(pr.minor, &st, &r), 0);
        assert_string_equal(st.name, "CUDNN_STATUS_BAD_PARAM");
        assert_int_equal(cc_vw_version_check_at(cf.version_checks, 0, &vc, &r), 0);
        assert_string_equal(vc.status, "not-loaded");
        assert_null(vc.result);
        assert_int_equal(cc_vw_cudart_facts_read(rt, &rf, &r), 0);
        assert_int_equal(cc_vw_loaded_lib_read(rf.cudart, &lib, &r), 0);
        assert_false(lib.loaded);
        assert_string_equal(lib.error, "not found");
        assert_int_equal(cc_v_type(rf.device_count), CUDNNCTL_STRING);
        assert_int_equal(cc_vw_check_read(chk, &c, &r), 0);
        assert_int_equal(cc_v_type(c.evidence), CUDNNCTL_ARRAY);
        assert_int_equal(r.count, 0);
        cc_vw_report_free(&r);
        cc_v_free(drv);
        cc_v_free(dnn);
        cc_v_free(rt);
        cc_v_free(chk);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_read_typed), cmocka_unit_test(test_report),      cmocka_unit_test(test_keys),
            cmocka_unit_test(test_numbers),    cmocka_unit_test(test_probe_facts),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
