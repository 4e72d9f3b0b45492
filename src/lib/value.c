#include "value.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A member's key: held in the member when short (nearly every key of a
 * document is), else on the heap. Members move when the array grows, so a
 * key is read through mkey, never kept as a pointer into an old array. */
#define SMALL_KEY 16

struct member {
        char *heap; /* the key when it does not fit small, else NULL */
        cc_value *val;
        char small[SMALL_KEY];
};

static const char *mkey(const struct member *m)
{
        return m->heap != NULL ? m->heap : m->small;
}

static int set_key(struct member *m, const char *key, cc_error *err)
{
        size_t len = strlen(key);

        m->heap = NULL;
        if (len < SMALL_KEY) {
                memcpy(m->small, key, len + 1);
                return 0;
        }
        m->small[0] = '\0';
        m->heap = cc_strndup(err, key, len);
        return m->heap != NULL ? 0 : -1;
}

static void free_key(struct member *m)
{
        free(m->heap);
        m->heap = NULL;
}

struct cudnnctl_value {
        int type;
        union {
                int b;
                int64_t i;
                double d;
                struct {
                        char *s;
                        size_t len;
                } str;
                struct {
                        cc_value **items;
                        size_t n, cap;
                } arr;
                struct {
                        struct member *m;
                        size_t n, cap;
                } obj;
        } u;
};

/* The member `key` of an object, or NULL (also for non-objects): the
 * members from position start on, then those before it. */
static struct member *find_member_from(const cc_value *obj, const char *key, size_t start)
{
        size_t n, i, k;

        if (obj == NULL || obj->type != CUDNNCTL_OBJECT)
                return NULL;
        n = obj->u.obj.n;
        for (k = 0, i = start < n ? start : 0; k < n; k++, i = i + 1 < n ? i + 1 : 0) {
                const char *mk = mkey(&obj->u.obj.m[i]);

                /* the first byte before the call: most keys differ there */
                if (mk[0] == key[0] && strcmp(mk, key) == 0)
                        return &obj->u.obj.m[i];
        }
        return NULL;
}

static struct member *find_member(const cc_value *obj, const char *key)
{
        return find_member_from(obj, key, 0);
}

static cc_value *new_value(int type, cc_error *err)
{
        cc_value *v = cc_calloc(err, 1, sizeof(*v));

        if (v != NULL)
                v->type = type;
        return v;
}

cc_value *cc_v_null(cc_error *err)
{
        return new_value(CUDNNCTL_NULL, err);
}

cc_value *cc_v_bool(int b, cc_error *err)
{
        cc_value *v = new_value(CUDNNCTL_BOOL, err);

        if (v != NULL)
                v->u.b = b != 0;
        return v;
}

cc_value *cc_v_int(int64_t i, cc_error *err)
{
        cc_value *v = new_value(CUDNNCTL_INT, err);

        if (v != NULL)
                v->u.i = i;
        return v;
}

cc_value *cc_v_double(double d, cc_error *err)
{
        cc_value *v = new_value(CUDNNCTL_DOUBLE, err);

        if (v != NULL)
                v->u.d = d;
        return v;
}

cc_value *cc_v_strn(const char *s, size_t n, cc_error *err)
{
        cc_value *v;

        if (s == NULL)
                return cc_v_null(err);
        /* the bytes right after the value: one allocation */
        if (n > SIZE_MAX - sizeof(*v) - 1) {
                cc_err(err, CC_ERR_NOMEM, "out of memory (%zu bytes)", n);
                return NULL;
        }
        v = cc_malloc(err, sizeof(*v) + n + 1);
        if (v == NULL)
                return NULL;
        memset(v, 0, sizeof(*v));
        v->type = CUDNNCTL_STRING;
        v->u.str.s = (char *)(v + 1);
        memcpy(v->u.str.s, s, n);
        v->u.str.s[n] = '\0';
        v->u.str.len = n;
        return v;
}

cc_value *cc_v_str(const char *s, cc_error *err)
{
        return s == NULL ? cc_v_null(err) : cc_v_strn(s, strlen(s), err);
}

cc_value *cc_v_strf(cc_error *err, const char *fmt, ...)
{
        cc_value *v;
        va_list ap;
        char *s;

        va_start(ap, fmt);
        s = cc_vasprintf(err, fmt, ap);
        va_end(ap);
        if (s == NULL)
                return NULL;
        v = cc_v_str(s, err);
        free(s);
        return v;
}

