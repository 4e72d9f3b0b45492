/* Unit tests for the Windows loader emulation (resolve/windows.c), over
 * Windows trees built here in a temporary directory: fake PE headers for
 * x64 and x86 DLLs (and the fixture DLLs of gen-pe.sh where a real image
 * matters), text files and directories under DLL names. Each search order,
 * SafeDllSearchMode, SetDllDirectory, KnownDLLs, API sets, names, the
 * machine check (193), the LOAD_LIBRARY_SEARCH_* flags, Python's rules, PATH
 * quirks and the cuDNN failure modes of the catalog (kb/catalog.tsv: 1, 2, 6, 7, 8). */
#define _XOPEN_SOURCE 700
#include "testutil.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "formats/pe.h"
#include "machine/machine.h"
#include "resolve/resolve.h"

enum kind { K_X64, K_X86, K_ARM64, K_TEXT, K_DIR };

/* ---- building trees ------------------------------------------------------------- */

static char *mkroot(void)
{
        return tu_mkroot("winresolve");
}

static void parent_dirs(const char *path)
{
        char buf[4096];
        char *s;

        snprintf(buf, sizeof(buf), "%s", path);
        s = strrchr(buf, '/');
        if (s != NULL && s != buf) {
                *s = '\0';
                tu_mkdirs(buf);
        }
}

static void write_file(const char *path, const void *data, size_t n)
{
        FILE *f;

        parent_dirs(path);
        f = fopen(path, "wb");
        if (f == NULL)
                fail_msg("cannot create %s", path);
        assert_int_equal(fwrite(data, 1, n, f), n);
        fclose(f);
}

/* Put something at root/rel (rel with '/'). */
static void put(const char *root, const char *rel, enum kind k)
{
        char path[4096];
        uint8_t pe[512];
        uint16_t mach = k == K_X86 ? CC_PE_MACHINE_I386 : k == K_ARM64 ? CC_PE_MACHINE_ARM64 : CC_PE_MACHINE_AMD64;

        snprintf(path, sizeof(path), "%s/%s", root, rel);
        if (k == K_DIR) {
                tu_mkdirs(path);
                return;
        }
        if (k == K_TEXT) {
                write_file(path, "not a DLL\n", 10);
                return;
        }
        memset(pe, 0, sizeof(pe));
        pe[0] = 'M';
        pe[1] = 'Z';
        pe[0x3c] = 0x40;
        memcpy(pe + 0x40, "PE\0\0", 4);
        pe[0x44] = (uint8_t)mach;
        pe[0x45] = (uint8_t)(mach >> 8);
        pe[0x56] = 0x22; /* IMAGE_FILE_EXECUTABLE_IMAGE | LARGE_ADDRESS_AWARE */
        pe[0x57] = 0x20; /* IMAGE_FILE_DLL */
        write_file(path, pe, sizeof(pe));
}

/* Copy a fixture DLL of gen-pe.sh to root/rel. */
static void put_fixture(const char *root, const char *rel, const char *fixture)
{
        char path[4096];
        char *src = tu_fixture(fixture);
        size_t n;
        uint8_t *data = tu_read(src, &n);

        snprintf(path, sizeof(path), "%s/%s", root, rel);
        write_file(path, data, n);
        free(data);
        free(src);
}

/* ---- running the emulation ------------------------------------------------------ */

struct env {
        char *root;
        cc_machine *m;
        cc_win_ctx *c;
};

static void env_open(struct env *e, const char *const *sets, const char *app, const cudnnctl_which_options *opts)
{
        cudnnctl_machine_options mo;
        cc_error err = {0};
        size_t n = 0;

        while (sets != NULL && sets[n] != NULL)
                n++;
        memset(&mo, 0, sizeof(mo));
        mo.root = e->root;
        mo.system = CUDNNCTL_SYSTEM_WINDOWS;
        mo.set = sets;
        mo.nset = n;
        if (cudnnctl_machine_open(&mo, &e->m, &err) < 0)
                fail_msg("machine: %s", err.msg);
        if (cc_win_ctx_open(e->m, app, opts, &e->c, &err) < 0)
                fail_msg("ctx: %s", err.msg);
}

static void env_close(struct env *e)
{
        cc_win_ctx_free(e->c);
        cudnnctl_machine_free(e->m);
        e->c = NULL;
        e->m = NULL;
}

static void resolve(struct env *e, const char *name, const char *loading, int shadowed, cc_resolution *r)
{
        cc_error err = {0};

        if (cc_win_resolve(e->c, name, loading, shadowed, r, &err) < 0)
                fail_msg("resolve %s: %s", name, err.msg);
}

static cudnnctl_which_options opts_std(void)
{
        cudnnctl_which_options o;

        memset(&o, 0, sizeof(o));
        o.safe_search = CUDNNCTL_SAFE_SEARCH_MACHINE;
        return o;
}

static void assert_path(const char *got, const char *want)
{
        if (got == NULL)
                fail_msg("no path, wanted %s", want);
        if (cc_strcasecmp(got, want) != 0)
                fail_msg("path %s, wanted %s", got, want);
}

static int has_note(const cc_resolution *r, const char *needle)
{
        size_t i;

        for (i = 0; i < r->notes.n; i++)
                if (strstr(r->notes.v[i], needle) != NULL)
                        return 1;
        return 0;
}

static void assert_note(const cc_resolution *r, const char *needle)
{
        size_t i;

        if (has_note(r, needle))
                return;
        for (i = 0; i < r->notes.n; i++)
                print_message("note: %s\n", r->notes.v[i]);
        fail_msg("no note with \"%s\"", needle);
}

static int ctx_has_note(const cc_win_ctx *c, const char *needle)
{
        cc_error err = {0};
        cc_value *f = cc_win_ctx_facts(c, &err);
        const cc_value *notes;
        size_t i;
        int found = 0;

        assert_non_null(f);
        notes = cc_v_get(f, "notes");
        for (i = 0; i < cc_v_len(notes); i++) {
                const char *s = cc_v_as_str(cc_v_at(notes, i));

                if (s && strstr(s, needle))
                        found = 1;
        }
        cc_v_free(f);
        return found;
}

/* The hows of the tries the loader made, in order, ending with 0. */
static void assert_hows(const cc_resolution *r, const int *want)
{
        size_t i;

        for (i = 0; want[i] != 0; i++) {
                if (i >= r->ntried)
                        fail_msg("only %zu tries, wanted more (next: %s)", r->ntried, cc_how_name(want[i]));
                if (r->tries[i].how != want[i])
                        fail_msg("try %zu (%s) is %s, wanted %s", i, r->tries[i].path, cc_how_name(r->tries[i].how),
                                 cc_how_name(want[i]));
        }
        if (i != r->ntried)
                fail_msg("%zu tries, wanted %zu (extra: %s)", r->ntried, i, r->tries[i].path);
}

static const char *const base_env[] = {"PATH=C:\\p1;C:\\p2", "CD=C:\\work", NULL};

/* ---- the standard order ----------------------------------------------------------- */

