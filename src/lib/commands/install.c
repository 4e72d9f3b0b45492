/* cudnnctl_install: a cuDNN release into a target, in one transaction
 * (docs/json.md "install"; docs/architecture.md "Writing to the machine").
 *
 * recover the target -> read the source -> read the target -> plan and
 * check -> (dry run: stop here) -> begin (journal) -> stage every file,
 * streamed from the source, hashed -> stage the manifest -> apply ->
 * commit -> log, ldconfig, verify. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../facts/views.h"
#include "../formats/json.h"
#include "../formats/names.h"
#include "../formats/sha256.h"
#include "../install/checksum.h"
#include "../install/pairing.h"
#include "../install/plan.h"
#include "../install/source.h"
#include "../install/target.h"
#include "../kb/kb.h"
#include "../machine/ldso.h"
#include "../machine/machine.h"
#include "../platform/platform.h"
#include "../txn/txn.h"
#include "change.h"

#define PROGRESS_STEP (1u << 20)

/* ---- the target ----------------------------------------------------------- */

/* The managed side-by-side store for a release, as a virtual path. */
static char *store_path(cc_machine *m, const cc_source *src, cc_error *err)
{
        const char *ver = src->version ? src->version : "unknown";

        if (m->system == CC_SYS_WINDOWS) {
                const char *pf = cc_machine_getenv(m, "ProgramFiles");
                cudnnctl_ver v;

                if (src->version == NULL || cudnnctl_ver_parse(src->version, &v) < 0 || v.n < 2)
                        return cc_err(err, CC_ERR_USAGE, "%s: the release's version is unknown: give --into DIR",
                                      src->path),
                               NULL;
                return cc_asprintf(err, "%s\\NVIDIA\\CUDNN\\v%ld.%ld", pf && *pf ? pf : "C:\\Program Files", v.part[0],
                                   v.part[1]);
        }
        if (src->cuda_major < 0 || src->version == NULL)
                return cc_err(err, CC_ERR_USAGE, "%s: the release's version or CUDA major is unknown: give --into DIR",
                              src->path),
                       NULL;
        if (m->live ? cc_is_admin() : 1)
                return cc_asprintf(err, "/opt/cudnn/%s-cuda%d", ver, src->cuda_major);
        {
                const char *home = cc_machine_getenv(m, "HOME");

                if (home == NULL || home[0] != '/')
                        return cc_err(err, CC_ERR_USAGE, "HOME is not set: give --into DIR"), NULL;
                return cc_asprintf(err, "%s/.local/share/cudnnctl/cudnn/%s-cuda%d", home, ver, src->cuda_major);
        }
}

/* The machine's toolkit of CUDA version want ("13.0", or "13"), as a
 * virtual path: the usual places, and the CUDA_PATH variables. */
static char *find_toolkit(cc_machine *m, const char *want, cc_error *err)
{
        static const char *const lin[] = {"/usr/local/cuda-*", "/usr/local/cuda", "/opt/cuda-*", "/opt/cuda"};
        static const char *const win[] = {"C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v*"};
        int w = m->system == CC_SYS_WINDOWS;
        cc_strv cand = {0};
        char *found = NULL;
        size_t i, wl = strlen(want);

        for (i = 0; i < m->env.kv.n; i++)
                if (cc_starts_with(m->env.kv.v[i], "CUDA_PATH")) {
                        const char *eq = strchr(m->env.kv.v[i], '=');

                        if (eq != NULL && cc_tree_is_abs(m->tree, eq + 1) && cc_strv_push(&cand, eq + 1, err) < 0)
                                goto out;
                }
        for (i = 0; i < (w ? CC_ARRAY_LEN(win) : CC_ARRAY_LEN(lin)); i++) {
                cc_error ge = {0};

                if (cc_tree_glob(m->tree, w ? win[i] : lin[i], 64, &cand, &ge) < 0 && ge.code == CC_ERR_NOMEM) {
                        *err = ge;
                        goto out;
                }
        }
        for (i = 0; i < cand.n && found == NULL; i++) {
                char *canon = cc_tree_canonical(m->tree, cand.v[i], NULL), *host;
                cc_target_scan sc;
                cc_error e2 = {0};

                if (canon == NULL)
                        continue;
                host = cc_tree_host(m->tree, canon, &e2);
                if (host != NULL && cc_target_scan_dir(host, m->system, &sc, &e2) == 0) {
                        if (sc.toolkit && sc.cuda_version[0] && strncmp(sc.cuda_version, want, wl) == 0 &&
                            (sc.cuda_version[wl] == '\0' || sc.cuda_version[wl] == '.'))
                                found = canon, canon = NULL;
                        cc_target_scan_free(&sc);
                }
                free(host);
                free(canon);
        }
        if (found == NULL)
                cc_err(err, CC_ERR_NOTFOUND, "no CUDA %s toolkit found on this machine (give --into DIR)", want);
out:
        cc_strv_free(&cand);
        return found;
}

/* ---- the CUDA build of a source with several ------------------------------ */

/* A CUDA version directory name: "12.9", "13.0", "12.x". */
static int cuda_dir_name(const char *c)
{
        size_t n = strspn(c, "0123456789");

        return n > 0 && c[0] != '0' && c[n] == '.' &&
               (strcmp(c + n + 1, "x") == 0 || (c[n + 1] && strspn(c + n + 1, "0123456789") == strlen(c + n + 1)));
}

