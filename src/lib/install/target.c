/* The target of an install, read (target.h). */
#include "target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../facts/views.h"
#include "../formats/cheader.h"
#include "../formats/json.h"
#include "../formats/names.h"
#include "../formats/sha256.h"
#include "../platform/platform.h"

#define MAX_ENTRIES 20000        /* names read from one layout directory */
#define MAX_MANIFEST (16u << 20) /* bytes of one manifest */
#define MAX_HEADER (4u << 20)

static const char *const LAYOUT_DIRS[] = {
    "include", "lib", "lib64", "bin", "bin/x64", "lib/x64", CC_TXN_STATE "/" CC_TXN_MANIFESTS};

static int push_entry(cc_target_scan *s, size_t *cap, const char *rel, const cc_stat *st, const char *host,
                      cc_error *err)
{
        cc_tgt_entry *e;

        if (s->n == *cap) {
                size_t ncap = *cap ? *cap * 2 : 64;
                cc_tgt_entry *g = cc_realloc(err, s->e, ncap * sizeof(*g));

                if (g == NULL)
                        return -1;
                s->e = g;
                *cap = ncap;
        }
        e = &s->e[s->n];
        memset(e, 0, sizeof(*e));
        e->type = st->type;
        e->mode = st->mode < 0 ? 0 : (unsigned)st->mode;
        e->size = st->size;
        e->cudnn_major = -1;
        e->path = cc_strdup(err, rel);
        if (e->path == NULL)
                return -1;
        if (st->type == CC_FT_LINK) {
                cc_error ignored = {0};

                e->link = cc_readlink(host, &ignored); /* NULL when unreadable: kept as a link */
        }
        s->n++;
        return 0;
}

/* The cuDNN major of a header release in include/ (cudnn_version.h, else
 * cudnn.h), -1 unknown. */
static int header_major(const char *dir)
{
        static const char *const names[] = {"include/cudnn_version.h", "include/cudnn.h"};
        size_t i;

        for (i = 0; i < CC_ARRAY_LEN(names); i++) {
                char *p, *text = NULL;
                size_t len = 0;
                cc_header *h = NULL;
                cc_error ignored = {0};
                int64_t v = -1;

                p = cc_asprintf(&ignored, "%s/%s", dir, names[i]);
                if (p != NULL && cc_read_file(p, MAX_HEADER, &text, &len, &ignored) == 0 &&
                    cc_header_parse(text, len, &h, &ignored) == 0) {
                        const cc_header *hs[1] = {h};

                        if (cc_header_eval(hs, 1, "CUDNN_MAJOR", &v, &ignored) < 0)
                                v = -1;
                }
                cc_header_free(h);
                free(text);
                free(p);
                if (v >= 1 && v <= 99)
                        return (int)v;
        }
        return -1;
}

/* The cuDNN major a file's name (or, for an unversioned link, its
 * target's name) says, -1 none. */
static int name_major(const cc_tgt_entry *e, int hdr_major)
{
        cc_libname ln;

        if (cc_name_library(cc_basename(e->path), &ln) < 0)
                return -1;
        if (ln.kind == CC_FK_HEADER)
                return ln.major >= 0 ? ln.major : hdr_major;
        if (ln.major >= 0)
                return ln.major;
        if (e->link != NULL && cc_name_library(cc_basename(e->link), &ln) == 0 && ln.major >= 0)
                return ln.major;
        return -1;
}

/* The toolkit's CUDA version: version.json's "cuda" entry, else
 * include/cuda.h's CUDA_VERSION. */
static void toolkit_version(const char *dir, cc_target_scan *s)
{
        cc_error ignored = {0};
        char *p = cc_asprintf(&ignored, "%s/version.json", dir), *text = NULL;
        size_t len = 0;
        cc_value *doc = NULL;
        cudnnctl_ver v;

        if (p != NULL && cc_read_file(p, MAX_HEADER, &text, &len, &ignored) == 0 &&
            cc_json_parse(text, len, 16, &doc, &ignored) == 0) {
                cc_vw_cuda_version_json vj;
                cc_vw_cuda_version_part ce;

                cc_vw_cuda_version_json_read(doc, &vj, NULL);
                cc_vw_cuda_version_part_read(vj.cuda, &ce, NULL);
                if (ce.version != NULL && cudnnctl_ver_parse(ce.version, &v) == 0 && v.n >= 2) {
                        s->cuda_major = (int)v.part[0];
                        snprintf(s->cuda_version, sizeof(s->cuda_version), "%s", ce.version);
                }
        }
        cc_v_free(doc);
        free(text);
        free(p);
        if (s->cuda_major >= 0)
                return;
        p = cc_asprintf(&ignored, "%s/include/cuda.h", dir);
        text = NULL;
        if (p != NULL && cc_read_file(p, MAX_HEADER, &text, &len, &ignored) == 0) {
                cc_header *h = NULL;
                int64_t cv;

                if (cc_header_parse(text, len, &h, &ignored) == 0) {
                        const cc_header *hs[1] = {h};

                        if (cc_header_eval(hs, 1, "CUDA_VERSION", &cv, &ignored) == 0 &&
                            cudnnctl_cuda_decode((long)cv, &v) == 0) {
                                s->cuda_major = (int)v.part[0];
                                cudnnctl_ver_str(&v, s->cuda_version, sizeof(s->cuda_version));
                        }
                }
                cc_header_free(h);
        }
        free(text);
        free(p);
}

