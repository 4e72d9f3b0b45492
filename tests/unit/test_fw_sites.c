/* Whether an interpreter could import a framework, from its files alone
 * (frameworks/sites.c), over trees built here in a temporary directory and
 * opened as --root machines: virtual environments (empty, a package, a
 * .dist-info, .pth directories and import lines, the base prefix),
 * PYTHONHOME and PYTHONPATH, pyenv shims (PYENV_VERSION, .python-version,
 * the global version), scripts that are not shims, Windows trees (an
 * embedded distribution's ._pth), the user site, no site directories; then
 * the live machine's /usr/bin/python3 and pyenv versions, where there are
 * some (each answer of 0 checked against the interpreter itself). */
#define _XOPEN_SOURCE 700
#include "testutil.h"

#include <errno.h>
#include <ftw.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/json.h"
#include "frameworks/frameworks.h"
#include "frameworks/sites.h"
#include "machine/machine.h"

/* ---- building trees ------------------------------------------------------------- */

static char *mkroot(void)
{
        return tu_mkroot("fwsites");
}

/* A directory at rel (a virtual Linux path, or a Windows one written with '/'). */
static void dir(const char *root, const char *rel)
{
        char p[4096];

        snprintf(p, sizeof(p), "%s%s", root, rel);
        tu_mkdirs(p);
}

static void file(const char *root, const char *rel, const char *text)
{
        char p[4096];
        char *s;
        FILE *f;

        snprintf(p, sizeof(p), "%s%s", root, rel);
        s = strrchr(p, '/');
        *s = '\0';
        tu_mkdirs(p);
        *s = '/';
        f = fopen(p, "wb");
        assert_non_null(f);
        fputs(text, f);
        fclose(f);
}

/* An interpreter's stand-in: the start of an ELF file. */
static void binary(const char *root, const char *rel)
{
        file(root, rel, "\177ELF\2\1\1");
}

static void rmdir_at(const char *root, const char *rel)
{
        char p[4096];

        snprintf(p, sizeof(p), "%s%s", root, rel);
        if (rmdir(p) < 0)
                fail_msg("rmdir %s: %s", p, strerror(errno));
}

static void symlink_at(const char *root, const char *rel, const char *target)
{
        char p[4096];

        snprintf(p, sizeof(p), "%s%s", root, rel);
        if (symlink(target, p) < 0)
                fail_msg("symlink %s: %s", p, strerror(errno));
}

/* ---- asking ------------------------------------------------------------------------ */

/* The verdict for python on the tree (root NULL: the live machine), with
 * the variables of set (NULL-terminated). The reason must hold want (if
 * not NULL; "=..." : be exactly "..."). */
static void expect_sys(const char *root, int system, const char *const *set, const char *python, int expect,
                       const char *want)
{
        cudnnctl_machine_options o = {0};
        cudnnctl_machine *m = NULL;
        cc_error err = {0};
        char *reason = NULL;
        size_t n = 0;
        int rc;

        while (set != NULL && set[n] != NULL)
                n++;
        o.root = root;
        o.system = system;
        o.set = set;
        o.nset = n;
        if (cudnnctl_machine_open(&o, &m, &err) < 0)
                fail_msg("machine: %s", err.msg);
        rc = cc_fw_sites_verdict(m, python, &reason, &err);
        if (rc < 0)
                fail_msg("%s: %s", python, err.msg);
        assert_non_null(reason);
        if (rc != expect ||
            (want != NULL && (want[0] == '=' ? strcmp(reason, want + 1) != 0 : strstr(reason, want) == NULL)))
                fail_msg("%s: %d (%s), expected %d (%s)", python, rc, reason, expect, want ? want : "any reason");
        if (root == NULL)
                print_message("%s: %d (%s)\n", python, rc, reason);
        free(reason);
        cudnnctl_machine_free(m);
}

static void expect(const char *root, const char *const *set, const char *python, int want_rc, const char *want)
{
        expect_sys(root, CUDNNCTL_SYSTEM_LINUX, set, python, want_rc, want);
}

