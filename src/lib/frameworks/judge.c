/* The frameworks' verdicts, from facts alone: which copy of cuDNN each
 * framework loads (and the installation it belongs to), whether it fits the
 * build, whether it came from one directory, whether it is the copy the
 * user expects, whether the build has CUDA at all, and how the GPU call
 * went. The doctor runs this again on facts from another machine. */
#include "frameworks.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kb/query.h"

struct jctx {
        const cc_value *list;
        const cc_value *plain; /* which's result for the shim a plain program loads */
        const char *expect;
        int windows;
        cc_error *err;
};

int cc_fw_version_parts(const char *s, int parts[4])
{
        cudnnctl_ver v;
        int i;

        if (s == NULL || cudnnctl_ver_parse(s, &v) < 0 || v.n == 0)
                return 0;
        for (i = 0; i < 4; i++)
                parts[i] = i < v.n ? (int)v.part[i] : 0;
        return v.n;
}

static int sep(int windows, char c)
{
        return c == '/' || (windows && c == '\\');
}

static int path_eq(const char *a, const char *b, int windows)
{
        size_t i, k;

        if (a == NULL || b == NULL)
                return 0;
        for (i = 0; a[i] && b[i]; i++) {
                int x = windows ? cc_ascii_tolower((unsigned char)a[i]) : a[i];
                int y = windows ? cc_ascii_tolower((unsigned char)b[i]) : b[i];

                if (sep(windows, a[i]) && sep(windows, b[i]))
                        continue;
                if (x != y)
                        return 0;
        }
        /* trailing separators: each string's own, from where they stopped agreeing */
        k = i;
        while (a[i] && sep(windows, a[i]))
                i++;
        while (b[k] && sep(windows, b[k]))
                k++;
        return a[i] == '\0' && b[k] == '\0';
}

/* dir lies in or below top. */
static int path_under(const char *dir, const char *top, int windows)
{
        size_t n = strlen(top);
        char *cut;
        int r;

        while (n > 1 && sep(windows, top[n - 1]))
                n--;
        if (strlen(dir) < n)
                return 0;
        if (dir[n] != '\0' && !sep(windows, dir[n]))
                return 0;
        cut = malloc(n + 1);
        if (cut == NULL)
                return 0;
        memcpy(cut, dir, n);
        cut[n] = '\0';
        r = path_eq(cut, top, windows);
        free(cut);
        return r;
}

/* The directory of `list` that dir is (by its path or one of its aliases),
 * and in *inst its installation; NULL if none. */
static const cc_value *list_dir(const struct jctx *j, const char *dir, const cc_value **inst)
{
        const cc_value *insts = cc_v_get(j->list, "installations");
        size_t i, k, a;

        for (i = 0; i < cc_v_len(insts); i++) {
                const cc_value *in = cc_v_at(insts, i), *dirs = cc_v_get(in, "directories");

                for (k = 0; k < cc_v_len(dirs); k++) {
                        const cc_value *d = cc_v_at(dirs, k), *al = cc_v_get(d, "aliases");
                        int hit = path_eq(cc_v_get_str(d, "path"), dir, j->windows);

                        for (a = 0; !hit && a < cc_v_len(al); a++)
                                hit = path_eq(cc_v_as_str(cc_v_at(al, a)), dir, j->windows);
                        if (hit) {
                                if (inst != NULL)
                                        *inst = in;
                                return d;
                        }
                }
        }
        return NULL;
}

/* The installation of `list` that holds directory dir, or NULL. */
static const cc_value *installation_of(const struct jctx *j, const char *dir)
{
        const cc_value *in = NULL;

        return list_dir(j, dir, &in) != NULL ? in : NULL;
}

/* a and b are one directory: the same path, or one directory of the list
 * under two of its names (/lib and /usr/lib on a merged /usr). */
static int same_dir(const struct jctx *j, const char *a, const char *b)
{
        const cc_value *d;

        if (path_eq(a, b, j->windows))
                return 1;
        d = list_dir(j, a, NULL);
        return d != NULL && d == list_dir(j, b, NULL);
}

