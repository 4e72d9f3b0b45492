/* The tree an archive's members build when they are extracted, and which
 * members an install must refuse.
 *
 * Members are judged in extraction order against a model of the tree the
 * earlier ones built (symbolic links resolved inside it, at most 40 of them
 * per path, as the kernel does), not one name at a time. The model is run
 * three times: as Linux sees the names (case-sensitive, '/' only), as
 * Windows does ('\' is a separator too, names compare case-insensitively and
 * lose trailing dots and spaces) and as macOS does (case-insensitive,
 * precomposed and decomposed letters alike); a problem only one system has
 * says which ("(on Windows)", "(on macOS)", "(on Windows and macOS)").
 *
 * Pure: no libarchive, no file system. inspect reports the verdicts; the
 * install refuses exactly the members found unsafe here. */
#ifndef CC_ARCHMODEL_H
#define CC_ARCHMODEL_H

#include "../common.h"

enum cc_am_type {
        CC_AM_FILE,
        CC_AM_DIR,
        CC_AM_SYMLINK,
        CC_AM_HARDLINK,
        CC_AM_CHARDEV,
        CC_AM_BLOCKDEV,
        CC_AM_FIFO,
        CC_AM_SOCKET,
        CC_AM_OTHER,
};

/* The problems of a member (bits of cc_am_problems); cc_am_problem_name gives
 * each bit's name as docs/json.md lists it. */
enum {
        CC_AM_P_NAME = 1u << 0,         /* "name": empty, NUL, not UTF-8, control, '\', ':', Windows names */
        CC_AM_P_ABSOLUTE = 1u << 1,     /* "absolute": absolute name or drive letter */
        CC_AM_P_DOTDOT = 1u << 2,       /* "dotdot": a ".." component */
        CC_AM_P_ESCAPE = 1u << 3,       /* "escape": the extraction writes (or links) outside the target */
        CC_AM_P_THROUGH_LINK = 1u << 4, /* "through-symlink": written through an earlier symbolic link */
        CC_AM_P_LINK_ESCAPE = 1u << 5,  /* "symlink-escape": the link's target resolves outside */
        CC_AM_P_LINK_LOOP = 1u << 6,    /* "symlink-loop": more than 40 links to resolve */
        CC_AM_P_HARDLINK = 1u << 7,     /* "hardlink": not to an earlier, safe file member */
        CC_AM_P_SPECIAL = 1u << 8,      /* "special": device, FIFO, socket, unknown type */
        CC_AM_P_MODE = 1u << 9,         /* "mode": setuid, setgid, sticky, world-writable */
        CC_AM_P_DUPLICATE = 1u << 10,   /* "duplicate": the same file twice */
        CC_AM_P_CASE = 1u << 11,        /* "case-collision": the same file where case does not count */
        CC_AM_P_LONG = 1u << 12,        /* "too-long": over 4095 bytes, or a component over 255 */
        CC_AM_P_CONFLICT = 1u << 13,    /* "conflict": a file over a directory, a child of a file */
        CC_AM_P_NOT_JUDGED = 1u << 14,  /* "not-judged": the work bound was reached */
};
#define CC_AM_NPROBLEMS 15

/* One member as the archive declares it. name and link are bytes of
 * name_len and link_len (a NUL inside is a problem, not the end); link is
 * the symbolic link's target or the hard link's target member, else NULL.
 * mode: the permission bits (07777) when has_mode. */
typedef struct cc_am_member {
        const char *name;
        size_t name_len;
        int type; /* enum cc_am_type */
        const char *link;
        size_t link_len;
        uint32_t mode;
        int has_mode;
        int64_t size; /* -1: unknown */
} cc_am_member;

typedef struct cc_archive_model cc_archive_model;

/* A new, empty model; free with cc_am_free (NULL is fine). NULL when out of
 * memory. */
cc_archive_model *cc_am_new(cc_error *err);
void cc_am_free(cc_archive_model *m);
/* Append the next member in extraction order (its strings are copied).
 * -1 only when out of memory. Adding after cc_am_judge judges again. */
int cc_am_add(cc_archive_model *m, const cc_am_member *mem, cc_error *err);
/* Judge every member added so far. -1 only when out of memory. */
int cc_am_judge(cc_archive_model *m, cc_error *err);
size_t cc_am_count(const cc_archive_model *m);
/* After cc_am_judge: member i's problems (0: safe) and its reasons, one line
 * ("; " between them), each naming the problem and the other members
 * involved as `entry N "name"` (N counts from 1); NULL when safe. Owned by
 * the model. */
unsigned cc_am_problems(const cc_archive_model *m, size_t i);
const char *cc_am_reason(const cc_archive_model *m, size_t i);
/* The number of unsafe members. */
size_t cc_am_unsafe_count(const cc_archive_model *m);
/* The name of one problem bit ("escape"...), NULL for anything else. */
const char *cc_am_problem_name(unsigned bit);

/* The same in one call: the verdicts of n members, *out (caller frees with
 * cc_am_verdicts_free) holding n entries. -1 only when out of memory. */
typedef struct cc_am_verdict {
        unsigned problems;
        char *reason; /* NULL when safe */
} cc_am_verdict;
int cc_archive_judge(const cc_am_member *members, size_t n, cc_am_verdict **out, cc_error *err);
void cc_am_verdicts_free(cc_am_verdict *v, size_t n);

#endif
