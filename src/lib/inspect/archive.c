/* cuDNN archives read in place with libarchive (zip, tar.gz, tar.xz, wheels...):
 * the format, the layout of each era, what the archive's name says and what
 * its members say (kept apart), every member with where an install would put
 * it, and the members an install must refuse (judged by the extraction model
 * of archmodel.c over the whole member list). Nothing is extracted: member
 * data is read into memory, within caps, and handed to cc_inspect_bytes.
 *
 * Every archive is hostile: members are capped (count, bytes per member,
 * bytes in all, bytes passed over), and a damaged archive keeps what was
 * read before the damage. Only the data of members whose facts answer
 * something is read (headers, METADATA, libraries); passing over any other
 * member of a compressed stream still decompresses it, so the bytes passed
 * over are bounded by the archive's own size (AR_PASS_RATIO times it, at
 * least AR_PASS_FLOOR): a small archive that declares gigabytes is listed up
 * to the member that would cross the bound, and says so. */
#include "inspect.h"
#include "archmodel.h"
#include "../facts/views.h"
#include "../formats/names.h"
#include "../formats/sha256.h"
#include "../platform/platform.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CC_HAVE_LIBARCHIVE and CC_HAVE_LZMA_MT (0 when not set); <archive.h>,
 * <archive_entry.h>, <lzma.h> and their functions through tables loaded
 * when first needed (cc_libarchive_load, cc_liblzma_load) */
#include "libarchive_dl.h"

int cc_archive_is(const uint8_t *data, size_t size)
{
        static const struct {
                size_t off;
                const char *magic;
                size_t len;
        } sigs[] = {
            {0, "PK\x03\x04", 4},               /* zip, wheel */
            {0, "PK\x05\x06", 4},               /* empty zip */
            {0, "\x1f\x8b", 2},                 /* gzip */
            {0, "\xfd\x37\x7a\x58\x5a\x00", 6}, /* xz */
            {0, "BZh", 3},                      /* bzip2 */
            {0, "\x28\xb5\x2f\xfd", 4},         /* zstd */
            {257, "ustar", 5},                  /* tar (POSIX and GNU) */
        };
        size_t i;

        if (data == NULL)
                return 0;
        for (i = 0; i < CC_ARRAY_LEN(sigs); i++)
                if (cc_range_ok(size, sigs[i].off, sigs[i].len) &&
                    memcmp(data + sigs[i].off, sigs[i].magic, sigs[i].len) == 0)
                        return 1;
        return 0;
}

#if !CC_HAVE_LIBARCHIVE

int cc_archive_inspect(const char *path, unsigned flags, cc_value *obj, cc_error *err)
{
        (void)path;
        (void)flags;
        return cc_v_set_str(obj, CC_K(ins_facts, error), "this build cannot read archives (built without libarchive)",
                            err);
}

int cc_archive_inspect_tap(const char *path, unsigned flags, cc_archive_tap *tap, cc_value *obj, cc_error *err)
{
        tap->sha256[0] = '\0';
        tap->file_size = 0;
        return cc_archive_inspect(path, flags, obj, err);
}

int cc_archive_inspect_mem(const char *name, const uint8_t *data, size_t size, unsigned flags, uint64_t pass_floor,
                           cc_value *obj, cc_error *err)
{
        (void)name;
        (void)data;
        (void)size;
        (void)pass_floor;
        return cc_archive_inspect(name, flags, obj, err);
}

#else

#define MiB ((uint64_t)1024 * 1024)
#define AR_MAX_MEMBERS 100000                     /* then "truncated" */
#define AR_MAX_TEXT (4 * MiB)                     /* headers, METADATA */
#define AR_MAX_LIB (64 * MiB)                     /* libraries */
#define AR_MAX_READ (256 * MiB)                   /* member data read in all */
#define AR_MAX_PASSED ((uint64_t)16 * 1024 * MiB) /* member bytes passed over */
#define AR_PASS_FLOOR (256 * MiB)                 /* compressed streams: decompressed bytes passed over, */
#define AR_PASS_RATIO 32                          /* at least the floor, else this many times the file */
#define AR_MAX_NAME 4096                          /* longer names are unsafe */
#define AR_MAX_WARNINGS 100
#define AR_MAX_NAME_VERSIONS 32  /* distinct versions in library names */
#define AR_TAP_BUF (1024 * 1024) /* a tapped read: the archive file's, a member's rest */

enum ar_type { T_FILE, T_DIR, T_SYMLINK, T_HARDLINK, T_CHARDEV, T_BLOCKDEV, T_FIFO, T_SOCKET, T_OTHER };
static const char *const type_names[] = {"file",     "dir",  "symlink", "hardlink", "chardev",
                                         "blockdev", "fifo", "socket",  "other"};
/* The model's type of each (enum cc_am_type). */
static const int model_types[] = {CC_AM_FILE,     CC_AM_DIR,  CC_AM_SYMLINK, CC_AM_HARDLINK, CC_AM_CHARDEV,
                                  CC_AM_BLOCKDEV, CC_AM_FIFO, CC_AM_SOCKET,  CC_AM_OTHER};

enum ar_interest { I_NONE, I_HEADER, I_CUDA_HEADER, I_METADATA, I_LIBRARY };

struct ar_member {
        char *norm;  /* normalised name: no "./" prefix, no '/' at the end */
        int type;    /* enum ar_type */
        int unsafe;  /* listed in unsafe_paths: an install must not place it */
        int libkind; /* enum cc_file_kind of the base name, CC_FK_NONE if none */
        cc_value *v; /* the member's object (owned by the members array) */
};

struct ar_state {
        const char *path;
        const uint8_t *mem; /* cc_archive_inspect_mem: the archive's bytes */
        size_t mem_size;
        unsigned flags;
        struct archive *a;
        cc_archive_model *model; /* every member, in order */
        uint64_t pass_floor;     /* AR_PASS_FLOOR, smaller for fuzzing */
        uint64_t pass_bound;     /* the bytes a compressed stream may pass over */
        int costly;              /* passing over member data decompresses it */
        char *cut;               /* why the listing stopped at the pass bound */
        cc_value *members;       /* [ {path, type, size, link, install_to, facts} ] */
        cc_value *unsafe;        /* [ {path, reason} ] */
        cc_value *warnings;      /* libarchive's warnings */
        cc_value *lifted;        /* version evidence found in member facts */
        struct ar_member *m;
        size_t n, cap;
        uint64_t total_size;
        uint64_t read_total; /* member bytes read for facts */
        uint64_t passed;     /* member bytes declared, read or skipped */
        int truncated;
        const char *truncated_reason;
        int linux_seen, windows_seen;
        cc_strv arches;     /* machines of the members read */
        cc_strv name_vers;  /* distinct versions in library names */
        cc_strv name_first; /* the first member that showed each */
        size_t name_count[AR_MAX_NAME_VERSIONS];
        /* cc_archive_inspect_tap */
        cc_archive_tap *tap;
        FILE *fp;      /* the archive, read here and hashed (NULL: libarchive reads it) */
        uint8_t *rbuf; /* its bytes */
        uint8_t *dbuf; /* a member's bytes past what facts read */
        cc_sha256 raw; /* of the bytes read from fp */
        uint64_t raw_n;
        int raw_failed;
#if CC_HAVE_LZMA_MT
        /* An .xz archive of a tapped read is decompressed here, by liblzma's
         * multithreaded decoder (its blocks in parallel, when the archive
         * has several), and libarchive reads the tar inside. */
        lzma_stream xz;
        int xz_on, xz_end, raw_eof;
        uint8_t *xbuf;
#endif
};

