/* The redistrib manifest reader (redistrib.h), on the project's JSON
 * parser. Strict where the data is used (paths, digests, sizes: every one
 * checked), lenient where NVIDIA's own sample parser is (parse_redist.py in
 * github.com/NVIDIA/build-system-archive-import-examples: string members of
 * a product are metadata, keys with "variant" in them are skipped). */
#include "redistrib.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../value.h"
#include "json.h"

/* Real manifests nest four levels (manifest, product, platform, variant);
 * CUDA's list a few hundred files. */
#define MAX_DEPTH 16
#define MAX_FILES 65536

struct rd {
        cc_redist_file *v;
        size_t n, cap;
        cc_error *err;
};

/* A key as it may appear in a one-line message: control bytes as \xNN,
 * at most about 60 bytes (a cut UTF-8 sequence shows as its bytes). */
static void esc(char *out, size_t cap, const char *s)
{
        size_t o = 0;

        for (; *s && o + 8 < cap; s++) {
                unsigned char c = (unsigned char)*s;

                if (o >= 60) {
                        memcpy(out + o, "...", 3);
                        o += 3;
                        break;
                }
                if (c < 0x20 || c == 0x7f)
                        o += (size_t)snprintf(out + o, cap - o, "\\x%02x", c);
                else
                        out[o++] = (char)c;
        }
        out[o] = '\0';
}

/* Refuse with "product/platform/variant: why" (the parts given). */
static int refuse(cc_error *err, const char *k1, const char *k2, const char *k3, const char *fmt, ...) CC_PRINTF(5, 6);
static int refuse(cc_error *err, const char *k1, const char *k2, const char *k3, const char *fmt, ...)
{
        char a[72], b[72], c[72], why[200];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(why, sizeof(why), fmt, ap);
        va_end(ap);
        esc(a, sizeof(a), k1 ? k1 : "");
        esc(b, sizeof(b), k2 ? k2 : "");
        esc(c, sizeof(c), k3 ? k3 : "");
        if (k1 == NULL)
                return cc_err(err, CC_ERR_FORMAT, "%s", why);
        return cc_err(err, CC_ERR_FORMAT, "%s%s%s%s%s: %s", a, k2 ? "/" : "", b, k3 && *k3 ? "/" : "", c, why);
}

static int is_hex(const char *s, size_t n)
{
        size_t i;

        for (i = 0; i < n; i++)
                if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))
                        return 0;
        return s[n] == '\0';
}

/* A path below the manifest's directory, as fetch will join it to a URL
 * and install compares its last part: no control bytes, not absolute, no
 * backslash, no empty, "." or ".." component. */
static int rel_path_ok(const char *s)
{
        const char *p, *c = s;

        if (*s == '\0' || *s == '/')
                return 0;
        for (p = s;; p++) {
                unsigned char ch = (unsigned char)*p;

                if (ch == '/' || ch == '\0') {
                        size_t n = (size_t)(p - c);

                        if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
                                return 0;
                        if (ch == '\0')
                                return 1;
                        c = p + 1;
                } else if (ch < 0x20 || ch == 0x7f || ch == '\\') {
                        return 0;
                }
        }
}

/* "size": decimal digits in a string (NVIDIA's files), or a JSON integer;
 * 0 and *out, or -1 when it is not a byte count that fits 64 bits. */
static int size_of(const cc_value *v, uint64_t *out)
{
        const char *s = cc_v_as_str(v);

        if (cc_v_type(v) == CUDNNCTL_INT) {
                if (cc_v_as_int(v) < 0)
                        return -1;
                *out = (uint64_t)cc_v_as_int(v);
                return 0;
        }
        if (s == NULL || *s == '\0')
                return -1;
        for (*out = 0; *s; s++) {
                unsigned d = (unsigned)(*s - '0');

                if (d > 9 || *out > (UINT64_MAX - d) / 10)
                        return -1;
                *out = *out * 10 + d;
        }
        return 0;
}

static char *lower_dup(const char *s, cc_error *err)
{
        char *p = cc_strdup(err, s);
        size_t i;

        for (i = 0; p != NULL && p[i]; i++)
                p[i] = (char)cc_ascii_tolower(p[i]);
        return p;
}

