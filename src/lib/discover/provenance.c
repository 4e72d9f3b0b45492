/* Provenance: which packaging explains an installation. The steps
 * (prov_*.c) are tried in order (pip wheel, conda package, Windows
 * installer, distro package, CUDA toolkit, archive copy); the first that
 * matches decides the kind and its evidence; when none does, the files were
 * copied there (into System32, or into a plain directory). Also the evidence
 * helpers the steps share. */
#include "group.h"
#include "uninstall.h"

#include "../facts/views.h"

#include "../formats/distinfo.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cc_disc_evidence(struct cc_dprov *c, const char *fmt, ...)
{
        va_list ap;
        char *s;

        va_start(ap, fmt);
        s = cc_vasprintf(c->err, fmt, ap);
        va_end(ap);
        if (s == NULL)
                return -1;
        if (cc_v_push(c->evidence, cc_v_str(s, c->err), c->err) < 0) {
                free(s);
                return -1;
        }
        free(s);
        return 0;
}

/* An installation-level version source: {component, source, version, file}. */
cc_value *cc_disc_extra_version(cc_dinst *in, const char *source, const char *version, const char *file, cc_error *err)
{
        cc_value *e = cc_v_object(err);

        if (cc_v_push(in->extra, e, err) < 0)
                return NULL;
        if (cc_v_set_str(e, "component", "cudnn", err) < 0 || cc_v_set_str(e, "source", source, err) < 0 ||
            cc_v_set_str(e, "version", version, err) < 0 || cc_v_set(e, "file", cc_v_str(file, err), err) < 0)
                return NULL;
        return e;
}

/* A dist-info directory's METADATA: name and version (caller frees). */
int cc_disc_read_metadata(const cc_discovery *d, const char *distdir, char **name, char **version, cc_error *err)
{
        char *p, *text = NULL;
        size_t len;
        cc_metadata *m = NULL;
        cc_error perr = {0};

        *name = *version = NULL;
        p = cc_disc_join(d, distdir, "METADATA", err);
        if (p == NULL)
                return -1;
        if (cc_disc_read_small(d, p, MAX_SMALL, &text, &len, err) < 0) {
                free(p);
                return -1;
        }
        free(p);
        if (text == NULL)
                return 0;
        if (cc_metadata_parse(text, len, &m, &perr) < 0) {
                free(text);
                if (perr.code == CC_ERR_NOMEM) {
                        *err = perr;
                        return -1;
                }
                return 0;
        }
        free(text);
        if (m->name && (*name = cc_strdup(err, m->name)) == NULL)
                goto fail;
        if (m->version && (*version = cc_strdup(err, m->version)) == NULL)
                goto fail;
        cc_metadata_free(m);
        return 0;
fail:
        cc_metadata_free(m);
        free(*name);
        *name = NULL;
        return -1;
}

/* How many RECORD lines of a dist-info start with rel ("nvidia/cudnn/");
 * -1 when there is no RECORD. */
long cc_disc_record_count(const cc_discovery *d, const char *distdir, const char *rel, cc_error *err)
{
        char *p, *text = NULL;
        size_t len, rl = strlen(rel);
        long n = 0;
        const char *s;

        p = cc_disc_join(d, distdir, "RECORD", err);
        if (p == NULL)
                return -2;
        if (cc_disc_read_small(d, p, (size_t)64 << 20, &text, &len, err) < 0) {
                free(p);
                return -2;
        }
        free(p);
        if (text == NULL)
                return -1;
        for (s = text; *s;) {
                const char *e = strchr(s, '\n');
                size_t ll = e ? (size_t)(e - s) : strlen(s);

                if (ll >= rl && (d->nocase ? cc_strncasecmp(s, rel, rl) : strncmp(s, rel, rl)) == 0)
                        n++;
                s += ll + (e ? 1 : 0);
        }
        free(text);
        return n;
}

/* One package object for provenance.packages. */
cc_value *cc_disc_package_obj(const char *manager, const char *name, const char *version, cc_error *err)
{
        cc_value *o = cc_v_object(err);

        if (o == NULL)
                return NULL;
        if (cc_v_set_str(o, "manager", manager, err) < 0 || cc_v_set(o, "name", cc_v_str(name, err), err) < 0 ||
            cc_v_set(o, "version", cc_v_str(version, err), err) < 0) {
                cc_v_free(o);
                return NULL;
        }
        return o;
}

cc_value *cc_disc_packages_of(struct cc_dprov *c)
{
        cc_value *p = cc_v_getm(c->prov, CC_K(provenance, packages));

        if (p == NULL && cc_v_set(c->prov, CC_K(provenance, packages), cc_v_array(c->err), c->err) == 0)
                p = cc_v_getm(c->prov, CC_K(provenance, packages));
        return p;
}

int cc_disc_is_system_dir(const cc_discovery *d, const char *prefix)
{
        const char *b = cc_basename(prefix);

        return d->system == CC_SYS_WINDOWS && (cc_strcasecmp(b, "System32") == 0 || cc_strcasecmp(b, "SysWOW64") == 0);
}

int cc_disc_provenance(cc_discovery *d, cc_dinst *in, cc_error *err)
{
        int (*const steps[])(struct cc_dprov *, int *) = {cc_disc_prov_pip,       cc_disc_prov_conda,
                                                          cc_disc_prov_installer, cc_disc_prov_distro,
                                                          cc_disc_prov_toolkit,   cc_disc_prov_archive};
        struct cc_dprov c;
        size_t i;
        int st, matched = 0, cudnn_entry = 0;

        c.d = d;
        c.in = in;
        c.err = err;
        c.prov = in->provenance = cc_v_object(err);
        c.evidence = cc_v_array(err);
        if (c.prov == NULL || cc_v_set(c.prov, "kind", cc_v_null(err), err) < 0 ||
            cc_v_set(c.prov, "evidence", c.evidence, err) < 0)
                return -1;
        if (cc_disc_get_dir(d, in->prefix, 0, &c.pdir, &st, NULL, 0, err) < 0)
                return -1;
        if (c.pdir != SIZE_MAX && d->dirs[c.pdir]->listed <= 0)
                c.pdir = SIZE_MAX;
        for (i = 0; i < CC_ARRAY_LEN(steps) && !matched; i++)
                if (steps[i](&c, &matched) < 0)
                        return -1;
        /* whatever the kind: the Windows uninstall entries that name it */
        if (cc_disc_prov_uninstall(d, in, &cudnn_entry, err) < 0)
                return -1;
        if (matched)
                return 0;
        if (cudnn_entry) {
                /* the cuDNN exe installer put it there (its InstallLocation), not a hand copy */
                if (cc_v_set_str(c.prov, "kind", "windows-installer", err) < 0 ||
                    cc_disc_evidence(&c, "%s (the InstallLocation of a cuDNN installer's uninstall entry)",
                                     in->prefix) < 0)
                        return -1;
                return 0;
        }
        if (cc_v_set_str(c.prov, "kind", "copy", err) < 0)
                return -1;
        if (cc_disc_is_system_dir(d, in->prefix)) {
                if (cc_v_set_str(c.prov, "location", "system-directory", err) < 0 ||
                    cc_disc_inst_note(in, err, "cuDNN copied into %s: every program finds it before PATH", in->prefix) <
                        0)
                        return -1;
        } else if (cc_v_set_str(c.prov, "location", "directory", err) < 0 ||
                   cc_disc_inst_note(in, err,
                                     "no package, toolkit, archive or installer layout explains these files: copied "
                                     "there by hand") < 0) {
                return -1;
        }
        return 0;
}