/* ---- names ------------------------------------------------------------ */

static int is_linux_lib_name(const char *base)
{
        const char *so = strstr(base, ".so");

        if (cc_ends_with(base, ".a") && cc_starts_with(base, "lib"))
                return 1;
        while (so != NULL) {
                const char *p = so + 3;

                if (*p == '\0')
                        return 1;
                if (*p == '.' && p[1] >= '0' && p[1] <= '9') {
                        for (p++; (*p >= '0' && *p <= '9') || *p == '.'; p++)
                                ;
                        if (*p == '\0')
                                return 1;
                }
                so = strstr(so + 3, ".so");
        }
        return 0;
}

static int is_windows_lib_name(const char *base)
{
        return cc_ends_with_nocase(base, ".dll") || cc_ends_with_nocase(base, ".lib");
}

/* Which members get their data read and inspected. */
static int interest(const char *norm, const char *base, int type, int *libkind)
{
        cc_libname ln;
        const char *slash;

        *libkind = CC_FK_NONE;
        if (cc_name_library(base, &ln) == 0)
                *libkind = ln.kind;
        if (type != T_FILE)
                return I_NONE;
        if (strcmp(base, "METADATA") == 0) {
                slash = strrchr(norm, '/');
                if (slash != NULL && (size_t)(slash - norm) >= 10 && memcmp(slash - 10, ".dist-info", 10) == 0)
                        return I_METADATA;
                return I_NONE;
        }
        if (strcmp(base, "cuda.h") == 0 || strcmp(base, "cuda_runtime_api.h") == 0)
                return I_CUDA_HEADER;
        if (*libkind == CC_FK_HEADER || (cc_starts_with(base, "cudnn") && cc_ends_with(base, ".h")))
                return I_HEADER;
        if (*libkind != CC_FK_NONE)
                return I_LIBRARY;
        return I_NONE;
}

/* ---- fact helpers ------------------------------------------------------- */

/* "9.1.0" from a version of up to four parts (the first three). */
static const char *ver3(const cudnnctl_ver *v, char *buf, size_t size)
{
        cudnnctl_ver t = *v;

        if (t.n > 3)
                t.n = 3;
        return cudnnctl_ver_str(&t, buf, size);
}

/* The system and machine the member's bytes are built for. */
static int note_content(struct ar_state *st, const uint8_t *d, size_t size, cc_error *err)
{
        int sys = CC_SYS_ANY;
        const char *arch = cc_binary_machine(d, size, &sys);

        if (sys == CC_SYS_LINUX)
                st->linux_seen = 1;
        else if (sys == CC_SYS_WINDOWS)
                st->windows_seen = 1;
        if (arch != NULL && !cc_strv_contains(&st->arches, arch))
                return cc_strv_push(&st->arches, arch, err);
        return 0;
}

static int note_name_version(struct ar_state *st, const cc_libname *ln, const char *path, cc_error *err)
{
        char buf[64];
        size_t i;

        cudnnctl_ver v = ln->version;

        if (v.n == 0 && ln->major >= 0) { /* cudnn64_9.dll, libcudnn.so.9 */
                v.n = 1;
                v.part[0] = ln->major;
        }
        if (ln->kind == CC_FK_NONE || ln->kind == CC_FK_HEADER || v.n == 0)
                return 0;
        cudnnctl_ver_str(&v, buf, sizeof(buf));
        for (i = 0; i < st->name_vers.n; i++) {
                if (strcmp(st->name_vers.v[i], buf) == 0) {
                        st->name_count[i]++;
                        return 0;
                }
        }
        if (st->name_vers.n >= AR_MAX_NAME_VERSIONS)
                return 0;
        if (cc_strv_push(&st->name_vers, buf, err) < 0)
                return -1;
        if (cc_strv_push(&st->name_first, path, err) < 0)
                return -1;
        st->name_count[st->name_vers.n - 1] = 1;
        return 0;
}

/* ---- reading ------------------------------------------------------------ */

/* The unsafe_paths entry of member i: its name, the reasons, its entry
 * number (from 1) and the problems by name. */
static int add_unsafe(struct ar_state *st, size_t i, cc_error *err)
{
        unsigned bits = cc_am_problems(st->model, i), b;
        cc_value *u = cc_v_object(err), *probs = NULL;
        cc_vw_ins_member m;

        if (u == NULL)
                return -1;
        cc_vw_ins_member_read(st->m[i].v, &m, NULL);
        if (cc_v_set_str(u, CC_K(ins_unsafe, path), m.path, err) < 0 ||
            cc_v_set_str(u, CC_K(ins_unsafe, reason), cc_am_reason(st->model, i), err) < 0 ||
            cc_v_set_int(u, CC_K(ins_unsafe, entry), (int64_t)i + 1, err) < 0)
                goto fail;
        probs = cc_v_array(err);
        if (probs == NULL)
                goto fail;
        for (b = 1; b != 0; b <<= 1)
                if ((bits & b) && cc_am_problem_name(b) != NULL &&
                    cc_v_push(probs, cc_v_str(cc_am_problem_name(b), err), err) < 0)
                        goto fail;
        if (cc_v_set(u, CC_K(ins_unsafe, problems), probs, err) < 0) {
                probs = NULL;
                goto fail;
        }
        return cc_v_push(st->unsafe, u, err);
fail:
        cc_v_free(probs);
        cc_v_free(u);
        return -1;
}

static const char *ar_msg(struct archive *a)
{
        const char *s = archive_error_string(a);

        return s != NULL ? s : "unknown libarchive error";
}

/* Read the current member's data, at most cap bytes (what_cap names that cap
 * for the message). Returns 0 with the data in *out (caller frees) or *skipped
 * saying why it was not read, 1 if the archive failed, -1 when out of memory. */
