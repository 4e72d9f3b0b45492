/* Fact trees: the JSON-shaped values every gathering step produces and every
 * renderer reads. Builders take ownership of what they are given, also on
 * failure, so a chain of calls needs one check at the end of a block. */
#ifndef CC_VALUE_H
#define CC_VALUE_H

#include "common.h"

typedef struct cudnnctl_value cc_value;

cc_value *cc_v_null(cc_error *err);
cc_value *cc_v_bool(int b, cc_error *err);
cc_value *cc_v_int(int64_t i, cc_error *err);
cc_value *cc_v_double(double d, cc_error *err);
cc_value *cc_v_str(const char *s, cc_error *err); /* s == NULL gives null */
cc_value *cc_v_strn(const char *s, size_t n, cc_error *err);
cc_value *cc_v_strf(cc_error *err, const char *fmt, ...) CC_PRINTF(2, 3);
cc_value *cc_v_array(cc_error *err);
cc_value *cc_v_object(cc_error *err);
/* An array of the strings in sv (copied). */
cc_value *cc_v_strv(const cc_strv *sv, cc_error *err);
void cc_v_free(cc_value *v);
/* A deep copy (NULL gives null); strings keep every byte. */
cc_value *cc_v_copy(const cc_value *v, cc_error *err);

/* Append to an array / set a member of an object (replacing an existing key).
 * Both take ownership of v; v == NULL means an earlier builder failed: the
 * call returns -1 and keeps err as it was. */
int cc_v_push(cc_value *arr, cc_value *v, cc_error *err);
int cc_v_set(cc_value *obj, const char *key, cc_value *v, cc_error *err);
int cc_v_set_str(cc_value *obj, const char *key, const char *s, cc_error *err);
int cc_v_set_int(cc_value *obj, const char *key, int64_t i, cc_error *err);
int cc_v_set_double(cc_value *obj, const char *key, double d, cc_error *err);
int cc_v_set_bool(cc_value *obj, const char *key, int b, cc_error *err);
int cc_v_set_null(cc_value *obj, const char *key, cc_error *err);
/* Append member `key` without looking for an existing one (a reader that
 * merges duplicates afterwards with cc_v_dedup); takes ownership of v. */
int cc_v_append(cc_value *obj, const char *key, cc_value *v, cc_error *err);
/* Merge members with equal keys as cc_v_set would have: the first position
 * keeps the last value. O(n log n). */
int cc_v_dedup(cc_value *obj, cc_error *err);
/* Remove and return member `key` (caller owns it), or NULL. */
cc_value *cc_v_take(cc_value *obj, const char *key);

/* Reading: the public accessors (cudnnctl.h) under short names. Two
 * families, told apart by their names:
 *  - cc_v_as_*(v): the value v itself as a string, integer, bool or double
 *    (NULL / 0 when it is not one);
 *  - cc_v_get*(obj, key): a member of an object (cc_v_get_str: the member
 *    as a string). */
#define cc_v_type cudnnctl_value_type
#define cc_v_get cudnnctl_value_get
#define cc_v_path cudnnctl_value_path
#define cc_v_len cudnnctl_value_len
#define cc_v_at cudnnctl_value_at
#define cc_v_key_at cudnnctl_value_key_at
#define cc_v_as_str cudnnctl_value_str
#define cc_v_as_int cudnnctl_value_int
#define cc_v_as_bool cudnnctl_value_bool
#define cc_v_as_double cudnnctl_value_double

/* The member `key` of obj for changing it, or NULL. */
cc_value *cc_v_getm(cc_value *obj, const char *key);
/* cc_v_get for a reader that asks for the members in about the order they
 * were set: the members from position *hint on are looked at first, then
 * those before it; *hint becomes the position after the member found. The
 * same answer as cc_v_get: an object never holds a key twice (cc_v_set
 * replaces, the JSON reader merges repeated keys, copies keep the
 * source's keys). */
const cc_value *cc_v_get_hint(const cc_value *obj, const char *key, size_t *hint);
/* Move every element of the array src to the end of dst; src is freed
 * (also on failure). */
int cc_v_concat(cc_value *dst, cc_value *src, cc_error *err);
/* Element i of an array for changing it, or NULL. */
cc_value *cc_v_atm(cc_value *arr, size_t i);
/* The string member `key` of obj, or NULL. */
const char *cc_v_get_str(const cc_value *obj, const char *key);

/* JSON writer (one for the whole project). */
int cc_json_write(const cc_value *v, int pretty, cc_buf *out, cc_error *err) CC_WUR;
/* Write one JSON string literal for the n bytes at s. */
int cc_json_string(cc_buf *out, const char *s, size_t n, cc_error *err) CC_WUR;

#endif
