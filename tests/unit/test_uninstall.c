/* Tests of the uninstall-entry matching (src/lib/discover/uninstall.c):
 * which entries are NVIDIA's CUDA or cuDNN, their versions, hostile values
 * skipped, and which installation each entry explains, by InstallLocation
 * or, without one, by its version's standard directory. Pure functions: no
 * registry, so they run on Linux. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discover/uninstall.h"

static void test_kinds(void **state)
{
        static const struct {
                const char *name, *publisher, *version;
                int kind, major, minor;
        } cases[] = {
            {"NVIDIA CUDA Toolkit 13.1", "NVIDIA Corporation", "13.1", CC_UNINST_TOOLKIT, 13, 1},
            {"NVIDIA CUDA Toolkit 11.4", NULL, NULL, CC_UNINST_TOOLKIT, 11, 4},
            {"NVIDIA CUDA Development 12.1", "NVIDIA Corporation", "12.1", CC_UNINST_CUDA_PART, 12, 1},
            {"NVIDIA CUDA Runtime 11.8", "NVIDIA Corporation", NULL, CC_UNINST_CUDA_PART, 11, 8},
            {"NVIDIA CUDA Visual Studio Integration 12.1", "NVIDIA Corporation", NULL, CC_UNINST_CUDA_PART, 12, 1},
            {"NVIDIA CUDA Documentation 13.0", "NVIDIA Corporation", NULL, CC_UNINST_CUDA_PART, 13, 0},
            {"NVIDIA cuDNN 9.1", "NVIDIA Corporation", "9.1.0.70", CC_UNINST_CUDNN, 9, 1},
            /* the CUDA a cuDNN is for is not its version: DisplayVersion then */
            {"NVIDIA cuDNN for CUDA 12.4", "NVIDIA Corporation", "9.3.0.75", CC_UNINST_CUDNN, 9, 3},
            {"NVIDIA cuDNN v9.2 (CUDA 12)", "NVIDIA Corporation", NULL, CC_UNINST_CUDNN, 9, 2},
            /* a name without a version: DisplayVersion */
            {"NVIDIA CUDA Runtime", "NVIDIA Corporation", "11.4", CC_UNINST_CUDA_PART, 11, 4},
            /* the publisher alone says NVIDIA */
            {"CUDA Toolkit 12.6", "NVIDIA Corporation", NULL, CC_UNINST_TOOLKIT, 12, 6},
            {"cuDNN 8.9", "nvidia", NULL, CC_UNINST_CUDNN, 8, 9},
            /* a version that is no CUDA's or cuDNN's: unknown */
            {"NVIDIA CUDA thing", "NVIDIA Corporation", "471.41", CC_UNINST_CUDA_PART, -1, -1},
            /* NVIDIA's other entries and others' CUDA */
            {"NVIDIA Graphics Driver 471.41", "NVIDIA Corporation", "471.41", CC_UNINST_OTHER, -1, -1},
            {"NVIDIA Nsight Compute 2021.2.0", "NVIDIA Corporation", "21.2.0", CC_UNINST_OTHER, -1, -1},
            {"NVIDIA PhysX System Software 9.21.0713", "NVIDIA Corporation", NULL, CC_UNINST_OTHER, -1, -1},
            {"CUDA-Z 0.10", "Someone", NULL, CC_UNINST_OTHER, -1, -1},
            {"Mozilla Firefox (x64 en-US)", "Mozilla", "120.0", CC_UNINST_OTHER, -1, -1},
            {"", "NVIDIA Corporation", NULL, CC_UNINST_OTHER, -1, -1},
            {NULL, "NVIDIA Corporation", NULL, CC_UNINST_OTHER, -1, -1},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                int ma, mi, k = cc_uninst_kind_of(cases[i].name, cases[i].publisher, cases[i].version, &ma, &mi);

                if (k != cases[i].kind || ma != cases[i].major || mi != cases[i].minor)
                        fail_msg("%s: kind %d %d.%d, want %d %d.%d", cases[i].name ? cases[i].name : "(null)", k, ma,
                                 mi, cases[i].kind, cases[i].major, cases[i].minor);
        }
}

