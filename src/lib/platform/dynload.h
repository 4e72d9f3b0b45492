/* A library of optional features loaded when first needed, not at start-up:
 * the Linux build opens libarchive, liblzma and libcurl with dlopen the
 * first time an archive is read or a download starts (inspect/libarchive_dl.h,
 * net/libcurl_dl.h), so that the commands that never use them (which, deps,
 * list, doctor...) do not pay for loading them and the forty libraries they
 * pull in. One table per library: the names of its functions and a parallel
 * array of pointers that cc_dynload fills.
 *
 * This is not cc_dl_open (platform.h), which loads the libraries a probe
 * child examines, RTLD_GLOBAL as a program linked against them would: these
 * are opened RTLD_NOW | RTLD_LOCAL, their symbols kept to the table. */
#ifndef CC_DYNLOAD_H
#define CC_DYNLOAD_H

#include "../common.h"

/* Any function: what the table holds until the library's own header casts
 * each back to its real type (all function pointers convert to one another
 * and back unchanged). */
typedef void (*cc_dynfn)(void);

typedef struct cc_dynlib {
        /* Set by the library's own loader: */
        const char *soname;       /* what dlopen is given: "libarchive.so.13" */
        const char *const *names; /* its functions, NULL-terminated */
        cc_dynfn *fns;            /* as many: fns[i] becomes names[i] */
        const char *without;      /* what cannot be done without it: "archives cannot be read without it" */
        const char *package;      /* the Debian package that has it; NULL: from the soname (libarchive13) */
        /* Kept by cc_dynload, under its lock (zero to start with): */
        int state_; /* 0 not tried, 1 loaded, -1 failed */
        int code_;  /* the error code of the failure */
        void *handle_;
        char msg_[512]; /* the failure, one line */
} cc_dynlib;

/* Load lib once per process (thread-safe: the first caller loads, the
 * others wait for it): the library and every function of its table,
 * names[i] into fns[i]. 0 when loaded. -1 when the library or one of its
 * functions could not be found, with one line naming the soname, the
 * loader's reason and how to get the library ("libarchive.so.13 could not
 * be loaded (libarchive.so.13: cannot open shared object file: No such file
 * or directory): archives cannot be read without it (Debian: apt-get
 * install libarchive13)"), CC_ERR_UNSUPPORTED; every later call fails the
 * same way without trying again. Nothing of a failed load stays loaded
 * and fns is then all NULL. */
int cc_dynload(cc_dynlib *lib, cc_error *err);

/* For a library's header, over the X-macro list of its functions (see
 * inspect/libarchive_dl.h): a member of its table typed as the function
 * itself (__typeof__, which gcc and clang take: a call through it has the
 * function's exact type, as UBSan's -fsanitize=function checks), the count,
 * the name, and the function's own address (a build that links it). */
#define CC_DYNLOAD_MEMBER(fn) __typeof__(&fn) fn;
#define CC_DYNLOAD_COUNT(fn) +1
#define CC_DYNLOAD_NAME(fn) #fn,
#define CC_DYNLOAD_ADDR(fn) &fn,

#endif
