/* cudnnctl explain: a cuDNN status (name or number, either numbering), a
 * CUDA error, a Windows loader error or a whole pasted message or log, to
 * what it means, the likely causes from the failure catalog, the cudnnctl
 * commands that show which cause applies, the fix and the source. Every
 * answer comes from the kb tables: catalog, messages, status, cuda_errors,
 * winerrors. */
#include "explain/explain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/views.h"
#include "kb/kb.h"

enum {
        INPUT_MAX = 64 << 20,   /* bytes of input at most */
        INPUT_ECHO = 4096,      /* bytes of the input echoed in the document */
        TEXT_ECHO = 300,        /* bytes of each matched text echoed */
        MAX_HITS = 64,          /* distinct matches kept */
        MAX_OCCURRENCES = 10000 /* occurrences of one recogniser looked for */
};

enum { K_MESSAGE = 1, K_STATUS, K_CUDA, K_WIN, K_ID };

static const char *kind_name(int k)
{
        switch (k) {
        case K_STATUS:
                return "cudnn-status";
        case K_CUDA:
                return "cuda-error";
        case K_WIN:
                return "windows-error";
        case K_ID:
                return "catalog-id";
        default:
                return "message";
        }
}

/* ---- small helpers ------------------------------------------------------ */

/* Split a ';'-separated cell into sv (trimmed, empty parts dropped, unique). */
static int split_list(const char *cell, cc_strv *sv, cc_error *err)
{
        const char *p = cell;

        while (p != NULL && *p) {
                const char *e = strchr(p, ';');
                size_t n = e ? (size_t)(e - p) : strlen(p);

                while (n > 0 && (*p == ' ' || *p == '\t'))
                        p++, n--;
                while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
                        n--;
                if (n > 0) {
                        char *s = cc_strndup(err, p, n);

                        if (s == NULL)
                                return -1;
                        if (cc_strv_contains(sv, s))
                                free(s);
                        else if (cc_strv_take(sv, s, err) < 0)
                                return -1;
                }
                p = e ? e + 1 : NULL;
        }
        return 0;
}

static long cell_long(const cc_kb_table *t, size_t r, const char *col, int *ok)
{
        const char *s = cc_kb_cell(t, r, col);
        char *end;
        long v;

        *ok = 0;
        if (s == NULL)
                return 0;
        v = strtol(s, &end, 0);
        if (end == s || *end != '\0')
                return 0;
        *ok = 1;
        return v;
}

static const cc_kb_table *table(const char *name, cc_error *err)
{
        const cc_kb_table *t = cc_kb_get(name, err);

        if (t != NULL && cc_kb_col(t, "source") < 0) {
                cc_err(err, CC_ERR_FORMAT, "knowledge table %s: no source column", name);
                return NULL;
        }
        return t;
}

/* ---- the catalog ------------------------------------------------------- */

static long catalog_row(const cc_kb_table *cat, const char *id)
{
        size_t r;

        for (r = 0; r < cat->nrows; r++) {
                const char *c = cc_kb_cell(cat, r, "id");

                if (c != NULL && strcmp(c, id) == 0)
                        return (long)r;
        }
        return -1;
}

/* cmd with {KEY} replaced from captures (KEY in capitals when absent). */
static char *fill_command(const char *cmd, const cc_value *captures, cc_error *err)
{
        cc_buf b = {0};
        const char *p = cmd;

        while (*p) {
                const char *close = *p == '{' ? strchr(p, '}') : NULL;

                if (close != NULL && close - p < 64) {
                        char key[64];
                        const char *v;
                        size_t n = (size_t)(close - p - 1), i;

                        memcpy(key, p + 1, n);
                        key[n] = '\0';
                        v = cc_v_get_str(captures, key);
                        if (v != NULL) {
                                if (cc_buf_puts(&b, v, err) < 0)
                                        goto fail;
                        } else {
                                for (i = 0; i < n; i++)
                                        if (cc_buf_putc(&b,
                                                        (char)(key[i] >= 'a' && key[i] <= 'z' ? key[i] - 32 : key[i]),
                                                        err) < 0)
                                                goto fail;
                        }
                        p = close + 1;
                        continue;
                }
                if (cc_buf_putc(&b, *p++, err) < 0)
                        goto fail;
        }
        return b.data ? cc_buf_steal(&b) : cc_strdup(err, "");
fail:
        cc_buf_free(&b);
        return NULL;
}

cc_value *cc_catalog_entry(const char *id, const cc_value *captures, cc_error *err)
{
        const cc_kb_table *cat = table("catalog", err);
        cc_value *o = NULL, *cmds = NULL;
        cc_strv causes = {0}, commands = {0};
        static const char *const cols[] = {"catalog_number", "platform", "area", "title", "meaning"};
        long r;
        size_t i;

        if (cat == NULL)
                return NULL;
        r = catalog_row(cat, id);
        if (r < 0) {
                cc_err(err, CC_ERR_NOTFOUND, "failure catalog: no entry '%s'", id);
                return NULL;
        }
        if ((o = cc_v_object(err)) == NULL || cc_v_set_str(o, CC_K(catalog_entry, id), id, err) < 0)
                goto fail;
        for (i = 0; i < CC_ARRAY_LEN(cols); i++)
                if (cc_v_set_str(o, cols[i], cc_kb_cell(cat, (size_t)r, cols[i]), err) < 0)
                        goto fail;
        if (split_list(cc_kb_cell(cat, (size_t)r, "causes"), &causes, err) < 0 ||
            cc_v_set(o, CC_K(catalog_entry, causes), cc_v_strv(&causes, err), err) < 0 ||
            split_list(cc_kb_cell(cat, (size_t)r, "commands"), &commands, err) < 0 || (cmds = cc_v_array(err)) == NULL)
                goto fail;
        for (i = 0; i < commands.n; i++) {
                const char *sep = strstr(commands.v[i], ": ");
                char *cmd = cc_strndup(err, commands.v[i], sep ? (size_t)(sep - commands.v[i]) : strlen(commands.v[i]));
                char *filled = cmd ? fill_command(cmd, captures, err) : NULL;
                cc_value *c = cc_v_object(err);

                free(cmd);
                if (c == NULL ||
                    cc_v_set(c, CC_K(explain_command, command), filled ? cc_v_str(filled, err) : NULL, err) < 0 ||
                    cc_v_set_str(c, CC_K(explain_command, shows), sep ? sep + 2 : NULL, err) < 0 ||
                    cc_v_push(cmds, c, err) < 0) {
                        free(filled);
                        cc_v_free(c);
                        goto fail;
                }
                free(filled);
        }
        if (cc_v_set(o, CC_K(catalog_entry, commands), cmds, err) < 0)
                goto fail_set;
        cmds = NULL;
        if (cc_v_set_str(o, CC_K(catalog_entry, fix), cc_kb_cell(cat, (size_t)r, "fix"), err) < 0 ||
            cc_v_set_str(o, CC_K(catalog_entry, source), cc_kb_cell(cat, (size_t)r, "source"), err) < 0)
                goto fail_set;
        cc_strv_free(&causes);
        cc_strv_free(&commands);
        return o;
fail:
        cc_v_free(cmds);
fail_set:
        cc_v_free(o);
        cc_strv_free(&causes);
        cc_strv_free(&commands);
        return NULL;
}

