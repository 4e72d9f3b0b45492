/* verify's run-time probes (verify_int.h): the arguments each probe child
 * gets, running them with the time limit in the machine's environment, and
 * what they need found on the machine first (the libcudart cuDNN pairs
 * with). Judging what they answer is verify_runtime.c's. */
#include "verify_int.h"
#include "which.h"

#include "../platform/platform.h"
#include "../probe/probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* An AddressSanitizer build's dlopen is the sanitizer's, so the loader takes
 * the program, not the library that called it, as the caller: the shim's
 * RUNPATH $ORIGIN would not apply to the sub-libraries it opens, and the
 * child would not load as a program does (it would find them in
 * ld.so.cache). Such a build puts the shim's directory after
 * LD_LIBRARY_PATH in the child's environment, which is where that RUNPATH
 * puts it in the loader's search. Release builds leave the environment as
 * the machine has it. */
#if defined(__SANITIZE_ADDRESS__)
#define CC_DLOPEN_INTERCEPTED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CC_DLOPEN_INTERCEPTED 1
#endif
#endif

#ifdef CC_DLOPEN_INTERCEPTED
static int as_program_env(struct cc_vctx *v, const char *const *args, size_t n, cc_strv *env, cc_error *err)
{
        const char *old = cc_machine_getenv(v->m, "LD_LIBRARY_PATH");
        size_t i;
        int as_program = 0;

        for (i = 0; i < n; i++)
                as_program |= strcmp(args[i], "--as-program") == 0;
        if (!as_program || v->lib_dir == NULL)
                return 0;
        for (i = 0; i < v->m->env.kv.n; i++)
                if (strncmp(v->m->env.kv.v[i], "LD_LIBRARY_PATH=", 16) != 0)
                        TRY_RET(cc_strv_push(env, v->m->env.kv.v[i], err));
        return cc_strv_pushf(env, 0, err, "LD_LIBRARY_PATH=%s%s%s", old ? old : "", old && *old ? ":" : "", v->lib_dir);
}
#endif

cc_value *cc_vf_probe(struct cc_vctx *v, const char *const *args, size_t n, int timeout_ms, cc_error *err)
{
        cc_probe_ctl c;
        cc_value *res;
        cc_strv env;

        memset(&c, 0, sizeof(c));
        memset(&env, 0, sizeof(env));
        c.exe = v->o->probe_exe;
        c.timeout_ms = timeout_ms;
        /* The child sees the machine's environment: the process's with
         * --set applied, as which and list saw it. */
        c.env_set = (const char *const *)v->m->env.kv.v;
        c.nenv_set = v->m->env.kv.n;
#ifdef CC_DLOPEN_INTERCEPTED
        if (as_program_env(v, args, n, &env, err) < 0)
                return NULL;
        if (env.n > 0) {
                c.env_set = (const char *const *)env.v;
                c.nenv_set = env.n;
        }
#endif
        res = cc_probe_run(&c, args, n, err);
        cc_strv_free(&env);
        return res;
}

char *cc_vf_find_stub(struct cc_vctx *v, cc_error *err)
{
        static const char *const rel[] = {"lib/stubs/libcuda.so", "lib64/stubs/libcuda.so",
                                          "targets/x86_64-linux/lib/stubs/libcuda.so", "../cu13/lib/stubs/libcuda.so",
                                          "../cu12/lib/stubs/libcuda.so"};
        static const char *const roots[] = {"/usr/local/cuda", "/usr/local/cuda-13.0", "/usr/local/cuda-12"};
        const char *prefix = v->iv.prefix;
        size_t i, j;

        if (v->windows)
                return NULL;
        for (j = 0; j < CC_ARRAY_LEN(roots) + 1; j++) {
                const char *root = j == 0 ? prefix : roots[j - 1];

                for (i = 0; root != NULL && i < CC_ARRAY_LEN(rel); i++) {
                        char *p = cc_asprintf(err, "%s/%s", root, rel[i]);
                        cc_stat st;

                        if (p == NULL)
                                return NULL;
                        if (cc_tree_stat(v->m->tree, p, &st, NULL) == 0 && st.type == CC_FT_FILE) {
                                char *real = cc_realpath(p, NULL);

                                if (real != NULL) {
                                        free(p);
                                        return real;
                                }
                                return p;
                        }
                        free(p);
                }
        }
        return NULL;
}

