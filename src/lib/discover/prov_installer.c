/* Provenance of the Windows cuDNN installer: a prefix
 * C:\Program Files\NVIDIA\CUDNN\v<version> is the installer's directory,
 * its version taken from the directory's name. */
#include "group.h"

#include <stdlib.h>
#include <string.h>

int cc_disc_prov_installer(struct cc_dprov *c, int *matched)
{
        cc_discovery *d = c->d;
        cc_error *err = c->err;
        cc_strv comps = {0};
        const char *base;
        cudnnctl_ver v;
        int rv = -1;

        *matched = 0;
        if (d->system != CC_SYS_WINDOWS)
                return 0;
        TRY(cc_disc_split_path(d, c->in->prefix, &comps, err));
        if (comps.n < 3 || !cc_disc_name_eq(d, comps.v[comps.n - 2], "CUDNN") ||
            !cc_disc_name_eq(d, comps.v[comps.n - 3], "NVIDIA")) {
                rv = 0;
                goto fail;
        }
        base = comps.v[comps.n - 1];
        TRY(cc_v_set_str(c->prov, "kind", "windows-installer", err));
        TRY(cc_disc_evidence(c, "%s (the cuDNN installer's directory)", c->in->prefix));
        if ((base[0] == 'v' || base[0] == 'V') && cudnnctl_ver_parse(base + 1, &v) == 0) {
                char vb[64];
                cc_value *o = cc_v_object(err);

                cudnnctl_ver_str(&v, vb, sizeof(vb));
                if (cc_v_set(c->prov, "installer", o, err) < 0 || cc_v_set_str(o, "version", vb, err) < 0 ||
                    cc_disc_extra_version(c->in, "installer-directory", vb, c->in->prefix, err) == NULL)
                        goto fail;
        }
        *matched = 1;
        rv = 0;
fail:
        cc_strv_free(&comps);
        return rv;
}
