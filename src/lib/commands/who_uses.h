/* who-uses: the processes that have a library mapped. install and uninstall
 * ask it about every file they would replace or remove. */
#ifndef CC_COMMANDS_WHO_USES_H
#define CC_COMMANDS_WHO_USES_H

#include "../value.h"

/* The processes running on this machine that map one of paths[0..n) (host
 * paths; a path that is gone can still be mapped as a deleted file): a new
 * object (caller frees) read through the who_scan and who_user views of
 * facts/schema.h (docs/json.md, "who-uses scan"): `users`, one per process
 * and file, by pid: {pid, name, cmdline (null where unreadable), file (one
 * of paths, as given), seen ([string]: how), deleted}; `processes` looked
 * at; `unreadable`, the processes that could not be read (another user's,
 * without privilege: root sees all); `notes`. -1 only when out of memory or
 * no process can be listed at all. */
int cc_who_uses_files(const char *const *paths, size_t n, cc_value **doc_out, cc_error *err);

#endif
