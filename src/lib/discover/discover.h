/* Discovery: every cuDNN on a machine. Roots (environment variables, the
 * usual install locations, the loader's directories, Python site-packages
 * found without running Python, Windows' Program Files, System32 and PATH)
 * -> candidate files -> installations: one prefix with its libraries,
 * headers and import libraries, its provenance (CUDA toolkit, distro
 * package with the package that owns it, pip wheel with its dist-info,
 * conda package, archive copy, Windows installer) and its version from every
 * source, kept apart. Reads files only; never loads or runs anything. */
#ifndef CC_DISCOVER_DISCOVER_H
#define CC_DISCOVER_DISCOVER_H

#include "../machine/machine.h"

typedef struct cc_discovery cc_discovery;

/* Walk the machine. Problems with single roots or files (unreadable,
 * symlink loops, corrupt files, over a limit) are recorded in the result,
 * not returned as errors; -1 only when out of memory or the machine cannot
 * be read at all. */
int cc_discover(cc_machine *m, const cudnnctl_list_options *opts, cc_discovery **out, cc_error *err);
/* The same, over these directories only (each by itself, nothing below
 * it): the installations the files there belong to, as far as those
 * directories tell, numbered among themselves (not as `list` numbers them). */
int cc_discover_dirs(cc_machine *m, const cc_strv *dirs, cc_discovery **out, cc_error *err);
/* Freed, unless it is the one the machine lends (below). */
void cc_discovery_free(cc_discovery *d);
/* on: from now on cc_discover with the default options (NULL or all
 * zero) makes the machine-wide discovery once and lends that one to each
 * caller (the doctor's list, which and checks read the machine once).
 * off: the one lent is freed and each call makes its own again. Only for a
 * run that writes nothing meanwhile. */
void cc_discover_share(cc_machine *m, int on);

/* The "list" document's body (docs/json.md): roots, installations,
 * skipped, stats. */
cc_value *cc_discovery_facts(const cc_discovery *d, cc_error *err);

/* Every cuDNN library file found whose file name is `name` (the system's
 * case rules), as virtual paths (a file reached through several aliases is
 * listed once, by its first path). */
int cc_discovery_find(const cc_discovery *d, const char *name, cc_strv *paths, cc_error *err);
/* The id (1-based, as in the facts) of the installation a file belongs to,
 * by its canonical path; 0 if none. */
int cc_discovery_install_of(const cc_discovery *d, const char *canonical);
/* The facts of installation id (1-based, as in cc_discovery_facts), or NULL. */
const cc_value *cc_discovery_install_facts(const cc_discovery *d, int id);
/* The versions of one file as facts (an array of {component, source,
 * version}), from its name and content; NULL if the file is not known. */
const cc_value *cc_discovery_file_versions(const cc_discovery *d, const char *canonical);

/* ---- internal: shared by discover.c (roots, walk) and the grouping files
 * (group.h: grouping, provenance, versions, links). Nothing outside
 * src/lib/discover uses these. */

enum cc_walk {
        CC_WALK_DIR = 1, /* the directory itself */
        CC_WALK_PREFIX,  /* an installation prefix: itself and its lib/include/bin... */
        CC_WALK_TREE,    /* a bounded walk below it (/opt) */
        CC_WALK_SITE,    /* a Python site-packages: nvidia/cudnn, nvidia/cu*, torch/lib */
};

enum cc_root_state {
        CC_ROOT_PENDING = 0,
        CC_ROOT_SEARCHED,
        CC_ROOT_MISSING,
        CC_ROOT_NOT_DIR,
        CC_ROOT_UNREADABLE,
        CC_ROOT_OVER_LIMIT,
};

/* Indexes stored as smap values: i + 1, so that 0 (NULL) is "none". */
static inline void *ix(size_t i)
{
        return (void *)(uintptr_t)(i + 1);
}

static inline size_t xi(void *p)
{
        return (size_t)(uintptr_t)p - 1;
}

typedef struct cc_droot {
        char *path;      /* virtual path (a pattern when nothing matched it) */
        cc_strv sources; /* where it came from, first first */
        int walk;        /* enum cc_walk */
        int depth;       /* CC_WALK_TREE: levels below it */
        int state;       /* enum cc_root_state */
        char *reason;    /* why not searched */
        char *canonical; /* the directory it names, links resolved */
        char *alias_of;  /* the root that had walked that directory already */
        size_t found;    /* cuDNN files found through it */
} cc_droot;

