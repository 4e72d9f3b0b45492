/* File names as evidence: cuDNN library, import library, static library and
 * header names of every major on Linux and Windows; archive, wheel and
 * dist-info names of every packaging era NVIDIA and PyPI used. Pure string
 * work over names of at most 255 bytes. */
#include "names.h"

#include <stdio.h>
#include <string.h>

#define NAME_MAX_LEN 255
#define MAJOR_MAX_DIGITS 3
#define PART_MAX_DIGITS 9

/* Which majors ship a role: [min, max]. A name with no major, or one newer
 * than the table knows, is checked against every row. */
struct role_ent {
        const char *role;
        int min, max;
};

#define TABLE_LAST_MAJOR 9

static const struct role_ent lib_roles[] = {
    {"cudnn", 1, 9},
    {"cudnn_ops_infer", 8, 8},
    {"cudnn_ops_train", 8, 8},
    {"cudnn_cnn_infer", 8, 8},
    {"cudnn_cnn_train", 8, 8},
    {"cudnn_adv_infer", 8, 8},
    {"cudnn_adv_train", 8, 8},
    {"cudnn_graph", 9, 9},
    {"cudnn_ops", 9, 9},
    {"cudnn_cnn", 9, 9},
    {"cudnn_adv", 9, 9},
    {"cudnn_engines_precompiled", 9, 9},
    {"cudnn_engines_runtime_compiled", 9, 9},
    {"cudnn_heuristic", 9, 9},
    {"cudnn_engines_tensor_ir", 9, 9}, /* 9.21+ */
    {"cudnn_ext", 9, 9},               /* 9.22+ bundles (first version unconfirmed) */
};

static const struct role_ent header_roles[] = {
    {"cudnn", 1, 9},           {"cudnn_version", 8, 9},   {"cudnn_backend", 8, 9},   {"cudnn_ops_infer", 8, 8},
    {"cudnn_ops_train", 8, 8}, {"cudnn_cnn_infer", 8, 8}, {"cudnn_cnn_train", 8, 8}, {"cudnn_adv_infer", 8, 8},
    {"cudnn_adv_train", 8, 8}, {"cudnn_graph", 9, 9},     {"cudnn_ops", 9, 9},       {"cudnn_cnn", 9, 9},
    {"cudnn_adv", 9, 9},
};

static int known(const struct role_ent *t, size_t n, const char *role, int major)
{
        size_t i;

        for (i = 0; i < n; i++) {
                if (strcmp(t[i].role, role) != 0)
                        continue;
                if (major < 0 || major > TABLE_LAST_MAJOR || (major >= t[i].min && major <= t[i].max))
                        return 1;
        }
        return 0;
}

const char *cc_file_kind_name(int k)
{
        switch (k) {
        case CC_FK_SHARED:
                return "shared-library";
        case CC_FK_DLL:
                return "dll";
        case CC_FK_IMPLIB:
                return "import-library";
        case CC_FK_STATIC:
                return "static-library";
        case CC_FK_HEADER:
                return "header";
        default:
                return "unknown";
        }
}

int cc_cudnn_ver_plausible(const cudnnctl_ver *v)
{
        long mj, mn;

        if (v->n < 1)
                return 0;
        mj = v->part[0];
        mn = v->n > 1 ? v->part[1] : 0;
        return mj >= 1 && mj <= 9 && (mj == 9 ? mn < 100 : mn <= 9);
}

int cc_name_role_majors(const char *role, int *min, int *max)
{
        size_t i;

        for (i = 0; i < CC_ARRAY_LEN(lib_roles); i++) {
                if (strcmp(lib_roles[i].role, role) == 0) {
                        *min = lib_roles[i].min;
                        *max = lib_roles[i].max;
                        return 0;
                }
        }
        return -1;
}

static int is_digit(char c)
{
        return c >= '0' && c <= '9';
}

static int all_digits(const char *s, size_t n)
{
        size_t i;

        if (n == 0)
                return 0;
        for (i = 0; i < n; i++)
                if (!is_digit(s[i]))
                        return 0;
        return 1;
}

/* n digits (1..maxd) at s as an int; -1 if not. */
static int small_num(const char *s, size_t n, size_t maxd)
{
        int v = 0;
        size_t i;

        if (n == 0 || n > maxd || !all_digits(s, n))
                return -1;
        for (i = 0; i < n; i++)
                v = v * 10 + (s[i] - '0');
        return v;
}

