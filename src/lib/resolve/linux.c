/* The Linux dynamic loader (glibc's ld.so), emulated over a machine's tree
 * and environment: DT_RPATH of the requester and its loaders (when the
 * requester has no DT_RUNPATH), LD_LIBRARY_PATH, DT_RUNPATH, ld.so.cache,
 * the loader's default directories; $ORIGIN/$LIB/$PLATFORM; glibc-hwcaps
 * (and, before glibc 2.37, legacy hwcap) subdirectories of every search
 * directory; DF_1_NODEFLIB; and the checks ld.so makes of each file it
 * opens (another ELF class or machine is passed over, a file that is not
 * ELF stops the load). Everything is read from files: nothing is run. */
#include "resolve.h"

#include "../formats/elf.h"
#include "../formats/ldcache.h"
#include "../machine/ldso.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PATH_ENTRIES 16384
#define MAX_NAME 4096
#define MAX_OBJ_SIZE ((size_t)4 << 30)

struct cc_lnx_ctx {
        cc_machine *m;
        cc_ldso ld;      /* the loader's setup: program, loader, default directories, cache, ld.so.conf */
        cc_strv subdirs; /* "glibc-hwcaps/x86-64-v3", ..., "" (the directory itself) last */
        char *subdirs_source;
        int x86_level;
        int32_t cache_flags; /* the flags entries must have, -1 unknown */
        const char *ld_library_path;
        /* LD_PRELOAD, then /etc/ld.so.preload: entry, where it came from, the path
         * found ("" when the loader finds none), its SONAME ("" if none) */
        cc_strv pre_entry, pre_source, pre_path, pre_soname, pre_found;
        cc_strv notes; /* the setup's notes, then the preloads' */
        /* directories looked in: DIR_MISSING when not there (ld.so's own
         * shortcut: a directory found missing is not looked in again; the
         * glibc-hwcaps and tls subdirectories of every search directory
         * mostly are), DIR_THERE otherwise */
        cc_smap dirs;
};

#define DIR_THERE ((void *)1)
#define DIR_MISSING ((void *)2)

/* ---- small helpers ----------------------------------------------------------- */

static const char *machine_desc(int elfclass, uint16_t machine)
{
        const char *n = cc_elf_machine_name(machine);

        (void)elfclass;
        return n ? n : "an unknown machine";
}

/* ---- the objects ld.so opens ------------------------------------------------- */

enum hdr_verdict {
        HDR_OK = 0,
        HDR_MISSING,
        HDR_SKIP,  /* ld.so passes over it silently and goes on searching */
        HDR_FAIL,  /* ld.so stops the load with an error */
        HDR_ERROR, /* open() fails with an error other than ENOENT/EACCES (a link loop): ld.so passes
                      over it, and when that is the last place of a search directory it gives up the
                      rest of that search list (glibc's open_path) */
};

/* What ld.so's open_verify would make of the file at vpath. */
static int check_candidate(cc_lnx_ctx *c, const char *vpath, char *detail, size_t dsize, char **canon, cc_error *err)
{
        const char *slash = strrchr(vpath, '/');
        char *dir = NULL;
        void *seen;
        cc_tree_res r;
        cc_error merr = {0};
        uint8_t h[64]; /* the ELF header: all ld.so's open_verify judges here */
        size_t got;
        int verdict = HDR_OK;

        detail[0] = '\0';
        *canon = NULL;
        if (slash != NULL && slash != vpath) {
                dir = cc_strndup(err, vpath, (size_t)(slash - vpath));
                if (dir == NULL)
                        return -1;
                if (cc_smap_get(&c->dirs, dir, &seen) && seen == DIR_MISSING) {
                        free(dir);
                        return HDR_MISSING;
                }
        }
        if (cc_tree_resolve(c->m->tree, vpath, 1, &r, err) < 0) {
                free(dir);
                return -1;
        }
        if (r.st.type == CC_FT_NONE) {
                cc_tree_res lr;

                if (r.why[0]) {
                        int kind = r.why_kind;

                        free(dir);
                        snprintf(detail, dsize, "%s", r.why);
                        cc_tree_res_free(&r);
                        if (kind == CC_WHY_NOTDIR || kind == CC_WHY_OUTSIDE)
                                return HDR_MISSING; /* as ENOENT: the directory is not there */
                        if (kind == CC_WHY_ACCESS)
                                return HDR_SKIP; /* EACCES: ld.so goes on */
                        return HDR_ERROR;
                }
                cc_tree_res_free(&r);
                /* a dangling link is "no such file" to ld.so too, but say so (no
                 * second look where the resolution saw no link there) */
                if (r.no_entry)
                        memset(&lr, 0, sizeof(lr));
                else if (cc_tree_resolve(c->m->tree, vpath, 0, &lr, err) < 0) {
                        free(dir);
                        return -1;
                }
                if (lr.st.type == CC_FT_LINK) {
                        cc_error lerr = {0};
                        char *target = cc_tree_readlink(c->m->tree, vpath, &lerr);

                        snprintf(detail, dsize, "a dangling symbolic link (to %s)", target ? target : "?");
                        free(target);
                } else if (dir != NULL && !cc_smap_get(&c->dirs, dir, &seen)) {
                        /* is the directory itself missing (and plainly so: no other reason)? */
                        cc_tree_res dr;
                        int put = -1;

                        if (cc_tree_resolve(c->m->tree, dir, 1, &dr, err) == 0) {
                                put = cc_smap_put(&c->dirs, dir,
                                                  dr.st.type == CC_FT_NONE && !dr.why[0] ? DIR_MISSING : DIR_THERE,
                                                  NULL, err);
                                cc_tree_res_free(&dr);
                        }
                        if (put < 0) {
                                cc_tree_res_free(&lr);
                                free(dir);
                                return -1;
                        }
                }
                cc_tree_res_free(&lr);
                free(dir);
                return HDR_MISSING;
        }
        free(dir);
        *canon = r.canonical;
        r.canonical = NULL;
        if (r.st.type == CC_FT_DIR) {
                cc_tree_res_free(&r);
                snprintf(detail, dsize, "a directory: ld.so stops with \"cannot read file data: Is a directory\"");
                return HDR_FAIL;
        }
        if (cc_read_head(r.host, h, sizeof(h), &got, &merr) < 0) {
                int denied = strstr(merr.msg, "ermission denied") != NULL;

                cc_tree_res_free(&r);
                if (merr.code == CC_ERR_NOMEM) {
                        *err = merr;
                        free(*canon);
                        *canon = NULL;
                        return -1;
                }
                snprintf(detail, dsize, "%s: ld.so passes over it",
                         denied ? "cannot be read (permission denied)" : "cannot be opened");
                return denied ? HDR_SKIP : HDR_ERROR;
        }
        cc_tree_res_free(&r);
        if (got < 4 || h[0] != 0x7f || h[1] != 'E' || h[2] != 'L' || h[3] != 'F') {
                snprintf(detail, dsize, "%s: ld.so stops with \"invalid ELF header\"",
                         got < 4 ? "shorter than an ELF header" : "not an ELF file");
                verdict = HDR_FAIL;
        } else if (got < 6 || (h[4] != 1 && h[4] != 2)) {
                snprintf(detail, dsize, "a broken ELF header: ld.so stops with \"invalid ELF header\"");
                verdict = HDR_FAIL;
        } else if ((h[4] == 2 ? 64 : 32) != c->ld.elfclass) {
                snprintf(detail, dsize, "ELF %d-bit, the program is %d-bit: ld.so passes over it", h[4] == 2 ? 64 : 32,
                         c->ld.elfclass);
                verdict = HDR_SKIP;
        } else if ((h[5] == 2) != (c->ld.big_endian != 0)) {
                snprintf(detail, dsize, "%s-endian ELF: ld.so stops with \"ELF file data encoding not %s-endian\"",
                         h[5] == 2 ? "big" : "little", c->ld.big_endian ? "big" : "little");
                verdict = HDR_FAIL;
        } else if (got < (size_t)(h[4] == 2 ? 64 : 52)) {
                snprintf(detail, dsize, "truncated: ld.so stops with \"file too short\"");
                verdict = HDR_FAIL;
        } else {
                uint16_t type, mach;

                (void)cc_rd_u16(h, got, 16, h[5] == 2, &type);
                (void)cc_rd_u16(h, got, 18, h[5] == 2, &mach);
                if (mach != c->ld.machine) {
                        snprintf(detail, dsize, "built for %s, the program is %s: ld.so passes over it",
                                 machine_desc(c->ld.elfclass, mach), machine_desc(c->ld.elfclass, c->ld.machine));
                        verdict = HDR_SKIP;
                } else if (type != CC_ET_DYN && type != CC_ET_EXEC) {
                        snprintf(detail, dsize,
                                 "ELF type %u: ld.so stops with \"only ET_DYN and ET_EXEC can be loaded\"",
                                 (unsigned)type);
                        verdict = HDR_FAIL;
                }
        }
        return verdict;
}

