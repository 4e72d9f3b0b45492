/* Text for people from the "list" document. Reads only the fact tree (what
 * --json prints), so text and JSON cannot disagree. */
#include "text.h"

#include "../facts/views.h"

#include <stdio.h>
#include <string.h>

#define ROOTS_SHOWN 40 /* roots listed when nothing was found (all with verbose) */

static int puts_(struct cc_text *o, const char *s)
{
        return cc_buf_puts(o->b, s, o->err);
}

static int label(struct cc_text *o, const char *l)
{
        return cc_buf_printf(o->b, o->err, "    %s%-11s%s ", cc_text_sgr(o, CC_SGR_DIM), l, cc_text_sgr(o, CC_SGR_OFF));
}

/* The text after the prefix when path lies below it (a document without a
 * prefix: the path as it is). */
static const char *rel(const char *prefix, const char *path)
{
        size_t n = prefix != NULL ? strlen(prefix) : 0;

        if (path != NULL && n > 1 && strncmp(path, prefix, n) == 0 && (path[n] == '/' || path[n] == '\\'))
                return path + n + 1;
        return path;
}

static int provenance_line(struct cc_text *o, const cc_vw_installation *in, const cc_vw_provenance *p)
{
        const char *kind = p->kind;
        size_t i;

        TRY(label(o, "provenance"));
        TRY(cc_text_put(o, kind ? kind : "unknown"));
        if (kind != NULL && strcmp(kind, "cuda-toolkit") == 0) {
                cc_vw_prov_toolkit tk;

                cc_vw_prov_toolkit_read(p->toolkit, &tk, NULL);
                TRY(puts_(o, ", CUDA "));
                TRY(cc_text_put(o, tk.version ? tk.version : "version unknown"));
                if (p->copied_in)
                        TRY(puts_(o, "; cuDNN copied in by hand"));
        }
        if (kind != NULL && strcmp(kind, "distro-package") == 0 && CC_VW_HAS(p, provenance, owner_known) &&
            !p->owner_known)
                TRY(puts_(o, ", owner unknown"));
        for (i = 0; i < cc_v_len(p->packages); i++) {
                cc_vw_package k;

                cc_vw_package_at(p->packages, i, &k, NULL);
                TRY(puts_(o, i ? ", " : (kind && strcmp(kind, "cuda-toolkit") == 0 ? "; cuDNN from " : ": ")));
                TRY(cc_text_put(o, k.name));
                TRY(puts_(o, " "));
                TRY(cc_text_put(o, k.version ? k.version : "(version unknown)"));
                if (k.build) {
                        TRY(puts_(o, " ("));
                        TRY(cc_text_put(o, k.build));
                        TRY(puts_(o, ")"));
                }
                TRY(puts_(o, " ["));
                TRY(cc_text_put(o, k.manager));
                TRY(puts_(o, "]"));
        }
        if (p->bundled_in) {
                cc_vw_bundled_in bi;

                cc_vw_bundled_in_read(p->bundled_in, &bi, NULL);
                TRY(puts_(o, ": bundled in "));
                TRY(cc_text_put(o, bi.name));
                TRY(puts_(o, " "));
                TRY(cc_text_put(o, bi.version));
        }
        if (p->archive) {
                cc_vw_prov_archive ar;

                cc_vw_prov_archive_read(p->archive, &ar, NULL);
                TRY(puts_(o, ": "));
                TRY(cc_text_put(o, ar.name));
        }
        if (p->installer) {
                cc_vw_prov_installer is;

                cc_vw_prov_installer_read(p->installer, &is, NULL);
                TRY(puts_(o, " v"));
                TRY(cc_text_put(o, is.version));
        }
        if (kind != NULL && strcmp(kind, "copy") == 0 && p->location) {
                TRY(puts_(o, " ("));
                TRY(cc_text_put(o, p->location));
                TRY(puts_(o, ")"));
        }
        if (cc_v_len(in->cuda_variants) > 0) {
                TRY(puts_(o, "; per-CUDA folders: "));
                for (i = 0; i < cc_v_len(in->cuda_variants); i++) {
                        if (i)
                                TRY(puts_(o, ", "));
                        TRY(cc_text_put(o, cc_v_as_str(cc_v_at(in->cuda_variants, i))));
                }
        }
        return puts_(o, "\n");
fail:
        return -1;
}