static const cc_value *installation_by_expect(const struct jctx *j)
{
        const cc_value *insts = cc_v_get(j->list, "installations");
        char *end;
        long id = strtol(j->expect, &end, 10);
        size_t i, k;

        for (i = 0; i < cc_v_len(insts); i++) {
                const cc_value *in = cc_v_at(insts, i), *dirs = cc_v_get(in, "directories");

                if (end != j->expect && *end == '\0' && cc_v_type(cc_v_get(in, "id")) == CUDNNCTL_INT &&
                    cc_v_as_int(cc_v_get(in, "id")) == id)
                        return in;
                if (path_eq(cc_v_get_str(in, "prefix"), j->expect, j->windows))
                        return in;
                for (k = 0; k < cc_v_len(dirs); k++)
                        if (path_eq(cc_v_get_str(cc_v_at(dirs, k), "path"), j->expect, j->windows))
                                return in;
        }
        return NULL;
}

/* ---- the copy it loads ------------------------------------------------------ */

static cc_value *copy_block(const struct jctx *j, const cc_value *fw, cc_error *err)
{
        const cc_value *files = cc_v_path(fw, "modules/files"), *rt = cc_v_get(fw, "runtime");
        const cc_value *loaded = cc_v_get(fw, "loaded_cudnn");
        cc_value *c = cc_v_object(err), *dirs = cc_v_array(err);
        const char *version = NULL, *source = NULL;
        char vb[48];
        size_t i, k;

        if (c == NULL || dirs == NULL || cc_v_set(c, "directories", dirs, err) < 0) {
                cc_v_free(c);
                return NULL;
        }
        for (i = 0; i < cc_v_len(files); i++) {
                const cc_value *f = cc_v_at(files, i);
                const char *path = cc_v_get_str(f, "path"), *fam = cc_v_get_str(f, "family");
                cc_value *d = NULL;
                char *dir;

                if (path == NULL || fam == NULL || strcmp(fam, "cudnn") != 0)
                        continue;
                if ((dir = cc_dirname(path, j->windows, err)) == NULL)
                        goto fail;
                for (k = 0; k < cc_v_len(dirs); k++)
                        if (path_eq(cc_v_get_str(cc_v_at(dirs, k), "path"), dir, j->windows))
                                d = cc_v_atm(dirs, k);
                if (d == NULL) {
                        const cc_value *in = installation_of(j, dir);

                        d = cc_v_object(err);
                        if (cc_v_push(dirs, d, err) < 0 || cc_v_set_str(d, "path", dir, err) < 0 ||
                            cc_v_set(d, "files", cc_v_array(err), err) < 0) {
                                free(dir);
                                goto fail;
                        }
                        if (in != NULL) {
                                if (cc_v_set_int(d, "installation", cc_v_as_int(cc_v_get(in, "id")), err) < 0 ||
                                    cc_v_set_str(d, "prefix", cc_v_get_str(in, "prefix"), err) < 0 ||
                                    cc_v_set_str(d, "version", cc_v_get_str(in, "version"), err) < 0 ||
                                    cc_v_set_str(d, "provenance", cc_v_get_str(cc_v_get(in, "provenance"), "kind"),
                                                 err) < 0) {
                                        free(dir);
                                        goto fail;
                                }
                        } else if (cc_v_set_null(d, "installation", err) < 0) {
                                free(dir);
                                goto fail;
                        }
                }
                free(dir);
                if (cc_v_push(cc_v_getm(d, "files"), cc_v_str(cc_basename(path), err), err) < 0)
                        goto fail;
        }
        /* The version: what the framework says, else what the mapped
         * library answers, else its installation's. */
        if (cc_v_get_str(rt, "cudnn") != NULL) {
                version = cc_v_get_str(rt, "cudnn");
                source = cc_v_get_str(rt, "cudnn_source");
        }
        for (i = 0; version == NULL && i < cc_v_len(loaded); i++) {
                cudnnctl_ver v;
                const cc_value *l = cc_v_at(loaded, i);

                if (cc_v_get(l, "version") != NULL &&
                    cudnnctl_cudnn_decode((long)cc_v_as_int(cc_v_get(l, "version")), &v) == 0) {
                        version = cudnnctl_ver_str(&v, vb, sizeof(vb));
                        source = "cudnnGetVersion() of the mapped library";
                }
        }
        if (version == NULL && cc_v_len(dirs) > 0 && cc_v_get_str(cc_v_at(dirs, 0), "version") != NULL) {
                version = cc_v_get_str(cc_v_at(dirs, 0), "version");
                source = "the installation of the mapped library";
        }
        if (cc_v_set_bool(c, "loaded", cc_v_len(dirs) > 0, err) < 0 || cc_v_set_str(c, "version", version, err) < 0 ||
            cc_v_set_str(c, "version_source", source, err) < 0)
                goto fail;
        if (cc_v_len(dirs) > 0 &&
            (cc_v_set(c, "directory", cc_v_copy(cc_v_get(cc_v_at(dirs, 0), "path"), err), err) < 0 ||
             cc_v_set(c, "installation", cc_v_copy(cc_v_get(cc_v_at(dirs, 0), "installation"), err), err) < 0))
                goto fail;
        return c;
fail:
        cc_v_free(c);
        return NULL;
}

