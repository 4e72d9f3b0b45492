/* Reuse of the compile proof's program (see compile_cache.h). An entry is a
 * directory ROOT/compile-v1/KEY holding the program, `inputs` (one "STAMP\tPATH"
 * line per file it was built from) and `meta.json` (when it was built, the
 * program's SHA-256, the compiler's facts). It is written under a temporary
 * name in the same directory and renamed into place whole. */
#include "compile_cache.h"

#include "../formats/json.h"
#include "../formats/sha256.h"
#include "../platform/platform.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CACHE_SUBDIR "compile-v1"
#define KEEP_ENTRIES 16              /* entries kept; the oldest go first */
#define MAX_INPUTS 4096              /* files one entry may depend on */
#define INPUTS_MAX ((size_t)1 << 20) /* bytes of `inputs` and of the -MD file */
#define META_MAX ((size_t)1 << 20)   /* bytes of meta.json */
#define EXE_MAX ((size_t)64 << 20)   /* bytes of the program */
#define RECENT_S 2                   /* an input changed this recently: not kept */
#define STALE_NEW_S 3600             /* a half-written entry this old is removed */
#define STAMP_MAX 128

/* Variables that cannot change what the compiler builds: a terminal's, a
 * shell's and a session's, and the temporary directory (the compile runs
 * in a new one each time and sets TMPDIR to it); and this program's own,
 * CUDNNCTL_*. */
static const char *const env_ignored[] = {
    "_",      "COLORTERM", "COLUMNS", "DISPLAY", "HISTFILE",      "HISTSIZE",       "LINES",          "LS_COLORS",
    "OLDPWD", "PS1",       "PWD",     "SHLVL",   "SSH_AUTH_SOCK", "SSH_CLIENT",     "SSH_CONNECTION", "SSH_TTY",
    "TEMP",   "TERM",      "TMP",     "TMPDIR",  "WINDOWID",      "XDG_SESSION_ID",
};

static int env_counts(const char *kv)
{
        size_t i, n = strcspn(kv, "=");

        if (strncmp(kv, "CUDNNCTL_", 9) == 0)
                return 0; /* this program's own (CUDNNCTL_JOBS...): not the compiler's */
        for (i = 0; i < CC_ARRAY_LEN(env_ignored); i++)
                if (strlen(env_ignored[i]) == n && strncmp(kv, env_ignored[i], n) == 0)
                        return 0;
        return 1;
}

int cc_ccache_key(const cc_strv *argv, const char *source, const char *path_value, char key[65], cc_error *err)
{
        static const char tag[] = "cudnnctl " CACHE_SUBDIR "\n";
        cc_sha256 h;
        cc_strv env = {0};
        size_t i;

        if (cc_environ(&env, err) < 0)
                return -1;
        cc_strv_sort(&env); /* the same variables in another order build the same program */
        cc_sha256_init(&h);
        cc_sha256_update(&h, tag, sizeof(tag));
        for (i = 0; i < argv->n; i++)
                cc_sha256_update(&h, argv->v[i], strlen(argv->v[i]) + 1);
        cc_sha256_update(&h, "\n", 1);
        cc_sha256_update(&h, source, strlen(source) + 1);
        cc_sha256_update(&h, path_value ? path_value : "", strlen(path_value ? path_value : "") + 1);
        for (i = 0; i < env.n; i++)
                if (env_counts(env.v[i]))
                        cc_sha256_update(&h, env.v[i], strlen(env.v[i]) + 1);
        cc_sha256_final_hex(&h, key);
        cc_strv_free(&env);
        return 0;
}

/* ---- the -MD file -------------------------------------------------------- */

