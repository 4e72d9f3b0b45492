/* Loader-path hygiene: the entries of LD_LIBRARY_PATH and PATH. Empty and
 * relative entries mean the current directory (a library or program
 * planted in whatever directory the user is in gets loaded); directories
 * anyone can write to are the same risk; entries that do not exist are
 * noise that hides real ones; a PATH of 1024 characters in the registry is
 * what setx leaves after truncating it. */
#include "doctor.h"

#include <stdlib.h>
#include <string.h>

#define TRY(x)                                                                                                         \
        do {                                                                                                           \
                if ((x) < 0)                                                                                           \
                        return -1;                                                                                     \
        } while (0)

static int entry_findings(struct cc_dctx *d, const cc_value *pv)
{
        const char *var = cc_v_get_str(pv, "variable");
        const cc_value *entries = cc_v_get(pv, "entries");
        int libpath = var != NULL && (strcmp(var, "LD_LIBRARY_PATH") == 0 || d->windows);
        size_t i;

        for (i = 0; i < cc_v_len(entries); i++) {
                const cc_value *e = cc_v_at(entries, i);
                const char *kind = cc_v_get_str(e, "kind"), *entry = cc_v_get_str(e, "entry");
                int64_t idx = cc_v_getint(cc_v_get(e, "index"));
                cc_value *f = NULL;

                if (kind == NULL || entry == NULL)
                        continue;
                if (strcmp(kind, "empty") == 0 && d->windows)
                        continue; /* Windows skips empty PATH entries */
                if (strcmp(kind, "empty") == 0 || strcmp(kind, "relative") == 0) {
                        f = cc_finding(d, "path-empty-entry", "warning", "hygiene",
                                       "%s entry %lld is %s%s%s: it means the current directory, so a %s planted in "
                                       "whatever directory you run from is %s",
                                       var, (long long)idx, strcmp(kind, "empty") == 0 ? "empty" : "relative (",
                                       strcmp(kind, "empty") == 0 ? "" : entry, strcmp(kind, "empty") == 0 ? "" : ")",
                                       libpath ? "library" : "program", libpath ? "loaded" : "run");
                        TRY(cc_finding_ev_str(f, "variable", var, d->err));
                        TRY(cc_finding_ev(f, "index", cc_v_int(idx, d->err), d->err));
                        TRY(cc_finding_ev_str(f, "entry", entry, d->err));
                        TRY(cc_finding_fix(f, d->err,
                                           "remove it from %s (an empty entry often comes from "
                                           "'%s=DIR:$%s' when %s was unset: use '${%s:+:$%s}')",
                                           var, var, var, var, var, var));
                        continue;
                }
                if (cc_v_get(e, "exists") != NULL && !cc_v_getbool(cc_v_get(e, "exists"))) {
                        if (!libpath)
                                continue;
                        f = cc_finding(d, "path-missing-entry", "info", "hygiene", "%s entry %lld (%s) does not exist",
                                       var, (long long)idx, entry);
                        TRY(cc_finding_ev_str(f, "variable", var, d->err));
                        TRY(cc_finding_ev_str(f, "entry", entry, d->err));
                        TRY(cc_finding_ev_str(f, "reason", cc_v_get_str(e, "reason"), d->err));
                        TRY(cc_finding_fix(f, d->err, "remove it from %s (a leftover of an uninstalled toolkit?)",
                                           var));
                        continue;
                }
                if (cc_v_getbool(cc_v_get(e, "world_writable"))) {
                        f = cc_finding(d, "path-writable-dir", "warning", "hygiene",
                                       "%s entry %lld (%s) is writable by every user: a %s planted there is %s before "
                                       "the system's",
                                       var, (long long)idx, entry, libpath ? "library" : "program",
                                       libpath ? "loaded" : "run");
                        TRY(cc_finding_ev_str(f, "variable", var, d->err));
                        TRY(cc_finding_ev_str(f, "entry", entry, d->err));
                        TRY(cc_finding_ev(
                            f, "mode",
                            cc_v_strf(d->err, "%04llo", (unsigned long long)cc_v_getint(cc_v_get(e, "mode"))), d->err));
                        TRY(cc_finding_fix(f, d->err,
                                           "take it out of %s, or make it writable only by its owner: chmod o-w '%s'",
                                           var, entry));
                }
        }
        return 0;
}

static int setx(struct cc_dctx *d)
{
        const cc_value *rp = cc_v_get(d->host, "registry_path");
        const cc_value *sp = cc_v_get(d->host, "search_paths");
        size_t i;

        if (!d->windows)
                return 0;
        for (i = 0; i < cc_v_len(rp); i++) {
                const cc_value *r = cc_v_at(rp, i);
                int64_t len = cc_v_getint(cc_v_get(r, "length"));
                cc_value *f;

                if (len < 1024 || len > 1024)
                        continue;
                f = cc_finding(d, "win-setx-truncation", "warning", "hygiene",
                               "PATH in %s is exactly 1024 characters: what 'setx PATH' leaves after truncating it; "
                               "the entries after the cut are gone",
                               cc_v_get_str(r, "key"));
                TRY(cc_finding_ev(f, "length", cc_v_int(len, d->err), d->err));
                TRY(cc_finding_ev_str(f, "key", cc_v_get_str(r, "key"), d->err));
                TRY(cc_finding_fix(f, d->err,
                                   "restore PATH in System Properties > Environment Variables (never with setx, which "
                                   "cuts at 1024 characters; for one shell: $env:PATH = \"DIR;\" + $env:PATH)"));
        }
        if (cc_v_len(rp) == 0) {
                /* without the registry (a --root image): the environment's PATH */
                for (i = 0; i < cc_v_len(sp); i++) {
                        const cc_value *p = cc_v_at(sp, i);
                        cc_value *f;

                        if (strcmp(cc_v_get_str(p, "variable") ? cc_v_get_str(p, "variable") : "", "PATH") != 0 ||
                            cc_v_getint(cc_v_get(p, "length")) != 1024)
                                continue;
                        f = cc_finding(d, "win-setx-truncation", "warning", "hygiene",
                                       "PATH is exactly 1024 characters: what 'setx PATH' leaves after truncating "
                                       "it; the entries after the cut are gone");
                        TRY(cc_finding_ev(f, "length", cc_v_int(1024, d->err), d->err));
                        TRY(cc_finding_fix(f, d->err,
                                           "restore PATH in System Properties > Environment Variables (never with "
                                           "setx)"));
                }
        }
        return 0;
}

int cc_checks_hygiene(struct cc_dctx *d)
{
        const cc_value *sp = cc_v_get(d->host, "search_paths");
        size_t i;

        for (i = 0; i < cc_v_len(sp); i++)
                if (cc_v_type(cc_v_at(sp, i)) == CUDNNCTL_OBJECT)
                        TRY(entry_findings(d, cc_v_at(sp, i)));
        TRY(setx(d));
        return 0;
}
