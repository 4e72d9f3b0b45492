/* Host facts only the Windows checks need, read through the machine's tree
 * (so --root images work): the Python interpreters (a Python >= 3.8 does not
 * search PATH for the DLLs its extension modules import), their
 * site-packages (TensorFlow's version, pip's "~" leftovers of an upgrade
 * that could not replace files in use), and, on the running machine only,
 * the commit charge (error 1455 while mapping cuDNN's large DLLs). Added to
 * host as host.windows by commands/doctor.c (cc_doctor_host_windows, declared
 * in doctor/doctor.h). */
#include "../doctor/doctor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../machine/machine.h"
#include "../platform/platform.h"

enum { MAX_PYTHONS = 32, MAX_SITE_ENTRIES = 8192, MAX_CFG = 1 << 16 };

static int is_file(cc_machine *m, const char *p)
{
        cc_stat st;

        return cc_tree_stat(m->tree, p, &st, NULL) == 0 && st.type == CC_FT_FILE;
}

static int is_dir(cc_machine *m, const char *p)
{
        cc_stat st;

        return cc_tree_stat(m->tree, p, &st, NULL) == 0 && st.type == CC_FT_DIR;
}

/* "3.11" from a python311.dll / python38.dll beside the interpreter, or NULL. */
static char *dll_version(cc_machine *m, const char *dir, char **dll, cc_error *err)
{
        cc_strv names = {0};
        cc_error le = {0};
        char *v = NULL;
        size_t i;

        *dll = NULL;
        if (cc_tree_list(m->tree, dir, 4096, &names, &le) < 0)
                return le.code == CC_ERR_NOMEM ? (*err = le, NULL) : cc_strdup(err, "");
        for (i = 0; i < names.n && v == NULL; i++) {
                const char *n = names.v[i];
                size_t k = 0;

                if (cc_strncasecmp(n, "python3", 7) != 0 || !cc_ends_with_nocase(n, ".dll"))
                        continue;
                while (n[7 + k] >= '0' && n[7 + k] <= '9')
                        k++;
                if (k == 0 || k > 3 || strlen(n) != 7 + k + 4)
                        continue; /* python3.dll is the stable ABI's forwarder: no minor */
                v = cc_asprintf(err, "3.%.*s", (int)k, n + 7);
                if (v == NULL)
                        break;
                *dll = cc_tree_join(m->tree, dir, n, err);
                if (*dll == NULL) {
                        free(v);
                        v = NULL;
                        break;
                }
        }
        cc_strv_free(&names);
        return v ? v : (err->code == CC_ERR_NOMEM ? NULL : cc_strdup(err, ""));
}

/* "3.11.7" from pyvenv.cfg's version / version_info line, or "". */
static char *cfg_version(cc_machine *m, const char *cfg, cc_error *err)
{
        char *text = NULL, *line;
        size_t len;
        cc_error re = {0};
        char *v = NULL;

        if (cc_tree_read(m->tree, cfg, MAX_CFG, &text, &len, &re) < 0)
                return re.code == CC_ERR_NOMEM ? (*err = re, NULL) : cc_strdup(err, "");
        for (line = text; line != NULL && *line != '\0' && v == NULL;) {
                char *nl = strpbrk(line, "\r\n"), *eq;
                size_t kl;

                if (nl != NULL)
                        *nl = '\0';
                eq = strchr(line, '=');
                if (eq != NULL) {
                        kl = (size_t)(eq - line);
                        while (kl > 0 && (line[kl - 1] == ' ' || line[kl - 1] == '\t'))
                                kl--;
                        if ((kl == 7 && strncmp(line, "version", 7) == 0) ||
                            (kl == 12 && strncmp(line, "version_info", 12) == 0)) {
                                const char *s = eq + 1;
                                size_t n = 0;

                                while (*s == ' ' || *s == '\t')
                                        s++;
                                while ((s[n] >= '0' && s[n] <= '9') || s[n] == '.')
                                        n++;
                                if (n > 0)
                                        v = cc_asprintf(err, "%.*s", (int)n, s);
                        }
                }
                line = nl != NULL ? nl + 1 : NULL;
        }
        free(text);
        return v ? v : (err->code == CC_ERR_NOMEM ? NULL : cc_strdup(err, ""));
}