static int read_data(struct ar_state *st, int64_t declared, uint64_t cap, const char *what_cap, uint8_t **out,
                     size_t *len, const char **skipped, cc_error *err)
{
        static const char *const spent = "limit reached: the 256 MiB read from members in all is spent";
        uint8_t *buf = NULL;
        size_t have = 0, alloc;
        uint64_t budget = AR_MAX_READ - st->read_total;
        int rv = -1;

        *out = NULL;
        *len = 0;
        *skipped = NULL;
        if (declared >= 0 && (uint64_t)declared > cap) {
                *skipped = what_cap;
                return 0;
        }
        if (declared >= 0 && (uint64_t)declared > budget) {
                *skipped = spent;
                return 0;
        }
        if (budget < cap) {
                cap = budget;
                what_cap = spent;
        }
        alloc = declared >= 0 ? (size_t)declared + 1 : 65536;
        if (alloc > cap + 1)
                alloc = (size_t)cap + 1;
        buf = cc_malloc(err, alloc);
        if (buf == NULL)
                goto fail;
        for (;;) {
                la_ssize_t r;

                if (have == alloc) {
                        size_t nalloc = alloc > (cap + 1) / 2 ? (size_t)cap + 1 : alloc * 2;
                        uint8_t *p;

                        if (have > cap)
                                break; /* more than the cap: not read */
                        p = cc_realloc(err, buf, nalloc);
                        if (p == NULL)
                                goto fail;
                        buf = p;
                        alloc = nalloc;
                }
                r = archive_read_data(st->a, buf + have, alloc - have);
                if (r < 0) {
                        rv = 1;
                        goto fail;
                }
                if (r == 0)
                        break;
                if (st->tap != NULL && st->tap->begin != NULL &&
                    st->tap->data(st->tap->ctx, buf + have, (size_t)r, err) < 0)
                        goto fail;
                have += (size_t)r;
        }
        if (have > cap) {
                *skipped = what_cap;
                rv = 0;
                goto fail;
        }
        st->read_total += have;
        *out = buf;
        *len = have;
        buf = NULL;
        rv = 0;
fail:
        free(buf);
        return rv;
}

static int lift_versions(struct ar_state *st, const cc_value *facts, const char *path, cc_error *err)
{
        return cc_lift_versions(st->lifted, facts, path, err);
}

/* The facts of an interesting member (its data read within the caps) into
 * mv. Returns 0, 1 if the archive failed while reading the data, -1 on OOM. */
static int member_facts(struct ar_state *st, cc_value *mv, int kind, int64_t size, const char *name, const char *base,
                        cc_error *err)
{
        static const char *const lib_cap = "limit reached: the member is larger than the 64 MiB read for libraries";
        static const char *const text_cap =
            "limit reached: the member is larger than the 4 MiB read for headers and metadata";
        cc_value *facts = NULL;
        uint8_t *data = NULL;
        size_t len = 0;
        const char *skipped = NULL;
        int rv = -1, r, damaged = 0;

        if (st->flags & CUDNNCTL_INSPECT_NO_ARCHIVE_MEMBERS) {
                skipped = "member data not read (as asked)";
        } else {
                r = read_data(st, size, kind == I_LIBRARY ? AR_MAX_LIB : AR_MAX_TEXT,
                              kind == I_LIBRARY ? lib_cap : text_cap, &data, &len, &skipped, err);
                if (r < 0)
                        goto fail;
                if (r > 0) {
                        damaged = 1;
                        skipped = "the archive is damaged here";
                }
        }
        if (skipped != NULL) {
                if (cc_v_set_null(mv, CC_K(ins_member, facts), err) < 0 ||
                    cc_v_set_str(mv, CC_K(ins_member, facts_skipped), skipped, err) < 0)
                        goto fail;
                rv = damaged;
                goto fail;
        }
        facts = cc_v_object(err);
        if (facts == NULL || cc_inspect_bytes(base, data, len, st->flags, facts, err) < 0)
                goto fail;
        if (note_content(st, data, len, err) < 0 || lift_versions(st, facts, name, err) < 0)
                goto fail;
        r = cc_v_set(mv, CC_K(ins_member, facts), facts, err);
        facts = NULL;
        if (r < 0)
                goto fail;
        rv = 0;
fail:
        cc_v_free(facts);
        free(data);
        return rv;
}

/* The rest of a tapped member's bytes (what member_facts did not read),
 * then its end. 0, 1 if the archive failed here, -1 when the tap failed. */
static int tap_rest(struct ar_state *st, cc_error *err)
{
        for (;;) {
                la_ssize_t r = archive_read_data(st->a, st->dbuf, AR_TAP_BUF);

                if (r < 0)
                        return 1;
                if (r == 0)
                        break;
                TRY_RET(st->tap->data(st->tap->ctx, st->dbuf, (size_t)r, err));
        }
        return st->tap->end(st->tap->ctx, err);
}

/* One member: its object, safety, and (if interesting) its facts. Returns 0,
 * 1 if the archive failed while reading its data, -1 on OOM (or a tap's
 * failure). */
static int do_member(struct ar_state *st, struct archive_entry *e, cc_error *err)
{
        const char *name, *link = NULL, *base;
        struct ar_member *am;
        cc_value *mv = NULL, *kept;
        cc_libname ln;
        cc_am_member mm;
        char *norm = NULL;
        int64_t size = -1;
        int rv = -1, r, type, kind, libkind, damaged = 0;

        name = archive_entry_pathname(e);
        if (name == NULL)
                name = archive_entry_pathname_utf8(e);
        if (name == NULL)
                name = "";
        switch (archive_entry_filetype(e)) {
        case AE_IFREG:
                type = T_FILE;
                break;
        case AE_IFDIR:
                type = T_DIR;
                break;
        case AE_IFLNK:
                type = T_SYMLINK;
                link = archive_entry_symlink(e);
                if (link == NULL)
                        link = archive_entry_symlink_utf8(e);
                break;
        case AE_IFCHR:
                type = T_CHARDEV;
                break;
        case AE_IFBLK:
                type = T_BLOCKDEV;
                break;
        case AE_IFIFO:
                type = T_FIFO;
                break;
        case AE_IFSOCK:
                type = T_SOCKET;
                break;
        default:
                type = T_OTHER;
                break;
        }
        if (archive_entry_hardlink(e) != NULL || archive_entry_hardlink_utf8(e) != NULL) {
                type = T_HARDLINK;
                link = archive_entry_hardlink(e);
                if (link == NULL)
                        link = archive_entry_hardlink_utf8(e);
        }
        if (archive_entry_size_is_set(e) && archive_entry_size(e) >= 0)
                size = archive_entry_size(e);

        norm = cc_archive_norm_name(name, err);
        if (norm == NULL)
                goto fail;
        base = cc_basename(norm);

        /* the member's object */
        mv = cc_v_object(err);
        if (mv == NULL || cc_v_set_str(mv, CC_K(ins_member, path), name, err) < 0 ||
            cc_v_set_str(mv, CC_K(ins_member, type), type_names[type], err) < 0)
                goto fail;
        if ((size >= 0 ? cc_v_set_int(mv, CC_K(ins_member, size), size, err)
                       : cc_v_set_null(mv, CC_K(ins_member, size), err)) < 0)
                goto fail;
        if (cc_v_set_str(mv, CC_K(ins_member, link), link, err) < 0 ||
            cc_v_set_int(mv, CC_K(ins_member, mode), archive_entry_perm(e), err) < 0 ||
            cc_v_set_null(mv, CC_K(ins_member, install_to), err) < 0)
                goto fail;
        if (size > 0) {
                uint64_t u = (uint64_t)size;

                st->passed = st->passed > UINT64_MAX - u ? UINT64_MAX : st->passed + u;
                if (type == T_FILE)
                        st->total_size = st->total_size > UINT64_MAX - u ? UINT64_MAX : st->total_size + u;
        }
        if (type != T_DIR && is_linux_lib_name(base))
                st->linux_seen = 1;
        if (type != T_DIR && is_windows_lib_name(base))
                st->windows_seen = 1;
        if (type != T_DIR && cc_name_library(base, &ln) == 0 && note_name_version(st, &ln, name, err) < 0)
                goto fail;

        kind = interest(norm, base, type, &libkind);
        if (st->tap != NULL && st->tap->begin != NULL && type == T_FILE && st->tap->begin(st->tap->ctx, st->n, err) < 0)
                goto fail;
        if (kind == I_NONE) {
                if (cc_v_set_null(mv, CC_K(ins_member, facts), err) < 0)
                        goto fail;
        } else {
                damaged = member_facts(st, mv, kind, size, name, base, err);
                if (damaged < 0)
                        goto fail;
        }
        if (st->tap != NULL && st->tap->begin != NULL && type == T_FILE && !damaged) {
                damaged = tap_rest(st, err);
                if (damaged < 0)
                        goto fail;
        }

        /* keep it */
        if (st->n == st->cap) {
                size_t ncap = st->cap ? st->cap * 2 : 64;
                struct ar_member *p = cc_realloc(err, st->m, ncap * sizeof(*p));

                if (p == NULL)
                        goto fail;
                st->m = p;
                st->cap = ncap;
        }
        kept = mv;
        r = cc_v_push(st->members, mv, err);
        mv = NULL; /* owned by the array, also on failure */
        if (r < 0)
                goto fail;
        /* the extraction model judges it with the others (finish) */
        memset(&mm, 0, sizeof(mm));
        mm.name = name;
        mm.name_len = strlen(name);
        mm.type = model_types[type];
        mm.link = link;
        mm.link_len = link != NULL ? strlen(link) : 0;
        mm.mode = (uint32_t)archive_entry_perm(e);
        mm.has_mode = 1;
        mm.size = size;
        if (cc_am_add(st->model, &mm, err) < 0)
                goto fail;
        am = &st->m[st->n++];
        am->norm = norm;
        am->type = type;
        am->unsafe = 0; /* finish: the model's verdict */
        am->libkind = libkind;
        am->v = kept;
        norm = NULL;
        rv = damaged;
fail:
        cc_v_free(mv);
        free(norm);
        return rv;
}

