/* fetch (fetch.h): choose a release's file from an index, then answer from
 * the cache or download it into NAME.part, hashed while it streams,
 * resumed with a Range request, renamed into place only when whole. */
#include "fetch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../formats/sha256.h"
#include "../net/http.h"
#include "../platform/platform.h"

#define MAX_TRIES 16 /* manifests read looking for a match, newest first */
#define MAX_PAGE ((size_t)64 << 20)

/* ---- where ------------------------------------------------------------- */

char *cc_fetch_default_cache(cc_error *err)
{
        const char *v;

        if (cc_host_is_windows()) {
                v = getenv("LOCALAPPDATA");
                if (v == NULL || v[0] == '\0')
                        return cc_err(err, CC_ERR_NOTFOUND, "LOCALAPPDATA is not set: give --cache DIR"), NULL;
                return cc_path_join(v, "cudnnctl", err);
        }
        v = getenv("XDG_CACHE_HOME");
        if (v != NULL && v[0] == '/')
                return cc_path_join(v, "cudnnctl", err);
        v = getenv("HOME");
        if (v == NULL || v[0] == '\0')
                return cc_err(err, CC_ERR_NOTFOUND, "HOME is not set: give --cache DIR"), NULL;
        return cc_asprintf(err, "%s/.cache/cudnnctl", v);
}

static const char *host_arch(void)
{
#if defined(__aarch64__) || defined(_M_ARM64)
        return "sbsa";
#else
        return "x86_64";
#endif
}

/* mkdir -p, for the cache's own directories. */
static int make_dirs(const char *path, cc_error *err)
{
        char *p = cc_strdup(err, path), *c;
        cc_stat st;
        int rv = -1;

        if (p == NULL)
                return -1;
        for (c = p + 1;; c++) {
                if (*c == '\0' || ((*c == '/' || *c == '\\') && c[-1] != ':')) {
                        char keep = *c;

                        *c = '\0';
                        if (cc_stat_path(p, &st, err) < 0)
                                goto fail;
                        if (st.type == CC_FT_NONE && cc_fs_mkdir(p, 0755, err) < 0)
                                goto fail;
                        if (st.type != CC_FT_NONE && st.type != CC_FT_DIR) {
                                cc_err(err, CC_ERR_IO, "%s: not a directory", p);
                                goto fail;
                        }
                        *c = keep;
                        if (keep == '\0')
                                break;
                }
        }
        rv = 0;
fail:
        free(p);
        return rv;
}

static char *with_slash(const char *url, cc_error *err)
{
        return cc_asprintf(err, "%s%s", url, cc_ends_with(url, "/") ? "" : "/");
}

/* ---- the cache ---------------------------------------------------------- */

/* The digest of a NAME.sha256 file ("HEX" or "HEX  NAME"), lowercase, or
 * "" when there is none or it is not one. */
static void read_sidecar(const char *path, char hex[65])
{
        cc_error e = {0};
        char *text = NULL;
        size_t len = 0, i;

        hex[0] = '\0';
        if (cc_read_file(path, 4096, &text, &len, &e) < 0)
                return;
        for (i = 0; i < 64 && i < len; i++) {
                char c = (char)cc_ascii_tolower(text[i]);

                if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
                        break;
                hex[i] = c;
        }
        hex[i == 64 ? 64 : 0] = '\0';
        free(text);
}

static int write_sidecar(const char *file, const char *hex, cc_error *err)
{
        char *side = cc_asprintf(err, "%s.sha256", file), *line = NULL;
        int rv = -1;

        if (side == NULL)
                return -1;
        line = cc_asprintf(err, "%s  %s\n", hex, cc_basename(file));
        if (line != NULL && cc_write_file(side, line, strlen(line), 0, err) == 0)
                rv = 0;
        free(line);
        free(side);
        return rv;
}

static int hash_file(const char *path, cc_sha256 *s, uint64_t *size, cc_error *err)
{
        cc_map m;

        cc_sha256_init(s);
        TRY_RET(cc_map_file(path, 0, &m, err));
        cc_sha256_update(s, m.data, m.size);
        *size = m.size;
        if (cc_map_check(&m, path, err) < 0) {
                cc_unmap(&m);
                return -1;
        }
        cc_unmap(&m);
        return 0;
}

/* 1 when path holds f whole (size and SHA-256), by its sidecar or, without
 * one, by hashing it (and then writing the sidecar); 0 when it does not. */
