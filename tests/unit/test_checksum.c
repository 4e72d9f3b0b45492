/* The install's checksum pre-check (src/lib/install/checksum.c): every
 * authority (a redistrib manifest, ARCHIVE.sha256, ARCHIVE.md5, the
 * knowledge base's digests, full and prefix), matching and not, in their
 * order; manifests of both shapes and broken ones; the verdict, its reason
 * and the plan's summary. Archives and the files beside them are made in a
 * temporary directory. */
#define _GNU_SOURCE
#include "testutil.h"

#include "facts/views.h"
#include "formats/md5.h"
#include "formats/sha256.h"
#include "install/checksum.h"
#include "kb/kb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAME "cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz"
#define CONTENT "not really an archive: the checksum check reads bytes only\n"

static char dir[64], archive[256], sha[65], md5[33];

/* ---- the scene --------------------------------------------------------- */

static void put(const char *path, const char *text)
{
        FILE *f = fopen(path, "wb");

        assert_non_null(f);
        assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
        fclose(f);
}

/* dir/NAME + suffix with text. */
static void beside(const char *suffix, const char *text)
{
        char p[300];

        snprintf(p, sizeof(p), "%s%s", archive, suffix);
        put(p, text);
}

static void unbeside(const char *suffix)
{
        char p[300];

        snprintf(p, sizeof(p), "%s%s", archive, suffix);
        unlink(p);
}

/* A fresh directory with the archive named name, and its digests. */
static int setup_named(const char *name)
{
        cc_sha256 s;
        cc_md5 m;

        strcpy(dir, "/tmp/cc-checksum-XXXXXX");
        if (mkdtemp(dir) == NULL)
                return -1;
        snprintf(archive, sizeof(archive), "%s/%s", dir, name);
        put(archive, CONTENT);
        cc_sha256_init(&s);
        cc_sha256_update(&s, CONTENT, strlen(CONTENT));
        cc_sha256_final_hex(&s, sha);
        cc_md5_init(&m);
        cc_md5_update(&m, CONTENT, strlen(CONTENT));
        cc_md5_final_hex(&m, md5);
        return 0;
}

static int setup(void **state)
{
        (void)state;
        return setup_named(NAME);
}

static int teardown(void **state)
{
        char cmd[128];

        (void)state;
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
        return system(cmd) == 0 ? 0 : -1;
}

/* A plan's document as cc_install_plan makes it, as far as the check
 * touches it: the checks and the summary's stop. */
static void plan_new(cc_plan *p)
{
        cc_error err = {0};
        cc_value *sum = cc_v_object(&err);

        memset(p, 0, sizeof(*p));
        p->doc = cc_v_object(&err);
        assert_non_null(p->doc);
        assert_int_equal(cc_v_set(p->doc, CC_K(install_plan, checks), cc_v_array(&err), &err), 0);
        assert_int_equal(cc_v_set_bool(sum, CC_K(plan_summary, stop), 0, &err), 0);
        assert_int_equal(cc_v_set(p->doc, CC_K(install_plan, summary), sum, &err), 0);
}

struct result {
        char verdict[8];
        char reason[1024];
};

/* Run the check (kb: that table; NULL: the compiled-in one) and return its
 * one "checksum" check; the plan's stop and the summary agree with it. */
static struct result check_kb(const char *manifest, const char *caller_sha, const cc_kb_table *kb, int use_kb)
{
        cc_checksum_in in = {.archive = archive, .is_archive = 1, .manifest = manifest, .sha256 = caller_sha};
        const cc_value *checks, *c;
        cc_error err = {0};
        struct result r;
        cc_plan p;