int cc_ccache_depfile(const char *text, size_t n, cc_strv *out, cc_error *err)
{
        cc_buf tok = {0};
        size_t i = 0;
        int in_target = 1, rv = -1;

        for (;;) {
                int end = i >= n;
                char ch = end ? '\0' : text[i];

                if (!end && ch == '\\' && i + 1 < n && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
                        i += 2;
                        if (i < n && text[i - 1] == '\r' && text[i] == '\n')
                                i++;
                        ch = ' ';
                } else if (!end && ch == '\\' && i + 1 < n && (text[i + 1] == ' ' || text[i + 1] == '#')) {
                        TRY(cc_buf_putc(&tok, text[i + 1], err));
                        i += 2;
                        continue;
                } else if (!end && ch == '$' && i + 1 < n && text[i + 1] == '$') {
                        TRY(cc_buf_putc(&tok, '$', err));
                        i += 2;
                        continue;
                } else {
                        i++;
                }
                if (end || ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\0') {
                        if (tok.len > 0 && !in_target)
                                TRY(cc_strv_pushn(out, tok.data, tok.len, err));
                        tok.len = 0;
                        if (end)
                                break;
                        continue;
                }
                /* "target:" or "target: dep" — a ':' after a drive letter
                 * (C:\...) is part of a Windows path */
                if (in_target && ch == ':' && !(tok.len == 1 && i < n && (text[i] == '\\' || text[i] == '/'))) {
                        in_target = 0;
                        tok.len = 0;
                        continue;
                }
                TRY(cc_buf_putc(&tok, ch, err));
        }
        rv = 0;
fail:
        cc_buf_free(&tok);
        return rv;
}

/* ---- helpers ------------------------------------------------------------- */

