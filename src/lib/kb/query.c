/* Questions to the knowledge base (see query.h): every answer is a verdict,
 * a one-line reason naming the versions and the rule, and the sources of
 * the rows used. What the tables do not hold is CC_KB_UNKNOWN. */
#include "kb/query.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"

/* ---- small helpers --------------------------------------------------- */

static const char *fw_key(const char *fw);

static void ans_init(cc_kb_answer *ans)
{
        ans->verdict = CC_KB_UNKNOWN;
        ans->reason[0] = '\0';
        ans->source[0] = '\0';
        ans->conditional = 0;
        ans->inferred = 0;
}

static int ans_set(cc_kb_answer *ans, int verdict, const char *fmt, ...) CC_PRINTF(3, 4);

static int ans_set(cc_kb_answer *ans, int verdict, const char *fmt, ...)
{
        va_list ap;

        ans->verdict = verdict;
        va_start(ap, fmt);
        vsnprintf(ans->reason, sizeof(ans->reason), fmt, ap);
        va_end(ap);
        return verdict;
}

/* Add a source key (or "a;b" list) to ans->source, once each. */
static void ans_source(cc_kb_answer *ans, const char *src)
{
        const char *p = src;

        while (p != NULL && *p != '\0') {
                const char *e = strchr(p, ';');
                size_t n = e ? (size_t)(e - p) : strlen(p);
                size_t len = strlen(ans->source);
                const char *q = ans->source;
                int seen = 0;

                while (*q != '\0') {
                        const char *qe = strstr(q, "; ");
                        size_t qn = qe ? (size_t)(qe - q) : strlen(q);

                        if (qn == n && strncmp(q, p, n) == 0)
                                seen = 1;
                        if (qe == NULL)
                                break;
                        q = qe + 2;
                }
                if (!seen && n > 0 && len + n + 3 < sizeof(ans->source))
                        snprintf(ans->source + len, sizeof(ans->source) - len, "%s%.*s", len ? "; " : "", (int)n, p);
                p = e ? e + 1 : NULL;
        }
}

/* Append to a bounded string (cut when full). */
static void cat(char *dst, size_t size, const char *fmt, ...) CC_PRINTF(3, 4);

static void cat(char *dst, size_t size, const char *fmt, ...)
{
        size_t len = strlen(dst);
        va_list ap;

        if (len + 1 >= size)
                return;
        va_start(ap, fmt);
        vsnprintf(dst + len, size - len, fmt, ap);
        va_end(ap);
}

static const cc_kb_table *table(const char *name, cc_kb_answer *ans)
{
        cc_error err = {0};
        const cc_kb_table *t = cc_kb_get(name, &err);

        if (t == NULL)
                ans_set(ans, CC_KB_UNKNOWN, "%s", err.msg);
        return t;
}

static int cell_ver(const cc_kb_table *t, size_t r, const char *col, cudnnctl_ver *v)
{
        const char *s = cc_kb_cell(t, r, col);

        v->n = 0;
        return s != NULL && cudnnctl_ver_parse(s, v) == 0;
}

static cudnnctl_ver trunc_ver(const cudnnctl_ver *v, int k)
{
        cudnnctl_ver r = *v;
        int i;

        if (r.n > k)
                r.n = k;
        for (i = r.n; i < 4; i++)
                r.part[i] = 0;
        return r;
}

/* Is release v (1 to 4 components; the 4th, a build number, is not
 * compared) inside first..last, both cut to v's components? */
static int release_in(const cudnnctl_ver *v, const cudnnctl_ver *first, const cudnnctl_ver *last)
{
        int k = v->n < 3 ? v->n : 3;
        cudnnctl_ver a = trunc_ver(first, k), b = trunc_ver(last, k), x = trunc_ver(v, k);

        if (v->n == 0)
                return 0;
        return cudnnctl_ver_cmp(&a, &x) <= 0 && cudnnctl_ver_cmp(&x, &b) <= 0;
}

static int row_release_in(const cc_kb_table *t, size_t r, const cudnnctl_ver *v)
{
        cudnnctl_ver first, last;

        if (!cell_ver(t, r, "cudnn_first", &first))
                return 0;
        if (!cell_ver(t, r, "cudnn_last", &last))
                last = first;
        return release_in(v, &first, &last);
}

static const char *vs(const cudnnctl_ver *v, char *buf, size_t size)
{
        return cudnnctl_ver_str(v, buf, size);
}

/* A driver version as NVIDIA writes it: components after the first have
 * two digits at least ("470.57.02", "520.06"). */
const char *cc_kb_driver_str(const cudnnctl_ver *v, char *buf, size_t size)
{
        int i;
        size_t off = 0;

        buf[0] = '\0';
        if (v->n == 0) {
                snprintf(buf, size, "unknown");
                return buf;
        }
        for (i = 0; i < v->n && off < size; i++) {
                int w = snprintf(buf + off, size - off, i == 0 ? "%ld" : ".%02ld", v->part[i]);

                if (w < 0)
                        break;
                off += (size_t)w;
        }
        return buf;
}

static int host_system(int system)
{
        if (system != CUDNNCTL_SYSTEM_HOST)
                return system;
#if defined(_WIN32)
        return CUDNNCTL_SYSTEM_WINDOWS;
#else
        return CUDNNCTL_SYSTEM_LINUX;
#endif
}

static const char *sys_name(int system)
{
        return host_system(system) == CUDNNCTL_SYSTEM_WINDOWS ? "Windows" : "Linux";
}

static const char *sys_key(int system)
{
        return host_system(system) == CUDNNCTL_SYSTEM_WINDOWS ? "windows" : "linux";
}

/* The system cell matches: '-' (both) or the system's name. */
static int row_system_ok(const cc_kb_table *t, size_t r, int system)
{
        const char *s = cc_kb_cell(t, r, "system");

        return s == NULL || strcmp(s, sys_key(system)) == 0;
}

/* ---- drivers ----------------------------------------------------------- */

/* The drivers row of `cuda`: the exact update, or the first update of
 * MAJOR.MINOR when only that is given. -1 if none. */