/* /proc/driver/nvidia/version: "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  ..." */
char *cc_vf_kernel_module_version(cc_error *err)
{
        char *text = NULL, *out = NULL;
        char vb[64];
        size_t len;
        cc_error ignore = {0};

        if (cc_read_stream("/proc/driver/nvidia/version", 65536, &text, &len, &ignore) < 0)
                return NULL;
        if (cc_nvrm_version(text, vb, sizeof(vb)) == 0)
                out = cc_strdup(err, vb);
        free(text);
        return out;
}

/* The libcudart the installation pairs with: what its libraries would load
 * for the CUDA major cuDNN was built with. */
static char *find_cudart(struct cc_vctx *v, int cudart_version, cc_value **how, cc_error *err)
{
        int major = cudart_version / 1000, minor = (cudart_version % 1000) / 10;
        char *name;
        const char *names[1];
        cudnnctl_which_options wo;
        cudnnctl_value *w = NULL;
        cc_vw_which_doc wd;
        cc_vw_resolution r;
        char *out = NULL;

        if (major <= 0)
                return NULL;
        if (v->windows)
                name = major >= 12 ? cc_asprintf(err, "cudart64_%d.dll", major)
                                   : cc_asprintf(err, "cudart64_%d%d.dll", major, major >= 11 ? 0 : minor);
        else
                name = major >= 11 ? cc_asprintf(err, "libcudart.so.%d", major)
                                   : cc_asprintf(err, "libcudart.so.%d.%d", major, minor);
        if (name == NULL)
                return NULL;
        names[0] = name;
        memset(&wo, 0, sizeof(wo));
        wo.from = v->lib_paths.n > 0 ? v->lib_paths.v[0] : v->shim;
        /* Windows: a DLL loaded by full path (as the probe and frameworks load
         * cuDNN) has its dependencies searched from its own directory first
         * (LOAD_WITH_ALTERED_SEARCH_PATH); the standard order would skip the
         * installation's bin directory, where the zip's cudart sits. */
        if (v->windows)
                wo.win_mode = CUDNNCTL_WIN_ALTERED;
        if (cc_which_resolve(v->m, names, 1, &wo, &w, err) == 0) {
                cc_vw_which_doc_read(w, &wd, NULL);
                cc_vw_resolution_at(wd.results, 0, &r, NULL);
                if (r.found && r.path != NULL) {
                        out = cc_strdup(err, r.path);
                        *how = cc_v_strf(err, "%s => %s (%s, as %s would load it)", name, out, r.how ? r.how : "found",
                                         cc_basename(wo.from ? wo.from : "a program"));
                }
        }
        cc_v_free(w);
        if (out == NULL && !v->windows) {
                /* Not on any search path of cuDNN's: the CUDA toolkit's copy. */
                /* The installation's own directory (an archive copied into a
                 * toolkit), then the toolkit's. */
                const char *dirs[] = {v->lib_dir ? v->lib_dir : "/usr/local/cuda/lib64", "/usr/local/cuda/lib64",
                                      "/usr/local/cuda/lib", "/usr/local/cuda/targets/x86_64-linux/lib"};
                const char *home = cc_machine_getenv(v->m, "CUDA_HOME");
                size_t i;

                for (i = 0; out == NULL && i < CC_ARRAY_LEN(dirs) + 2; i++) {
                        char *p = i < CC_ARRAY_LEN(dirs) ? cc_asprintf(err, "%s/%s", dirs[i], name)
                                  : home
                                      ? cc_asprintf(err, "%s/lib%s/%s", home, i == CC_ARRAY_LEN(dirs) ? "64" : "", name)
                                      : NULL;
                        cc_stat st;

                        if (p != NULL && cc_tree_stat(v->m->tree, p, &st, NULL) == 0 && st.type == CC_FT_FILE) {
                                out = p;
                                *how = cc_v_strf(err, "%s => %s (%s: cuDNN's own search path finds none)", name, out,
                                                 i == 0 && v->lib_dir ? "beside cuDNN" : "the CUDA toolkit's copy");
                        } else {
                                free(p);
                        }
                }
        }
        if (out == NULL && v->windows && cc_machine_getenv(v->m, "CUDA_PATH") != NULL) {
                /* Windows: the toolkit's copy, bin\x64 (CUDA 13) then bin. */
                size_t i;

                for (i = 0; out == NULL && i < 2; i++) {
                        char *p = cc_asprintf(err, "%s\\bin%s\\%s", cc_machine_getenv(v->m, "CUDA_PATH"),
                                              i == 0 ? "\\x64" : "", name);
                        cc_stat st;

                        if (p != NULL && cc_tree_stat(v->m->tree, p, &st, NULL) == 0 && st.type == CC_FT_FILE) {
                                out = p;
                                *how = cc_v_strf(err,
                                                 "%s => %s (the CUDA toolkit's copy: cuDNN's own search path "
                                                 "finds none)",
                                                 name, out);
                        } else {
                                free(p);
                        }
                }
        }
        free(name);
        return out;
}

