/* The extraction model of archive members (inspect/archmodel.h), without
 * libarchive: member lists -> which members are unsafe, with which problems
 * and reasons, judged against the tree the earlier members built. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/archmodel.h"

struct mcase {
        const char *name;
        int type;
        const char *link;
        unsigned mode;                /* 0: not set */
        unsigned want;                /* problem bits, exactly */
        const char *needle, *needle2; /* in the reason */
};

#define F CC_AM_FILE
#define D CC_AM_DIR
#define S CC_AM_SYMLINK
#define H CC_AM_HARDLINK

#define P_ESC CC_AM_P_ESCAPE
#define P_THR CC_AM_P_THROUGH_LINK
#define P_LESC CC_AM_P_LINK_ESCAPE
#define P_LOOP CC_AM_P_LINK_LOOP
#define P_HL CC_AM_P_HARDLINK
#define P_DUP CC_AM_P_DUPLICATE
#define P_CASE CC_AM_P_CASE
#define P_NAME CC_AM_P_NAME

struct scase {
        const char *what;
        struct mcase m[8];
};

static const struct scase cases[] = {
    {"a cuDNN archive: symbolic link chain inside, nothing unsafe",
     {{"cuda/", D, NULL, 0755, 0, NULL, NULL},
      {"cuda/lib64/libcudnn.so", S, "libcudnn.so.9", 0777, 0, NULL, NULL},
      {"cuda/lib64/libcudnn.so.9", S, "libcudnn.so.9.1.0", 0777, 0, NULL, NULL},
      {"cuda/lib64/libcudnn.so.9.1.0", F, NULL, 0755, 0, NULL, NULL},
      {"./cuda/include/../include/", D, NULL, 0755, CC_AM_P_DOTDOT, "\"..\"", NULL},
      {"cuda/lib64/up", S, "../include", 0777, 0, NULL, NULL},
      {"cuda/lib64/dangling", S, "missing/x/../y", 0777, 0, NULL, NULL}}},
    {"a file written through an earlier absolute symbolic link",
     {{"cuda/lib64", S, "/etc", 0, P_LESC, "absolute path", NULL},
      {"cuda/lib64/passwd", F, NULL, 0644, P_ESC | P_THR, "written through the symbolic link entry 1 \"cuda/lib64\"",
       "outside the target"}}},
    {"a chain of relative links that leaves the root",
     {{"a", S, "b", 0, P_LESC, "through the symbolic link entry 2", NULL},
      {"b", S, "../..", 0, P_LESC, "points outside the archive", NULL},
      {"a/x", F, NULL, 0, P_ESC | P_THR, "entry 1 \"a\"", "outside"}}},
    {"a link to . and a name that goes round it",
     {{"l", S, ".", 0, 0, NULL, NULL},
      {"l/l/l/f", F, NULL, 0, P_THR, "written through the symbolic link entry 1", "into \"f\""},
      {"d/l2", S, "..", 0, 0, NULL, NULL},
      {"d/l2/d/l2/d/g", F, NULL, 0, P_THR, "entry 3", "into \"d/g\""}}},
    {"a link to itself",
     {{"a", S, "a", 0, P_LOOP, "loop", NULL}, {"a/x", F, NULL, 0, P_THR | P_LOOP, "more than 40", NULL}}},
    {"a symbolic link judged against the finished tree",
     {{"a/b", S, "../c/x", 0, P_LESC, "through the symbolic link entry 2 \"c\"", NULL},
      {"c", S, "/etc", 0, P_LESC, "absolute", NULL}}},
    {"hard links: to an escaping link, to nothing yet, through a link, to a file",
     {{"s", S, "../x", 0, P_LESC, "outside the archive", NULL},
      {"h1", H, "s", 0, P_HL | P_LESC, "hard link to the symbolic link entry 1", NULL},
      {"h2", H, "f", 0, P_HL, "no earlier entry", NULL},
      {"f", F, NULL, 0644, 0, NULL, NULL},
      {"h3", H, "f", 0644, 0, NULL, NULL},
      {"dl", S, "/etc", 0, P_LESC, NULL, NULL},
      {"h4", H, "dl/shadow", 0, P_HL | P_ESC, "leads outside the target through the symbolic link entry 6", NULL},
      {"h5", H, "../outside", 0, P_HL | P_ESC, "\"..\"", NULL}}},
    {"a hard link to a directory, to an unsafe file, to an absolute path",
     {{"d/", D, NULL, 0, 0, NULL, NULL},
      {"h", H, "d", 0, P_HL, "directory", NULL},
      {"suid", F, NULL, 04755, CC_AM_P_MODE, "setuid", NULL},
      {"h2", H, "suid", 0, P_HL, "which is unsafe", NULL},
      {"h3", H, "/etc/shadow", 0, P_HL | P_ESC, "absolute", NULL}}},
    {"devices, FIFOs, sockets, unknown types",
     {{"c", CC_AM_CHARDEV, NULL, 0644, CC_AM_P_SPECIAL, "character device", NULL},
      {"b", CC_AM_BLOCKDEV, NULL, 0644, CC_AM_P_SPECIAL, "block device", NULL},
      {"p", CC_AM_FIFO, NULL, 0644, CC_AM_P_SPECIAL, "FIFO", NULL},
      {"s", CC_AM_SOCKET, NULL, 0644, CC_AM_P_SPECIAL, "socket", NULL},
      {"o", CC_AM_OTHER, NULL, 0644, CC_AM_P_SPECIAL, "type", NULL},
      {"hc", H, "c", 0, P_HL | CC_AM_P_SPECIAL, "not a regular file", NULL}}},
    {"modes",
     {{"u", F, NULL, 04755, CC_AM_P_MODE, "mode 4755: setuid", NULL},
      {"g/", D, NULL, 02755, CC_AM_P_MODE, "setgid", NULL},
      {"t/", D, NULL, 01777, CC_AM_P_MODE, "sticky, world-writable", NULL},
      {"w", F, NULL, 0666, CC_AM_P_MODE, "world-writable", NULL},
      {"l", S, "w", 0777, 0, NULL, NULL},
      {"ok", F, NULL, 0755, 0, NULL, NULL}}},
    {"duplicates: which wins",
     {{"x/a", F, NULL, 0, P_DUP, "entry 3 \"./x//a\" has the same name and wins over this one", NULL},
      {"x/", D, NULL, 0, 0, NULL, NULL},
      {"./x//a", F, NULL, 0, P_DUP, "entry 1 \"x/a\" has the same name: this later one wins", NULL},
      {"x/", D, NULL, 0, 0, NULL, NULL}}},
    {"names that differ only by case: Windows and macOS",
     {{"lib/libX.so", F, NULL, 0, P_CASE, "wins over this one (on Windows and macOS)", NULL},
      {"lib/libx.so", F, NULL, 0, P_CASE, "names the same file as entry 1 \"lib/libX.so\"",
       "later one wins (on Windows and macOS)"},
      {"Lib/other", F, NULL, 0, 0, NULL, NULL},
      {"\xc3\x89T\xc3\x89/a", F, NULL, 0, P_CASE, "(on Windows and macOS)", NULL},
      {"\xc3\xa9t\xc3\xa9/a", F, NULL, 0, P_CASE, "(on Windows and macOS)", NULL}}},
    {"composed and decomposed letters: macOS only",
     {{"caf\xc3\xa9.h", F, NULL, 0, P_CASE, "(on macOS)", NULL},
      {"cafe\xcc\x81.h", F, NULL, 0, P_CASE, "entry 1", "(on macOS)"}}},
    {"a link that only a case-insensitive system follows",
     {{"Lib", S, "/etc", 0, P_LESC, NULL, NULL},
      {"lib/passwd", F, NULL, 0, P_ESC | P_THR, "written through the symbolic link entry 1",
       "(on Windows and macOS)"}}},
    {"backslashes: separators on Windows only",
     {{"d", S, "/etc", 0, P_LESC, NULL, NULL},
      {"d\\x", F, NULL, 0, P_NAME | P_ESC | P_THR, "backslash", "outside the target (on Windows)"}}},
    {"a file lands on a symbolic link; a directory on one",
     {{"l", S, "target", 0, P_DUP, "entry 2 \"l\" is written where this symbolic link is", NULL},
      {"l", F, NULL, 0, P_THR, "lands on the symbolic link entry 1", "writes to \"target\""},
      {"m", S, "/tmp", 0, P_LESC | P_DUP, NULL, NULL},
      {"m/", D, NULL, 0, P_THR | P_ESC, "writes outside the target", NULL},
      {"m/f", F, NULL, 0, P_THR | P_ESC, "written through the symbolic link entry 3", NULL}}},
    {"conflicts",
     {{"d/", D, NULL, 0, 0, NULL, NULL},
      {"d", F, NULL, 0, CC_AM_P_CONFLICT, "would replace entry 1 \"d/\", a directory", NULL},
      {"f", F, NULL, 0, 0, NULL, NULL},
      {"f/x", F, NULL, 0, CC_AM_P_CONFLICT, "a parent directory of it is entry 3 \"f\"", NULL},
      {"f/", D, NULL, 0, CC_AM_P_CONFLICT, "a directory where entry 3", NULL},
      {".", F, NULL, 0, CC_AM_P_CONFLICT, "the target directory itself", NULL}}},
    {"names",
     {{"/etc/x", F, NULL, 0, CC_AM_P_ABSOLUTE, "absolute path", NULL},
      {"C:/x", F, NULL, 0, CC_AM_P_ABSOLUTE, "drive letter", NULL},
      {"a/../../x", F, NULL, 0, CC_AM_P_DOTDOT | P_ESC, "\"..\" component", "lead outside the target"},
      {"a/b:stream", F, NULL, 0, P_NAME, "alternate data stream", NULL},
      {"a/CON.txt", F, NULL, 0, P_NAME, "\"CON.txt\" is a device on Windows", NULL},
      {"a/x\x01y", F, NULL, 0, P_NAME, "control characters", NULL},
      {"a/\xff", F, NULL, 0, P_NAME, "UTF-8", NULL},
      {"a/q?", F, NULL, 0, P_NAME, "Windows does not allow", NULL}}},
    {"links: empty, absolute, drive, backslash targets",
     {{"e", S, "", 0, P_NAME, "empty target", NULL},
      {"a", S, "/usr/lib", 0, P_LESC, "absolute", NULL},
      {"c", S, "C:/Windows", 0, P_LESC, "drive letter", NULL},
      {"b", S, "..\\..\\x", 0, P_NAME | P_LESC, "backslash",
       "outside the archive (\"..\\..\\x\" from \"\") (on Windows)"},
      {"e/x", F, NULL, 0, P_THR, "no target", NULL},
      {"he", H, "", 0, P_HL, "empty target", NULL}}},
    {"a link without a target, landed on and gone through",
     {{"n", S, NULL, 0, P_NAME | P_DUP, "empty target", NULL},
      {"n", F, NULL, 0, P_THR, "lands on the symbolic link entry 1 \"n\" (-> \"\")", NULL},
      {"n/x", F, NULL, 0, P_THR, "which has no target", NULL}}},
};

