/* The pairing pre-checks of an install (pairing.h). */
#include "pairing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../facts/views.h"
#include "../formats/names.h"
#include "../kb/kb.h"
#include "../kb/query.h"
#include "../platform/platform.h"

#define MAX_TEXT 65536 /* bytes of one /proc text file */
#define MAX_GLOB 64    /* names per pattern: libcuda.so.*, GPUs listed */
#define MAX_SEEN 16    /* driver versions kept */

struct pc {
        cc_machine *m;
        const cc_source *src;
        int force;
        int sys; /* CUDNNCTL_SYSTEM_*: whose rows of the tables apply */
        cc_plan *p;
        cc_value *checks;
        cc_error *err;
};

/* A check of the plan; the summary says stop too once one does. */
static int add(struct pc *c, const char *id, const char *verdict, const char *fmt, ...) CC_PRINTF(4, 5);
static int add(struct pc *c, const char *id, const char *verdict, const char *fmt, ...)
{
        int was = c->p->stop, rc;
        char *reason;
        va_list ap;

        va_start(ap, fmt);
        reason = cc_vasprintf(c->err, fmt, ap);
        va_end(ap);
        if (reason == NULL)
                return -1;
        rc = cc_plan_check(c->checks, &c->p->stop, c->err, id, verdict, "%s", reason);
        free(reason);
        TRY_RET(rc);
        if (c->p->stop && !was)
                return cc_v_set_bool(cc_v_getm(c->p->doc, CC_K(install_plan, summary)), CC_K(plan_summary, stop), 1,
                                     c->err);
        return 0;
}

static const char *forceable(const struct pc *c)
{
        return c->force ? "warn" : "stop";
}

static const char *force_note(const struct pc *c)
{
        return c->force ? " (--force)" : " (--force to install it anyway)";
}

static const char *sys_word(const struct pc *c)
{
        return c->sys == CUDNNCTL_SYSTEM_WINDOWS ? "Windows" : "Linux";
}

/* A small text file of the machine, read through read(2): a /proc file has
 * no size to map. 0 read, 1 no regular file there, 2 there but not readable
 * (or over MAX_TEXT), -1 out of memory. */
static int read_text(struct pc *c, const char *vpath, char **text)
{
        cc_error e = {0};
        cc_stat st;
        char *host;
        int rc;

        *text = NULL;
        if (cc_tree_stat(c->m->tree, vpath, &st, NULL) < 0 || st.type != CC_FT_FILE)
                return 1;
        host = cc_tree_host(c->m->tree, vpath, &e);
        if (host == NULL)
                goto out;
        rc = cc_read_stream(host, MAX_TEXT, text, NULL, &e);
        free(host);
        if (rc == 0)
                return 0;
out:
        if (e.code == CC_ERR_NOMEM) {
                *c->err = e;
                return -1;
        }
        return 2;
}

/* ---- the driver, from its files ------------------------------------------- */

typedef struct drv_seen {
        cudnnctl_ver v;
        char text[48];   /* as read: "580.159.04" */
        char where[256]; /* the virtual path it was read from */
} drv_seen;

struct driver {
        drv_seen s[MAX_SEEN];
        size_t n;
        char file[256]; /* a driver file that does not say its version, "" none */
};

static void seen(struct driver *d, const char *text, const char *where)
{
        cudnnctl_ver v;

        /* NVIDIA's driver branches are numbered from 100 up: WSL's
         * libcuda.so.1.1 names no driver version */
        if (d->n == MAX_SEEN || strlen(text) >= sizeof(d->s[0].text) || cudnnctl_ver_parse(text, &v) < 0 || v.n < 2 ||
            v.part[0] < 100)
                return;
        d->s[d->n].v = v;
        snprintf(d->s[d->n].text, sizeof(d->s[0].text), "%s", text);
        snprintf(d->s[d->n].where, sizeof(d->s[0].where), "%s", where);
        d->n++;
}

static void unversioned(struct driver *d, const char *where)
{
        if (d->file[0] == '\0')
                snprintf(d->file, sizeof(d->file), "%s", where);
}

/* Linux: the doctor's places (commands/doctor.c, driver_files):
 * libcuda.so.<version> beside the driver's other libraries, and the loaded
 * kernel module's version. */
