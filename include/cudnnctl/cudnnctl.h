/* libcudnnctl: find, read, verify and explain NVIDIA cuDNN installations.
 *
 * The one public header of the library. The library never prints and never
 * exits: every function that can fail returns 0 (or a pointer) on success and
 * -1 (or NULL) on failure, with the reason in a cudnnctl_error owned by the
 * caller. Everything the library hands out has a matching _free function;
 * strings it returns are released with cudnnctl_free (on Windows the DLL and
 * the program may use different C runtimes).
 *
 * Facts are data: a command gathers facts into a cudnnctl_value tree (JSON
 * shaped: objects with ordered keys, arrays, strings, integers, booleans,
 * null). The tree is what --json prints and what the text renderers read. */
#ifndef CUDNNCTL_H
#define CUDNNCTL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(CUDNNCTL_STATIC)
#define CUDNNCTL_API
#elif defined(_WIN32)
#if defined(CUDNNCTL_BUILDING)
#define CUDNNCTL_API __declspec(dllexport)
#else
#define CUDNNCTL_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define CUDNNCTL_API __attribute__((visibility("default")))
#else
#define CUDNNCTL_API
#endif

/* The version of this library and tool. */
#define CUDNNCTL_VERSION_MAJOR 0
#define CUDNNCTL_VERSION_MINOR 1
#define CUDNNCTL_VERSION_PATCH 0
#define CUDNNCTL_VERSION_STRING "0.1.0"

/* The version of the JSON documents this library writes (docs/json.md). A
 * change that removes or renames a key or changes a value's type bumps it. */
#define CUDNNCTL_JSON_SCHEMA_VERSION 2

CUDNNCTL_API const char *cudnnctl_version(void);
/* 1 if this build reads archives (zip, tar.*), 0 if it was built without libarchive. */
CUDNNCTL_API int cudnnctl_have_archives(void);

/* ---- errors ---------------------------------------------------------- */

struct cudnnctl_error {
        int code;      /* one of CC_ERR_* (see error codes below), 0 if none */
        char msg[512]; /* one line, names the thing and what is wrong */
};
typedef struct cudnnctl_error cudnnctl_error;

enum {
        CUDNNCTL_OK = 0,
        CUDNNCTL_ERR_IO = 1,
        CUDNNCTL_ERR_FORMAT = 2,
        CUDNNCTL_ERR_TRUNCATED = 3,
        CUDNNCTL_ERR_LIMIT = 4,
        CUDNNCTL_ERR_NOMEM = 5,
        CUDNNCTL_ERR_UNSUPPORTED = 6,
        CUDNNCTL_ERR_NOTFOUND = 7,
        CUDNNCTL_ERR_USAGE = 8,
};

CUDNNCTL_API void cudnnctl_free(void *p);
/* s as a terminal may show it: every byte that is not printable UTF-8
 * (controls, DEL, broken sequences) written as \xNN, as the text renderers
 * write values. A new string (cudnnctl_free), NULL when out of memory. */
CUDNNCTL_API char *cudnnctl_escape(const char *s);

/* ---- fact trees -------------------------------------------------------- */

typedef struct cudnnctl_value cudnnctl_value;

enum cudnnctl_value_type {
        CUDNNCTL_NULL = 0,
        CUDNNCTL_BOOL,
        CUDNNCTL_INT,
        CUDNNCTL_STRING,
        CUDNNCTL_ARRAY,
        CUDNNCTL_OBJECT,
        CUDNNCTL_DOUBLE, /* a number with a fraction or exponent, or out of int64 range */
};

CUDNNCTL_API void cudnnctl_value_free(cudnnctl_value *v);
CUDNNCTL_API int cudnnctl_value_type(const cudnnctl_value *v);
/* The member `key` of an object, or NULL. */
CUDNNCTL_API const cudnnctl_value *cudnnctl_value_get(const cudnnctl_value *obj, const char *key);
/* Follow a '/'-separated path of object keys and array indexes ("files/0/kind"). */
CUDNNCTL_API const cudnnctl_value *cudnnctl_value_path(const cudnnctl_value *v, const char *path);
CUDNNCTL_API size_t cudnnctl_value_len(const cudnnctl_value *v); /* array or object size */
CUDNNCTL_API const cudnnctl_value *cudnnctl_value_at(const cudnnctl_value *v, size_t i);
/* The key of member i of an object. */
CUDNNCTL_API const char *cudnnctl_value_key_at(const cudnnctl_value *v, size_t i);
CUDNNCTL_API const char *cudnnctl_value_str(const cudnnctl_value *v); /* NULL unless a string */
CUDNNCTL_API int64_t cudnnctl_value_int(const cudnnctl_value *v);     /* 0 unless an integer */
CUDNNCTL_API int cudnnctl_value_bool(const cudnnctl_value *v);        /* 0 unless true */
CUDNNCTL_API double cudnnctl_value_double(const cudnnctl_value *v);   /* an integer or double as double; 0 otherwise */

/* Render a tree as JSON (UTF-8, keys in insertion order, invalid UTF-8 bytes
 * replaced by U+FFFD, control characters escaped). *out is NUL-terminated,
 * freed with cudnnctl_free. */
