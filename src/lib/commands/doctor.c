/* cudnnctl doctor: gather the facts of the whole stack into one document,
 * then run the checks on them (doctor/checks.c). Gathering reuses the finding and
 * proving commands (list, which, deps, verify); what only this command
 * needs (the search paths' entries, the toolkits, the driver's files, WSL)
 * is read here, through the machine's tree, so --root fixtures work. */
#include "../doctor/doctor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../discover/discover.h"
#include "../formats/json.h"
#include "../frameworks/frameworks.h"
#include "../probe/progress.h"
#include "../machine/machine.h"
#include "../platform/platform.h"
#include "toolkits.h"
#include "verify.h"

enum { MAX_DEPS = 8, MAX_VERIFY = 4, MAX_SMALL = 1 << 20 };

/* ---- the host: environment, search paths, toolkits, driver files ---------- */

static const char *const env_keys[] = {
    "PATH",
    "LD_LIBRARY_PATH",
    "LD_PRELOAD",
    "CUDA_PATH",
    "CUDA_HOME",
    "CUDA_ROOT",
    "CUDNN_PATH",
    "CUDNN_HOME",
    "CUDNN_ROOT",
    "CONDA_PREFIX",
    "VIRTUAL_ENV",
    "CUDA_VISIBLE_DEVICES",
    "CPATH",
    "C_INCLUDE_PATH",
    "CPLUS_INCLUDE_PATH",
    "LIBRARY_PATH",
    "SHELL",
    "PSModulePath",
    "ComSpec",
    "TF_FORCE_GPU_ALLOW_GROWTH",
    "CUDA_MODULE_LOADING",
    "PYTHONPATH",
};

static cc_value *env_facts(cc_machine *m, cc_error *err)
{
        cc_value *o = cc_v_object(err);
        size_t i;

        if (o == NULL)
                return NULL;
        for (i = 0; i < CC_ARRAY_LEN(env_keys); i++) {
                const char *v = cc_machine_getenv(m, env_keys[i]);

                if (v != NULL && cc_v_set_str(o, env_keys[i], v, err) < 0)
                        goto fail;
        }
        for (i = 0; i < m->env.kv.n; i++) {
                /* CUDA_PATH_V12_4 and friends (Windows installers set one per toolkit) */
                const char *kv = m->env.kv.v[i];
                const char *eq = strchr(kv, '=');

                if (eq != NULL && cc_starts_with(kv, "CUDA_PATH_V") && (size_t)(eq - kv) < 64) {
                        char key[64];

                        memcpy(key, kv, (size_t)(eq - kv));
                        key[eq - kv] = '\0';
                        if (cc_v_set_str(o, key, eq + 1, err) < 0)
                                goto fail;
                }
        }
        return o;
fail:
        cc_v_free(o);
        return NULL;
}

/* One search-path variable, entry by entry: what the loader makes of it. */
static cc_value *pathvar_facts(cc_machine *m, const char *var, cc_error *err)
{
        const char *s = cc_machine_getenv(m, var);
        cc_strv parts = {0};
        cc_value *o = NULL, *arr = NULL;
        size_t i;

        if (s == NULL)
                return cc_v_null(err);
        if (cc_split_pathlist_any(s, cc_pathlist_seps(m->system, var), 4096, &parts, err) < 0)
                return NULL;
        o = cc_v_object(err);
        arr = cc_v_array(err);
        if (o == NULL || arr == NULL)
                goto fail;
        TRY(cc_v_set_str(o, "variable", var, err));
        TRY(cc_v_set_int(o, "length", (int64_t)strlen(s), err));
        for (i = 0; i < parts.n; i++) {
                const char *e = parts.v[i];
                cc_value *en = cc_v_object(err);
                const char *kind;

                TRY(cc_v_push(arr, en, err));
                TRY(cc_v_set_int(en, "index", (int64_t)i + 1, err));
                TRY(cc_v_set_str(en, "entry", e, err));
                kind = e[0] == '\0' ? "empty" : cc_tree_is_abs(m->tree, e) ? "absolute" : "relative";
                TRY(cc_v_set_str(en, "kind", kind, err));
                if (strcmp(kind, "absolute") == 0) {
                        cc_tree_res r;

                        memset(&r, 0, sizeof(r));
                        if (cc_tree_resolve(m->tree, e, 1, &r, NULL) < 0) {
                                TRY(cc_v_set_bool(en, "exists", 0, err));
                                TRY(cc_v_set_str(en, "reason", "outside the tree or not a valid path", err));
                                continue;
                        }
                        TRY(cc_v_set_bool(en, "exists", r.st.type != CC_FT_NONE, err));
                        if (r.why[0] != '\0')
                                TRY(cc_v_set_str(en, "reason", r.why, err));
                        if (r.st.type != CC_FT_NONE) {
                                TRY(cc_v_set_bool(en, "is_dir", r.st.type == CC_FT_DIR, err));
                                if (r.canonical != NULL && strcmp(r.canonical, e) != 0)
                                        TRY(cc_v_set_str(en, "canonical", r.canonical, err));
                                if (r.st.mode >= 0) {
                                        TRY(cc_v_set_int(en, "mode", r.st.mode & 07777, err));
                                        TRY(cc_v_set_bool(en, "world_writable", (r.st.mode & 02) != 0, err));
                                } else {
                                        TRY(cc_v_set_null(en, "world_writable", err));
                                }
                        }
                        cc_tree_res_free(&r);
                }
        }
        TRY(cc_v_set(o, "entries", arr, err));
        cc_strv_free(&parts);
        return o;
fail:
        cc_strv_free(&parts);
        cc_v_free(o);
        cc_v_free(arr);
        return NULL;
}

static int read_small(cc_machine *m, const char *vpath, char **text, size_t *len)
{
        cc_error e = {0};

        *text = NULL;
        *len = 0;
        return cc_tree_read(m->tree, vpath, MAX_SMALL, text, len, &e);
}

/* A toolkit's version from version.json ("cuda": {"version": ...}) or
 * version.txt ("CUDA Version 11.4.2"); *found: whether one was read. */