static int cache_hit(const char *path, const cc_fetch_file *f, int *rehashed, char got[65], cc_error *err)
{
        cc_stat st;
        char *side = NULL, hex[65];
        cc_sha256 s;
        uint64_t size = 0;
        int hit = 0;

        *rehashed = 0;
        got[0] = '\0';
        if (cc_stat_path(path, &st, err) < 0)
                return -1;
        if (st.type != CC_FT_FILE || (f->size != 0 && st.size != f->size))
                return 0;
        side = cc_asprintf(err, "%s.sha256", path);
        if (side == NULL)
                return -1;
        read_sidecar(side, hex);
        free(side);
        if (hex[0] != '\0' && (f->sha256[0] == '\0' || strcmp(hex, f->sha256) == 0)) {
                memcpy(got, hex, 65);
                return 1;
        }
        if (hash_file(path, &s, &size, err) < 0)
                return -1;
        cc_sha256_final_hex(&s, hex);
        *rehashed = 1;
        if (f->sha256[0] == '\0' || strcmp(hex, f->sha256) == 0) {
                memcpy(got, hex, 65);
                hit = 1;
                if (write_sidecar(path, hex, err) < 0)
                        return -1;
        }
        return hit;
}

/* ---- the download -------------------------------------------------------- */

/* The bytes go from the network into chunks of CHUNK bytes. Two more
 * threads take each full chunk while the next ones arrive: one hashes it,
 * the other writes it to the part file; a chunk is filled again once both
 * are done with it, at most NCHUNK of them on the way (a bounded queue: a
 * slow disk or hash slows the receiving down). Every WRITEBACK bytes
 * written are handed to the device at once (cc_fs_start_writeback), so
 * that the flush before the rename waits only for the tail. A body shorter
 * than one chunk starts no thread. */
#define CHUNK ((size_t)1 << 20)
#define NCHUNK 16
#define WRITEBACK ((uint64_t)8 << 20)
enum { W_HASH, W_WRITE, NWORK };

struct dl {
        const cc_fetch_opts *o;
        const cc_fetch_file *f;
        const char *part;
        cc_wfile *w;
        cc_sha256 sha;         /* the hashing thread's while it runs */
        uint64_t have;         /* bytes taken from the network into the part (hashed and written once drained) */
        uint64_t offset;       /* asked to start at */
        uint64_t resumed_from; /* 0 unless the server sent 206 */
        uint64_t received;     /* bytes that came over the network */
        int64_t last_us;
        int restarted;
        /* the queue: chunks [done[k], head) are still thread k's, chunk
         * head % NCHUNK is being filled (fill bytes); all under s */
        char *chunk[NCHUNK];
        size_t len[NCHUNK];
        size_t fill;
        unsigned head, done[NWORK];
        int stop;      /* no more chunks will come */
        int failed;    /* a write failed (werr), or the rest is dropped */
        cc_error werr; /* the writing thread's */
        cc_thread *th[NWORK];
        cc_sync *s;
        uint64_t off, wb_from; /* the writer's: the part's size, and where the writeback has not started yet */
};

static void note(const cc_fetch_opts *o, const char *fmt, ...) CC_PRINTF(2, 3);
static void note(const cc_fetch_opts *o, const char *fmt, ...)
{
        char line[600];
        va_list ap;

        if (o->note == NULL)
                return;
        va_start(ap, fmt);
        vsnprintf(line, sizeof(line), fmt, ap);
        va_end(ap);
        o->note(o->ctx, line);
}

/* Write one chunk (the writing thread, or the receiving thread when none
 * runs). */
static int write_chunk(struct dl *d, const char *p, size_t n, cc_error *err)
{
        TRY_RET(cc_fs_write(d->w, p, n, err));
        d->off += n;
        if (d->off - d->wb_from >= WRITEBACK) {
                cc_fs_start_writeback(d->w, d->wb_from, d->off - d->wb_from);
                d->wb_from = d->off;
        }
        return 0;
}

static void worker(struct dl *d, int k)
{
        cc_sync_lock(d->s);
        for (;;) {
                unsigned i;
                int failed, rc = 0;
                cc_error e = {0};

                while (d->done[k] == d->head && !d->stop)
                        cc_sync_wait(d->s);
                if (d->done[k] == d->head)
                        break;
                i = d->done[k] % NCHUNK;
                failed = d->failed;
                cc_sync_unlock(d->s);
                /* after a failure the rest is not wanted */
                if (!failed && k == W_HASH)
                        cc_sha256_update(&d->sha, d->chunk[i], d->len[i]);
                else if (!failed)
                        rc = write_chunk(d, d->chunk[i], d->len[i], &e);
                cc_sync_lock(d->s);
                if (rc < 0) {
                        d->failed = 1;
                        d->werr = e;
                }
                d->done[k]++;
                cc_sync_wake(d->s);
        }
        cc_sync_unlock(d->s);
}

static void hash_main(void *arg)
{
        worker(arg, W_HASH);
}

static void write_main(void *arg)
{
        worker(arg, W_WRITE);
}

/* The oldest chunk a thread still holds (called locked). */
static unsigned oldest(const struct dl *d)
{
        return d->head - d->done[W_HASH] > d->head - d->done[W_WRITE] ? d->done[W_HASH] : d->done[W_WRITE];
}

static void stop_workers(struct dl *d)
{
        int k;

        cc_sync_lock(d->s);
        d->stop = 1;
        cc_sync_wake(d->s);
        cc_sync_unlock(d->s);
        for (k = 0; k < NWORK; k++) {
                cc_thread_join(d->th[k]);
                d->th[k] = NULL;
        }
        cc_sync_free(d->s);
        d->s = NULL;
}

