/* Discovery ("cudnnctl list") over the machine trees of
 * tests/fixtures/gen-trees.sh, a tree made unreadable at test time, and the
 * real machine. */
#define _GNU_SOURCE
#include "testutil.h"

#include "discover/discover.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------------------ */

/* A machine over the tree at root (a directory seen as "/"). */
static cc_machine *open_root(const char *root, int system, const char *const *set, size_t nset)
{
        cudnnctl_machine_options mo = {0};
        cudnnctl_machine *m = NULL;
        cudnnctl_error err = {0};

        mo.root = root;
        mo.system = system;
        mo.set = set;
        mo.nset = nset;
        if (cudnnctl_machine_open(&mo, &m, &err) < 0)
                fail_msg("machine_open %s: %s", root, err.msg);
        return m;
}

static cc_machine *open_tree(const char *tree, int system, const char *const *set, size_t nset)
{
        char rel[128];
        char *root;
        cc_machine *m;

        snprintf(rel, sizeof(rel), "trees/%s", tree);
        root = tu_fixture(rel);
        if (!tu_exists(root))
                fail_msg("fixture tree %s is missing (gen-trees.sh did not run?)", root);
        m = open_root(root, system, set, nset);
        free(root);
        return m;
}

static cudnnctl_value *list_machine(cc_machine *m, size_t max_dirs)
{
        cudnnctl_list_options lo = {0};
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};

        lo.max_dirs = max_dirs;
        if (cudnnctl_list(m, &lo, &doc, &err) < 0)
                fail_msg("cudnnctl_list: %s", err.msg);
        assert_non_null(doc);
        return doc;
}

static cudnnctl_value *list_tree(const char *tree, int system, const char *const *set, size_t nset)
{
        cc_machine *m = open_tree(tree, system, set, nset);
        cudnnctl_value *doc = list_machine(m, 0);

        cudnnctl_machine_free(m);
        return doc;
}

static const cc_value *insts(const cc_value *doc)
{
        const cc_value *a = cc_v_get(doc, "installations");

        assert_int_equal(cc_v_type(a), CUDNNCTL_ARRAY);
        return a;
}

static const cc_value *inst_by_prefix(const cc_value *doc, const char *prefix)
{
        const cc_value *a = insts(doc);
        size_t i;

        for (i = 0; i < cc_v_len(a); i++)
                if (strcmp(cc_v_get_str(cc_v_at(a, i), "prefix"), prefix) == 0)
                        return cc_v_at(a, i);
        fail_msg("no installation with prefix %s", prefix);
        return NULL;
}

static int has_version(const cc_value *in, const char *source, const char *version)
{
        const cc_value *v = cc_v_get(in, "versions");
        size_t i;

        for (i = 0; i < cc_v_len(v); i++) {
                const cc_value *e = cc_v_at(v, i);

                if (strcmp(cc_v_get_str(e, "source"), source) == 0 && strcmp(cc_v_get_str(e, "version"), version) == 0)
                        return 1;
        }
        return 0;
}

static size_t count_problems(const cc_value *in, const char *kind)
{
        const cc_value *p = cc_v_get(in, "problems");
        size_t i, n = 0;

        for (i = 0; i < cc_v_len(p); i++)
                n += kind == NULL || strcmp(cc_v_get_str(cc_v_at(p, i), "kind"), kind) == 0;
        return n;
}

static const cc_value *file_named(const cc_value *in, const char *name)
{
        const cc_value *f = cc_v_get(in, "files");
        size_t i;

        for (i = 0; i < cc_v_len(f); i++)
                if (strcmp(cc_v_get_str(cc_v_at(f, i), "name"), name) == 0)
                        return cc_v_at(f, i);
        fail_msg("no file %s", name);
        return NULL;
}

static const cc_value *root_by_path(const cc_value *doc, const char *path)
{
        const cc_value *r = cc_v_get(doc, "roots");
        size_t i;

        for (i = 0; i < cc_v_len(r); i++)
                if (strcmp(cc_v_get_str(cc_v_at(r, i), "path"), path) == 0)
                        return cc_v_at(r, i);
        fail_msg("no root %s", path);
        return NULL;
}

static int strv_has(const cc_value *arr, const char *s)
{
        size_t i;

        for (i = 0; i < cc_v_len(arr); i++)
                if (cc_v_as_str(cc_v_at(arr, i)) && strcmp(cc_v_as_str(cc_v_at(arr, i)), s) == 0)
                        return 1;
        return 0;
}

static const char *vstr(const cc_value *v, const char *path)
{
        return cc_v_as_str(cc_v_path(v, path));
}

/* ---- a CUDA toolkit with cuDNN copied in ------------------------------------------ */