#define SITE "/venv/lib/python3.12/site-packages"
#define BASE_SITE "/usr/lib/python3.12/site-packages"

/* A base installation (/usr, with tensorflow in its site-packages and an
 * empty Debian dist-packages), a user site holding torch, and a venv over
 * the base with an empty site-packages (lib64 -> lib, as venv makes it). */
static char *venv_tree(const char *system_site)
{
        char *root = mkroot();
        char cfg[256];

        binary(root, "/usr/bin/python3.12");
        symlink_at(root, "/usr/bin/python3", "python3.12");
        dir(root, BASE_SITE "/tensorflow");
        dir(root, "/usr/lib/python3/dist-packages");
        dir(root, "/root/.local/lib/python3.12/site-packages/torch");
        dir(root, "/venv/bin");
        symlink_at(root, "/venv/bin/python", "/usr/bin/python3");
        symlink_at(root, "/venv/lib64", "lib");
        dir(root, SITE);
        snprintf(cfg, sizeof(cfg), "home = /usr/bin\ninclude-system-site-packages = %s\nversion = 3.12.1\n",
                 system_site);
        file(root, "/venv/pyvenv.cfg", cfg);
        return root;
}

static const char *const home_root[] = {"HOME=/root", NULL};

/* ---- tests ----------------------------------------------------------------------- */

static void test_venv(void **state)
{
        char *root = venv_tree("false");

        (void)state;
        /* empty: 0, and the user site and the base's tensorflow do not count */
        expect(root, home_root, "/venv/bin/python", 0, "no framework in " SITE);
        /* one directory, not two through lib64 */
        expect(root, home_root, "/venv/bin/python", 0, "=no framework in " SITE);
        dir(root, SITE "/pip");
        dir(root, SITE "/pip-24.0.dist-info");
        expect(root, home_root, "/venv/bin/python", 0, "no framework in " SITE);

        dir(root, SITE "/torch");
        expect(root, home_root, "/venv/bin/python", 1, "a framework in " SITE " (torch)");
        tu_rmroot(root);

        root = venv_tree("false");
        dir(root, SITE "/torch-2.1.0.dist-info");
        expect(root, NULL, "/venv/bin/python", 1, "(torch-2.1.0.dist-info)");
        tu_rmroot(root);

        /* a module file and an egg-link count too */
        root = venv_tree("false");
        file(root, SITE "/CuPy.egg-link", "/src/cupy\n.\n");
        expect(root, NULL, "/venv/bin/python", 1, "(CuPy.egg-link)");
        tu_rmroot(root);

        /* the venv's own interpreter in bin/ with pyvenv.cfg one up, and one next to it */
        root = venv_tree("false");
        expect(root, NULL, "/venv/bin/../bin/python", 0, "no framework in " SITE);
        tu_rmroot(root);
}