/* ---- verdicts ------------------------------------------------------------------ */

static int verdict(cc_value *arr, const char *id, const char *status, cc_error *err, const char *fmt, ...)
    CC_PRINTF(5, 6);

static int verdict(cc_value *arr, const char *id, const char *status, cc_error *err, const char *fmt, ...)
{
        va_list ap;
        char *s;
        cc_value *v;

        va_start(ap, fmt);
        s = cc_vasprintf(err, fmt, ap);
        va_end(ap);
        if (s == NULL)
                return -1;
        v = cc_v_object(err);
        if (cc_v_push(arr, v, err) < 0 || cc_v_set_str(v, "id", id, err) < 0 ||
            cc_v_set_str(v, "status", status, err) < 0 || cc_v_set_str(v, "summary", s, err) < 0) {
                free(s);
                return -1;
        }
        free(s);
        return 0;
}

static cc_value *last_verdict(cc_value *arr)
{
        return cc_v_atm(arr, cc_v_len(arr) - 1);
}

const char *cc_fw_label(const char *name)
{
        static const char *const map[][2] = {{"torch", "PyTorch"},
                                             {"tensorflow", "TensorFlow"},
                                             {"jax", "JAX"},
                                             {"onnxruntime", "ONNX Runtime"},
                                             {"cupy", "CuPy"}};
        size_t i;

        for (i = 0; name != NULL && i < CC_ARRAY_LEN(map); i++)
                if (strcmp(name, map[i][0]) == 0)
                        return map[i][1];
        return name ? name : "a framework";
}

/* The fix for a build without CUDA. */
static const char *cpu_fix(const char *name, const cc_value *fw, int windows)
{
        const cc_value *d0 = cc_v_at(cc_v_get(fw, "distributions"), 0);
        const char *loc = cc_v_get_str(d0, "location"), *meta = cc_v_get_str(d0, "metadata");
        /* Debian's python3-torch: /usr/lib/python3/dist-packages with an
         * .egg-info (pip writes .dist-info, into /usr/local/lib/pythonX.Y/dist-packages) */
        int distro = loc != NULL && strcmp(loc, "/usr/lib/python3/dist-packages") == 0 &&
                     (meta == NULL || cc_ends_with(meta, ".egg-info"));

        if (strcmp(name, "torch") == 0)
                return distro ? "the distribution's python3-torch is built without CUDA: install PyTorch with CUDA "
                                "from pip into a virtual environment (python3 -m venv ENV; ENV/bin/pip install torch "
                                "--index-url https://download.pytorch.org/whl/cuXYZ, XYZ the CUDA your driver runs)"
                              : "install a CUDA build: pip install torch --index-url "
                                "https://download.pytorch.org/whl/cuXYZ (XYZ the CUDA your driver runs, e.g. cu126); "
                                "a '+cpu' wheel or the default index on Windows is CPU-only";
        if (strcmp(name, "tensorflow") == 0)
                return windows ? "TensorFlow 2.11 and later have no GPU build on native Windows: use WSL2 (pip install "
                                 "tensorflow[and-cuda] there), or TensorFlow 2.10 with CUDA 11.2 and cuDNN 8.1"
                               : "pip install 'tensorflow[and-cuda]' (the CUDA wheels come with it); tensorflow-cpu "
                                 "has no GPU support";
        if (strcmp(name, "jax") == 0)
                return "pip install -U 'jax[cuda12]' (or jax[cuda13]): the CUDA plugin is a separate package";
        if (strcmp(name, "onnxruntime") == 0)
                return "pip uninstall onnxruntime, then pip install onnxruntime-gpu (the two share one package "
                       "directory; only onnxruntime-gpu has the CUDA provider)";
        return "install a CUDA build of the framework";
}

