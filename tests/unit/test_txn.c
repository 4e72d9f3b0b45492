/* The transaction engine (src/lib/txn): a transaction's effect, staged
 * by the writer thread or spooled first; and the promise: killed
 * before any writing call, or failing with ENOSPC, EACCES or EIO at any
 * writing call, the target is afterwards byte for byte what it was (after
 * cc_txn_recover for a kill; at once for an error). */
#define _GNU_SOURCE
#include "testutil.h"

#include "formats/sha256.h"
#include "platform/platform.h"
#include "txn/txn.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void hex_of(const char *s, size_t n, char out[65])
{
        cc_sha256 h;

        cc_sha256_init(&h);
        cc_sha256_update(&h, s, n);
        cc_sha256_final_hex(&h, out);
}

/* ---- trees ---------------------------------------------------------------- */

static void put(const char *root, const char *rel, const char *text, int mode)
{
        char p[4096];
        int fd;

        snprintf(p, sizeof(p), "%s/%s", root, rel);
        fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
        close(fd);
        chmod(p, (mode_t)mode);
}

static void mkd(const char *root, const char *rel)
{
        char p[4096];

        snprintf(p, sizeof(p), "%s/%s", root, rel);
        assert_int_equal(mkdir(p, 0755), 0);
}

static void lnk(const char *root, const char *rel, const char *to)
{
        char p[4096];

        snprintf(p, sizeof(p), "%s/%s", root, rel);
        assert_int_equal(symlink(to, p), 0);
}

/* Every entry under dir (sorted): path, type, mode, and content or link
 * target. */
static void snap_dir(const char *root, const char *rel, cc_buf *out)
{
        char p[4096];
        struct dirent **ents;
        int n, i;
        cc_error err = {0};

        snprintf(p, sizeof(p), "%s%s%s", root, *rel ? "/" : "", rel);
        n = scandir(p, &ents, NULL, alphasort);
        assert_true(n >= 0);
        for (i = 0; i < n; i++) {
                char sub[4096], full[8200];
                struct stat st;

                if (strcmp(ents[i]->d_name, ".") == 0 || strcmp(ents[i]->d_name, "..") == 0) {
                        free(ents[i]);
                        continue;
                }
                snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", ents[i]->d_name);
                snprintf(full, sizeof(full), "%s/%s", root, sub);
                free(ents[i]);
                assert_int_equal(lstat(full, &st), 0);
                assert_int_equal(cc_buf_printf(out, &err, "%s %o ", sub, (unsigned)st.st_mode), 0);
                if (S_ISLNK(st.st_mode)) {
                        char t[4096];
                        ssize_t k = readlink(full, t, sizeof(t) - 1);

                        assert_true(k >= 0);
                        t[k] = '\0';
                        assert_int_equal(cc_buf_printf(out, &err, "-> %s\n", t), 0);
                } else if (S_ISDIR(st.st_mode)) {
                        assert_int_equal(cc_buf_puts(out, "dir\n", &err), 0);
                        snap_dir(root, sub, out);
                } else {
                        size_t size;
                        uint8_t *data = tu_read(full, &size);

                        assert_int_equal(cc_buf_append(out, data, size, &err), 0);
                        assert_int_equal(cc_buf_putc(out, '\n', &err), 0);
                        free(data);
                }
        }
        free(ents);
}

static char *snap(const char *root)
{
        cc_buf b = {0};
        cc_error err = {0};

        assert_int_equal(cc_buf_puts(&b, "", &err), 0);
        snap_dir(root, "", &b);
        return cc_buf_steal(&b);
}

/* A toolkit-like target: an old release to replace and remove. */
static char *make_target(void)
{
        char tmpl[] = "/tmp/cc-txn-XXXXXX";
        char *root = mkdtemp(tmpl);

        assert_non_null(root);
        root = strdup(root);
        mkd(root, "lib");
        put(root, "lib/libcudnn.so.9.1.0", "old library", 0755);
        lnk(root, "lib/libcudnn.so.9", "libcudnn.so.9.1.0");
        put(root, "lib/libcudnn_ops.so.9.1.0", "old ops", 0755);
        put(root, "lib/other.so", "not ours", 0644);
        return root;
}

#define NOPS 7
static const char *const CONTENT[NOPS] = {NULL, "header 9.19", "new library 9.19", NULL, NULL, NULL, "new ops"};

