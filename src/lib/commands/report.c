/* cudnnctl_report_*: many machines' `doctor --json` documents as one table
 * (docs/json.md, command "report"). Each document is read once and reduced
 * at once to a stack signature (driver, GPUs, cuDNN installations, toolkits,
 * frameworks, finding ids with severities, area states); a hash of the
 * signature finds its group. Only the parts of a document the report uses
 * are turned into values: a selective reader skips every other subtree
 * (matching brackets and strings only), and the kept ones go through the
 * project's validating JSON reader. */
#include "cudnnctl/report.h"

#include "../formats/json.h"
#include "../platform/platform.h"
#include "../value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RP_MAX_DOC ((size_t)256 << 20) /* one document at most */
#define RP_MAX_FILES 1000000           /* names in one directory */
#define RP_MAX_NEST 512                /* nesting of a skipped subtree */

/* The doctor's areas, in its order (docs/json.md, "areas"). */
static const char *const rp_areas[] = {"driver",  "toolkit", "cudnn",   "loader",
                                       "headers", "runtime", "hygiene", "frameworks"};
#define RP_NAREAS 8

/* Cell states, least to most severe: an area's status where it has no
 * finding, else its worst finding's severity. */
static const char *const rp_states[] = {"none", "ok", "not-checked", "partial", "info", "warning", "error"};
enum { RP_NONE, RP_OK, RP_NOT_CHECKED, RP_PARTIAL, RP_INFO, RP_WARNING, RP_ERROR, RP_NSTATES };

static int rp_rank(const char *s)
{
        int i;

        for (i = 0; s != NULL && i < RP_NSTATES; i++)
                if (strcmp(s, rp_states[i]) == 0)
                        return i;
        return -1;
}

/* ---- the selective reader ------------------------------------------------ */

/* Paths kept (a.b.*.c; * an array element): what the report reads. */
static const char *const rp_keep[] = {
    "command",
    "tool",
    "areas",
    "findings",
    "facts.host.name",
    "facts.host.driver_files.version",
    "facts.host.toolkits.*.version",
    "facts.list.installations.*.version",
    "facts.list.installations.*.provenance.kind",
    "facts.verify.*.document.probes.driver.facts.devices.*.name",
    "facts.verify.*.document.probes.driver.facts.nvml.driver_version",
    "facts.frameworks.interpreters.*.frameworks.*.name",
    "facts.frameworks.interpreters.*.frameworks.*.info.version",
    "facts.frameworks.interpreters.*.frameworks.*.cudnn.version",
    "facts.frameworks.interpreters.*.frameworks.*.cudnn.loaded",
};

struct rp_seg {
        const char *k; /* NULL: an array element */
        size_t n;
};

#define RP_MAX_PATH 16

struct rp_json {
        const char *s, *p, *e;
        const char *why; /* set on failure */
        cc_error *err;
        int nomem;
};

/* 0: skip the value at path[0..depth); 1: go into it; 2: keep it whole. */
static int rp_want(const struct rp_seg *path, int depth)
{
        int best = 0, i;
        size_t k;

        for (k = 0; k < CC_ARRAY_LEN(rp_keep) && best < 2; k++) {
                const char *c = rp_keep[k];

                for (i = 0; i < depth && *c != '\0'; i++) {
                        const char *dot = strchr(c, '.');
                        size_t n = dot ? (size_t)(dot - c) : strlen(c);

                        if (path[i].k == NULL ? !(n == 1 && c[0] == '*')
                                              : !(n == path[i].n && memcmp(c, path[i].k, n) == 0))
                                break;
                        c += n;
                        if (*c == '.')
                                c++;
                }
                if (i == depth)
                        best = *c == '\0' ? 2 : 1;
        }
        return best;
}