/* ---- layout --------------------------------------------------------------- */

/* The first component of every member, when they all share one directory. */
static char *common_top(const struct ar_state *st, cc_error *err)
{
        size_t i, tl = 0;
        const char *top = NULL;
        int deeper = 0;

        for (i = 0; i < st->n; i++) {
                const char *p = st->m[i].norm;

                if (p[0] == '\0')
                        continue; /* "./" */
                if (top == NULL) {
                        top = p;
                        tl = strcspn(p, "/");
                }
                if (strncmp(p, top, tl) != 0 || (p[tl] != '\0' && p[tl] != '/'))
                        return cc_strdup(err, ""); /* no common top */
                if (p[tl] == '/')
                        deeper = 1;
                else if (st->m[i].type != T_DIR)
                        return cc_strdup(err, "");
        }
        if (top == NULL || !deeper || top[0] == '/' || (tl == 2 && top[0] == '.' && top[1] == '.'))
                return cc_strdup(err, "");
        return cc_strndup(err, top, tl);
}

enum ar_layout { L_UNKNOWN, L_LEGACY, L_REDIST, L_WHEEL, L_FLAT };
static const char *const layout_names[] = {"unknown", "legacy-cuda", "redist", "wheel", "flat"};

/* The member name below the top directory (or the whole name). */
static const char *rel_name(const char *norm, const char *top)
{
        size_t tl = strlen(top);

        if (tl == 0)
                return norm;
        if (strncmp(norm, top, tl) == 0 && norm[tl] == '/')
                return norm + tl + 1;
        return NULL;
}

static int first_is(const char *rel, const char *comp)
{
        size_t n = strlen(comp);

        return strncmp(rel, comp, n) == 0 && (rel[n] == '/' || rel[n] == '\0');
}

static int find_layout(const struct ar_state *st, const char *top)
{
        size_t i;
        int nv = 0, distinfo = 0, roots = 0, interesting = 0, flat = 1;

        for (i = 0; i < st->n; i++) {
                const char *n = st->m[i].norm, *rel = rel_name(n, top), *first_end;

                if (cc_starts_with(n, "nvidia/cudnn/"))
                        nv = 1;
                first_end = n + strcspn(n, "/");
                if (first_end - n >= 10 && memcmp(first_end - 10, ".dist-info", 10) == 0)
                        distinfo = 1;
                if (rel == NULL)
                        continue;
                if (first_is(rel, "include") || first_is(rel, "lib") || first_is(rel, "bin") ||
                    (strcmp(top, "cuda") == 0 && first_is(rel, "lib64")))
                        roots = 1;
                if (st->m[i].type != T_DIR && st->m[i].libkind != CC_FK_NONE) {
                        interesting = 1;
                        if (strchr(rel, '/') != NULL)
                                flat = 0;
                }
        }
        if (top[0] == '\0' && nv && distinfo)
                return L_WHEEL;
        if (roots && strcmp(top, "cuda") == 0)
                return L_LEGACY;
        if (roots)
                return L_REDIST;
        if (interesting && flat)
                return L_FLAT;
        return L_UNKNOWN;
}

/* Where an install would put the member, relative to the target prefix, or
 * NULL. Directories, unsafe members and anything outside the known roots
 * (licenses, dist-info) are not installed. */
static const char *install_to(const struct ar_member *am, int layout, const char *top)
{
        const char *rel = rel_name(am->norm, top), *rest;

        if (am->unsafe || am->type == T_DIR || am->type > T_HARDLINK || rel == NULL)
                return NULL;
        if (layout == L_WHEEL) {
                if (!cc_starts_with(rel, "nvidia/cudnn/"))
                        return NULL;
                rel += strlen("nvidia/cudnn/");
        }
        if (layout == L_FLAT) {
                if (strchr(rel, '/') != NULL)
                        return NULL;
                switch (am->libkind) {
                case CC_FK_HEADER:
                        return "include";
                case CC_FK_SHARED:
                case CC_FK_STATIC:
                        return "lib";
                case CC_FK_DLL:
                        return "bin";
                case CC_FK_IMPLIB:
                        return "lib/x64";
                default:
                        return NULL;
                }
        }
        if (layout == L_UNKNOWN)
                return NULL;
        if (strchr(rel, '/') == NULL)
                return NULL; /* directly in the top directory: LICENSE... */
        rest = strchr(rel, '/') + 1;
        if (first_is(rel, "include"))
                return "include";
        if (first_is(rel, "lib64"))
                return layout == L_LEGACY ? "lib" : NULL;
        if (first_is(rel, "lib"))
                return first_is(rest, "x64") && strchr(rest, '/') != NULL ? "lib/x64" : "lib";
        if (first_is(rel, "bin"))
                return first_is(rest, "x64") && strchr(rest, '/') != NULL ? "bin/x64" : "bin";
        return NULL;
}

