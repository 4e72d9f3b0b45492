/* The machine a command looks at: a file tree (live or --root), the system
 * whose rules apply (--system), its environment (the process's, or with
 * --root an empty one filled from --env FILE and --set VAR=VALUE), and its
 * current directory. Everything that reads the machine takes one of these,
 * so every system input can be injected and tests are hermetic. */
#ifndef CC_MACHINE_MACHINE_H
#define CC_MACHINE_MACHINE_H

#include "env.h"
#include "tree.h"

#include "../value.h"

struct cudnnctl_machine {
        cc_tree *tree;
        cc_env env;
        int system;             /* CC_SYS_LINUX / CC_SYS_WINDOWS */
        int live;               /* the running machine itself (no --root): the registry, the CPU and
                                   the process's current directory are its own */
        char *cwd;              /* absolute virtual path of the current directory */
        const char *cwd_source; /* "process", "PWD", "CD", "default" */
        cc_strv notes;          /* how this view was set up, one line each */
        cc_smap elf_cache;      /* internal: resolve/linux.c keeps parsed objects here */
        void (*elf_cache_free)(void *ctx, const char *key, void *value);
        /* internal: while share_discovery is on (discover.c, cc_discover_share),
         * the machine-wide discovery is made once and lent to each command */
        int share_discovery;
        void *shared_discovery;
        void (*shared_discovery_free)(void *d);
};
typedef struct cudnnctl_machine cc_machine;

/* A virtual path made absolute against the machine's current directory. */
char *cc_machine_abs(const cc_machine *m, const char *vpath, cc_error *err);
/* The environment variable, or NULL. */
const char *cc_machine_getenv(const cc_machine *m, const char *key);
/* s with its %NAME% references replaced from the machine's environment, as
 * Windows' ExpandEnvironmentStrings does: a reference to a variable that is
 * not set stays as written, and the scan goes on from its closing '%'. With
 * strict, NULL (err untouched) when one is not set instead. Caller frees. */
char *cc_machine_expand(const cc_machine *m, const char *s, int strict, cc_error *err);
/* A second view of a live machine, for a thread of its own: the same
 * system, environment and current directory over a tree of its own (a
 * tree's caches are not shared across threads). Nothing else is copied:
 * its notes, the parsed objects and the machine-wide discovery start empty.
 * A --root machine is not cloned (CC_ERR_USAGE): its commands run no child
 * that a thread would wait for. */
int cc_machine_clone_live(const cc_machine *m, cc_machine **out, cc_error *err);
/* How many children a command runs at once, at most max: the CPUs, or
 * CUDNNCTL_JOBS=N (1: one after another, and the doctor's areas too); 1 on
 * Windows. */
int cc_machine_jobs(const cc_machine *m, int max);
/* The machine's setup as facts: system, root, live, cwd and its source,
 * environment source, notes. */
cc_value *cc_machine_facts(const cc_machine *m, cc_error *err);

/* A new result document: schema_version, tool, tool_version, command and
 * the machine's facts. */
cc_value *cc_doc_new(const char *command, const cc_machine *m, cc_error *err);

/* Split a search-path list (PATH, LD_LIBRARY_PATH): ':' on Linux, ';' on
 * Windows. Empty entries are kept as "" (they mean the current directory to
 * the Linux loader). At most max entries (more is CC_ERR_LIMIT). */
int cc_split_pathlist(const char *s, char sep, size_t max, cc_strv *out, cc_error *err);
/* The same at any of the bytes of seps; and the separators of a search-path
 * variable of a system (LD_LIBRARY_PATH on Linux: ":;", as ld.so splits it). */
int cc_split_pathlist_any(const char *s, const char *seps, size_t max, cc_strv *out, cc_error *err);
const char *cc_pathlist_seps(int system, const char *var);

/* The Linux driver's libcuda.so files of the machine's tree, where the
 * drivers put them (distributions, NVIDIA's .run, containers, WSL),
 * appended to out (at most max per place). -1 only when out of memory. */
int cc_machine_libcuda_files(cc_machine *m, size_t max, cc_strv *out, cc_error *err);

#endif
