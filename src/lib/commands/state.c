/* The machine's record of its transactions (change.h), and the directory
 * helpers of the writing commands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../facts/views.h"
#include "../platform/platform.h"
#include "../txn/txn.h"
#include "change.h"
#include "who_uses.h"

#define STATE_FILE "transactions.tsv"
#define MAX_STATE (8u << 20)

int cc_mkdir_p(const char *dir, cc_strv *made, cc_error *err)
{
        char *d = cc_strdup(err, dir), *p;
        int rc = 0;

        if (d == NULL)
                return -1;
        for (p = d + 1; rc == 0; p++) {
                char c = *p;
                cc_stat st;

                if (c != '/' && c != '\\' && c != '\0')
                        continue;
                if (p > d && p[-1] == ':') /* "C:\" */
                        continue;
                *p = '\0';
                rc = cc_lstat_path(d, &st, err);
                if (rc == 0 && st.type == CC_FT_NONE) {
                        rc = cc_fs_mkdir(d, 0755, err);
                        if (rc == 0 && made != NULL)
                                rc = cc_strv_push(made, d, err);
                } else if (rc == 0 && st.type != CC_FT_DIR) {
                        rc = cc_err(err, CC_ERR_IO, "%s: not a directory", d);
                }
                *p = c;
                if (c == '\0')
                        break;
        }
        free(d);
        return rc;
}

void cc_unmake_dirs(const cc_strv *made)
{
        size_t i;

        for (i = made->n; i-- > 0;) {
                cc_error ignored = {0};

                if (cc_fs_rmdir(made->v[i], &ignored) < 0)
                        break;
        }
}

/* The host path of vpath in a tree, when its last directories are not
 * there yet (they are made when a record is written): the nearest one that
 * is, resolved in the tree, and the rest as named. */
static char *tree_host_new(cc_machine *m, const char *vpath, cc_error *err)
{
        char *dir = cc_strdup(err, vpath), *host = NULL, *out;
        const char *rest;
        size_t cut = strlen(vpath);

        if (dir == NULL)
                return NULL;
        for (;;) {
                cc_stat st;
                char *up;

                if (cc_tree_stat(m->tree, dir, &st, NULL) == 0 && st.type == CC_FT_DIR) {
                        host = cc_tree_host(m->tree, dir, err);
                        break;
                }
                up = cc_tree_dirname(m->tree, dir, err);
                if (up == NULL || strlen(up) >= strlen(dir)) {
                        free(up);
                        if (up != NULL)
                                cc_err(err, CC_ERR_NOTFOUND, "%s: not in the tree", vpath);
                        break;
                }
                cut = strlen(up);
                free(dir);
                dir = up;
        }
        free(dir);
        if (host == NULL)
                return NULL;
        rest = vpath + cut;
        while (*rest == '/' || *rest == '\\')
                rest++;
        out = *rest ? cc_asprintf(err, "%s/%s", host, rest) : cc_strdup(err, host);
        free(host);
        for (char *p = out; p != NULL && *p; p++)
                if (*p == '\\' && m->system == CC_SYS_WINDOWS && cc_tree_root(m->tree) != NULL)
                        *p = '/';
        return out;
}

char *cc_state_dir(cc_machine *m, cc_error *err)
{
        int w = m->system == CC_SYS_WINDOWS;
        const char *v = cc_machine_getenv(m, "CUDNNCTL_STATE_DIR");

        /* set: the tests (and whoever wants the record elsewhere) */
        if (v != NULL && v[0] != '\0')
                return m->live ? cc_strdup(err, v) : tree_host_new(m, v, err);
        if (!m->live)
                return tree_host_new(m, w ? "C:\\ProgramData\\cudnnctl" : "/var/lib/cudnnctl", err);
        if (cc_is_admin()) {
                if (!w)
                        return cc_strdup(err, "/var/lib/cudnnctl");
                v = cc_machine_getenv(m, "ProgramData");
                return cc_asprintf(err, "%s\\cudnnctl", v && *v ? v : "C:\\ProgramData");
        }
        if (w) {
                v = cc_machine_getenv(m, "LOCALAPPDATA");
                if (v == NULL || *v == '\0')
                        return cc_err(err, CC_ERR_NOTFOUND, "LOCALAPPDATA is not set: no state directory"), NULL;
                return cc_asprintf(err, "%s\\cudnnctl", v);
        }
        v = cc_machine_getenv(m, "XDG_STATE_HOME");
        if (v != NULL && v[0] == '/')
                return cc_asprintf(err, "%s/cudnnctl", v);
        v = cc_machine_getenv(m, "HOME");
        if (v == NULL || v[0] != '/')
                return cc_err(err, CC_ERR_NOTFOUND, "HOME is not set: no state directory"), NULL;
        return cc_asprintf(err, "%s/.local/state/cudnnctl", v);
}