CUDNNCTL_API int cudnnctl_to_json(const cudnnctl_value *v, int pretty, char **out, cudnnctl_error *err);

/* Parse a JSON text (UTF-8, at most 64 levels deep) into a tree, e.g. a
 * document written with --json. On failure err says what and at which byte. */
CUDNNCTL_API int cudnnctl_json_parse(const char *text, size_t len, cudnnctl_value **out, cudnnctl_error *err);

/* ---- versions -------------------------------------------------------- */

/* A dotted version: up to four numeric components ("9.19.0.56"). n is the
 * number of components read; n == 0 means unknown. */
typedef struct cudnnctl_ver {
        int n;
        long part[4];
} cudnnctl_ver;

/* Parse "9.19.0", "v8.2.2.26", "11.4". Returns -1 on anything else. */
CUDNNCTL_API int cudnnctl_ver_parse(const char *s, cudnnctl_ver *out);
/* Compare component by component; missing components count as 0. */
CUDNNCTL_API int cudnnctl_ver_cmp(const cudnnctl_ver *a, const cudnnctl_ver *b);
/* CUDNN_VERSION of a release: M*1000+m*100+p before 9, M*10000+m*100+p from 9 on. */
CUDNNCTL_API long cudnnctl_cudnn_encode(int major, int minor, int patch);
/* The inverse: 8202 -> 8.2.2, 91900 -> 9.19.0. Returns -1 if not a cuDNN version number. */
CUDNNCTL_API int cudnnctl_cudnn_decode(long v, cudnnctl_ver *out);
/* The 4-byte constant cuDNN 9 exports: (major << 16) | (minor << 8) | patch. */
CUDNNCTL_API int cudnnctl_cudnn_decode_packed(uint32_t v, cudnnctl_ver *out);
/* CUDA_VERSION / CUDART_VERSION: M*1000 + m*10 (13000 = 13.0, 11040 = 11.4). */
CUDNNCTL_API long cudnnctl_cuda_encode(int major, int minor);
CUDNNCTL_API int cudnnctl_cuda_decode(long v, cudnnctl_ver *out);
/* "9.19.0" into buf (n components; "unknown" when n == 0). */
CUDNNCTL_API const char *cudnnctl_ver_str(const cudnnctl_ver *v, char *buf, size_t size);

/* ---- the machine --------------------------------------------------------- */

/* What a command looks at: this machine, or a directory treated as its root
 * (a container image, a mounted disk, a test fixture), with the rules of
 * one system and an environment. With a root the environment starts empty
 * (the host's variables describe the host, not the image): give it with
 * env_file and set. Without one, set overrides the process's environment. */
typedef struct cudnnctl_machine cudnnctl_machine;

enum {
        CUDNNCTL_SYSTEM_HOST = 0, /* the system this program runs on */
        CUDNNCTL_SYSTEM_LINUX = 1,
        CUDNNCTL_SYSTEM_WINDOWS = 2, /* C:\ is the root; names match case-insensitively */
};

typedef struct cudnnctl_machine_options {
        const char *root;       /* NULL: this machine */
        int system;             /* CUDNNCTL_SYSTEM_* */
        const char *env_file;   /* KEY=VALUE lines, or NULL */
        const char *const *set; /* nset "VAR=VALUE" strings, applied last */
        size_t nset;
} cudnnctl_machine_options;

CUDNNCTL_API int cudnnctl_machine_open(const cudnnctl_machine_options *opts, cudnnctl_machine **out,
                                       cudnnctl_error *err);
CUDNNCTL_API void cudnnctl_machine_free(cudnnctl_machine *m);

/* ---- finding: list, which, deps ---------------------------------------- */

/* Every cuDNN installation on the machine (docs/json.md, command "list"). */
typedef struct cudnnctl_list_options {
        size_t max_dirs; /* directories examined at most; 0: default (20000) */
        /* More installation prefixes to search first (virtual paths), beside
         * the usual places: what a user names on the command line. */
        const char *const *extra_roots;
        size_t nextra_roots;
} cudnnctl_list_options;

CUDNNCTL_API int cudnnctl_list(cudnnctl_machine *m, const cudnnctl_list_options *opts, cudnnctl_value **out,
                               cudnnctl_error *err);
CUDNNCTL_API int cudnnctl_list_text(const cudnnctl_value *facts, int verbose, int color, char **out,
                                    cudnnctl_error *err);

/* How the Windows loader is asked (LoadLibrary / LoadLibraryEx). */
enum {
        CUDNNCTL_WIN_STANDARD = 0, /* LoadLibrary: the standard search order */
        CUDNNCTL_WIN_ALTERED = 1,  /* LOAD_WITH_ALTERED_SEARCH_PATH (the DLL's directory first) */
        CUDNNCTL_WIN_SEARCH = 2,   /* LOAD_LIBRARY_SEARCH_* flags in win_search */
        CUDNNCTL_WIN_PYTHON = 3,   /* Python >= 3.8 extension modules: DLL_LOAD_DIR | DEFAULT_DIRS */
};
/* LOAD_LIBRARY_SEARCH_* */
enum {
        CUDNNCTL_WIN_SEARCH_DLL_LOAD_DIR = 0x100,
        CUDNNCTL_WIN_SEARCH_APPLICATION_DIR = 0x200,
        CUDNNCTL_WIN_SEARCH_USER_DIRS = 0x400,
        CUDNNCTL_WIN_SEARCH_SYSTEM32 = 0x800,
        CUDNNCTL_WIN_SEARCH_DEFAULT_DIRS = 0x1000,
};