static void test_pth(void **state)
{
        char *root = venv_tree("false");

        (void)state;
        /* a .pth naming a directory without a framework: looked at too */
        dir(root, "/opt/extra/plain");
        file(root, SITE "/extra.pth", "# a comment\n\n/opt/extra\n/does/not/exist\n");
        expect(root, NULL, "/venv/bin/python", 0, "no framework in " SITE ", /opt/extra");
        /* a relative line, to a directory holding jax */
        dir(root, "/venv/src/stuff/jax");
        file(root, SITE "/stuff.pth", "../../../src/stuff\n");
        expect(root, NULL, "/venv/bin/python", 1, "a framework in /venv/src/stuff (jax)");
        tu_rmroot(root);

        /* setuptools' import line: harmless */
        root = venv_tree("false");
        dir(root, SITE "/_distutils_hack");
        file(root, SITE "/distutils-precedence.pth",
             "import os; var = 'SETUPTOOLS_USE_DISTUTILS'; enabled = os.environ.get(var, 'local') == 'local'; "
             "enabled and __import__('_distutils_hack').add_shim(); \n");
        expect(root, NULL, "/venv/bin/python", 0, "no framework in " SITE);
        /* an editable install's import line, named by its file */
        file(root, SITE "/__editable__.torch.pth", "import __editable___finder; __editable___finder.install()\n");
        expect(root, NULL, "/venv/bin/python", 1, "__editable__.torch.pth runs code that names torch");
        tu_rmroot(root);

        /* an import line naming a framework, after blanks */
        root = venv_tree("false");
        file(root, SITE "/zz.pth", "\t import sys; sys.path.append('/opt/TensorFlow')\n");
        expect(root, NULL, "/venv/bin/python", 1, "names tensorflow");
        tu_rmroot(root);

        /* .pth files of directories a .pth adds are not read; a .pth over 64 KiB is not understood */
        root = venv_tree("false");
        dir(root, "/opt/one");
        file(root, SITE "/one.pth", "/opt/one\n");
        file(root, "/opt/one/two.pth", "/opt/two\n");
        dir(root, "/opt/two/torch");
        expect(root, NULL, "/venv/bin/python", 0, "no framework in " SITE ", /opt/one");
        {
                char *big = malloc(70000);

                assert_non_null(big);
                memset(big, '#', 69999);
                big[69999] = '\0';
                file(root, SITE "/big.pth", big);
                free(big);
        }
        expect(root, NULL, "/venv/bin/python", 1, "over 64 KiB");
        tu_rmroot(root);
}

static void test_system_site(void **state)
{
        char *root = venv_tree("true");
        static const char *const nouser[] = {"HOME=/root", "PYTHONNOUSERSITE=1", NULL};
        char cfgpath[4096];

        (void)state;
        expect(root, nouser, "/venv/bin/python", 1, "a framework in " BASE_SITE " (tensorflow)");
        tu_rmroot(root);

        /* without tensorflow in the base: the user site counts then */
        root = venv_tree("true");
        rmdir_at(root, BASE_SITE "/tensorflow");
        expect(root, home_root, "/venv/bin/python", 1, "(torch)");
        expect(root, nouser, "/venv/bin/python", 0,
               "no framework in " SITE ", " BASE_SITE ", /usr/lib/python3/dist-packages");
        /* no home: the base is the real interpreter's, through the link */
        file(root, "/venv/pyvenv.cfg", "include-system-site-packages = true\n");
        expect(root, nouser, "/venv/bin/python", 0,
               "=no framework in " SITE ", " BASE_SITE ", /usr/lib/python3/dist-packages");
        dir(root, "/usr/lib/python3/dist-packages/jax");
        expect(root, nouser, "/venv/bin/python", 1, "(jax)");
        /* ... and a copied interpreter without home: the base is unknown */
        assert_int_equal(unlink(strcat(strcpy(cfgpath, root), "/venv/bin/python")), 0);
        binary(root, "/venv/bin/python");
        expect(root, nouser, "/venv/bin/python", 1, "/venv/pyvenv.cfg names no home");
        tu_rmroot(root);
}

static void test_environment(void **state)
{
        char *root = venv_tree("false");
        static const char *const home[] = {"PYTHONHOME=/usr", NULL};
        static const char *const rel[] = {"PYTHONPATH=/opt/a:lib", NULL};
        static const char *const empty[] = {"PYTHONPATH=/opt/a::/opt/b", NULL};
        static const char *const plain[] = {"PYTHONPATH=/opt/a", NULL};
        static const char *const withfw[] = {"PYTHONPATH=/opt/a:/opt/b", NULL};

        (void)state;
        dir(root, "/opt/a/numpy");
        dir(root, "/opt/b/onnxruntime_gpu-1.18.0.dist-info");
        expect(root, home, "/venv/bin/python", 1, "PYTHONHOME is set");
        expect(root, rel, "/venv/bin/python", 1, "relative or empty");
        expect(root, empty, "/venv/bin/python", 1, "relative or empty");
        expect(root, plain, "/venv/bin/python", 0, "no framework in /opt/a, " SITE);
        expect(root, withfw, "/venv/bin/python", 1, "a framework in /opt/b (onnxruntime_gpu-1.18.0.dist-info)");
        tu_rmroot(root);
}

