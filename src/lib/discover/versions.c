/* The versions of one installation: every source (file names, exported
 * constants, version resources, headers, dist-info, package database) kept
 * apart with its file; a summary version only when they agree, and a problem
 * when headers and libraries, or renamed files, disagree. */
#include "group.h"

#include "../facts/views.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 if a problem of this kind names path first already. */
static int already_flagged(const cc_dinst *in, const char *kind, const char *path)
{
        size_t i;

        for (i = 0; i < cc_v_len(in->problems); i++) {
                cc_vw_problem p;
                const char *first;

                cc_vw_problem_at(in->problems, i, &p, NULL);
                first = cc_v_as_str(cc_v_at(p.paths, 0));
                if (strcmp(p.kind, kind) == 0 && first != NULL && strcmp(first, path) == 0)
                        return 1;
        }
        return 0;
}

/* Collect the installation's version evidence into arr (each entry with its
 * file) and ents. */
int cc_disc_collect_versions(cc_discovery *d, cc_dinst *in, cc_value *arr, struct cc_dvent **ents, size_t *nents,
                             cc_error *err)
{
        size_t i, j, cap = 0;

        *ents = NULL;
        *nents = 0;
        for (i = 0; i <= in->nfiles; i++) {
                const cc_dfile *f = i < in->nfiles ? d->files[in->files[i]] : NULL;
                const cc_value *fv = f ? f->versions : in->extra;

                for (j = 0; j < cc_v_len(fv); j++) {
                        cc_vw_version e;
                        cc_value *c = cc_v_copy(cc_v_at(fv, j), err);
                        const char *comp, *src, *vs;
                        struct cc_dvent ve;

                        cc_vw_version_at(fv, j, &e, NULL);
                        comp = e.component;
                        src = e.source;
                        vs = e.version;
                        if (c == NULL)
                                return -1;
                        if (f != NULL && cc_v_set_str(c, CC_K(version, file), f->canonical, err) < 0) {
                                cc_v_free(c);
                                return -1;
                        }
                        if (cc_v_push(arr, c, err) < 0)
                                return -1;
                        if (comp == NULL || strcmp(comp, "cudnn") != 0 || src == NULL || vs == NULL ||
                            cudnnctl_ver_parse(vs, &ve.v) < 0)
                                continue;
                        ve.source = src;
                        ve.file = f ? f->canonical : e.file;
                        ve.shown = vs;
                        ve.header = f && f->ln.kind == CC_FK_HEADER;
                        ve.lib = f && !ve.header;
                        /* A version resource whose major is not the name's: either
                         * a renamed file (cudnn64_6.dll renamed cudnn64_5.dll: the
                         * resource reads like a cuDNN release) or a number that is not
                         * a cuDNN version at all (a driver-style 6.14.11.x). Neither
                         * decides the summary; the first is a problem. */
                        if (f && cc_starts_with(src, "version-resource") && f->ln.major >= 0 &&
                            ve.v.part[0] != f->ln.major) {
                                int plausible = cc_cudnn_ver_plausible(&ve.v);

                                if (!plausible &&
                                    cc_disc_inst_note(in, err,
                                                      "%s: the version resource says %s, not a cuDNN %d version: "
                                                      "not used for the summary",
                                                      f->canonical, vs, f->ln.major) < 0)
                                        return -1;
                                if (plausible && !already_flagged(in, "name-content-mismatch", f->canonical)) {
                                        cc_strv p = {0};
                                        int rc = cc_strv_push(&p, f->canonical, err);

                                        if (rc == 0)
                                                rc = cc_disc_problem(
                                                    in, "name-content-mismatch", "renamed-dll", &p, err,
                                                    "%s: the name says cuDNN %d but its version resource says "
                                                    "%s (a renamed file?)",
                                                    f->canonical, f->ln.major, vs);
                                        cc_strv_free(&p);
                                        if (rc < 0)
                                                return -1;
                                }
                                continue;
                        }
                        if (*nents == cap) {
                                size_t nc = cap ? cap * 2 : 32;
                                struct cc_dvent *ne = cc_realloc(err, *ents, nc * sizeof(*ne));

                                if (ne == NULL)
                                        return -1;
                                *ents = ne;
                                cap = nc;
                        }
                        (*ents)[(*nents)++] = ve;
                }
        }
        return 0;
}

static void ver_key(const cudnnctl_ver *v, int parts, char *buf, size_t n)
{
        cudnnctl_ver t = *v;

        if (t.n > parts)
                t.n = parts;
        cudnnctl_ver_str(&t, buf, n);
}

/* The summary: version (MAJOR.MINOR.PATCH) only when every full-version
 * source agrees and no partial source contradicts it; otherwise null, with
 * the disagreements. */
