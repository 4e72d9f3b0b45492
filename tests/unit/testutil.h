/* Shared helpers for the cmocka unit tests. */
#ifndef CC_TESTUTIL_H
#define CC_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* $CC_FIXTURES/rel (caller frees). Fails the test if CC_FIXTURES is unset. */
char *tu_fixture(const char *rel);
/* Read a whole file; fails the test if it cannot. Caller frees. */
uint8_t *tu_read(const char *path, size_t *size);
/* 1 if the path exists. */
int tu_exists(const char *path);
/* A new directory TMPDIR/cc-NAME-XXXXXX (the caller frees it with tu_rmroot,
 * which removes it and everything under it, links not followed). */
char *tu_mkroot(const char *name);
void tu_rmroot(char *root);
/* mkdir -p. */
void tu_mkdirs(const char *path);

#endif