static int toolkit_version(cc_machine *m, const char *prefix, cc_value *tk, int *found, cc_error *err)
{
        char *p = cc_tree_join(m->tree, prefix, "version.json", err), *text = NULL;
        size_t len;
        int rv = -1;

        *found = 0;
        if (p == NULL)
                return -1;
        if (read_small(m, p, &text, &len) == 0) {
                cc_value *j = NULL;
                cc_error je = {0};

                if (cc_json_parse(text, len, 16, &j, &je) == 0) {
                        cc_vw_cuda_version_json vj;
                        cc_vw_cuda_version_part vp;

                        cc_vw_cuda_version_json_read(j, &vj, NULL);
                        cc_vw_cuda_version_part_read(vj.cuda, &vp, NULL);
                        if (vp.version != NULL) {
                                TRY(cc_v_set_str(tk, CC_K(toolkit, version), vp.version, err));
                                TRY(cc_v_set_str(tk, CC_K(toolkit, version_source), p, err));
                                *found = 1;
                        }
                } else {
                        TRY(cc_v_set_str(tk, "version_error", je.msg, err));
                }
                cc_v_free(j);
                free(text);
                text = NULL;
                if (*found) {
                        rv = 0;
                        goto fail;
                }
        }
        free(p);
        p = cc_tree_join(m->tree, prefix, "version.txt", err);
        if (p == NULL)
                return -1;
        if (read_small(m, p, &text, &len) == 0) {
                const char *q = strstr(text, "CUDA Version ");

                if (q != NULL) {
                        size_t k = 0;

                        q += 13;
                        while (k < 20 && ((q[k] >= '0' && q[k] <= '9') || q[k] == '.'))
                                k++;
                        if (k > 0) {
                                TRY(cc_v_set(tk, CC_K(toolkit, version), cc_v_strn(q, k, err), err));
                                TRY(cc_v_set_str(tk, CC_K(toolkit, version_source), p, err));
                                *found = 1;
                        }
                }
        }
        rv = 0;
fail:
        free(p);
        free(text);
        return rv;
}

cc_value *cc_toolkit_facts(cc_machine *m, cc_error *err)
{
        static const char *const lin[] = {"/usr/local/cuda", "/usr/local/cuda-*", "/opt/cuda", "/opt/cuda-*",
                                          "/usr/lib/nvidia-cuda-toolkit"};
        static const char *const win[] = {"C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v*"};
        static const char *const envs[] = {"CUDA_PATH", "CUDA_HOME", "CUDA_ROOT"};
        int w = m->system == CC_SYS_WINDOWS;
        cc_strv cand = {0}, seen = {0};
        cc_value *arr = cc_v_array(err);
        size_t i;

        if (arr == NULL)
                return NULL;
        for (i = 0; i < CC_ARRAY_LEN(envs); i++) {
                const char *v = cc_machine_getenv(m, envs[i]);

                if (v != NULL && v[0] != '\0' && cc_tree_is_abs(m->tree, v))
                        TRY(cc_strv_push(&cand, v, err));
        }
        for (i = 0; i < m->env.kv.n; i++)
                if (cc_starts_with(m->env.kv.v[i], "CUDA_PATH_V")) {
                        const char *eq = strchr(m->env.kv.v[i], '=');

                        if (eq != NULL && cc_tree_is_abs(m->tree, eq + 1))
                                TRY(cc_strv_push(&cand, eq + 1, err));
                }
        for (i = 0; i < (w ? CC_ARRAY_LEN(win) : CC_ARRAY_LEN(lin)); i++) {
                cc_error ge = {0};

                if (cc_tree_glob(m->tree, w ? win[i] : lin[i], 64, &cand, &ge) < 0 && ge.code == CC_ERR_NOMEM) {
                        *err = ge;
                        goto fail;
                }
        }
        for (i = 0; i < cand.n; i++) {
                cc_tree_res r;
                cc_value *tk, *al = NULL;
                cc_vw_toolkit tv;
                char *nvcc;
                cc_stat st;
                size_t k;
                int dup = 0, has_version;

                memset(&r, 0, sizeof(r));
                if (cc_tree_resolve(m->tree, cand.v[i], 1, &r, NULL) < 0 || r.st.type != CC_FT_DIR ||
                    r.canonical == NULL) {
                        cc_tree_res_free(&r);
                        continue;
                }
                for (k = 0; k < seen.n; k++)
                        if (cc_tree_path_eq(m->tree, seen.v[k], r.canonical))
                                dup = 1;
                if (dup) {
                        /* another name of a toolkit already listed: an alias */
                        for (k = 0; k < cc_v_len(arr); k++) {
                                cc_vw_toolkit_at(arr, k, &tv, NULL);
                                if (cc_tree_path_eq(m->tree, tv.prefix, r.canonical) &&
                                    !cc_tree_path_eq(m->tree, cand.v[i], r.canonical)) {
                                        int have = 0;

                                        /* the list being built, to add to (a view's is read-only) */
                                        al = cc_v_getm(cc_v_atm(arr, k), CC_K(toolkit, aliases));

                                        for (size_t a = 0; a < cc_v_len(al); a++)
                                                if (cc_tree_path_eq(m->tree, cc_v_as_str(cc_v_at(al, a)), cand.v[i]))
                                                        have = 1;
                                        if (!have && cc_v_push(al, cc_v_str(cand.v[i], err), err) < 0) {
                                                cc_tree_res_free(&r);
                                                goto fail;
                                        }
                                }
                        }
                        cc_tree_res_free(&r);
                        continue;
                }
                if (cc_strv_push(&seen, r.canonical, err) < 0) {
                        cc_tree_res_free(&r);
                        goto fail;
                }
                tk = cc_v_object(err);
                if (cc_v_push(arr, tk, err) < 0 || cc_v_set_str(tk, CC_K(toolkit, prefix), r.canonical, err) < 0 ||
                    cc_v_set(tk, CC_K(toolkit, aliases), al = cc_v_array(err), err) < 0) {
                        cc_tree_res_free(&r);
                        goto fail;
                }
                if (!cc_tree_path_eq(m->tree, cand.v[i], r.canonical) &&
                    cc_v_push(al, cc_v_str(cand.v[i], err), err) < 0) {
                        cc_tree_res_free(&r);
                        goto fail;
                }
                cc_tree_res_free(&r);
                cc_vw_toolkit_read(tk, &tv, NULL);
                TRY(toolkit_version(m, tv.prefix, tk, &has_version, err));
                nvcc =
                    cc_asprintf(err, "%s%cbin%c%s", tv.prefix, w ? '\\' : '/', w ? '\\' : '/', w ? "nvcc.exe" : "nvcc");
                if (nvcc == NULL)
                        goto fail;
                if (cc_tree_stat(m->tree, nvcc, &st, NULL) == 0 && st.type == CC_FT_FILE) {
                        if (cc_v_set_str(tk, CC_K(toolkit, nvcc), nvcc, err) < 0) {
                                free(nvcc);
                                goto fail;
                        }
                } else if (cc_v_set_null(tk, CC_K(toolkit, nvcc), err) < 0) {
                        free(nvcc);
                        goto fail;
                }
                free(nvcc);
                if (!has_version) {
                        /* a directory named cuda-12.4 / v12.4 is evidence too, if weaker */
                        const char *b = cc_basename(tv.prefix);
                        cudnnctl_ver v;

                        if (!w && cc_starts_with(b, "cuda-") && cudnnctl_ver_parse(b + 5, &v) == 0) {
                                TRY(cc_v_set_str(tk, CC_K(toolkit, version), b + 5, err));
                                TRY(cc_v_set_str(tk, CC_K(toolkit, version_source), "directory-name", err));
                        } else if (w && (b[0] == 'v' || b[0] == 'V') && cudnnctl_ver_parse(b + 1, &v) == 0) {
                                TRY(cc_v_set_str(tk, CC_K(toolkit, version), b + 1, err));
                                TRY(cc_v_set_str(tk, CC_K(toolkit, version_source), "directory-name", err));
                        } else {
                                TRY(cc_v_set_null(tk, CC_K(toolkit, version), err));
                        }
                }
        }
        cc_strv_free(&cand);
        cc_strv_free(&seen);
        return arr;
fail:
        cc_strv_free(&cand);
        cc_strv_free(&seen);
        cc_v_free(arr);
        return NULL;
}