/* Hand the chunk being filled to the worker (started on the first one) and
 * wait for a free one. -1: the worker failed (its error in err). */
static int submit(struct dl *d, cc_error *err)
{
        int failed;

        if (d->s == NULL) {
                TRY_RET(cc_sync_new(&d->s, err));
                if (cc_thread_start(hash_main, d, &d->th[W_HASH], err) < 0 ||
                    cc_thread_start(write_main, d, &d->th[W_WRITE], err) < 0) {
                        stop_workers(d);
                        return -1;
                }
        }
        cc_sync_lock(d->s);
        d->len[d->head % NCHUNK] = d->fill;
        d->head++;
        d->fill = 0;
        cc_sync_wake(d->s);
        while (d->head - oldest(d) == NCHUNK && !d->failed)
                cc_sync_wait(d->s);
        failed = d->failed;
        if (failed)
                *err = d->werr;
        cc_sync_unlock(d->s);
        return failed ? -1 : 0;
}

/* Every byte taken written and hashed: the last chunk through (keep) or
 * dropped, the worker ended. -1: a write failed (err). */
static int drain(struct dl *d, int keep, cc_error *err)
{
        int rv = 0, failed;

        if (d->s == NULL) {
                if (keep && d->fill > 0) {
                        cc_sha256_update(&d->sha, d->chunk[d->head % NCHUNK], d->fill);
                        rv = write_chunk(d, d->chunk[d->head % NCHUNK], d->fill, err);
                }
                d->fill = 0;
                return rv;
        }
        if (keep && d->fill > 0)
                rv = submit(d, err);
        if (!keep) {
                cc_sync_lock(d->s);
                d->failed = 1; /* what is still queued is dropped */
                cc_sync_unlock(d->s);
        }
        stop_workers(d);
        failed = d->failed;
        if (keep && rv == 0 && failed) {
                *err = d->werr;
                rv = -1;
        }
        d->fill = 0;
        d->head = d->done[W_HASH] = d->done[W_WRITE] = 0;
        d->stop = d->failed = 0;
        return rv;
}

static int dl_start(void *ctx, const cc_http_response *r, cc_error *err)
{
        struct dl *d = ctx;
        uint64_t sz = 0;

        if (d->offset > 0 && !r->partial) {
                /* The server sent the whole file again (no 206): start over.
                 * No body byte came yet, so no thread runs. */
                cc_fs_close_abort(d->w);
                d->w = NULL;
                TRY_RET(cc_fs_unlink(d->part, err));
                TRY_RET(cc_fs_open_append(d->part, 0644, &d->w, &sz, err));
                cc_sha256_init(&d->sha);
                d->have = 0;
                d->off = d->wb_from = 0;
                d->restarted = 1;
                note(d->o, "%s: the server does not resume (HTTP %ld, not 206): starting again", d->f->name, r->status);
        } else if (r->partial) {
                d->resumed_from = d->have;
                note(d->o, "resuming %s at %llu bytes", d->f->name, (unsigned long long)d->have);
        }
        if (d->f->size != 0 && r->length != 0 && d->have + r->length != d->f->size)
                return cc_err(err, CC_ERR_FORMAT,
                              "%s: the server sends %llu bytes from %llu, the index says the file "
                              "has %llu",
                              r->url, (unsigned long long)r->length, (unsigned long long)d->have,
                              (unsigned long long)d->f->size);
        return 0;
}

static int dl_sink(void *ctx, const void *data, size_t n, cc_error *err)
{
        struct dl *d = ctx;
        const char *p = data;

        if (d->f->size != 0 && d->have + n > d->f->size)
                return cc_err(err, CC_ERR_FORMAT, "%s: the server sends more than the %llu bytes the index says",
                              d->f->url, (unsigned long long)d->f->size);
        d->have += n;
        d->received += n;
        while (n > 0) {
                size_t k = CHUNK - d->fill < n ? CHUNK - d->fill : n;

                memcpy(d->chunk[d->head % NCHUNK] + d->fill, p, k);
                d->fill += k;
                p += k;
                n -= k;
                if (d->fill == CHUNK)
                        TRY_RET(submit(d, err));
        }
        if (d->o->progress != NULL) {
                int64_t now = cc_monotonic_us();

                if (now - d->last_us >= 100000 || d->have == d->f->size) {
                        d->last_us = now;
                        d->o->progress(d->o->ctx, d->have, d->f->size);
                }
        }
        return 0;
}

/* Download f into final (through final.part). *resumed_from, *received:
 * what the document says of it; hex: the digest computed. */
