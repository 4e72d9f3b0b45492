/* SHA-256 (src/lib/formats/sha256.c): both compressions, the SHA-NI one
 * where this CPU has the extensions and the portable one, against the FIPS
 * 180-4 / NIST example vectors, against each other on pseudo-random data of
 * every length 0..300 and some large ones fed in random pieces from
 * unaligned addresses, and against sha256sum on generated files. Also that
 * CPUID's choice agrees with the kernel's flags, and that two threads making
 * the first call at once both get the right digests. */
#define _GNU_SOURCE
#include "testutil.h"

#include "formats/sha256.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* xorshift64*: the same data every run, no libc rand() state. */
static uint64_t next(uint64_t *s)
{
        *s ^= *s >> 12;
        *s ^= *s << 25;
        *s ^= *s >> 27;
        return *s * 0x2545F4914F6CDD1DULL;
}

static void fill(uint8_t *p, size_t n, uint64_t seed)
{
        size_t i;

        for (i = 0; i < n; i++)
                p[i] = (uint8_t)(next(&seed) >> 56);
}

static void hash(const void *p, size_t n, char hex[65])
{
        cc_sha256 h;

        cc_sha256_init(&h);
        cc_sha256_update(&h, p, n);
        cc_sha256_final_hex(&h, hex);
}

/* n bytes in pieces of 0..max bytes (zero-length pieces included). */
static void hash_split(const uint8_t *p, size_t n, size_t max, uint64_t *rng, char hex[65])
{
        cc_sha256 h;
        size_t at = 0;

        cc_sha256_init(&h);
        while (at < n) {
                size_t k = (size_t)(next(rng) % (max + 1));

                if (k > n - at)
                        k = n - at;
                cc_sha256_update(&h, p + at, k);
                at += k;
        }
        cc_sha256_final_hex(&h, hex);
}

/* The compressions this CPU has: the chosen one first, then the portable one if that was another. */
static int paths(const char *names[2])
{
        names[0] = cc_sha256_force_portable(0);
        if (strcmp(names[0], "portable") == 0)
                return 1;
        names[1] = "portable";
        return 2;
}

static void use(const char *name)
{
        assert_string_equal(cc_sha256_force_portable(strcmp(name, "portable") == 0), name);
}

/* ---- two threads on the very first call (first in main's list: the choice is not made yet) ---- */

struct job {
        uint8_t data[3000];
        char hex[65];
};

static void *thread_hash(void *arg)
{
        struct job *j = arg;
        cc_sha256 h;
        int r;

        for (r = 0; r < 200; r++) {
                cc_sha256_init(&h);
                cc_sha256_update(&h, j->data, sizeof(j->data));
                cc_sha256_final_hex(&h, j->hex);
        }
        return NULL;
}

static void test_threads_first_call(void **state)
{
        static struct job jobs[2];
        pthread_t t[2];
        char want[65];
        int i;

        (void)state;
        for (i = 0; i < 2; i++)
                fill(jobs[i].data, sizeof(jobs[i].data), 100 + (uint64_t)i);
        for (i = 0; i < 2; i++)
                assert_int_equal(pthread_create(&t[i], NULL, thread_hash, &jobs[i]), 0);
        for (i = 0; i < 2; i++)
                assert_int_equal(pthread_join(t[i], NULL), 0);
        use("portable");
        for (i = 0; i < 2; i++) {
                hash(jobs[i].data, sizeof(jobs[i].data), want);
                assert_string_equal(jobs[i].hex, want);
        }
        cc_sha256_force_portable(0);
}

/* ---- CPUID against the kernel ---- */

/* 1 if /proc/cpuinfo's flags name sha_ni, 0 if they do not, -1 if there is no /proc/cpuinfo. */
static int kernel_says_sha(void)
{
        FILE *f = fopen("/proc/cpuinfo", "r");
        char line[8192];
        int r = 0;

        if (f == NULL)
                return -1;
        while (fgets(line, sizeof(line), f) != NULL) {
                char *tok, *save = NULL;

                if (strncmp(line, "flags", 5) != 0)
                        continue;
                for (tok = strtok_r(line, " \t\n", &save); tok != NULL; tok = strtok_r(NULL, " \t\n", &save))
                        if (strcmp(tok, "sha_ni") == 0)
                                r = 1;
                break; /* the first CPU's flags */
        }
        fclose(f);
        return r;
}

