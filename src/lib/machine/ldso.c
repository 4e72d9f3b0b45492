/* The Linux dynamic loader's setup on a machine, read from its files (see
 * ldso.h). Nothing is run: the default directories and glibc's release are
 * read from the bytes of the loader and of libc.so.6. */
#include "ldso.h"

#include "../formats/elf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PATH_ENTRIES 16384
#define MAX_OBJ_SIZE ((size_t)4 << 30)

/* ---- the loader ------------------------------------------------------------------ */

static int is_dir_char(uint8_t ch)
{
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '/' ||
               ch == '_' || ch == '-' || ch == '.' || ch == '+';
}

/* glibc keeps its system directories as one run of NUL-terminated strings,
 * each "/...../": "/lib/x86_64-linux-gnu/\0/usr/lib/x86_64-linux-gnu/\0/lib/\0/usr/lib/\0".
 * Find the first such run of at least two in the loader's bytes. */
static int find_sysdirs(const uint8_t *d, size_t n, cc_strv *out, cc_error *err)
{
        size_t i = 0;

        while (i < n) {
                size_t j = i, count = 0;
                cc_strv run = {0};

                while (j < n && d[j] == '/') {
                        size_t s = j;

                        while (j < n && d[j] != 0 && is_dir_char(d[j]) && j - s < 256)
                                j++;
                        if (j >= n || d[j] != 0 || j - s < 2 || d[j - 1] != '/')
                                break;
                        if (cc_strv_pushn(&run, (const char *)d + s, j - s - 1, err) < 0) {
                                cc_strv_free(&run);
                                return -1;
                        }
                        count++;
                        j++;
                }
                if (count >= 2) {
                        size_t k;

                        for (k = 0; k < run.n; k++)
                                if (cc_strv_push(out, run.v[k][0] ? run.v[k] : "/", err) < 0) {
                                        cc_strv_free(&run);
                                        return -1;
                                }
                        cc_strv_free(&run);
                        return 1;
                }
                cc_strv_free(&run);
                i = j > i ? j : i + 1;
                /* skip to the next string start */
                if (i < n) {
                        const uint8_t *q = memchr(d + i, '/', n - i);

                        i = q != NULL ? (size_t)(q - d) : n;
                }
                if (i > 0 && i < n && d[i - 1] != 0) {
                        i++;
                        continue;
                }
        }
        return 0;
}

/* "GNU C Library (Debian GLIBC 2.36-9) stable release version 2.36." */
static int find_glibc_version(const uint8_t *d, size_t n, int *minor, char *buf, size_t bsize)
{
        static const char key[] = "release version 2.";
        size_t k = sizeof(key) - 1, i = 0;
        const uint8_t *hit;

        /* libc.so.6 is 2 MB: memchr-driven, not a byte at a time */
        while (i < n && (hit = cc_memmem(d + i, n - i, key, k)) != NULL) {
                size_t j = (size_t)(hit - d) + k;
                int v = 0, digits = 0;

                i = (size_t)(hit - d) + 1;
                while (j < n && d[j] >= '0' && d[j] <= '9' && digits < 4) {
                        v = v * 10 + (d[j] - '0');
                        j++;
                        digits++;
                }
                if (digits == 0)
                        continue;
                *minor = v;
                snprintf(buf, bsize, "2.%d", v);
                return 1;
        }
        return 0;
}

/* The release in an ELF object's bytes: its .rodata first (where the
 * string is: not through the code before it, each page touched a fault),
 * then the whole file. */
static int find_release(const uint8_t *d, size_t n, int *minor, char *buf, size_t bsize)
{
        cc_elf *e = NULL;
        cc_error eerr = {0};
        int hit = 0;

        if (cc_elf_parse_opts(d, n, CC_ELF_NO_SYMBOLS, &e, &eerr) == 0 && e->rodata_size > 0 &&
            cc_range_ok(n, e->rodata_off, e->rodata_size))
                hit = find_glibc_version(d + e->rodata_off, (size_t)e->rodata_size, minor, buf, bsize);
        cc_elf_free(e);
        return hit || find_glibc_version(d, n, minor, buf, bsize);
}

/* The usual loader and AT_PLATFORM of each machine (elfclass 0: either). */
static const struct machine_defaults {
        uint16_t machine;
        int elfclass;
        const char *interp, *platform;
} machine_defaults[] = {
    {CC_EM_X86_64, 64, "/lib64/ld-linux-x86-64.so.2", "x86_64"},
    {CC_EM_X86_64, 32, "/libx32/ld-linux-x32.so.2", "i686"},
    {CC_EM_386, 0, "/lib/ld-linux.so.2", "i686"},
    {CC_EM_AARCH64, 0, "/lib/ld-linux-aarch64.so.1", "aarch64"},
    {CC_EM_PPC64, 0, "/lib64/ld64.so.2", "power8"},
    {CC_EM_S390, 0, "/lib/ld64.so.1", "z900"},
    {CC_EM_RISCV, 0, "/lib/ld-linux-riscv64-lp64d.so.1", NULL},
};

