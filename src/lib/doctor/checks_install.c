/* Checks on the installations themselves (the list facts): none found,
 * several, the problems discovery saw in each (broken links, renamed files,
 * mixed or incomplete sets, header and library disagreeing), headers, and
 * releases the knowledge base lists as bad. */
#include "doctor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kb/query.h"

#define TRY(x)                                                                                                         \
        do {                                                                                                           \
                if ((x) < 0)                                                                                           \
                        return -1;                                                                                     \
        } while (0)

static int cuda_major_hint(const struct cc_dctx *d)
{
        const cc_value *tk = cc_v_get(d->host, "toolkits");
        cudnnctl_ver v;
        size_t i;
        int best = 0;

        for (i = 0; i < cc_v_len(tk); i++)
                if (cudnnctl_ver_parse(cc_v_get_str(cc_v_at(tk, i), "version"), &v) == 0 && v.part[0] > best)
                        best = (int)v.part[0];
        return best;
}

static int no_cudnn(struct cc_dctx *d)
{
        cc_value *f;
        int cm = cuda_major_hint(d);

        if (cc_v_len(cc_v_get(d->list, "installations")) > 0)
                return 0;
        f = cc_finding(d, "no-cudnn", "error", "cudnn", "no cuDNN installation found %s",
                       d->live ? "on this machine" : "in this tree");
        TRY(cc_finding_ev(f, "roots_searched", cc_v_int((int64_t)cc_v_len(cc_v_get(d->list, "roots")), d->err),
                          d->err));
        TRY(cc_finding_ev(f, "cuda_toolkit_major", cm ? cc_v_int(cm, d->err) : cc_v_null(d->err), d->err));
        if (d->windows)
                return cc_finding_fix(f, d->err,
                                      "download cuDNN for CUDA %d from NVIDIA (the zip or the installer), copy its "
                                      "bin, include and lib folders into the CUDA toolkit (%%CUDA_PATH%%), then run "
                                      "'cudnnctl doctor' again; for Python only: pip install nvidia-cudnn-cu%d",
                                      cm ? cm : 12, cm ? cm : 12);
        return cc_finding_fix(f, d->err,
                              "Debian/Ubuntu with NVIDIA's CUDA repository: sudo apt-get install libcudnn9-cuda-%d "
                              "libcudnn9-dev-cuda-%d; for Python only: pip install nvidia-cudnn-cu%d; then run "
                              "'cudnnctl doctor' again",
                              cm ? cm : 12, cm ? cm : 12, cm ? cm : 12);
}

static int several(struct cc_dctx *d)
{
        const cc_value *insts = cc_v_get(d->list, "installations");
        const cc_value *plain = cc_dx_plain_cudnn(d);
        int64_t pid = plain ? cc_v_getint(cc_v_get(plain, "installation")) : 0;
        const cc_value *pin = cc_dx_install(d, pid);
        cc_value *f, *arr;
        size_t i;

        if (cc_v_len(insts) < 2)
                return 0;
        if (pin != NULL)
                f = cc_finding(d, "multiple-installations", "info", "cudnn",
                               "%zu cuDNN installations; a plain program gets %s from %s, the others only programs "
                               "that load them by path, RPATH or their own search",
                               cc_v_len(insts), cc_v_get_str(pin, "version") ? cc_v_get_str(pin, "version") : "?",
                               cc_v_get_str(pin, "prefix"));
        else
                f = cc_finding(d, "multiple-installations", "info", "cudnn",
                               "%zu cuDNN installations, and a plain program finds none of them", cc_v_len(insts));
        if (f == NULL)
                return -1;
        arr = cc_v_array(d->err);
        TRY(cc_finding_ev(f, "installations", arr, d->err));
        for (i = 0; i < cc_v_len(insts); i++) {
                const cc_value *in = cc_v_at(insts, i);
                const char *kind = cc_v_get_str(cc_v_get(in, "provenance"), "kind");
                int64_t id = cc_v_getint(cc_v_get(in, "id"));
                cc_value *o = cc_v_object(d->err);
                const char *who;

                TRY(cc_v_push(arr, o, d->err));
                TRY(cc_v_set_int(o, "id", id, d->err));
                TRY(cc_v_set_str(o, "prefix", cc_v_get_str(in, "prefix"), d->err));
                TRY(cc_v_set_str(o, "version", cc_v_get_str(in, "version"), d->err));
                TRY(cc_v_set_str(o, "provenance", kind, d->err));
                if (id == pid)
                        who = "a plain program (and a program built with -lcudnn) loads this one";
                else if (kind != NULL && strcmp(kind, "pip-wheel") == 0)
                        who = "Python frameworks of that environment load it (PyTorch preloads its wheel's copy)";
                else if (kind != NULL && strcmp(kind, "conda-package") == 0)
                        who = "programs of that conda environment (through its RPATH or CONDA_PREFIX/lib)";
                else
                        who = "programs that name it: RPATH/RUNPATH, LD_LIBRARY_PATH or PATH set to its directory";
                TRY(cc_v_set_str(o, "used_by", who, d->err));
        }
        return cc_finding_fix(f, d->err,
                              "nothing to do if each program gets the copy it expects; 'cudnnctl which cudnn' shows "
                              "the search, 'cudnnctl verify ID' proves one installation");
}