int cc_file_sha256(const char *path, char hex[65], cc_error *err)
{
        cc_map m;
        cc_sha256 h;
        int rc;

        TRY_RET(cc_map_file(path, (size_t)-1, &m, err));
        cc_sha256_init(&h);
        cc_sha256_update(&h, m.data, m.size);
        rc = cc_map_check(&m, path, err);
        cc_unmap(&m);
        if (rc == 0)
                cc_sha256_final_hex(&h, hex);
        return rc;
}

static cc_tgt_entry *find(cc_target_scan *s, const char *rel)
{
        size_t i;

        for (i = 0; i < s->n; i++)
                if (strcmp(s->e[i].path, rel) == 0)
                        return &s->e[i];
        return NULL;
}

/* Mark the files each manifest placed, and whether they changed since:
 * size and mtime as recorded say "unchanged" without reading; else the
 * digest decides. */
static int read_manifests(const char *dir, cc_target_scan *s, cc_error *err)
{
        size_t i, n0 = s->n;

        for (i = 0; i < n0; i++) {
                cc_tgt_entry *me = &s->e[i];
                char *p, *text = NULL;
                size_t len = 0, k;
                cc_value *doc = NULL;
                cc_vw_manifest mv;
                cc_vw_report rep = {0};
                cc_error e2 = {0};

                if (me->type != CC_FT_FILE || !cc_starts_with(me->path, CC_TXN_STATE "/" CC_TXN_MANIFESTS "/") ||
                    !cc_ends_with(me->path, ".json"))
                        continue;
                p = cc_asprintf(err, "%s/%s", dir, me->path);
                if (p == NULL)
                        return -1;
                if (cc_read_file(p, MAX_MANIFEST, &text, &len, &e2) < 0 ||
                    cc_json_parse(text, len, 16, &doc, &e2) < 0 || cc_vw_manifest_read(doc, &mv, &rep) < 0 ||
                    rep.count > 0 || mv.id == NULL) {
                        if (cc_strv_pushf(&s->notes, 0, err,
                                          "%s: not a readable manifest (%s); its files are not known as installed", p,
                                          e2.code     ? e2.msg
                                          : rep.count ? rep.problems.v[0]
                                                      : "no id") < 0) {
                                free(p);
                                free(text);
                                cc_v_free(doc);
                                cc_vw_report_free(&rep);
                                return -1;
                        }
                        free(p);
                        free(text);
                        cc_v_free(doc);
                        cc_vw_report_free(&rep);
                        continue;
                }
                cc_vw_report_free(&rep);
                me->owner = cc_strdup(err, mv.id);
                me->cudnn_major = (int)mv.major;
                for (k = 0; me->owner != NULL && k < cc_v_len(mv.files); k++) {
                        cc_vw_manifest_file f;
                        cc_tgt_entry *e;

                        cc_vw_manifest_file_at(mv.files, k, &f, NULL);
                        if (f.path == NULL || (e = find(s, f.path)) == NULL)
                                continue;
                        free(e->owner);
                        e->owner = cc_strdup(err, mv.id);
                        if (e->owner == NULL)
                                break;
                        if (f.link != NULL) {
                                e->changed = e->type != CC_FT_LINK || e->link == NULL || strcmp(e->link, f.link) != 0;
                        } else if (e->type != CC_FT_FILE || e->size != (uint64_t)f.size) {
                                e->changed = 1;
                        } else if (f.sha256 != NULL) {
                                char hex[65], *fp = cc_asprintf(err, "%s/%s", dir, e->path);
                                cc_stat st;
                                cc_error e3 = {0};

                                if (fp == NULL)
                                        break;
                                if (cc_lstat_path(fp, &st, &e3) == 0 && st.mtime == f.mtime)
                                        e->changed = 0;
                                else
                                        e->changed = cc_file_sha256(fp, hex, &e3) < 0 || strcmp(hex, f.sha256) != 0;
                                free(fp);
                        }
                }
                free(p);
                free(text);
                if (me->owner == NULL || cc_v_push(s->manifests, doc, err) < 0) /* the push owns doc */
                        return -1;
        }
        return 0;
}