        plan_new(&p);
        if (use_kb)
                assert_int_equal(cc_checksum_check_kb(&p, &in, kb, &err), 0);
        else
                assert_int_equal(cc_checksum_check(&p, &in, &err), 0);
        checks = cc_v_get(p.doc, CC_K(install_plan, checks));
        assert_int_equal(cc_v_len(checks), 1);
        c = cc_v_at(checks, 0);
        assert_string_equal(cc_v_get_str(c, CC_K(plan_check, id)), "checksum");
        snprintf(r.verdict, sizeof(r.verdict), "%s", cc_v_get_str(c, CC_K(plan_check, verdict)));
        snprintf(r.reason, sizeof(r.reason), "%s", cc_v_get_str(c, CC_K(plan_check, reason)));
        assert_int_equal(p.stop, strcmp(r.verdict, "stop") == 0);
        assert_int_equal(cc_v_as_bool(cc_v_path(p.doc, "summary/stop")), p.stop);
        assert_null(strchr(r.reason, '\n'));
        cc_v_free(p.doc);
        return r;
}

/* Against an empty knowledge base (no row knows this archive). */
static struct result check(const char *manifest, const char *caller_sha)
{
        return check_kb(manifest, caller_sha, NULL, 1);
}

#define assert_verdict(r, v, text)                                                                                     \
        do {                                                                                                           \
                struct result r_ = (r);                                                                                \
                if (strcmp(r_.verdict, v) != 0 || strstr(r_.reason, text) == NULL)                                     \
                        fail_msg("got %s \"%s\", want %s \"...%s...\"", r_.verdict, r_.reason, v, text);               \
        } while (0)

/* ---- no authority, a directory ------------------------------------------ */

static void test_directory_and_none(void **state)
{
        cc_checksum_in in = {.archive = dir, .is_archive = 0};
        cc_error err = {0};
        cc_plan p;

        (void)state;
        plan_new(&p);
        assert_int_equal(cc_checksum_check_kb(&p, &in, NULL, &err), 0);
        assert_string_equal(cc_v_as_str(cc_v_path(p.doc, "checks/0/verdict")), "ok");
        assert_non_null(strstr(cc_v_as_str(cc_v_path(p.doc, "checks/0/reason")), "a directory"));
        cc_v_free(p.doc);
        assert_verdict(check(NULL, NULL), "warn", "no known digest for this archive");
}

/* ---- ARCHIVE.sha256 ------------------------------------------------------ */

static void test_sha256_file(void **state)
{
        char text[400], upper[65];
        size_t i;

        (void)state;
        beside(".sha256", sha);
        assert_verdict(check(NULL, NULL), "ok", "SHA-256 matches");
        assert_verdict(check(NULL, NULL), "ok", NAME ".sha256");
        for (i = 0; i < 65; i++)
                upper[i] = (char)(sha[i] >= 'a' && sha[i] <= 'f' ? sha[i] - 32 : sha[i]);
        snprintf(text, sizeof(text), "%s\n", upper);
        beside(".sha256", text);
        assert_verdict(check(NULL, NULL), "ok", "SHA-256 matches");
        /* as sha256sum writes it: text mode, binary mode, a path, CRLF */
        snprintf(text, sizeof(text), "%s  %s\n", sha, NAME);
        beside(".sha256", text);
        assert_verdict(check(NULL, NULL), "ok", "SHA-256 matches");
        snprintf(text, sizeof(text), "%s *downloads/%s\r\n", sha, NAME);
        beside(".sha256", text);
        assert_verdict(check(NULL, NULL), "ok", "SHA-256 matches");
        /* one line of several: the archive's */
        snprintf(text, sizeof(text), "# sums\n%064d  other.tar.xz\n\n%s  %s\n", 0, sha, NAME);
        beside(".sha256", text);
        assert_verdict(check(NULL, NULL), "ok", "SHA-256 matches");
}

