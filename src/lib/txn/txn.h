/* The transaction engine: the one way cudnnctl changes a machine.
 *
 * A transaction is a list of operations on one target directory, planned
 * whole before anything is written. It runs in phases:
 *
 *   begin   recover an interrupted transaction on the target, take the
 *           target's lock (.cudnnctl/lock), create .cudnnctl/txn-<id>/ and
 *           write its journal: a header holding the whole plan, synced;
 *   stage   every new file is written into txn-<id>/new/<n> (hashed while
 *           written, checked against the plan's size and hash), synced, by
 *           a writer thread while the caller reads the source; or spooled
 *           before the plan and renamed into new/<n> (cc_txn_open);
 *   apply   for each operation in order: "begin N" is appended to the
 *           journal (synced), the old file is moved into txn-<id>/old/<n>
 *           by rename, the staged file is renamed into place, "done N";
 *   commit  every touched directory is synced and "commit" appended.
 *
 * Nothing in the target is deleted before the commit: a replaced or
 * removed file waits in old/ (kept after the commit for rollback). A
 * failure in apply undoes what was applied, in reverse, before returning.
 * A process killed at any point leaves a journal without "commit", and
 * cc_txn_recover undoes it from what is on disk: each undo step is
 * idempotent, so a recovery that is itself killed is finished by the next.
 *
 * Paths in operations are relative to the target, '/'-separated, without
 * "." or ".." components; every parent of a path written must be a real
 * directory (not a link) inside the target, checked before each step.
 *
 * A SETREG operation changes a registry value instead of a file: its path
 * is "HKCU/<key>/<value>" or "HKLM/<key>/<value>" (the key's '\\' written
 * '/'), and its staged content, like its backup, is a value record
 * (cc_txn_regval_format): apply writes the value as it was into old/<n>
 * (synced) before setting the new one, and undo sets the value from
 * old/<n> when it is there, so a kill at any point is undone exactly. The
 * target is then only where the journal lives (the state directory). */
#ifndef CC_TXN_TXN_H
#define CC_TXN_TXN_H

#include <stddef.h>
#include <stdint.h>

#include "../common.h"
#include "../platform/platform.h"
#include "../value.h"

enum cc_txn_kind {
        CC_TXN_MKDIR = 1, /* create a directory that is absent */
        CC_TXN_PLACE,     /* a new file or link where nothing is */
        CC_TXN_REPLACE,   /* a new file or link over an existing file or link (kept in old/) */
        CC_TXN_REMOVE,    /* move an existing file or link away (kept in old/) */
        CC_TXN_RMDIR,     /* remove an empty directory */
        CC_TXN_SETREG,    /* set (or delete) a Windows registry value; the old one is kept in old/ */
};
#define CC_TXN_KINDS (CC_TXN_SETREG + 1)

#define CC_TXN_SIZE_UNKNOWN UINT64_MAX

typedef struct cc_txn_op {
        int kind;        /* enum cc_txn_kind */
        char *path;      /* relative to the target */
        char *link;      /* PLACE/REPLACE of a symbolic link: what it points to; NULL for a file */
        unsigned mode;   /* a file's or directory's permission bits */
        uint64_t size;   /* PLACE/REPLACE of a file: its size (checked when staged), or
                            CC_TXN_SIZE_UNKNOWN: whatever is staged (a manifest written last) */
        char sha256[65]; /* PLACE/REPLACE of a file: its digest, "" when the plan does not know it yet */
} cc_txn_op;

typedef struct cc_txn cc_txn;

/* The name of a kind ("mkdir", "place"...), and back (0: unknown). */
const char *cc_txn_kind_name(int kind);
int cc_txn_kind_parse(const char *s);

/* The state directory in a target, and its folder of manifests (the only
 * part of it operations may write). */
#define CC_TXN_STATE ".cudnnctl"
#define CC_TXN_MANIFESTS "installed"

/* A SETREG path split: hive ("HKCU"/"HKLM"), key (with '\\'), value
 * name; -1 when path is not one. Caller frees key and value. */
int cc_txn_reg_split(const char *path, char hive[5], char **key, char **value, cc_error *err);
/* A registry value as the engine stages and keeps it: the text
 * "cudnnctl-regval 1\n", then "absent\n" or "type T LEN\n" and the LEN
 * bytes of data. */
int cc_txn_regval_format(const cc_regval *v, cc_buf *out, cc_error *err);
int cc_txn_regval_parse(const char *text, size_t len, cc_regval *out, cc_error *err);

/* Whether rel is a path the engine accepts (relative, '/'-separated, no
 * empty, "." or ".." component, no backslash or colon, not inside
 * .cudnnctl except .cudnnctl/installed). */
int cc_txn_path_ok(const char *rel);

/* Start a transaction of the n operations (copied) on target, described by
 * label (one line: "install cuDNN 9.19.0.56 into ..."). Runs
 * cc_txn_recover first; its report goes to *recovered when not NULL (an
 * array of lines, empty when there was nothing to recover; caller frees).
 * The same as cc_txn_open and cc_txn_plan. */