static int download(const cc_fetch_opts *o, const cc_fetch_file *f, const char *final, uint64_t *resumed_from,
                    uint64_t *received, char hex[65], cc_error *err)
{
        struct dl d;
        cc_http_opts h;
        char *part = NULL;
        long status = 0;
        int rv = -1, keep_part = 0, i;

        memset(&d, 0, sizeof(d));
        memset(&h, 0, sizeof(h));
        d.o = o;
        d.f = f;
        part = cc_asprintf(err, "%s.part", final);
        if (part == NULL)
                goto fail;
        for (i = 0; i < NCHUNK; i++)
                if ((d.chunk[i] = cc_malloc(err, CHUNK)) == NULL)
                        goto fail;
        d.part = part;
        {
                /* What a broken run left is hashed first, before it is opened
                 * for appending (Windows shares no open file for reading). */
                cc_stat st;
                uint64_t hashed = 0;

                cc_sha256_init(&d.sha);
                TRY(cc_stat_path(part, &st, err));
                if (st.type == CC_FT_FILE && st.size > 0 && (f->size == 0 || st.size <= f->size))
                        TRY(hash_file(part, &d.sha, &hashed, err));
                if (st.type == CC_FT_FILE && f->size != 0 && st.size > f->size) {
                        note(o, "%s: the part file is longer than the file: starting again", f->name);
                        TRY(cc_fs_unlink(part, err));
                }
                TRY(cc_fs_open_append(part, 0644, &d.w, &d.have, err));
                keep_part = 1;
                if (d.have != hashed) {
                        cc_err(err, CC_ERR_IO, "%s: changed while read", part);
                        goto fail;
                }
        }
        d.offset = d.off = d.wb_from = d.have;
        if (f->size == 0 || d.have < f->size) {
                h.offset = d.offset;
                h.connect_timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 30000;
                h.idle_timeout_ms = h.connect_timeout_ms;
                h.max_redirects = -1;
                h.start = dl_start;
                h.sink = dl_sink;
                h.ctx = &d;
                d.last_us = cc_monotonic_us();
                if (cc_http_get(f->url, &h, &status, err) < 0) {
                        cc_error e2 = {0};

                        if (err->code == CC_ERR_FORMAT) {
                                /* the bytes are not the file: nothing of them is worth keeping */
                                (void)drain(&d, 0, &e2);
                                keep_part = 0;
                        } else if (drain(&d, 1, &e2) < 0 || cc_fs_close_synced(d.w, &e2) < 0) {
                                d.w = NULL;
                                keep_part = 0;
                        } else {
                                d.w = NULL;
                                if (d.have > 0) {
                                        char why[sizeof(err->msg)];

                                        snprintf(why, sizeof(why), "%s", err->msg);
                                        cc_err(err, err->code, "%s (%llu bytes kept in %s: run again to resume)", why,
                                               (unsigned long long)d.have, part);
                                } else {
                                        keep_part = 0;
                                }
                        }
                        goto fail;
                }
        }
        TRY(drain(&d, 1, err));
        cc_sha256_final_hex(&d.sha, hex);
        if (f->size != 0 && d.have != f->size) {
                cc_err(err, CC_ERR_TRUNCATED, "%s: %llu bytes came, the index says %llu", f->url,
                       (unsigned long long)d.have, (unsigned long long)f->size);
                keep_part = 0;
                goto fail;
        }
        if (f->sha256[0] != '\0' && strcmp(hex, f->sha256) != 0) {
                cc_err(err, CC_ERR_FORMAT, "%s: SHA-256 %s, the index says %s: the download was removed", f->name, hex,
                       f->sha256);
                keep_part = 0;
                goto fail;
        }
        {
                cc_wfile *w = d.w;

                d.w = NULL;
                TRY(cc_fs_close_synced(w, err));
        }
        TRY(cc_fs_rename(part, final, err));
        keep_part = 1; /* renamed: nothing left to remove */
        (void)write_sidecar(final, hex, err);
        cc_err_clear(err);
        *resumed_from = d.resumed_from;
        *received = d.received;
        rv = 0;
fail:
        if (d.s != NULL) {
                cc_error e4 = {0};

                (void)drain(&d, 0, &e4);
        }
        if (d.w != NULL)
                cc_fs_close_abort(d.w);
        if (rv < 0 && !keep_part && part != NULL) {
                cc_error e3 = {0};

                (void)cc_fs_unlink(part, &e3);
        }
        for (i = 0; i < NCHUNK; i++)
                free(d.chunk[i]);
        free(part);
        return rv;
}

/* ---- choosing ------------------------------------------------------------ */

struct want {
        const cc_fetch_opts *o;
        const char *system, *arch;
};

static int fits(const struct want *w, const cc_fetch_file *f)
{
        if (strcmp(f->system, w->system) != 0 || strcmp(f->arch, w->arch) != 0)
                return 0;
        if (w->o->cuda_major != 0 && f->cuda_major != w->o->cuda_major)
                return 0;
        if (cc_version_matches(w->o->version, f->version) != 1)
                return 0;
        return w->o->fits == NULL || w->o->fits(w->o->ctx, f);
}

/* The best of v[0..n) that fits: the newest release, then the newest CUDA
 * variant; -1 when none does. */