enum {
        CUDNNCTL_SAFE_SEARCH_MACHINE = 0,
        CUDNNCTL_SAFE_SEARCH_ON = 1,
        CUDNNCTL_SAFE_SEARCH_OFF = 2,
};

typedef struct cudnnctl_which_options {
        /* The requesting program or library (a path in the machine's tree);
         * NULL: a plain program with no RPATH/RUNPATH in the current directory. */
        const char *from;
        /* Windows only. */
        int win_mode;                /* CUDNNCTL_WIN_* */
        unsigned win_search;         /* CUDNNCTL_WIN_SEARCH_* for CUDNNCTL_WIN_SEARCH */
        int safe_search;             /* SafeDllSearchMode: CUDNNCTL_SAFE_SEARCH_* (0, the default: as
                                        the machine has it, the registry's or on) */
        const char *const *dll_dirs; /* AddDllDirectory / os.add_dll_directory, in call order */
        size_t ndll_dirs;
        const char *set_dll_dir; /* SetDllDirectory, or NULL */
        /* which: 1 searches the whole machine (list's discovery) for the
         * installation of each copy, by list's ids, and for copies on no
         * search path; 0 does so only when a name is found nowhere, and
         * otherwise reads only the directories of the copies found. */
        int everywhere;
} cudnnctl_which_options;

/* Where the loader finds each of n names (a full file name, or a short cuDNN
 * name such as "cudnn" or "cudnn_ops": then the names of every major are
 * tried): the winner, how it was found, every place tried in order, and
 * every copy it shadows (docs/json.md, command "which"). A name that is
 * found nowhere is a result, not an error. */
CUDNNCTL_API int cudnnctl_which(cudnnctl_machine *m, const char *const *names, size_t n,
                                const cudnnctl_which_options *opts, cudnnctl_value **out, cudnnctl_error *err);
CUDNNCTL_API int cudnnctl_which_text(const cudnnctl_value *facts, int verbose, int color, char **out,
                                     cudnnctl_error *err);

typedef struct cudnnctl_deps_options {
        cudnnctl_which_options resolve; /* how each name is looked up (resolve.from is ignored) */
        int max_depth;                  /* 0: default (32) */
        int no_runtime;                 /* leave out what cuDNN loads at run time */
} cudnnctl_deps_options;

/* The dependency tree of a file (or of the library a name resolves to),
 * resolved like the loader, with the libraries cuDNN loads at run time
 * marked as such (docs/json.md, command "deps"). */
CUDNNCTL_API int cudnnctl_deps(cudnnctl_machine *m, const char *target, const cudnnctl_deps_options *opts,
                               cudnnctl_value **out, cudnnctl_error *err);
/* missing_only: print only the branches that lead to something missing. */
CUDNNCTL_API int cudnnctl_deps_text(const cudnnctl_value *facts, int missing_only, int color, char **out,
                                    cudnnctl_error *err);

/* ---- who-uses ------------------------------------------------------------ */

typedef struct cudnnctl_who_uses_options {
        size_t max_files; /* library files asked about at most (a directory's walk); 0: default (4096) */
} cudnnctl_who_uses_options;

/* The processes running on this machine that have a library of each of n
 * targets mapped (docs/json.md, command "who-uses"). A target is a file, a
 * directory (every library file below it, bounded), or an installation as
 * `list` names it: its id or its prefix (every library file of it). Each
 * user is a process and a file it maps, with its pid, name, command line
 * and how it was seen; processes that could not be read are counted.
 * Nobody mapping a file is a result, not an error; a target that does not
 * exist is CUDNNCTL_ERR_NOTFOUND; the live machine only
 * (CUDNNCTL_ERR_UNSUPPORTED with a root or another system). */
CUDNNCTL_API int cudnnctl_who_uses(cudnnctl_machine *m, const char *const *targets, size_t n,
                                   const cudnnctl_who_uses_options *opts, cudnnctl_value **out, cudnnctl_error *err);
CUDNNCTL_API int cudnnctl_who_uses_text(const cudnnctl_value *doc, int verbose, int color, char **out,
                                        cudnnctl_error *err);

/* ---- diff ---------------------------------------------------------------- */

typedef struct cudnnctl_diff_options {
        const char *before_name, *after_name; /* how `sources` names the two documents; NULL: "before", "after" */
        int all;                              /* also the facts that differ from run to run (durations, temp paths) */
} cudnnctl_diff_options;

/* 0 when doc is a doctor document this tool can compare; else -1 with
 * CUDNNCTL_ERR_FORMAT (not one: its command, no facts) or
 * CUDNNCTL_ERR_UNSUPPORTED (a newer schema_version), saying which. */
CUDNNCTL_API int cudnnctl_diff_check(const cudnnctl_value *doc, cudnnctl_error *err);
/* What differs between two doctor documents, grouped by area: the driver
 * and GPUs, toolkits, cuDNN installations (by prefix and provenance),
 * what a plain program loads, frameworks, the environment, findings
 * (docs/json.md, command "diff"). A pure function of the two trees. */