/* ---- typed lookups: status, CUDA errors, Windows errors ----------------- */

/* What a status, CUDA or Windows error says, before it becomes a match. */
struct typed {
        int kind;
        const cc_kb_table *t;
        long row;
        int has_code;
        long code;
        int major; /* K_STATUS: 8, 9 or 0 (not known) */
        char note[320];
};

static const char *strip_prefix(const char *s, const char *prefix)
{
        size_t n = strlen(prefix);

        return cc_strncasecmp(s, prefix, n) == 0 ? s + n : s;
}

static long status_by_name(const cc_kb_table *t, const char *name)
{
        const char *want = strip_prefix(name, "CUDNN_STATUS_");
        size_t r;

        for (r = 0; r < t->nrows; r++) {
                const char *n = cc_kb_cell(t, r, "name");

                if (n != NULL && cc_strcasecmp(strip_prefix(n, "CUDNN_STATUS_"), want) == 0)
                        return (long)r;
        }
        return -1;
}

/* The row of a code in one numbering (the canonical name, not an alias). */
static long status_by_code(const cc_kb_table *t, int major, long code)
{
        size_t r;

        for (r = 0; r < t->nrows; r++) {
                int ok;
                long v = cell_long(t, r, major >= 9 ? "v9" : "v8", &ok);

                if (ok && v == code && (major < 9 || cc_kb_cell(t, r, "alias_of") == NULL))
                        return (long)r;
        }
        return -1;
}

/* A status by name; code_hint >= 0 (a number seen beside it) or want_major
 * picks the numbering. */
static int status_named(const cc_kb_table *t, const char *name, long code_hint, int want_major, struct typed *ty)
{
        int ok8, ok9;
        long v8, v9;

        memset(ty, 0, sizeof(*ty));
        ty->kind = K_STATUS;
        ty->t = t;
        ty->row = status_by_name(t, name);
        if (ty->row < 0)
                return 0;
        v8 = cell_long(t, (size_t)ty->row, "v8", &ok8);
        v9 = cell_long(t, (size_t)ty->row, "v9", &ok9);
        if (code_hint >= 0 && ok9 && v9 == code_hint && code_hint >= 1000)
                ty->major = 9;
        else if (code_hint >= 0 && ok8 && v8 == code_hint)
                ty->major = 8;
        else if (want_major == 8 && ok8)
                ty->major = 8;
        else if (want_major == 9 && ok9)
                ty->major = 9;
        else if (ok8 != ok9)
                ty->major = ok9 ? 9 : 8;
        if (want_major != 0 && ty->major != 0 && ty->major != want_major)
                snprintf(ty->note, sizeof(ty->note), "not a cuDNN %d status: it exists only in the cuDNN %d numbering",
                         want_major, ty->major);
        if (ty->major != 0) {
                ty->has_code = 1;
                ty->code = ty->major == 9 ? v9 : v8;
        }
        return 1;
}

static int status_numbered(const cc_kb_table *t, int major, long code, struct typed *ty)
{
        memset(ty, 0, sizeof(*ty));
        ty->kind = K_STATUS;
        ty->t = t;
        ty->row = status_by_code(t, major, code);
        if (ty->row < 0)
                return 0;
        ty->major = major;
        ty->has_code = 1;
        ty->code = code;
        return 1;
}

static long cuda_by_name(const cc_kb_table *t, const char *name)
{
        static const char *const prefixes[] = {"", "cudaError", "CUDA_ERROR_"};
        size_t r, p;
        int nocase;

        for (nocase = 0; nocase < 2; nocase++)
                for (p = 0; p < CC_ARRAY_LEN(prefixes); p++) {
                        char full[160];

                        snprintf(full, sizeof(full), "%s%s", prefixes[p], name);
                        for (r = 0; r < t->nrows; r++) {
                                const char *n = cc_kb_cell(t, r, "name");

                                if (n != NULL && (nocase ? cc_strcasecmp(n, full) : strcmp(n, full)) == 0)
                                        return (long)r;
                        }
                }
        return -1;
}

static int cuda_named(const cc_kb_table *t, const char *name, struct typed *ty)
{
        int ok;

        memset(ty, 0, sizeof(*ty));
        ty->kind = K_CUDA;
        ty->t = t;
        ty->row = cuda_by_name(t, name);
        if (ty->row < 0)
                return 0;
        ty->code = cell_long(t, (size_t)ty->row, "code", &ok);
        ty->has_code = ok;
        return 1;
}

/* The i-th row (from *from on) with this code; -1 when no more. */
static long code_row(const cc_kb_table *t, const char *col, long code, size_t *from)
{
        size_t r;

        for (r = *from; r < t->nrows; r++) {
                int ok;
                long v = cell_long(t, r, col, &ok);

                if (ok && v == code) {
                        *from = r + 1;
                        return (long)r;
                }
        }
        *from = t->nrows;
        return -1;
}

static int win_numbered(const cc_kb_table *t, long long code, struct typed *ty)
{
        size_t from = 0;

        memset(ty, 0, sizeof(*ty));
        ty->kind = K_WIN;
        ty->t = t;
        /* HRESULT_FROM_WIN32: 0x8007xxxx */
        if (code >= 0x80070000LL && code <= 0x8007FFFFLL)
                code &= 0xFFFF;
        if (code < 0 || code > 0xFFFFFFLL)
                return 0;
        ty->row = code_row(t, "code", (long)code, &from);
        if (ty->row < 0)
                return 0;
        ty->has_code = 1;
        ty->code = (long)code;
        return 1;
}

/* ---- matches ------------------------------------------------------------ */

struct hit {
        int kind;
        long recog;  /* the messages.tsv row, or -1 */
        cc_strv ids; /* catalog ids, most likely first */
        cc_value *captures;
        struct typed ty; /* ty.kind == 0: none */
        char *rule_name; /* cudnn-version-rule or NULL */
        size_t start, end, score, count;
        int sys_mismatch;
        char *key; /* for merging repeats */
};

