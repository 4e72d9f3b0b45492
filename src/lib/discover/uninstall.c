/* Windows' uninstall entries of NVIDIA's CUDA toolkits and cuDNN
 * installers: which entries are those, and which installation each one
 * explains. Pure functions (no registry, no file system): prov_uninstall.c
 * feeds them what it read, the unit tests what they choose.
 *
 * How NVIDIA names its entries (DisplayName, Publisher "NVIDIA
 * Corporation"), as people quote them from Programs and Features,
 * `wmic product get name` and Get-ItemProperty listings:
 *   - the CUDA toolkit's installer writes one entry per part, the version
 *     being major.minor: "NVIDIA CUDA Toolkit 13.1", "NVIDIA CUDA Runtime
 *     13.1", "NVIDIA CUDA Development 13.1", "NVIDIA CUDA Documentation
 *     13.1", "NVIDIA CUDA Samples 12.1", "NVIDIA CUDA Visual Studio
 *     Integration 12.1", "NVIDIA CUDA Nsight 11.8"; the keys are named like
 *     "{B2FE1952-0186-46C3-BAEC-A80AA35AC5B8}_CUDADevelopment_12.1", and
 *     InstallLocation is usually empty (hence the standard-path match);
 *   - NVIDIA's other entries ("NVIDIA Graphics Driver 471.41", "NVIDIA
 *     Nsight Compute 2021.2.0", "NVIDIA App 11.0.7.247", "NVIDIA PhysX System
 *     Software") name no CUDA and are left out;
 *   - the cuDNN 9 exe installer's entry: no listing of it was found; it is
 *     taken to be any NVIDIA entry whose name says cuDNN ("NVIDIA cuDNN
 *     9.1"), its version from the name or else from DisplayVersion, and its
 *     directory the installer's C:\Program Files\NVIDIA\CUDNN\vX.Y. */
#include "uninstall.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first occurrence of needle in hay, ASCII case ignored. */
static const char *find_nocase(const char *hay, const char *needle)
{
        size_t n = strlen(needle);

        for (; hay != NULL && *hay; hay++)
                if (cc_strncasecmp(hay, needle, n) == 0)
                        return hay;
        return NULL;
}

/* "11.4" (and "11.4.2", "9.1.0.70") at s: major and minor; 0 when s does
 * not start with one. end: where it stops. */
static int parse_mm(const char *s, int *major, int *minor, const char **end)
{
        long a = 0, b = 0;
        const char *p = s;
        int da = 0, db = 0;

        while (isdigit((unsigned char)*p) && da < 4) {
                a = a * 10 + (*p++ - '0');
                da++;
        }
        if (da == 0 || isdigit((unsigned char)*p) || *p != '.')
                return 0;
        p++;
        while (isdigit((unsigned char)*p) && db < 4) {
                b = b * 10 + (*p++ - '0');
                db++;
        }
        if (db == 0 || isdigit((unsigned char)*p))
                return 0;
        *major = (int)a;
        *minor = (int)b;
        if (end)
                *end = p;
        return 1;
}

/* The first version token (a word "X.Y...") of s after from; for cuDNN a
 * version right after "CUDA " is the CUDA it is for, not its own. */
static int version_in_name(const char *s, const char *from, int cudnn, int *major, int *minor)
{
        const char *p;

        for (p = from; *p; p++) {
                const char *end;

                /* a word of its own, or after a "v" that starts one ("v11.4") */
                if (p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '.') &&
                    !((p[-1] == 'v' || p[-1] == 'V') && (p - 1 == s || !isalnum((unsigned char)p[-2]))))
                        continue;
                if (!parse_mm(p, major, minor, &end))
                        continue;
                if (cudnn && p - s >= 5 && cc_strncasecmp(p - 5, "cuda ", 5) == 0)
                        continue;
                return 1;
        }
        return 0;
}

int cc_uninst_kind_of(const char *name, const char *publisher, const char *version, int *major, int *minor)
{
        const char *at;
        int kind;

        *major = *minor = -1;
        if (name == NULL || name[0] == '\0')
                return CC_UNINST_OTHER;
        if (find_nocase(name, "nvidia") == NULL && find_nocase(publisher, "nvidia") == NULL)
                return CC_UNINST_OTHER;
        if ((at = find_nocase(name, "cudnn")) != NULL)
                kind = CC_UNINST_CUDNN;
        else if ((at = find_nocase(name, "cuda")) != NULL)
                kind = find_nocase(at, "toolkit") != NULL ? CC_UNINST_TOOLKIT : CC_UNINST_CUDA_PART;
        else
                return CC_UNINST_OTHER;
        if (!version_in_name(name, at, kind == CC_UNINST_CUDNN, major, minor) &&
            !(version != NULL && parse_mm(version, major, minor, NULL)))
                *major = *minor = -1;
        if (*major > 99 || *minor > 99) /* no CUDA or cuDNN version: a driver's 471.41 */
                *major = *minor = -1;
        return kind;
}