#define PYENV "/home/u/.pyenv"

static char *pyenv_tree(void)
{
        char *root = mkroot();

        file(root, PYENV "/shims/python3",
             "#!/usr/bin/env bash\nset -e\n[ -n \"$PYENV_DEBUG\" ] && set -x\n\nprogram=\"${0##*/}\"\n\n"
             "export PYENV_ROOT=\"" PYENV "\"\nexec \"" PYENV "/libexec/pyenv\" exec \"$program\" \"$@\"\n");
        binary(root, PYENV "/versions/3.12.1/bin/python3.12");
        symlink_at(root, PYENV "/versions/3.12.1/bin/python3", "python3.12");
        dir(root, PYENV "/versions/3.12.1/lib/python3.12/site-packages/pip");
        binary(root, PYENV "/versions/3.11.7/bin/python3.11");
        symlink_at(root, PYENV "/versions/3.11.7/bin/python3", "python3.11");
        dir(root, PYENV "/versions/3.11.7/lib/python3.11/site-packages/cupy_cuda12x");
        /* 3.10 has no python3 */
        binary(root, PYENV "/versions/3.10.13/bin/python3.10");
        dir(root, PYENV "/versions/3.10.13/lib/python3.10/site-packages");
        return root;
}

static void test_pyenv(void **state)
{
        char *root = pyenv_tree();
        static const char *const v11[] = {"PYENV_VERSION=3.11.7:3.12.1", NULL};
        static const char *const v12[] = {"PYENV_VERSION=3.12.1:3.11.7", NULL};
        static const char *const vpy[] = {"PYENV_VERSION=python-3.12.1", NULL};
        static const char *const vsys[] = {"PYENV_VERSION=system", NULL};
        static const char *const vempty[] = {"PYENV_VERSION=:3.12.1", NULL};
        static const char *const vnone[] = {"PYENV_VERSION=3.9.1", NULL};
        static const char *const v10[] = {"PYENV_VERSION=3.10.13", NULL};
        static const char *const cwd[] = {"PWD=/home/u/proj/sub/deeper", NULL};
        static const char *const cwd_env[] = {"PWD=/home/u/proj/sub/deeper", "PYENV_VERSION=3.12.1", NULL};
        static const char *const other_root[] = {"PYENV_ROOT=/nowhere", "PYENV_VERSION=3.12.1", NULL};

        (void)state;
        expect(root, v11, PYENV "/shims/python3", 1,
               "a framework in " PYENV "/versions/3.11.7/lib/python3.11/"
               "site-packages (cupy_cuda12x)");
        expect(root, v12, PYENV "/shims/python3", 0,
               "no framework in " PYENV "/versions/3.12.1/lib/python3.12/site-packages");
        expect(root, vpy, PYENV "/shims/python3", 0, "no framework in " PYENV "/versions/3.12.1/");
        expect(root, vsys, PYENV "/shims/python3", 1, "system");
        expect(root, vempty, PYENV "/shims/python3", 1, "empty");
        expect(root, vnone, PYENV "/shims/python3", 1, "3.9.1 is not installed");
        expect(root, v10, PYENV "/shims/python3", 1, "3.10.13 has no python3");
        /* the shim's own PYENV_ROOT wins, as when it runs */
        expect(root, other_root, PYENV "/shims/python3", 0, "no framework in " PYENV "/versions/3.12.1/");

        /* no version anywhere: the system's */
        expect(root, cwd, PYENV "/shims/python3", 1, "system");
        /* the global version file */
        file(root, PYENV "/version", "3.12.1\n");
        expect(root, cwd, PYENV "/shims/python3", 0, "no framework in " PYENV "/versions/3.12.1/");
        /* a .python-version in a parent of the current directory wins over it */
        dir(root, "/home/u/proj/sub/deeper");
        file(root, "/home/u/proj/.python-version", "# pinned\n\n3.11.7\n3.12.1\n");
        expect(root, cwd, PYENV "/shims/python3", 1, "(cupy_cuda12x)");
        /* and PYENV_VERSION over both */
        expect(root, cwd_env, PYENV "/shims/python3", 0, "no framework in " PYENV "/versions/3.12.1/");
        /* an empty one in a nearer directory: the system's */
        file(root, "/home/u/proj/sub/.python-version", "# nothing\n");
        expect(root, cwd, PYENV "/shims/python3", 1, "system");
        tu_rmroot(root);
}

