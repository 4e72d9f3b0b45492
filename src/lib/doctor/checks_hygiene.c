/* Loader-path hygiene: the entries of LD_LIBRARY_PATH and PATH. Empty and
 * relative entries mean the current directory (a library or program
 * planted in whatever directory the user is in gets loaded); directories
 * anyone can write to are the same risk; entries that do not exist are
 * noise that hides real ones; a PATH of 1024 characters in the registry is
 * what setx leaves after truncating it. */
#include "doctor.h"

#include <stdlib.h>
#include <string.h>

/* A repeated condition is one finding: each entry it holds for is an
 * instance (the evidence and summary one entry alone would have); a single
 * entry keeps its own summary and fix, several get a summary that counts
 * them and one fix per variable. */
struct entries {
        enum cc_fid fid;
        cc_value *instances;
        cc_strv vars;         /* the variables they are in, in order */
        int lib, prog;        /* whether some are library / program search paths */
        cc_buf fixes;         /* of several: one per variable, or (writable) the entries quoted */
        const char *summary1; /* the first instance's summary (borrowed from instances) */
};

static void entries_free(struct entries *en)
{
        cc_v_free(en->instances);
        cc_strv_free(&en->vars);
        cc_buf_free(&en->fixes);
}

/* Which of the three an entry is (CC_F_NONE: none), and whether its variable
 * is a library search path (LD_LIBRARY_PATH; on Windows, PATH is both). */
static enum cc_fid entry_class(const struct cc_dctx *d, const cc_vw_search_path *pv, const cc_vw_path_entry *e,
                               int *libpath)
{
        const char *var = pv->variable, *kind = e->kind, *entry = e->entry;

        *libpath = var != NULL && (strcmp(var, "LD_LIBRARY_PATH") == 0 || d->windows);
        if (kind == NULL || entry == NULL)
                return CC_F_NONE;
        if (strcmp(kind, "empty") == 0 && d->windows)
                return CC_F_NONE; /* Windows skips empty PATH entries */
        if (strcmp(kind, "empty") == 0 || strcmp(kind, "relative") == 0)
                return CC_F_PATH_EMPTY_ENTRY;
        if (CC_VW_HAS(e, path_entry, exists) && !e->exists)
                return *libpath ? CC_F_PATH_MISSING_ENTRY : CC_F_NONE;
        if (e->world_writable)
                return CC_F_PATH_WRITABLE_DIR;
        return CC_F_NONE;
}