static void test_choice(void **state)
{
        int k = kernel_says_sha();

        (void)state;
        assert_string_equal(cc_sha256_force_portable(1), "portable");
        if (k < 0) {
                cc_sha256_force_portable(0);
                skip(); /* nothing to compare the choice with */
        }
#if defined(__x86_64__)
        assert_string_equal(cc_sha256_force_portable(0), k ? "sha-ni" : "portable");
#else
        assert_string_equal(cc_sha256_force_portable(0), "portable");
#endif
        if (k == 0)
                print_message("no sha_ni on this CPU: only the portable path is tested\n");
}

/* ---- the standard's vectors ---- */

static void test_vectors(void **state)
{
        static const struct {
                const char *msg;
                const char *want;
        } v[] = {
            /* FIPS 180-4's examples (NIST CSRC, "SHA256.pdf"; also FIPS 180-2 appendix B) */
            {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
            {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
            {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrs"
             "tnopqrstu",
             "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
            {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        };
        static const char million_a[] = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
        const char *names[2];
        int np = paths(names), pi;

        (void)state;
        for (pi = 0; pi < np; pi++) {
                static char a[1000000];
                char hex[65];
                cc_sha256 h;
                size_t i;

                use(names[pi]);
                for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
                        hash(v[i].msg, strlen(v[i].msg), hex);
                        if (strcmp(hex, v[i].want) != 0)
                                fail_msg("%s: sha256('%s') = %s, want %s", names[pi], v[i].msg, hex, v[i].want);
                }
                /* the empty message through a NULL pointer and zero-length updates */
                cc_sha256_init(&h);
                cc_sha256_update(&h, NULL, 0);
                cc_sha256_update(&h, "", 0);
                cc_sha256_final_hex(&h, hex);
                assert_string_equal(hex, v[3].want);
                /* one million 'a': at once, and one byte at a time */
                memset(a, 'a', sizeof(a));
                hash(a, sizeof(a), hex);
                if (strcmp(hex, million_a) != 0)
                        fail_msg("%s: a million 'a' = %s", names[pi], hex);
                cc_sha256_init(&h);
                for (i = 0; i < sizeof(a); i++)
                        cc_sha256_update(&h, "a", 1);
                cc_sha256_final_hex(&h, hex);
                if (strcmp(hex, million_a) != 0)
                        fail_msg("%s: a million 'a' one at a time = %s", names[pi], hex);
        }
        cc_sha256_force_portable(0);
}

/* ---- the two paths against each other ---- */

static void test_paths_agree(void **state)
{
        static const size_t large[] = {4096, 65536 + 63, 1 << 20, (1 << 20) + 55, 3000001, 8 << 20};
        enum { BIG = 8 << 20 };
        uint8_t *buf = malloc(BIG + 16);
        uint64_t rng = 0x5eed5eed1234ULL;
        const char *names[2];
        int np = paths(names);
        size_t n, i;

        (void)state;
        assert_non_null(buf);
        fill(buf, BIG + 16, 42);
        if (np == 1)
                print_message("only the portable path here: comparing it with itself in pieces\n");
        /* every length 0..300 (the padding's edges at 55/56 and 64 three times over), at offsets 0..3 */
        for (n = 0; n <= 300; n++) {
                const uint8_t *p = buf + n % 4;
                char want[65], got[65];
                int pi;

                use("portable");
                hash(p, n, want);
                for (pi = 0; pi < np; pi++) {
                        use(names[pi]);
                        hash(p, n, got);
                        if (strcmp(got, want) != 0)
                                fail_msg("length %zu: %s %s, portable %s", n, names[pi], got, want);
                        hash_split(p, n, 70, &rng, got);
                        if (strcmp(got, want) != 0)
                                fail_msg("length %zu in pieces: %s %s, portable %s", n, names[pi], got, want);
                }
        }
        for (i = 0; i < sizeof(large) / sizeof(large[0]); i++) {
                const uint8_t *p = buf + 1 + i % 15;
                char want[65], got[65];
                int pi;

                n = large[i];
                use("portable");
                hash(p, n, want);
                for (pi = 0; pi < np; pi++) {
                        use(names[pi]);
                        hash(p, n, got);
                        if (strcmp(got, want) != 0)
                                fail_msg("length %zu: %s %s, portable %s", n, names[pi], got, want);
                        hash_split(p, n, 200000, &rng, got);
                        if (strcmp(got, want) != 0)
                                fail_msg("length %zu in pieces: %s %s, portable %s", n, names[pi], got, want);
                }
        }
        /* different data must give different digests (the comparison above is not of constants) */
        {
                char x[65], y[65];

                use(names[0]);
                hash(buf, 1000, x);
                buf[999] ^= 1;
                hash(buf, 1000, y);
                assert_string_not_equal(x, y);
        }
        cc_sha256_force_portable(0);
        free(buf);
}

/* ---- against sha256sum ---- */

static int have_sha256sum(void)
{
        const char *path = getenv("PATH");
        char *copy, *dir, *save = NULL;
        char exe[4096];
        int found = 0;

        if (path == NULL)
                return 0;
        copy = strdup(path);
        assert_non_null(copy);
        for (dir = strtok_r(copy, ":", &save); dir != NULL && !found; dir = strtok_r(NULL, ":", &save)) {
                snprintf(exe, sizeof(exe), "%s/sha256sum", *dir ? dir : ".");
                found = access(exe, X_OK) == 0;
        }
        free(copy);
        return found;
}

static void test_sha256sum(void **state)
{
        static const size_t lengths[] = {0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 65537, (1 << 20) + 7};
        char dir[] = "/tmp/cc-sha256-XXXXXX", path[64], cmd[128], line[256], err[256] = "";
        const char *names[2];
        int np = paths(names);
        uint8_t *data;
        size_t i;

        (void)state;
        if (!have_sha256sum()) {
                print_message("no sha256sum on PATH: skipped\n");
                skip();
        }
        assert_non_null(mkdtemp(dir));
        data = malloc((1 << 20) + 7);
        assert_non_null(data);
        /* a mismatch is reported after the files are gone */
        for (i = 0; i < sizeof(lengths) / sizeof(lengths[0]) && !err[0]; i++) {
                size_t n = lengths[i];
                char want[65], got[65];
                FILE *f;
                int pi;

                fill(data, n, 7 + i);
                snprintf(path, sizeof(path), "%s/f%zu", dir, i);
                f = fopen(path, "wb");
                assert_non_null(f);
                assert_int_equal(fwrite(data, 1, n, f), n);
                assert_int_equal(fclose(f), 0);
                snprintf(cmd, sizeof(cmd), "sha256sum '%s'", path);
                f = popen(cmd, "r");
                assert_non_null(f);
                line[0] = '\0';
                if (fgets(line, sizeof(line), f) == NULL)
                        line[0] = '\0';
                assert_int_equal(pclose(f), 0);
                assert_true(strlen(line) > 64 && line[64] == ' ');
                memcpy(want, line, 64);
                want[64] = '\0';
                for (pi = 0; pi < np && !err[0]; pi++) {
                        use(names[pi]);
                        hash(data, n, got);
                        if (strcmp(got, want) != 0)
                                snprintf(err, sizeof(err), "%zu bytes: %s %s, sha256sum %s", n, names[pi], got, want);
                }
                unlink(path);
        }
        cc_sha256_force_portable(0);
        free(data);
        assert_int_equal(rmdir(dir), 0);
        if (err[0])
                fail_msg("%s", err);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_threads_first_call), /* first: the path is not chosen yet */
            cmocka_unit_test(test_choice),
            cmocka_unit_test(test_vectors),
            cmocka_unit_test(test_paths_agree),
            cmocka_unit_test(test_sha256sum),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
