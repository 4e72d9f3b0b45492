/* Platform helpers written once over the per-system primitives. */
#include "platform.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#include <windows.h>
#else
#include <signal.h>
#endif

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define CC_HAVE_CPUID 1
#if defined(__linux__) && defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
/* glibc 2.33+: the features its own start-up read, and judged as ld.so does,
 * without a CPUID instruction (each one a trap to the hypervisor in a
 * virtual machine: tens of microseconds) */
#include <sys/platform/x86.h>
#if defined(CPU_FEATURE_ACTIVE) /* 2.34 and later: active_array */
#define CC_HAVE_GLIBC_X86 1
#endif
#endif
#endif
#endif

char *cc_path_join(const char *a, const char *b, cc_error *err)
{
        size_t la = strlen(a);

        if (la == 0)
                return cc_strdup(err, b);
        if (cc_is_sep(a[la - 1]))
                return cc_asprintf(err, "%s%s", a, b);
        return cc_asprintf(err, "%s%c%s", a, cc_path_sep(), b);
}

int cc_map_check(const cc_map *m, const char *path, cc_error *err)
{
        if (!cc_map_changed(m))
                return 0;
        return cc_err(err, CC_ERR_IO, "%s: changed while read", path);
}

int cc_list_dir(const char *path, size_t max_entries, cc_strv *out, cc_error *err)
{
        int more = 0;

        if (max_entries == 0)
                max_entries = 100000;
        if (cc_list_dir_some(path, max_entries, out, &more, err) < 0)
                return -1;
        if (more) {
                cc_strv_free(out);
                return cc_err(err, CC_ERR_LIMIT, "%s: more than %zu entries", path, max_entries);
        }
        return 0;
}

int cc_read_file(const char *path, size_t max_size, char **out, size_t *len, cc_error *err)
{
        cc_map m;
        char *p;

        *out = NULL;
        if (len)
                *len = 0;
        if (cc_map_file(path, max_size, &m, err) < 0)
                return -1;
        p = cc_strndup(err, m.data ? (const char *)m.data : "", m.size);
        if (p == NULL) {
                cc_unmap(&m);
                return -1;
        }
        if (cc_map_check(&m, path, err) < 0) {
                free(p);
                cc_unmap(&m);
                return -1;
        }
        if (len)
                *len = m.size;
        cc_unmap(&m);
        *out = p;
        return 0;
}

#if defined(CC_HAVE_CPUID) && !defined(CC_HAVE_GLIBC_X86)
static uint64_t xgetbv0(void)
{
        uint32_t lo, hi;

        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        return ((uint64_t)hi << 32) | lo;
}
#endif

/* glibc's ISA levels (sysdeps/x86/get-isa-level.h): v2 = CMPXCHG16B,
 * LAHF64_SAHF64, POPCNT, SSE3, SSE4_1, SSE4_2, SSSE3; v3 adds AVX, AVX2, BMI1,
 * BMI2, F16C, FMA, LZCNT, MOVBE with the OS saving AVX state; v4 adds
 * AVX512F/BW/CD/DQ/VL with the OS saving AVX-512 state. */
#if defined(CC_HAVE_GLIBC_X86)
/* CPU_FEATURE_ACTIVE's reading, without its 1 << 31 on a signed int (bit
 * 31 is AVX512VL's: undefined behaviour, which UBSan stops at). */
static int glibc_active(unsigned int index)
{
        const unsigned int w = 8 * sizeof(unsigned int);
        const struct cpuid_feature *f = __x86_get_cpuid_feature_leaf(index / (w * 4));
        unsigned int reg = index & (w * 4 - 1);

        return (f->active_array[reg / w] >> (reg & (w - 1))) & 1u;
}
#undef CPU_FEATURE_ACTIVE
#define CPU_FEATURE_ACTIVE(name) glibc_active(x86_cpu_##name)
#endif