/* Entry e of variable var as an instance: its evidence and summary. */
static int add_instance(struct cc_dctx *d, struct entries *en, const char *variable, const cc_vw_path_entry *e,
                        int libpath)
{
        const char *kind = e->kind, *entry = e->entry;
        const char *var = variable ? variable : "(null)";
        int64_t idx = e->index;
        cc_value *o = cc_v_object(d->err), *sum = NULL;
        int rc, newvar = !cc_strv_contains(&en->vars, var);

        if (cc_v_push(en->instances, o, d->err) < 0 || cc_v_set_str(o, "variable", variable, d->err) < 0 ||
            (newvar && cc_strv_push(&en->vars, var, d->err) < 0))
                return -1;
        en->lib |= libpath;
        en->prog |= !libpath;
        switch (en->fid) {
        case CC_F_PATH_EMPTY_ENTRY:
                sum = cc_v_strf(d->err,
                                "%s entry %lld is %s%s%s: it means the current directory, so a %s planted in "
                                "whatever directory you run from is %s",
                                var, (long long)idx, strcmp(kind, "empty") == 0 ? "empty" : "relative (",
                                strcmp(kind, "empty") == 0 ? "" : entry, strcmp(kind, "empty") == 0 ? "" : ")",
                                libpath ? "library" : "program", libpath ? "loaded" : "run");
                rc = cc_v_set_int(o, "index", idx, d->err) < 0 || cc_v_set_str(o, "entry", entry, d->err) < 0 ? -1 : 0;
                if (rc == 0 && newvar)
                        rc = cc_buf_printf(&en->fixes, d->err,
                                           "%sremove them from %s (an empty entry often comes from '%s=DIR:$%s' when "
                                           "%s was unset: use '${%s:+:$%s}')",
                                           en->fixes.len ? "; " : "", var, var, var, var, var, var);
                break;
        case CC_F_PATH_MISSING_ENTRY:
                sum = cc_v_strf(d->err, "%s entry %lld (%s) does not exist", var, (long long)idx, entry);
                rc = cc_v_set_str(o, "entry", entry, d->err) < 0 || cc_v_set_str(o, "reason", e->reason, d->err) < 0
                         ? -1
                         : 0;
                if (rc == 0 && newvar)
                        rc = cc_buf_printf(&en->fixes, d->err,
                                           "%sremove them from %s (leftovers of an uninstalled toolkit?)",
                                           en->fixes.len ? "; " : "", var);
                break;
        default:
                sum =
                    cc_v_strf(d->err,
                              "%s entry %lld (%s) is writable by every user: a %s planted there is %s before the "
                              "system's",
                              var, (long long)idx, entry, libpath ? "library" : "program", libpath ? "loaded" : "run");
                rc = cc_v_set_str(o, "entry", entry, d->err) < 0 ||
                             cc_v_set(o, "mode", cc_v_strf(d->err, "%04llo", (unsigned long long)e->mode), d->err) < 0
                         ? -1
                         : 0;
                if (rc == 0)
                        rc = cc_buf_printf(&en->fixes, d->err, " '%s'", entry);
                break;
        }
        if (rc < 0 || sum == NULL) {
                cc_v_free(sum);
                return -1;
        }
        /* the first instance's summary is the finding's when it is alone */
        if (en->summary1 == NULL)
                en->summary1 = cc_v_as_str(sum);
        return cc_v_set(o, "summary", sum, d->err);
}

/* The fix of one entry alone (today's wording). */
static char *one_fix(struct cc_dctx *d, enum cc_fid fid, const char *var, const char *entry)
{
        if (fid == CC_F_PATH_EMPTY_ENTRY)
                return cc_asprintf(d->err,
                                   "remove it from %s (an empty entry often comes from '%s=DIR:$%s' when %s was unset: "
                                   "use '${%s:+:$%s}')",
                                   var, var, var, var, var, var);
        if (fid == CC_F_PATH_MISSING_ENTRY)
                return cc_asprintf(d->err, "remove it from %s (a leftover of an uninstalled toolkit?)", var);
        return cc_asprintf(d->err, "take it out of %s, or make it writable only by its owner: chmod o-w '%s'", var,
                           entry);
}

