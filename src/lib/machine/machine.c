/* The machine a command looks at (machine.h). */
#include "machine.h"

#include "../platform/platform.h"

#include <stdlib.h>
#include <string.h>

static int host_system(void)
{
        return cc_host_is_windows() ? CC_SYS_WINDOWS : CC_SYS_LINUX;
}

static int set_cwd(cc_machine *m, cc_error *err)
{
        const char *var = m->system == CC_SYS_WINDOWS ? "CD" : "PWD";
        const char *v;

        if (m->live) {
                m->cwd = cc_getcwd(err);
                m->cwd_source = "process";
                return m->cwd ? 0 : -1;
        }
        v = cc_env_get(&m->env, var);
        if (v != NULL && v[0] != '\0') {
                if (!cc_tree_is_abs(m->tree, v))
                        return cc_err(err, CC_ERR_USAGE, "%s=%s: the current directory must be an absolute path", var,
                                      v);
                m->cwd = cc_tree_abs(m->tree, NULL, v, err);
                m->cwd_source = m->system == CC_SYS_WINDOWS ? "CD" : "PWD";
                return m->cwd ? 0 : -1;
        }
        m->cwd = cc_strdup(err, m->system == CC_SYS_WINDOWS ? "C:\\" : "/");
        m->cwd_source = "default";
        return m->cwd ? 0 : -1;
}

int cudnnctl_machine_open(const cudnnctl_machine_options *opts, cudnnctl_machine **out, cudnnctl_error *err)
{
        static const cudnnctl_machine_options defaults = {0};
        cc_machine *m;
        size_t i;

        *out = NULL;
        if (opts == NULL)
                opts = &defaults;
        m = cc_calloc(err, 1, sizeof(*m));
        if (m == NULL)
                return -1;
        switch (opts->system) {
        case CUDNNCTL_SYSTEM_HOST:
                m->system = host_system();
                break;
        case CUDNNCTL_SYSTEM_LINUX:
                m->system = CC_SYS_LINUX;
                break;
        case CUDNNCTL_SYSTEM_WINDOWS:
                m->system = CC_SYS_WINDOWS;
                break;
        default:
                free(m);
                return cc_err(err, CC_ERR_USAGE, "unknown system %d", opts->system);
        }
        m->live = opts->root == NULL || opts->root[0] == '\0';
        m->env.nocase = m->system == CC_SYS_WINDOWS;
        if (cc_tree_open(opts->root, m->system, &m->tree, err) < 0)
                goto fail;
        if (m->live) {
                if (cc_env_from_process(&m->env, m->system == CC_SYS_WINDOWS, err) < 0)
                        goto fail;
        }
        if (opts->env_file != NULL && cc_env_load_file(&m->env, opts->env_file, err) < 0)
                goto fail;
        for (i = 0; i < opts->nset; i++) {
                if (cc_env_set(&m->env, opts->set[i], err) < 0) {
                        cc_err_prefix(err, "--set");
                        goto fail;
                }
        }
        if (set_cwd(m, err) < 0)
                goto fail;
        if (!m->live &&
            cc_strv_push(&m->notes,
                         opts->env_file || opts->nset
                             ? "environment: only what --env/--set gave (the host's is not used with --root)"
                             : "environment: empty (the host's is not used with --root; give one with "
                               "--env FILE or --set VAR=VALUE)",
                         err) < 0)
                goto fail;
        *out = m;
        return 0;
fail:
        cudnnctl_machine_free(m);
        return -1;
}

void cudnnctl_machine_free(cudnnctl_machine *m)
{
        if (m == NULL)
                return;
        if (m->shared_discovery_free != NULL && m->shared_discovery != NULL)
                m->shared_discovery_free(m->shared_discovery);
        if (m->elf_cache_free)
                cc_smap_each(&m->elf_cache, m->elf_cache_free, NULL);
        cc_smap_free(&m->elf_cache);
        cc_tree_free(m->tree);
        cc_env_free(&m->env);
        cc_strv_free(&m->notes);
        free(m->cwd);
        free(m);
}

int cc_machine_clone_live(const cc_machine *m, cc_machine **out, cc_error *err)
{
        cc_machine *c;
        size_t i;

        *out = NULL;
        if (!m->live)
                return cc_err(err, CC_ERR_USAGE, "only the running machine's view is cloned");
        c = cc_calloc(err, 1, sizeof(*c));
        if (c == NULL)
                return -1;
        c->system = m->system;
        c->live = 1;
        c->env.nocase = m->env.nocase;
        c->cwd_source = m->cwd_source;
        if (cc_tree_open(NULL, m->system, &c->tree, err) < 0)
                goto fail;
        for (i = 0; i < m->env.kv.n; i++)
                if (cc_env_set(&c->env, m->env.kv.v[i], err) < 0)
                        goto fail;
        c->cwd = cc_strdup(err, m->cwd);
        if (c->cwd == NULL)
                goto fail;
        *out = c;
        return 0;
fail:
        cudnnctl_machine_free(c);
        return -1;
}

char *cc_machine_abs(const cc_machine *m, const char *vpath, cc_error *err)
{
        return cc_tree_abs(m->tree, m->cwd, vpath, err);
}

const char *cc_machine_getenv(const cc_machine *m, const char *key)
{
        return cc_env_get(&m->env, key);
}