static void test_standard_order_shadowed(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        static const char *const places[] = {
            "app/x.dll", "Windows/System32/x.dll", "Windows/System/x.dll", "Windows/x.dll", "work/x.dll", "p1/x.dll",
            "p2/x.dll"};
        static const int hows[] = {CC_HOW_APPDIR, CC_HOW_SYSTEM32, CC_HOW_SYSTEM16, CC_HOW_WINDIR,
                                   CC_HOW_CWD,    CC_HOW_PATH,     CC_HOW_PATH};
        size_t i;

        (void)state;
        for (i = 0; i < CC_ARRAY_LEN(places); i++)
                put(e.root, places[i], K_X64);
        put(e.root, "app/app.exe", K_X64);
        env_open(&e, base_env, "C:\\app\\app.exe", &o);
        resolve(&e, "x.dll", NULL, 1, &r);
        assert_true(r.found);
        assert_int_equal(r.win_error, 0);
        assert_int_equal(r.how, CC_HOW_APPDIR);
        assert_path(r.path, "C:\\app\\x.dll");
        assert_int_equal(r.ntried, 1);
        assert_int_equal(r.ntries, CC_ARRAY_LEN(places));
        for (i = 0; i < r.ntries; i++) {
                assert_int_equal(r.tries[i].how, hows[i]);
                assert_int_equal(r.tries[i].outcome, i == 0 ? CC_TRY_FOUND : CC_TRY_SHADOWED);
                assert_non_null(r.tries[i].realpath);
        }
        assert_non_null(strstr(r.tries[0].origin, "application directory"));
        assert_non_null(strstr(r.tries[5].origin, "PATH entry 1"));
        assert_non_null(strstr(r.tries[6].origin, "PATH entry 2"));
        cc_resolution_free(&r);

        /* without shadowed the search stops at the winner */
        resolve(&e, "x.dll", NULL, 0, &r);
        assert_int_equal(r.ntries, 1);
        cc_resolution_free(&r);
        env_close(&e);
        tu_rmroot(e.root);
}

/* Each place wins once everything before it is gone. */
static void test_standard_each_step(void **state)
{
        static const struct {
                const char *rel, *vpath;
                int how;
        } steps[] = {
            {"app/y.dll", "C:\\app\\y.dll", CC_HOW_APPDIR},
            {"Windows/System32/y.dll", "C:\\Windows\\System32\\y.dll", CC_HOW_SYSTEM32},
            {"Windows/System/y.dll", "C:\\Windows\\System\\y.dll", CC_HOW_SYSTEM16},
            {"Windows/y.dll", "C:\\Windows\\y.dll", CC_HOW_WINDIR},
            {"work/y.dll", "C:\\work\\y.dll", CC_HOW_CWD},
            {"p1/y.dll", "C:\\p1\\y.dll", CC_HOW_PATH},
            {"p2/y.dll", "C:\\p2\\y.dll", CC_HOW_PATH},
        };
        size_t k, i;

        (void)state;
        for (k = 0; k < CC_ARRAY_LEN(steps); k++) {
                struct env e = {mkroot(), NULL, NULL};
                cudnnctl_which_options o = opts_std();
                cc_resolution r;

                for (i = k; i < CC_ARRAY_LEN(steps); i++)
                        put(e.root, steps[i].rel, K_X64);
                put(e.root, "app/app.exe", K_X64);
                env_open(&e, base_env, "C:\\app\\app.exe", &o);
                resolve(&e, "y.dll", NULL, 0, &r);
                assert_true(r.found);
                assert_int_equal(r.how, steps[k].how);
                assert_path(r.path, steps[k].vpath);
                assert_int_equal(r.ntried, k + 1);
                for (i = 0; i < k; i++)
                        assert_int_equal(r.tries[i].outcome, CC_TRY_MISSING);
                cc_resolution_free(&r);
                env_close(&e);
                tu_rmroot(e.root);
        }
}

static void test_not_found(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        static const int hows[] = {CC_HOW_APPDIR, CC_HOW_SYSTEM32, CC_HOW_SYSTEM16, CC_HOW_WINDIR,
                                   CC_HOW_CWD,    CC_HOW_PATH,     CC_HOW_PATH,     0};
        cc_error err = {0};
        cc_value *f;
        cc_buf b = {0};

        (void)state;
        put(e.root, "app/app.exe", K_X64);
        env_open(&e, base_env, "C:\\app\\app.exe", &o);
        resolve(&e, "nothere.dll", NULL, 1, &r);
        assert_false(r.found);
        assert_int_equal(r.win_error, 126);
        assert_int_equal(r.how, CC_HOW_NOT_FOUND);
        assert_null(r.path);
        assert_hows(&r, hows);
        assert_int_equal(r.ntried, r.ntries);
        f = cc_resolution_facts(&r, &err);
        assert_non_null(f);
        assert_int_equal(cc_v_as_int(cc_v_get(f, "windows_error")), 126);
        assert_int_equal(cc_v_len(cc_v_get(f, "tried")), 7);
        assert_int_equal(cc_json_write(f, 0, &b, &err), 0);
        assert_non_null(strstr(b.data, "\"how\":\"not-found\""));
        cc_buf_free(&b);
        cc_v_free(f);
        cc_resolution_free(&r);
        env_close(&e);
        tu_rmroot(e.root);
}

/* ---- SafeDllSearchMode, SetDllDirectory --------------------------------------------- */

static void test_safe_search_off(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        static const int off[] = {CC_HOW_APPDIR, CC_HOW_CWD,  CC_HOW_SYSTEM32, CC_HOW_SYSTEM16,
                                  CC_HOW_WINDIR, CC_HOW_PATH, CC_HOW_PATH,     0};

        (void)state;
        put(e.root, "app/app.exe", K_X64);
        put(e.root, "Windows/System32/z.dll", K_X64);
        put(e.root, "work/z.dll", K_X64);
        /* default (a tree): on, System32 first */
        env_open(&e, base_env, "C:\\app\\app.exe", &o);
        resolve(&e, "z.dll", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_SYSTEM32);
        cc_resolution_free(&r);
        env_close(&e);
        /* off: the current directory right after the application's */
        o.safe_search = CUDNNCTL_SAFE_SEARCH_OFF;
        env_open(&e, base_env, "C:\\app\\app.exe", &o);
        resolve(&e, "z.dll", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_CWD);
        assert_path(r.path, "C:\\work\\z.dll");
        cc_resolution_free(&r);
        resolve(&e, "none.dll", NULL, 0, &r);
        assert_hows(&r, off);
        cc_resolution_free(&r);
        env_close(&e);
        /* on, explicitly */
        o.safe_search = CUDNNCTL_SAFE_SEARCH_ON;
        env_open(&e, base_env, "C:\\app\\app.exe", &o);
        resolve(&e, "z.dll", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_SYSTEM32);
        cc_resolution_free(&r);
        env_close(&e);
        tu_rmroot(e.root);
}

