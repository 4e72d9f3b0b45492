/* Typed views over fact documents (src/lib/facts): keys from the schema,
 * values by type, and every missing or mistyped key reported. */
#include "testutil.h"

#include "facts/views.h"
#include "formats/json.h"
#include "frameworks/frameworks.h"
#include "inspect/inspect.h"

#include <stdio.h>
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

/* What explain writes is what its views read: every key of the schema where
 * the schema says (no report), and the values the text shows. */
static void test_explain_views(void **state)
{
        static const char *const inputs[] = {
            "1001", "126", "cudaErrorInsufficientDriver",
            "PyTorch was compiled against (8, 9, 2) but found runtime version (8, 5, 0)"};
        cudnnctl_value *doc = NULL;
        cc_error err = {0};
        cc_vw_explain_doc d;
        cc_vw_explain_match m;
        cc_vw_explain_code c;
        cc_vw_explain_rule rule;
        cc_vw_explain_command cmd;
        cc_vw_report r = {0};
        size_t i, j, k;

        (void)state;
        for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
                assert_int_equal(cudnnctl_explain(inputs[i], NULL, &doc, &err), 0);
                assert_int_equal(cc_vw_explain_doc_read(doc, &d, &r), 0);
                assert_true(cc_v_len(d.matches) > 0);
                for (j = 0; j < cc_v_len(d.matches); j++) {
                        assert_int_equal(cc_vw_explain_match_at(d.matches, j, &m, &r), 0);
                        for (k = 0; k < cc_v_len(m.codes); k++)
                                assert_int_equal(cc_vw_explain_code_at(m.codes, k, &c, &r), 0);
                        for (k = 0; k < cc_v_len(m.commands); k++)
                                assert_int_equal(cc_vw_explain_command_at(m.commands, k, &cmd, &r), 0);
                        if (m.rule != NULL)
                                assert_int_equal(cc_vw_explain_rule_read(m.rule, &rule, &r), 0);
                }
                if (i == 0) { /* a status: its code and numbering */
                        cc_vw_explain_match_at(d.matches, 0, &m, NULL);
                        assert_string_equal(m.kind, "cudnn-status");
                        assert_string_equal(m.name, "CUDNN_STATUS_NOT_INITIALIZED");
                        assert_int_equal(m.code, 1001);
                        assert_true(CC_VW_HAS(&m, explain_match, major));
                        assert_null(m.recogniser); /* null: present, not a string */
                        assert_false(CC_VW_HAS(&m, explain_match, recogniser));
                        assert_true(cc_v_len(m.codes) > 0);
                }
                if (i == 3) { /* the version rule, which fails */
                        cc_vw_explain_match_at(d.matches, 0, &m, NULL);
                        assert_int_equal(cc_vw_explain_rule_read(m.rule, &rule, NULL), 0);
                        assert_string_equal(rule.build, "8.9.2");
                        assert_string_equal(rule.runtime, "8.5.0");
                        assert_true(CC_VW_HAS(&rule, explain_rule, holds));
                        assert_false(rule.holds);
                        assert_string_equal(m.id, "runtime-older-than-build");
                }
                cc_v_free(doc);
                doc = NULL;
        }
        if (r.count != 0)
                fail_msg("%s", r.problems.v[0]);
        cc_vw_report_free(&r);
}

/* The parts of the doctor and verify documents their texts read, and a probe
 * protocol line: null is a value of `v` (present), a missing `v` is not. */
static void test_doctor_verify_probe_views(void **state)
{
        cc_value *f = parse("{\"id\":\"x\",\"severity\":\"info\",\"area\":\"cudnn\",\"summary\":\"s\",\"fix\":null,"
                            "\"evidence\":{\"instances\":[{\"entry\":\"/a\",\"summary\":\"one\"},{\"entry\":\"/b\"}]},"
                            "\"catalog\":{\"number\":null,\"title\":\"T\",\"source\":\"FM x\"}}");
        cc_value *sum = parse("{\"verdict\":\"healthy\",\"errors\":0,\"warnings\":1,\"infos\":2}");
        cc_value *gw =
            parse("{\"operations\":[{\"op\":\"softmax\",\"family\":\"ops\",\"api\":\"legacy\",\"shape\":\"s\","
                  "\"status\":\"passed\",\"max_rel_error\":1e-7,\"tolerance\":1e-5,\"elements\":8,"
                  "\"time_us\":3}],\"seed\":null}");
        cc_value *fact = parse("{\"t\":\"fact\",\"k\":\"version\",\"v\":null}");
        cc_value *end = parse("{\"t\":\"end\",\"step\":\"cudnnCreate\"}");
        cc_vw_finding fv;
        cc_vw_finding_evidence ev;
        cc_vw_finding_instance in;
        cc_vw_finding_catalog cat;
        cc_vw_doctor_summary ds;
        cc_vw_gpu_work_evidence g;
        cc_vw_gpu_op op;
        cc_vw_probe_line pl;
        cc_vw_report r = {0};

        (void)state;
        assert_int_equal(cc_vw_finding_read(f, &fv, &r), 0);
        assert_int_equal(cc_vw_finding_evidence_read(fv.evidence, &ev, &r), 0);
        assert_int_equal(cc_vw_finding_instance_at(ev.instances, 0, &in, &r), 0);
        assert_string_equal(in.summary, "one");
        assert_int_equal(cc_vw_finding_instance_at(ev.instances, 1, &in, &r), 0);
        assert_null(in.summary); /* the text shows its values instead */
        assert_int_equal(cc_vw_finding_catalog_read(fv.catalog, &cat, &r), 0);
        assert_null(cat.number);
        assert_string_equal(cat.source, "FM x");
        assert_int_equal(cc_vw_doctor_summary_read(sum, &ds, &r), 0);
        assert_int_equal(ds.warnings + ds.infos, 3);
        assert_false(CC_VW_HAS(&ds, doctor_summary, wall_ms)); /* a recheck's: no time */
        assert_int_equal(cc_vw_gpu_work_evidence_read(gw, &g, &r), 0);
        assert_int_equal(cc_vw_gpu_op_at(g.operations, 0, &op, &r), 0);
        assert_true(CC_VW_HAS(&op, gpu_op, max_rel_error));
        assert_true(op.max_rel_error > 0 && op.max_rel_error < op.tolerance);
        assert_int_equal(cc_vw_probe_line_read(fact, &pl, &r), 0);
        assert_string_equal(pl.k, "version");
        assert_true(CC_VW_HAS(&pl, probe_line, v));
        assert_int_equal(cc_v_type(pl.v), CUDNNCTL_NULL);
        assert_int_equal(cc_vw_probe_line_read(end, &pl, &r), 0);
        assert_false(CC_VW_HAS(&pl, probe_line, v));
        assert_string_equal(pl.step, "cudnnCreate");
        assert_int_equal(r.count, 0);
        /* a summary without its counts is reported */
        assert_int_equal(cc_vw_doctor_summary_read(end, &ds, &r), 0);
        assert_int_equal(r.count, 4);
        assert_true(reported(&r, "doctor_summary: errors is missing"));
        cc_vw_report_free(&r);
        cc_v_free(f);
        cc_v_free(sum);
        cc_v_free(gw);
        cc_v_free(fact);
        cc_v_free(end);
}

