/* A cuDNN release to install: the member list of an archive or a directory,
 * where each member goes, what the release is and why it must not be
 * installed (source.h says what each field holds).
 *
 * Archives are read by inspect (cc_archive_inspect), whose document already
 * holds every member with its type, mode, link, size and install_to, the
 * extraction model's verdict on each, the version evidence of names,
 * headers, constants and version resources, the system and machine of the
 * binaries, and whether a bound cut the listing: this file reads it through
 * the views and adds only what an install needs on top (each member's dest,
 * the release's facts, the stops). Directories are walked here, judged by
 * the same extraction model, and their interesting files inspected with the
 * same cc_inspect_bytes, so that a directory and the archive it was unpacked
 * from give the same answers. */
#include "source.h"

#include "../facts/views.h"
#include "../fetch/index.h"
#include "../formats/names.h"
#include "../inspect/archmodel.h"
#include "../inspect/inspect.h"
#include "../platform/platform.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CC_HAVE_LIBARCHIVE (0 when not set); <archive.h>, <archive_entry.h> and
 * libarchive's functions through a table loaded when first needed
 * (cc_libarchive_load) */
#include "../inspect/libarchive_dl.h"

#define MiB ((uint64_t)1024 * 1024)
#define SRC_MAX_MEMBERS 100000                    /* as inspect's archive listing */
#define SRC_MAX_BYTES ((uint64_t)16 * 1024 * MiB) /* member bytes in all */
#define SRC_MAX_DEPTH 64                          /* directory levels walked */
#define SRC_FACTS_MAX (64 * MiB)                  /* a directory's library inspected whole up to this size */
#define SRC_SLICE ((size_t)MiB)                   /* a directory file's bytes per data() call */
#define SRC_BLOCK 65536                           /* an archive's bytes per data() call */
#define SRC_MAX_NAME_VERSIONS 32                  /* distinct versions in library names */

/* ---- small helpers ---------------------------------------------------------- */

/* A name for a message: printable, one line. Caller frees. */
static char *shown(const char *s, cc_error *err)
{
        cc_buf b = {0};

        if (cc_buf_put_escaped(&b, s, err) < 0 || cc_buf_putc(&b, '\0', err) < 0) {
                cc_buf_free(&b);
                return NULL;
        }
        return cc_buf_steal(&b);
}

/* Push a formatted line, every byte that is not printable escaped (member
 * names are the archive's bytes), a line equal to one there dropped. */
static int add_line(cc_strv *sv, cc_error *err, const char *fmt, ...) CC_PRINTF(3, 4);
static int add_line(cc_strv *sv, cc_error *err, const char *fmt, ...)
{
        va_list ap;
        char *raw, *line;

        va_start(ap, fmt);
        raw = cc_vasprintf(err, fmt, ap);
        va_end(ap);
        if (raw == NULL)
                return -1;
        line = shown(raw, err);
        free(raw);
        if (line == NULL)
                return -1;
        if (cc_strv_contains(sv, line)) {
                free(line);
                return 0;
        }
        return cc_strv_take(sv, line, err);
}

static char *join(const char *a, const char *b, cc_error *err)
{
        if (a[0] == '\0')
                return cc_strdup(err, b);
        if (b[0] == '\0')
                return cc_strdup(err, a);
        return cc_asprintf(err, "%s/%s", a, b);
}

/* rel after its first k '/'-separated components, or NULL when it has no
 * more than k. */
static const char *skip_components(const char *rel, size_t k)
{
        while (k-- > 0) {
                const char *slash = strchr(rel, '/');

                if (slash == NULL)
                        return NULL;
                rel = slash + 1;
        }
        return rel[0] != '\0' ? rel : NULL;
}

static size_t count_components(const char *s)
{
        size_t n = s[0] != '\0';

        for (; *s; s++)
                n += *s == '/';
        return n;
}

static int first_is(const char *rel, const char *comp)
{
        size_t n = strlen(comp);

        return strncmp(rel, comp, n) == 0 && (rel[n] == '/' || rel[n] == '\0');
}

static int add_member(cc_source *s, size_t *cap, char *name, int type, unsigned mode, uint64_t size, const char *link,
                      cc_error *err)
{
        cc_src_member *m;

        if (s->n == *cap) {
                size_t ncap = *cap ? *cap * 2 : 64;
                cc_src_member *p = cc_realloc(err, s->m, ncap * sizeof(*p));

                if (p == NULL) {
                        free(name);
                        return -1;
                }
                s->m = p;
                *cap = ncap;
        }
        m = &s->m[s->n];
        memset(m, 0, sizeof(*m));
        m->name = name;
        m->type = type;
        m->mode = mode;
        m->size = size;
        if (link != NULL && (m->link = cc_strdup(err, link)) == NULL) {
                free(name);
                return -1;
        }
        s->n++;
        return 0;
}

/* ---- what the binaries say ------------------------------------------------------ */

/* What was learnt from the members' names and bytes. */
struct facts {
        int linux_seen, windows_seen;
        cc_strv machines;   /* of the binaries read */
        int cuda_major;     /* from the libraries' needs (libcublasLt.so.13), -1 none */
        cc_strv cuda_needs; /* the names that said it */
        int no_dup_checks;  /* the installer's several CUDA directories were a stop already */
};

/* The system and machine of a binary's first bytes (ELF e_machine, PE
 * Machine). */
static int note_binary(struct facts *f, const uint8_t *d, size_t size, cc_error *err)
{
        int sys = CC_SYS_ANY;
        const char *arch = cc_binary_machine(d, size, &sys);

        if (sys == CC_SYS_LINUX)
                f->linux_seen = 1;
        else if (sys == CC_SYS_WINDOWS)
                f->windows_seen = 1;
        if (arch != NULL && !cc_strv_contains(&f->machines, arch))
                return cc_strv_push(&f->machines, arch, err);
        return 0;
}

/* The CUDA major a needed library name implies: libcublasLt.so.13,
 * libcublas.so.12, libnvrtc.so.12, libcudart.so.11.0, cublasLt64_12.dll,
 * cublas64_11.dll. -1 for anything else. */
static int cuda_need_major(const char *name)
{
        static const char *const so[] = {"libcublasLt.so.", "libcublas.so.", "libnvrtc.so.", "libcudart.so."};
        static const char *const dll[] = {"cublasLt64_", "cublas64_"};
        size_t i;
        const char *p = NULL;
        long v;
        char *end;

        for (i = 0; i < CC_ARRAY_LEN(so) && p == NULL; i++)
                if (cc_starts_with(name, so[i]))
                        p = name + strlen(so[i]);
        for (i = 0; i < CC_ARRAY_LEN(dll) && p == NULL; i++)
                if (cc_starts_with(name, dll[i]) && cc_ends_with_nocase(name, ".dll"))
                        p = name + strlen(dll[i]);
        if (p == NULL || *p < '0' || *p > '9')
                return -1;
        v = strtol(p, &end, 10);
        if (v < 7 || v > 99 || (*end != '\0' && *end != '.'))
                return -1;
        return (int)v;
}

static int note_needs_of(struct facts *f, const cc_value *arr, cc_error *err)
{
        size_t i;

        for (i = 0; i < cc_v_len(arr); i++) {
                const cc_value *e = cc_v_at(arr, i);
                const char *n = cc_v_type(e) == CUDNNCTL_STRING ? cc_v_as_str(e) : NULL;
                int c = n != NULL ? cuda_need_major(n) : -1;

                if (c < 0)
                        continue;
                if (f->cuda_major < 0 || c > f->cuda_major)
                        f->cuda_major = c;
                if (!cc_strv_contains(&f->cuda_needs, n) && f->cuda_needs.n < 8 &&
                    cc_strv_push(&f->cuda_needs, n, err) < 0)
                        return -1;
        }
        return 0;
}