static void free_one(cc_redist_file *f)
{
        free(f->product);
        free(f->version);
        free(f->platform);
        free(f->variant);
        free(f->relative_path);
        free(f->sha256);
        free(f->md5);
}

void cc_redist_free(cc_redist_file *v, size_t n)
{
        size_t i;

        for (i = 0; v != NULL && i < n; i++)
                free_one(&v[i]);
        free(v);
}

/* One file object: product/platform[/variant]. */
static int add_file(struct rd *r, const char *product, const char *version, const char *platform, const char *variant,
                    const cc_value *f)
{
        const cc_value *rp = cc_v_get(f, "relative_path"), *sha = cc_v_get(f, "sha256"), *md5 = cc_v_get(f, "md5"),
                       *size = cc_v_get(f, "size");
        cc_redist_file e;
        uint64_t bytes = 0;

        if (rp == NULL)
                return refuse(r->err, product, platform, variant, "no \"relative_path\"");
        if (cc_v_as_str(rp) == NULL)
                return refuse(r->err, product, platform, variant, "\"relative_path\" is not a string");
        if (!rel_path_ok(cc_v_as_str(rp)))
                return refuse(r->err, product, platform, variant,
                              "\"relative_path\" is not a relative path of names separated by '/'");
        if (sha != NULL && (cc_v_as_str(sha) == NULL || !is_hex(cc_v_as_str(sha), 64)))
                return refuse(r->err, product, platform, variant, "\"sha256\" is not 64 hex digits");
        if (md5 != NULL && (cc_v_as_str(md5) == NULL || !is_hex(cc_v_as_str(md5), 32)))
                return refuse(r->err, product, platform, variant, "\"md5\" is not 32 hex digits");
        if (sha == NULL && md5 == NULL)
                return refuse(r->err, product, platform, variant, "no \"sha256\" or \"md5\"");
        if (size == NULL)
                return refuse(r->err, product, platform, variant, "no \"size\"");
        if (size_of(size, &bytes) < 0)
                return refuse(r->err, product, platform, variant,
                              "\"size\" is not a byte count (decimal digits that fit 64 bits)");
        if (r->n == MAX_FILES)
                return cc_err(r->err, CC_ERR_LIMIT, "more than %d files listed", MAX_FILES);
        if (r->n == r->cap) {
                size_t cap = r->cap ? r->cap * 2 : 8;
                cc_redist_file *nv = cc_realloc(r->err, r->v, cap * sizeof(*nv));

                if (nv == NULL)
                        return -1;
                r->v = nv;
                r->cap = cap;
        }
        memset(&e, 0, sizeof(e));
        e.size = bytes;
        e.product = cc_strdup(r->err, product);
        e.version = cc_strdup(r->err, version);
        e.platform = cc_strdup(r->err, platform);
        e.variant = cc_strdup(r->err, variant);
        e.relative_path = cc_strdup(r->err, cc_v_as_str(rp));
        e.sha256 = lower_dup(sha ? cc_v_as_str(sha) : "", r->err);
        e.md5 = lower_dup(md5 ? cc_v_as_str(md5) : "", r->err);
        if (e.product == NULL || e.version == NULL || e.platform == NULL || e.variant == NULL ||
            e.relative_path == NULL || e.sha256 == NULL || e.md5 == NULL) {
                free_one(&e);
                return -1;
        }
        r->v[r->n++] = e;
        return 0;
}

/* A platform's value: one file, or an object of CUDA variants each a file. */
static int add_platform(struct rd *r, const char *product, const char *version, const char *platform,
                        const cc_value *pv)
{
        size_t i;

        if (cc_v_get(pv, "relative_path") != NULL)
                return add_file(r, product, version, platform, "", pv);
        if (cc_v_len(pv) == 0)
                return refuse(r->err, product, platform, NULL, "an empty object: no file and no CUDA variant");
        for (i = 0; i < cc_v_len(pv); i++) {
                const char *variant = cc_v_key_at(pv, i);
                const cc_value *f = cc_v_at(pv, i);

                if (*variant == '\0')
                        return refuse(r->err, product, platform, NULL, "a CUDA variant with an empty name");
                if (cc_v_type(f) != CUDNNCTL_OBJECT)
                        return refuse(r->err, product, platform, variant,
                                      "not a file object (a platform holds one file or CUDA variants of it)");
                TRY_RET(add_file(r, product, version, platform, variant, f));
        }
        return 0;
}