CUDNNCTL_API int cudnnctl_diff(const cudnnctl_value *before, const cudnnctl_value *after,
                               const cudnnctl_diff_options *opts, cudnnctl_value **out, cudnnctl_error *err);
CUDNNCTL_API int cudnnctl_diff_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err);

/* ---- verify ------------------------------------------------------------ */

enum {
        CUDNNCTL_GPU_AUTO = 0, /* GPU work when a usable GPU is there */
        CUDNNCTL_GPU_ON = 1,   /* GPU work is required: not being able to run it is a failure */
        CUDNNCTL_GPU_OFF = 2,  /* no GPU work */
};

typedef struct cudnnctl_verify_options {
        /* The installation: an id from cudnnctl_list, a prefix, a directory or
         * library file inside it, or a package or directory name; NULL: the one
         * a plain program loads. */
        const char *install;
        int gpu;               /* CUDNNCTL_GPU_* */
        int timeout_ms;        /* per probe child (the GPU probe gets five times this); 0: 60000 */
        const char *probe_exe; /* the program re-executed as the probe child; NULL: this program */
        int no_compile;        /* leave out the compile-and-link layer */
        /* Compile the layer's program afresh: by default a build that passed
         * is kept in the cache ($XDG_CACHE_HOME/cudnnctl, else ~/.cache/cudnnctl)
         * and run again while the headers it read, the compiler, the library,
         * the command and the environment are unchanged. */
        int recompile;
        /* Of the Windows installer's layout with a directory per CUDA build
         * (bin\12.9\, bin\13.0\...): the one to verify, "MAJOR.MINOR" or
         * "MAJOR" (its newest); NULL: the one of the CUDA toolkit a plain
         * program uses (CUDA_PATH, else the only toolkit), else every one. */
        const char *cuda;
} cudnnctl_verify_options;

/* The three layers of proof for one installation (docs/json.md, command
 * "verify"): static (header against library), run time (probes in child
 * processes: driver, CUDA runtime, cuDNN, GPU work) and compile (the minimal
 * program built and run). A failing layer is a result, not an error; -1
 * when the installation cannot be chosen (CUDNNCTL_ERR_NOTFOUND) or out of
 * memory. Probes run only on the live machine (no root). */
CUDNNCTL_API int cudnnctl_verify(cudnnctl_machine *m, const cudnnctl_verify_options *opts, cudnnctl_value **out,
                                 cudnnctl_error *err);
CUDNNCTL_API int cudnnctl_verify_text(const cudnnctl_value *facts, int verbose, int color, char **out,
                                      cudnnctl_error *err);

/* ---- install ----------------------------------------------------------- */

typedef struct cudnnctl_install_options {
        const char *source;   /* an archive, a wheel or an unpacked directory (a path on the running machine) */
        const char *into;     /* the target directory (virtual path: inside --root), or NULL */
        const char *cuda;     /* "13.0": the machine's CUDA toolkit of that version is the target, or NULL */
        int dry_run;          /* plan and check only: write nothing */
        int force;            /* lift the stops that --force may lift (CUDA major, files not cuDNN's) */
        int no_verify;        /* do not run verify on the result */
        const char *log_file; /* also write the human log here (a path on the running machine), or NULL */
        /* Progress while staging (bytes of the whole, and the member): called
         * from the writing thread, at most every 1 MiB. NULL: none. */
        void (*progress)(void *ctx, uint64_t done, uint64_t total, const char *member);
        void *progress_ctx;
        /* NVIDIA's redistrib JSON (redistrib_VERSION.json, a path on the
         * running machine), or NULL. Given, it decides the checksum check: it
         * must list the archive by file name, with its size and digest;
         * else a .sha256 or .md5 file beside the archive, else the knowledge
         * base's digest. */
        const char *manifest;
} cudnnctl_install_options;

/* Install a cuDNN release (docs/json.md, command "install"): recover an
 * interrupted transaction on the target, read the source, plan, check, and
 * (unless dry_run or a check says stop) stage, apply and commit in one
 * transaction. A stop or a failed transaction is a result ("result"/
 * "status"), not an error: -1 only when the source or target cannot be
 * read at all, or out of memory. */
CUDNNCTL_API int cudnnctl_install(cudnnctl_machine *m, const cudnnctl_install_options *opts, cudnnctl_value **out,
                                  cudnnctl_error *err);
CUDNNCTL_API int cudnnctl_install_text(const cudnnctl_value *facts, int verbose, int color, char **out,
                                       cudnnctl_error *err);

typedef struct cudnnctl_uninstall_options {
        const char *install; /* a target directory holding one install, or its manifest
                                (TARGET/.cudnnctl/installed/ID.json); virtual path */
        int dry_run;
        int force; /* also remove files changed since they were installed */
} cudnnctl_uninstall_options;

/* Remove exactly what an install placed (its manifest), put back what it
 * replaced, as one transaction (docs/json.md, "uninstall, rollback"). */
CUDNNCTL_API int cudnnctl_uninstall(cudnnctl_machine *m, const cudnnctl_uninstall_options *opts, cudnnctl_value **out,
                                    cudnnctl_error *err);