static void check_case(const struct scase *c)
{
        cc_am_member ms[8];
        cc_am_verdict *v = NULL;
        cc_error err = {0};
        size_t n = 0, i;

        memset(ms, 0, sizeof(ms));
        for (n = 0; n < CC_ARRAY_LEN(c->m) && c->m[n].name != NULL; n++) {
                ms[n].name = c->m[n].name;
                ms[n].name_len = strlen(c->m[n].name);
                ms[n].type = c->m[n].type;
                ms[n].link = c->m[n].link;
                ms[n].link_len = c->m[n].link ? strlen(c->m[n].link) : 0;
                ms[n].mode = c->m[n].mode;
                ms[n].has_mode = c->m[n].mode != 0;
                ms[n].size = 0;
        }
        assert_int_equal(cc_archive_judge(ms, n, &v, &err), 0);
        for (i = 0; i < n; i++) {
                const struct mcase *m = &c->m[i];

                if (v[i].problems != m->want)
                        fail_msg("%s: entry %zu \"%s\": problems 0x%x, want 0x%x (%s)", c->what, i + 1, m->name,
                                 v[i].problems, m->want, v[i].reason ? v[i].reason : "safe");
                if ((v[i].reason == NULL) != (m->want == 0))
                        fail_msg("%s: entry %zu: reason %s", c->what, i + 1, v[i].reason ? v[i].reason : "(none)");
                if (m->needle != NULL && strstr(v[i].reason, m->needle) == NULL)
                        fail_msg("%s: entry %zu: \"%s\" lacks \"%s\"", c->what, i + 1, v[i].reason, m->needle);
                if (m->needle2 != NULL && strstr(v[i].reason, m->needle2) == NULL)
                        fail_msg("%s: entry %zu: \"%s\" lacks \"%s\"", c->what, i + 1, v[i].reason, m->needle2);
                if (v[i].reason != NULL && strchr(v[i].reason, '\n') != NULL)
                        fail_msg("%s: entry %zu: a reason is one line", c->what, i + 1);
        }
        cc_am_verdicts_free(v, n);
}

