/* Optional libraries loaded when first needed (dynload.h). The loading and
 * its lock are the system's (dlopen and a pthread mutex; LoadLibrary and an
 * SRW lock on Windows, where no library of the build uses it today); the
 * once-only logic and the message are shared. */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include "dynload.h"

#include <stdio.h>
#include <string.h>

_Static_assert(sizeof(cc_dynfn) == sizeof(void *), "a function's address fits where dlsym puts it");

#if defined(_WIN32)
#include <windows.h>

#include "platform.h"

/* One lock for every library: loading is rare (once per library and
 * process) and quick next to what follows it. */
static SRWLOCK lock = SRWLOCK_INIT;

static void lock_take(void)
{
        AcquireSRWLockExclusive(&lock);
}

static void lock_give(void)
{
        ReleaseSRWLockExclusive(&lock);
}

static void *sys_open(const char *soname, char *why, size_t n)
{
        cc_error e;
        void *h;

        memset(&e, 0, sizeof(e));
        h = cc_dl_open(soname, &e);
        if (h == NULL)
                snprintf(why, n, "%s", e.msg[0] ? e.msg : "no reason given");
        return h;
}

static void *sys_sym(void *h, const char *name, char *why, size_t n)
{
        void *p = cc_dl_sym(h, name);

        if (p == NULL)
                snprintf(why, n, "no function %s in it", name);
        return p;
}

static void sys_close(void *h)
{
        cc_dl_close(h);
}

#else
#include <dlfcn.h>
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void lock_take(void)
{
        pthread_mutex_lock(&lock);
}

static void lock_give(void)
{
        pthread_mutex_unlock(&lock);
}

static void *sys_open(const char *soname, char *why, size_t n)
{
        void *h;
        const char *e;

        dlerror();
        /* RTLD_NOW: a missing or wrongly versioned symbol of its own
         * dependencies shows here, not as a crash in the middle of a read.
         * RTLD_LOCAL: its symbols are not there for the libraries loaded
         * after it (a probe child's cuDNN); what we call is in the table. */
        h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
        if (h == NULL) {
                e = dlerror();
                snprintf(why, n, "%s", e != NULL ? e : "no reason given");
        }
        return h;
}

static void *sys_sym(void *h, const char *name, char *why, size_t n)
{
        void *p;
        const char *e;

        dlerror();
        p = dlsym(h, name);
        if (p == NULL) {
                e = dlerror();
                if (e != NULL && strstr(e, name) != NULL)
                        snprintf(why, n, "%s", e);
                else
                        snprintf(why, n, "no function %s in it%s%s", name, e != NULL ? ": " : "", e != NULL ? e : "");
        }
        return p;
}

static void sys_close(void *h)
{
        dlclose(h);
}
#endif

/* The Debian package of a soname, by its naming policy (libarchive.so.13
 * is in libarchive13, libfoo2.so.1 in libfoo2-1) but for the names that
 * predate it. 0 when the name is not of that form. */
static int package_of(const char *soname, char *out, size_t n)
{
        static const char *const odd[][2] = {
            {"libcurl-gnutls.so.4", "libcurl3-gnutls"},
            {"libcurl-nss.so.4", "libcurl3-nss"},
        };
        const char *so = strstr(soname, ".so."), *ver, *end;
        int len, vlen;
        size_t i;

        for (i = 0; i < CC_ARRAY_LEN(odd); i++)
                if (strcmp(soname, odd[i][0]) == 0) {
                        snprintf(out, n, "%s", odd[i][1]);
                        return 1;
                }
        if (so == NULL || so == soname || strchr(soname, '/') != NULL)
                return 0;
        ver = so + 4;
        end = strchr(ver, '.');
        vlen = (int)(end != NULL ? (size_t)(end - ver) : strlen(ver));
        len = (int)(so - soname);
        if (vlen == 0)
                return 0;
        snprintf(out, n, "%.*s%s%.*s", len, soname, so[-1] >= '0' && so[-1] <= '9' ? "-" : "", vlen, ver);
        return 1;
}

static void fail(cc_dynlib *lib, const char *why)
{
        char pkg[128], hint[192];
        const char *p = lib->package;

        hint[0] = '\0';
        if (p == NULL && package_of(lib->soname, pkg, sizeof(pkg)))
                p = pkg;
        if (p != NULL)
                snprintf(hint, sizeof(hint), " (Debian: apt-get install %s)", p);
        snprintf(lib->msg_, sizeof(lib->msg_), "%s could not be loaded (%s)%s%s%s", lib->soname, why,
                 lib->without != NULL ? ": " : "", lib->without != NULL ? lib->without : "", hint);
        lib->code_ = CC_ERR_UNSUPPORTED;
        lib->state_ = -1;
}

static void load(cc_dynlib *lib)
{
        char why[384];
        size_t i;
        void *h, *p;

        if (lib->soname == NULL || lib->soname[0] == '\0' || lib->names == NULL || lib->fns == NULL) {
                lib->soname = lib->soname != NULL && lib->soname[0] ? lib->soname : "(no library)";
                fail(lib, "nothing to load: the library's table is not set");
                return;
        }
        h = sys_open(lib->soname, why, sizeof(why));
        if (h == NULL) {
                fail(lib, why);
                return;
        }
        for (i = 0; lib->names[i] != NULL; i++) {
                p = sys_sym(h, lib->names[i], why, sizeof(why));
                if (p == NULL) {
                        /* all or nothing: no half-filled table stays behind */
                        memset(lib->fns, 0, i * sizeof(lib->fns[0]));
                        sys_close(h);
                        fail(lib, why);
                        return;
                }
                /* ISO C has no object-to-function pointer conversion; the
                 * address is the same bits either way on every system with
                 * dlsym (POSIX requires it). */
                memcpy(&lib->fns[i], &p, sizeof(lib->fns[i]));
        }
        lib->handle_ = h;
        lib->state_ = 1;
}

int cc_dynload(cc_dynlib *lib, cc_error *err)
{
        int state;

        lock_take();
        if (lib->state_ == 0)
                load(lib);
        state = lib->state_;
        lock_give();
        if (state > 0)
                return 0;
        /* msg_ and code_ no longer change once state_ is -1 */
        return cc_err(err, lib->code_, "%s", lib->msg_);
}