static int driver_linux(struct pc *c, struct driver *d)
{
        static const char PROC_VERSION[] = "/proc/driver/nvidia/version";
        cc_strv found = {0};
        char *text = NULL, vb[64];
        size_t i;
        int rc;

        if (cc_machine_libcuda_files(c->m, MAX_GLOB, &found, c->err) < 0) {
                cc_strv_free(&found);
                return -1;
        }
        for (i = 0; i < found.n; i++) {
                const char *b = cc_basename(found.v[i]);
                size_t k = d->n;

                if (cc_starts_with(b, "libcuda.so."))
                        seen(d, b + 11, found.v[i]);
                if (d->n == k)
                        unversioned(d, found.v[i]);
        }
        cc_strv_free(&found);
        rc = read_text(c, PROC_VERSION, &text);
        if (rc < 0)
                return -1;
        if (rc != 1) {
                size_t k = d->n;

                if (rc == 0 && cc_nvrm_version(text, vb, sizeof(vb)) == 0)
                        seen(d, vb, PROC_VERSION);
                if (d->n == k)
                        unversioned(d, PROC_VERSION);
        }
        free(text);
        return 0;
}

/* Windows: nvcuda.dll's version resource, as the doctor reads it. */
static int driver_windows(struct pc *c, struct driver *d)
{
        static const char NVCUDA[] = "C:\\Windows\\System32\\nvcuda.dll";
        cudnnctl_inspect_options io;
        cudnnctl_value *doc = NULL;
        cc_error ie = {0};
        cc_stat st;
        size_t k = d->n;

        if (cc_tree_stat(c->m->tree, NVCUDA, &st, NULL) < 0 || st.type != CC_FT_FILE)
                return 0;
        memset(&io, 0, sizeof(io));
        io.root = cc_tree_root(c->m->tree);
        io.system = CUDNNCTL_SYSTEM_WINDOWS;
        if (cudnnctl_inspect(NVCUDA, &io, &doc, &ie) == 0) {
                cc_vw_ins_facts fa;
                cc_vw_ins_pe pe;
                cc_vw_ins_pe_version vi;
                cudnnctl_ver v;

                cc_vw_ins_facts_read(doc, &fa, NULL);
                cc_vw_ins_pe_read(fa.pe, &pe, NULL);
                cc_vw_ins_pe_version_read(pe.version_info, &vi, NULL);
                /* 32.0.15.8088 is driver 580.88: the last five digits */
                if (vi.file_version != NULL && cudnnctl_ver_parse(vi.file_version, &v) == 0 && v.n == 4 &&
                    v.part[3] <= 9999) {
                        long dv = (v.part[2] % 10) * 10000 + v.part[3];
                        char vb[32];

                        snprintf(vb, sizeof(vb), "%ld.%02ld", dv / 100, dv % 100);
                        seen(d, vb, NVCUDA);
                }
                cc_v_free(doc);
        } else if (ie.code == CC_ERR_NOMEM) {
                *c->err = ie;
                return -1;
        }
        if (d->n == k)
                unversioned(d, NVCUDA);
        return 0;
}

/* ---- what the build's CUDA needs ------------------------------------------ */

struct need {
        int major;          /* the build's CUDA major */
        int minor;          /* from the archive's name ("cudnn-11.4-..."), -1 unknown */
        int mvc;            /* minor-version compatibility: 1 yes, 0 no, -1 unknown (kb/driver_floors.tsv) */
        cudnnctl_ver cuda;  /* {major, minor}, the minor 0 when unknown: the row asked */
        cudnnctl_ver exact; /* the minimum of that CUDA, n == 0 unknown */
        cudnnctl_ver floor; /* the major's floor, n == 0 unknown or none */
        char cuda_text[16]; /* "13" or "11.4": the build as the reasons name it */
};

static int mvc_of(int major)
{
        const cc_kb_table *t = cc_kb_get("driver_floors", NULL);
        char key[16];
        size_t r;

        snprintf(key, sizeof(key), "%d", major);
        for (r = 0; t != NULL && r < t->nrows; r++) {
                const char *m = cc_kb_cell(t, r, "cuda_major"), *mvc = cc_kb_cell(t, r, "mvc");

                if (m != NULL && strcmp(m, key) == 0 && mvc != NULL)
                        return strcmp(mvc, "yes") == 0 ? 1 : strcmp(mvc, "no") == 0 ? 0 : -1;
        }
        return -1;
}

