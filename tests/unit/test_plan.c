/* The install planner (src/lib/install/plan.c), pure: a source and a
 * target's entries in memory, the plan's operations and checks compared. */
#include "testutil.h"

#include "facts/views.h"
#include "formats/names.h"
#include "install/plan.h"
#include "platform/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char S_HDR[] = "cudnn-linux-x86_64-9.19.0.56_cuda13-archive/include/cudnn.h";
static char S_LIB[] = "cudnn-linux-x86_64-9.19.0.56_cuda13-archive/lib/libcudnn.so.9.19.0";
static char S_OPS[] = "cudnn-linux-x86_64-9.19.0.56_cuda13-archive/lib/libcudnn_ops.so.9.19.0";
static char S_LNK[] = "cudnn-linux-x86_64-9.19.0.56_cuda13-archive/lib/libcudnn.so.9";
static char S_LIC[] = "cudnn-linux-x86_64-9.19.0.56_cuda13-archive/LICENSE";
static char D_HDR[] = "include/cudnn.h", D_LIB[] = "lib/libcudnn.so.9.19.0", D_OPS[] = "lib/libcudnn_ops.so.9.19.0",
            D_LNK[] = "lib/libcudnn.so.9", L_TO[] = "libcudnn.so.9.19.0";
static char SRCPATH[] = "cudnn.tar.xz", VER[] = "9.19.0";

static void source(cc_source *s, cc_src_member m[5])
{
        memset(s, 0, sizeof(*s));
        memset(m, 0, 5 * sizeof(*m));
        m[0] = (cc_src_member){.name = S_HDR, .dest = D_HDR, .type = CC_SRC_FILE, .mode = 0644, .size = 100};
        m[1] = (cc_src_member){.name = S_LIB, .dest = D_LIB, .type = CC_SRC_FILE, .mode = 0755, .size = 1000};
        m[2] = (cc_src_member){.name = S_OPS, .dest = D_OPS, .type = CC_SRC_FILE, .mode = 0755, .size = 2000};
        m[3] = (cc_src_member){.name = S_LNK, .dest = D_LNK, .type = CC_SRC_LINK, .mode = 0777, .link = L_TO};
        m[4] = (cc_src_member){.name = S_LIC, .dest = NULL, .type = CC_SRC_FILE, .mode = 0644, .size = 10};
        s->path = SRCPATH;
        s->is_archive = 1;
        s->layout = "redist";
        s->system = "linux";
        s->machine = "x86_64";
        s->version = VER;
        s->major = 9;
        s->cuda_major = 13;
        s->m = m;
        s->n = 5;
        s->bytes = 3100;
}

static char E_INC[] = "include", E_L64[] = "lib64", E_OLD[] = "lib64/libcudnn.so.9.1.0",
            E_OLDL[] = "lib64/libcudnn.so.9", E_ADV[] = "lib64/libcudnn_adv.so.9.1.0",
            E_V8[] = "lib64/libcudnn.so.8.9.7", E_CUDART[] = "lib64/libcudart.so.13", E_OLDTO[] = "libcudnn.so.9.1.0";

/* A CUDA 13 toolkit with cuDNN 9.1.0 merged in, and an 8.x library. */
static void toolkit(cc_plan_in *in, cc_tgt_entry e[7])
{
        memset(in, 0, sizeof(*in));
        memset(e, 0, 7 * sizeof(*e));
        e[0] = (cc_tgt_entry){.path = E_INC, .type = CC_FT_DIR, .mode = 0755, .cudnn_major = -1};
        e[1] = (cc_tgt_entry){.path = E_L64, .type = CC_FT_DIR, .mode = 0755, .cudnn_major = -1};
        e[2] = (cc_tgt_entry){.path = E_OLD, .type = CC_FT_FILE, .mode = 0755, .size = 5, .cudnn_major = 9};
        e[3] = (cc_tgt_entry){.path = E_OLDL, .type = CC_FT_LINK, .link = E_OLDTO, .cudnn_major = 9};
        e[4] = (cc_tgt_entry){.path = E_ADV, .type = CC_FT_FILE, .mode = 0755, .size = 5, .cudnn_major = 9};
        e[5] = (cc_tgt_entry){.path = E_V8, .type = CC_FT_FILE, .mode = 0755, .size = 5, .cudnn_major = 8};
        e[6] = (cc_tgt_entry){.path = E_CUDART, .type = CC_FT_FILE, .mode = 0755, .size = 5, .cudnn_major = -1};
        in->target = "/usr/local/cuda-13.0";
        in->system = CC_SYS_LINUX;
        in->machine = "x86_64";
        in->toolkit = 1;
        in->toolkit_cuda_major = 13;
        in->lib_dir = "lib64";
        in->target_writable = 1;
        in->free_bytes = UINT64_MAX;
        in->entries = e;
        in->nentries = 7;
        in->manifest_id = "cudnn-9.19.0";
}

