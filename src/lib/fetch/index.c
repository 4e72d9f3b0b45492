/* The index readers of fetch (index.h): NVIDIA's redist listing and
 * manifests, PyPI's simple API in JSON and HTML. Pure: bytes in, records
 * out. */
#include "index.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../formats/json.h"
#include "../formats/redistrib.h"
#include "../value.h"

#define MAX_RELEASES 4096
#define MAX_FILES 65536
#define MAX_URL 4096

void cc_fetch_file_free(cc_fetch_file *v, size_t n)
{
        size_t i;

        for (i = 0; v != NULL && i < n; i++) {
                free(v[i].version);
                free(v[i].name);
                free(v[i].url);
                free(v[i].sha256);
        }
        free(v);
}

/* ---- versions -------------------------------------------------------- */

int cc_version_matches(const char *want, const char *have)
{
        cudnnctl_ver w, h;
        int i;

        if (cudnnctl_ver_parse(want, &w) < 0)
                return -1;
        if (cudnnctl_ver_parse(have, &h) < 0)
                return 0;
        for (i = 0; i < w.n; i++)
                if (i >= h.n || w.part[i] != h.part[i])
                        return 0;
        return 1;
}

int cc_version_cmp(const char *a, const char *b)
{
        cudnnctl_ver x, y;
        int ra = cudnnctl_ver_parse(a, &x), rb = cudnnctl_ver_parse(b, &y), i;

        if (ra < 0 || rb < 0)
                return ra < 0 ? (rb < 0 ? strcmp(a, b) : -1) : 1;
        for (i = 0; i < 4; i++) {
                long p = i < x.n ? x.part[i] : -1, q = i < y.n ? y.part[i] : -1;

                if (p != q)
                        return p > q ? 1 : -1;
        }
        return 0;
}

static int newest_first(const void *a, const void *b)
{
        return cc_version_cmp(*(const char *const *)b, *(const char *const *)a);
}

/* ---- URLs -------------------------------------------------------------- */

static int is_http(const char *s)
{
        return cc_strncasecmp(s, "http://", 7) == 0 || cc_strncasecmp(s, "https://", 8) == 0;
}

char *cc_url_resolve(const char *base, const char *ref, cc_error *err)
{
        const char *auth, *path_start, *q;
        cc_buf b = {0};
        char *out = NULL;
        size_t i;

        if (strlen(ref) > MAX_URL || strlen(base) > MAX_URL)
                return cc_err(err, CC_ERR_LIMIT, "a URL longer than %d bytes", MAX_URL), NULL;
        if (is_http(ref)) {
                /* a scheme is case-insensitive (RFC 3986 3.1): handed on in its
                 * canonical lowercase, the one the HTTP layer accepts */
                out = cc_strdup(err, ref);
                for (i = 0; out != NULL && out[i] != ':'; i++)
                        out[i] = (char)tolower((unsigned char)out[i]);
                return out;
        }
        auth = strstr(base, "://");
        if (auth == NULL)
                return cc_err(err, CC_ERR_FORMAT, "%s: not an absolute URL", base), NULL;
        auth += 3;
        path_start = auth + strcspn(auth, "/?#");
        if (ref[0] == '/' && ref[1] == '/') {
                if (cc_buf_append(&b, base, (size_t)(auth - 3 - base) + 1, err) < 0 || cc_buf_puts(&b, ref, err) < 0)
                        goto fail;
                return cc_buf_steal(&b);
        }
        if (cc_buf_append(&b, base, (size_t)(path_start - base), err) < 0)
                goto fail;
        if (ref[0] == '/') {
                if (cc_buf_puts(&b, ref, err) < 0)
                        goto fail;
                return cc_buf_steal(&b);
        }
        {
                /* the base's directory, then the reference's segments */
                size_t plen = strcspn(path_start, "?#"), dirlen = 0, root = b.len;
                const char *r = ref;

                for (i = 0; i < plen; i++)
                        if (path_start[i] == '/')
                                dirlen = i + 1;
                if (dirlen == 0) {
                        if (cc_buf_putc(&b, '/', err) < 0)
                                goto fail;
                } else if (cc_buf_append(&b, path_start, dirlen, err) < 0) {
                        goto fail;
                }
                while (*r) {
                        if (r[0] == '.' && r[1] == '/') {
                                r += 2;
                        } else if (r[0] == '.' && r[1] == '.' && (r[2] == '/' || r[2] == '\0')) {
                                /* drop the last directory, never above the root */
                                if (b.len > root + 1) {
                                        b.len--;
                                        while (b.len > root && b.data[b.len - 1] != '/')
                                                b.len--;
                                        b.data[b.len] = '\0';
                                }
                                r += r[2] ? 3 : 2;
                        } else {
                                break;
                        }
                }
                q = r;
                if (cc_buf_puts(&b, q, err) < 0)
                        goto fail;
        }
        out = cc_buf_steal(&b);
fail:
        cc_buf_free(&b);
        return out;
}

