/* Text for people from inspect's fact trees. Reads only the tree (the same
 * data --json prints), so text and JSON cannot disagree. */
#include "text.h"

#include <stdio.h>
#include <string.h>

#define LIST_MAX 12 /* names shown before "... and N more" */

static int field(struct cc_text *o, int ind, const char *label, const char *value)
{
        if (cc_buf_printf(o->b, o->err, "%*s%s%-10s%s ", ind, "", cc_text_sgr(o, CC_SGR_DIM), label,
                          cc_text_sgr(o, CC_SGR_OFF)) < 0)
                return -1;
        if (cc_text_put(o, value ? value : "(none)") < 0)
                return -1;
        return cc_buf_putc(o->b, '\n', o->err);
}

/* A list of strings on one line, comma separated, capped. */
static int field_list(struct cc_text *o, int ind, const char *label, const cc_value *arr, const char *empty)
{
        size_t i, n = cc_v_len(arr);

        if (cc_buf_printf(o->b, o->err, "%*s%s%-10s%s ", ind, "", cc_text_sgr(o, CC_SGR_DIM), label,
                          cc_text_sgr(o, CC_SGR_OFF)) < 0)
                return -1;
        if (n == 0 && cc_text_put(o, empty) < 0)
                return -1;
        for (i = 0; i < n && i < LIST_MAX; i++) {
                if (i && cc_buf_puts(o->b, ", ", o->err) < 0)
                        return -1;
                if (cc_text_put(o, cc_v_as_str(cc_v_at(arr, i)) ? cc_v_as_str(cc_v_at(arr, i)) : "?") < 0)
                        return -1;
        }
        if (n > LIST_MAX && cc_buf_printf(o->b, o->err, ", ... and %zu more", n - LIST_MAX) < 0)
                return -1;
        return cc_buf_putc(o->b, '\n', o->err);
}

/* Every exported name, one a line (only with --symbols: the facts carry
 * "exports" then). */
static int all_exports(struct cc_text *o, int ind, const cc_value *arr)
{
        size_t i;

        for (i = 0; i < cc_v_len(arr); i++) {
                if (cc_buf_printf(o->b, o->err, "%*s", ind + 11, "") < 0 ||
                    cc_text_put(o, cc_v_as_str(cc_v_at(arr, i)) ? cc_v_as_str(cc_v_at(arr, i)) : "?") < 0 ||
                    cc_buf_putc(o->b, '\n', o->err) < 0)
                        return -1;
        }
        return 0;
}

static int versions(struct cc_text *o, int ind, const cc_value *vers, int with_file)
{
        size_t i;

        for (i = 0; i < cc_v_len(vers); i++) {
                const cc_value *e = cc_v_at(vers, i);
                const char *comp = cc_v_get_str(e, "component");
                const char *src = cc_v_get_str(e, "source");
                const char *ver = cc_v_get_str(e, "version");
                const char *sym = cc_v_get_str(e, "symbol");
                const char *sub = cc_v_get_str(e, "sublibrary");
                const char *member = cc_v_get_str(e, "member");
                const char *file = cc_v_get_str(e, "file");
                const char *warn = cc_v_get_str(e, "warning");

                if (cc_buf_printf(o->b, o->err, "%*s%s%-10s%s %s%s%s %s %s", ind, "", cc_text_sgr(o, CC_SGR_DIM),
                                  i == 0 ? "versions" : "", cc_text_sgr(o, CC_SGR_OFF), cc_text_sgr(o, CC_SGR_BOLD),
                                  ver ? ver : "unknown", cc_text_sgr(o, CC_SGR_OFF), comp ? comp : "?",
                                  src ? src : "?") < 0)
                        return -1;
                if (sym && cc_buf_printf(o->b, o->err, " (%s)", sym) < 0)
                        return -1;
                if (sub && cc_buf_printf(o->b, o->err, " (%s)", sub) < 0)
                        return -1;
                if (member && (cc_buf_puts(o->b, " in ", o->err) < 0 || cc_text_put(o, member) < 0))
                        return -1;
                if (with_file && file && (cc_buf_puts(o->b, " from ", o->err) < 0 || cc_text_put(o, file) < 0))
                        return -1;
                if (warn && (cc_buf_puts(o->b, " -- ", o->err) < 0 || cc_text_put(o, warn) < 0))
                        return -1;
                if (cc_buf_putc(o->b, '\n', o->err) < 0)
                        return -1;
        }
        return 0;
}