/* The needs of one member's facts (an ELF's DT_NEEDED, a PE's imports). */
static int note_needs(struct facts *f, const cc_value *facts, cc_error *err)
{
        cc_vw_ins_facts v;
        cc_vw_ins_elf e;
        cc_vw_ins_pe p;

        if (facts == NULL || cc_vw_ins_facts_read(facts, &v, NULL) < 0)
                return 0;
        if (v.elf != NULL && cc_vw_ins_elf_read(v.elf, &e, NULL) == 0 && note_needs_of(f, e.needed, err) < 0)
                return -1;
        if (v.pe != NULL && cc_vw_ins_pe_read(v.pe, &p, NULL) == 0 &&
            (note_needs_of(f, p.imports, err) < 0 || note_needs_of(f, p.delay_imports, err) < 0))
                return -1;
        return 0;
}

static void facts_free(struct facts *f)
{
        cc_strv_free(&f->machines);
        cc_strv_free(&f->cuda_needs);
}

/* ---- version evidence ------------------------------------------------------------ */

/* The distinct versions in the library names, each with a count and the
 * first member that showed it; the most specific are evidence (as inspect
 * gives them for an archive). */
static int name_versions(const cc_source *s, cc_value *versions, cc_error *err)
{
        cc_strv vers = {0}, first = {0};
        size_t count[SRC_MAX_NAME_VERSIONS], i, k, best = 0;
        int rv = -1;

        for (i = 0; i < s->n; i++) {
                const cc_src_member *m = &s->m[i];
                cc_libname ln;
                cudnnctl_ver v;
                char buf[64];

                if (m->dest == NULL || m->type == CC_SRC_DIR || cc_name_library(cc_basename(m->name), &ln) < 0 ||
                    ln.kind == CC_FK_HEADER)
                        continue;
                v = ln.version;
                if (v.n == 0 && ln.major >= 0) {
                        v.n = 1;
                        v.part[0] = ln.major;
                }
                if (v.n == 0)
                        continue;
                cudnnctl_ver_str(&v, buf, sizeof(buf));
                for (k = 0; k < vers.n && strcmp(vers.v[k], buf) != 0; k++)
                        ;
                if (k < vers.n) {
                        count[k]++;
                        continue;
                }
                if (vers.n >= SRC_MAX_NAME_VERSIONS)
                        continue;
                if (cc_strv_push(&vers, buf, err) < 0 || cc_strv_push(&first, m->name, err) < 0)
                        goto fail;
                count[vers.n - 1] = 1;
        }
        for (k = 0; k < vers.n; k++)
                if (count_components(vers.v[k]) > best)
                        best = count_components(vers.v[k]);
        for (k = 0; k < vers.n; k++) {
                char detail[64];

                if (count_components(vers.v[k]) != best)
                        continue;
                snprintf(detail, sizeof(detail), "%zu library name%s", count[k], count[k] == 1 ? "" : "s");
                if (cc_version_entry(versions, "library-name", vers.v[k], detail, first.v[k], err) < 0)
                        goto fail;
        }
        rv = 0;
fail:
        cc_strv_free(&vers);
        cc_strv_free(&first);
        return rv;
}

/* ---- the judgement both kinds share ----------------------------------------------- */

/* Windows names: CON, PRN, AUX, NUL, COM1-9, LPT1-9 (with any extension),
 * < > : " / \ | ? * and controls, a trailing dot or space. NULL when fine. */
static const char *windows_name_problem(const char *c, size_t n)
{
        static const char *const reserved[] = {"CON", "PRN", "AUX", "NUL"};
        size_t i, stem = 0;

        while (stem < n && c[stem] != '.')
                stem++;
        for (i = 0; i < CC_ARRAY_LEN(reserved); i++)
                if (stem == 3 && cc_strncasecmp(c, reserved[i], 3) == 0)
                        return "a name Windows reserves for a device";
        if (stem == 4 && (cc_strncasecmp(c, "COM", 3) == 0 || cc_strncasecmp(c, "LPT", 3) == 0) && c[3] >= '1' &&
            c[3] <= '9')
                return "a name Windows reserves for a device";
        for (i = 0; i < n; i++)
                if ((unsigned char)c[i] < 32 || strchr("<>:\"\\|?*", c[i]) != NULL)
                        return "a character Windows does not allow in a name";
        if (n > 0 && (c[n - 1] == '.' || c[n - 1] == ' '))
                return "a trailing dot or space, which Windows drops";
        return NULL;
}

static int windows_checks(cc_source *s, cc_error *err)
{
        cc_smap seen = {0};
        size_t i;
        int rv = -1;

        seen.nocase = 1;
        for (i = 0; i < s->n; i++) {
                const char *d = s->m[i].dest, *p;
                void *old = NULL;

                if (d == NULL)
                        continue;
                for (p = d; *p;) {
                        size_t n = strcspn(p, "/");
                        const char *why = windows_name_problem(p, n);

                        if (why != NULL) {
                                if (add_line(&s->stops, err, "%s: not a valid name on Windows (%s)", s->m[i].name,
                                             why) < 0)
                                        goto fail;
                                break;
                        }
                        p += n + (p[n] == '/');
                }
                if (cc_smap_get(&seen, d, &old) == 1) {
                        const cc_src_member *o = old;
                        char *a = shown(o->name, err);

                        if (a == NULL)
                                goto fail;
                        if (strcmp(o->dest, d) != 0 &&
                            add_line(&s->stops, err, "%s: goes to the same file as %s on Windows (case does not count)",
                                     s->m[i].name, a) < 0) {
                                free(a);
                                goto fail;
                        }
                        free(a);
                        continue;
                }
                if (cc_smap_put(&seen, d, &s->m[i], NULL, err) < 0)
                        goto fail;
        }
        rv = 0;
fail:
        cc_smap_free(&seen);
        return rv;
}

/* Two members with one destination (the CUDA version directories of an
 * installer's layout dropped, lib and lib64 merged). */
static int duplicate_checks(cc_source *s, cc_error *err)
{
        cc_smap seen = {0};
        size_t i;
        int rv = -1;

        for (i = 0; i < s->n; i++) {
                void *old = NULL;
                char *a;
                int r;

                if (s->m[i].dest == NULL)
                        continue;
                if (cc_smap_get(&seen, s->m[i].dest, &old) == 0) {
                        if (cc_smap_put(&seen, s->m[i].dest, &s->m[i], NULL, err) < 0)
                                goto fail;
                        continue;
                }
                a = shown(((const cc_src_member *)old)->name, err);
                if (a == NULL)
                        goto fail;
                r = add_line(&s->stops, err, "%s: goes to the same file as %s", s->m[i].name, a);
                free(a);
                if (r < 0)
                        goto fail;
        }
        rv = 0;
fail:
        cc_smap_free(&seen);
        return rv;
}

/* The version evidence ranked: a header's macros first, then the most
 * specific of the others (library names, exported constants, version
 * resources, the archive's or dist-info's name). */
