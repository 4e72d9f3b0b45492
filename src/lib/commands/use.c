/* use: the cuDNN the machine's (or a user's) programs load by default,
 * persistently and undoably (docs/json.md "use").
 *
 *   Linux, system  /etc/ld.so.conf.d/00-cudnnctl.conf lists the chosen
 *                  installation's library directories, then ldconfig;
 *   user           the lines for the shell's start file, printed, or with
 *                  --write a marked block in it;
 *
 * each written as one transaction of the engine (txn/txn.h), undone by
 * rollback. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../facts/views.h"
#include "../machine/machine.h"
#include "../platform/platform.h"
#include "../render/shell.h"
#include "../txn/txn.h"
#include "change.h"

#define USE_DIR "/etc/ld.so.conf.d"
#define USE_FILE "00-cudnnctl.conf" /* first of the directory: ldconfig keeps the first directory of a name */

/* What a plain program loads for libcudnn.so.MAJOR now: {name, path,
 * installation, chosen}. */
static cc_value *loads_doc(cc_machine *m, int major, const char *prefix, cc_error *err)
{
        char name[32];
        const char *names[1] = {name};
        cudnnctl_which_options wo;
        cudnnctl_value *w = NULL;
        cc_value *o = cc_v_object(err);
        const cc_value *r;
        const char *path;

        if (o == NULL)
                return NULL;
        snprintf(name, sizeof(name), "libcudnn.so.%d", major);
        memset(&wo, 0, sizeof(wo));
        if (cudnnctl_which(m, names, 1, &wo, &w, err) < 0) {
                cc_v_free(o);
                return NULL;
        }
        r = cc_v_at(cc_v_get(w, "results"), 0);
        path = cc_v_get_str(r, "realpath") ? cc_v_get_str(r, "realpath") : cc_v_get_str(r, "path");
        if (cc_v_set_str(o, "name", name, err) < 0 || cc_v_set_str(o, "path", path, err) < 0 ||
            cc_v_set_str(o, "how", cc_v_get_str(r, "how"), err) < 0 ||
            cc_v_set_bool(o, "chosen",
                          path != NULL && prefix != NULL && cc_starts_with(path, prefix) &&
                              (path[strlen(prefix)] == '/' || path[strlen(prefix)] == '\0'),
                          err) < 0) {
                cc_v_free(o);
                o = NULL;
        }
        cc_v_free(w);
        return o;
}

#define BLOCK_BEGIN "# >>> cudnnctl use >>>\n"
#define BLOCK_END "# <<< cudnnctl use <<<\n"

/* text without the block a use --user --write put there before. */
static int without_block(const char *text, size_t len, cc_buf *out, cc_error *err)
{
        const char *b = text ? strstr(text, BLOCK_BEGIN) : NULL, *e;

        if (b == NULL || (b != text && b[-1] != '\n'))
                return len ? cc_buf_append(out, text, len, err) : 0;
        e = strstr(b, BLOCK_END);
        if (e == NULL)
                return cc_err(err, CC_ERR_FORMAT, "a '%.*s' line without its '%.*s' line: edit it by hand",
                              (int)strlen(BLOCK_BEGIN) - 1, BLOCK_BEGIN, (int)strlen(BLOCK_END) - 1, BLOCK_END);
        e += strlen(BLOCK_END);
        TRY_RET(cc_buf_append(out, text, (size_t)(b - text), err));
        return cc_buf_append(out, e, len - (size_t)(e - text), err);
}

/* use --user: the lines for this user's shell start file, and with write
 * the file with them in a marked block, as one transaction on its directory. */
