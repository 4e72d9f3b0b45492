/* The doctor: gather facts (discovery, resolution, static versions, probes),
 * run the checks (pure functions from facts to findings, one per finding id:
 * the registry, registry.h), render. The checks read only the facts tree,
 * through the typed views of facts/views.h (d->v, the cc_dx_* helpers), so
 * they re-run unchanged on facts from another machine (doctor --facts FILE). */
#ifndef CC_DOCTOR_H
#define CC_DOCTOR_H

#include "../facts/views.h"
#include "../value.h"
#include "registry.h"

struct cc_dmeta;

/* The facts as the runner read them through their views, once per run
 * (cc_doctor_run_checks; all empty in a context built by hand). A view
 * borrows from the document; insts is the runner's and freed at the end of
 * the run. */
struct cc_dviews {
        cc_vw_doctor_facts facts;
        cc_vw_list_doc list;
        cc_vw_which_doc which;
        cc_vw_host host;
        cc_vw_installation *insts; /* list/installations, in order (an element not an object: an empty view) */
        size_t ninsts;
};

/* What a check sees. */
struct cc_dctx {
        const cc_value *facts;  /* the document's "facts" */
        const cc_value *list;   /* facts/list: the list document */
        const cc_value *which;  /* facts/which: the which document */
        const cc_value *deps;   /* facts/deps: [{installation, target, document}] */
        const cc_value *verify; /* facts/verify: [{installation, role, document}] */
        const cc_value *host;   /* facts/host */
        int windows;            /* the machine's system is Windows */
        int live;               /* probes ran (no --root, the host's system) */
        const char *shell;      /* facts/host/shell: bash, zsh, fish, sh, powershell, cmd */
        struct cc_dviews v;     /* the same facts, typed */
        cc_value *findings;     /* the array the checks add to */
        cc_error *err;
        /* The runner's: the check running now (the only id cc_finding takes),
         * and what it knows of each finding of `findings` (same index): its
         * id, and the subjects its check set. */
        enum cc_fid running;
        struct cc_dmeta *meta;
        size_t nmeta, capmeta;
};

/* A new finding appended to d->findings: fid (the registry's; it must be the
 * running check's own: any other is an internal error), severity ("error",
 * "warning", "info") and area (an area id), NULL for the registry's defaults,
 * summary (printf). It has an empty "evidence" object and a null "fix"; NULL
 * on an error (out of memory, another check's id). */
cc_value *cc_finding(struct cc_dctx *d, enum cc_fid fid, const char *severity, const char *area, const char *fmt, ...)
    CC_PRINTF(5, 6);
/* Subjects (registry.h) for the runner's folding: f explains `value` of
 * `kind` (it may fold the findings about it), or f is about it. */
int cc_finding_explains(struct cc_dctx *d, const cc_value *f, enum cc_subject kind, const char *value);
int cc_finding_about(struct cc_dctx *d, const cc_value *f, enum cc_subject kind, const char *value);
/* The same with an installation id as the value. */
int cc_finding_explains_id(struct cc_dctx *d, const cc_value *f, enum cc_subject kind, int64_t id);
int cc_finding_about_id(struct cc_dctx *d, const cc_value *f, enum cc_subject kind, int64_t id);
/* Release what the runner keeps beside d->findings (for a caller that
 * builds a context itself, as the tests do); the findings stay. */
void cc_finding_meta_free(struct cc_dctx *d);
/* The running check's first finding so far about installation id (its
 * evidence "installation"; any installation when id is 0), or NULL. */
cc_value *cc_finding_mine(struct cc_dctx *d, int64_t id);
/* Evidence: key = value (takes ownership of value). */
int cc_finding_ev(cc_value *f, const char *key, cc_value *value, cc_error *err);
int cc_finding_ev_str(cc_value *f, const char *key, const char *s, cc_error *err);
/* The fix, one or more lines (printf). */
int cc_finding_fix(cc_value *f, cc_error *err, const char *fmt, ...) CC_PRINTF(3, 4);
/* A shell line that puts dir first in variable var for this shell only. */
char *cc_fix_prepend(const struct cc_dctx *d, const char *var, const char *dir, cc_error *err);
/* A shell line that removes var from this shell's environment. */
char *cc_fix_unset(const struct cc_dctx *d, const char *var, cc_error *err);

/* Helpers over the facts. */
/* s for a message, or "?" for a string the facts do not have. */
const char *cc_dx_str(const char *s);
/* The installation object of list id `id`, or NULL. */
const cc_value *cc_dx_install(const struct cc_dctx *d, int64_t id);
/* The same as a view (of d->v.insts), or NULL. */
const cc_vw_installation *cc_dx_inst(const struct cc_dctx *d, int64_t id);
/* The verify document of installation id (NULL when none ran). */
const cc_value *cc_dx_verify_of(const struct cc_dctx *d, int64_t id);
/* The check `id` of a verify document, or NULL. */
const cc_value *cc_dx_verify_check(const cc_value *vdoc, const char *id);
/* The which result of name (exact file name), or NULL. */
const cc_value *cc_dx_which(const struct cc_dctx *d, const char *name);
/* The result a plain program loads for cuDNN: the first found result among
 * the cuDNN shim names of `which`, or NULL. */