static int entry_check(struct cc_dctx *d, enum cc_fid fid)
{
        const cc_value *sp = d->v.host.search_paths;
        struct entries en;
        const char *var1 = NULL, *entry1 = NULL;
        const char *vars;
        cc_buf vb = {0};
        cc_value *f = NULL;
        char *fix = NULL;
        size_t i, j, n;
        int rc = -1;

        memset(&en, 0, sizeof(en));
        en.fid = fid;
        if ((en.instances = cc_v_array(d->err)) == NULL)
                return -1;
        for (i = 0; i < cc_v_len(sp); i++) {
                cc_vw_search_path pv;

                if (cc_vw_search_path_at(sp, i, &pv, NULL) < 0)
                        continue;
                for (j = 0; j < cc_v_len(pv.entries); j++) {
                        cc_vw_path_entry e;
                        int libpath;

                        cc_vw_path_entry_at(pv.entries, j, &e, NULL);
                        if (entry_class(d, &pv, &e, &libpath) != fid)
                                continue;
                        if (var1 == NULL) {
                                var1 = pv.variable ? pv.variable : "(null)";
                                entry1 = e.entry;
                        }
                        if (add_instance(d, &en, pv.variable, &e, libpath) < 0)
                                goto done;
                }
        }
        n = cc_v_len(en.instances);
        if (n == 0) {
                rc = 0;
                goto done;
        }
        for (i = 0; i < en.vars.n; i++)
                if (cc_buf_printf(&vb, d->err, "%s%s",
                                  i == 0               ? ""
                                  : i + 1 == en.vars.n ? " and "
                                                       : ", ",
                                  en.vars.v[i]) < 0)
                        goto done;
        vars = vb.data;
        if (n == 1)
                f = cc_finding(d, fid, NULL, NULL, "%s", en.summary1);
        else if (fid == CC_F_PATH_EMPTY_ENTRY)
                f = cc_finding(d, fid, NULL, NULL,
                               "%zu entries of %s are empty or relative: each means the current directory, so a %s "
                               "planted in whatever directory you run from is %s",
                               n, vars,
                               en.lib && en.prog ? "library or program"
                               : en.lib          ? "library"
                                                 : "program",
                               en.lib && en.prog ? "loaded or run"
                               : en.lib          ? "loaded"
                                                 : "run");
        else if (fid == CC_F_PATH_MISSING_ENTRY)
                f = cc_finding(d, fid, NULL, NULL, "%zu entries of %s do not exist", n, vars);
        else
                f = cc_finding(d, fid, NULL, NULL,
                               "%zu entries of %s are writable by every user: a %s planted there is %s before the "
                               "system's",
                               n, vars,
                               en.lib && en.prog ? "library or program"
                               : en.lib          ? "library"
                                                 : "program",
                               en.lib && en.prog ? "loaded or run"
                               : en.lib          ? "loaded"
                                                 : "run");
        if (f == NULL)
                goto done;
        if (cc_finding_ev(f, "instances", en.instances, d->err) < 0) {
                en.instances = NULL;
                goto done;
        }
        en.instances = NULL;
        if (n == 1)
                fix = one_fix(d, fid, var1, entry1);
        else if (fid == CC_F_PATH_WRITABLE_DIR)
                fix =
                    cc_asprintf(d->err, "take them out of %s, or make them writable only by their owners: chmod o-w%s",
                                vars, en.fixes.data);
        else
                fix = cc_strdup(d->err, en.fixes.data);
        if (fix == NULL || cc_finding_fix(f, d->err, "%s", fix) < 0)
                goto done;
        rc = 0;
done:
        free(fix);
        cc_buf_free(&vb);
        entries_free(&en);
        return rc;
}

int cc_check_path_empty_entry(struct cc_dctx *d)
{
        return entry_check(d, CC_F_PATH_EMPTY_ENTRY);
}

int cc_check_path_missing_entry(struct cc_dctx *d)
{
        return entry_check(d, CC_F_PATH_MISSING_ENTRY);
}

int cc_check_path_writable_dir(struct cc_dctx *d)
{
        return entry_check(d, CC_F_PATH_WRITABLE_DIR);
}

/* ---- the registry's Path cut by setx ----------------------------------------------- */

/* The entry [a, a+alen) without spaces around it and trailing separators. */
static void entry_trim(const char **a, size_t *alen)
{
        while (*alen > 0 && (**a == ' ' || **a == '"')) {
                (*a)++;
                (*alen)--;
        }
        while (*alen > 0 &&
               ((*a)[*alen - 1] == ' ' || (*a)[*alen - 1] == '"' || (*a)[*alen - 1] == '\\' || (*a)[*alen - 1] == '/'))
                (*alen)--;
}

/* loose: a machine entry that is only %VAR% stands for any one entry. */
static int entry_same(const char *u, size_t ulen, const char *mach, size_t mlen, int loose)
{
        const char *close;

        entry_trim(&u, &ulen);
        entry_trim(&mach, &mlen);
        if (ulen == 0 || mlen == 0)
                return 0;
        if (ulen == mlen && cc_strncasecmp(u, mach, ulen) == 0)
                return 1;
        /* %SystemRoot%\system32 against C:\Windows\system32 */
        if (mach[0] == '%' && (close = memchr(mach + 1, '%', mlen - 1)) != NULL) {
                size_t rest = mlen - (size_t)(close + 1 - mach);

                if (rest == 0)
                        return loose;
                return ulen > rest && cc_strncasecmp(u + ulen - rest, close + 1, rest) == 0;
        }
        return 0;
}

