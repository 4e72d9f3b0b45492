/* The install's checksum pre-check (checksum.h): which published digest
 * the archive is held to, and the verdict. Reads host paths (the archive,
 * the files beside it, the manifest given). */
#include "checksum.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../facts/views.h"
#include "../formats/md5.h"
#include "../formats/redistrib.h"
#include "../kb/kb.h"
#include "../platform/platform.h"
#include "target.h"

#define MAX_MANIFEST (16u << 20) /* NVIDIA's are a few KiB (cuDNN) to a few hundred (CUDA) */
#define MAX_SUMFILE (64u << 10)
#define MAX_NAMES 6 /* files named when a manifest does not list the archive */

/* The manifest's platform key of this host: whose files a manifest that
 * does not list the archive is asked for, when the archive's name has none. */
#if defined(_WIN32) && (defined(__x86_64__) || defined(_M_X64))
#define HOST_PLATFORM "windows-x86_64"
#elif defined(__linux__) && defined(__x86_64__)
#define HOST_PLATFORM "linux-x86_64"
#elif defined(__linux__) && defined(__aarch64__)
#define HOST_PLATFORM "linux-sbsa"
#elif defined(__linux__) && defined(__powerpc64__)
#define HOST_PLATFORM "linux-ppc64le"
#else
#define HOST_PLATFORM ""
#endif

enum { SHA256, MD5 };
static const char *const ALGO[] = {"SHA-256", "MD5"};
static const size_t DIGITS[] = {64, 32};

/* The check, with the summary's "stop" kept in step (the plan's document
 * says it once a check says stop). */
static int verdict(cc_plan *p, const char *v, cc_error *err, const char *fmt, ...) CC_PRINTF(4, 5);
static int verdict(cc_plan *p, const char *v, cc_error *err, const char *fmt, ...)
{
        cc_value *sum = cc_v_getm(p->doc, CC_K(install_plan, summary));
        char *reason;
        va_list ap;
        int was = p->stop, rc;

        va_start(ap, fmt);
        reason = cc_vasprintf(err, fmt, ap);
        va_end(ap);
        if (reason == NULL)
                return -1;
        rc = cc_plan_check(cc_v_getm(p->doc, CC_K(install_plan, checks)), &p->stop, err, "checksum", v, "%s", reason);
        free(reason);
        if (rc == 0 && p->stop && !was && sum != NULL)
                rc = cc_v_set_bool(sum, CC_K(plan_summary, stop), 1, err);
        return rc;
}

/* A failure reading something the verdict rests on stops the install;
 * only running out of memory is this call's error. */
static int unreadable(cc_plan *p, const cc_error *e2, cc_error *err)
{
        if (e2->code == CC_ERR_NOMEM) {
                *err = *e2;
                return -1;
        }
        return verdict(p, "stop", err, "%s", e2->msg);
}

/* The archive's digest of kind algo (hex, lowercase), in one pass over a
 * mapping (a file cut short while read is an error). */
static int file_digest(const char *path, int algo, char hex[65], cc_error *err)
{
        cc_map m;
        cc_md5 hm;
        int rc;

        if (algo == SHA256)
                return cc_file_sha256(path, hex, err);
        TRY_RET(cc_map_file(path, 0, &m, err));
        cc_md5_init(&hm);
        if (m.size)
                cc_md5_update(&hm, m.data, m.size);
        rc = cc_map_check(&m, path, err);
        cc_unmap(&m);
        if (rc == 0)
                cc_md5_final_hex(&hm, hex);
        return rc;
}

static int all_hex(const char *s, size_t n)
{
        size_t i;

        for (i = 0; i < n; i++)
                if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))
                        return 0;
        return 1;
}

static void lower(char *s)
{
        for (; *s; s++)
                *s = (char)cc_ascii_tolower(*s);
}

/* The archive against want (lowercase hex; fewer digits than the
 * algorithm's: a prefix, compared at the start), which `from` published.
 * sized: the size was compared too (a manifest's). */
/* The archive's digest by algo (lowercase hex). */
static int archive_digest(const cc_checksum_in *in, int algo, char hex[65], cc_error *e2)
{
        if (algo == SHA256 && in->sha256 != NULL && strlen(in->sha256) == 64 && all_hex(in->sha256, 64)) {
                memcpy(hex, in->sha256, 65); /* computed while the archive was read */
                lower(hex);
                return 0;
        }
        return file_digest(in->archive, algo, hex, e2);
}