static void test_toolkit(void **state)
{
        static const char *const set[] = {"CUDNN_PATH=/usr/local/cuda-12.4", "CUDA_PATH_V12_4=/usr/local/cuda",
                                          "CUDA_PATH_V11_8=/usr/local/cuda-11.8"};
        cudnnctl_value *doc = list_tree("toolkit", CUDNNCTL_SYSTEM_LINUX, set, 3);
        const cc_value *in, *f, *r;

        (void)state;
        assert_int_equal(cc_v_as_int(cc_v_get(doc, "schema_version")), CUDNNCTL_JSON_SCHEMA_VERSION);
        assert_string_equal(cc_v_get_str(doc, "command"), "list");
        assert_int_equal(cc_v_len(insts(doc)), 1); /* not again through /usr/local/cuda or lib64 */
        in = inst_by_prefix(doc, "/usr/local/cuda-12.4");
        assert_int_equal(cc_v_as_int(cc_v_get(in, "id")), 1);
        assert_true(strv_has(cc_v_get(in, "aliases"), "/usr/local/cuda"));
        assert_string_equal(vstr(in, "provenance/kind"), "cuda-toolkit");
        assert_string_equal(vstr(in, "provenance/toolkit/version"), "12.4");
        assert_true(cc_v_as_bool(cc_v_path(in, "provenance/copied_in")));
        assert_string_equal(cc_v_get_str(in, "version"), "9.1.0");
        assert_int_equal(cc_v_len(cc_v_get(in, "disagreements")), 0);
        assert_true(has_version(in, "exported-constant", "9.1.0"));
        assert_true(has_version(in, "header", "9.1.0"));
        assert_true(has_version(in, "file-name", "9.1.0"));
        assert_int_equal(count_problems(in, NULL), 0);
        assert_int_equal(cc_v_as_int(cc_v_path(in, "counts/libraries")), 8);
        assert_int_equal(cc_v_as_int(cc_v_path(in, "counts/symlinks")), 16);
        assert_int_equal(cc_v_as_int(cc_v_path(in, "majors/0")), 9);
        /* the library directory is the canonical one, lib64 an alias */
        assert_string_equal(vstr(in, "directories/0/path"), "/usr/local/cuda-12.4/targets/x86_64-linux/lib");
        assert_true(strv_has(cc_v_path(in, "directories/0/aliases"), "/usr/local/cuda-12.4/lib64"));
        /* the chain as it is, each link with its target */
        f = file_named(in, "libcudnn.so");
        assert_string_equal(cc_v_get_str(f, "type"), "symlink");
        assert_string_equal(cc_v_get_str(f, "link_state"), "ok");
        assert_int_equal(cc_v_len(cc_v_get(f, "chain")), 2);
        assert_string_equal(vstr(f, "chain/0/target"), "libcudnn.so.9");
        assert_string_equal(vstr(f, "chain/1/target"), "libcudnn.so.9.1.0");
        assert_string_equal(cc_v_get_str(f, "resolves_to"),
                            "/usr/local/cuda-12.4/targets/x86_64-linux/lib/libcudnn.so.9.1.0");
        /* every environment variable of the CUDA_PATH_V*_* form is a root */
        r = root_by_path(doc, "/usr/local/cuda-11.8");
        assert_string_equal(cc_v_get_str(r, "state"), "missing");
        assert_true(strv_has(cc_v_get(r, "sources"), "CUDA_PATH_V11_8"));
        r = root_by_path(doc, "/usr/local/cuda");
        assert_true(strv_has(cc_v_get(r, "sources"), "CUDA_PATH_V12_4"));
        assert_string_equal(cc_v_get_str(r, "canonical"), "/usr/local/cuda-12.4");
        r = root_by_path(doc, "/usr/local/cuda-12.4");
        assert_true(strv_has(cc_v_get(r, "sources"), "CUDNN_PATH"));
        cudnnctl_value_free(doc);
}

/* cc_discovery_find / install_of / file_versions, as `which` uses them */
static void test_questions(void **state)
{
        cc_machine *m = open_tree("toolkit", CUDNNCTL_SYSTEM_LINUX, NULL, 0);
        cc_discovery *d = NULL;
        cc_error err = {0};
        cc_strv paths = {0};
        const cc_value *v;
        cc_value *f1, *f2;
        cc_buf j1 = {0}, j2 = {0};
        size_t i;
        int seen = 0;

        (void)state;
        assert_int_equal(cc_discover(m, NULL, &d, &err), 0);
        assert_int_equal(cc_discovery_find(d, "libcudnn_graph.so.9.1.0", &paths, &err), 0);
        assert_int_equal(paths.n, 1); /* once, though reached as lib64, targets/... and cuda/ */
        assert_true(cc_starts_with(paths.v[0], "/usr/local/cuda"));
        cc_strv_free(&paths);
        assert_int_equal(cc_discovery_find(d, "libcudnn_graph.so.9", &paths, &err), 0);
        assert_int_equal(paths.n, 1);
        cc_strv_free(&paths);
        assert_int_equal(cc_discovery_find(d, "libnothing.so", &paths, &err), 0);
        assert_int_equal(paths.n, 0);
        assert_int_equal(
            cc_discovery_install_of(d, "/usr/local/cuda-12.4/targets/x86_64-linux/lib/libcudnn_graph.so.9.1.0"), 1);
        assert_int_equal(cc_discovery_install_of(d, "/usr/lib/libc.so.6"), 0);
        v = cc_discovery_file_versions(d, "/usr/local/cuda-12.4/targets/x86_64-linux/lib/libcudnn_graph.so.9.1.0");
        assert_non_null(v);
        for (i = 0; i < cc_v_len(v); i++)
                seen |= strcmp(cc_v_get_str(cc_v_at(v, i), "source"), "exported-constant") == 0 &&
                        strcmp(cc_v_get_str(cc_v_at(v, i), "version"), "9.1.0") == 0;
        assert_true(seen);
        /* a link's versions are its target's */
        v = cc_discovery_file_versions(d, "/usr/local/cuda-12.4/targets/x86_64-linux/lib/libcudnn_graph.so");
        assert_non_null(v);
        assert_true(cc_v_len(v) >= 2);
        assert_null(cc_discovery_file_versions(d, "/nowhere/libcudnn.so.9"));
        /* facts can be asked for twice and are the same */
        f1 = cc_discovery_facts(d, &err);
        f2 = cc_discovery_facts(d, &err);
        assert_non_null(f1);
        assert_non_null(f2);
        assert_int_equal(cc_json_write(f1, 0, &j1, &err), 0);
        assert_int_equal(cc_json_write(f2, 0, &j2, &err), 0);
        assert_string_equal(j1.data, j2.data);
        cc_buf_free(&j1);
        cc_buf_free(&j2);
        cc_v_free(f1);
        cc_v_free(f2);
        cc_discovery_free(d);
        cudnnctl_machine_free(m);
}

/* ---- a distro package ------------------------------------------------------------ */

