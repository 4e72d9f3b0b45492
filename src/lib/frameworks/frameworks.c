/* The frameworks' facts: find the Python interpreters, run the tool's probe
 * script (fwprobe.py, compiled in) with each of them in child processes
 * with a time limit, and gather what each framework says and maps. The
 * verdicts are judge.c's; the command (cudnnctl_frameworks) is
 * commands/frameworks.c.
 *
 * What the children say is read through the view of the script's facts
 * (fwprobe in facts/schema.h) and of a run (probe); the interpreters and
 * frameworks are written with the schema's keys (CC_K). */
#include "frameworks.h"
#include "sites.h"

#include <stdlib.h>
#include <string.h>

#include "../facts/views.h"
#include "../machine/tree.h"
#include "../platform/platform.h"
#include "../probe/probe.h"

extern const char cc_fwprobe_py[];
extern const size_t cc_fwprobe_py_len;

enum { MAX_INTERPRETERS = 16 };

static const char *const framework_names[] = {"torch", "tensorflow", "jax", "onnxruntime", "cupy"};

/* What the probe's environment adds: no bytecode written into the user's
 * site-packages, no hub downloads, no whole-GPU preallocation. */
static const char *const probe_env[] = {
    "PYTHONDONTWRITEBYTECODE=1",      "PYTHONUNBUFFERED=1",
    "PYTHONIOENCODING=utf-8",         "HF_HUB_OFFLINE=1",
    "TRANSFORMERS_OFFLINE=1",         "XLA_PYTHON_CLIENT_PREALLOCATE=false",
    "TF_FORCE_GPU_ALLOW_GROWTH=true", "CUDNNCTL_FWPROBE=1",
};

struct fwctx {
        cc_machine *m;
        const cudnnctl_frameworks_options *o;
        char *dir;       /* the private directory holding the script */
        char *script;    /* its path */
        cc_strv env;     /* the children's env_set */
        cc_progress *pg; /* the children still running after a second, named */
        /* per candidate: why it is not started (no framework in its files), or NULL */
        char **skip;
        size_t nskip;
        /* per candidate: the earlier one it is a twin of (find_twins), or -1 */
        long *twin;
        size_t ntwin;
};

/* ---- candidates ------------------------------------------------------------ */

/* A candidate is an INTERPRETER to be: its path and sources. */

static int is_file(cc_machine *m, const char *p)
{
        cc_stat st;

        return p != NULL && cc_tree_stat(m->tree, p, &st, NULL) == 0 && st.type == CC_FT_FILE;
}

static int add_candidate(cc_value *cands, const char *path, const char *source, cc_error *err)
{
        size_t i;
        cc_value *c;

        for (i = 0; i < cc_v_len(cands); i++) {
                cc_vw_interpreter in;

                c = cc_v_atm(cands, i);
                cc_vw_interpreter_read(c, &in, NULL);
                if (strcmp(in.path, path) == 0) {
                        cc_value *s = cc_v_getm(c, CC_K(interpreter, sources));
                        size_t k;

                        for (k = 0; k < cc_v_len(s); k++)
                                if (strcmp(cc_v_as_str(cc_v_at(s, k)), source) == 0)
                                        return 0;
                        return cc_v_push(s, cc_v_str(source, err), err);
                }
        }
        if (cc_v_len(cands) >= MAX_INTERPRETERS)
                return 0;
        c = cc_v_object(err);
        if (cc_v_push(cands, c, err) < 0 || cc_v_set_str(c, CC_K(interpreter, path), path, err) < 0 ||
            cc_v_set(c, CC_K(interpreter, sources), cc_v_array(err), err) < 0)
                return -1;
        return cc_v_push(cc_v_getm(c, CC_K(interpreter, sources)), cc_v_str(source, err), err);
}

/* The first of PREFIX/rel... that is a file, added as a candidate. */
static int add_first(struct fwctx *x, cc_value *cands, const char *prefix, const char *const *rel, size_t n,
                     const char *source, cc_error *err)
{
        size_t i;

        for (i = 0; i < n; i++) {
                char *p;
                int rc = 0;

                if (rel[i] == NULL)
                        continue;
                p = cc_asprintf(err, "%s%s%s", prefix, x->m->system == CC_SYS_WINDOWS ? "\\" : "/", rel[i]);
                if (p == NULL)
                        return -1;
                if (is_file(x->m, p)) {
                        rc = add_candidate(cands, p, source, err);
                        free(p);
                        return rc;
                }
                free(p);
        }
        return 0;
}

/* An environment's interpreter from its prefix. */
static int add_env(struct fwctx *x, cc_value *cands, const char *prefix, const char *minor, const char *source,
                   cc_error *err)
{
        char ver[32];
        const char *lnx[] = {NULL, "bin/python3", "bin/python"};
        static const char *const win[] = {"python.exe", "Scripts\\python.exe"};

        if (x->m->system == CC_SYS_WINDOWS)
                return add_first(x, cands, prefix, win, 2, source, err);
        if (minor != NULL && strlen(minor) < 16) {
                snprintf(ver, sizeof(ver), "bin/python%s", minor);
                lnx[0] = ver;
        }
        return add_first(x, cands, prefix, lnx, 3, source, err);
}

/* A site-packages root from `list` back to its environment's prefix:
 * PREFIX/lib/pythonX.Y/site-packages, PREFIX/lib/python3/dist-packages,
 * PREFIX\Lib\site-packages. */