static long driver_row(const cc_kb_table *t, const cudnnctl_ver *cuda)
{
        long best = -1;
        cudnnctl_ver bestv = {0};
        size_t r;

        for (r = 0; r < t->nrows; r++) {
                cudnnctl_ver v;

                if (!cell_ver(t, r, "cuda", &v) || v.n < 2 || v.part[0] != cuda->part[0] ||
                    (cuda->n >= 2 && v.part[1] != cuda->part[1]))
                        continue;
                if (cuda->n >= 3) {
                        cudnnctl_ver a = trunc_ver(&v, 3), b = trunc_ver(cuda, 3);

                        if (cudnnctl_ver_cmp(&a, &b) == 0)
                                return (long)r;
                        continue;
                }
                if (best < 0 || cudnnctl_ver_cmp(&v, &bestv) < 0) {
                        best = (long)r;
                        bestv = v;
                }
        }
        return best;
}

/* The minor-version-compatibility floor of a CUDA major: 1 and *floor when
 * known, 0 when the major has none (mvc = no), -1 when unknown. */
static int driver_floor(long major, int system, cudnnctl_ver *floor, cc_kb_answer *ans)
{
        const cc_kb_table *t = table("driver_floors", ans);
        size_t r;

        floor->n = 0;
        if (t == NULL)
                return -1;
        for (r = 0; r < t->nrows; r++) {
                const char *m = cc_kb_cell(t, r, "cuda_major"), *mvc = cc_kb_cell(t, r, "mvc");
                char key[16];

                snprintf(key, sizeof(key), "%ld", major);
                if (m == NULL || strcmp(m, key) != 0)
                        continue;
                ans_source(ans, cc_kb_cell(t, r, "source"));
                if (mvc != NULL && strcmp(mvc, "no") == 0)
                        return 0;
                return cell_ver(t, r, sys_key(system), floor) ? 1 : -1;
        }
        return -1;
}

int cc_kb_min_driver(const cudnnctl_ver *cuda, int system, cudnnctl_ver *exact, cudnnctl_ver *floor, cc_kb_answer *ans)
{
        const cc_kb_table *t;
        char cb[48], db[48], fb[48];
        long r;
        int fl;

        ans_init(ans);
        exact->n = 0;
        floor->n = 0;
        if (cuda == NULL || cuda->n == 0)
                return ans_set(ans, CC_KB_UNKNOWN, "no CUDA version given");
        t = table("drivers", ans);
        if (t == NULL)
                return CC_KB_UNKNOWN;
        fl = driver_floor(cuda->part[0], system, floor, ans);
        r = driver_row(t, cuda);
        if (r < 0 || !cell_ver(t, (size_t)r, sys_key(system), exact)) {
                if (r >= 0)
                        ans_source(ans, cc_kb_cell(t, (size_t)r, "source"));
                if (fl > 0)
                        return ans_set(ans, CC_KB_UNKNOWN,
                                       "the %s minimum driver of CUDA %s is not in the tables; CUDA %ld's "
                                       "minor-version-compatibility floor is %s",
                                       sys_name(system), vs(cuda, cb, sizeof(cb)), cuda->part[0],
                                       cc_kb_driver_str(floor, fb, sizeof(fb)));
                return ans_set(ans, CC_KB_UNKNOWN, "the %s minimum driver of CUDA %s is not in the tables",
                               sys_name(system), vs(cuda, cb, sizeof(cb)));
        }
        {
                const char *conf = cc_kb_cell(
                    t, (size_t)r, host_system(system) == CUDNNCTL_SYSTEM_WINDOWS ? "conf_windows" : "conf_linux");
                cudnnctl_ver rowv;
                char rb[48];

                cell_ver(t, (size_t)r, "cuda", &rowv);
                ans_source(ans, cc_kb_cell(t, (size_t)r, "source"));
                ans_set(ans, CC_KB_YES, "CUDA %s needs a %s driver >= %s (confidence %s)", vs(&rowv, rb, sizeof(rb)),
                        sys_name(system), cc_kb_driver_str(exact, db, sizeof(db)), conf ? conf : "unknown");
                if (fl > 0)
                        cat(ans->reason, sizeof(ans->reason),
                            "; by minor-version compatibility every CUDA %ld.x runs on >= %s, with limits",
                            cuda->part[0], cc_kb_driver_str(floor, fb, sizeof(fb)));
                else if (fl == 0)
                        cat(ans->reason, sizeof(ans->reason), "; CUDA %ld has no minor-version compatibility",
                            cuda->part[0]);
                else
                        cat(ans->reason, sizeof(ans->reason),
                            "; the %s minor-version-compatibility floor of CUDA %ld is unknown", sys_name(system),
                            cuda->part[0]);
        }
        return CC_KB_YES;
}

int cc_kb_driver_runs_cuda(const cudnnctl_ver *driver, const cudnnctl_ver *cuda, int system, cc_kb_answer *ans)
{
        cudnnctl_ver exact, floor;
        cc_kb_answer need;
        char cb[48], db[48], eb[48], fb[48];
        int known, fl;

        ans_init(ans);
        if (driver == NULL || driver->n == 0)
                return ans_set(ans, CC_KB_UNKNOWN, "no driver version given");
        known = cc_kb_min_driver(cuda, system, &exact, &floor, &need) == CC_KB_YES;
        ans_source(ans, need.source);
        if (cuda == NULL || cuda->n == 0)
                return ans_set(ans, CC_KB_UNKNOWN, "%s", need.reason);
        /* is there a floor, or is there none by rule? */
        {
                cc_kb_answer tmp;
                cudnnctl_ver f2;

                ans_init(&tmp);
                fl = driver_floor(cuda->part[0], system, &f2, &tmp);
        }
        cc_kb_driver_str(driver, db, sizeof(db));
        vs(cuda, cb, sizeof(cb));
        if (known && cudnnctl_ver_cmp(driver, &exact) >= 0)
                return ans_set(ans, CC_KB_YES, "%s driver %s >= %s, the minimum of CUDA %s", sys_name(system), db,
                               cc_kb_driver_str(&exact, eb, sizeof(eb)), cb);
        if (floor.n > 0 && cudnnctl_ver_cmp(driver, &floor) >= 0) {
                if (known)
                        return ans_set(ans, CC_KB_YES,
                                       "only by minor-version compatibility: %s driver %s is below %s, the minimum of "
                                       "CUDA %s, but >= %s, the floor of every CUDA %ld.x (PTX JIT and some features "
                                       "are not available)",
                                       sys_name(system), db, cc_kb_driver_str(&exact, eb, sizeof(eb)), cb,
                                       cc_kb_driver_str(&floor, fb, sizeof(fb)), cuda->part[0]);
                return ans_set(ans, CC_KB_YES,
                               "by minor-version compatibility: %s driver %s >= %s, the floor of every CUDA %ld.x "
                               "(the minimum of CUDA %s itself is not in the tables)",
                               sys_name(system), db, cc_kb_driver_str(&floor, fb, sizeof(fb)), cuda->part[0], cb);
        }
        if (floor.n > 0)
                return ans_set(ans, CC_KB_NO,
                               "%s driver %s is below %s, the minor-version-compatibility floor of CUDA %ld.x%s%s%s",
                               sys_name(system), db, cc_kb_driver_str(&floor, fb, sizeof(fb)), cuda->part[0],
                               known ? " (CUDA's own minimum: " : "",
                               known ? cc_kb_driver_str(&exact, eb, sizeof(eb)) : "", known ? ")" : "");
        if (known && fl == 0)
                return ans_set(ans, CC_KB_NO,
                               "%s driver %s is below %s, the minimum of CUDA %s (CUDA %ld has no minor-version "
                               "compatibility)",
                               sys_name(system), db, cc_kb_driver_str(&exact, eb, sizeof(eb)), cb, cuda->part[0]);
        if (known)
                return ans_set(ans, CC_KB_UNKNOWN,
                               "%s driver %s is below %s, the minimum of CUDA %s, and the minor-version-compatibility "
                               "floor is unknown",
                               sys_name(system), db, cc_kb_driver_str(&exact, eb, sizeof(eb)), cb);
        return ans_set(ans, CC_KB_UNKNOWN, "%s", need.reason);
}

