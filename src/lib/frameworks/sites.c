/* Whether an interpreter could import a framework, from its files alone:
 * follow a pyenv shim to the version it runs, find the interpreter's
 * prefixes (a virtual environment's, the base installation's when the
 * environment includes it, the user's site), list their site directories
 * and the directories their .pth files add, and look for the frameworks'
 * names. Whatever is not understood answers 1 (start the interpreter). */
#include "sites.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../machine/tree.h"
#include "../platform/platform.h"

enum {
        MAX_TEXT = 64 * 1024, /* .pth, pyvenv.cfg, .python-version, shims */
        MAX_GLOB = 64,        /* matches of one site pattern */
        MAX_LIST = 100000,    /* names in one directory */
        MAX_DIRS = 256,       /* directories looked at */
        REASON_DIRS = 4,      /* directories named in a reason */
};

/* Entry names (lower-cased) that may be a framework: packages, modules and
 * their metadata (.dist-info, .egg-info, .egg, .egg-link). */
static const char *const fw_prefixes[] = {"torch",       "tensorflow",  "tf_nightly",  "tf-nightly", "jax",
                                          "onnxruntime", "ort_nightly", "ort-nightly", "cupy"};

struct sctx {
        cc_machine *m;
        cc_tree *t;
        cc_strv dirs; /* the directories looked at (canonical), in order */
        char *why;    /* why the answer is 1 */
};

/* ---- small helpers ---------------------------------------------------------- */

static int unsure(struct sctx *x, cc_error *err, const char *fmt, ...) CC_PRINTF(3, 4);

/* Answer 1 for the reason given: 1, or -1 when out of memory. */
static int unsure(struct sctx *x, cc_error *err, const char *fmt, ...)
{
        va_list ap;

        free(x->why);
        va_start(ap, fmt);
        x->why = cc_vasprintf(err, fmt, ap);
        va_end(ap);
        return x->why != NULL ? 1 : -1;
}

/* A tree call failed with e: out of memory is -1, anything else answers 1. */
static int failed(struct sctx *x, const cc_error *e, cc_error *err)
{
        if (e->code == CC_ERR_NOMEM) {
                if (err != NULL)
                        *err = *e;
                return -1;
        }
        return unsure(x, err, "%s", e->msg[0] ? e->msg : "a file could not be read");
}

static const char *framework_prefix(const char *name)
{
        size_t i;

        for (i = 0; i < CC_ARRAY_LEN(fw_prefixes); i++)
                if (cc_strncasecmp(name, fw_prefixes[i], strlen(fw_prefixes[i])) == 0)
                        return fw_prefixes[i];
        return NULL;
}

/* The framework name s mentions anywhere (ASCII case-insensitively), or NULL. */
static const char *mentioned(const char *s)
{
        for (; *s; s++) {
                const char *f = framework_prefix(s);

                if (f != NULL)
                        return f;
        }
        return NULL;
}

static int has_glob_magic(const char *s)
{
        return strpbrk(s, "*?[") != NULL;
}

static char *skip_blanks(char *s)
{
        while (*s == ' ' || *s == '\t')
                s++;
        return s;
}

static void trim_end(char *s)
{
        size_t n = strlen(s);

        while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
                s[--n] = '\0';
}

/* *type: what path is (CC_FT_NONE when not there). 0, 1 (unsure: a path
 * outside the tree), -1 out of memory. */
static int path_type(struct sctx *x, const char *path, int *type, cc_error *err)
{
        cc_stat st;
        cc_error e = {0};

        *type = CC_FT_NONE;
        if (cc_tree_stat(x->t, path, &st, &e) < 0)
                return failed(x, &e, err);
        *type = st.type;
        return 0;
}

/* A small text file: 0 with *out (caller frees), 1 (unsure: unreadable or
 * over 64 KiB), -1 out of memory. */
static int read_text(struct sctx *x, const char *path, char **out, cc_error *err)
{
        cc_error e = {0};
        size_t len;

        *out = NULL;
        if (cc_tree_read(x->t, path, MAX_TEXT, out, &len, &e) < 0) {
                if (e.code == CC_ERR_LIMIT)
                        return unsure(x, err, "%s is over 64 KiB", path);
                return failed(x, &e, err);
        }
        return 0;
}