/* The target's CUDA version as far as it tells it, into buf: its
 * version.json or cuda.h ("13.0.48"), else the name of the CUDA runtime DLL
 * in its bin ("cudart64_102.dll": "10.2"; "cudart64_110.dll", which every CUDA 11
 * has: "11"; "cudart64_12.dll": "12"); *from
 * says which. "" when it tells none. */
static void target_cuda(const cc_target_scan *sc, char *buf, size_t n, const char **from)
{
        size_t i;

        buf[0] = '\0';
        *from = NULL;
        if (sc->cuda_version[0]) {
                snprintf(buf, n, "%s", sc->cuda_version);
                *from = "its version.json or include/cuda.h";
                return;
        }
        for (i = 0; i < sc->n; i++) {
                const char *b = sc->e[i].path, *d;
                size_t k;

                if (!cc_starts_with(b, "bin/") || strchr(b + 4, '/') != NULL ||
                    cc_strncasecmp(b + 4, "cudart64_", 9) != 0 || !cc_ends_with_nocase(b, ".dll"))
                        continue;
                d = b + 13;
                k = strspn(d, "0123456789");
                if (d[k] != '.' || (k != 2 && k != 3) || d[0] == '0')
                        continue;
                /* cudart64_101.dll is CUDA 10.1, but every CUDA 11 has cudart64_110.dll: its 0 is no minor */
                if (k == 3 && !(d[0] == '1' && d[1] == '1' && d[2] == '0'))
                        snprintf(buf, n, "%.2s.%c", d, d[2]);
                else
                        snprintf(buf, n, "%.2s", d);
                *from = b;
                return;
        }
}

/* Of a source that holds a build per CUDA version (the Windows
 * installer's bin/12.9/, bin/13.0/...), the one to install: --cuda's, else
 * the one of the target's CUDA version. *why says how (caller frees); -1
 * with a one-line error naming the builds when none or several fit. */
static int pick_src_variant(const cudnnctl_install_options *o, const cc_source *src, const cc_target_scan *sc,
                            const char *vtarget, char **why, cc_error *err)
{
        const char *const *vs = (const char *const *)src->cuda_variants.v, *from = NULL;
        size_t n = src->cuda_variants.n, i, same = 0;
        char tv[32], *list = NULL;
        cc_buf b = {0};
        int k = -1;
        long major = -1;

        *why = NULL;
        for (i = 0; i < n; i++)
                if (cc_buf_printf(&b, err, "%s%s", i ? (i + 1 == n ? " or --cuda " : ", --cuda ") : "--cuda ", vs[i]) <
                    0) {
                        cc_buf_free(&b);
                        return -1;
                }
        list = cc_buf_steal(&b);
        if (list == NULL)
                return cc_err(err, CC_ERR_NOMEM, "out of memory");
        if (o->cuda != NULL) {
                k = cc_cuda_variant_pick(vs, n, o->cuda, 0);
                if (k < 0)
                        cc_err(err, CC_ERR_NOTFOUND, "%s: no build for CUDA %s in it: pass %s", src->path, o->cuda,
                               list);
                else
                        *why = cc_asprintf(err, "--cuda %s", o->cuda);
                goto done;
        }
        target_cuda(sc, tv, sizeof(tv), &from);
        if (tv[0] == '\0') {
                cc_err(err, CC_ERR_USAGE,
                       "%s: holds a cuDNN build per CUDA version and %s does not tell its CUDA version (no "
                       "version.json, include/cuda.h or cudart DLL): pass %s",
                       src->path, vtarget, list);
                goto done;
        }
        k = cc_cuda_variant_pick(vs, n, tv, 0); /* the same major and minor */
        if (k < 0) {
                /* else the one build of its major */
                major = strtol(tv, NULL, 10);
                for (i = 0; i < n; i++)
                        if (strtol(vs[i], NULL, 10) == major) {
                                same++;
                                k = (int)i;
                        }
                if (same != 1) {
                        cc_err(err, CC_ERR_USAGE,
                               "%s: holds a cuDNN build per CUDA version and the target's CUDA %s (%s) %s: pass %s",
                               src->path, tv, from, same ? "fits several of them by its major" : "fits none of them",
                               list);
                        k = -1;
                        goto done;
                }
        }
        *why = cc_asprintf(err, "the target's CUDA %s (%s)", tv, from);
done:
        free(list);
        if (k >= 0 && *why == NULL)
                return -1;
        return k;
}

/* The target holds the Windows installer's layout (bin/12.9/...). */
static const char *installer_target(const cc_target_scan *sc)
{
        size_t i;

        for (i = 0; i < sc->n; i++)
                if (sc->e[i].type == CC_FT_DIR && cc_starts_with(sc->e[i].path, "bin/") &&
                    strchr(sc->e[i].path + 4, '/') == NULL && cuda_dir_name(sc->e[i].path + 4))
                        return sc->e[i].path + 4;
        return NULL;
}

/* ---- staging -------------------------------------------------------------- */

struct stage {
        cc_txn *t;
        const cc_plan *plan;
        const cc_source *src;
        size_t *op_of; /* per member: its operation */
        const cudnnctl_install_options *o;
        uint64_t done, total, last;
        const char *member;
};

static int sink_begin(void *ctx, size_t i, cc_error *err)
{
        struct stage *s = ctx;

        s->member = s->src->m[i].name;
        return cc_txn_stage_open(s->t, s->op_of[i], err);
}