static const struct machine_defaults *defaults_of(int elfclass, uint16_t machine)
{
        size_t i;

        for (i = 0; i < CC_ARRAY_LEN(machine_defaults); i++)
                if (machine_defaults[i].machine == machine &&
                    (machine_defaults[i].elfclass == 0 || machine_defaults[i].elfclass == elfclass))
                        return &machine_defaults[i];
        return NULL;
}

/* The program's class and machine and its loader. */
static int read_program(cc_ldso *l, cc_machine *m, const char *exe, cc_error *err)
{
        const char *probe = exe ? exe : "/bin/sh";
        char *abs = cc_machine_abs(m, probe, err);
        cc_map mp;
        cc_error merr = {0};
        cc_elf *e = NULL;

        if (abs == NULL)
                return -1;
        if (cc_tree_map(m->tree, abs, MAX_OBJ_SIZE, &mp, &merr) == 0) {
                if (cc_elf_parse_opts(mp.data, mp.size, CC_ELF_NO_SYMBOLS, &e, &merr) < 0)
                        e = NULL;
                if (e != NULL && cc_map_check(&mp, abs, &merr) < 0) {
                        cc_elf_free(e);
                        e = NULL;
                }
                cc_unmap(&mp);
        }
        if (e == NULL) {
                free(abs);
                if (merr.code == CC_ERR_NOMEM) {
                        *err = merr;
                        return -1;
                }
                if (exe != NULL)
                        return cc_err(err, merr.code ? merr.code : CC_ERR_FORMAT, "%s", merr.msg);
                        /* no readable /bin/sh: the machine this tool was built for */
#if defined(__aarch64__)
                l->machine = CC_EM_AARCH64;
#elif defined(__i386__)
                l->machine = CC_EM_386;
#else
                l->machine = CC_EM_X86_64;
#endif
                l->elfclass = sizeof(void *) == 8 ? 64 : 32;
                l->big_endian = 0;
                l->exe_source = cc_asprintf(err, "a plain program (/bin/sh could not be read: %s; assumed %s)",
                                            merr.msg, cc_elf_machine_name(l->machine));
                return l->exe_source ? 0 : -1;
        }
        l->elfclass = e->bits;
        l->machine = e->machine;
        l->big_endian = e->big_endian;
        if (exe != NULL) {
                l->exe = abs;
                abs = NULL;
                l->exe_source = cc_strdup(err, "the program given");
        } else {
                l->exe_source = cc_strdup(err, "a plain program (machine and loader of /bin/sh)");
        }
        if (e->interp != NULL) {
                l->exe_interp = exe != NULL;
                l->interp = cc_strdup(err, e->interp);
                l->interp_source = cc_asprintf(err, "PT_INTERP of %s", probe);
        }
        cc_elf_free(e);
        free(abs);
        if (l->exe_source == NULL || (l->interp == NULL && 0))
                return -1;
        return 0;
}