const cc_value *cc_dx_plain_cudnn(const struct cc_dctx *d);
/* The deps document for installation id, or NULL. */
const cc_value *cc_dx_deps_of(const struct cc_dctx *d, int64_t id);
/* The first deps edge named `name` (case-insensitive) of installation id's
 * document, or NULL. */
const cc_value *cc_dx_deps_edge(const struct cc_dctx *d, int64_t id, const char *name);
/* The file of installation inst whose base name is `name` (case-insensitive),
 * or NULL. */
const cc_value *cc_dx_inst_file(const cc_value *inst, const char *name);
/* An installation's version for a message: its version, or the releases
 * its files disagree on with the minority's files ("9.14.0 + 9.19.0
 * (libcudnn_ops.so.9: 9.19.0)"), or "version unknown". Caller frees. */
char *cc_dx_inst_version(const cc_vw_installation *in, cc_error *err);
/* The release of an installation's libraries: its version, or when its
 * sources disagree the release most of its libraries have (its headers may
 * be another's); NULL when unknown. */
const char *cc_dx_inst_lib_version(const cc_vw_installation *in);
/* An installation's major (first of majors), or 0. */
int cc_dx_major(const cc_value *inst);
/* A device's compute capability as major*10+minor (sm_90: 90), or -1 when
 * its facts hold no valid one (missing, not integers, out of range). */
int cc_dx_device_sm(const cc_value *gpu);
/* The GPU devices the driver probe saw: an array, or NULL. */
const cc_value *cc_dx_devices(const struct cc_dctx *d);

struct cudnnctl_machine;
/* More host facts for the Windows checks (commands/doctor_windows.c): added to host. */
int cc_doctor_host_windows(struct cudnnctl_machine *m, cc_value *host, cc_error *err);

/* Facts that show several failure modes, each read by the checks of the ids
 * it can show: every finding of id `fid` that the source gives. -1 only on an
 * error. */
/* Discovery's problems of each installation (checks_install.c). */
int cc_src_problems(struct cc_dctx *d, enum cc_fid fid);
/* The deps documents: a mixed set, the edges that cannot be loaded
 * (checks_loader.c). */
int cc_src_deps(struct cc_dctx *d, enum cc_fid fid);
/* The verify documents' failed checks, live only (checks_runtime.c). */
int cc_src_proof(struct cc_dctx *d, enum cc_fid fid);
/* The frameworks' facts (checks_frameworks.c). */
int cc_src_frameworks(struct cc_dctx *d, enum cc_fid fid);

/* Why a plain program finds no cuDNN shim on Windows (checks_windows.c). */
int cc_src_win_not_found(struct cc_dctx *d, enum cc_fid fid);

/* A library that cannot be loaded from an installation's shim: a deps edge
 * that is missing or fails (checks_loader.c). */
struct cc_dep_miss {
        const cc_value *entry; /* the facts/deps element: installation, target, document */
        const cc_value *node;  /* the node that needs it */
        const cc_value *edge;
        const cc_value *inst; /* the installation (NULL if the list lacks it) */
        int64_t id;
        int major;
        const char *name, *status;
        /* the same, typed */
        cc_vw_deps_entry ventry;
        cc_vw_node vnode;
        cc_vw_edge vedge;
        const cc_vw_installation *vinst; /* NULL if the list lacks it */
};
/* Calls fn for each one, once per name and document, in the documents'
 * order, leaving out those another finding names with their cause (the
 * driver, a missing SONAME link); stops at fn's -1. */
int cc_dx_deps_misses(struct cc_dctx *d, int (*fn)(struct cc_dctx *d, const struct cc_dep_miss *m, void *arg),
                      void *arg);
/* The finding a miss is, with its severity and what the library is. */
enum cc_fid cc_dx_edge_class(const struct cc_dctx *d, const struct cc_dep_miss *m, const char **sev, const char **what);

/* Run every check of the registry, in its order, on a doctor document's
 * facts, fold the findings one cause explains, and set the document's
 * "areas", "findings" and "summary" (replacing any). */
int cc_doctor_run_checks(cc_value *doc, cc_error *err);

/* Path values of the Windows registry (checks_hygiene.c). Whether the
 * entry e of a user's Path is one of the machine's Path entries (ASCII
 * case and a trailing separator aside; a machine entry that starts with
 * %VAR% stands for any entry that ends with the rest of it, as a shell's
 * expanded PATH holds it). */
int cc_winpath_in_machine(const char *e, size_t elen, const char *machine);
/* How many of the first entries of user are the machine's first entries,
 * in order (where a machine entry that is only %VAR% may be any one): what
 * `setx PATH "%PATH%;..."` copies into the user's Path. */
size_t cc_winpath_copied(const char *user, const char *machine);

#endif