static int file_name(struct cc_text *o, int ind, const cc_value *f)
{
        const cc_value *fn = cc_v_get(f, "file_name");
        const cc_value *an = cc_v_get(f, "archive_name");
        char line[256];

        if (fn != NULL) {
                const cc_value *major = cc_v_get(fn, "major");

                const char *unknown = cc_v_as_bool(cc_v_get(fn, "known_role")) ? "" : " (not a role cuDNN ships)";

                if (cc_v_type(major) == CUDNNCTL_INT)
                        snprintf(line, sizeof(line), "cuDNN %s %s, major %lld%s", cc_v_get_str(fn, "role"),
                                 cc_v_get_str(fn, "file_kind"), (long long)cc_v_as_int(major), unknown);
                else
                        snprintf(line, sizeof(line), "cuDNN %s %s%s", cc_v_get_str(fn, "role"),
                                 cc_v_get_str(fn, "file_kind"), unknown);
                return field(o, ind, "name", line);
        }
        if (an != NULL) {
                const char *cuda = cc_v_get_str(an, "cuda");

                snprintf(line, sizeof(line), "cuDNN %s archive (%s era), %s%s%s",
                         cc_v_get_str(an, "version") ? cc_v_get_str(an, "version") : "?", cc_v_get_str(an, "era"),
                         cc_v_get_str(an, "platform"), cuda ? ", CUDA " : "", cuda ? cuda : "");
                return field(o, ind, "name", line);
        }
        return 0;
}

static int elf_text(struct cc_text *o, int ind, const cc_value *f)
{
        const cc_value *e = cc_v_get(f, "elf");
        const cc_value *c = cc_v_get(f, "cudnn");
        char line[256];

        if (e == NULL)
                return 0;
        snprintf(line, sizeof(line), "ELF %lld-bit %s-endian %s, %s", (long long)cc_v_as_int(cc_v_get(e, "class")),
                 cc_v_get_str(e, "endian"), cc_v_get_str(e, "type") ? cc_v_get_str(e, "type") : "(unknown type)",
                 cc_v_get_str(e, "machine"));
        TRY(field(o, ind, "format", line));
        TRY(field(o, ind, "soname", cc_v_get_str(e, "soname")));
        TRY(field_list(o, ind, "needed", cc_v_get(e, "needed"), "(none)"));
        if (cc_v_get_str(e, "rpath"))
                TRY(field(o, ind, "rpath", cc_v_get_str(e, "rpath")));
        TRY(field(o, ind, "runpath", cc_v_get_str(e, "runpath")));
        if (cc_v_as_bool(cc_v_get(e, "nodeflib")))
                TRY(field(o, ind, "flags", "NODEFLIB (default directories are not searched)"));
        snprintf(line, sizeof(line), "%lld dynamic symbols", (long long)cc_v_as_int(cc_v_get(e, "exports_count")));
        TRY(field(o, ind, "exports", line));
        TRY(all_exports(o, ind, cc_v_get(e, "exports")));
        if (c != NULL)
                TRY(field_list(o, ind, "cuDNN API", cc_v_get(c, "entry_points"), "(no entry points)"));
        return 0;
fail:
        return -1;
}

static int pe_text(struct cc_text *o, int ind, const cc_value *f)
{
        const cc_value *p = cc_v_get(f, "pe");
        const cc_value *c = cc_v_get(f, "cudnn");
        const cc_value *vi;
        char line[256];
        size_t i;

        if (p == NULL)
                return 0;
        snprintf(line, sizeof(line), "%s %s, %s", cc_v_as_bool(cc_v_get(p, "pe32plus")) ? "PE32+" : "PE32",
                 cc_v_get_str(p, "type"), cc_v_get_str(p, "machine"));
        TRY(field(o, ind, "format", line));
        TRY(field_list(o, ind, "imports", cc_v_get(p, "imports"), "(none)"));
        if (cc_v_len(cc_v_get(p, "delay_imports")))
                TRY(field_list(o, ind, "delay-load", cc_v_get(p, "delay_imports"), "(none)"));
        snprintf(line, sizeof(line), "%lld names", (long long)cc_v_as_int(cc_v_get(p, "exports_count")));
        TRY(field(o, ind, "exports", line));
        TRY(all_exports(o, ind, cc_v_get(p, "exports")));
        if (c != NULL)
                TRY(field_list(o, ind, "cuDNN API", cc_v_get(c, "entry_points"), "(no entry points)"));
        vi = cc_v_get(p, "version_info");
        if (cc_v_type(vi) == CUDNNCTL_OBJECT) {
                const cc_value *strs = cc_v_get(vi, "strings");

                if (cc_v_get_str(vi, "file_version")) {
                        snprintf(line, sizeof(line), "file %s, product %s", cc_v_get_str(vi, "file_version"),
                                 cc_v_get_str(vi, "product_version"));
                        TRY(field(o, ind, "resource", line));
                }
                for (i = 0; i < cc_v_len(strs); i++) {
                        const cc_value *s = cc_v_at(strs, i);

                        TRY(cc_buf_printf(o->b, o->err, "%*s%-10s %s ", ind, "", "", cc_v_get_str(s, "table")));
                        TRY(cc_text_put(o, cc_v_get_str(s, "key")));
                        TRY(cc_buf_puts(o->b, " = ", o->err));
                        TRY(cc_text_put(o, cc_v_get_str(s, "value")));
                        TRY(cc_buf_putc(o->b, '\n', o->err));
                }
        } else {
                TRY(field(o, ind, "resource", "(no version resource)"));
        }
        return 0;
fail:
        return -1;
}

