/* Loader emulation: where the Linux dynamic loader (linux.c) or the Windows
 * loader (windows.c) finds a library, over a machine's tree and environment.
 * An answer says how it was found and every place tried, in order; the
 * search goes on past the winner only to list the copies it shadows. */
#ifndef CC_RESOLVE_RESOLVE_H
#define CC_RESOLVE_RESOLVE_H

#include "../machine/machine.h"

/* The step of the search a place belongs to. */
enum cc_how {
        CC_HOW_NONE = 0,
        CC_HOW_DIRECT,  /* the name is a path: used as it is */
        CC_HOW_LOADED,  /* already loaded in the process (a dependency walk) */
        CC_HOW_PRELOAD, /* LD_PRELOAD or /etc/ld.so.preload loaded it first: the name matches it */
        /* Linux */
        CC_HOW_RPATH, /* DT_RPATH of the requester or one of its loaders */
        CC_HOW_LD_LIBRARY_PATH,
        CC_HOW_RUNPATH, /* DT_RUNPATH of the requester */
        CC_HOW_LDCACHE, /* /etc/ld.so.cache */
        CC_HOW_DEFAULT, /* the loader's built-in directories */
        /* Windows */
        CC_HOW_APISET,       /* api-ms-win-* / ext-ms-*: an API set, not a file */
        CC_HOW_KNOWNDLL,     /* HKLM\...\Session Manager\KnownDLLs: always System32 */
        CC_HOW_APPDIR,       /* the application's directory */
        CC_HOW_DLL_LOAD_DIR, /* the directory of the DLL being loaded (LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR,
                                LOAD_WITH_ALTERED_SEARCH_PATH) */
        CC_HOW_USER_DIR,     /* AddDllDirectory / os.add_dll_directory */
        CC_HOW_SET_DLL_DIR,  /* SetDllDirectory */
        CC_HOW_SYSTEM32,
        CC_HOW_SYSTEM16, /* C:\Windows\System */
        CC_HOW_WINDIR,
        CC_HOW_CWD,
        CC_HOW_PATH,
        CC_HOW_NOT_FOUND, /* nothing was found */
};

/* What happened at one place. */
enum cc_outcome {
        CC_TRY_MISSING = 0, /* no such file */
        CC_TRY_FOUND,       /* this is the winner */
        CC_TRY_SKIPPED,     /* there is a file, but the loader passes over it (wrong ELF class or
                               machine, not an ELF file, a directory, unreadable) and goes on */
        CC_TRY_FAILED,      /* there is a file, and the loader stops on it with an error (Windows:
                               a DLL for another machine gives 193) */
        CC_TRY_SHADOWED,    /* a usable copy after the winner: the winner shadows it */
};

typedef struct cc_try {
        char *path;     /* the file tried (virtual path) */
        int how;        /* enum cc_how */
        char *origin;   /* where this place comes from: "RUNPATH of /x/libfoo.so ($ORIGIN/../lib)",
                           "LD_LIBRARY_PATH entry 2 (empty: the current directory)", "ld.so.cache
                           (libc6,x86-64)", "PATH entry 4"... */
        int outcome;    /* enum cc_outcome */
        char *detail;   /* why skipped or failed, or NULL */
        char *realpath; /* for found and shadowed copies: the canonical path, else NULL */
} cc_try;

typedef struct cc_resolution {
        char *name; /* the name asked for */
        int found;
        char *path;     /* the winner's virtual path as the loader builds it, or NULL */
        char *realpath; /* its canonical path (links resolved), or NULL */
        int how;        /* enum cc_how of the winner (CC_HOW_NOT_FOUND if none) */
        char *origin;   /* the winner's origin */
        int win_error;  /* Windows: the LoadLibrary error (0, 126 not found, 193 bad format) */
        cc_try *tries;  /* every place, in search order */
        size_t ntries;
        size_t ntried;   /* tries[0..ntried) are what the loader itself tried (up to the winner);
                            the rest were looked at only to find shadowed copies */
        cc_strv notes;   /* things the user should know about this search, one line each */
        cc_strpool strs; /* the tries' strings */
} cc_resolution;

void cc_resolution_free(cc_resolution *r);
/* Append one place (copies the strings into the resolution's blocks: they
 * live as long as it; realpath may be NULL). */
int cc_resolution_add(cc_resolution *r, const char *path, int how, const char *origin, int outcome, const char *detail,
                      const char *realpath, cc_error *err);
/* The resolution as facts (docs/json.md "resolution"). */
cc_value *cc_resolution_facts(const cc_resolution *r, cc_error *err);
/* Its "tried" array alone (the places the loader itself tried). */
cc_value *cc_resolution_tried(const cc_resolution *r, cc_error *err);
/* Not found because the loader fails on what it found (it stops at a file it
 * cannot load, or found only DLLs for another machine: error 193), not
 * because there is nothing. */
