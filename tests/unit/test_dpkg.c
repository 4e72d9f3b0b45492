/* Unit tests for the dpkg database readers: status stanzas and .list files
 * written here, and this machine's /var/lib/dpkg as the oracle: every
 * package dpkg-query lists, and a few packages' versions and file lists
 * asked one by one (skipped where dpkg is not installed). */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/dpkg.h"

#define STATUS_FILE "/var/lib/dpkg/status"
#define INFO_DIR "/var/lib/dpkg/info"

static cc_dpkg_status *parse_ok(const char *text, size_t len)
{
        cc_error err = {0};
        cc_dpkg_status *s = NULL;
        char *copy = malloc(len ? len : 1); /* exact size, no NUL: ASan sees overreads */

        assert_non_null(copy);
        memcpy(copy, text, len);
        if (cc_dpkg_status_parse(copy, len, &s, &err) != 0)
                fail_msg("parse: %s", err.msg);
        free(copy);
        assert_non_null(s);
        return s;
}

static cc_dpkg_status *parse_str(const char *text)
{
        return parse_ok(text, strlen(text));
}

static void expect_warning(const cc_dpkg_status *s, const char *needle)
{
        size_t i;

        for (i = 0; i < s->warnings.n; i++)
                if (strstr(s->warnings.v[i], needle) != NULL)
                        return;
        for (i = 0; i < s->warnings.n; i++)
                print_message("warning: %s\n", s->warnings.v[i]);
        fail_msg("no warning containing \"%s\"", needle);
}

static void assert_str_or_null(const char *got, const char *want)
{
        if (want == NULL)
                assert_null(got);
        else {
                assert_non_null(got);
                assert_string_equal(got, want);
        }
}

/* ---- status stanzas ----------------------------------------------------------- */

static const char basic[] = "Package: libcudnn9-cuda-12\n"
                            "Status: install ok installed\n"
                            "Priority: optional\n"
                            "Section: libs\n"
                            "Installed-Size: 1234567\n"
                            "Maintainer: cudatools <cudatools@nvidia.com>\n"
                            "Architecture: amd64\n"
                            "Source: cudnn (9.14.0.64-1)\n"
                            "Version: 9.14.0.64-1\n"
                            "Depends: libc6\n"
                            "Description: cuDNN runtime libraries\n"
                            " cuDNN runtime libraries containing primitives for deep neural networks.\n"
                            " .\n"
                            " Package: not-a-package\n"
                            "Homepage: https://developer.nvidia.com/cudnn\n"
                            "\n"
                            "Package: dpkg\n"
                            "Essential: yes\n"
                            "Status: install ok installed\n"
                            "Architecture: amd64\n"
                            "Version: 1.21.22\n"
                            "Conffiles:\n"
                            " /etc/dpkg/dpkg.cfg f4413ffb515f8f753624ae3bb365b81b\n"
                            " /etc/cron.daily/dpkg 94bb6c1363245e46256908a5d52ba4fb obsolete\n"
                            "\n"
                            "Package: python3-pefile\n"
                            "Status: install ok installed\n"
                            "Architecture: all\n"
                            "Source: pefile\n"
                            "Version: 2023.2.7-2\n";

static void test_basic(void **state)
{
        cc_dpkg_status *s;
        const cc_dpkg_pkg *p;

        (void)state;
        s = parse_str(basic);
        assert_int_equal(s->n, 3);
        assert_int_equal(s->warnings.n, 0);
        p = &s->pkgs[0];
        assert_string_equal(p->package, "libcudnn9-cuda-12");
        assert_string_equal(p->architecture, "amd64");
        assert_string_equal(p->version, "9.14.0.64-1");
        assert_string_equal(p->source, "cudnn");
        assert_string_equal(p->status, "install ok installed");
        assert_true(p->installed);
        p = &s->pkgs[1];
        assert_string_equal(p->package, "dpkg");
        assert_null(p->source);
        assert_string_equal(p->version, "1.21.22");
        p = &s->pkgs[2];
        assert_string_equal(p->package, "python3-pefile");
        assert_string_equal(p->architecture, "all");
        assert_string_equal(p->source, "pefile");
        assert_ptr_equal(cc_dpkg_find(s, "dpkg", NULL), &s->pkgs[1]);
        assert_ptr_equal(cc_dpkg_find(s, "dpkg", "amd64"), &s->pkgs[1]);
        assert_null(cc_dpkg_find(s, "dpkg", "i386"));
        assert_null(cc_dpkg_find(s, "not-a-package", NULL));
        assert_null(cc_dpkg_find(s, "libcudnn9", NULL));
        assert_null(cc_dpkg_find(s, NULL, NULL));
        assert_null(cc_dpkg_find(NULL, "dpkg", NULL));
        cc_dpkg_status_free(s);
}

