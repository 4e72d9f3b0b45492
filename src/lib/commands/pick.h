/* Which installation a command means: INSTALL as 'cudnnctl list' numbers
 * it, a path in it, a package or directory name, or a release ("9.19"). */
#ifndef CC_PICK_H
#define CC_PICK_H

#include "../machine/machine.h"

/* The list document of m, searching also where INSTALL names a path the
 * usual places miss: a library file's directory, the prefix above lib/,
 * lib64/, bin/. want may be NULL. */
int cc_pick_list(cc_machine *m, const char *want, cc_value **list, cc_error *err);

/* The list document of m (cudnnctl_list with no extra roots). */
int cc_pick_list_all(cc_machine *m, cc_value **list, cc_error *err);

/* The installation of the list document that want names (borrowed from
 * list); *chosen_by gets one line saying how it was chosen (caller frees).
 * want is an id ("2"), a path (the prefix, a directory, a file or an alias
 * of one), a package or directory name, or a release of two to four parts
 * ("9.19", "9.19.0.56": the one installation of that release; several are
 * refused with their ids). NULL: the one a plain program loads, else the
 * only one. NULL with CC_ERR_NOTFOUND when nothing matches. */
const cc_value *cc_pick_installation(cc_machine *m, const cc_value *list, const char *want, cc_value **chosen_by,
                                     cc_error *err);

#endif
