/* The registry of the doctor's findings: every finding id the doctor can
 * emit, with its catalog number, default area and severity, the one check
 * that emits it (findings.def), and which findings, when present, fold into
 * another one because one cause explains them (the relations below).
 *
 * A check emits only its own id (cc_finding refuses any other: an internal
 * error the tests catch); it never edits another check's findings. Where one
 * cause explains what other checks saw, the checks say what each finding is
 * about or explains (subjects, below), and the runner folds by the declared
 * relations after every check has run: the folded finding leaves the list and
 * its id and summary go into the folding one's evidence "also". */
#ifndef CC_DOCTOR_REGISTRY_H
#define CC_DOCTOR_REGISTRY_H

#include <stddef.h>

struct cc_dctx;

enum cc_fid {
#define CC_FINDING(sym, id, num, area, sev, check) CC_F_##sym,
#include "findings.def"
#undef CC_FINDING
        CC_F_COUNT,
        CC_F_NONE = CC_F_COUNT, /* no finding (a classifier's "not this") */
        CC_F_ANY                /* in a relation: a finding of any id */
};

struct cc_finding_def {
        enum cc_fid fid;
        const char *id;         /* the catalog's slug */
        int catalog_number;     /* its number in the failure catalog, 0 for the doctor's own */
        const char *area;       /* default area */
        const char *severity;   /* default severity */
        const char *check_name; /* the name of the check function */
        int (*check)(struct cc_dctx *d);
};

/* The row of fid (fid < CC_F_COUNT), or NULL. */
const struct cc_finding_def *cc_finding_def(enum cc_fid fid);
/* The fid of finding id `id`, or CC_F_NONE (id NULL or unknown). */
enum cc_fid cc_fid_of(const char *id);
/* The id of fid ("?" for none). */
const char *cc_fid_id(enum cc_fid fid);

/* What a finding is about, or what it explains: a kind and a value. The
 * checks set them (cc_finding_about, cc_finding_explains in doctor.h); the
 * runner matches a folding finding's "explains" against the others'. */
enum cc_subject {
        /* An installation id. About: read by the runner from the finding's
         * evidence "installation" (never set by a check). */
        CC_SUBJ_INSTALLATION,
        /* A cuDNN library of installation N is missing or cannot be loaded
         * (an incomplete set, a sub-library a deps edge cannot load). */
        CC_SUBJ_SUBLIB,
        /* A library of installation N that is in N's own folder, yet the
         * loader does not reach it (Windows). */
        CC_SUBJ_UNREACHED,
        /* A DLL name (compared without case) at which the Windows loader
         * stops with error 193 (a DLL that is not x64). */
        CC_SUBJ_BAD_IMAGE,
        /* The next three match when the other finding's summary names the
         * value (a path): the file a plain program gets, a copy that file
         * shadows, a library whose load pulls a mixed set. */
        CC_SUBJ_NAMES_WINNER,
        CC_SUBJ_NAMES_SHADOWED,
        CC_SUBJ_NAMES_TARGET,
        /* A directory from which a load takes cuDNN libraries of another
         * release than its shim's (a mixed set): every load it mixes is one
         * cause. */
        CC_SUBJ_MIX_SOURCE,
};

/* One cause, two findings: a finding of `folder` that explains subject
 * `subject` folds in the findings of `victim` (or of any id, CC_F_ANY) about
 * the same subject (or, for CC_SUBJ_NAMES_*, whose summary names it).
 * EXPLAINS: the folder is the root cause, the victim a consequence that
 * only seems worse (a library "missing" that is there, but unreached).
 * CAUSES: the folder is the root cause, the victim a real consequence (the
 * GPU work that failed): the folder takes the victim's severity when that
 * is worse. SUPERSEDES: the two say the same failure, the folder better
 * (its severity too is at least the victim's). */
enum cc_relation_kind { CC_REL_EXPLAINS, CC_REL_CAUSES, CC_REL_SUPERSEDES };

struct cc_relation {
        enum cc_fid folder, victim;
        enum cc_subject subject;
        enum cc_relation_kind kind;
};

/* The relations, in the order the runner folds (the folders of one row
 * before those of a later row). */
const struct cc_relation *cc_relations(size_t *n);

/* The checks (checks_*.c), one per finding id. Each returns -1 only on an
 * error (out of memory, an internal error), 0 otherwise. */
#define CC_FINDING(sym, id, num, area, sev, check) int check(struct cc_dctx *d);
#include "findings.def"
#undef CC_FINDING

#endif