/* The driver as its files tell it: libcuda.so.<version> beside the driver's
 * other libraries, /proc/driver/nvidia/version; on Windows nvcuda.dll's
 * version resource (read by inspect). What a static doctor has. */
static cc_value *driver_files(cc_machine *m, cc_error *err)
{
        cc_value *o = cc_v_object(err), *files = cc_v_array(err);
        cc_strv found = {0};
        char *text = NULL;
        size_t i, len;

        if (o == NULL || files == NULL)
                goto fail;
        if (m->system == CC_SYS_WINDOWS) {
                static const char *const dlls[] = {"C:\\Windows\\System32\\nvcuda.dll",
                                                   "C:\\Windows\\System32\\nvml.dll"};

                for (i = 0; i < CC_ARRAY_LEN(dlls); i++) {
                        cudnnctl_inspect_options io;
                        cudnnctl_value *doc = NULL;
                        cc_error ie = {0};
                        cc_value *f;
                        cc_stat st;

                        if (cc_tree_stat(m->tree, dlls[i], &st, NULL) < 0 || st.type != CC_FT_FILE)
                                continue;
                        f = cc_v_object(err);
                        TRY(cc_v_push(files, f, err));
                        TRY(cc_v_set_str(f, CC_K(driver_file, path), dlls[i], err));
                        memset(&io, 0, sizeof(io));
                        io.root = cc_tree_root(m->tree);
                        io.system = CUDNNCTL_SYSTEM_WINDOWS;
                        if (cudnnctl_inspect(dlls[i], &io, &doc, &ie) == 0) {
                                cc_vw_ins_facts fa;
                                cc_vw_ins_pe pe;
                                cc_vw_ins_pe_version vi;
                                const char *fv;

                                cc_vw_ins_facts_read(doc, &fa, NULL);
                                cc_vw_ins_pe_read(fa.pe, &pe, NULL);
                                cc_vw_ins_pe_version_read(pe.version_info, &vi, NULL);
                                fv = vi.file_version;

                                TRY(cc_v_set_str(f, CC_K(driver_file, file_version), fv, err));
                                if (fv != NULL) {
                                        /* 32.0.15.8088 -> 580.88: the last five digits */
                                        cudnnctl_ver v;

                                        if (cudnnctl_ver_parse(fv, &v) == 0 && v.n == 4) {
                                                long dv = (v.part[2] % 10) * 10000 + v.part[3];

                                                TRY(cc_v_set(f, CC_K(driver_file, driver_version),
                                                             cc_v_strf(err, "%ld.%02ld", dv / 100, dv % 100), err));
                                        }
                                }
                                cc_v_free(doc);
                        } else {
                                TRY(cc_v_set_str(f, CC_K(driver_file, error), ie.msg, err));
                        }
                }
        } else {
                if (cc_machine_libcuda_files(m, 64, &found, err) < 0)
                        goto fail;
                for (i = 0; i < found.n; i++) {
                        const char *b = cc_basename(found.v[i]);
                        cc_value *f = cc_v_object(err);
                        cudnnctl_ver v;
                        cc_stat st;

                        TRY(cc_v_push(files, f, err));
                        TRY(cc_v_set_str(f, CC_K(driver_file, path), found.v[i], err));
                        TRY(cc_v_set_bool(f, CC_K(driver_file, symlink),
                                          cc_tree_lstat(m->tree, found.v[i], &st, NULL) == 0 && st.type == CC_FT_LINK,
                                          err));
                        if (cc_starts_with(b, "libcuda.so.") && cudnnctl_ver_parse(b + 11, &v) == 0 && v.n >= 2)
                                TRY(cc_v_set_str(f, CC_K(driver_file, driver_version), b + 11, err));
                }
                if (read_small(m, "/proc/driver/nvidia/version", &text, &len) == 0) {
                        char vb[64];
                        char *nl = strchr(text, '\n');

                        if (cc_nvrm_version(text, vb, sizeof(vb)) == 0)
                                TRY(cc_v_set_str(o, CC_K(driver_files, kernel_module_version), vb, err));
                        if (nl != NULL)
                                *nl = '\0';
                        TRY(cc_v_set_str(o, CC_K(driver_files, proc_version), text, err));
                }
        }
        TRY(cc_v_set(o, CC_K(driver_files, files), files, err));
        files = NULL;
        {
                /* the version the files agree on, or null */
                cc_vw_driver_files df;
                const char *agreed;
                int conflict = 0;

                cc_vw_driver_files_read(o, &df, NULL);
                agreed = df.kernel_module_version;
                for (i = 0; i < cc_v_len(df.files); i++) {
                        cc_vw_driver_file dfile;
                        const char *dv;

                        cc_vw_driver_file_at(df.files, i, &dfile, NULL);
                        dv = dfile.driver_version;

                        if (dv == NULL)
                                continue;
                        if (agreed == NULL)
                                agreed = dv;
                        else if (strcmp(agreed, dv) != 0)
                                conflict = 1;
                }
                TRY(cc_v_set_str(o, CC_K(driver_files, version), conflict ? NULL : agreed, err));
                TRY(cc_v_set_bool(o, CC_K(driver_files, versions_disagree), conflict, err));
        }
        free(text);
        cc_strv_free(&found);
        return o;
fail:
        free(text);
        cc_strv_free(&found);
        cc_v_free(o);
        cc_v_free(files);
        return NULL;
}

/* The headers a build finds with no -I: CPATH and C_INCLUDE_PATH, then the
 * compiler's default directories (gcc on Debian/Ubuntu; on Windows
 * CUDA_PATH\include, where the guide copies cuDNN's headers). */
