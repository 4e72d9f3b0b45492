/* Running a program written a moment before while other threads start
 * children: fork() copies every descriptor into a child that holds them
 * until its exec, so a program whose file was open for writing at a fork of
 * another thread is "busy" (ETXTBSY) when run. The doctor does exactly that
 * (the compile proof's program copied from its cache and run while the
 * framework children start). cc_write_file and cc_spawn_run share a lock
 * around the write of an executable and around fork(): no run fails so. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include "platform/platform.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ROUNDS 400

struct forker {
        int stop; /* read and written with __atomic: set by the test when done */
        int spawned;
};

static void forker_main(void *arg)
{
        struct forker *f = arg;
        static const char *const argv[] = {"/bin/true", NULL};

        while (!__atomic_load_n(&f->stop, __ATOMIC_SEQ_CST)) {
                cc_spawn_opts o = {0};
                cc_spawn_result r;
                cc_error err = {0};

                o.argv = argv;
                if (cc_spawn_run(&o, &r, &err) == 0)
                        f->spawned++;
                cc_spawn_result_free(&r);
        }
}

static void test_run_while_forking(void **state)
{
        char *dir, path[512], *prog = NULL;
        size_t plen = 0;
        cc_error err = {0};
        struct forker f = {0};
        cc_thread *th = NULL;
        int i, busy = 0, other = 0;

        (void)state;
        if (access("/bin/true", X_OK) != 0)
                skip();
        assert_int_equal(cc_read_file("/bin/true", 16 << 20, &prog, &plen, &err), 0);
        dir = cc_make_temp_dir("cc-spawn", &err);
        assert_non_null(dir);
        assert_int_equal(cc_thread_start(forker_main, &f, &th, &err), 0);
        for (i = 0; i < ROUNDS; i++) {
                const char *argv[2];
                cc_spawn_opts o = {0};
                cc_spawn_result r;
                cc_error e = {0};

                snprintf(path, sizeof(path), "%s/prog%d", dir, i);
                assert_int_equal(cc_write_file(path, prog, plen, 1, &e), 0);
                argv[0] = path;
                argv[1] = NULL;
                o.argv = argv;
                if (cc_spawn_run(&o, &r, &e) < 0) {
                        if (strstr(e.msg, "busy") != NULL)
                                busy++;
                        else
                                other++;
                } else {
                        assert_true(r.exited);
                        assert_int_equal(r.exit_code, 0);
                }
                cc_spawn_result_free(&r);
        }
        __atomic_store_n(&f.stop, 1, __ATOMIC_SEQ_CST);
        cc_thread_join(th);
        assert_true(f.spawned > 0);
        if (busy || other)
                fail_msg("%d of %d runs failed as busy, %d otherwise (%d children started beside them)", busy, ROUNDS,
                         other, f.spawned);
        assert_int_equal(cc_remove_tree(dir, &err), 0);
        free(dir);
        free(prog);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_run_while_forking),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