/* *script: 1 when the file starts with "#!". 0, 1 (unsure), -1. */
static int is_script(struct sctx *x, const char *path, int *script, cc_error *err)
{
        cc_map map;
        cc_error e = {0};

        *script = 0;
        if (cc_tree_map(x->t, path, 0, &map, &e) < 0)
                return failed(x, &e, err);
        *script = map.size >= 2 && map.data[0] == '#' && map.data[1] == '!';
        cc_unmap(&map);
        return 0;
}

static char *join(struct sctx *x, const char *dir, const char *name, cc_error *err)
{
        return cc_tree_join(x->t, dir, name, err);
}

/* ---- pyenv -------------------------------------------------------------------- */

/* The first version named in a version file's text ("" when none): the
 * first word of the first line that is not a comment. */
static void first_version(char *text, char *out, size_t n)
{
        char *p = text, *line;

        out[0] = '\0';
        while ((line = cc_next_token(&p, "\r\n")) != NULL) {
                size_t k;

                line = skip_blanks(line);
                if (line[0] == '#' || line[0] == '\0')
                        continue;
                k = strcspn(line, " \t");
                if (k < n) {
                        memcpy(out, line, k);
                        out[k] = '\0';
                }
                return;
        }
}

/* The root a pyenv shim exports (export PYENV_ROOT="..."), or NULL. */
static char *shim_root(const char *text, cc_error *err)
{
        const char *p = strstr(text, "export PYENV_ROOT=");
        size_t n;

        if (p == NULL)
                return NULL;
        p += strlen("export PYENV_ROOT=");
        if (*p == '"' || *p == '\'') {
                char q = *p++;
                const char *e = strchr(p, q);

                if (e == NULL)
                        return NULL;
                n = (size_t)(e - p);
        } else {
                n = strcspn(p, " \t\r\n;");
        }
        return n > 0 ? cc_strndup(err, p, n) : NULL;
}

/* The version pyenv would pick (version out, at most n bytes): 0, 1
 * (unsure: "system", none, unreadable), -1. */
static int pyenv_version(struct sctx *x, const char *root, char *out, size_t n, cc_error *err)
{
        const char *env = cc_machine_getenv(x->m, "PYENV_VERSION");
        const char *from = cc_machine_getenv(x->m, "PYENV_DIR");
        char *dir = NULL, *file = NULL, *text = NULL;
        int rv = -1, rc, type;

        out[0] = '\0';
        if (env != NULL && env[0]) {
                size_t k = strcspn(env, ":");

                if (k >= n)
                        return unsure(x, err, "PYENV_VERSION is too long");
                memcpy(out, env, k);
                out[k] = '\0';
                return 0;
        }
        dir = from != NULL && from[0] ? cc_machine_abs(x->m, from, err) : cc_strdup(err, x->m->cwd);
        while (dir != NULL) {
                char *up;

                file = join(x, dir, ".python-version", err);
                if (file == NULL)
                        goto done;
                if ((rc = path_type(x, file, &type, err)) != 0) {
                        rv = rc;
                        goto done;
                }
                if (type == CC_FT_FILE)
                        break;
                free(file);
                file = NULL;
                if ((up = cc_tree_dirname(x->t, dir, err)) == NULL)
                        goto done;
                if (cc_tree_path_eq(x->t, up, dir)) {
                        free(up);
                        break;
                }
                free(dir);
                dir = up;
        }
        if (dir == NULL)
                goto done;
        if (file == NULL && (file = join(x, root, "version", err)) == NULL)
                goto done;
        if ((rc = path_type(x, file, &type, err)) != 0) {
                rv = rc;
                goto done;
        }
        if (type != CC_FT_FILE) {
                rv = unsure(x, err, "pyenv uses the system's python (no version file)");
                goto done;
        }
        if ((rc = read_text(x, file, &text, err)) != 0) {
                rv = rc;
                goto done;
        }
        first_version(text, out, n);
        if (out[0] == '\0') {
                rv = unsure(x, err, "pyenv uses the system's python (%s names no version)", file);
                goto done;
        }
        rv = 0;
done:
        free(dir);
        free(file);
        free(text);
        return rv;
}

/* A script at *py: when it is a pyenv shim, *py becomes the interpreter of
 * the version pyenv would run. 0, 1 (unsure), -1. */