typedef struct cudnnctl_rollback_options {
        const char *target; /* the target directory (virtual path); NULL: the last one this machine changed */
        int dry_run;
} cudnnctl_rollback_options;

/* Undo the last committed install or uninstall of a target. */
CUDNNCTL_API int cudnnctl_rollback(cudnnctl_machine *m, const cudnnctl_rollback_options *opts, cudnnctl_value **out,
                                   cudnnctl_error *err);
/* Text of an uninstall or rollback document. */
CUDNNCTL_API int cudnnctl_change_text(const cudnnctl_value *facts, int verbose, int color, char **out,
                                      cudnnctl_error *err);

/* Finish undoing an interrupted transaction on target (NULL: the last
 * target this machine changed); and the transactions of a target. */
CUDNNCTL_API int cudnnctl_recover(cudnnctl_machine *m, const char *target, cudnnctl_value **out, cudnnctl_error *err);
CUDNNCTL_API int cudnnctl_history(cudnnctl_machine *m, const char *target, cudnnctl_value **out, cudnnctl_error *err);
CUDNNCTL_API int cudnnctl_history_text(const cudnnctl_value *facts, int verbose, int color, char **out,
                                       cudnnctl_error *err);

/* ---- fetch ------------------------------------------------------------- */

enum { CUDNNCTL_FETCH_REDIST = 1, CUDNNCTL_FETCH_PYPI = 2 };

typedef struct cudnnctl_fetch_options {
        const char *version; /* "9", "9.19", "9.19.0", "9.19.0.56": the newest release that matches */
        int cuda_major;      /* the CUDA variant (13); 0: the newest the release has */
        const char *system;  /* "linux" or "windows"; NULL: this machine's */
        const char *arch;    /* "x86_64", "sbsa" or "aarch64"; NULL: this machine's */
        int source;          /* CUDNNCTL_FETCH_REDIST (0 too): NVIDIA's archives; _PYPI: the wheels */
        const char *index;   /* the index's URL; NULL: NVIDIA's redist directory or https://pypi.org/simple/ */
        const char *cache;   /* the cache directory; NULL: ~/.cache/cudnnctl (%LOCALAPPDATA%\cudnnctl) */
        int offline;         /* the cache only, no request */
        int dry_run;         /* choose and say what would be downloaded; download nothing */
        int timeout_ms;      /* per request: no connection or no data for this long fails it; 0: 30000 */
        /* The machine the file is for (a 'doctor' document, as plan reads
         * it), or NULL: then the CUDA variant left 0 is the plan's for that
         * machine, and only releases the plan says fit it (driver, GPUs,
         * framework) are chosen. */
        const cudnnctl_value *facts;
        /* A download's progress (total 0 when unknown) and one-line notes
         * ("resuming NAME at N bytes"); NULL: none. */
        void (*progress)(void *ctx, uint64_t done, uint64_t total);
        void (*note)(void *ctx, const char *line);
        void *ctx;
} cudnnctl_fetch_options;

/* A release's archive or wheel into the cache (docs/json.md, command
 * "fetch"): the newest release matching the version for the system, arch
 * and CUDA variant, from the index; a cached file whole (size and its
 * recorded SHA-256) is the answer at once; else it is downloaded into
 * NAME.part, hashed while it streams, resumed where a broken download
 * stopped, and renamed to NAME only when size and SHA-256 match. -1 with
 * a one-line error on every failure (no matching release: NOTFOUND). */
CUDNNCTL_API int cudnnctl_fetch(const cudnnctl_fetch_options *opts, cudnnctl_value **out, cudnnctl_error *err);
/* 1 if this build makes HTTP requests (libcurl, WinHTTP), 0 if not. */
CUDNNCTL_API int cudnnctl_have_http(void);

/* ---- doctor ------------------------------------------------------------ */

/* Progress of a command that takes seconds (doctor, frameworks), for a
 * terminal: DONE when a part of the work is done (what: "listed 2
 * installations"), WAITING when a child has run for a second and is still
 * running (what: the child and for what). Called one call at a time, from
 * any of the command's threads, never after the command returns. */
enum { CUDNNCTL_PROGRESS_DONE = 1, CUDNNCTL_PROGRESS_WAITING = 2 };
typedef void (*cudnnctl_progress_fn)(void *ctx, int event, const char *what);

typedef struct cudnnctl_doctor_options {
        int gpu;                       /* CUDNNCTL_GPU_*: GPU work for the installation a plain program loads */
        int timeout_ms;                /* per probe child; 0: 60000 */
        const char *probe_exe;         /* the program re-executed as the probe child; NULL: this program */
        int no_compile;                /* leave out the compile-and-link proof */
        int recompile;                 /* compile the proof afresh (cudnnctl_verify_options.recompile) */
        int no_frameworks;             /* leave out the Python frameworks (cudnnctl_frameworks) */
        cudnnctl_progress_fn progress; /* NULL: none */
        void *progress_ctx;
} cudnnctl_doctor_options;