/* the plan's strings (the operations hold char *) */
static char s_0[] = "include";
static char s_1[] = "include/cudnn.h";
static char s_2[] = "lib/libcudnn.so.9.19.0";
static char s_3[] = "lib/libcudnn.so.9";
static char s_4[] = "libcudnn.so.9.19.0";
static char s_5[] = "lib/libcudnn.so.9.1.0";
static char s_6[] = "lib/libcudnn_ops.so.9.1.0";
static char s_7[] = "lib/libcudnn_ops.so.9.19.0";

static void plan(cc_txn_op ops[NOPS])
{
        memset(ops, 0, sizeof(cc_txn_op) * NOPS);
        ops[0] = (cc_txn_op){.kind = CC_TXN_MKDIR, .path = s_0, .mode = 0755};
        ops[1] = (cc_txn_op){.kind = CC_TXN_PLACE, .path = s_1, .mode = 0644, .size = 11};
        ops[2] = (cc_txn_op){.kind = CC_TXN_PLACE, .path = s_2, .mode = 0755, .size = 16};
        ops[3] = (cc_txn_op){.kind = CC_TXN_REPLACE, .path = s_3, .link = s_4};
        ops[4] = (cc_txn_op){.kind = CC_TXN_REMOVE, .path = s_5};
        ops[5] = (cc_txn_op){.kind = CC_TXN_REMOVE, .path = s_6};
        ops[6] = (cc_txn_op){.kind = CC_TXN_PLACE, .path = s_7, .mode = 0755, .size = 7};
        /* the plan knows one digest; the others are recorded when staged */
        hex_of("new ops", 7, ops[6].sha256);
}

/* The transaction's staging: each file written as operation i (spool 0),
 * or spooled before the plan under key 10 + i (spool 1, as an archive read
 * once is) with one more file no operation takes (it must go with the
 * transaction's directory). */
static int stage_all(cc_txn *t, int spool, cc_error *err)
{
        size_t i;

        for (i = 0; i < NOPS; i++) {
                if (CONTENT[i] == NULL)
                        continue;
                if ((spool ? cc_txn_spool_open(t, 10 + i, err) : cc_txn_stage_open(t, i, err)) < 0 ||
                    cc_txn_stage_write(t, CONTENT[i], strlen(CONTENT[i]), err) < 0 || cc_txn_stage_close(t, err) < 0)
                        return -1;
        }
        if (spool && (cc_txn_spool_open(t, 99, err) < 0 || cc_txn_stage_write(t, "license", 7, err) < 0 ||
                      cc_txn_stage_close(t, err) < 0))
                return -1;
        return 0;
}

/* Run the whole transaction; 0 or -1 with err. */
static int run_txn_mode(const char *root, int spool, cc_error *err)
{
        cc_txn_op ops[NOPS];
        cc_txn *t;
        size_t i;
        int undo_failed = 0;

        plan(ops);
        if (spool) {
                if (cc_txn_open(root, "install test", NULL, &t, err) < 0)
                        return -1;
                if (stage_all(t, 1, err) < 0 || cc_txn_plan(t, ops, NOPS, err) < 0) {
                        cc_txn_abort(t);
                        return -1;
                }
                for (i = 0; i < NOPS; i++)
                        if (CONTENT[i] != NULL && cc_txn_stage_spooled(t, i, 10 + i, err) < 0) {
                                cc_txn_abort(t);
                                return -1;
                        }
        } else {
                if (cc_txn_begin(root, ops, NOPS, "install test", NULL, &t, err) < 0)
                        return -1;
                if (stage_all(t, 0, err) < 0) {
                        cc_txn_abort(t);
                        return -1;
                }
        }
        if (cc_txn_apply_commit(t, &undo_failed, err) < 0) {
                assert_false(undo_failed);
                cc_txn_abort(t);
                return -1;
        }
        cc_txn_free(t);
        return 0;
}

static int run_txn(const char *root, cc_error *err)
{
        return run_txn_mode(root, 0, err);
}

/* Remove a tree make_target made, and free its path. */
static void rm_rf(char *root)
{
        cc_error err = {0};

        assert_int_equal(cc_remove_tree(root, &err), 0);
        free(root);
}