/* 1 if the macro's text is just its value (no need to show both). */
static int definition_is_value(const char *def, const cc_value *val)
{
        char num[32];

        if (def == NULL || def[0] == '\0')
                return 1;
        if (cc_v_type(val) != CUDNNCTL_INT)
                return 0;
        snprintf(num, sizeof(num), "%lld", (long long)cc_v_as_int(val));
        return strcmp(def, num) == 0;
}

static int header_text(struct cc_text *o, int ind, const cc_value *f)
{
        const cc_value *h = cc_v_get(f, "header");
        const cc_value *ms;
        size_t i;

        if (h == NULL)
                return 0;
        TRY(field(o, ind, "format", "C header"));
        TRY(field_list(o, ind, "includes", cc_v_get(h, "includes"), "(none)"));
        ms = cc_v_get(h, "macros");
        for (i = 0; i < cc_v_len(ms); i++) {
                const cc_value *m = cc_v_at(ms, i);
                const cc_value *val = cc_v_get(m, "value");

                TRY(cc_buf_printf(o->b, o->err, "%*s%s%-10s%s %s = ", ind, "", cc_text_sgr(o, CC_SGR_DIM),
                                  i == 0 ? "macros" : "", cc_text_sgr(o, CC_SGR_OFF), cc_v_get_str(m, "name")));
                if (cc_v_type(val) == CUDNNCTL_INT)
                        TRY(cc_buf_printf(o->b, o->err, "%lld", (long long)cc_v_as_int(val)));
                else
                        TRY(cc_buf_puts(o->b, "unknown", o->err));
                if (!definition_is_value(cc_v_get_str(m, "definition"), val)) {
                        TRY(cc_buf_puts(o->b, "  (", o->err));
                        TRY(cc_text_put(o, cc_v_get_str(m, "definition")));
                        TRY(cc_buf_putc(o->b, ')', o->err));
                }
                if (cc_v_get_str(m, "error")) {
                        TRY(cc_buf_puts(o->b, " -- ", o->err));
                        TRY(cc_text_put(o, cc_v_get_str(m, "error")));
                }
                if (cc_v_get_str(m, "warning")) {
                        TRY(cc_buf_puts(o->b, " -- ", o->err));
                        TRY(cc_text_put(o, cc_v_get_str(m, "warning")));
                }
                TRY(cc_buf_putc(o->b, '\n', o->err));
        }
        if (cc_v_get_str(f, "max_compute_capability"))
                TRY(field(o, ind, "max SM", cc_v_get_str(f, "max_compute_capability")));
        return 0;
fail:
        return -1;
}