static void test_set_dll_directory(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        static const int with_dir[] = {CC_HOW_APPDIR, CC_HOW_SET_DLL_DIR, CC_HOW_SYSTEM32, CC_HOW_SYSTEM16,
                                       CC_HOW_WINDIR, CC_HOW_PATH,        CC_HOW_PATH,     0};
        static const int empty[] = {
            CC_HOW_APPDIR, CC_HOW_SYSTEM32, CC_HOW_SYSTEM16, CC_HOW_WINDIR, CC_HOW_PATH, CC_HOW_PATH, 0};

        (void)state;
        put(e.root, "app/app.exe", K_X64);
        put(e.root, "sd/s.dll", K_X64);
        put(e.root, "Windows/System32/s.dll", K_X64);
        put(e.root, "work/c.dll", K_X64);
        put(e.root, "p2/c.dll", K_X64);
        o.set_dll_dir = "C:\\sd";
        o.safe_search = CUDNNCTL_SAFE_SEARCH_OFF; /* SetDllDirectory takes the current directory's place either way */
        env_open(&e, base_env, "C:\\app\\app.exe", &o);
        resolve(&e, "s.dll", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_SET_DLL_DIR);
        assert_path(r.path, "C:\\sd\\s.dll");
        cc_resolution_free(&r);
        resolve(&e, "none.dll", NULL, 0, &r);
        assert_hows(&r, with_dir);
        cc_resolution_free(&r);
        /* the current directory is not searched while a directory is set */
        resolve(&e, "c.dll", NULL, 0, &r);
        assert_path(r.path, "C:\\p2\\c.dll");
        cc_resolution_free(&r);
        env_close(&e);
        /* SetDllDirectory(""): the current directory is gone */
        o.set_dll_dir = "";
        o.safe_search = CUDNNCTL_SAFE_SEARCH_MACHINE;
        env_open(&e, base_env, "C:\\app\\app.exe", &o);
        resolve(&e, "none.dll", NULL, 0, &r);
        assert_hows(&r, empty);
        cc_resolution_free(&r);
        env_close(&e);
        tu_rmroot(e.root);
}

/* ---- KnownDLLs, API sets ---------------------------------------------------------------- */

static void test_known_dlls(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        cc_error err = {0};
        cc_value *f;
        static const char *const mine[] = {"zlibwapi.dll"};

        (void)state;
        put(e.root, "app/app.exe", K_X64);
        put(e.root, "app/kernel32.dll", K_X64);
        put(e.root, "app/zlibwapi.dll", K_X64);
        put(e.root, "Windows/System32/zlibwapi.dll", K_X64);
        env_open(&e, base_env, "C:\\app\\app.exe", &o);
        /* case-insensitive, extension appended, no search */
        resolve(&e, "KERNEL32", NULL, 0, &r);
        assert_true(r.found);
        assert_int_equal(r.how, CC_HOW_KNOWNDLL);
        assert_path(r.path, "C:\\Windows\\System32\\KERNEL32.dll");
        assert_int_equal(r.ntried, 1);
        assert_non_null(strstr(r.origin, "built-in Windows 10/11"));
        assert_note(&r, "known DLL");
        assert_note(&r, "not in this tree's System32");
        cc_resolution_free(&r);
        /* with shadowed: the app-local copy is never used */
        resolve(&e, "kernel32.dll", NULL, 1, &r);
        assert_int_equal(r.how, CC_HOW_KNOWNDLL);
        assert_int_equal(r.ntries, 2);
        assert_int_equal(r.tries[1].outcome, CC_TRY_SHADOWED);
        assert_path(r.tries[1].path, "C:\\app\\kernel32.dll");
        cc_resolution_free(&r);
        /* a name with a path is not looked up in KnownDLLs */
        resolve(&e, "C:\\app\\kernel32.dll", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_DIRECT);
        cc_resolution_free(&r);
        /* zlibwapi is no known DLL: the app's copy wins */
        resolve(&e, "zlibwapi.dll", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_APPDIR);
        cc_resolution_free(&r);
        f = cc_win_ctx_facts(e.c, &err);
        assert_non_null(f);
        assert_string_equal(cc_v_as_str(cc_v_get(f, "known_dlls_source")), "built-in Windows 10/11 list");
        assert_true(cc_v_len(cc_v_get(f, "known_dlls")) > 20);
        cc_v_free(f);
        /* a list given as data replaces the built-in one */
        assert_int_equal(cc_win_ctx_set_known_dlls(e.c, mine, 1, "test", &err), 0);
        resolve(&e, "ZLIBWAPI.DLL", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_KNOWNDLL);
        assert_path(r.path, "C:\\Windows\\System32\\ZLIBWAPI.DLL");
        assert_non_null(strstr(r.origin, "test"));
        assert_false(has_note(&r, "not in this tree"));
        cc_resolution_free(&r);
        resolve(&e, "kernel32.dll", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_APPDIR);
        cc_resolution_free(&r);
        env_close(&e);
        tu_rmroot(e.root);
}

/* What a known DLL imports from System32 is known too. */
static void test_known_dll_imports(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        cc_error err = {0};
        static const char *const known[] = {"cudnn_ops64_9.dll"};

        (void)state;
        if (!tu_exists(getenv("CC_FIXTURES") ? getenv("CC_FIXTURES") : "/nonexistent"))
                skip();
        /* cudnn_ops64_9.dll imports cudnn_graph64_9.dll and KERNEL32.dll */
        put_fixture(e.root, "Windows/System32/cudnn_ops64_9.dll", "pe/cudnn9/bin/cudnn_ops64_9.dll");
        put_fixture(e.root, "Windows/System32/cudnn_graph64_9.dll", "pe/cudnn9/bin/cudnn_graph64_9.dll");
        put(e.root, "app/cudnn_graph64_9.dll", K_X64);
        put(e.root, "app/app.exe", K_X64);
        env_open(&e, base_env, NULL, &o);
        resolve(&e, "cudnn_graph64_9.dll", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_SYSTEM32); /* no app: System32 first */
        cc_resolution_free(&r);
        env_close(&e);
        /* the ops library made a known DLL: what it imports from System32 is known too */
        env_open(&e, base_env, "C:\\app\\app.exe", &o);
        assert_int_equal(cc_win_ctx_set_known_dlls(e.c, known, 1, "test", &err), 0);
        resolve(&e, "cudnn_ops64_9.dll", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_KNOWNDLL);
        cc_resolution_free(&r);
        resolve(&e, "cudnn_graph64_9.dll", NULL, 1, &r);
        assert_int_equal(r.how, CC_HOW_KNOWNDLL);
        assert_non_null(strstr(r.origin, "imported by cudnn_ops64_9.dll"));
        assert_int_equal(r.tries[r.ntries - 1].outcome, CC_TRY_SHADOWED);
        assert_path(r.tries[r.ntries - 1].path, "C:\\app\\cudnn_graph64_9.dll");
        cc_resolution_free(&r);
        /* KERNEL32.dll is imported too, but this System32 has no copy to follow */
        resolve(&e, "kernel32.dll", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_NOT_FOUND);
        cc_resolution_free(&r);
        env_close(&e);
        tu_rmroot(e.root);
}

static void test_api_sets(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        static const char *const names[] = {"api-ms-win-core-synch-l1-2-0.dll", "API-MS-WIN-CRT-RUNTIME-L1-1-0.DLL",
                                            "ext-ms-win-ntuser-window-l1-1-0", "Api-Ms-Win-Core-Path-L1-1-0"};
        size_t i;

        (void)state;
        for (i = 0; i < 2; i++) {
                o.win_mode = i == 0 ? CUDNNCTL_WIN_STANDARD : CUDNNCTL_WIN_PYTHON;
                env_open(&e, base_env, NULL, &o);
                {
                        size_t k;

                        for (k = 0; k < CC_ARRAY_LEN(names); k++) {
                                resolve(&e, names[k], NULL, 1, &r);
                                assert_true(r.found);
                                assert_int_equal(r.how, CC_HOW_APISET);
                                assert_int_equal(r.win_error, 0);
                                assert_null(r.path);
                                assert_int_equal(r.ntries, 1);
                                assert_note(&r, "API set");
                                cc_resolution_free(&r);
                        }
                }
                env_close(&e);
        }
        tu_rmroot(e.root);
}