static int follow_shim(struct sctx *x, char **py, cc_error *err)
{
        char *text = NULL, *shims = NULL, *root = NULL, *versions = NULL, *vdir = NULL, *bin = NULL;
        const char *name = cc_basename(*py), *env_root = cc_machine_getenv(x->m, "PYENV_ROOT");
        char ver[256];
        int rv = -1, rc, type;

        if ((rc = read_text(x, *py, &text, err)) != 0)
                return rc == 1 ? unsure(x, err, "a script that is not a pyenv shim") : rc;
        if ((shims = cc_tree_dirname(x->t, *py, err)) == NULL)
                goto done;
        if (!cc_tree_name_eq(x->t, cc_basename(shims), "shims") || strstr(text, "pyenv") == NULL) {
                rv = unsure(x, err, "a script that is not a pyenv shim");
                goto done;
        }
        /* the shim's own export wins over the environment, as when it runs */
        root = shim_root(text, err);
        if (root == NULL && env_root != NULL && env_root[0])
                root = cc_machine_abs(x->m, env_root, err);
        if (root == NULL)
                root = cc_tree_dirname(x->t, shims, err);
        if (root == NULL || (versions = join(x, root, "versions", err)) == NULL)
                goto done;
        if (!cc_tree_is_abs(x->t, root)) {
                rv = unsure(x, err, "a pyenv shim with a relative PYENV_ROOT");
                goto done;
        }
        if ((rc = path_type(x, versions, &type, err)) != 0) {
                rv = rc;
                goto done;
        }
        if (type != CC_FT_DIR) {
                rv = unsure(x, err, "a script that is not a pyenv shim (no %s)", versions);
                goto done;
        }
        if ((rc = pyenv_version(x, root, ver, sizeof(ver), err)) != 0) {
                rv = rc;
                goto done;
        }
        if (ver[0] == '\0') {
                rv = unsure(x, err, "pyenv's version is empty");
                goto done;
        }
        if (strcmp(ver, "system") == 0) {
                rv = unsure(x, err, "pyenv uses the system's python");
                goto done;
        }
        if (strchr(ver, '/') != NULL || strchr(ver, '\\') != NULL || strcmp(ver, "..") == 0 || strcmp(ver, ".") == 0) {
                rv = unsure(x, err, "pyenv's version \"%s\" is not a version name", ver);
                goto done;
        }
        if ((vdir = join(x, versions, ver, err)) == NULL)
                goto done;
        if ((rc = path_type(x, vdir, &type, err)) != 0) {
                rv = rc;
                goto done;
        }
        if (type != CC_FT_DIR && strncmp(ver, "python-", 7) == 0) { /* pyenv drops the prefix too */
                free(vdir);
                if ((vdir = join(x, versions, ver + 7, err)) == NULL)
                        goto done;
                if ((rc = path_type(x, vdir, &type, err)) != 0) {
                        rv = rc;
                        goto done;
                }
        }
        if (type != CC_FT_DIR) {
                rv = unsure(x, err, "pyenv's version %s is not installed in %s", ver, versions);
                goto done;
        }
        if ((bin = cc_asprintf(err, "%s%cbin%c%s", vdir, cc_tree_sep(x->t), cc_tree_sep(x->t), name)) == NULL)
                goto done;
        if ((rc = path_type(x, bin, &type, err)) != 0) {
                rv = rc;
                goto done;
        }
        if (type != CC_FT_FILE) {
                rv = unsure(x, err, "pyenv's version %s has no %s", ver, name);
                goto done;
        }
        free(*py);
        *py = bin;
        bin = NULL;
        rv = 0;
done:
        free(text);
        free(shims);
        free(root);
        free(versions);
        free(vdir);
        free(bin);
        return rv;
}

/* ---- prefixes and their directories --------------------------------------- */

/* The existing directories pattern names, canonical, appended to out (once
 * each). 0, 1 (unsure), -1. */