static void test_crlf_and_blanks(void **state)
{
        cc_dpkg_status *s;

        (void)state;
        s = parse_str("\r\n\n"
                      "Package: a\r\n"
                      "Version:  1.0-1  \r\n"
                      "Status:\tinstall ok installed\r\n"
                      "Architecture: amd64\r\n"
                      " \t \r\n" /* a line of blanks ends the stanza */
                      "package: b\r\n"
                      "VERSION: 2:3.4~rc1-0ubuntu1\r\n"
                      "\r\n\r\n\n"
                      "Package:c\n"
                      "Status: install ok installed"); /* no final newline */
        assert_int_equal(s->n, 3);
        assert_int_equal(s->warnings.n, 0);
        assert_string_equal(s->pkgs[0].package, "a");
        assert_string_equal(s->pkgs[0].version, "1.0-1");
        assert_string_equal(s->pkgs[0].status, "install ok installed");
        assert_string_equal(s->pkgs[0].architecture, "amd64");
        assert_true(s->pkgs[0].installed);
        assert_string_equal(s->pkgs[1].package, "b");
        assert_string_equal(s->pkgs[1].version, "2:3.4~rc1-0ubuntu1");
        assert_null(s->pkgs[1].status);
        assert_false(s->pkgs[1].installed);
        assert_string_equal(s->pkgs[2].package, "c");
        assert_true(s->pkgs[2].installed);
        cc_dpkg_status_free(s);
}

static void test_missing_fields(void **state)
{
        cc_dpkg_status *s;

        (void)state;
        s = parse_str("Status: install ok installed\n"
                      "Version: 1\n"
                      "\n"
                      "Package: \n"
                      "Version: 2\n"
                      "\n"
                      "Package: only-name\n"
                      "\n"
                      "Package: no-version\n"
                      "Status: deinstall ok config-files\n"
                      "Architecture: i386\n");
        assert_int_equal(s->n, 2);
        expect_warning(s, "stanza at line 1 has no Package field");
        expect_warning(s, "stanza at line 4 has no Package field");
        assert_string_equal(s->pkgs[0].package, "only-name");
        assert_null(s->pkgs[0].version);
        assert_null(s->pkgs[0].architecture);
        assert_null(s->pkgs[0].status);
        assert_null(s->pkgs[0].source);
        assert_false(s->pkgs[0].installed);
        assert_null(s->pkgs[1].version);
        assert_string_equal(s->pkgs[1].architecture, "i386");
        cc_dpkg_status_free(s);
}

static void test_status_words(void **state)
{
        static const struct {
                const char *status;
                int installed;
        } cases[] = {
            {"install ok installed", 1},
            {"hold ok installed", 1},
            {"deinstall ok installed", 1},
            {"deinstall ok config-files", 0},
            {"purge ok not-installed", 0},
            {"install ok half-installed", 0},
            {"install ok unpacked", 0},
            {"install reinstreq half-configured", 0},
            {"install ok triggers-pending", 0},
            {"install ok installed extra", 1},
            {"installed", 0},
            {"install ok", 0},
            {"install  ok   installed", 1},
            {"install ok installedx", 0},
        };
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(cases); i++) {
                char text[256];
                cc_dpkg_status *s;

                snprintf(text, sizeof(text), "Package: p\nStatus: %s\n", cases[i].status);
                s = parse_str(text);
                assert_int_equal(s->n, 1);
                if (s->pkgs[0].installed != cases[i].installed)
                        fail_msg("Status: %s: installed %d", cases[i].status, s->pkgs[0].installed);
                assert_string_equal(s->pkgs[0].status, cases[i].status);
                cc_dpkg_status_free(s);
        }
}

