/* diff: what differs between two doctor documents, grouped the way a person
 * reasons about a machine. A pure function of the two trees. */
#ifndef CC_COMMANDS_DIFF_H
#define CC_COMMANDS_DIFF_H

#include "../value.h"

/* 0 when doc is a doctor document this tool can compare (an object with
 * command "doctor", an object `facts`, a schema_version no newer than
 * CUDNNCTL_JSON_SCHEMA_VERSION); else -1, CC_ERR_FORMAT (or
 * CC_ERR_UNSUPPORTED for a newer schema) saying what is wrong. */
int cc_diff_check(const cc_value *doc, cc_error *err);

/* The diff document (docs/json.md, `cudnnctl diff --json`) of before and
 * after, each already checked; names label them in `sources`; all: also the
 * facts that differ from run to run (the group `volatile`). */
int cc_diff_docs(const cc_value *before, const cc_value *after, const char *name_before, const char *name_after,
                 int all, cc_value **out, cc_error *err);

#endif