/* "installed by NVIDIA cuDNN 9.1 (9.1.0.70), uninstall entry": the Windows
 * uninstall entries that name the installation, the first (cuDNN's, else the
 * toolkit's) with its version, the others by name; with verbose one line
 * each with its registry key and how it was matched. */
static int uninstall_lines(struct cc_text *o, const cc_vw_provenance *p, int verbose)
{
        size_t i, n = cc_v_len(p->uninstall_entries);

        if (n == 0)
                return 0;
        TRY(label(o, "installed by"));
        for (i = 0; i < n; i++) {
                cc_vw_prov_uninstall u;

                cc_vw_prov_uninstall_at(p->uninstall_entries, i, &u, NULL);
                if (i == 1)
                        TRY(puts_(o, "; also "));
                else if (i > 1)
                        TRY(puts_(o, ", "));
                TRY(cc_text_put(o, u.name ? u.name : "?"));
                if (i == 0) {
                        if (u.version) {
                                TRY(puts_(o, " ("));
                                TRY(cc_text_put(o, u.version));
                                TRY(puts_(o, ")"));
                        }
                        TRY(puts_(o, n > 1 ? ", uninstall entries" : ", uninstall entry"));
                }
        }
        TRY(puts_(o, "\n"));
        for (i = 0; verbose && i < n; i++) {
                cc_vw_prov_uninstall u;

                cc_vw_prov_uninstall_at(p->uninstall_entries, i, &u, NULL);
                TRY(label(o, "uninstall"));
                TRY(cc_text_put(o, u.name ? u.name : "?"));
                TRY(puts_(o, ": "));
                TRY(cc_text_put(o, u.key ? u.key : "?"));
                if (u.location) {
                        TRY(puts_(o, ", InstallLocation "));
                        TRY(cc_text_put(o, u.location));
                }
                TRY(puts_(o, u.matched_by && strcmp(u.matched_by, "standard-path") == 0
                                 ? " (no InstallLocation: matched by its version's standard directory)\n"
                                 : "\n"));
        }
        return 0;
fail:
        return -1;
}

/* "exported-constant x3, header, dist-info" for the entries of versions
 * that say version (NULL: all cuDNN entries). */
static int sources_of(struct cc_text *o, const cc_value *vers, const char *version)
{
        const char *seen[32];
        size_t counts[32], n = 0, i, k;

        for (i = 0; i < cc_v_len(vers); i++) {
                cc_vw_version e;
                const char *s, *v;

                cc_vw_version_at(vers, i, &e, NULL);
                s = e.source;
                v = e.version;
                if (s == NULL || e.component == NULL || strcmp(e.component, "cudnn") != 0)
                        continue;
                if (version != NULL && (v == NULL || strncmp(v, version, strlen(version)) != 0 ||
                                        (v[strlen(version)] != '\0' && v[strlen(version)] != '.')))
                        continue;
                for (k = 0; k < n && strcmp(seen[k], s) != 0; k++)
                        ;
                if (k == n) {
                        if (n == CC_ARRAY_LEN(seen))
                                continue;
                        seen[n] = s;
                        counts[n++] = 0;
                }
                counts[k]++;
        }
        for (k = 0; k < n; k++) {
                if (cc_buf_printf(o->b, o->err, "%s%s", k ? ", " : "", seen[k]) < 0)
                        return -1;
                if (counts[k] > 1 && cc_buf_printf(o->b, o->err, " x%zu", counts[k]) < 0)
                        return -1;
        }
        return 0;
}

