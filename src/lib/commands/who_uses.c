/* cudnnctl_who_uses: the processes that have a library of a file, a
 * directory or an installation mapped (docs/json.md, command "who-uses");
 * cc_who_uses_files, the same question for the files install and uninstall
 * would replace or remove. The processes are the platform layer's
 * (cc_proc_mappers); this file says which files are asked about. */
#include "who_uses.h"

#include "../facts/views.h"
#include "../machine/machine.h"
#include "../platform/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CC_WHO_MAX_FILES 4096 /* library files asked about, by default */
#define CC_WHO_MAX_DIRS 10000 /* directories a walk lists at most */
#define CC_WHO_MAX_DEPTH 32   /* and how deep it goes */

static const struct {
        unsigned bit;
        const char *name;
} seen_names[] = {
    {CC_SEEN_MAPS, "maps"},       {CC_SEEN_MAP_FILES, "map_files"},         {CC_SEEN_DELETED, "deleted"},
    {CC_SEEN_MODULES, "modules"}, {CC_SEEN_RESTART_MGR, "restart-manager"},
};

int cc_who_uses_files(const char *const *paths, size_t n, cc_value **doc_out, cc_error *err)
{
        cc_proc_users u;
        cc_value *doc = NULL, *users = NULL;
        size_t i, k;

        *doc_out = NULL;
        if (cc_proc_mappers(paths, n, &u, err) < 0)
                return -1;
        doc = cc_v_object(err);
        users = cc_v_array(err);
        if (doc == NULL || users == NULL)
                goto fail;
        for (i = 0; i < u.n; i++) {
                const cc_proc_user *p = &u.v[i];
                cc_value *e = cc_v_object(err), *seen = cc_v_array(err);

                if (e == NULL || seen == NULL || cc_v_push(users, e, err) < 0) {
                        cc_v_free(e);
                        cc_v_free(seen);
                        goto fail;
                }
                for (k = 0; k < CC_ARRAY_LEN(seen_names); k++)
                        if ((p->how & seen_names[k].bit) &&
                            cc_v_push(seen, cc_v_str(seen_names[k].name, err), err) < 0) {
                                cc_v_free(seen);
                                goto fail;
                        }
                TRY(cc_v_set_int(e, CC_K(who_user, pid), p->pid, err));
                TRY(cc_v_set_str(e, CC_K(who_user, name), p->name, err));
                TRY(cc_v_set_str(e, CC_K(who_user, cmdline), p->cmdline, err));
                TRY(cc_v_set_str(e, CC_K(who_user, file), paths[p->file], err));
                TRY(cc_v_set(e, CC_K(who_user, seen), seen, err));
                /* only a deleted file of that name, not the file there now */
                TRY(cc_v_set_bool(e, CC_K(who_user, deleted), p->how == CC_SEEN_DELETED, err));
        }
        TRY(cc_v_set(doc, CC_K(who_scan, users), users, err));
        users = NULL;
        TRY(cc_v_set_int(doc, CC_K(who_scan, processes), (int64_t)u.scanned, err));
        TRY(cc_v_set_int(doc, CC_K(who_scan, unreadable), (int64_t)u.unreadable, err));
        TRY(cc_v_set(doc, CC_K(who_scan, notes), cc_v_strv(&u.notes, err), err));
        cc_proc_users_free(&u);
        *doc_out = doc;
        return 0;
fail:
        cc_proc_users_free(&u);
        cc_v_free(users);
        cc_v_free(doc);
        return -1;
}

/* ---- which files a command-line target stands for ------------------------ */

struct files {
        cc_strv v;    /* canonical paths, first seen first */
        cc_smap seen; /* the same, for dedup */
        size_t max;
        int truncated;
        size_t dirs;          /* directories listed */
        cc_strv gone;         /* paths asked about that do not exist (in v too) */
        cc_strv gone_queries; /* as given */
};

/* A shared library's name: *.so, *.so.N[.M...], *.dll. */
static int is_library_name(const char *name)
{
        const char *p;

        if (cc_ends_with_nocase(name, ".dll"))
                return 1;
        for (p = strstr(name, ".so"); p != NULL; p = strstr(p + 1, ".so")) {
                const char *q = p + 3;

                if (*q == '\0')
                        return 1;
                if (*q != '.' || q[1] == '\0')
                        continue;
                while (*q == '.' || (*q >= '0' && *q <= '9'))
                        q++;
                if (*q == '\0')
                        return 1;
        }
        return 0;
}