static int add_glob(struct sctx *x, const char *pattern, cc_strv *out, cc_error *err)
{
        cc_strv g = {0};
        cc_error e = {0};
        size_t i;
        int rv = -1, rc;

        if (cc_tree_glob(x->t, pattern, MAX_GLOB, &g, &e) < 0) {
                rv = e.code == CC_ERR_LIMIT ? unsure(x, err, "more than %d matches of %s", MAX_GLOB, pattern)
                                            : failed(x, &e, err);
                goto done;
        }
        for (i = 0; i < g.n; i++) {
                int type;
                char *c;

                if ((rc = path_type(x, g.v[i], &type, err)) != 0) {
                        rv = rc;
                        goto done;
                }
                if (type != CC_FT_DIR)
                        continue;
                if ((c = cc_tree_canonical(x->t, g.v[i], &e)) == NULL) {
                        rv = failed(x, &e, err);
                        goto done;
                }
                if (cc_strv_contains(out, c)) {
                        free(c);
                        continue;
                }
                if (cc_strv_take(out, c, err) < 0)
                        goto done;
        }
        rv = 0;
done:
        cc_strv_free(&g);
        return rv;
}

/* dir/rel as a glob pattern (dir must hold no pattern characters). */
static int add_under(struct sctx *x, const char *dir, const char *rel, cc_strv *out, cc_error *err)
{
        char *pattern;
        int rc;

        if (has_glob_magic(dir))
                return unsure(x, err, "a path with pattern characters (%s)", dir);
        if ((pattern = join(x, dir, rel, err)) == NULL)
                return -1;
        rc = add_glob(x, pattern, out, err);
        free(pattern);
        return rc;
}

/* The site directories of a prefix, appended to out. 0, 1, -1. */
static int prefix_sites(struct sctx *x, const char *prefix, cc_strv *out, cc_error *err)
{
        static const char *const lnx[] = {"lib*/python3*/site-packages", "lib*/python3*/dist-packages",
                                          "lib/python3/dist-packages"};
        static const char *const debian[] = {"lib*/python3*/dist-packages", "lib*/python3*/site-packages"};
        size_t i;
        int rc;

        if (x->m->system == CC_SYS_WINDOWS) {
                size_t before = out->n;
                int type;
                char *c;
                cc_error e = {0};

                if ((rc = add_under(x, prefix, "Lib\\site-packages", out, err)) != 0 || out->n == before)
                        return rc;
                /* Windows puts the prefix itself among the site directories */
                if ((rc = path_type(x, prefix, &type, err)) != 0 || type != CC_FT_DIR)
                        return rc;
                if ((c = cc_tree_canonical(x->t, prefix, &e)) == NULL)
                        return failed(x, &e, err);
                if (cc_strv_contains(out, c)) {
                        free(c);
                        return 0;
                }
                return cc_strv_take(out, c, err);
        }
        for (i = 0; i < CC_ARRAY_LEN(lnx); i++)
                if ((rc = add_under(x, prefix, lnx[i], out, err)) != 0)
                        return rc;
        if (strcmp(prefix, "/usr") == 0)
                for (i = 0; i < CC_ARRAY_LEN(debian); i++)
                        if ((rc = add_under(x, "/usr/local", debian[i], out, err)) != 0)
                                return rc;
        return 0;
}

/* The user's site directories, appended to out. 0, 1, -1. */
static int user_sites(struct sctx *x, cc_strv *out, cc_error *err)
{
        const char *base = cc_machine_getenv(x->m, "PYTHONUSERBASE"), *home;
        const char *nouser = cc_machine_getenv(x->m, "PYTHONNOUSERSITE");
        int win = x->m->system == CC_SYS_WINDOWS;
        char *dir = NULL;
        int rc;

        if (nouser != NULL && nouser[0])
                return 0;
        if (base != NULL && base[0]) {
                if (!cc_tree_is_abs(x->t, base))
                        return unsure(x, err, "PYTHONUSERBASE is a relative path");
                dir = cc_tree_abs(x->t, NULL, base, err);
        } else {
                home = cc_machine_getenv(x->m, win ? "APPDATA" : "HOME");
                if (home == NULL || !home[0] || !cc_tree_is_abs(x->t, home))
                        return 0; /* Python finds no user site either (or one this tree cannot show) */
                dir = cc_asprintf(err, "%s%c%s", home, cc_tree_sep(x->t), win ? "Python" : ".local");
        }
        if (dir == NULL)
                return -1;
        rc = add_under(x, dir, win ? "Python3*\\site-packages" : "lib/python3*/site-packages", out, err);
        free(dir);
        return rc;
}

