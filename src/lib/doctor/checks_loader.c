/* Checks on what the loader finds (the which and deps facts): cuDNN not on
 * the search path, sub-libraries or their dependencies that cannot be
 * loaded, NVRTC and cuBLASLt of the right CUDA major, a mixed set in one
 * process, renamed files, conda against system order, WSL's libcuda. */
#include "doctor.h"

#include <stdlib.h>
#include <string.h>

#define TRY(x)                                                                                                         \
        do {                                                                                                           \
                if ((x) < 0)                                                                                           \
                        return -1;                                                                                     \
        } while (0)

/* The directory of the installation's shim. */
static const char *lib_dir_of(const cc_value *inst)
{
        const cc_value *dirs = cc_v_get(inst, "directories");
        size_t i;

        for (i = 0; i < cc_v_len(dirs); i++) {
                const char *ip = cc_v_get_str(cc_v_at(dirs, i), "in_prefix");

                if (ip != NULL && strstr(ip, "include") == NULL)
                        return cc_v_get_str(cc_v_at(dirs, i), "path");
        }
        return cc_v_len(dirs) ? cc_v_get_str(cc_v_at(dirs, 0), "path") : NULL;
}

static int all_wheels(const cc_value *insts)
{
        size_t i;

        for (i = 0; i < cc_v_len(insts); i++) {
                const char *k = cc_v_get_str(cc_v_get(cc_v_at(insts, i), "provenance"), "kind");

                if (k == NULL || strcmp(k, "pip-wheel") != 0)
                        return 0;
        }
        return cc_v_len(insts) > 0;
}

static int not_on_path(struct cc_dctx *d)
{
        const cc_value *insts = cc_v_get(d->list, "installations");
        const cc_value *first;
        const char *dir;
        cc_value *f;
        char *fix;
        int wheels;

        if (cc_v_len(insts) == 0 || cc_dx_plain_cudnn(d) != NULL || d->which == NULL)
                return 0;
        if (d->windows)
                return 0; /* the Windows checks name the cause (installer subfolder, PATH, Python) */
        first = cc_v_at(insts, 0);
        dir = lib_dir_of(first);
        wheels = all_wheels(insts);
        if (wheels)
                f = cc_finding(d, "pip-cudnn-not-on-path", "info", "loader",
                               "cuDNN is here only as a pip wheel (%s): frameworks that preload it (PyTorch) work, "
                               "but a plain program or ONNX Runtime finds no libcudnn",
                               cc_v_get_str(first, "prefix"));
        else
                f = cc_finding(d, "linux-libcudnn-not-found", "warning", "loader",
                               "a plain program finds no libcudnn.so.N although %zu installation(s) exist: %s is not "
                               "on the loader's search path",
                               cc_v_len(insts), dir ? dir : cc_v_get_str(first, "prefix"));
        if (f == NULL)
                return -1;
        TRY(cc_finding_ev_str(f, "directory", dir, d->err));
        TRY(cc_finding_ev_str(f, "version", cc_v_get_str(first, "version"), d->err));
        if (dir == NULL)
                return 0;
        fix = cc_fix_prepend(d, "LD_LIBRARY_PATH", dir, d->err);
        if (fix == NULL)
                return -1;
        if (cc_finding_fix(f, d->err,
                           "for this shell: %s; for every program: echo '%s' | sudo tee "
                           "/etc/ld.so.conf.d/cudnn.conf && sudo ldconfig%s",
                           fix, dir,
                           wheels ? "; in Python, 'import torch' first or onnxruntime.preload_dlls()" : "") < 0) {
                free(fix);
                return -1;
        }
        free(fix);
        return 0;
}

/* Whether the installation's own problems explain why `name` is missing:
 * a file whose SONAME is `name` has no link of that name beside it. */