static int use_user(cc_machine *m, const cudnnctl_use_options *o, cc_value **out, cc_error *err)
{
        static const struct {
                const char *shell, *file;
        } F[] = {{"bash", ".bashrc"}, {"zsh", ".zshrc"},    {"fish", ".config/fish/config.fish"},
                 {"sh", ".profile"},  {"dash", ".profile"}, {"ksh", ".profile"}};
        const char *shell = o->shell ? o->shell : "sh", *home = cc_machine_getenv(m, "HOME"), *rel = NULL;
        const int fish = strcmp(shell, "fish") == 0;
        char *vfile = NULL, *vdir = NULL, *host = NULL, *hfile = NULL, *old = NULL;
        cudnnctl_value *envdoc = NULL;
        cc_value *doc = NULL;
        cc_buf lines = {0}, text = {0};
        struct change c;
        size_t i, oldlen = 0;
        cc_stat st;
        int rc = -1;

        memset(&c, 0, sizeof(c));
        c.err = err;
        for (i = 0; i < CC_ARRAY_LEN(F) && rel == NULL; i++)
                if (strcmp(F[i].shell, shell) == 0)
                        rel = F[i].file;
        if (rel == NULL)
                return cc_err(err, CC_ERR_USAGE, "%s: use --user writes for sh, bash, zsh or fish", shell);
        if (home == NULL || !cc_tree_is_abs(m->tree, home))
                return cc_err(err, CC_ERR_NOTFOUND, "HOME is not set to an absolute directory: no start file");
        vfile = cc_tree_join(m->tree, home, rel, err);
        vdir = vfile ? cc_tree_dirname(m->tree, vfile, err) : NULL;
        if (vdir == NULL)
                goto fail;
        doc = ch_new_doc(m, "use", vdir, o->dry_run || !o->write, err);
        c.checks = cc_v_array(err);
        if (doc == NULL || c.checks == NULL)
                goto fail;
        TRY(cc_v_set_str(doc, "scope", "user", err));
        TRY(cc_v_set_str(doc, "shell", shell, err));
        TRY(cc_v_set_str(doc, "file", vfile, err));
        if (o->none) {
                TRY(cc_v_set_null(doc, "installation", err));
        } else {
                cudnnctl_env_options eo;
                const cc_value *inst, *added;

                memset(&eo, 0, sizeof(eo));
                eo.install = o->install;
                eo.cuda = o->cuda;
                TRY(cudnnctl_env(m, &eo, &envdoc, err));
                inst = cc_v_get(envdoc, "installation");
                added = cc_v_get(envdoc, "added");
                TRY(cc_v_set(doc, "installation", cc_v_copy(inst, err), err));
                TRY(cc_buf_puts(&lines, BLOCK_BEGIN, err));
                TRY(cc_buf_printf(&lines, err,
                                  "# cuDNN %s (installation %lld) first for this user's programs. Undo: cudnnctl use "
                                  "--user --none --write\n",
                                  cc_v_get_str(inst, "version") ? cc_v_get_str(inst, "version") : "of unknown release",
                                  (long long)cc_v_as_int(cc_v_get(inst, "id"))));
                TRY(cc_buf_puts(&lines, fish ? "set -gx LD_LIBRARY_PATH" : "export LD_LIBRARY_PATH=", err));
                for (i = 0; i < cc_v_len(added); i++) {
                        const char *d = cc_v_as_str(cc_v_at(added, i));

                        if (d[strcspn(d, ":;")] != '\0') {
                                cc_err(err, CC_ERR_USAGE,
                                       "%s: a directory whose name holds '%c' cannot be on "
                                       "LD_LIBRARY_PATH (the loader splits it there)",
                                       d, d[strcspn(d, ":;")]);
                                goto fail;
                        }
                        if (fish)
                                TRY(cc_buf_putc(&lines, ' ', err));
                        else if (i)
                                TRY(cc_buf_putc(&lines, ':', err));
                        TRY(cc_shell_quote(&lines, shell, "LD_LIBRARY_PATH", d, err));
                }
                TRY(cc_buf_puts(&lines, fish ? " $LD_LIBRARY_PATH\n" : "\"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"\n",
                                err));
                for (i = 0; i < 2; i++) {
                        const char *name = i ? "CUDNN_HOME" : "CUDNN_PATH";

                        TRY(cc_buf_printf(&lines, err, fish ? "set -gx %s " : "export %s=", name));
                        TRY(cc_shell_quote(&lines, shell, name, cc_v_get_str(inst, "prefix"), err));
                        TRY(cc_buf_putc(&lines, '\n', err));
                }
                TRY(cc_buf_puts(&lines, BLOCK_END, err));
                TRY(cc_v_set_str(doc, "lines", lines.data, err));
        }
        if (!o->write) {
                TRY(cc_v_set(doc, CC_K(change_doc, operations), cc_v_array(err), err));
                TRY(ch_result(doc, "printed", NULL, NULL, 0, err));
                rc = 0;
                goto fail;
        }
        /* the file with the block replaced, as one transaction on its directory */
        host = cc_tree_host(m->tree, vdir, err);
        /* the file itself, not where a link there points */
        hfile = host ? cc_asprintf(err, "%s/%s", host, cc_basename(vfile)) : NULL;
        if (hfile == NULL)
                goto fail;
        TRY(ch_recover_first(&c, host, o->dry_run, doc));
        if (cc_lstat_path(hfile, &st, err) < 0)
                goto fail;
        if (st.type == CC_FT_LINK) {
                TRY(ch_check(&c, "link", "stop",
                             "%s: a symbolic link (a dotfiles manager's?): not written through; add the lines "
                             "where it points",
                             vfile));
        } else if (st.type != CC_FT_NONE && st.type != CC_FT_FILE) {
                TRY(ch_check(&c, "file", "stop", "%s: not a regular file", vfile));
        } else {
                if (st.type == CC_FT_FILE && cc_read_file(hfile, 16u << 20, &old, &oldlen, err) < 0)
                        goto fail;
                TRY(without_block(old, oldlen, &text, err));
                if (!o->none) {
                        if (text.len && text.data[text.len - 1] != '\n')
                                TRY(cc_buf_putc(&text, '\n', err));
                        TRY(cc_buf_puts(&text, lines.data, err));
                }
                if (st.type == CC_FT_FILE && text.len == oldlen &&
                    (oldlen == 0 || memcmp(text.data, old, oldlen) == 0)) {
                        /* nothing changes: no transaction */
                } else if (st.type == CC_FT_NONE && o->none) {
                        /* no file, no block */
                } else {
                        TRY(ch_add_data(&c, st.type == CC_FT_NONE ? CC_TXN_PLACE : CC_TXN_REPLACE, cc_basename(vfile),
                                        st.type == CC_FT_FILE && st.mode >= 0 ? (unsigned)st.mode & 0777 : 0644,
                                        text.data, text.len));
                }
        }
        {
                cc_stat ds;

                if (cc_lstat_path(host, &ds, err) < 0)
                        goto fail;
                if (ds.type != CC_FT_DIR)
                        TRY(ch_check(&c, "directory", "stop", "%s: no such directory (make it first)", vdir));
        }
        TRY(ch_run(&c, vdir, host, o->none ? "use --user --none" : "use --user", o->dry_run, m, doc, err));
        rc = 0;
fail:
        free(old);
        free(vfile);
        free(vdir);
        free(host);
        free(hfile);
        cc_buf_free(&lines);
        cc_buf_free(&text);
        cc_v_free(envdoc);
        ch_free(&c);
        if (rc == 0)
                *out = doc;
        else
                cc_v_free(doc);
        return rc;
}