int cc_winpath_in_machine(const char *e, size_t elen, const char *machine)
{
        const char *p = machine, *semi;

        while (p != NULL && *p != '\0') {
                semi = strchr(p, ';');
                if (entry_same(e, elen, p, semi ? (size_t)(semi - p) : strlen(p), 0))
                        return 1;
                p = semi ? semi + 1 : NULL;
        }
        return 0;
}

size_t cc_winpath_copied(const char *user, const char *machine)
{
        const char *u = user, *mp = machine;
        size_t n = 0;

        while (u != NULL && mp != NULL && *u != '\0' && *mp != '\0') {
                const char *us = strchr(u, ';'), *ms = strchr(mp, ';');
                size_t ul = us ? (size_t)(us - u) : strlen(u), ml = ms ? (size_t)(ms - mp) : strlen(mp);

                if (ml == 0) { /* an empty machine entry: a shell's PATH has none */
                        mp = ms ? ms + 1 : NULL;
                        continue;
                }
                if (!entry_same(u, ul, mp, ml, 1))
                        break;
                n++;
                u = us ? us + 1 : NULL;
                mp = ms ? ms + 1 : NULL;
        }
        return n;
}

/* The number of entries of a Path value. */
static size_t entry_count(const char *v)
{
        size_t n = 0;

        for (; v != NULL && *v != '\0'; v = strchr(v, ';') ? strchr(v, ';') + 1 : NULL)
                n++;
        return n;
}

int cc_check_win_setx_truncation(struct cc_dctx *d)
{
        const cc_value *rp = d->v.host.registry_path;
        const cc_value *sp = d->v.host.search_paths;
        size_t i;

        if (!d->windows)
                return 0;
        for (i = 0; i < cc_v_len(rp); i++) {
                cc_vw_registry_path r;
                cc_value *f;

                cc_vw_registry_path_at(rp, i, &r, NULL);
                if (r.length < 1024 || r.length > 1024 || r.key == NULL)
                        continue;
                if (strncmp(r.key, "HKCU", 4) == 0) {
                        const char *mach = NULL;
                        size_t j, copied = 0, mn = 0;

                        for (j = 0; j < cc_v_len(rp); j++) {
                                cc_vw_registry_path o;

                                cc_vw_registry_path_at(rp, j, &o, NULL);
                                if (o.key != NULL && strncmp(o.key, "HKLM", 4) == 0 && o.value != NULL)
                                        mach = o.value;
                        }
                        if (mach != NULL && r.value != NULL) {
                                copied = cc_winpath_copied(r.value, mach);
                                mn = entry_count(mach);
                        }
                        if (copied > 0 && (copied >= 2 || copied == mn)) {
                                /* setx PATH "%PATH%;DIR": the shell's whole PATH, the machine's first */
                                f = cc_finding(d, CC_F_WIN_SETX_TRUNCATION, NULL, NULL,
                                               "the user's Path (%s) is exactly 1024 characters and begins with %zu "
                                               "entries of the machine's Path: 'setx PATH \"%%PATH%%;...\"' wrote a "
                                               "shell's whole PATH into it and cut it there; the machine's Path is "
                                               "whole, the user's entries after the cut are gone",
                                               r.key, copied);
                                TRY_RET(cc_finding_ev(f, "length", cc_v_int(r.length, d->err), d->err));
                                TRY_RET(cc_finding_ev_str(f, "key", r.key, d->err));
                                TRY_RET(cc_finding_ev_str(f, "cut", "user-copy", d->err));
                                TRY_RET(cc_finding_ev(f, "machine_entries_copied", cc_v_int((int64_t)copied, d->err),
                                                      d->err));
                                TRY_RET(cc_finding_fix(
                                    f, d->err,
                                    "'cudnnctl doctor --fix win-setx-truncation' takes the machine's entries (Windows "
                                    "adds them itself) and the entry the cut left half off the user's Path, undoably; "
                                    "add back by hand what was after the cut (never with setx)"));
                                continue;
                        }
                }
                f = cc_finding(d, CC_F_WIN_SETX_TRUNCATION, NULL, NULL,
                               "PATH in %s is exactly 1024 characters: what 'setx %sPATH' leaves after truncating "
                               "it; the entries after the cut are gone",
                               r.key, strncmp(r.key, "HKLM", 4) == 0 ? "/M " : "");
                TRY_RET(cc_finding_ev(f, "length", cc_v_int(r.length, d->err), d->err));
                TRY_RET(cc_finding_ev_str(f, "key", r.key, d->err));
                TRY_RET(cc_finding_ev_str(f, "cut", strncmp(r.key, "HKLM", 4) == 0 ? "machine" : "user", d->err));
                TRY_RET(
                    cc_finding_fix(f, d->err,
                                   "restore PATH in System Properties > Environment Variables (never with setx, which "
                                   "cuts at 1024 characters; for one shell: $env:PATH = \"DIR;\" + $env:PATH)"));
        }
        if (cc_v_len(rp) == 0) {
                /* without the registry (a --root image): the environment's PATH */
                for (i = 0; i < cc_v_len(sp); i++) {
                        cc_vw_search_path p;
                        cc_value *f;

                        cc_vw_search_path_at(sp, i, &p, NULL);
                        if (strcmp(p.variable ? p.variable : "", "PATH") != 0 || p.length != 1024)
                                continue;
                        f = cc_finding(d, CC_F_WIN_SETX_TRUNCATION, NULL, NULL,
                                       "PATH is exactly 1024 characters: what 'setx PATH' leaves after truncating "
                                       "it; the entries after the cut are gone");
                        TRY_RET(cc_finding_ev(f, "length", cc_v_int(1024, d->err), d->err));
                        TRY_RET(cc_finding_fix(f, d->err,
                                               "restore PATH in System Properties > Environment Variables (never with "
                                               "setx)"));
                }
        }
        return 0;
}