static int add_from_site(struct fwctx *x, cc_value *cands, const char *site, const char *why, cc_error *err)
{
        char *prefix = NULL, *src = NULL, minor[16] = "";
        const char *p;
        int rc = 0;

        if (x->m->system == CC_SYS_WINDOWS) {
                size_t n = strlen(site);

                if (n > 18 && cc_strcasecmp(site + n - 18, "\\Lib\\site-packages") == 0)
                        prefix = cc_strndup(err, site, n - 18);
        } else if ((p = strstr(site, "/lib/python")) != NULL) {
                const char *q = p + 11, *slash = strchr(q, '/');

                if (slash != NULL && (size_t)(slash - q) < sizeof(minor) &&
                    (strcmp(slash, "/site-packages") == 0 || strcmp(slash, "/dist-packages") == 0)) {
                        memcpy(minor, q, (size_t)(slash - q));
                        minor[slash - q] = '\0';
                        prefix = cc_strndup(err, site, (size_t)(p - site));
                }
        }
        if (prefix == NULL)
                return 0;
        src = cc_asprintf(err, "the environment of %s (%s)", site, why);
        if (src == NULL) {
                free(prefix);
                return -1;
        }
        rc = add_env(x, cands, prefix[0] ? prefix : "/", minor[0] && strcmp(minor, "3") ? minor : NULL, src, err);
        free(src);
        free(prefix);
        return rc;
}

static cc_value *candidates(struct fwctx *x, const cc_value *list, cc_error *err)
{
        cc_machine *m = x->m;
        cc_value *cands = cc_v_array(err);
        const char *path_value = cc_machine_getenv(m, "PATH");
        const char *venv = cc_machine_getenv(m, "VIRTUAL_ENV"), *conda = cc_machine_getenv(m, "CONDA_PREFIX");
        static const char *const names[] = {"python3", "python"};
        cc_vw_list_doc ld;
        size_t i;

        if (cands == NULL)
                return NULL;
        cc_vw_list_doc_read(list, &ld, NULL);
        if (x->o->npython > 0) {
                for (i = 0; i < x->o->npython; i++) {
                        const char *py = x->o->python[i];
                        char *p = NULL;
                        cc_error e = {0};

                        if (strchr(py, '/') != NULL || strchr(py, '\\') != NULL)
                                p = cc_machine_abs(m, py, err);
                        else if ((p = cc_find_program(py, path_value ? path_value : "", &e)) == NULL)
                                p = cc_strdup(err, py); /* reported as not found when it runs */
                        if (p == NULL || add_candidate(cands, p, "--python", err) < 0) {
                                free(p);
                                goto fail;
                        }
                        free(p);
                }
                return cands;
        }
        if (venv != NULL && venv[0] && add_env(x, cands, venv, NULL, "VIRTUAL_ENV", err) < 0)
                goto fail;
        if (conda != NULL && conda[0] && add_env(x, cands, conda, NULL, "CONDA_PREFIX", err) < 0)
                goto fail;
        for (i = 0; i < CC_ARRAY_LEN(names); i++) {
                cc_error e = {0};
                char *p = cc_find_program(names[i], path_value ? path_value : "", &e);
                char src[32];

                if (p == NULL)
                        continue;
                snprintf(src, sizeof(src), "%s on PATH", names[i]);
                if (add_candidate(cands, p, src, err) < 0) {
                        free(p);
                        goto fail;
                }
                free(p);
        }
        if (m->system != CC_SYS_WINDOWS && is_file(m, "/usr/bin/python3") &&
            add_candidate(cands, "/usr/bin/python3", "the system's python3", err) < 0)
                goto fail;
        for (i = 0; i < cc_v_len(ld.roots); i++) {
                cc_vw_root r;
                const char *site, *why;

                cc_vw_root_at(ld.roots, i, &r, NULL);
                site = r.canonical ? r.canonical : r.path;
                why = cc_v_as_str(cc_v_at(r.sources, 0));
                if (r.walk == NULL || strcmp(r.walk, "site-packages") != 0 || r.state == NULL ||
                    strcmp(r.state, "searched") != 0 || site == NULL)
                        continue;
                if (add_from_site(x, cands, site, why ? why : "list", err) < 0)
                        goto fail;
        }
        return cands;
fail:
        cc_v_free(cands);
        return NULL;
}

/* ---- running the probe -------------------------------------------------- */

static int env_key_in(const char *kv, const char *const *set, size_t n)
{
        size_t i;
        const char *eq = strchr(kv, '=');
        size_t kl = eq ? (size_t)(eq - kv) : strlen(kv);

        for (i = 0; i < n; i++)
                if (strncmp(set[i], kv, kl) == 0 && set[i][kl] == '=')
                        return 1;
        return 0;
}

static int setup(struct fwctx *x, cc_error *err)
{
        size_t i;

        x->dir = cc_make_temp_dir("cudnnctl-fw", err);
        if (x->dir == NULL)
                return -1;
        x->script = cc_path_join(x->dir, "fwprobe.py", err);
        if (x->script == NULL || cc_write_file(x->script, cc_fwprobe_py, cc_fwprobe_py_len, 0, err) < 0)
                return -1;
        for (i = 0; i < x->m->env.kv.n; i++)
                if (!env_key_in(x->m->env.kv.v[i], probe_env, CC_ARRAY_LEN(probe_env)) &&
                    cc_strv_push(&x->env, x->m->env.kv.v[i], err) < 0)
                        return -1;
        for (i = 0; i < CC_ARRAY_LEN(probe_env); i++)
                if (cc_strv_push(&x->env, probe_env[i], err) < 0)
                        return -1;
        return 0;
}

/* One child: PYTHON -B fwprobe.py ARGS... NULL only when out of memory; a
 * child that cannot start gives {"ran": false, "error": why}. */
static cc_value *run(struct fwctx *x, const char *python, const char *const *args, size_t nargs, cc_error *err)
{
        cc_probe_ctl c;
        const char *argv[3];
        cc_error e = {0};
        cc_value *r;

        argv[0] = python;
        argv[1] = "-B";
        argv[2] = x->script;
        memset(&c, 0, sizeof(c));
        c.argv = argv;
        c.nargv = 3;
        c.cwd = x->dir;
        c.timeout_ms = x->o->timeout_ms > 0 ? x->o->timeout_ms : 60000;
        c.env_set = (const char *const *)x->env.v;
        c.nenv_set = x->env.n;
        r = cc_probe_run(&c, args, nargs, &e);
        if (r != NULL)
                return r;
        if (e.code == CC_ERR_NOMEM) {
                *err = e;
                return NULL;
        }
        r = cc_v_object(err);
        if (cc_v_set_bool(r, CC_K(probe, ran), 0, err) < 0 || cc_v_set_str(r, CC_K(probe, error), e.msg, err) < 0) {
                cc_v_free(r);
                return NULL;
        }
        return r;
}