static int sink_data(void *ctx, const void *p, size_t n, cc_error *err)
{
        struct stage *s = ctx;

        TRY_RET(cc_txn_stage_write(s->t, p, n, err));
        s->done += n;
        if (s->o->progress != NULL && (s->done - s->last >= PROGRESS_STEP || s->done == s->total)) {
                s->last = s->done;
                s->o->progress(s->o->progress_ctx, s->done, s->total, s->member);
        }
        return 0;
}

static int sink_end(void *ctx, cc_error *err)
{
        struct stage *s = ctx;

        return cc_txn_stage_close(s->t, err);
}

/* An archive read once: every file member spooled into the transaction
 * while the source is listed (keyed by its index), before it is judged;
 * its bytes go through sink_data, with a total of 0 (not known until the
 * listing ends) and no member name. */
static int spool_begin(void *ctx, size_t i, cc_error *err)
{
        struct stage *s = ctx;

        return cc_txn_spool_open(s->t, i, err);
}

/* ---- a dry run's digests ---------------------------------------------------- */

/* Every file member's SHA-256, by its index in the source, as a dry run
 * reads them: an archive while it is listed (one read, as an install's),
 * a directory (or a zip, listed by its central directory) after it. */
struct digests {
        char (*hex)[65]; /* per member; "" not read */
        size_t n;
        size_t cur;
        cc_sha256 h;
        int listed; /* the members were hashed while the source was listed */
};

static int dig_begin(void *ctx, size_t i, cc_error *err)
{
        struct digests *d = ctx;

        if (i >= d->n) {
                size_t n = d->n ? d->n : 64;
                char(*p)[65];

                while (n <= i)
                        n *= 2;
                p = cc_realloc(err, d->hex, n * sizeof(*p));
                if (p == NULL)
                        return -1;
                memset(p + d->n, 0, (n - d->n) * sizeof(*p));
                d->hex = p;
                d->n = n;
        }
        d->cur = i;
        cc_sha256_init(&d->h);
        return 0;
}

static int dig_data(void *ctx, const void *p, size_t n, cc_error *err)
{
        struct digests *d = ctx;

        (void)err;
        cc_sha256_update(&d->h, p, n);
        return 0;
}

static int dig_end(void *ctx, cc_error *err)
{
        struct digests *d = ctx;

        (void)err;
        cc_sha256_final_hex(&d->h, d->hex[d->cur]);
        return 0;
}

/* A dry run's plan with its digests: each file placed or replacing
 * another (sha256, of the source's member), and each file replaced or
 * removed as it is in the target now (old_size, old_sha256). */
static int dry_digests(const cc_source *src, const cc_plan *p, const cc_target_scan *sc, const char *host,
                       struct digests *d, cc_error *err)
{
        cc_value *ops = cc_v_getm(p->doc, CC_K(install_plan, operations));
        cc_src_sink sink = {.ctx = d, .begin = dig_begin, .data = dig_data, .end = dig_end};
        size_t i, k;

        /* not read while listed: read what the plan places (a source with
         * stops is never read) */
        if (!d->listed && src->n > 0 && src->stops.n == 0) {
                unsigned char *want = cc_calloc(err, src->n, 1);
                int rc;

                if (want == NULL)
                        return -1;
                for (i = 0; i < p->nops; i++)
                        if (p->member[i] != (size_t)-1)
                                want[p->member[i]] = 1;
                rc = cc_source_read(src, want, &sink, err);
                free(want);
                TRY_RET(rc);
        }
        for (i = 0; i < p->nops && i < cc_v_len(ops); i++) {
                const cc_txn_op *o = &p->ops[i];
                cc_value *v = cc_v_atm(ops, i);
                size_t mi = p->member[i];

                if (mi != (size_t)-1 && mi < d->n && d->hex[mi][0] && o->link == NULL)
                        TRY_RET(cc_v_set_str(v, CC_K(plan_op, sha256), d->hex[mi], err));
                if (o->kind != CC_TXN_REPLACE && o->kind != CC_TXN_REMOVE)
                        continue;
                for (k = 0; k < sc->n; k++)
                        if (strcmp(sc->e[k].path, o->path) == 0)
                                break;
                if (k < sc->n && sc->e[k].type == CC_FT_FILE) {
                        char hex[65], *fp = cc_asprintf(err, "%s/%s", host, o->path);
                        cc_error e2 = {0};

                        if (fp == NULL)
                                return -1;
                        TRY_RET(cc_v_set_int(v, CC_K(plan_op, old_size), (int64_t)sc->e[k].size, err));
                        /* unreadable (no permission): the plan says so by its absence */
                        if (cc_file_sha256(fp, hex, &e2) == 0 &&
                            cc_v_set_str(v, CC_K(plan_op, old_sha256), hex, err) < 0) {
                                free(fp);
                                return -1;
                        }
                        free(fp);
                }
        }
        return 0;
}

/* ---- the manifest --------------------------------------------------------- */