/* ---- the registry's Path against this process's PATH ------------------------------ */

/* PATH's facts among the search paths, or NULL. */
static const cc_value *process_path(const cc_value *sp, cc_vw_search_path *p)
{
        size_t i;

        for (i = 0; i < cc_v_len(sp); i++) {
                cc_vw_search_path_at(sp, i, p, NULL);
                if (p->variable != NULL && cc_strcasecmp(p->variable, "PATH") == 0)
                        return p->entries;
        }
        return NULL;
}

/* Whether entry [e, e+elen) is one of PATH's entries (as written, or what a
 * bare %VAR% there stands for). */
static int in_process_path(const cc_value *entries, const char *e, size_t elen)
{
        size_t j;

        for (j = 0; j < cc_v_len(entries); j++) {
                cc_vw_path_entry pe;

                cc_vw_path_entry_at(entries, j, &pe, NULL);
                if (pe.entry != NULL && entry_same(pe.entry, strlen(pe.entry), e, elen, 0))
                        return 1;
        }
        return 0;
}

/* A new process gets the machine's Path, then the user's appended to it.
 * Entries of that which this process's PATH lacks mean its shell was started
 * before they were added; unless the lacking ones are all the registry's
 * entries from one on and PATH's last entry is the start of the first of
 * them: then the environment this process was given was cut there (Windows
 * XP and 2003 cut it at 1024 characters, and Wine does). */