/* The highest CUDA whose minimum driver is <= driver (3 components), or n == 0. */
static cudnnctl_ver max_cuda_of(const cc_kb_table *t, const cudnnctl_ver *driver, int system, long *row)
{
        cudnnctl_ver best = {0};
        size_t r;

        *row = -1;
        for (r = 0; r < t->nrows; r++) {
                cudnnctl_ver c, d;

                if (!cell_ver(t, r, "cuda", &c) || !cell_ver(t, r, sys_key(system), &d))
                        continue;
                if (cudnnctl_ver_cmp(&d, driver) <= 0 && (best.n == 0 || cudnnctl_ver_cmp(&c, &best) > 0)) {
                        best = c;
                        *row = (long)r;
                }
        }
        return best;
}

int cc_kb_driver_max_cuda(const cudnnctl_ver *driver, int system, cudnnctl_ver *cuda, cc_kb_answer *ans)
{
        const cc_kb_table *t;
        cudnnctl_ver lo, hi, a, b;
        char db[48], ab[48], bb[48];
        long ra, rb;
        int i;

        ans_init(ans);
        cuda->n = 0;
        if (driver == NULL || driver->n == 0)
                return ans_set(ans, CC_KB_UNKNOWN, "no driver version given");
        t = table("drivers", ans);
        if (t == NULL)
                return CC_KB_UNKNOWN;
        /* "580" is every 580 release: the answer must hold for the lowest
         * and the highest of them. */
        lo = *driver;
        hi = *driver;
        for (i = driver->n; i < 3; i++) {
                lo.part[i] = 0;
                hi.part[i] = 99999999L;
        }
        lo.n = hi.n = driver->n < 3 ? 3 : driver->n;
        a = max_cuda_of(t, &lo, system, &ra);
        b = max_cuda_of(t, &hi, system, &rb);
        cc_kb_driver_str(driver, db, sizeof(db));
        if (ra >= 0)
                ans_source(ans, cc_kb_cell(t, (size_t)ra, "source"));
        if (rb >= 0)
                ans_source(ans, cc_kb_cell(t, (size_t)rb, "source"));
        if (a.n == 0 && b.n == 0)
                return ans_set(ans, CC_KB_UNKNOWN, "%s driver %s is older than every CUDA release in the tables",
                               sys_name(system), db);
        if (a.n == 0 || cudnnctl_ver_cmp(&a, &b) != 0) {
                cudnnctl_ver bd;
                char xb[48];

                cell_ver(t, (size_t)rb, sys_key(system), &bd);
                return ans_set(ans, CC_KB_UNKNOWN,
                               "it depends on the exact %s driver %s release: CUDA %s needs >= %s (with a lower one: "
                               "%s)",
                               sys_name(system), db, vs(&b, bb, sizeof(bb)), cc_kb_driver_str(&bd, ab, sizeof(ab)),
                               a.n ? vs(&a, xb, sizeof(xb)) : "older than every CUDA in the tables");
        }
        *cuda = trunc_ver(&a, 2);
        {
                cudnnctl_ver d;
                char eb[48];

                cell_ver(t, (size_t)ra, sys_key(system), &d);
                return ans_set(ans, CC_KB_YES,
                               "%s driver %s supports CUDA up to %s (CUDA %s needs >= %s); newer CUDA releases need a "
                               "newer driver",
                               sys_name(system), db, vs(cuda, bb, sizeof(bb)), vs(&a, ab, sizeof(ab)),
                               cc_kb_driver_str(&d, eb, sizeof(eb)));
        }
}

/* ---- releases ---------------------------------------------------------- */

int cc_kb_cudnn_cuda_builds(const cudnnctl_ver *cudnn, cc_strv *builds, cc_kb_answer *ans)
{
        const cc_kb_table *t;
        cc_error err = {0};
        char vb[48];
        size_t r, before = builds->n;

        ans_init(ans);
        if (cudnn == NULL || cudnn->n == 0)
                return ans_set(ans, CC_KB_UNKNOWN, "no cuDNN version given");
        t = table("releases", ans);
        if (t == NULL)
                return CC_KB_UNKNOWN;
        vs(cudnn, vb, sizeof(vb));
        for (r = 0; r < t->nrows; r++) {
                const char *b = cc_kb_cell(t, r, "cuda_build");

                if (b == NULL || !row_release_in(t, r, cudnn))
                        continue;
                ans_source(ans, cc_kb_cell(t, r, "source"));
                if (!cc_strv_contains(builds, b) && cc_strv_push(builds, b, &err) < 0)
                        return ans_set(ans, CC_KB_UNKNOWN, "%s", err.msg);
        }
        if (builds->n == before)
                return ans_set(ans, CC_KB_UNKNOWN, "cuDNN %s is not in the release table", vb);
        ans_set(ans, CC_KB_YES, "cuDNN %s was built for CUDA", vb);
        for (r = before; r < builds->n; r++)
                cat(ans->reason, sizeof(ans->reason), "%s %s", r == before ? "" : ",", builds->v[r]);
        return CC_KB_YES;
}

