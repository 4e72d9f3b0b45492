/* The dependency walk behind cudnnctl_deps (walk.c), shared with the
 * command (commands/deps.c), which sets it up (the loader contexts, the
 * target, the interpreter and preloads as the first nodes), expands the
 * nodes breadth first, like ld.so, and makes the document of them. */
#ifndef CC_RESOLVE_WALK_H
#define CC_RESOLVE_WALK_H

#include "resolve.h"

/* One object of the tree: a file the loader would map. */
struct cc_dnode {
        char *path;     /* virtual, as loaded */
        char *realpath; /* canonical */
        char *soname;
        cc_strv names; /* names that match it as "already loaded" */
        int depth;
        size_t parent; /* (size_t)-1 for the root and the interpreter */
        int interp;
        cc_lnx_obj obj;  /* Linux: its RPATH/RUNPATH/origin */
        cc_strv needed;  /* DT_NEEDED or imports */
        cc_strv delay;   /* delay imports */
        cc_strv runtime; /* run-time loads: "name\tsource" */
        char *error;     /* the file could not be read */
        cc_value *edges;
        int expanded;
        int preload;        /* LD_PRELOAD / /etc/ld.so.preload */
        int program;        /* Linux: the main program (its $ORIGIN: cc_lnx_program_origin) */
        int standard;       /* Windows: loaded by a plain LoadLibrary (a run-time load), so its own imports
                               are searched in the standard order whatever the top-level mode */
        size_t load_root;   /* Windows: the DLL whose directory is the DLL load directory for this node's
                               imports (the one named in the LoadLibraryEx call) */
        int release[3];     /* Linux, cuDNN 9's shim and graph library: the release its code names what it
                               loads by (formats/loadnames.h); release[0] 0: not read */
        cc_value *versions; /* what the walk's on_bytes made of its bytes (NULL: nothing) */
};

/* One walk: the machine, its loader contexts, the nodes in load order and
 * the counts and notes the document reports. */
struct cc_walk {
        cc_machine *m;
        const cudnnctl_deps_options *opts;
        cc_lnx_ctx *lc;
        cc_win_ctx *wc;
        cc_win_ctx *wc_std; /* the standard order, for run-time loads (NULL: wc is already standard) */
        struct cc_dnode *nodes;
        size_t n, cap;
        int max_depth;
        size_t missing, runtime_missing, failed, edges, unreadable;
        int cuda_major; /* from run-time names and RUNPATHs, for "libnvrtc.so.%d"; -1 unknown */
        cc_strv notes;
        /* Called with each node's bytes while the walk has them mapped (the
         * caller's reading of the same file without mapping it again): sets
         * d->versions or leaves it NULL; -1 only when out of memory. The
         * versions are dropped when the file changed while read. */
        int (*on_bytes)(struct cc_walk *w, struct cc_dnode *d, const uint8_t *data, size_t size, cc_error *err);
};

/* Append a node (path copied); NULL when out of memory or over the node
 * limit. The pointer is valid until the next node is added. */
struct cc_dnode *cc_walk_add_node(struct cc_walk *w, const char *path, int depth, size_t parent, cc_error *err);
/* Another name that matches node d as "already loaded". */
int cc_walk_add_name(struct cc_walk *w, struct cc_dnode *d, const char *name, cc_error *err);
/* The node loaded already under name, or with that canonical path (either
 * may be NULL); (size_t)-1 if none. */
size_t cc_walk_find_loaded(const struct cc_walk *w, const char *name, const char *realpath);
/* Read node i and resolve its edges (adding the nodes they find), once. */
int cc_walk_expand(struct cc_walk *w, size_t i, cc_error *err);
/* Free the nodes, the notes and the loader contexts; *w is left empty. */
void cc_walk_free(struct cc_walk *w);

#endif