struct ctx {
        const char *text; /* the input */
        size_t len;
        const cudnnctl_explain_options *o;
        const cc_kb_table *cat, *msg, *st, *cu, *win;
        struct hit *hits;
        size_t nhits, cap;
        cc_strv notes;
        cc_error *err;
};

static void hit_free(struct hit *h)
{
        cc_strv_free(&h->ids);
        cc_v_free(h->captures);
        free(h->rule_name);
        free(h->key);
}

static const char *typed_name(const struct typed *ty)
{
        return ty->kind ? cc_kb_cell(ty->t, (size_t)ty->row, "name") : NULL;
}

/* Record a hit (or count a repeat of one seen before). Takes captures. */
static int add_hit(struct ctx *c, int kind, long recog, const char *ids_cell, const struct typed *ty,
                   cc_value *captures, const char *rule_name, size_t start, size_t end, size_t score, int sys_mismatch)
{
        struct hit h;
        char *cj = NULL;
        size_t i;

        memset(&h, 0, sizeof(h));
        h.kind = kind;
        h.recog = recog;
        h.captures = captures;
        h.start = start;
        h.end = end;
        h.score = score;
        h.count = 1;
        h.sys_mismatch = sys_mismatch;
        if (ty != NULL)
                h.ty = *ty;
        if (captures == NULL && (h.captures = cc_v_object(c->err)) == NULL)
                return -1;
        if (split_list(ids_cell, &h.ids, c->err) < 0 ||
            (ty != NULL && ty->kind && split_list(cc_kb_cell(ty->t, (size_t)ty->row, "catalog"), &h.ids, c->err) < 0))
                goto fail;
        if (rule_name != NULL && (h.rule_name = cc_strdup(c->err, rule_name)) == NULL)
                goto fail;
        /* the key: typed kinds by their name (repeats and other recognisers
         * of the same code merge), messages by recogniser and captures */
        if (kind != K_MESSAGE) {
                h.key = cc_asprintf(c->err, "%s|%s", kind_name(kind), typed_name(&h.ty) ? typed_name(&h.ty) : "?");
        } else {
                if (cudnnctl_to_json(h.captures, 0, &cj, c->err) < 0)
                        goto fail;
                h.key = cc_asprintf(c->err, "m|%ld|%s", recog, cj);
                cudnnctl_free(cj);
        }
        if (h.key == NULL)
                goto fail;
        for (i = 0; i < c->nhits; i++) {
                struct hit *o = &c->hits[i];

                if (strcmp(o->key, h.key) != 0)
                        continue;
                o->count++;
                /* keep the more informative: a resolved major, then the higher score */
                if ((h.ty.major != 0 && o->ty.major == 0) || (h.ty.major == o->ty.major && h.score > o->score)) {
                        size_t count = o->count;

                        hit_free(o);
                        *o = h;
                        o->count = count;
                        return 0;
                }
                hit_free(&h);
                return 0;
        }
        if (c->nhits == MAX_HITS) {
                hit_free(&h);
                return 0;
        }
        if (c->nhits == c->cap) {
                size_t ncap = c->cap ? c->cap * 2 : 16;
                struct hit *nh = cc_realloc(c->err, c->hits, ncap * sizeof(*nh));

                if (nh == NULL)
                        goto fail;
                c->hits = nh;
                c->cap = ncap;
        }
        c->hits[c->nhits++] = h;
        return 0;
fail:
        hit_free(&h);
        return -1;
}

static int system_mismatch(const struct ctx *c, const char *system)
{
        if (c->o->system == CUDNNCTL_SYSTEM_LINUX)
                return system != NULL && strcmp(system, "windows") == 0;
        if (c->o->system == CUDNNCTL_SYSTEM_WINDOWS)
                return system != NULL && strcmp(system, "linux") == 0;
        return 0;
}

/* The typed answer a recogniser's rule gives, from its captures. 0: none
 * (the rule's lookup found nothing: the match is dropped). */
static int apply_rule(struct ctx *c, const char *rule, const cc_value *caps, struct typed *ty, const char **rule_name)
{
        const char *arg = NULL, *code_s, *name_s;
        cc_vw_explain_captures cv;
        long code;

        cc_vw_explain_captures_read(caps, &cv, NULL);
        code_s = cv.code;
        name_s = cv.name;
        code = code_s ? strtol(code_s, NULL, 10) : -1;
        memset(ty, 0, sizeof(*ty));
        *rule_name = NULL;
        if (rule == NULL)
                return 1;
        arg = strchr(rule, ' ');
        if (arg != NULL)
                arg++;
        if (cc_starts_with(rule, "cudnn-version-rule")) {
                *rule_name = "cudnn-version-rule";
                return 1;
        }
        if (cc_starts_with(rule, "cudnn-status-code")) {
                int major = c->o->major ? c->o->major : (code >= 1000 ? 9 : 8);

                if (code < 0 || !status_numbered(c->st, major, code, ty))
                        return 0;
                if (!c->o->major && code != 0)
                        snprintf(ty->note, sizeof(ty->note),
                                 "%ld read in the cuDNN %d numbering (cuDNN 9 has no codes from 1 to 999); --major "
                                 "changes it",
                                 code, major);
                return 1;
        }
        if (cc_starts_with(rule, "cudnn-status")) {
                if (name_s == NULL || !status_named(c->st, name_s, code, c->o->major, ty))
                        return 0;
                /* CUDNN_STATUS_SUCCESS in a log is not an error */
                return !(ty->has_code && ty->code == 0 &&
                         cc_strcasecmp(strip_prefix(name_s, "CUDNN_STATUS_"), "SUCCESS") == 0);
        }
        if (cc_starts_with(rule, "windows-error")) {
                if (arg != NULL)
                        code = strtol(arg, NULL, 10);
                return code >= 0 && win_numbered(c->win, code, ty);
        }
        if (cc_starts_with(rule, "cuda-error")) {
                if (arg != NULL)
                        return cuda_named(c->cu, arg, ty);
                if (name_s != NULL)
                        return cuda_named(c->cu, name_s, ty) && ty->code != 0;
                if (code > 0) {
                        size_t from = 0;
                        long r = code_row(c->cu, "code", code, &from);

                        if (r < 0)
                                return 0;
                        return cuda_named(c->cu, cc_kb_cell(c->cu, (size_t)r, "name"), ty);
                }
        }
        return 0;
}

/* Every recogniser of messages.tsv over the input. */
static cc_pattern **patterns;
static size_t npatterns;