/* One site-packages directory: TensorFlow's dist-info and pip's leftovers. */
static cc_value *site_facts(cc_machine *m, const char *site, cc_error *err)
{
        cc_strv names = {0};
        cc_error le = {0};
        cc_value *o = cc_v_object(err), *left = cc_v_array(err), *tf = cc_v_array(err);
        size_t i;

        if (o == NULL || left == NULL || tf == NULL)
                goto fail;
        TRY(cc_v_set_str(o, CC_K(win_site, path), site, err));
        if (cc_tree_list(m->tree, site, MAX_SITE_ENTRIES, &names, &le) < 0) {
                if (le.code == CC_ERR_NOMEM) {
                        *err = le;
                        goto fail;
                }
                TRY(cc_v_set_str(o, CC_K(win_site, error), le.msg, err));
        }
        TRY(cc_v_set_bool(o, CC_K(win_site, has_nvidia), 0, err));
        TRY(cc_v_set_bool(o, CC_K(win_site, has_torch), 0, err));
        for (i = 0; i < names.n; i++) {
                const char *n = names.v[i];

                if (n[0] == '~') {
                        char *p = cc_tree_join(m->tree, site, n, err);

                        if (p == NULL || cc_v_push(left, cc_v_str(p, err), err) < 0) {
                                free(p);
                                goto fail;
                        }
                        free(p);
                        continue;
                }
                if (cc_strcasecmp(n, "nvidia") == 0)
                        TRY(cc_v_set_bool(o, CC_K(win_site, has_nvidia), 1, err));
                if (cc_strcasecmp(n, "torch") == 0)
                        TRY(cc_v_set_bool(o, CC_K(win_site, has_torch), 1, err));
                if (cc_ends_with_nocase(n, ".dist-info")) {
                        static const char *const pk[] = {"tensorflow-", "tensorflow_gpu-", "tensorflow_intel-",
                                                         "tensorflow_cpu-"};
                        size_t k;

                        for (k = 0; k < CC_ARRAY_LEN(pk); k++) {
                                size_t pl = strlen(pk[k]);
                                cc_value *e;

                                if (cc_strncasecmp(n, pk[k], pl) != 0 || strlen(n) < pl + 10)
                                        continue;
                                e = cc_v_object(err);
                                TRY(cc_v_push(tf, e, err));
                                TRY(cc_v_set(e, CC_K(win_tf, package), cc_v_strn(n, pl - 1, err), err));
                                TRY(cc_v_set(e, CC_K(win_tf, version), cc_v_strn(n + pl, strlen(n) - pl - 10, err),
                                             err));
                                TRY(cc_v_set(e, CC_K(win_tf, dist_info), cc_v_strf(err, "%s\\%s", site, n), err));
                        }
                }
        }
        TRY(cc_v_set(o, CC_K(win_site, leftovers), left, err));
        left = NULL;
        TRY(cc_v_set(o, CC_K(win_site, tensorflow), tf, err));
        cc_strv_free(&names);
        return o;
fail:
        cc_strv_free(&names);
        cc_v_free(o);
        cc_v_free(left);
        cc_v_free(tf);
        return NULL;
}

