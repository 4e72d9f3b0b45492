/* Provenance of a CUDA toolkit: a prefix with the toolkit's own files
 * (bin/nvcc, version.json or version.txt, include/cuda.h, a name like
 * cuda-12.4 or CUDA\v11.4, dist-infos of the toolkit's wheels) is a
 * toolkit; each source's version is kept, and the toolkit's version is
 * MAJOR.MINOR only when they agree. */
#include "group.h"

#include "../facts/views.h"

#include "../formats/cheader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* version.json: "cuda": { ..., "version": "12.4.1" } */
static int json_cuda_version(const char *text, char *out, size_t n)
{
        const char *p = text;

        while ((p = strstr(p, "\"cuda\"")) != NULL) {
                const char *q = p + 6, *end;

                p += 6;
                while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')
                        q++;
                if (*q++ != ':')
                        continue;
                while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')
                        q++;
                if (*q != '{')
                        continue;
                end = strchr(q, '}');
                q = strstr(q, "\"version\"");
                if (q == NULL || (end && q > end))
                        continue;
                q += 9;
                while (*q == ' ' || *q == '\t' || *q == ':' || *q == '\r' || *q == '\n')
                        q++;
                if (*q++ != '"')
                        continue;
                end = strchr(q, '"');
                if (end == NULL || (size_t)(end - q) >= n)
                        return -1;
                memcpy(out, q, (size_t)(end - q));
                out[end - q] = '\0';
                return 0;
        }
        return -1;
}

static int toolkit_source(cc_value *srcs, const char *source, const char *version, const char *file, cc_error *err)
{
        cc_value *o = cc_v_object(err);

        if (cc_v_push(srcs, o, err) < 0)
                return -1;
        if (cc_v_set_str(o, CC_K(toolkit_source, source), source, err) < 0 ||
            cc_v_set_str(o, CC_K(toolkit_source, version), version, err) < 0 ||
            cc_v_set(o, CC_K(toolkit_source, file), cc_v_str(file, err), err) < 0)
                return -1;
        return 0;
}

/* A toolkit's dist-info directory (a toolkit assembled from NVIDIA's
 * wheels keeps them in PREFIX/dist-info). */
static int toolkit_distinfo(struct cc_dprov *c, cc_value *srcs, int *cudnn_from, cc_error *err)
{
        cc_discovery *d = c->d;
        const char *dn;
        char *dir = NULL;
        size_t di, i;
        int st, rv = -1;

        if (c->pdir == SIZE_MAX || (dn = cc_disc_has(d, c->pdir, "dist-info")) == NULL)
                return 0;
        dir = cc_disc_join(d, c->in->prefix, dn, err);
        if (dir == NULL)
                return -1;
        TRY(cc_disc_get_dir(d, dir, 0, &di, &st, NULL, 0, err));
        for (i = 0; di != SIZE_MAX && i < d->dirs[di]->names.n; i++) {
                const char *nm = d->dirs[di]->names.v[i];
                cc_distname n;
                char *p;

                if (cc_name_distinfo(nm, &n) < 0)
                        continue;
                p = cc_disc_join(d, dir, nm, err);
                if (p == NULL)
                        goto fail;
                if (cc_starts_with(n.package, "nvidia_cuda_runtime") || cc_starts_with(n.package, "nvidia_cuda_nvcc")) {
                        if (toolkit_source(srcs, "dist-info", n.version_str, p, err) < 0) {
                                free(p);
                                goto fail;
                        }
                } else if (n.is_cudnn) {
                        char *mname = NULL, *mver = NULL, *meta = cc_disc_join(d, p, "METADATA", err);
                        const char *ver;
                        cc_value *pkg, *ve;

                        if (meta == NULL || cc_disc_read_metadata(d, p, &mname, &mver, err) < 0) {
                                free(meta);
                                free(p);
                                goto fail;
                        }
                        ver = mver ? mver : n.version_str;
                        pkg = cc_disc_package_obj("pip", mname ? mname : n.package, ver, err);
                        if (cc_v_push(cc_disc_packages_of(c), pkg, err) < 0 ||
                            cc_v_set_str(pkg, "dist_info", p, err) < 0 ||
                            cc_disc_evidence(c, "%s (cuDNN came with the toolkit's wheels)", p) < 0 ||
                            (ve = cc_disc_extra_version(c->in, "dist-info", ver, meta, err)) == NULL ||
                            cc_v_set_str(ve, "package", mname ? mname : n.package, err) < 0 ||
                            (n.cuda_major >= 0 && cc_v_set_int(ve, "cuda_major", n.cuda_major, err) < 0)) {
                                free(mname);
                                free(mver);
                                free(meta);
                                free(p);
                                goto fail;
                        }
                        *cudnn_from = 1;
                        free(mname);
                        free(mver);
                        free(meta);
                }
                free(p);
        }
        rv = 0;
fail:
        free(dir);
        return rv;
}

