/* Provenance of a pip wheel: an installation in site-packages/nvidia/cudnn
 * (or torch/lib) is a wheel when a dist-info beside it claims the files
 * (its RECORD decides; without one, the CUDA major in its name); its
 * package, version and CUDA major become evidence. */
#include "group.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cc_disc_prov_pip(struct cc_dprov *c, int *matched)
{
        cc_discovery *d = c->d;
        cc_error *err = c->err;
        const char *base = cc_basename(c->in->prefix);
        char *par = NULL, *site = NULL, *rel = NULL;
        size_t si, i;
        int st, torch = 0, rv = -1, found = 0;
        long cuda = -1;

        *matched = 0;
        par = cc_tree_dirname(d->t, c->in->prefix, err);
        if (par == NULL)
                goto fail;
        if (cc_disc_name_eq(d, cc_basename(par), "nvidia") &&
            (cc_disc_name_eq(d, base, "cudnn") || cc_glob_match("cu[0-9]*", base, d->nocase))) {
                site = cc_tree_dirname(d->t, par, err);
                rel = cc_asprintf(err, "nvidia/%s/", base);
                if (site == NULL || rel == NULL)
                        goto fail;
                if (base[2] >= '0' && base[2] <= '9')
                        cuda = strtol(base + 2, NULL, 10);
        } else if (cc_disc_name_eq(d, base, "torch")) {
                site = par;
                par = NULL;
                torch = 1;
        } else {
                rv = 0;
                goto fail;
        }
        TRY(cc_disc_get_dir(d, site, 0, &si, &st, NULL, 0, err));
        if (si == SIZE_MAX) {
                rv = 0;
                goto fail;
        }
        for (i = 0; i < d->dirs[si]->names.n; i++) {
                const char *nm = d->dirs[si]->names.v[i];
                cc_distname dn;
                char *dist = NULL, *mname = NULL, *mver = NULL;
                long nrec = -1;
                cc_value *pkg;

                if (cc_name_distinfo(nm, &dn) < 0 || !cc_ends_with(nm, ".dist-info"))
                        continue;
                if (torch ? strcmp(dn.package, "torch") != 0 : !dn.is_cudnn)
                        continue;
                dist = cc_disc_join(d, site, nm, err);
                if (dist == NULL)
                        goto fail;
                if (!torch) {
                        nrec = cc_disc_record_count(d, dist, rel, err);
                        if (nrec < -1) {
                                free(dist);
                                goto fail;
                        }
                        /* RECORD decides; without one, the CUDA major in the name */
                        if (nrec == 0 || (nrec < 0 && cuda >= 0 && dn.cuda_major >= 0 && dn.cuda_major != cuda)) {
                                free(dist);
                                continue;
                        }
                }
                if (cc_disc_read_metadata(d, dist, &mname, &mver, err) < 0) {
                        free(dist);
                        goto fail;
                }
                found = 1;
                if (torch) {
                        cc_value *b = cc_v_object(err);

                        if (cc_v_set(c->prov, "bundled_in", b, err) < 0 ||
                            cc_v_set_str(b, "name", mname ? mname : "torch", err) < 0 ||
                            cc_v_set_str(b, "version", mver ? mver : dn.version_str, err) < 0 ||
                            cc_v_set_str(b, "dist_info", dist, err) < 0 ||
                            cc_disc_evidence(c, "%s (the torch wheel bundles these cuDNN files)", dist) < 0) {
                                free(dist);
                                free(mname);
                                free(mver);
                                goto fail;
                        }
                } else {
                        cc_value *ve;
                        char *meta = cc_disc_join(d, dist, "METADATA", err);
                        const char *ver = mver ? mver : dn.version_str;
                        int rc;

                        pkg = cc_disc_package_obj("pip", mname ? mname : dn.package, ver, err);
                        rc = meta == NULL || cc_v_push(cc_disc_packages_of(c), pkg, err) < 0 ? -1 : 0;
                        if (rc == 0 && (cc_v_set_str(pkg, "dist_info", dist, err) < 0 ||
                                        (nrec >= 0 && cc_v_set_int(pkg, "record_files", nrec, err) < 0)))
                                rc = -1;
                        if (rc == 0)
                                rc = nrec >= 0 ? cc_disc_evidence(c, "%s (its RECORD lists %ld files under %s)", dist,
                                                                  nrec, rel)
                                               : cc_disc_evidence(c, "%s (no RECORD)", dist);
                        if (rc == 0 && ((ve = cc_disc_extra_version(c->in, "dist-info", ver, meta, err)) == NULL ||
                                        cc_v_set_str(ve, "package", mname ? mname : dn.package, err) < 0 ||
                                        (dn.cuda_major >= 0 && cc_v_set_int(ve, "cuda_major", dn.cuda_major, err) < 0)))
                                rc = -1;
                        free(meta);
                        if (rc < 0) {
                                free(dist);
                                free(mname);
                                free(mver);
                                goto fail;
                        }
                }
                free(dist);
                free(mname);
                free(mver);
        }
        if (!found) {
                TRY(cc_disc_inst_note(c->in, err,
                                      torch ? "no torch dist-info in %s: which wheel put these files there is unknown"
                                            : "no nvidia-cudnn dist-info in %s owns these files: copied in by hand?",
                                      site));
                rv = 0;
                goto fail;
        }
        TRY(cc_v_set_str(c->prov, "kind", "pip-wheel", err));
        TRY(cc_v_set_str(c->prov, "site_packages", site, err));
        *matched = 1;
        rv = 0;
fail:
        free(par);
        free(site);
        free(rel);
        return rv;
}