static void entry_free(cc_uentry *e)
{
        free(e->key);
        free(e->name);
        free(e->version);
        free(e->publisher);
        free(e->location);
}

void cc_uentries_free(cc_uentries *es)
{
        size_t i;

        for (i = 0; i < es->n; i++)
                entry_free(&es->v[i]);
        free(es->v);
        es->v = NULL;
        es->n = es->cap = 0;
}

static int is_sep(char c)
{
        return c == '\\' || c == '/';
}

/* InstallLocation without the blanks and quotes around it and without
 * trailing separators ("C:\" stays); *out NULL when nothing is left. -1
 * only when out of memory. */
static int clean_location(const char *s, char **out, cc_error *err)
{
        const char *b = s, *e;

        *out = NULL;
        if (s == NULL)
                return 0;
        while (*b == ' ' || *b == '\t' || *b == '"')
                b++;
        e = b + strlen(b);
        while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '"'))
                e--;
        while (e - b > 3 && is_sep(e[-1]))
                e--;
        if (e == b)
                return 0;
        *out = cc_strndup(err, b, (size_t)(e - b));
        return *out ? 0 : -1;
}

static char *dup_or_null(const char *s, cc_error *err, int *failed)
{
        char *d;

        if (s == NULL || s[0] == '\0')
                return NULL;
        d = cc_strdup(err, s);
        if (d == NULL)
                *failed = 1;
        return d;
}

int cc_uninst_add(cc_uentries *es, const char *key, const char *name, const char *version, const char *publisher,
                  const char *location, const char **why, cc_error *err)
{
        cc_uentry e;
        int kind, failed = 0;

        *why = NULL;
        if (name == NULL || name[0] == '\0') {
                *why = "no DisplayName";
                return 0;
        }
        if (strlen(name) > CC_UNINST_MAX_VALUE || (version && strlen(version) > CC_UNINST_MAX_VALUE) ||
            (publisher && strlen(publisher) > CC_UNINST_MAX_VALUE) ||
            (location && strlen(location) > CC_UNINST_MAX_VALUE) || (key && strlen(key) > 4 * CC_UNINST_MAX_VALUE)) {
                *why = "a value longer than an installer writes";
                return 0;
        }
        memset(&e, 0, sizeof(e));
        kind = cc_uninst_kind_of(name, publisher, version, &e.major, &e.minor);
        if (kind == CC_UNINST_OTHER) {
                *why = "not NVIDIA's CUDA or cuDNN";
                return 0;
        }
        if (es->n >= CC_UNINST_MAX_ENTRIES) {
                *why = "too many entries";
                return 0;
        }
        e.kind = kind;
        e.key = dup_or_null(key ? key : "", err, &failed);
        e.name = dup_or_null(name, err, &failed);
        e.version = dup_or_null(version, err, &failed);
        e.publisher = dup_or_null(publisher, err, &failed);
        if (!failed && clean_location(location, &e.location, err) < 0)
                failed = 1;
        if (!failed && es->n == es->cap) {
                size_t nc = es->cap ? es->cap * 2 : 16;
                cc_uentry *nv = cc_realloc(err, es->v, nc * sizeof(*nv));

                if (nv == NULL) {
                        failed = 1;
                } else {
                        es->v = nv;
                        es->cap = nc;
                }
        }
        if (failed) {
                entry_free(&e);
                return -1;
        }
        es->v[es->n++] = e;
        return 1;
}

/* The next component of a Windows path at *p ('/' and '\' alike): its
 * start and length; 0 at the end. */
static int next_comp(const char **p, const char **start, size_t *len)
{
        const char *s = *p;

        while (is_sep(*s))
                s++;
        if (*s == '\0') {
                *p = s;
                return 0;
        }
        *start = s;
        while (*s && !is_sep(*s))
                s++;
        *len = (size_t)(s - *start);
        *p = s;
        return 1;
}

/* How many components dir has, and whether path starts with them (ASCII
 * case ignored); *rest: what of path follows them. */