static int version_lines(struct cc_text *o, const cc_vw_installation *in)
{
        const char *v = in->version, *fv = in->full_version;
        size_t i, k;

        TRY(label(o, "version"));
        if (v != NULL) {
                TRY(cc_buf_printf(o->b, o->err, "%s%s%s", cc_text_sgr(o, CC_SGR_BOLD), v, cc_text_sgr(o, CC_SGR_OFF)));
                if (fv != NULL && strcmp(fv, v) != 0)
                        TRY(cc_buf_printf(o->b, o->err, " (%s)", fv));
                TRY(puts_(o, "  from "));
                TRY(sources_of(o, in->versions, NULL));
                return puts_(o, "\n");
        }
        if (cc_v_len(in->disagreements) == 0) {
                TRY(puts_(o, "unknown (no file says which version it is)\n"));
                return 0;
        }
        TRY(cc_buf_printf(o->b, o->err, "%sunknown: the sources disagree%s\n", cc_text_sgr(o, CC_SGR_YELLOW),
                          cc_text_sgr(o, CC_SGR_OFF)));
        for (i = 0; i < cc_v_len(in->disagreements); i++) {
                cc_vw_disagreement g;

                cc_vw_disagreement_at(in->disagreements, i, &g, NULL);
                TRY(cc_buf_printf(o->b, o->err, "%16s%s%-9s%s ", "", cc_text_sgr(o, CC_SGR_YELLOW), g.version,
                                  cc_text_sgr(o, CC_SGR_OFF)));
                for (k = 0; k < cc_v_len(g.sources); k++)
                        TRY(cc_buf_printf(o->b, o->err, "%s%s", k ? ", " : "", cc_v_as_str(cc_v_at(g.sources, k))));
                if (cc_v_len(g.files) > 0) {
                        TRY(puts_(o, ": "));
                        TRY(cc_text_put(o, rel(in->prefix, cc_v_as_str(cc_v_at(g.files, 0)))));
                        if (cc_v_len(g.files) > 1)
                                TRY(cc_buf_printf(o->b, o->err, " (+%zu more)", cc_v_len(g.files) - 1));
                }
                TRY(puts_(o, "\n"));
        }
        return 0;
fail:
        return -1;
}

static int counts_line(struct cc_text *o, const cc_vw_installation *in)
{
        cc_vw_inst_counts c;
        size_t i;
        int any = 0;

        cc_vw_inst_counts_read(in->counts, &c, NULL);
        {
                const struct {
                        int64_t n;
                        const char *one, *many;
                } kinds[] = {
                    {c.libraries, "library", "libraries"},
                    {c.headers, "header", "headers"},
                    {c.import_libraries, "import library", "import libraries"},
                    {c.static_libraries, "static library", "static libraries"},
                    {c.symlinks, "symlink", "symlinks"},
                };

                TRY(label(o, "files"));
                for (i = 0; i < CC_ARRAY_LEN(kinds); i++) {
                        if (kinds[i].n == 0)
                                continue;
                        TRY(cc_buf_printf(o->b, o->err, "%s%lld %s", any ? ", " : "", (long long)kinds[i].n,
                                          kinds[i].n == 1 ? kinds[i].one : kinds[i].many));
                        any = 1;
                }
        }
        if (!any)
                TRY(puts_(o, "none"));
        return puts_(o, "\n");
fail:
        return -1;
}

static int file_line(struct cc_text *o, const cc_value *file, const char *prefix)
{
        cc_vw_file f;
        size_t i;

        cc_vw_file_read(file, &f, NULL);
        TRY(puts_(o, "      "));
        TRY(cc_text_put(o, rel(prefix, f.path)));
        if (f.chain != NULL) {
                for (i = 0; i < cc_v_len(f.chain); i++) {
                        cc_vw_chain_link l;

                        cc_vw_chain_link_at(f.chain, i, &l, NULL);
                        TRY(puts_(o, " -> "));
                        TRY(cc_text_put(o, l.target));
                }
                if (f.link_state && strcmp(f.link_state, "ok") != 0)
                        TRY(cc_buf_printf(o->b, o->err, "  %s[%s]%s", cc_text_sgr(o, CC_SGR_RED), f.link_state,
                                          cc_text_sgr(o, CC_SGR_OFF)));
        }
        for (i = 0; i < cc_v_len(f.versions); i++) {
                cc_vw_version e;

                cc_vw_version_at(f.versions, i, &e, NULL);
                TRY(cc_buf_printf(o->b, o->err, "%s%s %s", i ? ", " : "  ", e.source ? e.source : "?",
                                  e.version ? e.version : "?"));
        }
        if (f.error) {
                TRY(cc_buf_printf(o->b, o->err, "  %s", cc_text_sgr(o, CC_SGR_RED)));
                TRY(cc_text_put(o, f.error));
                TRY(puts_(o, cc_text_sgr(o, CC_SGR_OFF)));
        }
        return puts_(o, "\n");
fail:
        return -1;
}