static int source_rank(const char *src)
{
        static const char *const order[] = {"header",       "library-name",   "exported-constant", "version-resource",
                                            "archive-name", "dist-info-name", "dist-info",         "file-name"};
        size_t i;

        for (i = 0; i < CC_ARRAY_LEN(order); i++)
                if (strcmp(src, order[i]) == 0)
                        return (int)i;
        return -1;
}

static int choose_version(cc_source *s, cc_error *err)
{
        cudnnctl_ver best = {0}, v;
        const char *best_src = NULL;
        size_t i;
        char buf[64];

        for (i = 0; i < cc_v_len(s->versions); i++) {
                cc_vw_version e;
                int rank;

                if (cc_vw_version_at(s->versions, i, &e, NULL) < 0 || e.component == NULL ||
                    strcmp(e.component, "cudnn") != 0 || e.source == NULL || e.version == NULL ||
                    (rank = source_rank(e.source)) < 0 || cudnnctl_ver_parse(e.version, &v) < 0 || v.n == 0)
                        continue;
                if (v.n > 3)
                        v.n = 3;
                /* the first header wins; else more parts, then the better source */
                if (best_src == NULL || (rank == 0 && source_rank(best_src) != 0) ||
                    (source_rank(best_src) != 0 && (v.n > best.n || (v.n == best.n && rank < source_rank(best_src))))) {
                        best = v;
                        best_src = e.source;
                }
        }
        if (best_src == NULL)
                return 0;
        s->version = cc_strdup(err, cudnnctl_ver_str(&best, buf, sizeof(buf)));
        if (s->version == NULL)
                return -1;
        s->major = (int)best.part[0];
        /* evidence of another major: said, not a stop (the mislabelled archive) */
        for (i = 0; i < cc_v_len(s->versions); i++) {
                cc_vw_version e;

                if (cc_vw_version_at(s->versions, i, &e, NULL) < 0 || e.component == NULL ||
                    strcmp(e.component, "cudnn") != 0 || e.source == NULL || e.version == NULL ||
                    source_rank(e.source) < 0 || cudnnctl_ver_parse(e.version, &v) < 0 || v.n == 0 ||
                    v.part[0] == best.part[0])
                        continue;
                if (cc_strv_pushf(&s->warnings, 1, err, "the %s%s%s says cuDNN %s, the release is %s (%s)", e.source,
                                  e.member != NULL ? " of " : "", e.member != NULL ? e.member : "", e.version,
                                  s->version, best_src) < 0)
                        return -1;
        }
        return 0;
}

static int cuda_from_name(const char *cuda)
{
        long v;
        char *end;

        if (cuda == NULL || *cuda < '0' || *cuda > '9')
                return -1;
        v = strtol(cuda, &end, 10);
        return v > 0 && v < 100 && (*end == '\0' || *end == '.') ? (int)v : -1;
}

/* Every check both kinds share, once the members, their dests, the
 * versions and the binaries' facts are known. */
static int judge(cc_source *s, struct facts *f, cc_error *err)
{
        size_t i;
        int libs = 0;

        if (f->linux_seen && f->windows_seen)
                s->system = "mixed";
        else
                s->system = f->linux_seen ? "linux" : f->windows_seen ? "windows" : NULL;
        if (s->system != NULL && strcmp(s->system, "mixed") == 0) {
                if (add_line(&s->stops, err, "%s: holds libraries of both Linux and Windows", s->path) < 0)
                        return -1;
                s->system = NULL;
        }
        if (f->machines.n == 1) {
                s->machine = strcmp(f->machines.v[0], "x86_64") == 0    ? "x86_64"
                             : strcmp(f->machines.v[0], "aarch64") == 0 ? "aarch64"
                             : strcmp(f->machines.v[0], "ppc64le") == 0 ? "ppc64le"
                             : strcmp(f->machines.v[0], "i386") == 0    ? "i386"
                                                                        : "other";
        } else if (f->machines.n > 1) {
                cc_buf b = {0};
                int r = 0;

                for (i = 0; i < f->machines.n && r == 0; i++)
                        r = cc_buf_printf(&b, err, "%s%s", i ? ", " : "", f->machines.v[i]);
                if (r == 0)
                        r = add_line(&s->stops, err, "%s: holds binaries for more than one machine (%s)", s->path,
                                     b.data);
                cc_buf_free(&b);
                if (r < 0)
                        return -1;
        }
        for (i = 0; i < s->n; i++) {
                const cc_src_member *m = &s->m[i];
                cc_libname ln;

                if (m->dest == NULL)
                        continue;
                if (m->type == CC_SRC_FILE)
                        s->bytes += m->size;
                if ((m->type == CC_SRC_FILE || m->type == CC_SRC_LINK) &&
                    cc_name_library(cc_basename(m->dest), &ln) == 0 && ln.kind != CC_FK_HEADER)
                        libs++;
        }
        if (libs == 0 && add_line(&s->stops, err, "no cuDNN library in %s", s->path) < 0)
                return -1;
        if (!f->no_dup_checks && duplicate_checks(s, err) < 0)
                return -1;
        if (!f->no_dup_checks && s->system != NULL && strcmp(s->system, "windows") == 0 && windows_checks(s, err) < 0)
                return -1;
        if (choose_version(s, err) < 0)
                return -1;
        if (s->cuda_major < 0 && f->cuda_major >= 0) {
                s->cuda_major = f->cuda_major;
                if (cc_strv_pushf(&s->warnings, 1, err,
                                  "the CUDA major (%d) is read from what the libraries need (%s): the name does not "
                                  "say it",
                                  f->cuda_major, f->cuda_needs.n ? f->cuda_needs.v[0] : "") < 0)
                        return -1;
        }
        return 0;
}

/* ---- archives ------------------------------------------------------------------------ */

/* The member's place below the layout root: install_to and the name below
 * the components install_to stands for ("cuda/lib64/libcudnn.so.8" with
 * install_to "lib": "lib/libcudnn.so.8"). */
static char *archive_dest(const char *norm, const char *install_to, const char *layout, const char *top, cc_error *err)
{
        const char *rel = norm, *rest;
        size_t tl = top != NULL ? strlen(top) : 0;

        if (tl > 0) {
                if (strncmp(rel, top, tl) != 0 || rel[tl] != '/')
                        return NULL;
                rel += tl + 1;
        }
        if (strcmp(layout, "wheel") == 0) {
                if (!cc_starts_with(rel, "nvidia/cudnn/"))
                        return NULL;
                rel += strlen("nvidia/cudnn/");
        }
        if (strcmp(layout, "flat") == 0)
                return join(install_to, cc_basename(rel), err);
        rest = skip_components(rel, count_components(install_to));
        return rest != NULL ? join(install_to, rest, err) : NULL;
}

static int member_type(const char *t)
{
        if (t == NULL)
                return CC_SRC_OTHER;
        if (strcmp(t, "file") == 0)
                return CC_SRC_FILE;
        if (strcmp(t, "symlink") == 0)
                return CC_SRC_LINK;
        if (strcmp(t, "dir") == 0)
                return CC_SRC_DIR;
        return CC_SRC_OTHER;
}

static const char *static_layout(const char *l)
{
        static const char *const names[] = {"legacy-cuda", "redist", "wheel", "flat", "installer"};
        size_t i;

        for (i = 0; l != NULL && i < CC_ARRAY_LEN(names); i++)
                if (strcmp(l, names[i]) == 0)
                        return names[i];
        return "unknown";
}