int cc_check_win_path_stale_shell(struct cc_dctx *d)
{
        const cc_value *rp = d->v.host.registry_path, *entries;
        cc_vw_search_path pp;
        cc_value *missing = NULL, *f;
        cc_buf list = {0};
        size_t n = 0, pass, i, total = 0, first_missing = 0;
        int rv = -1, tail = 1, cut = 0;
        char *first = NULL;

        if (!d->windows || cc_v_len(rp) == 0 || (entries = process_path(d->v.host.search_paths, &pp)) == NULL)
                return 0;
        missing = cc_v_array(d->err);
        if (missing == NULL)
                return -1;
        for (pass = 0; pass < 2; pass++) {
                for (i = 0; i < cc_v_len(rp); i++) {
                        cc_vw_registry_path r;
                        const char *v, *p, *semi;

                        cc_vw_registry_path_at(rp, i, &r, NULL);
                        if (r.key == NULL || (strncmp(r.key, "HKLM", 4) == 0) != (pass == 0))
                                continue;
                        v = r.expanded != NULL ? r.expanded : r.value;
                        for (p = v; p != NULL && *p != '\0'; p = semi ? semi + 1 : NULL) {
                                size_t len;
                                const char *t;
                                cc_value *o;

                                semi = strchr(p, ';');
                                len = semi ? (size_t)(semi - p) : strlen(p);
                                t = p;
                                entry_trim(&t, &len);
                                if (len == 0)
                                        continue;
                                total++;
                                if (in_process_path(entries, t, len)) {
                                        if (n > 0)
                                                tail = 0;
                                        continue;
                                }
                                o = cc_v_object(d->err);
                                if (o == NULL || cc_v_push(missing, o, d->err) < 0 ||
                                    cc_v_set(o, "entry", cc_v_strn(t, len, d->err), d->err) < 0 ||
                                    cc_v_set_str(o, "key", r.key, d->err) < 0)
                                        goto out;
                                if (n == 0) {
                                        first_missing = total;
                                        first = cc_strndup(d->err, t, len);
                                        if (first == NULL)
                                                goto out;
                                }
                                if (n < 3 && (cc_buf_puts(&list, n ? ", " : "", d->err) < 0 ||
                                              cc_buf_append(&list, t, len, d->err) < 0))
                                        goto out;
                                n++;
                        }
                }
        }
        rv = 0;
        if (n == 0)
                goto out;
        if (tail && first_missing > 1 && cc_v_len(entries) > 0) {
                cc_vw_path_entry last;
                size_t ll;

                cc_vw_path_entry_at(entries, cc_v_len(entries) - 1, &last, NULL);
                ll = last.entry != NULL ? strlen(last.entry) : 0;
                cut = ll > 0 && ll < strlen(first) && cc_strncasecmp(last.entry, first, ll) == 0;
        }
        if (cut)
                f = cc_finding(d, CC_F_WIN_PATH_STALE_SHELL, NULL, NULL,
                               "this process's PATH (%lld characters) ends in the middle of the registry's Path, at "
                               "%s: the environment it was given was cut there, and the %zu entr%s from there on "
                               "%s not searched",
                               (long long)pp.length, first, n, n == 1 ? "y" : "ies", n == 1 ? "is" : "are");
        else
                f = cc_finding(d, CC_F_WIN_PATH_STALE_SHELL, NULL, NULL,
                               "this process's PATH lacks %zu entr%s of the Path the registry holds (%s%s): the shell "
                               "was started before %s added, so what it starts does not search %s",
                               n, n == 1 ? "y" : "ies", list.data ? list.data : "", n > 3 ? ", ..." : "",
                               n == 1 ? "it was" : "they were", n == 1 ? "it" : "them");
        rv = -1;
        if (f == NULL || cc_finding_ev(f, "missing", missing, d->err) < 0)
                goto out;
        missing = NULL;
        if (cc_finding_ev_str(f, "cause", cut ? "cut" : "older-shell", d->err) < 0 ||
            cc_finding_ev(f, "process_length", cc_v_int(pp.length, d->err), d->err) < 0)
                goto out;
        if (cut ? cc_finding_fix(f, d->err,
                                 "shorten Path: take out entries that no longer exist or that repeat, and put the "
                                 "CUDA and cuDNN folders before the others (Windows XP and 2003 cut the environment's "
                                 "PATH at 1024 characters, as Wine does)") < 0
                : cc_finding_fix(f, d->err,
                                 "open a new terminal from the Start menu or Explorer (a terminal inside an editor "
                                 "inherits the editor's environment: restart the editor), or sign out and in; for "
                                 "this PowerShell only: $env:PATH = [Environment]::GetEnvironmentVariable('Path',"
                                 "'Machine') + ';' + [Environment]::GetEnvironmentVariable('Path','User')") < 0)
                goto out;
        rv = 0;
out:
        cc_v_free(missing);
        cc_buf_free(&list);
        free(first);
        return rv;
}