static const char *const META[] = {"name", "license", "license_path", "version"};

static int add_product(struct rd *r, const char *product, const cc_value *pv)
{
        const cc_value *ver = cc_v_get(pv, "version");
        size_t i, k, before = r->n;

        for (k = 0; k < CC_ARRAY_LEN(META); k++) {
                const cc_value *m = cc_v_get(pv, META[k]);

                if (m != NULL && cc_v_type(m) != CUDNNCTL_STRING)
                        return refuse(r->err, product, NULL, NULL, "\"%s\" is not a string", META[k]);
        }
        if (ver == NULL)
                return refuse(r->err, product, NULL, NULL, "no \"version\"");
        for (i = 0; i < cc_v_len(pv); i++) {
                const char *key = cc_v_key_at(pv, i);
                const cc_value *v = cc_v_at(pv, i);

                /* "cuda_variant": ["11", "12"] lists the variants; metadata
                 * strings (name, license, ...) are not platforms */
                if (strstr(key, "variant") != NULL || cc_v_type(v) == CUDNNCTL_STRING)
                        continue;
                if (cc_v_type(v) != CUDNNCTL_OBJECT)
                        return refuse(r->err, product, key, NULL, "not a file or an object of CUDA variants");
                TRY_RET(add_platform(r, product, cc_v_as_str(ver), key, v));
        }
        if (r->n == before)
                return refuse(r->err, product, NULL, NULL, "no platform with a file");
        return 0;
}

/* 1 when the text holds the escape \u0000: the tree's C strings would end
 * there and hide what follows (a backslash before the u that is itself
 * escaped does not count). */
static int has_nul_escape(const char *s, size_t n)
{
        size_t i, b;

        for (i = 0; i + 5 < n; i++) {
                if (s[i + 1] != 'u' || s[i] != '\\' || memcmp(s + i + 2, "0000", 4) != 0)
                        continue;
                for (b = 0; b <= i && s[i - b] == '\\'; b++)
                        ;
                if (b % 2 == 1)
                        return 1;
        }
        return 0;
}

static const char *const TOP[] = {"release_date", "release_label", "release_product"};

int cc_redist_parse(const char *text, size_t len, cc_redist_file **out, size_t *n, cc_error *err)
{
        struct rd r = {.err = err};
        cc_value *doc = NULL;
        size_t i, k;

        *out = NULL;
        *n = 0;
        if (has_nul_escape(text, len))
                return cc_err(err, CC_ERR_FORMAT, "a \\u0000 (NUL) in a string");
        if (cc_json_parse(text, len, MAX_DEPTH, &doc, err) < 0)
                return -1;
        if (cc_v_type(doc) != CUDNNCTL_OBJECT) {
                cc_v_free(doc);
                return cc_err(err, CC_ERR_FORMAT, "not a JSON object");
        }
        for (k = 0; k < CC_ARRAY_LEN(TOP); k++) {
                const cc_value *m = cc_v_get(doc, TOP[k]);

                if (m != NULL && cc_v_type(m) != CUDNNCTL_STRING) {
                        refuse(err, NULL, NULL, NULL, "\"%s\" is not a string", TOP[k]);
                        goto fail;
                }
        }
        for (i = 0; i < cc_v_len(doc); i++) {
                const char *key = cc_v_key_at(doc, i);
                const cc_value *v = cc_v_at(doc, i);

                if (cc_v_type(v) == CUDNNCTL_STRING)
                        continue; /* release_date and the like */
                if (cc_v_type(v) != CUDNNCTL_OBJECT) {
                        refuse(err, key, NULL, NULL, "not a product object");
                        goto fail;
                }
                if (add_product(&r, key, v) < 0)
                        goto fail;
        }
        if (r.n == 0) {
                cc_err(err, CC_ERR_FORMAT, "no product with a file");
                goto fail;
        }
        cc_v_free(doc);
        *out = r.v;
        *n = r.n;
        return 0;
fail:
        cc_v_free(doc);
        cc_redist_free(r.v, r.n);
        return -1;
}