static void rp_ws(struct rp_json *j)
{
        while (j->p < j->e && (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t'))
                j->p++;
}

static int rp_fail(struct rp_json *j, const char *why)
{
        if (j->why == NULL)
                j->why = why;
        return -1;
}

/* j->p at '"': past the closing quote. */
static int rp_skip_string(struct rp_json *j)
{
        const char *q = j->p + 1;

        for (;;) {
                const char *b;

                q = memchr(q, '"', (size_t)(j->e - q));
                if (q == NULL)
                        return rp_fail(j, "a string is not closed");
                for (b = q; b > j->p + 1 && b[-1] == '\\'; b--)
                        ;
                if ((q - b) % 2 == 0)
                        break;
                q++;
        }
        j->p = q + 1;
        return 0;
}

static int rp_skip_value(struct rp_json *j)
{
        char stack[RP_MAX_NEST];
        int depth = 0;

        rp_ws(j);
        if (j->p >= j->e)
                return rp_fail(j, "a value is missing");
        if (*j->p == '"')
                return rp_skip_string(j);
        if (*j->p != '{' && *j->p != '[') {
                const char *start = j->p;

                while (j->p < j->e && strchr(",:]} \t\r\n", *j->p) == NULL)
                        j->p++;
                if (j->p == start)
                        return rp_fail(j, "a value is missing");
                return 0;
        }
        while (j->p < j->e) {
                char c = *j->p;

                if (c == '"') {
                        TRY_RET(rp_skip_string(j));
                        continue;
                }
                if (c == '{' || c == '[') {
                        if (depth == RP_MAX_NEST)
                                return rp_fail(j, "nested too deeply");
                        stack[depth++] = c == '{' ? '}' : ']';
                } else if (c == '}' || c == ']') {
                        if (depth == 0 || stack[depth - 1] != c)
                                return rp_fail(j, "brackets do not match");
                        if (--depth == 0) {
                                j->p++;
                                return 0;
                        }
                }
                j->p++;
        }
        return rp_fail(j, "the document ends inside a value");
}

static int rp_take(struct rp_json *j, cc_value **out)
{
        const char *start;
        cc_error e = {0};

        rp_ws(j);
        start = j->p;
        TRY_RET(rp_skip_value(j));
        if (cc_json_parse(start, (size_t)(j->p - start), 64, out, &e) < 0) {
                if (e.code == CC_ERR_NOMEM) {
                        j->nomem = 1;
                        return rp_fail(j, "out of memory");
                }
                return rp_fail(j, "a value the report reads is not valid JSON");
        }
        return 0;
}

/* The value at j->p, of which only the kept paths are built (*out NULL when
 * it is not a container). */
static int rp_walk(struct rp_json *j, struct rp_seg *path, int depth, cc_value **out)
{
        cc_value *v = NULL;
        int obj, first = 1;

        *out = NULL;
        rp_ws(j);
        if (j->p >= j->e)
                return rp_fail(j, "a value is missing");
        if (*j->p != '{' && *j->p != '[')
                return rp_skip_value(j);
        if (depth >= RP_MAX_PATH)
                return rp_skip_value(j);
        obj = *j->p == '{';
        v = obj ? cc_v_object(j->err) : cc_v_array(j->err);
        if (v == NULL) {
                j->nomem = 1;
                return rp_fail(j, "out of memory");
        }
        j->p++;
        for (;;) {
                cc_value *kid = NULL;
                char key[128];
                int w;

                rp_ws(j);
                if (j->p < j->e && *j->p == (obj ? '}' : ']') && first) {
                        j->p++;
                        break;
                }
                key[0] = '\0';
                if (obj) {
                        const char *ks;

                        if (j->p >= j->e || *j->p != '"') {
                                rp_fail(j, "an object member has no name");
                                goto fail;
                        }
                        ks = j->p + 1;
                        if (rp_skip_string(j) < 0)
                                goto fail;
                        path[depth].k = ks;
                        path[depth].n = (size_t)(j->p - 1 - ks);
                        if (path[depth].n < sizeof(key)) {
                                memcpy(key, ks, path[depth].n);
                                key[path[depth].n] = '\0';
                        }
                        rp_ws(j);
                        if (j->p >= j->e || *j->p != ':') {
                                rp_fail(j, "a ':' is missing");
                                goto fail;
                        }
                        j->p++;
                } else {
                        path[depth].k = NULL;
                        path[depth].n = 0;
                }
                w = obj && path[depth].n >= sizeof(key) ? 0 : rp_want(path, depth + 1);
                if (w == 0   ? rp_skip_value(j) < 0
                    : w == 2 ? rp_take(j, &kid) < 0
                             : rp_walk(j, path, depth + 1, &kid) < 0)
                        goto fail;
                if (obj && kid != NULL && cc_v_set(v, key, kid, j->err) < 0) {
                        j->nomem = 1;
                        goto fail;
                }
                if (!obj && w != 0 && cc_v_push(v, kid != NULL ? kid : cc_v_null(j->err), j->err) < 0) {
                        j->nomem = 1;
                        goto fail;
                }
                first = 0;
                rp_ws(j);
                if (j->p < j->e && *j->p == ',') {
                        j->p++;
                        continue;
                }
                if (j->p < j->e && *j->p == (obj ? '}' : ']')) {
                        j->p++;
                        break;
                }
                rp_fail(j, obj ? "a ',' or '}' is missing" : "a ',' or ']' is missing");
                goto fail;
        }
        *out = v;
        return 0;
fail:
        cc_v_free(v);
        return -1;
}

/* ---- the report -------------------------------------------------------- */

struct rp_group {
        char *sig;
        uint64_t hash;
        size_t count, order;
        cc_strv names;
        int cells[RP_NAREAS];
        int worst; /* its worst finding's severity (RP_OK without findings) */
        cc_value *stack, *line, *findings;
};

struct rp_finding {
        int severity;
        size_t nodes;
        char *area, *summary;
};

struct cudnnctl_report {
        struct rp_group *g;
        size_t ng, capg;
        size_t *slots; /* index + 1 into g; 0 empty */
        size_t nslots;
        cc_smap findings; /* id -> struct rp_finding */
        cc_value *unreadable;
        size_t nodes;
        cc_buf sig;
};

static uint64_t rp_hash(const char *s, size_t n)
{
        uint64_t h = 1469598103934665603ULL;
        size_t i;

        for (i = 0; i < n; i++)
                h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
        return h;
}

cudnnctl_report *cudnnctl_report_new(cudnnctl_error *err)
{
        cudnnctl_report *r = cc_calloc(err, 1, sizeof(*r));

        if (r == NULL)
                return NULL;
        r->unreadable = cc_v_array(err);
        if (r->unreadable == NULL) {
                free(r);
                return NULL;
        }
        return r;
}

static void rp_free_finding(void *ctx, const char *key, void *value)
{
        struct rp_finding *f = value;

        (void)ctx;
        (void)key;
        if (f != NULL) {
                free(f->area);
                free(f->summary);
                free(f);
        }
}

void cudnnctl_report_free(cudnnctl_report *r)
{
        size_t i;

        if (r == NULL)
                return;
        for (i = 0; i < r->ng; i++) {
                free(r->g[i].sig);
                cc_strv_free(&r->g[i].names);
                cc_v_free(r->g[i].stack);
                cc_v_free(r->g[i].line);
                cc_v_free(r->g[i].findings);
        }
        free(r->g);
        free(r->slots);
        cc_smap_each(&r->findings, rp_free_finding, NULL);
        cc_smap_free(&r->findings);
        cc_v_free(r->unreadable);
        cc_buf_free(&r->sig);
        free(r);
}

static int rp_unreadable(cudnnctl_report *r, const char *file, const char *reason, cc_error *err)
{
        cc_value *o = cc_v_object(err);

        if (cc_v_push(r->unreadable, o, err) < 0 || cc_v_set_str(o, "file", file, err) < 0 ||
            cc_v_set_str(o, "reason", reason, err) < 0)
                return -1;
        return 0;
}

static const cc_value *rp_at(const cc_value *v, const char *path)
{
        return cc_v_path(v, path);
}

/* The parts of a stack, each list sorted: the signature's text and the
 * values shown. */
struct rp_stack {
        const char *driver;
        cc_strv gpus, cudnn, toolkits, frameworks, findings;
};

static void rp_stack_free(struct rp_stack *s)
{
        cc_strv_free(&s->gpus);
        cc_strv_free(&s->cudnn);
        cc_strv_free(&s->toolkits);
        cc_strv_free(&s->frameworks);
        cc_strv_free(&s->findings);
}

/* "distro-package" -> "distro", "pip-wheel" -> "wheel", "conda-package" -> "conda". */
static void rp_kind(const char *kind, char *out, size_t n)
{
        const char *dash;
        size_t len;

        if (kind == NULL)
                kind = "unknown";
        if (strncmp(kind, "pip-", 4) == 0)
                kind += 4;
        dash = strchr(kind, '-');
        len = dash ? (size_t)(dash - kind) : strlen(kind);
        if (len >= n)
                len = n - 1;
        /* cut before a character, not inside one */
        while (len > 0 && ((unsigned char)kind[len] & 0xC0) == 0x80)
                len--;
        memcpy(out, kind, len);
        out[len] = '\0';
        if (len == 0) /* "pip-", "-x": nothing left to name it by */
                snprintf(out, n, "unknown");
}

/* Sorted, each string once (a document's lists can be long: no pairwise
 * comparison). */
static void rp_sort_unique(cc_strv *sv)
{
        size_t i, n = 0;

        cc_strv_sort(sv);
        for (i = 0; i < sv->n; i++) {
                if (n > 0 && strcmp(sv->v[n - 1], sv->v[i]) == 0)
                        free(sv->v[i]);
                else
                        sv->v[n++] = sv->v[i];
        }
        sv->n = n;
}

static int rp_stack_read(const cc_value *d, struct rp_stack *s, cc_error *err)
{
        const cc_value *facts = cc_v_get(d, "facts"), *v, *arr;
        size_t i, k;

        memset(s, 0, sizeof(*s));
        s->driver = cc_v_as_str(rp_at(facts, "host/driver_files/version"));
        arr = cc_v_get(facts, "verify");
        for (i = 0; i < cc_v_len(arr); i++) {
                const cc_value *dv = rp_at(cc_v_at(arr, i), "document/probes/driver/facts");
                const cc_value *devs = cc_v_get(dv, "devices");
                const char *nv = cc_v_as_str(rp_at(dv, "nvml/driver_version"));

                if (nv != NULL && s->driver == NULL)
                        s->driver = nv;
                if (s->gpus.n == 0)
                        for (k = 0; k < cc_v_len(devs); k++) {
                                const char *name = cc_v_get_str(cc_v_at(devs, k), "name");

                                TRY_RET(cc_strv_push(&s->gpus, name ? name : "unknown GPU", err));
                        }
        }
        cc_strv_sort(&s->gpus);
        arr = rp_at(facts, "list/installations");
        for (i = 0; i < cc_v_len(arr); i++) {
                char kind[32];

                v = cc_v_at(arr, i);
                rp_kind(cc_v_as_str(rp_at(v, "provenance/kind")), kind, sizeof(kind));
                TRY_RET(cc_strv_pushf(&s->cudnn, 0, err, "%s %s",
                                      cc_v_get_str(v, "version") ? cc_v_get_str(v, "version") : "unknown", kind));
        }
        cc_strv_sort(&s->cudnn);
        arr = rp_at(facts, "host/toolkits");
        for (i = 0; i < cc_v_len(arr); i++) {
                const char *ver = cc_v_get_str(cc_v_at(arr, i), "version");

                TRY_RET(cc_strv_push(&s->toolkits, ver ? ver : "unknown", err));
        }
        cc_strv_sort(&s->toolkits);
        arr = rp_at(facts, "frameworks/interpreters");
        for (i = 0; i < cc_v_len(arr); i++) {
                const cc_value *fws = cc_v_get(cc_v_at(arr, i), "frameworks");

                for (k = 0; k < cc_v_len(fws); k++) {
                        const cc_value *f = cc_v_at(fws, k);
                        const char *name = cc_v_get_str(f, "name"), *ver = cc_v_as_str(rp_at(f, "info/version"));
                        const char *cv = cc_v_as_str(rp_at(f, "cudnn/version"));

                        if (cv != NULL && !cc_v_as_bool(rp_at(f, "cudnn/loaded")))
                                cv = NULL;
                        TRY_RET(cc_strv_pushf(&s->frameworks, 0, err, "%s %s%s%s%s", name ? name : "unknown",
                                              ver ? ver : "unknown", cv ? " (cuDNN " : " (no cuDNN", cv ? cv : "",
                                              ")"));
                }
        }
        rp_sort_unique(&s->frameworks);
        return 0;
}

static int rp_sig_list(cc_buf *b, char tag, const cc_strv *sv, cc_error *err)
{
        size_t i;

        TRY_RET(cc_buf_putc(b, tag, err));
        for (i = 0; i < sv->n; i++)
                TRY_RET(cc_json_string(b, sv->v[i], strlen(sv->v[i]), err));
        return cc_buf_putc(b, '\n', err);
}

static int rp_join(cc_buf *b, const cc_strv *sv, const char *sep, cc_error *err)
{
        size_t i;

        for (i = 0; i < sv->n; i++)
                TRY_RET(cc_buf_printf(b, err, "%s%s", i ? sep : "", sv->v[i]));
        return 0;
}

/* The group's stack as an object, and its line: "driver 580.159.04, NVIDIA
 * H200, cuDNN 9.14.0 distro + 9.19.0 wheel, CUDA 13.0, torch 2.11.0 (cuDNN
 * 9.19.0)". */
static int rp_stack_value(const struct rp_stack *s, cc_value **stack, cc_value **line, cc_error *err)
{
        cc_buf b = {0};
        cc_value *o = cc_v_object(err);

        *stack = *line = NULL;
        if (o == NULL)
                return -1;
        TRY(cc_v_set_str(o, "driver", s->driver, err));
        TRY(cc_v_set(o, "gpus", cc_v_strv(&s->gpus, err), err));
        TRY(cc_v_set(o, "cudnn", cc_v_strv(&s->cudnn, err), err));
        TRY(cc_v_set(o, "toolkits", cc_v_strv(&s->toolkits, err), err));
        TRY(cc_v_set(o, "frameworks", cc_v_strv(&s->frameworks, err), err));
        TRY(cc_buf_printf(&b, err, "driver %s", s->driver ? s->driver : "unknown"));
        if (s->gpus.n > 0) {
                size_t i, run = 1;

                for (i = 0; i < s->gpus.n; i += run) {
                        for (run = 1; i + run < s->gpus.n && strcmp(s->gpus.v[i], s->gpus.v[i + run]) == 0; run++)
                                ;
                        if (run > 1)
                                TRY(cc_buf_printf(&b, err, ", %zux %s", run, s->gpus.v[i]));
                        else
                                TRY(cc_buf_printf(&b, err, ", %s", s->gpus.v[i]));
                }
        }
        TRY(cc_buf_puts(&b, s->cudnn.n ? ", cuDNN " : ", no cuDNN", err));
        TRY(rp_join(&b, &s->cudnn, " + ", err));
        if (s->toolkits.n > 0) {
                TRY(cc_buf_puts(&b, ", CUDA ", err));
                TRY(rp_join(&b, &s->toolkits, " + ", err));
        }
        if (s->frameworks.n > 0) {
                TRY(cc_buf_puts(&b, ", ", err));
                TRY(rp_join(&b, &s->frameworks, ", ", err));
        }
        *line = cc_v_str(b.data ? b.data : "", err);
        cc_buf_free(&b);
        if (*line == NULL)
                goto fail;
        *stack = o;
        return 0;
fail:
        cc_buf_free(&b);
        cc_v_free(o);
        return -1;
}

static int rp_grow(cudnnctl_report *r, cc_error *err)
{
        size_t n = r->nslots ? r->nslots * 2 : 1024, i;
        size_t *s = cc_calloc(err, n, sizeof(*s));

        if (s == NULL)
                return -1;
        for (i = 0; i < r->ng; i++) {
                size_t h = (size_t)r->g[i].hash & (n - 1);

                while (s[h] != 0)
                        h = (h + 1) & (n - 1);
                s[h] = i + 1;
        }
        free(r->slots);
        r->slots = s;
        r->nslots = n;
        return 0;
}

/* One parsed (filtered) doctor document: its group and the finding counts. */
static int rp_reduce(cudnnctl_report *r, const char *file, const cc_value *d, cc_error *err)
{
        const cc_value *areas = cc_v_get(d, "areas"), *findings = cc_v_get(d, "findings");
        const char *command = cc_v_get_str(d, "command"), *name;
        struct rp_stack s;
        int cells[RP_NAREAS], worst = RP_OK, i;
        size_t k, h;
        struct rp_group *g = NULL;
        cc_buf *b = &r->sig;
        cc_smap seen = {0}; /* the finding ids of this document */

        if (command == NULL || strcmp(command, "doctor") != 0 || cc_v_type(areas) != CUDNNCTL_ARRAY ||
            cc_v_type(findings) != CUDNNCTL_ARRAY)
                return rp_unreadable(r, file,
                                     command != NULL && strcmp(command, "doctor") != 0
                                         ? "not a doctor document (its command is another)"
                                         : "not a doctor document (no command \"doctor\", areas and findings)",
                                     err);
        name = cc_v_as_str(rp_at(d, "facts/host/name"));
        if (name == NULL || name[0] == '\0')
                name = file;
        for (i = 0; i < RP_NAREAS; i++)
                cells[i] = RP_NOT_CHECKED; /* an area the document lacks */
        for (k = 0; k < cc_v_len(areas); k++) {
                const cc_value *a = cc_v_at(areas, k);
                const char *id = cc_v_get_str(a, "id");
                int rank = rp_rank(cc_v_get_str(a, "status"));

                for (i = 0; id != NULL && i < RP_NAREAS; i++)
                        if (strcmp(id, rp_areas[i]) == 0)
                                cells[i] = rank < 0 ? RP_NOT_CHECKED : rank > RP_PARTIAL ? RP_OK : rank;
        }
        if (rp_stack_read(d, &s, err) < 0)
                goto fail;
        for (k = 0; k < cc_v_len(findings); k++) {
                const cc_value *f = cc_v_at(findings, k);
                const char *id = cc_v_get_str(f, "id"), *area = cc_v_get_str(f, "area");
                const char *sev = cc_v_get_str(f, "severity");
                int rank = rp_rank(sev);

                if (id == NULL || rank < RP_INFO)
                        continue;
                for (i = 0; area != NULL && i < RP_NAREAS; i++)
                        if (strcmp(area, rp_areas[i]) == 0 && cells[i] < rank)
                                cells[i] = rank;
                if (rank > worst)
                        worst = rank;
                if (cc_strv_pushf(&s.findings, 0, err, "%s %s", id, sev) < 0)
                        goto fail;
        }
        rp_sort_unique(&s.findings);
        b->len = 0;
        if (cc_buf_putc(b, 'D', err) < 0 ||
            (s.driver ? cc_json_string(b, s.driver, strlen(s.driver), err) : cc_buf_puts(b, "null", err)) < 0 ||
            cc_buf_putc(b, '\n', err) < 0 || rp_sig_list(b, 'G', &s.gpus, err) < 0 ||
            rp_sig_list(b, 'C', &s.cudnn, err) < 0 || rp_sig_list(b, 'T', &s.toolkits, err) < 0 ||
            rp_sig_list(b, 'F', &s.frameworks, err) < 0 || rp_sig_list(b, 'X', &s.findings, err) < 0)
                goto fail;
        for (i = 0; i < RP_NAREAS; i++)
                if (cc_buf_putc(b, (char)('0' + cells[i]), err) < 0)
                        goto fail;
        if (r->ng * 10 >= r->nslots * 7 && rp_grow(r, err) < 0)
                goto fail;
        h = (size_t)rp_hash(b->data, b->len);
        for (k = h & (r->nslots - 1); r->slots[k] != 0; k = (k + 1) & (r->nslots - 1)) {
                struct rp_group *c = &r->g[r->slots[k] - 1];

                if (c->hash == (uint64_t)h && strcmp(c->sig, b->data) == 0) {
                        g = c;
                        break;
                }
        }
        if (g == NULL) {
                if (r->ng == r->capg) {
                        size_t cap = r->capg ? r->capg * 2 : 16;
                        struct rp_group *ng = cc_realloc(err, r->g, cap * sizeof(*ng));

                        if (ng == NULL)
                                goto fail;
                        r->g = ng;
                        r->capg = cap;
                }
                g = &r->g[r->ng];
                memset(g, 0, sizeof(*g));
                g->sig = cc_strdup(err, b->data);
                g->findings = cc_v_copy(findings, err);
                if (g->sig == NULL || g->findings == NULL || rp_stack_value(&s, &g->stack, &g->line, err) < 0) {
                        free(g->sig);
                        cc_v_free(g->findings);
                        goto fail;
                }
                g->hash = (uint64_t)h;
                g->order = r->ng;
                memcpy(g->cells, cells, sizeof(cells));
                g->worst = worst;
                r->slots[k] = ++r->ng;
        }
        if (cc_strv_push(&g->names, name, err) < 0)
                goto fail;
        g->count++;
        for (i = 0; i < RP_NAREAS; i++)
                if (cells[i] > g->cells[i])
                        g->cells[i] = cells[i];
        /* each finding id once per node, with its worst severity */
        for (k = 0; k < cc_v_len(findings); k++) {
                const cc_value *f = cc_v_at(findings, k);
                const char *id = cc_v_get_str(f, "id");
                int rank = rp_rank(cc_v_get_str(f, "severity")), again;
                struct rp_finding *fc = NULL;

                if (id == NULL || rank < RP_INFO)
                        continue;
                again = cc_smap_get(&seen, id, NULL);
                if (!again && cc_smap_put(&seen, id, NULL, NULL, err) < 0)
                        goto fail;
                if (!cc_smap_get(&r->findings, id, (void **)&fc)) {
                        fc = cc_calloc(err, 1, sizeof(*fc));
                        if (fc == NULL)
                                goto fail;
                        if (cc_smap_put(&r->findings, id, fc, NULL, err) < 0) {
                                free(fc);
                                goto fail;
                        }
                        fc->area = cc_strdup(err, cc_v_get_str(f, "area") ? cc_v_get_str(f, "area") : "");
                        fc->summary = cc_strdup(err, cc_v_get_str(f, "summary") ? cc_v_get_str(f, "summary") : "");
                        if (fc->area == NULL || fc->summary == NULL)
                                goto fail;
                }
                if (!again)
                        fc->nodes++;
                if (rank > fc->severity)
                        fc->severity = rank;
        }
        r->nodes++;
        rp_stack_free(&s);
        cc_smap_free(&seen);
        return 0;
fail:
        rp_stack_free(&s);
        cc_smap_free(&seen);
        return -1;
}

int cudnnctl_report_add_text(cudnnctl_report *r, const char *name, const char *text, size_t len, cudnnctl_error *err)
{
        struct rp_json j;
        struct rp_seg path[RP_MAX_PATH];
        cc_value *d = NULL;
        int rc;

        memset(&j, 0, sizeof(j));
        j.s = j.p = text;
        j.e = text + len;
        j.err = err;
        rp_ws(&j);
        if (j.p < j.e && *j.p != '{') {
                char c = *j.p, reason[96];

                /* a JSON value of another kind (an array, a string...), or
                 * not JSON from its first byte: say which */
                if (c == '[' || c == '"' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n')
                        snprintf(reason, sizeof(reason), "not a doctor document: a JSON value that is not an object");
                else
                        snprintf(reason, sizeof(reason), "not JSON: not an object (byte %zu)", (size_t)(j.p - j.s));
                return rp_unreadable(r, name, reason, err);
        } else if (rp_walk(&j, path, 0, &d) == 0) {
                rp_ws(&j);
                if (j.p != j.e)
                        rp_fail(&j, "more after the document");
                else if (d == NULL)
                        rp_fail(&j, "empty");
        }
        if (j.nomem) {
                cc_v_free(d);
                return -1;
        }
        if (j.why != NULL) {
                char reason[160];

                cc_v_free(d);
                snprintf(reason, sizeof(reason), "not JSON: %s (byte %zu)", j.why, (size_t)(j.p - j.s));
                return rp_unreadable(r, name, reason, err);
        }
        rc = rp_reduce(r, name, d, err);
        cc_v_free(d);
        return rc;
}

static int rp_add_file(cudnnctl_report *r, const char *path, cc_error *err)
{
        char *text = NULL;
        size_t len = 0;
        cc_error e = {0};
        int rc;

        if (cc_read_file(path, RP_MAX_DOC, &text, &len, &e) < 0) {
                if (e.code == CC_ERR_NOMEM)
                        return cc_err(err, CC_ERR_NOMEM, "out of memory");
                return rp_unreadable(r, path, e.msg, err);
        }
        rc = cudnnctl_report_add_text(r, path, text, len, err);
        free(text);
        return rc;
}

static int rp_stdin_line(cudnnctl_report *r, const char *p, size_t n, size_t line, cc_error *err)
{
        char label[48];
        size_t i;

        for (i = 0; i < n && strchr(" \t\r", p[i]) != NULL; i++)
                ;
        if (i == n)
                return 0; /* a blank line */
        snprintf(label, sizeof(label), "stdin:%zu", line);
        return cudnnctl_report_add_text(r, label, p, n, err);
}

static int rp_add_stdin(cudnnctl_report *r, cc_error *err)
{
        cc_buf b = {0};
        size_t line = 0, scanned = 0;
        char chunk[1 << 16];
        int eof = 0, skipping = 0;

        /* byte for byte, as files are read: in text mode a Ctrl-Z (0x1A) would end standard input there and
         * every document after it would be dropped without a word */
        cc_stdin_binary();
        b.max = RP_MAX_DOC + 2 * sizeof(chunk);
        while (!eof) {
                size_t n = fread(chunk, 1, sizeof(chunk), stdin), start = 0;
                const char *nl;

                eof = n < sizeof(chunk);
                if (n > 0 && cc_buf_append(&b, chunk, n, err) < 0)
                        goto fail;
                while (b.len > scanned && (nl = memchr(b.data + scanned, '\n', b.len - scanned)) != NULL) {
                        size_t end = (size_t)(nl - b.data);

                        line++;
                        if (!skipping && rp_stdin_line(r, b.data + start, end - start, line, err) < 0)
                                goto fail;
                        skipping = 0;
                        start = scanned = end + 1;
                }
                if (eof && b.len > start) {
                        line++;
                        if (!skipping && rp_stdin_line(r, b.data + start, b.len - start, line, err) < 0)
                                goto fail;
                        start = b.len;
                }
                if (start > 0) {
                        memmove(b.data, b.data + start, b.len - start);
                        b.len -= start;
                }
                scanned = b.len;
                if (b.len > RP_MAX_DOC) {
                        char label[48];

                        snprintf(label, sizeof(label), "stdin:%zu", line + 1);
                        if (!skipping && rp_unreadable(r, label, "a line over 256 MiB", err) < 0)
                                goto fail;
                        skipping = 1;
                        b.len = scanned = 0;
                }
        }
        if (ferror(stdin) && rp_unreadable(r, "stdin", "a read failed", err) < 0)
                goto fail;
        cc_buf_free(&b);
        return 0;
fail:
        cc_buf_free(&b);
        return -1;
}

int cudnnctl_report_add_path(cudnnctl_report *r, const char *path, cudnnctl_error *err)
{
        cc_stat st;
        cc_error e = {0};
        cc_strv names = {0};
        size_t i;
        int rc = 0;

        if (strcmp(path, "-") == 0)
                return rp_add_stdin(r, err);
        if (cc_stat_path(path, &st, &e) < 0)
                return rp_unreadable(r, path, e.msg, err);
        if (st.type == CC_FT_NONE)
                return rp_unreadable(r, path, "no such file or directory", err);
        if (st.type != CC_FT_DIR)
                return rp_add_file(r, path, err);
        if (cc_list_dir(path, RP_MAX_FILES, &names, &e) < 0)
                return rp_unreadable(r, path, e.msg, err);
        cc_strv_sort(&names);
        for (i = 0; i < names.n && rc == 0; i++) {
                char *full;

                if (!cc_ends_with(names.v[i], ".json") || names.v[i][0] == '.')
                        continue;
                /* the system's separator: DIR\NAME on Windows, as a Windows user names it */
                full = cc_path_join(path, names.v[i], err);
                if (full == NULL) {
                        rc = -1;
                        break;
                }
                if (cc_stat_path(full, &st, NULL) == 0 && st.type == CC_FT_FILE)
                        rc = rp_add_file(r, full, err);
                free(full);
        }
        cc_strv_free(&names);
        return rc;
}

/* ---- the document -------------------------------------------------------- */

static int rp_group_cmp(const void *a, const void *b)
{
        const struct rp_group *x = *(const struct rp_group *const *)a, *y = *(const struct rp_group *const *)b;

        if (x->count != y->count)
                return x->count > y->count ? -1 : 1;
        return x->order < y->order ? -1 : x->order > y->order;
}

struct rp_fl {
        const char *id;
        const struct rp_finding *f;
};

struct rp_fl_ctx {
        struct rp_fl *v;
        size_t n;
};

static void rp_fl_collect(void *ctx, const char *key, void *value)
{
        struct rp_fl_ctx *c = ctx;

        c->v[c->n].id = key;
        c->v[c->n].f = value;
        c->n++;
}

static int rp_fl_cmp(const void *a, const void *b)
{
        const struct rp_fl *x = a, *y = b;

        if (x->f->severity != y->f->severity)
                return x->f->severity > y->f->severity ? -1 : 1;
        if (x->f->nodes != y->f->nodes)
                return x->f->nodes > y->f->nodes ? -1 : 1;
        return strcmp(x->id, y->id);
}

/* The group's findings as shown: id, severity, area, summary, evidence (of
 * its first node). */
static cc_value *rp_group_findings(const cc_value *all, cc_error *err)
{
        cc_value *out = cc_v_array(err);
        size_t i;

        if (out == NULL)
                return NULL;
        for (i = 0; i < cc_v_len(all); i++) {
                const cc_value *f = cc_v_at(all, i);
                cc_value *o = cc_v_object(err);

                if (cc_v_push(out, o, err) < 0 || cc_v_set_str(o, "id", cc_v_get_str(f, "id"), err) < 0 ||
                    cc_v_set_str(o, "severity", cc_v_get_str(f, "severity"), err) < 0 ||
                    cc_v_set_str(o, "area", cc_v_get_str(f, "area"), err) < 0 ||
                    cc_v_set_str(o, "summary", cc_v_get_str(f, "summary"), err) < 0 ||
                    cc_v_set(o, "evidence", cc_v_copy(cc_v_get(f, "evidence"), err), err) < 0) {
                        cc_v_free(out);
                        return NULL;
                }
        }
        return out;
}

int cudnnctl_report_finish(cudnnctl_report *r, cudnnctl_value **out, cudnnctl_error *err)
{
        cc_value *doc = cc_v_object(err), *groups = NULL, *fl = NULL, *areas = NULL, *sum = NULL;
        struct rp_group **order = NULL;
        struct rp_fl_ctx fc = {0};
        size_t i, healthy = 0, warn = 0, bad = 0;
        int a;

        *out = NULL;
        if (doc == NULL)
                return -1;
        TRY(cc_v_set_int(doc, "schema_version", CUDNNCTL_JSON_SCHEMA_VERSION, err));
        TRY(cc_v_set_str(doc, "tool", "cudnnctl", err));
        TRY(cc_v_set_str(doc, "tool_version", cudnnctl_version(), err));
        TRY(cc_v_set_str(doc, "command", "report", err));
        TRY(cc_v_set_int(doc, "nodes", (int64_t)r->nodes, err));
        TRY(cc_v_set(doc, "unreadable", cc_v_copy(r->unreadable, err), err));
        areas = cc_v_array(err);
        TRY(cc_v_set(doc, "areas", areas, err));
        for (a = 0; a < RP_NAREAS; a++)
                TRY(cc_v_push(areas, cc_v_str(rp_areas[a], err), err));
        groups = cc_v_array(err);
        TRY(cc_v_set(doc, "groups", groups, err));
        order = cc_calloc(err, r->ng + 1, sizeof(*order));
        if (order == NULL)
                goto fail;
        for (i = 0; i < r->ng; i++)
                order[i] = &r->g[i];
        qsort(order, r->ng, sizeof(*order), rp_group_cmp);
        for (i = 0; i < r->ng; i++) {
                const struct rp_group *g = order[i];
                cc_value *o = cc_v_object(err), *cells = NULL;
                cc_strv names = {0};
                size_t k;

                TRY(cc_v_push(groups, o, err));
                for (k = 0; k < g->names.n; k++)
                        TRY(cc_strv_push(&names, g->names.v[k], err));
                cc_strv_sort(&names);
                TRY(cc_v_set_int(o, "nodes", (int64_t)g->count, err));
                TRY(cc_v_set(o, "names", cc_v_strv(&names, err), err));
                cc_strv_free(&names);
                TRY(cc_v_set_str(o, "verdict",
                                 g->worst >= RP_ERROR     ? "errors"
                                 : g->worst >= RP_WARNING ? "warnings"
                                                          : "healthy",
                                 err));
                TRY(cc_v_set(o, "line", cc_v_copy(g->line, err), err));
                TRY(cc_v_set(o, "stack", cc_v_copy(g->stack, err), err));
                cells = cc_v_object(err);
                TRY(cc_v_set(o, "areas", cells, err));
                for (a = 0; a < RP_NAREAS; a++)
                        TRY(cc_v_set_str(cells, rp_areas[a], rp_states[g->cells[a]], err));
                TRY(cc_v_set(o, "findings", rp_group_findings(g->findings, err), err));
                if (g->worst >= RP_ERROR)
                        bad += g->count;
                else if (g->worst >= RP_WARNING)
                        warn += g->count;
                else
                        healthy += g->count;
        }
        fc.v = cc_calloc(err, r->findings.n + 1, sizeof(*fc.v));
        if (fc.v == NULL)
                goto fail;
        cc_smap_each(&r->findings, rp_fl_collect, &fc);
        qsort(fc.v, fc.n, sizeof(*fc.v), rp_fl_cmp);
        fl = cc_v_array(err);
        TRY(cc_v_set(doc, "findings", fl, err));
        for (i = 0; i < fc.n; i++) {
                cc_value *o = cc_v_object(err);

                TRY(cc_v_push(fl, o, err));
                TRY(cc_v_set_str(o, "id", fc.v[i].id, err));
                TRY(cc_v_set_str(o, "severity", rp_states[fc.v[i].f->severity], err));
                TRY(cc_v_set_str(o, "area", fc.v[i].f->area, err));
                TRY(cc_v_set_int(o, "nodes", (int64_t)fc.v[i].f->nodes, err));
                TRY(cc_v_set_str(o, "summary", fc.v[i].f->summary, err));
        }
        sum = cc_v_object(err);
        TRY(cc_v_set(doc, "summary", sum, err));
        TRY(cc_v_set_str(sum, "verdict", bad ? "errors" : warn ? "warnings" : "healthy", err));
        TRY(cc_v_set_int(sum, "groups", (int64_t)r->ng, err));
        TRY(cc_v_set_int(sum, "healthy", (int64_t)healthy, err));
        TRY(cc_v_set_int(sum, "warnings", (int64_t)warn, err));
        TRY(cc_v_set_int(sum, "errors", (int64_t)bad, err));
        TRY(cc_v_set_int(sum, "unreadable", (int64_t)cc_v_len(r->unreadable), err));
        free(order);
        free(fc.v);
        *out = doc;
        return 0;
fail:
        free(order);
        free(fc.v);
        cc_v_free(doc);
        return -1;
}