static int soname_link_missing(const cc_value *inst, const char *name)
{
        const cc_value *ps = cc_v_get(inst, "problems"), *files = cc_v_get(inst, "files");
        size_t j, k, n;

        for (j = 0; j < cc_v_len(ps); j++) {
                const cc_value *p = cc_v_at(ps, j), *paths = cc_v_get(p, "paths");
                const char *kind = cc_v_get_str(p, "kind");

                if (kind == NULL || strcmp(kind, "missing-soname-link") != 0)
                        continue;
                for (k = 0; k < cc_v_len(paths); k++)
                        for (n = 0; n < cc_v_len(files); n++) {
                                const cc_value *f = cc_v_at(files, n);
                                const char *fp = cc_v_get_str(f, "path"), *so = cc_v_get_str(f, "soname");

                                if (fp != NULL && so != NULL && cc_v_getstr(cc_v_at(paths, k)) != NULL &&
                                    strcmp(fp, cc_v_getstr(cc_v_at(paths, k))) == 0 && strcmp(so, name) == 0)
                                        return 1;
                        }
        }
        return 0;
}

/* Discovery already reported this kind of problem for the installation. */
static int has_problem(const cc_value *inst, const char *kind)
{
        const cc_value *ps = cc_v_get(inst, "problems");
        size_t i;

        for (i = 0; i < cc_v_len(ps); i++)
                if (cc_v_get_str(cc_v_at(ps, i), "kind") != NULL &&
                    strcmp(cc_v_get_str(cc_v_at(ps, i), "kind"), kind) == 0)
                        return 1;
        return 0;
}

