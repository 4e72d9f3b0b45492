#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

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