/* ---- group D: inspect and compat ---------------------------------------- */

struct ins_seen {
        int elf, pe, header, dist, implib, archive, directory, members;
};

/* Every view of an inspect FACTS tree, recursively (directory files, archive
 * member facts): what the producer writes must read without a problem. */
static void read_ins_facts(const cc_value *v, cc_vw_report *r, struct ins_seen *seen)
{
        cc_vw_ins_facts f;
        cc_vw_version ver;
        size_t i;

        assert_int_equal(cc_vw_ins_facts_read(v, &f, r), 0);
        for (i = 0; i < cc_v_len(f.versions); i++)
                assert_int_equal(cc_vw_version_at(f.versions, i, &ver, r), 0);
        if (f.file_name != NULL) {
                cc_vw_ins_file_name fn;

                assert_int_equal(cc_vw_ins_file_name_read(f.file_name, &fn, r), 0);
        }
        if (f.archive_name != NULL) {
                cc_vw_ins_archive_name an;

                assert_int_equal(cc_vw_ins_archive_name_read(f.archive_name, &an, r), 0);
        }
        if (f.elf != NULL) {
                cc_vw_ins_elf e;

                assert_int_equal(cc_vw_ins_elf_read(f.elf, &e, r), 0);
                assert_true(e.class == 32 || e.class == 64);
                seen->elf++;
        }
        if (f.cudnn != NULL) {
                cc_vw_ins_cudnn c;

                assert_int_equal(cc_vw_ins_cudnn_read(f.cudnn, &c, r), 0);
        }
        if (f.pe != NULL) {
                cc_vw_ins_pe p;
                cc_vw_ins_pe_version vi;
                cc_vw_ins_pe_string s;

                assert_int_equal(cc_vw_ins_pe_read(f.pe, &p, r), 0);
                if (p.version_info != NULL) {
                        assert_int_equal(cc_vw_ins_pe_version_read(p.version_info, &vi, r), 0);
                        for (i = 0; i < cc_v_len(vi.strings); i++)
                                assert_int_equal(cc_vw_ins_pe_string_at(vi.strings, i, &s, r), 0);
                }
                seen->pe++;
        }
        if (f.header != NULL) {
                cc_vw_ins_header h;
                cc_vw_ins_macro m;

                assert_int_equal(cc_vw_ins_header_read(f.header, &h, r), 0);
                for (i = 0; i < cc_v_len(h.macros); i++)
                        assert_int_equal(cc_vw_ins_macro_at(h.macros, i, &m, r), 0);
                seen->header++;
        }
        if (f.distribution != NULL) {
                cc_vw_ins_dist d;

                assert_int_equal(cc_vw_ins_dist_read(f.distribution, &d, r), 0);
                seen->dist++;
        }
        if (f.implib != NULL || f.ar != NULL) {
                cc_vw_ins_implib il;

                assert_int_equal(cc_vw_ins_implib_read(f.implib ? f.implib : f.ar, &il, r), 0);
                seen->implib++;
        }
        if (f.archive != NULL) {
                cc_vw_ins_archive a;
                cc_vw_ins_archive_name an;
                cc_vw_ins_unsafe u;
                cc_vw_ins_member m;

                assert_int_equal(cc_vw_ins_archive_read(f.archive, &a, r), 0);
                if (a.name != NULL)
                        assert_int_equal(cc_vw_ins_archive_name_read(a.name, &an, r), 0);
                for (i = 0; i < cc_v_len(a.unsafe_paths); i++)
                        assert_int_equal(cc_vw_ins_unsafe_at(a.unsafe_paths, i, &u, r), 0);
                for (i = 0; i < cc_v_len(a.members); i++) {
                        assert_int_equal(cc_vw_ins_member_at(a.members, i, &m, r), 0);
                        if (m.facts != NULL) {
                                read_ins_facts(m.facts, r, seen);
                                seen->members++;
                        }
                }
                seen->archive++;
        }
        if (f.directory != NULL) {
                cc_vw_ins_directory d;
                cc_vw_ins_dir_counts c;
                cc_vw_ins_skipped s;

                assert_int_equal(cc_vw_ins_directory_read(f.directory, &d, r), 0);
                assert_int_equal(cc_vw_ins_dir_counts_read(d.counts, &c, r), 0);
                for (i = 0; i < cc_v_len(d.versions); i++)
                        assert_int_equal(cc_vw_version_at(d.versions, i, &ver, r), 0);
                for (i = 0; i < cc_v_len(d.skipped); i++)
                        assert_int_equal(cc_vw_ins_skipped_at(d.skipped, i, &s, r), 0);
                for (i = 0; i < cc_v_len(d.files); i++)
                        read_ins_facts(cc_v_at(d.files, i), r, seen);
                seen->directory++;
        }
}