static cc_value *manifest_doc(const cc_plan *p, const cc_source *src, const char *id, int toolkit, cc_txn *t,
                              cc_error *err)
{
        cc_value *doc = cc_v_object(err), *files = cc_v_array(err);
        char when[32];
        size_t i;

        if (doc == NULL || files == NULL)
                goto fail;
        cc_utc_text((int64_t)time(NULL), 0, when);
        for (i = 0; i < p->nops; i++) {
                const cc_txn_op *o = &p->ops[i];
                cc_value *f;
                char mode[8], *staged;
                cc_stat st;
                cc_error e2 = {0};

                if ((o->kind != CC_TXN_PLACE && o->kind != CC_TXN_REPLACE) || i == p->manifest_op)
                        continue;
                f = cc_v_object(err);
                if (f == NULL || cc_v_push(files, f, err) < 0)
                        goto fail;
                TRY(cc_v_set_str(f, CC_K(manifest_file, path), o->path, err));
                if (o->link != NULL) {
                        TRY(cc_v_set_str(f, CC_K(manifest_file, link), o->link, err));
                } else {
                        snprintf(mode, sizeof(mode), "%04o", o->mode & 07777);
                        TRY(cc_v_set_int(f, CC_K(manifest_file, size), (int64_t)o->size, err));
                        TRY(cc_v_set_str(f, CC_K(manifest_file, mode), mode, err));
                        /* the staged file's time is the placed file's (a rename keeps it) */
                        staged = cc_asprintf(err, "%s/new/%zu", cc_txn_dir(t), i);
                        if (staged == NULL)
                                goto fail;
                        if (cc_lstat_path(staged, &st, &e2) == 0 && st.type == CC_FT_FILE)
                                TRY(cc_v_set_int(f, CC_K(manifest_file, mtime), st.mtime, err));
                        free(staged);
                        TRY(cc_v_set_str(f, CC_K(manifest_file, sha256), cc_txn_op_sha256(t, i), err));
                }
                TRY(cc_v_set_bool(f, CC_K(manifest_file, replaced), o->kind == CC_TXN_REPLACE, err));
        }
        TRY(cc_v_set_int(doc, CC_K(manifest, manifest_version), 1, err));
        TRY(cc_v_set_str(doc, CC_K(manifest, id), id, err));
        TRY(cc_v_set_str(doc, CC_K(manifest, version), src->version, err));
        TRY(cc_v_set_int(doc, CC_K(manifest, major), src->major, err));
        TRY(src->cuda_major >= 0 ? cc_v_set_int(doc, CC_K(manifest, cuda_major), src->cuda_major, err)
                                 : cc_v_set_null(doc, CC_K(manifest, cuda_major), err));
        TRY(cc_v_set_str(doc, CC_K(manifest, source), src->path, err));
        TRY(cc_v_set_str(doc, CC_K(manifest, layout), src->layout, err));
        TRY(cc_v_set_str(doc, CC_K(manifest, target_kind), toolkit ? "cuda-toolkit" : "prefix", err));
        TRY(cc_v_set_str(doc, CC_K(manifest, transaction), cc_txn_id(t), err));
        TRY(cc_v_set_str(doc, CC_K(manifest, installed_at), when, err));
        {
                cc_value *fl = files; /* cc_v_set owns it, even when it fails */

                files = NULL;
                TRY(cc_v_set(doc, CC_K(manifest, files), fl, err));
        }
        return doc;
fail:
        cc_v_free(doc);
        cc_v_free(files);
        return NULL;
}

/* ---- checks the command adds to the plan ---------------------------------- */

static int add_check(cc_plan *p, const char *id, const char *verdict, const char *reason, cc_error *err)
{
        int was = p->stop;

        TRY_RET(cc_plan_check(cc_v_getm(p->doc, CC_K(install_plan, checks)), &p->stop, err, id, verdict, "%s", reason));
        if (p->stop && !was) /* the summary says so too */
                return cc_v_set_bool(cc_v_getm(p->doc, CC_K(install_plan, summary)), CC_K(plan_summary, stop), 1, err);
        return 0;
}

/* Processes that map a file to be replaced or removed: on Windows the
 * replace would fail (the guide's "close PyCharm/Jupyter first"): a stop;
 * on Linux they keep running the old file: a warning. */
static int in_use_check(cc_machine *m, const char *host, cc_plan *p, cc_error *err)
{
        cc_strv lines = {0};
        size_t i;
        int rc = 0;

        if (p->stop || cc_in_use(m, host, p->ops, p->nops, &lines, err) < 0) {
                cc_strv_free(&lines);
                return p->stop ? 0 : -1;
        }
        for (i = 0; i < lines.n && rc == 0; i++) {
                int unread = strstr(lines.v[i], "could not be read") != NULL;

                rc = add_check(p, "in-use",
                               unread                        ? "warn"
                               : m->system == CC_SYS_WINDOWS ? "stop"
                                                             : "warn",
                               lines.v[i], err);
        }
        if (rc == 0 && lines.n == 0 && m->live)
                rc = add_check(p, "in-use", "ok", "no running process maps a file to be replaced or removed", err);
        cc_strv_free(&lines);
        return rc;
}

/* ---- after the commit ------------------------------------------------------ */

/* ldconfig, when the loader's cache lists the target's library directory:
 * run it as root, else say that it must be. "not-needed", "ran",
 * "failed: ...", "needed: ...". */
