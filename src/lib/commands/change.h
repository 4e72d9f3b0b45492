/* Shared by the writing commands (install.c, change.c, state.c). */
#ifndef CC_COMMANDS_CHANGE_H
#define CC_COMMANDS_CHANGE_H

#include "../common.h"
#include "../machine/machine.h"
#include "../platform/platform.h"
#include "../value.h"

/* Committed transactions whose backups are kept for rollback and
 * uninstall (older ones lose their old/ directory). */
#define CC_KEEP_BACKUPS 3

/* Make dir (host path) and its missing parents; those made are pushed on
 * made (when not NULL), outermost first. */
int cc_mkdir_p(const char *dir, cc_strv *made, cc_error *err);
/* Remove the directories of made, innermost first, while they are empty. */
void cc_unmake_dirs(const cc_strv *made);

/* The machine's state directory (host path): /var/lib/cudnnctl as root,
 * else $XDG_STATE_HOME/cudnnctl or ~/.local/state/cudnnctl; on Windows
 * %ProgramData%\cudnnctl, else %LOCALAPPDATA%\cudnnctl; under --root the
 * first of those inside the tree. Caller frees. */
char *cc_state_dir(cc_machine *m, cc_error *err);
/* Append "ID<TAB>LABEL<TAB>TARGET" to the state directory's
 * transactions.tsv (vtarget: the target's virtual path). */
int cc_state_record(cc_machine *m, const char *vtarget, const char *id, const char *label, cc_error *err);
/* The target of the last transaction recorded (virtual path), or NULL with
 * CC_ERR_NOTFOUND. */
char *cc_state_last_target(cc_machine *m, cc_error *err);

/* The result of a writing command (docs/json.md INSTALL RESULT), or NULL. */
cc_value *cc_result_new(const char *status, const char *txn, const char *error, int undo_failed, const char *manifest,
                        const char *use, cc_error *err);

struct cc_txn_op;
/* On the live machine: a line for every process that maps a file that ops
 * replace or remove in the target (host), and one for the processes that
 * could not be read; nothing for another machine's tree. */
int cc_in_use(cc_machine *m, const char *host, const struct cc_txn_op *ops, size_t n, cc_strv *lines, cc_error *err);

/* ---- a planned change (change.c), for the commands that write ------------ */

/* ---- the registry's environment (use.c) ------------------------------------- */

#define CC_WIN_USER_KEY "Environment"
#define CC_WIN_MACHINE_KEY "SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment"
#define CC_WIN_VAR_MAX 32767 /* characters of one environment variable */
#define CC_WIN_SETX_CUT 1024 /* setx cuts what it writes there */
#define CC_REG_SZ 1
#define CC_REG_EXPAND_SZ 2

/* A string value's text (NULL when absent); a value that is no string, or
 * whose UTF-16 would not come back the same from UTF-8 (an unpaired
 * surrogate), is refused: it is written back only as it was. *units: its
 * length in UTF-16 units. */
int cc_regval_text(const cc_regval *v, const char *name, char **text, size_t *units, cc_error *err);
/* The record the engine stages (txn.h) for a string value of type. */
int cc_regval_record(const char *text, uint32_t type, cc_buf *rec, size_t *units, cc_error *err);

/* The machine this build runs on, as sources name it (source.h), or NULL. */
#if defined(__x86_64__) || defined(_M_X64)
#define CC_HOST_MACHINE "x86_64"
#elif defined(__aarch64__) || defined(_M_ARM64)
#define CC_HOST_MACHINE "aarch64"
#elif defined(__powerpc64__)
#define CC_HOST_MACHINE "ppc64le"
#else
#define CC_HOST_MACHINE NULL
#endif

#include "../install/plan.h"
#include "../txn/txn.h"

/* Where operation i's content comes from: a file (a backup) copied at
 * stage time, bytes held in memory, or nothing (a link, a removal). */