static int open_archive(cc_source *s, const cc_src_sink *sink, cc_error *err)
{
        cc_value *doc = cc_v_object(err);
        cc_vw_ins_facts f;
        cc_vw_ins_archive a;
        cc_vw_ins_archive_name an;
        struct facts bf;
        cc_archive_tap tap;
        size_t i, cap = 0;
        int rv = -1;

        memset(&bf, 0, sizeof(bf));
        bf.cuda_major = -1;
        memset(&tap, 0, sizeof(tap));
        if (sink != NULL) {
                tap.ctx = sink->ctx;
                tap.begin = sink->begin;
                tap.data = sink->data;
                tap.end = sink->end;
        }
        if (doc == NULL || cc_archive_inspect_tap(s->path, 0, &tap, doc, err) < 0)
                goto fail;
        memcpy(s->sha256, tap.sha256, sizeof(s->sha256));
        if (s->sha256[0] && tap.file_size != s->file_size_)
                s->sha256[0] = '\0'; /* the file changed while read: no digest of it */
        cc_vw_ins_facts_read(doc, &f, NULL);
        if (f.archive == NULL || cc_vw_ins_archive_read(f.archive, &a, NULL) < 0 || cc_v_len(a.members) == 0) {
                /* nothing listed: not an archive, or unreadable from the start */
                if (f.error != NULL || f.archive == NULL) {
                        cc_err(err, CC_ERR_IO, "%s", f.error != NULL ? f.error : "cannot read the archive");
                        if (f.error == NULL ||
                            (!cc_starts_with(f.error, s->path) && !cc_starts_with(f.error, cc_basename(s->path))))
                                cc_err_prefix(err, "%s: ", s->path);
                        goto fail;
                }
                /* a valid, empty archive: read, with nothing to install (judge says so) */
        }
        s->layout = static_layout(a.layout);
        for (i = 0; i < cc_v_len(a.members); i++) {
                cc_vw_ins_member m;
                char *name;
                int type;

                if (cc_vw_ins_member_at(a.members, i, &m, NULL) < 0 || m.path == NULL) {
                        cc_err(err, CC_ERR_FORMAT, "%s: entry %zu of inspect's listing is not a member", s->path,
                               i + 1);
                        goto fail;
                }
                type = member_type(m.type);
                name = cc_archive_norm_name(m.path, err);
                if (name == NULL ||
                    add_member(s, &cap, name, type,
                               (unsigned)m.mode & 0777 ? (unsigned)m.mode & 0777
                               : type == CC_SRC_DIR    ? 0755
                                                       : 0644,
                               CC_VW_HAS(&m, ins_member, size) && m.size > 0 ? (uint64_t)m.size : 0, m.link, err) < 0)
                        goto fail;
                if (m.install_to != NULL && type != CC_SRC_DIR && type != CC_SRC_OTHER) {
                        cc_src_member *sm = &s->m[s->n - 1];

                        sm->dest = archive_dest(name, m.install_to, s->layout, a.top_dir, err);
                        if (sm->dest == NULL && err->code == CC_ERR_NOMEM)
                                goto fail;
                        if (sm->dest != NULL && type == CC_SRC_FILE && !CC_VW_HAS(&m, ins_member, size) &&
                            add_line(&s->stops, err, "%s: the archive does not declare its size", name) < 0)
                                goto fail;
                }
                if (note_needs(&bf, m.facts, err) < 0)
                        goto fail;
        }
        /* the extraction model's verdicts */
        for (i = 0; i < cc_v_len(a.unsafe_paths); i++) {
                cc_vw_ins_unsafe u;

                if (cc_vw_ins_unsafe_at(a.unsafe_paths, i, &u, NULL) == 0 && u.path != NULL &&
                    add_line(&s->stops, err, "unsafe member %s (entry %lld): %s", u.path, (long long)u.entry,
                             u.reason != NULL ? u.reason : "unsafe") < 0)
                        goto fail;
        }
        if (a.truncated &&
            add_line(&s->stops, err, "%s: %s", s->path,
                     a.truncated_reason != NULL ? a.truncated_reason : "over the limits: not read whole") < 0)
                goto fail;
        if (f.error != NULL && add_line(&s->stops, err, "%s", f.error) < 0)
                goto fail;
        for (i = 0; i < cc_v_len(a.warnings); i++) {
                const cc_value *w = cc_v_at(a.warnings, i);

                if (cc_v_type(w) == CUDNNCTL_STRING &&
                    cc_strv_pushf(&s->warnings, 1, err, "%s: %s", s->path, cc_v_as_str(w)) < 0)
                        goto fail;
        }
        /* the release */
        if (a.system != NULL && strcmp(a.system, "linux") == 0)
                bf.linux_seen = 1;
        else if (a.system != NULL && strcmp(a.system, "windows") == 0)
                bf.windows_seen = 1;
        else if (a.system != NULL && strcmp(a.system, "mixed") == 0)
                bf.linux_seen = bf.windows_seen = 1;
        if (a.arch != NULL && strcmp(a.arch, "mixed") == 0 &&
            add_line(&s->stops, err, "%s: holds binaries for more than one machine", s->path) < 0)
                goto fail;
        if (a.arch != NULL && strcmp(a.arch, "unknown") != 0 && strcmp(a.arch, "mixed") != 0 &&
            cc_strv_push(&bf.machines, a.arch, err) < 0)
                goto fail;
        if (a.name != NULL && cc_vw_ins_archive_name_read(a.name, &an, NULL) == 0)
                s->cuda_major = cuda_from_name(an.cuda);
        s->versions = f.versions != NULL ? cc_v_copy(f.versions, err) : cc_v_array(err);
        if (s->versions == NULL)
                goto fail;
        if (judge(s, &bf, err) < 0)
                goto fail;
        rv = 0;
fail:
        facts_free(&bf);
        cc_v_free(doc);
        return rv;
}

/* ---- directories ---------------------------------------------------------------- */

struct walk {
        cc_source *s;
        size_t cap;
        int stopped; /* a limit was reached: the walk ends */
};