int cc_host_x86_64_level(void)
{
#if defined(CC_HAVE_GLIBC_X86)
        int level = 1;

        if (CPU_FEATURE_ACTIVE(CMPXCHG16B) && CPU_FEATURE_ACTIVE(LAHF64_SAHF64) && CPU_FEATURE_ACTIVE(POPCNT) &&
            CPU_FEATURE_ACTIVE(SSE3) && CPU_FEATURE_ACTIVE(SSE4_1) && CPU_FEATURE_ACTIVE(SSE4_2) &&
            CPU_FEATURE_ACTIVE(SSSE3))
                level = 2;
        else
                return level;
        if (CPU_FEATURE_ACTIVE(AVX) && CPU_FEATURE_ACTIVE(AVX2) && CPU_FEATURE_ACTIVE(BMI1) &&
            CPU_FEATURE_ACTIVE(BMI2) && CPU_FEATURE_ACTIVE(F16C) && CPU_FEATURE_ACTIVE(FMA) &&
            CPU_FEATURE_ACTIVE(LZCNT) && CPU_FEATURE_ACTIVE(MOVBE) && CPU_FEATURE_ACTIVE(OSXSAVE))
                level = 3;
        else
                return level;
        if (CPU_FEATURE_ACTIVE(AVX512F) && CPU_FEATURE_ACTIVE(AVX512BW) && CPU_FEATURE_ACTIVE(AVX512CD) &&
            CPU_FEATURE_ACTIVE(AVX512DQ) && CPU_FEATURE_ACTIVE(AVX512VL))
                level = 4;
        return level;
#elif defined(CC_HAVE_CPUID)
        unsigned a, b, c, d, c1, b7 = 0, ce = 0;
        uint64_t xcr0 = 0;
        int level = 1;

        if (!__get_cpuid(1, &a, &b, &c1, &d))
                return 0;
        if (__get_cpuid(0x80000001u, &a, &b, &ce, &d) == 0)
                ce = 0;
        if (__get_cpuid_max(0, NULL) >= 7) {
                __cpuid_count(7, 0, a, b7, c, d);
        }
        if (c1 & (1u << 27)) /* OSXSAVE */
                xcr0 = xgetbv0();
        if ((c1 & 1u) && (c1 & (1u << 9)) && (c1 & (1u << 13)) && (c1 & (1u << 19)) && (c1 & (1u << 20)) &&
            (c1 & (1u << 23)) && (ce & 1u))
                level = 2;
        else
                return level;
        if ((c1 & (1u << 28)) && (b7 & (1u << 5)) && (b7 & (1u << 3)) && (b7 & (1u << 8)) && (c1 & (1u << 29)) &&
            (c1 & (1u << 12)) && (ce & (1u << 5)) && (c1 & (1u << 22)) && (xcr0 & 0x6) == 0x6)
                level = 3;
        else
                return level;
        if ((b7 & (1u << 16)) && (b7 & (1u << 30)) && (b7 & (1u << 28)) && (b7 & (1u << 17)) && (b7 & (1u << 31)) &&
            (xcr0 & 0xe6) == 0xe6)
                level = 4;
        return level;
#else
        return 0;
#endif
}

int cc_host_cpu_is_intel(void)
{
#if defined(CC_HAVE_CPUID)
        unsigned max, b, c, d;

        /* leaf 0 is always there: one CPUID, not __get_cpuid's two */
        __cpuid(0, max, b, c, d);
        (void)max;
        /* "GenuineIntel" in EBX, EDX, ECX */
        return b == 0x756e6547u && d == 0x49656e69u && c == 0x6c65746eu;
#else
        return 0;
#endif
}

/* The test hook of the writing calls (platform.h). */
static struct {
        int state; /* 0 unread, 1 off, 2 armed */
        long at, calls;
        int errnum, kill_it;
} fault;

void cc_fs_fault_set(const char *spec)
{
        const char *colon = spec ? strchr(spec, ':') : NULL;
        char *end;

        memset(&fault, 0, sizeof(fault));
        fault.state = 1;
        if (colon == NULL)
                return;
        if ((size_t)(colon - spec) == 4 && strncmp(spec, "kill", 4) == 0)
                fault.kill_it = 1;
        else if ((size_t)(colon - spec) == 6 && strncmp(spec, "enospc", 6) == 0)
                fault.errnum = ENOSPC;
        else if ((size_t)(colon - spec) == 6 && strncmp(spec, "eacces", 6) == 0)
                fault.errnum = EACCES;
        else if ((size_t)(colon - spec) == 3 && strncmp(spec, "eio", 3) == 0)
                fault.errnum = EIO;
        else
                return; /* malformed: ignored, as an unset variable is */
        fault.at = strtol(colon + 1, &end, 10);
        if (*end == '\0' && fault.at >= 1)
                fault.state = 2;
}

long cc_fs_fault_calls(void)
{
        return fault.calls;
}

int cc_fs_fault(const char *what, const char *path, cc_error *err)
{
        if (fault.state == 0)
                cc_fs_fault_set(getenv("CUDNNCTL_TEST_FAULT"));
        fault.calls++;
        if (fault.state != 2 || fault.calls != fault.at)
                return 0;
        if (fault.kill_it) {
#if defined(_WIN32)
                TerminateProcess(GetCurrentProcess(), 137);
#else
                raise(SIGKILL);
#endif
        }
        return cc_err_errno(err, fault.errnum, "%s %s (CUDNNCTL_TEST_FAULT)", what, path);
}

void cc_proc_users_free(cc_proc_users *u)
{
        size_t i;

        if (u == NULL)
                return;
        for (i = 0; i < u->n; i++) {
                free(u->v[i].name);
                free(u->v[i].cmdline);
        }
        free(u->v);
        cc_strv_free(&u->notes);
        memset(u, 0, sizeof(*u));
}