/* ---- the archive object ----------------------------------------------------- */

/* Whether the .xz around the archive is decompressed here, not by libarchive. */
static int xz_ours(const struct ar_state *st)
{
#if CC_HAVE_LZMA_MT
        return st->xz_on;
#else
        (void)st;
        return 0;
#endif
}

static int format_string(struct archive *a, cc_buf *out, cc_error *err)
{
        static const struct {
                int code;
                const char *name;
        } formats[] = {
            {ARCHIVE_FORMAT_ZIP, "zip"},     {ARCHIVE_FORMAT_TAR, "tar"},   {ARCHIVE_FORMAT_CPIO, "cpio"},
            {ARCHIVE_FORMAT_7ZIP, "7z"},     {ARCHIVE_FORMAT_RAR, "rar"},   {ARCHIVE_FORMAT_RAR_V5, "rar"},
            {ARCHIVE_FORMAT_ISO9660, "iso"}, {ARCHIVE_FORMAT_AR, "ar"},     {ARCHIVE_FORMAT_XAR, "xar"},
            {ARCHIVE_FORMAT_CAB, "cab"},     {ARCHIVE_FORMAT_LHA, "lha"},   {ARCHIVE_FORMAT_SHAR, "shar"},
            {ARCHIVE_FORMAT_MTREE, "mtree"}, {ARCHIVE_FORMAT_WARC, "warc"},
        };
        static const struct {
                int code;
                const char *ext;
        } filters[] = {
            {ARCHIVE_FILTER_GZIP, "gz"},  {ARCHIVE_FILTER_XZ, "xz"},      {ARCHIVE_FILTER_BZIP2, "bz2"},
            {ARCHIVE_FILTER_ZSTD, "zst"}, {ARCHIVE_FILTER_LZMA, "lzma"},  {ARCHIVE_FILTER_LZIP, "lz"},
            {ARCHIVE_FILTER_LZ4, "lz4"},  {ARCHIVE_FILTER_COMPRESS, "Z"},
        };
        int fmt = archive_format(a) & ARCHIVE_FORMAT_BASE_MASK, i, nf;
        size_t k;
        const char *name = NULL;

        for (k = 0; k < CC_ARRAY_LEN(formats); k++)
                if (formats[k].code == fmt)
                        name = formats[k].name;
        if (name == NULL)
                return 0; /* unknown: left empty */
        if (cc_buf_puts(out, name, err) < 0)
                return -1;
        nf = archive_filter_count(a);
        for (i = 0; i < nf; i++) {
                int code = archive_filter_code(a, i);
                const char *ext = NULL;

                if (code == ARCHIVE_FILTER_NONE)
                        continue;
                for (k = 0; k < CC_ARRAY_LEN(filters); k++)
                        if (filters[k].code == code)
                                ext = filters[k].ext;
                if (cc_buf_printf(out, err, ".%s", ext != NULL ? ext : archive_filter_name(a, i)) < 0)
                        return -1;
        }
        return 0;
}

static cc_value *name_facts(const cc_archname *an, cc_error *err)
{
        static const char *const eras[] = {"none", "legacy", "redist", "wheel"};
        cc_value *o = cc_v_object(err);
        char buf[64];
        int r;

        if (o == NULL)
                return NULL;
        r = cc_v_set_str(o, CC_K(ins_archive_name, era),
                         an->era >= 0 && an->era <= CC_ERA_WHEEL ? eras[an->era] : "none", err);
        r = r < 0 ? r
                  : cc_v_set_str(o, CC_K(ins_archive_name, version), cudnnctl_ver_str(&an->version, buf, sizeof(buf)),
                                 err);
        r = r < 0 ? r : cc_v_set_str(o, CC_K(ins_archive_name, platform), an->platform[0] ? an->platform : NULL, err);
        r = r < 0 ? r
                  : cc_v_set_str(o, CC_K(ins_archive_name, system),
                                 an->system == CC_SYS_LINUX     ? "linux"
                                 : an->system == CC_SYS_WINDOWS ? "windows"
                                                                : NULL,
                                 err);
        r = r < 0 ? r : cc_v_set_str(o, CC_K(ins_archive_name, arch), an->arch[0] ? an->arch : NULL, err);
        r = r < 0 ? r : cc_v_set_str(o, CC_K(ins_archive_name, cuda), an->cuda[0] ? an->cuda : NULL, err);
        r = r < 0 ? r : cc_v_set_str(o, CC_K(ins_archive_name, format), an->format[0] ? an->format : NULL, err);
        r = r < 0 ? r : cc_v_set_str(o, CC_K(ins_archive_name, package), an->package[0] ? an->package : NULL, err);
        if (r < 0) {
                cc_v_free(o);
                return NULL;
        }
        return o;
}

/* Version evidence from names: the archive's, the dist-info directory's and
 * the library names' (most specific only). */
static int name_versions(struct ar_state *st, const cc_archname *an, int an_ok, cc_value *versions, cc_error *err)
{
        char buf[64], detail[160];
        size_t i, best = 0;
        int distinfo_done = 0;

        if (an_ok && an->version.n > 0) {
                cudnnctl_ver_str(&an->version, detail, sizeof(detail));
                if (cc_version_entry(versions, "archive-name", ver3(&an->version, buf, sizeof(buf)), detail, NULL,
                                     err) < 0)
                        return -1;
        }
        for (i = 0; i < st->n && !distinfo_done; i++) {
                const char *n = st->m[i].norm;
                size_t fl = strcspn(n, "/");
                char comp[160];
                cc_distname dn;

                if (fl < 10 || fl >= sizeof(comp) || memcmp(n + fl - 10, ".dist-info", 10) != 0)
                        continue;
                memcpy(comp, n, fl);
                comp[fl] = '\0';
                distinfo_done = 1;
                if (cc_name_distinfo(comp, &dn) == 0 && dn.is_cudnn && dn.version.n > 0 &&
                    cc_version_entry(versions, "dist-info-name", ver3(&dn.version, buf, sizeof(buf)), comp, NULL, err) <
                        0)
                        return -1;
        }
        for (i = 0; i < st->name_vers.n; i++) {
                size_t dots = 0;
                const char *p;

                for (p = st->name_vers.v[i]; *p; p++)
                        dots += *p == '.';
                if (dots > best)
                        best = dots;
        }
        for (i = 0; i < st->name_vers.n; i++) {
                size_t dots = 0;
                const char *p;

                for (p = st->name_vers.v[i]; *p; p++)
                        dots += *p == '.';
                if (dots != best)
                        continue;
                snprintf(detail, sizeof(detail), "%zu library name%s", st->name_count[i],
                         st->name_count[i] == 1 ? "" : "s");
                if (cc_version_entry(versions, "library-name", st->name_vers.v[i], detail, st->name_first.v[i], err) <
                    0)
                        return -1;
        }
        return 0;
}