/* Whether an "incomplete-set" summary ("cuDNN 9 libraries without a, b")
 * names only the engine and heuristic libraries (what graph loads itself:
 * CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED) and no sub-library the shim loads. */
static int only_engines_missing(const char *sum)
{
        const char *p = sum ? strstr(sum, " without ") : NULL;

        if (p == NULL)
                return 0;
        p += 9;
        while (*p != '\0') {
                size_t n = strcspn(p, ",");

                if (!((n >= 13 && strncmp(p, "cudnn_engines", 13) == 0) ||
                      (n == 15 && strncmp(p, "cudnn_heuristic", 15) == 0)))
                        return 0;
                p += n;
                while (*p == ',' || *p == ' ')
                        p++;
        }
        return 1;
}

/* An "incomplete-set" of major M that only a renamed file made (libcudnn.so.8
 * that is a cuDNN 9 shim): the renamed-file problem says it. */
static int set_of_renamed(const cc_value *ps, const char *sum)
{
        size_t j, k;
        int m;

        if (sum == NULL || sscanf(sum, "cuDNN %d ", &m) != 1)
                return 0;
        for (j = 0; j < cc_v_len(ps); j++) {
                const cc_value *p = cc_v_at(ps, j);
                const char *fm = cc_v_get_str(p, "failure_mode");
                const cc_value *paths = cc_v_get(p, "paths");

                if (fm == NULL || strcmp(fm, "renamed-dll") != 0)
                        continue;
                for (k = 0; k < cc_v_len(paths); k++) {
                        const char *pk = cc_v_getstr(cc_v_at(paths, k)), *b = pk ? cc_basename(pk) : NULL;
                        char tail[16];

                        snprintf(tail, sizeof(tail), ".so.%d", m);
                        if (b != NULL && cc_ends_with(b, tail))
                                return 1;
                }
        }
        return 0;
}