static void need_of(const struct pc *c, struct need *n)
{
        cc_archname an;
        cc_kb_answer a;

        memset(n, 0, sizeof(*n));
        n->major = c->src->cuda_major;
        n->minor = -1;
        /* the legacy archives name their CUDA release in full */
        if (c->src->path != NULL && cc_name_archive(cc_basename(c->src->path), &an) == 0) {
                cudnnctl_ver v;

                if (cudnnctl_ver_parse(an.cuda, &v) == 0 && v.n >= 2 && v.part[0] == n->major && v.part[1] < 100)
                        n->minor = (int)v.part[1];
        }
        n->mvc = mvc_of(n->major);
        n->cuda.n = 2;
        n->cuda.part[0] = n->major;
        n->cuda.part[1] = n->minor < 0 ? 0 : n->minor;
        if (n->minor < 0)
                snprintf(n->cuda_text, sizeof(n->cuda_text), "%d", n->major);
        else
                snprintf(n->cuda_text, sizeof(n->cuda_text), "%d.%d", n->major, n->minor);
        cc_kb_min_driver(&n->cuda, c->sys, &n->exact, &n->floor, &a);
}

/* What a machine needs to run the build, for a reason's end. */
static const char *need_text(const struct pc *c, const struct need *n, char *buf, size_t size)
{
        char e[48], f[48];

        cc_kb_driver_str(&n->exact, e, sizeof(e));
        cc_kb_driver_str(&n->floor, f, sizeof(f));
        if (n->minor < 0 && n->mvc == 1 && n->floor.n > 0)
                snprintf(buf, size, "a %s driver >= %s (every CUDA %d.x runs on it by minor-version compatibility)",
                         sys_word(c), f, n->major);
        else if (n->minor < 0 && n->mvc == 1 && n->exact.n > 0)
                snprintf(buf, size,
                         "a %s driver >= %s (CUDA %d.0's minimum; the floor of every CUDA %d.x by minor-version "
                         "compatibility is not in the tables)",
                         sys_word(c), e, n->major, n->major);
        else if (n->exact.n > 0)
                snprintf(buf, size, "a %s driver >= %s (CUDA %d.%d's minimum%s%s%s)%s", sys_word(c), e, n->major,
                         n->minor < 0 ? 0 : n->minor, n->mvc == 1 && n->floor.n > 0 ? ", or >= " : "",
                         n->mvc == 1 && n->floor.n > 0 ? f : "",
                         n->mvc == 1 && n->floor.n > 0 ? " by minor-version compatibility" : "",
                         n->minor < 0 ? ", more for a later CUDA minor" : "");
        else
                snprintf(buf, size, "a %s driver for CUDA %s, whose minimum is not in the tables", sys_word(c),
                         n->cuda_text);
        return buf;
}

/* ---- the driver check ----------------------------------------------------- */

/* The versions the files agree on, joined: "580.159.04 (from A, B)"; the
 * disagreement, "580.159.04 from A, 570.86.10 from B"; *agree set. */
static char *driver_text(struct pc *c, const struct driver *d, int *agree)
{
        cc_buf b = {0};
        size_t i;

        *agree = 1;
        for (i = 1; i < d->n; i++)
                if (cudnnctl_ver_cmp(&d->s[i].v, &d->s[0].v) != 0)
                        *agree = 0;
        for (i = 0; i < d->n; i++) {
                int rc;

                if (*agree)
                        rc = i == 0 ? cc_buf_printf(&b, c->err, "%s (from %s", d->s[0].text, d->s[0].where)
                                    : cc_buf_printf(&b, c->err, ", %s", d->s[i].where);
                else
                        rc = cc_buf_printf(&b, c->err, "%s%s from %s", i ? ", " : "", d->s[i].text, d->s[i].where);
                if (rc < 0) {
                        cc_buf_free(&b);
                        return NULL;
                }
        }
        if (*agree && cc_buf_printf(&b, c->err, ")") < 0) {
                cc_buf_free(&b);
                return NULL;
        }
        return cc_buf_steal(&b);
}

/* The build's CUDA minor is unknown and its major has minor-version
 * compatibility: the driver must reach the major's floor. */