/* Add a file by its canonical path (a link is asked about as the file it
 * leads to: that is what a process maps). 0 also when it is no regular file. */
static int add_file(struct files *f, const char *path, cc_error *err)
{
        cc_stat st;
        char *real, id[48];
        uint64_t dev = 0, ino = 0;
        void *old;

        if (cc_stat_path(path, &st, NULL) < 0 || st.type != CC_FT_FILE)
                return 0;
        real = cc_realpath(path, NULL);
        if (real == NULL)
                return 0;
        /* one file once, whatever its names (hard links): by identity where the system tells it */
        if (cc_fs_identity(real, &dev, &ino, NULL) == 0 && (dev || ino))
                snprintf(id, sizeof(id), "\n%llx:%llx", (unsigned long long)dev, (unsigned long long)ino);
        else
                id[0] = '\0';
        if (cc_smap_get(&f->seen, real, &old) || (id[0] && cc_smap_get(&f->seen, id, &old))) {
                free(real);
                return 0;
        }
        if (f->v.n >= f->max) {
                f->truncated = 1;
                free(real);
                return 0;
        }
        if (cc_smap_put(&f->seen, real, (void *)1, NULL, err) < 0 ||
            (id[0] && cc_smap_put(&f->seen, id, (void *)1, NULL, err) < 0) || cc_strv_push(&f->v, real, err) < 0) {
                free(real);
                return -1;
        }
        free(real);
        return 0;
}

/* Every library file below dir (links to directories are not followed:
 * no loops, no walking out of the tree). */
static int walk(struct files *f, const char *dir, int depth, cc_error *err)
{
        cc_strv names = {0};
        size_t i;
        int more = 0, rv = -1;

        if (depth > CC_WHO_MAX_DEPTH || f->dirs >= CC_WHO_MAX_DIRS || f->v.n >= f->max) {
                f->truncated = 1;
                return 0;
        }
        f->dirs++;
        if (cc_list_dir_some(dir, 20000, &names, &more, NULL) < 0)
                return 0; /* unreadable: nothing of it can be asked about */
        if (more)
                f->truncated = 1;
        for (i = 0; i < names.n; i++) {
                char *p = cc_path_join(dir, names.v[i], err);
                cc_stat st;

                if (p == NULL)
                        goto done;
                if (cc_lstat_path(p, &st, NULL) == 0) {
                        if (st.type == CC_FT_DIR) {
                                if (walk(f, p, depth + 1, err) < 0) {
                                        free(p);
                                        goto done;
                                }
                        } else if ((st.type == CC_FT_FILE || st.type == CC_FT_LINK) && is_library_name(names.v[i]) &&
                                   add_file(f, p, err) < 0) {
                                free(p);
                                goto done;
                        }
                }
                free(p);
        }
        rv = 0;
done:
        cc_strv_free(&names);
        return rv;
}

/* The library files of an installation of `list`, through its FILE views. */
static int inst_files(struct files *f, const cc_value *inst, cc_error *err)
{
        cc_vw_installation in;
        size_t i;

        cc_vw_installation_read(inst, &in, NULL);
        for (i = 0; i < cc_v_len(in.files); i++) {
                cc_vw_file fv;
                const char *p;

                if (cc_vw_file_at(in.files, i, &fv, NULL) < 0 || fv.kind == NULL ||
                    (strcmp(fv.kind, "shared-library") != 0 && strcmp(fv.kind, "dll") != 0))
                        continue;
                p = fv.type != NULL && strcmp(fv.type, "symlink") == 0 ? fv.resolves_to : fv.path;
                if (p != NULL && add_file(f, p, err) < 0)
                        return -1;
        }
        return 0;
}

/* The installation of list whose prefix (or one of its aliases) is dir. */
static const cc_value *inst_at(cc_machine *m, const cc_value *list, const char *dir)
{
        cc_vw_list_doc ld;
        size_t i, k;

        cc_vw_list_doc_read(list, &ld, NULL);
        for (i = 0; i < cc_v_len(ld.installations); i++) {
                cc_vw_installation in;

                if (cc_vw_installation_at(ld.installations, i, &in, NULL) < 0)
                        continue;
                if (in.prefix && cc_tree_path_eq(m->tree, in.prefix, dir))
                        return cc_v_at(ld.installations, i);
                for (k = 0; k < cc_v_len(in.aliases); k++) {
                        const char *a = cc_v_as_str(cc_v_at(in.aliases, k));
                        char *real = a ? cc_realpath(a, NULL) : NULL;
                        int same = real && cc_tree_path_eq(m->tree, real, dir);

                        free(real);
                        if (same)
                                return cc_v_at(ld.installations, i);
                }
        }
        return NULL;
}