/* "9.19.0.56" (exactly the n bytes at s; 1..maxparts numeric components of
 * at most 9 digits). */
static int parse_ver(const char *s, size_t n, int maxparts, cudnnctl_ver *out)
{
        cudnnctl_ver v;
        size_t i = 0;

        memset(&v, 0, sizeof(v));
        if (n == 0)
                return -1;
        for (;;) {
                size_t st = i;
                long x = 0;

                while (i < n && is_digit(s[i])) {
                        x = x * 10 + (s[i] - '0');
                        i++;
                        if (i - st > PART_MAX_DIGITS)
                                return -1;
                }
                if (i == st || v.n >= maxparts || v.n >= 4)
                        return -1;
                v.part[v.n++] = x;
                if (i == n)
                        break;
                if (s[i] != '.')
                        return -1;
                i++;
        }
        *out = v;
        return 0;
}

/* Copy n bytes into a fixed field; -1 if they do not fit. */
static int set_field(char *dst, size_t size, const char *s, size_t n)
{
        if (n >= size)
                return -1;
        memcpy(dst, s, n);
        dst[n] = '\0';
        return 0;
}

/* A role: "cudnn" or "cudnn_" followed by [a-z0-9_], not ending in '_'. */
static int valid_role(const char *s, size_t n)
{
        size_t i;

        if (n < 5 || memcmp(s, "cudnn", 5) != 0)
                return 0;
        if (n == 5)
                return 1;
        if (s[5] != '_' || n == 6 || s[n - 1] == '_')
                return 0;
        for (i = 6; i < n; i++)
                if (!((s[i] >= 'a' && s[i] <= 'z') || is_digit(s[i]) || s[i] == '_'))
                        return 0;
        return 1;
}

static int ends_with_n(const char *s, size_t n, const char *suf)
{
        size_t k = strlen(suf);

        return n >= k && memcmp(s + n - k, suf, k) == 0;
}

/* If s[0..n) ends in SEP + digits (SEP "64_" or "_v"), the number; the
 * length before SEP in *stem. -1 if not. */
static int trailing_num(const char *s, size_t n, const char *sep, size_t *stem)
{
        size_t k = strlen(sep), d = 0;

        while (d < n && is_digit(s[n - 1 - d]))
                d++;
        if (d == 0 || d > MAJOR_MAX_DIGITS || n - d < k || memcmp(s + n - d - k, sep, k) != 0)
                return -1;
        *stem = n - d - k;
        return small_num(s + n - d, d, MAJOR_MAX_DIGITS);
}

/* libROLE.so[.N[.M[.P]]] */
static int linux_shared(const char *name, size_t len, cc_libname *out)
{
        const char *so = NULL, *p;
        size_t stem;

        for (p = name + 3; (p = strstr(p, ".so")) != NULL; p++) {
                if (p[3] == '\0' || p[3] == '.') {
                        so = p;
                        break;
                }
        }
        if (so == NULL)
                return -1;
        stem = (size_t)(so - name) - 3;
        if (!valid_role(name + 3, stem) || set_field(out->role, sizeof(out->role), name + 3, stem) < 0)
                return -1;
        out->kind = CC_FK_SHARED;
        out->system = CC_SYS_LINUX;
        if (so[3] == '\0') {
                out->dev_link = 1;
        } else {
                cudnnctl_ver v;
                const char *vs = so + 4;

                if (parse_ver(vs, len - (size_t)(vs - name), 3, &v) < 0 || v.part[0] > 999)
                        return -1;
                out->major = (int)v.part[0];
                if (v.n >= 2)
                        out->version = v;
        }
        out->known_role = known(lib_roles, CC_ARRAY_LEN(lib_roles), out->role, out->major);
        return 0;
}

/* libROLE_static[_vN].a */
static int linux_static(const char *name, size_t len, cc_libname *out)
{
        const char *st;
        size_t core = len - 2, stem;
        int major = -1;

        if (!ends_with_n(name, core, "_static")) {
                major = trailing_num(name, core, "_v", &core);
                if (major < 0 || !ends_with_n(name, core, "_static"))
                        return -1;
        }
        st = name + core - 7;
        stem = (size_t)(st - name) - 3;
        if (!valid_role(name + 3, stem) || set_field(out->role, sizeof(out->role), name + 3, stem) < 0)
                return -1;
        out->kind = CC_FK_STATIC;
        out->system = CC_SYS_LINUX;
        out->major = major;
        out->known_role = known(lib_roles, CC_ARRAY_LEN(lib_roles), out->role, out->major);
        return 0;
}