static int walk_dir(struct walk *w, const char *rel, int depth, cc_error *err)
{
        cc_strv names = {0};
        char *dir = join(w->s->path, rel, err);
        size_t i;
        int more = 0, rv = -1;
        cc_error e = {0};

        if (dir == NULL)
                return -1;
        if (cc_list_dir_some(dir, SRC_MAX_MEMBERS, &names, &more, &e) < 0) {
                if (e.code == CC_ERR_NOMEM) {
                        *err = e;
                        goto fail;
                }
                if (add_line(&w->s->stops, err, "%s: cannot be read: %s", dir, e.msg) < 0)
                        goto fail;
                cc_err_clear(&e);
                rv = 0;
                goto fail;
        }
        for (i = 0; i < names.n && !w->stopped; i++) {
                char *name = join(rel, names.v[i], err), *full = NULL, *link = NULL;
                cc_stat st;
                int r = 0;

                if (name == NULL)
                        goto fail;
                if (w->s->n >= SRC_MAX_MEMBERS || more) {
                        free(name);
                        w->stopped = 1;
                        if (add_line(&w->s->stops, err, "%s: more than 100000 entries: over the limit of a source",
                                     w->s->path) < 0)
                                goto fail;
                        break;
                }
                full = join(w->s->path, name, err);
                if (full == NULL || cc_lstat_path(full, &st, err) < 0) {
                        free(name);
                        free(full);
                        goto fail;
                }
                switch (st.type) {
                case CC_FT_FILE:
                        r = add_member(w->s, &w->cap, name, CC_SRC_FILE,
                                       st.mode >= 0 ? (unsigned)st.mode & 07777 : 0644, st.size, NULL, err);
                        if (r == 0 && st.size > SRC_MAX_BYTES - w->s->bytes) {
                                w->stopped = 1;
                                r = add_line(&w->s->stops, err, "%s: the files hold more than 16 GiB: over the limit",
                                             w->s->path);
                        }
                        w->s->bytes += st.size; /* the walk's count; judge() recounts what is installed */
                        break;
                case CC_FT_DIR:
                        r = add_member(w->s, &w->cap, name, CC_SRC_DIR, st.mode >= 0 ? (unsigned)st.mode & 07777 : 0755,
                                       0, NULL, err);
                        if (r == 0 && depth + 1 >= SRC_MAX_DEPTH) {
                                w->stopped = 1;
                                r = add_line(&w->s->stops, err, "%s: more than 64 directory levels: over the limit",
                                             w->s->path);
                        } else if (r == 0) {
                                r = walk_dir(w, w->s->m[w->s->n - 1].name, depth + 1, err);
                        }
                        break;
                case CC_FT_LINK:
                        link = cc_readlink(full, err);
                        r = link == NULL ? -1 : add_member(w->s, &w->cap, name, CC_SRC_LINK, 0777, 0, link, err);
                        free(link);
                        break;
                case CC_FT_NONE:
                        free(name); /* gone since listed */
                        break;
                default:
                        r = add_member(w->s, &w->cap, name, CC_SRC_OTHER, st.mode >= 0 ? (unsigned)st.mode & 07777 : 0,
                                       0, NULL, err);
                        break;
                }
                free(full);
                if (r < 0)
                        goto fail;
        }
        rv = 0;
fail:
        free(dir);
        cc_strv_free(&names);
        return rv;
}

/* The extraction model over the directory's members: links that leave it,
 * special files, setuid bits, names no system can hold... */
static int judge_members(cc_source *s, cc_error *err)
{
        cc_am_member *mm = NULL;
        cc_am_verdict *v = NULL;
        size_t i;
        int rv = -1;

        if (s->n == 0)
                return 0;
        mm = cc_calloc(err, s->n, sizeof(*mm));
        if (mm == NULL)
                return -1;
        for (i = 0; i < s->n; i++) {
                const cc_src_member *m = &s->m[i];

                mm[i].name = m->name;
                mm[i].name_len = strlen(m->name);
                mm[i].type = m->type == CC_SRC_FILE   ? CC_AM_FILE
                             : m->type == CC_SRC_DIR  ? CC_AM_DIR
                             : m->type == CC_SRC_LINK ? CC_AM_SYMLINK
                                                      : CC_AM_OTHER;
                mm[i].link = m->link;
                mm[i].link_len = m->link != NULL ? strlen(m->link) : 0;
                mm[i].mode = m->type == CC_SRC_LINK ? 0777 : m->mode;
                mm[i].has_mode = m->type != CC_SRC_LINK;
                mm[i].size = (int64_t)m->size;
        }
        if (cc_archive_judge(mm, s->n, &v, err) < 0)
                goto fail;
        for (i = 0; i < s->n; i++)
                if (v[i].problems != 0 && add_line(&s->stops, err, "unsafe member %s: %s", s->m[i].name,
                                                   v[i].reason != NULL ? v[i].reason : "unsafe") < 0)
                        goto fail;
        for (i = 0; i < s->n; i++)
                s->m[i].mode &= 0777; /* judged with the bits it has; installed without setuid & co */
        rv = 0;
fail:
        cc_am_verdicts_free(v, v != NULL ? s->n : 0);
        free(mm);
        return rv;
}

static int is_root_dir(const char *c, size_t n)
{
        return (n == 7 && memcmp(c, "include", 7) == 0) || (n == 3 && memcmp(c, "lib", 3) == 0) ||
               (n == 5 && memcmp(c, "lib64", 5) == 0) || (n == 3 && memcmp(c, "bin", 3) == 0);
}

/* "13.0", "12.9" (and "12.x"): a CUDA version directory of the Windows
 * installer. */
static int is_cuda_dir(const char *c, size_t n)
{
        size_t i, dots = 0;

        if (n < 3 || c[0] < '1' || c[0] > '9' || c[n - 1] == '.')
                return 0;
        if (c[n - 1] == 'x' && c[n - 2] == '.')
                n--;
        for (i = 0; i < n; i++) {
                if (c[i] == '.')
                        dots++;
                else if (c[i] < '0' || c[i] > '9')
                        return 0;
        }
        return dots == 1;
}

/* The major and minor of a CUDA version ("12.9", "12.9.1", "12", "12.x":
 * minor -1); -1 when it is not one. */
static int cuda_parts(const char *s, long *major, long *minor)
{
        char *end;

        *minor = -1;
        if (s == NULL || *s < '1' || *s > '9')
                return -1;
        *major = strtol(s, &end, 10);
        if (*end == '\0')
                return 0;
        if (*end != '.')
                return -1;
        if (strcmp(end, ".x") == 0)
                return 0;
        if (end[1] < '0' || end[1] > '9')
                return -1;
        *minor = strtol(end + 1, &end, 10);
        return *end == '\0' || *end == '.' ? 0 : -1;
}

int cc_cuda_variant_pick(const char *const *variants, size_t n, const char *want, int by_major)
{
        long wm, wn, vm, vn;
        size_t i;
        int best = -1;

        if (cuda_parts(want, &wm, &wn) < 0)
                return -1;
        for (i = 0; i < n; i++) /* the same major and minor */
                if (wn >= 0 && cuda_parts(variants[i], &vm, &vn) == 0 && vm == wm && vn == wn)
                        return (int)i;
        if (wn >= 0 && !by_major) { /* 12.4 asked: only 12.4, or a 12.x that names no minor */
                for (i = 0; i < n; i++)
                        if (cuda_parts(variants[i], &vm, &vn) == 0 && vm == wm && vn < 0)
                                return (int)i;
                return -1;
        }
        for (i = 0; i < n; i++) /* the newest of the major */
                if (cuda_parts(variants[i], &vm, &vn) == 0 && vm == wm &&
                    (best < 0 || cc_version_cmp(variants[i], variants[best]) > 0))
                        best = (int)i;
        return best;
}

/* The layout of a directory: the members' base ("" when the path given is
 * the release's top, its one subdirectory that holds include/lib/bin, or
 * nvidia/cudnn of an unpacked wheel) and the layout's name. */
