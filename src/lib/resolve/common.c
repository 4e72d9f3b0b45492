/* What both loader emulations share: resolutions as data, and short names. */
#include "resolve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TRIES 100000

static char *res_str(cc_resolution *r, const char *s, cc_error *err)
{
        return cc_strpool_add(&r->strs, s, strlen(s), err);
}

void cc_resolution_free(cc_resolution *r)
{
        if (r == NULL)
                return;
        cc_strpool_free(&r->strs);
        free(r->tries);
        free(r->name);
        free(r->path);
        free(r->realpath);
        free(r->origin);
        cc_strv_free(&r->notes);
        memset(r, 0, sizeof(*r));
}

int cc_resolution_add(cc_resolution *r, const char *path, int how, const char *origin, int outcome, const char *detail,
                      const char *realpath, cc_error *err)
{
        cc_try *t;

        if (r->ntries >= MAX_TRIES)
                return cc_err(err, CC_ERR_LIMIT, "%s: more than %d places to try", r->name ? r->name : "search",
                              MAX_TRIES);
        if ((r->ntries & (r->ntries + 1)) == 0 || r->tries == NULL) {
                size_t cap = r->ntries ? (r->ntries + 1) * 2 : 8;
                cc_try *n = cc_realloc(err, r->tries, cap * sizeof(*n));

                if (n == NULL)
                        return -1;
                r->tries = n;
        }
        t = &r->tries[r->ntries];
        memset(t, 0, sizeof(*t));
        t->how = how;
        t->outcome = outcome;
        t->path = res_str(r, path ? path : "", err);
        if (t->path == NULL)
                return -1;
        /* places of one search-path entry share its origin */
        if (origin != NULL && r->ntries > 0 && r->tries[r->ntries - 1].origin != NULL &&
            strcmp(r->tries[r->ntries - 1].origin, origin) == 0)
                t->origin = r->tries[r->ntries - 1].origin;
        else if (origin != NULL && (t->origin = res_str(r, origin, err)) == NULL)
                return -1;
        if (detail != NULL && (t->detail = res_str(r, detail, err)) == NULL)
                return -1;
        if (realpath != NULL && (t->realpath = res_str(r, realpath, err)) == NULL)
                return -1;
        r->ntries++;
        return 0;
}

const char *cc_how_name(int how)
{
        switch (how) {
        case CC_HOW_DIRECT:
                return "direct";
        case CC_HOW_LOADED:
                return "already-loaded";
        case CC_HOW_PRELOAD:
                return "preload";
        case CC_HOW_RPATH:
                return "rpath";
        case CC_HOW_LD_LIBRARY_PATH:
                return "ld_library_path";
        case CC_HOW_RUNPATH:
                return "runpath";
        case CC_HOW_LDCACHE:
                return "ld.so.cache";
        case CC_HOW_DEFAULT:
                return "default-dirs";
        case CC_HOW_APISET:
                return "api-set";
        case CC_HOW_KNOWNDLL:
                return "known-dll";
        case CC_HOW_APPDIR:
                return "application-dir";
        case CC_HOW_DLL_LOAD_DIR:
                return "dll-load-dir";
        case CC_HOW_USER_DIR:
                return "user-dir";
        case CC_HOW_SET_DLL_DIR:
                return "set-dll-directory";
        case CC_HOW_SYSTEM32:
                return "system32";
        case CC_HOW_SYSTEM16:
                return "system16";
        case CC_HOW_WINDIR:
                return "windows-dir";
        case CC_HOW_CWD:
                return "current-dir";
        case CC_HOW_PATH:
                return "path";
        case CC_HOW_NOT_FOUND:
                return "not-found";
        default:
                return "none";
        }
}

const char *cc_outcome_name(int outcome)
{
        switch (outcome) {
        case CC_TRY_FOUND:
                return "found";
        case CC_TRY_SKIPPED:
                return "skipped";
        case CC_TRY_FAILED:
                return "failed";
        case CC_TRY_SHADOWED:
                return "shadowed";
        default:
                return "missing";
        }
}