static void test_inspect_views(void **state)
{
        static const char *const paths[] = {
            "elf",
            "pe",
            "headers",
            "distinfo",
            "trees",
            "archives/cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip",
            "archives/nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl",
            "archives/cudnn-11.4-linux-x64-v8.2.2.26.tgz",
            "archives/cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz",
            "archives/flat.tar.gz",
            "archives/empty.zip",
        };
        struct ins_seen seen = {0};
        cc_vw_report r = {0};
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(paths); i++) {
                cudnnctl_inspect_options o = {0};
                cc_value *v = NULL;
                cc_error err = {0};
                char *p = tu_fixture(paths[i]);

                assert_int_equal(cudnnctl_inspect(p, &o, &v, &err), 0);
                read_ins_facts(v, &r, &seen);
                cc_v_free(v);
                free(p);
        }
        for (i = 0; i < r.problems.n; i++)
                print_error("%s\n", r.problems.v[i]);
        assert_int_equal(r.count, 0);
        assert_true(seen.elf > 0 && seen.pe > 0 && seen.header > 0 && seen.dist > 0 && seen.implib > 0 &&
                    seen.directory > 0);
#if CC_HAVE_LIBARCHIVE
        assert_true(seen.archive >= 2 && seen.members > 0);
#endif
        cc_vw_report_free(&r);
}

/* The inspect text from the views, on facts of the wrong shapes: the text
 * says "?" for what is missing, and reading never fails. */
static void test_inspect_text_views(void **state)
{
        cc_value *v =
            parse("{\"kind\":\"archive\",\"archive\":{\"unsafe_paths\":[\"a/../b\",{\"path\":\"c\","
                  "\"reason\":\"r\"},3],\"members\":[{\"path\":\"m\",\"install_to\":\"lib\"},{\"path\":\"n\"}]},"
                  "\"versions\":[{\"version\":\"9.1.0\",\"member\":\"m\"},7]}");
        cc_value *h = parse("{\"path\":\"cudnn.h\",\"kind\":\"header\",\"header\":{\"includes\":[\"x.h\"],\"macros\":"
                            "[{\"name\":\"CUDNN_MAJOR\",\"definition\":\"9\",\"value\":9},{\"name\":\"CUDNN_MINOR\","
                            "\"definition\":\"(1+1)\",\"value\":null,\"error\":\"bad\"}]},\"warnings\":[\"w\"]}");
        cc_error err = {0};
        char *out = NULL;

        (void)state;
        assert_int_equal(cudnnctl_inspect_text(v, 0, &out, &err), 0);
        assert_string_equal(out, "? [archive]\n"
                                 "  format     ? archive, 0 entries, layout ?, for ?\n"
                                 "  UNSAFE     a/../b\n"
                                 "             c (r)\n"
                                 "             ?\n"
                                 "  installs   m -> lib/\n"
                                 "  versions   9.1.0 ? ? in m\n"
                                 "             unknown ? ?\n");
        free(out);
        assert_int_equal(cudnnctl_inspect_text(h, 0, &out, &err), 0);
        assert_string_equal(out, "cudnn.h [header]\n"
                                 "  format     C header\n"
                                 "  includes   x.h\n"
                                 "  macros     CUDNN_MAJOR = 9\n"
                                 "             CUDNN_MINOR = unknown  ((1+1)) -- bad\n"
                                 "  warning    w\n");
        free(out);
        cc_v_free(v);
        cc_v_free(h);
}

