/* The transaction engine (src/lib/txn): SHA-256 against the standard's
 * vectors and sha256sum; a transaction's effect; and the promise: killed
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

static void test_sha256_vectors(void **state)
{
        char hex[65];
        cc_sha256 h;
        size_t i;
        static char million[1000];

        (void)state;
        hex_of("", 0, hex);
        assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        hex_of("abc", 3, hex);
        assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
        assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        /* one million 'a', fed in uneven pieces */
        memset(million, 'a', sizeof(million));
        cc_sha256_init(&h);
        for (i = 0; i < 1000000;) {
                size_t n = 1 + (i * 7) % 997;

                if (n > 1000000 - i)
                        n = 1000000 - i;
                cc_sha256_update(&h, million, n);
                i += n;
        }
        cc_sha256_final_hex(&h, hex);
        assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Against sha256sum on lengths around the block and padding edges. */
static void test_sha256_sum(void **state)
{
        char tmpl[] = "/tmp/cc-sha-XXXXXX", cmd[128], want[65], hex[65], buf[300];
        size_t n;
        int fd;

        (void)state;
        for (n = 0; n < sizeof(buf); n++)
                buf[n] = (char)(n * 31 + 7);
        for (n = 50; n < 300; n += 7) {
                FILE *p;

                fd = mkstemp(tmpl);
                assert_true(fd >= 0);
                assert_int_equal(write(fd, buf, n), (ssize_t)n);
                close(fd);
                snprintf(cmd, sizeof(cmd), "sha256sum %s", tmpl);
                p = popen(cmd, "r");
                assert_non_null(p);
                assert_int_equal(fscanf(p, "%64s", want), 1);
                pclose(p);
                unlink(tmpl);
                strcpy(tmpl, "/tmp/cc-sha-XXXXXX");
                hex_of(buf, n, hex);
                assert_string_equal(hex, want);
        }
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

/* Run the whole transaction; 0 or -1 with err. */
static int run_txn(const char *root, cc_error *err)
{
        cc_txn_op ops[NOPS];
        cc_txn *t;
        size_t i;
        int undo_failed = 0;

        plan(ops);
        if (cc_txn_begin(root, ops, NOPS, "install test", NULL, &t, err) < 0)
                return -1;
        for (i = 0; i < NOPS; i++) {
                if (CONTENT[i] == NULL)
                        continue;
                if (cc_txn_stage_open(t, i, err) < 0 ||
                    cc_txn_stage_write(t, CONTENT[i], strlen(CONTENT[i]), err) < 0 || cc_txn_stage_close(t, err) < 0) {
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
        assert_int_equal(cc_txn_stage_close(t, &err), -1);
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
static void test_txn_crash_walk(void **state)
{
        char *root = make_target(), *before = snap(root), *done = NULL;
        long n, total = 0;
        cc_error err = {0};

        (void)state;
        {
                /* the calls of a whole run */
                char *r2 = make_target();

                cc_fs_fault_set(NULL);
                assert_int_equal(run_txn(r2, &err), 0);
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
                        _exit(run_txn(root, &e2) == 0 ? 0 : 3);
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
                                fail_msg("killed before writing call %ld of %ld: the tree differs after recover:\n--- "
                                         "before\n%s--- after\n%s",
                                         n, total, before, after);
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
static void test_txn_errors_walk(void **state)
{
        static const char *const kinds[] = {"enospc", "eacces", "eio"};
        char *root = make_target(), *before = snap(root);
        long n, total;
        size_t k;
        cc_error err = {0};

        (void)state;
        {
                char *r2 = make_target();

                cc_fs_fault_set(NULL);
                assert_int_equal(run_txn(r2, &err), 0);
                total = cc_fs_fault_calls();
                rm_rf(r2);
        }
        for (k = 0; k < CC_ARRAY_LEN(kinds); k++)
                for (n = 1; n <= total; n++) {
                        char spec[32], *after;

                        snprintf(spec, sizeof(spec), "%s:%ld", kinds[k], n);
                        cc_fs_fault_set(spec);
                        memset(&err, 0, sizeof(err));
                        if (run_txn(root, &err) == 0) {
                                /* the fault fell on a call after the commit
                                 * (the tidying): the run succeeded */
                                fail_msg("%s: the run succeeded", spec);
                        }
                        assert_non_null(strstr(err.msg, "CUDNNCTL_TEST_FAULT"));
                        cc_fs_fault_set(NULL);
                        after = snap(root);
                        if (strcmp(before, after) != 0)
                                fail_msg("%s of %ld: the tree differs:\n--- before\n%s--- after\n%s", spec, total,
                                         before, after);
                        free(after);
                }
        free(before);
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
            cmocka_unit_test(test_sha256_vectors),
            cmocka_unit_test(test_sha256_sum),
            cmocka_unit_test(test_txn_applies),
            cmocka_unit_test(test_txn_bad_digest),
            cmocka_unit_test(test_txn_no_write_through_link),
            cmocka_unit_test(test_txn_crash_walk),
            cmocka_unit_test(test_txn_errors_walk),
            cmocka_unit_test(test_txn_journal_hostile),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