/* ---- names -------------------------------------------------------------------------------- */

static void test_names(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;

        (void)state;
        put(e.root, "app/app.exe", K_X64);
        put(e.root, "p1/CUDNN64_9.DLL", K_X64);
        put(e.root, "p1/plain", K_X64);
        put(e.root, "p2/plain.dll", K_X64);
        put(e.root, "lib/direct.dll", K_X64);
        put(e.root, "app/direct.dll", K_X64);
        put(e.root, "p2/sub/rel.dll", K_X64);
        put(e.root, "work/cwdonly.dll", K_X64);
        env_open(&e, base_env, "C:\\app\\app.exe", &o);

        /* case-insensitive names; the path as the loader builds it, realpath as on disk */
        resolve(&e, "cudnn64_9.dll", NULL, 0, &r);
        assert_true(r.found);
        assert_path(r.path, "C:\\p1\\cudnn64_9.dll");
        assert_non_null(r.realpath);
        assert_true(cc_ends_with(r.realpath, "CUDNN64_9.DLL"));
        cc_resolution_free(&r);
        /* no extension: ".dll" */
        resolve(&e, "cudnn64_9", NULL, 0, &r);
        assert_path(r.path, "C:\\p1\\cudnn64_9.dll");
        cc_resolution_free(&r);
        resolve(&e, "plain", NULL, 0, &r);
        assert_path(r.path, "C:\\p2\\plain.dll");
        cc_resolution_free(&r);
        /* a trailing dot: no extension at all */
        resolve(&e, "plain.", NULL, 0, &r);
        assert_path(r.path, "C:\\p1\\plain");
        cc_resolution_free(&r);
        /* a full path: that file only */
        resolve(&e, "C:\\lib\\direct.dll", NULL, 1, &r);
        assert_int_equal(r.how, CC_HOW_DIRECT);
        assert_path(r.path, "C:\\lib\\direct.dll");
        assert_int_equal(r.ntries, 1);
        cc_resolution_free(&r);
        resolve(&e, "c:/lib/sub/../direct", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_DIRECT);
        assert_path(r.path, "C:\\lib\\direct.dll");
        cc_resolution_free(&r);
        resolve(&e, "C:\\nowhere\\direct.dll", NULL, 1, &r);
        assert_false(r.found);
        assert_int_equal(r.win_error, 126);
        assert_int_equal(r.ntries, 1);
        cc_resolution_free(&r);
        /* drive-relative: against the current directory */
        resolve(&e, "C:cwdonly.dll", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_DIRECT);
        assert_path(r.path, "C:\\work\\cwdonly.dll");
        cc_resolution_free(&r);
        /* a relative path with a directory: appended to every directory searched */
        resolve(&e, "sub\\rel.dll", NULL, 0, &r);
        assert_true(r.found);
        assert_int_equal(r.how, CC_HOW_PATH);
        assert_path(r.path, "C:\\p2\\sub\\rel.dll");
        assert_path(r.tries[0].path, "C:\\app\\sub\\rel.dll");
        assert_note(&r, "relative path");
        cc_resolution_free(&r);
        resolve(&e, "..\\lib\\direct.dll", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_APPDIR);
        assert_path(r.path, "C:\\lib\\direct.dll");
        cc_resolution_free(&r);
        env_close(&e);
        tu_rmroot(e.root);
}

static void test_bad_names(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        cc_error err = {0};

        (void)state;
        env_open(&e, base_env, NULL, &o);
        assert_int_equal(cc_win_resolve(e.c, "", NULL, 0, &r, &err), -1);
        assert_int_equal(err.code, CC_ERR_USAGE);
        assert_int_equal(cc_win_resolve(e.c, "C:\\dir\\", NULL, 0, &r, &err), -1);
        assert_int_equal(cc_win_resolve(e.c, "...", NULL, 0, &r, &err), -1);
        env_close(&e);
        tu_rmroot(e.root);
}

/* ---- the machine check: error 193 ------------------------------------------------------------ */

/* catalog entry 2: a 32-bit zlibwapi.dll found first is passed over (the
 * loader searches on for one of the process's machine); error 193 only when
 * every copy found is for another machine. */
static void test_x86_first_193(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        size_t i, skipped = 0;
        static const char *const env[] = {"PATH=C:\\Program Files\\OtherApp;C:\\cuda\\bin", "CD=C:\\work", NULL};

        (void)state;
        put_fixture(e.root, "app/app.exe", "pe/misc/app.exe");
        put_fixture(e.root, "Program Files/OtherApp/zlibwapi.dll", "pe/misc/x86/cudnn32_7.dll");
        put_fixture(e.root, "cuda/bin/zlibwapi.dll", "pe/deps/zlibwapi.dll");
        env_open(&e, env, "C:\\app\\app.exe", &o);
        resolve(&e, "zlibwapi.dll", NULL, 1, &r);
        assert_true(r.found);
        assert_int_equal(r.win_error, 0);
        assert_path(r.path, "C:\\cuda\\bin\\zlibwapi.dll");
        assert_int_equal(r.how, CC_HOW_PATH);
        for (i = 0; i < r.ntried; i++) {
                if (r.tries[i].outcome != CC_TRY_SKIPPED)
                        continue;
                skipped++;
                assert_path(r.tries[i].path, "C:\\Program Files\\OtherApp\\zlibwapi.dll");
                assert_non_null(strstr(r.tries[i].detail, "an x86 DLL"));
                assert_non_null(strstr(r.tries[i].detail, "passes over it"));
        }
        assert_int_equal(skipped, 1);
        assert_int_equal(r.tries[r.ntried - 1].outcome, CC_TRY_FOUND);
        assert_note(&r, "passes over it");
        assert_note(&r, "an x86 program would load it");
        assert_false(cc_resolution_fails(&r));
        cc_resolution_free(&r);
        /* the x64 copy gone: every copy found is x86, error 193 after the whole search */
        {
                char p[4096];

                snprintf(p, sizeof(p), "%s/cuda/bin/zlibwapi.dll", e.root);
                assert_int_equal(remove(p), 0);
        }
        env_close(&e); /* the context remembers what it probed */
        env_open(&e, env, "C:\\app\\app.exe", &o);
        resolve(&e, "zlibwapi.dll", NULL, 1, &r);
        assert_false(r.found);
        assert_int_equal(r.win_error, 193);
        assert_null(r.path);
        assert_int_equal(r.how, CC_HOW_NOT_FOUND);
        assert_int_equal(r.ntried, r.ntries);
        assert_true(cc_resolution_fails(&r));
        assert_note(&r, "every copy found is a DLL for another machine");
        assert_note(&r, "error 193");
        assert_note(&r, "Fix");
        {
                cc_error err = {0};
                cc_value *f = cc_resolution_facts(&r, &err);

                assert_non_null(f);
                assert_int_equal(cc_v_as_int(cc_v_get(f, "windows_error")), 193);
                assert_int_equal(cc_v_len(cc_v_get(f, "shadowed")), 0);
                assert_false(cc_v_as_bool(cc_v_get(f, "found")));
                cc_v_free(f);
        }
        cc_resolution_free(&r);
        /* only an x86 copy, named by its path: 193 as well */
        resolve(&e, "C:\\Program Files\\OtherApp\\zlibwapi.dll", NULL, 0, &r);
        assert_int_equal(r.win_error, 193);
        assert_true(cc_resolution_fails(&r));
        cc_resolution_free(&r);
        env_close(&e);
        tu_rmroot(e.root);
}