static int installation(struct cc_text *o, const cc_value *inst, int verbose)
{
        cc_vw_installation in;
        cc_vw_provenance p;
        size_t i;

        cc_vw_installation_read(inst, &in, NULL);
        cc_vw_provenance_read(in.provenance, &p, NULL);
        TRY(cc_buf_printf(o->b, o->err, "%s[%lld] ", cc_text_sgr(o, CC_SGR_BOLD), (long long)in.id));
        TRY(cc_text_put(o, in.prefix));
        TRY(cc_buf_printf(o->b, o->err, "%s\n", cc_text_sgr(o, CC_SGR_OFF)));
        if (cc_v_len(in.aliases) > 0) {
                TRY(label(o, "also as"));
                for (i = 0; i < cc_v_len(in.aliases); i++) {
                        if (i)
                                TRY(puts_(o, ", "));
                        TRY(cc_text_put(o, cc_v_as_str(cc_v_at(in.aliases, i))));
                }
                TRY(puts_(o, "\n"));
        }
        TRY(provenance_line(o, &in, &p));
        TRY(uninstall_lines(o, &p, verbose));
        TRY(version_lines(o, &in));
        TRY(label(o, "majors"));
        for (i = 0; i < cc_v_len(in.majors); i++)
                TRY(cc_buf_printf(o->b, o->err, "%s%lld", i ? ", " : "",
                                  (long long)cc_v_as_int(cc_v_at(in.majors, i))));
        if (cc_v_len(in.majors) == 0)
                TRY(puts_(o, "unknown"));
        TRY(puts_(o, "\n"));
        TRY(counts_line(o, &in));
        TRY(label(o, "problems"));
        if (cc_v_len(in.problems) == 0)
                TRY(cc_buf_printf(o->b, o->err, "%snone%s\n", cc_text_sgr(o, CC_SGR_GREEN),
                                  cc_text_sgr(o, CC_SGR_OFF)));
        for (i = 0; i < cc_v_len(in.problems); i++) {
                cc_vw_problem pr;

                cc_vw_problem_at(in.problems, i, &pr, NULL);
                if (i)
                        TRY(cc_buf_printf(o->b, o->err, "%16s", ""));
                TRY(cc_buf_printf(o->b, o->err, "%s! %s%s: ", cc_text_sgr(o, CC_SGR_RED), pr.kind,
                                  cc_text_sgr(o, CC_SGR_OFF)));
                TRY(cc_text_put(o, pr.summary));
                TRY(puts_(o, "\n"));
        }
        for (i = 0; i < cc_v_len(in.notes); i++) {
                TRY(label(o, "note"));
                TRY(cc_text_put(o, cc_v_as_str(cc_v_at(in.notes, i))));
                TRY(puts_(o, "\n"));
        }
        if (verbose) {
                for (i = 0; i < cc_v_len(p.evidence); i++) {
                        TRY(label(o, "evidence"));
                        TRY(cc_text_put(o, cc_v_as_str(cc_v_at(p.evidence, i))));
                        TRY(puts_(o, "\n"));
                }
                for (i = 0; i < cc_v_len(in.directories); i++) {
                        cc_vw_inst_dir dd;
                        size_t k;

                        cc_vw_inst_dir_at(in.directories, i, &dd, NULL);
                        TRY(label(o, "directory"));
                        TRY(cc_text_put(o, dd.path));
                        for (k = 0; k < cc_v_len(dd.aliases); k++) {
                                TRY(puts_(o, k ? ", " : " (also "));
                                TRY(cc_text_put(o, cc_v_as_str(cc_v_at(dd.aliases, k))));
                        }
                        TRY(puts_(o, cc_v_len(dd.aliases) ? ")\n" : "\n"));
                }
                TRY(puts_(o, "    files:\n"));
                for (i = 0; i < cc_v_len(in.files); i++)
                        TRY(file_line(o, cc_v_at(in.files, i), in.prefix));
        }
        return 0;
fail:
        return -1;
}

static int root_line(struct cc_text *o, const cc_value *root)
{
        cc_vw_root r;
        const char *st;

        cc_vw_root_read(root, &r, NULL);
        st = r.state;
        TRY(cc_buf_printf(o->b, o->err, "  %s%-15s%s ",
                          cc_text_sgr(o, st && strcmp(st, "searched") == 0
                                             ? CC_SGR_GREEN
                                             : (st && strcmp(st, "missing") == 0 ? CC_SGR_DIM : CC_SGR_RED)),
                          st ? st : "?", cc_text_sgr(o, CC_SGR_OFF)));
        TRY(cc_text_put(o, r.path));
        TRY(puts_(o, "  ("));
        TRY(cc_text_put(o, cc_v_as_str(cc_v_at(r.sources, 0))));
        TRY(puts_(o, ")"));
        if (r.reason && st && strcmp(st, "missing") != 0) {
                TRY(puts_(o, ": "));
                TRY(cc_text_put(o, r.reason));
        }
        if (r.alias_of) {
                TRY(puts_(o, " = "));
                TRY(cc_text_put(o, r.alias_of));
        }
        return puts_(o, "\n");
fail:
        return -1;
}