static void test_distro(void **state)
{
        cudnnctl_value *doc = list_tree("distro", CUDNNCTL_SYSTEM_LINUX, NULL, 0);
        const cc_value *in, *pk, *f;
        size_t i;
        int lib = 0, dev = 0;

        (void)state;
        assert_int_equal(cc_v_len(insts(doc)), 1);
        in = inst_by_prefix(doc, "/usr");
        assert_string_equal(vstr(in, "provenance/kind"), "distro-package");
        assert_true(cc_v_as_bool(cc_v_path(in, "provenance/owner_known")));
        assert_null(cc_v_path(in, "provenance/unowned"));
        pk = cc_v_path(in, "provenance/packages");
        for (i = 0; i < cc_v_len(pk); i++) {
                const cc_value *p = cc_v_at(pk, i);

                assert_string_equal(cc_v_get_str(p, "manager"), "dpkg");
                assert_string_equal(cc_v_get_str(p, "version"), "9.14.0.64-1");
                assert_string_equal(cc_v_get_str(p, "status"), "install ok installed");
                lib |= strcmp(cc_v_get_str(p, "name"), "libcudnn9-cuda-12") == 0;
                dev |= strcmp(cc_v_get_str(p, "name"), "libcudnn9-dev-cuda-12") == 0;
        }
        assert_true(lib && dev);
        assert_int_equal(cc_v_len(pk), 2); /* libc6 owns no cuDNN file */
        assert_true(has_version(in, "package-database", "9.14.0.64"));
        assert_true(has_version(in, "exported-constant", "9.14.0"));
        assert_true(has_version(in, "header", "9.14.0"));
        assert_string_equal(cc_v_get_str(in, "version"), "9.14.0");
        assert_string_equal(cc_v_get_str(in, "full_version"), "9.14.0.64");
        assert_int_equal(count_problems(in, NULL), 0);
        /* /usr/include/cudnn_version.h -> /etc/alternatives/... -> the _v9 header */
        f = file_named(in, "cudnn_version.h");
        assert_string_equal(cc_v_get_str(f, "link_state"), "ok");
        assert_int_equal(cc_v_len(cc_v_get(f, "chain")), 2);
        assert_string_equal(cc_v_get_str(f, "resolves_to"), "/usr/include/x86_64-linux-gnu/cudnn_version_v9.h");
        /* the multiarch library directory and both include directories are one installation */
        assert_int_equal(cc_v_len(cc_v_get(in, "directories")), 3);
        cudnnctl_value_free(doc);
}

/* A file list not named for cuDNN is still read when files are unowned, and a
 * stanza that "Package: NAME" does not find (it is spelled "Package:NAME")
 * still gives its version: the same answer as reading everything. */
static void test_distro_odd(void **state)
{
        cudnnctl_value *doc = list_tree("distro-odd", CUDNNCTL_SYSTEM_LINUX, NULL, 0);
        const cc_value *in, *pk, *ev;
        size_t i;
        int lib = 0, dev = 0, lists = 0;

        (void)state;
        in = inst_by_prefix(doc, "/usr");
        assert_string_equal(vstr(in, "provenance/kind"), "distro-package");
        assert_null(cc_v_path(in, "provenance/unowned"));
        pk = cc_v_path(in, "provenance/packages");
        assert_int_equal(cc_v_len(pk), 2);
        for (i = 0; i < cc_v_len(pk); i++) {
                const cc_value *p = cc_v_at(pk, i);

                if (strcmp(cc_v_get_str(p, "name"), "libcudnn9-cuda-12") == 0) {
                        assert_string_equal(cc_v_get_str(p, "version"), "9.14.0.64-1");
                        assert_string_equal(cc_v_get_str(p, "status"), "install ok installed");
                        lib = 1;
                } else {
                        assert_string_equal(cc_v_get_str(p, "name"), "nv-dnn-headers");
                        assert_string_equal(cc_v_get_str(p, "version"), "9.14.0.64-2");
                        /* the first stanza, its Status before its Package line: taken whole */
                        assert_string_equal(cc_v_get_str(p, "status"), "install ok installed");
                        dev = 1;
                }
        }
        assert_true(lib && dev);
        ev = cc_v_path(in, "provenance/evidence");
        for (i = 0; i < cc_v_len(ev); i++)
                lists |= strstr(cc_v_as_str(cc_v_at(ev, i)), "(3 package file lists read)") != NULL;
        assert_true(lists);
        cudnnctl_value_free(doc);
}

/* The cuDNN-named lists own every file: the others (libc6's) are not read. */
static void test_distro_lists_read(void **state)
{
        cudnnctl_value *doc = list_tree("distro", CUDNNCTL_SYSTEM_LINUX, NULL, 0);
        const cc_value *in = inst_by_prefix(doc, "/usr"), *ev = cc_v_path(in, "provenance/evidence");
        size_t i;
        int lists = 0;

        (void)state;
        for (i = 0; i < cc_v_len(ev); i++)
                lists |= strstr(cc_v_as_str(cc_v_at(ev, i)), "(2 package file lists read)") != NULL;
        assert_true(lists);
        cudnnctl_value_free(doc);
}

static void test_rpm(void **state)
{
        cudnnctl_value *doc = list_tree("rpm", CUDNNCTL_SYSTEM_LINUX, NULL, 0);
        const cc_value *in;

        (void)state;
        in = inst_by_prefix(doc, "/usr");
        assert_string_equal(vstr(in, "provenance/kind"), "distro-package");
        assert_false(cc_v_as_bool(cc_v_path(in, "provenance/owner_known")));
        assert_non_null(strstr(vstr(in, "notes/0"), "RPM"));
        assert_string_equal(cc_v_get_str(in, "version"), "9.14.0");
        cudnnctl_value_free(doc);
}

/* ---- pip wheels ---------------------------------------------------------------------- */

static void test_pip(void **state)
{
        static const char *const set[] = {"VIRTUAL_ENV=/home/u/venv", "PATH=/home/u/venv2/bin:/opt/py/bin:/usr/bin"};
        cudnnctl_value *doc = list_tree("pip", CUDNNCTL_SYSTEM_LINUX, set, 2);
        const cc_value *in;

        (void)state;
        assert_int_equal(cc_v_len(insts(doc)), 3);
        /* the venv named by VIRTUAL_ENV */
        in = inst_by_prefix(doc, "/home/u/venv/lib/python3.11/site-packages/nvidia/cudnn");
        assert_string_equal(vstr(in, "provenance/kind"), "pip-wheel");
        assert_string_equal(vstr(in, "provenance/packages/0/name"), "nvidia-cudnn-cu12");
        assert_string_equal(vstr(in, "provenance/packages/0/version"), "9.5.1.17");
        assert_true(has_version(in, "dist-info", "9.5.1.17"));
        assert_string_equal(cc_v_get_str(in, "version"), "9.5.1");
        /* a wheel's lone libcudnn.so.9 regular files are normal */
        assert_int_equal(count_problems(in, NULL), 0);
        assert_int_equal(cc_v_as_int(cc_v_path(in, "counts/symlinks")), 0);
        /* a venv found through PATH (pyvenv.cfg), the cu13 layout; the cu12
         * dist-info there owns nothing under nvidia/cu13 (its RECORD says so) */
        in = inst_by_prefix(doc, "/home/u/venv2/lib/python3.12/site-packages/nvidia/cu13");
        assert_string_equal(vstr(in, "provenance/kind"), "pip-wheel");
        assert_int_equal(cc_v_len(cc_v_path(in, "provenance/packages")), 1);
        assert_string_equal(vstr(in, "provenance/packages/0/name"), "nvidia-cudnn-cu13");
        assert_string_equal(cc_v_get_str(in, "version"), "9.19.0");
        assert_string_equal(cc_v_get_str(in, "full_version"), "9.19.0.56");
        /* a python3 prefix found through PATH: torch bundles cuDNN */
        in = inst_by_prefix(doc, "/opt/py/lib/python3.12/site-packages/torch");
        assert_string_equal(vstr(in, "provenance/kind"), "pip-wheel");
        assert_string_equal(vstr(in, "provenance/bundled_in/name"), "torch");
        assert_string_equal(vstr(in, "provenance/bundled_in/version"), "2.5.1");
        assert_string_equal(cc_v_get_str(in, "version"), "9.1.0");
        assert_true(has_version(in, "exported-constant", "9.1.0"));
        cudnnctl_value_free(doc);
}

