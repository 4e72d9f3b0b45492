/* Reuse of the compile proof's program (compile.c). A build that passed is
 * kept in the program's cache with a stamp of every file it was built from:
 * the headers the compiler read (its -MD list), the compiler and the cuDNN
 * library it linked against. A later proof with the same command, program
 * text and environment runs that program again instead of compiling it, as
 * long as every stamp still matches; a build whose inputs changed while it
 * was compiled, or in the two seconds before, is not kept (a file rewritten
 * twice within the clock's granularity keeps its stamp). Failed builds are never kept. The files the
 * linker takes on its own (the C library's start files) are not stamped.
 * Not on Windows (the cache directory's owner is not checked there). */
#ifndef CC_PROBE_COMPILE_CACHE_H
#define CC_PROBE_COMPILE_CACHE_H

#include "../value.h"

#define CC_CCACHE_DEPFILE "cudnn_probe.d"

/* The entry's key: the command (argv), the program's text, PATH and the
 * rest of the environment but for what cannot change a build (a terminal's
 * and a session's variables, and the temporary directory). */
int cc_ccache_key(const cc_strv *argv, const char *source, const char *path_value, char key[65], cc_error *err);

/* 1 when root holds a valid entry for key: its program copied to
 * tmpdir/exe and *meta set to what was kept ({built, built_at, inputs,
 * compile, compiler_version}; caller frees); 0 when none is valid (*why
 * set when one was there but is stale, caller frees); -1 when out of memory. */
int cc_ccache_take(const char *root, const char *key, const char *tmpdir, const char *exe, cc_value **meta, char **why,
                   cc_error *err);

/* Keep the program tmpdir/exe that compile facts `compile` describe, with the
 * inputs read from tmpdir/CC_CCACHE_DEPFILE and the files in extra (the
 * compiler, the library); started: when the compiler was started (seconds
 * since the epoch): an input changed since, or in the two seconds before, is
 * not stamped. 1 when kept, 0 when not (*why set, caller frees), -1 when out
 * of memory. */
int cc_ccache_put(const char *root, const char *key, const char *tmpdir, const char *exe, const cc_strv *extra,
                  const cc_value *compile, const char *compiler_version, int64_t started, char **why, cc_error *err);

/* The tokens of a make rule's prerequisites as a compiler's -MD writes them
 * (the target before the first unescaped ':' left out; "\ " a space, "$$" a
 * '$', a backslash before a newline a space; a NUL byte separates too). */
int cc_ccache_depfile(const char *text, size_t n, cc_strv *out, cc_error *err);

/* The `inputs` file of an entry: "STAMP\tPATH" lines, each ending in a
 * newline, PATH absolute. 1 with the stamps and paths pushed in order, 0
 * when the text is not such a list, -1 when out of memory. */
int cc_ccache_inputs(const char *text, size_t n, cc_strv *stamps, cc_strv *paths, cc_error *err);

#endif