static void test_sha256_file_refused(void **state)
{
        char text[400], want[1024];

        (void)state;
        /* another digest: a mismatch names both */
        beside(".sha256", "0000000000000000000000000000000000000000000000000000000000000000");
        snprintf(want, sizeof(want), "SHA-256 %s, but %s.sha256 says 0000", sha, archive);
        assert_verdict(check(NULL, NULL), "stop", want);
        assert_verdict(check(NULL, NULL), "stop", "a damaged or different download");
        /* a file named otherwise */
        snprintf(text, sizeof(text), "%s  cudnn-linux-x86_64-9.19.0.56_cuda12-archive.tar.xz\n", sha);
        beside(".sha256", text);
        assert_verdict(check(NULL, NULL), "stop",
                       "is for cudnn-linux-x86_64-9.19.0.56_cuda12-archive.tar.xz, not " NAME);
        snprintf(text, sizeof(text), "%s  a.tar.xz\n%s  b.tar.xz\n%s  c.tar.xz\n", sha, sha, sha);
        beside(".sha256", text);
        assert_verdict(check(NULL, NULL), "stop", "is for a.tar.xz and 2 other files, not " NAME);
        /* not a digest */
        beside(".sha256", "d41d8cd98f00b204e9800998ecf8427e\n"); /* an MD5 */
        assert_verdict(check(NULL, NULL), "stop", "line 1 is not a 64-digit SHA-256 digest");
        snprintf(text, sizeof(text), "%sX  %s\n", sha, NAME);
        beside(".sha256", text);
        assert_verdict(check(NULL, NULL), "stop", "line 1 is not a 64-digit SHA-256 digest");
        beside(".sha256", "\n# nothing\n");
        assert_verdict(check(NULL, NULL), "stop", "holds no SHA-256 digest");
        snprintf(text, sizeof(text), "%s\n%s\n", sha, sha);
        beside(".sha256", text);
        assert_verdict(check(NULL, NULL), "stop", "holds 2 digests and no file names");
        /* a name with a control character is shown escaped */
        snprintf(text, sizeof(text), "%s  evil\033[2J.tar.xz\n", sha);
        beside(".sha256", text);
        assert_verdict(check(NULL, NULL), "stop", "is for evil\\x1b[2J.tar.xz");
}

/* The caller's digest (computed while it read the archive) is what is
 * compared: the file is not read again. */
static void test_caller_digest(void **state)
{
        static const char fake[] = "1111111111111111111111111111111111111111111111111111111111111111";
        char want[1024];

        (void)state;
        beside(".sha256", fake);
        assert_verdict(check(NULL, fake), "ok", "SHA-256 matches");
        snprintf(want, sizeof(want), "SHA-256 %s, but %s.sha256 says %s", sha, archive, fake);
        assert_verdict(check(NULL, sha), "stop", want);
        assert_verdict(check(NULL, NULL), "stop", want);
        /* a caller's value that is no digest is not trusted: the file is read */
        beside(".sha256", sha);
        assert_verdict(check(NULL, "not-a-digest"), "ok", "SHA-256 matches");
}

/* ---- ARCHIVE.md5 ---------------------------------------------------------- */

static void test_md5_file(void **state)
{
        char text[400], want[1024];

        (void)state;
        beside(".md5", md5);
        assert_verdict(check(NULL, NULL), "ok", "MD5 matches");
        snprintf(text, sizeof(text), "%s  %s\n", md5, NAME);
        beside(".md5", text);
        snprintf(want, sizeof(want), "MD5 matches %s.md5", archive);
        assert_verdict(check(NULL, NULL), "ok", want);
        /* md5sum's escaped line (a backslash first; \\ in the name) */
        snprintf(text, sizeof(text), "%s  x\\\\y.tar.xz\n\\%s  %s\n", md5, md5, NAME);
        beside(".md5", text);
        assert_verdict(check(NULL, NULL), "ok", "MD5 matches");
        beside(".md5", "0cc175b9c0f1b6a831c399e269772661");
        snprintf(want, sizeof(want), "MD5 %s, but %s.md5 says 0cc175b9c0f1b6a831c399e269772661", md5, archive);
        assert_verdict(check(NULL, NULL), "stop", want);
        snprintf(text, sizeof(text), "%s  cudnn.tar.xz\n", md5);
        beside(".md5", text);
        assert_verdict(check(NULL, NULL), "stop", ".md5 is for cudnn.tar.xz, not " NAME);
        beside(".md5", "MD5 (" NAME ") = 0cc175b9c0f1b6a831c399e269772661\n");
        assert_verdict(check(NULL, NULL), "stop", "line 1 is not a 32-digit MD5 digest");
        beside(".md5", sha); /* a SHA-256 in a .md5 */
        assert_verdict(check(NULL, NULL), "stop", "line 1 is not a 32-digit MD5 digest");
}

