/* cudnnctl report: many machines' `doctor --json` documents as one table of
 * nodes grouped by identical stacks (docs/json.md, command "report"). */
#ifndef CUDNNCTL_REPORT_H
#define CUDNNCTL_REPORT_H

#include "cudnnctl.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cudnnctl_report cudnnctl_report;

/* An empty report (NULL when out of memory). */
CUDNNCTL_API cudnnctl_report *cudnnctl_report_new(cudnnctl_error *err);
/* Add the documents of path: a doctor --json file, a directory (its *.json
 * files, sorted by name, not below) or "-" (standard input, one document per
 * line). Each document is read once and reduced to its stack and per-area
 * severities. A document that cannot be read, does not parse or is not a
 * doctor document is listed as unreadable, never a failure: -1 only when out
 * of memory. */
CUDNNCTL_API int cudnnctl_report_add_path(cudnnctl_report *r, const char *path, cudnnctl_error *err);
/* Add one document of len bytes, named name (a file name; the document's
 * facts.host.name is the node's name when it has one). */
CUDNNCTL_API int cudnnctl_report_add_text(cudnnctl_report *r, const char *name, const char *text, size_t len,
                                          cudnnctl_error *err);
/* The report document (caller frees); r stays usable. */
CUDNNCTL_API int cudnnctl_report_finish(cudnnctl_report *r, cudnnctl_value **out, cudnnctl_error *err);
CUDNNCTL_API void cudnnctl_report_free(cudnnctl_report *r);

/* The report as text for a terminal, and as one self-contained HTML page. */
CUDNNCTL_API int cudnnctl_report_text(const cudnnctl_value *doc, int verbose, int color, char **out,
                                      cudnnctl_error *err);
CUDNNCTL_API int cudnnctl_report_html(const cudnnctl_value *doc, char **out, cudnnctl_error *err);

#ifdef __cplusplus
}
#endif

#endif