static long best_of(const struct want *w, const cc_fetch_file *v, size_t n)
{
        long best = -1;
        size_t i;

        for (i = 0; i < n; i++) {
                int c;

                if (!fits(w, &v[i]))
                        continue;
                if (best < 0) {
                        best = (long)i;
                        continue;
                }
                c = cc_version_cmp(v[i].version, v[best].version);
                if (c > 0 || (c == 0 && v[i].cuda_major > v[best].cuda_major))
                        best = (long)i;
        }
        return best;
}

static int copy_file(cc_fetch_file *dst, const cc_fetch_file *src, cc_error *err)
{
        *dst = *src;
        dst->version = cc_strdup(err, src->version);
        dst->name = cc_strdup(err, src->name);
        dst->url = cc_strdup(err, src->url);
        dst->sha256 = cc_strdup(err, src->sha256);
        if (dst->version == NULL || dst->name == NULL || dst->url == NULL || dst->sha256 == NULL) {
                free(dst->version);
                free(dst->name);
                free(dst->url);
                free(dst->sha256);
                memset(dst, 0, sizeof(*dst));
                return -1;
        }
        return 0;
}

static int timeout_of(const cc_fetch_opts *o)
{
        return o->timeout_ms > 0 ? o->timeout_ms : 30000;
}

/* The redist directory's releases, newest first: the listing online, the
 * cached manifests offline. */
static int redist_versions(const char *base, const char *dir, int offline, int timeout_ms, cc_strv *out, cc_error *err)
{
        char *text = NULL;
        size_t len = 0, i;
        int rv = -1;

        if (offline) {
                cc_strv names = {0}, found = {0};
                cc_stat st;

                if (cc_stat_path(dir, &st, err) < 0)
                        return -1;
                if (st.type == CC_FT_DIR && cc_list_dir(dir, 0, &names, err) < 0)
                        return -1;
                for (i = 0; i < names.n; i++) {
                        const char *nm = names.v[i];
                        size_t l = strlen(nm);

                        if (cc_starts_with(nm, "redistrib_") && cc_ends_with(nm, ".json") && l > 15 &&
                            cc_strv_pushn(&found, nm + 10, l - 15, err) < 0) {
                                cc_strv_free(&names);
                                cc_strv_free(&found);
                                return -1;
                        }
                }
                cc_strv_free(&names);
                for (i = 0; i < found.n; i++) {
                        size_t j;

                        for (j = i + 1; j < found.n; j++)
                                if (cc_version_cmp(found.v[j], found.v[i]) > 0) {
                                        char *t = found.v[i];

                                        found.v[i] = found.v[j];
                                        found.v[j] = t;
                                }
                        if (cc_strv_push(out, found.v[i], err) < 0) {
                                cc_strv_free(&found);
                                return -1;
                        }
                }
                cc_strv_free(&found);
                return 0;
        }
        TRY(cc_http_get_small(base, "text/html", timeout_ms, MAX_PAGE, &text, &len, NULL, err));
        if (cc_index_redist_listing(text, len, out, err) < 0) {
                cc_err_prefix(err, "%s", base);
                goto fail;
        }
        rv = 0;
fail:
        free(text);
        return rv;
}

/* The manifest of release v: from the cache, else downloaded (and then
 * kept); its cudnn files. *mpath: where it is cached (caller frees). */
static int redist_manifest(const char *base, const char *dir, const char *v, int offline, int timeout_ms,
                           cc_fetch_file **files, size_t *n, char **mpath, cc_error *err)
{
        char *name = NULL, *path = NULL, *url = NULL, *text = NULL, *tmp = NULL;
        size_t len = 0;
        cc_stat st;
        int rv = -1, cached = 0;

        *mpath = NULL;
        name = cc_asprintf(err, "redistrib_%s.json", v);
        if (name == NULL || (path = cc_path_join(dir, name, err)) == NULL ||
            (url = cc_asprintf(err, "%s%s", base, name)) == NULL)
                goto fail;
        TRY(cc_stat_path(path, &st, err));
        if (st.type == CC_FT_FILE) {
                TRY(cc_read_file(path, MAX_PAGE, &text, &len, err));
                cached = 1;
        } else if (offline) {
                cc_err(err, CC_ERR_NOTFOUND, "%s is not in the cache %s (--offline)", name, dir);
                goto fail;
        } else {
                TRY(cc_http_get_small(url, "application/json", timeout_ms, MAX_PAGE, &text, &len, NULL, err));
        }
        if (cc_index_redist_files(text, len, base, files, n, err) < 0) {
                cc_err_prefix(err, "%s", cached ? path : url);
                goto fail;
        }
        if (!cached) {
                /* kept only once it parsed: a bad page is never cached */
                tmp = cc_asprintf(err, "%s.tmp", path);
                if (tmp == NULL || make_dirs(dir, err) < 0 || cc_write_file(tmp, text, len, 0, err) < 0 ||
                    cc_fs_rename(tmp, path, err) < 0)
                        goto fail;
        }
        *mpath = path;
        path = NULL;
        rv = 0;
fail:
        free(name);
        free(path);
        free(url);
        free(text);
        free(tmp);
        return rv;
}