static cc_value *include_facts(cc_machine *m, cc_error *err)
{
        static const char *const lin[] = {"/usr/local/include", "/usr/include/x86_64-linux-gnu", "/usr/include"};
        static const char *const vars[] = {"CPATH", "C_INCLUDE_PATH"};
        int w = m->system == CC_SYS_WINDOWS;
        cc_strv dirs = {0};
        cc_value *o = cc_v_object(err), *arr = cc_v_array(err);
        size_t i, k;
        int have[2] = {0, 0}; /* cudnn_version.h, cudnn.h found */

        if (o == NULL || arr == NULL)
                goto fail;
        for (i = 0; i < CC_ARRAY_LEN(vars) && !w; i++) {
                const char *v = cc_machine_getenv(m, vars[i]);
                cc_strv parts = {0};

                if (v == NULL || cc_split_pathlist(v, ':', 256, &parts, NULL) < 0)
                        continue;
                for (k = 0; k < parts.n; k++)
                        if (cc_tree_is_abs(m->tree, parts.v[k]) && cc_strv_push(&dirs, parts.v[k], err) < 0) {
                                cc_strv_free(&parts);
                                goto fail;
                        }
                cc_strv_free(&parts);
        }
        if (w) {
                const char *cp = cc_machine_getenv(m, "CUDA_PATH");

                if (cp != NULL && cc_tree_is_abs(m->tree, cp)) {
                        char *inc = cc_tree_join(m->tree, cp, "include", err);

                        if (inc == NULL || cc_strv_push(&dirs, inc, err) < 0) {
                                free(inc);
                                goto fail;
                        }
                        free(inc);
                }
        } else {
                for (i = 0; i < CC_ARRAY_LEN(lin); i++)
                        TRY(cc_strv_push(&dirs, lin[i], err));
        }
        TRY(cc_v_set(o, CC_K(include_search, dirs), cc_v_strv(&dirs, err), err));
        TRY(cc_v_set_null(o, CC_K(include_search, cudnn_h), err));
        TRY(cc_v_set_null(o, CC_K(include_search, cudnn_version_h), err));
        for (i = 0; i < dirs.n; i++) {
                static const char *const names[] = {"cudnn_version.h", "cudnn.h"};
                const char *keys[] = {CC_K(include_search, cudnn_version_h), CC_K(include_search, cudnn_h)};

                for (k = 0; k < 2; k++) {
                        char *p;
                        cc_tree_res r;

                        if (have[k]) /* the first directory that has it wins */
                                continue;
                        p = cc_tree_join(m->tree, dirs.v[i], names[k], err);
                        if (p == NULL)
                                goto fail;
                        memset(&r, 0, sizeof(r));
                        if (cc_tree_resolve(m->tree, p, 1, &r, NULL) == 0 && r.st.type == CC_FT_FILE) {
                                if (cc_v_set_str(o, keys[k], r.canonical ? r.canonical : p, err) < 0) {
                                        cc_tree_res_free(&r);
                                        free(p);
                                        goto fail;
                                }
                                have[k] = 1;
                        }
                        cc_tree_res_free(&r);
                        free(p);
                }
        }
        cc_strv_free(&dirs);
        cc_v_free(arr);
        return o;
fail:
        cc_strv_free(&dirs);
        cc_v_free(o);
        cc_v_free(arr);
        return NULL;
}

/* The length of UTF-8 text in UTF-16 units (Windows' count of characters). */
static size_t utf16_units(const char *s)
{
        size_t n = 0;

        for (; *s != '\0'; s++) {
                unsigned char c = (unsigned char)*s;

                if ((c & 0xC0) != 0x80)
                        n += c >= 0xF0 ? 2 : 1;
        }
        return n;
}

static cc_value *host_facts(cc_machine *m, cc_error *err)
{
        cc_value *h = cc_v_object(err), *pv = NULL;
        const char *shell;
        char *text = NULL;
        size_t len;

        if (h == NULL)
                return NULL;
        TRY(cc_v_set_str(h, "system", m->system == CC_SYS_WINDOWS ? "windows" : "linux", err));
        if (m->system == CC_SYS_WINDOWS)
                shell = cc_machine_getenv(m, "PSModulePath") ? "powershell" : "cmd";
        else {
                const char *sh = cc_machine_getenv(m, "SHELL");
                const char *b = sh ? cc_basename(sh) : "sh";

                shell = strcmp(b, "fish") == 0   ? "fish"
                        : strcmp(b, "zsh") == 0  ? "zsh"
                        : strcmp(b, "bash") == 0 ? "bash"
                                                 : "sh";
        }
        TRY(cc_v_set_str(h, "shell", shell, err));
        if (m->live) {
                /* the node's name for `cudnnctl report` over many machines' documents */
                char name[256];

                TRY(cc_v_set_str(h, "name", cc_host_name(name, sizeof(name)) == 0 ? name : NULL, err));
        }
        TRY(cc_v_set(h, "env", env_facts(m, err), err));
        pv = cc_v_array(err);
        TRY(cc_v_set(h, "search_paths", pv, err));
        if (m->system == CC_SYS_LINUX)
                TRY(cc_v_push(pv, pathvar_facts(m, "LD_LIBRARY_PATH", err), err));
        TRY(cc_v_push(pv, pathvar_facts(m, "PATH", err), err));
        if (m->system == CC_SYS_LINUX) {
                cc_value *wsl = cc_v_object(err);

                TRY(cc_v_set(h, "wsl", wsl, err));
                if (read_small(m, "/proc/version", &text, &len) == 0) {
                        char *nl = strchr(text, '\n');

                        if (nl != NULL)
                                *nl = '\0';
                        TRY(cc_v_set_str(wsl, "proc_version", text, err));
                        TRY(cc_v_set_bool(wsl, "detected",
                                          strstr(text, "microsoft") != NULL || strstr(text, "Microsoft") != NULL ||
                                              strstr(text, "WSL") != NULL,
                                          err));
                } else {
                        cc_stat st;

                        TRY(cc_v_set_null(wsl, "proc_version", err));
                        /* without /proc (a --root image) the WSL driver directory is the evidence */
                        TRY(cc_v_set_bool(
                            wsl, "detected",
                            cc_tree_stat(m->tree, "/usr/lib/wsl/lib", &st, NULL) == 0 && st.type == CC_FT_DIR, err));
                }
        }
        if (m->system == CC_SYS_WINDOWS && m->live) {
                /* PATH as stored in the registry: setx truncates it at 1024 characters */
                static const struct {
                        const char *hive, *key;
                } regs[] = {{"HKCU", "Environment"},
                            {"HKLM", "SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment"}};
                cc_value *rp = cc_v_array(err);
                size_t i;

                TRY(cc_v_set(h, "registry_path", rp, err));
                for (i = 0; i < CC_ARRAY_LEN(regs); i++) {
                        cc_error re = {0};
                        uint32_t type = 0;
                        char *val = cc_reg_get_str_type(regs[i].hive, regs[i].key, "Path", &type, &re);
                        cc_value *o = cc_v_object(err);

                        TRY(cc_v_push(rp, o, err));
                        TRY(cc_v_set(o, "key", cc_v_strf(err, "%s\\%s", regs[i].hive, regs[i].key), err));
                        if (val == NULL) {
                                TRY(cc_v_set_str(o, "error", re.msg, err));
                                continue;
                        }
                        {
                                /* the type says whether Windows expands it for a new process: REG_EXPAND_SZ
                                 * is expanded (from this process's environment here, an approximation of the
                                 * one Windows builds at logon); REG_SZ is taken as written */
                                const char *tn = type == 1 ? "REG_SZ" : type == 2 ? "REG_EXPAND_SZ" : NULL;
                                char *exp = NULL;
                                int bad;

                                if (type == 2)
                                        exp = cc_machine_expand(m, val, 0, err);
                                bad = cc_v_set_str(o, "value", val, err) < 0 ||
                                      cc_v_set_int(o, "length", (int64_t)utf16_units(val), err) < 0 ||
                                      (tn != NULL && cc_v_set_str(o, "type", tn, err) < 0) ||
                                      (tn != NULL && strcmp(tn, "REG_EXPAND_SZ") == 0 && exp == NULL) ||
                                      cc_v_set_str(o, "expanded", exp != NULL ? exp : val, err) < 0;
                                free(exp);
                                free(val);
                                if (bad)
                                        goto fail;
                        }
                }
        }
        if (m->system == CC_SYS_WINDOWS)
                TRY(cc_doctor_host_windows(m, h, err));
        TRY(cc_v_set(h, "include_search", include_facts(m, err), err));
        TRY(cc_v_set(h, "toolkits", cc_toolkit_facts(m, err), err));
        TRY(cc_v_set(h, "driver_files", driver_files(m, err), err));
        free(text);
        return h;
fail:
        free(text);
        cc_v_free(h);
        return NULL;
}