static int all_digits(const char *s)
{
        if (*s == '\0')
                return 0;
        for (; *s; s++)
                if (*s < '0' || *s > '9')
                        return 0;
        return 1;
}

/* One target: what it is, and its files into f. */
static int target(cc_machine *m, const char *q, struct files *f, cc_value **list, cc_value *targets, cc_error *err)
{
        cc_value *t = NULL, *named = NULL;
        const cc_value *inst = NULL;
        int unlisted = 0;
        char *abs = NULL, *real = NULL;
        const char *kind, *path;
        size_t before = f->v.n;
        int was_truncated = f->truncated, rv = -1;
        int64_t id = 0;
        cc_stat st;

        memset(&st, 0, sizeof(st));
        f->truncated = 0;
        if (all_digits(q)) {
                cc_vw_list_doc ld;

                if (*list == NULL && cudnnctl_list(m, NULL, list, err) < 0)
                        goto fail;
                cc_vw_list_doc_read(*list, &ld, NULL);
                id = strlen(q) > 9 ? 0 : atol(q);
                if (id < 1 || (size_t)id > cc_v_len(ld.installations)) {
                        cc_err(err, CC_ERR_NOTFOUND, "installation %s: 'cudnnctl list' found %zu", q,
                               cc_v_len(ld.installations));
                        goto fail;
                }
                inst = cc_v_at(ld.installations, (size_t)id - 1);
        } else {
                abs = cc_machine_abs(m, q, err);
                if (abs == NULL)
                        goto fail;
                if (cc_stat_path(abs, &st, err) < 0)
                        goto fail;
                /* a file that is gone may still be mapped (a deleted file of that
                 * path): asked about as it is; nobody mapping it makes it a
                 * missing file after all (cudnnctl_who_uses) */
                if (st.type == CC_FT_NONE) {
                        if (cc_strv_push(&f->gone, abs, err) < 0 || cc_strv_push(&f->gone_queries, q, err) < 0 ||
                            (!cc_strv_contains(&f->v, abs) && cc_strv_push(&f->v, abs, err) < 0))
                                goto fail;
                        kind = "file";
                        path = abs;
                        goto record;
                }
                real = cc_realpath(abs, err);
                if (real == NULL)
                        goto fail;
                if (st.type == CC_FT_DIR) {
                        /* an installation's prefix stands for its cuDNN files: one
                         * `list` finds, or one it finds when told to look there
                         * (then it has no id of `list`) */
                        cudnnctl_list_options lo;
                        const char *roots[1];

                        if (*list == NULL && cudnnctl_list(m, NULL, list, err) < 0)
                                goto fail;
                        inst = inst_at(m, *list, real);
                        if (inst == NULL) {
                                roots[0] = real;
                                memset(&lo, 0, sizeof(lo));
                                lo.extra_roots = roots;
                                lo.nextra_roots = 1;
                                if (cudnnctl_list(m, &lo, &named, err) < 0)
                                        goto fail;
                                inst = inst_at(m, named, real);
                                unlisted = inst != NULL;
                        }
                } else if (st.type != CC_FT_FILE) {
                        cc_err(err, CC_ERR_UNSUPPORTED, "%s: not a file or a directory", q);
                        goto fail;
                }
        }
        if (inst != NULL) {
                cc_vw_installation in;

                cc_vw_installation_read(inst, &in, NULL);
                id = unlisted ? 0 : in.id;
                kind = "installation";
                path = in.prefix;
                if (inst_files(f, inst, err) < 0)
                        goto fail;
        } else if (st.type == CC_FT_DIR) {
                kind = "directory";
                path = real;
                if (walk(f, real, 0, err) < 0)
                        goto fail;
        } else {
                kind = "file";
                path = real;
                if (add_file(f, real, err) < 0)
                        goto fail;
        }
record:
        t = cc_v_object(err);
        if (t == NULL)
                goto fail;
        TRY(cc_v_set_str(t, CC_K(who_target, query), q, err));
        TRY(cc_v_set_str(t, CC_K(who_target, kind), kind, err));
        TRY(cc_v_set_str(t, CC_K(who_target, path), path, err));
        TRY(cc_v_set(t, CC_K(who_target, installation), id ? cc_v_int(id, err) : cc_v_null(err), err));
        TRY(cc_v_set_int(t, CC_K(who_target, files), (int64_t)(f->v.n - before), err));
        TRY(cc_v_set_bool(t, CC_K(who_target, truncated), f->truncated, err));
        TRY(cc_v_push(targets, t, err));
        t = NULL;
        rv = 0;
fail:
        f->truncated |= was_truncated;
        cc_v_free(t);
        cc_v_free(named);
        free(abs);
        free(real);
        return rv;
}