static void test_multiarch_duplicates(void **state)
{
        cc_dpkg_status *s;

        (void)state;
        s = parse_str("Package: libfoo1\n"
                      "Status: deinstall ok config-files\n"
                      "Architecture: amd64\n"
                      "Version: 1.0\n"
                      "\n"
                      "Package: libfoo1\n"
                      "Status: install ok installed\n"
                      "Architecture: i386\n"
                      "Version: 1.1\n"
                      "\n"
                      "Package: libfoo1\n"
                      "Status: install ok installed\n"
                      "Architecture: arm64\n"
                      "Version: 1.2\n"
                      "\n"
                      "Package: libbar\n"
                      "Status: install ok unpacked\n"
                      "Version: 3\n"
                      "\n"
                      "Package: libbar\n"
                      "Status: purge ok not-installed\n"
                      "Version: 4\n");
        assert_int_equal(s->n, 5);
        /* the first installed one, else the first */
        assert_string_equal(cc_dpkg_find(s, "libfoo1", NULL)->version, "1.1");
        assert_string_equal(cc_dpkg_find(s, "libfoo1", "amd64")->version, "1.0");
        assert_string_equal(cc_dpkg_find(s, "libfoo1", "arm64")->version, "1.2");
        assert_null(cc_dpkg_find(s, "libfoo1", "s390x"));
        assert_string_equal(cc_dpkg_find(s, "libbar", NULL)->version, "3");
        assert_null(cc_dpkg_find(s, "libbar", "amd64"));
        cc_dpkg_status_free(s);
}

static void test_odd_lines(void **state)
{
        cc_dpkg_status *s;

        (void)state;
        s = parse_str(" leading continuation\n"
                      "Package: p\n"
                      "Version: 1.0\n"
                      " continued version\n"
                      "Version: 2.0\n"
                      "no colon here\n"
                      ": empty name\n"
                      "X-Custom: value\n"
                      " custom continuation is fine\n"
                      "Source: src-name(1.0)\n"
                      "Architecture : amd64\n");
        assert_int_equal(s->n, 1);
        assert_string_equal(s->pkgs[0].version, "1.0");
        assert_string_equal(s->pkgs[0].source, "src-name");
        assert_string_equal(s->pkgs[0].architecture, "amd64");
        expect_warning(s, "line 1: a continuation line without a field");
        expect_warning(s, "line 4: the Version field has a continuation line");
        expect_warning(s, "line 5: a second Version field");
        expect_warning(s, "line 6 is not a \"Field: value\" line");
        expect_warning(s, "line 7 is not");
        assert_int_equal(s->warnings.n, 5);
        cc_dpkg_status_free(s);
}

/* Regression (fuzz_dpkg): a value made of NUL bytes gave a package named "". */
static void test_nul_bytes(void **state)
{
        static const char text[] = "Package:\0\0\0 p\n"
                                   "Version: 1\n"
                                   "\n"
                                   "Package: q\n"
                                   "Version: 2\0x\n"
                                   "Status: install ok installed\n";
        cc_dpkg_status *s;

        (void)state;
        s = parse_ok(text, sizeof(text) - 1);
        assert_int_equal(s->n, 1);
        assert_string_equal(s->pkgs[0].package, "q");
        assert_null(s->pkgs[0].version);
        assert_true(s->pkgs[0].installed);
        expect_warning(s, "line 1 holds a NUL byte");
        expect_warning(s, "line 5 holds a NUL byte");
        expect_warning(s, "stanza at line 2 has no Package field");
        cc_dpkg_status_free(s);
}

