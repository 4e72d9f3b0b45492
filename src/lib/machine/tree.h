/* A file tree seen as one system sees it: the live file system, or a
 * directory treated as "/" (a container image, a mounted disk, a test
 * fixture). Inside a rooted tree symbolic links are followed the way the
 * kernel would follow them if the root were "/" (absolute targets start at
 * the root, ".." stops there, 40 links at most), so nothing outside the
 * root is ever read.
 *
 * Paths given to and returned by the tree are virtual paths of its system:
 * "/usr/lib/x86_64-linux-gnu/libcudnn.so.9" for Linux trees,
 * "C:\Windows\System32\cudnn64_8.dll" for Windows trees (either separator is
 * accepted, C: is the root, other drives and UNC paths are outside the tree,
 * and names match ASCII case-insensitively, as NTFS does). Host paths are
 * what the tree opens. */
#ifndef CC_MACHINE_TREE_H
#define CC_MACHINE_TREE_H

#include "../formats/names.h"
#include "../platform/platform.h"

typedef struct cc_tree cc_tree;

/* root NULL or "": the live file system (system must be the host's). */
int cc_tree_open(const char *root, int system, cc_tree **out, cc_error *err);
void cc_tree_free(cc_tree *t);
/* on (the default): a path whose directory was looked up before is resolved
 * from that directory, not component by component; off: every path the
 * general way (tests compare the two). */
void cc_tree_set_fast(cc_tree *t, int on);
int cc_tree_system(const cc_tree *t); /* CC_SYS_LINUX or CC_SYS_WINDOWS */
/* The root directory on the host, or NULL for the live file system. */
const char *cc_tree_root(const cc_tree *t);
/* 1 if names compare case-insensitively. */
int cc_tree_nocase(const cc_tree *t);

/* ---- virtual path strings (no I/O) --------------------------------------- */

/* 1 if vpath is absolute for the tree's system ("/x"; "C:\x", "\x"). */
int cc_tree_is_abs(const cc_tree *t, const char *vpath);
/* vpath made absolute against cwd (an absolute virtual path) and written in
 * the system's form: one separator kind, no empty or "." components (".."
 * is kept: only the file system can say what it means). Caller frees. */
char *cc_tree_abs(const cc_tree *t, const char *cwd, const char *vpath, cc_error *err);
char *cc_tree_join(const cc_tree *t, const char *dir, const char *name, cc_error *err);
/* The directory part ("/a/b" for "/a/b/c", "/" for "/a", "C:\" for "C:\a"). */
char *cc_tree_dirname(const cc_tree *t, const char *vpath, cc_error *err);
/* Names / whole paths equal for this system (case, and '/' vs '\' on Windows). */
int cc_tree_name_eq(const cc_tree *t, const char *a, const char *b);
int cc_tree_path_eq(const cc_tree *t, const char *a, const char *b);
char cc_tree_sep(const cc_tree *t);

/* ---- looking things up --------------------------------------------------- */

typedef struct cc_tree_res {
        cc_stat st;      /* st.type CC_FT_NONE when it is not there (or could not be reached) */
        char *host;      /* the host path to open (NULL when not there) */
        char *canonical; /* the virtual path with every link resolved and names spelled as on disk */
        char why[192];   /* when not there for a reason other than "does not exist": "too many
                            levels of symbolic links", "permission denied", "not a directory"...
                            (paths in it are virtual) */
        int why_kind;    /* enum cc_why */
        int no_entry;    /* 1: known to be plainly absent, no link in its place (0: not known) */
} cc_tree_res;

enum cc_why {
        CC_WHY_NONE = 0, /* there, or simply does not exist */
        CC_WHY_LOOP,     /* too many levels of symbolic links (ELOOP) */
        CC_WHY_ACCESS,   /* permission denied (EACCES) */
        CC_WHY_NOTDIR,   /* a component is not a directory (ENOTDIR) */
        CC_WHY_OUTSIDE,  /* outside the tree (another drive, a link out of it) */
        CC_WHY_OTHER,    /* any other error */
};

/* Resolve vpath (absolute, virtual). follow: also follow a link in the last
 * component (else st.type may be CC_FT_LINK). Returns 0 also when the path
 * does not exist; -1 only for an invalid path (outside the tree, relative)
 * or when out of memory. */
int cc_tree_resolve(cc_tree *t, const char *vpath, int follow, cc_tree_res *out, cc_error *err);
void cc_tree_res_free(cc_tree_res *r);

/* Shorthands over cc_tree_resolve. A path that is not there is an error
 * (CC_ERR_NOTFOUND) for those that must open something. */
int cc_tree_stat(cc_tree *t, const char *vpath, cc_stat *out, cc_error *err);
int cc_tree_lstat(cc_tree *t, const char *vpath, cc_stat *out, cc_error *err);
char *cc_tree_canonical(cc_tree *t, const char *vpath, cc_error *err);
char *cc_tree_host(cc_tree *t, const char *vpath, cc_error *err);
/* The target of the link at vpath, as stored. */
char *cc_tree_readlink(cc_tree *t, const char *vpath, cc_error *err);
/* The names in a directory as spelled on disk, sorted bytewise. */
int cc_tree_list(cc_tree *t, const char *vdir, size_t max_entries, cc_strv *out, cc_error *err);
int cc_tree_map(cc_tree *t, const char *vpath, size_t max_size, cc_map *out, cc_error *err);
int cc_tree_read(cc_tree *t, const char *vpath, size_t max_size, char **out, size_t *len, cc_error *err);

/* Expand a glob(3)-style pattern ('*', '?', '[...]' in any component; a
 * leading '.' is matched only literally) into the existing paths it names,
 * sorted bytewise, at most max of them (more is CC_ERR_LIMIT). */
int cc_tree_glob(cc_tree *t, const char *pattern, size_t max, cc_strv *out, cc_error *err);
/* fnmatch without flags (nocase: ASCII case-insensitive). */
int cc_glob_match(const char *pattern, const char *name, int nocase);

#endif