int cudnnctl_list_text(const cudnnctl_value *facts, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text o;
        cc_vw_list_doc ld;
        cc_vw_list_stats stats;
        size_t i, shown = 0, n;

        *out = NULL;
        o.b = &b;
        o.color = color;
        o.err = err;
        cc_vw_list_doc_read(facts, &ld, NULL);
        cc_vw_list_stats_read(ld.stats, &stats, NULL);
        n = cc_v_len(ld.installations);
        if (n == 0) {
                TRY(cc_buf_printf(&b, err, "%sno cuDNN found%s (searched %zu roots, %lld directories):\n",
                                  cc_text_sgr(&o, CC_SGR_BOLD), cc_text_sgr(&o, CC_SGR_OFF), cc_v_len(ld.roots),
                                  (long long)stats.directories));
                for (i = 0; i < cc_v_len(ld.roots); i++) {
                        if (!verbose && shown >= ROOTS_SHOWN) {
                                TRY(cc_buf_printf(&b, err, "  ... and %zu more (--verbose lists them all)\n",
                                                  cc_v_len(ld.roots) - i));
                                break;
                        }
                        TRY(root_line(&o, cc_v_at(ld.roots, i)));
                        shown++;
                }
        } else {
                TRY(cc_buf_printf(&b, err, "%zu cuDNN installation%s (searched %zu roots, %lld directories)\n", n,
                                  n == 1 ? "" : "s", cc_v_len(ld.roots), (long long)stats.directories));
                for (i = 0; i < n; i++) {
                        TRY(cc_buf_putc(&b, '\n', err));
                        TRY(installation(&o, cc_v_at(ld.installations, i), verbose));
                }
                /* roots that could not be searched, always; all of them with verbose */
                for (i = 0; i < cc_v_len(ld.roots); i++) {
                        cc_vw_root r;

                        cc_vw_root_at(ld.roots, i, &r, NULL);
                        if (!verbose && r.state &&
                            (strcmp(r.state, "searched") == 0 || strcmp(r.state, "missing") == 0))
                                continue;
                        if (shown++ == 0)
                                TRY(cc_buf_printf(&b, err, "\n%s:\n", verbose ? "roots" : "roots not searched"));
                        TRY(root_line(&o, cc_v_at(ld.roots, i)));
                }
        }
        for (i = 0; i < cc_v_len(ld.skipped); i++) {
                cc_vw_skipped s;

                cc_vw_skipped_at(ld.skipped, i, &s, NULL);
                if (i == 0)
                        TRY(cc_buf_puts(&b, "\nskipped:\n", err));
                TRY(cc_buf_puts(&b, "  ", err));
                TRY(cc_text_put(&o, s.path));
                TRY(cc_buf_puts(&b, ": ", err));
                TRY(cc_text_put(&o, s.reason));
                TRY(cc_buf_putc(&b, '\n', err));
        }
        if (stats.truncated)
                TRY(cc_buf_printf(&b, err, "\n%sstopped early%s: more than %lld directories (raise --max-dirs)\n",
                                  cc_text_sgr(&o, CC_SGR_YELLOW), cc_text_sgr(&o, CC_SGR_OFF),
                                  (long long)stats.max_dirs));
        for (i = 0; i < cc_v_len(ld.notes); i++) {
                TRY(cc_buf_puts(&b, i == 0 ? "\nnote: " : "note: ", err));
                TRY(cc_text_put(&o, cc_v_as_str(cc_v_at(ld.notes, i))));
                TRY(cc_buf_putc(&b, '\n', err));
        }
        if (b.data == NULL && cc_buf_puts(&b, "", err) < 0)
                goto fail;
        *out = cc_buf_steal(&b);
        return *out ? 0 : -1;
fail:
        cc_buf_free(&b);
        return -1;
}