/* One check-up of the whole stack (docs/json.md, command "doctor"): the
 * facts (list, which, deps, verify of up to four installations, the host's
 * search paths, toolkits and driver files), the areas with a one-line
 * verdict each, and the findings, most severe first, each with id (the
 * failure catalog's slug), severity, summary, evidence and fix. With a root
 * (or another system) nothing is loaded or run: probes are "not checked". */
CUDNNCTL_API int cudnnctl_doctor(cudnnctl_machine *m, const cudnnctl_doctor_options *opts, cudnnctl_value **out,
                                 cudnnctl_error *err);
typedef struct cudnnctl_fix_options {
        const char *const *ids; /* only these findings ("linux-broken-symlinks"); none: every one */
        size_t nids;
        int dry_run; /* plan and show, write nothing */
        int timeout_ms;
        /* a release (archive, wheel or unpacked directory): a directory of two
         * releases keeps this one, and the libraries of it the directory
         * lacks are installed from here; NULL: none */
        const char *from;
} cudnnctl_fix_options;

/* doctor --fix (docs/json.md "doctor --fix"): the doctor's findings (no
 * GPU, no compile, no frameworks), and for each whose fix is a change of
 * files a plan carried out as one transaction per directory (undone by
 * cudnnctl_rollback of it), then the doctor again ("left": what remains of
 * them); the others: the command that does it (env, use), or text. */
CUDNNCTL_API int cudnnctl_doctor_fix(cudnnctl_machine *m, const cudnnctl_fix_options *o, cudnnctl_value **out,
                                     cudnnctl_error *err);
CUDNNCTL_API int cudnnctl_fix_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err);
/* Run the checks again on the facts of a doctor document (from another
 * machine): a new document with its own areas, findings and summary. */
CUDNNCTL_API int cudnnctl_doctor_recheck(const cudnnctl_value *doc, cudnnctl_value **out, cudnnctl_error *err);
CUDNNCTL_API int cudnnctl_doctor_text(const cudnnctl_value *doc, int verbose, int color, char **out,
                                      cudnnctl_error *err);

/* ---- frameworks -------------------------------------------------------- */

typedef struct cudnnctl_frameworks_options {
        /* The interpreters to ask (paths, or names searched on PATH); none:
         * the active virtual and conda environments, python3 and python on
         * PATH, the system's python3, and the environments `list` found. */
        const char *const *python;
        size_t npython;
        int gpu;                       /* CUDNNCTL_GPU_*: one small convolution per framework that sees a GPU */
        int timeout_ms;                /* per interpreter child; 0: 60000 */
        const char *expect;            /* the installation the frameworks should load (an id or a path), or NULL */
        cudnnctl_progress_fn progress; /* NULL: none */
        void *progress_ctx;
} cudnnctl_frameworks_options;

/* For each Python interpreter and each framework it can import (PyTorch,
 * TensorFlow, JAX, ONNX Runtime, CuPy): the cuDNN and CUDA it was built
 * with, the cuDNN it reports at run time, the files actually mapped into
 * the process (after a real cuDNN call when there is a GPU), the
 * installation they belong to, and verdicts (docs/json.md, command
 * "frameworks"). Each interpreter runs the tool's own probe script in child
 * processes with a time limit; a hang, crash or flood of output is a fact.
 * Live machine only (CUDNNCTL_ERR_UNSUPPORTED with a root). */
CUDNNCTL_API int cudnnctl_frameworks(cudnnctl_machine *m, const cudnnctl_frameworks_options *opts, cudnnctl_value **out,
                                     cudnnctl_error *err);
CUDNNCTL_API int cudnnctl_frameworks_text(const cudnnctl_value *doc, int verbose, int color, char **out,
                                          cudnnctl_error *err);

/* ---- compat ------------------------------------------------------------ */

/* What to ask the knowledge base; every field may be NULL (not asked). */
typedef struct cudnnctl_compat_options {
        const char *cuda;   /* a CUDA version: "11.4", "12.8.1" */
        const char *cudnn;  /* a cuDNN release: "8.2.2", "9.19.0.56" */
        const char *driver; /* an NVIDIA driver version: "470.57.02" */
        const char *gpu;    /* "sm_90", "9.0", "90" or a GPU name: "H200", "RTX 4090" */
        const char *torch;  /* a PyTorch release, with its variant: "2.4.1", "2.4.1+cu121" */
        const char *tf;     /* a TensorFlow release: "2.15" */
        int system;         /* CUDNNCTL_SYSTEM_LINUX / _WINDOWS; HOST (0): both where it matters */
        /* A cuDNN release the tables do not know: 1 reads the redist index
         * at `index` (NULL: NVIDIA's; time limit timeout_ms, 0: 10000) and
         * answers whether it lists it (a release newer than the tables, or
         * none at all); 0 keeps to the tables. */
        int check_index;
        const char *index;
        int timeout_ms;
} cudnnctl_compat_options;

/* Answers from the compiled-in tables (docs/json.md, command "compat"):
 * each with a question, a verdict ("yes", "no", "unknown"), the reason, the
 * source, and its values, plus cross-checks between the values given. -1
 * (CUDNNCTL_ERR_USAGE) when a value given is not a version at all. */
CUDNNCTL_API int cudnnctl_compat(const cudnnctl_compat_options *opts, cudnnctl_value **out, cudnnctl_error *err);
CUDNNCTL_API int cudnnctl_compat_text(const cudnnctl_value *doc, int verbose, int color, char **out,
                                      cudnnctl_error *err);

