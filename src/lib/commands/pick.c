/* Which installation a command means (pick.h). */
#include "pick.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../facts/views.h"
#include "../platform/platform.h"
#include "cudnnctl/cudnnctl.h"

int cc_pick_list_all(cc_machine *m, cc_value **list, cc_error *err)
{
        return cc_pick_list(m, NULL, list, err);
}

int cc_pick_list(cc_machine *m, const char *want, cc_value **list, cc_error *err)
{
        cudnnctl_list_options lo;
        char *extra[2] = {NULL, NULL};
        int rc;

        memset(&lo, 0, sizeof(lo));
        /* INSTALL as a path is searched too, where the usual places miss it:
         * a library file's directory, and the prefix above lib/, lib64/, bin/. */
        if (want != NULL && (extra[0] = cc_machine_abs(m, want, err)) != NULL) {
                cc_stat st;

                if (cc_tree_stat(m->tree, extra[0], &st, NULL) == 0 && st.type == CC_FT_FILE) {
                        char *d = cc_tree_dirname(m->tree, extra[0], err);

                        free(extra[0]);
                        extra[0] = d;
                }
                if (extra[0] != NULL) {
                        const char *b = cc_basename(extra[0]);

                        lo.extra_roots = (const char *const *)extra;
                        lo.nextra_roots = 1;
                        if (cc_strcasecmp(b, "lib") == 0 || cc_strcasecmp(b, "lib64") == 0 ||
                            cc_strcasecmp(b, "bin") == 0) {
                                extra[1] = cc_tree_dirname(m->tree, extra[0], err);
                                lo.nextra_roots = extra[1] ? 2 : 1;
                        }
                }
        }
        cc_err_clear(err);
        rc = cudnnctl_list(m, &lo, list, err);
        free(extra[0]);
        free(extra[1]);
        return rc;
}

/* "9.19", "9.19.0", "9.19.0.56": two to four dot-separated numbers (one
 * number alone is an id). */
static int is_release(const char *s)
{
        int parts = 0;

        for (;;) {
                if (!(*s >= '0' && *s <= '9'))
                        return 0;
                while (*s >= '0' && *s <= '9')
                        s++;
                parts++;
                if (*s == '\0')
                        return parts >= 2 && parts <= 4;
                if (*s++ != '.')
                        return 0;
        }
}

/* Whether version v ("9.19.0" or "9.19.0.56") starts with the parts of
 * release r: "9.19" matches 9.19.x, never 9.190. */
static int release_matches(const char *v, const char *r)
{
        size_t n = strlen(r);

        return v != NULL && strncmp(v, r, n) == 0 && (v[n] == '\0' || v[n] == '.');
}

static const cc_value *by_release(const cc_value *insts, const char *want, cc_value **chosen_by, cc_error *err)
{
        const cc_value *hit = NULL;
        cc_buf ids = {0};
        size_t i, n = 0;

        for (i = 0; i < cc_v_len(insts); i++) {
                cc_vw_installation in;

                cc_vw_installation_read(cc_v_at(insts, i), &in, NULL);
                if (!release_matches(in.full_version, want) && !release_matches(in.version, want))
                        continue;
                hit = cc_v_at(insts, i);
                if (cc_buf_printf(&ids, err, "%s%" PRId64 " (%s)", n ? ", " : "", in.id, in.prefix) < 0) {
                        cc_buf_free(&ids);
                        return NULL;
                }
                n++;
        }
        if (n == 1) {
                cc_buf_free(&ids);
                *chosen_by = cc_v_strf(err, "the installation of cuDNN %s", want);
                return *chosen_by ? hit : NULL;
        }
        if (n == 0)
                cc_err(err, CC_ERR_NOTFOUND, "cuDNN %s: no installation of that release (see 'cudnnctl list')", want);
        else
                cc_err(err, CC_ERR_NOTFOUND, "cuDNN %s: %zu installations of that release, %s: name one by its id",
                       want, n, ids.data);
        cc_buf_free(&ids);
        return NULL;
}

static int has_str(const cc_value *a, const char *s)
{
        size_t i;

        for (i = 0; i < cc_v_len(a); i++)
                if (cc_v_as_str(cc_v_at(a, i)) && strcmp(cc_v_as_str(cc_v_at(a, i)), s) == 0)
                        return 1;
        return 0;
}

static int path_matches(const cc_value *inst, const char *path)
{
        cc_vw_installation in;
        size_t i;

        cc_vw_installation_read(inst, &in, NULL);
        if (in.prefix && strcmp(in.prefix, path) == 0)
                return 1;
        if (has_str(in.aliases, path))
                return 1;
        for (i = 0; i < cc_v_len(in.directories); i++) {
                cc_vw_inst_dir d;

                cc_vw_inst_dir_at(in.directories, i, &d, NULL);
                if ((d.path && strcmp(d.path, path) == 0) || has_str(d.aliases, path))
                        return 1;
        }
        for (i = 0; i < cc_v_len(in.files); i++) {
                cc_vw_file f;

                cc_vw_file_at(in.files, i, &f, NULL);
                if ((f.path && strcmp(f.path, path) == 0) || (f.resolves_to && strcmp(f.resolves_to, path) == 0))
                        return 1;
        }
        return 0;
}