/* .sha256 before .md5; either asked before the knowledge base, which a
 * name it knows is held to as well. */
static void test_order_of_files(void **state)
{
        char text[200];
        cc_kb_table *kb = NULL;
        cc_error err = {0};

        (void)state;
        beside(".sha256", sha);
        beside(".md5", "0cc175b9c0f1b6a831c399e269772661");
        assert_verdict(check(NULL, NULL), "ok", "SHA-256 matches");
        beside(".sha256", "0000000000000000000000000000000000000000000000000000000000000000");
        beside(".md5", md5);
        assert_verdict(check(NULL, NULL), "stop", "SHA-256");
        unbeside(".sha256");
        assert_verdict(check(NULL, NULL), "ok", "MD5 matches");
        snprintf(text, sizeof(text), "cudnn\tsha256\tprefix\tfile\tsource\n9.19.0.56\t%064d\tno\t%s\tSP\n", 0, NAME);
        assert_int_equal(cc_kb_parse("checksums", text, strlen(text), &kb, &err), 0);
        /* the .md5 beside it agrees, but the knowledge base knows the name with another digest: one stop */
        assert_verdict(check_kb(NULL, NULL, kb, 1), "stop",
                       NAME ".md5, but kb/checksums.tsv, NVIDIA's published digest for " NAME ", says SHA-256 0000");
        cc_kb_table_free(kb);
        snprintf(text, sizeof(text), "cudnn\tsha256\tprefix\tfile\tsource\n9.19.0.56\t%s\tno\t%s\tSP\n", sha, NAME);
        assert_int_equal(cc_kb_parse("checksums", text, strlen(text), &kb, &err), 0);
        assert_verdict(check_kb(NULL, NULL, kb, 1), "ok", NAME ".md5, and SHA-256 kb/checksums.tsv");
        cc_kb_table_free(kb);
        snprintf(text, sizeof(text), "cudnn\tsha256\tprefix\tfile\tsource\n9.19.0.56\t%064d\tno\t%s\tSP\n", 0, NAME);
        assert_int_equal(cc_kb_parse("checksums", text, strlen(text), &kb, &err), 0);
        unbeside(".md5");
        assert_verdict(check_kb(NULL, NULL, kb, 1), "stop", "kb/checksums.tsv says 0000");
        cc_kb_table_free(kb);
}

/* ---- the knowledge base ------------------------------------------------------ */

static cc_kb_table *kb_row(const char *file, const char *digest, const char *prefix)
{
        char text[512];
        cc_kb_table *kb = NULL;
        cc_error err = {0};

        snprintf(text, sizeof(text),
                 "# test rows\ncudnn\tcuda_build\tplatform\tfile\tsha256\tprefix\tsource\tnote\n"
                 "9.19.0.56\t13\tlinux-x86_64\tother.tar.xz\t%064d\tno\tSP\t-\n"
                 "9.19.0.56\t13\tlinux-x86_64\t%s\t%s\t%s\tSP\t-\n",
                 0, file, digest, prefix);
        assert_int_equal(cc_kb_parse("checksums", text, strlen(text), &kb, &err), 0);
        return kb;
}