static void test_compat_views(void **state)
{
        cudnnctl_compat_options o = {0};
        cc_value *doc = NULL;
        cc_value *hand = parse("{\"answers\":[{\"question\":\"Q?\",\"verdict\":\"no\",\"reason\":\"R\",\"source\":null,"
                               "\"releases\":[{\"cudnn\":\"8.2.2\",\"cudnn_last\":\"8.2.4\",\"cuda_build\":\"11.4\","
                               "\"match\":\"exact\"}]}],\"summary\":{\"yes\":0,\"no\":1,\"unknown\":0}}");
        cc_vw_compat_doc d;
        cc_vw_compat_summary s;
        cc_vw_compat_answer a;
        cc_vw_compat_release rel;
        cc_vw_report r = {0};
        cc_error err = {0};
        size_t i, j, rows = 0;
        char *out = NULL;

        (void)state;
        o.cuda = "11.4";
        o.cudnn = "8.2.2";
        assert_int_equal(cudnnctl_compat(&o, &doc, &err), 0);
        assert_int_equal(cc_vw_compat_doc_read(doc, &d, &r), 0);
        assert_int_equal(cc_vw_compat_summary_read(d.summary, &s, &r), 0);
        assert_int_equal(s.yes + s.no + s.unknown, (int64_t)cc_v_len(d.answers));
        for (i = 0; i < cc_v_len(d.answers); i++) {
                assert_int_equal(cc_vw_compat_answer_at(d.answers, i, &a, &r), 0);
                for (j = 0; j < cc_v_len(a.releases); j++, rows++)
                        assert_int_equal(cc_vw_compat_release_at(a.releases, j, &rel, &r), 0);
        }
        cc_v_free(doc);
        o.cudnn = NULL; /* cudnn-for-cuda: release rows */
        assert_int_equal(cudnnctl_compat(&o, &doc, &err), 0);
        assert_int_equal(cc_vw_compat_doc_read(doc, &d, &r), 0);
        for (i = 0; i < cc_v_len(d.answers); i++) {
                assert_int_equal(cc_vw_compat_answer_at(d.answers, i, &a, &r), 0);
                for (j = 0; j < cc_v_len(a.releases); j++, rows++)
                        assert_int_equal(cc_vw_compat_release_at(a.releases, j, &rel, &r), 0);
        }
        for (i = 0; i < r.problems.n; i++)
                print_error("%s\n", r.problems.v[i]);
        assert_int_equal(r.count, 0);
        assert_true(rows > 0);
        cc_v_free(doc);

        assert_int_equal(cudnnctl_compat_text(hand, 1, 0, &out, &err), 0);
        assert_string_equal(out, "NO      Q?\n"
                                 "        reason  R\n"
                                 "        source  -\n"
                                 "          8.2.2      to 8.2.4  CUDA 11.4 build (exact)\n"
                                 "\n0 yes, 1 no, 0 unknown\n");
        free(out);
        cc_v_free(hand);
        cc_vw_report_free(&r);
}

/* ---- list, which and deps (group E) ---------------------------------------------------- */

struct lwd_seen {
        size_t roots, skipped, installations, packages, builds, toolkits, toolkit_sources, bundled, archives,
            installers, disagreements, files, links, versions;
};

static cc_machine *open_tree(const char *tree, int system, const char *const *set, size_t nset)
{
        char rel[128];
        char *root;
        cudnnctl_machine_options mo = {0};
        cudnnctl_machine *m = NULL;
        cudnnctl_error err = {0};

        snprintf(rel, sizeof(rel), "trees/%s", tree);
        root = tu_fixture(rel);
        mo.root = root;
        mo.system = system;
        mo.set = set;
        mo.nset = nset;
        if (cudnnctl_machine_open(&mo, &m, &err) < 0)
                fail_msg("machine_open %s: %s", root, err.msg);
        free(root);
        return m;
}

/* Every object of a list document, read through its view. */
static void read_list_doc(const cc_value *doc, cc_vw_report *r, struct lwd_seen *s)
{
        cc_vw_list_doc ld;
        cc_vw_list_stats st;
        size_t i, j, k;

        assert_int_equal(cc_vw_list_doc_read(doc, &ld, r), 0);
        assert_int_equal(cc_vw_list_stats_read(ld.stats, &st, r), 0);
        assert_int_equal(st.installations, (int64_t)cc_v_len(ld.installations));
        for (i = 0; i < cc_v_len(ld.roots); i++, s->roots++) {
                cc_vw_root ro;

                assert_int_equal(cc_vw_root_at(ld.roots, i, &ro, r), 0);
        }
        for (i = 0; i < cc_v_len(ld.skipped); i++, s->skipped++) {
                cc_vw_skipped sk;

                assert_int_equal(cc_vw_skipped_at(ld.skipped, i, &sk, r), 0);
        }
        for (i = 0; i < cc_v_len(ld.installations); i++, s->installations++) {
                cc_vw_installation in;
                cc_vw_provenance p;
                cc_vw_inst_counts c;

                assert_int_equal(cc_vw_installation_at(ld.installations, i, &in, r), 0);
                assert_int_equal(cc_vw_provenance_read(in.provenance, &p, r), 0);
                assert_int_equal(cc_vw_inst_counts_read(in.counts, &c, r), 0);
                assert_int_equal(c.dist_info, (int64_t)cc_v_len(p.packages));
                for (j = 0; j < cc_v_len(p.packages); j++, s->packages++) {
                        cc_vw_package pk;

                        assert_int_equal(cc_vw_package_at(p.packages, j, &pk, r), 0);
                        s->builds += pk.build != NULL;
                }
                if (p.toolkit != NULL) {
                        cc_vw_prov_toolkit tk;

                        assert_int_equal(cc_vw_prov_toolkit_read(p.toolkit, &tk, r), 0);
                        for (j = 0; j < cc_v_len(tk.sources); j++, s->toolkit_sources++) {
                                cc_vw_toolkit_source ts;

                                assert_int_equal(cc_vw_toolkit_source_at(tk.sources, j, &ts, r), 0);
                        }
                        s->toolkits++;
                }
                if (p.bundled_in != NULL) {
                        cc_vw_bundled_in b;

                        assert_int_equal(cc_vw_bundled_in_read(p.bundled_in, &b, r), 0);
                        s->bundled++;
                }
                if (p.archive != NULL) {
                        cc_vw_prov_archive a;

                        assert_int_equal(cc_vw_prov_archive_read(p.archive, &a, r), 0);
                        s->archives++;
                }
                if (p.installer != NULL) {
                        cc_vw_prov_installer is;

                        assert_int_equal(cc_vw_prov_installer_read(p.installer, &is, r), 0);
                        s->installers++;
                }
                for (j = 0; j < cc_v_len(in.disagreements); j++, s->disagreements++) {
                        cc_vw_disagreement g;

                        assert_int_equal(cc_vw_disagreement_at(in.disagreements, j, &g, r), 0);
                }
                for (j = 0; j < cc_v_len(in.versions); j++, s->versions++) {
                        cc_vw_version v;

                        assert_int_equal(cc_vw_version_at(in.versions, j, &v, r), 0);
                }
                for (j = 0; j < cc_v_len(in.files); j++, s->files++) {
                        cc_vw_file f;

                        assert_int_equal(cc_vw_file_at(in.files, j, &f, r), 0);
                        for (k = 0; k < cc_v_len(f.chain); k++, s->links++) {
                                cc_vw_chain_link l;

                                assert_int_equal(cc_vw_chain_link_at(f.chain, k, &l, r), 0);
                        }
                }
        }
}