char *cc_lnx_program_origin(cc_tree *t, const char *vpath, cc_error *err)
{
        char *canon = cc_tree_canonical(t, vpath, err), *dir;

        if (canon == NULL)
                return NULL;
        dir = cc_tree_dirname(t, canon, err);
        free(canon);
        return dir;
}

void cc_lnx_obj_free(cc_lnx_obj *o)
{
        if (o == NULL)
                return;
        free(o->path);
        free(o->origin);
        free(o->rpath);
        free(o->runpath);
        memset(o, 0, sizeof(*o));
}

int cc_lnx_obj_load(cc_lnx_ctx *c, const char *path, cc_lnx_obj *out, cc_strv *needed, char **soname, cc_error *err)
{
        cc_map mp;
        cc_elf *e = NULL;
        char *abs = NULL;
        int rv = -1;
        size_t i;

        memset(out, 0, sizeof(*out));
        if (soname)
                *soname = NULL;
        abs = cc_machine_abs(c->m, path, err);
        if (abs == NULL)
                return -1;
        if (cc_tree_map(c->m->tree, abs, MAX_OBJ_SIZE, &mp, err) < 0)
                goto done;
        if (cc_elf_parse_opts(mp.data, mp.size, CC_ELF_NO_SYMBOLS, &e, err) < 0) {
                cc_unmap(&mp);
                cc_err_prefix(err, "%s", abs);
                goto done;
        }
        if (cc_map_check(&mp, abs, err) < 0) {
                cc_unmap(&mp);
                goto done;
        }
        cc_unmap(&mp);
        out->path = abs;
        abs = NULL;
        out->origin = cc_dirname(out->path, 0, err);
        out->rpath = e->rpath ? cc_strdup(err, e->rpath) : NULL;
        out->runpath = e->runpath ? cc_strdup(err, e->runpath) : NULL;
        out->nodeflib = (e->flags_1 & CC_DF_1_NODEFLIB) != 0;
        out->elfclass = e->bits;
        out->machine = e->machine;
        if (out->origin == NULL || (e->rpath && out->rpath == NULL) || (e->runpath && out->runpath == NULL))
                goto done;
        if (needed)
                for (i = 0; i < e->needed.n; i++)
                        if (cc_strv_push(needed, e->needed.v[i], err) < 0)
                                goto done;
        if (soname && e->soname && (*soname = cc_strdup(err, e->soname)) == NULL)
                goto done;
        rv = 0;
done:
        if (rv < 0) {
                cc_lnx_obj_free(out);
                if (soname) {
                        free(*soname);
                        *soname = NULL;
                }
        }
        cc_elf_free(e);
        free(abs);
        return rv;
}

/* The subdirectories of every search directory, in the order ld.so tries
 * them, the directory itself ("") last. */