static int dir_layout(cc_source *s, char **base, cc_error *err)
{
        size_t i;
        int roots = 0, lib64 = 0, libs_at_top = 0, wheel = 0;
        const char *cand = NULL;
        size_t cand_len = 0;
        int several = 0;

        *base = NULL;
        for (i = 0; i < s->n; i++) {
                const char *n = s->m[i].name, *slash = strchr(n, '/');
                size_t fl = slash != NULL ? (size_t)(slash - n) : strlen(n);
                cc_libname ln;

                if (cc_starts_with(n, "nvidia/cudnn/"))
                        wheel = 1;
                if (slash == NULL && is_root_dir(n, fl) && s->m[i].type == CC_SRC_DIR)
                        roots = 1;
                if (slash == NULL && s->m[i].type != CC_SRC_DIR && cc_name_library(n, &ln) == 0)
                        libs_at_top = 1;
                if (slash != NULL) {
                        const char *sub = slash + 1;
                        size_t sl = strcspn(sub, "/");

                        if (sub[sl] == '\0' && is_root_dir(sub, sl) && s->m[i].type == CC_SRC_DIR &&
                            strncmp(n, "nvidia", fl) != 0) {
                                if (cand != NULL && (cand_len != fl || strncmp(cand, n, fl) != 0))
                                        several = 1;
                                cand = n;
                                cand_len = fl;
                        }
                }
        }
        if (wheel) {
                s->layout = "wheel";
                *base = cc_strdup(err, "nvidia/cudnn");
        } else if (roots) {
                *base = cc_strdup(err, "");
        } else if (cand != NULL && !several) {
                *base = cc_strndup(err, cand, cand_len);
        } else if (libs_at_top) {
                s->layout = "flat";
                *base = cc_strdup(err, "");
        } else {
                s->layout = "unknown";
                if (several && add_line(&s->stops, err,
                                        "%s: holds more than one release directory (with include, lib or bin): give "
                                        "the one to install",
                                        s->path) < 0)
                        return -1;
                return 0;
        }
        if (*base == NULL)
                return -1;
        if (strcmp(s->layout, "unknown") != 0)
                return 0; /* wheel, flat */
        for (i = 0; i < s->n; i++) {
                const char *n = s->m[i].name;
                size_t bl = strlen(*base);

                if (bl > 0 && (strncmp(n, *base, bl) != 0 || n[bl] != '/'))
                        continue;
                if (first_is(n + (bl ? bl + 1 : 0), "lib64"))
                        lib64 = 1;
        }
        s->layout = lib64 || strcmp(*base, "cuda") == 0 || (**base == '\0' && strcmp(cc_basename(s->path), "cuda") == 0)
                        ? "legacy-cuda"
                        : "redist";
        return 0;
}

/* want: the one CUDA version directory of the installer's layout whose
 * files are installed (the others' are not), or NULL: every one. */
static int dir_dests(cc_source *s, const char *base, const char *want, cc_strv *cuda_dirs, cc_error *err)
{
        size_t i, bl = strlen(base);

        for (i = 0; i < s->n; i++) {
                cc_src_member *m = &s->m[i];
                const char *rel = m->name, *rest, *sub;
                char root[8];
                size_t rl;

                if (m->type == CC_SRC_DIR || m->type == CC_SRC_OTHER)
                        continue;
                if (bl > 0) {
                        if (strncmp(rel, base, bl) != 0 || rel[bl] != '/')
                                continue;
                        rel += bl + 1;
                }
                if (strcmp(s->layout, "flat") == 0) {
                        cc_libname ln;
                        const char *to = NULL;

                        if (strchr(rel, '/') != NULL || cc_name_library(rel, &ln) < 0)
                                continue;
                        to = ln.kind == CC_FK_HEADER   ? "include"
                             : ln.kind == CC_FK_DLL    ? "bin"
                             : ln.kind == CC_FK_IMPLIB ? "lib/x64"
                                                       : "lib";
                        if ((m->dest = join(to, rel, err)) == NULL)
                                return -1;
                        continue;
                }
                rl = strcspn(rel, "/");
                if (rel[rl] != '/' || !is_root_dir(rel, rl))
                        continue; /* LICENSE, dist-info, anything else */
                memcpy(root, rel, rl);
                root[rl] = '\0';
                rest = rel + rl + 1;
                /* the installer's bin/13.0/, include/13.0/, lib/13.0/x64/ */
                sub = strchr(rest, '/');
                if (sub != NULL && is_cuda_dir(rest, (size_t)(sub - rest))) {
                        char ver[16];

                        snprintf(ver, sizeof(ver), "%.*s", (int)(sub - rest), rest);
                        if (!cc_strv_contains(cuda_dirs, ver) && cc_strv_push(cuda_dirs, ver, err) < 0)
                                return -1;
                        if (want != NULL && strcmp(ver, want) != 0)
                                continue;
                        rest = sub + 1;
                }
                if (rest[0] == '\0')
                        continue;
                if ((m->dest = join(strcmp(root, "lib64") == 0 ? "lib" : root, rest, err)) == NULL)
                        return -1;
        }
        return 0;
}

/* Is this a file whose bytes say something (headers, libraries, METADATA)? */
static int interesting(const cc_src_member *m, int *is_lib)
{
        const char *b = cc_basename(m->name);
        cc_libname ln;

        *is_lib = 0;
        if (m->type != CC_SRC_FILE)
                return 0;
        if (strcmp(b, "METADATA") == 0)
                return strstr(m->name, ".dist-info/") != NULL;
        if (m->dest == NULL)
                return 0;
        if (cc_name_library(b, &ln) == 0) {
                *is_lib = ln.kind != CC_FK_HEADER;
                return 1;
        }
        return cc_starts_with(b, "cudnn") && cc_ends_with(b, ".h");
}

/* The facts of the directory's interesting files: versions and, for the
 * libraries, system and machine and the CUDA they need. A file that cannot
 * be read is a stop: it could not be installed either. */
static int dir_facts(cc_source *s, struct facts *f, cc_error *err)
{
        size_t i;

        for (i = 0; i < s->n; i++) {
                cc_src_member *m = &s->m[i];
                cc_map map;
                cc_value *facts = NULL;
                cc_error e = {0};
                char *full;
                int is_lib, r = 0;

                if (!interesting(m, &is_lib))
                        continue;
                full = join(s->path, m->name, err);
                if (full == NULL)
                        return -1;
                if (cc_map_file(full, 0, &map, &e) < 0) {
                        free(full);
                        if (e.code == CC_ERR_NOMEM) {
                                *err = e;
                                return -1;
                        }
                        r = add_line(&s->stops, err, "%s: cannot be read: %s", m->name, e.msg);
                        cc_err_clear(&e);
                        if (r < 0)
                                return -1;
                        continue;
                }
                free(full);
                if (is_lib)
                        r = note_binary(f, map.data, map.size, err);
                if (r == 0 && (!is_lib || map.size <= SRC_FACTS_MAX)) {
                        facts = cc_v_object(err);
                        r = facts == NULL ? -1
                                          : cc_inspect_bytes(cc_basename(m->name), map.data, map.size, 0, facts, err);
                        if (r == 0 && cc_map_changed(&map))
                                r = add_line(&s->stops, err, "%s: changed while read", m->name);
                        else if (r == 0)
                                r = cc_lift_versions(s->versions, facts, m->name, err) < 0 ||
                                            note_needs(f, facts, err) < 0
                                        ? -1
                                        : 0;
                        cc_v_free(facts);
                }
                cc_unmap(&map);
                if (r < 0)
                        return -1;
        }
        return 0;
}

/* Version evidence in directory names: the dist-info of an unpacked wheel,
 * and the archive's name where the directory kept it
 * (cudnn-linux-x86_64-9.19.0.56_cuda13-archive). Sets cuda_major from them. */