/* The views of group E hold what list writes: every required key there with
 * its type, on trees of every provenance. */
static void test_list_views(void **state)
{
        static const char *const tk[] = {"CUDNN_PATH=/usr/local/cuda-12.4"};
        static const char *const pip[] = {"VIRTUAL_ENV=/home/u/venv", "PATH=/home/u/venv2/bin:/opt/py/bin:/usr/bin"};
        static const char *const conda[] = {"CONDA_PREFIX=/home/u/miniconda3/envs/dl", "HOME=/home/u"};
        static const char *const mism[] = {"LD_LIBRARY_PATH=/srv/dnn/lib:/srv/mixed/lib"};
        static const char *const links[] = {"LD_LIBRARY_PATH=/opt/links/lib"};
        static const char *const win[] = {"PATH=c:\\program files\\nvidia\\cudnn\\v9.1\\bin", "SystemRoot=C:\\Windows"};
        static const struct {
                const char *tree;
                int system;
                const char *const *set;
                size_t nset;
        } trees[] = {
            {"toolkit", CUDNNCTL_SYSTEM_LINUX, tk, 1},   {"distro", CUDNNCTL_SYSTEM_LINUX, NULL, 0},
            {"pip", CUDNNCTL_SYSTEM_LINUX, pip, 2},      {"conda", CUDNNCTL_SYSTEM_LINUX, conda, 2},
            {"archive", CUDNNCTL_SYSTEM_LINUX, NULL, 0}, {"mismatch", CUDNNCTL_SYSTEM_LINUX, mism, 1},
            {"links", CUDNNCTL_SYSTEM_LINUX, links, 1},  {"windows", CUDNNCTL_SYSTEM_WINDOWS, win, 2},
        };
        struct lwd_seen s = {0};
        cc_vw_report r = {0};
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(trees); i++) {
                cc_machine *m = open_tree(trees[i].tree, trees[i].system, trees[i].set, trees[i].nset);
                cudnnctl_value *doc = NULL;
                cudnnctl_error err = {0};

                if (cudnnctl_list(m, NULL, &doc, &err) < 0)
                        fail_msg("list %s: %s", trees[i].tree, err.msg);
                read_list_doc(doc, &r, &s);
                cudnnctl_value_free(doc);
                cudnnctl_machine_free(m);
        }
        for (i = 0; i < r.problems.n; i++)
                print_error("%s\n", r.problems.v[i]);
        assert_int_equal(r.count, 0);
        assert_true(s.roots > 0 && s.installations > 0 && s.files > 0 && s.versions > 0);
        assert_true(s.packages > 0 && s.builds > 0);          /* conda's build */
        assert_true(s.toolkits > 0 && s.toolkit_sources > 0); /* cuda-toolkit */
        assert_true(s.bundled > 0 && s.archives > 0 && s.installers > 0);
        assert_true(s.disagreements > 0 && s.links > 0);
        cc_vw_report_free(&r);
}

/* Every object of which and deps documents, read through its view. */
static void test_which_deps_views(void **state)
{
        static const char *const set[] = {"LD_LIBRARY_PATH=/usr/local/cuda/lib64"};
        static const char *const names[] = {"cudnn", "libcudnn_graph.so.9", "libnothere.so.1"};
        cc_machine *m = open_tree("toolkit", CUDNNCTL_SYSTEM_LINUX, set, 1);
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        cc_vw_report r = {0};
        cc_vw_which_doc wd;
        cc_vw_deps_doc dd;
        cc_vw_deps_summary sum;
        cc_vw_deps_cudnn cd;
        cc_vw_loader ld;
        cc_vw_ld_so_cache cache;
        size_t i, j, steps = 0, edges = 0, found = 0;

        (void)state;
        if (cudnnctl_which(m, names, CC_ARRAY_LEN(names), NULL, &doc, &err) < 0)
                fail_msg("which: %s", err.msg);
        assert_int_equal(cc_vw_which_doc_read(doc, &wd, &r), 0);
        assert_int_equal(cc_vw_loader_read(wd.loader, &ld, &r), 0);
        assert_non_null(ld.interpreter);
        assert_int_equal(cc_vw_ld_so_cache_read(ld.ld_so_cache, &cache, &r), 0);
        for (i = 0; i < cc_v_len(wd.results); i++) {
                cc_vw_resolution res;
                cc_vw_step st;
                cc_vw_elsewhere el;

                assert_int_equal(cc_vw_resolution_at(wd.results, i, &res, &r), 0);
                found += res.found;
                for (j = 0; j < cc_v_len(res.tried); j++, steps++)
                        assert_int_equal(cc_vw_step_at(res.tried, j, &st, &r), 0);
                for (j = 0; j < cc_v_len(res.shadowed); j++)
                        assert_int_equal(cc_vw_step_at(res.shadowed, j, &st, &r), 0);
                for (j = 0; j < cc_v_len(res.elsewhere); j++)
                        assert_int_equal(cc_vw_elsewhere_at(res.elsewhere, j, &el, &r), 0);
        }
        assert_true(found > 0 && steps > 0);
        cudnnctl_value_free(doc);
        doc = NULL;

        if (cudnnctl_deps(m, "/usr/local/cuda-12.4/lib64/libcudnn.so.9", NULL, &doc, &err) < 0)
                fail_msg("deps: %s", err.msg);
        assert_int_equal(cc_vw_deps_doc_read(doc, &dd, &r), 0);
        assert_int_equal(cc_vw_loader_read(dd.loader, &ld, &r), 0);
        assert_int_equal(cc_vw_deps_summary_read(dd.summary, &sum, &r), 0);
        assert_int_equal(cc_vw_deps_cudnn_read(sum.cudnn, &cd, &r), 0);
        assert_int_equal(sum.objects, (int64_t)cc_v_len(dd.nodes));
        for (i = 0; i < cc_v_len(dd.nodes); i++) {
                cc_vw_node n;
                cc_vw_edge e;

                assert_int_equal(cc_vw_node_at(dd.nodes, i, &n, &r), 0);
                assert_int_equal(n.id, (int64_t)i);
                for (j = 0; j < cc_v_len(n.edges); j++, edges++)
                        assert_int_equal(cc_vw_edge_at(n.edges, j, &e, &r), 0);
        }
        assert_true(cc_v_len(dd.nodes) > 0 && edges > 0);
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
        for (i = 0; i < r.problems.n; i++)
                print_error("%s\n", r.problems.v[i]);
        assert_int_equal(r.count, 0);
        cc_vw_report_free(&r);
}