static int choose_redist(const cc_fetch_opts *o, const struct want *w, const char *base, const char *dir,
                         cc_fetch_file *pick, char **mpath, cc_strv *tried, cc_error *err)
{
        cc_strv vs = {0};
        cudnnctl_ver rq;
        size_t i, tries = 0;
        int rv = -1;

        (void)cudnnctl_ver_parse(o->version, &rq);
        if (rq.n >= 3) {
                TRY(cc_strv_pushf(&vs, 0, err, "%ld.%ld.%ld", rq.part[0], rq.part[1], rq.part[2]));
        } else {
                TRY(redist_versions(base, dir, o->offline, timeout_of(o), &vs, err));
        }
        for (i = 0; i < vs.n && tries < MAX_TRIES; i++) {
                cc_fetch_file *files = NULL;
                size_t n = 0;
                long b;

                if (cc_version_matches(o->version, vs.v[i]) != 1 && rq.n < 4)
                        continue;
                tries++;
                TRY(cc_strv_push(tried, vs.v[i], err));
                if (redist_manifest(base, dir, vs.v[i], o->offline, timeout_of(o), &files, &n, mpath, err) < 0) {
                        /* a listed release whose manifest is missing: a partial version tries the next */
                        if (rq.n < 3 && err->code == CC_ERR_NOTFOUND)
                                continue;
                        goto fail;
                }
                b = best_of(w, files, n);
                if (b >= 0) {
                        int r = copy_file(pick, &files[b], err);

                        cc_fetch_file_free(files, n);
                        TRY(r);
                        rv = 0;
                        goto fail;
                }
                cc_fetch_file_free(files, n);
                free(*mpath);
                *mpath = NULL;
        }
        rv = 1; /* nothing matched */
fail:
        cc_strv_free(&vs);
        return rv;
}

static const int PYPI_MAJORS[] = {13, 12, 11};

/* The wheels of one nvidia-cudnn-cuNN page (online), or of the cache
 * (offline: every cached wheel with its sidecar). */
static int pypi_files(const char *base, int major, int timeout_ms, cc_fetch_file **files, size_t *n, cc_error *err)
{
        char *url = NULL, *text = NULL, *ctype = NULL;
        size_t len = 0;
        int rv = -1, json;

        url = cc_asprintf(err, "%snvidia-cudnn-cu%d/", base, major);
        if (url == NULL)
                return -1;
        TRY(cc_http_get_small(url,
                              "application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, "
                              "text/html;q=0.01",
                              timeout_ms, MAX_PAGE, &text, &len, &ctype, err));
        json = strstr(ctype, "json") != NULL || (len > 0 && text[strspn(text, " \t\r\n")] == '{');
        if (cc_index_pypi_page(text, len, json, url, files, n, err) < 0) {
                cc_err_prefix(err, "%s", url);
                goto fail;
        }
        rv = 0;
fail:
        free(url);
        free(text);
        free(ctype);
        return rv;
}

static int pypi_cached(const char *dir, cc_fetch_file **files, size_t *n, cc_error *err)
{
        cc_strv names = {0};
        cc_fetch_file *v = NULL;
        size_t i, k = 0;
        cc_stat st;
        int rv = -1;

        *files = NULL;
        *n = 0;
        TRY(cc_stat_path(dir, &st, err));
        if (st.type != CC_FT_DIR)
                return 0;
        TRY(cc_list_dir(dir, 0, &names, err));
        v = cc_calloc(err, names.n + 1, sizeof(*v));
        if (v == NULL)
                goto fail;
        for (i = 0; i < names.n; i++) {
                cc_fetch_file *e = &v[k];
                char ver[64], *path = NULL, *side = NULL, hex[65];

                if (cc_wheel_name(names.v[i], ver, sizeof(ver), &e->cuda_major, e->system, e->arch) < 0)
                        continue;
                path = cc_path_join(dir, names.v[i], err);
                side = path ? cc_asprintf(err, "%s.sha256", path) : NULL;
                if (side == NULL || cc_stat_path(path, &st, err) < 0) {
                        free(path);
                        free(side);
                        goto fail;
                }
                read_sidecar(side, hex);
                free(side);
                if (st.type != CC_FT_FILE || hex[0] == '\0') {
                        free(path);
                        continue;
                }
                e->version = cc_strdup(err, ver);
                e->name = cc_strdup(err, names.v[i]);
                e->url = cc_asprintf(err, "file:%s", path);
                e->sha256 = cc_strdup(err, hex);
                e->size = st.size;
                free(path);
                k++;
                if (e->version == NULL || e->name == NULL || e->url == NULL || e->sha256 == NULL)
                        goto fail;
        }
        *files = v;
        *n = k;
        v = NULL;
        rv = 0;
fail:
        cc_fetch_file_free(v, k);
        cc_strv_free(&names);
        return rv;
}