int cc_check_win_path_not_expanded(struct cc_dctx *d)
{
        const cc_value *rp = d->v.host.registry_path;
        size_t i;

        if (!d->windows)
                return 0;
        for (i = 0; i < cc_v_len(rp); i++) {
                cc_vw_registry_path r;
                const char *p, *semi, *pct;
                cc_value *f, *refs;
                size_t n = 0;

                cc_vw_registry_path_at(rp, i, &r, NULL);
                if (r.key == NULL || r.value == NULL || r.type == NULL || strcmp(r.type, "REG_SZ") != 0)
                        continue;
                refs = cc_v_array(d->err);
                if (refs == NULL)
                        return -1;
                for (p = r.value; p != NULL && *p != '\0'; p = semi ? semi + 1 : NULL) {
                        size_t len;

                        semi = strchr(p, ';');
                        len = semi ? (size_t)(semi - p) : strlen(p);
                        /* %NAME% with a name in it: what REG_EXPAND_SZ would have expanded */
                        pct = memchr(p, '%', len);
                        if (pct == NULL || pct + 2 >= p + len ||
                            memchr(pct + 2, '%', (size_t)(p + len - pct - 2)) == NULL)
                                continue;
                        if (cc_v_push(refs, cc_v_strn(p, len, d->err), d->err) < 0) {
                                cc_v_free(refs);
                                return -1;
                        }
                        n++;
                }
                if (n == 0) {
                        cc_v_free(refs);
                        continue;
                }
                f = cc_finding(d, CC_F_WIN_PATH_NOT_EXPANDED, NULL, NULL,
                               "Path in %s is stored as REG_SZ, so Windows does not expand its %%...%% references: "
                               "%s%s is searched as written, a folder that does not exist",
                               r.key, cc_v_as_str(cc_v_at(refs, 0)), n > 1 ? " (and more)" : "");
                if (f == NULL || cc_finding_ev(f, "entries", refs, d->err) < 0) {
                        if (f == NULL)
                                cc_v_free(refs);
                        return -1;
                }
                TRY_RET(cc_finding_ev_str(f, "key", r.key, d->err));
                TRY_RET(cc_finding_ev_str(f, "type", r.type, d->err));
                TRY_RET(cc_finding_fix(f, d->err,
                                       "save Path again in System Properties > Environment Variables (it stores a "
                                       "value with %%...%% as REG_EXPAND_SZ), or write the folders out in full"));
        }
        return 0;
}

int cc_check_win_path_long(struct cc_dctx *d)
{
        const cc_value *rp = d->v.host.registry_path;
        size_t i;

        if (!d->windows)
                return 0;
        for (i = 0; i < cc_v_len(rp); i++) {
                cc_vw_registry_path r;
                cc_value *f;

                cc_vw_registry_path_at(rp, i, &r, NULL);
                if (r.key == NULL || r.length <= 2047)
                        continue;
                f = cc_finding(d, CC_F_WIN_PATH_LONG, NULL, NULL,
                               "Path in %s is %lld characters: whole (not a setx cut), but longer than the 2047 the "
                               "Environment Variables dialog saves, so it cannot be edited there",
                               r.key, (long long)r.length);
                TRY_RET(f == NULL ? -1 : 0);
                TRY_RET(cc_finding_ev(f, "length", cc_v_int(r.length, d->err), d->err));
                TRY_RET(cc_finding_ev_str(f, "key", r.key, d->err));
                TRY_RET(cc_finding_fix(
                    f, d->err,
                    "take out entries that no longer exist or that repeat; to change it, use PowerShell "
                    "([Environment]::SetEnvironmentVariable('Path', VALUE, '%s')) or regedit, never setx",
                    strncmp(r.key, "HKLM", 4) == 0 ? "Machine" : "User"));
        }
        return 0;
}