static void test_kb(void **state)
{
        char pre[9], upper[65];
        cc_kb_table *kb;
        size_t i;

        (void)state;
        kb = kb_row(NAME, sha, "no");
        assert_verdict(check_kb(NULL, NULL, kb, 1), "ok", "SHA-256 matches kb/checksums.tsv");
        cc_kb_table_free(kb);
        for (i = 0; i < 65; i++)
                upper[i] = (char)(sha[i] >= 'a' && sha[i] <= 'f' ? sha[i] - 32 : sha[i]);
        kb = kb_row(NAME, upper, "no");
        assert_verdict(check_kb(NULL, NULL, kb, 1), "ok", "SHA-256 matches kb/checksums.tsv");
        cc_kb_table_free(kb);
        kb = kb_row(NAME, "455f15075493c82a1a8850aae6120f3fa6f7e457cbef56c1cb2e0a618b5b509e", "no");
        assert_verdict(check_kb(NULL, NULL, kb, 1), "stop",
                       "but kb/checksums.tsv says 455f15075493c82a1a8850aae6120f3fa6f7e457cbef56c1cb2e0a618b5b509e");
        cc_kb_table_free(kb);
        /* prefix rows: the start is compared */
        memcpy(pre, sha, 8);
        pre[8] = '\0';
        kb = kb_row(NAME, pre, "yes");
        assert_verdict(check_kb(NULL, NULL, kb, 1), "ok", "SHA-256 starts with the 8 digits kb/checksums.tsv knows");
        cc_kb_table_free(kb);
        pre[7] = pre[7] == '0' ? '1' : '0';
        kb = kb_row(NAME, pre, "yes");
        assert_verdict(check_kb(NULL, NULL, kb, 1), "stop", "but kb/checksums.tsv says");
        cc_kb_table_free(kb);
        /* a short digest not marked as a prefix, or none: nothing to hold it to */
        memcpy(pre, sha, 8);
        kb = kb_row(NAME, pre, "no");
        assert_verdict(check_kb(NULL, NULL, kb, 1), "warn", "no known digest");
        cc_kb_table_free(kb);
        kb = kb_row(NAME, "-", "no");
        assert_verdict(check_kb(NULL, NULL, kb, 1), "warn", "no known digest");
        cc_kb_table_free(kb);
}

/* The compiled-in kb/checksums.tsv: a full row and a prefix row of real
 * archives' names, whose digests this archive's bytes do not have. */
static void test_compiled_kb(void **state)
{
        (void)state;
        assert_int_equal(teardown(NULL), 0);
        assert_int_equal(setup_named("cudnn-linux-x86_64-9.17.0.29_cuda13-archive.tar.xz"), 0);
        assert_verdict(check_kb(NULL, NULL, NULL, 0), "stop",
                       "kb/checksums.tsv says 455f15075493c82a1a8850aae6120f3fa6f7e457cbef56c1cb2e0a618b5b509e");
        assert_int_equal(teardown(NULL), 0);
        assert_int_equal(setup_named("cudnn-11.3-windows-x64-v8.2.1.32.zip"), 0);
        assert_true(strncmp(sha, "5b9bf2dc", 8) != 0);
        assert_verdict(check_kb(NULL, NULL, NULL, 0), "stop", "kb/checksums.tsv says 5b9bf2dc");
        /* a .sha256 beside it that agrees with the archive does not make it the release of that name */
        beside(".sha256", sha);
        assert_verdict(check_kb(NULL, NULL, NULL, 0), "stop", "not the release of that name");
}

/* ---- a redistrib manifest ---------------------------------------------------- */

static char mpath[300];

/* A 9.x manifest (CUDA variants) listing the archive with size and digests
 * (NULL: leave it out), beside a cuda12 and an sbsa file. */
static const char *manifest9(long long size, const char *sha256, const char *md5sum)
{
        char text[4096], digests[200] = "";

        if (sha256 != NULL)
                snprintf(digests, sizeof(digests), "\"sha256\": \"%s\", ", sha256);
        if (md5sum != NULL)
                snprintf(digests + strlen(digests), sizeof(digests) - strlen(digests), "\"md5\": \"%s\", ", md5sum);
        snprintf(text, sizeof(text),
                 "{\"release_date\": \"2026-01-20\", \"release_label\": \"9.19.0\", \"release_product\": \"cudnn\",\n"
                 " \"cudnn\": {\"name\": \"NVIDIA CUDA Deep Neural Network library\", \"license\": \"cudnn\",\n"
                 "  \"license_path\": \"cudnn/LICENSE.txt\", \"version\": \"9.19.0.56\", \"cuda_variant\": [\"12\", "
                 "\"13\"],\n"
                 "  \"linux-x86_64\": {\n"
                 "   \"cuda12\": {\"relative_path\": "
                 "\"cudnn/linux-x86_64/cudnn-linux-x86_64-9.19.0.56_cuda12-archive.tar.xz\", \"sha256\": \"%064d\", "
                 "\"size\": \"5\"},\n"
                 "   \"cuda13\": {\"relative_path\": \"cudnn/linux-x86_64/" NAME "\", %s\"size\": \"%lld\"}},\n"
                 "  \"linux-sbsa\": {\"cuda13\": {\"relative_path\": "
                 "\"cudnn/linux-sbsa/cudnn-linux-sbsa-9.19.0.56_cuda13-archive.tar.xz\", \"sha256\": \"%064d\", "
                 "\"size\": \"5\"}}}}\n",
                 0, digests, size, 0);
        snprintf(mpath, sizeof(mpath), "%s/redistrib_9.19.0.json", dir);
        put(mpath, text);
        return mpath;
}