static int choose_pypi(const cc_fetch_opts *o, const struct want *w, const char *base, const char *dir,
                       cc_fetch_file *pick, cc_strv *tried, cc_error *err)
{
        cc_fetch_file *all = NULL;
        size_t nall = 0, i;
        int rv = -1;

        if (o->offline) {
                TRY(pypi_cached(dir, &all, &nall, err));
        } else {
                for (i = 0; i < CC_ARRAY_LEN(PYPI_MAJORS); i++) {
                        cc_fetch_file *files = NULL, *nv;
                        size_t n = 0;

                        if (o->cuda_major != 0 && o->cuda_major != PYPI_MAJORS[i])
                                continue;
                        TRY(cc_strv_pushf(tried, 0, err, "nvidia-cudnn-cu%d", PYPI_MAJORS[i]));
                        if (pypi_files(base, PYPI_MAJORS[i], timeout_of(o), &files, &n, err) < 0) {
                                /* a CUDA major without a project (yet): the next, unless asked for */
                                if (err->code == CC_ERR_NOTFOUND && o->cuda_major == 0)
                                        continue;
                                goto fail;
                        }
                        nv = n ? cc_realloc(err, all, (nall + n) * sizeof(*all)) : all;
                        if (n && nv == NULL) {
                                cc_fetch_file_free(files, n);
                                goto fail;
                        }
                        all = nv;
                        if (n)
                                memcpy(all + nall, files, n * sizeof(*files));
                        nall += n;
                        free(files);
                }
                if (o->cuda_major != 0 && tried->n == 0) {
                        cc_err(err, CC_ERR_NOTFOUND, "PyPI has cuDNN wheels for CUDA 11, 12 and 13 only, not %d",
                               o->cuda_major);
                        goto fail;
                }
        }
        {
                long b = best_of(w, all, nall);

                if (b < 0) {
                        rv = 1;
                        goto fail;
                }
                TRY(copy_file(pick, &all[b], err));
        }
        rv = 0;
fail:
        cc_fetch_file_free(all, nall);
        return rv;
}

/* ---- the whole ------------------------------------------------------------ */