static int cuda_build_verdict(const struct jctx *j, const char *name, cc_value *fw, cc_value *vs, cc_error *err)
{
        const cc_value *b = cc_v_get(fw, "build");
        const cc_value *cb = cc_v_get(b, "cuda_build");
        const char *cuda = cc_v_get_str(b, "cuda");

        if (cb == NULL || cc_v_type(cb) != CUDNNCTL_BOOL)
                return verdict(vs, "cuda-build", "unknown", err, "whether %s was built with CUDA was not read",
                               cc_fw_label(name));
        if (cc_v_as_bool(cb))
                return verdict(vs, "cuda-build", "pass", err, "%s was built with CUDA%s%s", cc_fw_label(name),
                               cuda ? " " : "", cuda ? cuda : "");
        if (verdict(vs, "cuda-build", "fail", err, "%s%s%s is a CPU-only build: it never loads cuDNN",
                    cc_fw_label(name), cc_v_get_str(cc_v_get(fw, "info"), "version") ? " " : "",
                    cc_v_get_str(cc_v_get(fw, "info"), "version") ? cc_v_get_str(cc_v_get(fw, "info"), "version")
                                                                  : "") < 0)
                return -1;
        return cc_v_set_str(last_verdict(vs), "fix", cpu_fix(name, fw, j->windows), err);
}

static int version_rule_verdict(const char *name, cc_value *fw, cc_value *vs, cc_error *err)
{
        const cc_value *b = cc_v_get(fw, "build"), *rt = cc_v_get(fw, "runtime");
        const char *bs = cc_v_get_str(b, "cudnn"), *rs = cc_v_get_str(cc_v_get(fw, "cudnn"), "version");
        const char *rerr = cc_v_get_str(rt, "cudnn_error");
        cudnnctl_ver bv, rv;
        cc_kb_answer a;

        if (rerr != NULL && strstr(rerr, "ncompatib") != NULL)
                return verdict(vs, "version-rule", "fail", err, "%s refuses the cuDNN it loads: %s", cc_fw_label(name),
                               rerr);
        if (cc_v_type(cc_v_get(b, "cuda_build")) == CUDNNCTL_BOOL && !cc_v_as_bool(cc_v_get(b, "cuda_build")))
                return verdict(vs, "version-rule", "unknown", err, "no cuDNN: a CPU-only build");
        if (bs == NULL || rs == NULL)
                return verdict(vs, "version-rule", "unknown", err, "%s%s%s%s%s",
                               bs ? "" : "the build's cuDNN version was not read", !bs && !rs ? "; " : "",
                               rs ? "" : "the loaded cuDNN's version is not known", rs || rerr == NULL ? "" : ": ",
                               rs || rerr == NULL ? "" : rerr);
        if (cudnnctl_ver_parse(bs, &bv) < 0 || cudnnctl_ver_parse(rs, &rv) < 0)
                return verdict(vs, "version-rule", "unknown", err, "cannot compare build %s with run time %s", bs, rs);
        cc_kb_cudnn_satisfies(name, &bv, &rv, &a);
        if (a.verdict == CC_KB_UNKNOWN && strcmp(a.reason, "the build or the run-time cuDNN version is unknown") != 0)
                /* no rule of its own in the tables: the rule the frameworks share */
                cc_kb_cudnn_satisfies("torch", &bv, &rv, &a);
        if (a.verdict == CC_KB_YES && strcmp(name, "torch") == 0 && bv.part[0] < 7 && bv.n >= 2 && rv.n >= 2 &&
            rv.part[1] != bv.part[1])
                return verdict(vs, "version-rule", "fail", err,
                               "cuDNN %s with a build of %s: before cuDNN 7 PyTorch needs the same minor", rs, bs);
        if (a.verdict == CC_KB_YES) {
                cc_kb_answer bad;

                if (cc_kb_cudnn_known_bad_for(&rv, name, &bad) == CC_KB_YES)
                        return verdict(vs, "version-rule", bad.conditional ? "note" : "warn", err,
                                       "build %s, run time %s: fits, but %s", bs, rs, bad.reason);
                return verdict(vs, "version-rule", "pass", err, "build %s, run time %s: %s", bs, rs, a.reason);
        }
        return verdict(vs, "version-rule", a.verdict == CC_KB_NO ? "fail" : "unknown", err, "build %s, run time %s: %s",
                       bs, rs, a.reason);
}