static int set_opt_str(cc_value *o, const char *key, const char *s, cc_error *err)
{
        return s ? cc_v_set_str(o, key, s, err) : cc_v_set_null(o, key, err);
}

/* One place the search looked at, as facts. */
static cc_value *try_facts(const cc_try *t, cc_error *err)
{
        cc_value *e = cc_v_object(err);

        if (e == NULL)
                return NULL;
        if (cc_v_set_str(e, "path", t->path, err) < 0 || cc_v_set_str(e, "how", cc_how_name(t->how), err) < 0 ||
            set_opt_str(e, "origin", t->origin, err) < 0 ||
            cc_v_set_str(e, "outcome", cc_outcome_name(t->outcome), err) < 0 ||
            (t->detail && cc_v_set_str(e, "detail", t->detail, err) < 0) ||
            (t->realpath && cc_v_set_str(e, "realpath", t->realpath, err) < 0)) {
                cc_v_free(e);
                return NULL;
        }
        return e;
}

/* Append to arr the places of r that the loader tried (shadowed 0) or the
 * copies the winner shadows (shadowed 1). */
static int push_tries(cc_value *arr, const cc_resolution *r, int shadowed, cc_error *err)
{
        size_t i;

        for (i = shadowed ? r->ntried : 0; i < (shadowed ? r->ntries : r->ntried); i++) {
                if (shadowed && r->tries[i].outcome != CC_TRY_SHADOWED)
                        continue; /* after the winner only the copies it shadows count */
                if (cc_v_push(arr, try_facts(&r->tries[i], err), err) < 0)
                        return -1;
        }
        return 0;
}

cc_value *cc_resolution_tried(const cc_resolution *r, cc_error *err)
{
        cc_value *tried = cc_v_array(err);

        if (tried == NULL || push_tries(tried, r, 0, err) < 0) {
                cc_v_free(tried);
                return NULL;
        }
        return tried;
}

cc_value *cc_resolution_facts(const cc_resolution *r, cc_error *err)
{
        cc_value *o = cc_v_object(err), *tried = NULL, *shadowed = NULL;

        if (o == NULL)
                return NULL;
        tried = cc_v_array(err);
        shadowed = cc_v_array(err);
        if (tried == NULL || shadowed == NULL)
                goto fail;
        if (cc_v_set_str(o, "name", r->name, err) < 0 || cc_v_set_bool(o, "found", r->found, err) < 0 ||
            set_opt_str(o, "path", r->path, err) < 0 || set_opt_str(o, "realpath", r->realpath, err) < 0 ||
            cc_v_set_str(o, "how", cc_how_name(r->how), err) < 0 || set_opt_str(o, "origin", r->origin, err) < 0)
                goto fail;
        if (r->win_error && cc_v_set_int(o, "windows_error", r->win_error, err) < 0)
                goto fail;
        if (push_tries(tried, r, 0, err) < 0 || push_tries(shadowed, r, 1, err) < 0)
                goto fail;
        if (cc_v_set(o, "tried", tried, err) < 0) {
                tried = NULL;
                goto fail;
        }
        tried = NULL;
        if (cc_v_set(o, "shadowed", shadowed, err) < 0) {
                shadowed = NULL;
                goto fail;
        }
        shadowed = NULL;
        if (cc_v_set(o, "notes", cc_v_strv(&r->notes, err), err) < 0)
                goto fail;
        return o;
fail:
        cc_v_free(tried);
        cc_v_free(shadowed);
        cc_v_free(o);
        return NULL;
}

int cc_resolution_fails(const cc_resolution *r)
{
        return !r->found && ((r->ntried > 0 && r->tries[r->ntried - 1].outcome == CC_TRY_FAILED) ||
                             r->win_error == 193 /* ERROR_BAD_EXE_FORMAT */);
}