/* ---- Windows: the registry's Path ------------------------------------------ */

/* A string value's text (NULL when absent); a value that is no string, or
 * whose UTF-16 would not come back the same from UTF-8 (an unpaired
 * surrogate), is refused: it is written back only as it was. *units: its
 * length in UTF-16 units. */
int cc_regval_text(const cc_regval *v, const char *name, char **text, size_t *units, cc_error *err)
{
        size_t n;
        cc_buf b = {0};
        int same;

        *text = NULL;
        *units = 0;
        if (!v->present)
                return 0;
        if (v->type != CC_REG_SZ && v->type != CC_REG_EXPAND_SZ)
                return cc_err(err, CC_ERR_FORMAT, "%s: a registry value of type %lu, not a string: edit it by hand",
                              name, (unsigned long)v->type);
        if (v->len % 2 != 0)
                return cc_err(err, CC_ERR_FORMAT, "%s: %zu bytes, not UTF-16: edit it by hand", name, v->len);
        n = v->len / 2;
        while (n > 0 && v->data[2 * n - 2] == 0 && v->data[2 * n - 1] == 0)
                n--;
        if ((*text = cc_utf16le_to_utf8(v->data, n, err)) == NULL)
                return -1;
        if (cc_utf8_to_utf16le(*text, &b, err) < 0) {
                cc_buf_free(&b);
                free(*text);
                *text = NULL;
                return -1;
        }
        same = b.len == n * 2 && (n == 0 || memcmp(b.data, v->data, n * 2) == 0);
        cc_buf_free(&b);
        if (!same) {
                free(*text);
                *text = NULL;
                return cc_err(err, CC_ERR_FORMAT,
                              "%s: holds UTF-16 that is not text (an unpaired surrogate or a NUL): edit it by hand",
                              name);
        }
        *units = n;
        return 0;
}