/* An interpreter at exe (python.exe), if it is there and not listed yet. */
static int add_python(cc_machine *m, const char *exe, const char *source, cc_value *pys, cc_value *sites, cc_error *err)
{
        char *dir = NULL, *ver = NULL, *dll = NULL, *site = NULL, *cfg = NULL, *home = NULL;
        cc_value *o = NULL;
        const char *vsrc = NULL;
        size_t i;
        int rv = -1;

        if (cc_v_len(pys) >= MAX_PYTHONS || !is_file(m, exe))
                return 0;
        for (i = 0; i < cc_v_len(pys); i++) {
                cc_vw_win_python py;

                cc_vw_win_python_at(pys, i, &py, NULL);
                if (cc_tree_path_eq(m->tree, py.path, exe))
                        return 0;
        }
        dir = cc_tree_dirname(m->tree, exe, err);
        if (dir == NULL)
                goto fail;
        /* a virtual environment: Scripts\python.exe under a directory with pyvenv.cfg */
        if (cc_strcasecmp(cc_basename(dir), "Scripts") == 0) {
                home = cc_tree_dirname(m->tree, dir, err);
                if (home == NULL)
                        goto fail;
                cfg = cc_tree_join(m->tree, home, "pyvenv.cfg", err);
                if (cfg == NULL)
                        goto fail;
                if (!is_file(m, cfg)) {
                        free(cfg);
                        cfg = NULL;
                        free(home);
                        home = NULL;
                }
        }
        ver = dll_version(m, dir, &dll, err);
        if (ver == NULL)
                goto fail;
        if (ver[0] != '\0')
                vsrc = "dll-name";
        if (ver[0] == '\0' && cfg != NULL) {
                free(ver);
                ver = cfg_version(m, cfg, err);
                if (ver == NULL)
                        goto fail;
                if (ver[0] != '\0')
                        vsrc = "pyvenv.cfg";
        }
        site = cc_asprintf(err, "%s\\Lib\\site-packages", home ? home : dir);
        if (site == NULL)
                goto fail;
        o = cc_v_object(err);
        TRY(cc_v_push(pys, o, err));
        TRY(cc_v_set_str(o, CC_K(win_python, path), exe, err));
        TRY(cc_v_set_str(o, CC_K(win_python, source), source, err));
        TRY(cc_v_set_str(o, CC_K(win_python, version), ver[0] ? ver : NULL, err));
        TRY(cc_v_set_str(o, CC_K(win_python, version_source), vsrc, err));
        TRY(cc_v_set_str(o, CC_K(win_python, version_file), vsrc == NULL ? NULL : dll ? dll : cfg, err));
        TRY(cc_v_set_str(o, CC_K(win_python, venv), home, err));
        if (is_dir(m, site)) {
                int have = 0;

                TRY(cc_v_set_str(o, CC_K(win_python, site_packages), site, err));
                for (i = 0; i < cc_v_len(sites); i++) {
                        cc_vw_win_site ws;

                        cc_vw_win_site_at(sites, i, &ws, NULL);
                        have |= cc_tree_path_eq(m->tree, ws.path, site);
                }
                if (!have)
                        TRY(cc_v_push(sites, site_facts(m, site, err), err));
        } else {
                TRY(cc_v_set_null(o, CC_K(win_python, site_packages), err));
        }
        rv = 0;
fail:
        free(dir);
        free(ver);
        free(dll);
        free(site);
        free(cfg);
        free(home);
        return rv;
}

static int glob_pythons(cc_machine *m, const char *pattern, const char *source, cc_value *pys, cc_value *sites,
                        cc_error *err)
{
        cc_strv found = {0};
        cc_error ge = {0};
        size_t i;

        if (cc_tree_glob(m->tree, pattern, 64, &found, &ge) < 0 && ge.code == CC_ERR_NOMEM) {
                *err = ge;
                return -1;
        }
        for (i = 0; i < found.n; i++)
                if (add_python(m, found.v[i], source, pys, sites, err) < 0) {
                        cc_strv_free(&found);
                        return -1;
                }
        cc_strv_free(&found);
        return 0;
}