cc_value *cc_v_array(cc_error *err)
{
        return new_value(CUDNNCTL_ARRAY, err);
}

cc_value *cc_v_object(cc_error *err)
{
        return new_value(CUDNNCTL_OBJECT, err);
}

cc_value *cc_v_strv(const cc_strv *sv, cc_error *err)
{
        cc_value *a = cc_v_array(err);
        size_t i;

        if (a == NULL)
                return NULL;
        for (i = 0; i < sv->n; i++) {
                if (cc_v_push(a, cc_v_str(sv->v[i], err), err) < 0) {
                        cc_v_free(a);
                        return NULL;
                }
        }
        return a;
}

void cc_v_free(cc_value *v)
{
        size_t i;

        if (v == NULL)
                return;
        switch (v->type) {
        case CUDNNCTL_ARRAY:
                for (i = 0; i < v->u.arr.n; i++)
                        cc_v_free(v->u.arr.items[i]);
                free(v->u.arr.items);
                break;
        case CUDNNCTL_OBJECT:
                for (i = 0; i < v->u.obj.n; i++) {
                        free_key(&v->u.obj.m[i]);
                        cc_v_free(v->u.obj.m[i].val);
                }
                free(v->u.obj.m);
                break;
        default:
                break;
        }
        free(v);
}

void cudnnctl_value_free(cudnnctl_value *v)
{
        cc_v_free(v);
}

int cc_v_push(cc_value *arr, cc_value *v, cc_error *err)
{
        if (v == NULL)
                return -1;
        if (arr == NULL || arr->type != CUDNNCTL_ARRAY) {
                cc_v_free(v);
                return cc_err(err, CC_ERR_USAGE, "internal: push onto a non-array");
        }
        if (arr->u.arr.n == arr->u.arr.cap) {
                size_t ncap = arr->u.arr.cap ? arr->u.arr.cap * 2 : 4;
                cc_value **p = cc_realloc(err, arr->u.arr.items, ncap * sizeof(*p));

                if (p == NULL) {
                        cc_v_free(v);
                        return -1;
                }
                arr->u.arr.items = p;
                arr->u.arr.cap = ncap;
        }
        arr->u.arr.items[arr->u.arr.n++] = v;
        return 0;
}

int cc_v_set(cc_value *obj, const char *key, cc_value *v, cc_error *err)
{
        struct member *old;

        if (v == NULL)
                return -1;
        if (obj == NULL || obj->type != CUDNNCTL_OBJECT) {
                cc_v_free(v);
                return cc_err(err, CC_ERR_USAGE, "internal: set on a non-object");
        }
        old = find_member(obj, key);
        if (old != NULL) {
                cc_v_free(old->val);
                old->val = v;
                return 0;
        }
        return cc_v_append(obj, key, v, err);
}

int cc_v_set_str(cc_value *obj, const char *key, const char *s, cc_error *err)
{
        return cc_v_set(obj, key, cc_v_str(s, err), err);
}

int cc_v_set_int(cc_value *obj, const char *key, int64_t i, cc_error *err)
{
        return cc_v_set(obj, key, cc_v_int(i, err), err);
}

int cc_v_set_double(cc_value *obj, const char *key, double d, cc_error *err)
{
        return cc_v_set(obj, key, cc_v_double(d, err), err);
}

int cc_v_set_bool(cc_value *obj, const char *key, int b, cc_error *err)
{
        return cc_v_set(obj, key, cc_v_bool(b, err), err);
}

int cc_v_set_null(cc_value *obj, const char *key, cc_error *err)
{
        return cc_v_set(obj, key, cc_v_null(err), err);
}

int cc_v_append(cc_value *obj, const char *key, cc_value *v, cc_error *err)
{
        struct member nm;

        if (v == NULL)
                return -1;
        if (obj == NULL || obj->type != CUDNNCTL_OBJECT) {
                cc_v_free(v);
                return cc_err(err, CC_ERR_USAGE, "internal: append to a non-object");
        }
        /* the key copied before the array may move (it may be one of its own) */
        if (set_key(&nm, key, err) < 0) {
                cc_v_free(v);
                return -1;
        }
        if (obj->u.obj.n == obj->u.obj.cap) {
                size_t ncap = obj->u.obj.cap ? obj->u.obj.cap * 2 : 8;
                struct member *p = cc_realloc(err, obj->u.obj.m, ncap * sizeof(*p));

                if (p == NULL) {
                        free_key(&nm);
                        cc_v_free(v);
                        return -1;
                }
                obj->u.obj.m = p;
                obj->u.obj.cap = ncap;
        }
        nm.val = v;
        obj->u.obj.m[obj->u.obj.n++] = nm;
        return 0;
}