static void test_process_machine(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        cc_error err = {0};
        cc_value *f;

        (void)state;
        put(e.root, "app32/app.exe", K_X86);
        put(e.root, "app32/x64.dll", K_X64);
        put(e.root, "app32/x86.dll", K_X86);
        put(e.root, "app32/arm.dll", K_ARM64);
        put(e.root, "Windows/SysWOW64/w.dll", K_X86);
        put(e.root, "Windows/System32/w.dll", K_X64);
        env_open(&e, base_env, "C:\\app32\\app.exe", &o);
        resolve(&e, "x64.dll", NULL, 0, &r);
        assert_int_equal(r.win_error, 193);
        assert_non_null(strstr(r.tries[0].detail, "x64"));
        cc_resolution_free(&r);
        resolve(&e, "x86.dll", NULL, 0, &r);
        assert_true(r.found);
        cc_resolution_free(&r);
        resolve(&e, "arm.dll", NULL, 0, &r);
        assert_int_equal(r.win_error, 193);
        cc_resolution_free(&r);
        /* a 32-bit process sees SysWOW64 as its System32 */
        resolve(&e, "w.dll", NULL, 0, &r);
        assert_true(r.found);
        assert_path(r.path, "C:\\Windows\\SysWOW64\\w.dll");
        assert_int_equal(r.how, CC_HOW_SYSTEM32);
        cc_resolution_free(&r);
        f = cc_win_ctx_facts(e.c, &err);
        assert_string_equal(cc_v_as_str(cc_v_get(f, "machine")), "x86");
        assert_true(cc_v_as_bool(cc_v_get(f, "wow64")));
        cc_v_free(f);
        env_close(&e);
        /* no application: x64 */
        env_open(&e, base_env, NULL, &o);
        resolve(&e, "w.dll", NULL, 0, &r);
        assert_path(r.path, "C:\\Windows\\System32\\w.dll");
        cc_resolution_free(&r);
        env_close(&e);
        /* an application that is not a PE image: x64, with a note */
        put(e.root, "bad/app.exe", K_TEXT);
        env_open(&e, base_env, "C:\\bad\\app.exe", &o);
        assert_true(ctx_has_note(e.c, "cannot be read as a PE image"));
        resolve(&e, "w.dll", NULL, 0, &r);
        assert_path(r.path, "C:\\Windows\\System32\\w.dll");
        cc_resolution_free(&r);
        env_close(&e);
        tu_rmroot(e.root);
}

static void test_not_pe_and_directory(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;

        (void)state;
        put(e.root, "app/app.exe", K_X64);
        put(e.root, "app/text.dll", K_TEXT);
        put(e.root, "p1/text.dll", K_X64);
        put(e.root, "app/dir.dll", K_DIR);
        put(e.root, "p1/dir.dll", K_X64);
        env_open(&e, base_env, "C:\\app\\app.exe", &o);
        resolve(&e, "text.dll", NULL, 1, &r);
        assert_false(r.found);
        assert_int_equal(r.win_error, 193);
        assert_int_equal(r.ntried, 1);
        assert_int_equal(r.tries[0].outcome, CC_TRY_FAILED);
        assert_note(&r, "not a PE image");
        assert_int_equal(r.tries[r.ntries - 1].outcome, CC_TRY_SHADOWED);
        cc_resolution_free(&r);
        /* a directory under the DLL's name: the loader cannot open it and stops */
        resolve(&e, "dir.dll", NULL, 0, &r);
        assert_false(r.found);
        assert_int_equal(r.win_error, 5);
        assert_int_equal(r.tries[0].outcome, CC_TRY_FAILED);
        cc_resolution_free(&r);
        env_close(&e);
        tu_rmroot(e.root);
}

/* ---- LoadLibraryEx modes ------------------------------------------------------------------------ */

static void test_altered(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        static const int hows[] = {CC_HOW_DLL_LOAD_DIR, CC_HOW_SYSTEM32, CC_HOW_SYSTEM16, CC_HOW_WINDIR,
                                   CC_HOW_CWD,          CC_HOW_PATH,     CC_HOW_PATH,     0};

        (void)state;
        put(e.root, "app/app.exe", K_X64);
        put(e.root, "lib/top.dll", K_X64);
        put(e.root, "lib/dep.dll", K_X64);
        put(e.root, "app/dep.dll", K_X64);
        put(e.root, "p1/dep.dll", K_X64);
        /* standard: a DLL's imports are searched from the application, not from the DLL */
        env_open(&e, base_env, "C:\\app\\app.exe", &o);
        resolve(&e, "dep.dll", "C:\\lib\\top.dll", 0, &r);
        assert_path(r.path, "C:\\app\\dep.dll");
        cc_resolution_free(&r);
        env_close(&e);
        o.win_mode = CUDNNCTL_WIN_ALTERED;
        env_open(&e, base_env, "C:\\app\\app.exe", &o);
        resolve(&e, "C:\\lib\\top.dll", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_DIRECT);
        cc_resolution_free(&r);
        resolve(&e, "dep.dll", "C:\\lib\\top.dll", 0, &r);
        assert_int_equal(r.how, CC_HOW_DLL_LOAD_DIR);
        assert_path(r.path, "C:\\lib\\dep.dll");
        assert_non_null(strstr(r.origin, "LOAD_WITH_ALTERED_SEARCH_PATH"));
        cc_resolution_free(&r);
        resolve(&e, "none.dll", "C:\\lib\\top.dll", 0, &r);
        assert_hows(&r, hows);
        cc_resolution_free(&r);
        /* a bare name: the standard order, with a note */
        resolve(&e, "dep.dll", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_APPDIR);
        assert_note(&r, "LOAD_WITH_ALTERED_SEARCH_PATH");
        cc_resolution_free(&r);
        env_close(&e);
        tu_rmroot(e.root);
}