int cc_disc_summarize_versions(cc_dinst *in, const struct cc_dvent *e, size_t n, cc_value *out, cc_error *err)
{
        cc_strv keys = {0};
        cc_value *dis = NULL;
        size_t i, j;
        int rv = -1, full = 0, conflict = 0;
        char agreed[64] = "", key[64], four[64] = "";
        int four_ok = 1;
        cudnnctl_ver av = {0};

        for (i = 0; i < n; i++) {
                if (e[i].v.n < 3)
                        continue;
                ver_key(&e[i].v, 3, key, sizeof(key));
                if (!full) {
                        full = 1;
                        snprintf(agreed, sizeof(agreed), "%s", key);
                        av = e[i].v;
                        av.n = 3;
                } else if (strcmp(key, agreed) != 0) {
                        conflict = 1;
                }
                if (e[i].v.n >= 4) {
                        char k4[64];

                        ver_key(&e[i].v, 4, k4, sizeof(k4));
                        if (four[0] == '\0')
                                snprintf(four, sizeof(four), "%s", k4);
                        else if (strcmp(four, k4) != 0)
                                four_ok = 0;
                }
        }
        for (i = 0; full && i < n; i++) {
                cudnnctl_ver t = av;

                if (e[i].v.n >= 3)
                        continue;
                t.n = e[i].v.n;
                if (cudnnctl_ver_cmp(&t, &e[i].v) != 0)
                        conflict = 1;
        }
        if (!full) {
                /* partial sources only: still flag when they contradict each other */
                for (i = 1; i < n; i++) {
                        cudnnctl_ver a = e[0].v, b = e[i].v;

                        a.n = b.n = a.n < b.n ? a.n : b.n;
                        if (cudnnctl_ver_cmp(&a, &b) != 0)
                                conflict = 1;
                }
        }
        TRY(cc_v_set(out, "version", full && !conflict ? cc_v_str(agreed, err) : cc_v_null(err), err));
        TRY(cc_v_set(out, "full_version",
                     full && !conflict && four[0] && four_ok && strncmp(four, agreed, strlen(agreed)) == 0
                         ? cc_v_str(four, err)
                         : cc_v_null(err),
                     err));
        dis = cc_v_array(err);
        if (dis == NULL)
                goto fail;
        if (conflict) {
                for (i = 0; i < n; i++) {
                        ver_key(&e[i].v, e[i].v.n >= 3 ? 3 : e[i].v.n, key, sizeof(key));
                        if (cc_strv_contains(&keys, key))
                                continue;
                        TRY(cc_strv_push(&keys, key, err));
                }
                for (i = 0; i < keys.n; i++) {
                        cc_value *g = cc_v_object(err), *srcs, *files;

                        if (cc_v_push(dis, g, err) < 0)
                                goto fail;
                        srcs = cc_v_array(err);
                        files = cc_v_array(err);
                        if (cc_v_set_str(g, CC_K(disagreement, version), keys.v[i], err) < 0 ||
                            cc_v_set(g, CC_K(disagreement, sources), srcs, err) < 0 ||
                            cc_v_set(g, CC_K(disagreement, files), files, err) < 0)
                                goto fail;
                        for (j = 0; j < n; j++) {
                                size_t k;
                                int dup = 0;

                                ver_key(&e[j].v, e[j].v.n >= 3 ? 3 : e[j].v.n, key, sizeof(key));
                                if (strcmp(key, keys.v[i]) != 0)
                                        continue;
                                for (k = 0; k < cc_v_len(srcs); k++)
                                        dup |= strcmp(cc_v_as_str(cc_v_at(srcs, k)), e[j].source) == 0;
                                if (!dup)
                                        TRY(cc_v_push(srcs, cc_v_str(e[j].source, err), err));
                                dup = 0;
                                for (k = 0; e[j].file && k < cc_v_len(files); k++)
                                        dup |= strcmp(cc_v_as_str(cc_v_at(files, k)), e[j].file) == 0;
                                if (!dup && e[j].file)
                                        TRY(cc_v_push(files, cc_v_str(e[j].file, err), err));
                        }
                }
        }
        TRY(cc_v_set(out, CC_K(installation, disagreements), dis, err));
        dis = NULL;
        /* headers against libraries */
        if (conflict) {
                cc_strv hv = {0}, lv = {0};
                int overlap = 0, rc = 0;

                for (i = 0; i < n && rc == 0; i++) {
                        if (e[i].v.n < 3)
                                continue;
                        ver_key(&e[i].v, 3, key, sizeof(key));
                        if (e[i].header && !cc_strv_contains(&hv, key))
                                rc = cc_strv_push(&hv, key, err);
                        else if (e[i].lib && !cc_strv_contains(&lv, key))
                                rc = cc_strv_push(&lv, key, err);
                }
                for (i = 0; i < hv.n; i++)
                        overlap |= cc_strv_contains(&lv, hv.v[i]);
                if (rc == 0 && hv.n > 0 && lv.n > 0 && !overlap)
                        rc = cc_disc_problem(
                            in, "header-library-mismatch", "header-lib-mismatch", NULL, err,
                            "the headers say cuDNN %s but the libraries say %s: a build against these headers "
                            "gets another cuDNN at run time",
                            hv.v[0], lv.v[0]);
                cc_strv_free(&hv);
                cc_strv_free(&lv);
                TRY(rc);
        }
        rv = 0;
fail:
        cc_strv_free(&keys);
        cc_v_free(dis);
        return rv;
}