/* How a child went, without its facts (gpu, output_tail): a RUN, the keys
 * of its PROBE copied as they are. */
static cc_value *run_summary(const cc_value *r, cc_error *err)
{
        const char *const keys[] = {CC_K(probe, ran),       CC_K(probe, error),         CC_K(probe, how),
                                    CC_K(probe, exit),      CC_K(probe, signal),        CC_K(probe, crashed),
                                    CC_K(probe, timed_out), CC_K(probe, complete),      CC_K(probe, wall_ms),
                                    CC_K(probe, died_in),   CC_K(probe, printed_bytes), CC_K(probe, protocol_cut),
                                    CC_K(probe, bad_lines)};
        cc_value *s = cc_v_object(err);
        size_t i;

        for (i = 0; s != NULL && i < CC_ARRAY_LEN(keys); i++)
                if (cc_v_get(r, keys[i]) != NULL &&
                    cc_v_set(s, keys[i], cc_v_copy(cc_v_get(r, keys[i]), err), err) < 0) {
                        cc_v_free(s);
                        return NULL;
                }
        return s;
}

/* The child's last words: the last non-empty line of what it printed. */
static char *last_line(const cc_vw_probe *r, cc_error *err)
{
        const char *t = r->output_tail;
        size_t n, end;

        if (t == NULL)
                return NULL;
        n = strlen(t);
        while (n > 0 && (t[n - 1] == '\n' || t[n - 1] == '\r' || t[n - 1] == ' '))
                n--;
        end = n;
        while (n > 0 && t[n - 1] != '\n')
                n--;
        if (end == n)
                return NULL;
        if (end - n > 400)
                end = n + 400;
        return cc_strndup(err, t + n, end - n);
}

/* Why a child gave no usable answer, in one line (NULL if it did). */
static char *failure(const cc_vw_probe *r, const char *what, cc_error *err)
{
        char *last;
        char *s;

        if (!r->ran)
                return cc_asprintf(err, "%s could not be started: %s", what, r->error ? r->error : "(no reason given)");
        last = last_line(r, err);
        s = cc_asprintf(err, "%s: %s%s%s%s", what, r->how ? r->how : "ended", r->died_in ? " in step '" : "",
                        r->died_in ? r->died_in : "", r->died_in ? "'" : "");
        if (s != NULL && last != NULL) {
                char *t = cc_asprintf(err, "%s: %s", s, last);

                free(s);
                s = t;
        }
        free(last);
        return s;
}

/* The distributions of a framework (the first, not shadowed, is the one
 * imported). */
static int dist_of(const char *fw, const char *dist)
{
        char n[128];
        size_t i;

        for (i = 0; dist[i] && i + 1 < sizeof(n); i++)
                n[i] = (char)(dist[i] == '_' || dist[i] == '.' ? '-' : cc_ascii_tolower((unsigned char)dist[i]));
        n[i] = '\0';
        if (strcmp(fw, "torch") == 0)
                return strcmp(n, "torch") == 0;
        if (strcmp(fw, "tensorflow") == 0)
                return cc_starts_with(n, "tensorflow") || cc_starts_with(n, "tf-nightly");
        if (strcmp(fw, "jax") == 0)
                return strcmp(n, "jax") == 0;
        if (strcmp(fw, "onnxruntime") == 0)
                return cc_starts_with(n, "onnxruntime") || cc_starts_with(n, "ort-nightly");
        if (strcmp(fw, "cupy") == 0)
                return cc_starts_with(n, "cupy");
        return 0;
}

/* One framework of an interpreter: its distributions, how its child went
 * (r, its run: freed here) and what it answered, copied as it came. fws:
 * the interpreter's frameworks; dists and found: its distributions and its
 * found ({NAME: entry}). */
static int framework_entry(cc_value *fws, const cc_value *dists, const cc_value *found, const char *name, cc_value *r,
                           cc_error *err)
{
        cc_value *fw = cc_v_object(err), *others;
        cc_vw_fw_found f;
        cc_vw_probe run_;
        cc_vw_fwprobe pf;
        cc_vw_fw_import imp;
        const char *state;
        size_t i;

        if (fw == NULL || cc_v_push(fws, fw, err) < 0) {
                cc_v_free(r);
                return -1;
        }
        TRY(cc_v_set_str(fw, CC_K(framework, name), name, err));
        cc_vw_fw_found_read(cc_v_get(found, name), &f, NULL);
        TRY(cc_v_set_str(fw, CC_K(framework, origin), f.origin, err));
        others = cc_v_array(err);
        TRY(cc_v_set(fw, CC_K(framework, distributions), others, err));
        for (i = 0; i < cc_v_len(dists); i++) {
                cc_vw_distribution d;

                cc_vw_distribution_at(dists, i, &d, NULL);
                if (d.name != NULL && dist_of(name, d.name))
                        TRY(cc_v_push(others, cc_v_copy(d.node_, err), err));
        }
        TRY(cc_v_set(fw, CC_K(framework, probe), run_summary(r, err), err));
        cc_vw_probe_read(r, &run_, NULL);
        cc_vw_fwprobe_read(run_.facts, &pf, NULL);
        cc_vw_fw_import_read(pf.import, &imp, NULL);
        if (pf.import == NULL)
                state = run_.timed_out ? "timed-out" : run_.crashed ? "crashed" : "failed";
        else if (!imp.ok)
                state = "import-failed";
        else if (pf.query_error != NULL)
                state = "query-failed";
        else if (pf.info == NULL)
                state = run_.timed_out ? "timed-out" : run_.crashed ? "crashed" : "failed";
        else
                state = "ok";
        TRY(cc_v_set_str(fw, CC_K(framework, state), state, err));
        if (pf.import != NULL)
                TRY(cc_v_set(fw, CC_K(framework, import), cc_v_copy(pf.import, err), err));
        /* A report cut short (no end marker, probe.h) says why too, even
         * when the framework's answers came before the cut. */
        if (strcmp(state, "ok") != 0 || run_.died_in != NULL || !run_.complete) {
                char *why = NULL;

                if (strcmp(state, "import-failed") == 0)
                        why = cc_asprintf(err, "import %s failed: %s", name, imp.error ? imp.error : "(no error text)");
                else if (strcmp(state, "query-failed") == 0)
                        why =
                            cc_asprintf(err, "asking %s failed: %s", name,
                                        cc_v_as_str(pf.query_error) ? cc_v_as_str(pf.query_error) : "(no error text)");
                else {
                        char what[64];

                        snprintf(what, sizeof(what), "the %s probe", name);
                        why = failure(&run_, what, err);
                }
                if (why == NULL)
                        goto fail;
                TRY(cc_v_set_str(fw, CC_K(framework, error), why, err));
                free(why);
                TRY(cc_v_set_str(fw, CC_K(framework, output_tail), run_.output_tail, err));
        }
        {
                /* the answers, as they came (query_error too) */
                const struct {
                        const char *key;
                        const cc_value *v;
                } answers[] = {
                    {CC_K(framework, info), pf.info},
                    {CC_K(framework, build), pf.build},
                    {CC_K(framework, runtime), pf.runtime},
                    {CC_K(framework, devices), pf.devices},
                    {CC_K(framework, gpu_call), pf.gpu_call},
                    {CC_K(framework, modules), pf.modules},
                    {CC_K(framework, loaded_cudnn), pf.loaded_cudnn},
                    {CC_K(fwprobe, query_error), pf.query_error},
                };

                for (i = 0; i < CC_ARRAY_LEN(answers); i++)
                        if (answers[i].v != NULL)
                                TRY(cc_v_set(fw, answers[i].key, cc_v_copy(answers[i].v, err), err));
        }
        cc_v_free(r);
        return 0;
fail:
        cc_v_free(r);
        return -1;
}