static void test_limits_and_empty(void **state)
{
        cc_error err = {0};
        cc_dpkg_status *s = NULL;
        size_t n = ((size_t)1 << 20) + 16, i;
        char *big;

        (void)state;
        s = parse_ok("", 0);
        assert_int_equal(s->n, 0);
        cc_dpkg_status_free(s);
        s = parse_str("\n\n \n");
        assert_int_equal(s->n, 0);
        assert_int_equal(s->warnings.n, 0);
        cc_dpkg_status_free(s);
        /* a line over 1 MiB */
        big = malloc(n);
        assert_non_null(big);
        memcpy(big, "Package: x\nDescription: ", 24);
        memset(big + 24, 'y', n - 24);
        s = (cc_dpkg_status *)1;
        assert_int_equal(cc_dpkg_status_parse(big, n, &s, &err), -1);
        assert_int_equal(err.code, CC_ERR_LIMIT);
        assert_null(s);
        /* exactly 1 MiB is fine */
        big[11 + ((size_t)1 << 20)] = '\n';
        s = parse_ok(big, n);
        assert_int_equal(s->n, 1);
        cc_dpkg_status_free(s);
        free(big);
        /* more than a million stanzas */
        n = 1000001;
        big = malloc(n * 12);
        assert_non_null(big);
        for (i = 0; i < n; i++)
                memcpy(big + i * 12, "Package:a\n\n\n", 12);
        s = (cc_dpkg_status *)1;
        assert_int_equal(cc_dpkg_status_parse(big, n * 12, &s, &err), -1);
        assert_int_equal(err.code, CC_ERR_LIMIT);
        assert_null(s);
        s = parse_ok(big, (n - 1) * 12);
        assert_int_equal(s->n, n - 1);
        cc_dpkg_status_free(s);
        free(big);
        /* many warnings are capped */
        big = malloc(200 * 8);
        assert_non_null(big);
        for (i = 0; i < 200; i++)
                memcpy(big + i * 8, "garbage\n", 8);
        s = parse_ok(big, 200 * 8);
        assert_int_equal(s->warnings.n, 64);
        cc_dpkg_status_free(s);
        free(big);
        /* NULL arguments */
        assert_int_equal(cc_dpkg_status_parse(NULL, 3, &s, &err), -1);
        assert_int_equal(err.code, CC_ERR_USAGE);
        assert_int_equal(cc_dpkg_status_parse("x", 1, NULL, &err), -1);
        cc_dpkg_status_free(NULL);
}

/* ---- .list files -------------------------------------------------------------------- */

static void test_list_name(void **state)
{
        char pkg[64], arch[16], p4[4], a2[2];

        (void)state;
        assert_int_equal(cc_dpkg_list_name("libcudnn9-cuda-12:amd64.list", pkg, sizeof(pkg), arch, sizeof(arch)), 0);
        assert_string_equal(pkg, "libcudnn9-cuda-12");
        assert_string_equal(arch, "amd64");
        assert_int_equal(cc_dpkg_list_name("dpkg.list", pkg, sizeof(pkg), arch, sizeof(arch)), 0);
        assert_string_equal(pkg, "dpkg");
        assert_string_equal(arch, "");
        assert_int_equal(cc_dpkg_list_name("libstdc++6:i386.list", pkg, sizeof(pkg), arch, sizeof(arch)), 0);
        assert_string_equal(pkg, "libstdc++6");
        assert_string_equal(arch, "i386");
        assert_int_equal(cc_dpkg_list_name("a.list.list", pkg, sizeof(pkg), arch, sizeof(arch)), 0);
        assert_string_equal(pkg, "a.list");
        assert_int_equal(cc_dpkg_list_name("dpkg.md5sums", pkg, sizeof(pkg), arch, sizeof(arch)), -1);
        assert_int_equal(cc_dpkg_list_name("dpkg.lists", pkg, sizeof(pkg), arch, sizeof(arch)), -1);
        assert_int_equal(cc_dpkg_list_name(".list", pkg, sizeof(pkg), arch, sizeof(arch)), -1);
        assert_int_equal(cc_dpkg_list_name("list", pkg, sizeof(pkg), arch, sizeof(arch)), -1);
        assert_int_equal(cc_dpkg_list_name(":amd64.list", pkg, sizeof(pkg), arch, sizeof(arch)), -1);
        assert_int_equal(cc_dpkg_list_name("foo:.list", pkg, sizeof(pkg), arch, sizeof(arch)), -1);
        assert_int_equal(cc_dpkg_list_name("a:b:c.list", pkg, sizeof(pkg), arch, sizeof(arch)), -1);
        assert_int_equal(cc_dpkg_list_name("dir/dpkg.list", pkg, sizeof(pkg), arch, sizeof(arch)), -1);
        assert_int_equal(cc_dpkg_list_name(NULL, pkg, sizeof(pkg), arch, sizeof(arch)), -1);
        /* sizes: exact fit, one short */
        assert_int_equal(cc_dpkg_list_name("abc:x.list", p4, sizeof(p4), a2, sizeof(a2)), 0);
        assert_string_equal(p4, "abc");
        assert_string_equal(a2, "x");
        assert_int_equal(cc_dpkg_list_name("abcd:x.list", p4, sizeof(p4), a2, sizeof(a2)), -1);
        assert_int_equal(cc_dpkg_list_name("abc:xy.list", p4, sizeof(p4), a2, sizeof(a2)), -1);
        assert_int_equal(cc_dpkg_list_name("abc.list", p4, sizeof(p4), a2, 1), 0);
        assert_int_equal(cc_dpkg_list_name("abc.list", p4, sizeof(p4), a2, 0), -1);
}