static void test_txn_applies(void **state)
{
        char *root = make_target(), *after, p[4096], t[256];
        cc_error err = {0};
        ssize_t k;

        (void)state;
        cc_fs_fault_set(NULL);
        assert_int_equal(run_txn(root, &err), 0);
        after = snap(root);
        assert_non_null(strstr(after, "include/cudnn.h 100644 header 9.19\n"));
        assert_non_null(strstr(after, "lib/libcudnn.so.9.19.0 100755 new library 9.19\n"));
        assert_null(strstr(after, "\nlib/libcudnn.so.9.1.0 "));
        assert_null(strstr(after, "\nlib/libcudnn_ops.so.9.1.0 "));
        assert_non_null(strstr(after, "lib/other.so 100644 not ours\n"));
        snprintf(p, sizeof(p), "%s/lib/libcudnn.so.9", root);
        k = readlink(p, t, sizeof(t) - 1);
        assert_true(k > 0);
        t[k] = '\0';
        assert_string_equal(t, "libcudnn.so.9.19.0");
        /* The committed transaction keeps its journal and the old files. */
        assert_non_null(strstr(after, ".cudnnctl/txn-"));
        assert_non_null(strstr(after, "/old/4 100755 old library\n"));
        free(after);
        rm_rf(root);
}

/* A digest the staged bytes do not match: the transaction stops before
 * apply, and the target is as it was. */
static void test_txn_bad_digest(void **state)
{
        char *root = make_target(), *before = snap(root), *after;
        cc_txn_op ops[NOPS];
        cc_txn *t;
        cc_error err = {0};

        (void)state;
        cc_fs_fault_set(NULL);
        plan(ops);
        assert_int_equal(cc_txn_begin(root, ops, NOPS, "x", NULL, &t, &err), 0);
        assert_int_equal(cc_txn_stage_open(t, 6, &err), 0);
        assert_int_equal(cc_txn_stage_write(t, "new opz", 7, &err), 0);
        /* checked on the writer thread: the failure comes at the wait */
        assert_int_equal(cc_txn_stage_close(t, &err), 0);
        assert_int_equal(cc_txn_stage_wait(t, &err), -1);
        assert_non_null(strstr(err.msg, "SHA-256"));
        cc_txn_abort(t);
        after = snap(root);
        assert_string_equal(before, after);
        free(before);
        free(after);
        rm_rf(root);
}

/* A link in the target where a parent should be: nothing is written
 * through it. */
static void test_txn_no_write_through_link(void **state)
{
        char *root = make_target(), *outside = make_target(), *before, *obefore, *after, *oafter;
        char p[4096];
        cc_error err = {0};

        (void)state;
        cc_fs_fault_set(NULL);
        snprintf(p, sizeof(p), "%s/include", outside);
        assert_int_equal(mkdir(p, 0755), 0);
        /* "include" is a link to a directory outside the target */
        lnk(root, "include", p);
        before = snap(root);
        obefore = snap(outside);
        assert_int_equal(run_txn(root, &err), -1);
        after = snap(root);
        oafter = snap(outside);
        assert_string_equal(before, after);
        assert_string_equal(obefore, oafter);
        free(before);
        free(after);
        free(obefore);
        free(oafter);
        rm_rf(root);
        rm_rf(outside);
}

/* Killed before writing call N, for every N: recover gives back the
 * target as it was; once N is past the last call, the run completes. */
static void crash_walk(int spool)
{
        char *root = make_target(), *before = snap(root), *done = NULL;
        long n, total = 0;
        cc_error err = {0};

        {
                /* the calls of a whole run */
                char *r2 = make_target();

                cc_fs_fault_set(NULL);
                assert_int_equal(run_txn_mode(r2, spool, &err), 0);
                total = cc_fs_fault_calls();
                rm_rf(r2);
        }
        assert_true(total > 20);
        for (n = 1; n <= total + 1; n++) {
                pid_t pid = fork();
                int status;
                char spec[32], *after;
                cc_value *rep = NULL;

                assert_true(pid >= 0);
                if (pid == 0) {
                        cc_error e2 = {0};

                        snprintf(spec, sizeof(spec), "kill:%ld", n);
                        cc_fs_fault_set(spec);
                        _exit(run_txn_mode(root, spool, &e2) == 0 ? 0 : 3);
                }
                assert_int_equal(waitpid(pid, &status, 0), pid);
                cc_fs_fault_set(NULL);
                if (n <= total) {
                        assert_true(WIFSIGNALED(status));
                        assert_int_equal(WTERMSIG(status), SIGKILL);
                        assert_int_equal(cc_txn_recover(root, &rep, &err), 0);
                        cc_v_free(rep);
                        after = snap(root);
                        if (strcmp(before, after) != 0)
                                fail_msg(
                                    "%s: killed before writing call %ld of %ld: the tree differs after recover:\n--- "
                                    "before\n%s--- after\n%s",
                                    spool ? "spooled" : "staged", n, total, before, after);
                        free(after);
                } else {
                        assert_true(WIFEXITED(status));
                        assert_int_equal(WEXITSTATUS(status), 0);
                        done = snap(root);
                        assert_non_null(strstr(done, "lib/libcudnn_ops.so.9.19.0 100755 new ops\n"));
                }
        }
        assert_non_null(done);
        free(done);
        free(before);
        rm_rf(root);
}