/* A pyvenv.cfg's keys: home (or NULL) and include-system-site-packages. */
static int read_cfg(struct sctx *x, const char *cfg, char **home, int *system_site, cc_error *err)
{
        char *text = NULL, *p, *line;
        int rc;

        *home = NULL;
        *system_site = 0;
        if ((rc = read_text(x, cfg, &text, err)) != 0)
                return rc;
        p = text;
        while ((line = cc_next_token(&p, "\r\n")) != NULL) {
                char *eq = strchr(line, '='), *key, *value;

                if (eq == NULL)
                        continue;
                *eq = '\0';
                key = skip_blanks(line);
                trim_end(key);
                value = skip_blanks(eq + 1);
                trim_end(value);
                if (cc_strcasecmp(key, "home") == 0 && value[0]) {
                        free(*home);
                        if ((*home = cc_strdup(err, value)) == NULL) {
                                free(text);
                                return -1;
                        }
                } else if (cc_strcasecmp(key, "include-system-site-packages") == 0) {
                        *system_site = cc_strcasecmp(value, "true") == 0;
                }
        }
        free(text);
        return 0;
}

/* An embedded distribution's python*._pth next to the interpreter: its
 * sys.path is that file's. 0, 1, -1. */
static int check_pth_file(struct sctx *x, const char *dir, cc_error *err)
{
        cc_strv names = {0};
        cc_error e = {0};
        size_t i;
        int rv = 0;

        if (cc_tree_list(x->t, dir, MAX_LIST, &names, &e) < 0)
                return failed(x, &e, err);
        for (i = 0; i < names.n && rv == 0; i++)
                if (cc_glob_match("python*._pth", names.v[i], 1))
                        rv = unsure(x, err, "%s sets the import path (%s)", names.v[i], dir);
        cc_strv_free(&names);
        return rv;
}

/* ---- looking at directories ---------------------------------------------------- */

/* One .pth file of site: an import line naming a framework answers 1; the
 * directories it names are appended to added. 0, 1, -1. */
static int read_pth(struct sctx *x, const char *site, const char *name, cc_strv *added, cc_error *err)
{
        char *path = NULL, *text = NULL, *p, *line;
        int rv = -1, rc;

        if ((path = join(x, site, name, err)) == NULL)
                return -1;
        if ((rc = read_text(x, path, &text, err)) != 0) {
                rv = rc;
                goto done;
        }
        p = text;
        while ((line = cc_next_token(&p, "\r\n")) != NULL) {
                char *s = skip_blanks(line), *dir;
                const char *f;
                cc_error e = {0};
                int type;

                trim_end(line);
                if (s[0] == '#' || s[0] == '\0')
                        continue;
                if (strncmp(s, "import", 6) == 0 && (s[6] == ' ' || s[6] == '\t')) {
                        if ((f = mentioned(s)) != NULL || (f = mentioned(name)) != NULL) {
                                rv = unsure(x, err, "%s runs code that names %s", path, f);
                                goto done;
                        }
                        continue;
                }
                if ((dir = cc_tree_abs(x->t, site, line, &e)) == NULL) {
                        rv = failed(x, &e, err);
                        goto done;
                }
                if ((rc = path_type(x, dir, &type, err)) != 0) {
                        free(dir);
                        rv = rc;
                        goto done;
                }
                if (type == CC_FT_FILE) {
                        rv = unsure(x, err, "%s adds a file (an archive?): %s", path, dir);
                        free(dir);
                        goto done;
                }
                if (type == CC_FT_DIR) {
                        if (cc_strv_take(added, dir, err) < 0)
                                goto done;
                } else {
                        free(dir);
                }
        }
        rv = 0;
done:
        free(path);
        free(text);
        return rv;
}

/* Look at one directory: a framework's name answers 1. With pth, its .pth
 * files are read and the directories they add are looked at too (theirs
 * are not). 0, 1, -1. */