static void test_add_skips(void **state)
{
        cc_uentries es = {0};
        cc_error err = {0};
        const char *why;
        char *huge = malloc(40001);

        (void)state;
        assert_non_null(huge);
        memset(huge, 'N', 40000);
        huge[40000] = '\0';
        memcpy(huge, "NVIDIA cuDNN 9.1 ", 17);
        assert_int_equal(cc_uninst_add(&es, "HKLM\\X\\a", NULL, "9.1", "NVIDIA Corporation", "C:\\x", &why, &err), 0);
        assert_string_equal(why, "no DisplayName");
        assert_int_equal(cc_uninst_add(&es, "HKLM\\X\\b", "", NULL, NULL, NULL, &why, &err), 0);
        assert_int_equal(cc_uninst_add(&es, "HKLM\\X\\c", huge, NULL, "NVIDIA Corporation", NULL, &why, &err), 0);
        assert_int_equal(cc_uninst_add(&es, "HKLM\\X\\d", "NVIDIA cuDNN 9.1", NULL, NULL, huge, &why, &err), 0);
        assert_int_equal(cc_uninst_add(&es, "HKLM\\X\\e", "7-Zip 23.01", "23.01", "Igor Pavlov", "C:\\7z", &why, &err),
                         0);
        assert_int_equal(es.n, 0);
        /* kept: the location cleaned of quotes, blanks and trailing separators */
        assert_int_equal(cc_uninst_add(&es, "HKLM\\X\\f", "NVIDIA cuDNN 9.1", "9.1.0.70", "NVIDIA Corporation",
                                       " \"C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\\\\" ", &why, &err),
                         1);
        assert_int_equal(cc_uninst_add(&es, "HKLM\\X\\g", "NVIDIA CUDA Runtime 11.4", "", NULL, "   ", &why, &err), 1);
        assert_int_equal(cc_uninst_add(&es, "HKLM\\X\\h", "NVIDIA CUDA Toolkit 12.4", NULL, NULL, "C:\\", &why, &err),
                         1);
        assert_int_equal(es.n, 3);
        assert_string_equal(es.v[0].location, "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1");
        assert_string_equal(es.v[0].key, "HKLM\\X\\f");
        assert_int_equal(es.v[0].kind, CC_UNINST_CUDNN);
        assert_null(es.v[1].location);
        assert_null(es.v[1].version);
        assert_null(es.v[1].publisher);
        assert_string_equal(es.v[2].location, "C:\\");
        cc_uentries_free(&es);
        free(huge);
}

static void test_paths(void **state)
{
        (void)state;
        assert_true(
            cc_uninst_path_within("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1", "c:/program files/nvidia/cudnn/v9.1/"));
        assert_true(cc_uninst_path_within("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1", "C:\\Program Files\\NVIDIA"));
        assert_true(cc_uninst_path_within("C:\\a\\\\b\\", "C:\\a"));
        assert_false(cc_uninst_path_within("C:\\Program Files\\NVIDIA2", "C:\\Program Files\\NVIDIA"));
        assert_false(cc_uninst_path_within("C:\\Program Files", "C:\\Program Files\\NVIDIA"));
        assert_false(cc_uninst_path_within("C:\\x\\y", "C:\\")); /* a drive root explains nothing */
        assert_false(cc_uninst_path_within("C:\\x\\y", ""));
        assert_false(cc_uninst_path_within("D:\\x\\y", "C:\\x"));
        assert_false(cc_uninst_path_within("\\\\srv\\x\\y", "C:\\srv\\x"));
        assert_false(cc_uninst_path_within(NULL, "C:\\x"));
}

static void add(cc_uentries *es, const char *key, const char *name, const char *version, const char *location)
{
        cc_error err = {0};
        const char *why;

        if (cc_uninst_add(es, key, name, version, "NVIDIA Corporation", location, &why, &err) != 1)
                fail_msg("%s: not kept (%s)", name, why ? why : err.msg);
}

static int has(const cc_umatch *m, size_t n, size_t entry, size_t inst, int how)
{
        size_t i;

        for (i = 0; i < n; i++)
                if (m[i].entry == entry && m[i].inst == inst)
                        return m[i].how == how;
        return 0;
}

static void test_match(void **state)
{
        cc_uentries es = {0};
        cc_error err = {0};
        cc_umatch *m = NULL;
        size_t n = 0;
        const char *const prefixes[] = {
            "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.4",  /* 0: a toolkit with cuDNN copied in */
            "c:\\program files\\nvidia\\cudnn\\v9.1",                        /* 1: the cuDNN installer's */
            "D:\\tools\\cudnn",                                              /* 2: cuDNN put elsewhere */
            "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4",  /* 3: another toolkit */
            "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.40", /* 4: not v11.4 */
            "C:\\Windows\\System32",                                         /* 5 */
        };

        (void)state;
        add(&es, "k0", "NVIDIA CUDA Toolkit 11.4", "11.4", NULL);             /* standard path -> 0 */
        add(&es, "k1", "NVIDIA CUDA Runtime 11.4", NULL, "");                 /* empty location: standard path -> 0 */
        add(&es, "k2", "NVIDIA cuDNN 9.1", "9.1.0.70", NULL);                 /* standard path -> 1 */
        add(&es, "k3", "NVIDIA cuDNN 9.3", "9.3.0.75", "D:\\Tools\\cuDNN\\"); /* location -> 2 */
        add(&es, "k4", "NVIDIA CUDA Development 10.2", NULL, NULL);           /* no such toolkit */
        add(&es, "k5", "NVIDIA CUDA Runtime", NULL, NULL);                    /* no version: nothing */
        add(&es, "k6", "NVIDIA CUDA Toolkit 12.4", "12.4",                    /* the parent of every toolkit: */
            "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA");         /* 3 only (0, 4: other versions) */
        add(&es, "k7", "NVIDIA cuDNN 9.0", NULL, "C:\\Gone\\cudnn");          /* a location that matches none */
        add(&es, "k8", "NVIDIA CUDA Toolkit 11.4", NULL, "C:\\");             /* a drive root: none */
        assert_int_equal(es.n, 9);
        assert_int_equal(
            cc_uninst_match(es.v, es.n, prefixes, CC_ARRAY_LEN(prefixes), "C:\\Program Files\\", &m, &n, &err), 0);
        assert_int_equal(n, 5);
        assert_true(has(m, n, 0, 0, CC_UNINST_BY_STANDARD_PATH));
        assert_true(has(m, n, 1, 0, CC_UNINST_BY_STANDARD_PATH));
        assert_true(has(m, n, 2, 1, CC_UNINST_BY_STANDARD_PATH));
        assert_true(has(m, n, 3, 2, CC_UNINST_BY_LOCATION));
        assert_true(has(m, n, 6, 3, CC_UNINST_BY_LOCATION));
        free(m);

        /* the standard directory follows %ProgramFiles% */
        {
                const char *const other[] = {"E:\\Apps\\NVIDIA\\CUDNN\\v9.1"};

                assert_int_equal(cc_uninst_match(es.v, es.n, other, 1, "E:\\Apps", &m, &n, &err), 0);
                assert_int_equal(n, 1);
                assert_true(has(m, n, 2, 0, CC_UNINST_BY_STANDARD_PATH));
                free(m);
                assert_int_equal(cc_uninst_match(es.v, es.n, other, 1, NULL, &m, &n, &err), 0);
                assert_int_equal(n, 0);
                assert_null(m);
        }
        /* ranks: cuDNN, toolkit, Development, Runtime, other parts */
        assert_true(cc_uninst_rank(&es.v[2]) < cc_uninst_rank(&es.v[0]));
        assert_true(cc_uninst_rank(&es.v[0]) < cc_uninst_rank(&es.v[4]));
        assert_true(cc_uninst_rank(&es.v[4]) < cc_uninst_rank(&es.v[1]));
        {
                char *s = cc_uninst_standard_dir(&es.v[0], NULL, &err);

                assert_string_equal(s, "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.4");
                free(s);
                assert_null(cc_uninst_standard_dir(&es.v[5], NULL, &err));
        }
        cc_uentries_free(&es);
        /* no entries, no prefixes */
        assert_int_equal(cc_uninst_match(NULL, 0, prefixes, CC_ARRAY_LEN(prefixes), NULL, &m, &n, &err), 0);
        assert_int_equal(n, 0);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_kinds),
            cmocka_unit_test(test_add_skips),
            cmocka_unit_test(test_paths),
            cmocka_unit_test(test_match),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
