/* cudnnctl doctor: the check-up of the whole stack, or the checks re-run on
 * facts from another machine (--facts FILE). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum {
        OPT_JSON = 1,
        OPT_GPU,
        OPT_NO_GPU,
        OPT_TIMEOUT,
        OPT_NO_COMPILE,
        OPT_NO_FRAMEWORKS,
        OPT_VERBOSE,
        OPT_FACTS,
        OPT_HELP
};

static const struct cli_opt opts[] = {
    {"json", 0, 0, OPT_JSON},
    {"gpu", 0, 0, OPT_GPU},
    {"no-gpu", 0, 0, OPT_NO_GPU},
    {"timeout", 0, 1, OPT_TIMEOUT},
    {"no-compile", 0, 0, OPT_NO_COMPILE},
    {"no-frameworks", 0, 0, OPT_NO_FRAMEWORKS},
    {"verbose", 'v', 0, OPT_VERBOSE},
    {"facts", 0, 1, OPT_FACTS},
    CLI_MACHINE_OPTS,
    {"help", 'h', 0, OPT_HELP},
    {NULL, 0, 0, 0},
};

enum { MAX_FACTS = 256 << 20 };

int cmd_doctor(int argc, char **argv, const struct cli_cmd *cmd, struct cli_env *env)
{
        struct cli_machine cm = {0};
        cudnnctl_doctor_options o;
        cudnnctl_machine *m = NULL;
        cudnnctl_value *doc = NULL, *in = NULL;
        cudnnctl_error err = {0};
        struct cli_parser p;
        const char *facts = NULL;
        int json = 0, verbose = 0, id, status = CLI_OK, r;

        memset(&o, 0, sizeof(o));
        cli_parser_init(&p, argc, argv);
        while ((id = cli_next(&p, opts, cmd)) != CLI_END) {
                if ((r = cli_machine_opt(&cm, id, p.arg, cmd)) != 0) {
                        if (r < 0)
                                goto usage;
                        continue;
                }
                switch (id) {
                case OPT_JSON:
                        json = 1;
                        break;
                case OPT_GPU:
                        o.gpu = CUDNNCTL_GPU_ON;
                        break;
                case OPT_NO_GPU:
                        o.gpu = CUDNNCTL_GPU_OFF;
                        break;
                case OPT_NO_COMPILE:
                        o.no_compile = 1;
                        break;
                case OPT_NO_FRAMEWORKS:
                        o.no_frameworks = 1;
                        break;
                case OPT_VERBOSE:
                        verbose = 1;
                        break;
                case OPT_FACTS:
                        facts = p.arg;
                        break;
                case OPT_TIMEOUT:
                        if (cli_timeout_ms(cmd, p.arg, &o.timeout_ms) < 0)
                                goto usage;
                        break;
                case OPT_HELP:
                        cli_usage(cmd);
                        cli_machine_free(&cm);
                        return CLI_OK;
                case CLI_POSITIONAL:
                        cli_error(cmd, "takes no arguments ('%s'); 'cudnnctl verify INSTALL' proves one installation",
                                  p.arg);
                        goto usage;
                default:
                        goto usage;
                }
        }
        if (facts != NULL) {
                size_t len = 0;
                char *text;

                if (cm.o.root != NULL || cm.nset > 0 || cm.o.env_file != NULL) {
                        cli_error(cmd, "--facts re-runs the checks on recorded facts: --root, --env and --set do not "
                                       "apply");
                        goto usage;
                }
                text = cli_read_input(cmd, "--facts ", facts, MAX_FACTS, &len, &status);
                if (text == NULL) {
                        if (status != CLI_FAILURE)
                                status = CLI_USAGE; /* documented: an unreadable --facts file is 2 */
                        goto done;
                }
                if (cudnnctl_json_parse(text, len, &in, &err) < 0) {
                        free(text);
                        cli_error(cmd, "--facts %s: %s", facts, err.msg);
                        status = err.code == CUDNNCTL_ERR_NOMEM ? CLI_FAILURE : CLI_USAGE;
                        goto done;
                }
                free(text);
                if (cudnnctl_doctor_recheck(in, &doc, &err) < 0) {
                        cli_error(cmd, "--facts %s: %s", facts, err.msg);
                        status = err.code == CUDNNCTL_ERR_NOMEM ? CLI_FAILURE : CLI_USAGE;
                        goto done;
                }
        } else {
                status = cli_machine_open(&cm, cmd, &m);
                if (status != CLI_OK)
                        goto done;
                if (cudnnctl_doctor(m, &o, &doc, &err) < 0) {
                        cli_error(cmd, "%s", err.msg);
                        status = err.code == CUDNNCTL_ERR_NOMEM ? CLI_FAILURE : CLI_PROBLEM;
                        goto done;
                }
        }
        status = cli_print_doc(cmd, doc, json, env->color_ok, cudnnctl_doctor_text, verbose);
        if (status == CLI_OK && cudnnctl_value_int(cudnnctl_value_path(doc, "summary/errors")) > 0)
                status = CLI_PROBLEM;
done:
        cudnnctl_value_free(in);
        cudnnctl_value_free(doc);
        cudnnctl_machine_free(m);
        cli_machine_free(&cm);
        return status;
usage:
        cli_machine_free(&cm);
        return CLI_USAGE;
}
