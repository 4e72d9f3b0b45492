/* An environment: KEY=VALUE strings, taken from the process or built from a
 * file and --set overrides (a --root tree starts empty: the host's variables
 * describe the host, not the image). Windows environments compare keys
 * case-insensitively, as Windows does. */
#ifndef CC_MACHINE_ENV_H
#define CC_MACHINE_ENV_H

#include "../common.h"

typedef struct cc_env {
        cc_strv kv; /* "KEY=VALUE", at most one per key */
        int nocase;
        cc_smap idx_; /* key -> index + 1 into kv */
} cc_env;

#define CC_ENV_MAX_VALUE ((size_t)1 << 20)

/* Start from the process's environment. */
int cc_env_from_process(cc_env *env, int nocase, cc_error *err);
/* Add the KEY=VALUE lines of a file (blank lines and '#' comments skipped,
 * an "export " prefix and one pair of matching quotes around the value
 * removed). A malformed line fails with "FILE:LINE: ..." and adds nothing. */
int cc_env_load_file(cc_env *env, const char *path, cc_error *err);
/* The same over text already read; name is used in messages. */
int cc_env_load_text(cc_env *env, const char *name, const char *text, size_t len, cc_error *err);
/* Set one "KEY=VALUE" (replacing KEY). An empty VALUE sets the variable to
 * the empty string; it does not remove it. */
int cc_env_set(cc_env *env, const char *kv, cc_error *err);
/* 1 if it was set, 0 if not, -1 out of memory. */
int cc_env_unset(cc_env *env, const char *key, cc_error *err);
/* The value, or NULL when unset. */
const char *cc_env_get(const cc_env *env, const char *key);
void cc_env_free(cc_env *env);

#endif