/* Sort order for cc_v_dedup: by key, then by position. */
struct dedup_key {
        const char *key;
        size_t pos;
};

static int dedup_cmp(const void *a, const void *b)
{
        const struct dedup_key *x = a, *y = b;
        int c = strcmp(x->key, y->key);

        if (c != 0)
                return c;
        return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Merge the members at positions first and dup (first < dup, equal keys):
 * first takes dup's value, dup is marked for removal (gone). */
static void dedup_merge(struct member *m, unsigned char *gone, size_t first, size_t dup)
{
        cc_v_free(m[first].val);
        m[first].val = m[dup].val;
        m[dup].val = NULL;
        free_key(&m[dup]);
        gone[dup] = 1;
}

int cc_v_dedup(cc_value *obj, cc_error *err)
{
        struct member *m;
        struct dedup_key *idx = NULL;
        unsigned char small_gone[8] = {0}, *gone = small_gone;
        size_t n, i, j;
        int rv = -1, any = 0;

        if (obj == NULL || obj->type != CUDNNCTL_OBJECT)
                return cc_err(err, CC_ERR_USAGE, "internal: dedup of a non-object");
        m = obj->u.obj.m;
        n = obj->u.obj.n;
        if (n < 2) {
                rv = 0;
                goto fail;
        }
        if (n <= 8) {
                for (i = 0; i < n; i++) {
                        if (gone[i])
                                continue;
                        for (j = i + 1; j < n; j++) {
                                if (!gone[j] && strcmp(mkey(&m[i]), mkey(&m[j])) == 0) {
                                        dedup_merge(m, gone, i, j);
                                        any = 1;
                                }
                        }
                }
        } else {
                /* n log n: sort (key, position) pairs; in each run of equal
                 * keys the first position takes the last value. */
                idx = cc_calloc(err, n, sizeof(*idx));
                gone = cc_calloc(err, n, 1);
                if (idx == NULL || gone == NULL)
                        goto fail;
                for (i = 0; i < n; i++) {
                        idx[i].key = mkey(&m[i]);
                        idx[i].pos = i;
                }
                qsort(idx, n, sizeof(*idx), dedup_cmp);
                /* a run's keys are all compared before any of them is freed */
                for (i = 0; i < n; i = j) {
                        size_t k;

                        for (j = i + 1; j < n && strcmp(idx[i].key, idx[j].key) == 0; j++)
                                ;
                        if (j - i < 2)
                                continue;
                        for (k = i + 1; k < j - 1; k++) {
                                cc_v_free(m[idx[k].pos].val);
                                free_key(&m[idx[k].pos]);
                                m[idx[k].pos].val = NULL;
                                gone[idx[k].pos] = 1;
                        }
                        dedup_merge(m, gone, idx[i].pos, idx[j - 1].pos);
                        any = 1;
                }
        }
        if (any) {
                for (i = 0, j = 0; i < n; i++)
                        if (!gone[i])
                                m[j++] = m[i];
                obj->u.obj.n = j;
        }
        rv = 0;
fail:
        free(idx);
        if (gone != small_gone)
                free(gone);
        return rv;
}

cc_value *cc_v_take(cc_value *obj, const char *key)
{
        struct member *m = find_member(obj, key);
        cc_value *v;
        size_t i;

        if (m == NULL)
                return NULL;
        i = (size_t)(m - obj->u.obj.m);
        v = m->val;
        free_key(m);
        memmove(m, m + 1, (obj->u.obj.n - i - 1) * sizeof(*m));
        obj->u.obj.n--;
        return v;
}

int cudnnctl_value_type(const cudnnctl_value *v)
{
        return v == NULL ? CUDNNCTL_NULL : v->type;
}

const cudnnctl_value *cudnnctl_value_get(const cudnnctl_value *obj, const char *key)
{
        struct member *m = find_member(obj, key);

        return m ? m->val : NULL;
}

const cc_value *cc_v_get_hint(const cc_value *obj, const char *key, size_t *hint)
{
        struct member *m = find_member_from(obj, key, *hint);

        if (m == NULL)
                return NULL;
        *hint = (size_t)(m - obj->u.obj.m) + 1;
        return m->val;
}

const cudnnctl_value *cudnnctl_value_path(const cudnnctl_value *v, const char *path)
{
        char part[256];
        const char *p = path;

        while (v != NULL && *p) {
                size_t n = strcspn(p, "/");

                if (n >= sizeof(part))
                        return NULL;
                memcpy(part, p, n);
                part[n] = '\0';
                if (v->type == CUDNNCTL_ARRAY) {
                        char *end;
                        unsigned long idx = strtoul(part, &end, 10);

                        if (*end != '\0' || end == part)
                                return NULL;
                        v = cudnnctl_value_at(v, idx);
                } else {
                        v = cudnnctl_value_get(v, part);
                }
                p += n;
                if (*p == '/')
                        p++;
        }
        return v;
}

size_t cudnnctl_value_len(const cudnnctl_value *v)
{
        if (v == NULL)
                return 0;
        if (v->type == CUDNNCTL_ARRAY)
                return v->u.arr.n;
        if (v->type == CUDNNCTL_OBJECT)
                return v->u.obj.n;
        return 0;
}

const cudnnctl_value *cudnnctl_value_at(const cudnnctl_value *v, size_t i)
{
        if (v == NULL)
                return NULL;
        if (v->type == CUDNNCTL_ARRAY)
                return i < v->u.arr.n ? v->u.arr.items[i] : NULL;
        if (v->type == CUDNNCTL_OBJECT)
                return i < v->u.obj.n ? v->u.obj.m[i].val : NULL;
        return NULL;
}

const char *cudnnctl_value_key_at(const cudnnctl_value *v, size_t i)
{
        if (v == NULL || v->type != CUDNNCTL_OBJECT || i >= v->u.obj.n)
                return NULL;
        return mkey(&v->u.obj.m[i]);
}

const char *cudnnctl_value_str(const cudnnctl_value *v)
{
        return (v != NULL && v->type == CUDNNCTL_STRING) ? v->u.str.s : NULL;
}

int64_t cudnnctl_value_int(const cudnnctl_value *v)
{
        return (v != NULL && v->type == CUDNNCTL_INT) ? v->u.i : 0;
}

int cudnnctl_value_bool(const cudnnctl_value *v)
{
        return (v != NULL && v->type == CUDNNCTL_BOOL) ? v->u.b : 0;
}

double cudnnctl_value_double(const cudnnctl_value *v)
{
        if (v != NULL && v->type == CUDNNCTL_DOUBLE)
                return v->u.d;
        if (v != NULL && v->type == CUDNNCTL_INT)
                return (double)v->u.i;
        return 0;
}

cc_value *cc_v_getm(cc_value *obj, const char *key)
{
        struct member *m = find_member(obj, key);

        return m ? m->val : NULL;
}

int cc_v_concat(cc_value *dst, cc_value *src, cc_error *err)
{
        size_t i;
        int rv = 0;

        if (src == NULL)
                return -1;
        if (src->type != CUDNNCTL_ARRAY) {
                cc_v_free(src);
                return cc_err(err, CC_ERR_USAGE, "internal: concatenating a non-array");
        }
        for (i = 0; i < src->u.arr.n; i++) {
                cc_value *item = src->u.arr.items[i];

                src->u.arr.items[i] = NULL;
                if (rv == 0 && cc_v_push(dst, item, err) < 0)
                        rv = -1;
                else if (rv < 0)
                        cc_v_free(item);
        }
        src->u.arr.n = 0;
        cc_v_free(src);
        return rv;
}

cc_value *cc_v_atm(cc_value *arr, size_t i)
{
        if (arr == NULL || arr->type != CUDNNCTL_ARRAY || i >= arr->u.arr.n)
                return NULL;
        return arr->u.arr.items[i];
}

const char *cc_v_get_str(const cc_value *obj, const char *key)
{
        return cudnnctl_value_str(cudnnctl_value_get(obj, key));
}

/* ---- JSON ---------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
        size_t len;

        if (s[0] < 0x80)
                return 1;
        if (s[0] >= 0xC2 && s[0] <= 0xDF)
                len = 2;
        else if (s[0] >= 0xE0 && s[0] <= 0xEF)
                len = 3;
        else if (s[0] >= 0xF0 && s[0] <= 0xF4)
                len = 4;
        else
                return 0;
        if (len > n)
                return 0;
        return cc_utf8_valid((const char *)s, len) ? len : 0;
}

int cc_json_string(cc_buf *out, const char *str, size_t n, cc_error *err)
{
        const unsigned char *s = (const unsigned char *)str;
        size_t i = 0;

        if (cc_buf_putc(out, '"', err) < 0)
                return -1;
        while (i < n) {
                unsigned char c = s[i];
                size_t len;
                int rc;

                switch (c) {
                case '"':
                        rc = cc_buf_puts(out, "\\\"", err);
                        break;
                case '\\':
                        rc = cc_buf_puts(out, "\\\\", err);
                        break;
                case '\n':
                        rc = cc_buf_puts(out, "\\n", err);
                        break;
                case '\r':
                        rc = cc_buf_puts(out, "\\r", err);
                        break;
                case '\t':
                        rc = cc_buf_puts(out, "\\t", err);
                        break;
                default:
                        if (c < 0x20 || c == 0x7F) {
                                rc = cc_buf_printf(out, err, "\\u%04x", c);
                                break;
                        }
                        len = utf8_seq(s + i, n - i);
                        if (len == 0) {
                                rc = cc_buf_puts(out, "\\ufffd", err);
                                break;
                        }
                        rc = cc_buf_append(out, s + i, len, err);
                        i += len - 1;
                        break;
                }
                if (rc < 0)
                        return -1;
                i++;
        }
        return cc_buf_putc(out, '"', err);
}

/* A double as the shortest of %.15g, %.16g, %.17g that reads back equal,
 * always a JSON number that reads back as a double ("2.0", "1e+20"); null
 * when not finite. The decimal point is '.' whatever the locale. */
static int json_double(cc_buf *out, double d, cc_error *err)
{
        char s[64];
        size_t k;
        int prec, integral = 1;

        if (!isfinite(d))
                return cc_buf_puts(out, "null", err);
        for (prec = 15; prec <= 17; prec++) {
                int len = snprintf(s, sizeof(s), "%.*g", prec, d);

                if (len <= 0 || (size_t)len >= sizeof(s) - 2)
                        return cc_err(err, CC_ERR_USAGE, "internal: formatting a double failed");
                for (k = 0; s[k]; k++)
                        if (s[k] == ',')
                                s[k] = '.';
                if (prec == 17 || strtod(s, NULL) == d)
                        break;
        }
        for (k = 0; s[k]; k++)
                if (s[k] != '-' && (s[k] < '0' || s[k] > '9'))
                        integral = 0;
        if (integral)
                memcpy(s + k, ".0", 3);
        return cc_buf_puts(out, s, err);
}

static int indent(cc_buf *out, int pretty, int depth, cc_error *err)
{
        int i;

        if (!pretty)
                return 0;
        if (cc_buf_putc(out, '\n', err) < 0)
                return -1;
        for (i = 0; i < depth; i++)
                if (cc_buf_puts(out, "  ", err) < 0)
                        return -1;
        return 0;
}

static int json_write(const cc_value *v, int pretty, int depth, cc_buf *out, cc_error *err)
{
        size_t i;

        if (depth > 200)
                return cc_err(err, CC_ERR_LIMIT, "fact tree nested deeper than 200 levels");
        switch (v == NULL ? CUDNNCTL_NULL : v->type) {
        case CUDNNCTL_NULL:
                return cc_buf_puts(out, "null", err);
        case CUDNNCTL_BOOL:
                return cc_buf_puts(out, v->u.b ? "true" : "false", err);
        case CUDNNCTL_INT:
                return cc_buf_printf(out, err, "%lld", (long long)v->u.i);
        case CUDNNCTL_DOUBLE:
                return json_double(out, v->u.d, err);
        case CUDNNCTL_STRING:
                return cc_json_string(out, v->u.str.s, v->u.str.len, err);
        case CUDNNCTL_ARRAY:
                if (v->u.arr.n == 0)
                        return cc_buf_puts(out, "[]", err);
                if (cc_buf_putc(out, '[', err) < 0)
                        return -1;
                for (i = 0; i < v->u.arr.n; i++) {
                        if (i && cc_buf_putc(out, ',', err) < 0)
                                return -1;
                        if (indent(out, pretty, depth + 1, err) < 0 ||
                            json_write(v->u.arr.items[i], pretty, depth + 1, out, err) < 0)
                                return -1;
                }
                if (indent(out, pretty, depth, err) < 0)
                        return -1;
                return cc_buf_putc(out, ']', err);
        case CUDNNCTL_OBJECT:
                if (v->u.obj.n == 0)
                        return cc_buf_puts(out, "{}", err);
                if (cc_buf_putc(out, '{', err) < 0)
                        return -1;
                for (i = 0; i < v->u.obj.n; i++) {
                        const char *k = mkey(&v->u.obj.m[i]);

                        if (i && cc_buf_putc(out, ',', err) < 0)
                                return -1;
                        if (indent(out, pretty, depth + 1, err) < 0 || cc_json_string(out, k, strlen(k), err) < 0 ||
                            cc_buf_puts(out, pretty ? ": " : ":", err) < 0 ||
                            json_write(v->u.obj.m[i].val, pretty, depth + 1, out, err) < 0)
                                return -1;
                }
                if (indent(out, pretty, depth, err) < 0)
                        return -1;
                return cc_buf_putc(out, '}', err);
        default:
                return cc_err(err, CC_ERR_USAGE, "internal: bad value type %d", v->type);
        }
}

int cc_json_write(const cc_value *v, int pretty, cc_buf *out, cc_error *err)
{
        return json_write(v, pretty, 0, out, err);
}

int cudnnctl_to_json(const cudnnctl_value *v, int pretty, char **out, cudnnctl_error *err)
{
        cc_buf b = {0};

        *out = NULL;
        if (cc_json_write(v, pretty, &b, err) < 0 || cc_buf_putc(&b, '\n', err) < 0) {
                cc_buf_free(&b);
                return -1;
        }
        *out = cc_buf_steal(&b);
        return 0;
}

void cudnnctl_free(void *p)
{
        free(p);
}

char *cudnnctl_escape(const char *s)
{
        cc_error e = {0};
        cc_buf b = {0};

        if (cc_buf_put_escaped(&b, s ? s : "", &e) < 0 || cc_buf_putc(&b, '\0', &e) < 0) {
                cc_buf_free(&b);
                return NULL;
        }
        b.len--; /* the NUL above only makes sure there is a string when s is empty */
        return cc_buf_steal(&b);
}

/* Depth of the trees cc_v_copy copies; deeper is refused (trees are built by
 * this library or read by the bounded JSON reader: far shallower). */
#define COPY_MAX_DEPTH 256

static cc_value *copy_at(const cc_value *v, int depth, cc_error *err)
{
        cc_value *c = NULL;
        size_t i;

        if (depth > COPY_MAX_DEPTH) {
                cc_err(err, CC_ERR_LIMIT, "a fact tree more than %d levels deep", COPY_MAX_DEPTH);
                return NULL;
        }
        if (v == NULL)
                return cc_v_null(err);
        switch (v->type) {
        case CUDNNCTL_BOOL:
                return cc_v_bool(v->u.b, err);
        case CUDNNCTL_INT:
                return cc_v_int(v->u.i, err);
        case CUDNNCTL_DOUBLE:
                return cc_v_double(v->u.d, err);
        case CUDNNCTL_STRING:
                return cc_v_strn(v->u.str.s, v->u.str.len, err);
        case CUDNNCTL_ARRAY:
                c = cc_v_array(err);
                for (i = 0; c != NULL && i < v->u.arr.n; i++)
                        if (cc_v_push(c, copy_at(v->u.arr.items[i], depth + 1, err), err) < 0) {
                                cc_v_free(c);
                                return NULL;
                        }
                return c;
        case CUDNNCTL_OBJECT:
                c = cc_v_object(err);
                for (i = 0; c != NULL && i < v->u.obj.n; i++)
                        if (cc_v_append(c, mkey(&v->u.obj.m[i]), copy_at(v->u.obj.m[i].val, depth + 1, err), err) < 0) {
                                cc_v_free(c);
                                return NULL;
                        }
                return c;
        default:
                return cc_v_null(err);
        }
}

cc_value *cc_v_copy(const cc_value *v, cc_error *err)
{
        return copy_at(v, 0, err);
}