/* ---- the finding and proving commands, reused ---------------------------- */

/* The file of installation inst with role `role` that a loader would open:
 * a regular file or a link that resolves, shared library or DLL. */
static const char *inst_lib(const cc_vw_installation *inst, const char *role)
{
        const char *best = NULL;
        size_t i;

        for (i = 0; i < cc_v_len(inst->files); i++) {
                cc_vw_file f;
                const char *kind, *r, *ls;

                cc_vw_file_at(inst->files, i, &f, NULL);
                kind = f.kind;
                r = f.role;
                ls = f.link_state;
                if (r == NULL || strcmp(r, role) != 0 || kind == NULL ||
                    (strcmp(kind, "shared-library") != 0 && strcmp(kind, "dll") != 0))
                        continue;
                if (ls != NULL && strcmp(ls, "ok") != 0)
                        continue;
                /* prefer the SONAME-named file (libcudnn.so.9) over the fully versioned one */
                if (best == NULL || (f.soname != NULL && strcmp(cc_basename(f.path), f.soname) == 0))
                        best = f.path;
        }
        return best;
}

/* CUDA majors that matter here: the toolkits', the wheels', what cuDNN was
 * built for (verify's cudnnGetCudartVersion). */
static void cuda_majors(const cc_value *list, const cc_value *verify, const cc_value *toolkits, int *majors, size_t *n)
{
        size_t i, j;

#define ADD_MAJOR(mj)                                                                                                  \
        do {                                                                                                           \
                int m_ = (mj), k_, have_ = 0;                                                                          \
                for (k_ = 0; k_ < (int)*n; k_++)                                                                       \
                        have_ |= majors[k_] == m_;                                                                     \
                if (m_ >= 9 && m_ <= 20 && !have_ && *n < 8)                                                           \
                        majors[(*n)++] = m_;                                                                           \
        } while (0)
        cc_vw_list_doc ld;

        for (i = 0; i < cc_v_len(toolkits); i++) {
                cc_vw_toolkit tk;
                cudnnctl_ver v;

                cc_vw_toolkit_at(toolkits, i, &tk, NULL);
                if (cudnnctl_ver_parse(tk.version, &v) == 0)
                        ADD_MAJOR((int)v.part[0]);
        }
        cc_vw_list_doc_read(list, &ld, NULL);
        for (i = 0; i < cc_v_len(ld.installations); i++) {
                cc_vw_installation in;

                cc_vw_installation_at(ld.installations, i, &in, NULL);
                for (j = 0; j < cc_v_len(in.versions); j++) {
                        cc_vw_version ve;

                        /* a wheel's dist-info says the CUDA major it was built for (null: unknown) */
                        cc_vw_version_at(in.versions, j, &ve, NULL);
                        if (CC_VW_HAS(&ve, version, cuda_major))
                                ADD_MAJOR((int)ve.cuda_major);
                }
        }
        for (i = 0; i < cc_v_len(verify); i++) {
                /* what cudnnGetCudartVersion returned: entry, document, probes, cudnn, facts */
                cc_vw_verify_entry e;
                cc_vw_verify_doc d;
                cc_vw_verify_probes ps;
                cc_vw_probe p;
                cc_vw_cudnn_facts cf;
                int64_t cv;

                cc_vw_verify_entry_at(verify, i, &e, NULL);
                cc_vw_verify_doc_read(e.document, &d, NULL);
                cc_vw_verify_probes_read(d.probes, &ps, NULL);
                cc_vw_probe_read(ps.cudnn, &p, NULL);
                cc_vw_cudnn_facts_read(p.facts, &cf, NULL);
                cv = cf.cudart_version;
                if (cv >= 9000)
                        ADD_MAJOR((int)(cv / 1000));
        }
#undef ADD_MAJOR
}

static cc_value *which_facts(cc_machine *m, const cc_value *list, const cc_value *verify, const cc_value *toolkits,
                             cc_error *err)
{
        int majors[8];
        size_t nm = 0, i;
        cc_strv names = {0};
        cudnnctl_which_options wo;
        cudnnctl_value *w = NULL;
        int win = m->system == CC_SYS_WINDOWS;

        cuda_majors(list, verify, toolkits, majors, &nm);
        if (cc_strv_push(&names, "cudnn", err) < 0)
                goto fail;
        if (win) {
                if (cc_strv_push(&names, "nvcuda.dll", err) < 0 || cc_strv_push(&names, "zlibwapi.dll", err) < 0)
                        goto fail;
        } else if (cc_strv_push(&names, "libcuda.so.1", err) < 0 || cc_strv_push(&names, "libcuda.so", err) < 0 ||
                   cc_strv_push(&names, "libz.so.1", err) < 0) {
                goto fail;
        }
        for (i = 0; i < nm; i++) {
                char buf[3][64];
                int k;

                if (win) {
                        snprintf(buf[0], sizeof(buf[0]), majors[i] == 11 ? "cudart64_110.dll" : "cudart64_%d.dll",
                                 majors[i]);
                        snprintf(buf[1], sizeof(buf[1]), "cublasLt64_%d.dll", majors[i]);
                        snprintf(buf[2], sizeof(buf[2]), majors[i] == 11 ? "nvrtc64_112_0.dll" : "nvrtc64_%d0_0.dll",
                                 majors[i]);
                } else {
                        snprintf(buf[0], sizeof(buf[0]), "libcudart.so.%d", majors[i]);
                        snprintf(buf[1], sizeof(buf[1]), "libcublasLt.so.%d", majors[i]);
                        snprintf(buf[2], sizeof(buf[2]), "libnvrtc.so.%d", majors[i]);
                }
                for (k = 0; k < 3; k++)
                        if (cc_strv_push(&names, buf[k], err) < 0)
                                goto fail;
        }
        memset(&wo, 0, sizeof(wo));
        wo.everywhere = 1; /* the checks name installations by list's ids */
        if (cudnnctl_which(m, (const char *const *)names.v, names.n, &wo, &w, err) < 0)
                goto fail;
        cc_strv_free(&names);
        return w;
fail:
        cc_strv_free(&names);
        return NULL;
}