/* A problem discovery saw in an installation, as a finding. */
static int problems(struct cc_dctx *d)
{
        const cc_value *insts = cc_v_get(d->list, "installations");
        size_t i, j;

        for (i = 0; i < cc_v_len(insts); i++) {
                const cc_value *in = cc_v_at(insts, i);
                const cc_value *ps = cc_v_get(in, "problems");
                int major = cc_dx_major(in);
                cc_value *links = NULL;
                const char *first_link = NULL;
                size_t nlinks = 0;

                for (j = 0; j < cc_v_len(ps); j++) {
                        const cc_value *p = cc_v_at(ps, j);
                        const char *kind = cc_v_get_str(p, "kind"), *fm = cc_v_get_str(p, "failure_mode");
                        const char *sev = "error", *area = "cudnn";
                        cc_value *f;

                        if (kind == NULL)
                                continue;
                        if (strcmp(kind, "mixed-versions") == 0 && !d->windows && major == 8)
                                fm = "linux-v8-mixed-helpers";
                        if (strcmp(kind, "incomplete-set") == 0 && !d->windows) {
                                const char *sum = cc_v_get_str(p, "summary");

                                if (set_of_renamed(ps, sum))
                                        continue; /* the renamed file's own finding says it */
                                if (sum != NULL && cc_starts_with(sum, "cuDNN 8 "))
                                        fm = "linux-v8-helper-rpath";
                                else if (only_engines_missing(sum))
                                        fm = "v9-sublibrary-loading-failed";
                                else if (sum != NULL && cc_starts_with(sum, "cuDNN 9 "))
                                        fm = "v9-sublib-unloadable";
                        }
                        if (strcmp(kind, "header-library-mismatch") == 0)
                                area = "headers";
                        if (strcmp(kind, "system-directory-copy") == 0 || strcmp(kind, "unreadable-file") == 0 ||
                            strcmp(kind, "flattened-symlinks") == 0 || strcmp(kind, "not-soname") == 0)
                                sev = "warning";
                        if (fm == NULL)
                                fm = strcmp(kind, "unreadable-file") == 0 ? "unreadable-file" : kind;
                        if (links != NULL && strcmp(fm, "linux-broken-symlinks") == 0) {
                                /* one finding for the installation's links, however many */
                                cc_value *ev = cc_v_getm(links, "evidence");
                                const cc_value *pp = cc_v_get(p, "paths");
                                size_t k;

                                if (strcmp(sev, "error") == 0)
                                        TRY(cc_v_set_str(links, "severity", "error", d->err));
                                if (cc_v_get(ev, "also") == NULL)
                                        TRY(cc_v_set(ev, "also", cc_v_array(d->err), d->err));
                                TRY(cc_v_push(cc_v_getm(ev, "also"), cc_v_str(cc_v_get_str(p, "summary"), d->err),
                                              d->err));
                                for (k = 0; k < cc_v_len(pp); k++)
                                        TRY(cc_v_push(cc_v_getm(ev, "paths"), cc_v_copy(cc_v_at(pp, k), d->err),
                                                      d->err));
                                nlinks++;
                                continue;
                        }
                        f = cc_finding(d, fm, sev, area, "%s", cc_v_get_str(p, "summary"));
                        if (f != NULL && strcmp(fm, "linux-broken-symlinks") == 0) {
                                links = f;
                                first_link = cc_v_get_str(p, "summary");
                        }
                        TRY(cc_finding_ev(f, "installation", cc_v_int(cc_v_getint(cc_v_get(in, "id")), d->err),
                                          d->err));
                        TRY(cc_finding_ev_str(f, "prefix", cc_v_get_str(in, "prefix"), d->err));
                        TRY(cc_finding_ev_str(f, "problem", kind, d->err));
                        TRY(cc_finding_ev(f, "paths", cc_v_copy(cc_v_get(p, "paths"), d->err), d->err));
                        if (strcmp(kind, "dangling-symlink") == 0 || strcmp(kind, "symlink-loop") == 0 ||
                            strcmp(kind, "symlink-not-a-file") == 0 || strcmp(kind, "missing-soname-link") == 0 ||
                            strcmp(kind, "flattened-symlinks") == 0)
                                TRY(cc_finding_fix(
                                    f, d->err,
                                    "recreate the links (libcudnn*.so -> .so.%d -> .so.%d.x.y) as the "
                                    "package ships them: reinstall the package, or copy the archive with "
                                    "'cp -P' (keeps links) and run 'sudo ldconfig'",
                                    major ? major : 9, major ? major : 9));
                        else if (strcmp(kind, "not-soname") == 0 || strcmp(kind, "name-content-mismatch") == 0)
                                TRY(cc_finding_fix(f, d->err,
                                                   "do not rename cuDNN or CUDA libraries to satisfy a program: "
                                                   "install the major the program was built for beside this one"));
                        else if (strcmp(kind, "mixed-versions") == 0)
                                TRY(cc_finding_fix(f, d->err,
                                                   "remove the stale files so one release remains (close the programs "
                                                   "using them first), or reinstall one complete release"));
                        else if (strcmp(kind, "incomplete-set") == 0)
                                TRY(cc_finding_fix(f, d->err,
                                                   "install the complete set of cuDNN %d libraries from one release "
                                                   "into %s (all of the archive's %s folder)",
                                                   major ? major : 9, cc_v_get_str(in, "prefix"),
                                                   d->windows ? "bin" : "lib"));
                        else if (strcmp(kind, "header-library-mismatch") == 0)
                                TRY(cc_finding_fix(f, d->err,
                                                   "replace the headers with those of the library's release (every "
                                                   "cudnn*.h of the same archive or the matching -dev package)"));
                        else if (strcmp(kind, "system-directory-copy") == 0)
                                TRY(cc_finding_fix(f, d->err,
                                                   "delete cuDNN DLLs from System32/SysWOW64: the loader searches it "
                                                   "before PATH, so this copy shadows every installed one"));
                        else if (f == NULL)
                                return -1;
                }
                if (links != NULL && nlinks > 0) {
                        char *sum =
                            cc_asprintf(d->err, "%zu broken library links in %s: %s; and %zu more (evidence: also)",
                                        nlinks + 1, cc_v_get_str(in, "prefix"), first_link ? first_link : "?", nlinks);

                        if (sum == NULL || cc_v_set_str(links, "summary", sum, d->err) < 0) {
                                free(sum);
                                return -1;
                        }
                        free(sum);
                }
        }
        return 0;
}

