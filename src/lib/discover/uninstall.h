/* Windows' uninstall entries (HKLM and HKCU
 * SOFTWARE\Microsoft\Windows\CurrentVersion\Uninstall\*) of NVIDIA's CUDA
 * toolkits and cuDNN installers, as provenance of the installations `list`
 * finds. Two parts:
 *   uninstall.c       pure: which entries are NVIDIA's CUDA or cuDNN, and
 *                     which installation each one explains (no registry, no
 *                     file system: the unit tests run it on Linux)
 *   prov_uninstall.c  reading the entries from the registry (a live Windows
 *                     machine only) and writing the matches into each
 *                     installation's provenance (`uninstall_entries`) */
#ifndef CC_DISCOVER_UNINSTALL_H
#define CC_DISCOVER_UNINSTALL_H

#include "../common.h"

#include <stddef.h>

enum cc_uninst_kind {
        CC_UNINST_OTHER = 0, /* not NVIDIA's CUDA or cuDNN: ignored */
        CC_UNINST_CUDNN,     /* "NVIDIA cuDNN 9.1" (the cuDNN exe installer) */
        CC_UNINST_TOOLKIT,   /* "NVIDIA CUDA Toolkit 13.1" */
        CC_UNINST_CUDA_PART, /* "NVIDIA CUDA Development 12.1", "NVIDIA CUDA Runtime 12.1"... */
};

/* One entry as read, kept only when it is NVIDIA's CUDA or cuDNN. */
typedef struct cc_uentry {
        char *key;       /* where it is: "HKLM\SOFTWARE\...\Uninstall\NAME" */
        char *name;      /* DisplayName */
        char *version;   /* DisplayVersion, or NULL */
        char *publisher; /* Publisher, or NULL */
        char *location;  /* InstallLocation without quotes and trailing separators, or NULL */
        int kind;        /* enum cc_uninst_kind */
        int major;       /* the CUDA (toolkit, part) or cuDNN version its name gives, */
        int minor;       /* else its DisplayVersion; -1 when unknown */
} cc_uentry;

typedef struct cc_uentries {
        cc_uentry *v;
        size_t n, cap;
} cc_uentries;

/* A value longer than this (bytes) makes the entry skipped: no installer
 * writes a display name or a directory that long. */
#define CC_UNINST_MAX_VALUE 1024
/* Entries kept at most (a registry with more NVIDIA entries is not real). */
#define CC_UNINST_MAX_ENTRIES 4096

/* The kind of an entry by its DisplayName and Publisher, and the version
 * (major.minor) its name or else its DisplayVersion gives (-1 unknown). */
int cc_uninst_kind_of(const char *name, const char *publisher, const char *version, int *major, int *minor);

/* Add an entry as read (any value may be NULL). 1: kept; 0: skipped, *why
 * says why (a missing DisplayName, a value over CC_UNINST_MAX_VALUE, not
 * NVIDIA's CUDA or cuDNN, too many entries); -1 out of memory. */
int cc_uninst_add(cc_uentries *es, const char *key, const char *name, const char *version, const char *publisher,
                  const char *location, const char **why, cc_error *err);
void cc_uentries_free(cc_uentries *es);

/* 1 when the Windows path `path` is the directory `dir` or lies below it:
 * ASCII case ignored, '/' and '\' alike, repeated and trailing separators
 * ignored. A drive root or an empty dir contains nothing. */
int cc_uninst_path_within(const char *path, const char *dir);

/* Where NVIDIA's installer puts what an entry without InstallLocation
 * installed: PF\NVIDIA GPU Computing Toolkit\CUDA\vX.Y for a toolkit or one
 * of its parts, PF\NVIDIA\CUDNN\vX.Y for cuDNN (PF: program_files). NULL
 * (err untouched) when the entry's version is unknown; caller frees. */
char *cc_uninst_standard_dir(const cc_uentry *e, const char *program_files, cc_error *err);

enum cc_uninst_how {
        CC_UNINST_BY_LOCATION = 1, /* the installation is at or below InstallLocation */
        CC_UNINST_BY_STANDARD_PATH /* no InstallLocation: the version's standard directory */
};

typedef struct cc_umatch {
        size_t entry; /* index into the entries */
        size_t inst;  /* index into the prefixes */
        int how;      /* enum cc_uninst_how */
} cc_umatch;

/* Which entry explains which installation, as a pure function: entries in,
 * installation prefixes in (Windows paths), every matching pair out (entry
 * order, then prefix order; *out NULL when none; caller frees). An entry
 * with an InstallLocation matches by it alone: a prefix at or below it,
 * except a prefix below it in a versioned folder (vX.Y) of another version
 * than the entry's (a location that is the parent of several toolkits). An
 * entry without one matches the prefix at or below its standard directory
 * (cc_uninst_standard_dir). -1 only when out of memory. */
int cc_uninst_match(const cc_uentry *es, size_t ne, const char *const *prefixes, size_t np, const char *program_files,
                    cc_umatch **out, size_t *nout, cc_error *err);

/* The order in which an installation's entries are shown: cuDNN first,
 * then the toolkit, its Development and Runtime parts, the other parts. */
int cc_uninst_rank(const cc_uentry *e);

/* ---- prov_uninstall.c (discovery's side) ---- */

struct cc_discovery;
struct cc_dinst;

/* Read the entries into d->uninst: HKLM's Uninstall key (the 64-bit view,
 * and the 32-bit view under WOW6432Node) and HKCU's; only on the running
 * Windows machine (nothing otherwise). An entry that cannot be read, that
 * vanished since the key was listed, or whose values are missing, of
 * another type or absurdly long is skipped. -1 only when out of memory. */
int cc_disc_uninstall_read(struct cc_discovery *d, cc_error *err);
/* The entries that explain installation in (cc_uninst_match over its prefix
 * and aliases), as `uninstall_entries` of its provenance; *cudnn_entry 1
 * when one of them is a cuDNN installer's. */
int cc_disc_prov_uninstall(struct cc_discovery *d, struct cc_dinst *in, int *cudnn_entry, cc_error *err);

#endif