int cc_name_library(const char *basename, cc_libname *out)
{
        char low[NAME_MAX_LEN + 1];
        size_t len, i, stem;
        cc_libname r;

        if (basename == NULL || out == NULL)
                return -1;
        len = strlen(basename);
        if (len == 0 || len > NAME_MAX_LEN)
                return -1;
        memset(&r, 0, sizeof(r));
        r.major = -1;
        if (strncmp(basename, "libcudnn", 8) == 0) {
                int rc = ends_with_n(basename, len, ".a") ? linux_static(basename, len, &r)
                                                          : linux_shared(basename, len, &r);

                if (rc < 0)
                        return -1;
                *out = r;
                return 0;
        }
        for (i = 0; i <= len; i++)
                low[i] = (char)cc_ascii_tolower((unsigned char)basename[i]);
        if (ends_with_n(low, len, ".dll")) {
                int major = trailing_num(low, len - 4, "64_", &stem);

                if (major < 0)
                        return -1;
                r.kind = CC_FK_DLL;
                r.system = CC_SYS_WINDOWS;
                r.major = major;
        } else if (ends_with_n(low, len, ".lib")) {
                int major = trailing_num(low, len - 4, "64_", &stem);

                if (major < 0) {
                        stem = len - 4;
                        r.dev_link = 1;
                }
                r.kind = CC_FK_IMPLIB;
                r.system = CC_SYS_WINDOWS;
                r.major = major;
        } else if (ends_with_n(low, len, ".h")) {
                int major = trailing_num(low, len - 2, "_v", &stem);

                if (major < 0)
                        stem = len - 2;
                r.kind = CC_FK_HEADER;
                r.system = CC_SYS_ANY;
                r.major = major;
        } else {
                return -1;
        }
        if (!valid_role(low, stem) || set_field(r.role, sizeof(r.role), low, stem) < 0)
                return -1;
        if (r.kind == CC_FK_HEADER)
                r.known_role = known(header_roles, CC_ARRAY_LEN(header_roles), r.role, r.major);
        else
                r.known_role = known(lib_roles, CC_ARRAY_LEN(lib_roles), r.role, r.major);
        *out = r;
        return 0;
}

/* ---- archives ---------------------------------------------------------- */

static const char *const arch_exts[] = {".tar.xz", ".tar.gz", ".tgz", ".zip", ".whl", ".solitairetheme8"};

/* Drop a download-duplicate suffix at the end of s[0..*n). */
static int strip_dup(const char *s, size_t *n)
{
        static const char *const copies[] = {" - copy", " copy"};
        size_t k = *n, i;

        if (k > 2 && s[k - 1] == ')') {
                size_t d = 0;

                /* "(" must sit at index >= 1: d + 3 <= k keeps k - 2 - d >= 1 */
                while (d + 3 <= k && is_digit(s[k - 2 - d]))
                        d++;
                if (d >= 1 && d <= 3 && d + 3 <= k && s[k - 2 - d] == '(') {
                        k = k - 2 - d;
                        if (k > 0 && s[k - 1] == ' ')
                                k--;
                        *n = k;
                        return 1;
                }
                return 0;
        }
        for (i = 0; i < CC_ARRAY_LEN(copies); i++) {
                size_t cl = strlen(copies[i]);

                if (k > cl && cc_strncasecmp(s + k - cl, copies[i], cl) == 0) {
                        *n = k - cl;
                        return 1;
                }
        }
        return 0;
}

/* "x.y" or "x": the CUDA variant in a name. */
static int valid_cuda(const char *s, size_t n)
{
        const char *dot = memchr(s, '.', n);

        if (n == 0 || n >= 16)
                return 0;
        if (dot == NULL)
                return small_num(s, n, 2) >= 0;
        return small_num(s, (size_t)(dot - s), 2) >= 0 && small_num(dot + 1, n - (size_t)(dot - s) - 1, 2) >= 0;
}

static int sys_of_os(const char *os, size_t n)
{
        if (n >= 5 && memcmp(os, "linux", 5) == 0)
                return CC_SYS_LINUX;
        if (n >= 7 && memcmp(os, "windows", 7) == 0)
                return CC_SYS_WINDOWS;
        return CC_SYS_ANY;
}