static char *ldconfig_step(cc_machine *m, const char *vtarget, const char *lib_dir, cc_error *err)
{
        char *libv = cc_asprintf(err, "%s/%s", vtarget, lib_dir ? lib_dir : "lib"), *out = NULL;
        cc_ldso l;
        cc_error e2 = {0};
        size_t i;
        int cached = 0;

        if (libv == NULL)
                return NULL;
        memset(&l, 0, sizeof(l));
        if (cc_ldso_read(m, NULL, &l, &e2) == 0) {
                for (i = 0; i < l.conf_dirs.n && !cached; i++)
                        cached = cc_tree_path_eq(m->tree, l.conf_dirs.v[i], libv);
                for (i = 0; i < l.sysdirs.n && !cached; i++)
                        cached = cc_tree_path_eq(m->tree, l.sysdirs.v[i], libv);
        }
        cc_ldso_free(&l);
        if (!cached) {
                out = cc_strdup(err, "not-needed");
        } else if (!m->live || !cc_is_admin()) {
                out = cc_asprintf(err, "needed: %s is in the loader's cache; run `sudo ldconfig`", libv);
        } else {
                int found = 0;

                out = cc_ldconfig_spawn(NULL, &found, err);
                if (out == NULL && !found)
                        out = cc_asprintf(err, "needed: %s is in the loader's cache, and no ldconfig was found", libv);
        }
        free(libv);
        return out;
}

/* verify of what was installed: its verdict into the document (a failure
 * does not undo the install: the text says how, `rollback`). */
static int verify_step(cc_machine *m, const char *vtarget, cc_value *doc, cc_error *err)
{
        cudnnctl_verify_options vo;
        cc_value *vd = NULL;
        cc_error e2 = {0};

        memset(&vo, 0, sizeof(vo));
        vo.install = vtarget;
        vo.gpu = CUDNNCTL_GPU_AUTO;
        if (cudnnctl_verify(m, &vo, &vd, &e2) < 0)
                return cc_v_set_str(doc, CC_K(install_doc, verify_error), e2.msg, err);
        return cc_v_set(doc, CC_K(install_doc, verify), vd, err);
}

/* ---- the command ---------------------------------------------------------- */

/* What the transaction's own recovery did, after what the install's first
 * recovery did (normally nothing is left by then). Owns *more. */
static int add_recovered(cc_value *doc, cc_value **more, cc_error *err)
{
        cc_value *m = *more, *have = cc_v_getm(doc, CC_K(install_doc, recovered));

        *more = NULL;
        if (m == NULL)
                return 0;
        if (have != NULL)
                return cc_v_concat(have, m, err); /* frees m */
        return cc_v_set(doc, CC_K(install_doc, recovered), m, err);
}

/* The plan's document into the install's (which owns it from now on, also
 * when the move fails). */
static int take_plan(cc_value *doc, cc_plan *p, cc_error *err)
{
        cc_value *pd = p->doc;

        p->doc = NULL;
        return cc_v_set(doc, CC_K(install_doc, plan), pd, err);
}

static int set_result(cc_value *doc, const char *status, const char *txn, const char *error, int undo_failed,
                      const char *manifest, const char *use, cc_error *err)
{
        return cc_v_set(doc, CC_K(install_doc, result),
                        cc_result_new(status, txn, error, undo_failed, manifest, use, err), err);
}
/* The human log (robocopy's /LOG): one line per check and per operation. */
static char *log_text(const cc_plan *p, const cc_txn *t, const char *status, cc_error *err)
{
        cc_vw_install_plan v;
        cc_buf b = {0};
        char when[32];
        size_t i;

        cc_utc_text((int64_t)time(NULL), 0, when);
        cc_vw_install_plan_read(p->doc, &v, NULL);
        TRY(cc_buf_printf(&b, err, "cudnnctl install, %s, transaction %s\n", when, t ? cc_txn_id(t) : "-"));
        for (i = 0; i < cc_v_len(v.checks); i++) {
                cc_vw_plan_check c;

                cc_vw_plan_check_at(v.checks, i, &c, NULL);
                TRY(cc_buf_printf(&b, err, "check %-5s %-14s %s\n", c.verdict, c.id, c.reason));
        }
        for (i = 0; i < p->nops; i++) {
                const cc_txn_op *o = &p->ops[i];
                const char *h = t ? cc_txn_op_sha256(t, i) : "";

                TRY(cc_buf_printf(&b, err, "%-7s %s", cc_txn_kind_name(o->kind), o->path));
                if (o->link)
                        TRY(cc_buf_printf(&b, err, " -> %s", o->link));
                else if ((o->kind == CC_TXN_PLACE || o->kind == CC_TXN_REPLACE) && o->size != CC_TXN_SIZE_UNKNOWN)
                        TRY(cc_buf_printf(&b, err, " %llu bytes", (unsigned long long)o->size));
                if (h[0])
                        TRY(cc_buf_printf(&b, err, " sha256 %s", h));
                TRY(cc_buf_putc(&b, '\n', err));
        }
        TRY(cc_buf_printf(&b, err, "result %s\n", status));
        return cc_buf_steal(&b);
fail:
        cc_buf_free(&b);
        return NULL;
}

static void write_logs(cc_value *doc, const cc_plan *p, const cc_txn *t, const char *status, const char *log_file)
{
        cc_error ignored = {0};
        char *text = log_text(p, t, status, &ignored), *path = NULL;

        if (text == NULL)
                return;
        if (t != NULL && cc_txn_dir(t) != NULL) {
                path = cc_asprintf(&ignored, "%s/log", cc_txn_dir(t));
                if (path != NULL)
                        (void)cc_write_file(path, text, strlen(text), 0, &ignored);
        }
        if (log_file != NULL) {
                cc_error e2 = {0};

                if (cc_write_file(log_file, text, strlen(text), 0, &e2) < 0)
                        (void)cc_v_set_str(doc, CC_K(install_doc, log_error), e2.msg, &ignored);
        }
        free(path);
        free(text);
}

