/* File mappings that change under the reader: a file truncated or rewritten
 * while mapped (a library upgraded while inspect, list or doctor reads it)
 * must not kill the process with SIGBUS, and must be reported as changed.
 * Deterministic: the test truncates the file itself between mapping and
 * reading. Also the bounded directory listing. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "testutil.h"

#include "formats/elf.h"
#include "inspect/inspect.h"
#include "platform/platform.h"
#include "value.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A size the files are mapped at (smaller ones are read into memory). */
#define MAPPED ((size_t)128 << 10)

static char tmpdir[256];

static int setup(void **state)
{
        (void)state;
        snprintf(tmpdir, sizeof(tmpdir), "/tmp/cudnnctl-map-XXXXXX");
        return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
        cc_error err = {0};

        (void)state;
        return cc_remove_tree(tmpdir, &err);
}

static char *tmp_path(const char *name)
{
        char *p = malloc(strlen(tmpdir) + strlen(name) + 2);

        assert_non_null(p);
        sprintf(p, "%s/%s", tmpdir, name);
        return p;
}

/* A file of size bytes of value `fill`. */
static char *make_file(const char *name, size_t size, int fill)
{
        char *p = tmp_path(name);
        uint8_t *b = malloc(size ? size : 1);
        int fd;

        assert_non_null(b);
        memset(b, fill, size);
        fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, b, size), (ssize_t)size);
        close(fd);
        free(b);
        return p;
}

static void truncate_to(const char *path, off_t size)
{
        int fd = open(path, O_WRONLY);

        assert_true(fd >= 0);
        assert_int_equal(ftruncate(fd, size), 0);
        close(fd);
}

/* Runs in a child: a SIGBUS outside every mapping of ours (a mapping the
 * child made itself) reaches the handler that was there before, or the
 * default action. */
static void own_sigbus(void)
{
        char *p = make_file("own", 3 * 4096, 1);
        int fd = open(p, O_RDONLY);
        volatile const uint8_t *m;

        m = mmap(NULL, 3 * 4096, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED)
                _exit(90);
        truncate_to(p, 0);
        (void)m[2 * 4096]; /* SIGBUS, not in any cc_map */
        _exit(91);
}

static void on_user_sigbus(int sig)
{
        (void)sig;
        _exit(42);
}

static void test_chain_default(void **state)
{
        pid_t pid;
        int st;

        (void)state;
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
                cc_map m;
                cc_error err = {0};
                char *p = make_file("guard1", MAPPED, 2);

                signal(SIGBUS, SIG_DFL);             /* not the test harness's handler */
                if (cc_map_file(p, 0, &m, &err) < 0) /* installs the guard */
                        _exit(92);
                own_sigbus();
        }
        assert_int_equal(waitpid(pid, &st, 0), pid);
        assert_true(WIFSIGNALED(st));
        assert_int_equal(WTERMSIG(st), SIGBUS);
}

static void test_chain_user(void **state)
{
        pid_t pid;
        int st;

        (void)state;
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
                struct sigaction sa;
                cc_map m;
                cc_error err = {0};
                char *p = make_file("guard2", MAPPED, 2);

                memset(&sa, 0, sizeof(sa));
                sa.sa_handler = on_user_sigbus;
                sigemptyset(&sa.sa_mask);
                sigaction(SIGBUS, &sa, NULL);
                if (cc_map_file(p, 0, &m, &err) < 0) /* installs the guard over the user's handler */
                        _exit(92);
                own_sigbus();
        }
        assert_int_equal(waitpid(pid, &st, 0), pid);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 42);
}

static void test_truncated_while_mapped(void **state)
{
        const size_t size = (size_t)1 << 20;
        char *p = make_file("big", size, 0xAB);
        cc_map m;
        cc_error err = {0};
        uint64_t sum = 0;
        size_t i;

        (void)state;
        assert_int_equal(cc_map_file(p, 0, &m, &err), 0);
        assert_int_equal(m.size, size);
        assert_true(m.ino != 0);
        assert_int_equal(cc_map_changed(&m), 0);
        assert_int_equal(cc_map_check(&m, p, &err), 0);
        truncate_to(p, 5000);
        /* every byte: without the guard the first read past page 2 is SIGBUS */
        for (i = 0; i < m.size; i++)
                sum += m.data[i];
        assert_int_equal(m.data[0], 0xAB);
        assert_int_equal(m.data[4999], 0xAB);
        assert_int_equal(m.data[5000], 0);
        assert_int_equal(m.data[size - 1], 0);
        assert_int_equal(sum, (uint64_t)5000 * 0xAB);
        assert_int_equal(cc_map_changed(&m), 1);
        assert_int_equal(cc_map_check(&m, p, &err), -1);
        assert_non_null(strstr(err.msg, "changed while read"));
        assert_non_null(strstr(err.msg, p));
        cc_unmap(&m);
        free(p);
}

/* The same in a thread of cc_thread_start (the doctor reads libraries in
 * its workers): the thread keeps every asynchronous signal for the main
 * thread but takes its own faults, so the guard's handler runs there too
 * instead of the fault killing the process (a blocked SIGBUS from a fault
 * is fatal whatever the handler). */
