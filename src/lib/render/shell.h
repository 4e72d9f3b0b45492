/* Shell quoting shared by env's scripts and use's start-file lines
 * (env_script.c). */
#ifndef CC_RENDER_SHELL_H
#define CC_RENDER_SHELL_H

#include "../common.h"

/* Append value quoted for shell ("sh", "bash", "zsh", "dash", "ksh", "fish",
 * "cmd", "powershell", "pwsh"), so the shell reads it back byte for byte.
 * -1 with CC_ERR_USAGE for another shell, CC_ERR_FORMAT for a value it
 * cannot hold (a control character; '"' for cmd). */
int cc_shell_quote(cc_buf *b, const char *shell, const char *name, const char *value, cc_error *err);

#endif