/* What a user runs to use a side-by-side install. */
static char *use_hint(const cc_machine *m, const char *vtarget, int toolkit, cc_error *err)
{
        if (toolkit)
                return NULL;
        if (m->system == CC_SYS_WINDOWS)
                return cc_asprintf(err, "set PATH=%s\\bin;%%PATH%%", vtarget);
        return cc_asprintf(err, "export LD_LIBRARY_PATH=%s/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}", vtarget);
}

int cudnnctl_install(cudnnctl_machine *m, const cudnnctl_install_options *o, cudnnctl_value **out, cudnnctl_error *err)
{
        cc_value *doc = NULL, *recovered = NULL;
        cc_source src;
        cc_target_scan sc;
        cc_plan plan;
        cc_plan_in in;
        cc_txn *t = NULL;
        char *vtarget = NULL, *host = NULL, *id = NULL, *use = NULL, *mpath = NULL, *variant_why = NULL;
        struct stage st;
        struct digests dig = {0};
        unsigned char *want = NULL;
        cc_strv made = {0};
        int store = 0, rc = -1, undo_failed = 0, stream;
        size_t i;

        memset(&src, 0, sizeof(src));
        memset(&sc, 0, sizeof(sc));
        memset(&plan, 0, sizeof(plan));
        memset(&st, 0, sizeof(st));
        if (out == NULL || m == NULL || o == NULL || o->source == NULL)
                return cc_err(err, CC_ERR_USAGE,
                              "cudnnctl_install: no machine, options, source or place for the result");
        *out = NULL;
        doc = cc_doc_new("install", m, err);
        if (doc == NULL)
                return -1;
        TRY(cc_v_set_bool(doc, CC_K(install_doc, dry_run), o->dry_run, err));
        /* An install that will write reads an archive once: it is listed,
         * judged and spooled into the transaction in one pass (decompression
         * is the cost), under the target's lock. That needs the target
         * before the source: not the store, named by the source's version. */
        stream = !o->dry_run && (o->into != NULL || o->cuda != NULL) && cc_source_streams(o->source);
        if (o->dry_run && cc_source_streams(o->source)) {
                cc_src_sink dsink = {.ctx = &dig, .begin = dig_begin, .data = dig_data, .end = dig_end};

                TRY(cc_source_open_read(o->source, &dsink, &src, err));
                dig.listed = 1;
        } else if (!stream) {
                TRY(cc_source_open(o->source, &src, err));
        }
        /* the target, as a virtual path with every link resolved */
        if (o->into != NULL) {
                char *abs = cc_machine_abs(m, o->into, err);

                if (abs == NULL)
                        goto fail;
                vtarget = cc_tree_canonical(m->tree, abs, err);
                free(abs);
                if (vtarget == NULL)
                        goto fail;
        } else if (o->cuda != NULL) {
                vtarget = find_toolkit(m, o->cuda, err);
                if (vtarget == NULL)
                        goto fail;
        } else {
                vtarget = store_path(m, &src, err);
                if (vtarget == NULL)
                        goto fail;
                store = 1;
        }
        host = cc_tree_host(m->tree, vtarget, err);
        if (host == NULL)
                goto fail;
        if (store) {
                cc_stat ts;

                TRY(cc_lstat_path(host, &ts, err));
                if (ts.type == CC_FT_NONE) {
                        if (o->dry_run) {
                                /* planned against an empty directory */
                                sc.cuda_major = -1;
                                sc.free_bytes = UINT64_MAX;
                                sc.writable = 1;
                                sc.lib_dir = "lib";
                                sc.manifests = cc_v_array(err);
                                if (sc.manifests == NULL)
                                        goto fail;
                        } else {
                                TRY(cc_mkdir_p(host, &made, err));
                        }
                }
        }
        if (sc.manifests == NULL) {
                cc_stat ts;

                /* An interrupted transaction is undone before the target is
                 * read: the plan is made on the target as it was. A dry run
                 * writes nothing: it says so instead. */
                TRY(cc_lstat_path(host, &ts, err));
                if (!o->dry_run && ts.type == CC_FT_DIR) {
                        cc_value *rec = NULL;

                        TRY(cc_txn_recover(host, &rec, err));
                        TRY(cc_v_set(doc, CC_K(install_doc, recovered), rec, err)); /* owns rec, also on failure */
                }
                TRY(cc_target_scan_dir(host, m->system, &sc, err));
        }
        if (stream) {
                cc_stat ts;

                /* a target the checks would stop gets nothing written in it */
                TRY(cc_lstat_path(host, &ts, err));
                stream = ts.type == CC_FT_DIR && sc.writable && !sc.world_writable;
                if (!stream)
                        TRY(cc_source_open(o->source, &src, err));
        }
        if (stream) {
                cc_src_sink sink = {.ctx = &st, .begin = spool_begin, .data = sink_data, .end = sink_end};

                TRY(cc_txn_open(host, "install", &recovered, &t, err));
                /* the target again, as the lock keeps it; a failure here
                 * (the source unreadable, a full disk while spooling) takes
                 * the transaction's directory with it */
                cc_target_scan_free(&sc);
                memset(&sc, 0, sizeof(sc));
                st.t = t;
                st.o = o;
                if (add_recovered(doc, &recovered, err) < 0 || cc_target_scan_dir(host, m->system, &sc, err) < 0 ||
                    cc_source_open_read(o->source, &sink, &src, err) < 0) {
                        cc_txn_abort(t);
                        t = NULL;
                        goto fail;
                }
                if (o->progress != NULL && st.done > 0) /* the read is done: its last figure */
                        o->progress(o->progress_ctx, st.done, st.done, NULL);
        }
        /* a build per CUDA version (the installer's layout): one is chosen */
        if (!src.is_archive && src.cuda_variants.n > 0 && src.cuda_variant == NULL) {
                int k = src.cuda_variants.n == 1 ? 0 : pick_src_variant(o, &src, &sc, vtarget, &variant_why, err);
                char *pick;

                if (k < 0)
                        goto fail;
                if (variant_why == NULL &&
                    (variant_why = cc_strdup(err, "the only CUDA version directory there")) == NULL)
                        goto fail;
                pick = cc_strdup(err, src.cuda_variants.v[k]);
                if (pick == NULL)
                        goto fail;
                cc_source_free(&src);
                k = cc_source_open_cuda(o->source, pick, NULL, &src, err);
                free(pick);
                TRY(k);
        }
        id = cc_asprintf(err, "cudnn-%s", src.version ? src.version : "unknown");
        if (id == NULL)
                goto fail;
        memset(&in, 0, sizeof(in));
        in.target = vtarget;
        in.system = m->system;
        in.machine = m->live ? CC_HOST_MACHINE : NULL;
        in.toolkit = sc.toolkit;
        in.toolkit_cuda_major = sc.cuda_major;
        in.lib_dir = sc.lib_dir;
        in.force = o->force;
        in.target_world_writable = sc.world_writable;
        in.target_writable = sc.writable;
        in.free_bytes = sc.free_bytes;
        in.entries = sc.e;
        in.nentries = sc.n;
        in.manifest_id = id;
        TRY(cc_install_plan(&src, &in, &plan, err));
        if (src.stops.n == 0) {
                cc_checksum_in ck = {src.path, src.is_archive, o->manifest, src.sha256[0] ? src.sha256 : NULL};

                TRY(cc_checksum_check(&plan, &ck, err));
                TRY(cc_pairing_checks(m, &src, o->force, &plan, err));
        }
        for (i = 0; i < sc.notes.n; i++)
                TRY(add_check(&plan, "target", "warn", sc.notes.v[i], err));
        if (src.cuda_variant != NULL) {
                cc_buf vb = {0};
                int r = cc_buf_printf(&vb, err, "the CUDA %s build is installed (bin/%s/, include/%s/, lib/%s/x64/",
                                      src.cuda_variant, src.cuda_variant, src.cuda_variant, src.cuda_variant);

                for (i = 0; i < src.cuda_variants.n && r == 0; i++)
                        r = cc_buf_printf(&vb, err, "%s%s", i ? ", " : "; the source has ", src.cuda_variants.v[i]);
                if (r == 0)
                        r = cc_buf_printf(&vb, err, "): %s", variant_why ? variant_why : "chosen");
                if (r == 0)
                        r = add_check(&plan, "cuda-variant", "ok", vb.data, err);
                cc_buf_free(&vb);
                TRY(r);
        }
        if (installer_target(&sc) != NULL) {
                /* Its files are the installer's: its uninstall entry would later remove files it did not put
                 * there, or leave these behind, and its bin\<cuda>\ builds would hold two releases. */
                char *why = cc_asprintf(err,
                                        "%s holds the Windows installer's layout (bin\\%s\\...), whose files its "
                                        "uninstall entry owns: installing into it would leave that uninstaller "
                                        "removing files it did not put there; install beside it (a directory of the "
                                        "new release's own, such as the default NVIDIA\\CUDNN\\vX.Y of another "
                                        "version) or into a CUDA toolkit",
                                        vtarget, installer_target(&sc));

                if (why == NULL)
                        goto fail;
                i = (size_t)add_check(&plan, "target", "stop", why, err);
                free(why);
                if ((int)i < 0)
                        goto fail;
        }
        if (o->dry_run && ch_interrupted(host))
                TRY(add_check(&plan, "target", "warn",
                              "an interrupted transaction is in the target: the install undoes it first (`cudnnctl "
                              "recover`), and "
                              "this plan is of the target as it is now",
                              err));
        TRY(in_use_check(m, host, &plan, err));
        use = use_hint(m, vtarget, sc.toolkit, err);
        if (use == NULL && !sc.toolkit)
                goto fail;
        if (o->dry_run)
                TRY(dry_digests(&src, &plan, &sc, host, &dig, err));
        if (o->dry_run || plan.stop) {
                cc_txn_abort(t); /* what was spooled goes */
                t = NULL;
                TRY(take_plan(doc, &plan, err));
                TRY(set_result(doc, plan.stop ? "stopped" : "planned", NULL, NULL, 0, NULL, NULL, err));
                cc_unmake_dirs(&made);
                rc = 0;
                goto done;
        }
        /* the transaction */
        if (!stream) {
                if (cc_txn_begin(host, plan.ops, plan.nops, "install", &recovered, &t, err) < 0)
                        goto fail;
                TRY(add_recovered(doc, &recovered, err));
        } else if (cc_txn_plan(t, plan.ops, plan.nops, err) < 0) {
                goto abort;
        }
        want = cc_calloc(err, src.n ? src.n : 1, 1);
        st.op_of = cc_calloc(err, src.n ? src.n : 1, sizeof(size_t));
        if (want == NULL || st.op_of == NULL)
                goto abort;
        for (i = 0; i < plan.nops; i++)
                if (plan.member[i] != (size_t)-1) {
                        want[plan.member[i]] = 1;
                        st.op_of[plan.member[i]] = i;
                        if (stream && cc_txn_stage_spooled(t, i, plan.member[i], err) < 0)
                                goto abort;
                }
        st.t = t;
        st.plan = &plan;
        st.src = &src;
        st.o = o;
        st.total = plan.stage_bytes;
        {
                cc_src_sink sink = {.ctx = &st, .begin = sink_begin, .data = sink_data, .end = sink_end};
                cc_value *man;
                cc_buf mb = {0};

                if (!stream && cc_source_read(&src, want, &sink, err) < 0)
                        goto abort;
                if (cc_txn_stage_wait(t, err) < 0) /* every digest recorded */
                        goto abort;
                man = manifest_doc(&plan, &src, id, sc.toolkit, t, err);
                if (man == NULL)
                        goto abort;
                if (cc_json_write(man, 1, &mb, err) < 0 || cc_txn_stage_open(t, plan.manifest_op, err) < 0 ||
                    cc_txn_stage_write(t, mb.data, mb.len, err) < 0 || cc_txn_stage_close(t, err) < 0) {
                        cc_v_free(man);
                        cc_buf_free(&mb);
                        goto abort;
                }
                cc_v_free(man);
                cc_buf_free(&mb);
                if (cc_txn_stage_wait(t, err) < 0)
                        goto abort;
        }
        /* the digests staged, into the plan's document */
        {
                cc_value *ops = cc_v_getm(plan.doc, CC_K(install_plan, operations));

                for (i = 0; i < plan.nops && i < cc_v_len(ops); i++)
                        if (cc_txn_op_sha256(t, i)[0] &&
                            cc_v_set_str(cc_v_atm(ops, i), CC_K(plan_op, sha256), cc_txn_op_sha256(t, i), err) < 0)
                                goto abort; /* nothing applied yet: the transaction goes */
        }
        if (cc_txn_apply_commit(t, &undo_failed, err) < 0) {
                char msg[sizeof(err->msg)];

                snprintf(msg, sizeof(msg), "%s", err->msg);
                cc_err_clear(err);
                write_logs(doc, &plan, NULL, "failed", o->log_file);
                TRY(take_plan(doc, &plan, err));
                TRY(set_result(doc, "failed", cc_txn_id(t), msg, undo_failed, NULL, NULL, err));
                cc_txn_free(t);
                t = NULL;
                if (!undo_failed)
                        cc_unmake_dirs(&made);
                rc = 0;
                goto done;
        }
        mpath = cc_asprintf(err, "%s/%s/%s/%s.json", vtarget, CC_TXN_STATE, CC_TXN_MANIFESTS, id);
        if (mpath == NULL)
                goto fail;
        write_logs(doc, &plan, t, "installed", o->log_file);
        {
                cc_error ignored = {0}; /* the record and the pruning are bookkeeping: the install stands */

                (void)cc_state_record(m, vtarget, cc_txn_id(t), "install", &ignored);
                (void)cc_txn_prune(host, CC_KEEP_BACKUPS, &ignored);
        }
        TRY(take_plan(doc, &plan, err));
        TRY(set_result(doc, "installed", cc_txn_id(t), NULL, 0, mpath, use, err));
        if (m->system == CC_SYS_LINUX) {
                char *ld = ldconfig_step(m, vtarget, sc.toolkit ? sc.lib_dir : "lib", err);

                if (ld == NULL || cc_v_set_str(cc_v_getm(doc, CC_K(install_doc, result)),
                                               CC_K(install_result, ldconfig), ld, err) < 0) {
                        free(ld);
                        goto fail;
                }
                free(ld);
        }
        if (!o->no_verify)
                TRY(verify_step(m, vtarget, doc, err));
        rc = 0;
        goto done;
abort : {
        char msg[sizeof(err->msg)];

        /* staging failed: the target was not touched */
        snprintf(msg, sizeof(msg), "%s", err->msg);
        cc_err_clear(err);
        cc_txn_abort(t);
        t = NULL;
        cc_unmake_dirs(&made);
        if (take_plan(doc, &plan, err) < 0)
                goto fail;
        if (set_result(doc, "failed", NULL, msg, 0, NULL, NULL, err) < 0)
                goto fail;
        rc = 0;
        goto done;
}
done:
fail:
        cc_txn_free(t);
        free(want);
        free(dig.hex);
        free(st.op_of);
        cc_v_free(recovered);
        cc_plan_free(&plan);
        cc_target_scan_free(&sc);
        cc_source_free(&src);
        free(vtarget);
        free(host);
        free(id);
        free(use);
        free(mpath);
        free(variant_why);
        if (rc < 0)
                cc_unmake_dirs(&made);
        cc_strv_free(&made);
        if (rc == 0)
                *out = doc;
        else
                cc_v_free(doc);
        return rc;
}
