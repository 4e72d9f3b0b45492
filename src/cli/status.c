/* Exit statuses: what each means, and the one mapping from a library error
 * to a status that every command uses. */
#include "cli.h"

const struct cli_status_doc cli_statuses[] = {
    {CLI_OK, "done, nothing wrong found"},
    {CLI_PROBLEM, "done, a problem was found (an input could not be read or parsed)"},
    {CLI_USAGE, "bad command line"},
    {CLI_NOTFOUND, "what was asked for does not exist"},
    {CLI_FAILURE, "the tool itself failed (out of memory, cannot write its output)"},
};
const size_t cli_nstatuses = sizeof(cli_statuses) / sizeof(cli_statuses[0]);

/* The library's codes say what went wrong, not whose input it was: an I/O
 * error is the same code for a library the command examines, the --env file
 * the user named and the private directory the tool makes for itself. The
 * source says which, and so which documented status it is: 1 "an input could
 * not be read or parsed", 2 "bad command line", 4 "the tool itself failed". */
int cli_exit_status(const cudnnctl_error *err, enum cli_source src)
{
        switch (err->code) {
        case CUDNNCTL_ERR_NOMEM:
                return CLI_FAILURE;
        case CUDNNCTL_ERR_USAGE: /* a value given cannot be used (not a version, not absolute...) */
                return CLI_USAGE;
        case CUDNNCTL_ERR_NOTFOUND: /* in its own tables, the tool is at fault */
                return src == CLI_SRC_TOOL ? CLI_FAILURE : CLI_NOTFOUND;
        case CUDNNCTL_ERR_UNSUPPORTED: /* an input of a kind it cannot read, or a request it cannot do */
                return src == CLI_SRC_MACHINE ? CLI_PROBLEM : CLI_USAGE;
        case CUDNNCTL_ERR_IO:
        case CUDNNCTL_ERR_FORMAT:
        case CUDNNCTL_ERR_TRUNCATED:
        case CUDNNCTL_ERR_LIMIT:
                return src == CLI_SRC_MACHINE ? CLI_PROBLEM : src == CLI_SRC_ARGS ? CLI_USAGE : CLI_FAILURE;
        default: /* no code: the library broke its own contract */
                return CLI_FAILURE;
        }
}

int cli_fail(const struct cli_cmd *cmd, const cudnnctl_error *err, enum cli_source src)
{
        cli_error(cmd, "%s", err->msg);
        return cli_exit_status(err, src);
}