static int finish(struct ar_state *st, cc_value *obj, cc_error *err)
{
        cc_value *ar = NULL, *versions = NULL;
        cc_archname an;
        cc_buf fmt = {0};
        char *top = NULL;
        int an_ok, layout, r, rv = -1;
        size_t i;
        const char *sys;

        memset(&an, 0, sizeof(an));
        an_ok = cc_name_archive(cc_basename(st->path), &an) == 0;
        /* safety: the members as the extraction sees them */
        if (cc_am_judge(st->model, err) < 0)
                goto fail;
        for (i = 0; i < st->n; i++) {
                st->m[i].unsafe = cc_am_problems(st->model, i) != 0;
                if (st->m[i].unsafe && add_unsafe(st, i, err) < 0)
                        goto fail;
        }
        top = common_top(st, err);
        if (top == NULL)
                goto fail;
        layout = find_layout(st, top);
        for (i = 0; i < st->n; i++)
                if (cc_v_set_str(st->m[i].v, CC_K(ins_member, install_to), install_to(&st->m[i], layout, top), err) < 0)
                        goto fail;
        if (st->a != NULL && format_string(st->a, &fmt, err) < 0)
                goto fail;
        if (xz_ours(st) && fmt.len > 0 && cc_buf_puts(&fmt, ".xz", err) < 0) /* the filter libarchive did not see */
                goto fail;
        sys = st->linux_seen && st->windows_seen ? "mixed"
              : st->linux_seen                   ? "linux"
              : st->windows_seen                 ? "windows"
                                                 : "unknown";

        ar = cc_v_object(err);
        if (ar == NULL)
                goto fail;
        if (cc_v_set_str(ar, CC_K(ins_archive, format), fmt.len ? fmt.data : NULL, err) < 0 ||
            cc_v_set_int(ar, CC_K(ins_archive, entries), (int64_t)st->n, err) < 0 ||
            cc_v_set_int(ar, CC_K(ins_archive, total_size),
                         st->total_size > INT64_MAX ? INT64_MAX : (int64_t)st->total_size, err) < 0 ||
            cc_v_set_str(ar, CC_K(ins_archive, layout), layout_names[layout], err) < 0 ||
            cc_v_set_str(ar, CC_K(ins_archive, top_dir), top[0] ? top : NULL, err) < 0 ||
            cc_v_set_str(ar, CC_K(ins_archive, system), sys, err) < 0 ||
            cc_v_set_str(ar, CC_K(ins_archive, arch),
                         st->arches.n == 0   ? "unknown"
                         : st->arches.n == 1 ? st->arches.v[0]
                                             : "mixed",
                         err) < 0)
                goto fail;
        if (cc_v_set(ar, CC_K(ins_archive, name), an_ok ? name_facts(&an, err) : cc_v_null(err), err) < 0)
                goto fail;
        r = cc_v_set(ar, CC_K(ins_archive, unsafe_paths), st->unsafe, err);
        st->unsafe = NULL;
        if (r < 0)
                goto fail;
        r = cc_v_set(ar, CC_K(ins_archive, warnings), st->warnings, err);
        st->warnings = NULL;
        if (r < 0)
                goto fail;
        r = cc_v_set(ar, CC_K(ins_archive, members), st->members, err);
        st->members = NULL;
        if (r < 0)
                goto fail;
        if (cc_v_set_bool(ar, CC_K(ins_archive, truncated), st->truncated, err) < 0 ||
            (st->truncated && cc_v_set_str(ar, CC_K(ins_archive, truncated_reason),
                                           st->cut != NULL ? st->cut : st->truncated_reason, err) < 0))
                goto fail;
        if (cc_v_set_int(ar, CC_K(ins_archive, decompressed),
                         st->a != NULL && archive_filter_count(st->a) > 0 ? archive_filter_bytes(st->a, 0) : 0,
                         err) < 0)
                goto fail;

        versions = cc_v_array(err);
        if (versions == NULL || name_versions(st, &an, an_ok, versions, err) < 0)
                goto fail;
        for (i = 0; i < cc_v_len(st->lifted); i++)
                if (cc_v_push(versions, cc_v_copy(cc_v_at(st->lifted, i), err), err) < 0)
                        goto fail;

        rv = cc_v_set(obj, CC_K(ins_facts, archive), ar, err);
        ar = NULL;
        if (rv == 0)
                rv = cc_v_set(obj, CC_K(ins_facts, versions), versions, err);
        versions = NULL;
fail:
        cc_v_free(ar);
        cc_v_free(versions);
        cc_buf_free(&fmt);
        free(top);
        return rv;
}

static int add_warning(struct ar_state *st, const char *msg, cc_error *err)
{
        if (cc_v_len(st->warnings) >= AR_MAX_WARNINGS)
                return 0;
        return cc_v_push(st->warnings, cc_v_str(msg, err), err);
}

/* "15 GiB", "478.5 MiB", "12 KiB", "100 bytes". */
static const char *human(uint64_t n, char *buf, size_t size)
{
        static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
        double v = (double)n;
        int u = -1;

        if (n < 1024) {
                snprintf(buf, size, "%u bytes", (unsigned)n);
                return buf;
        }
        while (v >= 1024 && u < 3) {
                v /= 1024;
                u++;
        }
        if (v == (double)(uint64_t)v)
                snprintf(buf, size, "%.0f %s", v, units[u]);
        else
                snprintf(buf, size, "%.1f %s", v, units[u]);
        return buf;
}

/* Whether passing over member data decompresses it: a compression filter
 * over the whole stream, or a format that compresses members together. */
static int stream_costly(struct archive *a)
{
        int i, n = archive_filter_count(a), fmt = archive_format(a) & ARCHIVE_FORMAT_BASE_MASK;

        for (i = 0; i < n; i++)
                if (archive_filter_code(a, i) != ARCHIVE_FILTER_NONE)
                        return 1;
        return fmt == ARCHIVE_FORMAT_7ZIP || fmt == ARCHIVE_FORMAT_RAR || fmt == ARCHIVE_FORMAT_RAR_V5 ||
               fmt == ARCHIVE_FORMAT_CAB || fmt == ARCHIVE_FORMAT_LHA || fmt == ARCHIVE_FORMAT_XAR;
}

/* The bytes a compressed stream may pass over: AR_PASS_RATIO times the
 * archive's size, at least the floor, at most AR_MAX_PASSED. */
static void set_pass_bound(struct ar_state *st)
{
        cc_stat sb;
        cc_error e = {0};
        uint64_t size = st->mem != NULL ? st->mem_size : 0;

        if (st->mem == NULL && cc_stat_path(st->path, &sb, &e) == 0)
                size = sb.size;
        cc_err_clear(&e);
        st->costly = stream_costly(st->a) || xz_ours(st);
        st->pass_bound = size > AR_MAX_PASSED / AR_PASS_RATIO ? AR_MAX_PASSED : size * AR_PASS_RATIO;
        if (st->pass_bound < st->pass_floor)
                st->pass_bound = st->pass_floor;
}