static int load_patterns(const cc_kb_table *msg, cc_error *err)
{
        size_t r;

        if (patterns != NULL)
                return 0;
        patterns = cc_calloc(err, msg->nrows ? msg->nrows : 1, sizeof(*patterns));
        if (patterns == NULL)
                return -1;
        for (r = 0; r < msg->nrows; r++) {
                const char *src = cc_kb_cell(msg, r, "pattern");

                if (src == NULL) {
                        cc_err(err, CC_ERR_FORMAT, "knowledge table messages line %zu: no pattern", msg->line[r]);
                        goto fail;
                }
                if (cc_pattern_compile(src, &patterns[r], err) < 0) {
                        cc_err_prefix(err, "knowledge table messages line %zu", msg->line[r]);
                        goto fail;
                }
        }
        npatterns = msg->nrows;
        return 0;
fail:
        for (r = 0; r < msg->nrows; r++)
                cc_pattern_free(patterns[r]);
        free(patterns);
        patterns = NULL;
        return -1;
}

/* Does the capture set meet the row's `when` conditions? */
static int when_ok(const char *when, const cc_value *caps)
{
        const char *p = when;

        while (p != NULL && *p) {
                const char *e = strchr(p, ';'), *tilde;
                char cond[256], key[64];
                size_t n = e ? (size_t)(e - p) : strlen(p);
                int neg;
                const char *val, *needle;

                if (n >= sizeof(cond))
                        return 0;
                memcpy(cond, p, n);
                cond[n] = '\0';
                p = e ? e + 1 : NULL;
                tilde = strchr(cond, '~');
                if (tilde == NULL)
                        return 0;
                neg = tilde > cond && tilde[-1] == '!';
                n = (size_t)(tilde - cond) - (neg ? 1 : 0);
                if (n >= sizeof(key))
                        return 0;
                memcpy(key, cond, n);
                key[n] = '\0';
                needle = tilde + 1;
                val = cc_v_get_str(caps, key);
                if (val == NULL)
                        return 0;
                {
                        size_t k = strlen(needle), i;
                        int found = 0;

                        for (i = 0; !found && i + k <= strlen(val); i++)
                                found = cc_strncasecmp(val + i, needle, k) == 0;
                        if (found == neg)
                                return 0;
                }
        }
        return 1;
}

static cc_value *captures_of(const cc_pmatch *m, const char *text, cc_error *err)
{
        cc_value *o = cc_v_object(err);
        size_t i;

        if (o == NULL)
                return NULL;
        for (i = 0; i < m->ncap; i++) {
                char *v = cc_pattern_capture(m, i, text, err);

                if (v == NULL || cc_v_set(o, m->cap[i].key, cc_v_str(v, err), err) < 0) {
                        free(v);
                        cc_v_free(o);
                        return NULL;
                }
                /* a library name with a version after ".so.": its version too */
                if (m->cap[i].type == CC_CAP_LIB) {
                        const char *so = strstr(v, ".so.");
                        cudnnctl_ver ver;

                        if (so != NULL && cudnnctl_ver_parse(so + 4, &ver) == 0) {
                                char key[80];

                                snprintf(key, sizeof(key), "%s_version", m->cap[i].key);
                                if (cc_v_set_str(o, key, so + 4, err) < 0) {
                                        free(v);
                                        cc_v_free(o);
                                        return NULL;
                                }
                        }
                }
                free(v);
        }
        return o;
}

static int scan_messages(struct ctx *c, const char *folded)
{
        size_t r;

        for (r = 0; r < npatterns; r++) {
                const char *ids = cc_kb_cell(c->msg, r, "catalog"), *rule = cc_kb_cell(c->msg, r, "rule");
                const char *when = cc_kb_cell(c->msg, r, "when");
                size_t from = 0, n = 0;
                cc_pmatch m;

                while (n++ < MAX_OCCURRENCES && cc_pattern_find(patterns[r], folded, c->len, from, &m)) {
                        cc_value *caps = captures_of(&m, c->text, c->err);
                        struct typed ty;
                        const char *rule_name;
                        int kind;

                        from = m.end > m.start ? m.end : m.start + 1;
                        if (caps == NULL)
                                return -1;
                        if (!when_ok(when, caps) || !apply_rule(c, rule, caps, &ty, &rule_name)) {
                                cc_v_free(caps);
                                continue;
                        }
                        kind = ids != NULL ? K_MESSAGE : ty.kind;
                        if (kind == 0) {
                                cc_v_free(caps);
                                continue;
                        }
                        if (add_hit(c, kind, (long)r, ids, ty.kind ? &ty : NULL, caps, rule_name, m.start, m.end,
                                    m.score, system_mismatch(c, cc_kb_cell(c->msg, r, "system"))) < 0)
                                return -1;
                }
        }
        return 0;
}

/* The whole input as one token: a status or CUDA error name, a number, a
 * hexadecimal Windows code. */