/* The record the engine stages for a string value of type. */
int cc_regval_record(const char *text, uint32_t type, cc_buf *rec, size_t *units, cc_error *err)
{
        cc_buf w = {0};
        cc_regval v;
        int rc;

        if (cc_utf8_to_utf16le(text, &w, err) < 0 || cc_buf_append(&w, "\0\0", 2, err) < 0) {
                cc_buf_free(&w);
                return -1;
        }
        *units = w.len / 2 - 1;
        memset(&v, 0, sizeof(v));
        v.present = 1;
        v.type = type;
        v.data = (unsigned char *)w.data;
        v.len = w.len;
        rc = cc_txn_regval_format(&v, rec, err);
        cc_buf_free(&w);
        return rc;
}

/* The installations the machine's Path reaches before a user's: what a
 * use --user cannot put behind the chosen one. */
static int machine_shadows(cc_machine *m, cc_value *removed_out, cc_error *err)
{
        cc_regval v;
        cc_error e2 = {0};
        char *text = NULL, *after = NULL;
        cc_value *removed = NULL, *kept = NULL;
        size_t units, i;
        int rc = -1;

        memset(&v, 0, sizeof(v));
        if (cc_reg_read("HKLM", CC_WIN_MACHINE_KEY, "Path", &v, &e2) < 0 ||
            cc_regval_text(&v, "the machine's Path", &text, &units, &e2) < 0 || text == NULL) {
                rc = 0; /* unreadable: nothing to say */
                goto out;
        }
        TRY(cc_env_path_none(m, text, &after, &removed, &kept, err));
        for (i = 0; i < cc_v_len(removed); i++) {
                const char *why = cc_v_get_str(cc_v_at(removed, i), "why");

                if (why != NULL && (strstr(why, "cuDNN") != NULL || strstr(why, "cudnn") != NULL))
                        TRY(cc_v_push(removed_out, cc_v_copy(cc_v_at(removed, i), err), err));
        }
        rc = 0;
fail:
out:
        cc_regval_free(&v);
        free(text);
        free(after);
        cc_v_free(removed);
        cc_v_free(kept);
        return rc;
}