/* ---- conda ------------------------------------------------------------------------- */

static void test_conda(void **state)
{
        static const char *const set[] = {"CONDA_PREFIX=/home/u/miniconda3/envs/dl", "HOME=/home/u"};
        cudnnctl_value *doc = list_tree("conda", CUDNNCTL_SYSTEM_LINUX, set, 2);
        const cc_value *in, *r;

        (void)state;
        assert_int_equal(cc_v_len(insts(doc)), 1);
        in = inst_by_prefix(doc, "/home/u/miniconda3/envs/dl");
        assert_string_equal(vstr(in, "provenance/kind"), "conda-package");
        assert_string_equal(vstr(in, "provenance/packages/0/name"), "cudnn");
        assert_string_equal(vstr(in, "provenance/packages/0/version"), "8.9.7.29");
        assert_string_equal(vstr(in, "provenance/packages/0/build"), "hcdd5f01_2");
        assert_true(has_version(in, "conda-meta", "8.9.7.29"));
        assert_true(has_version(in, "file-name", "8.9.7"));
        assert_true(has_version(in, "header", "8.9.7"));
        assert_string_equal(cc_v_get_str(in, "version"), "8.9.7");
        assert_int_equal(count_problems(in, NULL), 0);
        /* the usual conda root under HOME is found too, and is the same env */
        r = root_by_path(doc, "/home/u/miniconda3/envs/dl");
        assert_true(strv_has(cc_v_get(r, "sources"), "CONDA_PREFIX"));
        assert_true(strv_has(cc_v_get(r, "sources"), "conda installation /home/u/miniconda3"));
        cudnnctl_value_free(doc);
}

/* ---- archives in /opt ----------------------------------------------------------------- */

static void test_archive(void **state)
{
        cudnnctl_value *doc = list_tree("archive", CUDNNCTL_SYSTEM_LINUX, NULL, 0);
        const cc_value *in;

        (void)state;
        assert_int_equal(cc_v_len(insts(doc)), 2);
        in = inst_by_prefix(doc, "/opt/cudnn-linux-x86_64-8.9.7.29_cuda12-archive");
        assert_string_equal(vstr(in, "provenance/kind"), "archive-copy");
        assert_string_equal(vstr(in, "provenance/archive/era"), "redist");
        assert_true(has_version(in, "archive-name", "8.9.7.29"));
        assert_string_equal(cc_v_get_str(in, "version"), "8.9.7");
        in = inst_by_prefix(doc, "/opt/cudnn-11.4-linux-x64-v8.2.2.26/cuda");
        assert_string_equal(vstr(in, "provenance/kind"), "archive-copy");
        assert_string_equal(vstr(in, "provenance/archive/era"), "legacy");
        assert_string_equal(cc_v_get_str(in, "version"), "8.2.2");
        assert_string_equal(cc_v_get_str(in, "full_version"), "8.2.2.26");
        assert_int_equal(count_problems(in, NULL), 0);
        cudnnctl_value_free(doc);
}

/* ---- versions that disagree ------------------------------------------------------------ */

static void test_mismatch_and_mixed(void **state)
{
        static const char *const set[] = {"LD_LIBRARY_PATH=/srv/dnn/lib:/srv/mixed/lib"};
        cudnnctl_value *doc = list_tree("mismatch", CUDNNCTL_SYSTEM_LINUX, set, 1);
        const cc_value *in, *dis;

        (void)state;
        /* headers 9.3.0, libraries 9.1.0: the include directory came with the prefix */
        in = inst_by_prefix(doc, "/srv/dnn");
        assert_int_equal(cc_v_type(cc_v_get(in, "version")), CUDNNCTL_NULL);
        dis = cc_v_get(in, "disagreements");
        assert_int_equal(cc_v_len(dis), 2);
        assert_string_equal(vstr(dis, "0/version"), "9.1.0");
        assert_string_equal(vstr(dis, "1/version"), "9.3.0");
        assert_true(strv_has(cc_v_path(dis, "1/sources"), "header"));
        assert_int_equal(count_problems(in, "header-library-mismatch"), 1);
        assert_true(has_version(in, "header", "9.3.0"));
        assert_true(has_version(in, "exported-constant", "9.1.0"));
        /* 9.1 and 9.3 side by side: kept visible as sets, not merged */
        in = inst_by_prefix(doc, "/srv/mixed");
        assert_int_equal(cc_v_type(cc_v_get(in, "version")), CUDNNCTL_NULL);
        assert_int_equal(count_problems(in, "mixed-versions"), 1);
        assert_int_equal(count_problems(in, "header-library-mismatch"), 0);
        assert_int_equal(cc_v_len(cc_v_get(in, "sets")), 2);
        assert_string_equal(vstr(in, "sets/0/version"), "9.1.0");
        assert_string_equal(vstr(in, "sets/1/version"), "9.3.0");
        assert_true(strv_has(cc_v_path(in, "sets/0/files"), "libcudnn_graph.so.9.1.0"));
        assert_true(strv_has(cc_v_path(in, "sets/1/files"), "libcudnn_graph.so.9.3.0"));
        assert_int_equal(cc_v_as_int(cc_v_path(in, "counts/libraries")), 4);
        cudnnctl_value_free(doc);
}

/* ---- broken, looping and flattened chains ----------------------------------------------- */