static int look_at(struct sctx *x, const char *dir, int pth, cc_error *err)
{
        cc_strv names = {0}, added = {0};
        cc_error e = {0};
        char *canon = NULL;
        size_t i;
        int rv = -1, rc;

        if ((canon = cc_tree_canonical(x->t, dir, &e)) == NULL)
                return failed(x, &e, err);
        if (cc_strv_contains(&x->dirs, canon)) {
                free(canon);
                return 0;
        }
        if (x->dirs.n >= MAX_DIRS) {
                free(canon);
                return unsure(x, err, "more than %d directories to look at", MAX_DIRS);
        }
        if (cc_strv_take(&x->dirs, canon, err) < 0)
                return -1;
        if (cc_tree_list(x->t, canon, MAX_LIST, &names, &e) < 0) {
                rv = failed(x, &e, err);
                goto done;
        }
        for (i = 0; i < names.n; i++) {
                const char *n = names.v[i], *f = framework_prefix(n);

                if (f != NULL) {
                        rv = unsure(x, err, "a framework in %s (%s)", canon, n);
                        goto done;
                }
                if (!pth)
                        continue;
                if (cc_strcasecmp(n, "sitecustomize.py") == 0 || cc_strcasecmp(n, "usercustomize.py") == 0) {
                        rv = unsure(x, err, "%s runs %s at startup", canon, n);
                        goto done;
                }
                if (cc_ends_with_nocase(n, ".pth") && (rc = read_pth(x, canon, n, &added, err)) != 0) {
                        rv = rc;
                        goto done;
                }
        }
        for (i = 0; i < added.n; i++)
                if ((rc = look_at(x, added.v[i], 0, err)) != 0) {
                        rv = rc;
                        goto done;
                }
        rv = 0;
done:
        cc_strv_free(&names);
        cc_strv_free(&added);
        return rv;
}

/* PYTHONPATH's entries (absolute directories; their .pth files are not read). */
static int python_path(struct sctx *x, cc_error *err)
{
        const char *pp = cc_machine_getenv(x->m, "PYTHONPATH");
        cc_strv parts = {0};
        cc_error e = {0};
        size_t i;
        int rv = 0, type;

        if (pp == NULL)
                return 0;
        if (cc_split_pathlist(pp, x->m->system == CC_SYS_WINDOWS ? ';' : ':', MAX_DIRS, &parts, &e) < 0)
                return failed(x, &e, err);
        for (i = 0; i < parts.n && rv == 0; i++) {
                const char *p = parts.v[i];

                if (!p[0] || !cc_tree_is_abs(x->t, p)) {
                        rv = unsure(x, err, "PYTHONPATH has a relative or empty entry");
                        break;
                }
                if ((rv = path_type(x, p, &type, err)) != 0)
                        break;
                if (type == CC_FT_FILE)
                        rv = unsure(x, err, "PYTHONPATH names a file (an archive?): %s", p);
                else if (type == CC_FT_DIR)
                        rv = look_at(x, p, 0, err);
        }
        cc_strv_free(&parts);
        return rv;
}

/* ---- the verdict ------------------------------------------------------------------ */

/* The interpreter's prefixes and site directories, then a look at each.
 * 0, 1, -1. */