static int judge(cc_plan *p, const cc_checksum_in *in, int algo, const char *want, const char *from, int sized,
                 cc_error *err)
{
        size_t wl = strlen(want);
        cc_error e2 = {0};
        char hex[65];

        if (archive_digest(in, algo, hex, &e2) < 0)
                return unreadable(p, &e2, err);
        if (strncmp(hex, want, wl) != 0)
                return verdict(p, "stop", err, "%s %s, but %.200s says %.64s: a damaged or different download",
                               ALGO[algo], hex, from, want);
        if (wl < DIGITS[algo])
                return verdict(p, "ok", err, "%s starts with the %zu digits %.200s knows (%s)", ALGO[algo], wl, from,
                               want);
        if (sized)
                return verdict(p, "ok", err, "size and %s match %.200s", ALGO[algo], from);
        return verdict(p, "ok", err, "%s matches %.200s", ALGO[algo], from);
}

/* ---- 1. a redistrib manifest ------------------------------------------ */

/* The manifest does not list the archive: say what it lists for the
 * archive's platform (from its name, else this host's), or all of it. */
static int not_listed(cc_plan *p, const char *manifest, const char *base, const cc_redist_file *v, size_t n,
                      cc_error *err)
{
        const char *plat = NULL;
        size_t i, shown = 0, more = 0;
        cc_buf b = {0};
        int rc;

        for (i = 0; i < n && plat == NULL; i++)
                if (strstr(base, v[i].platform) != NULL)
                        plat = v[i].platform;
        for (i = 0; i < n && plat == NULL; i++)
                if (strcmp(v[i].platform, HOST_PLATFORM) == 0)
                        plat = v[i].platform;
        if (cc_buf_printf(&b, err, "%.200s does not list %.200s (", manifest, base) < 0 ||
            (plat != NULL ? cc_buf_printf(&b, err, "for %s it lists", plat) : cc_buf_puts(&b, "it lists", err)) < 0)
                goto oom;
        for (i = 0; i < n; i++) {
                if (plat != NULL && strcmp(v[i].platform, plat) != 0)
                        continue;
                if (shown == MAX_NAMES) {
                        more++;
                        continue;
                }
                if (cc_buf_printf(&b, err, "%s %s", shown ? "," : "", cc_basename(v[i].relative_path)) < 0)
                        goto oom;
                shown++;
        }
        if ((more && cc_buf_printf(&b, err, " and %zu more", more) < 0) ||
            cc_buf_puts(&b, "): the archive is not the one it describes", err) < 0)
                goto oom;
        rc = verdict(p, "stop", err, "%s", b.data);
        cc_buf_free(&b);
        return rc;
oom:
        cc_buf_free(&b);
        return -1;
}

static int by_manifest(cc_plan *p, const cc_checksum_in *in, const char *base, cc_error *err)
{
        const cc_redist_file *f = NULL;
        cc_redist_file *v = NULL;
        cc_error e2 = {0};
        char *text = NULL, *from = NULL;
        size_t len = 0, n = 0, i;
        cc_stat st;
        int rc = -1;

        if (cc_read_file(in->manifest, MAX_MANIFEST, &text, &len, &e2) < 0)
                return unreadable(p, &e2, err);
        if (cc_redist_parse(text, len, &v, &n, &e2) < 0) {
                rc = e2.code == CC_ERR_NOMEM
                         ? unreadable(p, &e2, err)
                         : verdict(p, "stop", err, "%.200s: not a redistrib manifest: %s", in->manifest, e2.msg);
                goto out;
        }
        for (i = 0; i < n && f == NULL; i++)
                if (strcmp(cc_basename(v[i].relative_path), base) == 0)
                        f = &v[i];
        if (f == NULL) {
                rc = not_listed(p, in->manifest, base, v, n, err);
                goto out;
        }
        /* the size first: it costs nothing and names a cut download as one */
        if (cc_stat_path(in->archive, &st, &e2) < 0) {
                rc = unreadable(p, &e2, err);
                goto out;
        }
        if (st.type != CC_FT_FILE) {
                rc = verdict(p, "stop", err, "%.200s: %s", in->archive,
                             st.type == CC_FT_NONE ? "no such file" : "not a regular file");
                goto out;
        }
        if (st.size != f->size) {
                rc = verdict(p, "stop", err,
                             "%.200s is %llu bytes, but %.200s says %llu: a cut, damaged or different download", base,
                             (unsigned long long)st.size, in->manifest, (unsigned long long)f->size);
                goto out;
        }
        from = cc_asprintf(err, "%.200s (%s %s for %s%s%s)", in->manifest, f->product, f->version, f->platform,
                           f->variant[0] ? ", " : "", f->variant);
        if (from == NULL)
                goto out;
        /* SHA-256 when the manifest gives it; MD5 only when that is all it gives */
        rc = f->sha256[0] ? judge(p, in, SHA256, f->sha256, from, 1, err) : judge(p, in, MD5, f->md5, from, 1, err);
out:
        free(from);
        free(text);
        cc_redist_free(v, n);
        return rc;
}