int cc_fetch_run(const cc_fetch_opts *o, cc_value **out, cc_error *err)
{
        struct want w;
        cc_fetch_file pick;
        cc_strv tried = {0};
        char *cache = NULL, *base = NULL, *dir = NULL, *final = NULL, *mpath = NULL, hex[65] = "";
        const char *src = o->source == CC_FETCH_PYPI ? "pypi" : "redist";
        cc_value *doc = NULL;
        cudnnctl_ver rq;
        uint64_t resumed = 0, received = 0;
        int rv = -1, r, hit = 0, rehashed = 0;

        *out = NULL;
        memset(&pick, 0, sizeof(pick));
        if (o->version == NULL || cudnnctl_ver_parse(o->version, &rq) < 0)
                return cc_err(err, CC_ERR_USAGE, "'%s' is not a release (9, 9.19, 9.19.0.56)",
                              o->version ? o->version : "");
        w.o = o;
        w.system = o->system ? o->system : cc_host_is_windows() ? "windows" : "linux";
        w.arch = o->arch ? o->arch : host_arch();
        if (strcmp(w.system, "windows") == 0 && strcmp(w.arch, "x86_64") != 0)
                return cc_err(err, CC_ERR_USAGE, "cuDNN for Windows is built for x86_64 only, not %s", w.arch);
        if (!o->offline && !cc_http_available())
                return cc_err(err, CC_ERR_UNSUPPORTED,
                              "this cudnnctl was built without HTTP support (libcurl): use --offline with a cache, or "
                              "download the file and run 'cudnnctl install FILE'");
        cache = o->cache ? cc_strdup(err, o->cache) : cc_fetch_default_cache(err);
        base = with_slash(o->index                     ? o->index
                          : o->source == CC_FETCH_PYPI ? CC_FETCH_PYPI_URL
                                                       : CC_FETCH_REDIST_URL,
                          err);
        if (cache == NULL || base == NULL || (dir = cc_path_join(cache, src, err)) == NULL)
                goto fail;
        if (!cc_starts_with(base, "http://") && !cc_starts_with(base, "https://")) {
                cc_err(err, CC_ERR_USAGE, "--index %s: not an http:// or https:// URL", base);
                goto fail;
        }
        r = o->source == CC_FETCH_PYPI ? choose_pypi(o, &w, base, dir, &pick, &tried, err)
                                       : choose_redist(o, &w, base, dir, &pick, &mpath, &tried, err);
        if (r < 0)
                goto fail;
        if (r > 0) {
                char cu[32] = "";

                if (o->cuda_major)
                        snprintf(cu, sizeof(cu), ", CUDA %d", o->cuda_major);
                cc_err(err, CC_ERR_NOTFOUND, "no cuDNN %s for %s-%s%s in %s%s%s", o->version, w.system, w.arch, cu,
                       o->offline ? dir : base, o->offline ? " (--offline: the cache only)" : "",
                       tried.n || o->offline ? "" : " (no release of that version is listed)");
                goto fail;
        }
        final = cc_path_join(dir, pick.name, err);
        if (final == NULL)
                goto fail;
        TRY(r = cache_hit(final, &pick, &rehashed, hex, err));
        hit = r;
        if (!hit && o->offline) {
                cc_err(err, CC_ERR_NOTFOUND, "%s is not in the cache %s (--offline)", pick.name, dir);
                goto fail;
        }
        if (!hit && !o->dry_run) {
                TRY(make_dirs(dir, err));
                TRY(download(o, &pick, final, &resumed, &received, hex, err));
        }
        doc = cc_v_object(err);
        if (doc == NULL || cc_v_set_int(doc, "schema_version", CUDNNCTL_JSON_SCHEMA_VERSION, err) < 0 ||
            cc_v_set_str(doc, "tool", "cudnnctl", err) < 0 ||
            cc_v_set_str(doc, "tool_version", cudnnctl_version(), err) < 0 ||
            cc_v_set_str(doc, "command", "fetch", err) < 0 || cc_v_set_str(doc, "source", src, err) < 0 ||
            cc_v_set_str(doc, "index", base, err) < 0 || cc_v_set_str(doc, "requested", o->version, err) < 0 ||
            cc_v_set_str(doc, "version", pick.version, err) < 0 ||
            (pick.cuda_major ? cc_v_set_int(doc, "cuda_major", pick.cuda_major, err)
                             : cc_v_set_null(doc, "cuda_major", err)) < 0 ||
            cc_v_set_str(doc, "system", pick.system, err) < 0 || cc_v_set_str(doc, "arch", pick.arch, err) < 0 ||
            cc_v_set_str(doc, "file", pick.name, err) < 0 ||
            cc_v_set_str(doc, "url", cc_starts_with(pick.url, "file:") ? NULL : pick.url, err) < 0 ||
            (pick.size ? cc_v_set_int(doc, "size", (int64_t)pick.size, err) : cc_v_set_null(doc, "size", err)) < 0 ||
            cc_v_set_str(doc, "sha256", pick.sha256[0] ? pick.sha256 : NULL, err) < 0 ||
            cc_v_set_str(doc, "manifest", mpath, err) < 0 || cc_v_set_str(doc, "path", final, err) < 0 ||
            cc_v_set_str(doc, "status",
                         hit          ? "cached"
                         : o->dry_run ? "would-download"
                                      : "downloaded",
                         err) < 0 ||
            cc_v_set_bool(doc, "rehashed", rehashed, err) < 0 ||
            cc_v_set_int(doc, "downloaded_bytes", (int64_t)received, err) < 0 ||
            cc_v_set_int(doc, "resumed_from", (int64_t)resumed, err) < 0 ||
            cc_v_set_str(doc, "sha256_computed", hex[0] ? hex : NULL, err) < 0)
                goto fail;
        *out = doc;
        doc = NULL;
        rv = 0;
fail:
        cc_v_free(doc);
        free(pick.version);
        free(pick.name);
        free(pick.url);
        free(pick.sha256);
        cc_strv_free(&tried);
        free(cache);
        free(base);
        free(dir);
        free(final);
        free(mpath);
        return rv;
}

int cc_fetch_index_versions(int source, const char *index, int cuda_major, int timeout_ms, cc_strv *out, cc_error *err)
{
        char *base = with_slash(index ? index : source == CC_FETCH_PYPI ? CC_FETCH_PYPI_URL : CC_FETCH_REDIST_URL, err);
        cc_strv found = {0};
        size_t i, k;
        int rv = -1;

        if (base == NULL)
                return -1;
        if (source != CC_FETCH_PYPI) {
                rv = redist_versions(base, NULL, 0, timeout_ms, out, err);
                free(base);
                return rv;
        }
        for (k = 0; k < CC_ARRAY_LEN(PYPI_MAJORS); k++) {
                cc_fetch_file *files = NULL;
                size_t n = 0;

                if (cuda_major != 0 && cuda_major != PYPI_MAJORS[k])
                        continue;
                if (pypi_files(base, PYPI_MAJORS[k], timeout_ms, &files, &n, err) < 0) {
                        if (err->code == CC_ERR_NOTFOUND && cuda_major == 0)
                                continue;
                        goto fail;
                }
                for (i = 0; i < n; i++)
                        if (!cc_strv_contains(&found, files[i].version) &&
                            cc_strv_push(&found, files[i].version, err) < 0) {
                                cc_fetch_file_free(files, n);
                                goto fail;
                        }
                cc_fetch_file_free(files, n);
        }
        for (i = 0; i < found.n; i++) {
                for (k = i + 1; k < found.n; k++)
                        if (cc_version_cmp(found.v[k], found.v[i]) > 0) {
                                char *t = found.v[i];

                                found.v[i] = found.v[k];
                                found.v[k] = t;
                        }
                TRY(cc_strv_push(out, found.v[i], err));
        }
        rv = 0;
fail:
        cc_strv_free(&found);
        free(base);
        return rv;
}