static int headers(struct cc_dctx *d)
{
        const cc_value *insts = cc_v_get(d->list, "installations");
        size_t i, j;

        for (i = 0; i < cc_v_len(insts); i++) {
                const cc_value *in = cc_v_at(insts, i), *files = cc_v_get(in, "files");
                int has_cudnn_h = 0, has_version_h = 0, major = cc_dx_major(in);
                const char *cudnn_h = NULL;
                cc_value *f;

                for (j = 0; j < cc_v_len(files); j++) {
                        const cc_value *fl = cc_v_at(files, j);
                        const char *kind = cc_v_get_str(fl, "kind"), *role = cc_v_get_str(fl, "role");

                        if (kind == NULL || strcmp(kind, "header") != 0 || role == NULL)
                                continue;
                        if (strcmp(role, "cudnn") == 0) {
                                has_cudnn_h = 1;
                                cudnn_h = cc_v_get_str(fl, "path");
                        }
                        if (strcmp(role, "cudnn_version") == 0)
                                has_version_h = 1;
                }
                if (!has_cudnn_h || has_version_h || major < 8)
                        continue;
                f = cc_finding(d, "header-missing", "warning", "headers",
                               "%s has cudnn.h but no cudnn_version.h: cuDNN %d splits its headers, and building "
                               "against it fails with 'cudnn_version.h: No such file or directory'",
                               cc_v_get_str(in, "prefix"), major);
                TRY(cc_finding_ev_str(f, "cudnn_h", cudnn_h, d->err));
                {
                        const char *slash = cudnn_h ? strrchr(cudnn_h, d->windows ? '\\' : '/') : NULL;

                        TRY(cc_finding_fix(f, d->err,
                                           "copy every cudnn*.h of the same release into %.*s (not only cudnn.h), or "
                                           "install the matching -dev package",
                                           slash ? (int)(slash - cudnn_h) : 24,
                                           slash ? cudnn_h : "the include directory"));
                }
        }
        return 0;
}

/* The headers a build gets with no -I against the library a plain program
 * loads: two installations mixed in one build. */
