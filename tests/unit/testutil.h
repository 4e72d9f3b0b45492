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

#endif