/* ---- NVIDIA's redist directory ----------------------------------------- */

static int push_sorted_unique(cc_strv *out, cc_strv *found, cc_error *err)
{
        size_t i;

        if (found->n > 1)
                qsort(found->v, found->n, sizeof(*found->v), newest_first);
        for (i = 0; i < found->n; i++)
                if ((i == 0 || strcmp(found->v[i], found->v[i - 1]) != 0) && cc_strv_push(out, found->v[i], err) < 0)
                        return -1;
        return 0;
}

int cc_index_redist_listing(const char *text, size_t len, cc_strv *out, cc_error *err)
{
        static const char key[] = "redistrib_";
        cc_strv found = {0};
        size_t i = 0;
        int rv = -1;

        while (i + sizeof(key) - 1 < len) {
                const char *p = memchr(text + i, 'r', len - i);
                size_t at, j, dots = 0;

                if (p == NULL)
                        break;
                at = (size_t)(p - text);
                i = at + 1;
                if (len - at < sizeof(key) - 1 || memcmp(p, key, sizeof(key) - 1) != 0)
                        continue;
                /* redistrib_ DIGITS ( . DIGITS ){1,3} .json */
                j = at + sizeof(key) - 1;
                {
                        size_t start = j, digits = 0;

                        while (j < len && ((text[j] >= '0' && text[j] <= '9') || text[j] == '.')) {
                                if (text[j] == '.') {
                                        if (digits == 0)
                                                break;
                                        dots++;
                                        digits = 0;
                                } else if (++digits > 8) {
                                        break;
                                }
                                j++;
                        }
                        /* the last '.' read starts ".json" */
                        if (j + 4 <= len && j > start && text[j - 1] == '.' && memcmp(text + j, "json", 4) == 0 &&
                            dots >= 2 && dots <= 4) {
                                if (found.n == MAX_RELEASES) {
                                        cc_err(err, CC_ERR_LIMIT, "more than %d redistrib_VERSION.json names",
                                               MAX_RELEASES);
                                        goto fail;
                                }
                                if (cc_strv_pushn(&found, text + start, j - 1 - start, err) < 0)
                                        goto fail;
                        }
                        i = j > i ? j : i;
                }
        }
        if (found.n == 0) {
                cc_err(err, CC_ERR_FORMAT,
                       "no redistrib_VERSION.json named: not a listing of NVIDIA's redist directory");
                goto fail;
        }
        TRY(push_sorted_unique(out, &found, err));
        rv = 0;
fail:
        cc_strv_free(&found);
        return rv;
}

struct files {
        cc_fetch_file *v;
        size_t n, cap;
};

static int files_push(struct files *f, cc_fetch_file *e, cc_error *err)
{
        if (f->n == MAX_FILES)
                return cc_err(err, CC_ERR_LIMIT, "more than %d files listed", MAX_FILES);
        if (f->n == f->cap) {
                size_t cap = f->cap ? f->cap * 2 : 16;
                cc_fetch_file *nv = cc_realloc(err, f->v, cap * sizeof(*nv));

                if (nv == NULL)
                        return -1;
                f->v = nv;
                f->cap = cap;
        }
        f->v[f->n++] = *e;
        memset(e, 0, sizeof(*e));
        return 0;
}

/* "cuda13" or, in a file name, "_cuda12-archive": the number after "cuda". */
static int cuda_of(const char *s)
{
        const char *p = strstr(s, "cuda");
        int v = 0, d = 0;

        if (p == NULL)
                return 0;
        for (p += 4; *p >= '0' && *p <= '9' && d < 3; p++, d++)
                v = v * 10 + (*p - '0');
        return d ? v : 0;
}