static void test_scripts(void **state)
{
        char *root = venv_tree("false");
        static const char *const v12[] = {"PYENV_VERSION=3.12.1", NULL};

        (void)state;
        file(root, "/usr/local/bin/python3", "#!/bin/sh\nexec /usr/bin/python3.12 \"$@\"\n");
        expect(root, NULL, "/usr/local/bin/python3", 1, "a script that is not a pyenv shim");
        /* named like pyenv's, but no versions directory beside */
        file(root, "/opt/shims/python3", "#!/bin/sh\nexec pyenv exec python3 \"$@\"\n");
        expect(root, v12, "/opt/shims/python3", 1, "a script that is not a pyenv shim");
        /* not there, a directory */
        expect(root, NULL, "/usr/bin/python9", 1, "not a file");
        expect(root, NULL, "/usr/bin", 1, "not a file");
        tu_rmroot(root);
}

#define WPY "/Python311"

static char *win_tree(void)
{
        char *root = mkroot();

        binary(root, WPY "/python.exe");
        binary(root, WPY "/python311.dll");
        dir(root, WPY "/DLLs");
        dir(root, WPY "/Lib/site-packages");
        return root;
}

static void expect_win(const char *root, const char *const *set, const char *python, int want_rc, const char *want)
{
        expect_sys(root, CUDNNCTL_SYSTEM_WINDOWS, set, python, want_rc, want);
}

static void test_windows(void **state)
{
        char *root = win_tree();
        static const char *const appdata[] = {"APPDATA=C:\\Users\\u\\AppData\\Roaming", NULL};
        static const char *const nouser[] = {"APPDATA=C:\\Users\\u\\AppData\\Roaming", "PYTHONNOUSERSITE=1", NULL};

        (void)state;
        expect_win(root, NULL, "C:\\Python311\\python.exe", 0,
                   "no framework in C:\\Python311\\Lib\\site-packages, C:\\Python311");
        expect_win(root, NULL, "c:/python311/PYTHON.EXE", 0, "no framework in C:\\Python311\\Lib\\site-packages");
        dir(root, "/Users/u/AppData/Roaming/Python/Python311/site-packages/torch");
        expect_win(root, appdata, "C:\\Python311\\python.exe", 1, "(torch)");
        expect_win(root, nouser, "C:\\Python311\\python.exe", 0, "no framework in C:\\Python311\\Lib\\site-packages");
        dir(root, WPY "/Lib/site-packages/onnxruntime");
        expect_win(root, NULL, "C:\\Python311\\python.exe", 1,
                   "a framework in C:\\Python311\\Lib\\site-packages (onnxruntime)");
        tu_rmroot(root);

        root = win_tree();
        file(root, WPY "/python311._pth", "python311.zip\n.\n");
        expect_win(root, NULL, "C:\\Python311\\python.exe", 1, "python311._pth");
        tu_rmroot(root);

        /* a venv: Scripts\python.exe, pyvenv.cfg one up, home the base's directory */
        root = win_tree();
        binary(root, "/proj/.venv/Scripts/python.exe");
        dir(root, "/proj/.venv/Lib/site-packages/pip");
        file(root, "/proj/.venv/pyvenv.cfg", "home = C:\\Python311\ninclude-system-site-packages = false\n");
        expect_win(root, NULL, "C:\\proj\\.venv\\Scripts\\python.exe", 0,
                   "no framework in C:\\proj\\.venv\\Lib\\site-packages, C:\\proj\\.venv");
        file(root, "/proj/.venv/pyvenv.cfg", "home = C:\\Python311\ninclude-system-site-packages = true\n");
        dir(root, WPY "/Lib/site-packages/jaxlib");
        expect_win(root, NULL, "C:\\proj\\.venv\\Scripts\\python.exe", 1, "(jaxlib)");
        tu_rmroot(root);
}

