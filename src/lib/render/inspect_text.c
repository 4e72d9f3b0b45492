/* Text for people from inspect's fact trees. Reads only the tree (the same
 * data --json prints), so text and JSON cannot disagree. */
#include "text.h"

#include "../facts/views.h"

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
                cc_vw_version e;

                cc_vw_version_at(vers, i, &e, NULL);
                if (cc_buf_printf(o->b, o->err, "%*s%s%-10s%s %s%s%s %s %s", ind, "", cc_text_sgr(o, CC_SGR_DIM),
                                  i == 0 ? "versions" : "", cc_text_sgr(o, CC_SGR_OFF), cc_text_sgr(o, CC_SGR_BOLD),
                                  e.version ? e.version : "unknown", cc_text_sgr(o, CC_SGR_OFF),
                                  e.component ? e.component : "?", e.source ? e.source : "?") < 0)
                        return -1;
                if (e.symbol && cc_buf_printf(o->b, o->err, " (%s)", e.symbol) < 0)
                        return -1;
                if (e.sublibrary && cc_buf_printf(o->b, o->err, " (%s)", e.sublibrary) < 0)
                        return -1;
                if (e.member && (cc_buf_puts(o->b, " in ", o->err) < 0 || cc_text_put(o, e.member) < 0))
                        return -1;
                if (with_file && e.file && (cc_buf_puts(o->b, " from ", o->err) < 0 || cc_text_put(o, e.file) < 0))
                        return -1;
                if (e.warning && (cc_buf_puts(o->b, " -- ", o->err) < 0 || cc_text_put(o, e.warning) < 0))
                        return -1;
                if (cc_buf_putc(o->b, '\n', o->err) < 0)
                        return -1;
        }
        return 0;
}

static int file_name(struct cc_text *o, int ind, const cc_vw_ins_facts *f)
{
        char line[256];

        if (f->file_name != NULL) {
                cc_vw_ins_file_name fn;
                const char *unknown;

                cc_vw_ins_file_name_read(f->file_name, &fn, NULL);
                unknown = fn.known_role ? "" : " (not a role cuDNN ships)";
                if (CC_VW_HAS(&fn, ins_file_name, major))
                        snprintf(line, sizeof(line), "cuDNN %s %s, major %lld%s", fn.role, fn.file_kind,
                                 (long long)fn.major, unknown);
                else
                        snprintf(line, sizeof(line), "cuDNN %s %s%s", fn.role, fn.file_kind, unknown);
                return field(o, ind, "name", line);
        }
        if (f->archive_name != NULL) {
                cc_vw_ins_archive_name an;

                cc_vw_ins_archive_name_read(f->archive_name, &an, NULL);
                snprintf(line, sizeof(line), "cuDNN %s archive (%s era), %s%s%s", an.version ? an.version : "?", an.era,
                         an.platform, an.cuda ? ", CUDA " : "", an.cuda ? an.cuda : "");
                return field(o, ind, "name", line);
        }
        return 0;
}

/* The cuDNN entry points a library exports, when it exports any. */
static int entry_points(struct cc_text *o, int ind, const cc_vw_ins_facts *f)
{
        cc_vw_ins_cudnn c;

        if (f->cudnn == NULL)
                return 0;
        cc_vw_ins_cudnn_read(f->cudnn, &c, NULL);
        return field_list(o, ind, "cuDNN API", c.entry_points, "(no entry points)");
}

static int elf_text(struct cc_text *o, int ind, const cc_vw_ins_facts *f)
{
        cc_vw_ins_elf e;
        char line[256];

        if (f->elf == NULL)
                return 0;
        cc_vw_ins_elf_read(f->elf, &e, NULL);
        snprintf(line, sizeof(line), "ELF %lld-bit %s-endian %s, %s", (long long)e.class, e.endian,
                 e.type ? e.type : "(unknown type)", e.machine);
        TRY(field(o, ind, "format", line));
        TRY(field(o, ind, "soname", e.soname));
        TRY(field_list(o, ind, "needed", e.needed, "(none)"));
        if (e.rpath)
                TRY(field(o, ind, "rpath", e.rpath));
        TRY(field(o, ind, "runpath", e.runpath));
        if (e.nodeflib)
                TRY(field(o, ind, "flags", "NODEFLIB (default directories are not searched)"));
        snprintf(line, sizeof(line), "%lld dynamic symbols", (long long)e.exports_count);
        TRY(field(o, ind, "exports", line));
        TRY(all_exports(o, ind, e.exports));
        TRY(entry_points(o, ind, f));
        return 0;
fail:
        return -1;
}