/* The same interpreter reached through another path (python -> python3). */
static long same_as(cc_value *interps, const cc_vw_python *py)
{
        size_t i;

        for (i = 0; i < cc_v_len(interps); i++) {
                cc_vw_interpreter o;
                cc_vw_python op;

                cc_vw_interpreter_at(interps, i, &o, NULL);
                cc_vw_python_read(o.python, &op, NULL);
                if (op.prefix != NULL && op.real_executable != NULL && py->prefix != NULL &&
                    py->real_executable != NULL && strcmp(op.prefix, py->prefix) == 0 &&
                    strcmp(op.real_executable, py->real_executable) == 0)
                        return (long)i;
        }
        return -1;
}

/* cand is the alias of the interpreter at interps[at]: its path and sources
 * go to that one's. */
static int add_alias(cc_value *interps, size_t at, const cc_vw_interpreter *c, cc_error *err)
{
        cc_value *dup = cc_v_atm(interps, at);
        cc_value *al = cc_v_getm(dup, CC_K(interpreter, aliases));
        cc_value *src = cc_v_getm(dup, CC_K(interpreter, sources));
        size_t i;

        if (cc_v_push(al, cc_v_str(c->path, err), err) < 0)
                return -1;
        for (i = 0; i < cc_v_len(c->sources); i++)
                if (cc_v_push(src, cc_v_copy(cc_v_at(c->sources, i), err), err) < 0)
                        return -1;
        return 0;
}

/* Canonical locations for the distributions (judge.c compares directories
 * with what /proc/self/maps shows, which has every link resolved). */
static int canonical_locations(cc_value *dists, cc_error *err)
{
        size_t i;

        for (i = 0; i < cc_v_len(dists); i++) {
                cc_value *d = cc_v_atm(dists, i);
                cc_vw_distribution dv;
                char *real;

                cc_vw_distribution_read(d, &dv, NULL);
                real = dv.location ? cc_realpath(dv.location, NULL) : NULL;
                if (real != NULL && strcmp(real, dv.location) != 0 &&
                    cc_v_set_str(d, CC_K(distribution, real_location), real, err) < 0) {
                        free(real);
                        return -1;
                }
                free(real);
        }
        return 0;
}

/* One candidate (an INTERPRETER's path and sources) from its survey (r,
 * freed here): a new interpreter, whose importable frameworks go to
 * *probe (bits of framework_names) for a child each; or, when it is one
 * already seen under another path, that one's alias. *at: the index of
 * the entry in interps it made or joined. */
