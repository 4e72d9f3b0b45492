/* cudnnctl: the command table and the shared set-up and tear-down of every
 * command (help, version, final flush and write-error check). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <io.h>
#include <windows.h>
#define cli_isatty(fd) _isatty(fd)
#else
#include <unistd.h>
#define cli_isatty(fd) isatty(fd)
#endif

#define EXIT_STATUS_HELP                                                                                               \
        "exit status:\n"                                                                                               \
        "  0  done, nothing wrong found\n"                                                                             \
        "  1  done, a problem was found (an input could not be read or parsed)\n"                                      \
        "  2  bad command line\n"                                                                                      \
        "  3  what was asked for does not exist\n"                                                                     \
        "  4  the tool itself failed (out of memory, cannot write its output)\n"

const struct cli_cmd cli_commands[] = {
    {"doctor", cmd_doctor, "check-up of the whole stack: driver, toolkits, cuDNN, loader, headers, proof, hygiene",
     "doctor [--json] [--gpu|--no-gpu] [--verbose] [--timeout SECONDS] [--no-compile] [--no-frameworks]\n"
     "       [--facts FILE] [--root DIR] [--system SYS] [--env FILE] [--set VAR=VALUE]...\n"
     "\n"
     "Gathers the facts of the whole stack (every cuDNN installation, what the loader finds,\n"
     "each installation's dependencies, the proof of up to four installations in child\n"
     "processes, the CUDA toolkits, the driver, the search paths, what each Python framework\n"
     "was built with and loads), runs one check per known\n"
     "failure, and prints one line per area, then the findings, most severe first, each with\n"
     "its evidence and the fix for this machine. Finding ids are the failure catalog's slugs\n"
     "(README: 'Findings').\n"
     "\n"
     "  --gpu             GPU work is required for the installation a plain program loads\n"
     "  --no-gpu          no GPU work (default: when a usable GPU is there)\n"
     "  --timeout S       time limit of each probe child (default 60; GPU work gets 5x)\n"
     "  --no-compile      leave out the compile-and-run proof\n"
     "  --no-frameworks   leave out the Python frameworks ('cudnnctl frameworks')\n"
     "  --facts FILE      re-run the checks on the facts of a 'doctor --json' document (from\n"
     "                    another machine; - reads standard input); nothing here is read\n"
     "  --json            print the facts and the findings as JSON (docs/json.md)\n"
     "  -v, --verbose     whole evidence values and each finding's source\n" CLI_MACHINE_HELP
     "  -h, --help        this text\n"
     "\n"
     "With --root (or a --system other than this one's) nothing is loaded or run: the driver's\n"
     "version comes from its files and what only a probe can tell is reported as not checked.\n"
     "Exit status 0: no errors (warnings and notes may be there); 1: errors found; 2: bad\n"
     "command line or an unreadable --facts file.\n"
     "\n" EXIT_STATUS_HELP},
    {"frameworks", cmd_frameworks,
     "which cuDNN PyTorch, TensorFlow, JAX, ONNX Runtime and CuPy were built with and load",
     "frameworks [--python PATH]... [--json] [--gpu|--no-gpu] [--timeout SECONDS] [--expect INSTALL]\n"
     "           [--verbose] [--set VAR=VALUE]...\n"
     "\n"
     "Runs each Python interpreter (every --python given; else the active virtual and conda\n"
     "environments, python3 and python on PATH, the system's python3, and the environments\n"
     "'cudnnctl list' found) with the tool's own probe script, in child processes with a time\n"
     "limit and no network. For each framework it can import: the cuDNN and CUDA it was built\n"
     "with, the cuDNN it reports at run time, and the CUDA and cuDNN files actually mapped into\n"
     "the process after one small convolution on the GPU (after import when there is none),\n"
     "with the installation each belongs to. Verdicts: a CUDA build at all; the build's cuDNN\n"
     "against the loaded one (same major, minor at least the build's, and the framework's own\n"
     "rules); every cuDNN file from one directory; the copy the user expects (--expect, else the\n"
     "wheel the framework requires or bundles, else what a plain program loads); the GPU call.\n"
     "A framework whose import hangs, crashes or floods the output is reported, and the rest go on.\n"
     "\n"
     "  --python PATH     an interpreter (a path, or a name searched on PATH); repeatable\n"
     "  --gpu             the GPU call is wanted (default: when the framework sees a GPU)\n"
     "  --no-gpu          no GPU call: what is mapped after import\n"
     "  --timeout S       time limit of each child (default 60)\n"
     "  --expect INSTALL  the installation the frameworks should load: an id from 'cudnnctl list',\n"
     "                    its prefix or its library directory\n"
     "  --json            print JSON (docs/json.md)\n"
     "  -v, --verbose     every verdict, the devices, the mapped files, what the probe printed\n"
     "  --set VAR=VALUE   run the interpreters with VAR set (LD_LIBRARY_PATH=..., PATH=...)\n"
     "  -h, --help        this text\n"
     "\n"
     "Exit status 0: no framework fails a verdict; 1: one does; 3: no framework found.\n"
     "\n" EXIT_STATUS_HELP},
    {"inspect", cmd_inspect, "static facts of libraries, headers, archives and directories (never loads them)",
     "inspect [--json] [--root DIR [--system SYS]] [--no-members] [--max-entries N] [--symbols] PATH...\n"
     "\n"
     "Reads each PATH without loading or running it and prints what it is: for an ELF or PE\n"
     "library its format, machine, SONAME, needed libraries, RPATH/RUNPATH, imports and delay\n"
     "imports, the number of exports (every name with --symbols), cuDNN entry points, the\n"
     "version constants cuDNN exports and the whole Windows version resource; for a C header\n"
     "its version macros, evaluated; for a pip dist-info its package and version; for an\n"
     "archive (zip, tgz, tar.xz, wheel) its layout, what it holds and where an install would\n"
     "put it; for a directory every cuDNN file in it (a bounded walk). A file reached twice\n"
     "(a hard link) is read once: the later path says which it is the same file as.\n"
     "The kind is read from the content, never from the name. Versions are listed once per\n"
     "source (file name, exported constant, header, version resource, dist-info), so\n"
     "disagreements stay visible.\n"
     "\n"
     "  --json            print JSON (docs/json.md, schema_version 1)\n"
     "  --root DIR        read PATHs inside DIR, as if DIR were / (links are followed inside DIR)\n"
     "  --system SYS      with --root: the tree is a linux or windows one (C:\\ is DIR; names\n"
     "                    match case-insensitively)\n"
     "  --no-members      list archive members without reading their content\n"
     "  --max-entries N   stop a directory walk after N entries (default 20000); a walk cut\n"
     "                    short is said on standard error and exits 1\n"
     "  --symbols         list every exported symbol, not only their number and cuDNN's\n"
     "  -h, --help        this text\n"
     "\n" EXIT_STATUS_HELP},
    {"list", cmd_list, "every cuDNN installation on the machine, its provenance and versions",
     "list [--json] [--verbose] [--max-dirs N] [--root DIR] [--system SYS] [--env FILE] [--set VAR=VALUE]...\n"
     "\n"
     "Finds every cuDNN on the machine without loading it: under CUDA_PATH, CUDA_PATH_V*, CUDA_HOME,\n"
     "CUDNN_PATH, CUDNN_HOME, /usr/local/cuda*, /opt, the loader's directories (LD_LIBRARY_PATH,\n"
     "ld.so.conf, ld.so.cache), the distribution's locations, every Python site-packages that can\n"
     "be found without running Python (virtual and conda environments, user sites, each python3 on\n"
     "PATH), and on Windows the CUDA and cuDNN folders in Program Files, System32 and PATH. Files\n"
     "are grouped into installations (one prefix: libraries, headers, import libraries), each with\n"
     "its provenance (CUDA toolkit, distro package and the package that owns it, pip wheel, conda\n"
     "package, archive copy, Windows installer) and its version from every source, kept apart.\n"
     "Symbolic link chains are shown as they are; broken and flattened chains are marked.\n"
     "\n"
     "  --json            print JSON (docs/json.md)\n"
     "  -v, --verbose     every file of every installation\n"
     "  --max-dirs N      examine at most N directories (default 20000)\n" CLI_MACHINE_HELP
     "  -h, --help        this text\n"
     "\n"
     "Exit status 3: no cuDNN was found.\n"
     "\n" EXIT_STATUS_HELP},
    {"which", cmd_which, "where the loader finds a library, step by step, and the copies it shadows",
     "which NAME... [--from FILE] [--all] [--json] [--root DIR] [--system SYS] [--env FILE] [--set VAR=VALUE]...\n"
     "\n"
     "Answers which copy a program loads, as ld.so or the Windows loader would search for it: the\n"
     "winner, how it was found (RPATH, LD_LIBRARY_PATH, RUNPATH, ld.so.cache, default directories;\n"
     "application directory, KnownDLLs, System32, Windows directory, current directory, PATH...),\n"
     "every place tried in order, every copy it shadows with its versions, and copies that are on\n"
     "the machine but on no search path. A NAME is a file name (libcudnn.so.9, cudnn64_8.dll) or a\n"
     "short cuDNN name (cudnn, cudnn_ops, cudnn_cnn_infer): then the names of every major are tried.\n"
     "\n"
     "  --from FILE       resolve as this program or library would (its RPATH/RUNPATH and $ORIGIN,\n"
     "                    its application directory)\n"
     "  -a, --all         also print every place tried\n"
     "  --json            print JSON (docs/json.md)\n" CLI_MACHINE_HELP CLI_RESOLVE_HELP
     "  -h, --help        this text\n"
     "\n"
     "Exit status 3: not found; 1: found, but the loader stops on a bad copy.\n"
     "\n" EXIT_STATUS_HELP},
    {"deps", cmd_deps, "the dependency tree of a library or program, resolved like the loader",
     "deps FILE|NAME [--missing] [--json] [--max-depth N] [--no-runtime] [--root DIR] [--system SYS]\n"
     "     [--env FILE] [--set VAR=VALUE]...\n"
     "\n"
     "Resolves every DT_NEEDED entry (Linux) or import and delay import (Windows) the way the\n"
     "loader does, breadth first like ld.so, and adds what cuDNN loads at run time rather than\n"
     "through DT_NEEDED or imports (its sub-libraries, cuBLAS/cuBLASLt, NVRTC, zlib or\n"
     "zlibwapi.dll, libcuda/nvcuda.dll), marked as such. Cycles and depth are bounded.\n"
     "\n"
     "  --missing         print only what cannot be found, and the path to it\n"
     "  --max-depth N     stop N levels down (default 32)\n"
     "  --no-runtime      leave out what cuDNN loads at run time\n"
     "  --json            print JSON (docs/json.md)\n" CLI_MACHINE_HELP CLI_RESOLVE_HELP
     "  -h, --help        this text\n"
     "\n"
     "The summary names the cuDNN directories and versions the process would load: more than\n"
     "one is a mixed set.\n"
     "\n"
     "Exit status 1: something cannot be found, or the cuDNN set is mixed; 3: a NAME given as the\n"
     "target is not found.\n"
     "\n" EXIT_STATUS_HELP},
    {"verify", cmd_verify, "prove one installation: header vs library, run-time probes, GPU work, compile and run",
     "verify [INSTALL] [--gpu|--no-gpu] [--json] [--verbose] [--timeout SECONDS] [--no-compile]\n"
     "       [--root DIR] [--system SYS] [--env FILE] [--set VAR=VALUE]...\n"
     "\n"
     "The three layers of proof for one cuDNN installation, each check passed, FAILED or n/c (could\n"
     "not be checked, with the reason):\n"
     "  1. static: the header's version macros against the library's version (file names, the\n"
     "     constants cuDNN exports, dist-info), and the set of libraries its major needs;\n"
     "  2. run time, in child processes with a time limit (a crash or hang there is a finding,\n"
     "     not the tool's): the NVIDIA driver (libcuda/nvcuda, NVML, /proc/driver/nvidia), the\n"
     "     CUDA runtime cuDNN pairs with, and cuDNN loaded by full path: cudnnGetVersion,\n"
     "     cudnnGetCudartVersion, cudnnGetProperty, every sub-library version check, where every\n"
     "     mapped cuDNN module came from, cudnnCreate; then, with a GPU, a convolution, batch\n"
     "     normalization + activation, softmax, an RNN and (cuDNN 9) a backend-graph convolution on\n"
     "     the GPU, each compared with a CPU reference in double precision from fresh random inputs;\n"
     "  3. compile: the minimal cudnnCreate/cudnnGetVersion program built with the machine's C\n"
     "     compiler against its headers and library, run, and compared with the other layers.\n"
     "INSTALL is an id from 'cudnnctl list', a prefix, a directory or library inside it, or a\n"
     "package name; without it, the installation a plain program loads.\n"
     "\n"
     "  --gpu             GPU work is required: not being able to run it is a failure\n"
     "  --no-gpu          no GPU work (default: when a usable GPU is there)\n"
     "  --timeout S       time limit of each probe child (default 60; GPU work gets 5x)\n"
     "  --no-compile      leave out layer 3\n"
     "  --json            print JSON (docs/json.md)\n"
     "  -v, --verbose     the evidence of every check\n" CLI_MACHINE_HELP "  -h, --help        this text\n"
     "\n"
     "With --root nothing from the tree is loaded or run: only layer 1 is checked.\n"
     "Exit status 1: a check failed; 3: INSTALL (or any cuDNN) not found.\n"
     "\n" EXIT_STATUS_HELP},
    {"compat", cmd_compat, "questions to the knowledge base: cuDNN <-> CUDA <-> driver <-> GPU <-> frameworks",
     "compat [--cuda V] [--cudnn V] [--driver V] [--gpu sm_XY|NAME] [--torch V] [--tf V]\n"
     "       [--os linux|windows] [--json] [--verbose]\n"
     "\n"
     "Answers from the compiled-in tables (kb/*.tsv), for whatever combination is given: which\n"
     "cuDNN releases pair with a CUDA version (and their CUDA build), the driver a CUDA version\n"
     "needs (its own minimum and the minor-version-compatibility floor; Linux and Windows unless\n"
     "--os), the newest CUDA a driver supports, whether a driver runs a CUDA version, the CUDA\n"
     "builds of a cuDNN release and whether it is on a known-bad list, the compute capability of\n"
     "a GPU and whether a cuDNN build runs on it, what a PyTorch or TensorFlow build needs, and\n"
     "cross-checks between the values given (--cuda 11.4 --cudnn 8.2.2 --gpu sm_90: no, with\n"
     "why). Every answer is yes, no or unknown, with its reason and source; what the tables do\n"
     "not hold is unknown, never guessed. Nothing on this machine is read.\n"
     "\n"
     "  --cuda V          a CUDA version (11.4, 12.8.1)\n"
     "  --cudnn V         a cuDNN release (8.2.2, 9.19.0.56)\n"
     "  --driver V        an NVIDIA driver version (470.57.02), of --os or this system\n"
     "  --gpu GPU         a compute capability (sm_90, 9.0) or a GPU name (H200, RTX 4090)\n"
     "  --torch V         a PyTorch release, optionally with its variant (2.4.1, 2.4.1+cu121)\n"
     "  --tf V            a TensorFlow release (2.15)\n"
     "  --os SYS          linux or windows (default: both where the answer differs)\n"
     "  --json            print JSON (docs/json.md)\n"
     "  -v, --verbose     every release row behind an answer\n"
     "  -h, --help        this text\n"
     "\n"
     "Exit status 0: every answer is yes; 1: some answer is no; 3: the tables cannot answer\n"
     "some question (and none is no); 2: a value given is not a version.\n"
     "\n" EXIT_STATUS_HELP},
    {"explain", cmd_explain, "what an error means: a cuDNN status, a CUDA or Windows error, a pasted message or log",
     "explain [--major 8|9] [--system SYS] [--json] [--verbose] CODE-or-TEXT... | --file FILE | -\n"
     "\n"
     "Explains a cuDNN status by name or number in either numbering (CUDNN_STATUS_NOT_INITIALIZED,\n"
     "NOT_INITIALIZED, 1001, 1, '(6 vs. 0)'), a CUDA error (cudaErrorInsufficientDriver, 'error 35'),\n"
     "a Windows loader error (126, 'WinError 126', 'Error code 193', 0x7E), a finding id of the\n"
     "doctor (framework-cpu-only) or a whole pasted message or log (several lines: every\n"
     "message recognised is reported, most specific first):\n"
     "what it means, the likely causes from the failure catalog, which cudnnctl command shows\n"
     "which cause applies on this machine, the fix and the source. Versions in a message are\n"
     "read and checked (\"PyTorch was compiled against (8, 5, 0) but found runtime version\n"
     "(8, 3, 3)\": same major, runtime minor >= build minor). Nothing on this machine is read.\n"
     "\n"
     "  --major 8|9       read bare cuDNN status numbers in that numbering (default: inferred;\n"
     "                    cuDNN 9 numbers its statuses from 1000 on)\n"
     "  --system SYS      linux or windows: that system's messages first (default: no preference)\n"
     "  -f, --file FILE   the text to explain is in FILE ('-': standard input; so is a lone '-')\n"
     "  --json            print JSON (docs/json.md)\n"
     "  -v, --verbose     the source of every match\n"
     "  -h, --help        this text\n"
     "\n"
     "Exit status 3: nothing recognised (one line on standard error, with the closest status\n"
     "names when the input looks like one), or no such --file; 1: the --file or standard input\n"
     "cannot be read (a directory, larger than 64 MiB, a read error).\n"
     "\n" EXIT_STATUS_HELP},
};
const size_t cli_ncommands = sizeof(cli_commands) / sizeof(cli_commands[0]);

static void main_usage(FILE *f)
{
        size_t i;

        fprintf(f, "usage: cudnnctl [--version] [--help] COMMAND [ARGS]\n\n"
                   "Pairs, verifies and diagnoses NVIDIA cuDNN with the CUDA toolkit, driver, GPU and\n"
                   "frameworks. Commands:\n\n");
        for (i = 0; i < cli_ncommands; i++)
                fprintf(f, "  %-10s %s\n", cli_commands[i].name, cli_commands[i].summary);
        fprintf(f, "\n'cudnnctl COMMAND --help' or 'cudnnctl help COMMAND' describes one command.\n\n%s",
                EXIT_STATUS_HELP);
}

static const struct cli_cmd *find_cmd(const char *name)
{
        size_t i;

        for (i = 0; i < cli_ncommands; i++)
                if (strcmp(cli_commands[i].name, name) == 0)
                        return &cli_commands[i];
        return NULL;
}

static int finish(int status)
{
        if (fflush(stdout) != 0 || ferror(stdout)) {
                fprintf(stderr, "cudnnctl: cannot write the output (disk full or pipe closed?)\n");
                return CLI_FAILURE;
        }
        return status;
}

static int run(int argc, char **argv)
{
        struct cli_env env;
        const struct cli_cmd *cmd;
        const char *nc = getenv("NO_COLOR");
        const char *term = getenv("TERM");

        env.prog = "cudnnctl";
        env.color_ok = cli_isatty(1) && (nc == NULL || nc[0] == '\0') && !(term != NULL && strcmp(term, "dumb") == 0);
        if (argc < 2) {
                main_usage(stderr);
                return CLI_USAGE;
        }
        if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
                printf("cudnnctl %s (JSON schema %d, archives: %s)\n", cudnnctl_version(), CUDNNCTL_JSON_SCHEMA_VERSION,
                       cudnnctl_have_archives() ? "libarchive" : "not supported");
                return finish(CLI_OK);
        }
        if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
                main_usage(stdout);
                return finish(CLI_OK);
        }
        if (strcmp(argv[1], "help") == 0) {
                if (argc < 3) {
                        main_usage(stdout);
                        return finish(CLI_OK);
                }
                cmd = find_cmd(argv[2]);
                if (cmd == NULL) {
                        cli_error(NULL, "unknown command '%s' (see 'cudnnctl --help')", argv[2]);
                        return CLI_USAGE;
                }
                cli_usage(cmd);
                return finish(CLI_OK);
        }
        /* The probe child: this program re-executed to load CUDA/cuDNN code
         * (not a command; it reports on its standard output, see probe.h). */
        if (strcmp(argv[1], "__probe") == 0)
                return argc > 2 ? cudnnctl_probe_child(argc - 2, argv + 2) : CLI_USAGE;
        if (argv[1][0] == '-') {
                cli_error(NULL, "unknown option '%s' (see 'cudnnctl --help')", argv[1]);
                return CLI_USAGE;
        }
        cmd = find_cmd(argv[1]);
        if (cmd == NULL) {
                cli_error(NULL, "unknown command '%s' (see 'cudnnctl --help')", argv[1]);
                return CLI_USAGE;
        }
        /* However the command ends (Ctrl+C, SIGTERM, SIGHUP, a closed pipe,
         * an error, exit), no probe child or what it started keeps running
         * and no temporary directory stays. Not for the probe child above:
         * its parent does that for it. */
        {
                cudnnctl_error err = {0};

                if (cudnnctl_cleanup_install(&err) < 0) {
                        cli_error(NULL, "%s", err.msg);
                        return CLI_FAILURE;
                }
        }
        return finish(cmd->fn(argc - 1, argv + 1, cmd, &env));
}

#if defined(_WIN32)
/* Arguments arrive as UTF-16; everything inside is UTF-8. */
int wmain(int argc, wchar_t **wargv);

int wmain(int argc, wchar_t **wargv)
{
        char **argv = calloc((size_t)argc + 1, sizeof(char *));
        int i, rc;

        if (argv == NULL)
                return CLI_FAILURE;
        for (i = 0; i < argc; i++) {
                int n = WideCharToMultiByte(CP_UTF8, 0, wargv[i], -1, NULL, 0, NULL, NULL);

                argv[i] = malloc(n > 0 ? (size_t)n : 1);
                if (argv[i] == NULL)
                        return CLI_FAILURE;
                if (n <= 0)
                        argv[i][0] = '\0';
                else
                        WideCharToMultiByte(CP_UTF8, 0, wargv[i], -1, argv[i], n, NULL, NULL);
        }
        SetConsoleOutputCP(CP_UTF8);
        rc = run(argc, argv);
        for (i = 0; i < argc; i++)
                free(argv[i]);
        free(argv);
        return rc;
}
#else
int main(int argc, char **argv)
{
        return run(argc, argv);
}
#endif