/* The shim of the installation a plain program gets (which "cudnn"), or 0. */
static int64_t plain_install(const cudnnctl_value *w)
{
        cc_vw_which_doc wd;
        size_t i;

        cc_vw_which_doc_read(w, &wd, NULL);
        for (i = 0; i < cc_v_len(wd.results); i++) {
                cc_vw_resolution r;

                cc_vw_resolution_at(wd.results, i, &r, NULL);
                if (r.found && CC_VW_HAS(&r, resolution, installation))
                        return r.installation;
        }
        return 0;
}

/* e.document = what a command gave (*doc, rc 0), or null with e.error = why
 * it could not (rc -1); only running out of memory stops the doctor. (doc is
 * passed by address: the command's call is an argument of this one, and C
 * does not order the evaluation of arguments.) */
static int set_document(cc_value *e, int rc, cc_value **doc, const cc_error *why, cc_error *err)
{
        if (rc == 0)
                return cc_v_set(e, CC_K(verify_entry, document), *doc, err);
        if (why->code == CC_ERR_NOMEM) {
                *err = *why;
                return -1;
        }
        if (cc_v_set_str(e, CC_K(verify_entry, error), why->msg, err) < 0)
                return -1;
        return cc_v_set_null(e, CC_K(verify_entry, document), err);
}

/* The path of the shim a plain program gets, or NULL. */
static const char *plain_path(const cudnnctl_value *w)
{
        cc_vw_which_doc wd;
        size_t i;

        cc_vw_which_doc_read(w, &wd, NULL);
        for (i = 0; i < cc_v_len(wd.results); i++) {
                cc_vw_resolution r;

                cc_vw_resolution_at(wd.results, i, &r, NULL);
                if (r.found)
                        return r.path;
        }
        return NULL;
}

/* One installation verified: the first (the one a plain program loads) in
 * the caller's thread, the others side by side in threads of their own,
 * each over a clone of the machine (a tree's caches are not shared across
 * threads), sharing the driver probe. Their documents go into the facts in
 * the order the jobs were made, so the document does not depend on timing. */
struct vjob {
        cudnnctl_verify_options vo;
        char ids[32];
        int64_t id;
        int rc;
        cudnnctl_value *doc;
        cc_error e;
};

struct vpool {
        cc_machine *m;
        const cc_value *list;
        cc_vf_driver *driver;
        cc_progress *pg;
        struct vjob *jobs;
        size_t n, next; /* next: the first job nobody took, under s */
        cc_sync *s;
};

static void vjob_run(struct vpool *p, cc_machine *m, struct vjob *j)
{
        long slot = cc_progress_begin(p->pg, "installation %lld (its probes%s)", (long long)j->id,
                                      j->vo.no_compile ? "" : " and the compile proof");

        j->rc = cc_verify_listed(m, &j->vo, p->list, p->driver, &j->doc, &j->e);
        cc_progress_end(p->pg, slot);
        cc_progress_done(p->pg, "verified installation %lld", (long long)j->id);
}

/* A thread: the jobs after the first, one at a time, over its own machine. */
static void vworker(void *arg)
{
        struct vpool *p = arg;
        cc_machine *own = NULL;
        cc_error e = {0};

        if (cc_machine_clone_live(p->m, &own, &e) < 0)
                return; /* the caller's thread runs what is left */
        for (;;) {
                size_t i;

                cc_sync_lock(p->s);
                i = p->next < p->n ? p->next++ : p->n;
                cc_sync_unlock(p->s);
                if (i >= p->n)
                        break;
                vjob_run(p, own, &p->jobs[i]);
        }
        cudnnctl_machine_free(own);
}

static cc_value *verify_facts(cc_machine *m, const cudnnctl_doctor_options *o, const cc_value *list, int64_t plain,
                              cc_progress *pg, cc_error *err)
{
        cc_vw_list_doc ld;
        cc_value *arr = cc_v_array(err);
        cc_vf_driver driver = {0}; /* one driver probe for all */
        struct vjob jobs[MAX_VERIFY];
        struct vpool p;
        cc_thread *th[MAX_VERIFY];
        size_t i, n, k, nth = 0;
        int pass, want;

        memset(jobs, 0, sizeof(jobs));
        memset(&p, 0, sizeof(p));
        if (arr == NULL)
                return NULL;
        cc_vw_list_doc_read(list, &ld, NULL);
        n = cc_v_len(ld.installations);
        /* the one a plain program loads first (with GPU work and compile), then the others */
        for (pass = 0; pass < 2; pass++)
                for (i = 0; i < n && p.n < MAX_VERIFY; i++) {
                        cc_vw_installation in;
                        struct vjob *j = &jobs[p.n];
                        int first;
                        cc_value *e;

                        cc_vw_installation_at(ld.installations, i, &in, NULL);
                        first = plain != 0 ? in.id == plain : i == 0;
                        if ((pass == 0) != first || cc_v_len(in.majors) == 0)
                                continue;
                        j->id = in.id;
                        snprintf(j->ids, sizeof(j->ids), "%lld", (long long)in.id);
                        j->vo.install = j->ids;
                        j->vo.gpu = first ? o->gpu : CUDNNCTL_GPU_OFF;
                        j->vo.timeout_ms = o->timeout_ms;
                        j->vo.probe_exe = o->probe_exe;
                        j->vo.no_compile = o->no_compile || !first;
                        j->vo.recompile = o->recompile;
                        e = cc_v_object(err);
                        TRY(cc_v_push(arr, e, err));
                        TRY(cc_v_set_int(e, CC_K(verify_entry, installation), in.id, err));
                        TRY(cc_v_set_str(e, CC_K(verify_entry, role),
                                         first ? (plain ? "plain-program" : "first-found") : "other", err));
                        p.n++;
                }
        p.m = m;
        p.list = list;
        p.driver = &driver;
        p.pg = pg;
        p.jobs = jobs;
        p.next = 1; /* the first is the caller's */
        /* side by side only on the running machine (a --root one runs no
         * child), within the jobs allowed; the caller's thread is one */
        want = m->live && p.n > 1 ? cc_machine_jobs(m, MAX_VERIFY) : 1;
        if (want > 1 && cc_sync_new(&driver.s, NULL) == 0) {
                p.s = driver.s;
                for (k = 1; k < (size_t)want && k < p.n; k++)
                        if (cc_thread_start(vworker, &p, &th[nth], NULL) == 0)
                                nth++;
        }
        if (p.n > 0)
                vjob_run(&p, m, &jobs[0]);
        for (k = 0; k < nth; k++)
                cc_thread_join(th[k]);
        nth = 0;
        /* what no thread took (none started, or none could clone) */
        for (k = p.next; k < p.n; k++)
                vjob_run(&p, m, &jobs[k]);
        for (k = 0; k < p.n; k++) {
                int rc = set_document(cc_v_atm(arr, k), jobs[k].rc, &jobs[k].doc, &jobs[k].e, err);

                jobs[k].doc = NULL; /* taken, also on failure */
                if (rc < 0)
                        goto fail;
        }
        cc_vf_driver_free(&driver); /* and p.s, the driver's lock */
        return arr;
fail:
        for (k = 0; k < nth; k++)
                cc_thread_join(th[k]);
        for (k = 0; k < p.n; k++)
                cc_v_free(jobs[k].doc);
        cc_vf_driver_free(&driver);
        cc_v_free(arr);
        return NULL;
}