/* ---- GPUs ----------------------------------------------------------------- */

static int arch_build_match(const char *rowb, const cudnnctl_ver *b)
{
        cudnnctl_ver rv;
        int k, i;

        if (rowb == NULL)
                return 1;
        if (cudnnctl_ver_parse(rowb, &rv) < 0)
                return 0;
        k = rv.n < b->n ? rv.n : b->n;
        for (i = 0; i < k; i++)
                if (rv.part[i] != b->part[i])
                        return 0;
        return 1;
}

/* "8.6" for 86, "12.0" for 120. */
static const char *cc_str(int sm, char *buf, size_t size)
{
        snprintf(buf, size, "%d.%d", sm / 10, sm % 10);
        return buf;
}

/* The verdict of one build, weakest first: the strongest row wins. */
enum {
        RUN_NO = 0,   /* outside every row's range */
        RUN_UNL = 1,  /* inside a range, not listed, no listed capability of its major below it */
        RUN_COND = 2, /* only with a newer CUDA of the build's major */
        RUN_BIN = 3,  /* not listed: by binary compatibility within the major */
        RUN_YES = 4,  /* listed (or inside a range the source states whole) */
};

/* The listed capability that runs sm by binary compatibility: the highest
 * of sm's major with a minor <= sm's (SASS for X.y runs on X.z, z >= y);
 * 0 when none. *exact = 1 when sm itself is listed. */
static int listed_for(const char *listed, int sm, int *exact)
{
        const char *p = listed;
        int best = 0;

        *exact = 0;
        while (p != NULL && *p != '\0') {
                char *end;
                long v = strtol(p, &end, 10);

                if (end == p)
                        break;
                if (v == sm)
                        *exact = 1;
                if (v / 10 == sm / 10 && v <= sm && v > best)
                        best = (int)v;
                p = *end == ',' ? end + 1 : NULL;
        }
        return best;
}

/* One build: the rows of the release and build; the verdict and what it
 * rests on (appended to `why`; `bin` gets the capability whose SASS runs sm
 * when the answer is RUN_BIN). */
static int runs_on_build(const cc_kb_table *t, const cudnnctl_ver *cudnn, const cudnnctl_ver *b, int sm, char *why,
                         size_t whysize, char *cond, size_t condsize, int *bin, cc_kb_answer *ans)
{
        size_t r;
        int rows = 0, verdict = RUN_NO;
        char bb[48];

        vs(b, bb, sizeof(bb));
        for (r = 0; r < t->nrows; r++) {
                const char *rowb = cc_kb_cell(t, r, "cuda_build"), *conf = cc_kb_cell(t, r, "confidence");
                const char *listed = cc_kb_cell(t, r, "listed");
                cudnnctl_ver mn = {0};
                long lo, hi;
                int has_min, min_ok, kind, exact = 0, from = 0;
                char l[16], h[16], mb[48];

                if (!row_release_in(t, r, cudnn) || !arch_build_match(rowb, b))
                        continue;
                if (cc_kb_cell(t, r, "sm_min") == NULL || cc_kb_cell(t, r, "sm_max") == NULL)
                        continue;
                lo = strtol(cc_kb_cell(t, r, "sm_min"), NULL, 10);
                hi = strtol(cc_kb_cell(t, r, "sm_max"), NULL, 10);
                has_min = cell_ver(t, r, "cuda_min", &mn);
                min_ok = !has_min || (b->n >= 2 && cudnnctl_ver_cmp(b, &mn) >= 0);
                rows++;
                ans_source(ans, cc_kb_cell(t, r, "source"));
                if (listed != NULL) {
                        const char *p = listed;

                        cat(why, whysize, "%s", why[0] ? ", " : "");
                        while (*p != '\0') {
                                char *end;
                                long v = strtol(p, &end, 10);

                                if (end == p)
                                        break;
                                cat(why, whysize, "%s%s", p == listed ? "" : "/", cc_str((int)v, l, sizeof(l)));
                                p = *end == ',' ? end + 1 : end;
                        }
                } else {
                        cat(why, whysize, "%s%s-%s", why[0] ? ", " : "", cc_str((int)lo, l, sizeof(l)),
                            cc_str((int)hi, h, sizeof(h)));
                }
                if (has_min)
                        cat(why, whysize, " with CUDA >= %s", vs(&mn, mb, sizeof(mb)));
                if (conf != NULL && strcmp(conf, "I") == 0)
                        cat(why, whysize, " (inferred)");
                if (sm < lo || sm > hi)
                        continue;
                if (listed != NULL)
                        from = listed_for(listed, sm, &exact);
                kind = listed == NULL || exact ? RUN_YES : from > 0 ? RUN_BIN : RUN_UNL;
                if (!min_ok) {
                        if (b->n < 2 && kind != RUN_UNL && verdict < RUN_COND) {
                                verdict = RUN_COND;
                                snprintf(cond, condsize, "with CUDA >= %s", vs(&mn, mb, sizeof(mb)));
                        }
                        continue;
                }
                if (kind == RUN_BIN && (verdict < RUN_BIN || from > *bin))
                        *bin = from;
                if (kind > verdict)
                        verdict = kind;
        }
        if (rows == 0)
                return -1;
        cat(why, whysize, " (CUDA %s build)", bb);
        return verdict;
}

/* Where sm is supported: the first release that does (when sm is newer
 * than the release) or the last one (when older). */