static void test_search_flags(void **state)
{
        static const struct {
                unsigned flags;
                int hows[8];
        } cases[] = {
            {CUDNNCTL_WIN_SEARCH_DLL_LOAD_DIR, {CC_HOW_DLL_LOAD_DIR, 0}},
            {CUDNNCTL_WIN_SEARCH_APPLICATION_DIR, {CC_HOW_APPDIR, 0}},
            {CUDNNCTL_WIN_SEARCH_USER_DIRS, {CC_HOW_USER_DIR, CC_HOW_USER_DIR, CC_HOW_SET_DLL_DIR, 0}},
            {CUDNNCTL_WIN_SEARCH_SYSTEM32, {CC_HOW_SYSTEM32, 0}},
            {CUDNNCTL_WIN_SEARCH_DEFAULT_DIRS,
             {CC_HOW_APPDIR, CC_HOW_USER_DIR, CC_HOW_USER_DIR, CC_HOW_SET_DLL_DIR, CC_HOW_SYSTEM32, 0}},
            {CUDNNCTL_WIN_SEARCH_DEFAULT_DIRS | CUDNNCTL_WIN_SEARCH_DLL_LOAD_DIR,
             {CC_HOW_DLL_LOAD_DIR, CC_HOW_APPDIR, CC_HOW_USER_DIR, CC_HOW_USER_DIR, CC_HOW_SET_DLL_DIR, CC_HOW_SYSTEM32,
              0}},
            {CUDNNCTL_WIN_SEARCH_SYSTEM32 | CUDNNCTL_WIN_SEARCH_APPLICATION_DIR, {CC_HOW_APPDIR, CC_HOW_SYSTEM32, 0}},
        };
        static const char *const dirs[] = {"C:\\u1", "C:\\u2", "relative\\dir", "C:\\missing"};
        size_t k;

        (void)state;
        for (k = 0; k < CC_ARRAY_LEN(cases); k++) {
                struct env e = {mkroot(), NULL, NULL};
                cudnnctl_which_options o = opts_std();
                cc_resolution r;

                put(e.root, "app/app.exe", K_X64);
                put(e.root, "lib/top.dll", K_X64);
                put(e.root, "u1/only_u1.dll", K_X64);
                put(e.root, "u2/.keep", K_TEXT);
                put(e.root, "sd/.keep", K_TEXT);
                put(e.root, "p1/onpath.dll", K_X64);
                put(e.root, "work/onpath.dll", K_X64);
                o.win_mode = CUDNNCTL_WIN_SEARCH;
                o.win_search = cases[k].flags;
                o.dll_dirs = dirs;
                o.ndll_dirs = CC_ARRAY_LEN(dirs);
                o.set_dll_dir = "C:\\sd";
                env_open(&e, base_env, "C:\\app\\app.exe", &o);
                assert_true(ctx_has_note(e.c, "relative\\dir"));
                assert_true(ctx_has_note(e.c, "C:\\missing"));
                resolve(&e, "none.dll", "C:\\lib\\top.dll", 0, &r);
                assert_int_equal(r.win_error, 126);
                assert_hows(&r, cases[k].hows);
                cc_resolution_free(&r);
                /* PATH and the current directory are never searched */
                resolve(&e, "onpath.dll", "C:\\lib\\top.dll", 0, &r);
                assert_false(r.found);
                assert_note(&r, "does not search PATH");
                cc_resolution_free(&r);
                if (cases[k].flags & (CUDNNCTL_WIN_SEARCH_USER_DIRS | CUDNNCTL_WIN_SEARCH_DEFAULT_DIRS)) {
                        resolve(&e, "only_u1.dll", "C:\\lib\\top.dll", 0, &r);
                        assert_int_equal(r.how, CC_HOW_USER_DIR);
                        assert_non_null(strstr(r.origin, "AddDllDirectory 1"));
                        cc_resolution_free(&r);
                }
                /* a bare top-level name with DLL_LOAD_DIR: ERROR_INVALID_PARAMETER */
                resolve(&e, "none.dll", NULL, 0, &r);
                if (cases[k].flags & CUDNNCTL_WIN_SEARCH_DLL_LOAD_DIR) {
                        assert_int_equal(r.win_error, 87);
                        assert_int_equal(r.ntries, 0);
                        assert_note(&r, "fully qualified");
                } else {
                        assert_int_equal(r.win_error, 126);
                }
                cc_resolution_free(&r);
                /* ... checked before KnownDLLs and API sets */
                resolve(&e, "kernel32.dll", NULL, 0, &r);
                assert_int_equal(r.how, (cases[k].flags & CUDNNCTL_WIN_SEARCH_DLL_LOAD_DIR) ? CC_HOW_NOT_FOUND
                                                                                            : CC_HOW_KNOWNDLL);
                cc_resolution_free(&r);
                resolve(&e, "api-ms-win-core-synch-l1-2-0.dll", NULL, 0, &r);
                assert_int_equal(r.found, !(cases[k].flags & CUDNNCTL_WIN_SEARCH_DLL_LOAD_DIR));
                cc_resolution_free(&r);
                env_close(&e);
                tu_rmroot(e.root);
        }
}

/* catalog entry 7: Python >= 3.8 extension modules do not get PATH. */
static void test_python_ignores_path(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        static const char *const env[] = {"PATH=C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin;C:\\Windows\\System32",
                                          "CD=C:\\work", NULL};
        static const char *const added[] = {"C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin"};
        static const int hows[] = {CC_HOW_DLL_LOAD_DIR, CC_HOW_APPDIR, CC_HOW_SYSTEM32, 0};
        const char *pyd = "C:\\venv\\Lib\\site-packages\\ext\\_ext.pyd";

        (void)state;
        put(e.root, "Python312/python.exe", K_X64);
        put(e.root, "venv/Lib/site-packages/ext/_ext.pyd", K_X64);
        put(e.root, "venv/Lib/site-packages/ext/bundled.dll", K_X64);
        put(e.root, "Program Files/NVIDIA/CUDNN/v9.1/bin/cudnn64_9.dll", K_X64);
        o.win_mode = CUDNNCTL_WIN_PYTHON;
        env_open(&e, env, "C:\\Python312\\python.exe", &o);
        resolve(&e, "cudnn64_9.dll", pyd, 1, &r);
        assert_false(r.found);
        assert_int_equal(r.win_error, 126);
        assert_hows(&r, hows);
        assert_note(&r, "Python >= 3.8 does not search PATH");
        assert_note(&r, "os.add_dll_directory");
        cc_resolution_free(&r);
        /* next to the module: the DLL load directory */
        resolve(&e, "bundled.dll", pyd, 0, &r);
        assert_int_equal(r.how, CC_HOW_DLL_LOAD_DIR);
        cc_resolution_free(&r);
        /* the module itself, by full path */
        resolve(&e, pyd, NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_DIRECT);
        cc_resolution_free(&r);
        /* a relative path: made absolute against the current directory, then loaded as it is */
        resolve(&e, "..\\venv\\Lib\\site-packages\\ext\\bundled.dll", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_DIRECT);
        assert_path(r.path, "C:\\venv\\Lib\\site-packages\\ext\\bundled.dll");
        assert_note(&r, "absolute against the current directory");
        cc_resolution_free(&r);
        /* ctypes with a bare name: DEFAULT_DIRS, no error 87 */
        resolve(&e, "cudnn64_9.dll", NULL, 0, &r);
        assert_int_equal(r.win_error, 126);
        cc_resolution_free(&r);
        env_close(&e);
        /* with os.add_dll_directory */
        o.dll_dirs = added;
        o.ndll_dirs = 1;
        env_open(&e, env, "C:\\Python312\\python.exe", &o);
        resolve(&e, "cudnn64_9.dll", pyd, 0, &r);
        assert_true(r.found);
        assert_int_equal(r.how, CC_HOW_USER_DIR);
        assert_non_null(strstr(r.origin, "os.add_dll_directory 1"));
        assert_false(has_note(&r, "does not search PATH"));
        cc_resolution_free(&r);
        env_close(&e);
        /* the same DLL in standard mode is found through PATH */
        o = opts_std();
        env_open(&e, env, "C:\\Python312\\python.exe", &o);
        resolve(&e, "cudnn64_9.dll", pyd, 0, &r);
        assert_int_equal(r.how, CC_HOW_PATH);
        cc_resolution_free(&r);
        env_close(&e);
        tu_rmroot(e.root);
}

