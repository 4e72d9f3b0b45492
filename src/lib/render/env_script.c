/* The env document as one shell's commands: sh (bash, zsh, dash), fish,
 * cmd (a batch file) and PowerShell, every value quoted so the shell reads
 * it back byte for byte (spaces, quotes, '$', '%', ';', non-ASCII).
 *
 *   sh          export NAME='...'   (' as '\'')       unset NAME
 *   fish        set -gx NAME '...'  (\ and ' escaped)  set -e NAME
 *   cmd         set "NAME=..."      (% as %%)          set "NAME="
 *   powershell  $env:NAME = '...'   (' and its typographic forms doubled)
 *                                   Remove-Item -LiteralPath 'Env:NAME' ...
 *
 * A value no shell can hold on one line (a control character), or a '"'
 * for cmd (which no Windows path has), is refused with the variable named. */
#include <stdlib.h>
#include <string.h>

#include "shell.h"
#include "text.h"

enum { SH = 1, FISH, CMD, PWSH };

static int shell_kind(const char *s)
{
        if (s == NULL)
                return 0;
        if (strcmp(s, "sh") == 0 || strcmp(s, "bash") == 0 || strcmp(s, "zsh") == 0 || strcmp(s, "dash") == 0 ||
            strcmp(s, "ksh") == 0)
                return SH;
        if (strcmp(s, "fish") == 0)
                return FISH;
        if (strcmp(s, "cmd") == 0)
                return CMD;
        if (strcmp(s, "powershell") == 0 || strcmp(s, "pwsh") == 0)
                return PWSH;
        return 0;
}

static int check_value(int kind, const char *name, const char *v, int *non_ascii, cc_error *err)
{
        const unsigned char *p;

        for (p = (const unsigned char *)v; *p; p++) {
                if (*p < 0x20 || *p == 0x7f)
                        return cc_err(err, CC_ERR_FORMAT, "%s: its value holds a control character (0x%02x)", name, *p);
                if (kind == CMD && *p == '"')
                        return cc_err(err, CC_ERR_FORMAT, "%s: a value with '\"' cannot be set by cmd", name);
                if (*p >= 0x80)
                        *non_ascii = 1;
        }
        return 0;
}

static int quoted(cc_buf *b, int kind, const char *v, cc_error *err)
{
        const char *p;

        if (kind == CMD) {
                for (p = v; *p; p++)
                        TRY_RET(*p == '%' ? cc_buf_puts(b, "%%", err) : cc_buf_putc(b, *p, err));
                return 0;
        }
        TRY_RET(cc_buf_putc(b, '\'', err));
        for (p = v; *p; p++) {
                const unsigned char *u = (const unsigned char *)p;

                if (kind == SH && *p == '\'')
                        TRY_RET(cc_buf_puts(b, "'\\''", err));
                else if (kind == FISH && (*p == '\'' || *p == '\\'))
                        TRY_RET(cc_buf_putc(b, '\\', err) < 0 ? -1 : cc_buf_putc(b, *p, err));
                else if (kind == PWSH && *p == '\'')
                        TRY_RET(cc_buf_puts(b, "''", err));
                else if (kind == PWSH && u[0] == 0xe2 && u[1] == 0x80 && u[2] >= 0x98 && u[2] <= 0x9b) {
                        /* PowerShell takes U+2018..U+201B for a single quote too */
                        TRY_RET(cc_buf_append(b, p, 3, err) < 0 ? -1 : cc_buf_append(b, p, 3, err));
                        p += 2;
                } else
                        TRY_RET(cc_buf_putc(b, *p, err));
        }
        return cc_buf_putc(b, '\'', err);
}

int cc_shell_quote(cc_buf *b, const char *shell, const char *name, const char *value, cc_error *err)
{
        int kind = shell_kind(shell), non_ascii = 0;

        if (kind == 0)
                return cc_err(err, CC_ERR_USAGE, "%s: not a shell cudnnctl writes for", shell ? shell : "(none)");
        TRY_RET(check_value(kind, name, value, &non_ascii, err));
        return quoted(b, kind, value, err);
}

static int line(cc_buf *b, int kind, cc_error *err)
{
        return cc_buf_puts(b, kind == CMD ? "\r\n" : "\n", err);
}

/* A comment: cmd's holds no path (rem would still expand '%'). */
static int comment(cc_buf *b, int kind, const char *text, cc_error *err)
{
        TRY_RET(cc_buf_puts(b, kind == CMD ? "rem " : "# ", err));
        TRY_RET(cc_buf_puts(b, text, err));
        return line(b, kind, err);
}

static int comment_safe(int kind, const char *s)
{
        const unsigned char *p;

        for (p = (const unsigned char *)s; *p; p++)
                if (*p < 0x20 || *p == 0x7f || (kind == CMD && strchr("%&|<>^\"!", *p) != NULL))
                        return 0;
        return 1;
}