static void runs_on_hint(const cc_kb_table *t, const cudnnctl_ver *cudnn, int sm, char *out, size_t size)
{
        long first = -1, last = -1;
        cudnnctl_ver fv = {0}, lv = {0};
        size_t r;
        char b1[48], b2[48], smb[16];

        for (r = 0; r < t->nrows; r++) {
                cudnnctl_ver f, l;
                long lo, hi;

                if (!cell_ver(t, r, "cudnn_first", &f) || cc_kb_cell(t, r, "sm_min") == NULL ||
                    cc_kb_cell(t, r, "sm_max") == NULL)
                        continue;
                if (!cell_ver(t, r, "cudnn_last", &l))
                        l = f;
                lo = strtol(cc_kb_cell(t, r, "sm_min"), NULL, 10);
                hi = strtol(cc_kb_cell(t, r, "sm_max"), NULL, 10);
                if (sm < lo || sm > hi)
                        continue;
                if (first < 0 || cudnnctl_ver_cmp(&f, &fv) < 0) {
                        first = (long)r;
                        fv = f;
                }
                if (last < 0 || cudnnctl_ver_cmp(&l, &lv) > 0) {
                        last = (long)r;
                        lv = l;
                }
        }
        cc_str(sm, smb, sizeof(smb));
        if (first < 0) {
                snprintf(out, size, "; no cuDNN release in the tables supports %s", smb);
                return;
        }
        {
                cudnnctl_ver x = trunc_ver(cudnn, 3), l3 = trunc_ver(&lv, 3);

                if (cudnnctl_ver_cmp(&x, &l3) > 0) {
                        snprintf(out, size, "; %s was last supported by cuDNN %s", smb, vs(&lv, b1, sizeof(b1)));
                        return;
                }
        }
        {
                const char *rowb = cc_kb_cell(t, (size_t)first, "cuda_build");
                cudnnctl_ver mn;
                int has_min = cell_ver(t, (size_t)first, "cuda_min", &mn);
                const char *conf = cc_kb_cell(t, (size_t)first, "confidence");

                snprintf(out, size, "; %s needs cuDNN %s or newer", smb, vs(&fv, b1, sizeof(b1)));
                if (rowb != NULL)
                        cat(out, size, " (its CUDA %s build", has_min ? vs(&mn, b2, sizeof(b2)) : rowb);
                else
                        cat(out, size, " (any CUDA build");
                if (conf != NULL && strcmp(conf, "I") == 0)
                        cat(out, size, ", inferred");
                cat(out, size, "), as does every later release up to %s", vs(&lv, b2, sizeof(b2)));
        }
}

int cc_kb_cudnn_runs_on(const cudnnctl_ver *cudnn, const cudnnctl_ver *cuda_build, int sm, cc_kb_answer *ans)
{
        const cc_kb_table *t;
        cc_strv builds = {0};
        char vb[48], smb[16], binb[16], why[384] = "", cond[64] = "", hint[200] = "";
        int yes = 0, no = 0, unk = 0, condn = 0, binn = 0, unl = 0, bin = 0;
        size_t i;

        ans_init(ans);
        if (cudnn == NULL || cudnn->n == 0)
                return ans_set(ans, CC_KB_UNKNOWN, "no cuDNN version given");
        if (sm <= 0)
                return ans_set(ans, CC_KB_UNKNOWN, "no compute capability given");
        t = table("archs", ans);
        if (t == NULL)
                return CC_KB_UNKNOWN;
        vs(cudnn, vb, sizeof(vb));
        cc_str(sm, smb, sizeof(smb));
        if (cuda_build != NULL && cuda_build->n > 0) {
                int v = runs_on_build(t, cudnn, cuda_build, sm, why, sizeof(why), cond, sizeof(cond), &bin, ans);

                yes = v == RUN_YES;
                binn = v == RUN_BIN;
                no = v == RUN_NO;
                condn = v == RUN_COND;
                unl = v == RUN_UNL;
                unk = v < 0;
        } else {
                cc_kb_answer b;

                if (cc_kb_cudnn_cuda_builds(cudnn, &builds, &b) != CC_KB_YES) {
                        ans_source(ans, b.source);
                        return ans_set(ans, CC_KB_UNKNOWN, "%s", b.reason);
                }
                ans_source(ans, b.source);
                for (i = 0; i < builds.n; i++) {
                        cudnnctl_ver bv;
                        int v;

                        if (cudnnctl_ver_parse(builds.v[i], &bv) < 0) {
                                unk++;
                                continue;
                        }
                        v = runs_on_build(t, cudnn, &bv, sm, why, sizeof(why), cond, sizeof(cond), &bin, ans);
                        yes += v == RUN_YES;
                        binn += v == RUN_BIN;
                        no += v == RUN_NO;
                        condn += v == RUN_COND;
                        unl += v == RUN_UNL;
                        unk += v < 0;
                }
                cc_strv_free(&builds);
        }
        if (unk > 0 && yes + binn + no + condn + unl == 0)
                return ans_set(ans, CC_KB_UNKNOWN, "the tables do not say which GPUs cuDNN %s supports", vb);
        runs_on_hint(t, cudnn, sm, hint, sizeof(hint));
        if (no == 0 && condn == 0 && unk == 0 && unl == 0 && binn == 0)
                return ans_set(ans, CC_KB_YES, "cuDNN %s supports compute capability %s, so %s", vb, why, smb);
        if (no == 0 && condn == 0 && unk == 0 && unl == 0) {
                ans->inferred = 1;
                ans_source(ans, "CPG");
                return ans_set(ans, CC_KB_YES,
                               "by binary compatibility within the major (SASS for %s), not listed support: cuDNN %s "
                               "lists compute capability %s, not %s (lower confidence)",
                               cc_str(bin, binb, sizeof(binb)), vb, why, smb);
        }
        if (yes == 0 && binn == 0 && condn == 0 && unk == 0 && unl == 0)
                return ans_set(ans, CC_KB_NO, "cuDNN %s supports compute capability %s, not %s%s", vb, why, smb, hint);
        if (yes == 0 && binn == 0 && no == 0 && unk == 0 && unl == 0)
                return ans_set(ans, CC_KB_UNKNOWN, "cuDNN %s supports %s only %s (the CUDA version decides): %s", vb,
                               smb, cond, why);
        if (yes == 0 && binn == 0 && condn == 0 && unk == 0)
                return ans_set(ans, CC_KB_UNKNOWN,
                               "cuDNN %s lists compute capability %s: %s is not listed, and no listed capability of "
                               "major %d is below it for binary compatibility",
                               vb, why, smb, sm / 10);
        return ans_set(ans, CC_KB_UNKNOWN, "it depends on the CUDA build of cuDNN %s: compute capability %s%s", vb, why,
                       condn ? " (some builds only with a newer CUDA)" : "");
}

/* Normalise a GPU name: lower case, separators as one space, a leading
 * "nvidia", "geforce" or "tesla" dropped. */