/* ---- the cuDNN failure modes ------------------------------------------------------------------- */

/* catalog entry 6: cuDNN 9's installer puts the DLLs in bin\12.x, PATH gets bin. */
static void test_cudnn9_installer_layout(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        static const char *const env[] = {"PATH=C:\\Windows\\System32;C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin",
                                          "CD=C:\\work", NULL};

        (void)state;
        put(e.root, "app/app.exe", K_X64);
        put(e.root, "Program Files/NVIDIA/CUDNN/v9.1/bin/12.4/cudnn_ops64_9.dll", K_X64);
        put(e.root, "Program Files/NVIDIA/CUDNN/v9.1/bin/11.8/cudnn_ops64_9.dll", K_X64);
        env_open(&e, env, "C:\\app\\app.exe", &o);
        resolve(&e, "cudnn_ops64_9.dll", NULL, 1, &r);
        assert_false(r.found);
        assert_int_equal(r.win_error, 126);
        assert_note(&r, "one directory below");
        assert_note(&r, "bin\\12.4");
        assert_note(&r, "bin\\11.8");
        cc_resolution_free(&r);
        env_close(&e);
        tu_rmroot(e.root);
}

/* catalog entry 8: a stale copy in System32 shadows the one on PATH. */
static void test_stale_system32(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        static const char *const env[] = {"PATH=C:\\cuda\\bin", "CD=C:\\work", NULL};

        (void)state;
        put(e.root, "app/app.exe", K_X64);
        put(e.root, "Windows/System32/cudnn64_8.dll", K_X64);
        put_fixture(e.root, "cuda/bin/cudnn64_8.dll", "pe/cudnn8/bin/cudnn64_8.dll");
        env_open(&e, env, "C:\\app\\app.exe", &o);
        resolve(&e, "cudnn64_8.dll", NULL, 1, &r);
        assert_true(r.found);
        assert_int_equal(r.how, CC_HOW_SYSTEM32);
        assert_int_equal(r.tries[r.ntries - 1].outcome, CC_TRY_SHADOWED);
        assert_path(r.tries[r.ntries - 1].path, "C:\\cuda\\bin\\cudnn64_8.dll");
        assert_note(&r, "stale copy");
        cc_resolution_free(&r);
        env_close(&e);
        tu_rmroot(e.root);
}

/* catalog entry 1: zlibwapi.dll nowhere. */
static void test_zlibwapi_missing(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        static const char *const env[] = {"PATH=C:\\cuda\\bin", "CD=C:\\work", NULL};

        (void)state;
        put_fixture(e.root, "app/app.exe", "pe/misc/app.exe");
        put_fixture(e.root, "cuda/bin/cudnn64_8.dll", "pe/cudnn8/bin/cudnn64_8.dll");
        env_open(&e, env, "C:\\app\\app.exe", &o);
        resolve(&e, "zlibwapi.dll", "C:\\cuda\\bin\\cudnn64_8.dll", 1, &r);
        assert_false(r.found);
        assert_int_equal(r.win_error, 126);
        assert_int_equal(r.ntried, 6);
        assert_path(r.tries[5].path, "C:\\cuda\\bin\\zlibwapi.dll");
        cc_resolution_free(&r);
        env_close(&e);
        tu_rmroot(e.root);
}

/* ---- PATH ------------------------------------------------------------------------------------------ */

static void test_path_entries(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        static const char *const env[] = {"PATH=C:\\gone;;\"C:\\quoted\";bin;%CUDA_PATH%\\bin;D:\\other;C:\\p2\\",
                                          "CD=C:\\work", "CUDA_PATH=C:\\cudatk", NULL};
        cc_error err = {0};
        cc_value *f;
        const cc_value *path;

        (void)state;
        put(e.root, "app/app.exe", K_X64);
        put(e.root, "quoted/q.dll", K_X64);
        put(e.root, "work/bin/rel.dll", K_X64);
        put(e.root, "p2/last.dll", K_X64);
        put(e.root, "p2/q.dll", K_X64);
        put(e.root, "cudatk/bin/v.dll", K_X64);
        env_open(&e, env, "C:\\app\\app.exe", &o);
        assert_true(ctx_has_note(e.c, "PATH entry 2 is empty"));
        assert_true(ctx_has_note(e.c, "quoted"));
        assert_true(ctx_has_note(e.c, "relative"));
        assert_true(ctx_has_note(e.c, "unexpanded"));
        assert_true(ctx_has_note(e.c, "outside the tree"));
        assert_true(ctx_has_note(e.c, "not an existing directory: 1 (C:\\gone)"));
        /* a relative entry: from the current directory */
        resolve(&e, "rel.dll", NULL, 0, &r);
        assert_true(r.found);
        assert_path(r.path, "C:\\work\\bin\\rel.dll");
        assert_int_equal(r.how, CC_HOW_PATH);
        assert_non_null(strstr(r.origin, "PATH entry 4"));
        cc_resolution_free(&r);
        /* a quoted entry never matches */
        resolve(&e, "q.dll", NULL, 0, &r);
        assert_path(r.path, "C:\\p2\\q.dll");
        {
                size_t i;
                int seen = 0;

                for (i = 0; i < r.ntried; i++)
                        if (strstr(r.tries[i].path, "\"C:\\quoted\"") != NULL) {
                                seen = 1;
                                assert_int_equal(r.tries[i].outcome, CC_TRY_MISSING);
                        }
                assert_true(seen);
        }
        assert_note(&r, "C:\\quoted\\q.dll exists, but PATH entry 3");
        cc_resolution_free(&r);
        /* an unexpanded %VAR%: never looked at, but the note names the directory meant */
        resolve(&e, "v.dll", NULL, 0, &r);
        assert_false(r.found);
        assert_note(&r, "does not expand %VARIABLES%");
        assert_note(&r, "C:\\cudatk\\bin");
        cc_resolution_free(&r);
        /* the empty entry: the current directory (tried twice, then) */
        resolve(&e, "none.dll", NULL, 0, &r);
        assert_path(r.tries[6].path, "C:\\work\\none.dll");
        assert_non_null(strstr(r.tries[6].origin, "empty"));
        cc_resolution_free(&r);
        resolve(&e, "last.dll", NULL, 0, &r);
        assert_path(r.path, "C:\\p2\\last.dll");
        cc_resolution_free(&r);
        f = cc_win_ctx_facts(e.c, &err);
        assert_non_null(f);
        path = cc_v_get(f, "path");
        assert_int_equal(cc_v_len(path), 7);
        assert_string_equal(cc_v_as_str(cc_v_get(cc_v_at(path, 1), "kind")), "empty");
        assert_string_equal(cc_v_as_str(cc_v_get(cc_v_at(path, 2), "kind")), "quoted");
        assert_string_equal(cc_v_as_str(cc_v_get(cc_v_at(path, 3), "kind")), "relative");
        assert_string_equal(cc_v_as_str(cc_v_get(cc_v_at(path, 3), "dir")), "C:\\work\\bin");
        assert_true(cc_v_as_bool(cc_v_get(cc_v_at(path, 3), "exists")));
        assert_false(cc_v_as_bool(cc_v_get(cc_v_at(path, 0), "exists")));
        assert_string_equal(cc_v_as_str(cc_v_get(f, "system32")), "C:\\Windows\\System32");
        assert_string_equal(cc_v_as_str(cc_v_get(f, "windows_dir")), "C:\\Windows");
        assert_string_equal(cc_v_as_str(cc_v_get(f, "system16")), "C:\\Windows\\System");
        assert_string_equal(cc_v_as_str(cc_v_get(f, "cwd")), "C:\\work");
        assert_string_equal(cc_v_as_str(cc_v_get(f, "mode")), "standard");
        assert_true(cc_v_as_bool(cc_v_get(f, "safe_search")));
        assert_string_equal(cc_v_as_str(cc_v_get(f, "safe_search_source")), "default (on)");
        assert_string_equal(cc_v_as_str(cc_v_get(f, "machine")), "x64");
        cc_v_free(f);
        env_close(&e);
        tu_rmroot(e.root);
}

