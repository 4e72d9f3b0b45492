/* The HTML page of `cudnnctl report`: one self-contained document (inline
 * CSS, no network, no fonts; a few lines of script that only add "open all"
 * and open every finding before printing). The table has one row per group;
 * each cell says its state in words and colour; each finding's evidence is
 * in a <details> (keyboard-operable without script); the print stylesheet
 * opens them. Every string from a document is escaped. */
#include "cudnnctl/report.h"

#include "report.h"

#include <string.h>

struct hp {
        cc_buf *b;
        cc_error *err;
};

static int esc(cc_buf *b, const char *s, size_t n, cc_error *err)
{
        size_t i, from = 0;

        for (i = 0; s != NULL && i < n; i++) {
                unsigned char c = (unsigned char)s[i];
                const char *rep = c == '&'                                            ? "&amp;"
                                  : c == '<'                                          ? "&lt;"
                                  : c == '>'                                          ? "&gt;"
                                  : c == '"'                                          ? "&quot;"
                                  : c == '\''                                         ? "&#39;"
                                  : (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ? "&#xFFFD;"
                                                                                      : NULL;

                if (rep == NULL)
                        continue;
                TRY_RET(cc_buf_append(b, s + from, i - from, err));
                TRY_RET(cc_buf_puts(b, rep, err));
                from = i + 1;
        }
        return s != NULL ? cc_buf_append(b, s + from, n - from, err) : 0;
}

static int put(cc_buf *b, const char *s, cc_error *err)
{
        return esc(b, s ? s : "", s ? strlen(s) : 0, err);
}

static int names_put(void *ctx, const char *s, size_t n, int own)
{
        struct hp *h = ctx;

        (void)own;
        if (s == NULL)
                return cc_buf_puts(h->b, "\xe2\x80\xa6", h->err);
        return esc(h->b, s, n, h->err);
}

static const char *state_class(const char *s)
{
        static const char *const known[] = {"error", "warning", "info", "ok", "partial", "not-checked", "none"};
        size_t i;

        for (i = 0; s != NULL && i < CC_ARRAY_LEN(known); i++)
                if (strcmp(s, known[i]) == 0)
                        return known[i];
        return "none";
}

static const char css[] =
    "body{font:15px/1.45 system-ui,sans-serif;margin:1.5rem;color:#111;background:#fff}\n"
    "h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}h3{font-size:1rem;margin:1rem 0 .3rem}\n"
    "table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #999;padding:.25rem .5rem;"
    "text-align:left;vertical-align:top}\n"
    "thead th{background:#eee}.s{font-weight:600}\n"
    ".s-error{background:#fdd;color:#900}.s-warning{background:#ffe9b3;color:#6b4400}"
    ".s-info{background:#e3eefc;color:#123f7a}.s-ok{background:#dff3df;color:#135c13}"
    ".s-partial,.s-not-checked,.s-none{background:#f1f1f1;color:#444}\n"
    ".s-error::before{content:\"\\2716 \"}.s-warning::before{content:\"\\26A0 \"}.s-ok::before{content:\"\\2714 \"}\n"
    "details{margin:.2rem 0 .4rem}summary{cursor:pointer}summary:focus-visible,a:focus-visible,button:focus-visible"
    "{outline:3px solid #1a5fb4;outline-offset:2px}\n"
    "pre{background:#f6f6f6;padding:.5rem;overflow:auto;white-space:pre-wrap;word-break:break-word}\n"
    ".names{color:#333}.line{margin:.2rem 0}\n"
    "@media print{body{margin:0;font-size:11pt}.s-error,.s-warning,.s-info,.s-ok,.s-partial,.s-not-checked,"
    ".s-none{background:none;color:#000}details>summary{list-style:none}"
    "details::details-content{content-visibility:visible;display:contents}#tools{display:none}"
    "tr{break-inside:avoid}}\n";

static const char script[] =
    "(function(){var t=document.getElementById('tools');if(!t)return;"
    "var all=function(o){document.querySelectorAll('details').forEach(function(d){d.open=o;});};"
    "var b=document.createElement('button');b.type='button';b.textContent='Open all details';"
    "b.addEventListener('click',function(){all(true);});"
    "var c=document.createElement('button');c.type='button';c.textContent='Close all details';"
    "c.addEventListener('click',function(){all(false);});t.appendChild(b);t.appendChild(c);"
    "window.addEventListener('beforeprint',function(){all(true);});})();\n";

static int cell(cc_buf *b, const char *state, cc_error *err)
{
        const char *cls = state_class(state);

        TRY_RET(cc_buf_printf(b, err, "<td class=\"s s-%s\">", cls));
        TRY_RET(put(b, state ? state : "none", err));
        return cc_buf_puts(b, "</td>", err);
}

static int finding_details(cc_buf *b, const cc_value *f, cc_error *err)
{
        const char *sev = cc_v_get_str(f, "severity");
        cc_buf ev = {0};

        TRY_RET(cc_buf_printf(b, err, "<details><summary><span class=\"s s-%s\">", state_class(sev)));
        TRY_RET(put(b, sev, err));
        TRY_RET(cc_buf_puts(b, "</span> <code>", err));
        TRY_RET(put(b, cc_v_get_str(f, "id"), err));
        TRY_RET(cc_buf_puts(b, "</code> (", err));
        TRY_RET(put(b, cc_v_get_str(f, "area"), err));
        TRY_RET(cc_buf_puts(b, "): ", err));
        TRY_RET(put(b, cc_v_get_str(f, "summary"), err));
        TRY_RET(cc_buf_puts(b, "</summary>\n<pre>", err));
        if (cc_json_write(cc_v_get(f, "evidence"), 1, &ev, err) < 0) {
                cc_buf_free(&ev);
                return -1;
        }
        if (esc(b, ev.data, ev.len, err) < 0) {
                cc_buf_free(&ev);
                return -1;
        }
        cc_buf_free(&ev);
        return cc_buf_puts(b, "</pre></details>\n", err);
}

int cudnnctl_report_html(const cudnnctl_value *doc, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};
        const cc_value *groups = cc_v_get(doc, "groups"), *areas = cc_v_get(doc, "areas");
        const cc_value *findings = cc_v_get(doc, "findings"), *un = cc_v_get(doc, "unreadable");
        long long nodes = cc_v_as_int(cc_v_get(doc, "nodes"));
        struct hp h = {&b, err};
        size_t i, k;

        *out = NULL;
        TRY(cc_buf_printf(&b, err,
                          "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                          "<title>cudnnctl report: %lld nodes in %zu groups</title>\n<style>\n%s</style>\n"
                          "</head>\n<body>\n<header>\n<h1>cuDNN report: %lld node%s in %zu group%s</h1>\n",
                          nodes, cc_v_len(groups), css, nodes, nodes == 1 ? "" : "s", cc_v_len(groups),
                          cc_v_len(groups) == 1 ? "" : "s"));
        TRY(cc_buf_printf(&b, err, "<p>Verdict: <span class=\"s s-%s\">",
                          state_class(strcmp(cc_v_get_str(cc_v_get(doc, "summary"), "verdict")
                                                 ? cc_v_get_str(cc_v_get(doc, "summary"), "verdict")
                                                 : "",
                                             "errors") == 0
                                          ? "error"
                                      : strcmp(cc_v_get_str(cc_v_get(doc, "summary"), "verdict")
                                                   ? cc_v_get_str(cc_v_get(doc, "summary"), "verdict")
                                                   : "",
                                               "warnings") == 0
                                          ? "warning"
                                          : "ok")));
        TRY(put(&b, cc_v_get_str(cc_v_get(doc, "summary"), "verdict"), err));
        TRY(cc_buf_printf(&b, err, "</span>; %zu unreadable document%s.</p>\n<div id=\"tools\"></div>\n</header>\n",
                          cc_v_len(un), cc_v_len(un) == 1 ? "" : "s"));
        TRY(cc_buf_puts(&b,
                        "<main>\n<section aria-labelledby=\"h-table\">\n<h2 id=\"h-table\">Groups by area</h2>\n"
                        "<table>\n<caption>The worst severity in each doctor area, one row per group of "
                        "nodes with an identical stack</caption>\n<thead><tr><th scope=\"col\">Group</th>"
                        "<th scope=\"col\">Nodes</th>",
                        err));
        for (k = 0; k < cc_v_len(areas); k++) {
                TRY(cc_buf_puts(&b, "<th scope=\"col\">", err));
                TRY(put(&b, cc_v_as_str(cc_v_at(areas, k)), err));
                TRY(cc_buf_puts(&b, "</th>", err));
        }
        TRY(cc_buf_puts(&b, "</tr></thead>\n<tbody>\n", err));
        for (i = 0; i < cc_v_len(groups); i++) {
                const cc_value *g = cc_v_at(groups, i), *cells = cc_v_get(g, "areas");

                TRY(cc_buf_printf(&b, err,
                                  "<tr><th scope=\"row\"><a href=\"#g%zu\">%zu</a></th><td>%lld: "
                                  "<span class=\"names\">",
                                  i + 1, i + 1, (long long)cc_v_as_int(cc_v_get(g, "nodes"))));
                TRY(cc_report_names(cc_v_get(g, "names"), 0, names_put, &h, err));
                TRY(cc_buf_puts(&b, "</span></td>", err));
                for (k = 0; k < cc_v_len(areas); k++)
                        TRY(cell(&b, cc_v_get_str(cells, cc_v_as_str(cc_v_at(areas, k))), err));
                TRY(cc_buf_puts(&b, "</tr>\n", err));
        }
        TRY(cc_buf_puts(&b,
                        "</tbody>\n</table>\n</section>\n<section aria-labelledby=\"h-groups\">\n"
                        "<h2 id=\"h-groups\">Groups</h2>\n",
                        err));
        for (i = 0; i < cc_v_len(groups); i++) {
                const cc_value *g = cc_v_at(groups, i), *gf = cc_v_get(g, "findings"), *names = cc_v_get(g, "names");
                long long n = cc_v_as_int(cc_v_get(g, "nodes"));
                const char *verdict = cc_v_get_str(g, "verdict");

                TRY(cc_buf_printf(&b, err, "<article id=\"g%zu\">\n<h3>Group %zu: %lld node%s, ", i + 1, i + 1, n,
                                  n == 1 ? "" : "s"));
                TRY(put(&b, verdict, err));
                TRY(cc_buf_puts(&b, "</h3>\n<p class=\"line\">", err));
                TRY(put(&b, cc_v_get_str(g, "line"), err));
                TRY(cc_buf_printf(&b, err, "</p>\n<details><summary>The %lld node name%s</summary>\n<p>", n,
                                  n == 1 ? "" : "s"));
                for (k = 0; k < cc_v_len(names); k++) {
                        if (k > 0)
                                TRY(cc_buf_puts(&b, ", ", err));
                        TRY(put(&b, cc_v_as_str(cc_v_at(names, k)), err));
                }
                TRY(cc_buf_puts(&b, "</p></details>\n", err));
                if (cc_v_len(gf) == 0)
                        TRY(cc_buf_puts(&b, "<p>No findings.</p>\n", err));
                for (k = 0; k < cc_v_len(gf); k++)
                        TRY(finding_details(&b, cc_v_at(gf, k), err));
                TRY(cc_buf_puts(&b, "</article>\n", err));
        }
        TRY(cc_buf_puts(&b,
                        "</section>\n<section aria-labelledby=\"h-findings\">\n<h2 id=\"h-findings\">Findings "
                        "by nodes</h2>\n",
                        err));
        if (cc_v_len(findings) == 0)
                TRY(cc_buf_puts(&b, "<p>No findings on any node.</p>\n", err));
        else {
                TRY(cc_buf_puts(&b,
                                "<table>\n<thead><tr><th scope=\"col\">Finding</th><th scope=\"col\">Severity</th>"
                                "<th scope=\"col\">Nodes</th><th scope=\"col\">Summary (one node's)</th></tr>"
                                "</thead>\n<tbody>\n",
                                err));
                for (i = 0; i < cc_v_len(findings); i++) {
                        const cc_value *f = cc_v_at(findings, i);

                        TRY(cc_buf_puts(&b, "<tr><th scope=\"row\"><code>", err));
                        TRY(put(&b, cc_v_get_str(f, "id"), err));
                        TRY(cc_buf_puts(&b, "</code></th>", err));
                        TRY(cell(&b, cc_v_get_str(f, "severity"), err));
                        TRY(cc_buf_printf(&b, err, "<td>%lld</td><td>", (long long)cc_v_as_int(cc_v_get(f, "nodes"))));
                        TRY(put(&b, cc_v_get_str(f, "summary"), err));
                        TRY(cc_buf_puts(&b, "</td></tr>\n", err));
                }
                TRY(cc_buf_puts(&b, "</tbody>\n</table>\n", err));
        }
        TRY(cc_buf_puts(&b, "</section>\n", err));
        if (cc_v_len(un) > 0) {
                TRY(cc_buf_puts(&b,
                                "<section aria-labelledby=\"h-unreadable\">\n<h2 id=\"h-unreadable\">Unreadable "
                                "documents</h2>\n<ul>\n",
                                err));
                for (i = 0; i < cc_v_len(un); i++) {
                        TRY(cc_buf_puts(&b, "<li><code>", err));
                        TRY(put(&b, cc_v_get_str(cc_v_at(un, i), "file"), err));
                        TRY(cc_buf_puts(&b, "</code>: ", err));
                        TRY(put(&b, cc_v_get_str(cc_v_at(un, i), "reason"), err));
                        TRY(cc_buf_puts(&b, "</li>\n", err));
                }
                TRY(cc_buf_puts(&b, "</ul>\n</section>\n", err));
        }
        TRY(cc_buf_printf(&b, err, "</main>\n<script>\n%s</script>\n</body>\n</html>\n", script));
        *out = cc_buf_steal(&b);
        return *out != NULL ? 0 : cc_err(err, CC_ERR_NOMEM, "out of memory");
fail:
        cc_buf_free(&b);
        return -1;
}