int cc_index_redist_files(const char *manifest, size_t len, const char *base, cc_fetch_file **out, size_t *n,
                          cc_error *err)
{
        static const struct {
                const char *key, *system, *arch;
        } PLAT[] = {{"linux-x86_64", "linux", "x86_64"},
                    {"linux-sbsa", "linux", "sbsa"},
                    {"linux-aarch64", "linux", "aarch64"},
                    {"windows-x86_64", "windows", "x86_64"}};
        cc_redist_file *rf = NULL;
        size_t nrf = 0, i, k;
        struct files f = {0};
        cc_fetch_file e;
        int rv = -1;

        *out = NULL;
        *n = 0;
        memset(&e, 0, sizeof(e));
        TRY(cc_redist_parse(manifest, len, &rf, &nrf, err));
        for (i = 0; i < nrf; i++) {
                const cc_redist_file *r = &rf[i];

                if (strcmp(r->product, "cudnn") != 0)
                        continue;
                for (k = 0; k < CC_ARRAY_LEN(PLAT); k++)
                        if (strcmp(r->platform, PLAT[k].key) == 0)
                                break;
                if (k == CC_ARRAY_LEN(PLAT))
                        continue;
                if (cudnnctl_ver_parse(r->version, &(cudnnctl_ver){0}) < 0) {
                        cc_err(err, CC_ERR_FORMAT, "cudnn: \"version\" is not a version");
                        goto fail;
                }
                e.version = cc_strdup(err, r->version);
                e.name = cc_strdup(err, cc_basename(r->relative_path));
                e.url = cc_url_resolve(base, r->relative_path, err);
                e.sha256 = cc_strdup(err, r->sha256);
                if (e.version == NULL || e.name == NULL || e.url == NULL || e.sha256 == NULL)
                        goto fail;
                e.size = r->size;
                e.cuda_major = r->variant[0] ? cuda_of(r->variant) : cuda_of(e.name);
                snprintf(e.system, sizeof(e.system), "%s", PLAT[k].system);
                snprintf(e.arch, sizeof(e.arch), "%s", PLAT[k].arch);
                TRY(files_push(&f, &e, err));
        }
        if (f.n == 0) {
                cc_err(err, CC_ERR_FORMAT,
                       "no \"cudnn\" archive for linux-x86_64, linux-sbsa, linux-aarch64 or "
                       "windows-x86_64");
                goto fail;
        }
        *out = f.v;
        *n = f.n;
        f.v = NULL;
        f.n = 0;
        rv = 0;
fail:
        free(e.version);
        free(e.name);
        free(e.url);
        free(e.sha256);
        cc_fetch_file_free(f.v, f.n);
        cc_redist_free(rf, nrf);
        return rv;
}

/* ---- wheels ----------------------------------------------------------- */

int cc_wheel_name(const char *name, char *version, size_t vsize, int *cuda_major, char system[8], char arch[8])
{
        static const char pre[] = "nvidia_cudnn_cu";
        const char *p = name, *v, *ve, *plat;
        int cu = 0, d = 0, dashes = 0;
        size_t n = strlen(name);

        if (n > 400 || !cc_ends_with(name, ".whl") || cc_strncasecmp(name, pre, sizeof(pre) - 1) != 0)
                return -1;
        /* PEP 427's escaped components: letters, digits, '_', '.', '+' and the
         * '-' between them. Nothing else, so the name is safe in a message
         * and as the cache's file name (no '/', '\\', control or space). */
        if (strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+-") != n)
                return -1;
        for (p = name + sizeof(pre) - 1; *p >= '0' && *p <= '9' && d < 3; p++, d++)
                cu = cu * 10 + (*p - '0');
        if (d == 0 || *p != '-')
                return -1;
        v = p + 1;
        ve = strchr(v, '-');
        if (ve == NULL || (size_t)(ve - v) >= vsize)
                return -1;
        memcpy(version, v, (size_t)(ve - v));
        version[ve - v] = '\0';
        if (cudnnctl_ver_parse(version, &(cudnnctl_ver){0}) < 0)
                return -1; /* a pre-release or local version: not a cuDNN release */
        /* name-version(-build)?-python-abi-platform.whl: the platform is last */
        for (p = ve; *p; p++)
                dashes += *p == '-';
        if (dashes < 3)
                return -1;
        plat = strrchr(name, '-') + 1;
        *cuda_major = cu;
        if (strncmp(plat, "win_amd64", 9) == 0) {
                snprintf(system, 8, "windows");
                snprintf(arch, 8, "x86_64");
        } else if (strncmp(plat, "manylinux", 9) == 0 && strstr(plat, "x86_64") != NULL) {
                snprintf(system, 8, "linux");
                snprintf(arch, 8, "x86_64");
        } else if (strncmp(plat, "manylinux", 9) == 0 && strstr(plat, "aarch64") != NULL) {
                /* PyPI's aarch64 wheels are the server (SBSA) build */
                snprintf(system, 8, "linux");
                snprintf(arch, 8, "sbsa");
        } else {
                return -1;
        }
        return 0;
}

static int is_hex64(const char *s)
{
        size_t i;

        for (i = 0; i < 64; i++)
                if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))
                        return 0;
        return s[64] == '\0' || s[64] == '&' || s[64] == '"';
}