static int judge_floor(struct pc *c, const struct need *n, const cudnnctl_ver *drv, const char *dt)
{
        char e[48], f[48];

        cc_kb_driver_str(&n->exact, e, sizeof(e));
        cc_kb_driver_str(&n->floor, f, sizeof(f));
        if (n->floor.n > 0) {
                if (cudnnctl_ver_cmp(drv, &n->floor) >= 0) {
                        if (n->exact.n > 0 && cudnnctl_ver_cmp(drv, &n->exact) < 0)
                                return add(c, "driver", "ok",
                                           "driver %s runs a cuDNN built for CUDA %d: every CUDA %d.x runs on a %s "
                                           "driver >= %s by minor-version compatibility (below %s, CUDA %d.0's own "
                                           "minimum: PTX JIT and some features are not available)",
                                           dt, n->major, n->major, sys_word(c), f, e, n->major);
                        return add(c, "driver", "ok",
                                   "driver %s runs a cuDNN built for CUDA %d: every CUDA %d.x runs on a %s driver >= "
                                   "%s by minor-version compatibility",
                                   dt, n->major, n->major, sys_word(c), f);
                }
                if (n->exact.n > 0 && cudnnctl_ver_cmp(drv, &n->exact) >= 0)
                        return add(
                            c, "driver", "warn",
                            "driver %s is below %s, the floor of every CUDA %d.x by minor-version "
                            "compatibility, though it meets %s, CUDA %d.0's own minimum: it runs this cuDNN only "
                            "if it was built with CUDA %d.0",
                            dt, f, n->major, e, n->major, n->major);
                return add(
                    c, "driver", forceable(c),
                    "driver %s is too old for a cuDNN built for CUDA %d: every CUDA %d.x needs a %s driver >= %s "
                    "(the floor by minor-version compatibility); update the driver%s",
                    dt, n->major, n->major, sys_word(c), f, force_note(c));
        }
        if (n->exact.n > 0) {
                /* the floor of a major is never above its first release's
                 * minimum: meeting that is enough */
                if (cudnnctl_ver_cmp(drv, &n->exact) >= 0)
                        return add(c, "driver", "ok",
                                   "driver %s runs a cuDNN built for CUDA %d: it is >= %s, CUDA %d.0's minimum, so "
                                   "above the floor of every CUDA %d.x by minor-version compatibility (that floor is "
                                   "not in the tables)",
                                   dt, n->major, e, n->major, n->major);
                return add(c, "driver", "warn",
                           "driver %s is below %s, CUDA %d.0's minimum, and the %s floor of every CUDA %d.x by "
                           "minor-version compatibility is not in the tables: whether it runs a cuDNN built for CUDA "
                           "%d is unknown",
                           dt, e, n->major, sys_word(c), n->major, n->major);
        }
        return add(c, "driver", "warn", "the %s minimum driver of CUDA %d is not in the tables: driver %s not checked",
                   sys_word(c), n->major, dt);
}

static int driver_check(struct pc *c)
{
        struct driver d;
        struct need n;
        char nb[256], *dt = NULL;
        const char *where = c->sys == CUDNNCTL_SYSTEM_WINDOWS
                                ? "no C:\\Windows\\System32\\nvcuda.dll"
                                : "no libcuda.so.<version>, no /proc/driver/nvidia/version";
        int agree = 1, rc;

        memset(&d, 0, sizeof(d));
        TRY_RET(c->sys == CUDNNCTL_SYSTEM_WINDOWS ? driver_windows(c, &d) : driver_linux(c, &d));
        if (d.n > 0 && (dt = driver_text(c, &d, &agree)) == NULL)
                return -1;
        if (c->src->cuda_major < 0) {
                if (d.n == 0)
                        rc = add(c, "driver", "warn",
                                 "the CUDA major the release was built for is unknown, and no NVIDIA driver was found "
                                 "(%s): not checked",
                                 where);
                else
                        rc =
                            add(c, "driver", "warn",
                                "the CUDA major the release was built for is unknown: driver %s not checked against it",
                                dt);
                free(dt);
                return rc;
        }
        need_of(c, &n);
        need_text(c, &n, nb, sizeof(nb));
        if (d.n == 0 && d.file[0] == '\0')
                return add(c, "driver", "warn",
                           "no NVIDIA driver found (%s): the release installs, but to run it this machine needs %s",
                           where, nb);
        if (d.n == 0)
                return add(c, "driver", "warn",
                           "the NVIDIA driver's %s does not say its version: not checked; %s needed", d.file, nb);
        if (!agree) {
                rc = add(c, "driver", "warn",
                         "the NVIDIA driver's files disagree on its version (%s): not checked; %s needed", dt, nb);
                free(dt);
                return rc;
        }
        if (n.minor < 0 && n.mvc == 1) {
                rc = judge_floor(c, &n, &d.s[0].v, dt);
        } else {
                cc_kb_answer a;
                int r = cc_kb_driver_runs_cuda(&d.s[0].v, &n.cuda, c->sys, &a);

                if (r == CC_KB_NO)
                        rc = add(c, "driver", forceable(c),
                                 "driver %s is too old for a cuDNN built for CUDA %s: %s; update the driver%s", dt,
                                 n.cuda_text, a.reason, force_note(c));
                else if (r == CC_KB_YES && n.minor >= 0)
                        rc = add(c, "driver", "ok", "driver %s runs a cuDNN built for CUDA %s: %s", dt, n.cuda_text,
                                 a.reason);
                else if (r == CC_KB_YES)
                        /* CUDA 10 and older: each minor has its own minimum */
                        rc = add(c, "driver", "warn",
                                 "driver %s meets CUDA %d.0's minimum (%s), but the release's CUDA %d minor is unknown "
                                 "and CUDA %d has %s: a later CUDA %d.x needs a newer driver",
                                 dt, n.major, a.reason, n.major, n.major,
                                 n.mvc == 0 ? "no minor-version compatibility"
                                            : "no minor-version compatibility in the tables",
                                 n.major);
                else
                        rc = add(c, "driver", "warn", "driver %s against a cuDNN built for CUDA %s: %s", dt,
                                 n.cuda_text, a.reason);
        }
        free(dt);
        return rc;
}