static int make_subdirs(cc_lnx_ctx *c, cc_error *err)
{
        int x86 = c->ld.machine == CC_EM_X86_64 && c->ld.elfclass == 64;
        int level = x86 ? cc_host_x86_64_level() : 0;
        int v;

        c->x86_level = level;
        if (x86 && level > 0 && (c->ld.glibc_minor < 0 || c->ld.glibc_minor >= 33)) {
                for (v = 4; v >= 2; v--) {
                        char *s;

                        if (level < v)
                                continue;
                        s = cc_asprintf(err, "glibc-hwcaps/x86-64-v%d", v);
                        if (cc_strv_take(&c->subdirs, s, err) < 0)
                                return -1;
                }
        }
        if (x86 && c->ld.glibc_minor >= 0 && c->ld.glibc_minor < 37) {
                /* Legacy hwcap subdirectories (removed in glibc 2.37): every
                 * combination of tls, the platform and the important hwcaps,
                 * tls first (the order glibc's _dl_important_hwcaps builds). */
                const char *items[4];
                int nitems = 0, mask;

                items[nitems++] = "x86_64"; /* HWCAP_X86_64 */
                /* glibc sets HWCAP_X86_AVX512_1 on Intel CPUs only
                 * (cpu-features.c: cpu_features->basic.kind == arch_kind_intel):
                 * an AMD CPU with AVX-512 gets no avx512_1 directories. */
                if (level >= 4 && cc_host_cpu_is_intel())
                        items[nitems++] = "avx512_1"; /* HWCAP_X86_AVX512_1 */
                items[nitems++] = c->ld.dst_platform ? c->ld.dst_platform : "x86_64";
                items[nitems++] = "tls";
                for (mask = (1 << nitems) - 1; mask > 0; mask--) {
                        cc_buf b = {0};
                        int k;

                        for (k = nitems - 1; k >= 0; k--) {
                                if (!(mask & (1 << k)))
                                        continue;
                                if ((b.len && cc_buf_putc(&b, '/', err) < 0) || cc_buf_puts(&b, items[k], err) < 0) {
                                        cc_buf_free(&b);
                                        return -1;
                                }
                        }
                        if (cc_strv_take(&c->subdirs, cc_buf_steal(&b), err) < 0)
                                return -1;
                }
        }
        if (cc_strv_push(&c->subdirs, "", err) < 0)
                return -1;
        if (!x86)
                c->subdirs_source = cc_strdup(err, "none: glibc-hwcaps subdirectories are emulated for x86-64 only");
        else if (level == 0)
                c->subdirs_source = cc_strdup(err, "none: this machine's CPU level could not be read");
        else
                c->subdirs_source = cc_asprintf(
                    err, "this machine's CPU supports x86-64-v%d%s", level,
                    c->ld.glibc_minor < 0 ? "; glibc's release is unknown, so legacy hwcap subdirectories are left out"
                    : c->ld.glibc_minor < 37 ? "; glibc before 2.37 also searches legacy hwcap subdirectories"
                                             : "");
        return c->subdirs_source ? 0 : -1;
}

/* ---- the cache's index ------------------------------------------------------------ */

/* The flags the program's cache entries must have; the setup's notes come
 * first among the context's. */
static int cache_setup(cc_lnx_ctx *c, cc_error *err)
{
        size_t i;

        c->cache_flags = cc_ldcache_flags_for(c->ld.elfclass, c->ld.machine);
        for (i = 0; i < c->ld.notes.n; i++)
                if (cc_strv_push(&c->notes, c->ld.notes.v[i], err) < 0)
                        return -1;
        return 0;
}

static int read_preloads(cc_lnx_ctx *c, cc_error *err);

int cc_lnx_ctx_open(cc_machine *m, const char *exe, cc_lnx_ctx **out, cc_error *err)
{
        cc_lnx_ctx *c;

        *out = NULL;
        if (m->system != CC_SYS_LINUX)
                return cc_err(err, CC_ERR_USAGE, "the Linux loader is emulated only for a Linux tree");
        c = cc_calloc(err, 1, sizeof(*c));
        if (c == NULL)
                return -1;
        c->m = m;
        if (cc_ldso_read(m, exe, &c->ld, err) < 0 || make_subdirs(c, err) < 0 || cache_setup(c, err) < 0) {
                cc_lnx_ctx_free(c);
                return -1;
        }
        c->ld_library_path = cc_machine_getenv(m, "LD_LIBRARY_PATH");
        if (read_preloads(c, err) < 0) {
                cc_lnx_ctx_free(c);
                return -1;
        }
        *out = c;
        return 0;
}

void cc_lnx_ctx_free(cc_lnx_ctx *c)
{
        if (c == NULL)
                return;
        cc_ldso_free(&c->ld);
        cc_strv_free(&c->subdirs);
        free(c->subdirs_source);
        cc_smap_free(&c->dirs);
        cc_strv_free(&c->pre_entry);
        cc_strv_free(&c->pre_source);
        cc_strv_free(&c->pre_path);
        cc_strv_free(&c->pre_soname);
        cc_strv_free(&c->pre_found);
        cc_strv_free(&c->notes);
        free(c);
}

const char *cc_lnx_ctx_interp(const cc_lnx_ctx *c)
{
        return c->ld.interp;
}

int cc_lnx_ctx_exe_is_program(const cc_lnx_ctx *c)
{
        return c->ld.exe_interp;
}