/* 32 KiB of PATH, thousands of entries: linear, and it still finds the last one. */
static void test_long_path(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        cc_buf b = {0};
        cc_error err = {0};
        const char *env[3];
        size_t i, n = 6000;
        clock_t t0;

        (void)state;
        assert_int_equal(cc_buf_puts(&b, "PATH=", &err), 0);
        for (i = 0; i < n; i++)
                assert_int_equal(cc_buf_printf(&b, &err, "C:\\d%zu;", i), 0);
        assert_int_equal(cc_buf_puts(&b, "C:\\last", &err), 0);
        put(e.root, "last/big.dll", K_X64);
        put(e.root, "d5999/mid.dll", K_X64);
        env[0] = b.data;
        env[1] = "CD=C:\\work";
        env[2] = NULL;
        t0 = clock();
        env_open(&e, env, NULL, &o);
        assert_true(ctx_has_note(e.c, "over the 32767"));
        for (i = 0; i < 5; i++) {
                resolve(&e, "big.dll", NULL, 1, &r);
                assert_true(r.found);
                assert_path(r.path, "C:\\last\\big.dll");
                assert_int_equal(r.ntried, n + 1 + 4);
                cc_resolution_free(&r);
        }
        resolve(&e, "mid.dll", NULL, 1, &r);
        assert_true(r.found);
        assert_int_equal(r.ntried, n + 4);
        cc_resolution_free(&r);
        /* generous: a quadratic walk over 6000 entries would take far longer */
        assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 20.0);
        env_close(&e);
        cc_buf_free(&b);
        tu_rmroot(e.root);
}

static void test_windows_dir(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_which_options o = opts_std();
        cc_resolution r;
        cc_error err = {0};
        cc_value *f;
        static const char *const sr[] = {"SystemRoot=C:\\WINNT", "CD=C:\\work", NULL};
        static const char *const wd[] = {"windir=C:\\WinDir\\", NULL};
        static const char *const bad[] = {"SystemRoot=WINDOWS", NULL};

        (void)state;
        put(e.root, "WINNT/System32/s.dll", K_X64);
        env_open(&e, sr, NULL, &o);
        resolve(&e, "s.dll", NULL, 0, &r);
        assert_int_equal(r.how, CC_HOW_SYSTEM32);
        assert_path(r.path, "C:\\WINNT\\System32\\s.dll");
        cc_resolution_free(&r);
        f = cc_win_ctx_facts(e.c, &err);
        assert_string_equal(cc_v_as_str(cc_v_get(f, "dirs_source")), "SystemRoot");
        cc_v_free(f);
        env_close(&e);
        env_open(&e, wd, NULL, &o);
        f = cc_win_ctx_facts(e.c, &err);
        assert_string_equal(cc_v_as_str(cc_v_get(f, "windows_dir")), "C:\\WinDir");
        assert_string_equal(cc_v_as_str(cc_v_get(f, "dirs_source")), "windir");
        assert_string_equal(cc_v_as_str(cc_v_get(f, "cwd")), "C:\\");
        cc_v_free(f);
        env_close(&e);
        env_open(&e, bad, NULL, &o);
        assert_true(ctx_has_note(e.c, "not a full path"));
        f = cc_win_ctx_facts(e.c, &err);
        assert_string_equal(cc_v_as_str(cc_v_get(f, "windows_dir")), "C:\\Windows");
        cc_v_free(f);
        env_close(&e);
        tu_rmroot(e.root);
}

static void test_usage(void **state)
{
        struct env e = {mkroot(), NULL, NULL};
        cudnnctl_machine_options mo;
        cudnnctl_which_options o = opts_std();
        cc_error err = {0};
        cc_win_ctx *c = NULL;

        (void)state;
        memset(&mo, 0, sizeof(mo));
        mo.root = e.root;
        mo.system = CUDNNCTL_SYSTEM_LINUX;
        assert_int_equal(cudnnctl_machine_open(&mo, &e.m, &err), 0);
        assert_int_equal(cc_win_ctx_open(e.m, NULL, &o, &c, &err), -1);
        assert_int_equal(err.code, CC_ERR_USAGE);
        assert_null(c);
        cudnnctl_machine_free(e.m);
        mo.system = CUDNNCTL_SYSTEM_WINDOWS;
        assert_int_equal(cudnnctl_machine_open(&mo, &e.m, &err), 0);
        o.win_mode = 42;
        assert_int_equal(cc_win_ctx_open(e.m, NULL, &o, &c, &err), -1);
        /* NULL options: LoadLibrary with the machine's settings */
        assert_int_equal(cc_win_ctx_open(e.m, NULL, NULL, &c, &err), 0);
        cc_win_ctx_free(c);
        cc_win_ctx_free(NULL);
        /* SEARCH without flags is LoadLibrary */
        o.win_mode = CUDNNCTL_WIN_SEARCH;
        o.win_search = 0;
        assert_int_equal(cc_win_ctx_open(e.m, NULL, &o, &c, &err), 0);
        assert_true(ctx_has_note(c, "standard search order"));
        cc_win_ctx_free(c);
        cudnnctl_machine_free(e.m);
        tu_rmroot(e.root);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_standard_order_shadowed),
            cmocka_unit_test(test_standard_each_step),
            cmocka_unit_test(test_not_found),
            cmocka_unit_test(test_safe_search_off),
            cmocka_unit_test(test_set_dll_directory),
            cmocka_unit_test(test_known_dlls),
            cmocka_unit_test(test_known_dll_imports),
            cmocka_unit_test(test_api_sets),
            cmocka_unit_test(test_names),
            cmocka_unit_test(test_bad_names),
            cmocka_unit_test(test_x86_first_193),
            cmocka_unit_test(test_process_machine),
            cmocka_unit_test(test_not_pe_and_directory),
            cmocka_unit_test(test_altered),
            cmocka_unit_test(test_search_flags),
            cmocka_unit_test(test_python_ignores_path),
            cmocka_unit_test(test_cudnn9_installer_layout),
            cmocka_unit_test(test_stale_system32),
            cmocka_unit_test(test_zlibwapi_missing),
            cmocka_unit_test(test_path_entries),
            cmocka_unit_test(test_long_path),
            cmocka_unit_test(test_windows_dir),
            cmocka_unit_test(test_usage),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
