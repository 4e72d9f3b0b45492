/* Windows' uninstall entries of NVIDIA's CUDA toolkits and cuDNN
 * installers (uninstall.h): read from the registry of the running machine,
 * and written into the provenance of the installations they explain.
 *
 * Where: HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Uninstall in the
 * 64-bit view (NVIDIA's installers are 64-bit programs and write there),
 * HKLM\SOFTWARE\WOW6432Node\...\Uninstall (the 32-bit view: one more key
 * listed, read too so that a 32-bit installer's entry is not missed), and
 * HKCU's own Uninstall key (per-user installs). */
#include "group.h"
#include "uninstall.h"

#include "../facts/views.h"

#include <stdlib.h>
#include <string.h>

static const struct {
        const char *hive, *key;
} places[] = {
    {"HKLM", "SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Uninstall"},
    {"HKLM", "SOFTWARE\\WOW6432Node\\Microsoft\\Windows\\CurrentVersion\\Uninstall"},
    {"HKCU", "Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall"},
};

/* The value named name (case ignored) of those read, or NULL. */
static const char *value_of(const cc_strv *names, const cc_strv *data, const char *name)
{
        size_t i;

        for (i = 0; i < names->n && i < data->n; i++)
                if (cc_strcasecmp(names->v[i], name) == 0)
                        return data->v[i];
        return NULL;
}

/* A failure of a registry read: out of memory stops everything (-1),
 * anything else skips what was being read (0). */
static int soft(cc_error *rerr, cc_error *err)
{
        if (rerr->code == CC_ERR_NOMEM) {
                *err = *rerr;
                return -1;
        }
        cc_err_clear(rerr);
        return 0;
}

static int read_entry(cc_uentries *es, const char *hive, const char *key, const char *sub, cc_error *err)
{
        cc_strv names = {0}, data = {0};
        cc_error rerr = {0};
        char *full = NULL, *where = NULL;
        const char *why;
        int rv = -1;

        full = cc_asprintf(err, "%s\\%s", key, sub);
        if (full == NULL)
                goto fail;
        /* Only string values come back, each at most 4 KB: a DWORD where a
         * string belongs, or a string longer than that, reads as absent. */
        if (cc_reg_values(hive, full, &names, &data, &rerr) < 0) {
                rv = soft(&rerr, err); /* gone since the listing, or unreadable: skipped */
                goto fail;
        }
        where = cc_asprintf(err, "%s\\%s", hive, full);
        if (where == NULL)
                goto fail;
        if (cc_uninst_add(es, where, value_of(&names, &data, "DisplayName"), value_of(&names, &data, "DisplayVersion"),
                          value_of(&names, &data, "Publisher"), value_of(&names, &data, "InstallLocation"), &why,
                          err) < 0)
                goto fail;
        rv = 0;
fail:
        free(full);
        free(where);
        cc_strv_free(&names);
        cc_strv_free(&data);
        return rv;
}

int cc_disc_uninstall_read(cc_discovery *d, cc_error *err)
{
        cc_uentries *es;
        size_t p, i;

        if (!d->m->live || d->system != CC_SYS_WINDOWS || !cc_host_is_windows() || d->uninst != NULL)
                return 0;
        es = cc_calloc(err, 1, sizeof(*es));
        if (es == NULL)
                return -1;
        d->uninst = es;
        for (p = 0; p < CC_ARRAY_LEN(places); p++) {
                cc_strv subs = {0};
                cc_error rerr = {0};

                if (cc_reg_subkeys(places[p].hive, places[p].key, &subs, &rerr) < 0) {
                        cc_strv_free(&subs);
                        if (soft(&rerr, err) < 0)
                                return -1;
                        continue; /* no such key (HKCU often has none) */
                }
                for (i = 0; i < subs.n; i++)
                        if (read_entry(es, places[p].hive, places[p].key, subs.v[i], err) < 0) {
                                cc_strv_free(&subs);
                                return -1;
                        }
                cc_strv_free(&subs);
        }
        return 0;
}