/* "op path" lines of the plan, one per operation. */
static char *ops_text(const cc_plan *p)
{
        cc_buf b = {0};
        cc_error err = {0};
        size_t i;

        assert_int_equal(cc_buf_puts(&b, "", &err), 0);
        for (i = 0; i < p->nops; i++)
                assert_int_equal(cc_buf_printf(&b, &err, "%s %s%s%s\n", cc_txn_kind_name(p->ops[i].kind),
                                               p->ops[i].path, p->ops[i].link ? " -> " : "",
                                               p->ops[i].link ? p->ops[i].link : ""),
                                 0);
        return cc_buf_steal(&b);
}

/* The verdict of check id whose reason contains `part` (NULL: any), or NULL. */
static const char *verdict(const cc_plan *p, const char *id, const char *part)
{
        cc_vw_install_plan v;
        size_t i;

        assert_int_equal(cc_vw_install_plan_read(p->doc, &v, NULL), 0);
        for (i = 0; i < cc_v_len(v.checks); i++) {
                cc_vw_plan_check c;

                cc_vw_plan_check_at(v.checks, i, &c, NULL);
                if (strcmp(c.id, id) == 0 && (part == NULL || strstr(c.reason, part) != NULL))
                        return c.verdict;
        }
        return NULL;
}

static void test_replaces_same_major(void **state)
{
        cc_source s;
        cc_src_member m[5];
        cc_plan_in in;
        cc_tgt_entry e[7];
        cc_plan p;
        cc_error err = {0};
        cc_vw_install_plan v;
        cc_vw_plan_summary sum;
        cc_vw_report rep = {0};
        char *t;

        (void)state;
        source(&s, m);
        toolkit(&in, e);
        assert_int_equal(cc_install_plan(&s, &in, &p, &err), 0);
        assert_false(p.stop);
        t = ops_text(&p);
        assert_string_equal(t, "place include/cudnn.h\n"
                               "place lib64/libcudnn.so.9.19.0\n"
                               "place lib64/libcudnn_ops.so.9.19.0\n"
                               "replace lib64/libcudnn.so.9 -> libcudnn.so.9.19.0\n"
                               "remove lib64/libcudnn.so.9.1.0\n"
                               "remove lib64/libcudnn_adv.so.9.1.0\n"
                               "mkdir .cudnnctl/installed\n"
                               "place .cudnnctl/installed/cudnn-9.19.0.json\n");
        free(t);
        /* the staged members, and their bytes; the license is not installed */
        assert_int_equal(p.member[1], 1);
        assert_int_equal(p.member[3], (size_t)-1);
        assert_int_equal(p.stage_bytes, 3100);
        assert_string_equal(verdict(&p, "same-major", NULL), "ok");
        assert_string_equal(verdict(&p, "cuda", NULL), "ok");
        assert_string_equal(verdict(&p, "target", NULL), "ok");
        /* the document reads back through its views without a problem */
        assert_int_equal(cc_vw_install_plan_read(p.doc, &v, &rep), 0);
        assert_int_equal(cc_vw_plan_summary_read(v.summary, &sum, &rep), 0);
        assert_int_equal(rep.count, 0);
        assert_int_equal(sum.place, 4);
        assert_int_equal(sum.remove, 2);
        assert_int_equal(cc_v_len(sum.other_majors), 1);
        assert_string_equal(cc_v_as_str(cc_v_at(sum.other_majors, 0)), "lib64/libcudnn.so.8.9.7");
        cc_vw_report_free(&rep);
        cc_plan_free(&p);
}

static void test_stops(void **state)
{
        cc_source s;
        cc_src_member m[5];
        cc_plan_in in;
        cc_tgt_entry e[7];
        cc_plan p;
        cc_error err = {0};

        (void)state;
        /* a CUDA 12 build into a CUDA 13 toolkit: stop; --force: warn */
        source(&s, m);
        toolkit(&in, e);
        s.cuda_major = 12;
        assert_int_equal(cc_install_plan(&s, &in, &p, &err), 0);
        assert_true(p.stop);
        assert_string_equal(verdict(&p, "cuda", "CUDA 12"), "stop");
        cc_plan_free(&p);
        in.force = 1;
        assert_int_equal(cc_install_plan(&s, &in, &p, &err), 0);
        assert_false(p.stop);
        assert_string_equal(verdict(&p, "cuda", "CUDA 12"), "warn");
        cc_plan_free(&p);

        /* a Windows release on Linux; an aarch64 build on x86_64 */
        source(&s, m);
        toolkit(&in, e);
        s.system = "windows";
        assert_int_equal(cc_install_plan(&s, &in, &p, &err), 0);
        assert_true(p.stop);
        assert_string_equal(verdict(&p, "system", NULL), "stop");
        cc_plan_free(&p);
        s.system = "linux";
        s.machine = "aarch64";
        assert_int_equal(cc_install_plan(&s, &in, &p, &err), 0);
        assert_string_equal(verdict(&p, "machine", NULL), "stop");
        cc_plan_free(&p);

        /* a world-writable target, and one too full: stop even with --force */
        source(&s, m);
        toolkit(&in, e);
        in.force = 1;
        in.target_world_writable = 1;
        in.free_bytes = 1000;
        assert_int_equal(cc_install_plan(&s, &in, &p, &err), 0);
        assert_true(p.stop);
        assert_string_equal(verdict(&p, "target", "every user"), "stop");
        assert_string_equal(verdict(&p, "space", NULL), "stop");
        cc_plan_free(&p);

        /* a source with a hostile member: stop, and no operation at all */
        source(&s, m);
        toolkit(&in, e);
        assert_int_equal(cc_strv_push(&s.stops, "evil/../../etc/passwd: leaves the archive", &err), 0);
        assert_int_equal(cc_install_plan(&s, &in, &p, &err), 0);
        assert_true(p.stop);
        assert_int_equal(p.nops, 0);
        assert_string_equal(verdict(&p, "source", "leaves the archive"), "stop");
        cc_strv_free(&s.stops);
        cc_plan_free(&p);
}