static int interpreter(cc_value *interps, const cc_value *cand, cc_value *r, unsigned *probe, size_t *at, cc_error *err)
{
        cc_value *it = NULL, *dists, *fws;
        long dup;
        cc_vw_interpreter c;
        cc_vw_probe run_;
        cc_vw_fwprobe pf; /* python and found: NULL when not objects (no answer) */
        cc_vw_python py;
        size_t i;

        *probe = 0;
        cc_vw_interpreter_read(cand, &c, NULL);
        cc_vw_probe_read(r, &run_, NULL);
        cc_vw_fwprobe_read(run_.facts, &pf, NULL);
        cc_vw_python_read(pf.python, &py, NULL);
        if (pf.python != NULL && (dup = same_as(interps, &py)) >= 0) {
                *at = (size_t)dup;
                TRY(add_alias(interps, (size_t)dup, &c, err));
                cc_v_free(r);
                return 0;
        }
        *at = cc_v_len(interps);
        it = cc_v_object(err);
        if (it == NULL || cc_v_push(interps, it, err) < 0)
                goto fail;
        TRY(cc_v_set_str(it, CC_K(interpreter, path), c.path, err));
        TRY(cc_v_set(it, CC_K(interpreter, sources), cc_v_copy(c.sources, err), err));
        TRY(cc_v_set(it, CC_K(interpreter, aliases), cc_v_array(err), err));
        TRY(cc_v_set(it, CC_K(interpreter, probe), run_summary(r, err), err));
        if (pf.python == NULL) {
                char *why = failure(&run_, "the interpreter", err);

                if (why == NULL)
                        goto fail;
                TRY(cc_v_set_str(it, CC_K(interpreter, state), run_.ran ? "failed" : "not-runnable", err));
                TRY(cc_v_set_str(it, CC_K(interpreter, error), why, err));
                free(why);
                TRY(cc_v_set_str(it, CC_K(interpreter, output_tail), run_.output_tail, err));
                cc_v_free(r);
                return 0;
        }
        TRY(cc_v_set(it, CC_K(interpreter, python), cc_v_copy(pf.python, err), err));
        if (py.unsupported != NULL) {
                TRY(cc_v_set_str(it, CC_K(interpreter, state), "unsupported", err));
                TRY(cc_v_set_str(it, CC_K(interpreter, error), py.unsupported, err));
                cc_v_free(r);
                return 0;
        }
        TRY(cc_v_set_str(it, CC_K(interpreter, state), "probed", err));
        dists = pf.distributions ? cc_v_copy(pf.distributions, err) : cc_v_array(err);
        TRY(cc_v_set(it, CC_K(interpreter, distributions), dists, err));
        TRY(canonical_locations(dists, err));
        TRY(cc_v_set(it, CC_K(interpreter, found), pf.found ? cc_v_copy(pf.found, err) : cc_v_object(err), err));
        fws = cc_v_array(err);
        TRY(cc_v_set(it, CC_K(interpreter, frameworks), fws, err));
        for (i = 0; i < CC_ARRAY_LEN(framework_names); i++) {
                cc_vw_fw_found f;

                cc_vw_fw_found_read(cc_v_get(pf.found, framework_names[i]), &f, NULL);
                if (f.importable)
                        *probe |= 1u << i;
        }
        cc_v_free(r);
        return 0;
fail:
        cc_v_free(r);
        return -1;
}

/* ---- the children, side by side ------------------------------------------- */

/* Every child is a job: the survey of each candidate, then one per
 * framework an interpreter can import. Workers (as many as CPUs, at most
 * MAX_WORKERS; one on Windows, where a child started beside another could
 * inherit the other's pipe ends; CUDNNCTL_JOBS=N sets it) take a framework job first (the longest),
 * else the next survey. With the GPU asked for, framework children run
 * side by side too (each makes a CUDA context and one small call, and the
 * probe's environment turns off JAX's and TensorFlow's preallocation), and
 * the GPU's memory bounds them as it answers: a child that ran beside
 * another and failed for GPU memory is run again alone, and what it says
 * then is its answer. The calling thread reads the results in the
 * candidates' order, so the document does not depend on which child ended
 * first. */
enum { MAX_WORKERS = 8 };

enum { JOB_SURVEY, JOB_FRAMEWORK };

struct job {
        int kind;
        const char *python; /* the candidate's path (cands outlives the pool) */
        int fw;             /* JOB_FRAMEWORK: framework_names[fw] */
        size_t interp;      /* JOB_FRAMEWORK: the interpreter's index in interps */
        int state;          /* 0 waiting, 1 running, 2 done */
        int beside;         /* a framework child ran beside this one (GPU: its memory was shared) */
        int alone;          /* run again alone: it failed for GPU memory beside others */
        cc_value *r;        /* done: its run (NULL: out of memory, e) */
        cc_error e;
};

struct pool {
        struct fwctx *x;
        cc_sync *s;
        struct job *jobs;
        size_t n, cap;
        int no_more;       /* no job will be added */
        int abandon;       /* the waiting jobs are not wanted */
        int fw_running;    /* framework children running */
        int alone_running; /* a framework child that must run alone is running */
};

static int job_add(struct pool *p, int kind, const char *python, int fw, size_t interp, cc_error *err)
{
        struct job *nv;
        int rc = 0;

        cc_sync_lock(p->s);
        if (p->n == p->cap) {
                size_t ncap = p->cap ? p->cap * 2 : 16;

                nv = cc_realloc(err, p->jobs, ncap * sizeof(*nv));
                if (nv == NULL) {
                        rc = -1;
                        goto out;
                }
                p->jobs = nv;
                p->cap = ncap;
        }
        memset(&p->jobs[p->n], 0, sizeof(p->jobs[p->n]));
        p->jobs[p->n].kind = kind;
        p->jobs[p->n].python = python;
        p->jobs[p->n].fw = fw;
        p->jobs[p->n].interp = interp;
        p->n++;
        cc_sync_wake(p->s);
out:
        cc_sync_unlock(p->s);
        return rc;
}

/* The next job a worker may start (called locked), or -1. */
static long job_next(const struct pool *p)
{
        size_t i;
        long survey = -1;

        for (i = 0; i < p->n; i++) {
                if (p->jobs[i].state != 0)
                        continue;
                if (p->jobs[i].kind == JOB_FRAMEWORK) {
                        if (!p->alone_running && (!p->jobs[i].alone || p->fw_running == 0))
                                return (long)i;
                } else if (survey < 0) {
                        survey = (long)i;
                }
        }
        return survey;
}