static void test_cases(void **state)
{
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                print_message("  %s\n", cases[i].what);
                check_case(&cases[i]);
        }
}

static void add(cc_archive_model *m, const char *name, size_t len, int type, const char *link, size_t link_len)
{
        cc_am_member mb;
        cc_error err = {0};

        memset(&mb, 0, sizeof(mb));
        mb.name = name;
        mb.name_len = len;
        mb.type = type;
        mb.link = link;
        mb.link_len = link_len;
        mb.size = -1;
        assert_int_equal(cc_am_add(m, &mb, &err), 0);
}

/* NUL bytes, long names and components, and the incremental interface. */
static void test_names_and_handle(void **state)
{
        cc_error err = {0};
        cc_archive_model *m = cc_am_new(&err);
        char longc[300], longp[5000];
        size_t i;

        (void)state;
        memset(longc, 'c', sizeof(longc));
        for (i = 0; i < sizeof(longp); i++)
                longp[i] = i % 2 ? '/' : 'p';
        add(m, "a\0b", 3, F, NULL, 0);
        add(m, longc, sizeof(longc), F, NULL, 0);
        add(m, longp, sizeof(longp), F, NULL, 0);
        add(m, "", 0, F, NULL, 0);
        add(m, "l", 1, S, "x\0y", 3);
        add(m, "ok", 2, F, NULL, 0);
        assert_int_equal(cc_am_judge(m, &err), 0);
        assert_int_equal(cc_am_count(m), 6);
        assert_int_equal(cc_am_unsafe_count(m), 5);
        assert_true(cc_am_problems(m, 0) & P_NAME);
        assert_non_null(strstr(cc_am_reason(m, 0), "NUL"));
        assert_int_equal(cc_am_problems(m, 1), CC_AM_P_LONG);
        assert_non_null(strstr(cc_am_reason(m, 1), "longer than 255"));
        assert_int_equal(cc_am_problems(m, 2), CC_AM_P_LONG);
        assert_non_null(strstr(cc_am_reason(m, 2), "longer than 4095"));
        assert_string_equal(cc_am_reason(m, 3), "empty name");
        assert_non_null(strstr(cc_am_reason(m, 4), "NUL"));
        assert_null(cc_am_reason(m, 5));
        assert_int_equal(cc_am_problems(m, 5), 0);
        /* adding after judging judges again */
        add(m, "ok", 2, F, NULL, 0);
        assert_int_equal(cc_am_judge(m, &err), 0);
        assert_int_equal(cc_am_problems(m, 5), P_DUP);
        assert_int_equal(cc_am_problems(m, 6), P_DUP);
        assert_int_equal(cc_am_unsafe_count(m), 7);
        assert_null(cc_am_reason(m, 99));
        cc_am_free(m);
        cc_am_free(NULL);

        assert_string_equal(cc_am_problem_name(CC_AM_P_ESCAPE), "escape");
        assert_string_equal(cc_am_problem_name(CC_AM_P_THROUGH_LINK), "through-symlink");
        assert_string_equal(cc_am_problem_name(CC_AM_P_NOT_JUDGED), "not-judged");
        assert_null(cc_am_problem_name(3));
        assert_null(cc_am_problem_name(1u << CC_AM_NPROBLEMS));
}