struct collect {
        char *paths[16];
        size_t n;
        size_t stop_at;
};

static int collect(void *ctx, const char *path, size_t n)
{
        struct collect *c = ctx;

        assert_int_equal(strlen(path), n);
        if (c->n < 16)
                c->paths[c->n] = strdup(path);
        c->n++;
        return c->stop_at && c->n == c->stop_at ? 42 : 0;
}

static void collect_free(struct collect *c)
{
        size_t i;

        for (i = 0; i < c->n && i < 16; i++)
                free(c->paths[i]);
}

static void test_list_each(void **state)
{
        static const char text[] = "/.\n"
                                   "/usr\n"
                                   "/usr/lib/\n"
                                   "/usr/lib/x86_64-linux-gnu/libcudnn.so.9\r\n"
                                   "relative/path\n"
                                   "\n"
                                   "   /leading-blank\n"
                                   "/\n"
                                   "//\n"
                                   "/nul\0inside\n"
                                   "/usr/share/doc/libcudnn9";
        static char longline[3000];
        struct collect c = {{0}, 0, 0};
        size_t len = sizeof(text) - 1;

        (void)state;
        assert_int_equal(cc_dpkg_list_each(text, len, collect, &c), 0);
        assert_int_equal(c.n, 7);
        assert_string_equal(c.paths[0], "/.");
        assert_string_equal(c.paths[1], "/usr");
        assert_string_equal(c.paths[2], "/usr/lib");
        assert_string_equal(c.paths[3], "/usr/lib/x86_64-linux-gnu/libcudnn.so.9");
        assert_string_equal(c.paths[4], "/");
        assert_string_equal(c.paths[5], "/");
        assert_string_equal(c.paths[6], "/usr/share/doc/libcudnn9");
        collect_free(&c);
        /* early stop */
        memset(&c, 0, sizeof(c));
        c.stop_at = 2;
        assert_int_equal(cc_dpkg_list_each(text, len, collect, &c), 42);
        assert_int_equal(c.n, 2);
        collect_free(&c);
        /* a line longer than the stack buffer */
        longline[0] = '/';
        memset(longline + 1, 'x', sizeof(longline) - 3);
        longline[sizeof(longline) - 2] = '/';
        memset(&c, 0, sizeof(c));
        assert_int_equal(cc_dpkg_list_each(longline, sizeof(longline) - 1, collect, &c), 0);
        assert_int_equal(c.n, 1);
        assert_int_equal(strlen(c.paths[0]), sizeof(longline) - 2); /* the trailing slash went */
        collect_free(&c);
        /* empty, NULL */
        memset(&c, 0, sizeof(c));
        assert_int_equal(cc_dpkg_list_each("", 0, collect, &c), 0);
        assert_int_equal(cc_dpkg_list_each(NULL, 0, collect, &c), 0);
        assert_int_equal(c.n, 0);
        assert_int_equal(cc_dpkg_list_each(NULL, 5, collect, &c), -1);
        assert_int_equal(cc_dpkg_list_each("/x", 2, NULL, &c), -1);
}

/* ---- the oracle: this machine's dpkg database ------------------------------------- */