static int dir_name_facts(cc_source *s, const char *base, cc_error *err)
{
        const char *cands[2];
        size_t i;

        cands[0] = cc_basename(s->path);
        cands[1] = base;
        for (i = 0; i < CC_ARRAY_LEN(cands); i++) {
                static const char *const exts[] = {"", ".tar.xz", ".zip", ".tgz"};
                cc_archname an;
                size_t k;
                char name[512], buf[64];

                if (cands[i] == NULL || cands[i][0] == '\0' || strchr(cands[i], '/') != NULL)
                        continue;
                for (k = 0; k < CC_ARRAY_LEN(exts); k++) {
                        snprintf(name, sizeof(name), "%s%s", cands[i], exts[k]);
                        if (cc_name_archive(name, &an) == 0)
                                break;
                }
                if (k == CC_ARRAY_LEN(exts))
                        continue;
                if (s->cuda_major < 0)
                        s->cuda_major = cuda_from_name(an.cuda);
                if (an.version.n > 0) {
                        cudnnctl_ver v = an.version;

                        if (v.n > 3)
                                v.n = 3;
                        if (cc_version_entry(s->versions, "archive-name", cudnnctl_ver_str(&v, buf, sizeof(buf)),
                                             "the directory's name", NULL, err) < 0)
                                return -1;
                }
                break;
        }
        for (i = 0; i < s->n; i++) {
                const char *n = s->m[i].name;
                cc_distname dn;
                char buf[64];

                if (strchr(n, '/') != NULL || s->m[i].type != CC_SRC_DIR || !cc_ends_with(n, ".dist-info") ||
                    cc_name_distinfo(n, &dn) < 0 || !dn.is_cudnn)
                        continue;
                if (s->cuda_major < 0 && dn.cuda_major > 0)
                        s->cuda_major = dn.cuda_major;
                if (dn.version.n > 0) {
                        cudnnctl_ver v = dn.version;

                        if (v.n > 3)
                                v.n = 3;
                        if (cc_version_entry(s->versions, "dist-info-name", cudnnctl_ver_str(&v, buf, sizeof(buf)), n,
                                             NULL, err) < 0)
                                return -1;
                }
                break;
        }
        return 0;
}

static int open_dir(cc_source *s, const char *want, cc_error *err)
{
        struct walk w;
        struct facts f;
        cc_strv cuda_dirs = {0};
        char *base = NULL;
        int rv = -1;

        memset(&w, 0, sizeof(w));
        memset(&f, 0, sizeof(f));
        f.cuda_major = -1;
        w.s = s;
        s->versions = cc_v_array(err);
        if (s->versions == NULL || walk_dir(&w, "", 0, err) < 0)
                goto fail;
        s->bytes = 0; /* judge() counts what is installed */
        if (judge_members(s, err) < 0 || dir_layout(s, &base, err) < 0)
                goto fail;
        if (base != NULL && dir_dests(s, base, want, &cuda_dirs, err) < 0)
                goto fail;
        if (cuda_dirs.n > 0) {
                s->layout = "installer";
                for (size_t i = 0; i < cuda_dirs.n; i++)
                        if (cc_strv_push(&s->cuda_variants, cuda_dirs.v[i], err) < 0)
                                goto fail;
                if (want != NULL && !cc_strv_contains(&cuda_dirs, want)) {
                        if (add_line(&s->stops, err, "%s: no CUDA version directory %s (bin/%s/...) in it", s->path,
                                     want, want) < 0)
                                goto fail;
                } else if (want != NULL) {
                        s->cuda_major = cuda_from_name(want);
                        if ((s->cuda_variant = cc_strdup(err, want)) == NULL ||
                            cc_strv_pushf(&s->warnings, 1, err,
                                          "%s: the CUDA %s build of the installer's layout is installed (bin/%s/ goes "
                                          "to bin/, include/%s/ to include/, lib/%s/x64/ to lib/x64/)%s",
                                          s->path, want, want, want, want,
                                          cuda_dirs.n > 1 ? "; the other CUDA version directories are left" : "") < 0)
                                goto fail;
                } else if (cuda_dirs.n > 1) {
                        f.no_dup_checks = 1; /* each file of one would collide with its twin: said once */
                        cc_buf b = {0};
                        size_t i;
                        int r = 0;

                        for (i = 0; i < cuda_dirs.n && r == 0; i++)
                                r = cc_buf_printf(&b, err, "%s%s", i ? ", " : "", cuda_dirs.v[i]);
                        r = r < 0 ? -1
                                  : add_line(&s->stops, err,
                                             "%s: holds builds for more than one CUDA version (%s): choose one "
                                             "(install --cuda VERSION)",
                                             s->path, b.data);
                        cc_buf_free(&b);
                        if (r < 0)
                                goto fail;
                } else {
                        s->cuda_major = cuda_from_name(cuda_dirs.v[0]);
                        if (cc_strv_pushf(&s->warnings, 1, err,
                                          "%s: the CUDA version directory %s of the installer's layout is dropped "
                                          "(bin/%s/ goes to bin/, include/%s/ to include/, lib/%s/x64/ to lib/x64/)",
                                          s->path, cuda_dirs.v[0], cuda_dirs.v[0], cuda_dirs.v[0], cuda_dirs.v[0]) < 0)
                                goto fail;
                }
        }
        if (dir_name_facts(s, base, err) < 0 || name_versions(s, s->versions, err) < 0 || dir_facts(s, &f, err) < 0)
                goto fail;
        if (judge(s, &f, err) < 0)
                goto fail;
        rv = 0;
fail:
        free(base);
        cc_strv_free(&cuda_dirs);
        facts_free(&f);
        return rv;
}

/* ---- open and free ------------------------------------------------------------------ */

int cc_source_streams(const char *path)
{
        cc_stat st;
        cc_error ignored = {0};

        return CC_HAVE_LIBARCHIVE && cc_stat_path(path, &st, &ignored) == 0 && st.type == CC_FT_FILE;
}

int cc_source_open(const char *path, cc_source *out, cc_error *err)
{
        return cc_source_open_read(path, NULL, out, err);
}

int cc_source_open_read(const char *path, const cc_src_sink *sink, cc_source *out, cc_error *err)
{
        return cc_source_open_cuda(path, NULL, sink, out, err);
}

int cc_source_open_cuda(const char *path, const char *cuda_variant, const cc_src_sink *sink, cc_source *out,
                        cc_error *err)
{
        cc_stat st;

        memset(out, 0, sizeof(*out));
        out->major = -1;
        out->cuda_major = -1;
        out->layout = "unknown";
        out->path = cc_strdup(err, path);
        if (out->path == NULL)
                return -1;
        /* "dir/" as "dir": member paths are joined to it */
        while (strlen(out->path) > 1 && out->path[strlen(out->path) - 1] == '/')
                out->path[strlen(out->path) - 1] = '\0';
        if (cc_stat_path(out->path, &st, err) < 0)
                goto fail;
        if (st.type == CC_FT_NONE) {
                cc_err(err, CC_ERR_NOTFOUND, "%s: no such file or directory", path);
                goto fail;
        }
        if (st.type == CC_FT_DIR) {
                if (open_dir(out, cuda_variant, err) < 0)
                        goto fail;
                return 0;
        }
        if (st.type != CC_FT_FILE) {
                cc_err(err, CC_ERR_USAGE, "%s: neither an archive nor a directory", path);
                goto fail;
        }
        out->is_archive = 1;
        out->file_size_ = st.size;
        out->file_mtime_ = st.mtime;
        if (!CC_HAVE_LIBARCHIVE) {
                cc_err(err, CC_ERR_UNSUPPORTED,
                       "%s: this build cannot read archives (built without libarchive): "
                       "unpack it and give the directory",
                       path);
                goto fail;
        }
        if (open_archive(out, sink, err) < 0)
                goto fail;
        return 0;
fail:
        cc_source_free(out);
        return -1;
}