static cc_value *deps_facts(cc_machine *m, const cc_value *list, int64_t plain, const char *plain_path, cc_error *err)
{
        cc_vw_list_doc ld;
        cc_value *arr = cc_v_array(err);
        size_t i;

        if (arr == NULL)
                return NULL;
        cc_vw_list_doc_read(list, &ld, NULL);
        for (i = 0; i < cc_v_len(ld.installations) && cc_v_len(arr) < MAX_DEPS; i++) {
                cc_vw_installation inst;
                const char *target;
                cudnnctl_deps_options dopt;
                cudnnctl_value *doc = NULL;
                cc_error de = {0};
                cc_value *e;

                cc_vw_installation_at(ld.installations, i, &inst, NULL);
                /* the shim the loader picks for the installation a plain program gets (an
                 * installer layout holds one per CUDA variant), else its first */
                target = plain != 0 && inst.id == plain && plain_path != NULL ? plain_path : inst_lib(&inst, "cudnn");
                if (target == NULL)
                        continue;
                e = cc_v_object(err);
                TRY(cc_v_push(arr, e, err));
                TRY(cc_v_set_int(e, CC_K(deps_entry, installation), inst.id, err));
                TRY(cc_v_set_str(e, CC_K(deps_entry, target), target, err));
                memset(&dopt, 0, sizeof(dopt));
                TRY(set_document(e, cudnnctl_deps(m, target, &dopt, &doc, &de), &doc, &de, err));
        }
        return arr;
fail:
        cc_v_free(arr);
        return NULL;
}

/* deps_facts in a thread of its own, over a clone of the machine, while
 * the installations are verified in the caller's (it needs only the list
 * and which): on the running machine, where a probe child holds a CPU and
 * the verify thread mostly waits for it. */
struct djob {
        cc_machine *m;
        const cc_value *list;
        int64_t plain;
        const char *plain_path;
        cc_value *arr; /* its facts; NULL with e when they failed */
        int ran;       /* 0: no clone of the machine: the caller's thread does it */
        cc_error e;
};

static void deps_worker(void *arg)
{
        struct djob *d = arg;
        cc_machine *own = NULL;

        if (cc_machine_clone_live(d->m, &own, &d->e) < 0)
                return;
        d->arr = deps_facts(own, d->list, d->plain, d->plain_path, &d->e);
        d->ran = 1;
        cudnnctl_machine_free(own);
}

/* The frameworks of the machine's Python interpreters (judged later, with
 * the checks); with a root, or when left out, why not. In two halves:
 * frameworks_start starts their children (with more than one job, before
 * the installations are verified, so both run at once), frameworks_facts
 * waits for them. */
static int frameworks_skipped(const cc_machine *m, const cudnnctl_doctor_options *o)
{
        return !m->live || o->no_frameworks;
}

static cc_fw_run *frameworks_start(cc_machine *m, const cudnnctl_doctor_options *o, const cc_value *list,
                                   cc_progress *pg, cc_error *ge)
{
        cudnnctl_frameworks_options fo;

        if (frameworks_skipped(m, o))
                return NULL;
        memset(&fo, 0, sizeof(fo));
        fo.gpu = o->gpu;
        fo.timeout_ms = o->timeout_ms;
        return cc_fw_start(m, &fo, list, pg, ge); /* the options are copied */
}

static cc_value *frameworks_facts(cc_machine *m, const cudnnctl_doctor_options *o, cc_fw_run *run, cc_error *ge,
                                  cc_error *err)
{
        cc_value *f = cc_v_object(err), *its = NULL;

        if (f == NULL) {
                (void)cc_fw_finish(run, NULL);
                return NULL;
        }
        if (frameworks_skipped(m, o)) {
                if (cc_v_set_str(f, "reason",
                                 o->no_frameworks ? "not checked (--no-frameworks)"
                                                  : "not checked (static check: no interpreter is run)",
                                 err) < 0) {
                        cc_v_free(f);
                        return NULL;
                }
                return f;
        }
        if (run != NULL)
                its = cc_fw_finish(run, ge);
        if (its == NULL && ge->code != CC_ERR_NOMEM) {
                /* no private directory for the probe (a full or read-only disk): the
                 * rest of the check-up goes on, and the area says why */
                if (cc_v_set(f, "reason", cc_v_strf(err, "not checked: %s", ge->msg), err) < 0) {
                        cc_v_free(f);
                        return NULL;
                }
                return f;
        }
        if (its == NULL)
                *err = *ge;
        if (its == NULL || cc_v_set_null(f, "expect", err) < 0 || cc_v_set(f, "interpreters", its, err) < 0) {
                cc_v_free(f);
                return NULL;
        }
        return f;
}