static int scan_token(struct ctx *c)
{
        const char *s = c->text, *e = c->text + c->len;
        char tok[128];
        size_t n, i;
        int all_digits = 1, word = 1;
        struct typed ty;

        while (s < e && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == '"' || *s == '\'' || *s == '`'))
                s++;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n' || e[-1] == '"' ||
                         e[-1] == '\'' || e[-1] == '`' || e[-1] == '.'))
                e--;
        n = (size_t)(e - s);
        if (n == 0 || n >= sizeof(tok))
                return 0;
        memcpy(tok, s, n);
        tok[n] = '\0';
        for (i = 0; i < n; i++) {
                int ch = (unsigned char)tok[i];

                if (ch < '0' || ch > '9')
                        all_digits = 0;
                if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_'))
                        word = 0;
        }
        /* a finding id of the doctor (the catalog's slug) */
        if (catalog_row(c->cat, tok) >= 0)
                return add_hit(c, K_ID, -1, tok, NULL, NULL, NULL, 0, c->len, n, 0);
        /* "(6 vs. 0)": TensorFlow's check of a cuDNN status against SUCCESS */
        {
                char *end;
                long code = strtol(tok + (tok[0] == '('), &end, 10);

                if (end != tok + (tok[0] == '(') && strncmp(end, " vs. 0", 6) == 0 &&
                    (end[6] == '\0' || (end[6] == ')' && end[7] == '\0' && tok[0] == '('))) {
                        int major = c->o->major ? c->o->major : (code >= 1000 ? 9 : 8);

                        if (status_numbered(c->st, major, code, &ty)) {
                                if (!c->o->major)
                                        snprintf(ty.note, sizeof(ty.note),
                                                 "%ld read in the cuDNN %d numbering (cuDNN 9 has no codes from 1 to "
                                                 "999); --major changes it",
                                                 code, major);
                                return add_hit(c, K_STATUS, -1, NULL, &ty, NULL, NULL, 0, c->len, n, 0);
                        }
                        return 0;
                }
        }
        if (all_digits && n <= 10) {
                long code = strtol(tok, NULL, 10);
                int majors[2] = {8, 9}, k;
                size_t from = 0;
                long r;
                int any_status = 0;

                for (k = 0; k < 2; k++) {
                        if (c->o->major != 0 && c->o->major != majors[k])
                                continue;
                        if (status_numbered(c->st, majors[k], code, &ty)) {
                                long other = status_by_code(c->st, majors[k] == 8 ? 9 : 8, code);

                                any_status = 1;
                                if (other < 0 && c->o->major == 0 && code != 0) {
                                        int ok;
                                        long there =
                                            cell_long(c->st, (size_t)ty.row, majors[k] == 8 ? "v9" : "v8", &ok);

                                        if (ok)
                                                snprintf(ty.note, sizeof(ty.note),
                                                         "%ld is a status only in the cuDNN %d numbering; in cuDNN %d "
                                                         "this status is %ld (--major changes the numbering)",
                                                         code, majors[k], majors[k] == 8 ? 9 : 8, there);
                                        else
                                                snprintf(ty.note, sizeof(ty.note),
                                                         "%ld is a status only in the cuDNN %d numbering", code,
                                                         majors[k]);
                                }
                                if (add_hit(c, K_STATUS, -1, NULL, &ty, NULL, NULL, 0, c->len, n, 0) < 0)
                                        return -1;
                        }
                }
                if (!any_status && c->o->major != 0) {
                        long o8 = status_by_code(c->st, 8, code), o9 = status_by_code(c->st, 9, code);
                        long o = c->o->major == 8 ? o9 : o8;

                        if (cc_strv_pushf(&c->notes, 1, c->err, "%ld is not a cuDNN %d status%s%s%s", code, c->o->major,
                                          o >= 0 ? " (in the other numbering it is " : "",
                                          o >= 0 ? cc_kb_cell(c->st, (size_t)o, "name") : "", o >= 0 ? ")" : "") < 0)
                                return -1;
                }
                /* CUDA runtime errors, then driver errors that are not the equivalent of one */
                while ((r = code_row(c->cu, "code", code, &from)) >= 0) {
                        const char *api = cc_kb_cell(c->cu, (size_t)r, "api"), *eq;
                        size_t j;
                        int dup = 0;

                        if (api != NULL && strcmp(api, "driver") == 0 &&
                            (eq = cc_kb_cell(c->cu, (size_t)r, "equivalent"))) {
                                for (j = 0; j < c->nhits; j++)
                                        if (c->hits[j].kind == K_CUDA && typed_name(&c->hits[j].ty) != NULL &&
                                            strcmp(typed_name(&c->hits[j].ty), eq) == 0)
                                                dup = 1;
                        }
                        if (dup || code == 0)
                                continue;
                        if (cuda_named(c->cu, cc_kb_cell(c->cu, (size_t)r, "name"), &ty) &&
                            add_hit(c, K_CUDA, -1, NULL, &ty, NULL, NULL, 0, c->len, n, 0) < 0)
                                return -1;
                }
                if (c->o->system != CUDNNCTL_SYSTEM_LINUX && win_numbered(c->win, code, &ty) &&
                    add_hit(c, K_WIN, -1, NULL, &ty, NULL, NULL, 0, c->len, n, 0) < 0)
                        return -1;
                return 0;
        }
        if (n > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) {
                char *end;
                unsigned long long v = strtoull(tok + 2, &end, 16);

                if (*end == '\0' && end != tok + 2 && v <= 0xFFFFFFFFULL && win_numbered(c->win, (long long)v, &ty) &&
                    add_hit(c, K_WIN, -1, NULL, &ty, NULL, NULL, 0, c->len, n, system_mismatch(c, "windows")) < 0)
                        return -1;
                return 0;
        }
        if (word) {
                if (status_named(c->st, tok, -1, c->o->major, &ty) &&
                    add_hit(c, K_STATUS, -1, NULL, &ty, NULL, NULL, 0, c->len, n, 0) < 0)
                        return -1;
                if (cuda_named(c->cu, tok, &ty) && cc_strcasecmp(typed_name(&ty), tok) == 0 &&
                    add_hit(c, K_CUDA, -1, NULL, &ty, NULL, NULL, 0, c->len, n, 0) < 0)
                        return -1;
        }
        return 0;
}

/* ---- building the document ------------------------------------------------ */

static int cmp_hits(const void *a, const void *b)
{
        const struct hit *x = a, *y = b;

        if (x->sys_mismatch != y->sys_mismatch)
                return x->sys_mismatch - y->sys_mismatch;
        if (x->score != y->score)
                return x->score > y->score ? -1 : 1;
        if (x->start != y->start)
                return x->start < y->start ? -1 : 1;
        return x->recog < y->recog ? -1 : x->recog > y->recog;
}

/* Drop a hit whose text lies inside a better one's with the same first id. */
static void drop_contained(struct ctx *c)
{
        size_t i, j, k = 0;

        for (i = 0; i < c->nhits; i++) {
                struct hit *h = &c->hits[i];
                int drop = 0;

                for (j = 0; j < k && !drop; j++) {
                        struct hit *o = &c->hits[j];

                        drop = h->ids.n > 0 && o->ids.n > 0 && strcmp(h->ids.v[0], o->ids.v[0]) == 0 &&
                               o->start <= h->start && h->end <= o->end && o->recog >= 0 && h->recog >= 0;
                }
                if (drop) {
                        hit_free(h);
                        continue;
                }
                c->hits[k++] = *h;
        }
        c->nhits = k;
}