void cc_source_free(cc_source *s)
{
        size_t i;

        if (s == NULL)
                return;
        for (i = 0; i < s->n; i++) {
                free(s->m[i].name);
                free(s->m[i].dest);
                free(s->m[i].link);
        }
        free(s->m);
        free(s->path);
        free(s->version);
        free(s->cuda_variant);
        cc_strv_free(&s->cuda_variants);
        cc_v_free(s->versions);
        cc_strv_free(&s->stops);
        cc_strv_free(&s->warnings);
        memset(s, 0, sizeof(*s));
        s->major = -1;
        s->cuda_major = -1;
}

/* ---- reading ------------------------------------------------------------------------ */

static size_t last_wanted(const cc_source *s, const unsigned char *want)
{
        size_t i, last = SIZE_MAX;

        for (i = 0; i < s->n; i++)
                if (want[i] && s->m[i].type == CC_SRC_FILE)
                        last = i;
        return last;
}

static int read_dir(const cc_source *s, const unsigned char *want, const cc_src_sink *sink, cc_error *err)
{
        size_t i, last = last_wanted(s, want);

        for (i = 0; last != SIZE_MAX && i <= last; i++) {
                const cc_src_member *m = &s->m[i];
                cc_map map;
                cc_stat st;
                char *full;
                size_t off;
                int r;

                if (!want[i] || m->type != CC_SRC_FILE)
                        continue;
                full = join(s->path, m->name, err);
                if (full == NULL)
                        return -1;
                /* not through a link put there since the walk */
                if (cc_lstat_path(full, &st, err) < 0) {
                        free(full);
                        return -1;
                }
                if (st.type != CC_FT_FILE) {
                        cc_err(err, CC_ERR_IO, "%s: no longer a file (changed since the source was read)", full);
                        free(full);
                        return -1;
                }
                if (cc_map_file(full, 0, &map, err) < 0) {
                        free(full);
                        return -1;
                }
                if ((uint64_t)map.size != m->size) {
                        cc_err(err, CC_ERR_IO, "%s: %zu bytes now, %llu when the source was read (changed since)", full,
                               map.size, (unsigned long long)m->size);
                        r = -1;
                } else {
                        r = sink->begin(sink->ctx, i, err);
                        for (off = 0; r == 0 && off < map.size; off += SRC_SLICE) {
                                size_t n = map.size - off < SRC_SLICE ? map.size - off : SRC_SLICE;

                                r = sink->data(sink->ctx, map.data + off, n, err);
                        }
                        /* pages of a file cut short read as zeros: said here */
                        if (r == 0)
                                r = cc_map_check(&map, full, err);
                        if (r == 0)
                                r = sink->end(sink->ctx, err);
                }
                cc_unmap(&map);
                free(full);
                if (r < 0)
                        return -1;
        }
        return 0;
}

#if CC_HAVE_LIBARCHIVE

static const char *ar_msg(struct archive *a)
{
        const char *s = archive_error_string(a);

        return s != NULL ? s : "unknown libarchive error";
}

static int read_member(const cc_source *s, struct archive *a, size_t i, const cc_src_sink *sink, unsigned char *buf,
                       cc_error *err)
{
        const cc_src_member *m = &s->m[i];
        uint64_t got = 0;

        if (sink->begin(sink->ctx, i, err) < 0)
                return -1;
        for (;;) {
                la_ssize_t r = archive_read_data(a, buf, SRC_BLOCK);

                if (r < 0) {
                        cc_err(err, CC_ERR_IO, "%s: %s: cannot read the member: %s", s->path, m->name, ar_msg(a));
                        return -1;
                }
                if (r == 0)
                        break;
                if ((uint64_t)r > m->size - got) {
                        cc_err(err, CC_ERR_IO, "%s: %s: more bytes than the %llu its header declared", s->path, m->name,
                               (unsigned long long)m->size);
                        return -1;
                }
                got += (uint64_t)r;
                if (sink->data(sink->ctx, buf, (size_t)r, err) < 0)
                        return -1;
        }
        if (got != m->size) {
                cc_err(err, CC_ERR_IO, "%s: %s: %llu bytes, %llu when the archive was listed", s->path, m->name,
                       (unsigned long long)got, (unsigned long long)m->size);
                return -1;
        }
        return sink->end(sink->ctx, err);
}

static int read_archive(const cc_source *s, const unsigned char *want, const cc_src_sink *sink, cc_error *err)
{
        struct archive *a = NULL;
        struct archive_entry *e;
        unsigned char *buf = NULL;
        size_t i, last = last_wanted(s, want);
        cc_stat st;
        int rv = -1;

        if (last == SIZE_MAX)
                return 0;
        if (cc_libarchive_load(err) < 0)
                return -1;
        if (cc_stat_path(s->path, &st, err) < 0)
                return -1;
        if (st.type != CC_FT_FILE || st.size != s->file_size_ || st.mtime != s->file_mtime_) {
                cc_err(err, CC_ERR_IO, "%s: changed since it was listed", s->path);
                return -1;
        }
        buf = cc_malloc(err, SRC_BLOCK);
        a = archive_read_new();
        if (buf == NULL || a == NULL) {
                cc_err(err, CC_ERR_NOMEM, "out of memory (libarchive)");
                goto fail;
        }
        if (archive_read_support_filter_all(a) < ARCHIVE_WARN || archive_read_support_format_all(a) < ARCHIVE_WARN ||
            cc_archive_open_path(a, s->path, 65536) < ARCHIVE_WARN) {
                cc_err(err, CC_ERR_IO, "%s: cannot read the archive: %s", s->path, ar_msg(a));
                goto fail;
        }
        for (i = 0; i <= last; i++) {
                const cc_src_member *m = &s->m[i];
                const char *name;
                char *norm;
                int r = archive_read_next_header(a, &e), same;

                if (r == ARCHIVE_EOF) {
                        cc_err(err, CC_ERR_IO, "%s: ends after %zu entries, %zu when it was listed", s->path, i, s->n);
                        goto fail;
                }
                if (r < ARCHIVE_WARN || r == ARCHIVE_RETRY) {
                        cc_err(err, CC_ERR_IO, "%s: damaged archive after %zu entries: %s", s->path, i, ar_msg(a));
                        goto fail;
                }
                name = archive_entry_pathname(e);
                if (name == NULL)
                        name = archive_entry_pathname_utf8(e);
                norm = cc_archive_norm_name(name != NULL ? name : "", err);
                if (norm == NULL)
                        goto fail;
                same = strcmp(norm, m->name) == 0 &&
                       (m->type != CC_SRC_FILE ||
                        (archive_entry_size_is_set(e) && (uint64_t)archive_entry_size(e) == m->size));
                free(norm);
                if (!same) {
                        cc_err(err, CC_ERR_IO, "%s: entry %zu (%s) changed since the archive was listed", s->path,
                               i + 1, m->name);
                        goto fail;
                }
                if (want[i] && m->type == CC_SRC_FILE && read_member(s, a, i, sink, buf, err) < 0)
                        goto fail;
                /* anything else is passed over: its declared size was within the listing's bounds */
        }
        rv = 0;
fail:
        if (a != NULL)
                archive_read_free(a);
        free(buf);
        return rv;
}

#else

static int read_archive(const cc_source *s, const unsigned char *want, const cc_src_sink *sink, cc_error *err)
{
        (void)want;
        (void)sink;
        return cc_err(err, CC_ERR_UNSUPPORTED, "%s: this build cannot read archives (built without libarchive)",
                      s->path);
}

#endif

int cc_source_read(const cc_source *s, const unsigned char *want, const cc_src_sink *sink, cc_error *err)
{
        return s->is_archive ? read_archive(s, want, sink, err) : read_dir(s, want, sink, err);
}
