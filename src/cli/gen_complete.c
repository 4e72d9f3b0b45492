/* Shell completions made from the option tables (`cudnnctl __gen bash|zsh|
 * fish|powershell`): the commands, each command's options, the values an
 * option takes (--system linux|windows, --win-mode MODE...), and paths where
 * an option or operand is a file or a directory. */
#include "cli.h"

#include <string.h>

/* What a command's operands look like, read from its synopsis: "NAME..."
 * (any number), "[INSTALL]" (one, optional), "FILE|NAME" (one). */
enum operands { OPERANDS_NONE, OPERANDS_ONE, OPERANDS_OPTIONAL, OPERANDS_MANY };

static enum operands operands(const struct cli_cmd *cmd, char *label, size_t size)
{
        const char *a = cmd->args;
        size_t n;

        label[0] = '\0';
        if (a == NULL)
                return OPERANDS_NONE;
        n = strcspn(a, " ");
        if (a[0] == '[') {
                snprintf(label, size, "%.*s", (int)(n > 2 ? n - 2 : 0), a + 1);
                return OPERANDS_OPTIONAL;
        }
        if (n > 3 && strncmp(a + n - 3, "...", 3) == 0) {
                snprintf(label, size, "%.*s", (int)(n - 3), a);
                return OPERANDS_MANY;
        }
        snprintf(label, size, "%.*s", (int)n, a);
        return OPERANDS_ONE;
}

/* A help text (lines wrapped for a terminal) as one line: a description. */
static void one_line(const char *help, char *buf, size_t size)
{
        size_t i;

        snprintf(buf, size, "%s", help);
        for (i = 0; buf[i]; i++)
                if (buf[i] == '\n')
                        buf[i] = ' ';
}

/* s in single quotes for sh, zsh and fish: ' as '\'' */
static void sh_quoted(FILE *f, const char *s)
{
        fputc('\'', f);
        for (; *s; s++) {
                if (*s == '\'')
                        fputs("'\\''", f);
                else
                        fputc(*s, f);
        }
        fputc('\'', f);
}

/* s in PowerShell single quotes: ' doubled */
static void ps_quoted(FILE *f, const char *s)
{
        fputc('\'', f);
        for (; *s; s++) {
                if (*s == '\'')
                        fputc('\'', f);
                fputc(*s, f);
        }
        fputc('\'', f);
}

static void command_words(FILE *f, int with_help)
{
        size_t i;

        for (i = 0; i < cli_ncommands; i++)
                fprintf(f, "%s%s", i ? " " : "", cli_commands[i]->name);
        if (with_help)
                fputs(" help", f);
}

/* ---- bash ------------------------------------------------------------------ */

static void bash_command(FILE *f, const struct cli_cmd *cmd)
{
        struct cli_optiter it;
        struct cli_optref r;
        char label[64];
        enum operands ops = operands(cmd, label, sizeof(label));
        int first = 1;

        fprintf(f, "        %s)\n                case $prev in\n", cmd->name);
        cli_optiter_init(&it, cmd->opts);
        while (cli_optiter_next(&it, &r)) {
                unsigned kind = r.flags & CLI_KIND_MASK;

                if (r.o->arg == NULL)
                        continue;
                fputs("                ", f);
                if (r.o->short_name)
                        fprintf(f, "-%c | ", r.o->short_name);
                fprintf(f, "--%s)\n                        ", r.o->name);
                if (r.o->values != NULL) {
                        fputs("COMPREPLY=($(compgen -W ", f);
                        sh_quoted(f, r.o->values);
                        fputs(" -- \"$cur\"))\n", f);
                } else if (kind == CLI_DIR) {
                        fputs("_cudnnctl_paths -d\n", f);
                } else if (kind == CLI_FILE || kind == CLI_PROGRAM) {
                        fputs("_cudnnctl_paths -f\n", f);
                } else {
                        fputs(": a value, nothing to complete\n", f);
                }
                fputs("                        return\n                        ;;\n", f);
        }
        fputs("                esac\n                if [[ $cur == -* ]]; then\n"
              "                        COMPREPLY=($(compgen -W '",
              f);
        cli_optiter_init(&it, cmd->opts);
        while (cli_optiter_next(&it, &r)) {
                if (r.o->short_name)
                        fprintf(f, "%s-%c", first ? "" : " ", r.o->short_name), first = 0;
                fprintf(f, "%s--%s", first ? "" : " ", r.o->name), first = 0;
        }
        fputs("' -- \"$cur\"))\n", f);
        if (ops != OPERANDS_NONE && (cmd->args_kind & CLI_KIND_MASK) != 0)
                fprintf(f, "                else\n                        _cudnnctl_paths %s\n",
                        (cmd->args_kind & CLI_KIND_MASK) == CLI_DIR ? "-d" : "-f");
        fputs("                fi\n                ;;\n", f);
}