static int use_windows(cc_machine *m, const cudnnctl_use_options *o, cc_value **out, cc_error *err)
{
        const char *hive = o->user ? "HKCU" : "HKLM", *key = o->user ? CC_WIN_USER_KEY : CC_WIN_MACHINE_KEY;
        char *state = NULL, *before = NULL, *after = NULL, *opath = NULL, *where = NULL;
        cudnnctl_value *envdoc = NULL;
        cc_value *doc = NULL, *removed = NULL, *kept = NULL, *shadows = NULL;
        cc_regval v;
        cc_buf rec = {0};
        struct change c;
        size_t ubefore = 0, uafter = 0, i;
        int rc = -1;

        memset(&c, 0, sizeof(c));
        memset(&v, 0, sizeof(v));
        c.err = err;
        if (!m->live)
                return cc_err(err, CC_ERR_UNSUPPORTED,
                              "use on Windows edits this machine's registry: not another machine's tree (--root)");
        if ((state = cc_state_dir(m, err)) == NULL)
                return -1;
        where = cc_asprintf(err, "%s\\%s", hive, key);
        opath = cc_asprintf(err, "%s/%s/Path", hive, key);
        if (where == NULL || opath == NULL)
                goto fail;
        for (i = 0; opath[i]; i++)
                if (opath[i] == '\\')
                        opath[i] = '/';
        doc = ch_new_doc(m, "use", state, o->dry_run, err);
        c.checks = cc_v_array(err);
        if (doc == NULL || c.checks == NULL)
                goto fail;
        TRY(ch_recover_first(&c, state, o->dry_run, doc));
        TRY(cc_v_set_str(doc, "scope", o->user ? "user" : "machine", err));
        TRY(cc_v_set_str(doc, "registry", where, err));
        TRY(cc_v_set_str(doc, "value", "Path", err));
        TRY(cc_reg_read(hive, key, "Path", &v, err));
        if (cc_regval_text(&v, where, &before, &ubefore, err) < 0)
                goto fail;
        TRY(cc_v_set_str(doc, "before", before, err));
        TRY(cc_v_set_str(doc, "type",
                         !v.present                   ? NULL
                         : v.type == CC_REG_EXPAND_SZ ? "REG_EXPAND_SZ"
                                                      : "REG_SZ",
                         err));
        if (o->none) {
                TRY(cc_v_set_null(doc, "installation", err));
                TRY(cc_env_path_none(m, before, &after, &removed, &kept, err));
        } else {
                cudnnctl_env_options eo;

                memset(&eo, 0, sizeof(eo));
                eo.install = o->install;
                eo.cuda = o->cuda;
                TRY(cc_env_doc(m, &eo, before ? before : "", &envdoc, err));
                TRY(cc_v_set(doc, "installation", cc_v_copy(cc_v_get(envdoc, "installation"), err), err));
                TRY(cc_v_set(doc, "added", cc_v_copy(cc_v_get(envdoc, "added"), err), err));
                removed = cc_v_copy(cc_v_get(envdoc, "removed"), err);
                kept = cc_v_copy(cc_v_get(envdoc, "kept"), err);
                if ((after = cc_strdup(err, cc_v_get_str(envdoc, "after"))) == NULL || removed == NULL || kept == NULL)
                        goto fail;
        }
        TRY(cc_v_set(doc, "removed", removed, err));
        removed = NULL;
        TRY(cc_v_set(doc, "kept", kept, err));
        kept = NULL;
        TRY(cc_v_set_str(doc, "after", after, err));
        /* REG_EXPAND_SZ, as Windows keeps Path: %SystemRoot% and the like
         * stay unexpanded */
        TRY(cc_regval_record(after, CC_REG_EXPAND_SZ, &rec, &uafter, err));
        TRY(cc_v_set_int(doc, "length", (int64_t)uafter, err));
        if (ubefore == CC_WIN_SETX_CUT)
                TRY(ch_check(&c, "setx", "warn",
                             "%s\\Path is exactly %d characters long: setx cuts a value there; what it cut "
                             "away is not in the registry any more (compare with the PATH of an old shell)",
                             where, CC_WIN_SETX_CUT));
        if (uafter > CC_WIN_VAR_MAX)
                TRY(ch_check(&c, "length", "stop",
                             "the new Path would be %zu characters: Windows takes at most %d in one variable; take "
                             "entries off first",
                             uafter, CC_WIN_VAR_MAX));
        else if (uafter > CC_WIN_VAR_MAX - 2048)
                TRY(ch_check(&c, "length", "warn", "the new Path is %zu characters, near Windows' %d for a variable",
                             uafter, CC_WIN_VAR_MAX));
        if (!o->user && !cc_is_admin())
                TRY(ch_check(&c, "administrator", o->dry_run ? "warn" : "stop",
                             "the machine's Path needs an administrator: run it from an elevated prompt, or use "
                             "--user for this user's Path"));
        if (o->user && !o->none) {
                shadows = cc_v_array(err);
                if (shadows == NULL || machine_shadows(m, shadows, err) < 0)
                        goto fail;
                for (i = 0; i < cc_v_len(shadows); i++)
                        TRY(ch_check(&c, "machine-path", "warn",
                                     "the machine's Path has %s (%s), and Windows puts the machine's Path before the "
                                     "user's: programs still find it first; as an administrator, 'cudnnctl use' "
                                     "without --user changes the machine's",
                                     cc_v_get_str(cc_v_at(shadows, i), "entry"),
                                     cc_v_get_str(cc_v_at(shadows, i), "why")));
        }
        if (before == NULL || strcmp(before, after) != 0 || (v.present && v.type != CC_REG_EXPAND_SZ))
                TRY(ch_add_data(&c, CC_TXN_SETREG, opath, 0600, rec.data, rec.len));
        if (!o->dry_run && !c.stop && c.n > 0 && cc_mkdir_p(state, NULL, err) < 0)
                goto fail;
        TRY(ch_run(&c, state, state,
                   o->none ? (o->user ? "use --user --none" : "use --none") : (o->user ? "use --user" : "use"),
                   o->dry_run, m, doc, err));
        TRY(ch_after_done(m, doc, CH_AFTER_BROADCAST, err));
        rc = 0;
fail:
        cc_regval_free(&v);
        cc_buf_free(&rec);
        cc_v_free(envdoc);
        cc_v_free(removed);
        cc_v_free(kept);
        cc_v_free(shadows);
        free(state);
        free(before);
        free(after);
        free(opath);
        free(where);
        ch_free(&c);
        if (rc == 0)
                *out = doc;
        else
                cc_v_free(doc);
        return rc;
}