static void test_links(void **state)
{
        static const char *const set[] = {"LD_LIBRARY_PATH=/srv/flat/lib:/srv/broken/lib"};
        cudnnctl_value *doc = list_tree("links", CUDNNCTL_SYSTEM_LINUX, set, 1);
        const cc_value *in, *f, *sk;
        size_t i;
        int loopdir = 0;

        (void)state;
        in = inst_by_prefix(doc, "/srv/flat");
        assert_int_equal(count_problems(in, "flattened-symlinks"), 1);
        assert_int_equal(cc_v_len(cc_v_path(in, "problems/0/paths")), 3);
        assert_string_equal(vstr(in, "problems/0/failure_mode"), "linux-broken-symlinks");
        in = inst_by_prefix(doc, "/srv/broken");
        assert_int_equal(count_problems(in, "dangling-symlink"), 2);
        assert_int_equal(count_problems(in, "symlink-loop"), 3);
        assert_int_equal(count_problems(in, "missing-soname-link"), 1);
        assert_int_equal(count_problems(in, "not-soname"), 1);
        f = file_named(in, "libcudnn_graph.so");
        assert_string_equal(cc_v_get_str(f, "link_state"), "dangling");
        assert_int_equal(cc_v_len(cc_v_get(f, "chain")), 2);
        assert_string_equal(vstr(f, "chain/1/target"), "libcudnn_graph.so.9.9.9");
        assert_int_equal(cc_v_type(cc_v_get(f, "resolves_to")), CUDNNCTL_NULL);
        f = file_named(in, "libcudnn_ops.so.9");
        assert_string_equal(cc_v_get_str(f, "link_state"), "loop");
        f = file_named(in, "libcudnn_adv.so");
        assert_string_equal(cc_v_get_str(f, "link_state"), "loop");
        assert_int_equal(cc_v_len(cc_v_get(f, "chain")), 2);
        /* directory loops in /opt: recorded, not followed forever */
        sk = cc_v_get(doc, "skipped");
        for (i = 0; i < cc_v_len(sk); i++)
                loopdir |= strcmp(vstr(cc_v_at(sk, i), "path"), "/opt/selfloop") == 0 &&
                           strstr(vstr(cc_v_at(sk, i), "reason"), "loop") != NULL;
        assert_true(loopdir);
        assert_string_equal(cc_v_get_str(root_by_path(doc, "/opt"), "state"), "searched");
        cudnnctl_value_free(doc);
}

/* ---- unreadable directories and files ------------------------------------------------------ */

static int write_file(const char *path, const char *text, mode_t mode)
{
        FILE *f = fopen(path, "w");

        if (f == NULL)
                return -1;
        fputs(text, f);
        fclose(f);
        return chmod(path, mode);
}

/* The checks, run as an unprivileged user: 0 when all pass, else the number
 * of the first that failed. */
static int unreadable_checks(const char *root)
{
        static const char *const set[] = {"LD_LIBRARY_PATH=/opt/locked:/srv/u/lib"};
        cudnnctl_machine_options mo = {0};
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL;
        cudnnctl_error err = {0};
        const cc_value *r, *sk, *in, *f;
        size_t i;
        int rc = 0, found = 0;

        mo.root = root;
        mo.system = CUDNNCTL_SYSTEM_LINUX;
        mo.set = set;
        mo.nset = 1;
        if (cudnnctl_machine_open(&mo, &m, &err) < 0)
                return 1;
        if (cudnnctl_list(m, NULL, &doc, &err) < 0) {
                rc = 2;
                goto done;
        }
        r = cc_v_at(cc_v_get(doc, "roots"), 0);
        if (strcmp(cc_v_get_str(r, "path"), "/opt/locked") != 0 ||
            strcmp(cc_v_get_str(r, "state"), "unreadable") != 0 || cc_v_get_str(r, "reason") == NULL ||
            strstr(cc_v_get_str(r, "reason"), "ermission") == NULL) {
                rc = 3;
                goto done;
        }
        sk = cc_v_get(doc, "skipped");
        for (i = 0; i < cc_v_len(sk); i++)
                found |= strcmp(vstr(cc_v_at(sk, i), "path"), "/opt/locked") == 0 &&
                         strstr(vstr(cc_v_at(sk, i), "reason"), "ermission") != NULL &&
                         strstr(vstr(cc_v_at(sk, i), "reason"), root) == NULL; /* no host path */
        if (!found) {
                rc = 4;
                goto done;
        }
        if (cc_v_len(cc_v_get(doc, "installations")) != 1) {
                rc = 5;
                goto done;
        }
        in = cc_v_at(cc_v_get(doc, "installations"), 0);
        f = NULL;
        for (i = 0; i < cc_v_len(cc_v_get(in, "files")); i++)
                if (strcmp(vstr(cc_v_at(cc_v_get(in, "files"), i), "name"), "libcudnn_graph.so.9") == 0)
                        f = cc_v_at(cc_v_get(in, "files"), i);
        if (f == NULL || cc_v_get_str(f, "error") == NULL || strstr(cc_v_get_str(f, "error"), "ermission") == NULL) {
                rc = 6;
                goto done;
        }
        if (count_problems(in, "unreadable-file") != 1) {
                rc = 7;
                goto done;
        }
done:
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
        return rc;
}

static void test_unreadable(void **state)
{
        char root[] = "/tmp/cc-disc-XXXXXX", p[512];
        int rc, status;
        pid_t pid;

        (void)state;
        assert_non_null(mkdtemp(root));
        assert_int_equal(chmod(root, 0755), 0);
        snprintf(p, sizeof(p), "%s/opt", root);
        assert_int_equal(mkdir(p, 0755), 0);
        snprintf(p, sizeof(p), "%s/opt/locked", root);
        assert_int_equal(mkdir(p, 0755), 0);
        snprintf(p, sizeof(p), "%s/opt/locked/libcudnn.so.9", root);
        assert_int_equal(write_file(p, "not really\n", 0644), 0);
        snprintf(p, sizeof(p), "%s/srv", root);
        assert_int_equal(mkdir(p, 0755), 0);
        snprintf(p, sizeof(p), "%s/srv/u", root);
        assert_int_equal(mkdir(p, 0755), 0);
        snprintf(p, sizeof(p), "%s/srv/u/lib", root);
        assert_int_equal(mkdir(p, 0755), 0);
        snprintf(p, sizeof(p), "%s/srv/u/lib/libcudnn_graph.so.9", root);
        assert_int_equal(write_file(p, "secret\n", 0), 0);
        snprintf(p, sizeof(p), "%s/opt/locked", root);
        assert_int_equal(chmod(p, 0), 0);
        if (geteuid() != 0) {
                rc = unreadable_checks(root);
        } else {
                /* root reads everything: drop to nobody in a child */
                pid = fork();
                assert_true(pid >= 0);
                if (pid == 0) {
                        if (setgid(65534) != 0 || setuid(65534) != 0)
                                _exit(100);
                        _exit(unreadable_checks(root));
                }
                assert_int_equal(waitpid(pid, &status, 0), pid);
                assert_true(WIFEXITED(status));
                rc = WEXITSTATUS(status);
        }
        chmod(p, 0755);
        snprintf(p, sizeof(p), "rm -rf '%s'", root);
        if (system(p) != 0)
                print_message("could not remove %s\n", root);
        if (rc == 100)
                skip(); /* no way to become an unprivileged user here */
        if (rc != 0)
                fail_msg("unreadable check %d failed", rc);
}