/* ---- the probes --------------------------------------------------------------------- */

/* The cuDNN probe's arguments: the major, every sub-library by full path
 * in load order, the shim. */
static int cudnn_args(struct cc_vctx *v, cc_strv *args, cc_error *err)
{
        size_t i;

        TRY_RET(cc_strv_push(args, "cudnn", err));
        TRY_RET(cc_strv_push(args, "--major", err));
        TRY_RET(cc_strv_pushf(args, 0, err, "%d", v->major));
        /* cuDNN 9 on Linux: open the shim as a program does and let its own
         * search (LD_LIBRARY_PATH, its RUNPATH $ORIGIN, ld.so.cache; by its
         * full release name first) load the rest, which is what a program
         * gets (docs/device/traces.md). cuDNN 8's shim has no RUNPATH: its
         * helpers load only from the search path a program sets up, which
         * linux-v8-helper-rpath reports; they, and Windows' DLLs, are opened
         * by their paths first. */
        if (!v->windows && v->major >= 9)
                TRY_RET(cc_strv_push(args, "--as-program", err));
        for (i = 0; i < v->lib_paths.n; i++) {
                TRY_RET(cc_strv_push(args, "--lib", err));
                TRY_RET(cc_strv_pushf(args, 0, err, "%s=%s", v->lib_stems.v[i], v->lib_paths.v[i]));
        }
        if (v->shim != NULL) {
                TRY_RET(cc_strv_push(args, "--shim", err));
                TRY_RET(cc_strv_push(args, v->shim, err));
        }
        return 0;
}

/* The driver probe's answer (caller frees): the shared one when another
 * run has it, else this run's own, kept for the others. */
static cc_value *driver_answer(struct cc_vctx *v, int timeout_ms, cc_error *err)
{
        static const char *const dargs[] = {"driver"};
        cc_vf_driver *d = v->driver;
        cc_value *r;
        int keep;

        if (d == NULL)
                return cc_vf_probe(v, dargs, 1, timeout_ms, err);
        if (d->s != NULL)
                cc_sync_lock(d->s);
        while (d->s != NULL && d->answer == NULL && d->probing)
                cc_sync_wait(d->s);
        if (d->answer != NULL) {
                r = cc_v_copy(d->answer, err);
                if (d->s != NULL)
                        cc_sync_unlock(d->s);
                return r;
        }
        d->probing = 1;
        if (d->s != NULL)
                cc_sync_unlock(d->s);
        r = cc_vf_probe(v, dargs, 1, timeout_ms, err);
        if (d->s != NULL)
                cc_sync_lock(d->s);
        keep = r != NULL && d->answer == NULL;
        if (keep)
                d->answer = cc_v_copy(r, err);
        d->probing = 0; /* with no answer kept, a waiting run probes itself */
        if (d->s != NULL) {
                cc_sync_wake(d->s);
                cc_sync_unlock(d->s);
        }
        if (keep && d->answer == NULL) {
                cc_v_free(r);
                return NULL;
        }
        return r;
}