cc_value *cc_lnx_ctx_facts(const cc_lnx_ctx *c, cc_error *err)
{
        cc_value *o = cc_v_object(err), *cache = NULL;
        char fb[64];

        if (o == NULL)
                return NULL;
        cache = cc_v_object(err);
        if (cache == NULL)
                goto fail;
        if (cc_v_set(o, "program", cc_v_str(c->ld.exe, err), err) < 0 ||
            cc_v_set_str(o, "program_source", c->ld.exe_source, err) < 0 ||
            cc_v_set_int(o, "elf_class", c->ld.elfclass, err) < 0 ||
            cc_v_set(o, "machine", cc_v_str(cc_elf_machine_name(c->ld.machine), err), err) < 0 ||
            cc_v_set(o, "interpreter", cc_v_str(c->ld.interp, err), err) < 0 ||
            cc_v_set(o, "interpreter_source", cc_v_str(c->ld.interp_source, err), err) < 0 ||
            cc_v_set(o, "default_dirs", cc_v_strv(&c->ld.sysdirs, err), err) < 0 ||
            cc_v_set_str(o, "default_dirs_source", c->ld.sysdirs_source, err) < 0 ||
            cc_v_set(o, "glibc", cc_v_str(c->ld.glibc, err), err) < 0 ||
            cc_v_set_str(o, "dst_lib", c->ld.dst_lib, err) < 0 ||
            cc_v_set(o, "dst_platform", cc_v_str(c->ld.dst_platform, err), err) < 0 ||
            cc_v_set(o, "subdirs", cc_v_strv(&c->subdirs, err), err) < 0 ||
            cc_v_set_str(o, "subdirs_source", c->subdirs_source, err) < 0 ||
            cc_v_set(o, "ld_library_path", cc_v_str(c->ld_library_path, err), err) < 0)
                goto fail;
        if (cc_v_set_str(cache, "path", c->ld.cache_path, err) < 0 ||
            cc_v_set(cache, "format",
                     cc_v_str(c->ld.cache == NULL                        ? NULL
                              : c->ld.cache->format == CC_LDCACHE_OLD    ? "old"
                              : c->ld.cache->format == CC_LDCACHE_COMPAT ? "compat"
                                                                         : "new",
                              err),
                     err) < 0 ||
            cc_v_set_int(cache, "entries", c->ld.cache ? (int64_t)c->ld.cache->n : 0, err) < 0 ||
            cc_v_set(cache, "required_flags",
                     c->cache_flags >= 0 ? cc_v_str(cc_ldcache_flags_str(c->cache_flags, fb, sizeof(fb)), err)
                                         : cc_v_null(err),
                     err) < 0 ||
            cc_v_set(cache, "error", cc_v_str(c->ld.cache_error, err), err) < 0 ||
            cc_v_set(cache, "generator", cc_v_str(c->ld.cache ? c->ld.cache->generator : NULL, err), err) < 0)
                goto fail;
        if (cc_v_set(o, "ld_so_cache", cache, err) < 0) {
                cache = NULL;
                goto fail;
        }
        cache = NULL;
        {
                cc_value *pre = cc_v_array(err);
                size_t i;

                if (cc_v_set(o, "preload", pre, err) < 0)
                        goto fail;
                for (i = 0; i < c->pre_entry.n; i++) {
                        cc_value *e = cc_v_object(err);

                        if (cc_v_push(pre, e, err) < 0 || cc_v_set_str(e, "entry", c->pre_entry.v[i], err) < 0 ||
                            cc_v_set_str(e, "source", c->pre_source.v[i], err) < 0 ||
                            cc_v_set(e, "path", cc_v_str(c->pre_path.v[i][0] ? c->pre_path.v[i] : NULL, err), err) <
                                0 ||
                            cc_v_set(e, "soname", cc_v_str(c->pre_soname.v[i][0] ? c->pre_soname.v[i] : NULL, err),
                                     err) < 0)
                                goto fail;
                }
        }
        if (cc_v_set(o, "ld_so_conf_dirs", cc_v_strv(&c->ld.conf_dirs, err), err) < 0 ||
            cc_v_set(o, "ld_so_conf_warnings", cc_v_strv(&c->ld.conf_warnings, err), err) < 0 ||
            cc_v_set(o, "notes", cc_v_strv(&c->notes, err), err) < 0)
                goto fail;
        return o;
fail:
        cc_v_free(cache);
        cc_v_free(o);
        return NULL;
}

/* ---- dynamic string tokens ---------------------------------------------------------- */

/* Expand $ORIGIN, $LIB, $PLATFORM (and ${...}) in s. origin NULL: an element
 * with $ORIGIN cannot be expanded (*dropped = 1, as ld.so drops it). */
static char *expand_dst(const cc_lnx_ctx *c, const char *s, const char *origin, int *dropped, cc_error *err)
{
        cc_buf b = {0};
        const char *p = s;

        *dropped = 0;
        while (*p) {
                if (*p == '$') {
                        static const char *const names[] = {"ORIGIN", "LIB", "PLATFORM"};
                        const char *vals[3];
                        size_t i;
                        int matched = 0;

                        vals[0] = origin;
                        vals[1] = c->ld.dst_lib;
                        vals[2] = c->ld.dst_platform;
                        for (i = 0; i < 3 && !matched; i++) {
                                size_t n = strlen(names[i]);
                                size_t skip = 0;

                                if (strncmp(p + 1, names[i], n) == 0 &&
                                    !((p[1 + n] >= 'A' && p[1 + n] <= 'Z') || (p[1 + n] >= 'a' && p[1 + n] <= 'z') ||
                                      (p[1 + n] >= '0' && p[1 + n] <= '9') || p[1 + n] == '_'))
                                        skip = 1 + n;
                                else if (p[1] == '{' && strncmp(p + 2, names[i], n) == 0 && p[2 + n] == '}')
                                        skip = 3 + n;
                                if (skip == 0)
                                        continue;
                                matched = 1;
                                if (vals[i] == NULL) {
                                        *dropped = 1;
                                        cc_buf_free(&b);
                                        return cc_strdup(err, "");
                                }
                                if (cc_buf_puts(&b, vals[i], err) < 0)
                                        goto fail;
                                p += skip;
                        }
                        if (matched)
                                continue;
                }
                if (cc_buf_putc(&b, *p, err) < 0)
                        goto fail;
                p++;
        }
        return b.data ? cc_buf_steal(&b) : cc_strdup(err, "");
fail:
        cc_buf_free(&b);
        return NULL;
}

/* ---- searching ---------------------------------------------------------------------- */

struct search {
        cc_lnx_ctx *c;
        const char *name;
        cc_resolution *r;
        int shadowed; /* keep going after the winner */
        int done;     /* the loader has stopped (found or failed) */
        int failed;   /* it stopped on a file it cannot load */
        int last;     /* the verdict of the last place tried */
        char *winner_canonical;
};