/* The cuDNN version rule: same major, runtime minor >= build minor. */
static cc_value *version_rule(const cc_value *caps, cc_error *err)
{
        cc_vw_explain_captures cv;
        const char *bs, *rs;
        cudnnctl_ver b, r;
        cc_value *o = cc_v_object(err);
        char reason[256];
        int holds = -1;

        if (o == NULL)
                return NULL;
        cc_vw_explain_captures_read(caps, &cv, NULL);
        bs = cv.build;
        rs = cv.runtime;
        if (bs == NULL || rs == NULL || cudnnctl_ver_parse(bs, &b) < 0 || cudnnctl_ver_parse(rs, &r) < 0) {
                snprintf(reason, sizeof(reason), "the versions could not be read");
        } else if (b.part[0] != r.part[0]) {
                holds = 0;
                snprintf(reason, sizeof(reason),
                         "the majors differ: built with cuDNN %ld, running cuDNN %ld (a renamed library, or another "
                         "major earlier on the search path)",
                         b.part[0], r.part[0]);
        } else if (r.part[1] < b.part[1]) {
                holds = 0;
                snprintf(reason, sizeof(reason),
                         "the runtime %s is older than the build's %s: runtime minor %ld < build minor %ld", rs, bs,
                         r.part[1], b.part[1]);
        } else {
                holds = 1;
                snprintf(reason, sizeof(reason), "same major %ld, runtime minor %ld >= build minor %ld", r.part[0],
                         r.part[1], b.part[1]);
        }
        if (cc_v_set_str(o, CC_K(explain_rule, name), "cudnn-version-rule", err) < 0 ||
            cc_v_set_str(o, CC_K(explain_rule, statement), "same major, runtime minor >= build minor", err) < 0 ||
            cc_v_set_str(o, CC_K(explain_rule, build), bs, err) < 0 ||
            cc_v_set_str(o, CC_K(explain_rule, runtime), rs, err) < 0 ||
            cc_v_set(o, CC_K(explain_rule, holds), holds < 0 ? cc_v_null(err) : cc_v_bool(holds, err), err) < 0 ||
            cc_v_set_str(o, CC_K(explain_rule, reason), reason, err) < 0) {
                cc_v_free(o);
                return NULL;
        }
        return o;
}

static cc_value *typed_codes(const struct typed *ty, cc_error *err)
{
        cc_value *a = cc_v_array(err);
        int majors[2] = {8, 9}, k;

        if (a == NULL)
                return NULL;
        for (k = 0; k < 2; k++) {
                int ok;
                long v = cell_long(ty->t, (size_t)ty->row, majors[k] == 8 ? "v8" : "v9", &ok);
                cc_value *o;

                if (!ok)
                        continue;
                o = cc_v_object(err);
                if (o == NULL || cc_v_set_int(o, CC_K(explain_code, major), majors[k], err) < 0 ||
                    cc_v_set_int(o, CC_K(explain_code, code), v, err) < 0 ||
                    cc_v_set_str(o, CC_K(explain_code, alias_of),
                                 majors[k] == 9 ? cc_kb_cell(ty->t, (size_t)ty->row, "alias_of") : NULL, err) < 0 ||
                    cc_v_push(a, o, err) < 0) {
                        cc_v_free(o);
                        cc_v_free(a);
                        return NULL;
                }
        }
        return a;
}

/* The length of the source key a part starts with ("FM" of "FM a/b#1"). */
static size_t key_len(const char *part)
{
        size_t n = 0;

        while (part[n] && part[n] != ' ' && part[n] != ';')
                n++;
        return n;
}

/* Append the ';'-separated parts of more to src, leaving out those whose
 * source key src already has. */
static int add_sources(cc_buf *src, const char *more, cc_error *err)
{
        cc_strv have = {0}, add = {0};
        size_t i, j;
        int rc = -1;

        if (more == NULL)
                return 0;
        if (split_list(src->data, &have, err) < 0 || split_list(more, &add, err) < 0)
                goto done;
        for (i = 0; i < add.n; i++) {
                size_t k = key_len(add.v[i]);
                int dup = 0;

                for (j = 0; j < have.n && !dup; j++)
                        dup = key_len(have.v[j]) == k && strncmp(have.v[j], add.v[i], k) == 0;
                if (!dup && cc_buf_printf(src, err, "%s%s", src->len ? "; " : "", add.v[i]) < 0)
                        goto done;
        }
        rc = 0;
done:
        cc_strv_free(&have);
        cc_strv_free(&add);
        return rc;
}