/* ---- files with the same bytes ------------------------------------------------------------- */

/* The header's version of file name in the installation at prefix, NULL if none. */
static const char *header_version(const cc_value *in, const char *name)
{
        const cc_value *v = cc_v_get(file_named(in, name), "versions");
        size_t i;

        for (i = 0; i < cc_v_len(v); i++)
                if (strcmp(cc_v_get_str(cc_v_at(v, i), "source"), "header") == 0)
                        return cc_v_get_str(cc_v_at(v, i), "version");
        return NULL;
}

static void test_same_bytes(void **state)
{
        static const char v1[] = "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n",
                          v2[] = "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 2\n#define CUDNN_PATCHLEVEL 0\n",
                          bad[] = "\x7f"
                                  "ELF not a header at all, nor a library\n";
        static const char *const dirs[] = {"/srv", "/srv/h", "/srv/h/lib", "/srv/h/include"};
        char root[] = "/tmp/cc-same-XXXXXX", p[512], q[512];
        size_t i;

        (void)state;
        _Static_assert(sizeof(v1) == sizeof(v2), "the two headers are as long as each other");
        assert_non_null(mkdtemp(root));
        for (i = 0; i < CC_ARRAY_LEN(dirs); i++) {
                snprintf(p, sizeof(p), "%s%s", root, dirs[i]);
                assert_int_equal(mkdir(p, 0755), 0);
        }
        snprintf(p, sizeof(p), "%s/srv/h/lib/libcudnn.so.9", root);
        assert_int_equal(write_file(p, "not a library\n", 0644), 0);
        snprintf(p, sizeof(p), "%s/srv/h/include/cudnn_version.h", root);
        assert_int_equal(write_file(p, v1, 0644), 0);
        snprintf(p, sizeof(p), "%s/srv/h/include/cudnn_version_v9.h", root);
        assert_int_equal(write_file(p, v1, 0644), 0);
        snprintf(q, sizeof(q), "%s/srv/h/include/cudnn_version_link.h", root);
        snprintf(p, sizeof(p), "%s/srv/h/include/cudnn_version.h", root);
        assert_int_equal(link(p, q), 0);
        snprintf(p, sizeof(p), "%s/srv/h/include/cudnn_other.h", root);
        assert_int_equal(write_file(p, v2, 0644), 0);
        snprintf(p, sizeof(p), "%s/srv/h/include/cudnn_other_v9.h", root);
        assert_int_equal(write_file(p, v2, 0644), 0);
        snprintf(p, sizeof(p), "%s/srv/h/include/cudnn_bad.h", root);
        assert_int_equal(write_file(p, bad, 0644), 0);
        snprintf(p, sizeof(p), "%s/srv/h/include/cudnn_bad_v9.h", root);
        assert_int_equal(write_file(p, bad, 0644), 0);
        /* more headers of distinct sizes than discovery keeps the bytes of: the
         * later ones' twins compared with their first read again; an as-long
         * header with other bytes among them */
        for (i = 0; i < 70; i++) {
                char text[256];

                snprintf(text, sizeof(text),
                         "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR %zu\n#define CUDNN_PATCHLEVEL 0\n/*%*s*/\n",
                         i % 10, (int)(i + 1), "");
                snprintf(p, sizeof(p), "%s/srv/h/include/cudnn_p%02zu.h", root, i);
                assert_int_equal(write_file(p, text, 0644), 0);
                snprintf(p, sizeof(p), "%s/srv/h/include/cudnn_p%02zu_v9.h", root, i);
                if (i % 7 == 6)
                        text[strlen("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR ")] = (char)('0' + (i + 1) % 10);
                assert_int_equal(write_file(p, text, 0644), 0);
        }
        {
                static const char *const set[] = {"LD_LIBRARY_PATH=/srv/h/lib"};
                cc_machine *m = open_root(root, CUDNNCTL_SYSTEM_LINUX, set, 1);
                cudnnctl_value *doc = list_machine(m, 0);
                const cc_value *in = inst_by_prefix(doc, "/srv/h");

                /* byte-identical copies (one a hard link) read as their first */
                assert_string_equal(header_version(in, "cudnn_version.h"), "9.1.0");
                assert_string_equal(header_version(in, "cudnn_version_v9.h"), "9.1.0");
                assert_string_equal(header_version(in, "cudnn_version_link.h"), "9.1.0");
                /* as long, other bytes: read for itself */
                assert_string_equal(header_version(in, "cudnn_other.h"), "9.2.0");
                assert_string_equal(header_version(in, "cudnn_other_v9.h"), "9.2.0");
                /* a copy of a header that is not one (no version, an error of its own) stays so */
                assert_null(header_version(in, "cudnn_bad.h"));
                assert_null(header_version(in, "cudnn_bad_v9.h"));
                assert_string_equal(cc_v_get_str(file_named(in, "cudnn_bad.h"), "kind"),
                                    cc_v_get_str(file_named(in, "cudnn_bad_v9.h"), "kind"));
                for (i = 0; i < 70; i++) {
                        char a[64], b[64], want[16];
                        const char *va, *vb;

                        snprintf(a, sizeof(a), "cudnn_p%02zu.h", i);
                        snprintf(b, sizeof(b), "cudnn_p%02zu_v9.h", i);
                        snprintf(want, sizeof(want), "9.%zu.0", i % 10);
                        va = header_version(in, a);
                        vb = header_version(in, b);
                        assert_non_null(va);
                        assert_string_equal(va, want);
                        if (i % 7 == 6) /* as long, another minor: read for itself */
                                snprintf(want, sizeof(want), "9.%zu.0", (i + 1) % 10);
                        if (vb == NULL || strcmp(vb, want) != 0)
                                fail_msg("%s: %s, not %s", b, vb ? vb : "no version", want);
                }
                cudnnctl_value_free(doc);
                cudnnctl_machine_free(m);
        }
        snprintf(p, sizeof(p), "rm -rf '%s'", root);
        if (system(p) != 0)
                print_message("could not remove %s\n", root);
}