int cc_target_scan_dir(const char *dir, int system, cc_target_scan *out, cc_error *err)
{
        size_t cap = 0, i, k;
        int hdr_major;
        cc_stat st;

        memset(out, 0, sizeof(*out));
        out->cuda_major = -1;
        out->free_bytes = UINT64_MAX;
        TRY_RET(cc_lstat_path(dir, &st, err));
        if (st.type != CC_FT_DIR)
                return cc_err(err, CC_ERR_USAGE, "%s: %s", dir,
                              st.type == CC_FT_NONE   ? "no such directory"
                              : st.type == CC_FT_LINK ? "a symbolic link (give the directory it points to)"
                                                      : "not a directory");
        out->manifests = cc_v_array(err);
        if (out->manifests == NULL)
                return -1;
        out->world_writable = system == CC_SYS_LINUX && st.mode >= 0 && (st.mode & 0002) && !(st.mode & 01000);
        out->writable = cc_fs_writable(dir);
        {
                cc_error ignored = {0};
                uint64_t fb;

                if (cc_fs_free_bytes(dir, &fb, &ignored) == 0)
                        out->free_bytes = fb;
        }
        for (i = 0; i < CC_ARRAY_LEN(LAYOUT_DIRS); i++) {
                char *d = cc_asprintf(err, "%s/%s", dir, LAYOUT_DIRS[i]);
                cc_strv names = {0};
                cc_stat ds;

                if (d == NULL)
                        goto fail;
                if (cc_lstat_path(d, &ds, err) < 0) {
                        free(d);
                        goto fail;
                }
                if (ds.type != CC_FT_NONE && push_entry(out, &cap, LAYOUT_DIRS[i], &ds, d, err) < 0) {
                        free(d);
                        goto fail;
                }
                if (ds.type != CC_FT_DIR) {
                        free(d);
                        continue;
                }
                if (cc_list_dir(d, MAX_ENTRIES, &names, err) < 0) {
                        free(d);
                        goto fail;
                }
                for (k = 0; k < names.n; k++) {
                        char *rel = cc_asprintf(err, "%s/%s", LAYOUT_DIRS[i], names.v[k]);
                        char *host = rel ? cc_asprintf(err, "%s/%s", dir, rel) : NULL;
                        cc_stat fs;
                        int rc = host == NULL ? -1 : cc_lstat_path(host, &fs, err);

                        /* directories below are other layout dirs or not ours */
                        if (rc == 0 && fs.type != CC_FT_DIR)
                                rc = push_entry(out, &cap, rel, &fs, host, err);
                        else if (rc == 0 && strcmp(rel, "lib/x64") != 0)
                                rc = push_entry(out, &cap, rel, &fs, host, err);
                        free(rel);
                        free(host);
                        if (rc < 0) {
                                cc_strv_free(&names);
                                free(d);
                                goto fail;
                        }
                }
                cc_strv_free(&names);
                free(d);
        }
        hdr_major = header_major(dir);
        for (i = 0; i < out->n; i++)
                if (out->e[i].type == CC_FT_FILE || out->e[i].type == CC_FT_LINK)
                        out->e[i].cudnn_major =
                            cc_starts_with(out->e[i].path, CC_TXN_STATE "/") ? -1 : name_major(&out->e[i], hdr_major);
        {
                static const char *const marks[] = {"version.json", "bin/nvcc", "bin/nvcc.exe", "include/cuda.h"};

                for (i = 0; i < CC_ARRAY_LEN(marks) && !out->toolkit; i++) {
                        char *p = cc_asprintf(err, "%s/%s", dir, marks[i]);
                        cc_stat ms;

                        if (p == NULL)
                                goto fail;
                        if (cc_lstat_path(p, &ms, err) < 0) {
                                free(p);
                                goto fail;
                        }
                        out->toolkit = ms.type != CC_FT_NONE;
                        free(p);
                }
        }
        if (out->toolkit)
                toolkit_version(dir, out);
        out->lib_dir = find(out, "lib64") != NULL && find(out, "lib64")->type == CC_FT_DIR ? "lib64" : "lib";
        TRY(read_manifests(dir, out, err));
        return 0;
fail:
        cc_target_scan_free(out);
        return -1;
}

void cc_target_scan_free(cc_target_scan *s)
{
        size_t i;

        for (i = 0; i < s->n; i++) {
                free(s->e[i].path);
                free(s->e[i].link);
                free(s->e[i].owner);
        }
        free(s->e);
        cc_v_free(s->manifests);
        cc_strv_free(&s->notes);
        memset(s, 0, sizeof(*s));
}

const cc_value *cc_target_manifest(const cc_target_scan *s, const char *id)
{
        size_t i;

        for (i = 0; i < cc_v_len(s->manifests); i++) {
                cc_vw_manifest mv;

                if (cc_vw_manifest_at(s->manifests, i, &mv, NULL) == 0 && mv.id != NULL && strcmp(mv.id, id) == 0)
                        return cc_v_at(s->manifests, i);
        }
        return NULL;
}