static cc_value *match_value(struct ctx *c, const struct hit *h)
{
        cc_value *o = cc_v_object(c->err), *entry = NULL, *causes = NULL;
        cc_vw_catalog_entry e; /* the catalog entry's keys (all absent without one) */
        const struct typed *ty = &h->ty;
        const char *id = h->ids.n ? h->ids.v[0] : NULL, *tsrc = NULL, *msrc = NULL;
        cc_strv also = {0}, own = {0};
        size_t i, tl = h->end - h->start, line = 1;
        cc_buf src = {0};

        if (o == NULL)
                return NULL;
        for (i = 1; i < h->ids.n; i++)
                if (cc_strv_push(&also, h->ids.v[i], c->err) < 0)
                        goto fail;
        if (id != NULL && (entry = cc_catalog_entry(id, h->captures, c->err)) == NULL)
                goto fail;
        cc_vw_catalog_entry_read(entry, &e, NULL);
        for (i = 0; i < h->start && i < c->len; i++)
                line += c->text[i] == '\n';
        if (cc_v_set_str(o, CC_K(explain_match, kind), kind_name(h->kind), c->err) < 0 ||
            cc_v_set_str(o, CC_K(explain_match, recogniser),
                         h->recog >= 0 ? cc_kb_cell(c->msg, (size_t)h->recog, "id") : NULL, c->err) < 0 ||
            cc_v_set_str(o, CC_K(explain_match, id), id, c->err) < 0 ||
            cc_v_set(o, CC_K(explain_match, also), cc_v_strv(&also, c->err), c->err) < 0 ||
            cc_v_set_str(o, CC_K(explain_match, title), e.title, c->err) < 0 ||
            cc_v_set_str(o, CC_K(explain_match, catalog_number), e.catalog_number, c->err) < 0 ||
            cc_v_set_str(o, CC_K(explain_match, platform), e.platform, c->err) < 0)
                goto fail;
        if ((ty->kind && ty->has_code ? cc_v_set_int(o, CC_K(explain_match, code), ty->code, c->err)
                                      : cc_v_set_null(o, CC_K(explain_match, code), c->err)) < 0)
                goto fail;
        if (cc_v_set_str(o, CC_K(explain_match, name), typed_name(ty), c->err) < 0 ||
            (ty->kind == K_STATUS && ty->major ? cc_v_set_int(o, CC_K(explain_match, major), ty->major, c->err)
                                               : cc_v_set_null(o, CC_K(explain_match, major), c->err)) < 0)
                goto fail;
        if (ty->kind == K_STATUS && cc_v_set(o, CC_K(explain_match, codes), typed_codes(ty, c->err), c->err) < 0)
                goto fail;
        if (ty->kind == K_CUDA &&
            (cc_v_set_str(o, CC_K(explain_match, api), cc_kb_cell(ty->t, (size_t)ty->row, "api"), c->err) < 0 ||
             cc_v_set_str(o, CC_K(explain_match, equivalent), cc_kb_cell(ty->t, (size_t)ty->row, "equivalent"),
                          c->err) < 0))
                goto fail;
        if (ty->kind == K_WIN &&
            cc_v_set_str(o, CC_K(explain_match, hex), cc_kb_cell(ty->t, (size_t)ty->row, "hex"), c->err) < 0)
                goto fail;
        if ((ty->kind == K_WIN || ty->kind == K_CUDA) &&
            cc_v_set_str(o, CC_K(explain_match, message), cc_kb_cell(ty->t, (size_t)ty->row, "message"), c->err) < 0)
                goto fail;
        if (cc_v_set(o, CC_K(explain_match, captures), cc_v_copy(h->captures, c->err), c->err) < 0)
                goto fail;
        if (h->rule_name != NULL &&
            cc_v_set(o, CC_K(explain_match, rule), version_rule(h->captures, c->err), c->err) < 0)
                goto fail;
        if (cc_v_set(o, CC_K(explain_match, text),
                     cc_v_strn(c->text + h->start, tl > TEXT_ECHO ? TEXT_ECHO : tl, c->err), c->err) < 0 ||
            cc_v_set_int(o, CC_K(explain_match, line), (int64_t)line, c->err) < 0 ||
            cc_v_set_int(o, CC_K(explain_match, count), (int64_t)h->count, c->err) < 0)
                goto fail;
        /* meaning: a message's is the catalog's (the code in it has code_meaning);
         * a code's is its own */
        if (cc_v_set_str(o, CC_K(explain_match, meaning),
                         h->kind != K_MESSAGE && ty->kind ? cc_kb_cell(ty->t, (size_t)ty->row, "meaning") : e.meaning,
                         c->err) < 0 ||
            (h->kind == K_MESSAGE && ty->kind &&
             cc_v_set_str(o, CC_K(explain_match, code_meaning), cc_kb_cell(ty->t, (size_t)ty->row, "meaning"), c->err) <
                 0))
                goto fail;
        /* causes: a code's own (CUDA, Windows) first, then the catalog's */
        if (h->kind != K_MESSAGE && ty->kind && cc_kb_col(ty->t, "causes") >= 0 &&
            split_list(cc_kb_cell(ty->t, (size_t)ty->row, "causes"), &own, c->err) < 0)
                goto fail;
        if (entry != NULL) {
                const cc_value *ec = e.causes;

                for (i = 0; i < cc_v_len(ec); i++)
                        if (!cc_strv_contains(&own, cc_v_as_str(cc_v_at(ec, i))) &&
                            cc_strv_push(&own, cc_v_as_str(cc_v_at(ec, i)), c->err) < 0)
                                goto fail;
        }
        causes = cc_v_strv(&own, c->err);
        if (cc_v_set(o, CC_K(explain_match, causes), causes, c->err) < 0)
                goto fail;
        /* taking commands out of the entry leaves e's other members valid:
         * each is a value of its own */
        if (cc_v_set(o, CC_K(explain_match, commands),
                     entry ? cc_v_take(entry, CC_K(catalog_entry, commands)) : cc_v_array(c->err), c->err) < 0 ||
            cc_v_set_str(o, CC_K(explain_match, fix), e.fix, c->err) < 0)
                goto fail;
        tsrc = ty->kind ? cc_kb_cell(ty->t, (size_t)ty->row, "source") : NULL;
        msrc = h->recog >= 0 ? cc_kb_cell(c->msg, (size_t)h->recog, "source") : NULL;
        if (e.source != NULL && cc_buf_puts(&src, e.source, c->err) < 0)
                goto fail;
        if (add_sources(&src, tsrc, c->err) < 0 || add_sources(&src, msrc, c->err) < 0)
                goto fail;
        if (cc_v_set_str(o, CC_K(explain_match, source), src.data, c->err) < 0 ||
            cc_v_set_str(o, CC_K(explain_match, note), ty->kind && ty->note[0] ? ty->note : NULL, c->err) < 0)
                goto fail;
        cc_buf_free(&src);
        cc_strv_free(&also);
        cc_strv_free(&own);
        cc_v_free(entry);
        return o;
fail:
        cc_buf_free(&src);
        cc_strv_free(&also);
        cc_strv_free(&own);
        cc_v_free(entry);
        cc_v_free(o);
        return NULL;
}

/* Edit distance, bounded by the buffers (names are short). */
static size_t distance(const char *a, const char *b)
{
        size_t la = strlen(a), lb = strlen(b), i, j, prev[96], cur[96];

        if (la >= 95 || lb >= 95)
                return 99;
        for (j = 0; j <= lb; j++)
                prev[j] = j;
        for (i = 1; i <= la; i++) {
                cur[0] = i;
                for (j = 1; j <= lb; j++) {
                        size_t sub = prev[j - 1] + (cc_ascii_tolower((unsigned char)a[i - 1]) !=
                                                    cc_ascii_tolower((unsigned char)b[j - 1]));
                        size_t del = prev[j] + 1, ins = cur[j - 1] + 1;

                        cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
                }
                memcpy(prev, cur, (lb + 1) * sizeof(size_t));
        }
        return prev[lb];
}

struct cand {
        size_t d;
        const char *name;
};

static int cmp_cand(const void *a, const void *b)
{
        const struct cand *x = a, *y = b;

        return x->d != y->d ? (x->d < y->d ? -1 : 1) : strcmp(x->name, y->name);
}

/* 1 if every '_'-separated part of want (3 or more characters each, two
 * parts at least) is in name. */
static int all_parts_in(const char *want, const char *name)
{
        const char *p = want;
        size_t parts = 0;

        while (*p) {
                const char *e = strchr(p, '_');
                size_t n = e ? (size_t)(e - p) : strlen(p), i;
                int found = 0;

                if (n > 0 && n < 3)
                        return 0;
                for (i = 0; n > 0 && !found && name[i]; i++)
                        found = strncmp(name + i, p, n) == 0;
                if (n > 0 && !found)
                        return 0;
                parts += n > 0;
                p = e ? e + 1 : p + n;
        }
        return parts >= 2;
}

/* Input that looks like a status or error name: the closest names (edit
 * distance within a quarter of its length, at least 2, or containing it). */