/* ENOSPC, EACCES and EIO at every writing call: the run fails with that
 * error and leaves the target as it was, without a recovery. */
static void errors_walk(int spool)
{
        static const char *const kinds[] = {"enospc", "eacces", "eio"};
        char *root = make_target(), *before = snap(root);
        long n, total;
        size_t k;
        cc_error err = {0};

        {
                char *r2 = make_target();

                cc_fs_fault_set(NULL);
                assert_int_equal(run_txn_mode(r2, spool, &err), 0);
                total = cc_fs_fault_calls();
                rm_rf(r2);
        }
        for (k = 0; k < CC_ARRAY_LEN(kinds); k++)
                for (n = 1; n <= total; n++) {
                        char spec[32], *after;

                        snprintf(spec, sizeof(spec), "%s:%ld", kinds[k], n);
                        cc_fs_fault_set(spec);
                        memset(&err, 0, sizeof(err));
                        if (run_txn_mode(root, spool, &err) == 0) {
                                /* the fault fell on a call after the commit
                                 * (the tidying): the run succeeded */
                                fail_msg("%s: the run succeeded", spec);
                        }
                        assert_non_null(strstr(err.msg, "CUDNNCTL_TEST_FAULT"));
                        cc_fs_fault_set(NULL);
                        after = snap(root);
                        if (strcmp(before, after) != 0)
                                fail_msg("%s%s of %ld: the tree differs:\n--- before\n%s--- after\n%s",
                                         spool ? "spooled: " : "", spec, total, before, after);
                        free(after);
                }
        free(before);
        rm_rf(root);
}

static void test_txn_crash_walk(void **state)
{
        (void)state;
        crash_walk(0);
}

static void test_txn_errors_walk(void **state)
{
        (void)state;
        errors_walk(0);
}

/* The same promise when the files are spooled before the plan. */
static void test_txn_spool_crash_walk(void **state)
{
        (void)state;
        crash_walk(1);
}

static void test_txn_spool_errors_walk(void **state)
{
        (void)state;
        errors_walk(1);
}

/* Spooled, then given up (a stop found after reading the source): the
 * target is as it was, .cudnnctl gone; a spooled file is adopted by one
 * operation only; its size must be the plan's. */
static void test_txn_spool_abort(void **state)
{
        char *root = make_target(), *before = snap(root), *after;
        cc_txn_op ops[NOPS];
        cc_txn *t;
        cc_error err = {0};
        char p[4096];
        struct stat st;

        (void)state;
        cc_fs_fault_set(NULL);
        assert_int_equal(cc_txn_open(root, "x", NULL, &t, &err), 0);
        assert_int_equal(stage_all(t, 1, &err), 0);
        assert_int_equal(cc_txn_stage_wait(t, &err), 0);
        cc_txn_abort(t);
        after = snap(root);
        assert_string_equal(before, after);
        free(after);
        snprintf(p, sizeof(p), "%s/.cudnnctl", root);
        assert_int_equal(lstat(p, &st), -1);

        plan(ops);
        assert_int_equal(cc_txn_open(root, "x", NULL, &t, &err), 0);
        assert_int_equal(stage_all(t, 1, &err), 0);
        assert_int_equal(cc_txn_stage_spooled(t, 1, 11, &err), -1); /* before the plan */
        assert_int_equal(cc_txn_plan(t, ops, NOPS, &err), 0);
        assert_int_equal(cc_txn_stage_spooled(t, 1, 11, &err), 0);
        assert_int_equal(cc_txn_stage_spooled(t, 2, 11, &err), -1); /* taken */
        assert_non_null(strstr(err.msg, "nothing was spooled"));
        assert_int_equal(cc_txn_stage_spooled(t, 2, 16, &err), -1); /* 7 bytes, the plan has 16 */
        assert_non_null(strstr(err.msg, "where the plan has 16"));
        assert_int_equal(cc_txn_spool_open(t, 5, &err), -1); /* after the plan */
        cc_txn_abort(t);
        after = snap(root);
        assert_string_equal(before, after);
        free(after);
        free(before);
        rm_rf(root);
}

/* Megabytes through the writer's buffers, in odd pieces: the digest is the
 * data's. */