/* The list, which and deps texts from the views, on documents written by
 * hand: each value lands where the text puts it, and a value of the wrong
 * type reads as absent. */
static void test_list_which_deps_text(void **state)
{
        cc_value *list = parse(
            "{\"roots\":[{\"path\":\"/opt/"
            "x\",\"sources\":[\"CUDNN_PATH\"],\"state\":\"unreadable\",\"reason\":\"denied\"},"
            "{\"path\":\"/srv\",\"sources\":[\"PATH entry 2\"],\"state\":\"searched\",\"alias_of\":\"/opt/x\"}],"
            "\"installations\":[{\"id\":2,\"prefix\":\"/c\",\"aliases\":[\"/d\"],\"majors\":[8,9],"
            "\"provenance\":{\"kind\":\"conda-package\",\"packages\":[{\"manager\":\"conda\",\"name\":\"cudnn\","
            "\"version\":\"9.1.0\",\"build\":\"h1\"},{\"manager\":\"conda\",\"name\":\"x\",\"version\":null}],"
            "\"evidence\":[\"e1\"]},\"version\":null,\"disagreements\":[{\"version\":\"9.1.0\",\"sources\":[\"header\","
            "\"file-name\"],\"files\":[\"/c/include/cudnn.h\",\"/c/lib/x\"]},{\"version\":\"8.9.7\",\"sources\":"
            "[\"dist-info\"],\"files\":[]}],\"counts\":{\"libraries\":1,\"headers\":2,\"symlinks\":true},"
            "\"problems\":[{\"kind\":\"mixed-versions\",\"summary\":\"two\"}],\"notes\":[\"n1\"],"
            "\"directories\":[{\"path\":\"/c/lib\",\"aliases\":[\"/d/lib\"]}],"
            "\"files\":[{\"path\":\"/c/lib/libcudnn.so\",\"chain\":[{\"path\":\"/c/lib/libcudnn.so\",\"target\":"
            "\"libcudnn.so.9\"}],\"link_state\":\"dangling\",\"versions\":[{\"source\":\"file-name\",\"version\":"
            "\"9\"}],\"error\":\"gone\"}]}],"
            "\"skipped\":[{\"path\":\"/p\",\"reason\":\"r\"}],\"stats\":{\"directories\":7,\"truncated\":true,"
            "\"max_dirs\":5},\"notes\":[\"a note\"]}");
        cc_value *which = parse(
            "{\"results\":[{\"name\":\"cudnn64_9.dll\",\"found\":false,\"windows_error\":193,\"tried\":[{\"path\":"
            "\"C:\\\\a\\\\cudnn64_9.dll\",\"outcome\":\"failed\",\"detail\":\"not a PE file\",\"origin\":\"PATH entry "
            "1\"}],"
            "\"elsewhere\":[{\"path\":\"D:\\\\x\\\\cudnn64_9.dll\",\"installation\":3,\"versions\":[],"
            "\"installation_version\":\"9.1.0\"}]},{\"name\":\"cudnn64_8.dll\",\"found\":false,\"windows_error\":"
            "\"193\",\"tried\":[]}],\"loader\":{\"notes\":[\"ln\"]}}");
        cc_value *deps = parse(
            "{\"nodes\":[{\"id\":0,\"path\":\"/a/prog\",\"edges\":[{\"name\":\"libx.so.1\",\"kind\":\"needed\","
            "\"status\":\"loaded\",\"node\":1,\"path\":\"/l/libx.so.1\",\"how\":\"runpath\"},{\"name\":\"libz.so.1\","
            "\"kind\":\"needed\",\"status\":\"already-loaded\",\"node\":1}]},{\"id\":1,\"path\":\"/l/libx.so.1\","
            "\"edges\":[{\"name\":\"libcudnn_ops.so.9\",\"kind\":\"runtime\",\"status\":\"missing\"},{\"name\":"
            "\"y.dll\",\"resolved_name\":\"Y.DLL\",\"kind\":\"delay-import\",\"status\":\"fails\",\"windows_error\":"
            "126}]}],\"summary\":{\"objects\":2,\"missing\":1,\"runtime_missing\":1,\"cudnn\":{\"directories\":[\"/l\","
            "\"/m\"],\"versions\":[\"9.1.0\",\"9.2.0\"],\"mixed\":true}},\"notes\":[\"dn\"]}");
        cc_error err = {0};
        char *out = NULL;

        (void)state;
        assert_int_equal(cudnnctl_list_text(list, 1, 0, &out, &err), 0);
        assert_string_equal(out,
                            "1 cuDNN installation (searched 2 roots, 7 directories)\n"
                            "\n"
                            "[2] /c\n"
                            "    also as     /d\n"
                            "    provenance  conda-package: cudnn 9.1.0 (h1) [conda], x (version unknown) [conda]\n"
                            "    version     unknown: the sources disagree\n"
                            "                9.1.0     header, file-name: include/cudnn.h (+1 more)\n"
                            "                8.9.7     dist-info\n"
                            "    majors      8, 9\n"
                            "    files       1 library, 2 headers\n"
                            "    problems    ! mixed-versions: two\n"
                            "    note        n1\n"
                            "    evidence    e1\n"
                            "    directory   /c/lib (also /d/lib)\n"
                            "    files:\n"
                            "      lib/libcudnn.so -> libcudnn.so.9  [dangling]  file-name 9  gone\n"
                            "\n"
                            "roots:\n"
                            "  unreadable      /opt/x  (CUDNN_PATH): denied\n"
                            "  searched        /srv  (PATH entry 2) = /opt/x\n"
                            "\n"
                            "skipped:\n"
                            "  /p: r\n"
                            "\n"
                            "stopped early: more than 5 directories (raise --max-dirs)\n"
                            "\n"
                            "note: a note\n");
        free(out);
        assert_int_equal(cudnnctl_which_text(which, 1, 0, &out, &err), 0);
        assert_string_equal(out, "cudnn64_9.dll: the loader stops with error 193 at C:\\a\\cudnn64_9.dll\n"
                                 "  because     not a PE file\n"
                                 "  elsewhere   D:\\x\\cudnn64_9.dll  (on no search path; installation 3)  "
                                 "9.1.0 (its installation)\n"
                                 "  tried       failed   C:\\a\\cudnn64_9.dll  (PATH entry 1)\n"
                                 "                       not a PE file\n"
                                 "\n"
                                 "cudnn64_8.dll: not found (0 places tried)\n"
                                 "\n"
                                 "note        ln\n");
        free(out);
        assert_int_equal(cudnnctl_deps_text(deps, 0, 0, &out, &err), 0);
        assert_string_equal(out,
                            "/a/prog\n"
                            "\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 libx.so.1 => /l/libx.so.1 [DT_RUNPATH]\n"
                            "    \xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 libcudnn_ops.so.9 not found (run time)\n"
                            "    \xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 Y.DLL fails to load (error 126) (delay load)\n"
                            "\n"
                            "2 objects, 1 missing, 1 missing at run time\n"
                            "cuDNN loaded: 9.1.0 9.2.0 from 2 directories (a mixed set)\n"
                            "note        dn\n");
        free(out);
        assert_int_equal(cudnnctl_deps_text(deps, 1, 0, &out, &err), 0);
        assert_non_null(strstr(out, "libcudnn_ops.so.9 not found"));
        assert_null(strstr(out, "cuDNN loaded"));
        free(out);
        cc_v_free(list);
        cc_v_free(which);
        cc_v_free(deps);
}