struct ch_src {
        char *from;
        char *data;
        size_t len;
        size_t member; /* arc: the member of the change's source */
        int arc;       /* the content is that member's, read from the source */
        int staged;    /* a file's content is staged */
};

struct change {
        cc_txn_op *ops;
        struct ch_src *src;
        size_t n, cap;
        cc_value *checks;
        const cc_source *arc; /* where the members of ch_add_member come from (one source) */
        int stop;
        cc_error *err;
};

/* A check of this change (install/plan.h). */
#define ch_check(c, id, verdict, ...) cc_plan_check((c)->checks, &(c)->stop, (c)->err, id, verdict, __VA_ARGS__)

/* An operation; a file's content from the file from (NULL: none). */
int ch_add(struct change *c, int kind, const char *path, const char *link, unsigned mode, uint64_t size,
           const char *from);
/* A PLACE or REPLACE of a file whose content is data (copied). */
int ch_add_data(struct change *c, int kind, const char *path, unsigned mode, const void *data, size_t len);
/* Whether the target (host) holds a transaction without a commit. */
int ch_interrupted(const char *host);
/* Before planning a change of host: a transaction interrupted there undone
 * first (in doc's "recovered"); a dry run only says so (a check). */
int ch_recover_first(struct change *c, const char *host, int dry_run, cc_value *doc);
/* A PLACE or REPLACE of path with member i of src (a file or a link; every
 * member of a change from the same source, read in one pass when staged). */
int ch_add_member(struct change *c, int kind, const char *path, const cc_source *src, size_t i);
/* Operation j taken out of the change. */
void ch_drop(struct change *c, size_t j);
/* A PLACE or REPLACE of path from the backup file or link at from. */
int ch_restore(struct change *c, int kind, const char *path, const char *from);
void ch_free(struct change *c);
/* Show the change in doc, and unless a dry run or a stop, run it as one
 * transaction labelled label on the target host (recorded as vtarget). */
int ch_run(struct change *c, const char *vtarget, const char *host, const char *label, int dry_run, cc_machine *m,
           cc_value *doc, cc_error *err);
/* After a change that ran ("done" in doc's result): ldconfig, or the
 * WM_SETTINGCHANGE broadcast, and what came of it in doc ("ldconfig",
 * "broadcast"). Nothing for a dry run, a stop or a failure. */
enum { CH_AFTER_LDCONFIG, CH_AFTER_BROADCAST };
int ch_after_done(cc_machine *m, cc_value *doc, int what, cc_error *err);
/* A writing command's document, and its result. */
cc_value *ch_new_doc(cc_machine *m, const char *command, const char *vtarget, int dry_run, cc_error *err);
int ch_result(cc_value *doc, const char *status, const char *txn, const char *error, int undo_failed, cc_error *err);

/* ldconfig after a change of the loader's configuration (state.c): run as
 * root (ldconfig -r ROOT for a tree), else say that it must be: "ran",
 * "needed: ...", "failed: ...". */
char *cc_ldconfig_run(cc_machine *m, cc_error *err);
/* Spawn ldconfig (-r root when root is not NULL): "ran", "failed: ...", or
 * NULL with *found 0 when there is no ldconfig. */
char *cc_ldconfig_spawn(const char *root, int *found, cc_error *err);
/* WM_SETTINGCHANGE after a change of the environment in the registry:
 * "sent", or "failed: ..." saying what that means. */
char *cc_env_broadcast_text(cc_error *err);

/* env.c: the env document of opts, its search path computed from base (a
 * value of the variable, the registry's Path) instead of the environment's
 * (NULL: the environment's). */
int cc_env_doc(cc_machine *m, const cudnnctl_env_options *opts, const char *base, cc_value **out, cc_error *err);
/* base without every cuDNN directory (the use --none of a search path):
 * *after the new value, *removed and *kept as env's lists. */
int cc_env_path_none(cc_machine *m, const char *base, char **after, cc_value **removed, cc_value **kept, cc_error *err);

#endif