/* What cannot be loaded from each installation's shim (deps). */
static int deps_edges(struct cc_dctx *d)
{
        size_t i, j, k;

        for (i = 0; i < cc_v_len(d->deps); i++) {
                const cc_value *e = cc_v_at(d->deps, i);
                const cc_value *doc = cc_v_get(e, "document"), *nodes = cc_v_get(doc, "nodes");
                int64_t id = cc_v_getint(cc_v_get(e, "installation"));
                const cc_value *inst = cc_dx_install(d, id);
                const cc_value *mixed = cc_v_path(doc, "summary/cudnn");
                int major = cc_dx_major(inst);
                cc_strv seen = {0};
                int rc = 0;

                if (doc == NULL)
                        continue;
                if (cc_v_getbool(cc_v_get(mixed, "mixed")) && !has_problem(inst, "mixed-versions")) {
                        cc_value *f = cc_finding(
                            d,
                            d->windows   ? "win-sublib-127"
                            : major == 8 ? "linux-v8-mixed-helpers"
                                         : "v9-sublibrary-version-mismatch",
                            "error", "loader",
                            "loading %s pulls cuDNN libraries from more than one directory or release: a mixed set "
                            "(CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH or missing symbols)",
                            cc_v_get_str(e, "target"));

                        TRY(cc_finding_ev(f, "installation", cc_v_int(id, d->err), d->err));
                        TRY(cc_finding_ev(f, "directories", cc_v_copy(cc_v_get(mixed, "directories"), d->err), d->err));
                        TRY(cc_finding_ev(f, "versions", cc_v_copy(cc_v_get(mixed, "versions"), d->err), d->err));
                        TRY(cc_finding_fix(f, d->err,
                                           "keep one complete release per directory and make sure no other cuDNN "
                                           "directory comes first (LD_LIBRARY_PATH, ld.so.conf); 'cudnnctl deps "
                                           "%s' shows where each library comes from",
                                           cc_v_get_str(e, "target")));
                }
                for (j = 0; j < cc_v_len(nodes) && rc == 0; j++) {
                        const cc_value *n = cc_v_at(nodes, j), *edges = cc_v_get(n, "edges");

                        for (k = 0; k < cc_v_len(edges) && rc == 0; k++) {
                                const cc_value *ed = cc_v_at(edges, k);
                                const char *st = cc_v_get_str(ed, "status"), *name = cc_v_get_str(ed, "name");
                                const char *kind = cc_v_get_str(ed, "kind");
                                const char *slug = NULL, *sev = "error", *what = NULL;
                                cc_value *f;
                                size_t s;
                                int dup = 0;

                                if (st == NULL || name == NULL || (strcmp(st, "missing") && strcmp(st, "fails")))
                                        continue;
                                for (s = 0; s < seen.n; s++)
                                        dup |= strcmp(seen.v[s], name) == 0;
                                if (dup)
                                        continue;
                                if (cc_strv_push(&seen, name, d->err) < 0) {
                                        rc = -1;
                                        break;
                                }
                                if (strncmp(name, "libcuda.so", 10) == 0 || cc_strcasecmp(name, "nvcuda.dll") == 0)
                                        continue; /* the driver: the runtime checks say it with its state */
                                if (soname_link_missing(inst, name))
                                        continue; /* the broken-symlinks finding names the cause and the fix */
                                if (d->windows && strcmp(st, "fails") == 0 &&
                                    cc_v_getint(cc_v_get(ed, "windows_error")) == 193) {
                                        slug = "win-wrong-bitness";
                                        what = "a DLL built for another machine (32-bit?) found first: error 193";
                                } else if (strncmp(name, "libcudnn", 8) == 0 || cc_starts_with(name, "cudnn")) {
                                        if (major == 8 && !d->windows) {
                                                slug = "linux-v8-helper-rpath";
                                                what = "a cuDNN 8 helper library";
                                        } else if (strstr(name, "engines") || strstr(name, "heuristic")) {
                                                slug = "v9-sublibrary-loading-failed";
                                                what = "a cuDNN engine library";
                                        } else {
                                                slug = d->windows ? "win-sublib-126" : "v9-sublib-unloadable";
                                                what = "a cuDNN sub-library";
                                        }
                                } else if (strstr(name, "nvrtc") != NULL) {
                                        slug = "nvrtc-missing";
                                        sev = "warning";
                                        what = "NVRTC, which the runtime-compiled engines compile with";
                                } else if (strstr(name, "cublas") != NULL || strstr(name, "cudart") != NULL) {
                                        slug = "cuda-major-mismatch";
                                        what = "a CUDA library of the CUDA major cuDNN was built for";
                                } else if (cc_strcasecmp(name, "zlibwapi.dll") == 0) {
                                        slug = "win-zlibwapi-missing";
                                        what = "zlibwapi.dll";
                                } else {
                                        slug = d->windows ? "win-sublib-126" : "dependency-missing";
                                        what = strcmp(kind ? kind : "", "runtime") == 0 ? "a library loaded at run time"
                                                                                        : "a dependency";
                                }
                                f = cc_finding(d, slug, sev, "loader", "%s needs %s (%s), which cannot be %s (%s)",
                                               cc_v_get_str(n, "path"), name, what,
                                               strcmp(st, "fails") == 0 ? "loaded" : "found",
                                               strcmp(st, "fails") == 0 ? "the loader stops on a bad file"
                                                                        : "not on the search path");
                                if (f == NULL ||
                                    cc_finding_ev_str(f, "requester", cc_v_get_str(n, "path"), d->err) < 0 ||
                                    cc_finding_ev_str(f, "name", name, d->err) < 0 ||
                                    cc_finding_ev_str(f, "kind", kind, d->err) < 0 ||
                                    cc_finding_ev(f, "candidates", cc_v_copy(cc_v_get(ed, "candidates"), d->err),
                                                  d->err) < 0 ||
                                    cc_finding_ev(f, "installation", cc_v_int(id, d->err), d->err) < 0 ||
                                    cc_finding_fix(f, d->err,
                                                   "install %s where %s's loader looks (its directory, RUNPATH, "
                                                   "LD_LIBRARY_PATH/PATH or the system's library path); 'cudnnctl deps "
                                                   "--missing %s' shows every place tried",
                                                   name,
                                                   cc_v_get_str(n, "path") ? cc_basename(cc_v_get_str(n, "path"))
                                                                           : "the library",
                                                   cc_v_get_str(e, "target")) < 0)
                                        rc = -1;
                        }
                }
                cc_strv_free(&seen);
                if (rc < 0)
                        return -1;
        }
        return 0;
}