static void test_user_site(void **state)
{
        char *root = venv_tree("false");
        static const char *const nouser[] = {"HOME=/root", "PYTHONNOUSERSITE=1", NULL};
        static const char *const userbase[] = {"HOME=/root", "PYTHONUSERBASE=/home/other", NULL};

        (void)state;
        rmdir_at(root, BASE_SITE "/tensorflow");
        expect(root, home_root, "/usr/bin/python3", 1,
               "a framework in /root/.local/lib/python3.12/site-packages (torch)");
        expect(root, nouser, "/usr/bin/python3", 0, "no framework in " BASE_SITE ", /usr/lib/python3/dist-packages");
        expect(root, userbase, "/usr/bin/python3", 0, "no framework in");
        expect(root, NULL, "/usr/bin/python3", 0, "no framework in");
        /* Debian's /usr/local directories belong to /usr */
        dir(root, "/usr/local/lib/python3.12/dist-packages/torchvision");
        expect(root, NULL, "/usr/bin/python3", 1, "a framework in /usr/local/lib/python3.12/dist-packages");
        tu_rmroot(root);
}

static void test_no_sites(void **state)
{
        char *root = mkroot();

        (void)state;
        binary(root, "/opt/py/bin/python3");
        expect(root, NULL, "/opt/py/bin/python3", 1, "no site-packages found under /opt/py");
        /* many directories: the reason names four */
        dir(root, "/opt/py/lib/python3.9/site-packages");
        dir(root, "/opt/py/lib/python3.10/site-packages");
        dir(root, "/opt/py/lib/python3.11/site-packages");
        dir(root, "/opt/py/lib/python3.12/site-packages");
        dir(root, "/opt/py/lib/python3.13/site-packages");
        dir(root, "/opt/py/lib/python3/dist-packages");
        expect(root, NULL, "/opt/py/bin/python3", 0, ", and 2 more");
        /* a directory that cannot be listed (as root, everything can) */
        if (geteuid() != 0) {
                char p[4096];

                snprintf(p, sizeof(p), "%s/opt/py/lib/python3.12/site-packages", root);
                assert_int_equal(chmod(p, 0), 0);
                expect(root, NULL, "/opt/py/bin/python3", 1, NULL);
                assert_int_equal(chmod(p, 0755), 0);
        }
        tu_rmroot(root);
}

/* ---- the live machine ------------------------------------------------------------- */

static const char *const fw_names[] = {"torch",       "tensorflow",  "tf_nightly",  "tf-nightly", "jax",
                                       "onnxruntime", "ort_nightly", "ort-nightly", "cupy"};

/* 1 if a directory of the host holds an entry named like a framework. */
static int host_dir_has_framework(const char *path)
{
        char pattern[4096];
        size_t i;
        int hit = 0;

        for (i = 0; i < sizeof(fw_names) / sizeof(fw_names[0]) && !hit; i++) {
                glob_t g;

                snprintf(pattern, sizeof(pattern), "%s/%s*", path, fw_names[i]);
                if (glob(pattern, 0, NULL, &g) == 0)
                        hit = g.gl_pathc > 0;
                globfree(&g);
        }
        return hit;
}

