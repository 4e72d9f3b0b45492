/* Grouping, discovery's second part: the files found become installations.
 * Shared by the files of src/lib/discover that make it, and by nothing
 * else:
 *   group.c          the step (cc_disc_group): one installation per prefix
 *   files.c          each file read: link chains, content facts
 *   provenance.c     which packaging explains an installation, tried in order:
 *   prov_pip.c         a pip wheel's dist-info
 *   prov_conda.c       a conda environment's conda-meta
 *   prov_installer.c   the Windows installer's directory
 *   prov_distro.c      the distro's package database (dpkg; rpm noted)
 *   prov_toolkit.c     a CUDA toolkit's own files
 *   prov_archive.c     a copy of a cuDNN archive
 *   versions.c       the versions every source gives, and their summary
 *   problems.c       what is wrong inside one installation
 *   inst_facts.c     the installations as facts (docs/json.md) */
#ifndef CC_DISCOVER_GROUP_H
#define CC_DISCOVER_GROUP_H

#include "discover.h"

#define MAX_SMALL ((size_t)4 << 20)   /* a small text file of the tree: metadata, version.json */
#define MAX_HEADER ((size_t)16 << 20) /* a header (cuda.h is a megabyte) */

/* ---- group.c ------------------------------------------------------------------- */

/* Split a canonical virtual path into components (a Windows drive is left
 * out: every path in a tree is on C:). */
int cc_disc_split_path(const cc_discovery *d, const char *p, cc_strv *out, cc_error *err);
/* 1 if s starts with a digit (a versioned directory: bin/12.x). */
int cc_disc_digit_first(const char *s);
/* The installation prefix of a library or header directory, and (rel not
 * NULL) the directory's path below it, '/'-separated (caller frees both). */
char *cc_disc_prefix_of(const cc_discovery *d, const char *dir, char **rel, cc_error *err);

/* ---- files.c ------------------------------------------------------------------- */

/* Read every file found once: follow link chains, inspect the content. */
int cc_disc_examine_files(cc_discovery *d, cc_error *err);
/* The host path of a file found (caller frees). */
char *cc_disc_file_host(const cc_discovery *d, const cc_dfile *f, cc_error *err);
/* Read a small file of the tree; *text NULL (and 0) when it is not there or
 * cannot be read. -1 only when out of memory. */
int cc_disc_read_small(const cc_discovery *d, const char *vpath, size_t max, char **text, size_t *len, cc_error *err);
/* 1 if vpath exists, 0 if not (or it cannot be told); -1 when out of memory. */
int cc_disc_exists(const cc_discovery *d, const char *vpath, cc_error *err);

/* ---- provenance.c and prov_*.c ----------------------------------------------------- */

/* What a provenance step works on. */
struct cc_dprov {
        cc_discovery *d;
        cc_dinst *in;
        cc_value *prov;
        cc_value *evidence;
        size_t pdir; /* the prefix's directory listing, SIZE_MAX if none */
        cc_error *err;
};

/* Decide in->provenance: the steps in order, the first that matches wins;
 * none: a copy. */
int cc_disc_provenance(cc_discovery *d, cc_dinst *in, cc_error *err);
/* The steps: *matched = 1 when the step explains the installation (it then
 * set the provenance's kind and evidence). -1 only when out of memory. */
int cc_disc_prov_pip(struct cc_dprov *c, int *matched);
int cc_disc_prov_conda(struct cc_dprov *c, int *matched);
int cc_disc_prov_installer(struct cc_dprov *c, int *matched);
int cc_disc_prov_distro(struct cc_dprov *c, int *matched);
int cc_disc_prov_toolkit(struct cc_dprov *c, int *matched);
int cc_disc_prov_archive(struct cc_dprov *c, int *matched);

/* One line of evidence for the provenance (printf). */
int cc_disc_evidence(struct cc_dprov *c, const char *fmt, ...) CC_PRINTF(2, 3);
/* A note on the installation (printf). */
#define cc_disc_inst_note(in, err, ...) cc_strv_pushf(&(in)->notes, 0, (err), __VA_ARGS__)
/* An installation-level version source: {component, source, version, file},
 * appended to in->extra; NULL when out of memory. */
cc_value *cc_disc_extra_version(cc_dinst *in, const char *source, const char *version, const char *file, cc_error *err);
/* A dist-info directory's METADATA: name and version (caller frees). */
int cc_disc_read_metadata(const cc_discovery *d, const char *distdir, char **name, char **version, cc_error *err);
/* How many files a dist-info's RECORD lists under rel, -1 without a RECORD
 * (-2 when out of memory). */
long cc_disc_record_count(const cc_discovery *d, const char *distdir, const char *rel, cc_error *err);
/* {manager, name, version} */
cc_value *cc_disc_package_obj(const char *manager, const char *name, const char *version, cc_error *err);
/* The provenance's "packages" array (made when missing). */
cc_value *cc_disc_packages_of(struct cc_dprov *c);
/* 1 for Windows' System32 or SysWOW64. */
int cc_disc_is_system_dir(const cc_discovery *d, const char *prefix);

/* ---- versions.c ------------------------------------------------------------------ */

/* One piece of version evidence. */
struct cc_dvent {
        cudnnctl_ver v;
        const char *source;
        const char *file;
        const char *shown;
        int lib;    /* from a library (name, content, resource) */
        int header; /* from a header */
};

/* Collect the installation's version evidence into arr (each entry with its
 * file) and *ents (caller frees). */
int cc_disc_collect_versions(cc_discovery *d, cc_dinst *in, cc_value *arr, struct cc_dvent **ents, size_t *nents,
                             cc_error *err);
/* The summary version (set in out) when the sources agree, and the
 * problems when they do not. */
int cc_disc_summarize_versions(cc_dinst *in, const struct cc_dvent *e, size_t n, cc_value *out, cc_error *err);

/* ---- problems.c ------------------------------------------------------------------ */

/* Record a problem of the installation: kind, the failure mode it shows
 * (an id of the failure catalog, kb/catalog.tsv, or NULL), the paths involved (may be NULL), summary
 * (printf). */
int cc_disc_problem(cc_dinst *in, const char *kind, const char *failure_mode, const cc_strv *paths, cc_error *err,
                    const char *fmt, ...) CC_PRINTF(6, 7);
/* 1 for a shared library or DLL. */
int cc_disc_is_lib(const cc_dfile *f);
/* Broken, looping and flattened link chains; names that are not SONAMEs. */
int cc_disc_link_problems(cc_discovery *d, cc_dinst *in, cc_error *err);
/* Libraries of different versions in one directory (sets: their facts). */
int cc_disc_mixed_sets(cc_discovery *d, cc_dinst *in, cc_value *sets, cc_error *err);
/* Sub-libraries of a major missing from the set it ships. */
int cc_disc_completeness(cc_discovery *d, cc_dinst *in, cc_error *err);

/* ---- inst_facts.c ---------------------------------------------------------------- */

/* The facts of installation id (1-based), built once and kept in it. */
cc_value *cc_disc_inst_facts(cc_discovery *d, size_t id, cc_error *err);

#endif