/* Run a command, return its whole output (NUL-terminated), or NULL. */
static char *run(const char *cmd, size_t *len)
{
        FILE *p = popen(cmd, "r");
        char *buf = NULL;
        size_t n = 0, cap = 0;
        int st;

        if (p == NULL)
                return NULL;
        for (;;) {
                size_t got;

                if (cap - n < 4096) {
                        cap = cap ? cap * 2 : 65536;
                        buf = realloc(buf, cap);
                        assert_non_null(buf);
                }
                got = fread(buf + n, 1, cap - n - 1, p);
                if (got == 0)
                        break;
                n += got;
        }
        st = pclose(p);
        if (buf == NULL || st != 0) {
                free(buf);
                return NULL;
        }
        buf[n] = '\0';
        if (len)
                *len = n;
        return buf;
}

static int have_dpkg_query(void)
{
        char *out = run("command -v dpkg-query >/dev/null 2>&1 && echo yes", NULL);
        int ok = out != NULL && strncmp(out, "yes", 3) == 0;

        free(out);
        return ok;
}

static cc_dpkg_status *real_status(void)
{
        uint8_t *d;
        size_t n;
        cc_dpkg_status *s;

        if (!tu_exists(STATUS_FILE) || !have_dpkg_query())
                return NULL;
        d = tu_read(STATUS_FILE, &n);
        s = parse_ok((const char *)d, n);
        free(d);
        return s;
}

/* Every package dpkg-query lists is there, with the same architecture,
 * version and status; as many are installed. */