/* A field of the record: tabs and line ends would break it. */
static int clean_field(const char *s)
{
        return strpbrk(s, "\t\r\n") == NULL;
}

int cc_state_record(cc_machine *m, const char *vtarget, const char *id, const char *label, cc_error *err)
{
        char *dir = cc_state_dir(m, err), *file = NULL, *line = NULL;
        int rc = -1;

        if (dir == NULL)
                return -1;
        if (!clean_field(vtarget) || !clean_field(id) || !clean_field(label)) {
                rc = cc_err(err, CC_ERR_USAGE, "%s: a tab or a line end in the name: not recorded", vtarget);
                goto out;
        }
        file = cc_asprintf(err, "%s/%s", dir, STATE_FILE);
        line = cc_asprintf(err, "%s\t%s\t%s\n", id, label, vtarget);
        if (file == NULL || line == NULL)
                goto out;
        TRY(cc_mkdir_p(dir, NULL, err));
        TRY(cc_fs_append_synced(file, line, err));
        rc = 0;
fail:
out:
        free(dir);
        free(file);
        free(line);
        return rc;
}

char *cc_state_last_target(cc_machine *m, cc_error *err)
{
        char *dir = cc_state_dir(m, err), *file = NULL, *text = NULL, *last = NULL, *p, *nl;
        size_t len = 0;
        cc_error e2 = {0};

        if (dir == NULL)
                return NULL;
        file = cc_asprintf(err, "%s/%s", dir, STATE_FILE);
        if (file == NULL)
                goto out;
        if (cc_read_file(file, MAX_STATE, &text, &len, &e2) < 0) {
                cc_err(err, CC_ERR_NOTFOUND, "no transaction recorded on this machine (%s): name the target", file);
                goto out;
        }
        for (p = text; (nl = memchr(p, '\n', len - (size_t)(p - text))) != NULL; p = nl + 1) {
                char *t1 = memchr(p, '\t', (size_t)(nl - p)),
                     *t2 = t1 ? memchr(t1 + 1, '\t', (size_t)(nl - t1 - 1)) : NULL;

                if (t2 != NULL && nl > t2 + 1) {
                        free(last);
                        last = cc_strndup(err, t2 + 1, (size_t)(nl - t2 - 1));
                        if (last == NULL)
                                goto out;
                }
        }
        if (last == NULL)
                cc_err(err, CC_ERR_NOTFOUND, "no transaction recorded on this machine (%s): name the target", file);
out:
        free(dir);
        free(file);
        free(text);
        return last;
}