static int read_loader(cc_ldso *l, cc_machine *m, cc_error *err)
{
        const char *fallback[] = {"/lib64", "/usr/lib64"};
        cc_map mp;
        cc_error merr = {0};
        int found = 0;
        size_t i;

        if (l->interp == NULL) {
                const struct machine_defaults *md = defaults_of(l->elfclass, l->machine);
                const char *d = md ? md->interp : NULL;

                if (d != NULL) {
                        l->interp = cc_strdup(err, d);
                        l->interp_source = cc_strdup(err, "the usual loader for this machine (the program names none)");
                        if (l->interp == NULL || l->interp_source == NULL)
                                return -1;
                }
        }
        l->glibc_minor = -1;
        if (l->interp != NULL && cc_tree_map(m->tree, l->interp, (size_t)64 << 20, &mp, &merr) == 0) {
                char buf[32];

                found = find_sysdirs(mp.data, mp.size, &l->sysdirs, err);
                /* the release whose rules the loader follows (glibc-hwcaps
                 * from 2.33, legacy hwcap directories before 2.37): its own
                 * banner ("ld.so (...) stable release version 2.36."), read
                 * with the directories; libc.so.6's below when it has none */
                if (found >= 0 && find_release(mp.data, mp.size, &l->glibc_minor, buf, sizeof(buf)) &&
                    (l->glibc = cc_strdup(err, buf)) == NULL)
                        found = -1;
                if (found >= 0 && cc_map_check(&mp, l->interp, &merr) < 0) {
                        cc_strv_free(&l->sysdirs);
                        found = 0;
                        free(l->glibc);
                        l->glibc = NULL;
                        l->glibc_minor = -1;
                }
                cc_unmap(&mp);
                if (found < 0)
                        return -1;
        }
        if (found) {
                l->sysdirs_source = cc_asprintf(err, "read from the loader %s", l->interp);
        } else {
                if (l->machine == CC_EM_386 || l->elfclass == 32) {
                        fallback[0] = "/lib";
                        fallback[1] = "/usr/lib";
                }
                for (i = 0; i < 2; i++)
                        if (cc_strv_push(&l->sysdirs, fallback[i], err) < 0)
                                return -1;
                l->sysdirs_source =
                    cc_asprintf(err, "glibc's defaults for this machine (the loader %s could not be read%s%s)",
                                l->interp ? l->interp : "(none)", merr.msg[0] ? ": " : "", merr.msg);
                if (cc_strv_push(&l->notes, l->sysdirs_source, err) < 0)
                        return -1;
        }
        if (l->sysdirs_source == NULL)
                return -1;
        /* $LIB: glibc's slibdir below "/" (Debian: lib/x86_64-linux-gnu, Fedora: lib64) */
        l->dst_lib = cc_strdup(err, l->sysdirs.v[0][0] == '/' ? l->sysdirs.v[0] + 1 : l->sysdirs.v[0]);
        {
                const struct machine_defaults *md = defaults_of(l->elfclass, l->machine);
                const char *p = md ? md->platform : NULL;

                l->dst_platform = p ? cc_strdup(err, p) : NULL;
                if (p && l->dst_platform == NULL)
                        return -1;
        }
        if (l->dst_lib == NULL)
                return -1;
        /* else the glibc release from libc.so.6 in the first system directory */
        for (i = 0; i < l->sysdirs.n && l->glibc_minor < 0; i++) {
                char *p = cc_tree_join(m->tree, l->sysdirs.v[i], "libc.so.6", err);
                char buf[32];

                if (p == NULL)
                        return -1;
                if (cc_tree_map(m->tree, p, (size_t)64 << 20, &mp, &merr) == 0) {
                        if (find_release(mp.data, mp.size, &l->glibc_minor, buf, sizeof(buf))) {
                                if (cc_map_changed(&mp)) {
                                        l->glibc_minor = -1; /* read from a file that changed meanwhile */
                                } else {
                                        l->glibc = cc_strdup(err, buf);
                                        if (l->glibc == NULL) {
                                                cc_unmap(&mp);
                                                free(p);
                                                return -1;
                                        }
                                }
                        }
                        cc_unmap(&mp);
                }
                free(p);
        }
        return 0;
}

/* ---- ld.so.conf (for notes: ld.so itself reads only the cache) ------------------ */