/* One file of a page: kept when it is a cuDNN wheel for a known platform. */
static int add_wheel(struct files *f, const char *page_url, const char *filename, const char *url, const char *sha,
                     uint64_t size, cc_error *err)
{
        cc_fetch_file e;
        char ver[64];
        char *frag;
        int rv = -1;

        memset(&e, 0, sizeof(e));
        if (cc_wheel_name(filename, ver, sizeof(ver), &e.cuda_major, e.system, e.arch) < 0)
                return 0;
        if (sha != NULL && sha[0] != '\0' && !is_hex64(sha))
                return cc_err(err, CC_ERR_FORMAT, "%.200s: the sha256 is not 64 hex digits", filename);
        e.version = cc_strdup(err, ver);
        e.name = cc_strdup(err, filename);
        e.url = cc_url_resolve(page_url, url, err);
        e.sha256 = cc_strndup(err, sha ? sha : "", sha && sha[0] ? 64 : 0);
        if (e.version == NULL || e.name == NULL || e.url == NULL || e.sha256 == NULL)
                goto fail;
        if (!is_http(e.url)) {
                cc_err(err, CC_ERR_FORMAT, "%.200s: the link is not an http(s) URL", filename);
                goto fail;
        }
        frag = strchr(e.url, '#');
        if (frag != NULL)
                *frag = '\0';
        for (frag = e.sha256; *frag; frag++)
                *frag = (char)cc_ascii_tolower(*frag);
        e.size = size;
        TRY(files_push(f, &e, err));
        rv = 0;
fail:
        free(e.version);
        free(e.name);
        free(e.url);
        free(e.sha256);
        return rv;
}

static int pypi_json(const char *text, size_t len, const char *page_url, struct files *f, cc_error *err)
{
        cc_value *doc = NULL;
        const cc_value *files, *meta, *api;
        size_t i;
        int rv = -1;

        if (cc_json_parse(text, len, 16, &doc, err) < 0) {
                cc_err_prefix(err, "not PyPI's JSON simple API (PEP 691)");
                return -1;
        }
        if (cc_v_type(doc) != CUDNNCTL_OBJECT) {
                cc_err(err, CC_ERR_FORMAT, "not PyPI's JSON simple API (PEP 691): not an object");
                goto fail;
        }
        meta = cc_v_get(doc, "meta");
        api = meta ? cc_v_get(meta, "api-version") : NULL;
        if (api != NULL && (cc_v_as_str(api) == NULL || !cc_starts_with(cc_v_as_str(api), "1."))) {
                cc_err(err, CC_ERR_FORMAT,
                       "PEP 691 \"meta\".\"api-version\" is not 1.x: a version this tool does "
                       "not read");
                goto fail;
        }
        files = cc_v_get(doc, "files");
        if (files == NULL || cc_v_type(files) != CUDNNCTL_ARRAY) {
                cc_err(err, CC_ERR_FORMAT, "not PyPI's JSON simple API (PEP 691): no \"files\" list");
                goto fail;
        }
        for (i = 0; i < cc_v_len(files); i++) {
                const cc_value *e = cc_v_at(files, i), *hashes, *size, *yanked;
                const char *fn, *url, *sha = NULL;
                uint64_t bytes = 0;

                if (cc_v_type(e) != CUDNNCTL_OBJECT) {
                        cc_err(err, CC_ERR_FORMAT, "\"files\"[%zu]: not an object", i);
                        goto fail;
                }
                fn = cc_v_get_str(e, "filename");
                url = cc_v_get_str(e, "url");
                if (fn == NULL || url == NULL) {
                        cc_err(err, CC_ERR_FORMAT, "\"files\"[%zu]: no \"filename\" or \"url\" string", i);
                        goto fail;
                }
                yanked = cc_v_get(e, "yanked");
                if (yanked != NULL && (cc_v_as_bool(yanked) || cc_v_as_str(yanked) != NULL))
                        continue;
                hashes = cc_v_get(e, "hashes");
                if (hashes != NULL && cc_v_type(hashes) == CUDNNCTL_OBJECT)
                        sha = cc_v_get_str(hashes, "sha256");
                size = cc_v_get(e, "size");
                if (size != NULL && cc_v_type(size) == CUDNNCTL_INT && cc_v_as_int(size) > 0)
                        bytes = (uint64_t)cc_v_as_int(size);
                if (sha != NULL && strlen(sha) != 64) {
                        cc_err(err, CC_ERR_FORMAT, "\"files\"[%zu]: \"hashes\".\"sha256\" is not 64 hex digits", i);
                        goto fail;
                }
                TRY(add_wheel(f, page_url, fn, url, sha, bytes, err));
        }
        rv = 0;
fail:
        cc_v_free(doc);
        return rv;
}