static int suggest(struct ctx *c, cc_strv *out)
{
        char tok[96];
        const char *s = c->text, *want;
        size_t n = c->len, i, r, nc = 0, lim;
        struct cand *cands = NULL;
        int rc = -1;

        while (n > 0 && (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r'))
                s++, n--;
        while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\t' || s[n - 1] == '\r'))
                n--;
        if (n < 3 || n >= sizeof(tok))
                return 0;
        for (i = 0; i < n; i++) {
                int ch = (unsigned char)s[i];

                if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_'))
                        return 0;
                tok[i] = s[i];
        }
        tok[n] = '\0';
        for (i = 0; i < n && ((tok[i] >= 'A' && tok[i] <= 'Z') || tok[i] == '_'); i++)
                ;
        if (i < n && strchr(tok, '_') == NULL && cc_strncasecmp(tok, "cudnn", 5) != 0 &&
            cc_strncasecmp(tok, "cuda", 4) != 0)
                return 0; /* neither in capitals nor with '_' nor cudnn / cuda: not a name */
        want = strip_prefix(tok, "CUDNN_STATUS_");
        lim = strlen(want) / 4 > 2 ? strlen(want) / 4 : 2;
        cands = cc_calloc(c->err, c->st->nrows + c->cu->nrows + 1, sizeof(*cands));
        if (cands == NULL)
                return -1;
        for (r = 0; r < c->st->nrows; r++) {
                const char *name = cc_kb_cell(c->st, r, "name");
                char up[96];
                size_t d, k;

                if (name == NULL)
                        continue;
                d = distance(want, strip_prefix(name, "CUDNN_STATUS_"));
                for (k = 0; want[k] && k + 1 < sizeof(up); k++)
                        up[k] = (char)(want[k] >= 'a' && want[k] <= 'z' ? want[k] - 32 : want[k]);
                up[k] = '\0';
                if (d <= lim || (strlen(want) >= 4 && strstr(name, up) != NULL) || all_parts_in(up, name))
                        cands[nc++] = (struct cand){d, name};
        }
        for (r = 0; r < c->cu->nrows; r++) {
                const char *name = cc_kb_cell(c->cu, r, "name");
                size_t d = name ? distance(tok, name) : 99;

                if (name != NULL && d <= (strlen(tok) / 4 > 2 ? strlen(tok) / 4 : 2))
                        cands[nc++] = (struct cand){d, name};
        }
        qsort(cands, nc, sizeof(*cands), cmp_cand);
        for (i = 0; i < nc && out->n < 5; i++)
                if (cc_strv_pushf(out, 1, c->err, "%s", cands[i].name) < 0)
                        goto done;
        rc = 0;
done:
        free(cands);
        return rc;
}

int cudnnctl_explain(const char *input, const cudnnctl_explain_options *opts, cudnnctl_value **out, cudnnctl_error *err)
{
        static const cudnnctl_explain_options defaults = {0, 0, 0};
        struct ctx c;
        char *folded = NULL;
        cc_value *doc = NULL, *matches = NULL;
        cc_strv sugg = {0};
        size_t i;
        int rc = -1;

        *out = NULL;
        memset(&c, 0, sizeof(c));
        c.o = opts ? opts : &defaults;
        c.err = err;
        if (input == NULL)
                return cc_err(err, CC_ERR_USAGE, "explain: no input");
        if (c.o->major != 0 && c.o->major != 8 && c.o->major != 9)
                return cc_err(err, CC_ERR_USAGE, "explain: major %d is not 8 or 9 (0 infers it)", c.o->major);
        c.text = input;
        c.len = c.o->input_len ? c.o->input_len : strlen(input);
        if (c.len > (size_t)INPUT_MAX)
                return cc_err(err, CC_ERR_LIMIT, "explain: the input is %zu bytes, more than the %d MiB read", c.len,
                              INPUT_MAX >> 20);
        if ((c.cat = table("catalog", err)) == NULL || (c.msg = table("messages", err)) == NULL ||
            (c.st = table("status", err)) == NULL || (c.cu = table("cuda_errors", err)) == NULL ||
            (c.win = table("winerrors", err)) == NULL || load_patterns(c.msg, err) < 0)
                return -1;
        if ((folded = cc_pattern_fold(c.text, c.len, err)) == NULL)
                return -1;
        if (scan_token(&c) < 0 || scan_messages(&c, folded) < 0)
                goto done;
        if (c.nhits > 1)
                qsort(c.hits, c.nhits, sizeof(*c.hits), cmp_hits);
        drop_contained(&c);
        if (c.nhits == 0 && suggest(&c, &sugg) < 0)
                goto done;
        if ((doc = cc_v_object(err)) == NULL ||
            cc_v_set_int(doc, "schema_version", CUDNNCTL_JSON_SCHEMA_VERSION, err) < 0 ||
            cc_v_set_str(doc, "tool", "cudnnctl", err) < 0 ||
            cc_v_set_str(doc, "tool_version", cudnnctl_version(), err) < 0 ||
            cc_v_set_str(doc, "command", "explain", err) < 0 ||
            cc_v_set(doc, CC_K(explain_doc, input), cc_v_strn(c.text, c.len > INPUT_ECHO ? INPUT_ECHO : c.len, err),
                     err) < 0 ||
            cc_v_set_int(doc, CC_K(explain_doc, input_bytes), (int64_t)c.len, err) < 0 ||
            cc_v_set_bool(doc, CC_K(explain_doc, input_truncated), c.len > INPUT_ECHO, err) < 0 ||
            (c.o->major ? cc_v_set_int(doc, CC_K(explain_doc, major), c.o->major, err)
                        : cc_v_set_null(doc, CC_K(explain_doc, major), err)) < 0 ||
            cc_v_set_str(doc, CC_K(explain_doc, system),
                         c.o->system == CUDNNCTL_SYSTEM_LINUX     ? "linux"
                         : c.o->system == CUDNNCTL_SYSTEM_WINDOWS ? "windows"
                                                                  : "any",
                         err) < 0 ||
            (matches = cc_v_array(err)) == NULL)
                goto done;
        for (i = 0; i < c.nhits; i++)
                if (cc_v_push(matches, match_value(&c, &c.hits[i]), err) < 0)
                        goto done;
        if (cc_v_set(doc, CC_K(explain_doc, matches), matches, err) < 0) {
                matches = NULL;
                goto done;
        }
        matches = NULL;
        if (cc_v_set(doc, CC_K(explain_doc, suggestions), cc_v_strv(&sugg, err), err) < 0 ||
            cc_v_set(doc, CC_K(explain_doc, notes), cc_v_strv(&c.notes, err), err) < 0)
                goto done;
        *out = doc;
        doc = NULL;
        rc = 0;
done:
        for (i = 0; i < c.nhits; i++)
                hit_free(&c.hits[i]);
        free(c.hits);
        cc_strv_free(&c.notes);
        cc_strv_free(&sugg);
        cc_v_free(matches);
        cc_v_free(doc);
        free(folded);
        return rc;
}