static void worker(void *arg)
{
        struct pool *p = arg;

        cc_sync_lock(p->s);
        for (;;) {
                long i = p->abandon ? -1 : job_next(p);
                const char *args[3], *python;
                size_t nargs = 1;
                long slot;
                int fw;
                cc_value *r;
                cc_error e = {0};

                if (i < 0) {
                        if (p->no_more || p->abandon)
                                break;
                        cc_sync_wait(p->s);
                        continue;
                }
                p->jobs[i].state = 1;
                fw = p->jobs[i].kind == JOB_FRAMEWORK;
                if (fw && p->fw_running > 0) {
                        size_t k;

                        p->jobs[i].beside = 1;
                        for (k = 0; k < p->n; k++)
                                if (p->jobs[k].state == 1 && p->jobs[k].kind == JOB_FRAMEWORK)
                                        p->jobs[k].beside = 1;
                }
                p->fw_running += fw;
                p->alone_running |= fw && p->jobs[i].alone;
                python = p->jobs[i].python;
                args[0] = "survey";
                if (fw) {
                        args[0] = "framework";
                        args[1] = framework_names[p->jobs[i].fw];
                        nargs = 2;
                        if (p->x->o->gpu != CUDNNCTL_GPU_OFF)
                                args[nargs++] = "--gpu";
                }
                cc_sync_unlock(p->s);
                slot = fw ? cc_progress_begin(p->x->pg, "%s importing %s", python, args[1])
                          : cc_progress_begin(p->x->pg, "%s (the survey of its packages)", python);
                r = run(p->x, python, args, nargs, &e);
                cc_progress_end(p->x->pg, slot);
                cc_sync_lock(p->s);
                p->fw_running -= fw;
                if (fw && p->jobs[i].alone)
                        p->alone_running = 0;
                if (fw && p->x->o->gpu != CUDNNCTL_GPU_OFF && p->jobs[i].beside && !p->jobs[i].alone && r != NULL &&
                    !p->abandon && cc_fw_out_of_gpu_memory(r)) {
                        /* its GPU memory went to the others: again, alone */
                        cc_v_free(r);
                        p->jobs[i].alone = 1;
                        p->jobs[i].state = 0;
                        cc_sync_wake(p->s);
                        continue;
                }
                p->jobs[i].r = r;
                p->jobs[i].e = e;
                p->jobs[i].state = 2;
                cc_sync_wake(p->s);
        }
        cc_sync_wake(p->s);
        cc_sync_unlock(p->s);
}

int cc_fw_out_of_gpu_memory(const cc_value *r)
{
        /* CUDA's, cuDNN's, XLA's and PyTorch's words for it */
        static const char *const words[] = {"out of memory", "out_of_memory", "alloc_failed", "resource_exhausted",
                                            "memoryallocation"};
        cc_vw_probe run_;
        cc_vw_fwprobe pf;
        cc_error e = {0};
        const char *texts[3];
        size_t i, k;

        cc_vw_probe_read(r, &run_, NULL);
        cc_vw_fwprobe_read(run_.facts, &pf, NULL);
        texts[0] = cc_v_get_str(pf.gpu_call, CC_K(gpu_call, error));
        texts[1] = cc_v_as_str(pf.query_error);
        texts[2] = run_.output_tail;
        for (i = 0; i < CC_ARRAY_LEN(texts); i++) {
                char *low;
                size_t j;

                if (texts[i] == NULL)
                        continue;
                low = cc_strdup(&e, texts[i]);
                if (low == NULL)
                        return 0; /* not known: its answer stands */
                for (j = 0; low[j]; j++)
                        low[j] = (char)cc_ascii_tolower((unsigned char)low[j]);
                for (k = 0; k < CC_ARRAY_LEN(words); k++)
                        if (strstr(low, words[k]) != NULL) {
                                free(low);
                                return 1;
                        }
                free(low);
        }
        return 0;
}

/* Wait for job i and take its run; NULL: out of memory (err). */
static cc_value *job_take(struct pool *p, size_t i, cc_error *err)
{
        cc_value *r;

        cc_sync_lock(p->s);
        while (p->jobs[i].state != 2)
                cc_sync_wait(p->s);
        r = p->jobs[i].r;
        p->jobs[i].r = NULL;
        if (r == NULL)
                *err = p->jobs[i].e;
        cc_sync_unlock(p->s);
        return r;
}

/* A candidate not started: its files hold no framework. One whose import
 * directories are the same (a pyenv shim and the version it runs, python
 * and python3 of one prefix) is the first one's alias: the same
 * environment, as far as anything here can tell. */
static int skipped_entry(struct fwctx *x, cc_value *interps, const cc_value *cand, size_t ci, cc_error *err)
{
        cc_vw_interpreter c;
        cc_value *it, *probe;
        size_t i, k;

        cc_vw_interpreter_read(cand, &c, NULL);
        for (k = 0; k < ci; k++) {
                if (x->skip[k] == NULL || strcmp(x->skip[k], x->skip[ci]) != 0)
                        continue;
                for (i = 0; i < cc_v_len(interps); i++) {
                        cc_vw_interpreter o;

                        cc_vw_interpreter_at(interps, i, &o, NULL);
                        if (o.state != NULL && strcmp(o.state, "skipped") == 0 && o.reason != NULL &&
                            strcmp(o.reason, x->skip[ci]) == 0 && o.path != NULL) {
                                cc_value *dup = cc_v_atm(interps, i);
                                cc_value *al = cc_v_getm(dup, CC_K(interpreter, aliases));
                                cc_value *src = cc_v_getm(dup, CC_K(interpreter, sources));
                                size_t j;

                                TRY_RET(cc_v_push(al, cc_v_str(c.path, err), err));
                                for (j = 0; j < cc_v_len(c.sources); j++)
                                        TRY_RET(cc_v_push(src, cc_v_copy(cc_v_at(c.sources, j), err), err));
                                return 0;
                        }
                }
        }
        it = cc_v_object(err);
        probe = cc_v_object(err);
        if (it == NULL || probe == NULL || cc_v_push(interps, it, err) < 0) {
                cc_v_free(it);
                cc_v_free(probe);
                return -1;
        }
        TRY_RET(cc_v_set_bool(probe, CC_K(probe, ran), 0, err));
        TRY_RET(cc_v_set_str(it, CC_K(interpreter, path), c.path, err));
        TRY_RET(cc_v_set(it, CC_K(interpreter, sources), cc_v_copy(c.sources, err), err));
        TRY_RET(cc_v_set(it, CC_K(interpreter, aliases), cc_v_array(err), err));
        TRY_RET(cc_v_set(it, CC_K(interpreter, probe), probe, err));
        TRY_RET(cc_v_set_str(it, CC_K(interpreter, state), "skipped", err));
        TRY_RET(cc_v_set_str(it, CC_K(interpreter, reason), x->skip[ci], err));
        return cc_v_set(it, CC_K(interpreter, frameworks), cc_v_array(err), err);
}