/* The frameworks' views (group F): a child's facts of any type read as they
 * came (fwprobe), the difference between a null and an absent cuda_build
 * (fw_build_raw), and what the summary writes is what fw_summary reads. */
static void test_fwprobe_views(void **state)
{
        cc_value *facts = parse("{\"python\":\"not an object\",\"distributions\":{},\"found\":[1],\"import\":\"yes\","
                                "\"info\":null,\"build\":{\"cuda\":\"12.4\",\"cuda_build\":null},"
                                "\"devices\":{\"a\":{\"index\":0,\"name\":\"d0\",\"capability\":\"9.0\"}},"
                                "\"modules\":{\"when\":\"after-import\",\"total\":2,"
                                "\"files\":{\"k\":{\"path\":\"/p/libcudnn.so.9\",\"family\":\"cudnn\"}}},"
                                "\"query_error\":7}");
        cc_value *found = parse("{\"importable\":true,\"origin\":null}");
        cc_vw_fwprobe pf;
        cc_vw_fw_build b;
        cc_vw_fw_build_raw raw;
        cc_vw_fw_device d;
        cc_vw_fw_modules_raw mr;
        cc_vw_fw_module m;
        cc_vw_fw_found f;
        cc_vw_report r = {0};

        (void)state;
        assert_int_equal(cc_vw_fwprobe_read(facts, &pf, &r), 0);
        /* what the gathering keeps only as objects and arrays: absent, and said so */
        assert_null(pf.python);
        assert_null(pf.distributions);
        assert_null(pf.found);
        assert_true(reported(&r, "fwprobe: python is a string, not an object"));
        assert_int_equal(r.count, 3);
        /* the framework's answers: there, of whatever type (null too) */
        assert_int_equal(cc_v_type(pf.import), CUDNNCTL_STRING);
        assert_true(CC_VW_HAS(&pf, fwprobe, info));
        assert_int_equal(cc_v_type(pf.info), CUDNNCTL_NULL);
        assert_int_equal(cc_v_type(pf.query_error), CUDNNCTL_INT);
        assert_null(pf.runtime);
        /* a null cuda_build: absent to the typed view, there to the raw one */
        cc_vw_fw_build_read(pf.build, &b, NULL);
        assert_string_equal(b.cuda, "12.4");
        assert_false(CC_VW_HAS(&b, fw_build, cuda_build));
        cc_vw_fw_build_raw_read(pf.build, &raw, NULL);
        assert_true(CC_VW_HAS(&raw, fw_build_raw, cuda_build));
        assert_int_equal(cc_v_type(raw.cuda_build), CUDNNCTL_NULL);
        /* devices and files as an object: their members, in order */
        assert_int_equal(cc_v_len(pf.devices), 1);
        assert_int_equal(cc_vw_fw_device_at(pf.devices, 0, &d, NULL), 0);
        assert_string_equal(d.name, "d0");
        assert_string_equal(d.capability, "9.0");
        cc_vw_fw_modules_raw_read(pf.modules, &mr, NULL);
        assert_int_equal(cc_vw_fw_module_at(mr.files, 0, &m, NULL), 0);
        assert_string_equal(m.path, "/p/libcudnn.so.9");
        assert_int_equal(cc_vw_fw_found_read(found, &f, NULL), 0);
        assert_true(f.importable);
        assert_null(f.origin);
        cc_vw_report_free(&r);
        cc_v_free(facts);
        cc_v_free(found);
}