static int pe_text(struct cc_text *o, int ind, const cc_vw_ins_facts *f)
{
        cc_vw_ins_pe p;
        char line[256];
        size_t i;

        if (f->pe == NULL)
                return 0;
        cc_vw_ins_pe_read(f->pe, &p, NULL);
        snprintf(line, sizeof(line), "%s %s, %s", p.pe32plus ? "PE32+" : "PE32", p.type, p.machine);
        TRY(field(o, ind, "format", line));
        TRY(field_list(o, ind, "imports", p.imports, "(none)"));
        if (cc_v_len(p.delay_imports))
                TRY(field_list(o, ind, "delay-load", p.delay_imports, "(none)"));
        snprintf(line, sizeof(line), "%lld names", (long long)p.exports_count);
        TRY(field(o, ind, "exports", line));
        TRY(all_exports(o, ind, p.exports));
        TRY(entry_points(o, ind, f));
        if (p.version_info != NULL) {
                cc_vw_ins_pe_version vi;

                cc_vw_ins_pe_version_read(p.version_info, &vi, NULL);
                if (vi.file_version) {
                        snprintf(line, sizeof(line), "file %s, product %s", vi.file_version, vi.product_version);
                        TRY(field(o, ind, "resource", line));
                }
                for (i = 0; i < cc_v_len(vi.strings); i++) {
                        cc_vw_ins_pe_string s;

                        cc_vw_ins_pe_string_at(vi.strings, i, &s, NULL);
                        TRY(cc_buf_printf(o->b, o->err, "%*s%-10s %s ", ind, "", "", s.table));
                        TRY(cc_text_put(o, s.key));
                        TRY(cc_buf_puts(o->b, " = ", o->err));
                        TRY(cc_text_put(o, s.value));
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
static int definition_is_value(const cc_vw_ins_macro *m)
{
        char num[32];

        if (m->definition == NULL || m->definition[0] == '\0')
                return 1;
        if (!CC_VW_HAS(m, ins_macro, value))
                return 0;
        snprintf(num, sizeof(num), "%lld", (long long)m->value);
        return strcmp(m->definition, num) == 0;
}

static int header_text(struct cc_text *o, int ind, const cc_vw_ins_facts *f)
{
        cc_vw_ins_header h;
        size_t i;

        if (f->header == NULL)
                return 0;
        cc_vw_ins_header_read(f->header, &h, NULL);
        TRY(field(o, ind, "format", "C header"));
        TRY(field_list(o, ind, "includes", h.includes, "(none)"));
        for (i = 0; i < cc_v_len(h.macros); i++) {
                cc_vw_ins_macro m;

                cc_vw_ins_macro_at(h.macros, i, &m, NULL);
                TRY(cc_buf_printf(o->b, o->err, "%*s%s%-10s%s %s = ", ind, "", cc_text_sgr(o, CC_SGR_DIM),
                                  i == 0 ? "macros" : "", cc_text_sgr(o, CC_SGR_OFF), m.name));
                if (CC_VW_HAS(&m, ins_macro, value))
                        TRY(cc_buf_printf(o->b, o->err, "%lld", (long long)m.value));
                else
                        TRY(cc_buf_puts(o->b, "unknown", o->err));
                if (!definition_is_value(&m)) {
                        TRY(cc_buf_puts(o->b, "  (", o->err));
                        TRY(cc_text_put(o, m.definition));
                        TRY(cc_buf_putc(o->b, ')', o->err));
                }
                if (m.error) {
                        TRY(cc_buf_puts(o->b, " -- ", o->err));
                        TRY(cc_text_put(o, m.error));
                }
                if (m.warning) {
                        TRY(cc_buf_puts(o->b, " -- ", o->err));
                        TRY(cc_text_put(o, m.warning));
                }
                TRY(cc_buf_putc(o->b, '\n', o->err));
        }
        if (f->max_compute_capability)
                TRY(field(o, ind, "max SM", f->max_compute_capability));
        return 0;
fail:
        return -1;
}

static int archive_text(struct cc_text *o, int ind, const cc_value *archive)
{
        cc_vw_ins_archive a;
        char line[256];
        size_t i, shown = 0;

        cc_vw_ins_archive_read(archive, &a, NULL);
        snprintf(line, sizeof(line), "%s archive, %lld entries, layout %s, for %s", a.format ? a.format : "?",
                 (long long)a.entries, a.layout ? a.layout : "?", a.system ? a.system : "?");
        TRY(field(o, ind, "format", line));
        if (a.top_dir)
                TRY(field(o, ind, "top dir", a.top_dir));
        if (a.truncated && a.truncated_reason != NULL) {
                TRY(cc_buf_printf(o->b, o->err, "%*s%s%-10s%s ", ind, "", cc_text_sgr(o, CC_SGR_YELLOW), "incomplete",
                                  cc_text_sgr(o, CC_SGR_OFF)));
                TRY(cc_text_put(o, a.truncated_reason));
                TRY(cc_buf_putc(o->b, '\n', o->err));
        }
        for (i = 0; i < cc_v_len(a.unsafe_paths); i++) {
                /* an entry is {path, reason...}; a plain string is a path without a reason */
                const char *plain = cc_v_as_str(cc_v_at(a.unsafe_paths, i));
                cc_vw_ins_unsafe u;
                const char *s;

                cc_vw_ins_unsafe_at(a.unsafe_paths, i, &u, NULL);
                s = plain ? plain : u.path;
                TRY(cc_buf_printf(o->b, o->err, "%*s%s%-10s%s ", ind, "", cc_text_sgr(o, CC_SGR_RED),
                                  i == 0 ? "UNSAFE" : "", cc_text_sgr(o, CC_SGR_OFF)));
                TRY(cc_text_put(o, s ? s : "?"));
                if (u.reason != NULL) {
                        TRY(cc_buf_puts(o->b, " (", o->err));
                        TRY(cc_text_put(o, u.reason));
                        TRY(cc_buf_putc(o->b, ')', o->err));
                }
                TRY(cc_buf_putc(o->b, '\n', o->err));
        }
        for (i = 0; i < cc_v_len(a.members); i++) {
                cc_vw_ins_member m;

                cc_vw_ins_member_at(a.members, i, &m, NULL);
                if (m.install_to == NULL)
                        continue;
                if (shown++ >= 40) {
                        TRY(cc_buf_printf(o->b, o->err, "%*s%-10s ...\n", ind, "", ""));
                        break;
                }
                TRY(cc_buf_printf(o->b, o->err, "%*s%-10s ", ind, "", shown == 1 ? "installs" : ""));
                TRY(cc_text_put(o, m.path ? m.path : "?"));
                TRY(cc_buf_printf(o->b, o->err, " -> %s/\n", m.install_to));
        }
        return 0;
fail:
        return -1;
}

static int other_text(struct cc_text *o, int ind, const cc_vw_ins_facts *f)
{
        char line[256];

        if (f->distribution != NULL) {
                cc_vw_ins_dist d;

                cc_vw_ins_dist_read(f->distribution, &d, NULL);
                snprintf(line, sizeof(line), "%s %s", d.name ? d.name : "?", d.version ? d.version : "?");
                TRY(field(o, ind, "package", line));
                if (CC_VW_HAS(&d, ins_dist, files)) {
                        snprintf(line, sizeof(line), "%lld", (long long)d.files);
                        TRY(field(o, ind, "files", line));
                }
        }
        if (f->implib != NULL) {
                cc_vw_ins_implib il;

                cc_vw_ins_implib_read(f->implib, &il, NULL);
                TRY(field(o, ind, "format", "COFF import library"));
                TRY(field_list(o, ind, "binds to", il.dlls, "(none)"));
        }
        if (f->archive != NULL)
                TRY(archive_text(o, ind, f->archive));
        return 0;
fail:
        return -1;
}

static int one(struct cc_text *o, const cc_value *facts, int ind, int in_dir);

static int dir_text(struct cc_text *o, int ind, const cc_vw_ins_facts *f)
{
        cc_vw_ins_directory d;
        cc_vw_ins_dir_counts c;
        char line[256];
        size_t i;

        if (f->directory == NULL)
                return 0;
        cc_vw_ins_directory_read(f->directory, &d, NULL);
        cc_vw_ins_dir_counts_read(d.counts, &c, NULL);
        snprintf(line, sizeof(line), "%lld libraries, %lld headers, %lld import libraries, %lld static, %lld links",
                 (long long)c.libraries, (long long)c.headers, (long long)c.import_libraries,
                 (long long)c.static_libraries, (long long)c.symlinks);
        TRY(field(o, ind, "cuDNN",
                  cc_v_len(d.files) ? line
                  : d.truncated     ? "no cuDNN files found in the part read"
                                    : "no cuDNN files found"));
        if (d.truncated_reason != NULL) {
                TRY(cc_buf_printf(o->b, o->err, "%*s%sincomplete%s ", ind, "", cc_text_sgr(o, CC_SGR_YELLOW),
                                  cc_text_sgr(o, CC_SGR_OFF)));
                TRY(cc_text_put(o, d.truncated_reason));
                TRY(cc_buf_putc(o->b, '\n', o->err));
        }
        if (d.not_entered_depth > 0) {
                snprintf(line, sizeof(line), "%lld directories more than %lld levels down were not entered",
                         (long long)d.not_entered_depth, (long long)d.max_depth);
                TRY(field(o, ind, "depth", line));
        }
        TRY(versions(o, ind, d.versions, 1));
        for (i = 0; i < cc_v_len(d.skipped); i++) {
                cc_vw_ins_skipped s;

                cc_vw_ins_skipped_at(d.skipped, i, &s, NULL);
                snprintf(line, sizeof(line), "%s: %s", s.path, s.reason);
                TRY(field(o, ind, "skipped", line));
        }
        for (i = 0; i < cc_v_len(d.files); i++) {
                TRY(cc_buf_putc(o->b, '\n', o->err));
                TRY(one(o, cc_v_at(d.files, i), ind + 2, 1));
        }
        return 0;
fail:
        return -1;
}

static int one(struct cc_text *o, const cc_value *facts, int ind, int in_dir)
{
        cc_vw_ins_facts f;
        size_t i;

        cc_vw_ins_facts_read(facts, &f, NULL);
        TRY(cc_buf_printf(o->b, o->err, "%*s%s", ind, "", cc_text_sgr(o, CC_SGR_BOLD)));
        TRY(cc_text_put(o, f.path ? f.path : "?"));
        TRY(cc_buf_puts(o->b, cc_text_sgr(o, CC_SGR_OFF), o->err));
        if (f.link) {
                TRY(cc_buf_puts(o->b, " -> ", o->err));
                TRY(cc_text_put(o, f.link));
        }
        TRY(cc_buf_printf(o->b, o->err, " [%s]\n", f.kind ? f.kind : "?"));
        ind += 2;
        if (f.error) {
                TRY(cc_buf_printf(o->b, o->err, "%*s%serror%s     ", ind, "", cc_text_sgr(o, CC_SGR_RED),
                                  cc_text_sgr(o, CC_SGR_OFF)));
                TRY(cc_text_put(o, f.error));
                TRY(cc_buf_putc(o->b, '\n', o->err));
        }
        if (f.same_file_as != NULL)
                TRY(field(o, ind, "same file", f.same_file_as));
        TRY(file_name(o, ind, &f));
        if (f.kind != NULL && strcmp(f.kind, "symlink") == 0 && in_dir)
                return 0;
        TRY(elf_text(o, ind, &f));
        TRY(pe_text(o, ind, &f));
        TRY(header_text(o, ind, &f));
        TRY(other_text(o, ind, &f));
        if (f.kind == NULL || strcmp(f.kind, "directory") != 0)
                TRY(versions(o, ind, f.versions, 0));
        for (i = 0; i < cc_v_len(f.warnings); i++)
                TRY(field(o, ind, "warning", cc_v_as_str(cc_v_at(f.warnings, i))));
        TRY(dir_text(o, ind, &f));
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
