/* Shared by the writing commands (install.c, change.c, state.c). */
#ifndef CC_COMMANDS_CHANGE_H
#define CC_COMMANDS_CHANGE_H

#include "../common.h"
#include "../machine/machine.h"
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

#endif