static int doctor_run(cudnnctl_machine *m, const cudnnctl_doctor_options *opts, cudnnctl_value **out,
                      cudnnctl_error *err)
{
        cudnnctl_doctor_options defaults;
        cc_value *doc = NULL, *facts = NULL, *host = NULL, *verify = NULL, *which = NULL;
        cudnnctl_value *list = NULL;
        int64_t t0 = cc_monotonic_us(), plain = 0;
        cudnnctl_value *w0 = NULL;
        const char *names[] = {"cudnn"};
        cudnnctl_which_options wo;
        cc_vw_host hv;
        cc_vw_doctor_facts fv;
        cc_fw_run *fw = NULL;
        cc_error ge = {0};
        cc_value *f;
        cc_progress *pg = NULL;
        struct djob dj;
        cc_thread *dth = NULL;

        memset(&dj, 0, sizeof(dj));
        if (out == NULL || m == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_doctor: no machine or no place for the result");
        *out = NULL;
        if (opts == NULL) {
                memset(&defaults, 0, sizeof(defaults));
                opts = &defaults;
        }
        doc = cc_doc_new("doctor", m, err);
        facts = cc_v_object(err);
        if (doc == NULL || facts == NULL)
                goto fail;
        TRY(cc_v_set_str(doc, "mode", m->live ? "live" : "static", err));
        TRY(cc_v_set_str(doc, "gpu_requested",
                         opts->gpu == CUDNNCTL_GPU_ON    ? "on"
                         : opts->gpu == CUDNNCTL_GPU_OFF ? "off"
                                                         : "auto",
                         err));
        pg = cc_progress_new(opts->progress, opts->progress_ctx);
        host = host_facts(m, err);
        if (host == NULL)
                goto fail;
        cc_progress_done(pg, "read the host: toolkits, driver files, search paths");
        if (cudnnctl_list(m, NULL, &list, err) < 0)
                goto fail;
        /* the framework children run while the installations are verified
         * (their results are read in a fixed order: the document is the same) */
        cc_progress_done(pg, "listed %zu cuDNN installation%s", cc_v_len(cc_v_get(list, "installations")),
                         cc_v_len(cc_v_get(list, "installations")) == 1 ? "" : "s");
        if (cc_fw_jobs(m) > 1)
                fw = frameworks_start(m, opts, list, pg, &ge);
        memset(&wo, 0, sizeof(wo));
        wo.everywhere = 1; /* plain_install: list's id */
        if (cudnnctl_which(m, names, 1, &wo, &w0, err) < 0)
                goto fail;
        plain = plain_install(w0);
        dj.m = m;
        dj.list = list;
        dj.plain = plain;
        dj.plain_path = plain_path(w0);
        if (m->live && cc_machine_jobs(m, 2) > 1 && cc_thread_start(deps_worker, &dj, &dth, NULL) < 0)
                dth = NULL;
        verify = verify_facts(m, opts, list, plain, pg, err);
        if (verify == NULL)
                goto fail;
        cc_vw_host_read(host, &hv, NULL);
        which = which_facts(m, list, verify, hv.toolkits, err);
        if (which == NULL)
                goto fail;
        TRY(cc_v_set(facts, "host", host, err));
        host = NULL;
        TRY(cc_v_set(facts, "list", list, err));
        list = NULL;
        TRY(cc_v_set(facts, "which", which, err));
        which = NULL;
        cc_vw_doctor_facts_read(facts, &fv, NULL); /* fv.list: the list, now in facts */
        if (dth != NULL) {
                cc_thread_join(dth);
                dth = NULL;
        }
        if (dj.ran && dj.arr == NULL) {
                *err = dj.e;
                goto fail;
        }
        {
                /* the thread's facts, or made here (cc_v_set owns them either way) */
                cc_value *dv = dj.ran ? dj.arr : deps_facts(m, fv.list, plain, plain_path(w0), err);

                dj.arr = NULL;
                TRY(cc_v_set(facts, CC_K(doctor_facts, deps), dv, err));
        }
        cc_progress_done(pg, "read the dependencies of each installation");
        cc_v_free(w0);
        w0 = NULL;
        TRY(cc_v_set(facts, "verify", verify, err));
        verify = NULL;
        if (cc_fw_jobs(m) <= 1)
                fw = frameworks_start(m, opts, fv.list, pg, &ge);
        f = frameworks_facts(m, opts, fw, &ge, err);
        fw = NULL;
        if (!frameworks_skipped(m, opts)) {
                const cc_value *its = cc_v_get(f, "interpreters");
                size_t k, started = 0;

                for (k = 0; k < cc_v_len(its); k++) {
                        const char *st = cc_v_get_str(cc_v_at(its, k), "state");

                        started += st == NULL || strcmp(st, "skipped") != 0;
                }
                cc_progress_done(pg,
                                 "asked %zu of %zu Python interpreters about their frameworks (the others' "
                                 "files hold none)",
                                 started, cc_v_len(its));
        }
        TRY(cc_v_set(facts, CC_K(doctor_facts, frameworks), f, err));
        TRY(cc_v_set_int(facts, "gather_ms", (cc_monotonic_us() - t0) / 1000, err));
        TRY(cc_v_set(doc, "facts", facts, err));
        facts = NULL;
        cc_progress_free(pg); /* all children are done */
        pg = NULL;
        TRY(cc_doctor_run_checks(doc, err));
        /* the summary the checks wrote, to complete: the view's is read-only */
        TRY(cc_v_set_int(cc_v_getm(doc, CC_K(doctor, summary)), CC_K(doctor_summary, wall_ms),
                         (cc_monotonic_us() - t0) / 1000, err));
        *out = doc;
        return 0;
fail:
        if (dth != NULL)
                cc_thread_join(dth); /* it reads the list and w0 */
        cc_v_free(dj.arr);
        cc_v_free(doc);
        cc_v_free(facts);
        cc_v_free(host);
        cc_v_free(list);
        cc_v_free(verify);
        cc_v_free(which);
        cc_v_free(w0);
        (void)cc_fw_finish(fw, NULL);
        cc_progress_free(pg);
        return -1;
}

/* The doctor writes nothing: its list, its which and its checks share one
 * machine-wide discovery (three walks of the machine before). */
int cudnnctl_doctor(cudnnctl_machine *m, const cudnnctl_doctor_options *opts, cudnnctl_value **out, cudnnctl_error *err)
{
        int rc;

        if (m == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_doctor: no machine or no place for the result");
        cc_discover_share(m, 1);
        rc = doctor_run(m, opts, out, err);
        cc_discover_share(m, 0);
        return rc;
}

int cudnnctl_doctor_recheck(const cudnnctl_value *in, cudnnctl_value **out, cudnnctl_error *err)
{
        cc_value *doc = NULL;
        cc_vw_doctor d;

        *out = NULL;
        cc_vw_doctor_read(in, &d, NULL);
        if (cc_v_type(in) != CUDNNCTL_OBJECT || d.command == NULL || strcmp(d.command, "doctor") != 0 ||
            d.facts == NULL)
                return cc_err(err, CC_ERR_FORMAT,
                              "not a 'cudnnctl doctor --json' document (no command \"doctor\" "
                              "with a \"facts\" object)");
        if (d.schema_version > CUDNNCTL_JSON_SCHEMA_VERSION)
                return cc_err(err, CC_ERR_UNSUPPORTED, "schema_version %lld is newer than this tool reads (%d)",
                              (long long)d.schema_version, CUDNNCTL_JSON_SCHEMA_VERSION);
        doc = cc_v_copy(in, err);
        if (doc == NULL)
                return -1;
        cc_v_free(cc_v_take(doc, CC_K(doctor, areas)));
        cc_v_free(cc_v_take(doc, CC_K(doctor, findings)));
        cc_v_free(cc_v_take(doc, CC_K(doctor, summary)));
        if (cc_v_set_bool(doc, CC_K(doctor, rechecked), 1, err) < 0 || cc_doctor_run_checks(doc, err) < 0) {
                cc_v_free(doc);
                return -1;
        }
        *out = doc;
        return 0;
}