/* An attribute's value inside one tag [t, end): href="..." or href='...'. */
static char *attr(const char *t, const char *end, const char *name, cc_error *err, int *present)
{
        size_t nl = strlen(name);
        const char *p = t;

        *present = 0;
        while (p < end) {
                const char *q;
                char quote;

                while (p < end && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
                        p++;
                while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
                        p++;
                if ((size_t)(end - p) < nl || cc_strncasecmp(p, name, nl) != 0 ||
                    (p + nl < end && p[nl] != '=' && p[nl] != ' ' && p[nl] != '>' && p[nl] != '/')) {
                        continue;
                }
                *present = 1;
                p += nl;
                if (p >= end || *p != '=')
                        return NULL;
                p++;
                quote = p < end && (*p == '"' || *p == '\'') ? *p++ : 0;
                q = p;
                while (q < end && (quote ? *q != quote : (*q != ' ' && *q != '>')))
                        q++;
                return cc_strndup(err, p, (size_t)(q - p));
        }
        return NULL;
}

/* &amp; &lt; &gt; &quot; &#39; decoded in place (the entities a link may hold). */
static void unescape_html(char *s)
{
        static const struct {
                const char *e;
                char c;
        } ENT[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}, {"&#x27;", '\''}};
        char *w = s;
        size_t k;

        while (*s) {
                for (k = 0; k < CC_ARRAY_LEN(ENT); k++) {
                        size_t l = strlen(ENT[k].e);

                        if (strncmp(s, ENT[k].e, l) == 0) {
                                *w++ = ENT[k].c;
                                s += l;
                                break;
                        }
                }
                if (k == CC_ARRAY_LEN(ENT))
                        *w++ = *s++;
        }
        *w = '\0';
}

static int pypi_html(const char *text, size_t len, const char *page_url, struct files *f, cc_error *err)
{
        const char *p = text, *end = text + len;
        size_t anchors = 0;

        while (p < end) {
                const char *a = memchr(p, '<', (size_t)(end - p)), *te, *close;
                char *href = NULL, *name = NULL, *sha = NULL, *hash;
                int has_href, yanked;

                if (a == NULL)
                        break;
                p = a + 1;
                if (end - a < 3 || (a[1] != 'a' && a[1] != 'A') || (a[2] != ' ' && a[2] != '\t' && a[2] != '\n'))
                        continue;
                te = memchr(a, '>', (size_t)(end - a));
                if (te == NULL)
                        break;
                close = te + 1;
                while (close < end && *close != '<')
                        close++;
                anchors++;
                href = attr(a + 2, te, "href", err, &has_href);
                if (has_href && href == NULL && err->code == CC_ERR_NOMEM)
                        return -1;
                {
                        char *y = attr(a + 2, te, "data-yanked", err, &yanked);

                        free(y);
                }
                if (href == NULL || yanked) {
                        free(href);
                        p = close;
                        continue;
                }
                unescape_html(href);
                name = cc_strndup(err, te + 1, (size_t)(close - te - 1));
                if (name == NULL) {
                        free(href);
                        return -1;
                }
                unescape_html(name);
                hash = strchr(href, '#');
                if (hash != NULL && strncmp(hash, "#sha256=", 8) == 0)
                        sha = hash + 8;
                if (add_wheel(f, page_url, name[0] ? name : cc_basename(href), href, sha, 0, err) < 0) {
                        free(href);
                        free(name);
                        return -1;
                }
                free(href);
                free(name);
                p = close;
        }
        if (anchors == 0)
                return cc_err(err, CC_ERR_FORMAT, "not PyPI's HTML simple API (PEP 503): no <a href> links");
        return 0;
}

int cc_index_pypi_page(const char *text, size_t len, int json, const char *page_url, cc_fetch_file **out, size_t *n,
                       cc_error *err)
{
        struct files f = {0};

        *out = NULL;
        *n = 0;
        if ((json ? pypi_json(text, len, page_url, &f, err) : pypi_html(text, len, page_url, &f, err)) < 0) {
                cc_fetch_file_free(f.v, f.n);
                return -1;
        }
        *out = f.v;
        *n = f.n;
        return 0;
}