int cc_txn_begin(const char *target, const cc_txn_op *ops, size_t n, const char *label, cc_value **recovered,
                 cc_txn **out, cc_error *err);

/* A transaction in two steps, for a source read once (an archive whose
 * decompression is the cost): cc_txn_open recovers, takes the lock and
 * makes txn-<id>/ with no journal yet (recovery removes such a directory
 * whole: nothing can have been applied); the source's files are spooled
 * into it while it is read and judged (cc_txn_spool_open, any key the
 * caller chooses: a member's index); cc_txn_plan then writes the journal
 * with the plan, and cc_txn_stage_spooled makes a spooled file the staged
 * content of an operation (a rename; size and digest checked against the
 * plan). A stop found after spooling is cc_txn_abort: nothing remains. */
int cc_txn_open(const char *target, const char *label, cc_value **recovered, cc_txn **out, cc_error *err);
int cc_txn_plan(cc_txn *t, const cc_txn_op *ops, size_t n, cc_error *err);
int cc_txn_spool_open(cc_txn *t, size_t key, cc_error *err);
int cc_txn_stage_spooled(cc_txn *t, size_t i, size_t key, cc_error *err);

/* Stage operation i (a PLACE or REPLACE of a file): open, write the bytes
 * in any number of calls, close. The writing, hashing and syncing run on a
 * second thread while the caller goes on (memory bounded: the caller waits
 * when 8 MiB are queued): a failure (a write, the size or digest against
 * the plan) is returned by a later call, at the latest by
 * cc_txn_stage_wait, which waits until everything handed over is on disk
 * and checked. The same write/close calls serve cc_txn_spool_open. */
int cc_txn_stage_open(cc_txn *t, size_t i, cc_error *err);
int cc_txn_stage_write(cc_txn *t, const void *p, size_t n, cc_error *err);
int cc_txn_stage_close(cc_txn *t, cc_error *err);
int cc_txn_stage_wait(cc_txn *t, cc_error *err);
/* Stage operation i from a file on disk (a directory source). */
int cc_txn_stage_copy(cc_txn *t, size_t i, const char *from, cc_error *err);
/* The digest recorded for operation i (after cc_txn_stage_wait), or "". */
const char *cc_txn_op_sha256(const cc_txn *t, size_t i);
/* The directory of the transaction (.cudnnctl/txn-<id>), and its id. */
const char *cc_txn_dir(const cc_txn *t);
const char *cc_txn_id(const cc_txn *t);

/* Apply every operation (links of PLACE/REPLACE are staged here), then
 * commit. On failure everything applied is undone and the transaction
 * directory removed; err says what failed, and *undo_err (when not NULL)
 * gets whether the undo itself failed (then `recover` finishes it). */
int cc_txn_apply_commit(cc_txn *t, int *undo_failed, cc_error *err);

/* Give up before apply (after a staging failure): remove the transaction's
 * directory, release the lock. Frees t. */
void cc_txn_abort(cc_txn *t);
/* Release a committed transaction (one opened and never planned loses its
 * directory, as with cc_txn_abort). */
void cc_txn_free(cc_txn *t);

/* Undo every interrupted transaction on target (journal without "commit")
 * and clean the staging of committed ones. *report: an array of lines
 * saying what was done (empty: nothing to recover). Takes the lock. */
int cc_txn_recover(const char *target, cc_value **report, cc_error *err);

/* The transactions recorded in target, oldest first (their ids sort by
 * time): each one's id, label, operations and whether it committed.
 * Journals that cannot be read go to unreadable (when not NULL), one line
 * each. */
typedef struct cc_txn_info {
        char *id;
        char *label; /* "install", "uninstall", "rollback <id>" */
        int committed;
        cc_txn_op *ops;
        size_t n;
} cc_txn_info;
int cc_txn_list(const char *target, cc_txn_info **out, size_t *n, cc_strv *unreadable, cc_error *err);
void cc_txn_info_free(cc_txn_info *v, size_t n);
/* Parse a journal's text as recovery reads it (for the fuzz target and the
 * tests): its label, plan and commit into *out (id NULL; the caller frees
 * the label, each operation's path and link, and ops), which operations began in
 * *begun (n bytes, caller frees; NULL before the plan is whole), *whole:
 * the plan was written to its end. -1 on a journal recovery refuses. */
int cc_txn_journal_parse(const char *text, size_t len, cc_txn_info *out, unsigned char **begun, int *whole,
                         cc_error *err);
/* Where transaction id kept the file operation i replaced or removed
 * (.cudnnctl/txn-<id>/old/<i>; it may be gone: pruned). */
char *cc_txn_backup(const char *target, const char *id, size_t i, cc_error *err);
/* Keep the backups (old/) of the newest `keep` committed transactions only:
 * what rollback and uninstall can still put back. */
int cc_txn_prune(const char *target, size_t keep, cc_error *err);

#endif