int cc_in_use(cc_machine *m, const char *host, const cc_txn_op *ops, size_t n, cc_strv *lines, cc_error *err)
{
        cc_strv files = {0};
        cc_value *doc = NULL;
        cc_vw_who_scan ws;
        size_t i;
        int rc = -1;

        if (!m->live)
                return 0; /* another machine's tree: its processes are not these */
        for (i = 0; i < n; i++)
                if ((ops[i].kind == CC_TXN_REPLACE || ops[i].kind == CC_TXN_REMOVE) && ops[i].link == NULL &&
                    cc_strv_pushf(&files, 0, err, "%s/%s", host, ops[i].path) < 0)
                        goto out;
        if (files.n == 0) {
                rc = 0;
                goto out;
        }
        TRY(cc_who_uses_files((const char *const *)files.v, files.n, &doc, err));
        cc_vw_who_scan_read(doc, &ws, NULL);
        for (i = 0; i < cc_v_len(ws.users); i++) {
                cc_vw_who_user u;

                cc_vw_who_user_at(ws.users, i, &u, NULL);
                TRY(cc_strv_pushf(lines, 0, err, "%s: mapped by process %lld (%s)", u.file ? u.file : "?",
                                  (long long)u.pid, u.name ? u.name : "name unknown"));
        }
        if (ws.unreadable > 0)
                TRY(cc_strv_pushf(lines, 0, err,
                                  "%lld processes could not be read (another user's): root sees them all",
                                  (long long)ws.unreadable));
        rc = 0;
fail:
out:
        cc_v_free(doc);
        cc_strv_free(&files);
        return rc;
}

cc_value *cc_result_new(const char *status, const char *txn, const char *error, int undo_failed, const char *manifest,
                        const char *use, cc_error *err)
{
        cc_value *r = cc_v_object(err);

        if (r == NULL)
                return NULL;
        if (cc_v_set_str(r, CC_K(install_result, status), status, err) < 0 ||
            cc_v_set_str(r, CC_K(install_result, transaction), txn, err) < 0 ||
            cc_v_set_str(r, CC_K(install_result, error), error, err) < 0 ||
            cc_v_set_bool(r, CC_K(install_result, undo_failed), undo_failed, err) < 0 ||
            cc_v_set_str(r, CC_K(install_result, manifest), manifest, err) < 0 ||
            cc_v_set_str(r, CC_K(install_result, use), use, err) < 0) {
                cc_v_free(r);
                return NULL;
        }
        return r;
}

char *cc_ldconfig_spawn(const char *root, int *found, cc_error *err)
{
        static const char *const progs[] = {"/sbin/ldconfig", "/usr/sbin/ldconfig"};
        cc_error e2 = {0};
        size_t i;

        *found = 0;
        for (i = 0; i < CC_ARRAY_LEN(progs); i++) {
                const char *argv[] = {progs[i], root ? "-r" : NULL, root, NULL};
                cc_spawn_opts so;
                cc_spawn_result r;
                cc_stat st;
                char *out;

                if (cc_stat_path(progs[i], &st, &e2) < 0 || st.type != CC_FT_FILE)
                        continue;
                *found = 1;
                memset(&so, 0, sizeof(so));
                memset(&r, 0, sizeof(r));
                so.argv = argv;
                so.timeout_ms = 120000;
                if (cc_spawn_run(&so, &r, &e2) < 0) {
                        out = cc_asprintf(err, "failed: %s", e2.msg);
                } else if (r.exited && r.exit_code == 0) {
                        out = cc_strdup(err, "ran");
                } else {
                        char *how = cc_spawn_describe(&r, err);

                        out = cc_asprintf(err, "failed: ldconfig %s%s%.200s", how ? how : "failed",
                                          r.errout.len ? ": " : "", r.errout.data ? r.errout.data : "");
                        free(how);
                }
                cc_spawn_result_free(&r);
                return out;
        }
        return NULL;
}

char *cc_ldconfig_run(cc_machine *m, cc_error *err)
{
        char *root = NULL, *out;
        cc_error e2 = {0};
        int found = 0;

        if (!cc_is_admin())
                return cc_strdup(err, "needed: run `sudo ldconfig` (not run: not root)");
        if (!m->live && (root = cc_tree_host(m->tree, "/", &e2)) == NULL)
                return cc_asprintf(err, "needed: the tree's root: %s", e2.msg);
        out = cc_ldconfig_spawn(root, &found, err);
        free(root);
        if (out == NULL && !found)
                return cc_strdup(err, "needed: no ldconfig was found: run it");
        return out;
}

char *cc_env_broadcast_text(cc_error *err)
{
        cc_error e2 = {0};

        if (cc_env_broadcast(&e2) < 0)
                return cc_asprintf(err, "failed: %s (new shells see the change after the next sign-in)", e2.msg);
        return cc_strdup(err, "sent");
}