static void test_txn_writer_big(void **state)
{
        char *root = make_target();
        static char s_big[] = "lib/big.bin";
        cc_txn_op op = {.kind = CC_TXN_PLACE, .path = s_big, .mode = 0644, .size = 0};
        size_t len = (size_t)9 * 1024 * 1024 + 12345, off = 0, k = 1;
        unsigned char *data = malloc(len);
        char want[65];
        cc_sha256 h;
        cc_txn *t;
        cc_error err = {0};
        int undo = 0;

        (void)state;
        assert_non_null(data);
        for (off = 0; off < len; off++)
                data[off] = (unsigned char)(off * 2654435761u >> 13);
        cc_sha256_init(&h);
        cc_sha256_update(&h, data, len);
        cc_sha256_final_hex(&h, want);
        op.size = len;
        cc_fs_fault_set(NULL);
        assert_int_equal(cc_txn_begin(root, &op, 1, "big", NULL, &t, &err), 0);
        assert_int_equal(cc_txn_stage_open(t, 0, &err), 0);
        for (off = 0; off < len; off += k, k = k * 3 + 7) {
                if (k > len - off)
                        k = len - off;
                assert_int_equal(cc_txn_stage_write(t, data + off, k, &err), 0);
        }
        assert_int_equal(cc_txn_stage_close(t, &err), 0);
        assert_int_equal(cc_txn_stage_wait(t, &err), 0);
        assert_string_equal(cc_txn_op_sha256(t, 0), want);
        assert_int_equal(cc_txn_apply_commit(t, &undo, &err), 0);
        cc_txn_free(t);
        {
                char p[4096];
                struct stat st;

                snprintf(p, sizeof(p), "%s/lib/big.bin", root);
                assert_int_equal(stat(p, &st), 0);
                assert_int_equal((size_t)st.st_size, len);
        }
        free(data);
        rm_rf(root);
}

/* A journal cut at any byte (a crash mid-write), or corrupted: recover
 * never crashes, and an undecodable journal is an error naming it. */
static void test_txn_journal_hostile(void **state)
{
        char *root = make_target();
        char p[4096], dir[4096];
        const char *journal = "cudnnctl-journal 1\nlabel x\nop 0 place 644 3 - a%2 -\nplan 1\nbegin 0\n";
        cc_value *rep = NULL;
        cc_error err = {0};
        size_t cut;

        (void)state;
        cc_fs_fault_set(NULL);
        for (cut = 0; cut <= strlen(journal); cut++) {
                char text[256];

                snprintf(dir, sizeof(dir), "%s/.cudnnctl", root);
                mkdir(dir, 0755);
                snprintf(dir, sizeof(dir), "%s/.cudnnctl/txn-1", root);
                assert_int_equal(mkdir(dir, 0700), 0);
                memcpy(text, journal, cut);
                text[cut] = '\0';
                snprintf(p, sizeof(p), ".cudnnctl/txn-1/journal");
                put(root, p, text, 0600);
                memset(&err, 0, sizeof(err));
                if (cc_txn_recover(root, &rep, &err) == 0) {
                        cc_v_free(rep);
                } else {
                        assert_non_null(strstr(err.msg, "journal"));
                        {
                                cc_error e3 = {0};
                                assert_int_equal(cc_remove_tree(dir, &e3), 0);
                        }
                }
        }
        /* an operation on a path out of the target */
        put(root, "x", "", 0644);
        snprintf(dir, sizeof(dir), "%s/.cudnnctl/txn-2", root);
        mkdir(dir, 0700);
        put(root, ".cudnnctl/txn-2/journal", "cudnnctl-journal 1\nop 0 place 644 0 - ../x -\nplan 1\nbegin 0\n", 0600);
        assert_int_equal(cc_txn_recover(root, &rep, &err), -1);
        assert_non_null(strstr(err.msg, "unsafe path"));
        snprintf(p, sizeof(p), "%s/x", root);
        assert_true(tu_exists(p));
        rm_rf(root);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_txn_applies),
            cmocka_unit_test(test_txn_bad_digest),
            cmocka_unit_test(test_txn_no_write_through_link),
            cmocka_unit_test(test_txn_crash_walk),
            cmocka_unit_test(test_txn_errors_walk),
            cmocka_unit_test(test_txn_spool_crash_walk),
            cmocka_unit_test(test_txn_spool_errors_walk),
            cmocka_unit_test(test_txn_spool_abort),
            cmocka_unit_test(test_txn_writer_big),
            cmocka_unit_test(test_txn_journal_hostile),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