static int default_headers(struct cc_dctx *d)
{
        const cc_value *inc = cc_v_get(d->host, "include_search");
        const char *h =
            cc_v_get_str(inc, "cudnn_version_h") ? cc_v_get_str(inc, "cudnn_version_h") : cc_v_get_str(inc, "cudnn_h");
        const cc_value *insts = cc_v_get(d->list, "installations"), *plain = cc_dx_plain_cudnn(d);
        const cc_value *hin = NULL, *lin;
        const char *hv, *lv;
        size_t i, j;
        cc_value *f;

        if (h == NULL || plain == NULL)
                return 0;
        for (i = 0; i < cc_v_len(insts) && hin == NULL; i++) {
                const cc_value *files = cc_v_get(cc_v_at(insts, i), "files");

                for (j = 0; j < cc_v_len(files); j++)
                        if (cc_v_get_str(cc_v_at(files, j), "path") != NULL &&
                            strcmp(cc_v_get_str(cc_v_at(files, j), "path"), h) == 0)
                                hin = cc_v_at(insts, i);
        }
        lin = cc_dx_install(d, cc_v_getint(cc_v_get(plain, "installation")));
        if (hin == NULL || lin == NULL || hin == lin)
                return 0;
        hv = cc_v_get_str(hin, "version");
        lv = cc_v_get_str(lin, "version");
        if (hv != NULL && lv != NULL && strcmp(hv, lv) == 0)
                return 0;
        f = cc_finding(d, "header-lib-mismatch", "warning", "headers",
                       "a build with no -I gets the headers of cuDNN %s (%s) but runs the library of cuDNN %s (%s)",
                       hv ? hv : "(version unknown)", h, lv ? lv : "(version unknown)", cc_v_get_str(plain, "path"));
        TRY(cc_finding_ev_str(f, "header", h, d->err));
        TRY(cc_finding_ev(f, "header_installation", cc_v_int(cc_v_getint(cc_v_get(hin, "id")), d->err), d->err));
        TRY(cc_finding_ev_str(f, "library", cc_v_get_str(plain, "path"), d->err));
        TRY(cc_finding_ev(f, "library_installation", cc_v_int(cc_v_getint(cc_v_get(lin, "id")), d->err), d->err));
        return cc_finding_fix(f, d->err,
                              "build against one installation: -I%s/include -L<its lib> with an RPATH, or remove the "
                              "stale headers; 'cudnnctl verify %lld' compiles against its own headers",
                              cc_v_get_str(lin, "prefix"), (long long)cc_v_getint(cc_v_get(lin, "id")));
}

static int known_bad(struct cc_dctx *d)
{
        const cc_value *insts = cc_v_get(d->list, "installations");
        size_t i;

        for (i = 0; i < cc_v_len(insts); i++) {
                const cc_value *in = cc_v_at(insts, i);
                cc_kb_answer a;
                cudnnctl_ver v;
                cc_value *f;

                if (cudnnctl_ver_parse(cc_v_get_str(in, "version"), &v) < 0)
                        continue;
                memset(&a, 0, sizeof(a));
                if (cc_kb_cudnn_known_bad_for(&v, NULL, &a) !=
                    CC_KB_YES) /* rows of one framework: the frameworks check */
                        continue;
                f = cc_finding(d, "known-bad-version", "info", "cudnn", "cuDNN %s in %s is listed as bad: %s",
                               cc_v_get_str(in, "version"), cc_v_get_str(in, "prefix"), a.reason);
                TRY(cc_finding_ev_str(f, "version", cc_v_get_str(in, "version"), d->err));
                TRY(cc_finding_ev_str(f, "source", a.source, d->err));
                TRY(cc_finding_fix(f, d->err, "move to a later release of the same major"));
        }
        return 0;
}

int cc_checks_install(struct cc_dctx *d)
{
        TRY(no_cudnn(d));
        TRY(several(d));
        TRY(problems(d));
        TRY(headers(d));
        TRY(default_headers(d));
        TRY(known_bad(d));
        return 0;
}
