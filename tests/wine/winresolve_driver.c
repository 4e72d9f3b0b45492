/* The emulation's side of tests/oracle/wine_loader.py: open a Windows machine
 * over a tree, resolve DLL names the way cc_win_resolve does, print one line
 * per name ("NAME<TAB>OK<TAB>PATH", "NAME<TAB>OK<TAB>(api-set)" or
 * "NAME<TAB>ERR<TAB>CODE"), or with --json the resolution and the loader
 * context as JSON. The options are the ones `cudnnctl which` takes:
 *
 *   winresolve_driver --root DIR [--set VAR=VALUE]... [--from APP]
 *       [--win-mode standard|altered|search|python]
 *       [--win-search dll-dir,app,user,system32,default] [--safe-search on|off]
 *       [--add-dll-dir DIR]... [--set-dll-dir DIR|=] [--known-dlls none|A,B,...]
 *       [--loading DLL] [--shadowed] [--json] NAME...
 *
 * "--set-dll-dir =" is SetDllDirectory(""); --known-dlls replaces the
 * KnownDLLs list (Wine's registry has none); --loading names the DLL whose
 * imports are resolved. Exit status: 0, 2 on a usage error, 1 on failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/machine.h"
#include "resolve/resolve.h"

#define MAX_ARGS 256

static int usage(const char *msg)
{
        fprintf(stderr, "winresolve_driver: %s\n", msg);
        return 2;
}

static int parse_flags(const char *s, unsigned *out)
{
        static const struct {
                const char *name;
                unsigned bit;
        } names[] = {
            {"dll-dir", CUDNNCTL_WIN_SEARCH_DLL_LOAD_DIR}, {"app", CUDNNCTL_WIN_SEARCH_APPLICATION_DIR},
            {"user", CUDNNCTL_WIN_SEARCH_USER_DIRS},       {"system32", CUDNNCTL_WIN_SEARCH_SYSTEM32},
            {"default", CUDNNCTL_WIN_SEARCH_DEFAULT_DIRS},
        };

        *out = 0;
        while (*s) {
                size_t n = strcspn(s, ","), i;
                int ok = 0;

                for (i = 0; i < CC_ARRAY_LEN(names); i++) {
                        if (strlen(names[i].name) == n && strncmp(s, names[i].name, n) == 0) {
                                *out |= names[i].bit;
                                ok = 1;
                        }
                }
                if (!ok)
                        return -1;
                s += n;
                if (*s == ',')
                        s++;
        }
        return 0;
}

int main(int argc, char **argv)
{
        const char *sets[MAX_ARGS], *dirs[MAX_ARGS], *names[MAX_ARGS], *known[MAX_ARGS];
        size_t nsets = 0, ndirs = 0, nnames = 0, nknown = 0;
        const char *root = NULL, *from = NULL, *loading = NULL, *known_arg = NULL;
        char *known_buf = NULL;
        int shadowed = 0, json = 0, i, rv = 1;
        cudnnctl_which_options wo;
        cudnnctl_machine_options mo;
        cudnnctl_machine *m = NULL;
        cc_win_ctx *ctx = NULL;
        cc_error err = {0};

        memset(&wo, 0, sizeof(wo));
        memset(&mo, 0, sizeof(mo));
        wo.safe_search = CUDNNCTL_SAFE_SEARCH_MACHINE;
        for (i = 1; i < argc; i++) {
                const char *a = argv[i];
                const char *v = i + 1 < argc ? argv[i + 1] : NULL;
                int takes = 1;

                if (strcmp(a, "--shadowed") == 0) {
                        shadowed = 1;
                        takes = 0;
                } else if (strcmp(a, "--json") == 0) {
                        json = 1;
                        takes = 0;
                } else if (a[0] != '-' || a[1] != '-') {
                        if (nnames >= MAX_ARGS)
                                return usage("too many names");
                        names[nnames++] = a;
                        takes = 0;
                } else if (v == NULL) {
                        return usage("an option needs a value");
                } else if (strcmp(a, "--root") == 0) {
                        root = v;
                } else if (strcmp(a, "--set") == 0) {
                        if (nsets >= MAX_ARGS)
                                return usage("too many --set");
                        sets[nsets++] = v;
                } else if (strcmp(a, "--from") == 0) {
                        from = v;
                } else if (strcmp(a, "--loading") == 0) {
                        loading = v;
                } else if (strcmp(a, "--win-mode") == 0) {
                        if (strcmp(v, "standard") == 0)
                                wo.win_mode = CUDNNCTL_WIN_STANDARD;
                        else if (strcmp(v, "altered") == 0)
                                wo.win_mode = CUDNNCTL_WIN_ALTERED;
                        else if (strcmp(v, "search") == 0)
                                wo.win_mode = CUDNNCTL_WIN_SEARCH;
                        else if (strcmp(v, "python") == 0)
                                wo.win_mode = CUDNNCTL_WIN_PYTHON;
                        else
                                return usage("--win-mode: standard, altered, search or python");
                } else if (strcmp(a, "--win-search") == 0) {
                        if (parse_flags(v, &wo.win_search) < 0)
                                return usage("--win-search: dll-dir,app,user,system32,default");
                } else if (strcmp(a, "--safe-search") == 0) {
                        if (strcmp(v, "on") == 0)
                                wo.safe_search = CUDNNCTL_SAFE_SEARCH_ON;
                        else if (strcmp(v, "off") == 0)
                                wo.safe_search = CUDNNCTL_SAFE_SEARCH_OFF;
                        else
                                return usage("--safe-search: on or off");
                } else if (strcmp(a, "--add-dll-dir") == 0) {
                        if (ndirs >= MAX_ARGS)
                                return usage("too many --add-dll-dir");
                        dirs[ndirs++] = v;
                } else if (strcmp(a, "--set-dll-dir") == 0) {
                        wo.set_dll_dir = strcmp(v, "=") == 0 ? "" : v;
                } else if (strcmp(a, "--known-dlls") == 0) {
                        known_arg = v;
                } else {
                        return usage("unknown option");
                }
                i += takes;
        }
        if (root == NULL || nnames == 0)
                return usage("usage: winresolve_driver --root DIR [options] NAME...");
        wo.dll_dirs = dirs;
        wo.ndll_dirs = ndirs;
        wo.from = from;
        mo.root = root;
        mo.system = CUDNNCTL_SYSTEM_WINDOWS;
        mo.set = sets;
        mo.nset = nsets;
        if (cudnnctl_machine_open(&mo, &m, &err) < 0)
                goto fail;
        if (cc_win_ctx_open(m, from, &wo, &ctx, &err) < 0)
                goto fail;
        if (known_arg != NULL) {
                char *p;

                known_buf = cc_strdup(&err, known_arg);
                if (known_buf == NULL)
                        goto fail;
                for (p = strtok(known_buf, ","); p != NULL && nknown < MAX_ARGS; p = strtok(NULL, ","))
                        if (strcmp(p, "none") != 0)
                                known[nknown++] = p;
                if (cc_win_ctx_set_known_dlls(ctx, known, nknown, "given", &err) < 0)
                        goto fail;
        }
        for (i = 0; (size_t)i < nnames; i++) {
                cc_resolution r;

                if (cc_win_resolve(ctx, names[i], loading, shadowed, &r, &err) < 0)
                        goto fail;
                if (json) {
                        cc_value *o = cc_v_object(&err);
                        cc_buf b = {0};

                        if (cc_v_set(o, "resolution", cc_resolution_facts(&r, &err), &err) < 0 ||
                            cc_v_set(o, "loader", cc_win_ctx_facts(ctx, &err), &err) < 0 ||
                            cc_json_write(o, 1, &b, &err) < 0) {
                                cc_v_free(o);
                                cc_buf_free(&b);
                                cc_resolution_free(&r);
                                goto fail;
                        }
                        printf("%s\n", b.data);
                        cc_buf_free(&b);
                        cc_v_free(o);
                } else if (r.found) {
                        printf("%s\tOK\t%s\n", names[i], r.path ? r.path : "(api-set)");
                } else {
                        printf("%s\tERR\t%d\n", names[i], r.win_error);
                }
                cc_resolution_free(&r);
        }
        rv = 0;
fail:
        if (rv != 0)
                fprintf(stderr, "winresolve_driver: %s\n", err.msg);
        free(known_buf);
        cc_win_ctx_free(ctx);
        cudnnctl_machine_free(m);
        return rv;
}