static int name_matches(const cc_value *inst, const char *name)
{
        cc_vw_installation in;
        cc_vw_provenance pv;
        size_t i;

        cc_vw_installation_read(inst, &in, NULL);
        cc_vw_provenance_read(in.provenance, &pv, NULL);
        for (i = 0; i < cc_v_len(pv.packages); i++) {
                cc_vw_package pk;

                cc_vw_package_at(pv.packages, i, &pk, NULL);
                if (pk.name && cc_strcasecmp(pk.name, name) == 0)
                        return 1;
        }
        return in.prefix && strcmp(cc_basename(in.prefix), name) == 0;
}

const cc_value *cc_pick_installation(cc_machine *m, const cc_value *list, const char *want, cc_value **chosen_by,
                                     cc_error *err)
{
        cc_vw_list_doc ld;
        const cc_value *insts;
        size_t i;

        cc_vw_list_doc_read(list, &ld, NULL);
        insts = ld.installations;
        if (want == NULL) {
                const char *names[] = {"cudnn"};
                cudnnctl_which_options wo;
                cudnnctl_value *w = NULL;
                cc_vw_which_doc wd;

                memset(&wo, 0, sizeof(wo));
                wo.everywhere = 1; /* the installation by list's id */
                if (cudnnctl_which(m, names, 1, &wo, &w, err) < 0)
                        return NULL;
                cc_vw_which_doc_read(w, &wd, NULL);
                for (i = 0; i < cc_v_len(wd.results); i++) {
                        cc_vw_resolution r;

                        cc_vw_resolution_at(wd.results, i, &r, NULL);
                        if (!r.found || r.installation < 1 || (size_t)r.installation > cc_v_len(insts))
                                continue;
                        *chosen_by = cc_v_strf(err, "what a plain program loads: %s => %s (%s)", r.name, r.path,
                                               r.how ? r.how : "found");
                        cc_v_free(w);
                        return *chosen_by ? cc_v_at(insts, (size_t)r.installation - 1) : NULL;
                }
                cc_v_free(w);
                if (cc_v_len(insts) == 1) {
                        *chosen_by = cc_v_str("the only installation found (a plain program finds no cuDNN on the "
                                              "loader's search path)",
                                              err);
                        return *chosen_by ? cc_v_at(insts, 0) : NULL;
                }
                if (cc_v_len(insts) == 0)
                        cc_err(err, CC_ERR_NOTFOUND,
                               "no cuDNN installation found on this machine (see 'cudnnctl list')");
                else
                        cc_err(err, CC_ERR_NOTFOUND,
                               "a plain program finds no cuDNN and %zu installations exist: name one (see 'cudnnctl "
                               "list')",
                               cc_v_len(insts));
                return NULL;
        }
        {
                char *end;
                long id = strtol(want, &end, 10);

                if (*want && *end == '\0') {
                        if (id < 1 || (size_t)id > cc_v_len(insts)) {
                                cc_err(err, CC_ERR_NOTFOUND, "installation %s: 'cudnnctl list' found %zu", want,
                                       cc_v_len(insts));
                                return NULL;
                        }
                        *chosen_by = cc_v_strf(err, "installation %ld of 'cudnnctl list'", id);
                        return *chosen_by ? cc_v_at(insts, (size_t)id - 1) : NULL;
                }
        }
        {
                char *abs = cc_machine_abs(m, want, err);
                char *real = NULL;

                if (abs == NULL)
                        return NULL;
                if (m->live)
                        real = cc_realpath(abs, NULL);
                for (i = 0; i < cc_v_len(insts); i++)
                        if (path_matches(cc_v_at(insts, i), abs) || (real && path_matches(cc_v_at(insts, i), real))) {
                                *chosen_by = cc_v_strf(err, "the installation that holds %s", want);
                                free(abs);
                                free(real);
                                return *chosen_by ? cc_v_at(insts, i) : NULL;
                        }
                free(abs);
                free(real);
        }
        if (is_release(want))
                return by_release(insts, want, chosen_by, err);
        for (i = 0; i < cc_v_len(insts); i++)
                if (name_matches(cc_v_at(insts, i), want)) {
                        *chosen_by = cc_v_strf(err, "the installation named %s", want);
                        return *chosen_by ? cc_v_at(insts, i) : NULL;
                }
        cc_err(err, CC_ERR_NOTFOUND, "%s: no cuDNN installation found there or by that name (see 'cudnnctl list')",
               want);
        return NULL;
}