/* A file at a destination that is not cuDNN's, or one changed by hand:
 * stop; --force replaces it (backed up like the rest). A directory there
 * stops even with --force. */
static void test_foreign(void **state)
{
        cc_source s;
        cc_src_member m[5];
        cc_plan_in in;
        cc_tgt_entry e[8];
        cc_plan p;
        cc_error err = {0};
        static char hdr[] = "include/cudnn.h";
        char *t;

        (void)state;
        source(&s, m);
        toolkit(&in, e);
        /* the old release's library, changed by hand since cudnnctl placed it */
        e[2].owner = (char *)(uintptr_t) "cudnn-9.1.0";
        e[2].changed = 1;
        assert_int_equal(cc_install_plan(&s, &in, &p, &err), 0);
        assert_true(p.stop);
        assert_string_equal(verdict(&p, "foreign-files", "changed since"), "stop");
        cc_plan_free(&p);
        in.force = 1;
        assert_int_equal(cc_install_plan(&s, &in, &p, &err), 0);
        assert_false(p.stop);
        assert_string_equal(verdict(&p, "foreign-files", "changed since"), "warn");
        t = ops_text(&p);
        assert_non_null(strstr(t, "remove lib64/libcudnn.so.9.1.0\n"));
        free(t);
        cc_plan_free(&p);

        /* a directory where the header goes */
        toolkit(&in, e);
        in.force = 1;
        e[7] = (cc_tgt_entry){.path = hdr, .type = CC_FT_DIR, .cudnn_major = -1};
        in.nentries = 8;
        assert_int_equal(cc_install_plan(&s, &in, &p, &err), 0);
        assert_true(p.stop);
        assert_string_equal(verdict(&p, "foreign-files", "directory"), "stop");
        cc_plan_free(&p);
}

/* A prefix (not a toolkit) keeps lib/, and gets its directories made; a
 * Windows target gets no links. */
static void test_prefix_and_windows(void **state)
{
        cc_source s;
        cc_src_member m[5];
        cc_plan_in in;
        cc_plan p;
        cc_error err = {0};
        char *t;

        (void)state;
        source(&s, m);
        memset(&in, 0, sizeof(in));
        in.target = "/opt/cudnn/9.19.0-cuda13";
        in.system = CC_SYS_LINUX;
        in.target_writable = 1;
        in.free_bytes = UINT64_MAX;
        in.manifest_id = "cudnn-9.19.0";
        assert_int_equal(cc_install_plan(&s, &in, &p, &err), 0);
        t = ops_text(&p);
        assert_string_equal(t, "mkdir include\n"
                               "place include/cudnn.h\n"
                               "mkdir lib\n"
                               "place lib/libcudnn.so.9.19.0\n"
                               "place lib/libcudnn_ops.so.9.19.0\n"
                               "place lib/libcudnn.so.9 -> libcudnn.so.9.19.0\n"
                               "mkdir .cudnnctl/installed\n"
                               "place .cudnnctl/installed/cudnn-9.19.0.json\n");
        free(t);
        assert_null(verdict(&p, "cuda", NULL)); /* no toolkit to pair with */
        cc_plan_free(&p);

        in.system = CC_SYS_WINDOWS;
        s.system = "windows";
        assert_int_equal(cc_install_plan(&s, &in, &p, &err), 0);
        assert_string_equal(verdict(&p, "links", "no links"), "warn");
        t = ops_text(&p);
        assert_null(strstr(t, "->"));
        free(t);
        cc_plan_free(&p);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_replaces_same_major),
            cmocka_unit_test(test_stops),
            cmocka_unit_test(test_foreign),
            cmocka_unit_test(test_prefix_and_windows),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