/* ---- the GPUs ------------------------------------------------------------- */

typedef struct gpu_seen {
        char name[96]; /* "Model:" of its information file, printable ASCII only */
        int excluded;  /* "GPU Excluded: Yes": the driver does not use it */
        size_t count;
} gpu_seen;

/* The value of "KEY:" in the information file's text, trimmed and made
 * printable, or "" when the line is not there. */
static void info_value(const char *text, const char *key, char *out, size_t size)
{
        const char *p = text;
        size_t klen = strlen(key), n = 0;

        out[0] = '\0';
        while (p != NULL && *p != '\0') {
                if (strncmp(p, key, klen) == 0) {
                        p += klen;
                        while (*p == ' ' || *p == '\t')
                                p++;
                        for (; *p != '\0' && *p != '\n' && *p != '\r' && n + 1 < size; p++)
                                out[n++] = (*p >= 0x20 && *p < 0x7f) ? *p : (*p == '\t' ? ' ' : '?');
                        while (n > 0 && out[n - 1] == ' ')
                                n--;
                        out[n] = '\0';
                        return;
                }
                p = strchr(p, '\n');
                if (p != NULL)
                        p++;
        }
}

/* The GPUs the driver lists (Linux), grouped by name. *listed: read at all
 * (the directory could be listed; over MAX_GLOB GPUs it could not). */
static int gpus_linux(struct pc *c, gpu_seen *g, size_t *ng, int *listed)
{
        cc_strv found = {0};
        cc_error ge = {0};
        size_t i, k;

        *ng = 0;
        *listed = 1;
        if (cc_tree_glob(c->m->tree, "/proc/driver/nvidia/gpus/*/information", MAX_GLOB, &found, &ge) < 0) {
                cc_strv_free(&found);
                if (ge.code == CC_ERR_NOMEM) {
                        *c->err = ge;
                        return -1;
                }
                *listed = ge.code != CC_ERR_LIMIT;
                return 0;
        }
        for (i = 0; i < found.n; i++) {
                char *text = NULL, name[96], excl[16];
                int rc = read_text(c, found.v[i], &text);

                if (rc < 0) {
                        cc_strv_free(&found);
                        return -1;
                }
                if (rc == 1)
                        continue;
                /* listed but not readable: a GPU all the same */
                info_value(text ? text : "", "Model:", name, sizeof(name));
                info_value(text ? text : "", "GPU Excluded:", excl, sizeof(excl));
                free(text);
                if (name[0] == '\0')
                        snprintf(name, sizeof(name), "%s", "a GPU of unknown model");
                for (k = 0; k < *ng; k++)
                        if (strcmp(g[k].name, name) == 0 && g[k].excluded == cc_starts_with(excl, "Yes"))
                                break;
                if (k == *ng) {
                        snprintf(g[k].name, sizeof(g[k].name), "%s", name);
                        g[k].excluded = cc_starts_with(excl, "Yes");
                        g[k].count = 0;
                        (*ng)++;
                }
                g[k].count++;
        }
        cc_strv_free(&found);
        return 0;
}

