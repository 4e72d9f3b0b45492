/* Environments for lookups: the process's, or one given as data. */
#include "env.h"

#include "../platform/platform.h"

#include <stdlib.h>
#include <string.h>

#define MAX_VARS 100000

static size_t find(const cc_env *env, const char *key, size_t klen)
{
        char buf[256];
        void *v = NULL;
        int found;

        if (klen < sizeof(buf)) {
                memcpy(buf, key, klen);
                buf[klen] = '\0';
                found = cc_smap_get(&env->idx_, buf, &v);
        } else {
                char *k = cc_strndup(NULL, key, klen);

                if (k == NULL)
                        return (size_t)-1;
                found = cc_smap_get(&env->idx_, k, &v);
                free(k);
        }
        return found ? (size_t)(uintptr_t)v - 1 : (size_t)-1;
}

static int index_put(cc_env *env, const char *kv, size_t klen, size_t i, cc_error *err)
{
        char *k = cc_strndup(err, kv, klen);
        int rc;

        if (k == NULL)
                return -1;
        env->idx_.nocase = env->nocase;
        rc = cc_smap_put(&env->idx_, k, (void *)(uintptr_t)(i + 1), NULL, err);
        free(k);
        return rc;
}

static int valid_key(const char *key, size_t klen)
{
        size_t i;

        if (klen == 0 || klen > 4096)
                return 0;
        for (i = 0; i < klen; i++)
                if (key[i] == '=' || key[i] == '\0' || key[i] == '\n')
                        return 0;
        return 1;
}

int cc_env_set(cc_env *env, const char *kv, cc_error *err)
{
        const char *eq = strchr(kv, '=');
        size_t klen, i;
        char *copy;

        if (eq == NULL)
                return cc_err(err, CC_ERR_USAGE, "'%s': not VAR=VALUE", kv);
        klen = (size_t)(eq - kv);
        if (!valid_key(kv, klen))
                return cc_err(err, CC_ERR_USAGE, "'%.64s': not a variable name", kv);
        if (strlen(eq + 1) > CC_ENV_MAX_VALUE)
                return cc_err(err, CC_ERR_LIMIT, "%.*s: value longer than %zu bytes", (int)klen, kv, CC_ENV_MAX_VALUE);
        copy = cc_strdup(err, kv);
        if (copy == NULL)
                return -1;
        i = find(env, kv, klen);
        if (i != (size_t)-1) {
                free(env->kv.v[i]);
                env->kv.v[i] = copy;
                return 0;
        }
        if (env->kv.n >= MAX_VARS) {
                free(copy);
                return cc_err(err, CC_ERR_LIMIT, "more than %d environment variables", MAX_VARS);
        }
        if (index_put(env, kv, klen, env->kv.n, err) < 0) {
                free(copy);
                return -1;
        }
        return cc_strv_take(&env->kv, copy, err);
}

int cc_env_unset(cc_env *env, const char *key, cc_error *err)
{
        size_t i = find(env, key, strlen(key)), j;

        if (i == (size_t)-1)
                return 0;
        free(env->kv.v[i]);
        memmove(&env->kv.v[i], &env->kv.v[i + 1], (env->kv.n - i - 1) * sizeof(char *));
        env->kv.n--;
        /* Rebuild the index (rare). */
        cc_smap_free(&env->idx_);
        for (j = 0; j < env->kv.n; j++) {
                const char *eq = strchr(env->kv.v[j], '=');

                if (index_put(env, env->kv.v[j], (size_t)(eq - env->kv.v[j]), j, err) < 0)
                        return -1;
        }
        return 1;
}

const char *cc_env_get(const cc_env *env, const char *key)
{
        size_t klen = strlen(key);
        size_t i = find(env, key, klen);

        return i == (size_t)-1 ? NULL : env->kv.v[i] + klen + 1;
}

int cc_env_from_process(cc_env *env, int nocase, cc_error *err)
{
        cc_strv all = {0};
        size_t i;

        env->nocase = nocase;
        if (cc_environ(&all, err) < 0)
                return -1;
        for (i = 0; i < all.n; i++) {
                if (cc_env_set(env, all.v[i], err) < 0 && err->code != CC_ERR_USAGE) {
                        cc_strv_free(&all);
                        return -1;
                }
        }
        cc_strv_free(&all);
        return 0;
}

static const char *trim_left(const char *s, const char *end)
{
        while (s < end && (*s == ' ' || *s == '\t'))
                s++;
        return s;
}

int cc_env_load_text(cc_env *env, const char *name, const char *text, size_t len, cc_error *err)
{
        cc_env add = {0};
        const char *p = text, *end = text + len;
        size_t line = 0, i;

        add.nocase = env->nocase;
        while (p < end) {
                const char *nl = memchr(p, '\n', (size_t)(end - p));
                const char *le = nl ? nl : end, *s, *eq, *vs, *ve;
                char *kv;

                line++;
                s = trim_left(p, le);
                p = nl ? nl + 1 : end;
                if (le > s && le[-1] == '\r')
                        le--;
                if (s == le || *s == '#')
                        continue;
                if ((size_t)(le - s) > 7 && memcmp(s, "export ", 7) == 0)
                        s = trim_left(s + 7, le);
                eq = memchr(s, '=', (size_t)(le - s));
                if (eq == NULL || eq == s) {
                        cc_env_free(&add);
                        return cc_err(err, CC_ERR_FORMAT, "%s:%zu: not VAR=VALUE", name, line);
                }
                if (memchr(s, '\0', (size_t)(le - s)) != NULL) {
                        cc_env_free(&add);
                        return cc_err(err, CC_ERR_FORMAT, "%s:%zu: a NUL byte in the line", name, line);
                }
                vs = eq + 1;
                ve = le;
                if (ve - vs >= 2 && (*vs == '"' || *vs == '\'') && ve[-1] == *vs) {
                        vs++;
                        ve--;
                }
                kv = cc_asprintf(err, "%.*s=%.*s", (int)(eq - s), s, (int)(ve - vs), vs);
                if (kv == NULL) {
                        cc_env_free(&add);
                        return -1;
                }
                if (cc_env_set(&add, kv, err) < 0) {
                        free(kv);
                        cc_err_prefix(err, "%s:%zu", name, line);
                        cc_env_free(&add);
                        return -1;
                }
                free(kv);
        }
        for (i = 0; i < add.kv.n; i++) {
                if (cc_env_set(env, add.kv.v[i], err) < 0) {
                        cc_env_free(&add);
                        return -1;
                }
        }
        cc_env_free(&add);
        return 0;
}

int cc_env_load_file(cc_env *env, const char *path, cc_error *err)
{
        char *text = NULL;
        size_t len = 0;
        int rc;

        if (cc_read_file(path, (size_t)16 << 20, &text, &len, err) < 0)
                return -1;
        rc = cc_env_load_text(env, path, text, len, err);
        free(text);
        return rc;
}

void cc_env_free(cc_env *env)
{
        cc_strv_free(&env->kv);
        cc_smap_free(&env->idx_);
}