struct sum_job {
        const cc_map *m;
        uint64_t sum;
};

static void sum_main(void *arg)
{
        struct sum_job *j = arg;
        size_t i;

        for (i = 0; i < j->m->size; i++)
                j->sum += j->m->data[i];
}

static void test_truncated_while_mapped_in_thread(void **state)
{
        pid_t pid;
        int st;

        (void)state;
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
                char *p = make_file("bigthread", (size_t)1 << 20, 0xAB);
                cc_map m;
                cc_error err = {0};
                struct sum_job j = {&m, 0};
                cc_thread *th = NULL;

                if (cc_map_file(p, 0, &m, &err) < 0)
                        _exit(90);
                truncate_to(p, 5000);
                if (cc_thread_start(sum_main, &j, &th, &err) < 0)
                        _exit(91);
                cc_thread_join(th);
                if (j.sum != (uint64_t)5000 * 0xAB)
                        _exit(92);
                if (!cc_map_changed(&m))
                        _exit(93);
                cc_unmap(&m);
                free(p);
                _exit(0);
        }
        assert_int_equal(waitpid(pid, &st, 0), pid);
        if (WIFSIGNALED(st))
                fail_msg("the reading thread was killed by signal %d", WTERMSIG(st));
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 0);
}

static void test_truncated_while_parsed(void **state)
{
        char *src = tu_fixture("elf/cudnn9/lib/libcudnn.so.9.1.0");
        char *p = tmp_path("libcudnn.so.9.1.0");
        size_t n;
        uint8_t *bytes = tu_read(src, &n);
        cc_map m;
        cc_error err = {0};
        cc_elf *e = NULL;
        cc_value *obj;
        int fd;

        (void)state;
        fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0755);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, bytes, n), (ssize_t)n);
        if (n < MAPPED) /* zeros after it: large enough to be mapped */
                assert_int_equal(ftruncate(fd, (off_t)MAPPED), 0);
        close(fd);
        assert_int_equal(cc_map_file(p, 0, &m, &err), 0);
        assert_true(m.size >= MAPPED);
        truncate_to(p, 0); /* cp over it: O_TRUNC first */
        /* the parsers run over the vanished pages to their end */
        (void)cc_elf_parse(m.data, m.size, &e, &err);
        cc_elf_free(e);
        obj = cc_v_object(&err);
        assert_non_null(obj);
        assert_int_equal(cc_inspect_bytes("libcudnn.so.9.1.0", m.data, m.size, 0, obj, &err), 0);
        cc_v_free(obj);
        assert_int_equal(cc_map_changed(&m), 1);
        cc_unmap(&m);
        free(bytes);
        free(src);
        free(p);
}

/* Three bytes of path written again in place, and its time set to one that
 * differs whatever the file system's clock granularity: the size stays. */
static void rewrite_same_size(const char *path)
{
        struct timespec ts[2];
        int fd = open(path, O_WRONLY);

        assert_true(fd >= 0);
        assert_int_equal(pwrite(fd, "xyz", 3, 100), 3);
        ts[0].tv_sec = ts[1].tv_sec = 1000000000;
        ts[0].tv_nsec = ts[1].tv_nsec = 0;
        assert_int_equal(futimens(fd, ts), 0);
        close(fd);
}

static void test_rewritten_same_size(void **state)
{
        char *p = make_file("same", 10000, 1);
        cc_map m;
        cc_error err = {0};

        (void)state;
        assert_int_equal(cc_map_file(p, 0, &m, &err), 0);
        rewrite_same_size(p);
        assert_int_equal(cc_map_changed(&m), 1);
        cc_unmap(&m);
        free(p);
}

/* A small file is read into memory, not mapped: what was read stays as it
 * was, and a rewrite or a truncation is still reported. */
static void test_small_read(void **state)
{
        char *p = make_file("small", 5000, 7);
        cc_map m;
        cc_error err = {0};

        (void)state;
        assert_int_equal(cc_map_file(p, 0, &m, &err), 0);
        assert_int_equal(m.size, 5000);
        assert_true(m.ino != 0);
        assert_int_equal(m.data[0], 7);
        assert_int_equal(m.data[4999], 7);
        assert_int_equal(cc_map_changed(&m), 0);
        assert_int_equal(cc_map_check(&m, p, &err), 0);
        truncate_to(p, 10);
        assert_int_equal(m.data[4999], 7); /* a copy: no zero pages, no SIGBUS */
        assert_int_equal(cc_map_changed(&m), 1);
        assert_int_equal(cc_map_check(&m, p, &err), -1);
        assert_non_null(strstr(err.msg, "changed while read"));
        cc_unmap(&m);
        /* the same size written again with another time */
        assert_int_equal(truncate(p, 5000), 0);
        assert_int_equal(cc_map_file(p, 0, &m, &err), 0);
        rewrite_same_size(p);
        assert_int_equal(cc_map_changed(&m), 1);
        cc_unmap(&m);
        free(p);
}