/* Links that make every path expensive: the work bound stops the model and
 * the members it did not reach are "not judged" (unsafe), quickly. */
static void test_work_bound(void **state)
{
        cc_error err = {0};
        cc_archive_model *m = cc_am_new(&err);
        char target[3999], name[100];
        size_t i, n = 3000, not_judged = 0;

        (void)state;
        for (i = 0; i + 1 < sizeof(target); i += 2) {
                target[i] = '.';
                target[i + 1] = '/';
        }
        target[sizeof(target) - 1] = '.';
        add(m, "l", 1, S, target, sizeof(target));
        for (i = 0; i + 2 <= sizeof(name) - 2; i += 2) {
                name[i] = 'l';
                name[i + 1] = '/';
        }
        name[sizeof(name) - 2] = 'x';
        name[sizeof(name) - 1] = '\0';
        for (i = 0; i < n; i++)
                add(m, name, strlen(name), F, NULL, 0);
        assert_int_equal(cc_am_judge(m, &err), 0);
        /* the link itself is judged in the final pass, after the bound */
        assert_int_equal(cc_am_problems(m, 0), CC_AM_P_NOT_JUDGED);
        assert_true(cc_am_problems(m, 1) & P_THR);
        for (i = 1; i <= n; i++)
                not_judged += (cc_am_problems(m, i) & CC_AM_P_NOT_JUDGED) != 0;
        assert_true(not_judged > 0);
        assert_non_null(strstr(cc_am_reason(m, n), "not judged"));
        cc_am_free(m);
}

/* A member many others land on keeps a bounded list of reasons, and judging
 * stays linear. */
static void test_many_reasons(void **state)
{
        cc_error err = {0};
        cc_archive_model *m = cc_am_new(&err);
        size_t i, n = 20000;

        (void)state;
        add(m, "l", 1, S, "target", 6);
        for (i = 0; i < n; i++)
                add(m, "l", 1, F, NULL, 0);
        assert_int_equal(cc_am_judge(m, &err), 0);
        assert_int_equal(cc_am_problems(m, 0), P_DUP);
        assert_non_null(strstr(cc_am_reason(m, 0), "more reasons are not shown"));
        assert_true(strlen(cc_am_reason(m, 0)) < 4096);
        assert_int_equal(cc_am_problems(m, n), P_THR);
        assert_int_equal(cc_am_unsafe_count(m), n + 1);
        cc_am_free(m);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_cases),
            cmocka_unit_test(test_names_and_handle),
            cmocka_unit_test(test_work_bound),
            cmocka_unit_test(test_many_reasons),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