static int read_conf(cc_ldso *l, cc_machine *m, const char *path, int depth, cc_error *err)
{
        char *text = NULL, *line, *save;
        size_t len = 0;
        cc_error rerr = {0};
        char *dir = NULL;
        int rv = -1;

        if (depth > 8)
                return cc_strv_push(&l->conf_warnings, "ld.so.conf includes nest more than 8 deep", err);
        if (cc_tree_read(m->tree, path, (size_t)1 << 20, &text, &len, &rerr) < 0) {
                if (rerr.code == CC_ERR_NOMEM) {
                        *err = rerr;
                        return -1;
                }
                if (depth == 0 && rerr.code == CC_ERR_NOTFOUND)
                        return 0;
                return cc_strv_push(&l->conf_warnings, rerr.msg, err);
        }
        dir = cc_dirname(path, 0, err);
        if (dir == NULL)
                goto done;
        save = text;
        while ((line = cc_next_token(&save, "\n")) != NULL) {
                char *hash = strchr(line, '#'), *s = line, *e;

                if (hash)
                        *hash = '\0';
                while (*s == ' ' || *s == '\t')
                        s++;
                e = s + strlen(s);
                while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
                        *--e = '\0';
                if (*s == '\0')
                        continue;
                if (strncmp(s, "include", 7) == 0 && (s[7] == ' ' || s[7] == '\t')) {
                        char *tok, *save2 = s + 8;

                        while ((tok = cc_next_token(&save2, " \t")) != NULL) {
                                cc_strv files = {0};
                                char *full = tok[0] == '/' ? cc_strdup(err, tok) : cc_tree_join(m->tree, dir, tok, err);
                                cc_error gerr = {0};
                                size_t i;

                                if (full == NULL)
                                        goto done;
                                if (cc_tree_glob(m->tree, full, 10000, &files, &gerr) < 0) {
                                        free(full);
                                        if (gerr.code == CC_ERR_NOMEM) {
                                                *err = gerr;
                                                goto done;
                                        }
                                        if (cc_strv_push(&l->conf_warnings, gerr.msg, err) < 0)
                                                goto done;
                                        continue;
                                }
                                free(full);
                                for (i = 0; i < files.n; i++)
                                        if (read_conf(l, m, files.v[i], depth + 1, err) < 0) {
                                                cc_strv_free(&files);
                                                goto done;
                                        }
                                cc_strv_free(&files);
                        }
                        continue;
                }
                if (strncmp(s, "hwcap", 5) == 0 && (s[5] == ' ' || s[5] == '\t'))
                        continue;
                if (s[0] != '/') {
                        char *w =
                            cc_asprintf(err, "%s: '%s' is not an absolute directory: ldconfig ignores it", path, s);

                        if (cc_strv_take(&l->conf_warnings, w, err) < 0)
                                goto done;
                        continue;
                }
                {
                        /* "dir=TYPE" (old syntax) */
                        char *eq = strchr(s, '=');

                        if (eq)
                                *eq = '\0';
                        e = s + strlen(s);
                        while (e > s + 1 && e[-1] == '/')
                                *--e = '\0';
                }
                if (!cc_strv_contains(&l->conf_dirs, s) && l->conf_dirs.n < MAX_PATH_ENTRIES &&
                    cc_strv_push(&l->conf_dirs, s, err) < 0)
                        goto done;
        }
        rv = 0;
done:
        free(text);
        free(dir);
        return rv;
}

/* ---- the cache ------------------------------------------------------------------ */

static int read_cache(cc_ldso *l, cc_machine *m, cc_error *err)
{
        cc_map mp;
        cc_error cerr = {0};

        l->cache_path = cc_strdup(err, "/etc/ld.so.cache");
        if (l->cache_path == NULL)
                return -1;
        if (cc_tree_map(m->tree, l->cache_path, (size_t)512 << 20, &mp, &cerr) < 0) {
                if (cerr.code == CC_ERR_NOMEM) {
                        *err = cerr;
                        return -1;
                }
                l->cache_error = cc_strdup(err, cerr.msg);
                return l->cache_error ? 0 : -1;
        }
        if (cc_ldcache_parse(mp.data, mp.size, &l->cache, &cerr) < 0 || cc_map_check(&mp, l->cache_path, &cerr) < 0) {
                cc_ldcache_free(l->cache);
                l->cache = NULL;
                cc_unmap(&mp);
                if (cerr.code == CC_ERR_NOMEM) {
                        *err = cerr;
                        return -1;
                }
                l->cache_error =
                    cc_asprintf(err, "%s: %s (ld.so ignores a cache it cannot read)", l->cache_path, cerr.msg);
                if (l->cache_error == NULL || cc_strv_push(&l->notes, l->cache_error, err) < 0)
                        return -1;
                return 0;
        }
        cc_unmap(&mp);
        return 0;
}

int cc_ldso_read(cc_machine *m, const char *exe, cc_ldso *out, cc_error *err)
{
        memset(out, 0, sizeof(*out));
        out->glibc_minor = -1;
        if (m->system != CC_SYS_LINUX)
                return cc_err(err, CC_ERR_USAGE, "the Linux loader is emulated only for a Linux tree");
        if (read_program(out, m, exe, err) < 0 || read_loader(out, m, err) < 0 || read_cache(out, m, err) < 0 ||
            read_conf(out, m, "/etc/ld.so.conf", 0, err) < 0) {
                cc_ldso_free(out);
                return -1;
        }
        return 0;
}

void cc_ldso_free(cc_ldso *l)
{
        if (l == NULL)
                return;
        free(l->exe);
        free(l->exe_source);
        free(l->interp);
        free(l->interp_source);
        cc_strv_free(&l->sysdirs);
        free(l->sysdirs_source);
        free(l->dst_lib);
        free(l->dst_platform);
        free(l->glibc);
        free(l->cache_path);
        cc_ldcache_free(l->cache);
        free(l->cache_error);
        cc_strv_free(&l->conf_dirs);
        cc_strv_free(&l->conf_warnings);
        cc_strv_free(&l->notes);
        memset(l, 0, sizeof(*l));
        l->glibc_minor = -1;
}
