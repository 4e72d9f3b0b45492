#define _XOPEN_SOURCE 700
#include "testutil.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *tu_fixture(const char *rel)
{
        const char *dir = getenv("CC_FIXTURES");
        char *p;

        if (dir == NULL)
                fail_msg("CC_FIXTURES is not set (run the tests through ctest)");
        p = malloc(strlen(dir) + strlen(rel) + 2);
        assert_non_null(p);
        sprintf(p, "%s/%s", dir, rel);
        return p;
}

uint8_t *tu_read(const char *path, size_t *size)
{
        FILE *f = fopen(path, "rb");
        uint8_t *buf;
        long n;

        if (f == NULL)
                fail_msg("cannot open %s", path);
        fseek(f, 0, SEEK_END);
        n = ftell(f);
        fseek(f, 0, SEEK_SET);
        buf = malloc(n > 0 ? (size_t)n : 1);
        assert_non_null(buf);
        if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)
                fail_msg("cannot read %s", path);
        fclose(f);
        *size = (size_t)n;
        return buf;
}

int tu_exists(const char *path)
{
        struct stat st;

        return stat(path, &st) == 0;
}

char *tu_mkroot(const char *name)
{
        const char *tmp = getenv("TMPDIR");
        char *p = malloc(4096);

        assert_non_null(p);
        snprintf(p, 4096, "%s/cc-%s-XXXXXX", tmp && tmp[0] ? tmp : "/tmp", name);
        assert_non_null(mkdtemp(p));
        return p;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        (void)st;
        (void)flag;
        (void)ftw;
        return remove(path);
}

void tu_rmroot(char *root)
{
        nftw(root, rm_one, 32, FTW_DEPTH | FTW_PHYS);
        free(root);
}

void tu_mkdirs(const char *path)
{
        char buf[4096];
        size_t i;

        snprintf(buf, sizeof(buf), "%s", path);
        for (i = 1; buf[i]; i++) {
                if (buf[i] == '/') {
                        buf[i] = '\0';
                        if (mkdir(buf, 0755) < 0 && errno != EEXIST)
                                fail_msg("mkdir %s: %s", buf, strerror(errno));
                        buf[i] = '/';
                }
        }
        if (mkdir(buf, 0755) < 0 && errno != EEXIST)
                fail_msg("mkdir %s: %s", buf, strerror(errno));
}