/* After member n: stop before a compressed stream decompresses more than
 * the bound. 1 when the listing stops here, -1 when out of memory. */
static int over_pass_bound(struct ar_state *st, cc_error *err)
{
        char a[32], b[32], c[32], d[32];
        cc_vw_ins_member m;

        if (!st->costly || st->passed <= st->pass_bound)
                return 0;
        cc_vw_ins_member_read(st->m[st->n - 1].v, &m, NULL);
        st->truncated = 1;
        st->cut =
            cc_asprintf(err,
                        "limit reached: the listing stops after entry %zu (%s, %s): passing over it would "
                        "decompress %s, more than the %s allowed for this archive (%d times its size, at "
                        "least %s); the rest were not read",
                        st->n, m.path, human(CC_VW_HAS(&m, ins_member, size) ? (uint64_t)m.size : 0, a, sizeof(a)),
                        human(st->passed, b, sizeof(b)), human(st->pass_bound, c, sizeof(c)), AR_PASS_RATIO,
                        human(st->pass_floor, d, sizeof(d)));
        return st->cut == NULL ? -1 : 1;
}

/* The archive file's next bytes into rbuf, hashed on the way: their count
 * (0 at its end), or -1 with libarchive's error set. */
static la_ssize_t raw_fill(struct archive *a, struct ar_state *st)
{
        size_t n = fread(st->rbuf, 1, AR_TAP_BUF, st->fp);

        if (n == 0 && ferror(st->fp)) {
                st->raw_failed = 1;
                archive_set_error(a, errno ? errno : EIO, "cannot read the file");
                return -1;
        }
        cc_sha256_update(&st->raw, st->rbuf, n);
        st->raw_n += n;
        return (la_ssize_t)n;
}

/* The archive file's bytes for libarchive. */
static la_ssize_t raw_read(struct archive *a, void *ud, const void **buf)
{
        struct ar_state *st = ud;

        *buf = st->rbuf;
        return raw_fill(a, st);
}

#if CC_HAVE_LZMA_MT
#define AR_XZ_THREADS 8                    /* decoder threads at most */
#define AR_XZ_MEM_THREADS (128u << 20)     /* past this the decoder uses fewer threads, then one */
#define AR_XZ_MEM_STOP ((uint64_t)1 << 30) /* and past this it stops (libarchive's own limit) */

static const char *xz_msg(lzma_ret r)
{
        switch (r) {
        case LZMA_MEM_ERROR:
                return "out of memory";
        case LZMA_MEMLIMIT_ERROR:
                return "the xz data needs more than 1 GiB of memory to decompress";
        case LZMA_FORMAT_ERROR:
                return "not xz data";
        case LZMA_OPTIONS_ERROR:
                return "xz options this decoder does not support";
        case LZMA_BUF_ERROR:
                return "the xz data is truncated";
        default:
                return "the xz data is corrupt";
        }
}

/* 0 when the decoder is set up; else libarchive reads the file itself. */
static int xz_start(struct ar_state *st)
{
        lzma_mt mt;
        uint32_t cpus;
        lzma_stream init = LZMA_STREAM_INIT;

        /* without liblzma, libarchive decompresses it itself */
        if (cc_liblzma_load(NULL) < 0)
                return -1;
        cpus = lzma_cputhreads();
        memset(&mt, 0, sizeof(mt));
        mt.flags = LZMA_CONCATENATED;
        mt.threads = cpus == 0 ? 1 : cpus > AR_XZ_THREADS ? AR_XZ_THREADS : cpus;
        mt.memlimit_threading = AR_XZ_MEM_THREADS;
        mt.memlimit_stop = AR_XZ_MEM_STOP;
        st->xbuf = malloc(AR_TAP_BUF);
        if (st->xbuf == NULL)
                return -1;
        st->xz = init;
        if (lzma_stream_decoder_mt(&st->xz, &mt) != LZMA_OK) {
                free(st->xbuf);
                st->xbuf = NULL;
                return -1;
        }
        st->xz_on = 1;
        return 0;
}

/* The tar inside the .xz for libarchive (the file's bytes by raw_fill). */
static la_ssize_t xz_read(struct archive *a, void *ud, const void **buf)
{
        struct ar_state *st = ud;
        lzma_stream *z = &st->xz;

        z->next_out = st->xbuf;
        z->avail_out = AR_TAP_BUF;
        while (z->avail_out == AR_TAP_BUF && !st->xz_end) {
                lzma_ret r;

                if (z->avail_in == 0 && !st->raw_eof) {
                        la_ssize_t n = raw_fill(a, st);

                        if (n < 0)
                                return -1;
                        st->raw_eof = n == 0;
                        z->next_in = st->rbuf;
                        z->avail_in = (size_t)n;
                }
                r = lzma_code(z, st->raw_eof ? LZMA_FINISH : LZMA_RUN);
                if (r == LZMA_STREAM_END)
                        st->xz_end = 1;
                else if (r != LZMA_OK) {
                        archive_set_error(a, EILSEQ, "%s", xz_msg(r));
                        return -1;
                }
        }
        *buf = st->xbuf;
        return (la_ssize_t)(AR_TAP_BUF - z->avail_out);
}
#endif

/* Open the archive for a tapped read: by our own reads (hashed) unless it
 * is a zip, which libarchive reads by its central directory (seeking). */
static int tap_open(struct ar_state *st)
{
        uint8_t head[6];
        size_t n;

        st->fp = cc_fopen_read(st->path);
        if (st->fp == NULL)
                return cc_archive_open_path(st->a, st->path, 65536);
        n = fread(head, 1, sizeof(head), st->fp);
        if (n >= 2 && head[0] == 'P' && head[1] == 'K') {
                fclose(st->fp);
                st->fp = NULL;
                return cc_archive_open_path(st->a, st->path, 65536);
        }
        rewind(st->fp);
        cc_sha256_init(&st->raw);
#if CC_HAVE_LZMA_MT
        if (n == sizeof(head) &&
            memcmp(head,
                   "\xfd"
                   "7zXZ\0",
                   6) == 0 &&
            xz_start(st) == 0)
                return archive_read_open(st->a, st, NULL, xz_read, NULL);
#endif
        return archive_read_open(st->a, st, NULL, raw_read, NULL);
}

/* After a whole listing: hash what libarchive did not read (a tar's end
 * padding), and give the digest when the file was read whole. */
static void tap_finish(struct ar_state *st)
{
        st->tap->sha256[0] = '\0';
        st->tap->file_size = 0;
        if (st->fp == NULL || st->raw_failed)
                return;
        for (;;) {
                size_t n = fread(st->rbuf, 1, AR_TAP_BUF, st->fp);

                if (n == 0)
                        break;
                cc_sha256_update(&st->raw, st->rbuf, n);
                st->raw_n += n;
        }
        if (ferror(st->fp))
                return;
        cc_sha256_final_hex(&st->raw, st->tap->sha256);
        st->tap->file_size = st->raw_n;
}