int cli_gen_bash(FILE *f)
{
        size_t i;

        fputs("# bash completion for cudnnctl, made by 'cudnnctl __gen bash' from the program's\n"
              "# option tables: do not edit.\n"
              "\n"
              "# Paths for the word being completed ($cur): $1 is -f (files) or -d (directories).\n"
              "_cudnnctl_paths()\n"
              "{\n"
              "        local IFS=$'\\n'\n"
              "        compopt -o filenames 2>/dev/null\n"
              "        COMPREPLY=($(compgen \"$1\" -- \"$cur\"))\n"
              "}\n"
              "\n"
              "_cudnnctl()\n"
              "{\n"
              "        local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= i\n"
              "        ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
              "        # bash splits --opt=VALUE at '=' (COMP_WORDBREAKS): complete VALUE for --opt\n"
              "        if [[ $cur == = ]]; then\n"
              "                cur=\n"
              "        elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then\n"
              "                prev=${COMP_WORDS[COMP_CWORD - 2]}\n"
              "        fi\n"
              "        # the command: the first word that is not an option\n"
              "        for ((i = 1; i < COMP_CWORD; i++)); do\n"
              "                case ${COMP_WORDS[i]} in\n"
              "                -*) ;;\n"
              "                *)\n"
              "                        cmd=${COMP_WORDS[i]}\n"
              "                        break\n"
              "                        ;;\n"
              "                esac\n"
              "        done\n"
              "        COMPREPLY=()\n"
              "        case $cmd in\n"
              "        '')\n"
              "                if [[ $cur == -* ]]; then\n"
              "                        COMPREPLY=($(compgen -W '--version -V --help -h' -- \"$cur\"))\n"
              "                else\n"
              "                        COMPREPLY=($(compgen -W '",
              f);
        command_words(f, 1);
        fputs("' -- \"$cur\"))\n"
              "                fi\n"
              "                ;;\n"
              "        help)\n"
              "                [[ $prev == help ]] && COMPREPLY=($(compgen -W '",
              f);
        command_words(f, 0);
        fputs("' -- \"$cur\"))\n"
              "                ;;\n",
              f);
        for (i = 0; i < cli_ncommands; i++)
                bash_command(f, cli_commands[i]);
        fputs("        esac\n"
              "}\n"
              "\n"
              "complete -F _cudnnctl cudnnctl\n",
              f);
        return 0;
}

/* ---- zsh ------------------------------------------------------------------- */

/* Text inside _arguments' [...] and _describe's entries: \ [ ] : escaped
 * (then quoted for the shell by the caller). */
static void zsh_desc(char *out, size_t size, const char *help)
{
        char line[512];
        size_t i, o = 0;

        one_line(help, line, sizeof(line));
        for (i = 0; line[i] && o + 3 < size; i++) {
                if (strchr("\\[]:", line[i]) != NULL)
                        out[o++] = '\\';
                out[o++] = line[i];
        }
        out[o] = '\0';
}

