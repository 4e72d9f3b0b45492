/* Text for people from the "list" document. Reads only the fact tree (what
 * --json prints), so text and JSON cannot disagree. */
#include "text.h"

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

static const char *str(const cc_value *v, const char *key)
{
        return cc_v_get_str(v, key);
}

/* The text after the prefix when path lies below it. */
static const char *rel(const char *prefix, const char *path)
{
        size_t n = strlen(prefix);

        if (path != NULL && n > 1 && strncmp(path, prefix, n) == 0 && (path[n] == '/' || path[n] == '\\'))
                return path + n + 1;
        return path;
}

static int provenance_line(struct cc_text *o, const cc_value *in)
{
        const cc_value *p = cc_v_get(in, "provenance");
        const char *kind = str(p, "kind");
        const cc_value *pk = cc_v_get(p, "packages");
        size_t i;

        TRY(label(o, "provenance"));
        TRY(cc_text_put(o, kind ? kind : "unknown"));
        if (kind != NULL && strcmp(kind, "cuda-toolkit") == 0) {
                const char *tv = cc_v_as_str(cc_v_path(p, "toolkit/version"));

                TRY(puts_(o, ", CUDA "));
                TRY(cc_text_put(o, tv ? tv : "version unknown"));
                if (cc_v_as_bool(cc_v_get(p, "copied_in")))
                        TRY(puts_(o, "; cuDNN copied in by hand"));
        }
        if (kind != NULL && strcmp(kind, "distro-package") == 0 && cc_v_get(p, "owner_known") &&
            !cc_v_as_bool(cc_v_get(p, "owner_known")))
                TRY(puts_(o, ", owner unknown"));
        for (i = 0; i < cc_v_len(pk); i++) {
                const cc_value *k = cc_v_at(pk, i);

                TRY(puts_(o, i ? ", " : (kind && strcmp(kind, "cuda-toolkit") == 0 ? "; cuDNN from " : ": ")));
                TRY(cc_text_put(o, str(k, "name")));
                TRY(puts_(o, " "));
                TRY(cc_text_put(o, str(k, "version") ? str(k, "version") : "(version unknown)"));
                if (str(k, "build")) {
                        TRY(puts_(o, " ("));
                        TRY(cc_text_put(o, str(k, "build")));
                        TRY(puts_(o, ")"));
                }
                TRY(puts_(o, " ["));
                TRY(cc_text_put(o, str(k, "manager")));
                TRY(puts_(o, "]"));
        }
        if (cc_v_get(p, "bundled_in")) {
                TRY(puts_(o, ": bundled in "));
                TRY(cc_text_put(o, cc_v_as_str(cc_v_path(p, "bundled_in/name"))));
                TRY(puts_(o, " "));
                TRY(cc_text_put(o, cc_v_as_str(cc_v_path(p, "bundled_in/version"))));
        }
        if (cc_v_get(p, "archive")) {
                TRY(puts_(o, ": "));
                TRY(cc_text_put(o, cc_v_as_str(cc_v_path(p, "archive/name"))));
        }
        if (cc_v_get(p, "installer")) {
                TRY(puts_(o, " v"));
                TRY(cc_text_put(o, cc_v_as_str(cc_v_path(p, "installer/version"))));
        }
        if (kind != NULL && strcmp(kind, "copy") == 0 && str(p, "location")) {
                TRY(puts_(o, " ("));
                TRY(cc_text_put(o, str(p, "location")));
                TRY(puts_(o, ")"));
        }
        if (cc_v_len(cc_v_get(in, "cuda_variants")) > 0) {
                const cc_value *cv = cc_v_get(in, "cuda_variants");

                TRY(puts_(o, "; per-CUDA folders: "));
                for (i = 0; i < cc_v_len(cv); i++) {
                        if (i)
                                TRY(puts_(o, ", "));
                        TRY(cc_text_put(o, cc_v_as_str(cc_v_at(cv, i))));
                }
        }
        return puts_(o, "\n");
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
                const cc_value *e = cc_v_at(vers, i);
                const char *s = str(e, "source"), *c = str(e, "component"), *v = str(e, "version");

                if (s == NULL || c == NULL || strcmp(c, "cudnn") != 0)
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

static int version_lines(struct cc_text *o, const cc_value *in)
{
        const char *v = str(in, "version"), *fv = str(in, "full_version"), *prefix = str(in, "prefix");
        const cc_value *vers = cc_v_get(in, "versions"), *dis = cc_v_get(in, "disagreements");
        size_t i, k;

        TRY(label(o, "version"));
        if (v != NULL) {
                TRY(cc_buf_printf(o->b, o->err, "%s%s%s", cc_text_sgr(o, CC_SGR_BOLD), v, cc_text_sgr(o, CC_SGR_OFF)));
                if (fv != NULL && strcmp(fv, v) != 0)
                        TRY(cc_buf_printf(o->b, o->err, " (%s)", fv));
                TRY(puts_(o, "  from "));
                TRY(sources_of(o, vers, NULL));
                return puts_(o, "\n");
        }
        if (cc_v_len(dis) == 0) {
                TRY(puts_(o, "unknown (no file says which version it is)\n"));
                return 0;
        }
        TRY(cc_buf_printf(o->b, o->err, "%sunknown: the sources disagree%s\n", cc_text_sgr(o, CC_SGR_YELLOW),
                          cc_text_sgr(o, CC_SGR_OFF)));
        for (i = 0; i < cc_v_len(dis); i++) {
                const cc_value *g = cc_v_at(dis, i), *files = cc_v_get(g, "files"), *srcs = cc_v_get(g, "sources");

                TRY(cc_buf_printf(o->b, o->err, "%16s%s%-9s%s ", "", cc_text_sgr(o, CC_SGR_YELLOW), str(g, "version"),
                                  cc_text_sgr(o, CC_SGR_OFF)));
                for (k = 0; k < cc_v_len(srcs); k++)
                        TRY(cc_buf_printf(o->b, o->err, "%s%s", k ? ", " : "", cc_v_as_str(cc_v_at(srcs, k))));
                if (cc_v_len(files) > 0) {
                        TRY(puts_(o, ": "));
                        TRY(cc_text_put(o, rel(prefix, cc_v_as_str(cc_v_at(files, 0)))));
                        if (cc_v_len(files) > 1)
                                TRY(cc_buf_printf(o->b, o->err, " (+%zu more)", cc_v_len(files) - 1));
                }
                TRY(puts_(o, "\n"));
        }
        return 0;
fail:
        return -1;
}

static int counts_line(struct cc_text *o, const cc_value *in)
{
        static const char *const keys[][3] = {
            {"libraries", "library", "libraries"},
            {"headers", "header", "headers"},
            {"import_libraries", "import library", "import libraries"},
            {"static_libraries", "static library", "static libraries"},
            {"symlinks", "symlink", "symlinks"},
        };
        const cc_value *c = cc_v_get(in, "counts");
        size_t i;
        int any = 0;

        TRY(label(o, "files"));
        for (i = 0; i < CC_ARRAY_LEN(keys); i++) {
                int64_t n = cc_v_as_int(cc_v_get(c, keys[i][0]));

                if (n == 0)
                        continue;
                TRY(cc_buf_printf(o->b, o->err, "%s%lld %s", any ? ", " : "", (long long)n,
                                  n == 1 ? keys[i][1] : keys[i][2]));
                any = 1;
        }
        if (!any)
                TRY(puts_(o, "none"));
        return puts_(o, "\n");
fail:
        return -1;
}

static int file_line(struct cc_text *o, const cc_value *f, const char *prefix)
{
        const cc_value *vers = cc_v_get(f, "versions"), *chain = cc_v_get(f, "chain");
        size_t i;

        TRY(puts_(o, "      "));
        TRY(cc_text_put(o, rel(prefix, str(f, "path"))));
        if (chain != NULL) {
                for (i = 0; i < cc_v_len(chain); i++) {
                        TRY(puts_(o, " -> "));
                        TRY(cc_text_put(o, str(cc_v_at(chain, i), "target")));
                }
                if (str(f, "link_state") && strcmp(str(f, "link_state"), "ok") != 0)
                        TRY(cc_buf_printf(o->b, o->err, "  %s[%s]%s", cc_text_sgr(o, CC_SGR_RED), str(f, "link_state"),
                                          cc_text_sgr(o, CC_SGR_OFF)));
        }
        for (i = 0; i < cc_v_len(vers); i++) {
                const cc_value *e = cc_v_at(vers, i);

                TRY(cc_buf_printf(o->b, o->err, "%s%s %s", i ? ", " : "  ", str(e, "source") ? str(e, "source") : "?",
                                  str(e, "version") ? str(e, "version") : "?"));
        }
        if (str(f, "error")) {
                TRY(cc_buf_printf(o->b, o->err, "  %s", cc_text_sgr(o, CC_SGR_RED)));
                TRY(cc_text_put(o, str(f, "error")));
                TRY(puts_(o, cc_text_sgr(o, CC_SGR_OFF)));
        }
        return puts_(o, "\n");
fail:
        return -1;
}

static int installation(struct cc_text *o, const cc_value *in, int verbose)
{
        const cc_value *al = cc_v_get(in, "aliases"), *maj = cc_v_get(in, "majors");
        const cc_value *probs = cc_v_get(in, "problems"), *notes = cc_v_get(in, "notes");
        const char *prefix = str(in, "prefix");
        size_t i;

        TRY(cc_buf_printf(o->b, o->err, "%s[%lld] ", cc_text_sgr(o, CC_SGR_BOLD),
                          (long long)cc_v_as_int(cc_v_get(in, "id"))));
        TRY(cc_text_put(o, prefix));
        TRY(cc_buf_printf(o->b, o->err, "%s\n", cc_text_sgr(o, CC_SGR_OFF)));
        if (cc_v_len(al) > 0) {
                TRY(label(o, "also as"));
                for (i = 0; i < cc_v_len(al); i++) {
                        if (i)
                                TRY(puts_(o, ", "));
                        TRY(cc_text_put(o, cc_v_as_str(cc_v_at(al, i))));
                }
                TRY(puts_(o, "\n"));
        }
        TRY(provenance_line(o, in));
        TRY(version_lines(o, in));
        TRY(label(o, "majors"));
        for (i = 0; i < cc_v_len(maj); i++)
                TRY(cc_buf_printf(o->b, o->err, "%s%lld", i ? ", " : "", (long long)cc_v_as_int(cc_v_at(maj, i))));
        if (cc_v_len(maj) == 0)
                TRY(puts_(o, "unknown"));
        TRY(puts_(o, "\n"));
        TRY(counts_line(o, in));
        TRY(label(o, "problems"));
        if (cc_v_len(probs) == 0)
                TRY(cc_buf_printf(o->b, o->err, "%snone%s\n", cc_text_sgr(o, CC_SGR_GREEN),
                                  cc_text_sgr(o, CC_SGR_OFF)));
        for (i = 0; i < cc_v_len(probs); i++) {
                const cc_value *p = cc_v_at(probs, i);

                if (i)
                        TRY(cc_buf_printf(o->b, o->err, "%16s", ""));
                TRY(cc_buf_printf(o->b, o->err, "%s! %s%s: ", cc_text_sgr(o, CC_SGR_RED), str(p, "kind"),
                                  cc_text_sgr(o, CC_SGR_OFF)));
                TRY(cc_text_put(o, str(p, "summary")));
                TRY(puts_(o, "\n"));
        }
        for (i = 0; i < cc_v_len(notes); i++) {
                TRY(label(o, "note"));
                TRY(cc_text_put(o, cc_v_as_str(cc_v_at(notes, i))));
                TRY(puts_(o, "\n"));
        }
        if (verbose) {
                const cc_value *ev = cc_v_path(in, "provenance/evidence"), *files = cc_v_get(in, "files");
                const cc_value *dirs = cc_v_get(in, "directories");

                for (i = 0; i < cc_v_len(ev); i++) {
                        TRY(label(o, "evidence"));
                        TRY(cc_text_put(o, cc_v_as_str(cc_v_at(ev, i))));
                        TRY(puts_(o, "\n"));
                }
                for (i = 0; i < cc_v_len(dirs); i++) {
                        const cc_value *dd = cc_v_at(dirs, i), *da = cc_v_get(dd, "aliases");
                        size_t k;

                        TRY(label(o, "directory"));
                        TRY(cc_text_put(o, str(dd, "path")));
                        for (k = 0; k < cc_v_len(da); k++) {
                                TRY(puts_(o, k ? ", " : " (also "));
                                TRY(cc_text_put(o, cc_v_as_str(cc_v_at(da, k))));
                        }
                        TRY(puts_(o, cc_v_len(da) ? ")\n" : "\n"));
                }
                TRY(puts_(o, "    files:\n"));
                for (i = 0; i < cc_v_len(files); i++)
                        TRY(file_line(o, cc_v_at(files, i), prefix));
        }
        return 0;
fail:
        return -1;
}

static int root_line(struct cc_text *o, const cc_value *r)
{
        const char *st = str(r, "state"), *reason = str(r, "reason");
        const cc_value *src = cc_v_get(r, "sources");

        TRY(cc_buf_printf(o->b, o->err, "  %s%-15s%s ",
                          cc_text_sgr(o, st && strcmp(st, "searched") == 0
                                             ? CC_SGR_GREEN
                                             : (st && strcmp(st, "missing") == 0 ? CC_SGR_DIM : CC_SGR_RED)),
                          st ? st : "?", cc_text_sgr(o, CC_SGR_OFF)));
        TRY(cc_text_put(o, str(r, "path")));
        TRY(puts_(o, "  ("));
        TRY(cc_text_put(o, cc_v_as_str(cc_v_at(src, 0))));
        TRY(puts_(o, ")"));
        if (reason && st && strcmp(st, "missing") != 0) {
                TRY(puts_(o, ": "));
                TRY(cc_text_put(o, reason));
        }
        if (str(r, "alias_of")) {
                TRY(puts_(o, " = "));
                TRY(cc_text_put(o, str(r, "alias_of")));
        }
        return puts_(o, "\n");
fail:
        return -1;
}

int cudnnctl_list_text(const cudnnctl_value *facts, int verbose, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text o;
        const cc_value *insts = cc_v_get(facts, "installations"), *roots = cc_v_get(facts, "roots");
        const cc_value *skipped = cc_v_get(facts, "skipped"), *stats = cc_v_get(facts, "stats");
        const cc_value *notes = cc_v_get(facts, "notes");
        size_t i, shown = 0, n = cc_v_len(insts);

        *out = NULL;
        o.b = &b;
        o.color = color;
        o.err = err;
        if (n == 0) {
                TRY(cc_buf_printf(&b, err, "%sno cuDNN found%s (searched %zu roots, %lld directories):\n",
                                  cc_text_sgr(&o, CC_SGR_BOLD), cc_text_sgr(&o, CC_SGR_OFF), cc_v_len(roots),
                                  (long long)cc_v_as_int(cc_v_get(stats, "directories"))));
                for (i = 0; i < cc_v_len(roots); i++) {
                        if (!verbose && shown >= ROOTS_SHOWN) {
                                TRY(cc_buf_printf(&b, err, "  ... and %zu more (--verbose lists them all)\n",
                                                  cc_v_len(roots) - i));
                                break;
                        }
                        TRY(root_line(&o, cc_v_at(roots, i)));
                        shown++;
                }
        } else {
                TRY(cc_buf_printf(&b, err, "%zu cuDNN installation%s (searched %zu roots, %lld directories)\n", n,
                                  n == 1 ? "" : "s", cc_v_len(roots),
                                  (long long)cc_v_as_int(cc_v_get(stats, "directories"))));
                for (i = 0; i < n; i++) {
                        TRY(cc_buf_putc(&b, '\n', err));
                        TRY(installation(&o, cc_v_at(insts, i), verbose));
                }
                /* roots that could not be searched, always; all of them with verbose */
                for (i = 0; i < cc_v_len(roots); i++) {
                        const cc_value *r = cc_v_at(roots, i);
                        const char *st = str(r, "state");

                        if (!verbose && st && (strcmp(st, "searched") == 0 || strcmp(st, "missing") == 0))
                                continue;
                        if (shown++ == 0)
                                TRY(cc_buf_printf(&b, err, "\n%s:\n", verbose ? "roots" : "roots not searched"));
                        TRY(root_line(&o, r));
                }
        }
        for (i = 0; i < cc_v_len(skipped); i++) {
                const cc_value *s = cc_v_at(skipped, i);

                if (i == 0)
                        TRY(cc_buf_puts(&b, "\nskipped:\n", err));
                TRY(cc_buf_puts(&b, "  ", err));
                TRY(cc_text_put(&o, str(s, "path")));
                TRY(cc_buf_puts(&b, ": ", err));
                TRY(cc_text_put(&o, str(s, "reason")));
                TRY(cc_buf_putc(&b, '\n', err));
        }
        if (cc_v_as_bool(cc_v_get(stats, "truncated")))
                TRY(cc_buf_printf(&b, err, "\n%sstopped early%s: more than %lld directories (raise --max-dirs)\n",
                                  cc_text_sgr(&o, CC_SGR_YELLOW), cc_text_sgr(&o, CC_SGR_OFF),
                                  (long long)cc_v_as_int(cc_v_get(stats, "max_dirs"))));
        for (i = 0; i < cc_v_len(notes); i++) {
                TRY(cc_buf_puts(&b, i == 0 ? "\nnote: " : "note: ", err));
                TRY(cc_text_put(&o, cc_v_as_str(cc_v_at(notes, i))));
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