/* ---- a Windows tree --------------------------------------------------------------------- */

static void test_windows(void **state)
{
        static const char *const set[] = {
            "PATH=C:\\tools\\dnn;\"C:\\Windows\\System32\";c:\\program files\\nvidia\\cudnn\\v9.1\\bin",
            "CUDA_PATH=c:\\program files\\NVIDIA GPU Computing Toolkit\\CUDA\\V11.4",
            "CUDA_PATH_V11_4=C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.4",
            "SystemRoot=C:\\Windows",
        };
        cc_machine *m = open_tree("windows", CUDNNCTL_SYSTEM_WINDOWS, set, CC_ARRAY_LEN(set));
        cudnnctl_value *doc = list_machine(m, 0);
        const cc_value *in;
        cc_discovery *d = NULL;
        cc_error err = {0};
        cc_strv paths = {0};

        (void)state;
        assert_int_equal(cc_v_len(insts(doc)), 4);
        /* CUDA v11.4 with cuDNN 8.2.2 copied into bin (names match case-insensitively) */
        in = inst_by_prefix(doc, "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.4");
        assert_int_equal(cc_v_as_int(cc_v_get(in, "id")), 1);
        assert_string_equal(cc_v_get_str(in, "system"), "windows");
        assert_string_equal(vstr(in, "provenance/kind"), "cuda-toolkit");
        assert_string_equal(vstr(in, "provenance/toolkit/version"), "11.4");
        assert_true(cc_v_as_bool(cc_v_path(in, "provenance/copied_in")));
        assert_true(has_version(in, "version-resource", "8.2.2.26"));
        assert_true(has_version(in, "header", "8.2.2"));
        assert_string_equal(cc_v_get_str(in, "version"), "8.2.2");
        assert_int_equal(cc_v_as_int(cc_v_path(in, "counts/import_libraries")), 1);
        assert_int_equal(cc_v_as_int(cc_v_path(in, "counts/libraries")), 3);
        /* the cuDNN 9 installer layout with per-CUDA folders */
        in = inst_by_prefix(doc, "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1");
        assert_string_equal(vstr(in, "provenance/kind"), "windows-installer");
        assert_true(strv_has(cc_v_get(in, "cuda_variants"), "12.x"));
        assert_true(has_version(in, "installer-directory", "9.1"));
        assert_true(has_version(in, "version-resource", "9.1.0.70"));
        assert_string_equal(cc_v_get_str(in, "version"), "9.1.0");
        assert_string_equal(vstr(in, "directories/0/path"), "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\12.x");
        /* a stale cudnn64_8.dll in System32 */
        in = inst_by_prefix(doc, "C:\\Windows\\System32");
        assert_string_equal(vstr(in, "provenance/kind"), "copy");
        assert_string_equal(vstr(in, "provenance/location"), "system-directory");
        assert_int_equal(count_problems(in, "system-directory-copy"), 1);
        assert_string_equal(vstr(in, "problems/0/failure_mode"), "win-stale-dll-shadow");
        /* a DLL in a PATH directory */
        in = inst_by_prefix(doc, "C:\\tools\\dnn");
        assert_string_equal(vstr(in, "provenance/kind"), "copy");
        assert_string_equal(cc_v_get_str(in, "version"), "9.1.0");
        assert_true(strv_has(cc_v_get(root_by_path(doc, "C:\\tools\\dnn"), "sources"), "PATH entry 1"));
        cudnnctl_value_free(doc);
        /* file names the Windows way: any case finds both copies of cudnn64_8.dll */
        assert_int_equal(cc_discover(m, NULL, &d, &err), 0);
        assert_int_equal(cc_discovery_find(d, "CUDNN64_8.DLL", &paths, &err), 0);
        assert_int_equal(paths.n, 2);
        assert_int_equal(cc_discovery_install_of(d, "C:\\Windows\\System32\\cudnn64_8.dll"), 3);
        cc_strv_free(&paths);
        cc_discovery_free(d);
        cudnnctl_machine_free(m);
}

/* ---- thousands of site-packages and a 32 KiB PATH ------------------------------------------ */