/* Try one file. Returns -1 on a hard error. */
static int try_file(struct search *s, const char *shown, int how, const char *origin, cc_error *err)
{
        char detail[512];
        char *abs, *canon = NULL;
        int v, rv = -1;

        abs = cc_machine_abs(s->c->m, shown, err);
        if (abs == NULL)
                return -1;
        v = check_candidate(s->c, abs, detail, sizeof(detail), &canon, err);
        if (v < 0)
                goto done;
        s->last = v;
        if (s->done) {
                /* after the winner: only other usable copies matter */
                if (v == HDR_OK) {
                        size_t i;
                        int dup = s->winner_canonical && strcmp(canon, s->winner_canonical) == 0;

                        for (i = s->r->ntried; i < s->r->ntries && !dup; i++)
                                dup = s->r->tries[i].outcome == CC_TRY_SHADOWED && s->r->tries[i].realpath &&
                                      strcmp(s->r->tries[i].realpath, canon) == 0;
                        if (!dup && cc_resolution_add(s->r, shown, how, origin, CC_TRY_SHADOWED, NULL, canon, err) < 0)
                                goto done;
                }
                rv = 0;
                goto done;
        }
        if (v == HDR_MISSING || v == HDR_SKIP || v == HDR_ERROR) {
                rv = cc_resolution_add(s->r, shown, how, origin, v == HDR_MISSING ? CC_TRY_MISSING : CC_TRY_SKIPPED,
                                       detail[0] ? detail : NULL, canon, err);
                goto done;
        }
        if (cc_resolution_add(s->r, shown, how, origin, v == HDR_OK ? CC_TRY_FOUND : CC_TRY_FAILED,
                              v == HDR_OK ? NULL : detail, canon, err) < 0)
                goto done;
        s->done = 1;
        s->r->ntried = s->r->ntries;
        if (v == HDR_OK) {
                s->r->found = 1;
                s->r->how = how;
                s->r->path = cc_strdup(err, shown);
                s->r->origin = origin ? cc_strdup(err, origin) : NULL;
                s->r->realpath = canon;
                canon = NULL;
                s->winner_canonical = s->r->realpath;
                if (s->r->path == NULL || (origin && s->r->origin == NULL))
                        goto done;
        } else {
                char *n =
                    cc_asprintf(err, "%s: %s; the load fails here (ld.so does not go on searching)", shown, detail);

                s->failed = 1;
                if (cc_strv_take(&s->r->notes, n, err) < 0)
                        goto done;
        }
        rv = 0;
done:
        free(canon);
        free(abs);
        return rv;
}

/* A note on the answer (each said once). */
#define note(s, err, ...) cc_strv_pushf(&(s)->r->notes, 1, (err), __VA_ARGS__)

/* Search one list (RPATH, RUNPATH: ':'-separated; LD_LIBRARY_PATH: at ':' or
 * ';', as ld.so splits it): every
 * element with each hwcaps subdirectory, elements deduplicated as ld.so
 * does within one list. origin_dir expands $ORIGIN (NULL: unknown). */
static int search_list(struct search *s, const char *list, const char *origin_dir, int how, const char *what,
                       cc_error *err)
{
        cc_strv elems = {0};
        cc_smap seen = {0};
        size_t i, k;
        int rv = -1;

        if (list == NULL)
                return 0;
        if (cc_split_pathlist_any(list, how == CC_HOW_LD_LIBRARY_PATH ? ":;" : ":", MAX_PATH_ENTRIES, &elems, err) <
            0) {
                if (err->code != CC_ERR_LIMIT)
                        goto done;
                cc_err_clear(err);
                if (note(s, err, "%s has more than %d elements: only the first %d are searched here", what,
                         MAX_PATH_ENTRIES, MAX_PATH_ENTRIES) < 0)
                        goto done;
        }
        for (i = 0; i < elems.n; i++) {
                int dropped = 0;
                char *dir = expand_dst(s->c, elems.v[i], origin_dir, &dropped, err);
                char *origin;
                size_t dl;

                if (dir == NULL)
                        goto done;
                if (dropped) {
                        free(dir);
                        if (note(s, err, "%s element '%s' uses $ORIGIN, which is unknown here: ld.so drops it", what,
                                 elems.v[i]) < 0)
                                goto done;
                        continue;
                }
                if (dir[0] == '\0') {
                        if (note(s, err, "%s element %zu is empty: ld.so searches the current directory (%s) there",
                                 what, i + 1, s->c->m->cwd) < 0) {
                                free(dir);
                                goto done;
                        }
                } else if (dir[0] != '/') {
                        if (note(s, err,
                                 "%s element %zu ('%s') is relative: ld.so searches it from the current directory (%s)",
                                 what, i + 1, dir, s->c->m->cwd) < 0) {
                                free(dir);
                                goto done;
                        }
                }
                dl = strlen(dir);
                while (dl > 1 && dir[dl - 1] == '/')
                        dir[--dl] = '\0';
                if (cc_smap_get(&seen, dir, NULL)) {
                        free(dir);
                        continue;
                }
                if (cc_smap_put(&seen, dir, NULL, NULL, err) < 0) {
                        free(dir);
                        goto done;
                }
                if (strcmp(elems.v[i], dir) == 0)
                        origin = cc_asprintf(err, "%s element %zu", what, i + 1);
                else
                        origin = cc_asprintf(err, "%s element %zu (%s)", what, i + 1, elems.v[i]);
                if (origin == NULL) {
                        free(dir);
                        goto done;
                }
                for (k = 0; k < s->c->subdirs.n && (!s->done || s->shadowed); k++) {
                        const char *sub = s->c->subdirs.v[k];
                        /* as ld.so builds it: an empty element gives a bare relative name */
                        char *p = cc_cat(err, strcmp(dir, "/") == 0 ? "" : dir, dir[0] ? "/" : "", sub,
                                         sub[0] ? "/" : "", s->name, (char *)NULL);

                        if (p == NULL || try_file(s, p, how, origin, err) < 0) {
                                free(p);
                                free(origin);
                                free(dir);
                                goto done;
                        }
                        free(p);
                }
                free(origin);
                if (!s->done && s->last == HDR_ERROR) {
                        /* glibc's open_path: an error other than ENOENT/EACCES on a
                         * directory that exists ends this whole list */
                        int rc = note(s, err,
                                      "%s: an error other than \"no such file\" at %s/%s: ld.so gives up the rest of "
                                      "the %s list and goes on with the next step",
                                      what, dir[0] ? dir : ".", s->name, what);

                        free(dir);
                        if (rc < 0)
                                goto done;
                        break;
                }
                free(dir);
        }
        rv = 0;
done:
        cc_strv_free(&elems);
        cc_smap_free(&seen);
        return rv;
}