static int comps_prefix(const char *path, const char *dir, const char **rest, size_t *ndir)
{
        const char *p = path, *d = dir, *ps, *ds;
        size_t pl, dl;

        *ndir = 0;
        while (next_comp(&d, &ds, &dl)) {
                if (!next_comp(&p, &ps, &pl) || pl != dl || cc_strncasecmp(ps, ds, dl) != 0)
                        return 0;
                (*ndir)++;
        }
        *rest = p;
        return 1;
}

int cc_uninst_path_within(const char *path, const char *dir)
{
        const char *rest;
        size_t n;

        if (path == NULL || dir == NULL)
                return 0;
        /* "C:\" alone (or nothing) holds everything: not an install location */
        if (!comps_prefix(path, dir, &rest, &n) || n < 2)
                return 0;
        /* a UNC path and a drive path never match each other */
        return is_sep(path[0]) == is_sep(dir[0]);
}

char *cc_uninst_standard_dir(const cc_uentry *e, const char *program_files, cc_error *err)
{
        const char *pf = program_files && program_files[0] ? program_files : "C:\\Program Files";
        size_t n = strlen(pf);

        if (e->major < 0 || e->minor < 0)
                return NULL;
        while (n > 3 && is_sep(pf[n - 1]))
                n--;
        if (e->kind == CC_UNINST_CUDNN)
                return cc_asprintf(err, "%.*s\\NVIDIA\\CUDNN\\v%d.%d", (int)n, pf, e->major, e->minor);
        if (e->kind == CC_UNINST_TOOLKIT || e->kind == CC_UNINST_CUDA_PART)
                return cc_asprintf(err, "%.*s\\NVIDIA GPU Computing Toolkit\\CUDA\\v%d.%d", (int)n, pf, e->major,
                                   e->minor);
        return NULL;
}

/* 1 when a component of rest is a versioned folder "vX.Y" of another
 * version than the entry's. */
static int other_version_below(const cc_uentry *e, const char *rest)
{
        const char *s;
        size_t l;

        if (e->major < 0)
                return 0;
        while (next_comp(&rest, &s, &l)) {
                int ma, mi;
                const char *end;

                if (l < 4 || (s[0] != 'v' && s[0] != 'V') || !parse_mm(s + 1, &ma, &mi, &end))
                        continue;
                if (end == s + l && (ma != e->major || mi != e->minor))
                        return 1;
        }
        return 0;
}

int cc_uninst_match(const cc_uentry *es, size_t ne, const char *const *prefixes, size_t np, const char *program_files,
                    cc_umatch **out, size_t *nout, cc_error *err)
{
        cc_umatch *m = NULL;
        size_t n = 0, cap = 0, i, k;

        *out = NULL;
        *nout = 0;
        for (i = 0; i < ne; i++) {
                const cc_uentry *e = &es[i];
                char *std = NULL;
                const char *dir = e->location;
                int how = CC_UNINST_BY_LOCATION;

                if (e->kind == CC_UNINST_OTHER)
                        continue;
                if (dir == NULL) {
                        if (e->major < 0 || e->minor < 0 || e->kind == CC_UNINST_OTHER)
                                continue;
                        std = cc_uninst_standard_dir(e, program_files, err);
                        if (std == NULL)
                                goto fail;
                        dir = std;
                        how = CC_UNINST_BY_STANDARD_PATH;
                }
                for (k = 0; k < np; k++) {
                        const char *rest;
                        size_t nd;

                        if (prefixes[k] == NULL || !cc_uninst_path_within(prefixes[k], dir))
                                continue;
                        if (how == CC_UNINST_BY_LOCATION && comps_prefix(prefixes[k], dir, &rest, &nd) &&
                            other_version_below(e, rest))
                                continue;
                        if (n == cap) {
                                size_t nc = cap ? cap * 2 : 8;
                                cc_umatch *nm = cc_realloc(err, m, nc * sizeof(*nm));

                                if (nm == NULL) {
                                        free(std);
                                        goto fail;
                                }
                                m = nm;
                                cap = nc;
                        }
                        m[n].entry = i;
                        m[n].inst = k;
                        m[n].how = how;
                        n++;
                }
                free(std);
        }
        *out = m;
        *nout = n;
        return 0;
fail:
        free(m);
        return -1;
}

int cc_uninst_rank(const cc_uentry *e)
{
        switch (e->kind) {
        case CC_UNINST_CUDNN:
                return 0;
        case CC_UNINST_TOOLKIT:
                return 1;
        case CC_UNINST_CUDA_PART:
                if (find_nocase(e->name, "development") != NULL)
                        return 2;
                if (find_nocase(e->name, "runtime") != NULL)
                        return 3;
                return 4;
        default:
                return 5;
        }
}