/* Matched entries, shown cuDNN first, then the toolkit and its parts. */
struct ument {
        size_t entry;
        int how, rank;
};

static int ument_cmp(const void *a, const void *b)
{
        const struct ument *x = a, *y = b;

        if (x->rank != y->rank)
                return x->rank < y->rank ? -1 : 1;
        return x->entry < y->entry ? -1 : x->entry > y->entry;
}

static cc_value *entry_obj(const cc_uentry *e, int how, cc_error *err)
{
        cc_value *o = cc_v_object(err);

        if (o == NULL)
                return NULL;
        if (cc_v_set_str(o, CC_K(prov_uninstall, name), e->name, err) < 0 ||
            cc_v_set(o, CC_K(prov_uninstall, version), cc_v_str(e->version, err), err) < 0 ||
            cc_v_set(o, CC_K(prov_uninstall, publisher), cc_v_str(e->publisher, err), err) < 0 ||
            cc_v_set(o, CC_K(prov_uninstall, location), cc_v_str(e->location, err), err) < 0 ||
            cc_v_set_str(o, CC_K(prov_uninstall, key), e->key ? e->key : "", err) < 0 ||
            cc_v_set_str(o, CC_K(prov_uninstall, matched_by),
                         how == CC_UNINST_BY_LOCATION ? "install-location" : "standard-path", err) < 0) {
                cc_v_free(o);
                return NULL;
        }
        return o;
}

int cc_disc_prov_uninstall(cc_discovery *d, cc_dinst *in, int *cudnn_entry, cc_error *err)
{
        const cc_uentries *es = d->uninst;
        const char **prefixes = NULL;
        const char *pf;
        cc_umatch *m = NULL;
        struct ument *u = NULL;
        size_t np = 0, nm = 0, nu = 0, i, k;
        cc_value *arr = NULL;
        int rv = -1;

        *cudnn_entry = 0;
        if (es == NULL || es->n == 0 || in->provenance == NULL)
                return 0;
        prefixes = cc_calloc(err, in->aliases.n + 1, sizeof(*prefixes));
        if (prefixes == NULL)
                return -1;
        prefixes[np++] = in->prefix;
        for (i = 0; i < in->aliases.n; i++)
                prefixes[np++] = in->aliases.v[i];
        pf = cc_machine_getenv(d->m, "ProgramW6432");
        if (pf == NULL || pf[0] == '\0')
                pf = cc_machine_getenv(d->m, "ProgramFiles");
        TRY(cc_uninst_match(es->v, es->n, prefixes, np, pf, &m, &nm, err));
        if (nm == 0) {
                rv = 0;
                goto fail;
        }
        u = cc_calloc(err, nm, sizeof(*u));
        if (u == NULL)
                goto fail;
        for (i = 0; i < nm; i++) {
                for (k = 0; k < nu && u[k].entry != m[i].entry; k++)
                        ;
                if (k < nu)
                        continue; /* the same entry through an alias */
                u[nu].entry = m[i].entry;
                if (es->v[m[i].entry].kind == CC_UNINST_CUDNN)
                        *cudnn_entry = 1;
                u[nu].how = m[i].how;
                u[nu].rank = cc_uninst_rank(&es->v[m[i].entry]);
                nu++;
        }
        qsort(u, nu, sizeof(*u), ument_cmp);
        arr = cc_v_array(err);
        if (arr == NULL)
                goto fail;
        for (i = 0; i < nu; i++)
                TRY(cc_v_push(arr, entry_obj(&es->v[u[i].entry], u[i].how, err), err));
        {
                cc_value *a = arr; /* cc_v_set owns it, also when it fails */

                arr = NULL;
                TRY(cc_v_set(in->provenance, CC_K(provenance, uninstall_entries), a, err));
        }
        rv = 0;
fail:
        cc_v_free(arr);
        free(prefixes);
        free(m);
        free(u);
        return rv;
}