/* 1 if path lies in one of the loader's default directories. */
static int in_default_dir(const cc_lnx_ctx *c, const char *path)
{
        size_t i;

        for (i = 0; i < c->ld.sysdirs.n; i++) {
                size_t n = strlen(c->ld.sysdirs.v[i]);

                if (strncmp(path, c->ld.sysdirs.v[i], n) == 0 &&
                    (path[n] == '/' || (n == 1 && c->ld.sysdirs.v[i][0] == '/')))
                        return 1;
        }
        return 0;
}

/* Whether the cache has an entry named name (of any flags), and the span of
 * entries to look at: the name's run when the cache is sorted, as ldconfig
 * writes it, else the whole table from its first entry of the name. */
static int cache_has(const cc_ldcache *cache, const char *name, size_t *lo, size_t *hi)
{
        size_t a, b;

        if (cache == NULL)
                return 0;
        cc_ldcache_span(cache, name, &a, &b);
        for (; a < b; a++)
                if (strcmp(cache->entries[a].key, name) == 0) {
                        if (lo != NULL)
                                *lo = a;
                        if (hi != NULL)
                                *hi = b;
                        return 1;
                }
        return 0;
}

static int search_cache(struct search *s, int nodeflib, cc_error *err)
{
        const cc_ldcache *cache = s->c->ld.cache;
        size_t i, lo, hi, best = (size_t)-1;
        int best_prio = 1 << 30;
        char fb[64];

        if (cache == NULL || !cache_has(cache, s->name, &lo, &hi))
                return 0;
        /* Entries of the name with the flags this loader requires: the
         * glibc-hwcaps entry of the best level the CPU has, else the first
         * plain entry. */
        {
                size_t best_hw = (size_t)-1, first_plain = (size_t)-1;

                for (i = lo; i < hi; i++) {
                        const cc_ldcache_entry *e = &cache->entries[i];
                        size_t k;

                        if (strcmp(e->key, s->name) != 0 ||
                            !cc_ldcache_flags_accepted(e->flags, s->c->ld.elfclass, s->c->ld.machine, 0))
                                continue;
                        if (e->hwcaps_index < 0) {
                                if (first_plain == (size_t)-1)
                                        first_plain = i;
                                continue;
                        }
                        for (k = 0; e->hwcaps && k < s->c->subdirs.n; k++) {
                                const char *sd = s->c->subdirs.v[k];

                                if (cc_starts_with(sd, "glibc-hwcaps/") && strcmp(sd + 13, e->hwcaps) == 0 &&
                                    (int)k < best_prio) {
                                        best_prio = (int)k;
                                        best_hw = i;
                                }
                        }
                }
                best = best_hw != (size_t)-1 ? best_hw : first_plain;
        }
        /* Every entry of the name is looked at in the one cache lookup: the
         * chosen one is opened, the others are passed over (listed as tried
         * even when they come after the chosen one). */
        {
                int was_done = s->done, found_here = 0;

                for (i = lo; i < hi; i++) {
                        const cc_ldcache_entry *e = &cache->entries[i];
                        char origin[256], detail[256];

                        if (strcmp(e->key, s->name) != 0)
                                continue;
                        snprintf(origin, sizeof(origin), "%s entry (%s%s%s)", s->c->ld.cache_path,
                                 cc_ldcache_flags_str(e->flags, fb, sizeof(fb)), e->hwcaps ? ", hwcaps: " : "",
                                 e->hwcaps ? e->hwcaps : "");
                        if (i == best && nodeflib && in_default_dir(s->c, e->value)) {
                                if (!was_done &&
                                    cc_resolution_add(s->r, e->value, CC_HOW_LDCACHE, origin, CC_TRY_SKIPPED,
                                                      "in a default directory: the requester's DF_1_NODEFLIB excludes "
                                                      "it",
                                                      NULL, err) < 0)
                                        return -1;
                                continue;
                        }
                        if (i == best) {
                                if (try_file(s, e->value, CC_HOW_LDCACHE, origin, err) < 0)
                                        return -1;
                                found_here = !was_done && s->done;
                                continue;
                        }
                        if (was_done)
                                continue; /* looked at only for shadowed copies: the chosen entry is enough */
                        if (!cc_ldcache_flags_accepted(e->flags, s->c->ld.elfclass, s->c->ld.machine, 0))
                                snprintf(detail, sizeof(detail), "an entry for %s, not for this %d-bit %s program", fb,
                                         s->c->ld.elfclass, machine_desc(s->c->ld.elfclass, s->c->ld.machine));
                        else if (e->hwcaps)
                                snprintf(detail, sizeof(detail), "for glibc-hwcaps %s, %s", e->hwcaps,
                                         best_prio < (1 << 30) ? "a better level was chosen"
                                                               : "a level this CPU does not have");
                        else
                                snprintf(detail, sizeof(detail), "a later entry of the same name");
                        if (cc_resolution_add(s->r, e->value, CC_HOW_LDCACHE, origin, CC_TRY_SKIPPED, detail, NULL,
                                              err) < 0)
                                return -1;
                        if (found_here)
                                s->r->ntried = s->r->ntries;
                }
        }
        return 0;
}

