/* The knowledge base: tables of facts about cuDNN, CUDA, drivers, GPUs and
 * frameworks, kept as tab-separated text in the kb directory (.tsv files) and compiled in (see
 * cmake/embed-kb.cmake), so that updating the knowledge is editing a table.
 *
 * Table format: lines starting with '#' are comments; blank lines are
 * skipped; the first other line names the columns; every following line is a
 * row with exactly that many tab-separated cells. A cell "-" or "" means
 * unknown / not applicable (cc_kb_cell returns NULL for it). Every table has
 * a "source" column naming where its row comes from. */
#ifndef CC_KB_H
#define CC_KB_H

#include "common.h"

struct cc_kb_blob {
        const char *name; /* the file name without .tsv */
        const char *data; /* NUL-terminated */
        size_t size;
};
/* Generated: every table, ended by a {NULL} entry. */
extern const struct cc_kb_blob cc_kb_blobs[];

typedef struct cc_kb_table {
        const char *name;
        size_t ncols, nrows;
        char **cols;  /* ncols names */
        char **cells; /* nrows * ncols; NULL where the cell is unknown */
        size_t *line; /* the line number of each row in its file */
} cc_kb_table;

/* Parse a table from text (what the tests and the fuzz target call). On
 * failure err names the table, the line and what is wrong. */
int cc_kb_parse(const char *name, const char *text, size_t size, cc_kb_table **out, cc_error *err);
void cc_kb_table_free(cc_kb_table *t);

/* The compiled-in table `name`, parsed on first use and kept for the
 * life of the process. NULL (err says why) when there is none or it does not
 * parse. */
const cc_kb_table *cc_kb_get(const char *name, cc_error *err);

/* The index of column `col`, or -1. */
long cc_kb_col(const cc_kb_table *t, const char *col);
/* The cell of row r in column `col`; NULL when unknown or no such column. */
const char *cc_kb_cell(const cc_kb_table *t, size_t r, const char *col);
/* The cell by column index; NULL when unknown. */
const char *cc_kb_celli(const cc_kb_table *t, size_t r, size_t c);

#endif