struct driver_job {
        struct cc_vctx *v;
        int timeout_ms;
        cc_value *answer;
        cc_error err;
};

static void driver_worker(void *arg)
{
        struct driver_job *j = arg;

        j->answer = driver_answer(j->v, j->timeout_ms, &j->err);
}

int cc_vf_run_probes(struct cc_vctx *v, struct cc_vprobes *p, cc_error *err)
{
        struct driver_job dj;
        cc_thread *th = NULL;

        /* cuDNN's arguments first: its CUDA runtime version says which
         * libcudart and which driver it needs. */
        TRY_RET(cudnn_args(v, &p->args, err));
        /* The driver and cuDNN without the GPU, side by side (neither needs
         * the other's answer; each is a child of its own): what is cheap and
         * decides whether the GPU work can run. Without a thread, one after
         * the other. */
        memset(&dj, 0, sizeof(dj));
        dj.v = v;
        dj.timeout_ms = p->timeout_ms;
        if (cc_thread_start(driver_worker, &dj, &th, NULL) < 0)
                th = NULL;
        p->dnn = cc_vf_probe(v, (const char *const *)p->args.v, p->args.n, p->timeout_ms, err);
        if (th != NULL)
                cc_thread_join(th);
        else
                driver_worker(&dj);
        p->drv = dj.answer;
        if (p->drv == NULL) {
                if (p->dnn != NULL || err->code == CC_OK)
                        *err = dj.err;
                return -1;
        }
        if (p->dnn == NULL)
                return -1;
        cc_vw_probe_read(p->dnn, &p->dnn_run, NULL);
        cc_vw_cudnn_facts_read(p->dnn_run.facts, &p->facts, NULL);
        p->dnn_version = p->facts.version;
        p->cudart_version = p->facts.cudart_version;
        p->cudart = find_cudart(v, (int)p->cudart_version, &p->cudart_how, err);
        if (p->cudart != NULL) {
                const char *rargs[] = {"cudart", p->cudart};
                cc_vw_status rv;

                p->rt = cc_vf_probe(v, rargs, 2, p->timeout_ms, err);
                if (p->rt == NULL)
                        return -1;
                cc_vw_probe_read(p->rt, &p->rt_run, NULL);
                cc_vw_cudart_facts_read(p->rt_run.facts, &p->rt_facts, NULL);
                /* a status with the value, or "not exported: ..." */
                cc_vw_status_read(p->rt_facts.runtime_version, &rv, NULL);
                p->rt_version = rv.value;
        }
        return 0;
}

cc_value *cc_vf_gpu_probe(struct cc_vctx *v, struct cc_vprobes *p, char **seed, cc_error *err)
{
        *seed = cc_asprintf(err, "%llu", (unsigned long long)time(NULL) ^ (unsigned long long)cc_monotonic_us());
        if (*seed == NULL || cc_strv_push(&p->args, "--seed", err) < 0 || cc_strv_push(&p->args, *seed, err) < 0 ||
            cc_strv_push(&p->args, "--cudart", err) < 0 || cc_strv_push(&p->args, p->cudart, err) < 0 ||
            cc_strv_push(&p->args, "--gpu", err) < 0)
                return NULL;
        return cc_vf_probe(v, (const char *const *)p->args.v, p->args.n, p->timeout_ms * 5, err);
}

void cc_vf_vprobes_free(struct cc_vprobes *p)
{
        cc_strv_free(&p->args);
        cc_v_free(p->drv);
        cc_v_free(p->dnn);
        cc_v_free(p->rt);
        cc_v_free(p->cudart_how);
        free(p->cudart);
        memset(p, 0, sizeof(*p));
}