/* ---- plan -------------------------------------------------------------- */

/* What to plan for; every field may be NULL / 0. */
typedef struct cudnnctl_plan_options {
        const char *framework;   /* --for: torch, tensorflow, jax, onnxruntime, cupy; NULL: the frameworks found */
        const char *cuda;        /* a CUDA version the build must serve */
        const char *cudnn;       /* a cuDNN release (prefix: "9", "9.19") the plan must be */
        const char *driver;      /* the NVIDIA driver instead of the facts' */
        const char *const *gpus; /* GPUs instead of the facts' ("sm_90", "H200") */
        size_t ngpus;
        int system; /* CUDNNCTL_SYSTEM_*: HOST keeps the facts' system */
        /* Releases newer than the tables: the redist index at `index` (NULL:
         * NVIDIA's) is read with this time limit (0: 10000 ms) unless
         * offline is set; what it lists beyond the tables is named
         * (newer_than_tables), never planned. */
        int offline;
        const char *index;
        int timeout_ms;
} cudnnctl_plan_options;

/* The plan from a doctor document (this machine's, or one from another
 * machine) and the compiled-in tables (docs/json.md, command "plan"): the
 * cuDNN release and build to install, where, the exact command, and every
 * reason. -1 with CUDNNCTL_ERR_USAGE when a value given is not a version. */
CUDNNCTL_API int cudnnctl_plan(const cudnnctl_value *facts, const cudnnctl_plan_options *opts, cudnnctl_value **out,
                               cudnnctl_error *err);
CUDNNCTL_API int cudnnctl_plan_text(const cudnnctl_value *doc, int verbose, int color, char **out, cudnnctl_error *err);

/* ---- env, exec ---------------------------------------------------------- */

typedef struct cudnnctl_env_options {
        const char *install; /* the installation: an id from cudnnctl_list, a path in it, a package or
                                directory name, or a release ("9.19"); NULL only with unset */
        const char *cuda;    /* of a layout with a directory per CUDA build (bin\13.0): that build
                                (MAJOR or MAJOR.MINOR); NULL: the newest whose toolkit is there */
        int unset;           /* the changes that undo an earlier env of this environment */
} cudnnctl_env_options;

/* The changes that make one installation the cuDNN of a shell or program
 * (docs/json.md, command "env"): its library directories first on
 * LD_LIBRARY_PATH (Windows: its DLL directory and the CUDA DLLs it needs
 * first on PATH), other cuDNN directories and empty or relative entries
 * taken off, CUDNN_PATH and CUDNN_HOME set, what they replace kept in
 * CUDNNCTL_SAVED_* for unset. Read from the machine's environment.
 * CUDNNCTL_ERR_NOTFOUND when the installation cannot be chosen. */
CUDNNCTL_API int cudnnctl_env(cudnnctl_machine *m, const cudnnctl_env_options *opts, cudnnctl_value **out,
                              cudnnctl_error *err);
/* The env document's changes as commands of a shell: "sh" (also "bash",
 * "zsh", "dash", "ksh"), "fish", "cmd" (a batch file, CRLF), "powershell"
 * ("pwsh"). -1 with CUDNNCTL_ERR_USAGE for another shell, CUDNNCTL_ERR_FORMAT
 * for a value that shell cannot hold (a control character; '"' for cmd). */
CUDNNCTL_API int cudnnctl_env_script(const cudnnctl_value *doc, const char *shell, char **out, cudnnctl_error *err);
/* The shell this process was started from, as env names shells ("bash",
 * "zsh", "fish", "sh", "cmd", "powershell"), or NULL when its parent is
 * none of them. */
CUDNNCTL_API const char *cudnnctl_env_parent_shell(void);
/* Apply the env document's changes to this process's environment and run
 * argv (argv[0] searched on the new PATH) with the standard streams and
 * the current directory as they are. POSIX: the program replaces this
 * process, so this returns only when it could not be started; Windows: it
 * runs to its end and *status gets its exit status. -1 with
 * CUDNNCTL_ERR_NOTFOUND when there is no such program. */
/* Write text to path (created, or replaced when it is a file): refused
 * when path is a symbolic link or a directory (never written through). */
CUDNNCTL_API int cudnnctl_write_text(const char *path, const char *text, cudnnctl_error *err);
CUDNNCTL_API int cudnnctl_exec(const cudnnctl_value *doc, const char *const *argv, int *status, cudnnctl_error *err);

/* ---- use ---------------------------------------------------------------- */

typedef struct cudnnctl_use_options {
        const char *install; /* as cudnnctl_env takes it; NULL with none */
        const char *cuda;    /* as cudnnctl_env takes it */
        int none;            /* take cudnnctl's setting away */
        int dry_run;         /* plan and show, write nothing */
        int user;            /* this user's shells instead: the lines for the shell's start file */
        const char *shell;   /* user: the shell ("sh", "bash", "zsh", "fish"; NULL: "sh") */
        int write;           /* user: also write them into the start file as a marked block (replacing
                                one written before; with none: taking it out), one transaction */
} cudnnctl_use_options;