static void test_manifest_v9(void **state)
{
        long long size = (long long)strlen(CONTENT);
        char want[1024];

        (void)state;
        snprintf(want, sizeof(want),
                 "size and SHA-256 match %s/redistrib_9.19.0.json (cudnn 9.19.0.56 for linux-x86_64, cuda13)", dir);
        assert_verdict(check(manifest9(size, sha, md5), NULL), "ok", want);
        /* the caller's digest is used here too */
        assert_verdict(check(manifest9(size, sha, NULL), sha), "ok", "size and SHA-256 match");
        assert_verdict(
            check(manifest9(size, "1111111111111111111111111111111111111111111111111111111111111111", md5), NULL),
            "stop", "says 1111111111111111111111111111111111111111111111111111111111111111");
        /* the size first: a cut download is named as one */
        snprintf(want, sizeof(want), NAME " is %lld bytes, but %s says %lld: a cut, damaged or different download",
                 size, mpath, size + 1);
        assert_verdict(check(manifest9(size + 1, sha, md5), NULL), "stop", want);
        /* only an MD5: that is compared */
        assert_verdict(check(manifest9(size, NULL, md5), NULL), "ok", "size and MD5 match");
        assert_verdict(check(manifest9(size, NULL, "0cc175b9c0f1b6a831c399e269772661"), NULL), "stop",
                       "says 0cc175b9c0f1b6a831c399e269772661");
}

/* An 8.x manifest: one file per platform, no variant. */
static void test_manifest_v8(void **state)
{
        char text[2048], want[1024];

        (void)state;
        assert_int_equal(teardown(NULL), 0);
        assert_int_equal(setup_named("cudnn-linux-x86_64-8.5.0.96_cuda11-archive.tar.xz"), 0);
        snprintf(text, sizeof(text),
                 "{\"release_date\": \"2022-08-09\", \"release_label\": \"8.5.0\", \"release_product\": \"cudnn\",\n"
                 " \"cudnn\": {\"name\": \"NVIDIA CUDA Deep Neural Network library\", \"license\": \"cudnn\",\n"
                 "  \"version\": \"8.5.0.96\",\n"
                 "  \"linux-x86_64\": {\"relative_path\": "
                 "\"cudnn/linux-x86_64/cudnn-linux-x86_64-8.5.0.96_cuda11-archive.tar.xz\", \"sha256\": \"%s\", "
                 "\"md5\": \"%s\", \"size\": \"%zu\"},\n"
                 "  \"windows-x86_64\": {\"relative_path\": "
                 "\"cudnn/windows-x86_64/cudnn-windows-x86_64-8.5.0.96_cuda11-archive.zip\", \"sha256\": \"%064d\", "
                 "\"size\": \"5\"}}}",
                 sha, md5, strlen(CONTENT), 0);
        snprintf(mpath, sizeof(mpath), "%s/redistrib_8.5.0.json", dir);
        put(mpath, text);
        snprintf(want, sizeof(want), "size and SHA-256 match %s (cudnn 8.5.0.96 for linux-x86_64)", mpath);
        assert_verdict(check(mpath, NULL), "ok", want);
}