static void zsh_action(FILE *f, const struct cli_optref *r, char *buf, size_t size)
{
        unsigned kind = r->flags & CLI_KIND_MASK;

        (void)f;
        if (r->o->values != NULL)
                snprintf(buf, size, "(%s)", r->o->values);
        else if (kind == CLI_DIR)
                snprintf(buf, size, "_files -/");
        else if (kind == CLI_FILE || kind == CLI_PROGRAM)
                snprintf(buf, size, "_files");
        else
                snprintf(buf, size, " ");
}

static void zsh_command(FILE *f, const struct cli_cmd *cmd)
{
        struct cli_optiter it;
        struct cli_optref r;
        struct cli_uitem items[64];
        size_t n = cli_usage_items(cmd, 0, items, 64), i, k;
        char label[64], desc[1024], action[64], spec[1280];
        enum operands ops = operands(cmd, label, sizeof(label));

        fprintf(f, "                %s)\n                        _arguments -s -S", cmd->name);
        cli_optiter_init(&it, cmd->opts);
        while (cli_optiter_next(&it, &r)) {
                char excl[256] = "";
                size_t len = 0;

                /* options that are choices of one usage item exclude each other */
                for (i = 0; i < n; i++) {
                        int here = 0;

                        for (k = 0; k < items[i].n; k++)
                                here |= items[i].choice[k].o == r.o;
                        for (k = 0; here && items[i].n > 1 && k < items[i].n; k++)
                                if (items[i].choice[k].o != r.o && len + 64 < sizeof(excl))
                                        len += (size_t)snprintf(excl + len, sizeof(excl) - len, "%s--%s",
                                                                len ? " " : "", items[i].choice[k].o->name);
                }
                if (r.o->short_name && len + 64 < sizeof(excl))
                        len += (size_t)snprintf(excl + len, sizeof(excl) - len, "%s-%c --%s", len ? " " : "",
                                                r.o->short_name, r.o->name);
                if (r.o == &cli_opt_help)
                        snprintf(excl, sizeof(excl), "- *");
                zsh_desc(desc, sizeof(desc), r.help);
                fputs(" \\\n                                ", f);
                if (r.o->arg != NULL) {
                        zsh_action(f, &r, action, sizeof(action));
                        snprintf(spec, sizeof(spec), "[%s]:%s:%s", desc, r.o->arg, action);
                } else {
                        snprintf(spec, sizeof(spec), "[%s]", desc);
                }
                if (excl[0]) {
                        fputc('\'', f);
                        fprintf(f, "(%s)%s", excl, (r.flags & CLI_REPEAT) ? "*" : "");
                        fputc('\'', f);
                } else if (r.flags & CLI_REPEAT) {
                        fputs("'*'", f);
                }
                if (r.o->short_name) {
                        fprintf(f, "{-%c,--%s%s}", r.o->short_name, r.o->name, r.o->arg ? "=" : "");
                        sh_quoted(f, spec);
                } else {
                        char full[1400];

                        snprintf(full, sizeof(full), "--%s%s%s", r.o->name, r.o->arg ? "=" : "", spec);
                        sh_quoted(f, full);
                }
        }
        if (ops != OPERANDS_NONE) {
                unsigned kind = cmd->args_kind & CLI_KIND_MASK;
                const char *act = kind == CLI_DIR ? "_files -/" : kind ? "_files" : " ";

                snprintf(spec, sizeof(spec), "%s:%s:%s",
                         ops == OPERANDS_MANY       ? "*"
                         : ops == OPERANDS_OPTIONAL ? ":"
                                                    : "",
                         label, act);
                fputs(" \\\n                                ", f);
                sh_quoted(f, spec);
        }
        fputs(" && ret=0\n                        ;;\n", f);
}