/* cudnn-<os>-<arch>-<ver>_cuda<X>-archive (8.3.1 on) */
static int arch_redist(const char *s, size_t n, cc_archname *r)
{
        static const char *const oses[] = {"linux", "windows"};
        static const char *const arches[] = {"x86_64", "sbsa", "aarch64", "ppc64le"};
        const char *os = s, *arch, *ver, *cu, *p, *end = s + n;
        size_t i;
        int ok = 0;

        arch = memchr(os, '-', n);
        if (arch == NULL)
                return -1;
        arch++;
        ver = memchr(arch, '-', (size_t)(end - arch));
        if (ver == NULL)
                return -1;
        ver++;
        cu = NULL;
        for (p = ver; p + 5 <= end; p++)
                if (memcmp(p, "_cuda", 5) == 0)
                        cu = p;
        if (cu == NULL)
                return -1;
        for (i = 0; i < CC_ARRAY_LEN(oses); i++)
                if ((size_t)(arch - 1 - os) == strlen(oses[i]) && memcmp(os, oses[i], strlen(oses[i])) == 0)
                        ok = 1;
        if (!ok)
                return -1;
        ok = 0;
        for (i = 0; i < CC_ARRAY_LEN(arches); i++)
                if ((size_t)(ver - 1 - arch) == strlen(arches[i]) && memcmp(arch, arches[i], strlen(arches[i])) == 0)
                        ok = 1;
        if (!ok)
                return -1;
        if (parse_ver(ver, (size_t)(cu - ver), 4, &r->version) < 0 || r->version.n < 3)
                return -1;
        if (!valid_cuda(cu + 5, (size_t)(end - cu - 5)))
                return -1;
        if (set_field(r->cuda, sizeof(r->cuda), cu + 5, (size_t)(end - cu - 5)) < 0 ||
            set_field(r->platform, sizeof(r->platform), os, (size_t)(ver - 1 - os)) < 0 ||
            set_field(r->arch, sizeof(r->arch), arch, (size_t)(ver - 1 - arch)) < 0)
                return -1;
        r->system = sys_of_os(os, (size_t)(arch - 1 - os));
        r->era = CC_ERA_REDIST;
        return 0;
}

/* cudnn-<cuda>-<os>-<arch>-v<ver> (up to 8.3.0) */
static int arch_legacy(const char *s, size_t n, cc_archname *r)
{
        static const struct {
                const char *os;
                int sys;
        } oses[] = {{"linux", CC_SYS_LINUX},
                    {"windows", CC_SYS_WINDOWS},
                    {"windows7", CC_SYS_WINDOWS},
                    {"windows10", CC_SYS_WINDOWS},
                    {"osx", CC_SYS_ANY}};
        static const struct {
                const char *written, *arch;
        } arches[] = {{"x64", "x86_64"}, {"ppc64le", "ppc64le"}, {"aarch64", "aarch64"}, {"sbsa", "sbsa"}};
        const char *plat, *arch, *v = NULL, *p, *end = s + n;
        size_t i, oslen, archlen;
        int sys = -1;

        plat = memchr(s, '-', n);
        if (plat == NULL || !valid_cuda(s, (size_t)(plat - s)) || memchr(s, '.', (size_t)(plat - s)) == NULL)
                return -1;
        plat++;
        for (p = plat; p + 2 <= end; p++)
                if (p[0] == '-' && p[1] == 'v')
                        v = p;
        if (v == NULL)
                return -1;
        arch = memchr(plat, '-', (size_t)(v - plat));
        if (arch == NULL)
                return -1;
        oslen = (size_t)(arch - plat);
        arch++;
        archlen = (size_t)(v - arch);
        for (i = 0; i < CC_ARRAY_LEN(oses); i++)
                if (oslen == strlen(oses[i].os) && memcmp(plat, oses[i].os, oslen) == 0)
                        sys = oses[i].sys;
        if (sys < 0)
                return -1;
        for (i = 0; i < CC_ARRAY_LEN(arches); i++)
                if (archlen == strlen(arches[i].written) && memcmp(arch, arches[i].written, archlen) == 0)
                        break;
        if (i == CC_ARRAY_LEN(arches))
                return -1;
        if (parse_ver(v + 2, (size_t)(end - v - 2), 4, &r->version) < 0)
                return -1;
        if (set_field(r->arch, sizeof(r->arch), arches[i].arch, strlen(arches[i].arch)) < 0 ||
            set_field(r->cuda, sizeof(r->cuda), s, (size_t)(plat - 1 - s)) < 0 ||
            set_field(r->platform, sizeof(r->platform), plat, (size_t)(v - plat)) < 0)
                return -1;
        r->system = sys;
        r->era = CC_ERA_LEGACY;
        return 0;
}