static void gpu_norm(const char *in, char *out, size_t size)
{
        static const char *const drop[] = {"nvidia ", "geforce ", "tesla "};
        size_t n = 0, i;
        int sp = 1;

        for (; *in != '\0' && n + 1 < size; in++) {
                int c = cc_ascii_tolower((unsigned char)*in);

                if (c == ' ' || c == '-' || c == '_' || c == '\t') {
                        if (!sp)
                                out[n++] = ' ';
                        sp = 1;
                        continue;
                }
                out[n++] = (char)c;
                sp = 0;
        }
        while (n > 0 && out[n - 1] == ' ')
                n--;
        out[n] = '\0';
        for (i = 0; i < CC_ARRAY_LEN(drop); i++)
                if (cc_starts_with(out, drop[i])) {
                        size_t k = strlen(drop[i]);

                        memmove(out, out + k, strlen(out + k) + 1);
                        i = (size_t)-1; /* again from the first */
                }
}

/* How much of `in` matches the name (both normalised, spaces ignored):
 * 2 exact, 1 a prefix followed by a non-digit, 0 none. */
static int gpu_match(const char *in, const char *name)
{
        const char *p = in, *q = name;

        for (;;) {
                while (*q == ' ')
                        q++;
                if (*q == '\0')
                        break;
                while (*p == ' ')
                        p++;
                if (*p != *q)
                        return 0;
                p++;
                q++;
        }
        if (*p == '\0')
                return 2;
        if (*p == ' ' || !(*p >= '0' && *p <= '9'))
                return 1;
        return 0;
}

static int sm_of_text(const char *s)
{
        const char *p = s;
        long v = 0;
        int digits = 0;

        if (cc_strncasecmp(p, "sm_", 3) == 0 || cc_strncasecmp(p, "sm", 2) == 0)
                p += (p[2] == '_') ? 3 : 2;
        else if (cc_strncasecmp(p, "compute_", 8) == 0)
                p += 8;
        if (*p == '\0')
                return -1;
        {
                cudnnctl_ver v2;

                if (p == s && strchr(p, '.') != NULL) {
                        if (cudnnctl_ver_parse(p, &v2) < 0 || v2.n != 2 || v2.part[1] > 9 || v2.part[0] < 1 ||
                            v2.part[0] > 15)
                                return -1;
                        return (int)(v2.part[0] * 10 + v2.part[1]);
                }
        }
        while (*p >= '0' && *p <= '9' && digits < 4) {
                v = v * 10 + (*p - '0');
                p++;
                digits++;
        }
        if ((*p == 'a' || *p == 'f') && p[1] == '\0' && digits > 0) /* sm_90a, sm_100f */
                p++;
        if (*p != '\0' || digits < 2 || digits > 3 || v < 10 || v > 159)
                return -1;
        return (int)v;
}

int cc_kb_gpu_sm_is_name(const char *name_or_sm)
{
        return name_or_sm != NULL && sm_of_text(name_or_sm) < 0;
}

int cc_kb_gpu_sm(const char *name_or_sm)
{
        const cc_kb_table *t;
        cc_kb_answer ans;
        char in[128];
        int sm, best = -1;
        size_t r, bestlen = 0;

        if (name_or_sm == NULL || name_or_sm[0] == '\0')
                return -1;
        sm = sm_of_text(name_or_sm);
        if (sm > 0)
                return sm;
        t = table("gpus", &ans);
        if (t == NULL)
                return -1;
        gpu_norm(name_or_sm, in, sizeof(in));
        if (in[0] == '\0')
                return -1;
        for (r = 0; r < t->nrows; r++) {
                const char *name = cc_kb_cell(t, r, "name"), *s = cc_kb_cell(t, r, "sm");
                char nn[128];
                int m;

                if (name == NULL || s == NULL)
                        continue;
                gpu_norm(name, nn, sizeof(nn));
                m = gpu_match(in, nn);
                if (m == 2)
                        return (int)strtol(s, NULL, 10);
                if (m == 1 && strlen(nn) > bestlen) {
                        bestlen = strlen(nn);
                        best = (int)strtol(s, NULL, 10);
                }
        }
        return best;
}

/* ---- members ------------------------------------------------------------ */

int cc_kb_cudnn_files(const cudnnctl_ver *ver, int system, const char *kind, cc_strv *names, cc_kb_answer *ans)
{
        const cc_kb_table *t;
        cc_error err = {0};
        char vb[48];
        size_t r, before = names->n;
        int rows = 0, later = 0;

        ans_init(ans);
        if (ver == NULL || ver->n == 0)
                return ans_set(ans, CC_KB_UNKNOWN, "no cuDNN version given");
        t = table("members", ans);
        if (t == NULL)
                return CC_KB_UNKNOWN;
        vs(ver, vb, sizeof(vb));
        for (r = 0; r < t->nrows; r++) {
                const char *maj = cc_kb_cell(t, r, "major"), *k = cc_kb_cell(t, r, "kind");
                const char *name = cc_kb_cell(t, r, "name"), *req = cc_kb_cell(t, r, "required");
                cudnnctl_ver first, last;

                if (maj == NULL || k == NULL || name == NULL || strtol(maj, NULL, 10) != ver->part[0] ||
                    strcmp(k, kind) != 0 || !row_system_ok(t, r, system))
                        continue;
                rows++;
                if (req != NULL && strcmp(req, "yes") != 0)
                        continue;
                if (cell_ver(t, r, "first", &first)) {
                        cudnnctl_ver x = trunc_ver(ver, 3), f = trunc_ver(&first, ver->n < 3 ? ver->n : 3);

                        if (ver->n < 2 || cudnnctl_ver_cmp(&x, &f) < 0) {
                                later += ver->n < 2;
                                continue;
                        }
                }
                if (cell_ver(t, r, "last", &last)) {
                        cudnnctl_ver x = trunc_ver(ver, 3), l = trunc_ver(&last, 3);

                        if (ver->n >= 2 && cudnnctl_ver_cmp(&x, &l) > 0)
                                continue;
                }
                ans_source(ans, cc_kb_cell(t, r, "source"));
                if (!cc_strv_contains(names, name) && cc_strv_push(names, name, &err) < 0)
                        return ans_set(ans, CC_KB_UNKNOWN, "%s", err.msg);
        }
        if (rows == 0)
                return ans_set(ans, CC_KB_UNKNOWN, "the tables list no %s of cuDNN %ld on %s", kind, ver->part[0],
                               sys_name(system));
        ans_set(ans, CC_KB_YES, "cuDNN %s on %s: %zu %s entries%s", vb, sys_name(system), names->n - before, kind,
                later ? " (releases later in the major add more: give the minor)" : "");
        return CC_KB_YES;
}