static int decide(struct sctx *x, const char *python, cc_error *err)
{
        int win = x->m->system == CC_SYS_WINDOWS;
        char *py = NULL, *real = NULL, *realdir = NULL, *pydir = NULL, *up = NULL, *cfg = NULL, *venv = NULL;
        char *home = NULL, *base = NULL;
        cc_strv own = {0}, user = {0};
        cc_error e = {0};
        int rv = -1, rc, type, script, system_site = 0;
        size_t i;

        if (cc_machine_getenv(x->m, "PYTHONHOME") != NULL)
                return unsure(x, err, "PYTHONHOME is set");
        if ((py = cc_machine_abs(x->m, python, &e)) == NULL) {
                rv = failed(x, &e, err);
                goto done;
        }
#define STEP(call)                                                                                                     \
        do {                                                                                                           \
                if ((rc = (call)) != 0) {                                                                              \
                        rv = rc;                                                                                       \
                        goto done;                                                                                     \
                }                                                                                                      \
        } while (0)
        STEP(path_type(x, py, &type, err));
        if (type != CC_FT_FILE) {
                rv = unsure(x, err, "%s is not a file", py);
                goto done;
        }
        STEP(is_script(x, py, &script, err));
        if (script) {
                STEP(follow_shim(x, &py, err));
                STEP(is_script(x, py, &script, err));
                if (script) {
                        rv = unsure(x, err, "pyenv's %s is a script", py);
                        goto done;
                }
        }
        if (win && !cc_ends_with_nocase(py, ".exe")) {
                rv = unsure(x, err, "%s is not an .exe", py);
                goto done;
        }
        if ((real = cc_tree_canonical(x->t, py, &e)) == NULL) {
                rv = failed(x, &e, err);
                goto done;
        }
        if ((pydir = cc_tree_dirname(x->t, py, err)) == NULL || (realdir = cc_tree_dirname(x->t, real, err)) == NULL ||
            (up = cc_tree_dirname(x->t, pydir, err)) == NULL)
                goto done;
        STEP(check_pth_file(x, realdir, err));
        if (!cc_tree_path_eq(x->t, pydir, realdir))
                STEP(check_pth_file(x, pydir, err));

        /* a virtual environment: pyvenv.cfg next to the interpreter or one up */
        for (i = 0; i < 2 && venv == NULL; i++) {
                const char *d = i == 0 ? pydir : up;

                free(cfg);
                if ((cfg = join(x, d, "pyvenv.cfg", err)) == NULL)
                        goto done;
                STEP(path_type(x, cfg, &type, err));
                if (type == CC_FT_FILE && (venv = cc_tree_canonical(x->t, d, &e)) == NULL) {
                        rv = failed(x, &e, err);
                        goto done;
                }
        }
        if (venv != NULL) {
                STEP(read_cfg(x, cfg, &home, &system_site, err));
                STEP(prefix_sites(x, venv, &own, err));
        }
        if (venv == NULL || system_site) {
                if (home != NULL && venv != NULL) {
                        if (!cc_tree_is_abs(x->t, home)) {
                                rv = unsure(x, err, "%s: home is not an absolute path", cfg);
                                goto done;
                        }
                        /* home is the base interpreter's directory: on Linux PREFIX/bin */
                        base = win ? cc_tree_abs(x->t, NULL, home, err) : cc_tree_dirname(x->t, home, err);
                } else if (venv != NULL && win) {
                        rv = unsure(x, err, "%s names no home", cfg);
                        goto done;
                } else {
                        base = win ? cc_strdup(err, realdir) : cc_tree_dirname(x->t, realdir, err);
                }
                if (base == NULL)
                        goto done;
                /* no home, and the interpreter is a copy inside the venv: its base is unknown */
                if (venv != NULL && cc_tree_path_eq(x->t, base, venv)) {
                        rv = unsure(x, err, "%s names no home", cfg);
                        goto done;
                }
                STEP(prefix_sites(x, base, &own, err));
                STEP(user_sites(x, &user, err));
        }
        if (own.n == 0) {
                rv = unsure(x, err, "no site-packages found under %s", venv ? venv : base);
                goto done;
        }
        STEP(python_path(x, err));
        for (i = 0; i < own.n; i++)
                STEP(look_at(x, own.v[i], 1, err));
        for (i = 0; i < user.n; i++)
                STEP(look_at(x, user.v[i], 1, err));
#undef STEP
        rv = 0;
done:
        free(py);
        free(real);
        free(realdir);
        free(pydir);
        free(up);
        free(cfg);
        free(venv);
        free(home);
        free(base);
        cc_strv_free(&own);
        cc_strv_free(&user);
        return rv;
}

int cc_fw_sites_verdict(cc_machine *m, const char *python, char **reason, cc_error *err)
{
        struct sctx x;
        cc_buf b = {0};
        size_t i;
        int rc;

        memset(&x, 0, sizeof(x));
        x.m = m;
        x.t = m->tree;
        *reason = NULL;
        rc = decide(&x, python, err);
        if (rc < 0)
                goto fail;
        if (rc > 0) {
                *reason = x.why != NULL ? x.why : cc_strdup(err, "not understood");
                x.why = NULL;
                if (*reason == NULL)
                        goto fail;
                cc_strv_free(&x.dirs);
                return 1;
        }
        if (cc_buf_puts(&b, "no framework in ", err) < 0)
                goto fail;
        for (i = 0; i < x.dirs.n && i < REASON_DIRS; i++)
                if (cc_buf_printf(&b, err, "%s%s", i ? ", " : "", x.dirs.v[i]) < 0)
                        goto fail;
        if (x.dirs.n > REASON_DIRS && cc_buf_printf(&b, err, ", and %zu more", x.dirs.n - REASON_DIRS) < 0)
                goto fail;
        *reason = cc_buf_steal(&b);
        free(x.why);
        cc_strv_free(&x.dirs);
        return 0;
fail:
        cc_buf_free(&b);
        free(x.why);
        cc_strv_free(&x.dirs);
        return -1;
}