int cli_gen_zsh(FILE *f)
{
        size_t i;
        char desc[1024];

        fputs("#compdef cudnnctl\n"
              "# zsh completion for cudnnctl, made by 'cudnnctl __gen zsh' from the program's\n"
              "# option tables: do not edit.\n"
              "\n"
              "_cudnnctl() {\n"
              "        local curcontext=$curcontext state line ret=1\n"
              "        typeset -A opt_args\n"
              "        local -a commands\n"
              "        commands=(\n",
              f);
        for (i = 0; i < cli_ncommands; i++) {
                char entry[1200];

                zsh_desc(desc, sizeof(desc), cli_commands[i]->summary);
                snprintf(entry, sizeof(entry), "%s:%s", cli_commands[i]->name, desc);
                fputs("                ", f);
                sh_quoted(f, entry);
                fputc('\n', f);
        }
        fputs("                'help:the help of a command'\n"
              "        )\n"
              "        _arguments -C \\\n"
              "                '(- *)'{-V,--version}'[print the version]' \\\n"
              "                '(- *)'{-h,--help}'[print the help and the command list]' \\\n"
              "                '1:command:->command' \\\n"
              "                '*::argument:->argument' && ret=0\n"
              "        case $state in\n"
              "        command)\n"
              "                _describe -t commands 'cudnnctl command' commands && ret=0\n"
              "                ;;\n"
              "        argument)\n"
              "                curcontext=${curcontext%:*:*}:cudnnctl-$words[1]:\n"
              "                case $words[1] in\n"
              "                help)\n"
              "                        _arguments '1:command:(",
              f);
        command_words(f, 0);
        fputs(")' && ret=0\n"
              "                        ;;\n",
              f);
        for (i = 0; i < cli_ncommands; i++)
                zsh_command(f, cli_commands[i]);
        fputs("                esac\n"
              "                ;;\n"
              "        esac\n"
              "        return ret\n"
              "}\n"
              "\n"
              "_cudnnctl \"$@\"\n",
              f);
        return 0;
}

/* ---- fish ------------------------------------------------------------------ */

int cli_gen_fish(FILE *f)
{
        size_t i;
        char desc[1024];

        fputs("# fish completion for cudnnctl, made by 'cudnnctl __gen fish' from the program's\n"
              "# option tables: do not edit.\n"
              "\n"
              "set -l commands ",
              f);
        command_words(f, 1);
        fputs("\n"
              "complete -c cudnnctl -f\n"
              "complete -c cudnnctl -n \"not __fish_seen_subcommand_from $commands\" -s V -l version"
              " -d 'print the version'\n"
              "complete -c cudnnctl -n \"not __fish_seen_subcommand_from $commands\" -s h -l help"
              " -d 'print the help and the command list'\n",
              f);
        for (i = 0; i < cli_ncommands; i++) {
                one_line(cli_commands[i]->summary, desc, sizeof(desc));
                fprintf(f, "complete -c cudnnctl -n \"not __fish_seen_subcommand_from $commands\" -a %s -d ",
                        cli_commands[i]->name);
                sh_quoted(f, desc);
                fputc('\n', f);
        }
        fputs("complete -c cudnnctl -n \"not __fish_seen_subcommand_from $commands\" -a help"
              " -d 'the help of a command'\n"
              "complete -c cudnnctl -n '__fish_seen_subcommand_from help' -a '",
              f);
        command_words(f, 0);
        fputs("'\n", f);
        for (i = 0; i < cli_ncommands; i++) {
                const struct cli_cmd *cmd = cli_commands[i];
                struct cli_optiter it;
                struct cli_optref r;
                char label[64];

                fprintf(f, "\n# %s\n", cmd->name);
                cli_optiter_init(&it, cmd->opts);
                while (cli_optiter_next(&it, &r)) {
                        unsigned kind = r.flags & CLI_KIND_MASK;

                        fprintf(f, "complete -c cudnnctl -n '__fish_seen_subcommand_from %s'", cmd->name);
                        if (r.o->short_name)
                                fprintf(f, " -s %c", r.o->short_name);
                        fprintf(f, " -l %s", r.o->name);
                        if (r.o->arg != NULL) {
                                if (r.o->values != NULL) {
                                        fputs(" -x -a ", f);
                                        sh_quoted(f, r.o->values);
                                } else if (kind == CLI_DIR) {
                                        fputs(" -x -a '(__fish_complete_directories (commandline -ct))'", f);
                                } else if (kind == CLI_FILE || kind == CLI_PROGRAM) {
                                        fputs(" -r -F", f);
                                } else {
                                        fputs(" -x", f);
                                }
                        }
                        one_line(r.help, desc, sizeof(desc));
                        fputs(" -d ", f);
                        sh_quoted(f, desc);
                        fputc('\n', f);
                }
                if (operands(cmd, label, sizeof(label)) != OPERANDS_NONE && (cmd->args_kind & CLI_KIND_MASK)) {
                        if ((cmd->args_kind & CLI_KIND_MASK) == CLI_DIR)
                                fprintf(f,
                                        "complete -c cudnnctl -n '__fish_seen_subcommand_from %s'"
                                        " -a '(__fish_complete_directories (commandline -ct))'\n",
                                        cmd->name);
                        else
                                fprintf(f, "complete -c cudnnctl -n '__fish_seen_subcommand_from %s' -F\n", cmd->name);
                }
        }
        return 0;
}