/* The manifest decides when given: a wrong .sha256 or kb row beside it is
 * not asked; a right one does not save an archive the manifest refuses. */
static void test_manifest_first(void **state)
{
        long long size = (long long)strlen(CONTENT);

        (void)state;
        beside(".sha256", "0000000000000000000000000000000000000000000000000000000000000000");
        assert_verdict(check(manifest9(size, sha, md5), NULL), "ok", "size and SHA-256 match");
        beside(".sha256", sha);
        beside(".md5", md5);
        assert_verdict(check(manifest9(size + 1, sha, md5), NULL), "stop", "a cut, damaged or different download");
}

static void test_manifest_not_listing(void **state)
{
        char text[8192], want[1024];
        size_t i, len;

        (void)state;
        /* the archive's platform from its name: what the manifest lists for it */
        put(archive, CONTENT);
        snprintf(mpath, sizeof(mpath), "%s/m.json", dir);
        snprintf(text, sizeof(text),
                 "{\"cudnn\": {\"version\": \"9.19.0.56\",\n"
                 "  \"linux-x86_64\": {\"cuda12\": {\"relative_path\": \"cudnn/linux-x86_64/a_cuda12.tar.xz\", "
                 "\"sha256\": \"%064d\", \"size\": \"5\"}},\n"
                 "  \"linux-sbsa\": {\"cuda13\": {\"relative_path\": \"cudnn/linux-sbsa/" NAME "x\", "
                 "\"sha256\": \"%064d\", \"size\": \"5\"}}}}",
                 0, 0);
        put(mpath, text);
        snprintf(want, sizeof(want),
                 "%s does not list " NAME " (for linux-x86_64 it lists a_cuda12.tar.xz): the archive is not the "
                 "one it describes",
                 mpath);
        assert_verdict(check(mpath, NULL), "stop", want);
        /* many files: six named, the rest counted */
        len = (size_t)snprintf(text, sizeof(text), "{\"cudnn\": {\"version\": \"9\", \"linux-x86_64\": {");
        for (i = 0; i < 9; i++)
                len += (size_t)snprintf(text + len, sizeof(text) - len,
                                        "%s\"v%zu\": {\"relative_path\": \"f%zu.tar.xz\", \"md5\": \"%032d\", "
                                        "\"size\": \"1\"}",
                                        i ? ", " : "", i, i, 0);
        snprintf(text + len, sizeof(text) - len, "}}}");
        put(mpath, text);
        assert_verdict(
            check(mpath, NULL), "stop",
            "(for linux-x86_64 it lists f0.tar.xz, f1.tar.xz, f2.tar.xz, f3.tar.xz, f4.tar.xz, f5.tar.xz and "
            "3 more)");
}

/* A name without a platform in it: the host's files, else all of them. */
static void test_manifest_not_listing_plain_name(void **state)
{
        char text[2048];

        (void)state;
        assert_int_equal(teardown(NULL), 0);
        assert_int_equal(setup_named("cudnn.tar.xz"), 0);
        snprintf(mpath, sizeof(mpath), "%s/m.json", dir);
        snprintf(text, sizeof(text),
                 "{\"cudnn\": {\"version\": \"9\", \"no-such-system\": {\"relative_path\": \"x/a.tar.xz\", "
                 "\"md5\": \"%032d\", \"size\": \"1\"}}}",
                 0);
        put(mpath, text);
        assert_verdict(check(mpath, NULL), "stop", "does not list cudnn.tar.xz (it lists a.tar.xz)");
}