/* p[0..n) an absolute path: "/...", "\\...", "C:\..." or "C:/..." */
static int is_abs_n(const char *p, size_t n)
{
        return (n >= 1 && (p[0] == '/' || p[0] == '\\')) ||
               (n >= 3 && ((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z')) && p[1] == ':' &&
                (p[2] == '\\' || p[2] == '/'));
}

static int set_why(char **why, cc_error *err, const char *fmt, ...) CC_PRINTF(3, 4);
static int set_why(char **why, cc_error *err, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        *why = cc_vasprintf(err, fmt, ap);
        va_end(ap);
        return *why ? 0 : -1;
}

static void sha_hex(const char *data, size_t n, char hex[65])
{
        cc_sha256 h;

        cc_sha256_init(&h);
        cc_sha256_update(&h, data, n);
        cc_sha256_final_hex(&h, hex);
}

/* ---- take ---------------------------------------------------------------- */

int cc_ccache_inputs(const char *text, size_t n, cc_strv *stamps, cc_strv *paths, cc_error *err)
{
        const char *line = text, *end = text + n;

        if (memchr(text, '\0', n) != NULL || (n > 0 && text[n - 1] != '\n'))
                return 0; /* no NUL in a line; the last one whole */
        while (line < end) {
                const char *nl = memchr(line, '\n', (size_t)(end - line));
                const char *tab = memchr(line, '\t', (size_t)(nl - line));

                if (tab == NULL || tab == line || !is_abs_n(tab + 1, (size_t)(nl - tab - 1)) || paths->n >= MAX_INPUTS)
                        return 0;
                if (cc_strv_pushn(stamps, line, (size_t)(tab - line), err) < 0 ||
                    cc_strv_pushn(paths, tab + 1, (size_t)(nl - tab - 1), err) < 0)
                        return -1;
                line = nl + 1;
        }
        return 1;
}

int cc_ccache_take(const char *root, const char *key, const char *tmpdir, const char *exe, cc_value **meta, char **why,
                   cc_error *err)
{
        char *entry = NULL, *path = NULL, *inputs = NULL, *mtext = NULL, *prog = NULL;
        cc_strv stamps = {0}, paths = {0};
        size_t ilen = 0, mlen = 0, plen = 0, count = 0;
        char stamp[STAMP_MAX], hex[65];
        cc_value *m = NULL;
        cc_error e = {0};
        const char *want;
        int r, rv = -1;

        *meta = NULL;
        *why = NULL;
        if ((entry = cc_asprintf(err, "%s/%s", root, CACHE_SUBDIR)) == NULL)
                return -1;
        /* only a directory of this user's that no one else can write to: a
         * program found there is run */
        if (cc_private_dir(entry, &e) < 0) {
                TRY(cc_err_keep_nomem(&e, err));
                TRY(set_why(why, err, "%s", e.msg));
                rv = 0;
                goto fail;
        }
        free(entry);
        if ((entry = cc_asprintf(err, "%s/%s/%s", root, CACHE_SUBDIR, key)) == NULL)
                return -1;
        TRY((path = cc_path_join(entry, "inputs", err)) == NULL ? -1 : 0);
        if (cc_read_file(path, INPUTS_MAX, &inputs, &ilen, &e) < 0) {
                TRY(cc_err_keep_nomem(&e, err));
                rv = 0; /* no entry: nothing to say */
                goto fail;
        }
        TRY(r = cc_ccache_inputs(inputs, ilen, &stamps, &paths, err));
        if (r == 0) {
                TRY(set_why(why, err, "its list of inputs is damaged"));
                rv = 0;
                goto fail;
        }
        for (count = 0; count < paths.n; count++) {
                memset(&e, 0, sizeof(e));
                r = cc_file_stamp(paths.v[count], stamp, sizeof(stamp), NULL, &e);
                if (r < 0)
                        TRY(cc_err_keep_nomem(&e, err));
                if (r != 1 || strcmp(stamp, stamps.v[count]) != 0) {
                        TRY(set_why(why, err, "%s %s since it was built", paths.v[count],
                                    r == 0 ? "is gone" : "changed"));
                        rv = 0;
                        goto fail;
                }
        }
        free(path);
        TRY((path = cc_path_join(entry, "meta.json", err)) == NULL ? -1 : 0);
        memset(&e, 0, sizeof(e));
        if (cc_read_file(path, META_MAX, &mtext, &mlen, &e) < 0 || cc_json_parse(mtext, mlen, 16, &m, &e) < 0 ||
            (want = cc_v_get_str(m, "exe_sha256")) == NULL) {
                TRY(cc_err_keep_nomem(&e, err));
                TRY(set_why(why, err, "its meta.json cannot be read"));
                rv = 0;
                goto fail;
        }
        free(path);
        TRY((path = cc_path_join(entry, exe, err)) == NULL ? -1 : 0);
        memset(&e, 0, sizeof(e));
        if (cc_read_file(path, EXE_MAX, &prog, &plen, &e) < 0) {
                TRY(cc_err_keep_nomem(&e, err));
                TRY(set_why(why, err, "its program cannot be read: %s", e.msg));
                rv = 0;
                goto fail;
        }
        sha_hex(prog, plen, hex);
        if (strcmp(hex, want) != 0) {
                TRY(set_why(why, err, "its program is not the one built (SHA-256 %s, built %s)", hex, want));
                rv = 0;
                goto fail;
        }
        free(path);
        TRY((path = cc_path_join(tmpdir, exe, err)) == NULL ? -1 : 0);
        memset(&e, 0, sizeof(e));
        if (cc_write_file(path, prog, plen, 1, &e) < 0) {
                TRY(cc_err_keep_nomem(&e, err));
                TRY(set_why(why, err, "its program cannot be copied: %s", e.msg));
                rv = 0;
                goto fail;
        }
        TRY(cc_v_set_int(m, "inputs", (int64_t)count, err));
        TRY(cc_v_set_str(m, "entry", entry, err));
        *meta = m;
        m = NULL;
        rv = 1;
fail:
        free(entry);
        free(path);
        free(inputs);
        free(mtext);
        free(prog);
        cc_v_free(m);
        cc_strv_free(&stamps);
        cc_strv_free(&paths);
        return rv;
}

/* ---- put ----------------------------------------------------------------- */

/* Remove half-written entries left by a killed run, and the oldest entries
 * past KEEP_ENTRIES. Best effort: the cache is only a shortcut. */
static void prune(const char *dir, int64_t now)
{
        cc_strv names = {0};
        cc_error e = {0};
        char *oldest = NULL;
        size_t i, kept;

        do {
                int64_t old_t = 0;

                cc_strv_free(&names);
                free(oldest);
                oldest = NULL;
                if (cc_list_dir(dir, 4096, &names, &e) < 0)
                        break;
                for (i = 0, kept = 0; i < names.n; i++) {
                        char *p = cc_path_join(dir, names.v[i], &e);
                        cc_stat st;

                        if (p == NULL || cc_lstat_path(p, &st, &e) < 0 || st.type != CC_FT_DIR) {
                                free(p);
                                continue;
                        }
                        if (names.v[i][0] == '.') {
                                if (now - st.mtime > STALE_NEW_S)
                                        (void)cc_remove_tree(p, &e);
                                free(p);
                                continue;
                        }
                        kept++;
                        if (oldest == NULL || st.mtime < old_t) {
                                free(oldest);
                                oldest = p;
                                old_t = st.mtime;
                        } else {
                                free(p);
                        }
                }
        } while (kept > KEEP_ENTRIES && oldest != NULL && cc_remove_tree(oldest, &e) == 0);
        cc_strv_free(&names);
        free(oldest);
}

int cc_ccache_put(const char *root, const char *key, const char *tmpdir, const char *exe, const cc_strv *extra,
                  const cc_value *compile, const char *compiler_version, int64_t started, char **why, cc_error *err)
{
        char *dir = NULL, *entry = NULL, *fresh = NULL, *path = NULL, *deps = NULL, *prog = NULL;
        size_t dlen = 0, plen = 0, i;
        cc_strv files = {0};
        cc_buf inputs = {0}, mj = {0};
        cc_value *m = NULL;
        cc_error e = {0};
        char stamp[STAMP_MAX], hex[65], when[64];
        int64_t now = (int64_t)time(NULL), newest;
        int r, rv = -1;

        *why = NULL;
        TRY((path = cc_path_join(tmpdir, CC_CCACHE_DEPFILE, err)) == NULL ? -1 : 0);
        if (cc_read_file(path, INPUTS_MAX, &deps, &dlen, &e) < 0) {
                TRY(cc_err_keep_nomem(&e, err));
                TRY(set_why(why, err, "the compiler wrote no list of the headers it read (%s)", e.msg));
                rv = 0;
                goto fail;
        }
        TRY(cc_ccache_depfile(deps, dlen, &files, err));
        for (i = 0; i < extra->n; i++)
                TRY(cc_strv_push(&files, extra->v[i], err));
        if (files.n > MAX_INPUTS) {
                TRY(set_why(why, err, "more than %d inputs", MAX_INPUTS));
                rv = 0;
                goto fail;
        }
        for (i = 0; i < files.n; i++) {
                const char *f = files.v[i];

                if (strcmp(f, "cudnn_probe.c") == 0)
                        continue; /* the program's text: in the key */
                if (!is_abs_n(f, strlen(f))) {
                        TRY(set_why(why, err, "%s is not an absolute path", f));
                        rv = 0;
                        goto fail;
                }
                memset(&e, 0, sizeof(e));
                r = cc_file_stamp(f, stamp, sizeof(stamp), &newest, &e);
                if (r < 0)
                        TRY(cc_err_keep_nomem(&e, err));
                if (r != 1) {
                        TRY(set_why(why, err, "%s cannot be stamped", f));
                        rv = 0;
                        goto fail;
                }
                /* changed while it was built, or just before: what the
                 * compiler read may not be what the stamp says */
                if (newest >= (started < now ? started : now) - RECENT_S) {
                        TRY(set_why(why, err, "%s changed in the last seconds", f));
                        rv = 0;
                        goto fail;
                }
                TRY(cc_buf_printf(&inputs, err, "%s\t%s\n", stamp, f));
        }
        free(path);
        TRY((path = cc_path_join(tmpdir, exe, err)) == NULL ? -1 : 0);
        memset(&e, 0, sizeof(e));
        if (cc_read_file(path, EXE_MAX, &prog, &plen, &e) < 0) {
                TRY(cc_err_keep_nomem(&e, err));
                TRY(set_why(why, err, "the program cannot be read: %s", e.msg));
                rv = 0;
                goto fail;
        }
        sha_hex(prog, plen, hex);
        cc_utc_text(now, 0, when);
        TRY((m = cc_v_object(err)) == NULL ? -1 : 0);
        TRY(cc_v_set_int(m, "built", now, err));
        TRY(cc_v_set_str(m, "built_at", when, err));
        TRY(cc_v_set_str(m, "exe_sha256", hex, err));
        TRY(cc_v_set_str(m, "compiler_version", compiler_version, err));
        TRY(cc_v_set(m, "compile", compile ? cc_v_copy(compile, err) : cc_v_null(err), err));
        TRY(cc_json_write(m, 1, &mj, err));

        TRY((dir = cc_path_join(root, CACHE_SUBDIR, err)) == NULL ? -1 : 0);
        memset(&e, 0, sizeof(e));
        if (cc_private_dir(dir, &e) < 0) {
                TRY(cc_err_keep_nomem(&e, err));
                TRY(set_why(why, err, "%s", e.msg));
                rv = 0;
                goto fail;
        }
        TRY((entry = cc_path_join(dir, key, err)) == NULL ? -1 : 0);
        TRY((fresh = cc_asprintf(err, "%s/.new-%.16s-%lld", dir, key, (long long)cc_monotonic_us())) == NULL ? -1 : 0);
        memset(&e, 0, sizeof(e));
        if (cc_own_mkdir(fresh, &e) < 0) {
                TRY(cc_err_keep_nomem(&e, err));
                TRY(set_why(why, err, "%s", e.msg));
                free(fresh);
                fresh = NULL;
                rv = 0;
                goto fail;
        }
        free(path);
        TRY((path = cc_path_join(fresh, exe, err)) == NULL ? -1 : 0);
        memset(&e, 0, sizeof(e));
        r = cc_write_file(path, prog, plen, 1, &e);
        if (r == 0) {
                free(path);
                TRY((path = cc_path_join(fresh, "meta.json", err)) == NULL ? -1 : 0);
                r = cc_write_file(path, mj.data, mj.len, 0, &e);
        }
        if (r == 0) {
                free(path);
                TRY((path = cc_path_join(fresh, "inputs", err)) == NULL ? -1 : 0);
                /* written last: an entry without it is no entry */
                r = cc_write_file(path, inputs.data ? inputs.data : "", inputs.len, 0, &e);
        }
        if (r == 0 && cc_own_rename(fresh, entry, &e) < 0) {
                /* an entry of the same key that was not used (stale): moved
                 * aside, then removed */
                char *old = cc_asprintf(err, "%s/.old-%.16s-%lld", dir, key, (long long)cc_monotonic_us());
                cc_error ignore = {0};

                TRY(old == NULL ? -1 : 0);
                memset(&e, 0, sizeof(e));
                r = cc_own_rename(entry, old, &e) < 0 ? -1 : cc_own_rename(fresh, entry, &e);
                (void)cc_remove_tree(old, &ignore);
                free(old);
        }
        if (r < 0) {
                cc_error ignore = {0};

                TRY(cc_err_keep_nomem(&e, err));
                (void)cc_remove_tree(fresh, &ignore);
                /* another run may have kept the same build a moment ago */
                if (cc_file_stamp(entry, stamp, sizeof(stamp), NULL, &ignore) != 1)
                        TRY(set_why(why, err, "%s", e.msg));
                rv = *why ? 0 : 1;
                goto fail;
        }
        prune(dir, now);
        rv = 1;
fail:
        free(dir);
        free(entry);
        free(fresh);
        free(path);
        free(deps);
        free(prog);
        cc_strv_free(&files);
        cc_buf_free(&inputs);
        cc_buf_free(&mj);
        cc_v_free(m);
        return rv;
}