/* cc_read_head: the start of a file, all of a short one, nothing of an
 * empty one; what cc_map_file refuses it refuses. */
static void test_read_head(void **state)
{
        char *p = make_file("head", 100, 3), *e = make_file("empty", 0, 0), *fifo = tmp_path("fifo");
        uint8_t buf[64];
        size_t got = 99;
        cc_error err = {0};

        (void)state;
        assert_int_equal(cc_read_head(p, buf, sizeof(buf), &got, &err), 0);
        assert_int_equal(got, 64);
        assert_int_equal(buf[0], 3);
        assert_int_equal(buf[63], 3);
        truncate_to(p, 10);
        memset(buf, 0, sizeof(buf));
        assert_int_equal(cc_read_head(p, buf, sizeof(buf), &got, &err), 0);
        assert_int_equal(got, 10);
        assert_int_equal(buf[9], 3);
        assert_int_equal(buf[10], 0);
        assert_int_equal(cc_read_head(e, buf, sizeof(buf), &got, &err), 0);
        assert_int_equal(got, 0);
        assert_int_equal(cc_read_head(tmpdir, buf, sizeof(buf), &got, &err), -1);
        assert_non_null(strstr(err.msg, "is a directory"));
        assert_int_equal(mkfifo(fifo, 0600), 0);
        assert_int_equal(cc_read_head(fifo, buf, sizeof(buf), &got, &err), -1); /* no hang */
        assert_int_equal(err.code, CC_ERR_UNSUPPORTED);
        assert_int_equal(cc_read_head("/nonexistent/x", buf, sizeof(buf), &got, &err), -1);
        assert_non_null(strstr(err.msg, "cannot open"));
        free(p);
        free(e);
        free(fifo);
}

/* More mappings at once than the guard's table holds: the rest are read
 * into memory, and still report a change. */
static void test_many_maps(void **state)
{
        enum { N = 80 };
        cc_map m[N];
        char *paths[N];
        cc_error err = {0};
        char name[32];
        size_t i;

        (void)state;
        for (i = 0; i < N; i++) {
                snprintf(name, sizeof(name), "many%zu", i);
                paths[i] = make_file(name, MAPPED, (int)(i & 0x7f) + 1);
                assert_int_equal(cc_map_file(paths[i], 0, &m[i], &err), 0);
        }
        for (i = 0; i < N; i++) {
                assert_int_equal(m[i].data[0], (int)(i & 0x7f) + 1);
                assert_int_equal(m[i].data[MAPPED - 1], (int)(i & 0x7f) + 1);
        }
        truncate_to(paths[N - 1], 10);
        truncate_to(paths[0], 10);
        assert_int_equal(m[N - 1].data[MAPPED - 1], (int)((N - 1) & 0x7f) + 1); /* a copy in memory */
        assert_int_equal(m[0].data[MAPPED - 1], 0);                             /* a guarded mapping */
        assert_int_equal(cc_map_changed(&m[N - 1]), 1);
        assert_int_equal(cc_map_changed(&m[0]), 1);
        assert_int_equal(cc_map_changed(&m[1]), 0);
        for (i = 0; i < N; i++) {
                cc_unmap(&m[i]);
                free(paths[i]);
        }
}

static void test_list_dir_some(void **state)
{
        char *d = tmp_path("dir");
        cc_strv names = {0};
        cc_error err = {0};
        char name[32];
        int more = -1, i;

        (void)state;
        assert_int_equal(mkdir(d, 0755), 0);
        for (i = 0; i < 50; i++) {
                char *p;
                int fd;

                snprintf(name, sizeof(name), "dir/f%02d", i);
                p = tmp_path(name);
                fd = open(p, O_WRONLY | O_CREAT, 0644);
                assert_true(fd >= 0);
                close(fd);
                free(p);
        }
        assert_int_equal(cc_list_dir_some(d, 10, &names, &more, &err), 0);
        assert_int_equal(names.n, 10);
        assert_int_equal(more, 1);
        cc_strv_free(&names);
        assert_int_equal(cc_list_dir_some(d, 50, &names, &more, &err), 0);
        assert_int_equal(names.n, 50);
        assert_int_equal(more, 0);
        assert_string_equal(names.v[0], "f00");
        cc_strv_free(&names);
        assert_int_equal(cc_list_dir(d, 10, &names, &err), -1);
        assert_int_equal(err.code, CC_ERR_LIMIT);
        assert_int_equal(names.n, 0);
        free(d);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            /* in children: a fault that is not in a mapping of ours */
            cmocka_unit_test(test_chain_default),
            cmocka_unit_test(test_chain_user),
            cmocka_unit_test(test_truncated_while_mapped),
            cmocka_unit_test(test_truncated_while_mapped_in_thread),
            cmocka_unit_test(test_truncated_while_parsed),
            cmocka_unit_test(test_rewritten_same_size),
            cmocka_unit_test(test_many_maps),
            cmocka_unit_test(test_small_read),
            cmocka_unit_test(test_read_head),
            cmocka_unit_test(test_list_dir_some),
        };

        return cmocka_run_group_tests(tests, setup, teardown);
}
