/* The options of which and deps that say how the Windows loader is asked. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const struct cli_opt resolve_opts[] = {
    {.name = "win-mode",
     .arg = "MODE",
     .id = CLI_OPT_WIN_MODE,
     .help = "standard (LoadLibrary, the default), altered (LOAD_WITH_ALTERED_SEARCH_PATH),\n"
             "search (LOAD_LIBRARY_SEARCH_* flags, see --win-search), python (how\n"
             "Python >= 3.8 loads extension modules: PATH is not searched)",
     .values = "standard altered search python"},
    {.name = "win-search",
     .arg = "LIST",
     .id = CLI_OPT_WIN_SEARCH,
     .help = "dll-dir,app,user,system32,default (LOAD_LIBRARY_SEARCH_* flags)",
     .values = "dll-dir app user system32 default"},
    {.name = "safe-search",
     .arg = "on|off",
     .id = CLI_OPT_SAFE_SEARCH,
     .help = "SafeDllSearchMode (default: the registry's, on when unknown)",
     .values = "on off"},
    {.name = "add-dll-dir",
     .arg = "DIR",
     .id = CLI_OPT_ADD_DLL_DIR,
     .help = "AddDllDirectory / os.add_dll_directory (repeatable)",
     .flags = CLI_DIR | CLI_REPEAT},
    {.name = "set-dll-dir", .arg = "DIR", .id = CLI_OPT_SET_DLL_DIR, .help = "SetDllDirectory", .flags = CLI_DIR},
    {0},
};
const struct cli_optgroup cli_resolve_group = {"resolve",
                                               "Windows loader (with --system windows or on Windows):", resolve_opts};

static int parse_search(const char *s, unsigned *out)
{
        static const struct {
                const char *name;
                unsigned flag;
        } flags[] = {
            {"dll-dir", CUDNNCTL_WIN_SEARCH_DLL_LOAD_DIR}, {"app", CUDNNCTL_WIN_SEARCH_APPLICATION_DIR},
            {"user", CUDNNCTL_WIN_SEARCH_USER_DIRS},       {"system32", CUDNNCTL_WIN_SEARCH_SYSTEM32},
            {"default", CUDNNCTL_WIN_SEARCH_DEFAULT_DIRS},
        };
        const char *p = s;

        *out = 0;
        while (*p) {
                const char *e = strchr(p, ',');
                size_t n = e ? (size_t)(e - p) : strlen(p), i;
                int hit = 0;

                for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
                        if (strlen(flags[i].name) == n && strncmp(flags[i].name, p, n) == 0) {
                                *out |= flags[i].flag;
                                hit = 1;
                        }
                }
                if (!hit)
                        return -1;
                p = e ? e + 1 : p + n;
        }
        return *out ? 0 : -1;
}

int cli_resolve_opt(struct cli_resolve *cr, int id, const char *arg, const struct cli_cmd *cmd)
{
        cudnnctl_which_options *w = &cr->o;

        switch (id) {
        case CLI_OPT_WIN_MODE:
                if (strcmp(arg, "standard") == 0) {
                        w->win_mode = CUDNNCTL_WIN_STANDARD;
                } else if (strcmp(arg, "altered") == 0) {
                        w->win_mode = CUDNNCTL_WIN_ALTERED;
                } else if (strcmp(arg, "search") == 0) {
                        w->win_mode = CUDNNCTL_WIN_SEARCH;
                        if (w->win_search == 0)
                                w->win_search = CUDNNCTL_WIN_SEARCH_DEFAULT_DIRS;
                } else if (strcmp(arg, "python") == 0) {
                        w->win_mode = CUDNNCTL_WIN_PYTHON;
                } else {
                        cli_error(cmd, "--win-mode takes standard, altered, search or python, not '%s'", arg);
                        return -1;
                }
                return 1;
        case CLI_OPT_WIN_SEARCH:
                if (parse_search(arg, &w->win_search) < 0) {
                        cli_error(cmd,
                                  "--win-search takes a comma-separated list of dll-dir, app, user, system32, "
                                  "default, not '%s'",
                                  arg);
                        return -1;
                }
                w->win_mode = CUDNNCTL_WIN_SEARCH;
                return 1;
        case CLI_OPT_SAFE_SEARCH:
                if (strcmp(arg, "on") == 0) {
                        w->safe_search = CUDNNCTL_SAFE_SEARCH_ON;
                } else if (strcmp(arg, "off") == 0) {
                        w->safe_search = CUDNNCTL_SAFE_SEARCH_OFF;
                } else {
                        cli_error(cmd, "--safe-search takes on or off, not '%s'", arg);
                        return -1;
                }
                return 1;
        case CLI_OPT_ADD_DLL_DIR: {
                const char **n = realloc((void *)cr->dirs, (cr->ndirs + 1) * sizeof(*n));

                if (n == NULL) {
                        cli_error(cmd, "out of memory");
                        return -1;
                }
                n[cr->ndirs++] = arg;
                cr->dirs = n;
                w->dll_dirs = cr->dirs;
                w->ndll_dirs = cr->ndirs;
                return 1;
        }
        case CLI_OPT_SET_DLL_DIR:
                w->set_dll_dir = arg;
                return 1;
        default:
                return 0;
        }
}

void cli_resolve_init(struct cli_resolve *cr)
{
        memset(cr, 0, sizeof(*cr));
        cr->o.safe_search = CUDNNCTL_SAFE_SEARCH_MACHINE;
}

void cli_resolve_free(struct cli_resolve *cr)
{
        free((void *)cr->dirs);
        cr->dirs = NULL;
        cr->ndirs = 0;
}
