/* Fuzz target for the text the machine layer parses: environment files
 * (KEY=VALUE lines), virtual paths of both systems (made absolute, split,
 * compared) and glob patterns. The input is split at the first NUL: the part
 * before is the text, the part after a second string (a name to match). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine/env.h"
#include "machine/tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static cc_tree *trees[2];

static void open_trees(void)
{
        cc_error err = {0};

        if (trees[0] == NULL && cc_tree_open("/", CC_SYS_LINUX, &trees[0], &err) < 0)
                abort();
        if (trees[1] == NULL && cc_tree_open("/", CC_SYS_WINDOWS, &trees[1], &err) < 0)
                abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        cc_error err = {0};
        cc_env env = {0};
        char *text, *second;
        const char *nul;
        size_t k, tlen;

        open_trees();
        text = malloc(size + 1);
        if (text == NULL)
                return 0;
        memcpy(text, data, size);
        text[size] = '\0';
        nul = memchr(text, '\0', size);
        tlen = nul ? (size_t)(nul - text) : size;
        second = nul ? text + tlen + 1 : text + size;

        /* environment text: never crashes, errors are one line */
        if (cc_env_load_text(&env, "fuzz.env", (const char *)data, size, &err) < 0) {
                if (strchr(err.msg, '\n') != NULL)
                        abort();
        } else {
                for (k = 0; k < env.kv.n; k++) {
                        const char *eq = strchr(env.kv.v[k], '=');
                        char key[256];
                        size_t kl;

                        if (eq == NULL)
                                abort();
                        kl = (size_t)(eq - env.kv.v[k]);
                        if (kl < sizeof(key)) {
                                memcpy(key, env.kv.v[k], kl);
                                key[kl] = '\0';
                                if (cc_env_get(&env, key) == NULL)
                                        abort(); /* every key set can be read back */
                        }
                }
        }
        cc_env_free(&env);

        /* virtual paths on both systems */
        for (k = 0; k < 2; k++) {
                cc_tree *t = trees[k];
                const char *cwd = k ? "C:\\Users\\x" : "/home/x";
                char *a = cc_tree_abs(t, cwd, text, &err), *d;

                if (a == NULL)
                        continue;
                if (!cc_tree_is_abs(t, a))
                        abort();
                if (!cc_tree_path_eq(t, a, a))
                        abort();
                d = cc_tree_dirname(t, a, &err);
                if (d != NULL && !cc_tree_is_abs(t, d))
                        abort();
                free(d);
                free(a);
        }
        /* glob patterns: bounded, either case rule */
        (void)cc_glob_match(text, second, 0);
        (void)cc_glob_match(text, second, 1);
        free(text);
        return 0;
}