static int one_directory_verdict(cc_value *fw, cc_value *vs, cc_error *err)
{
        const cc_value *dirs = cc_v_get(cc_v_get(fw, "cudnn"), "directories");
        const char *when = cc_v_get_str(cc_v_get(fw, "modules"), "when");
        cc_buf b = {0};
        size_t i;
        int rc;

        if (cc_v_len(dirs) == 0)
                return verdict(vs, "one-directory", "unknown", err, "no cuDNN library is mapped %s",
                               when && strcmp(when, "after-gpu-call") == 0 ? "after the GPU call" : "after import");
        if (cc_v_len(dirs) == 1)
                return verdict(vs, "one-directory", "pass", err, "every cuDNN library comes from %s",
                               cc_v_get_str(cc_v_at(dirs, 0), "path"));
        for (i = 0; i < cc_v_len(dirs); i++) {
                const cc_value *d = cc_v_at(dirs, i);

                if (cc_buf_printf(&b, err, "%s%s (%zu file%s%s%s)", i ? ", " : "", cc_v_get_str(d, "path"),
                                  cc_v_len(cc_v_get(d, "files")), cc_v_len(cc_v_get(d, "files")) == 1 ? "" : "s",
                                  cc_v_get_str(d, "version") ? ", " : "",
                                  cc_v_get_str(d, "version") ? cc_v_get_str(d, "version") : "") < 0) {
                        cc_buf_free(&b);
                        return -1;
                }
        }
        rc = verdict(vs, "one-directory", "fail", err, "cuDNN libraries from %zu directories in one process: %s",
                     cc_v_len(dirs), b.data);
        cc_buf_free(&b);
        return rc;
}

/* "nvidia-cudnn-cu12==9.1.0.70; platform_system == 'Linux'" -> name and pin
 * ("" when the requirement is a range), from one distribution's requires. */
static int requirement_in(const cc_value *req, char *name, size_t nsize, char *pin, size_t psize)
{
        size_t i;

        for (i = 0; i < cc_v_len(req); i++) {
                const char *r = cc_v_as_str(cc_v_at(req, i));
                size_t n = 0, p = 0;
                const char *eq;

                if (r == NULL || !cc_starts_with(r, "nvidia-cudnn"))
                        continue;
                while (r[n] &&
                       (r[n] == '-' || r[n] == '_' || (r[n] >= 'a' && r[n] <= 'z') || (r[n] >= '0' && r[n] <= '9')))
                        n++;
                if (n == 0 || n >= nsize)
                        continue;
                memcpy(name, r, n);
                name[n] = '\0';
                pin[0] = '\0';
                eq = strstr(r, "==");
                if (eq != NULL && (strchr(r, ';') == NULL || eq < strchr(r, ';'))) {
                        eq += 2;
                        while (*eq == ' ')
                                eq++;
                        while (eq[p] && ((eq[p] >= '0' && eq[p] <= '9') || eq[p] == '.') && p + 1 < psize)
                                p++;
                        memcpy(pin, eq, p);
                        pin[p] = '\0';
                }
                return 1;
        }
        return 0;
}