int cc_kb_cudnn_members(const cudnnctl_ver *ver, int system, cc_strv *roles, cc_kb_answer *ans)
{
        return cc_kb_cudnn_files(ver, system, "library", roles, ans);
}

/* ---- known-bad ------------------------------------------------------------ */

int cc_kb_cudnn_known_bad(const cudnnctl_ver *cudnn, cc_kb_answer *ans)
{
        return cc_kb_cudnn_known_bad_for(cudnn, "*", ans);
}

int cc_kb_cudnn_known_bad_for(const cudnnctl_ver *cudnn, const char *framework, cc_kb_answer *ans)
{
        const cc_kb_table *t;
        char vb[48];
        size_t r;
        int hits = 0, conditional = 0;

        ans_init(ans);
        if (cudnn == NULL || cudnn->n == 0)
                return ans_set(ans, CC_KB_UNKNOWN, "no cuDNN version given");
        t = table("known_bad", ans);
        if (t == NULL)
                return CC_KB_UNKNOWN;
        vs(cudnn, vb, sizeof(vb));
        for (r = 0; r < t->nrows; r++) {
                const char *fw = cc_kb_cell(t, r, "framework"), *cond = cc_kb_cell(t, r, "condition");
                const char *why = cc_kb_cell(t, r, "reason");

                if (!row_release_in(t, r, cudnn))
                        continue;
                if (framework == NULL ? fw != NULL
                                      : strcmp(framework, "*") != 0 && fw != NULL && strcmp(fw, fw_key(framework)) != 0)
                        continue;
                if (hits++ == 0)
                        ans_set(ans, CC_KB_YES, "cuDNN %s is listed: ", vb);
                else
                        cat(ans->reason, sizeof(ans->reason), "; ");
                cat(ans->reason, sizeof(ans->reason), "%s%s%s", fw ? fw : "", fw ? ": " : "", why ? why : "?");
                if (cond != NULL) {
                        cat(ans->reason, sizeof(ans->reason), " (when %s)", cond);
                        conditional++;
                }
                ans_source(ans, cc_kb_cell(t, r, "source"));
        }
        ans->conditional = hits > 0 && conditional == hits;
        if (hits == 0) {
                /* the lists consulted */
                for (r = 0; r < t->nrows; r++)
                        ans_source(ans, cc_kb_cell(t, r, "source"));
                return ans_set(ans, CC_KB_NO, "cuDNN %s is on no known-bad list in the tables", vb);
        }
        return CC_KB_YES;
}

/* ---- frameworks ------------------------------------------------------------- */

static const char *fw_key(const char *fw)
{
        if (fw == NULL)
                return NULL;
        if (cc_strcasecmp(fw, "torch") == 0 || cc_strcasecmp(fw, "pytorch") == 0)
                return "torch";
        if (cc_strcasecmp(fw, "tensorflow") == 0 || cc_strcasecmp(fw, "tf") == 0 ||
            cc_strcasecmp(fw, "tensorflow-gpu") == 0)
                return "tensorflow";
        if (cc_strcasecmp(fw, "jax") == 0 || cc_strcasecmp(fw, "jaxlib") == 0)
                return "jax";
        return fw;
}

static const char *fw_title(const char *key)
{
        if (strcmp(key, "torch") == 0)
                return "PyTorch";
        if (strcmp(key, "tensorflow") == 0)
                return "TensorFlow";
        if (strcmp(key, "jax") == 0)
                return "JAX";
        return key;
}

/* Split "2.4.1+cu121" into its version and variant. */
static int fw_version(const char *version, const char *variant, cudnnctl_ver *v, char *var, size_t varsize)
{
        char buf[64];
        const char *plus = version ? strchr(version, '+') : NULL;
        size_t n;

        var[0] = '\0';
        if (version == NULL)
                return -1;
        n = plus ? (size_t)(plus - version) : strlen(version);
        if (n >= sizeof(buf))
                return -1;
        memcpy(buf, version, n);
        buf[n] = '\0';
        if (cudnnctl_ver_parse(buf, v) < 0)
                return -1;
        if (variant != NULL && variant[0] != '\0')
                snprintf(var, varsize, "%s", variant);
        else if (plus != NULL)
                snprintf(var, varsize, "%s", plus + 1);
        return 0;
}

static int fw_row_matches(const cc_kb_table *t, size_t r, const char *key, const cudnnctl_ver *v, int system)
{
        const char *f = cc_kb_cell(t, r, "framework");
        cudnnctl_ver first, last, a, b;

        if (f == NULL || strcmp(f, key) != 0 || !row_system_ok(t, r, system) ||
            !cell_ver(t, r, "version_first", &first))
                return 0;
        a = trunc_ver(v, first.n);
        if (cudnnctl_ver_cmp(&a, &first) < 0)
                return 0;
        if (cell_ver(t, r, "version_last", &last)) {
                b = trunc_ver(v, last.n);
                if (cudnnctl_ver_cmp(&b, &last) > 0)
                        return 0;
        }
        return 1;
}

int cc_kb_framework_variants(const char *framework, const char *version, int system, cc_strv *variants,
                             cc_kb_answer *ans)
{
        const cc_kb_table *t;
        const char *key = fw_key(framework);
        cudnnctl_ver v;
        char var[32];
        cc_error err = {0};
        size_t r, before = variants->n;

        ans_init(ans);
        if (key == NULL || fw_version(version, NULL, &v, var, sizeof(var)) < 0)
                return ans_set(ans, CC_KB_UNKNOWN, "no framework version given");
        t = table("frameworks", ans);
        if (t == NULL)
                return CC_KB_UNKNOWN;
        for (r = 0; r < t->nrows; r++) {
                const char *vr = cc_kb_cell(t, r, "variant");

                if (!fw_row_matches(t, r, key, &v, system))
                        continue;
                ans_source(ans, cc_kb_cell(t, r, "source"));
                if (!cc_strv_contains(variants, vr ? vr : "") && cc_strv_push(variants, vr ? vr : "", &err) < 0)
                        return ans_set(ans, CC_KB_UNKNOWN, "%s", err.msg);
        }
        if (variants->n == before)
                return ans_set(ans, CC_KB_UNKNOWN, "%s %s is not in the framework table", fw_title(key), version);
        return ans_set(ans, CC_KB_YES, "%s %s: %zu build variant(s)", fw_title(key), version, variants->n - before);
}