typedef struct cc_ddir {
        char *canonical;
        char *first; /* the first virtual path that reached it */
        char *host;
        cc_strv aliases; /* other virtual paths that reached it (capped) */
        size_t more_aliases;
        cc_strv names;    /* its entries, sorted */
        int listed;       /* 1 listed, -1 could not be */
        int state;        /* enum cc_root_state: CC_ROOT_SEARCHED, or why it could not be listed */
        char *why;        /* the reason it could not be listed */
        int scanned;      /* its cuDNN entries were collected */
        int walked_depth; /* CC_WALK_TREE: the deepest walk made below it, -1 none */
        size_t root;      /* the root (index + 1) that listed it, 0 if none */
} cc_ddir;

typedef struct cc_dfile {
        size_t dir; /* index into dirs */
        char *name;
        char *canonical; /* canonical directory + name */
        int type;        /* CC_FT_FILE or CC_FT_LINK */
        cc_libname ln;
        uint64_t size;
        char *kind; /* the content's kind (elf, pe, header...) */
        char *soname;
        char *error;            /* could not be read */
        cc_value *versions;     /* [{component, source, version, ...}] */
        char *target;           /* links: the target as stored */
        cc_strv chain;          /* links: path, target, path, target... step by step */
        char *resolves_to;      /* links: the canonical final target, or NULL */
        const char *link_state; /* "ok", "dangling", "loop", "not-a-file" */
        size_t inst;            /* installation id, 0 none */
        size_t prev_same_name;  /* index + 1 of the previous file of the same name, 0 none */
} cc_dfile;

typedef struct cc_dinst {
        char *prefix;
        cc_strv aliases;
        size_t *files;
        size_t nfiles, cap;
        cc_strv dirs; /* canonical directories of its files, first seen first */
        cc_value *provenance;
        cc_value *extra; /* installation-level version evidence (dist-info, package...) */
        cc_value *problems;
        cc_strv notes;
        cc_value *facts; /* the installation's facts, built once */
} cc_dinst;

struct cc_discovery {
        cc_machine *m;
        int lent; /* the machine's shared one: cc_discovery_free leaves it */
        cc_tree *t;
        int system;
        int nocase;
        char sep;
        size_t max_dirs;
        size_t max_entries;
        cc_droot **roots;
        size_t nroots, roots_cap;
        cc_smap root_idx; /* path -> index + 1 */
        cc_ddir **dirs;
        size_t ndirs, dirs_cap;
        cc_smap dir_idx; /* canonical -> index + 1 */
        cc_dfile **files;
        size_t nfiles, files_cap;
        cc_smap file_idx; /* canonical (also resolved targets) -> index + 1 */
        cc_smap name_idx; /* name -> index + 1 of the first file of that name */
        cc_dinst **insts;
        size_t ninsts, insts_cap;
        cc_value *skipped; /* [{path, reason}] */
        size_t entries;    /* directory entries seen */
        int truncated;     /* max_dirs was reached */
        int glob_limited;  /* the last glob met the max_dirs limit */
        size_t walked_prefixes;
        cc_smap prefix_walked; /* canonical prefix -> 1 */
        /* the package database, read once when needed */
        int dpkg_state; /* 0 not read, 1 read, -1 none */
        void *dpkg;
        cc_strv notes;
        /* directories ld.so.conf lists of which ld.so.cache has no entry
         * (ldconfig not run since), canonical */
        cc_strv uncached_conf;
        /* Windows' uninstall entries of NVIDIA's CUDA and cuDNN
         * (uninstall.h): read on the running Windows machine, else NULL */
        struct cc_uentries *uninst;
};

/* discover.c */
int cc_disc_get_dir(cc_discovery *d, const char *vpath, size_t root, size_t *out, int *state, char *why, size_t wsize,
                    cc_error *err);
int cc_disc_walk_prefix(cc_discovery *d, const char *vpath, size_t root, cc_error *err);
int cc_disc_add_skipped(cc_discovery *d, const char *path, const char *reason, cc_error *err);
char *cc_disc_join(const cc_discovery *d, const char *dir, const char *name, cc_error *err);
int cc_disc_name_eq(const cc_discovery *d, const char *a, const char *b);
/* The entry of a listed directory spelled as on disk, or NULL. */
const char *cc_disc_has(const cc_discovery *d, size_t dir, const char *name);

/* group.c, inst_facts.c, prov_distro.c */
int cc_disc_group(cc_discovery *d, cc_error *err);
cc_value *cc_disc_installations_facts(const cc_discovery *d, cc_error *err);
void cc_disc_inst_free(cc_dinst *in);
void cc_disc_dpkg_free(void *p);

#endif