static double now(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_many(void **state)
{
        cc_buf path = {0};
        cc_error err = {0};
        const char *set[2];
        cc_machine *m;
        cudnnctl_value *doc;
        const cc_value *in, *st, *roots;
        double t0, t;
        size_t i, over = 0;

        (void)state;
        assert_int_equal(cc_buf_puts(&path, "PATH=", &err), 0);
        for (i = 0; path.len < 32768 + 5; i++) {
                if (i % 3 == 0)
                        assert_int_equal(cc_buf_printf(&path, &err, "/home/u/miniconda3/envs/e%04zu/bin:", i % 300), 0);
                else if (i % 3 == 1)
                        assert_int_equal(cc_buf_printf(&path, &err, "/nonexistent/p%05zu/bin:", i), 0);
                else
                        assert_int_equal(cc_buf_puts(&path, "/usr/bin:", &err), 0);
        }
        set[0] = path.data;
        set[1] = "HOME=/home/u";
        m = open_tree("many", CUDNNCTL_SYSTEM_LINUX, set, 2);
        t0 = now();
        doc = list_machine(m, 0);
        t = now() - t0;
        print_message("many: %.3f s\n", t);
        assert_true(t < 30.0); /* ~0.5 s in a release build, ~2 s with sanitizers */
        assert_int_equal(cc_v_len(insts(doc)), 1);
        in = inst_by_prefix(doc, "/home/u/miniconda3/envs/e1234/lib/python3.11/site-packages/nvidia/cudnn");
        assert_string_equal(vstr(in, "provenance/kind"), "pip-wheel");
        st = cc_v_get(doc, "stats");
        assert_false(cc_v_as_bool(cc_v_get(st, "truncated")));
        assert_true(cc_v_as_int(cc_v_get(st, "roots")) > 2000);
        assert_true(cc_v_as_int(cc_v_get(st, "directories")) <= 20000);
        cudnnctl_value_free(doc);
        /* the directory budget: stop, say so, and mark what was not searched */
        doc = list_machine(m, 300);
        st = cc_v_get(doc, "stats");
        assert_true(cc_v_as_bool(cc_v_get(st, "truncated")));
        assert_true(cc_v_as_int(cc_v_get(st, "directories")) <= 300);
        roots = cc_v_get(doc, "roots");
        for (i = 0; i < cc_v_len(roots); i++)
                over += strcmp(vstr(cc_v_at(roots, i), "state"), "over-limit") == 0;
        assert_true(over > 0);
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
        cc_buf_free(&path);
}

/* ---- nothing there ---------------------------------------------------------------------- */

static void test_empty_and_text(void **state)
{
        cudnnctl_value *doc = list_tree("empty", CUDNNCTL_SYSTEM_LINUX, NULL, 0);
        cudnnctl_error err = {0};
        char *s = NULL;

        (void)state;
        assert_int_equal(cc_v_len(insts(doc)), 0);
        assert_string_equal(cc_v_get_str(root_by_path(doc, "/usr/local/cuda*"), "state"), "missing");
        assert_int_equal(cudnnctl_list_text(doc, 0, 0, &s, &err), 0);
        assert_non_null(strstr(s, "no cuDNN found"));
        assert_non_null(strstr(s, "/usr/local/cuda*"));
        assert_non_null(strstr(s, "/usr/lib/x86_64-linux-gnu"));
        cudnnctl_free(s);
        cudnnctl_value_free(doc);

        doc = list_tree("toolkit", CUDNNCTL_SYSTEM_LINUX, NULL, 0);
        assert_int_equal(cudnnctl_list_text(doc, 0, 0, &s, &err), 0);
        assert_non_null(strstr(s, "[1] /usr/local/cuda-12.4\n"));
        assert_non_null(strstr(s, "cuda-toolkit, CUDA 12.4; cuDNN copied in by hand"));
        assert_non_null(strstr(s, "9.1.0"));
        assert_non_null(strstr(s, "problems    none"));
        assert_null(strchr(s, '\033'));
        assert_null(strstr(s, "libcudnn.so -> libcudnn.so.9")); /* files only with verbose */
        cudnnctl_free(s);
        assert_int_equal(cudnnctl_list_text(doc, 1, 0, &s, &err), 0);
        assert_non_null(strstr(s, "targets/x86_64-linux/lib/libcudnn.so -> libcudnn.so.9 -> libcudnn.so.9.1.0"));
        assert_non_null(strstr(s, "exported-constant 9.1.0"));
        cudnnctl_free(s);
        assert_int_equal(cudnnctl_list_text(doc, 0, 1, &s, &err), 0);
        assert_non_null(strstr(s, "\033["));
        cudnnctl_free(s);
        cudnnctl_value_free(doc);

        /* disagreements are flagged in the text */
        {
                static const char *const set[] = {"LD_LIBRARY_PATH=/srv/dnn/lib"};

                doc = list_tree("mismatch", CUDNNCTL_SYSTEM_LINUX, set, 1);
                assert_int_equal(cudnnctl_list_text(doc, 0, 0, &s, &err), 0);
                assert_non_null(strstr(s, "unknown: the sources disagree"));
                assert_non_null(strstr(s, "header-library-mismatch"));
                cudnnctl_free(s);
                cudnnctl_value_free(doc);
        }
}

/* ---- the real machine --------------------------------------------------------------------- */

static void test_real_machine(void **state)
{
        cudnnctl_machine *m = NULL;
        cudnnctl_error err = {0};
        cudnnctl_value *doc;
        const cc_value *a, *in = NULL;
        char *canon;
        size_t i, hits = 0;

        (void)state;
        if (!tu_exists("/usr/local/cuda/lib/libcudnn_graph.so.9") &&
            !tu_exists("/usr/local/cuda/lib64/libcudnn_graph.so.9"))
                skip();
        canon = realpath("/usr/local/cuda", NULL);
        assert_non_null(canon);
        assert_int_equal(cudnnctl_machine_open(NULL, &m, &err), 0);
        doc = list_machine(m, 0);
        a = insts(doc);
        for (i = 0; i < cc_v_len(a); i++) {
                const cc_value *x = cc_v_at(a, i);

                if (strcmp(cc_v_get_str(x, "prefix"), canon) == 0 ||
                    strv_has(cc_v_get(x, "aliases"), "/usr/local/cuda")) {
                        in = x;
                        hits++;
                }
        }
        assert_int_equal(hits, 1); /* once: not again as /usr/local/cuda, lib64 or targets/... */
        assert_string_equal(cc_v_get_str(in, "prefix"), canon);
        assert_string_equal(vstr(in, "provenance/kind"), "cuda-toolkit");
        assert_string_equal(vstr(in, "provenance/toolkit/version"), "13.0");
        assert_string_equal(cc_v_get_str(in, "version"), "9.19.0");
        assert_true(has_version(in, "exported-constant", "9.19.0"));
        assert_true(has_version(in, "header", "9.19.0"));
        assert_true(has_version(in, "dist-info", "9.19.0.56"));
        assert_int_equal(cc_v_len(cc_v_get(in, "disagreements")), 0);
        assert_int_equal(cc_v_as_int(cc_v_path(in, "counts/libraries")), 8);
        free(canon);
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_toolkit),
            cmocka_unit_test(test_questions),
            cmocka_unit_test(test_distro),
            cmocka_unit_test(test_distro_odd),
            cmocka_unit_test(test_distro_lists_read),
            cmocka_unit_test(test_rpm),
            cmocka_unit_test(test_pip),
            cmocka_unit_test(test_conda),
            cmocka_unit_test(test_archive),
            cmocka_unit_test(test_mismatch_and_mixed),
            cmocka_unit_test(test_links),
            cmocka_unit_test(test_unreadable),
            cmocka_unit_test(test_same_bytes),
            cmocka_unit_test(test_windows),
            cmocka_unit_test(test_many),
            cmocka_unit_test(test_empty_and_text),
            cmocka_unit_test(test_real_machine),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