static cc_value *memory_facts(cc_machine *m, cc_error *err)
{
        cc_win_memory ms;
        cc_error merr = {0};
        cc_value *o;

        if (!m->live || !cc_host_is_windows())
                return cc_v_null(err); /* another machine's tree: the commit charge is not there to read */
        o = cc_v_object(err);
        if (o == NULL)
                return NULL;
        if (cc_win_memory_status(&ms, &merr) < 0) {
                if (cc_v_set_str(o, CC_K(win_memory, error), merr.msg, err) < 0) {
                        cc_v_free(o);
                        return NULL;
                }
                return o;
        }
        if (cc_v_set_int(o, CC_K(win_memory, commit_limit), (int64_t)ms.commit_limit, err) < 0 ||
            cc_v_set_int(o, CC_K(win_memory, commit_available), (int64_t)ms.commit_available, err) < 0 ||
            cc_v_set_int(o, CC_K(win_memory, physical_total), (int64_t)ms.physical_total, err) < 0 ||
            cc_v_set_int(o, CC_K(win_memory, physical_available), (int64_t)ms.physical_available, err) < 0) {
                cc_v_free(o);
                return NULL;
        }
        return o;
}

int cc_doctor_host_windows(struct cudnnctl_machine *m, cc_value *host, cc_error *err)
{
        static const char *const usual[] = {
            "C:\\Python3*\\python.exe",
            "C:\\Program Files\\Python3*\\python.exe",
            "C:\\Users\\*\\AppData\\Local\\Programs\\Python\\Python3*\\python.exe",
            "C:\\ProgramData\\Anaconda3\\python.exe",
            "C:\\ProgramData\\miniconda3\\python.exe",
            "C:\\Users\\*\\anaconda3\\python.exe",
            "C:\\Users\\*\\miniconda3\\python.exe",
        };
        cc_value *w = cc_v_object(err), *pys = cc_v_array(err), *sites = cc_v_array(err);
        const char *path = cc_machine_getenv(m, "PATH");
        const char *venv = cc_machine_getenv(m, "VIRTUAL_ENV");
        const char *conda = cc_machine_getenv(m, "CONDA_PREFIX");
        cc_strv parts = {0};
        char *p = NULL;
        size_t i;

        if (w == NULL || pys == NULL || sites == NULL)
                goto fail;
        if (venv != NULL && cc_tree_is_abs(m->tree, venv)) {
                p = cc_asprintf(err, "%s\\Scripts\\python.exe", venv);
                TRY(p ? add_python(m, p, "VIRTUAL_ENV", pys, sites, err) : -1);
                free(p);
                p = NULL;
        }
        if (conda != NULL && cc_tree_is_abs(m->tree, conda)) {
                p = cc_asprintf(err, "%s\\python.exe", conda);
                TRY(p ? add_python(m, p, "CONDA_PREFIX", pys, sites, err) : -1);
                free(p);
                p = NULL;
        }
        if (path != NULL) {
                TRY(cc_split_pathlist(path, ';', 4096, &parts, err));
                for (i = 0; i < parts.n; i++) {
                        char src[48];

                        if (!cc_tree_is_abs(m->tree, parts.v[i]))
                                continue;
                        p = cc_tree_join(m->tree, parts.v[i], "python.exe", err);
                        if (p == NULL)
                                goto fail;
                        snprintf(src, sizeof(src), "PATH entry %zu", i + 1);
                        TRY(add_python(m, p, src, pys, sites, err));
                        free(p);
                        p = NULL;
                }
        }
        for (i = 0; i < CC_ARRAY_LEN(usual); i++)
                TRY(glob_pythons(m, usual[i], "usual location", pys, sites, err));
        TRY(cc_v_set(w, CC_K(host_windows, pythons), pys, err));
        pys = NULL;
        TRY(cc_v_set(w, CC_K(host_windows, site_packages), sites, err));
        sites = NULL;
        TRY(cc_v_set(w, CC_K(host_windows, memory), memory_facts(m, err), err));
        TRY(cc_v_set(host, CC_K(host, windows), w, err));
        cc_strv_free(&parts);
        return 0;
fail:
        free(p);
        cc_strv_free(&parts);
        cc_v_free(w);
        cc_v_free(pys);
        cc_v_free(sites);
        return -1;
}