/* The machine's default cuDNN (docs/json.md, command "use"), Linux: the
 * installation's library directory in /etc/ld.so.conf.d/00-cudnnctl.conf,
 * written as one transaction (undone by cudnnctl_rollback of that
 * directory), then ldconfig (as root; -r for a tree), then what a plain
 * program loads for libcudnn.so.MAJOR ("loads"). Windows (this machine
 * only; CUDNNCTL_ERR_UNSUPPORTED for a --root tree): the registry's Path (user's with user, else the machine's), one
 * SETREG transaction in the state directory, then WM_SETTINGCHANGE. */
/* With user: the block of lines for the shell's start file (~/.bashrc,
 * ~/.zshrc, ~/.config/fish/config.fish, ~/.profile) in "lines", written
 * there only with write. */
CUDNNCTL_API int cudnnctl_use(cudnnctl_machine *m, const cudnnctl_use_options *o, cudnnctl_value **out,
                              cudnnctl_error *err);

/* ---- explain ----------------------------------------------------------- */

typedef struct cudnnctl_explain_options {
        int major;        /* 8 or 9: read bare cuDNN status numbers in that numbering; 0: infer them */
        int system;       /* CUDNNCTL_SYSTEM_LINUX / _WINDOWS: that system's messages first, and on Linux
                             no Windows reading of bare numbers; HOST (0): no preference */
        size_t input_len; /* the bytes of input (it may hold NUL bytes); 0: strlen(input) */
} cudnnctl_explain_options;

/* What an error means (docs/json.md, command "explain"): input is a cuDNN
 * status name or number (either numbering), a CUDA error, a Windows loader
 * error (126, "WinError 126", "Error code 193", 0x7E) or a whole pasted
 * message or log. Every recogniser that matches is a match, most specific
 * first, with its meaning, likely causes, the cudnnctl commands that show
 * which cause applies, the fix and the source (the kb tables catalog,
 * messages, status, cuda_errors, winerrors). Nothing recognised is a
 * result (no matches, maybe suggestions), not an error. */
CUDNNCTL_API int cudnnctl_explain(const char *input, const cudnnctl_explain_options *opts, cudnnctl_value **out,
                                  cudnnctl_error *err);
CUDNNCTL_API int cudnnctl_explain_text(const cudnnctl_value *doc, int verbose, int color, char **out,
                                       cudnnctl_error *err);

/* Internal: the probe child's entry (`cudnnctl __probe KIND ...`). argv[0]
 * is the kind. Only ever called by the program in a child process. */
CUDNNCTL_API int cudnnctl_probe_child(int argc, char **argv);

/* For a program whose every child process comes from this library, once at
 * its start: every child process the library starts (and what those start)
 * is ended and every temporary directory it makes is removed however the
 * program ends: at exit(), and on SIGINT, SIGTERM, SIGHUP, SIGQUIT or SIGPIPE
 * (Windows: Ctrl+C, Ctrl+Break, closing the console), after which the signal
 * ends the process as it would have. On Linux the process becomes the
 * reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER). */
CUDNNCTL_API int cudnnctl_cleanup_install(cudnnctl_error *err);
/* End those children and remove those directories now. */
CUDNNCTL_API void cudnnctl_cleanup(void);

/* ---- inspect --------------------------------------------------------- */

enum {
        CUDNNCTL_INSPECT_NO_ARCHIVE_MEMBERS = 1, /* list archives, do not parse members */
        CUDNNCTL_INSPECT_SYMBOLS = 2,            /* list every exported symbol ("exports"), not only the count */
};

/* What one run has read: a file (device, inode) is read once per run, and a
 * later path to the same file (a hard link, another link to it) gets kind
 * "same-file" with "same_file_as" instead of its facts again. */
typedef struct cudnnctl_inspect_run cudnnctl_inspect_run;
CUDNNCTL_API cudnnctl_inspect_run *cudnnctl_inspect_run_new(cudnnctl_error *err);
CUDNNCTL_API void cudnnctl_inspect_run_free(cudnnctl_inspect_run *run);

typedef struct cudnnctl_inspect_options {
        const char *root; /* treat this directory as "/" (NULL: the real root) */
        unsigned flags;
        size_t max_dir_entries; /* per directory walk; 0: default (20000) */
        int system;             /* CUDNNCTL_SYSTEM_*: how paths inside root are written and matched */
        /* Shared by the calls of one run (NULL: each call is a run of its own). */
        cudnnctl_inspect_run *run;
} cudnnctl_inspect_options;

/* Static facts of one path (file of any kind, directory, archive). Never
 * loads the file. On success *out is an object documented in docs/json.md
 * ("kind", "path", and the facts of that kind). A file that can be opened but
 * not parsed still succeeds: its facts carry "error". -1 only when the path
 * itself cannot be read at all. */
CUDNNCTL_API int cudnnctl_inspect(const char *path, const cudnnctl_inspect_options *opts, cudnnctl_value **out,
                                  cudnnctl_error *err);

/* Human-readable text for the result of cudnnctl_inspect. */
CUDNNCTL_API int cudnnctl_inspect_text(const cudnnctl_value *facts, int color, char **out, cudnnctl_error *err);

#ifdef __cplusplus
}
#endif

#endif