/* CUDA_VERSION from include/cuda.h (at p): the macro is one line near the
 * top of a megabyte, so the file is mapped and only that line read (a copy
 * of all of it cost a page fault per 4 KiB). A file that is not there, cannot
 * be read or changed while read gives nothing; -1 only when out of memory. */
static int cuda_h_version(cc_discovery *d, cc_value *srcs, const char *p, cc_error *err)
{
        static const char key[] = "#define CUDA_VERSION";
        const size_t kl = sizeof(key) - 1;
        cc_map mp;
        cc_error merr = {0};
        const char *text, *line = NULL;
        size_t n, at = 0, ll = 0;
        cc_header *h = NULL;
        int64_t cv;
        cudnnctl_ver v;
        char vb[64];
        int rv = 0;

        if (cc_tree_map(d->t, p, MAX_HEADER, &mp, &merr) < 0) {
                if (merr.code == CC_ERR_NOMEM) {
                        *err = merr;
                        return -1;
                }
                return 0;
        }
        text = (const char *)mp.data;
        n = mp.size;
        /* the name followed by a blank: not CUDA_VERSION_SOMETHING */
        while (text != NULL && at < n) {
                const char *hit = cc_memmem(text + at, n - at, key, kl);

                if (hit == NULL)
                        break;
                at = (size_t)(hit - text) + kl;
                if (at < n && (text[at] == ' ' || text[at] == '\t')) {
                        line = hit;
                        break;
                }
        }
        if (line != NULL) {
                const char *end = memchr(line, '\n', n - (size_t)(line - text));

                ll = end != NULL ? (size_t)(end - line) : n - (size_t)(line - text);
        }
        if (line != NULL && cc_header_parse(line, ll, &h, &merr) == 0) {
                const cc_header *hs[1] = {h};

                if (cc_header_eval(hs, 1, "CUDA_VERSION", &cv, &merr) == 0 && cudnnctl_cuda_decode((long)cv, &v) == 0 &&
                    !cc_map_changed(&mp))
                        rv = toolkit_source(srcs, "cuda.h", cudnnctl_ver_str(&v, vb, sizeof(vb)), p, err);
        }
        if (merr.code == CC_ERR_NOMEM) {
                *err = merr;
                rv = -1;
        }
        cc_header_free(h);
        cc_unmap(&mp);
        return rv;
}

