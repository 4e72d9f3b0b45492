/* Provenance of a conda package: a prefix with conda-meta is a conda
 * environment; a cudnn package's JSON there makes the installation a conda
 * package (name, version, build), else the files were copied into the
 * environment by hand. */
#include "group.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cc_disc_prov_conda(struct cc_dprov *c, int *matched)
{
        cc_discovery *d = c->d;
        cc_error *err = c->err;
        const char *cm;
        char *meta = NULL;
        size_t mi, i;
        int st, rv = -1, found = 0;

        *matched = 0;
        if (c->pdir == SIZE_MAX || (cm = cc_disc_has(d, c->pdir, "conda-meta")) == NULL)
                return 0;
        meta = cc_disc_join(d, c->in->prefix, cm, err);
        if (meta == NULL)
                return -1;
        TRY(cc_disc_get_dir(d, meta, 0, &mi, &st, NULL, 0, err));
        for (i = 0; mi != SIZE_MAX && i < d->dirs[mi]->names.n; i++) {
                const char *nm = d->dirs[mi]->names.v[i];
                char buf[256], *b1, *b2, *file;
                const char *name, *ver, *build;
                cc_value *pkg, *ve;

                if (!cc_ends_with(nm, ".json") || strlen(nm) >= sizeof(buf) || strstr(nm, "cudnn") == NULL)
                        continue;
                snprintf(buf, sizeof(buf), "%.*s", (int)(strlen(nm) - 5), nm);
                b2 = strrchr(buf, '-');
                if (b2 == NULL)
                        continue;
                *b2 = '\0';
                b1 = strrchr(buf, '-');
                if (b1 == NULL)
                        continue;
                *b1 = '\0';
                name = buf;
                ver = b1 + 1;
                build = b2 + 1;
                if (strstr(name, "cudnn") == NULL)
                        continue;
                file = cc_disc_join(d, meta, nm, err);
                pkg = cc_disc_package_obj("conda", name, ver, err);
                if (file == NULL || cc_v_push(cc_disc_packages_of(c), pkg, err) < 0 ||
                    cc_v_set_str(pkg, "build", build, err) < 0 || cc_v_set_str(pkg, "file", file, err) < 0) {
                        free(file);
                        goto fail;
                }
                found = 1;
                if (cc_disc_evidence(c, "%s", file) < 0 ||
                    (ve = cc_disc_extra_version(c->in, "conda-meta", ver, file, err)) == NULL ||
                    cc_v_set_str(ve, "package", name, err) < 0 || cc_v_set_str(ve, "build", build, err) < 0) {
                        free(file);
                        goto fail;
                }
                free(file);
        }
        if (found) {
                TRY(cc_v_set_str(c->prov, "kind", "conda-package", err));
        } else {
                TRY(cc_v_set_str(c->prov, "kind", "copy", err));
                TRY(cc_v_set_str(c->prov, "location", "conda-environment", err));
                TRY(cc_disc_evidence(c, "%s (no cudnn package in it)", meta));
                TRY(cc_disc_inst_note(
                    c->in, err,
                    "a conda environment, but no conda package of cuDNN is installed in it: the files were "
                    "copied in by hand"));
        }
        *matched = 1;
        rv = 0;
fail:
        free(meta);
        return rv;
}