static int conda_order(struct cc_dctx *d)
{
        const char *cp = cc_v_get_str(cc_v_get(d->host, "env"), "CONDA_PREFIX");
        const cc_value *insts = cc_v_get(d->list, "installations"), *plain = cc_dx_plain_cudnn(d);
        const cc_value *conda = NULL, *pin;
        cc_value *f;
        char *fix;
        size_t i;

        if (cp == NULL || d->windows || plain == NULL)
                return 0;
        for (i = 0; i < cc_v_len(insts); i++) {
                const cc_value *in = cc_v_at(insts, i);
                const char *k = cc_v_get_str(cc_v_get(in, "provenance"), "kind"), *px = cc_v_get_str(in, "prefix");

                if (k != NULL && strcmp(k, "conda-package") == 0 && px != NULL && strcmp(px, cp) == 0)
                        conda = in;
        }
        pin = cc_dx_install(d, cc_v_getint(cc_v_get(plain, "installation")));
        if (conda == NULL || pin == NULL || pin == conda)
                return 0;
        if (cc_v_get_str(pin, "version") && cc_v_get_str(conda, "version") &&
            strcmp(cc_v_get_str(pin, "version"), cc_v_get_str(conda, "version")) == 0)
                return 0;
        f = cc_finding(d, "conda-vs-system-order", "warning", "loader",
                       "the active conda environment has cuDNN %s in %s/lib, but a plain program gets %s from %s",
                       cc_v_get_str(conda, "version") ? cc_v_get_str(conda, "version") : "?", cp,
                       cc_v_get_str(pin, "version") ? cc_v_get_str(pin, "version") : "?", cc_v_get_str(plain, "path"));
        TRY(cc_finding_ev_str(f, "conda_prefix", cp, d->err));
        TRY(cc_finding_ev_str(f, "plain_program_gets", cc_v_get_str(plain, "path"), d->err));
        TRY(cc_finding_ev_str(f, "how", cc_v_get_str(plain, "how"), d->err));
        fix = cc_asprintf(d->err, "%s/lib", cp);
        if (fix == NULL)
                return -1;
        {
                char *line = cc_fix_prepend(d, "LD_LIBRARY_PATH", fix, d->err);
                int rc = line ? cc_finding_fix(f, d->err,
                                               "put the environment's lib first for builds and programs run in it: "
                                               "%s (or remove the other copy)",
                                               line)
                              : -1;

                free(line);
                free(fix);
                return rc;
        }
}

static int wsl(struct cc_dctx *d)
{
        const cc_value *w = cc_v_get(d->host, "wsl"), *l1 = cc_dx_which(d, "libcuda.so.1");
        const cc_value *l0 = cc_dx_which(d, "libcuda.so");
        const cc_value *insts = cc_v_get(d->list, "installations");
        int v8 = 0;
        size_t i;
        cc_value *f;
        char *fix;

        if (!cc_v_getbool(cc_v_get(w, "detected")) || d->windows)
                return 0;
        for (i = 0; i < cc_v_len(insts); i++)
                v8 |= cc_dx_major(cc_v_at(insts, i)) == 8;
        if (l1 != NULL && !cc_v_getbool(cc_v_get(l1, "found")))
                f = cc_finding(d, "wsl-libcuda", "error", "driver",
                               "WSL: libcuda.so.1 is not found; the Windows driver's libraries live in "
                               "/usr/lib/wsl/lib, which is not on the loader's path");
        else if (v8 && l0 != NULL && !cc_v_getbool(cc_v_get(l0, "found")))
                f = cc_finding(d, "wsl-libcuda", "error", "driver",
                               "WSL: cuDNN 8 loads the unversioned libcuda.so, which the loader does not find "
                               "(/usr/lib/wsl/lib holds only libcuda.so.1 in the cache)");
        else
                return 0;
        TRY(cc_finding_ev_str(f, "proc_version", cc_v_get_str(w, "proc_version"), d->err));
        fix = cc_fix_prepend(d, "LD_LIBRARY_PATH", "/usr/lib/wsl/lib", d->err);
        if (fix == NULL)
                return -1;
        if (cc_finding_fix(f, d->err, "%s (keep /usr/lib/wsl/lib as WSL made it; do not copy libcuda into it)", fix) <
            0) {
                free(fix);
                return -1;
        }
        free(fix);
        return 0;
}

int cc_checks_loader(struct cc_dctx *d)
{
        TRY(not_on_path(d));
        TRY(deps_edges(d));
        TRY(conda_order(d));
        TRY(wsl(d));
        return 0;
}
