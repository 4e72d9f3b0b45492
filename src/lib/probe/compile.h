/* The compile-and-link layer of verify: the guide's minimal program
 * (create a handle, read the runtime version, print the header's macros
 * and the runtime version, destroy the handle), generated, compiled with the
 * machine's C compiler against one installation's headers, linked against
 * its library, and run in a child with a time limit. */
#ifndef CC_PROBE_COMPILE_H
#define CC_PROBE_COMPILE_H

#include "../value.h"

typedef struct cc_compile_opts {
        const char *include_dir; /* the installation's directory holding cudnn.h (NULL: none found) */
        const char *lib_dir;     /* the directory holding libcudnn.so[.N] / cudnn.lib (NULL: none) */
        const char *dll_dir;     /* Windows: the directory holding cudnn64_N.dll (put first on PATH to run) */
        /* Where cuda_runtime_api.h and the other CUDA headers cudnn.h
         * includes may be (the toolkit's include directories), tried in order. */
        const char *const *cuda_include_dirs;
        size_t ncuda_include_dirs;
        int major;            /* the installation's cuDNN major (7, 8, 9), 0 if unknown */
        const char *compiler; /* NULL: $CC, then cc, gcc, clang on PATH (cl, gcc, clang on Windows) */
        const char *path_env; /* the PATH to search for a compiler (NULL: the process's) */
        int timeout_ms;       /* for the compiler and for the program, each (<= 0: 60000) */
        int windows;          /* 1: build a Windows program (cudnn.lib / cudnn64_N.dll) */
        /* The program's cache: a build that passed is kept there and run again
         * while none of its inputs changed (compile_cache.h); NULL: built each time. */
        const char *cache_dir;
        int rebuild; /* compile even when a kept build matches (and keep the new one) */
} cc_compile_opts;

/* Facts of the layer (docs/json.md, verify "compile"):
 *   status      "passed" | "failed" | "not-checked"
 *   reason      one line: why it failed or could not be checked
 *   compiler    {path, version (its first line of --version), kind: gcc|clang|msvc}
 *   include_dirs, lib_dir, command (array of argv), source (the program's text)
 *   missing_headers  headers the compiler could not find (["cuda_runtime_api.h"])
 *   compile     {exit, how (cc_spawn_describe), wall_ms, output (first 4 KiB)}
 *   reused      the kept build that was run instead of compiling (cache_dir):
 *               {built, built_at, inputs (files whose stamps matched), entry,
 *               compiler_version}; absent when it was compiled now
 *   cache_notes why a kept build was not used, why a build that passed was not kept
 *   run         {exit, how, wall_ms, output}
 *   printed     what the program printed, parsed: {header_version, CUDNN_VERSION,
 *               runtime_version, cudart_version, create_status, create_status_name,
 *               loaded_from (the libcudnn file the program mapped, Linux)}
 * -1 only when out of memory; everything else is a fact. */
int cc_compile_probe(const cc_compile_opts *o, cc_value **out, cc_error *err);

#endif
