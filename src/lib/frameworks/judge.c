/* The frameworks' verdicts, from facts alone: which copy of cuDNN each
 * framework loads (and the installation it belongs to), whether it fits the
 * build, whether it came from one directory, whether it is the copy the
 * user expects, whether the build has CUDA at all, and how the GPU call
 * went. The doctor runs this again on facts from another machine.
 *
 * The facts are read through their views (facts/views.h); what the judge
 * writes (a framework's "cudnn", "verdicts" and "verdict") is written with
 * the schema's keys, and read back through the same views. */
#include "frameworks.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../facts/views.h"
#include "../kb/query.h"

struct jctx {
        const cc_value *installations; /* the list document's */
        cc_vw_resolution plain;        /* which's result for the shim a plain program loads (empty: none) */
        const char *expect;
        int windows;
        cc_error *err;
};

/* A framework's facts, read through their views. */
struct fwv {
        cc_vw_framework fw;
        cc_vw_fw_info info;
        cc_vw_fw_build build;
        cc_vw_fw_runtime runtime;
        cc_vw_fw_cudnn cudnn; /* the copy it loads (once the judge wrote it) */
};

static void read_fw(const cc_value *fw, struct fwv *x)
{
        cc_vw_framework_read(fw, &x->fw, NULL);
        cc_vw_fw_info_read(x->fw.info, &x->info, NULL);
        cc_vw_fw_build_read(x->fw.build, &x->build, NULL);
        cc_vw_fw_runtime_read(x->fw.runtime, &x->runtime, NULL);
        cc_vw_fw_cudnn_read(x->fw.cudnn, &x->cudnn, NULL);
}

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
        size_t i, k, a;

        for (i = 0; i < cc_v_len(j->installations); i++) {
                cc_vw_installation in;

                cc_vw_installation_at(j->installations, i, &in, NULL);
                for (k = 0; k < cc_v_len(in.directories); k++) {
                        cc_vw_inst_dir d;
                        int hit;

                        cc_vw_inst_dir_at(in.directories, k, &d, NULL);
                        hit = path_eq(d.path, dir, j->windows);
                        for (a = 0; !hit && a < cc_v_len(d.aliases); a++)
                                hit = path_eq(cc_v_as_str(cc_v_at(d.aliases, a)), dir, j->windows);
                        if (hit) {
                                if (inst != NULL)
                                        *inst = in.node_;
                                return d.node_;
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

/* The installation --expect names (its id, prefix or a directory) into *in;
 * 0, or -1 when none. */
static int installation_by_expect(const struct jctx *j, cc_vw_installation *in)
{
        char *end;
        long id = strtol(j->expect, &end, 10);
        size_t i, k;

        for (i = 0; i < cc_v_len(j->installations); i++) {
                cc_vw_installation_at(j->installations, i, in, NULL);
                if (end != j->expect && *end == '\0' && CC_VW_HAS(in, installation, id) && in->id == id)
                        return 0;
                if (path_eq(in->prefix, j->expect, j->windows))
                        return 0;
                for (k = 0; k < cc_v_len(in->directories); k++) {
                        cc_vw_inst_dir d;

                        cc_vw_inst_dir_at(in->directories, k, &d, NULL);
                        if (path_eq(d.path, j->expect, j->windows))
                                return 0;
                }
        }
        memset(in, 0, sizeof(*in));
        return -1;
}

/* ---- the copy it loads ------------------------------------------------------ */

/* A new entry of the copy's directories: dir, and the installation of the
 * list that holds it (null when none). */
static cc_value *new_dir(const struct jctx *j, cc_value *dirs, const char *dir, cc_error *err)
{
        const cc_value *node = installation_of(j, dir);
        cc_value *d = cc_v_object(err);

        if (cc_v_push(dirs, d, err) < 0 || cc_v_set_str(d, CC_K(fw_cudnn_dir, path), dir, err) < 0 ||
            cc_v_set(d, CC_K(fw_cudnn_dir, files), cc_v_array(err), err) < 0)
                return NULL;
        if (node != NULL) {
                cc_vw_installation in;
                cc_vw_provenance pv;

                cc_vw_installation_read(node, &in, NULL);
                cc_vw_provenance_read(in.provenance, &pv, NULL);
                if (cc_v_set_int(d, CC_K(fw_cudnn_dir, installation), in.id, err) < 0 ||
                    cc_v_set_str(d, CC_K(fw_cudnn_dir, prefix), in.prefix, err) < 0 ||
                    cc_v_set_str(d, CC_K(fw_cudnn_dir, version), in.version, err) < 0 ||
                    cc_v_set_str(d, CC_K(fw_cudnn_dir, provenance), pv.kind, err) < 0)
                        return NULL;
        } else if (cc_v_set_null(d, CC_K(fw_cudnn_dir, installation), err) < 0) {
                return NULL;
        }
        return d;
}

static cc_value *copy_block(const struct jctx *j, const struct fwv *x, cc_error *err)
{
        cc_vw_fw_modules mods;
        cc_vw_fw_cudnn_dir d0;
        const cc_value *loaded = x->fw.loaded_cudnn;
        cc_value *c = cc_v_object(err), *dirs = cc_v_array(err);
        const char *version = NULL, *source = NULL;
        char vb[48];
        size_t i, k;

        if (c == NULL || dirs == NULL || cc_v_set(c, CC_K(fw_cudnn, directories), dirs, err) < 0) {
                cc_v_free(c);
                return NULL;
        }
        cc_vw_fw_modules_read(x->fw.modules, &mods, NULL);
        for (i = 0; i < cc_v_len(mods.files); i++) {
                cc_vw_fw_module f;
                cc_value *d = NULL;
                char *dir;

                cc_vw_fw_module_at(mods.files, i, &f, NULL);
                if (f.path == NULL || f.family == NULL || strcmp(f.family, "cudnn") != 0)
                        continue;
                if ((dir = cc_dirname(f.path, j->windows, err)) == NULL)
                        goto fail;
                for (k = 0; k < cc_v_len(dirs); k++) {
                        cc_vw_fw_cudnn_dir seen;

                        cc_vw_fw_cudnn_dir_at(dirs, k, &seen, NULL);
                        if (path_eq(seen.path, dir, j->windows))
                                d = cc_v_atm(dirs, k);
                }
                if (d == NULL && (d = new_dir(j, dirs, dir, err)) == NULL) {
                        free(dir);
                        goto fail;
                }
                free(dir);
                /* the entry is the judge's own: its files array, to add to */
                if (cc_v_push(cc_v_getm(d, CC_K(fw_cudnn_dir, files)), cc_v_str(cc_basename(f.path), err), err) < 0)
                        goto fail;
        }
        /* The version: what the framework says, else what the mapped
         * library answers, else its installation's. */
        if (x->runtime.cudnn != NULL) {
                version = x->runtime.cudnn;
                source = x->runtime.cudnn_source;
        }
        for (i = 0; version == NULL && i < cc_v_len(loaded); i++) {
                cudnnctl_ver v;
                cc_vw_loaded_cudnn l;

                cc_vw_loaded_cudnn_at(loaded, i, &l, NULL);
                if (CC_VW_HAS(&l, loaded_cudnn, version) && cudnnctl_cudnn_decode((long)l.version, &v) == 0) {
                        version = cudnnctl_ver_str(&v, vb, sizeof(vb));
                        source = "cudnnGetVersion() of the mapped library";
                }
        }
        cc_vw_fw_cudnn_dir_at(dirs, 0, &d0, NULL);
        if (version == NULL && d0.version != NULL) {
                version = d0.version;
                source = "the installation of the mapped library";
        }
        if (cc_v_set_bool(c, CC_K(fw_cudnn, loaded), cc_v_len(dirs) > 0, err) < 0 ||
            cc_v_set_str(c, CC_K(fw_cudnn, version), version, err) < 0 ||
            cc_v_set_str(c, CC_K(fw_cudnn, version_source), source, err) < 0)
                goto fail;
        if (d0.node_ != NULL &&
            (cc_v_set_str(c, CC_K(fw_cudnn, directory), d0.path, err) < 0 ||
             cc_v_set(c, CC_K(fw_cudnn, installation),
                      CC_VW_HAS(&d0, fw_cudnn_dir, installation) ? cc_v_int(d0.installation, err) : cc_v_null(err),
                      err) < 0))
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
        if (cc_v_push(arr, v, err) < 0 || cc_v_set_str(v, CC_K(verdict, id), id, err) < 0 ||
            cc_v_set_str(v, CC_K(verdict, status), status, err) < 0 ||
            cc_v_set_str(v, CC_K(verdict, summary), s, err) < 0) {
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
static const char *cpu_fix(const char *name, const struct fwv *x, int windows)
{
        cc_vw_distribution d0;
        const char *loc, *meta;
        int distro;

        cc_vw_distribution_at(x->fw.distributions, 0, &d0, NULL);
        loc = d0.location;
        meta = d0.metadata;
        /* Debian's python3-torch: /usr/lib/python3/dist-packages with an
         * .egg-info (pip writes .dist-info, into /usr/local/lib/pythonX.Y/dist-packages) */
        distro = loc != NULL && strcmp(loc, "/usr/lib/python3/dist-packages") == 0 &&
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

static int cuda_build_verdict(const struct jctx *j, const char *name, const struct fwv *x, cc_value *vs, cc_error *err)
{
        const char *cuda = x->build.cuda, *version = x->info.version;

        if (!CC_VW_HAS(&x->build, fw_build, cuda_build))
                return verdict(vs, "cuda-build", "unknown", err, "whether %s was built with CUDA was not read",
                               cc_fw_label(name));
        if (x->build.cuda_build)
                return verdict(vs, "cuda-build", "pass", err, "%s was built with CUDA%s%s", cc_fw_label(name),
                               cuda ? " " : "", cuda ? cuda : "");
        if (verdict(vs, "cuda-build", "fail", err, "%s%s%s is a CPU-only build: it never loads cuDNN",
                    cc_fw_label(name), version ? " " : "", version ? version : "") < 0)
                return -1;
        return cc_v_set_str(last_verdict(vs), CC_K(verdict, fix), cpu_fix(name, x, j->windows), err);
}

static int version_rule_verdict(const char *name, const struct fwv *x, cc_value *vs, cc_error *err)
{
        const char *bs = x->build.cudnn, *rs = x->cudnn.version;
        const char *rerr = x->runtime.cudnn_error;
        cudnnctl_ver bv, rv;
        cc_kb_answer a;

        if (rerr != NULL && strstr(rerr, "ncompatib") != NULL)
                return verdict(vs, "version-rule", "fail", err, "%s refuses the cuDNN it loads: %s", cc_fw_label(name),
                               rerr);
        if (CC_VW_HAS(&x->build, fw_build, cuda_build) && !x->build.cuda_build)
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

static int one_directory_verdict(const struct fwv *x, cc_value *vs, cc_error *err)
{
        const cc_value *dirs = x->cudnn.directories;
        cc_vw_fw_modules mods;
        cc_vw_fw_cudnn_dir d;
        cc_buf b = {0};
        size_t i;
        int rc;

        cc_vw_fw_modules_read(x->fw.modules, &mods, NULL);
        if (cc_v_len(dirs) == 0)
                return verdict(vs, "one-directory", "unknown", err, "no cuDNN library is mapped %s",
                               mods.when && strcmp(mods.when, "after-gpu-call") == 0 ? "after the GPU call"
                                                                                     : "after import");
        if (cc_v_len(dirs) == 1) {
                cc_vw_fw_cudnn_dir_at(dirs, 0, &d, NULL);
                return verdict(vs, "one-directory", "pass", err, "every cuDNN library comes from %s", d.path);
        }
        for (i = 0; i < cc_v_len(dirs); i++) {
                cc_vw_fw_cudnn_dir_at(dirs, i, &d, NULL);
                if (cc_buf_printf(&b, err, "%s%s (%zu file%s%s%s)", i ? ", " : "", d.path, cc_v_len(d.files),
                                  cc_v_len(d.files) == 1 ? "" : "s", d.version ? ", " : "",
                                  d.version ? d.version : "") < 0) {
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
static int cudnn_requirement(const cc_vw_interpreter *interp, const struct fwv *x, char *name, size_t nsize, char *pin,
                             size_t psize)
{
        const char *fname = x->fw.name;
        cc_vw_distribution d;
        size_t i;

        cc_vw_distribution_at(x->fw.distributions, 0, &d, NULL);
        if (requirement_in(d.requires, name, nsize, pin, psize))
                return 1;
        if (fname == NULL || strcmp(fname, "jax") != 0)
                return 0;
        for (i = 0; i < cc_v_len(interp->distributions); i++) {
                const char *n;

                cc_vw_distribution_at(interp->distributions, i, &d, NULL);
                n = d.name;
                if (n == NULL || d.shadowed || !(cc_starts_with(n, "jax-cuda") || cc_starts_with(n, "jax_cuda")) ||
                    strstr(n, "plugin") == NULL)
                        continue;
                if (requirement_in(d.requires, name, nsize, pin, psize))
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

static int expected_verdict(const struct jctx *j, const cc_vw_interpreter *interp, const char *name,
                            const struct fwv *x, cc_value *vs, cc_error *err)
{
        const cc_value *dirs = x->cudnn.directories;
        const char *loaded = x->cudnn.directory, *lver = x->cudnn.version;
        char req[96], pin[48], *want = NULL, *why = NULL;
        const char *kind = NULL; /* expect, wheel, bundled, plain */
        const char *fwfile = x->info.file;
        const cc_value *expected_in = NULL;
        size_t i;
        int rc = -1;

        if (j->expect != NULL) {
                cc_vw_installation in;
                const char *dir = NULL;

                if (installation_by_expect(j, &in) < 0)
                        return verdict(vs, "expected-copy", "unknown", err,
                                       "--expect %s names no installation list found", j->expect);
                for (i = 0; dir == NULL && i < cc_v_len(in.directories); i++) {
                        cc_vw_inst_dir d;

                        cc_vw_inst_dir_at(in.directories, i, &d, NULL);
                        dir = d.path;
                }
                if (dir == NULL)
                        return verdict(vs, "expected-copy", "unknown", err,
                                       "--expect %s names an installation without a library directory", j->expect);
                want = cc_strdup(err, dir);
                why = cc_asprintf(err, "installation %lld (%s, cuDNN %s), named by --expect", (long long)in.id,
                                  in.prefix ? in.prefix : "prefix unknown", in.version ? in.version : "unknown");
                kind = "expect";
                expected_in = in.node_;
        } else if (cudnn_requirement(interp, x, req, sizeof(req), pin, sizeof(pin))) {
                for (i = 0; i < cc_v_len(interp->distributions) && want == NULL; i++) {
                        cc_vw_distribution d;
                        const char *loc;

                        cc_vw_distribution_at(interp->distributions, i, &d, NULL);
                        loc = d.real_location ? d.real_location : d.location;
                        if (d.shadowed || loc == NULL || !dist_name_eq(d.name ? d.name : "", req))
                                continue;
                        want = cc_asprintf(err, j->windows ? "%s\\nvidia\\cudnn\\bin" : "%s/nvidia/cudnn/lib", loc);
                        why = cc_asprintf(err, "the wheel %s requires (%s %s%s%s%s)", cc_fw_label(name), req,
                                          d.version ? d.version : "", pin[0] ? ", pinned " : "", pin, "");
                        kind = "wheel";
                        if (pin[0] && d.version && strcmp(pin, d.version) != 0) {
                                free(want);
                                free(why);
                                return verdict(vs, "expected-copy", "warn", err,
                                               "%s pins %s==%s but %s is installed: pip put another release beside it",
                                               cc_fw_label(name), req, pin, d.version);
                        }
                }
                if (want == NULL && kind == NULL) {
                        kind = "wheel-missing";
                }
        }
        if (kind == NULL || strcmp(kind, "wheel-missing") == 0) {
                /* a copy inside the framework's own package (torch/lib) */
                char *pkg = fwfile ? cc_dirname(fwfile, j->windows, err) : NULL;

                for (i = 0; pkg != NULL && i < cc_v_len(dirs) && want == NULL; i++) {
                        cc_vw_fw_cudnn_dir d;

                        cc_vw_fw_cudnn_dir_at(dirs, i, &d, NULL);
                        if (path_under(d.path, pkg, j->windows)) {
                                want = cc_strdup(err, d.path);
                                why = cc_asprintf(err, "the copy %s bundles", cc_fw_label(name));
                                kind = "bundled";
                        }
                }
                free(pkg);
        }
        if (want == NULL && j->plain.path != NULL) {
                cc_vw_installation in;

                want = cc_dirname(j->plain.path, j->windows, err);
                cc_vw_installation_read(want ? installation_of(j, want) : NULL, &in, NULL);
                why = cc_asprintf(err, "the copy a plain program loads%s%s%s", in.node_ ? " (cuDNN " : "",
                                  in.node_ && in.version ? in.version
                                  : in.node_             ? "unknown"
                                                         : "",
                                  in.node_ ? ")" : "");
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
        if (rc == 0 && (cc_v_set_str(last_verdict(vs), CC_K(verdict, expected), want, err) < 0 ||
                        cc_v_set_str(last_verdict(vs), CC_K(verdict, expected_kind), kind, err) < 0))
                rc = -1;
        free(want);
        free(why);
        return rc;
}

static int gpu_verdict(const char *name, const struct fwv *x, cc_value *vs, cc_error *err)
{
        cc_vw_gpu_call c;
        cc_vw_probe pr;
        const char *died, *what;

        cc_vw_gpu_call_read(x->fw.gpu_call, &c, NULL);
        cc_vw_probe_read(x->fw.probe, &pr, NULL);
        died = pr.died_in;
        what = c.what;
        if (died != NULL && (strcmp(died, "gpu-call") == 0 || strcmp(died, "create-provider") == 0))
                return verdict(vs, "gpu-call", "fail", err, "the GPU call crashed or hung: %s",
                               pr.how ? pr.how : "the probe did not say how");
        if (c.node_ == NULL)
                return verdict(vs, "gpu-call", "unknown", err,
                               "no GPU call: %s sees no GPU, or GPU work was not asked for", cc_fw_label(name));
        if (c.ok)
                return verdict(vs, "gpu-call", "pass", err, "%s: done", what ? what : "the GPU call");
        return verdict(vs, "gpu-call", "fail", err, "%s: %s", what ? what : "the GPU call",
                       c.error ? c.error : "failed");
}

static const char *worst(const cc_value *vs)
{
        static const char *const order[] = {"fail", "warn", "note", "unknown", "pass"};
        size_t i, k;

        for (k = 0; k < CC_ARRAY_LEN(order); k++)
                for (i = 0; i < cc_v_len(vs); i++) {
                        cc_vw_verdict v;

                        cc_vw_verdict_at(vs, i, &v, NULL);
                        if (v.status != NULL && strcmp(v.status, order[k]) == 0)
                                return order[k];
                }
        return "unknown";
}

static int judge_one(const struct jctx *j, const cc_vw_interpreter *interp, cc_value *fw, cc_error *err)
{
        struct fwv x;
        const char *name;
        cc_value *vs;

        if (cc_v_type(fw) != CUDNNCTL_OBJECT)
                return 0; /* facts from elsewhere, not a framework */
        vs = cc_v_array(err);
        if (vs == NULL || cc_v_set(fw, CC_K(framework, verdicts), vs, err) < 0)
                return -1;
        read_fw(fw, &x);
        name = x.fw.name;
        if (name == NULL) {
                TRY(verdict(vs, "probe", "fail", err, "the facts name no framework"));
                return cc_v_set_str(fw, CC_K(framework, verdict), "fail", err);
        }
        TRY(cc_v_set(fw, CC_K(framework, cudnn), copy_block(j, &x, err), err));
        /* the copy it loads, as just written (the old one is gone) */
        read_fw(fw, &x);
        if (x.fw.state == NULL || strcmp(x.fw.state, "ok") != 0) {
                TRY(verdict(vs, "probe", "fail", err, "%s", x.fw.error ? x.fw.error : "the probe gave no answer"));
                if (cc_v_len(x.cudnn.directories) > 1)
                        TRY(one_directory_verdict(&x, vs, err));
                return cc_v_set_str(fw, CC_K(framework, verdict), "fail", err);
        }
        TRY(cuda_build_verdict(j, name, &x, vs, err));
        TRY(version_rule_verdict(name, &x, vs, err));
        TRY(one_directory_verdict(&x, vs, err));
        TRY(expected_verdict(j, interp, name, &x, vs, err));
        TRY(gpu_verdict(name, &x, vs, err));
        return cc_v_set_str(fw, CC_K(framework, verdict), worst(vs), err);
fail:
        return -1;
}

int cc_fw_judge(cc_value *interpreters, const cc_value *list, const cc_value *plain, const char *expect, int windows,
                cc_error *err)
{
        struct jctx j;
        cc_vw_list_doc ld;
        size_t i, k;

        cc_vw_list_doc_read(list, &ld, NULL);
        j.installations = ld.installations;
        cc_vw_resolution_read(plain, &j.plain, NULL);
        j.expect = expect;
        j.windows = windows;
        j.err = err;
        for (i = 0; i < cc_v_len(interpreters); i++) {
                cc_value *it = cc_v_atm(interpreters, i);
                /* the interpreter's frameworks: the objects the verdicts are written into */
                cc_value *fws = cc_v_getm(it, CC_K(interpreter, frameworks));
                cc_vw_interpreter iv;

                cc_vw_interpreter_read(it, &iv, NULL);
                for (k = 0; k < cc_v_len(fws); k++)
                        if (judge_one(&j, &iv, cc_v_atm(fws, k), err) < 0)
                                return -1;
        }
        return 0;
}