int cc_resolution_fails(const cc_resolution *r);
const char *cc_how_name(int how);         /* "rpath", "ld_library_path", "runpath", "ld.so.cache", ... */
const char *cc_outcome_name(int outcome); /* "missing", "found", "skipped", "failed", "shadowed" */

/* ---- Linux -------------------------------------------------------------- */

/* A loaded object in the chain of loaders of a requester (for DT_RPATH
 * inheritance): the requester first, the executable last. */
typedef struct cc_lnx_obj {
        char *path;    /* virtual path as loaded */
        char *origin;  /* $ORIGIN for it */
        char *rpath;   /* DT_RPATH or NULL */
        char *runpath; /* DT_RUNPATH or NULL */
        int nodeflib;  /* DF_1_NODEFLIB */
        int elfclass;  /* 32/64 */
        uint16_t machine;
} cc_lnx_obj;

typedef struct cc_lnx_ctx cc_lnx_ctx;

/* A loader context over the machine: its setup (machine/ldso.h: the
 * loader's default directories, the ld.so.cache, $LIB/$PLATFORM), the
 * hwcaps subdirectories, LD_LIBRARY_PATH and the preloads.
 * exe is the program whose loader is emulated (NULL: a plain program of the
 * machine's own architecture, /bin/sh of the tree). */
int cc_lnx_ctx_open(cc_machine *m, const char *exe, cc_lnx_ctx **out, cc_error *err);
void cc_lnx_ctx_free(cc_lnx_ctx *c);
/* Facts about the loader context: interpreter, default dirs and where they
 * came from, cache file and format, hwcaps, $LIB, $PLATFORM. */
cc_value *cc_lnx_ctx_facts(const cc_lnx_ctx *c, cc_error *err);

/* The loader (PT_INTERP or the machine's usual one), or NULL. */
const char *cc_lnx_ctx_interp(const cc_lnx_ctx *c);
/* 1 when the context was opened for an exe that names its loader
 * (PT_INTERP): a program, as cc_is_program judges one. */
int cc_lnx_ctx_exe_is_program(const cc_lnx_ctx *c);
/* The objects LD_PRELOAD and /etc/ld.so.preload load before anything else
 * (virtual paths of those the loader finds, in order). */
const cc_strv *cc_lnx_ctx_preloads(const cc_lnx_ctx *c);

/* Resolve name as requested by chain[0] (whose loaders are chain[1..n)).
 * chain may be empty (n == 0): a plain program. shadowed: go on past the
 * winner to record the copies it shadows. */
int cc_lnx_resolve(cc_lnx_ctx *c, const char *name, const cc_lnx_obj *chain, size_t n, int shadowed, cc_resolution *out,
                   cc_error *err);
/* Read an object's dynamic facts for use in a chain (path virtual). -1 and
 * err if it cannot be read or is not ELF. */
int cc_lnx_obj_load(cc_lnx_ctx *c, const char *path, cc_lnx_obj *out, cc_strv *needed, char **soname, cc_error *err);
void cc_lnx_obj_free(cc_lnx_obj *o);
/* $ORIGIN of the main program at vpath: ld.so takes it from /proc/self/exe,
 * the file itself with every link resolved, not from the path it was started
 * by (libtree and ldd use the latter). A library's $ORIGIN is the directory of
 * the path it was found at, links kept (cc_lnx_obj_load). Caller frees. */
char *cc_lnx_program_origin(cc_tree *t, const char *vpath, cc_error *err);

/* ---- Windows ------------------------------------------------------------ */

typedef struct cc_win_ctx cc_win_ctx;

/* A loader context over the machine: System32, Windows directory, KnownDLLs,
 * SafeDllSearchMode (the registry on a live Windows machine; defaults for a
 * tree, said so in the facts), PATH, the current directory. app is the
 * application (its directory is the application directory), NULL: none. */
int cc_win_ctx_open(cc_machine *m, const char *app, const cudnnctl_which_options *opts, cc_win_ctx **out,
                    cc_error *err);
void cc_win_ctx_free(cc_win_ctx *c);
cc_value *cc_win_ctx_facts(const cc_win_ctx *c, cc_error *err);
/* Replace the KnownDLLs list (file names) with one given as data, e.g. what
 * another machine's registry holds; source names it in the facts. */
int cc_win_ctx_set_known_dlls(cc_win_ctx *c, const char *const *names, size_t n, const char *source, cc_error *err);
/* Resolve a DLL name. loading_dll: the DLL whose import is being resolved
 * (its directory is the DLL load directory), NULL for a top-level load. */
int cc_win_resolve(cc_win_ctx *c, const char *name, const char *loading_dll, int shadowed, cc_resolution *out,
                   cc_error *err);

#endif