/* Read every header (and the interesting members' data). A damaged archive
 * stops the walk with *damage set (caller frees). -1 only when out of memory. */
static int read_all(struct ar_state *st, char **damage, cc_error *err)
{
        const char *bn = cc_basename(st->path);
        struct archive_entry *e;
        int r, opened;

        *damage = NULL;
        /* Every filter and format, but not "raw": a file that is no archive
         * must be an error, not an archive of one member. */
        if (archive_read_support_filter_all(st->a) < ARCHIVE_WARN ||
            archive_read_support_format_all(st->a) < ARCHIVE_WARN) {
                *damage = cc_asprintf(err, "%s: libarchive cannot be set up: %s", bn, ar_msg(st->a));
                return *damage == NULL ? -1 : 0;
        }
        opened = st->mem != NULL   ? archive_read_open_memory(st->a, st->mem, st->mem_size)
                 : st->tap != NULL ? tap_open(st)
                                   : cc_archive_open_path(st->a, st->path, 65536);
        if (opened < ARCHIVE_WARN) {
                *damage = cc_asprintf(err, "%s: cannot read the archive: %s", bn, ar_msg(st->a));
                return *damage == NULL ? -1 : 0;
        }
        for (;;) {
                r = archive_read_next_header(st->a, &e);
                if (r == ARCHIVE_EOF)
                        break;
                if (r < ARCHIVE_WARN || r == ARCHIVE_RETRY) {
                        *damage =
                            cc_asprintf(err, "%s: damaged archive after %zu entries: %s", bn, st->n, ar_msg(st->a));
                        return *damage == NULL ? -1 : 0;
                }
                if (r == ARCHIVE_WARN && add_warning(st, ar_msg(st->a), err) < 0)
                        return -1;
                if (st->n == 0)
                        set_pass_bound(st); /* the format is known now */
                if (st->n >= AR_MAX_MEMBERS) {
                        st->truncated = 1;
                        st->truncated_reason = "more than 100000 entries: the rest were not read";
                        return 0;
                }
                if (st->passed > AR_MAX_PASSED) {
                        st->truncated = 1;
                        st->truncated_reason = "the members hold more than 16 GiB: the rest were not read";
                        return 0;
                }
                r = do_member(st, e, err);
                if (r < 0)
                        return -1;
                if (r > 0) {
                        *damage = cc_asprintf(err, "%s: damaged archive in entry %zu (%s): %s", bn, st->n,
                                              st->m[st->n - 1].norm, ar_msg(st->a));
                        return *damage == NULL ? -1 : 0;
                }
                r = over_pass_bound(st, err);
                if (r != 0)
                        return r < 0 ? -1 : 0;
        }
        if ((archive_format(st->a) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_EMPTY && st->n == 0) {
                *damage = cc_asprintf(err, "%s: empty file, not an archive", bn);
                return *damage == NULL ? -1 : 0;
        }
        return 0;
}

static int inspect_archive(struct ar_state *st, cc_value *obj, cc_error *err)
{
        char *damage = NULL;
        int rv = -1;
        size_t i;
        cc_error lerr;

        /* libarchive is loaded by the first archive read. Without it the
         * archive cannot be read: its "error" says why, as in a build
         * without libarchive; an install's read (tapped) stops there. */
        memset(&lerr, 0, sizeof(lerr));
        if (cc_libarchive_load(&lerr) < 0) {
                if (st->tap != NULL) {
                        st->tap->sha256[0] = '\0';
                        st->tap->file_size = 0;
                        return cc_err(err, lerr.code, "%s", lerr.msg);
                }
                return cc_v_set_str(obj, CC_K(ins_facts, error), lerr.msg, err);
        }

        st->members = cc_v_array(err);
        st->unsafe = cc_v_array(err);
        st->warnings = cc_v_array(err);
        st->lifted = cc_v_array(err);
        st->model = cc_am_new(err);
        if (st->members == NULL || st->unsafe == NULL || st->warnings == NULL || st->lifted == NULL ||
            st->model == NULL)
                goto fail;
        st->a = archive_read_new();
        if (st->a == NULL) {
                cc_err(err, CC_ERR_NOMEM, "out of memory (libarchive)");
                goto fail;
        }
        if (st->tap != NULL) {
                st->tap->sha256[0] = '\0';
                st->rbuf = cc_malloc(err, AR_TAP_BUF);
                st->dbuf = cc_malloc(err, AR_TAP_BUF);
                if (st->rbuf == NULL || st->dbuf == NULL)
                        goto fail;
        }
        if (read_all(st, &damage, err) < 0)
                goto fail;
        if (st->tap != NULL && damage == NULL && !st->truncated)
                tap_finish(st);
        if (finish(st, obj, err) < 0)
                goto fail;
        if (damage != NULL && cc_v_set_str(obj, CC_K(ins_facts, error), damage, err) < 0)
                goto fail;
        rv = 0;
fail:
        if (st->a != NULL)
                archive_read_free(st->a);
        if (st->fp != NULL)
                fclose(st->fp);
#if CC_HAVE_LZMA_MT
        if (st->xz_on)
                lzma_end(&st->xz);
        free(st->xbuf);
#endif
        free(st->rbuf);
        free(st->dbuf);
        for (i = 0; i < st->n; i++)
                free(st->m[i].norm);
        free(st->m);
        free(damage);
        free(st->cut);
        cc_am_free(st->model);
        cc_v_free(st->members);
        cc_v_free(st->unsafe);
        cc_v_free(st->warnings);
        cc_v_free(st->lifted);
        cc_strv_free(&st->arches);
        cc_strv_free(&st->name_vers);
        cc_strv_free(&st->name_first);
        return rv;
}

int cc_archive_inspect(const char *path, unsigned flags, cc_value *obj, cc_error *err)
{
        struct ar_state st;

        memset(&st, 0, sizeof(st));
        st.path = path;
        st.flags = flags;
        st.pass_floor = AR_PASS_FLOOR;
        return inspect_archive(&st, obj, err);
}

int cc_archive_inspect_tap(const char *path, unsigned flags, cc_archive_tap *tap, cc_value *obj, cc_error *err)
{
        struct ar_state st;

        memset(&st, 0, sizeof(st));
        st.path = path;
        st.flags = flags;
        st.pass_floor = AR_PASS_FLOOR;
        st.tap = tap;
        return inspect_archive(&st, obj, err);
}

int cc_archive_inspect_mem(const char *name, const uint8_t *data, size_t size, unsigned flags, uint64_t pass_floor,
                           cc_value *obj, cc_error *err)
{
        struct ar_state st;

        memset(&st, 0, sizeof(st));
        st.path = name;
        st.mem = data != NULL ? data : (const uint8_t *)"";
        st.mem_size = data != NULL ? size : 0;
        st.flags = flags;
        st.pass_floor = pass_floor ? pass_floor : AR_PASS_FLOOR;
        return inspect_archive(&st, obj, err);
}

#endif