/* For each candidate, the earlier one it is the same file as, in the same
 * directory (python3 and python3.11 of /usr/bin, one a link to the other),
 * or -1: Python finds its prefix from the directory it was started from and
 * the file it resolves to, so its survey would say what that one's says.
 * Only a candidate that is started and no twin itself is taken. Reads the
 * machine's tree: in the calling thread (cc_fw_start). */
static int find_twins(struct fwctx *x, const cc_value *cands, cc_error *err)
{
        size_t i, j, n = cc_v_len(cands);
        char **canon;
        int rc = -1;

        x->twin = cc_calloc(err, n ? n : 1, sizeof(*x->twin));
        canon = cc_calloc(err, n ? n : 1, sizeof(*canon));
        if (x->twin == NULL || canon == NULL)
                goto out;
        x->ntwin = n;
        for (i = 0; i < n; i++) {
                const char *pi = cc_v_get_str(cc_v_at(cands, i), CC_K(interpreter, path));
                cc_error cerr = {0};
                size_t di;

                x->twin[i] = -1;
                if ((i < x->nskip && x->skip[i] != NULL) || pi == NULL)
                        continue;
                canon[i] = cc_tree_canonical(x->m->tree, pi, &cerr);
                if (canon[i] == NULL) {
                        if (cerr.code == CC_ERR_NOMEM) {
                                *err = cerr;
                                goto out;
                        }
                        continue;
                }
                di = (size_t)(cc_basename(pi) - pi);
                for (j = 0; j < i; j++) {
                        const char *pj = cc_v_get_str(cc_v_at(cands, j), CC_K(interpreter, path));

                        if (x->twin[j] < 0 && canon[j] != NULL && strcmp(canon[j], canon[i]) == 0 &&
                            (size_t)(cc_basename(pj) - pj) == di && strncmp(pi, pj, di) == 0) {
                                x->twin[i] = (long)j;
                                break;
                        }
                }
        }
        rc = 0;
out:
        for (i = 0; canon != NULL && i < n; i++)
                free(canon[i]);
        free(canon);
        return rc;
}

static int gather(struct pool *p, const cc_value *cands, cc_value *interps, cc_error *err)
{
        size_t i, k, ncand = cc_v_len(cands);
        long *jobof = cc_calloc(err, ncand ? ncand : 1, sizeof(*jobof)), twin;
        size_t *entry = cc_calloc(err, ncand ? ncand : 1, sizeof(*entry));
        int rc = -1;

        if (jobof == NULL || entry == NULL)
                goto out;
        /* a survey child for each candidate whose files may hold a
         * framework, but one for a candidate and its twins */
        for (i = 0; i < ncand; i++) {
                jobof[i] = -1;
                if ((i < p->x->nskip && p->x->skip[i] != NULL) || (i < p->x->ntwin && p->x->twin[i] >= 0))
                        continue;
                jobof[i] = (long)p->n;
                if (job_add(p, JOB_SURVEY, cc_v_get_str(cc_v_at(cands, i), CC_K(interpreter, path)), 0, 0, err) < 0)
                        goto out;
        }
        for (i = 0; i < ncand; i++) {
                cc_value *r;
                size_t before = cc_v_len(interps);
                unsigned probe = 0;

                twin = i < p->x->ntwin ? p->x->twin[i] : -1;
                if (jobof[i] < 0 && twin < 0) {
                        if (skipped_entry(p->x, interps, cc_v_at(cands, i), i, err) < 0)
                                goto out;
                        continue;
                }
                if (twin >= 0) {
                        cc_vw_interpreter c;

                        /* its twin's answer, when it gave one; else its own survey */
                        entry[i] = entry[twin];
                        cc_vw_interpreter_read(cc_v_at(cands, i), &c, NULL);
                        if (cc_v_get(cc_v_at(interps, entry[i]), CC_K(interpreter, python)) != NULL) {
                                if (add_alias(interps, entry[i], &c, err) < 0)
                                        goto out;
                                continue;
                        }
                        jobof[i] = (long)p->n;
                        if (job_add(p, JOB_SURVEY, c.path, 0, 0, err) < 0)
                                goto out;
                }
                r = job_take(p, (size_t)jobof[i], err);
                if (r == NULL || interpreter(interps, cc_v_at(cands, i), r, &probe, &entry[i], err) < 0)
                        goto out;
                for (k = 0; k < CC_ARRAY_LEN(framework_names); k++)
                        if (probe & (1u << k))
                                if (job_add(p, JOB_FRAMEWORK, p->jobs[jobof[i]].python, (int)k, before, err) < 0)
                                        goto out;
        }
        cc_sync_lock(p->s);
        p->no_more = 1;
        cc_sync_wake(p->s);
        cc_sync_unlock(p->s);
        for (i = 0; i < p->n; i++) {
                cc_value *it, *r;

                if (p->jobs[i].kind != JOB_FRAMEWORK)
                        continue;
                it = cc_v_atm(interps, p->jobs[i].interp);
                r = job_take(p, i, err);
                if (r == NULL ||
                    framework_entry(cc_v_getm(it, CC_K(interpreter, frameworks)),
                                    cc_v_get(it, CC_K(interpreter, distributions)),
                                    cc_v_get(it, CC_K(interpreter, found)), framework_names[p->jobs[i].fw], r, err) < 0)
                        goto out;
        }
        rc = 0;
out:
        free(entry);
        free(jobof);
        return rc;
}

int cc_fw_jobs(const cc_machine *m)
{
        return cc_machine_jobs(m, MAX_WORKERS);
}

/* Which candidates are not started: those whose files surely hold no
 * framework (sites.c; an interpreter given with --python always is). */
static int decide_skips(struct fwctx *x, const cc_value *cands, cc_error *err)
{
        size_t i, n = cc_v_len(cands);

        if (x->o->npython > 0 || n == 0)
                return 0;
        x->skip = cc_calloc(err, n, sizeof(*x->skip));
        if (x->skip == NULL)
                return -1;
        x->nskip = n;
        for (i = 0; i < n; i++) {
                const char *py = cc_v_get_str(cc_v_at(cands, i), CC_K(interpreter, path));
                char *why = NULL;
                int v = py != NULL ? cc_fw_sites_verdict(x->m, py, &why, err) : 1;

                if (v < 0)
                        return -1;
                if (v == 0)
                        x->skip[i] = why;
                else
                        free(why);
        }
        return 0;
}