/* The cuDNN wheel a framework requires: its own distribution's, else (JAX)
 * its CUDA plugin's (jax-cuda13-plugin requires nvidia-cudnn-cu13). */
static int cudnn_requirement(const cc_value *interp, const cc_value *fw, char *name, size_t nsize, char *pin,
                             size_t psize)
{
        const cc_value *ds = cc_v_get(interp, "distributions");
        const char *fname = cc_v_get_str(fw, "name");
        size_t i;

        if (requirement_in(cc_v_get(cc_v_at(cc_v_get(fw, "distributions"), 0), "requires"), name, nsize, pin, psize))
                return 1;
        if (fname == NULL || strcmp(fname, "jax") != 0)
                return 0;
        for (i = 0; i < cc_v_len(ds); i++) {
                const cc_value *d = cc_v_at(ds, i);
                const char *n = cc_v_get_str(d, "name");

                if (n == NULL || cc_v_as_bool(cc_v_get(d, "shadowed")) ||
                    !(cc_starts_with(n, "jax-cuda") || cc_starts_with(n, "jax_cuda")) || strstr(n, "plugin") == NULL)
                        continue;
                if (requirement_in(cc_v_get(d, "requires"), name, nsize, pin, psize))
                        return 1;
        }
        return 0;
}

static int dist_name_eq(const char *a, const char *b)
{
        for (; *a && *b; a++, b++) {
                char x = *a == '_' ? '-' : (char)cc_ascii_tolower((unsigned char)*a);
                char y = *b == '_' ? '-' : (char)cc_ascii_tolower((unsigned char)*b);

                if (x != y)
                        return 0;
        }
        return *a == *b;
}