static int search_default(struct search *s, cc_error *err)
{
        size_t i, k;

        for (i = 0; i < s->c->ld.sysdirs.n && (!s->done || s->shadowed); i++) {
                const char *dir = s->c->ld.sysdirs.v[i];
                char origin[256];

                snprintf(origin, sizeof(origin), "default directory of %s",
                         s->c->ld.interp ? s->c->ld.interp : "the loader");
                for (k = 0; k < s->c->subdirs.n && (!s->done || s->shadowed); k++) {
                        const char *sub = s->c->subdirs.v[k];
                        char *p = cc_cat(err, strcmp(dir, "/") == 0 ? "" : dir, "/", sub, sub[0] ? "/" : "", s->name,
                                         (char *)NULL);

                        if (p == NULL || try_file(s, p, CC_HOW_DEFAULT, origin, err) < 0) {
                                free(p);
                                return -1;
                        }
                        free(p);
                }
                if (!s->done && s->last == HDR_ERROR)
                        return note(s, err,
                                    "an error other than \"no such file\" at %s/%s: ld.so gives up the rest of its "
                                    "default directories",
                                    dir, s->name);
        }
        return 0;
}

/* Notes for a name that was not found (or a surprising answer). */
static int after_notes(struct search *s, const cc_lnx_obj *chain, size_t n, cc_error *err)
{
        size_t i;
        int in_cache;

        if (s->r->found || s->failed)
                return 0;
        /* a file in an ld.so.conf directory that the cache does not name */
        in_cache = cache_has(s->c->ld.cache, s->name, NULL, NULL);
        for (i = 0; !in_cache && i < s->c->ld.conf_dirs.n; i++) {
                char *p = cc_tree_join(s->c->m->tree, s->c->ld.conf_dirs.v[i], s->name, err);
                cc_stat st;

                if (p == NULL || cc_tree_stat(s->c->m->tree, p, &st, err) < 0) {
                        free(p);
                        return -1;
                }
                if (st.type == CC_FT_FILE &&
                    note(s, err,
                         "%s exists in %s (listed in ld.so.conf) but ld.so.cache has no usable entry for it: "
                         "run ldconfig",
                         p, s->c->ld.conf_dirs.v[i]) < 0) {
                        free(p);
                        return -1;
                }
                free(p);
        }
        /* the requester's own directory holds it, but nothing points there */
        if (n > 0 && chain[0].origin != NULL) {
                char *p = cc_tree_join(s->c->m->tree, chain[0].origin, s->name, err);
                cc_stat st;

                if (p == NULL || cc_tree_stat(s->c->m->tree, p, &st, err) < 0) {
                        free(p);
                        return -1;
                }
                if (st.type == CC_FT_FILE &&
                    note(s, err,
                         "%s is in the requester's own directory, but ld.so does not look there: %s has no "
                         "RUNPATH/RPATH $ORIGIN (add it with patchelf --set-rpath '$ORIGIN', or put the directory on "
                         "LD_LIBRARY_PATH or in ld.so.conf)",
                         p, chain[0].path) < 0) {
                        free(p);
                        return -1;
                }
                free(p);
        }
        /* the cache knows the library under a longer name (libcuda.so.1 for libcuda.so) */
        if (s->c->ld.cache != NULL) {
                size_t nl = strlen(s->name), shown = 0;

                for (i = 0; i < s->c->ld.cache->n && shown < 3; i++) {
                        const cc_ldcache_entry *e = &s->c->ld.cache->entries[i];

                        if (strncmp(e->key, s->name, nl) == 0 && e->key[nl] == '.' &&
                            cc_ldcache_flags_accepted(e->flags, s->c->ld.elfclass, s->c->ld.machine, 0)) {
                                if (note(s, err,
                                         "ld.so.cache has %s (%s) but not %s: the program asks for exactly %s (a "
                                         "development link %s -> %s would satisfy it)",
                                         e->key, e->value, s->name, s->name, s->name, e->key) < 0)
                                        return -1;
                                shown++;
                        }
                }
        }
        return 0;
}