static void test_live(void **state)
{
        static const char *const nouser[] = {"PYTHONNOUSERSITE=1", NULL};
        glob_t g;
        size_t i, checked = 0;

        (void)state;
        unsetenv("PYTHONHOME");
        unsetenv("PYTHONPATH");
        if (tu_exists("/usr/bin/python3") && host_dir_has_framework("/usr/lib/python3/dist-packages"))
                expect(NULL, NULL, "/usr/bin/python3", 1, "a framework in /usr/lib/python3/dist-packages");
        if (glob("/root/.pyenv/versions/*/bin/python3.*", 0, NULL, &g) != 0)
                return;
        for (i = 0; i < g.gl_pathc; i++) {
                const char *py = g.gl_pathv[i], *ver = strrchr(py, '/') + strlen("/python");
                char site[4096], cmd[8192];
                size_t k = strspn(ver + 2, "0123456789");

                /* python3.N itself, not python3.N-config nor python3.N-gdb.py */
                if (k == 0 || ver[2 + k] != '\0')
                        continue;
                snprintf(site, sizeof(site), "%.*s/lib/python%s/site-packages", (int)(strstr(py, "/bin/") - py), py,
                         ver);
                if (!tu_exists(site) || host_dir_has_framework(site))
                        continue;
                expect(NULL, nouser, py, 0, "no framework in");
                /* the interpreter agrees: it finds none of them */
                snprintf(cmd, sizeof(cmd),
                         "'%s' -s -E -c 'import importlib.util as u, sys; sys.exit(any(u.find_spec(n) for n in "
                         "(\"torch\", \"tensorflow\", \"jax\", \"onnxruntime\", \"cupy\")))'",
                         py);
                if (system(cmd) != 0)
                        fail_msg("%s finds a framework after all", py);
                checked++;
        }
        globfree(&g);
        print_message("live pyenv interpreters checked: %zu\n", checked);
}

/* A framework child that ran beside others is run again alone when its
 * run says the GPU's memory ran out, and only then. */
static void test_out_of_gpu_memory(void **state)
{
        static const struct {
                const char *run;
                int oom;
        } cases[] = {
            {"{\"ran\":true,\"facts\":{\"gpu_call\":{\"ok\":false,\"error\":\"torch.OutOfMemoryError: CUDA out of "
             "memory. Tried to allocate 2.00 MiB\"}}}",
             1},
            {"{\"ran\":true,\"facts\":{\"gpu_call\":{\"ok\":false,\"error\":\"cuDNN error: "
             "CUDNN_STATUS_ALLOC_FAILED\"}}}",
             1},
            {"{\"ran\":true,\"crashed\":true,\"output_tail\":\"jaxlib.xla_extension.XlaRuntimeError: "
             "RESOURCE_EXHAUSTED: Failed to allocate\"}",
             1},
            {"{\"ran\":true,\"facts\":{\"query_error\":\"cudaErrorMemoryAllocation\"}}", 1},
            {"{\"ran\":true,\"facts\":{\"gpu_call\":{\"ok\":false,\"error\":\"CUDA error: an illegal memory access "
             "was encountered\"}}}",
             0},
            {"{\"ran\":true,\"facts\":{\"gpu_call\":{\"ok\":true}}}", 0},
            {"{\"ran\":false,\"error\":\"cannot start\"}", 0},
        };
        size_t i;

        (void)state;
        for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                cc_value *r = NULL;
                cc_error err = {0};

                assert_int_equal(cc_json_parse(cases[i].run, strlen(cases[i].run), 16, &r, &err), 0);
                assert_int_equal(cc_fw_out_of_gpu_memory(r), cases[i].oom);
                cc_v_free(r);
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_venv),
            cmocka_unit_test(test_pth),
            cmocka_unit_test(test_system_site),
            cmocka_unit_test(test_environment),
            cmocka_unit_test(test_pyenv),
            cmocka_unit_test(test_scripts),
            cmocka_unit_test(test_windows),
            cmocka_unit_test(test_user_site),
            cmocka_unit_test(test_no_sites),
            cmocka_unit_test(test_live),
            cmocka_unit_test(test_out_of_gpu_memory),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