static const struct {
        const char *name, *text, *reason;
} BROKEN[] = {
    {"truncated", "{\"cudnn\": {\"version\": \"9.19.0.56\", \"linux-x86_64\": {\"cuda13\": {\"relat",
     "not a redistrib manifest: JSON:"},
    {"not JSON", "<html>404</html>", "not a redistrib manifest: JSON:"},
    {"an array", "[{\"cudnn\": {}}]", "not a redistrib manifest: not a JSON object"},
    {"version a number", "{\"cudnn\": {\"version\": 9, \"linux-x86_64\": {}}}",
     "not a redistrib manifest: cudnn: \"version\" is not a string"},
    {"size a word",
     "{\"cudnn\": {\"version\": \"9\", \"linux-x86_64\": {\"relative_path\": \"a/" NAME "\", "
     "\"md5\": \"00000000000000000000000000000000\", \"size\": \"big\"}}}",
     "not a redistrib manifest: cudnn/linux-x86_64: \"size\" is not a byte count"},
    {"size huge",
     "{\"cudnn\": {\"version\": \"9\", \"linux-x86_64\": {\"relative_path\": \"a/" NAME "\", "
     "\"md5\": \"00000000000000000000000000000000\", \"size\": 1e400}}}",
     "not a redistrib manifest"},
    {"no digest",
     "{\"cudnn\": {\"version\": \"9\", \"linux-x86_64\": {\"cuda13\": {\"relative_path\": \"a/" NAME
     "\", \"size\": \"1\"}}}}",
     "not a redistrib manifest: cudnn/linux-x86_64/cuda13: no \"sha256\" or \"md5\""},
    {"no path", "{\"cudnn\": {\"version\": \"9\", \"linux-x86_64\": {\"cuda13\": {\"size\": \"1\"}}}}",
     "not a redistrib manifest: cudnn/linux-x86_64/cuda13: no \"relative_path\""},
};

static void test_manifest_broken(void **state)
{
        char want[1024];
        size_t i;

        (void)state;
        snprintf(mpath, sizeof(mpath), "%s/m.json", dir);
        for (i = 0; i < sizeof(BROKEN) / sizeof(BROKEN[0]); i++) {
                struct result r;

                put(mpath, BROKEN[i].text);
                r = check(mpath, NULL);
                snprintf(want, sizeof(want), "%s: %s", mpath, BROKEN[i].reason);
                if (strcmp(r.verdict, "stop") != 0 || strstr(r.reason, want) == NULL)
                        fail_msg("%s: got %s \"%s\", want stop \"%s\"", BROKEN[i].name, r.verdict, r.reason, want);
        }
        /* missing, a directory */
        snprintf(mpath, sizeof(mpath), "%s/none.json", dir);
        assert_verdict(check(mpath, NULL), "stop", "none.json");
        assert_verdict(check(dir, NULL), "stop", dir);
}

/* The archive itself unreadable while a digest waits for it. */
static void test_archive_unreadable(void **state)
{
        (void)state;
        beside(".sha256", sha);
        unlink(archive);
        assert_verdict(check(NULL, NULL), "stop", NAME ": cannot open");
        assert_verdict(check(manifest9(5, sha, NULL), NULL), "stop", NAME ": no such file");
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test_setup_teardown(test_directory_and_none, setup, teardown),
            cmocka_unit_test_setup_teardown(test_sha256_file, setup, teardown),
            cmocka_unit_test_setup_teardown(test_sha256_file_refused, setup, teardown),
            cmocka_unit_test_setup_teardown(test_caller_digest, setup, teardown),
            cmocka_unit_test_setup_teardown(test_md5_file, setup, teardown),
            cmocka_unit_test_setup_teardown(test_order_of_files, setup, teardown),
            cmocka_unit_test_setup_teardown(test_kb, setup, teardown),
            cmocka_unit_test_setup_teardown(test_compiled_kb, setup, teardown),
            cmocka_unit_test_setup_teardown(test_manifest_v9, setup, teardown),
            cmocka_unit_test_setup_teardown(test_manifest_v8, setup, teardown),
            cmocka_unit_test_setup_teardown(test_manifest_first, setup, teardown),
            cmocka_unit_test_setup_teardown(test_manifest_not_listing, setup, teardown),
            cmocka_unit_test_setup_teardown(test_manifest_not_listing_plain_name, setup, teardown),
            cmocka_unit_test_setup_teardown(test_manifest_broken, setup, teardown),
            cmocka_unit_test_setup_teardown(test_archive_unreadable, setup, teardown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