/* ---- 2, 3. a .sha256 or .md5 file beside the archive ------------------- */

/* The digest for the archive named base in a checksum file's text, as
 * sha256sum/md5sum write it: lines "DIGEST", "DIGEST  NAME" or
 * "DIGEST *NAME" (a leading backslash: the name has \\ and \n escaped);
 * blank lines and '#' comments skipped. 0 with want (lowercase); -1 with
 * why (what is wrong, said of the file). */
static int sum_text(char *text, size_t len, int algo, const char *base, char want[65], cc_buf *why, cc_error *err)
{
        size_t digits = DIGITS[algo], lineno = 0, named = 0, nameless = 0;
        char *line = text, *end = text + len, first_other[121] = "", nameless_hex[65] = "";
        int found = 0;

        if (memchr(text, '\0', len) != NULL)
                return cc_buf_puts(why, "holds a NUL byte: not a checksum file", err) < 0 ? -2 : -1;
        while (line < end && !found) {
                char *nl = memchr(line, '\n', (size_t)(end - line)), *e = nl ? nl : end, *s = line, *name;
                int escaped;

                line = nl ? nl + 1 : end;
                lineno++;
                *e = '\0';
                while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
                        *--e = '\0';
                while (*s == ' ' || *s == '\t')
                        s++;
                if (*s == '\0' || *s == '#')
                        continue;
                escaped = *s == '\\';
                s += escaped;
                if (strlen(s) < digits || !all_hex(s, digits) ||
                    (s[digits] != '\0' && s[digits] != ' ' && s[digits] != '\t'))
                        return cc_buf_printf(why, err,
                                             "line %zu is not a %zu-digit %s digest (\"DIGEST\" or \"DIGEST  FILE\" as "
                                             "%s writes)",
                                             lineno, digits, ALGO[algo], algo == SHA256 ? "sha256sum" : "md5sum") < 0
                                   ? -2
                                   : -1;
                name = s + digits;
                while (*name == ' ' || *name == '\t')
                        name++;
                name += *name == '*'; /* md5sum's binary mode */
                if (escaped) {        /* md5sum escapes \ and newline in a name and marks the line */
                        char *r = name, *w = name;

                        for (; *r; r++, w++) {
                                if (r[0] == '\\' && (r[1] == '\\' || r[1] == 'n'))
                                        *w = *++r == 'n' ? '\n' : '\\';
                                else
                                        *w = *r;
                        }
                        *w = '\0';
                }
                if (*name == '\0') {
                        if (nameless++ == 0)
                                memcpy(nameless_hex, s, digits);
                        continue;
                }
                if (strcmp(cc_basename(name), base) == 0) {
                        memcpy(want, s, digits);
                        want[digits] = '\0';
                        found = 1;
                } else if (named++ == 0) {
                        snprintf(first_other, sizeof(first_other), "%s", name);
                }
        }
        if (found) {
                lower(want);
                return 0;
        }
        if (named == 0 && nameless == 1) {
                memcpy(want, nameless_hex, digits);
                want[digits] = '\0';
                lower(want);
                return 0;
        }
        if (named > 0) {
                if (cc_buf_puts(why, "is for ", err) < 0 || cc_buf_put_escaped(why, first_other, err) < 0 ||
                    (named > 1 &&
                     cc_buf_printf(why, err, " and %zu other file%s", named - 1, named > 2 ? "s" : "") < 0) ||
                    cc_buf_printf(why, err, ", not %.200s", base) < 0)
                        return -2;
                return -1;
        }
        if (nameless > 1)
                return cc_buf_printf(why, err, "holds %zu digests and no file names: which is this archive's?",
                                     nameless) < 0
                           ? -2
                           : -1;
        return cc_buf_printf(why, err, "holds no %s digest", ALGO[algo]) < 0 ? -2 : -1;
}

static int kb_want(const cc_kb_table *kb, const char *base, char want[65]);

/* The archive against the digest file beside it (want, by algo, from) and
 * against the SHA-256 kb/checksums.tsv publishes for its name (kwant): a
 * file beside an archive comes with the download and proves only that the
 * two agree, so an archive under a known release's name is held to NVIDIA's
 * digest too. One verdict. */