int cudnnctl_who_uses(cudnnctl_machine *m, const char *const *queries, size_t nq, const cudnnctl_who_uses_options *opts,
                      cudnnctl_value **out, cudnnctl_error *err)
{
        struct files f;
        cc_value *doc = NULL, *targets = NULL, *scan = NULL, *list = NULL, *qv = NULL;
        cc_vw_who_scan sv;
        size_t i;
        int rv = -1;

        if (out == NULL || m == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_who_uses: no machine or no place for the result");
        *out = NULL;
        if (nq == 0 || queries == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_who_uses: no file or installation given");
        /* the processes are this machine's: a tree under --root is not what they map */
        if (!m->live || (m->system == CC_SYS_WINDOWS) != cc_host_is_windows())
                return cc_err(err, CC_ERR_UNSUPPORTED,
                              "who-uses looks at the processes running on this machine: not with --root or another "
                              "--system");
        memset(&f, 0, sizeof(f));
        f.max = opts != NULL && opts->max_files > 0 ? opts->max_files : CC_WHO_MAX_FILES;
        targets = cc_v_array(err);
        qv = cc_v_array(err);
        if (targets == NULL || qv == NULL)
                goto fail;
        for (i = 0; i < nq; i++) {
                TRY(cc_v_push(qv, cc_v_str(queries[i], err), err));
                TRY(target(m, queries[i], &f, &list, targets, err));
        }
        TRY(cc_who_uses_files((const char *const *)f.v.v, f.v.n, &scan, err));
        doc = cc_doc_new("who-uses", m, err);
        if (doc == NULL)
                goto fail;
        TRY(cc_v_set(doc, CC_K(who_doc, queries), qv, err));
        qv = NULL;
        TRY(cc_v_set(doc, CC_K(who_doc, targets), targets, err));
        targets = NULL;
        TRY(cc_v_set(doc, CC_K(who_doc, files), cc_v_strv(&f.v, err), err));
        cc_vw_who_scan_read(scan, &sv, NULL);
        for (i = 0; i < f.gone.n; i++) {
                size_t k;
                int mapped = 0;

                for (k = 0; k < cc_v_len(sv.users) && !mapped; k++) {
                        cc_vw_who_user u;

                        mapped = cc_vw_who_user_at(sv.users, k, &u, NULL) == 0 && u.file != NULL &&
                                 strcmp(u.file, f.gone.v[i]) == 0;
                }
                if (!mapped) {
                        cc_err(err, CC_ERR_NOTFOUND, "%s: no such file or directory", f.gone_queries.v[i]);
                        goto fail;
                }
        }
        TRY(cc_v_set_str(doc, CC_K(who_doc, verdict), cc_v_len(sv.users) > 0 ? "in-use" : "not-in-use", err));
        /* the scan's members after the document's own, in their order */
        while (cc_v_len(scan) > 0) {
                char *key = cc_strdup(err, cc_v_key_at(scan, 0));

                if (key == NULL)
                        goto fail;
                if (cc_v_set(doc, key, cc_v_take(scan, key), err) < 0) {
                        free(key);
                        goto fail;
                }
                free(key);
        }
        *out = doc;
        doc = NULL;
        rv = 0;
fail:
        cc_v_free(doc);
        cc_v_free(targets);
        cc_v_free(qv);
        cc_v_free(scan);
        cc_v_free(list);
        cc_strv_free(&f.v);
        cc_strv_free(&f.gone);
        cc_strv_free(&f.gone_queries);
        cc_smap_free(&f.seen);
        return rv;
}