static int expected_verdict(const struct jctx *j, const cc_value *interp, const char *name, cc_value *fw, cc_value *vs,
                            cc_error *err)
{
        const cc_value *cu = cc_v_get(fw, "cudnn"), *dirs = cc_v_get(cu, "directories");
        const char *loaded = cc_v_get_str(cu, "directory"), *lver = cc_v_get_str(cu, "version");
        char req[96], pin[48], *want = NULL, *why = NULL;
        const char *kind = NULL; /* expect, wheel, bundled, plain */
        const char *fwfile = cc_v_get_str(cc_v_get(fw, "info"), "file");
        const cc_value *in, *expected_in = NULL;
        size_t i;
        int rc = -1;

        if (j->expect != NULL) {
                const char *dir = NULL;

                in = installation_by_expect(j);
                if (in == NULL)
                        return verdict(vs, "expected-copy", "unknown", err,
                                       "--expect %s names no installation list found", j->expect);
                for (i = 0; dir == NULL && i < cc_v_len(cc_v_get(in, "directories")); i++)
                        dir = cc_v_get_str(cc_v_at(cc_v_get(in, "directories"), i), "path");
                if (dir == NULL)
                        return verdict(vs, "expected-copy", "unknown", err,
                                       "--expect %s names an installation without a library directory", j->expect);
                want = cc_strdup(err, dir);
                why = cc_asprintf(err, "installation %lld (%s, cuDNN %s), named by --expect",
                                  (long long)cc_v_as_int(cc_v_get(in, "id")),
                                  cc_v_get_str(in, "prefix") ? cc_v_get_str(in, "prefix") : "prefix unknown",
                                  cc_v_get_str(in, "version") ? cc_v_get_str(in, "version") : "unknown");
                kind = "expect";
                expected_in = in;
        } else if (cudnn_requirement(interp, fw, req, sizeof(req), pin, sizeof(pin))) {
                const cc_value *ds = cc_v_get(interp, "distributions");

                for (i = 0; i < cc_v_len(ds) && want == NULL; i++) {
                        const cc_value *d = cc_v_at(ds, i);
                        const char *loc = cc_v_get_str(d, "real_location") ? cc_v_get_str(d, "real_location")
                                                                           : cc_v_get_str(d, "location");

                        if (cc_v_as_bool(cc_v_get(d, "shadowed")) || loc == NULL ||
                            !dist_name_eq(cc_v_get_str(d, "name") ? cc_v_get_str(d, "name") : "", req))
                                continue;
                        want = cc_asprintf(err, j->windows ? "%s\\nvidia\\cudnn\\bin" : "%s/nvidia/cudnn/lib", loc);
                        why = cc_asprintf(err, "the wheel %s requires (%s %s%s%s%s)", cc_fw_label(name), req,
                                          cc_v_get_str(d, "version") ? cc_v_get_str(d, "version") : "",
                                          pin[0] ? ", pinned " : "", pin, "");
                        kind = "wheel";
                        if (pin[0] && cc_v_get_str(d, "version") && strcmp(pin, cc_v_get_str(d, "version")) != 0) {
                                free(want);
                                free(why);
                                return verdict(vs, "expected-copy", "warn", err,
                                               "%s pins %s==%s but %s is installed: pip put another release beside it",
                                               cc_fw_label(name), req, pin, cc_v_get_str(d, "version"));
                        }
                }
                if (want == NULL && kind == NULL) {
                        kind = "wheel-missing";
                }
        }
        if (kind == NULL || strcmp(kind, "wheel-missing") == 0) {
                /* a copy inside the framework's own package (torch/lib) */
                char *pkg = fwfile ? cc_dirname(fwfile, j->windows, err) : NULL;

                for (i = 0; pkg != NULL && i < cc_v_len(dirs) && want == NULL; i++)
                        if (path_under(cc_v_get_str(cc_v_at(dirs, i), "path"), pkg, j->windows)) {
                                want = cc_strdup(err, cc_v_get_str(cc_v_at(dirs, i), "path"));
                                why = cc_asprintf(err, "the copy %s bundles", cc_fw_label(name));
                                kind = "bundled";
                        }
                free(pkg);
        }
        if (want == NULL && j->plain != NULL && cc_v_get_str(j->plain, "path") != NULL) {
                want = cc_dirname(cc_v_get_str(j->plain, "path"), j->windows, err);
                in = want ? installation_of(j, want) : NULL;
                why = cc_asprintf(err, "the copy a plain program loads%s%s%s", in ? " (cuDNN " : "",
                                  in && cc_v_get_str(in, "version") ? cc_v_get_str(in, "version")
                                  : in                              ? "unknown"
                                                                    : "",
                                  in ? ")" : "");
                kind = "plain";
        }
        if (want == NULL || why == NULL) {
                free(want);
                free(why);
                return verdict(vs, "expected-copy", "unknown", err,
                               "no copy to expect: no pinned wheel, no bundled copy, "
                               "and a plain program loads no cuDNN");
        }
        if (loaded == NULL) {
                rc = verdict(vs, "expected-copy", "unknown", err, "%s maps no cuDNN library; expected: %s in %s",
                             cc_fw_label(name), why, want);
        } else if (same_dir(j, loaded, want) || (expected_in != NULL && installation_of(j, loaded) == expected_in)) {
                rc = verdict(vs, "expected-copy", "pass", err, "%s loads %s: %s", cc_fw_label(name), why, loaded);
        } else if (strcmp(kind, "plain") == 0) {
                rc = verdict(vs, "expected-copy", "note", err, "%s loads cuDNN %s from %s; %s is in %s",
                             cc_fw_label(name), lver ? lver : "(version unknown)", loaded, why, want);
        } else {
                rc = verdict(vs, "expected-copy", "warn", err, "%s loads cuDNN %s from %s, not %s in %s",
                             cc_fw_label(name), lver ? lver : "(version unknown)", loaded, why, want);
        }
        if (rc == 0 && (cc_v_set_str(last_verdict(vs), "expected", want, err) < 0 ||
                        cc_v_set_str(last_verdict(vs), "expected_kind", kind, err) < 0))
                rc = -1;
        free(want);
        free(why);
        return rc;
}