/* The frameworks text on a document read through the views: the null and
 * the absent cuda_build, devices of an object, the summary cc_fw_summary
 * writes (read back through fw_summary with nothing reported), the plain
 * program. */
static void test_frameworks_text_views(void **state)
{
        cc_value *doc = parse(
            "{\"command\":\"frameworks\",\"gpu_requested\":\"auto\",\"expect\":null,"
            "\"plain_program\":{\"name\":\"libcudnn.so.9\",\"found\":true,\"path\":\"/usr/lib/libcudnn.so.9\"},"
            "\"interpreters\":[{\"path\":\"/venv/bin/python3\",\"sources\":[\"--python\"],\"aliases\":[],"
            "\"probe\":{\"ran\":true},\"state\":\"probed\",\"python\":{\"version\":\"3.12.3\",\"virtual_env\":true},"
            "\"frameworks\":[{\"name\":\"tensorflow\",\"state\":\"ok\",\"verdict\":\"warn\",\"info\":{\"version\":"
            "\"2.20.0\"},\"build\":{\"cuda\":null,\"cuda_build\":null},\"devices\":{\"0\":{\"name\":\"GPU:0\"}},"
            "\"verdicts\":[{\"id\":\"cuda-build\",\"status\":\"warn\",\"summary\":\"not read\"}]},"
            "{\"name\":\"jax\",\"state\":\"ok\",\"verdict\":\"pass\",\"distributions\":[{\"name\":\"jax\","
            "\"version\":\"0.4.30\"}],\"build\":{},\"verdicts\":[]}]}]}");
        cc_error err = {0};
        cc_vw_fw_doc d;
        cc_vw_fw_summary s;
        cc_vw_report r = {0};
        char *text = NULL;

        (void)state;
        assert_int_equal(cc_fw_summary(doc, &err), 0);
        assert_int_equal(cc_vw_fw_doc_read(doc, &d, &r), 0);
        assert_int_equal(cc_vw_fw_summary_read(d.summary, &s, &r), 0);
        assert_int_equal(r.count, 0);
        assert_int_equal(s.interpreters, 1);
        assert_int_equal(s.probed, 1);
        assert_int_equal(s.frameworks, 2);
        assert_int_equal(s.warnings, 1);
        assert_false(CC_VW_HAS(&s, fw_summary, wall_ms)); /* the command adds it */
        assert_int_equal(cudnnctl_frameworks_text(doc, 1, 0, &text, &err), 0);
        assert_non_null(strstr(text, "Python /venv/bin/python3 (3.12.3, virtual environment; --python)\n"));
        assert_non_null(
            strstr(text, "  warn  tensorflow 2.20.0\n      built      cuDNN unknown, CUDA none (CPU-only)\n"));
        assert_non_null(strstr(text, "      devices    GPU:0\n"));
        assert_non_null(strstr(text, "   ok   jax 0.4.30\n      built      cuDNN unknown, CUDA unknown\n"));
        assert_non_null(strstr(text, "\na plain program loads /usr/lib/libcudnn.so.9\n"));
        assert_non_null(strstr(text, "\n1 interpreter, 2 frameworks: 0 failing, 1 with warnings, 0 notes\n"));
        free(text);
        cc_vw_report_free(&r);
        cc_v_free(doc);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_read_typed),
            cmocka_unit_test(test_report),
            cmocka_unit_test(test_keys),
            cmocka_unit_test(test_numbers),
            cmocka_unit_test(test_probe_facts),
            cmocka_unit_test(test_explain_views),
            cmocka_unit_test(test_doctor_verify_probe_views),
            cmocka_unit_test(test_inspect_views),
            cmocka_unit_test(test_inspect_text_views),
            cmocka_unit_test(test_compat_views),
            cmocka_unit_test(test_list_views),
            cmocka_unit_test(test_which_deps_views),
            cmocka_unit_test(test_list_which_deps_text),
            cmocka_unit_test(test_fwprobe_views),
            cmocka_unit_test(test_frameworks_text_views),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
