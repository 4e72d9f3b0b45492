/* Provenance of an archive copy: a prefix named like a cuDNN archive of any
 * era (or the legacy layout <archive>/cuda/lib64), or holding a cuDNN
 * license, is an unpacked archive. */
#include "group.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cc_disc_prov_archive(struct cc_dprov *c, int *matched)
{
        static const char *const exts[] = {".tar.xz", ".zip", ".tgz", ".tar.gz"};
        cc_discovery *d = c->d;
        cc_error *err = c->err;
        const char *names[2], *lic;
        char *par = NULL, *p = NULL, *text = NULL;
        size_t n = 0, i, k, len;
        int found = 0, rv = -1;

        *matched = 0;
        par = cc_tree_dirname(d->t, c->in->prefix, err);
        if (par == NULL)
                return -1;
        names[n++] = cc_basename(c->in->prefix);
        if (cc_disc_name_eq(d, names[0], "cuda"))
                names[n++] = cc_basename(par); /* the legacy layout: <archive>/cuda/lib64 */
        for (i = 0; i < n && !found; i++) {
                for (k = 0; k < CC_ARRAY_LEN(exts) && !found; k++) {
                        char buf[320];
                        cc_archname an;

                        if (snprintf(buf, sizeof(buf), "%s%s", names[i], exts[k]) >= (int)sizeof(buf))
                                continue;
                        if (cc_name_archive(buf, &an) < 0 || an.era == CC_ERA_WHEEL)
                                continue;
                        {
                                cc_value *o = cc_v_object(err);
                                char vb[64];
                                const char *era = an.era == CC_ERA_LEGACY ? "legacy" : "redist";
                                const char *dirp = i == 0 ? c->in->prefix : par;

                                if (cc_v_set(c->prov, "archive", o, err) < 0 ||
                                    cc_v_set_str(o, "name", names[i], err) < 0 ||
                                    cc_v_set_str(o, "era", era, err) < 0 ||
                                    cc_v_set(o, "version",
                                             an.version.n ? cc_v_str(cudnnctl_ver_str(&an.version, vb, sizeof(vb)), err)
                                                          : cc_v_null(err),
                                             err) < 0 ||
                                    cc_v_set(o, "cuda", an.cuda[0] ? cc_v_str(an.cuda, err) : cc_v_null(err), err) <
                                        0 ||
                                    cc_v_set_str(o, "platform", an.platform, err) < 0 ||
                                    cc_disc_evidence(c, "%s (named like a cuDNN %s archive)", dirp, era) < 0)
                                        goto fail;
                                if (an.version.n && cc_disc_extra_version(c->in, "archive-name", vb, dirp, err) == NULL)
                                        goto fail;
                        }
                        found = 1;
                }
        }
        if (c->pdir != SIZE_MAX && (lic = cc_disc_has(d, c->pdir, "NVIDIA_SLA_cuDNN_Support.txt")) != NULL) {
                TRY(cc_disc_evidence(c, "%s%c%s (the cuDNN license of a legacy archive)", c->in->prefix, d->sep, lic));
                found = 1;
        }
        if (c->pdir != SIZE_MAX && (lic = cc_disc_has(d, c->pdir, "LICENSE")) != NULL) {
                p = cc_disc_join(d, c->in->prefix, lic, err);
                if (p == NULL)
                        goto fail;
                TRY(cc_disc_read_small(d, p, MAX_SMALL, &text, &len, err));
                for (i = 0; text != NULL && i + 5 <= len; i++)
                        if (cc_strncasecmp(text + i, "cudnn", 5) == 0) {
                                TRY(cc_disc_evidence(c, "%s (a cuDNN license)", p));
                                found = 1;
                                break;
                        }
        }
        if (found) {
                TRY(cc_v_set_str(c->prov, "kind", "archive-copy", err));
                *matched = 1;
        }
        rv = 0;
fail:
        free(par);
        free(p);
        free(text);
        return rv;
}
