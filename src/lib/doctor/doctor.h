/* The doctor: gather facts (discovery, resolution, static versions, probes),
 * run the checks (pure functions from facts to findings), render. The checks
 * read only the facts tree, so they re-run unchanged on facts from another
 * machine (doctor --facts FILE). */
#ifndef CC_DOCTOR_H
#define CC_DOCTOR_H

#include "../value.h"

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
        cc_value *findings;     /* the array the checks add to */
        cc_error *err;
};

/* A new finding appended to d->findings: id (the catalog's slug), severity
 * ("error", "warning", "info"), area (an area id), summary (printf). It has an
 * empty "evidence" object and a null "fix"; NULL when out of memory. */
cc_value *cc_finding(struct cc_dctx *d, const char *id, const char *severity, const char *area, const char *fmt, ...)
    CC_PRINTF(5, 6);
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
/* An installation's major (first of majors), or 0. */
int cc_dx_major(const cc_value *inst);
/* A device's compute capability as major*10+minor (sm_90: 90), or -1 when
 * its facts hold no valid one (missing, not integers, out of range). */
int cc_dx_device_sm(const cc_value *gpu);
/* The GPU devices the driver probe saw: an array, or NULL. */
const cc_value *cc_dx_devices(const struct cc_dctx *d);

struct cudnnctl_machine;
/* More host facts for the Windows checks (gather_win.c): added to host. */
int cc_doctor_host_windows(struct cudnnctl_machine *m, cc_value *host, cc_error *err);

/* Check groups (checks_*.c): each adds findings; -1 only when out of memory. */
int cc_checks_install(struct cc_dctx *d);
int cc_checks_loader(struct cc_dctx *d);
int cc_checks_runtime(struct cc_dctx *d);
int cc_checks_hygiene(struct cc_dctx *d);
int cc_checks_windows(struct cc_dctx *d);
int cc_checks_frameworks(struct cc_dctx *d);

/* Run every check on a doctor document's facts and set its "areas",
 * "findings" and "summary" (replacing any). */
int cc_doctor_run_checks(cc_value *doc, cc_error *err);

#endif