static int gpu_check(struct pc *c)
{
        gpu_seen g[MAX_GLOB];
        cc_buf bad = {0}, unk = {0}, fine = {0};
        cudnnctl_ver ver, cuda = {0};
        size_t ng = 0, i;
        int listed, rc = -1;

        if (c->sys == CUDNNCTL_SYSTEM_WINDOWS)
                return add(c, "gpu", "warn",
                           "the GPUs of a Windows machine are known only by loading the driver (a probe, not run "
                           "before an install): not checked; `cudnnctl compat --cudnn %s --gpu NAME` tells for a GPU",
                           c->src->version ? c->src->version : "VERSION");
        TRY_RET(gpus_linux(c, g, &ng, &listed));
        if (!listed)
                return add(c, "gpu", "warn",
                           "more than %d GPUs listed in /proc/driver/nvidia/gpus: their architectures were not checked",
                           MAX_GLOB);
        if (ng == 0)
                return add(c, "gpu", "warn",
                           "no NVIDIA GPU seen (/proc/driver/nvidia/gpus): the architectures the release supports were "
                           "not checked; `cudnnctl compat --cudnn %s --gpu NAME` tells for a GPU",
                           c->src->version ? c->src->version : "VERSION");
        if (c->src->version == NULL || cudnnctl_ver_parse(c->src->version, &ver) < 0)
                return add(c, "gpu", "warn", "the release's version is unknown: the GPUs (%s%s) were not checked",
                           g[0].name, ng > 1 ? " and others" : "");
        if (c->src->cuda_major >= 0) {
                cuda.n = 1;
                cuda.part[0] = c->src->cuda_major;
        }
        for (i = 0; i < ng; i++) {
                cc_buf *to = &fine;
                char count[32] = "";
                int sm = g[i].excluded ? -1 : cc_kb_gpu_sm(g[i].name);

                if (g[i].count > 1)
                        snprintf(count, sizeof(count), " x%zu", g[i].count);
                if (g[i].excluded) {
                        TRY(cc_buf_printf(to, c->err, "%s%s%s: excluded from use by the driver, not checked",
                                          to->len ? "; " : "", g[i].name, count));
                } else if (sm < 0) {
                        to = &unk;
                        TRY(cc_buf_printf(to, c->err, "%s%s%s: not in kb/gpus.tsv, its compute capability is unknown",
                                          to->len ? "; " : "", g[i].name, count));
                } else {
                        cc_kb_answer a;
                        int r = cc_kb_cudnn_runs_on(&ver, &cuda, sm, &a);

                        to = r == CC_KB_NO ? &bad : r == CC_KB_YES ? &fine : &unk;
                        TRY(cc_buf_printf(to, c->err, "%s%s%s (sm_%d): %s", to->len ? "; " : "", g[i].name, count, sm,
                                          a.reason));
                }
        }
        if (bad.len > 0)
                rc = add(c, "gpu", forceable(c), "%s%s%s%s%s%s", bad.data, unk.len ? "; " : "", unk.len ? unk.data : "",
                         fine.len ? "; " : "", fine.len ? fine.data : "", force_note(c));
        else if (unk.len > 0)
                rc = add(c, "gpu", "warn", "%s%s%s", unk.data, fine.len ? "; " : "", fine.len ? fine.data : "");
        else
                rc = add(c, "gpu", "ok", "%s", fine.data);
fail:
        cc_buf_free(&bad);
        cc_buf_free(&unk);
        cc_buf_free(&fine);
        return rc;
}

int cc_pairing_checks(cc_machine *m, const cc_source *src, int force, cc_plan *p, cc_error *err)
{
        struct pc c;

        if (m == NULL || src == NULL || p == NULL || p->doc == NULL ||
            cc_v_getm(p->doc, CC_K(install_plan, checks)) == NULL)
                return cc_err(err, CC_ERR_USAGE, "cc_pairing_checks: no machine, source or planned document");
        memset(&c, 0, sizeof(c));
        c.m = m;
        c.src = src;
        c.force = force;
        c.sys = m->system == CC_SYS_WINDOWS ? CUDNNCTL_SYSTEM_WINDOWS : CUDNNCTL_SYSTEM_LINUX;
        c.p = p;
        c.checks = cc_v_getm(p->doc, CC_K(install_plan, checks));
        c.err = err;
        TRY_RET(driver_check(&c));
        return gpu_check(&c);
}