static int gpu_verdict(const char *name, cc_value *fw, cc_value *vs, cc_error *err)
{
        const cc_value *c = cc_v_get(fw, "gpu_call");
        const char *died = cc_v_get_str(cc_v_get(fw, "probe"), "died_in"), *what = cc_v_get_str(c, "what");

        if (died != NULL && (strcmp(died, "gpu-call") == 0 || strcmp(died, "create-provider") == 0))
                return verdict(vs, "gpu-call", "fail", err, "the GPU call crashed or hung: %s",
                               cc_v_get_str(cc_v_get(fw, "probe"), "how") ? cc_v_get_str(cc_v_get(fw, "probe"), "how")
                                                                          : "the probe did not say how");
        if (c == NULL)
                return verdict(vs, "gpu-call", "unknown", err,
                               "no GPU call: %s sees no GPU, or GPU work was not asked for", cc_fw_label(name));
        if (cc_v_as_bool(cc_v_get(c, "ok")))
                return verdict(vs, "gpu-call", "pass", err, "%s: done", what ? what : "the GPU call");
        return verdict(vs, "gpu-call", "fail", err, "%s: %s", what ? what : "the GPU call",
                       cc_v_get_str(c, "error") ? cc_v_get_str(c, "error") : "failed");
}

static const char *worst(const cc_value *vs)
{
        static const char *const order[] = {"fail", "warn", "note", "unknown", "pass"};
        size_t i, k;

        for (k = 0; k < CC_ARRAY_LEN(order); k++)
                for (i = 0; i < cc_v_len(vs); i++)
                        if (strcmp(cc_v_get_str(cc_v_at(vs, i), "status"), order[k]) == 0)
                                return order[k];
        return "unknown";
}

static int judge_one(const struct jctx *j, const cc_value *interp, cc_value *fw, cc_error *err)
{
        const char *name = cc_v_get_str(fw, "name"), *state = cc_v_get_str(fw, "state");
        cc_value *vs;

        if (cc_v_type(fw) != CUDNNCTL_OBJECT)
                return 0; /* facts from elsewhere, not a framework */
        vs = cc_v_array(err);
        if (vs == NULL || cc_v_set(fw, "verdicts", vs, err) < 0)
                return -1;
        if (name == NULL) {
                TRY(verdict(vs, "probe", "fail", err, "the facts name no framework"));
                return cc_v_set_str(fw, "verdict", "fail", err);
        }
        TRY(cc_v_set(fw, "cudnn", copy_block(j, fw, err), err));
        if (state == NULL || strcmp(state, "ok") != 0) {
                TRY(verdict(vs, "probe", "fail", err, "%s",
                            cc_v_get_str(fw, "error") ? cc_v_get_str(fw, "error") : "the probe gave no answer"));
                if (cc_v_len(cc_v_get(cc_v_get(fw, "cudnn"), "directories")) > 1)
                        TRY(one_directory_verdict(fw, vs, err));
                return cc_v_set_str(fw, "verdict", "fail", err);
        }
        TRY(cuda_build_verdict(j, name, fw, vs, err));
        TRY(version_rule_verdict(name, fw, vs, err));
        TRY(one_directory_verdict(fw, vs, err));
        TRY(expected_verdict(j, interp, name, fw, vs, err));
        TRY(gpu_verdict(name, fw, vs, err));
        return cc_v_set_str(fw, "verdict", worst(vs), err);
fail:
        return -1;
}

int cc_fw_judge(cc_value *interpreters, const cc_value *list, const cc_value *plain, const char *expect, int windows,
                cc_error *err)
{
        struct jctx j;
        size_t i, k;

        j.list = list;
        j.plain = plain;
        j.expect = expect;
        j.windows = windows;
        j.err = err;
        for (i = 0; i < cc_v_len(interpreters); i++) {
                cc_value *it = cc_v_atm(interpreters, i), *fws = cc_v_getm(it, "frameworks");

                for (k = 0; k < cc_v_len(fws); k++)
                        if (judge_one(&j, it, cc_v_atm(fws, k), err) < 0)
                                return -1;
        }
        return 0;
}