static int judge_both(cc_plan *p, const cc_checksum_in *in, int algo, const char *want, const char *from,
                      const char *kwant, cc_error *err)
{
        cc_error e2 = {0};
        char hex[65], khex[65];

        if (archive_digest(in, algo, hex, &e2) < 0 || archive_digest(in, SHA256, khex, &e2) < 0)
                return unreadable(p, &e2, err);
        if (strncmp(hex, want, strlen(want)) != 0)
                return verdict(p, "stop", err, "%s %s, but %.200s says %.64s: a damaged or different download",
                               ALGO[algo], hex, from, want);
        if (strncmp(khex, kwant, strlen(kwant)) != 0)
                return verdict(p, "stop", err,
                               "%s matches %.200s, but kb/checksums.tsv, NVIDIA's published digest for %.200s, says "
                               "SHA-256 %.64s and the archive's is %s: not the release of that name",
                               ALGO[algo], from, cc_basename(in->archive), kwant, khex);
        return verdict(p, "ok", err, "%s matches %.200s, and SHA-256 kb/checksums.tsv%s", ALGO[algo], from,
                       strlen(kwant) < 64 ? " (its first digits)" : "");
}

/* ARCHIVE.sha256 or ARCHIVE.md5: 1 when there is none. */
static int by_sum_file(cc_plan *p, const cc_checksum_in *in, const char *base, int algo, const cc_kb_table *kb,
                       cc_error *err)
{
        char *side = cc_asprintf(err, "%s.%s", in->archive, algo == SHA256 ? "sha256" : "md5"), *text = NULL, want[65],
             kwant[65];
        cc_buf why = {0};
        cc_error e2 = {0};
        size_t len = 0;
        cc_stat st;
        int rc;

        if (side == NULL)
                return -1;
        if (cc_stat_path(side, &st, &e2) < 0) {
                rc = unreadable(p, &e2, err);
        } else if (st.type == CC_FT_NONE) {
                rc = 1;
        } else if (cc_read_file(side, MAX_SUMFILE, &text, &len, &e2) < 0) {
                rc = unreadable(p, &e2, err);
        } else if ((rc = sum_text(text, len, algo, base, want, &why, err)) == 0) {
                rc = kb_want(kb, base, kwant) == 0 ? judge_both(p, in, algo, want, side, kwant, err)
                                                   : judge(p, in, algo, want, side, 0, err);
        } else if (rc == -1) {
                rc = verdict(p, "stop", err, "%.200s %s", side, why.data);
        }
        cc_buf_free(&why);
        free(text);
        free(side);
        return rc < -1 ? -1 : rc;
}

/* ---- 4. kb/checksums.tsv ----------------------------------------------- */

/* The SHA-256 kb/checksums.tsv publishes for an archive named base (a full
 * digest, or its first digits), lowercase into want: 0, or 1 when it has
 * none. */
static int kb_want(const cc_kb_table *kb, const char *base, char want[65])
{
        size_t r;

        for (r = 0; kb != NULL && r < kb->nrows; r++) {
                const char *f = cc_kb_cell(kb, r, "file"), *h = cc_kb_cell(kb, r, "sha256"),
                           *pre = cc_kb_cell(kb, r, "prefix");
                size_t hl;

                if (f == NULL || h == NULL || strcmp(f, base) != 0)
                        continue;
                hl = strlen(h);
                /* a full digest, or (prefix "yes") its first digits; anything else is not one to hold it to */
                if (hl == 0 || hl > 64 || !all_hex(h, hl) || (hl < 64 && (pre == NULL || strcmp(pre, "yes") != 0)))
                        continue;
                memcpy(want, h, hl + 1);
                lower(want);
                return 0;
        }
        return 1;
}

static int by_kb(cc_plan *p, const cc_checksum_in *in, const char *base, const cc_kb_table *kb, cc_error *err)
{
        char want[65];

        if (kb_want(kb, base, want) != 0)
                return 1;
        return judge(p, in, SHA256, want, "kb/checksums.tsv", 0, err);
}

int cc_checksum_check_kb(cc_plan *p, const cc_checksum_in *in, const struct cc_kb_table *kb, cc_error *err)
{
        const char *base;
        int rc;

        if (in->archive == NULL || !in->is_archive)
                return verdict(p, "ok", err, "a directory: no archive digest to compare");
        base = cc_basename(in->archive);
        if (in->manifest != NULL)
                return by_manifest(p, in, base, err);
        if ((rc = by_sum_file(p, in, base, SHA256, kb, err)) != 1 ||
            (rc = by_sum_file(p, in, base, MD5, kb, err)) != 1 || (rc = by_kb(p, in, base, kb, err)) != 1)
                return rc;
        return verdict(p, "warn", err,
                       "no known digest for this archive (--manifest FILE, a .sha256 or .md5 file beside it, "
                       "kb/checksums.tsv): its contents are not checked against NVIDIA's");
}

int cc_checksum_check(cc_plan *p, const cc_checksum_in *in, cc_error *err)
{
        cc_error e2 = {0};

        /* a knowledge base that does not load is no digest to compare (its
         * own tests keep it loading) */
        return cc_checksum_check_kb(p, in, cc_kb_get("checksums", &e2), err);
}