static int other_text(struct cc_text *o, int ind, const cc_value *f)
{
        const cc_value *d = cc_v_get(f, "distribution");
        const cc_value *il = cc_v_get(f, "implib");
        const cc_value *a = cc_v_get(f, "archive");
        char line[256];

        if (d != NULL) {
                snprintf(line, sizeof(line), "%s %s", cc_v_get_str(d, "name") ? cc_v_get_str(d, "name") : "?",
                         cc_v_get_str(d, "version") ? cc_v_get_str(d, "version") : "?");
                TRY(field(o, ind, "package", line));
                if (cc_v_get(d, "files")) {
                        snprintf(line, sizeof(line), "%lld", (long long)cc_v_as_int(cc_v_get(d, "files")));
                        TRY(field(o, ind, "files", line));
                }
        }
        if (il != NULL) {
                TRY(field(o, ind, "format", "COFF import library"));
                TRY(field_list(o, ind, "binds to", cc_v_get(il, "dlls"), "(none)"));
        }
        if (a != NULL) {
                const cc_value *un = cc_v_get(a, "unsafe_paths");
                const cc_value *ms = cc_v_get(a, "members");
                size_t i, shown = 0;

                snprintf(line, sizeof(line), "%s archive, %lld entries, layout %s, for %s",
                         cc_v_get_str(a, "format") ? cc_v_get_str(a, "format") : "?",
                         (long long)cc_v_as_int(cc_v_get(a, "entries")),
                         cc_v_get_str(a, "layout") ? cc_v_get_str(a, "layout") : "?",
                         cc_v_get_str(a, "system") ? cc_v_get_str(a, "system") : "?");
                TRY(field(o, ind, "format", line));
                if (cc_v_get_str(a, "top_dir"))
                        TRY(field(o, ind, "top dir", cc_v_get_str(a, "top_dir")));
                if (cc_v_as_bool(cc_v_get(a, "truncated")) && cc_v_get_str(a, "truncated_reason") != NULL) {
                        TRY(cc_buf_printf(o->b, o->err, "%*s%s%-10s%s ", ind, "", cc_text_sgr(o, CC_SGR_YELLOW),
                                          "incomplete", cc_text_sgr(o, CC_SGR_OFF)));
                        TRY(cc_text_put(o, cc_v_get_str(a, "truncated_reason")));
                        TRY(cc_buf_putc(o->b, '\n', o->err));
                }
                for (i = 0; i < cc_v_len(un); i++) {
                        const cc_value *u = cc_v_at(un, i);
                        const char *s = cc_v_as_str(u) ? cc_v_as_str(u) : cc_v_get_str(u, "path");
                        const char *why = cc_v_get_str(u, "reason");

                        TRY(cc_buf_printf(o->b, o->err, "%*s%s%-10s%s ", ind, "", cc_text_sgr(o, CC_SGR_RED),
                                          i == 0 ? "UNSAFE" : "", cc_text_sgr(o, CC_SGR_OFF)));
                        TRY(cc_text_put(o, s ? s : "?"));
                        if (why != NULL) {
                                TRY(cc_buf_puts(o->b, " (", o->err));
                                TRY(cc_text_put(o, why));
                                TRY(cc_buf_putc(o->b, ')', o->err));
                        }
                        TRY(cc_buf_putc(o->b, '\n', o->err));
                }
                for (i = 0; i < cc_v_len(ms); i++) {
                        const cc_value *m = cc_v_at(ms, i);
                        const char *to = cc_v_get_str(m, "install_to");

                        if (to == NULL)
                                continue;
                        if (shown++ >= 40) {
                                TRY(cc_buf_printf(o->b, o->err, "%*s%-10s ...\n", ind, "", ""));
                                break;
                        }
                        TRY(cc_buf_printf(o->b, o->err, "%*s%-10s ", ind, "", shown == 1 ? "installs" : ""));
                        TRY(cc_text_put(o, cc_v_get_str(m, "path") ? cc_v_get_str(m, "path") : "?"));
                        TRY(cc_buf_printf(o->b, o->err, " -> %s/\n", to));
                }
        }
        return 0;
fail:
        return -1;
}

static int one(struct cc_text *o, const cc_value *f, int ind, int in_dir);