char *cc_machine_expand(const cc_machine *m, const char *s, int strict, cc_error *err)
{
        cc_buf b = {0};
        const char *p = s;

        while (*p) {
                const char *end = *p == '%' ? strchr(p + 1, '%') : NULL;
                char name[256];
                const char *v = NULL;

                if (end != NULL && end > p + 1 && (size_t)(end - p - 1) < sizeof(name)) {
                        memcpy(name, p + 1, (size_t)(end - p - 1));
                        name[end - p - 1] = '\0';
                        v = cc_machine_getenv(m, name);
                        if (v == NULL && strict) {
                                cc_buf_free(&b);
                                return NULL;
                        }
                }
                if (v != NULL) {
                        if (cc_buf_puts(&b, v, err) < 0)
                                goto fail;
                        p = end + 1;
                } else {
                        if (cc_buf_putc(&b, *p, err) < 0)
                                goto fail;
                        p++;
                }
        }
        return b.data ? cc_buf_steal(&b) : cc_strdup(err, "");
fail:
        cc_buf_free(&b);
        return NULL;
}

int cc_machine_jobs(const cc_machine *m, int max)
{
        int want = cc_cpu_count();
        const char *j = cc_machine_getenv(m, "CUDNNCTL_JOBS");

        if (j != NULL && atoi(j) >= 1)
                want = atoi(j);
#if defined(_WIN32)
        /* a child started beside another could inherit the other's pipe ends */
        want = 1;
#endif
        if (want > max)
                want = max;
        return want < 1 ? 1 : want;
}

cc_value *cc_machine_facts(const cc_machine *m, cc_error *err)
{
        cc_value *o = cc_v_object(err);

        if (o == NULL)
                return NULL;
        if (cc_v_set_str(o, "system", m->system == CC_SYS_WINDOWS ? "windows" : "linux", err) < 0 ||
            cc_v_set(o, "root", cc_v_str(cc_tree_root(m->tree), err), err) < 0 ||
            cc_v_set_bool(o, "live", m->live, err) < 0 || cc_v_set_str(o, "cwd", m->cwd, err) < 0 ||
            cc_v_set_str(o, "cwd_source", m->cwd_source, err) < 0 ||
            cc_v_set_str(o, "environment", m->live ? "process" : "given", err) < 0 ||
            cc_v_set(o, "notes", cc_v_strv(&m->notes, err), err) < 0) {
                cc_v_free(o);
                return NULL;
        }
        return o;
}

cc_value *cc_doc_new(const char *command, const cc_machine *m, cc_error *err)
{
        cc_value *doc = cc_v_object(err);

        if (doc == NULL)
                return NULL;
        if (cc_v_set_int(doc, "schema_version", CUDNNCTL_JSON_SCHEMA_VERSION, err) < 0 ||
            cc_v_set_str(doc, "tool", "cudnnctl", err) < 0 ||
            cc_v_set_str(doc, "tool_version", cudnnctl_version(), err) < 0 ||
            cc_v_set_str(doc, "command", command, err) < 0 ||
            cc_v_set(doc, "machine", cc_machine_facts(m, err), err) < 0) {
                cc_v_free(doc);
                return NULL;
        }
        return doc;
}

int cc_split_pathlist(const char *s, char sep, size_t max, cc_strv *out, cc_error *err)
{
        char seps[2] = {sep, '\0'};

        return cc_split_pathlist_any(s, seps, max, out, err);
}

const char *cc_pathlist_seps(int system, const char *var)
{
        if (system == CC_SYS_WINDOWS)
                return ";";
        /* glibc's ld.so splits LD_LIBRARY_PATH at ';' too (elf/dl-load.c,
         * _dl_init_paths: fillin_rpath with ":;"); RPATH and RUNPATH at ':' */
        return var != NULL && strcmp(var, "LD_LIBRARY_PATH") == 0 ? ":;" : ":";
}

int cc_split_pathlist_any(const char *s, const char *seps, size_t max, cc_strv *out, cc_error *err)
{
        const char *p = s;

        if (s == NULL)
                return 0;
        for (;;) {
                size_t n = strcspn(p, seps);
                const char *e = p[n] ? p + n : NULL;

                if (out->n >= max)
                        return cc_err(err, CC_ERR_LIMIT, "a search path of more than %zu entries", max);
                if (cc_strv_pushn(out, p, n, err) < 0)
                        return -1;
                if (e == NULL)
                        break;
                p = e + 1;
        }
        return 0;
}

int cc_machine_libcuda_files(cc_machine *m, size_t max, cc_strv *out, cc_error *err)
{
        static const char *const places[] = {"/usr/lib/x86_64-linux-gnu/libcuda.so.*",
                                             "/usr/lib64/libcuda.so.*",
                                             "/usr/lib/libcuda.so.*",
                                             "/usr/lib/aarch64-linux-gnu/libcuda.so.*",
                                             "/usr/local/nvidia/lib64/libcuda.so.*",
                                             "/usr/lib/wsl/lib/libcuda.so*",
                                             "/usr/lib/wsl/drivers/*/libcuda.so*"};
        size_t i;

        for (i = 0; i < CC_ARRAY_LEN(places); i++) {
                cc_error ge = {0};

                if (cc_tree_glob(m->tree, places[i], max, out, &ge) < 0 && ge.code == CC_ERR_NOMEM) {
                        *err = ge;
                        return -1;
                }
        }
        return 0;
}