int cc_disc_prov_toolkit(struct cc_dprov *c, int *matched)
{
        cc_discovery *d = c->d;
        cc_error *err = c->err;
        cc_dinst *in = c->in;
        int win = d->system == CC_SYS_WINDOWS, named = 0, nvcc = 0, r, rv = -1, cudnn_from = 0;
        const char *base = cc_basename(in->prefix);
        char *p = NULL, *text = NULL, *par = NULL, vb[64];
        size_t len, i;
        cc_value *tk = NULL, *srcs;
        cudnnctl_ver v, agreed = {0};
        int agree = 1;

        *matched = 0;
        tk = cc_v_object(err);
        srcs = cc_v_array(err);
        if (tk == NULL || cc_v_set(tk, CC_K(prov_toolkit, sources), srcs, err) < 0)
                goto fail;
        /* bin/nvcc */
        p = cc_asprintf(err, "%s%cbin%c%s", in->prefix, d->sep, d->sep, win ? "nvcc.exe" : "nvcc");
        if (p == NULL)
                goto fail;
        r = cc_disc_exists(d, p, err);
        TRY(r);
        if (r) {
                nvcc = 1;
                TRY(cc_disc_evidence(c, "%s", p));
        }
        free(p);
        p = NULL;
        /* version.json / version.txt */
        p = cc_disc_join(d, in->prefix, "version.json", err);
        if (p == NULL)
                goto fail;
        TRY(cc_disc_read_small(d, p, MAX_SMALL, &text, &len, err));
        if (text != NULL) {
                TRY(cc_disc_evidence(c, "%s", p));
                if (json_cuda_version(text, vb, sizeof(vb)) == 0)
                        TRY(toolkit_source(srcs, "version.json", vb, p, err));
                nvcc = 1;
        }
        free(text);
        text = NULL;
        free(p);
        p = cc_disc_join(d, in->prefix, "version.txt", err);
        if (p == NULL)
                goto fail;
        TRY(cc_disc_read_small(d, p, MAX_SMALL, &text, &len, err));
        if (text != NULL) {
                const char *q = strstr(text, "CUDA Version ");

                TRY(cc_disc_evidence(c, "%s", p));
                if (q != NULL) {
                        size_t k = 0;

                        q += 13;
                        while (k + 1 < sizeof(vb) && ((q[k] >= '0' && q[k] <= '9') || q[k] == '.'))
                                k++;
                        snprintf(vb, sizeof(vb), "%.*s", (int)k, q);
                        if (cudnnctl_ver_parse(vb, &v) == 0)
                                TRY(toolkit_source(srcs, "version.txt", vb, p, err));
                }
                nvcc = 1;
        }
        free(text);
        text = NULL;
        free(p);
        p = NULL;
        /* the directory's name: cuda-12.4, or CUDA\v11.4 on Windows */
        par = cc_tree_dirname(d->t, in->prefix, err);
        if (par == NULL)
                goto fail;
        if (!win && cc_starts_with(base, "cuda-") && cudnnctl_ver_parse(base + 5, &v) == 0)
                named = 1;
        else if (win && (base[0] == 'v' || base[0] == 'V') && cc_disc_name_eq(d, cc_basename(par), "CUDA") &&
                 cudnnctl_ver_parse(base + 1, &v) == 0)
                named = 1;
        if (!nvcc && !named) {
                rv = 0;
                goto fail;
        }
        if (named) {
                TRY(cc_disc_evidence(c, "%s (named for a CUDA release)", in->prefix));
                TRY(toolkit_source(srcs, "directory-name", cudnnctl_ver_str(&v, vb, sizeof(vb)), in->prefix, err));
        }
        /* cuda.h */
        p = cc_asprintf(err, "%s%cinclude%ccuda.h", in->prefix, d->sep, d->sep);
        if (p == NULL)
                goto fail;
        TRY(cuda_h_version(d, srcs, p, err));
        TRY(toolkit_distinfo(c, srcs, &cudnn_from, err));
        /* the toolkit's version: MAJOR.MINOR when every source agrees */
        for (i = 0; i < cc_v_len(srcs); i++) {
                cc_vw_toolkit_source ts;
                cudnnctl_ver sv;

                cc_vw_toolkit_source_at(srcs, i, &ts, NULL);
                if (cudnnctl_ver_parse(ts.version, &sv) < 0 || sv.n < 2)
                        continue;
                sv.n = 2;
                if (agreed.n == 0)
                        agreed = sv;
                else if (cudnnctl_ver_cmp(&agreed, &sv) != 0)
                        agree = 0;
        }
        TRY(cc_v_set(tk, CC_K(prov_toolkit, version),
                     agree && agreed.n ? cc_v_str(cudnnctl_ver_str(&agreed, vb, sizeof(vb)), err) : cc_v_null(err),
                     err));
        if (!agree)
                TRY(cc_disc_inst_note(in, err,
                                      "the CUDA toolkit's own version sources disagree (see provenance.toolkit)"));
        TRY(cc_v_set_str(c->prov, "kind", "cuda-toolkit", err));
        TRY(cc_v_set(c->prov, CC_K(provenance, toolkit), tk, err));
        tk = NULL;
        TRY(cc_v_set_bool(c->prov, "copied_in", !cudnn_from, err));
        if (!cudnn_from)
                TRY(cc_disc_inst_note(
                    in, err,
                    "cuDNN was copied into this CUDA toolkit: no dist-info, conda or package database "
                    "entry names its files"));
        *matched = 1;
        rv = 0;
fail:
        free(p);
        free(par);
        free(text);
        cc_v_free(tk);
        return rv;
}