int cc_kb_framework_rule(const char *framework, const char **rule, cc_kb_answer *ans)
{
        const cc_kb_table *t;
        const char *key = fw_key(framework);
        size_t r;

        ans_init(ans);
        *rule = NULL;
        if (key == NULL)
                return ans_set(ans, CC_KB_UNKNOWN, "no framework given");
        t = table("framework_rules", ans);
        if (t == NULL)
                return CC_KB_UNKNOWN;
        for (r = 0; r < t->nrows; r++) {
                const char *f = cc_kb_cell(t, r, "framework");

                if (f == NULL || strcmp(f, key) != 0)
                        continue;
                *rule = cc_kb_cell(t, r, "rule");
                ans_source(ans, cc_kb_cell(t, r, "source"));
                return ans_set(ans, CC_KB_YES, "%s", cc_kb_cell(t, r, "text") ? cc_kb_cell(t, r, "text") : "");
        }
        return ans_set(ans, CC_KB_UNKNOWN, "the tables have no cuDNN rule for %s", fw_title(key));
}

int cc_kb_framework_needs(const char *framework, const char *version, const char *variant, int system,
                          cudnnctl_ver *cudnn, cudnnctl_ver *cuda, cc_kb_answer *ans)
{
        const cc_kb_table *t;
        const char *key = fw_key(framework);
        cudnnctl_ver v;
        char var[32], vb[48], cb[48], ub[48], what[96];
        size_t r;
        int hits = 0, nogpu = 0, differ = 0;

        ans_init(ans);
        cudnn->n = 0;
        cuda->n = 0;
        if (key == NULL || fw_version(version, variant, &v, var, sizeof(var)) < 0)
                return ans_set(ans, CC_KB_UNKNOWN, "no framework version given");
        t = table("frameworks", ans);
        if (t == NULL)
                return CC_KB_UNKNOWN;
        snprintf(what, sizeof(what), "%s %s%s%s", fw_title(key), vs(&v, vb, sizeof(vb)), var[0] ? " " : "", var);
        for (r = 0; r < t->nrows; r++) {
                const char *vr = cc_kb_cell(t, r, "variant"), *gpu = cc_kb_cell(t, r, "gpu");
                cudnnctl_ver d = {0}, c = {0};

                if (!fw_row_matches(t, r, key, &v, system))
                        continue;
                if (var[0] != '\0' && vr != NULL && cc_strcasecmp(vr, var) != 0)
                        continue;
                ans_source(ans, cc_kb_cell(t, r, "source"));
                if (gpu != NULL && strcmp(gpu, "no") == 0) {
                        const char *note = cc_kb_cell(t, r, "note");

                        nogpu = 1;
                        ans_set(ans, CC_KB_NO, "%s on %s has no GPU build%s%s", what, sys_name(system),
                                note ? ": " : "", note ? note : "");
                        continue;
                }
                cell_ver(t, r, "cudnn", &d);
                cell_ver(t, r, "cuda", &c);
                if (hits++ == 0) {
                        *cudnn = d;
                        *cuda = c;
                } else {
                        if (cudnnctl_ver_cmp(&d, cudnn) != 0 || d.n != cudnn->n)
                                differ |= 1;
                        if (cudnnctl_ver_cmp(&c, cuda) != 0)
                                differ |= 2;
                }
                if (cc_kb_cell(t, r, "confidence") != NULL && strcmp(cc_kb_cell(t, r, "confidence"), "R") == 0 &&
                    cc_kb_cell(t, r, "note") != NULL)
                        snprintf(ub, sizeof(ub), "%s", cc_kb_cell(t, r, "note"));
                else if (hits == 1)
                        ub[0] = '\0';
        }
        if (nogpu && hits == 0)
                return CC_KB_NO;
        if (hits == 0) {
                cudnn->n = cuda->n = 0;
                return ans_set(ans, CC_KB_UNKNOWN, "%s on %s is not in the framework table", what, sys_name(system));
        }
        if (differ & 1) {
                cudnn->n = cuda->n = 0;
                return ans_set(ans, CC_KB_UNKNOWN,
                               "%s: its build variants need different cuDNN releases (give the "
                               "variant, such as cu121)",
                               what);
        }
        if (differ & 2)
                cuda->n = 0;
        ans_set(ans, CC_KB_YES, "%s was built with cuDNN %s", what, vs(cudnn, vb, sizeof(vb)));
        if (cuda->n > 0)
                cat(ans->reason, sizeof(ans->reason), " and CUDA %s", vs(cuda, cb, sizeof(cb)));
        else
                cat(ans->reason, sizeof(ans->reason), " (the CUDA version depends on the variant)");
        if (ub[0] != '\0')
                cat(ans->reason, sizeof(ans->reason), " (%s)", ub);
        return CC_KB_YES;
}

int cc_kb_cudnn_satisfies(const char *framework, const cudnnctl_ver *build, const cudnnctl_ver *runtime,
                          cc_kb_answer *ans)
{
        const char *rule = NULL;
        cc_kb_answer r;
        char bb[48], rb[48];

        ans_init(ans);
        cc_kb_framework_rule(framework, &rule, &r);
        ans_source(ans, r.source);
        if (build == NULL || runtime == NULL || build->n == 0 || runtime->n == 0)
                return ans_set(ans, CC_KB_UNKNOWN, "the build or the run-time cuDNN version is unknown");
        if (rule == NULL)
                return ans_set(ans, CC_KB_UNKNOWN, "%s", r.reason);
        vs(build, bb, sizeof(bb));
        vs(runtime, rb, sizeof(rb));
        if (runtime->part[0] != build->part[0])
                return ans_set(ans, CC_KB_NO, "cuDNN %s has another major than the build's %s (rule: %s)", rb, bb,
                               r.reason);
        if (build->n >= 2 && (runtime->n < 2 || runtime->part[1] < build->part[1])) {
                if (runtime->n < 2)
                        return ans_set(ans, CC_KB_UNKNOWN,
                                       "cuDNN %s: the minor is needed to compare with %s (rule: %s)", rb, bb, r.reason);
                return ans_set(ans, CC_KB_NO, "cuDNN %s is older than the build's %s (minor %ld < %ld; rule: %s)", rb,
                               bb, runtime->part[1], build->part[1], r.reason);
        }
        return ans_set(ans, CC_KB_YES, "cuDNN %s fits the build's %s: same major, minor >= (rule: %s)", rb, bb,
                       r.reason);
}