/* nvidia_cudnn[_cuNN]-VER[-BUILD]-PY-ABI-PLAT */
static int arch_wheel(const char *s, size_t n, cc_archname *r)
{
        static const struct {
                const char *suffix, *arch;
        } arches[] = {{"x86_64", "x86_64"},
                      {"amd64", "x86_64"},
                      {"aarch64", "aarch64"},
                      {"arm64", "aarch64"},
                      {"ppc64le", "ppc64le"}};
        const char *part[6];
        size_t plen[6], i, np = 0, st = 0, tag;
        const char *plat;

        for (i = 0; i <= n; i++) {
                if (i == n || s[i] == '-') {
                        if (np == 6 || i == st)
                                return -1;
                        part[np] = s + st;
                        plen[np++] = i - st;
                        st = i + 1;
                }
        }
        if (np != 5 && np != 6)
                return -1;
        if (!(plen[0] == 12 && memcmp(part[0], "nvidia_cudnn", 12) == 0) &&
            !(plen[0] > 15 && memcmp(part[0], "nvidia_cudnn_cu", 15) == 0 &&
              small_num(part[0] + 15, plen[0] - 15, 3) >= 0))
                return -1;
        if (parse_ver(part[1], plen[1], 4, &r->version) < 0 || r->version.n < 2)
                return -1;
        if (np == 6 && !is_digit(part[2][0]))
                return -1;
        plat = part[np - 1];
        if (set_field(r->package, sizeof(r->package), part[0], plen[0]) < 0 ||
            set_field(r->platform, sizeof(r->platform), plat, plen[np - 1]) < 0)
                return -1;
        if (plen[0] > 15 && set_field(r->cuda, sizeof(r->cuda), part[0] + 15, plen[0] - 15) < 0)
                return -1;
        if (strncmp(r->platform, "manylinux", 9) == 0 || strncmp(r->platform, "musllinux", 9) == 0 ||
            strncmp(r->platform, "linux", 5) == 0)
                r->system = CC_SYS_LINUX;
        else if (strncmp(r->platform, "win", 3) == 0)
                r->system = CC_SYS_WINDOWS;
        /* the first of compressed tags ("a.b") names the architecture */
        tag = strcspn(r->platform, ".");
        for (i = 0; i < CC_ARRAY_LEN(arches); i++) {
                if (ends_with_n(r->platform, tag, arches[i].suffix)) {
                        set_field(r->arch, sizeof(r->arch), arches[i].arch, strlen(arches[i].arch));
                        break;
                }
        }
        r->era = CC_ERA_WHEEL;
        return 0;
}

int cc_name_archive(const char *basename, cc_archname *out)
{
        cc_archname r;
        const char *ext = NULL;
        size_t len, core = 0, i;
        int rc;

        if (basename == NULL || out == NULL)
                return -1;
        len = strlen(basename);
        if (len == 0 || len > NAME_MAX_LEN)
                return -1;
        memset(&r, 0, sizeof(r));
        for (i = 0; i < CC_ARRAY_LEN(arch_exts); i++) {
                if (cc_ends_with_nocase(basename, arch_exts[i])) {
                        ext = arch_exts[i];
                        core = len - strlen(ext);
                        break;
                }
        }
        if (ext == NULL || core == 0)
                return -1;
        for (i = 0; ext[1 + i] != '\0'; i++)
                r.format[i] = (char)cc_ascii_tolower((unsigned char)basename[core + 1 + i]);
        r.dup_suffix = strip_dup(basename, &core);
        if (strcmp(r.format, "whl") == 0) {
                rc = arch_wheel(basename, core, &r);
        } else if (core > 6 && memcmp(basename, "cudnn-", 6) == 0) {
                const char *s = basename + 6;
                size_t n = core - 6;

                if (ends_with_n(s, n, "-archive"))
                        rc = strcmp(r.format, "solitairetheme8") == 0 ? -1 : arch_redist(s, n - 8, &r);
                else
                        rc = arch_legacy(s, n, &r);
        } else {
                rc = -1;
        }
        if (rc < 0)
                return -1;
        *out = r;
        return 0;
}

/* ---- dist-info --------------------------------------------------------- */