static void test_real_status_all(void **state)
{
        cc_dpkg_status *s = real_status();
        char *out, *line, *save = NULL;
        size_t rows = 0, inst_rows = 0, inst_ours = 0, i;

        (void)state;
        if (s == NULL)
                skip();
        out =
            run("dpkg-query --admindir=/var/lib/dpkg -W -f='${Package}\\t${Architecture}\\t${Version}\\t${Status}\\n' "
                "2>/dev/null",
                NULL);
        if (out == NULL) {
                cc_dpkg_status_free(s);
                skip();
        }
        for (line = strtok_r(out, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
                char *f[4], *p = line;
                const cc_dpkg_pkg *pkg;
                int k;

                for (k = 0; k < 4; k++) {
                        f[k] = p;
                        p = strchr(p, '\t');
                        if (p == NULL && k < 3)
                                fail_msg("dpkg-query line \"%s\"", line);
                        if (p)
                                *p++ = '\0';
                }
                pkg = cc_dpkg_find(s, f[0], f[1][0] ? f[1] : NULL);
                if (pkg == NULL)
                        fail_msg("dpkg-query lists %s:%s, we do not", f[0], f[1]);
                assert_str_or_null(pkg->version, f[2][0] ? f[2] : NULL);
                assert_str_or_null(pkg->status, f[3][0] ? f[3] : NULL);
                rows++;
                if (strstr(f[3], " installed") != NULL && strstr(f[3], "not-installed") == NULL)
                        inst_rows++;
        }
        for (i = 0; i < s->n; i++)
                inst_ours += (size_t)s->pkgs[i].installed;
        assert_true(rows > 0);
        assert_int_equal(inst_rows, inst_ours);
        print_message("%zu packages agree with dpkg-query (%zu installed)\n", rows, inst_ours);
        free(out);
        cc_dpkg_status_free(s);
}

/* A few packages one by one, as the brief's oracle: dpkg-query -W -f='${Version}' PKG. */
static void test_real_status_versions(void **state)
{
        cc_dpkg_status *s = real_status();
        const char *want[8] = {"dpkg", "libc6", "base-files"};
        size_t nwant = 3, i, checked = 0;

        (void)state;
        if (s == NULL)
                skip();
        /* and the first few installed packages of the file */
        for (i = 0; i < s->n && nwant < CC_ARRAY_LEN(want); i++)
                if (s->pkgs[i].installed)
                        want[nwant++] = s->pkgs[i].package;
        for (i = 0; i < nwant; i++) {
                const cc_dpkg_pkg *p = cc_dpkg_find(s, want[i], NULL);
                char cmd[512], *out;
                size_t j, same = 0;

                if (p == NULL || p->architecture == NULL)
                        continue;
                for (j = 0; j < s->n; j++)
                        same += strcmp(s->pkgs[j].package, want[i]) == 0;
                /* name:arch when several architectures are there */
                snprintf(cmd, sizeof(cmd), "dpkg-query -W -f='${Version}' '%s%s%s' 2>/dev/null", p->package,
                         same > 1 ? ":" : "", same > 1 ? p->architecture : "");
                out = run(cmd, NULL);
                if (out == NULL)
                        fail_msg("%s failed", cmd);
                assert_str_or_null(p->version, out[0] ? out : NULL);
                free(out);
                checked++;
        }
        assert_true(checked >= 3);
        print_message("%zu package versions agree with dpkg-query -W\n", checked);
        cc_dpkg_status_free(s);
}

struct cmp_ctx {
        char *expect; /* dpkg-query -L output, consumed line by line */
        size_t n, mismatch;
};

static int cmp_path(void *ctx, const char *path, size_t n)
{
        struct cmp_ctx *c = ctx;
        char *nl;

        /* next line of the expected output that is a path */
        while (c->expect != NULL && *c->expect != '\0' && *c->expect != '/') {
                nl = strchr(c->expect, '\n');
                c->expect = nl ? nl + 1 : NULL;
        }
        if (c->expect == NULL || *c->expect == '\0') {
                c->mismatch++;
                return 1;
        }
        nl = strchr(c->expect, '\n');
        if ((size_t)(nl ? nl - c->expect : (ptrdiff_t)strlen(c->expect)) != n || memcmp(c->expect, path, n) != 0)
                c->mismatch++;
        c->expect = nl ? nl + 1 : NULL;
        c->n++;
        return 0;
}

/* The .list file of dpkg itself against dpkg-query -L. */
static void test_real_list_file(void **state)
{
        static const char *const names[] = {"dpkg", "libc6", "base-files"};
        size_t i, done = 0;

        (void)state;
        if (!tu_exists(INFO_DIR) || !have_dpkg_query())
                skip();
        for (i = 0; i < CC_ARRAY_LEN(names); i++) {
                char path[256], pkg[64], arch[32], cmd[256], *out;
                const char *found = NULL;
                uint8_t *d;
                size_t n;
                struct cmp_ctx c = {NULL, 0, 0};
                int multi;

                for (multi = 0; multi < 2 && found == NULL; multi++) {
                        snprintf(path, sizeof(path), INFO_DIR "/%s%s.list", names[i], multi ? ":amd64" : "");
                        if (tu_exists(path))
                                found = path;
                }
                if (found == NULL)
                        continue;
                assert_int_equal(cc_dpkg_list_name(cc_basename(found), pkg, sizeof(pkg), arch, sizeof(arch)), 0);
                assert_string_equal(pkg, names[i]);
                snprintf(cmd, sizeof(cmd), "dpkg-query -L '%s%s%s' 2>/dev/null", pkg, arch[0] ? ":" : "", arch);
                out = run(cmd, NULL);
                if (out == NULL)
                        continue;
                d = tu_read(found, &n);
                c.expect = out;
                assert_int_equal(cc_dpkg_list_each((const char *)d, n, cmp_path, &c), 0);
                if (c.mismatch)
                        fail_msg("%s: %zu of %zu paths differ from dpkg-query -L", found, c.mismatch, c.n);
                assert_true(c.n > 3);
                print_message("%s: %zu paths agree with dpkg-query -L\n", found, c.n);
                free(d);
                free(out);
                done++;
        }
        if (done == 0)
                skip();
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_basic),
            cmocka_unit_test(test_crlf_and_blanks),
            cmocka_unit_test(test_missing_fields),
            cmocka_unit_test(test_status_words),
            cmocka_unit_test(test_multiarch_duplicates),
            cmocka_unit_test(test_odd_lines),
            cmocka_unit_test(test_nul_bytes),
            cmocka_unit_test(test_limits_and_empty),
            cmocka_unit_test(test_list_name),
            cmocka_unit_test(test_list_each),
            cmocka_unit_test(test_real_status_all),
            cmocka_unit_test(test_real_status_versions),
            cmocka_unit_test(test_real_list_file),
        };

        return cmocka_run_group_tests_name("dpkg", tests, NULL, NULL);
}