int cudnnctl_env_script(const cudnnctl_value *doc, const char *shell, char **out, cudnnctl_error *err)
{
        const cc_value *changes = cc_v_get(doc, "changes"), *inst = cc_v_get(doc, "installation");
        int kind = shell_kind(shell), non_ascii = 0;
        cc_buf b = {0}, c = {0};
        size_t i;

        if (out == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_env_script: no place for the result");
        *out = NULL;
        if (kind == 0)
                return cc_err(err, CC_ERR_USAGE,
                              "%s: not a shell env writes for (sh, bash, zsh, fish, cmd, powershell)",
                              shell ? shell : "(none)");
        for (i = 0; i < cc_v_len(changes); i++) {
                const char *name = cc_v_get_str(cc_v_at(changes, i), "name");
                const char *v = cc_v_get_str(cc_v_at(changes, i), "value");

                if (name == NULL ||
                    strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") != strlen(name) ||
                    name[0] == '\0')
                        return cc_err(err, CC_ERR_FORMAT, "not an env document: a change without a variable's name");
                if (v != NULL && check_value(kind, name, v, &non_ascii, err) < 0)
                        return -1;
        }
        if (kind == CMD)
                TRY(cc_buf_puts(&b, "@echo off\r\n", err));
        {
                const char *action = cc_v_get_str(doc, "action");
                const char *ver = cc_v_get_str(inst, "version");
                const char *prefix = cc_v_get_str(inst, "prefix");

                if (cc_buf_printf(&c, err,
                                  "cudnnctl env%s: ", action && strcmp(action, "unset") == 0 ? " --unset" : "") < 0)
                        goto fail;
                if (inst != NULL && cc_v_get(inst, "id") != NULL) {
                        TRY(cc_buf_printf(&c, err, "cuDNN %s, installation %lld", ver ? ver : "of an unknown release",
                                          (long long)cc_v_as_int(cc_v_get(inst, "id"))));
                        if (prefix != NULL && comment_safe(kind, prefix))
                                TRY(cc_buf_printf(&c, err, " (%s)", prefix));
                } else {
                        TRY(cc_buf_puts(&c, "the values before the first 'cudnnctl env' of this shell", err));
                }
                TRY(comment(&b, kind, c.data, err));
        }
        for (i = 0; i < cc_v_len(cc_v_get(doc, "notes")); i++) {
                const char *n = cc_v_as_str(cc_v_at(cc_v_get(doc, "notes"), i));

                if (n != NULL && comment_safe(kind, n))
                        TRY(comment(&b, kind, n, err));
        }
        for (i = 0; i < cc_v_len(cc_v_get(doc, "removed")); i++) {
                const cc_value *r = cc_v_at(cc_v_get(doc, "removed"), i);
                const char *entry = cc_v_get_str(r, "entry"), *why = cc_v_get_str(r, "why");

                cc_buf_free(&c);
                if (entry == NULL || why == NULL || !comment_safe(kind, entry) || !comment_safe(kind, why))
                        continue;
                TRY(cc_buf_printf(&c, err, "off %s: '%s' (%s)", cc_v_get_str(doc, "variable"), entry, why));
                TRY(comment(&b, kind, c.data, err));
        }
        if (kind == CMD && non_ascii) {
                /* a batch file is read in the console's code page: UTF-8 while
                 * the values are set, the old one after */
                TRY(cc_buf_puts(&b,
                                "for /f \"tokens=2 delims=:\" %%c in ('chcp') do set \"CUDNNCTL_CP=%%c\"\r\n"
                                "chcp 65001 >nul\r\n",
                                err));
        }
        for (i = 0; i < cc_v_len(changes); i++) {
                const char *name = cc_v_get_str(cc_v_at(changes, i), "name");
                const char *v = cc_v_get_str(cc_v_at(changes, i), "value");

                switch (kind) {
                case SH:
                        if (v == NULL)
                                TRY(cc_buf_printf(&b, err, "unset %s", name));
                        else if (cc_buf_printf(&b, err, "export %s=", name) < 0 || quoted(&b, kind, v, err) < 0)
                                goto fail;
                        break;
                case FISH:
                        if (v == NULL)
                                TRY(cc_buf_printf(&b, err, "set -e %s", name));
                        else if (cc_buf_printf(&b, err, "set -gx %s ", name) < 0 || quoted(&b, kind, v, err) < 0)
                                goto fail;
                        break;
                case CMD:
                        if (cc_buf_printf(&b, err, "set \"%s=", name) < 0 ||
                            (v != NULL && quoted(&b, kind, v, err) < 0) || cc_buf_putc(&b, '"', err) < 0)
                                goto fail;
                        break;
                default:
                        if (v == NULL)
                                TRY(cc_buf_printf(
                                    &b, err, "Remove-Item -LiteralPath 'Env:%s' -ErrorAction SilentlyContinue", name));
                        else if (cc_buf_printf(&b, err, "$env:%s = ", name) < 0 || quoted(&b, kind, v, err) < 0)
                                goto fail;
                        break;
                }
                TRY(line(&b, kind, err));
        }
        if (kind == CMD && non_ascii)
                TRY(cc_buf_puts(&b, "chcp %CUDNNCTL_CP% >nul\r\nset \"CUDNNCTL_CP=\"\r\n", err));
        cc_buf_free(&c);
        *out = cc_buf_steal(&b);
        return *out ? 0 : cc_err(err, CC_ERR_NOMEM, "out of memory");
fail:
        cc_buf_free(&b);
        cc_buf_free(&c);
        return -1;
}