struct cc_fw_run {
        cudnnctl_frameworks_options o; /* a copy: the caller's may be gone by the end */
        struct fwctx x;
        struct pool p;
        cc_thread *th[MAX_WORKERS];
        int nw;
        cc_thread *coord; /* runs gather() while the caller does other work */
        cc_value *cands, *interps;
        int rc;
        cc_error e;
};

static void coordinate(void *arg)
{
        cc_fw_run *r = arg;

        r->rc = gather(&r->p, r->cands, r->interps, &r->e);
}

cc_fw_run *cc_fw_start(cc_machine *m, const cudnnctl_frameworks_options *o, const cc_value *list, cc_progress *pg,
                       cc_error *err)
{
        cc_fw_run *r = cc_calloc(err, 1, sizeof(*r));
        int want;

        if (r == NULL)
                return NULL;
        r->o = *o;
        r->x.m = m;
        r->x.o = &r->o;
        r->x.pg = pg;
        r->p.x = &r->x;
        r->rc = -1;
        /* everything that reads the machine's tree happens here, in the
         * caller's thread: the tree's caches are not shared across threads */
        if (setup(&r->x, err) < 0)
                goto fail;
        r->cands = candidates(&r->x, list, err);
        r->interps = cc_v_array(err);
        if (r->cands == NULL || r->interps == NULL || cc_sync_new(&r->p.s, err) < 0 ||
            decide_skips(&r->x, r->cands, err) < 0 || find_twins(&r->x, r->cands, err) < 0)
                goto fail;
        want = cc_fw_jobs(m);
        for (r->nw = 0; r->nw < want; r->nw++)
                if (cc_thread_start(worker, &r->p, &r->th[r->nw], err) < 0)
                        break;
        if (r->nw == 0)
                goto fail;
        cc_err_clear(err); /* fewer workers than wanted: still some */
        if (cc_thread_start(coordinate, r, &r->coord, err) < 0)
                goto fail;
        return r;
fail:
        r->rc = -1;
        (void)cc_fw_finish(r, NULL);
        return NULL;
}

cc_value *cc_fw_finish(cc_fw_run *r, cc_error *err)
{
        cc_value *interps = NULL;
        size_t i;

        if (r == NULL)
                return NULL;
        if (r->coord != NULL)
                cc_thread_join(r->coord);
        if (r->rc == 0) {
                interps = r->interps;
                r->interps = NULL;
        } else if (err != NULL) {
                *err = r->e;
        }
        if (r->p.s != NULL) {
                cc_sync_lock(r->p.s);
                r->p.no_more = r->p.abandon = 1;
                cc_sync_wake(r->p.s);
                cc_sync_unlock(r->p.s);
                for (i = 0; i < (size_t)r->nw; i++)
                        cc_thread_join(r->th[i]);
                cc_sync_free(r->p.s);
        }
        for (i = 0; i < r->p.n; i++)
                cc_v_free(r->p.jobs[i].r);
        free(r->p.jobs);
        cc_v_free(r->cands);
        cc_v_free(r->interps);
        if (r->x.dir != NULL) {
                cc_error e = {0};

                (void)cc_remove_tree(r->x.dir, &e);
        }
        free(r->x.dir);
        free(r->x.script);
        cc_strv_free(&r->x.env);
        for (i = 0; i < r->x.nskip; i++)
                free(r->x.skip[i]);
        free(r->x.skip);
        free(r->x.twin);
        free(r);
        return interps;
}

cc_value *cc_fw_gather(cc_machine *m, const cudnnctl_frameworks_options *o, const cc_value *list, cc_error *err)
{
        cc_progress *pg = cc_progress_new(o->progress, o->progress_ctx);
        cc_fw_run *r = cc_fw_start(m, o, list, pg, err);
        cc_value *its = r != NULL ? cc_fw_finish(r, err) : NULL;

        cc_progress_free(pg);
        return its;
}

/* ---- the summary ----------------------------------------------------------- */

int cc_fw_summary(cc_value *doc, cc_error *err)
{
        cc_vw_fw_doc d;
        int64_t probed = 0, fws = 0, fail = 0, warn = 0, note = 0;
        cc_value *s = cc_v_object(err);
        size_t i, k;

        cc_vw_fw_doc_read(doc, &d, NULL);
        for (i = 0; i < cc_v_len(d.interpreters); i++) {
                cc_vw_interpreter it;

                cc_vw_interpreter_at(d.interpreters, i, &it, NULL);
                probed += it.state && strcmp(it.state, "probed") == 0;
                for (k = 0; k < cc_v_len(it.frameworks); k++) {
                        cc_vw_framework fw;
                        const char *v;

                        cc_vw_framework_at(it.frameworks, k, &fw, NULL);
                        v = fw.verdict;
                        fws++;
                        fail += v && strcmp(v, "fail") == 0;
                        warn += v && strcmp(v, "warn") == 0;
                        note += v && strcmp(v, "note") == 0;
                }
        }
        if (cc_v_set_int(s, CC_K(fw_summary, interpreters), (int64_t)cc_v_len(d.interpreters), err) < 0 ||
            cc_v_set_int(s, CC_K(fw_summary, probed), probed, err) < 0 ||
            cc_v_set_int(s, CC_K(fw_summary, frameworks), fws, err) < 0 ||
            cc_v_set_int(s, CC_K(fw_summary, failed), fail, err) < 0 ||
            cc_v_set_int(s, CC_K(fw_summary, warnings), warn, err) < 0 ||
            cc_v_set_int(s, CC_K(fw_summary, notes), note, err) < 0)
                return -1;
        return cc_v_set(doc, CC_K(fw_doc, summary), s, err);
}