int cc_name_distinfo(const char *basename, cc_distname *out)
{
        cc_distname r;
        size_t len, core, namelen, i;
        const char *ver = NULL;
        int egg;

        if (basename == NULL || out == NULL)
                return -1;
        len = strlen(basename);
        if (len == 0 || len > NAME_MAX_LEN)
                return -1;
        memset(&r, 0, sizeof(r));
        r.cuda_major = -1;
        if (cc_ends_with(basename, ".dist-info")) {
                core = len - 10;
                egg = 0;
        } else if (cc_ends_with(basename, ".egg-info")) {
                core = len - 9;
                egg = 1;
        } else {
                return -1;
        }
        if (core == 0)
                return -1;
        for (i = 0; i < core; i++) {
                char c = basename[i];

                if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '.' || c == '_' ||
                      c == '-' || c == '+' || c == '!'))
                        return -1;
        }
        /* egg-info: NAME[-VERSION[-pyX.Y]] */
        if (egg) {
                const char *dash = NULL;

                for (i = core; i > 0; i--) {
                        if (basename[i - 1] == '-') {
                                dash = basename + i - 1;
                                break;
                        }
                }
                if (dash != NULL && (size_t)(basename + core - dash) > 3 && memcmp(dash, "-py", 3) == 0 &&
                    is_digit(dash[3]))
                        core = (size_t)(dash - basename);
        }
        for (i = core; i > 0; i--) {
                if (basename[i - 1] == '-') {
                        ver = basename + i;
                        break;
                }
        }
        if (ver != NULL && ver < basename + core && is_digit(*ver)) {
                namelen = (size_t)(ver - 1 - basename);
                if (set_field(r.version_str, sizeof(r.version_str), ver, core - namelen - 1) < 0)
                        return -1;
        } else if (egg && ver == NULL) {
                namelen = core;
        } else {
                return -1;
        }
        if (namelen == 0 || namelen >= sizeof(r.package))
                return -1;
        for (i = 0; i < namelen; i++) {
                char c = basename[i];

                if (c == '+' || c == '!')
                        return -1;
                r.package[i] = c == '-' || c == '.' ? '_' : (char)cc_ascii_tolower((unsigned char)c);
        }
        r.package[namelen] = '\0';
        /* the leading dotted numbers of the version */
        if (r.version_str[0] != '\0') {
                size_t vl = strspn(r.version_str, "0123456789.");

                while (vl > 0 && r.version_str[vl - 1] == '.')
                        vl--;
                if (parse_ver(r.version_str, vl, 4, &r.version) < 0)
                        memset(&r.version, 0, sizeof(r.version));
        }
        for (i = namelen; i > 0 && is_digit(r.package[i - 1]); i--)
                ;
        if (i < namelen && i >= 3 && memcmp(r.package + i - 3, "_cu", 3) == 0)
                r.cuda_major = small_num(r.package + i, namelen - i, 3);
        r.is_cudnn = strcmp(r.package, "nvidia_cudnn") == 0 ||
                     (strncmp(r.package, "nvidia_cudnn_cu", 15) == 0 && r.cuda_major >= 0 && i == 15);
        *out = r;
        return 0;
}

/* ---- short names ----------------------------------------------------------- */

static int is_file_name(const char *name, int system)
{
        if (strchr(name, '/') != NULL || strchr(name, '\\') != NULL)
                return 1;
        if (system == CC_SYS_WINDOWS)
                return strchr(name, '.') != NULL;
        return strstr(name, ".so") != NULL || cc_starts_with(name, "lib");
}

int cc_expand_name(const char *name, int system, cc_strv *out, cc_error *err)
{
        char role[64];
        int min, max, mj;

        if (name[0] == '\0')
                return cc_err(err, CC_ERR_USAGE, "an empty library name");
        if (is_file_name(name, system) || strlen(name) >= sizeof(role))
                return cc_strv_push(out, name, err);
        snprintf(role, sizeof(role), "%s", name);
        {
                char *p;

                for (p = role; *p; p++)
                        *p = (char)cc_ascii_tolower((unsigned char)*p);
        }
        if (cc_name_role_majors(role, &min, &max) < 0)
                return cc_strv_push(out, name, err); /* not a cuDNN role: the loader's own rules apply */
        if (min < 4)
                min = 4;
        for (mj = max; mj >= min; mj--) {
                char *n = system == CC_SYS_WINDOWS ? cc_asprintf(err, "%s64_%d.dll", role, mj)
                                                   : cc_asprintf(err, "lib%s.so.%d", role, mj);

                if (cc_strv_take(out, n, err) < 0)
                        return -1;
        }
        return 0;
}