static int dir_text(struct cc_text *o, int ind, const cc_value *f)
{
        const cc_value *d = cc_v_get(f, "directory");
        const cc_value *files = cc_v_get(d, "files");
        const cc_value *counts = cc_v_get(d, "counts");
        const cc_value *skipped = cc_v_get(d, "skipped");
        char line[256];
        size_t i;

        if (d == NULL)
                return 0;
        snprintf(line, sizeof(line), "%lld libraries, %lld headers, %lld import libraries, %lld static, %lld links",
                 (long long)cc_v_as_int(cc_v_get(counts, "libraries")),
                 (long long)cc_v_as_int(cc_v_get(counts, "headers")),
                 (long long)cc_v_as_int(cc_v_get(counts, "import_libraries")),
                 (long long)cc_v_as_int(cc_v_get(counts, "static_libraries")),
                 (long long)cc_v_as_int(cc_v_get(counts, "symlinks")));
        TRY(field(o, ind, "cuDNN",
                  cc_v_len(files)                          ? line
                  : cc_v_as_bool(cc_v_get(d, "truncated")) ? "no cuDNN files found in the part read"
                                                           : "no cuDNN files found"));
        if (cc_v_get_str(d, "truncated_reason") != NULL) {
                TRY(cc_buf_printf(o->b, o->err, "%*s%sincomplete%s ", ind, "", cc_text_sgr(o, CC_SGR_YELLOW),
                                  cc_text_sgr(o, CC_SGR_OFF)));
                TRY(cc_text_put(o, cc_v_get_str(d, "truncated_reason")));
                TRY(cc_buf_putc(o->b, '\n', o->err));
        }
        if (cc_v_as_int(cc_v_get(d, "not_entered_depth")) > 0) {
                snprintf(line, sizeof(line), "%lld directories more than %lld levels down were not entered",
                         (long long)cc_v_as_int(cc_v_get(d, "not_entered_depth")),
                         (long long)cc_v_as_int(cc_v_get(d, "max_depth")));
                TRY(field(o, ind, "depth", line));
        }
        TRY(versions(o, ind, cc_v_get(d, "versions"), 1));
        for (i = 0; i < cc_v_len(skipped); i++) {
                const cc_value *s = cc_v_at(skipped, i);

                snprintf(line, sizeof(line), "%s: %s", cc_v_get_str(s, "path"), cc_v_get_str(s, "reason"));
                TRY(field(o, ind, "skipped", line));
        }
        for (i = 0; i < cc_v_len(files); i++) {
                TRY(cc_buf_putc(o->b, '\n', o->err));
                TRY(one(o, cc_v_at(files, i), ind + 2, 1));
        }
        return 0;
fail:
        return -1;
}

static int one(struct cc_text *o, const cc_value *f, int ind, int in_dir)
{
        const char *kind = cc_v_get_str(f, "kind");
        const char *path = cc_v_get_str(f, "path");
        const char *error = cc_v_get_str(f, "error");
        const cc_value *warns = cc_v_get(f, "warnings");
        size_t i;

        TRY(cc_buf_printf(o->b, o->err, "%*s%s", ind, "", cc_text_sgr(o, CC_SGR_BOLD)));
        TRY(cc_text_put(o, path ? path : "?"));
        TRY(cc_buf_puts(o->b, cc_text_sgr(o, CC_SGR_OFF), o->err));
        if (cc_v_get_str(f, "link")) {
                TRY(cc_buf_puts(o->b, " -> ", o->err));
                TRY(cc_text_put(o, cc_v_get_str(f, "link")));
        }
        TRY(cc_buf_printf(o->b, o->err, " [%s]\n", kind ? kind : "?"));
        ind += 2;
        if (error) {
                TRY(cc_buf_printf(o->b, o->err, "%*s%serror%s     ", ind, "", cc_text_sgr(o, CC_SGR_RED),
                                  cc_text_sgr(o, CC_SGR_OFF)));
                TRY(cc_text_put(o, error));
                TRY(cc_buf_putc(o->b, '\n', o->err));
        }
        if (cc_v_get_str(f, "same_file_as") != NULL)
                TRY(field(o, ind, "same file", cc_v_get_str(f, "same_file_as")));
        TRY(file_name(o, ind, f));
        if (kind != NULL && strcmp(kind, "symlink") == 0 && in_dir)
                return 0;
        TRY(elf_text(o, ind, f));
        TRY(pe_text(o, ind, f));
        TRY(header_text(o, ind, f));
        TRY(other_text(o, ind, f));
        if (kind == NULL || strcmp(kind, "directory") != 0)
                TRY(versions(o, ind, cc_v_get(f, "versions"), 0));
        for (i = 0; i < cc_v_len(warns); i++)
                TRY(field(o, ind, "warning", cc_v_as_str(cc_v_at(warns, i))));
        TRY(dir_text(o, ind, f));
        return 0;
fail:
        return -1;
}

int cudnnctl_inspect_text(const cudnnctl_value *facts, int color, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        struct cc_text o;

        *out = NULL;
        o.b = &b;
        o.color = color;
        o.err = err;
        if (one(&o, facts, 0, 0) < 0) {
                cc_buf_free(&b);
                return -1;
        }
        *out = cc_buf_steal(&b);
        if (*out == NULL)
                *out = cc_strdup(err, "");
        return *out ? 0 : -1;
}