/* ---- PowerShell ------------------------------------------------------------ */

int cli_gen_powershell(FILE *f)
{
        size_t i;
        char desc[1024];

        fputs("# PowerShell completion for cudnnctl, made by 'cudnnctl __gen powershell' from the\n"
              "# program's option tables: do not edit. Load it from your profile:\n"
              "#   . /path/to/cudnnctl.ps1\n"
              "\n"
              "Register-ArgumentCompleter -Native -CommandName 'cudnnctl', 'cudnnctl.exe' -ScriptBlock {\n"
              "    param($wordToComplete, $commandAst, $cursorPosition)\n"
              "\n"
              "    $commands = [ordered]@{\n",
              f);
        for (i = 0; i < cli_ncommands; i++) {
                one_line(cli_commands[i]->summary, desc, sizeof(desc));
                fprintf(f, "        '%s' = ", cli_commands[i]->name);
                ps_quoted(f, desc);
                fputc('\n', f);
        }
        fputs("        'help' = 'the help of a command'\n"
              "    }\n"
              "    # Each command's options: Name, Short, Arg (none, word, file, dir, program), Values, Help;\n"
              "    # and what its operands are (none, word, file, dir).\n"
              "    $options = @{\n",
              f);
        for (i = 0; i < cli_ncommands; i++) {
                const struct cli_cmd *cmd = cli_commands[i];
                struct cli_optiter it;
                struct cli_optref r;

                fprintf(f, "        '%s' = @(\n", cmd->name);
                cli_optiter_init(&it, cmd->opts);
                while (cli_optiter_next(&it, &r)) {
                        unsigned kind = r.flags & CLI_KIND_MASK;
                        const char *arg = r.o->arg == NULL      ? "none"
                                          : kind == CLI_DIR     ? "dir"
                                          : kind == CLI_FILE    ? "file"
                                          : kind == CLI_PROGRAM ? "program"
                                                                : "word";
                        char sh[3] = "";

                        if (r.o->short_name)
                                snprintf(sh, sizeof(sh), "-%c", r.o->short_name);
                        fprintf(f, "            @{ Name = '--%s'; Short = '%s'; Arg = '%s'; Values = ", r.o->name, sh,
                                arg);
                        one_line(r.help, desc, sizeof(desc));
                        ps_quoted(f, r.o->values ? r.o->values : "");
                        fputs("; Help = ", f);
                        ps_quoted(f, desc);
                        fputs(" }\n", f);
                }
                fputs("        )\n", f);
        }
        fputs("    }\n"
              "    $operands = @{\n",
              f);
        for (i = 0; i < cli_ncommands; i++) {
                const struct cli_cmd *cmd = cli_commands[i];
                unsigned kind = cmd->args_kind & CLI_KIND_MASK;
                char label[64];

                fprintf(f, "        '%s' = '%s'\n", cmd->name,
                        operands(cmd, label, sizeof(label)) == OPERANDS_NONE ? "none"
                        : kind == CLI_DIR                                    ? "dir"
                        : kind != 0                                          ? "file"
                                                                             : "word");
        }
        fputs(
            "    }\n"
            "\n"
            "    # The words before the one being completed (that one ends at the cursor or is not there yet).\n"
            "    $words = @($commandAst.CommandElements | Where-Object { $_.Extent.EndOffset -lt $cursorPosition } |\n"
            "        ForEach-Object { $_.Extent.Text })\n"
            "    $cmd = $null\n"
            "    foreach ($w in ($words | Select-Object -Skip 1)) {\n"
            "        if (-not $w.StartsWith('-')) { $cmd = $w; break }\n"
            "    }\n"
            "    $prev = if ($words.Count -gt 1) { $words[-1] } else { '' }\n"
            "\n"
            "    function Complete-Path([string]$word, [bool]$dirs) {\n"
            "        Get-ChildItem -Path \"$word*\" -Directory:$dirs -ErrorAction SilentlyContinue | ForEach-Object {\n"
            "            $p = if ($word -match '[\\\\/]') { Join-Path (Split-Path $word) $_.Name } else { $_.Name }\n"
            "            [System.Management.Automation.CompletionResult]::new($p, $p, 'ProviderItem', $p)\n"
            "        }\n"
            "    }\n"
            "\n"
            "    if ($null -eq $cmd -or ($cmd -eq 'help' -and $prev -eq 'help')) {\n"
            "        if ($null -eq $cmd -and $wordToComplete.StartsWith('-')) {\n"
            "            '--version', '--help', '-V', '-h' | Where-Object { $_ -like \"$wordToComplete*\" } |\n"
            "                ForEach-Object { [System.Management.Automation.CompletionResult]::new($_, $_, "
            "'ParameterName', $_) }\n"
            "            return\n"
            "        }\n"
            "        $commands.Keys | Where-Object { $_ -like \"$wordToComplete*\" -and ($null -eq $cmd -or $_ -ne "
            "'help') } |\n"
            "            ForEach-Object { [System.Management.Automation.CompletionResult]::new($_, $_, "
            "'ParameterValue', $commands[$_]) }\n"
            "        return\n"
            "    }\n"
            "    if (-not $options.ContainsKey($cmd)) { return }\n"
            "    $opts = $options[$cmd]\n"
            "\n"
            "    # The value of the option before.\n"
            "    $o = $opts | Where-Object { $prev -ne '' -and ($_.Name -eq $prev -or $_.Short -eq $prev) } |"
            " Select-Object -First 1\n"
            "    if ($null -ne $o -and $o.Arg -ne 'none') {\n"
            "        if ($o.Values -ne '') {\n"
            "            $o.Values -split ' ' | Where-Object { $_ -like \"$wordToComplete*\" } |\n"
            "                ForEach-Object { [System.Management.Automation.CompletionResult]::new($_, $_, "
            "'ParameterValue', $_) }\n"
            "        } elseif ($o.Arg -eq 'file' -or $o.Arg -eq 'program') {\n"
            "            Complete-Path $wordToComplete $false\n"
            "        } elseif ($o.Arg -eq 'dir') {\n"
            "            Complete-Path $wordToComplete $true\n"
            "        }\n"
            "        return\n"
            "    }\n"
            "    if ($wordToComplete.StartsWith('-')) {\n"
            "        foreach ($o in $opts) {\n"
            "            foreach ($n in @($o.Name, $o.Short)) {\n"
            "                if ($n -ne '' -and $n -like \"$wordToComplete*\") {\n"
            "                    [System.Management.Automation.CompletionResult]::new($n, $n, 'ParameterName', "
            "$o.Help)\n"
            "                }\n"
            "            }\n"
            "        }\n"
            "        return\n"
            "    }\n"
            "    switch ($operands[$cmd]) {\n"
            "        'file' { Complete-Path $wordToComplete $false }\n"
            "        'dir' { Complete-Path $wordToComplete $true }\n"
            "    }\n"
            "}\n",
            f);
        return 0;
}