int cudnnctl_use(cudnnctl_machine *m, const cudnnctl_use_options *o, cudnnctl_value **out, cudnnctl_error *err)
{
        char *host = NULL, *file = NULL;
        cudnnctl_value *envdoc = NULL;
        cc_value *doc = NULL;
        const cc_value *inst = NULL;
        struct change c;
        cc_buf content = {0};
        cc_stat st;
        int rc = -1, major = 0;
        size_t i;

        memset(&c, 0, sizeof(c));
        c.err = err;
        if (out == NULL || m == NULL || o == NULL)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_use: no machine, options or place for the result");
        *out = NULL;
        if ((o->install == NULL) == !o->none)
                return cc_err(err, CC_ERR_USAGE, "cudnnctl_use: an installation, or none");
        if (m->system == CC_SYS_WINDOWS)
                return use_windows(m, o, out, err);
        if (o->user)
                return use_user(m, o, out, err);
        host = cc_tree_host(m->tree, USE_DIR, err);
        if (host == NULL)
                return -1;
        if (cc_lstat_path(host, &st, err) < 0)
                goto fail;
        if (st.type != CC_FT_DIR) {
                cc_err(err, CC_ERR_NOTFOUND, "%s: not a directory here: this loader reads no drop-in files", USE_DIR);
                goto fail;
        }
        doc = ch_new_doc(m, "use", USE_DIR, o->dry_run, err);
        c.checks = cc_v_array(err);
        file = cc_asprintf(err, "%s/%s", USE_DIR, USE_FILE);
        if (doc == NULL || c.checks == NULL || file == NULL)
                goto fail;
        TRY(ch_recover_first(&c, host, o->dry_run, doc));
        TRY(cc_v_set_str(doc, "file", file, err));
        {
                char *fh = cc_asprintf(err, "%s/%s", host, USE_FILE);

                if (fh == NULL || cc_lstat_path(fh, &st, err) < 0) {
                        free(fh);
                        goto fail;
                }
                free(fh);
        }
        if (o->none) {
                TRY(cc_v_set_null(doc, "installation", err));
                TRY(cc_v_set_null(doc, "content", err));
                if (st.type != CC_FT_NONE)
                        TRY(ch_add(&c, CC_TXN_REMOVE, USE_FILE, NULL, 0, 0, NULL));
        } else {
                cudnnctl_env_options eo;
                const cc_value *added;

                memset(&eo, 0, sizeof(eo));
                eo.install = o->install;
                eo.cuda = o->cuda;
                TRY(cudnnctl_env(m, &eo, &envdoc, err));
                inst = cc_v_get(envdoc, "installation");
                added = cc_v_get(envdoc, "added");
                major = atoi(cc_v_get_str(inst, "version") ? cc_v_get_str(inst, "version") : "0");
                TRY(cc_v_set(doc, "installation", cc_v_copy(inst, err), err));
                TRY(cc_buf_printf(&content, err,
                                  "# Written by cudnnctl use: cuDNN %s (installation %lld) first for every program\n"
                                  "# that finds cuDNN through the loader's cache. Undo: cudnnctl use --none, or\n"
                                  "# cudnnctl rollback %s\n",
                                  cc_v_get_str(inst, "version") ? cc_v_get_str(inst, "version") : "of unknown release",
                                  (long long)cc_v_as_int(cc_v_get(inst, "id")), USE_DIR));
                for (i = 0; i < cc_v_len(added); i++) {
                        const char *d = cc_v_as_str(cc_v_at(added, i));
                        size_t n = d ? strlen(d) : 0;

                        /* ld.so.conf: a directory a line, '#' starts a comment, and
                         * ldconfig reads "dir=type", ',' and blanks specially */
                        if (n == 0 || d[strcspn(d, "#=,:\t\n\r")] != '\0' || d[0] == ' ' || d[n - 1] == ' ') {
                                cc_err(err, CC_ERR_USAGE,
                                       "%s: a directory ld.so.conf cannot name (a '#', '=', ',', ':', a tab, or "
                                       "blanks around it)",
                                       d ? d : "(none)");
                                goto fail;
                        }
                        TRY(cc_buf_printf(&content, err, "%s\n", d));
                }
                TRY(cc_v_set_str(doc, "content", content.data, err));
                TRY(ch_add_data(&c, st.type == CC_FT_NONE ? CC_TXN_PLACE : CC_TXN_REPLACE, USE_FILE, 0644, content.data,
                                content.len));
                if (st.type == CC_FT_LINK)
                        TRY(ch_check(&c, "link", "stop", "%s: a symbolic link: not written through", file));
        }
        TRY(ch_run(&c, USE_DIR, host, o->none ? "use --none" : "use", o->dry_run, m, doc, err));
        TRY(ch_after_done(m, doc, CH_AFTER_LDCONFIG, err));
        if (!o->none && major > 0)
                TRY(cc_v_set(doc, "loads", loads_doc(m, major, cc_v_get_str(inst, "prefix"), err), err));
        rc = 0;
fail:
        free(file);
        free(host);
        cc_buf_free(&content);
        cc_v_free(envdoc);
        ch_free(&c);
        if (rc == 0)
                *out = doc;
        else
                cc_v_free(doc);
        return rc;
}
