/* Typed views over the fact documents: one reader for every view, driven by
 * the tables generated from schema.h (views.h). */
#include "views.h"

#include <stdarg.h>
#include <string.h>

#define CC_VW_KIND_(kind) CC_VW_##kind
#define CC_VW_DESC_(view, field, key, kind, flags) {key, CC_VW_KIND_(kind), flags, offsetof(cc_vw_##view, field)},
#define CC_VW_KEYS_(view, field, key, kind, flags) key,

#define CC_VW_DEFINE_(view, what)                                                                                      \
        _Static_assert(CC_VF_##view##_COUNT_ <= 64, "a view holds at most 64 keys (one bit each in present)");         \
        const char *const cc_vw_keys_##view[] = {CC_SCHEMA_##view(CC_VW_KEYS_)};                                       \
        static const cc_vw_field_desc fields_##view[] = {CC_SCHEMA_##view(CC_VW_DESC_)};                               \
        int cc_vw_##view##_read(const cc_value *obj, cc_vw_##view *out, cc_vw_report *rep)                             \
        {                                                                                                              \
                return read_view(#view, fields_##view, CC_ARRAY_LEN(fields_##view), obj, out, sizeof(*out),            \
                                 offsetof(cc_vw_##view, node_), offsetof(cc_vw_##view, present_), rep);                \
        }                                                                                                              \
        int cc_vw_##view##_at(const cc_value *arr, size_t i, cc_vw_##view *out, cc_vw_report *rep)                     \
        {                                                                                                              \
                return cc_vw_##view##_read(cudnnctl_value_at(arr, i), out, rep);                                       \
        }

const char *cc_vw_kind_name(int kind)
{
        switch (kind) {
        case CC_VW_STR:
                return "string";
        case CC_VW_INT:
                return "int";
        case CC_VW_BOOL:
                return "bool";
        case CC_VW_NUM:
                return "number";
        case CC_VW_ARR:
                return "array";
        case CC_VW_OBJ:
                return "object";
        default:
                return "value";
        }
}

static const char *type_name(int t)
{
        switch (t) {
        case CUDNNCTL_NULL:
                return "null";
        case CUDNNCTL_BOOL:
                return "bool";
        case CUDNNCTL_INT:
                return "int";
        case CUDNNCTL_DOUBLE:
                return "number";
        case CUDNNCTL_STRING:
                return "string";
        case CUDNNCTL_ARRAY:
                return "array";
        case CUDNNCTL_OBJECT:
                return "object";
        default:
                return "nothing";
        }
}

/* "a" or "an" before a type name. */
static const char *a_(const char *type)
{
        return strchr("aeiou", type[0]) != NULL ? "an" : "a";
}

static void report(cc_vw_report *rep, const char *fmt, ...) CC_PRINTF(2, 3);

static void report(cc_vw_report *rep, const char *fmt, ...)
{
        cc_error e = {0};
        va_list ap;
        char *s;

        if (rep == NULL)
                return;
        rep->count++;
        if (rep->problems.n >= (rep->max ? rep->max : 64))
                return;
        va_start(ap, fmt);
        s = cc_vasprintf(&e, fmt, ap);
        va_end(ap);
        if (s == NULL || cc_strv_take(&rep->problems, s, &e) < 0) {
                if (rep->err != NULL && rep->err->code == 0)
                        *rep->err = e;
        }
}

void cc_vw_report_free(cc_vw_report *r)
{
        if (r == NULL)
                return;
        cc_strv_free(&r->problems);
        r->count = 0;
}

/* Whether a value of JSON type t is what kind asks for. */
static int kind_ok(int kind, int t)
{
        switch (kind) {
        case CC_VW_STR:
                return t == CUDNNCTL_STRING;
        case CC_VW_INT:
                return t == CUDNNCTL_INT;
        case CC_VW_BOOL:
                return t == CUDNNCTL_BOOL;
        case CC_VW_NUM:
                return t == CUDNNCTL_INT || t == CUDNNCTL_DOUBLE;
        case CC_VW_ARR:
                return t == CUDNNCTL_ARRAY;
        case CC_VW_OBJ:
                return t == CUDNNCTL_OBJECT;
        default:
                return 1;
        }
}

static int read_view(const char *name, const cc_vw_field_desc *fd, size_t n, const cc_value *obj, void *out,
                     size_t size, size_t node_off, size_t present_off, cc_vw_report *rep)
{
        unsigned char *base = out;
        uint64_t present = 0;
        size_t i, hint = 0; /* documents are written in the views' order: the next member first */

        memset(out, 0, size);
        if (cudnnctl_value_type(obj) != CUDNNCTL_OBJECT) {
                if (obj != NULL)
                        report(rep, "%s: is %s %s, not an object", name, a_(type_name(cudnnctl_value_type(obj))),
                               type_name(cudnnctl_value_type(obj)));
                else
                        report(rep, "%s: missing", name);
                return -1;
        }
        memcpy(base + node_off, &obj, sizeof(obj));
        for (i = 0; i < n; i++) {
                const cc_value *v = cc_v_get_hint(obj, fd[i].key, &hint);
                int t = cudnnctl_value_type(v);
                unsigned char *p = base + fd[i].offset;

                if (v == NULL) {
                        if (fd[i].flags & CC_VW_REQ)
                                report(rep, "%s: %s is missing", name, fd[i].key);
                        continue;
                }
                if (t == CUDNNCTL_NULL && fd[i].kind != CC_VW_ANY) {
                        if (!(fd[i].flags & CC_VW_NULL))
                                report(rep, "%s: %s is null, not %s %s", name, fd[i].key,
                                       a_(cc_vw_kind_name(fd[i].kind)), cc_vw_kind_name(fd[i].kind));
                        continue;
                }
                if (!kind_ok(fd[i].kind, t)) {
                        report(rep, "%s: %s is %s %s, not %s %s", name, fd[i].key, a_(type_name(t)), type_name(t),
                               a_(cc_vw_kind_name(fd[i].kind)), cc_vw_kind_name(fd[i].kind));
                        continue;
                }
                present |= (uint64_t)1 << i;
                switch (fd[i].kind) {
                case CC_VW_STR: {
                        const char *s = cudnnctl_value_str(v);

                        memcpy(p, &s, sizeof(s));
                        break;
                }
                case CC_VW_INT: {
                        int64_t x = cudnnctl_value_int(v);

                        memcpy(p, &x, sizeof(x));
                        break;
                }
                case CC_VW_BOOL: {
                        int b = cudnnctl_value_bool(v);

                        memcpy(p, &b, sizeof(b));
                        break;
                }
                case CC_VW_NUM: {
                        double d = cudnnctl_value_double(v);

                        memcpy(p, &d, sizeof(d));
                        break;
                }
                default:
                        memcpy(p, &v, sizeof(v));
                        break;
                }
        }
        memcpy(base + present_off, &present, sizeof(present));
        return 0;
}

CC_SCHEMA_VIEWS(CC_VW_DEFINE_)

#define CC_VW_VIEWDESC_(view, what) {#view, what, fields_##view, CC_ARRAY_LEN(fields_##view)},

const cc_vw_view_desc cc_vw_views[] = {CC_SCHEMA_VIEWS(CC_VW_VIEWDESC_)};
const size_t cc_vw_nviews = CC_ARRAY_LEN(cc_vw_views);