int cc_lnx_resolve(cc_lnx_ctx *c, const char *name, const cc_lnx_obj *chain, size_t n, int shadowed, cc_resolution *out,
                   cc_error *err)
{
        struct search s;
        const cc_lnx_obj *req = n ? &chain[0] : NULL;
        size_t i;
        int rv = -1;

        memset(out, 0, sizeof(*out));
        memset(&s, 0, sizeof(s));
        s.c = c;
        s.r = out;
        s.name = name;
        s.shadowed = shadowed;
        out->how = CC_HOW_NOT_FOUND;
        out->name = cc_strdup(err, name);
        if (out->name == NULL)
                goto done;
        if (strlen(name) > MAX_NAME) {
                cc_err(err, CC_ERR_LIMIT, "a library name longer than %d bytes", MAX_NAME);
                goto done;
        }
        if (strchr(name, '/') != NULL) {
                /* a path: DSTs expanded, then used as it is */
                int dropped = 0;
                char *p = expand_dst(c, name, req ? req->origin : NULL, &dropped, err);

                if (p == NULL)
                        goto done;
                if (dropped) {
                        free(p);
                        if (note(&s, err, "'%s' uses $ORIGIN, which is unknown here", name) < 0)
                                goto done;
                } else {
                        rv = try_file(&s, p, CC_HOW_DIRECT, "the name is a path", err);
                        free(p);
                        if (rv < 0)
                                goto done;
                }
                if (!s.done)
                        out->ntried = out->ntries;
                rv = 0;
                goto done;
        }
        /* an object LD_PRELOAD loaded first answers to its name and SONAME */
        for (i = 0; i < c->pre_entry.n; i++) {
                char origin[300];

                if (c->pre_path.v[i][0] == '\0' ||
                    (strcmp(c->pre_entry.v[i], name) != 0 && strcmp(c->pre_soname.v[i], name) != 0))
                        continue;
                snprintf(origin, sizeof(origin), "%s entry %s", c->pre_source.v[i], c->pre_entry.v[i]);
                if (try_file(&s, c->pre_path.v[i], CC_HOW_PRELOAD, origin, err) < 0)
                        goto done;
                if (s.done && note(&s, err, "%s loads %s before anything else: every request for %s gets it",
                                   c->pre_source.v[i], c->pre_path.v[i], name) < 0)
                        goto done;
                break;
        }
        /* DT_RPATH of the requester and its loaders, unless the requester has DT_RUNPATH */
        if (req == NULL || req->runpath == NULL) {
                for (i = 0; i < n && (!s.done || shadowed); i++) {
                        char what[512];

                        if (chain[i].rpath == NULL)
                                continue;
                        if (chain[i].runpath != NULL) {
                                if (note(&s, err, "%s has DT_RUNPATH, so its DT_RPATH is ignored", chain[i].path) < 0)
                                        goto done;
                                continue;
                        }
                        snprintf(what, sizeof(what), "RPATH of %s%s", chain[i].path,
                                 i == 0 ? "" : " (inherited: a loader of the requester)");
                        if (search_list(&s, chain[i].rpath, chain[i].origin, CC_HOW_RPATH, what, err) < 0)
                                goto done;
                }
        } else if (req->rpath != NULL && note(&s, err,
                                              "%s has both DT_RPATH and DT_RUNPATH: ld.so ignores its DT_RPATH and "
                                              "those of its loaders",
                                              req->path) < 0) {
                goto done;
        }
        if ((!s.done || shadowed) && c->ld_library_path != NULL) {
                /* $ORIGIN in LD_LIBRARY_PATH is the program's */
                const char *origin = n ? chain[n - 1].origin : NULL;

                if (search_list(&s, c->ld_library_path, origin, CC_HOW_LD_LIBRARY_PATH, "LD_LIBRARY_PATH", err) < 0)
                        goto done;
        }
        if ((!s.done || shadowed) && req != NULL && req->runpath != NULL) {
                char what[512];

                snprintf(what, sizeof(what), "RUNPATH of %s", req->path);
                if (search_list(&s, req->runpath, req->origin, CC_HOW_RUNPATH, what, err) < 0)
                        goto done;
        }
        if (req != NULL && req->nodeflib) {
                if (note(&s, err,
                         "%s is linked with -z nodefaultlib (DF_1_NODEFLIB): for its dependencies ld.so takes no "
                         "ld.so.cache entry in a default directory and does not search the default directories",
                         req->path) < 0)
                        goto done;
                if ((!s.done || shadowed) && search_cache(&s, 1, err) < 0)
                        goto done;
        } else {
                if ((!s.done || shadowed) && search_cache(&s, 0, err) < 0)
                        goto done;
                if ((!s.done || shadowed) && search_default(&s, err) < 0)
                        goto done;
        }
        if (!s.done)
                out->ntried = out->ntries;
        if (after_notes(&s, chain, n, err) < 0)
                goto done;
        rv = 0;
done:
        if (rv == 0 && !out->found && out->how == CC_HOW_NONE)
                out->how = CC_HOW_NOT_FOUND;
        if (rv < 0)
                cc_resolution_free(out);
        return rv;
}

/* ---- LD_PRELOAD -------------------------------------------------------------------- */

/* One preload entry: found like a DT_NEEDED of the program (a name with a
 * '/' is used as it is). */
static int add_preload(cc_lnx_ctx *c, const char *entry, const char *source, cc_error *err)
{
        cc_resolution r;
        cc_lnx_obj o;
        char *soname = NULL;
        cc_error lerr = {0};
        int rv = -1;

        if (c->pre_entry.n >= 256)
                return 0;
        if (cc_lnx_resolve(c, entry, NULL, 0, 0, &r, err) < 0)
                return -1;
        if (r.found && cc_lnx_obj_load(c, r.path, &o, NULL, &soname, &lerr) == 0)
                cc_lnx_obj_free(&o);
        if (cc_strv_push(&c->pre_entry, entry, err) < 0 || cc_strv_push(&c->pre_source, source, err) < 0 ||
            cc_strv_push(&c->pre_path, r.found ? r.path : "", err) < 0 ||
            cc_strv_push(&c->pre_soname, soname ? soname : "", err) < 0)
                goto done;
        if (r.found && cc_strv_push(&c->pre_found, r.path, err) < 0)
                goto done;
        if (!r.found &&
            cc_strv_pushf(&c->notes, 1, err,
                          "%s names '%s', which the loader cannot find: ld.so ignores it (\"cannot be preloaded\")",
                          source, entry) < 0)
                goto done;
        rv = 0;
done:
        free(soname);
        cc_resolution_free(&r);
        return rv;
}

static int read_preloads(cc_lnx_ctx *c, cc_error *err)
{
        const char *env = cc_machine_getenv(c->m, "LD_PRELOAD");
        char *text = NULL, *copy = NULL, *p, *tok;
        size_t len = 0;
        cc_error rerr = {0};
        int rv = -1;

        /* LD_PRELOAD: separated by spaces or colons */
        if (env != NULL) {
                copy = cc_strdup(err, env);
                if (copy == NULL)
                        return -1;
                p = copy;
                while ((tok = cc_next_token(&p, " :\t")) != NULL)
                        if (add_preload(c, tok, "LD_PRELOAD", err) < 0)
                                goto done;
        }
        /* /etc/ld.so.preload: separated by white space */
        if (cc_tree_read(c->m->tree, "/etc/ld.so.preload", (size_t)1 << 20, &text, &len, &rerr) == 0) {
                p = text;
                while ((tok = cc_next_token(&p, " \t\r\n")) != NULL) {
                        if (tok[0] == '#')
                                continue;
                        if (add_preload(c, tok, "/etc/ld.so.preload", err) < 0)
                                goto done;
                }
        } else if (rerr.code == CC_ERR_NOMEM) {
                *err = rerr;
                goto done;
        }
        rv = 0;
done:
        free(copy);
        free(text);
        return rv;
}

const cc_strv *cc_lnx_ctx_preloads(const cc_lnx_ctx *c)
{
        return &c->pre_found;
}
