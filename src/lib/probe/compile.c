/* The compile-and-link layer of verify (see compile.h): what the manual guide
 * does by hand. Write the minimal program, compile it with the machine's C
 * compiler against the installation's headers, link it against its library,
 * run it in a child with a time limit and record what it printed. Every
 * outcome of the compiler and of the program is a fact; only running out of
 * memory fails the call. */
#include "compile.h"

#include "../platform/platform.h"
#include "compile_cache.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_TIMEOUT_MS 60000
#define OUTPUT_KEEP 4096                     /* bytes of a child's output kept in the facts */
#define CHILD_MAX_OUTPUT ((size_t)256 << 10) /* bytes read from each stream of a child */
#define HEADER_MAX_SIZE ((size_t)4 << 20)
#define SCAN_MAX_FILES 64      /* cuDNN headers followed from cudnn.h */
#define SCAN_MAX_INCLUDES 256  /* #include lines read per header */
#define INCLUDE_NAME_MAX 255   /* bytes in one #include name */
#define COMMAND_MAX_WORDS 32   /* words in $CC / o->compiler */
#define PRINTED_VALUE_MAX 4096 /* bytes of one KEY=VALUE value kept */
#define PROBE_SOURCE "cudnn_probe.c"

enum ckind {
        CK_UNKNOWN = 0, /* a cc-style driver that did not say what it is: gcc syntax */
        CK_GCC,
        CK_CLANG,
        CK_MSVC,     /* cl.exe */
        CK_CLANG_CL, /* clang-cl: cl's syntax */
};

static const char *const kind_names[] = {"gcc", "gcc", "clang", "msvc", "clang-cl"};

typedef struct ctx {
        const cc_compile_opts *o;
        int timeout_ms;
        cc_value *facts;
        cc_strv notes;
        cc_strv missing;    /* missing_headers, in the order found */
        cc_strv missing_by; /* the header that includes missing[i] */
        cc_strv incdirs;    /* the -I directories */
        cc_strv words;      /* the compiler command: its path, then its own arguments */
        int kind;
        char *path_value;       /* PATH to search (owned) */
        char *tmp;              /* the temporary directory, removed at the end */
        const char *source;     /* the program's text */
        char *compiler_version; /* the compiler's --version line (owned) */
        char cache_key[65];     /* the build's key in cache_dir */
} ctx;

/* What the program printed, parsed. */
typedef struct printed {
        int have_major, have_minor, have_patch, have_version, have_runtime, have_cudart, have_create, have_destroy;
        int64_t major, minor, patch, version, runtime, cudart, create, destroy;
        char *create_name;
        char *loaded_from;
        char *last_key; /* the last key seen (where a crash stopped it) */
        int end;
} printed;

/* The program the guide has people type in, one line per string (ISO C
 * caps a string literal at 4095 bytes). */
static const char *const probe_source[] = {
    "/* cudnnctl verify: the guide's minimal cuDNN program. Prints KEY=VALUE",
    " * lines and flushes after each, so that a crash keeps what came before. */",
    "#include <stdio.h>",
    "#include <string.h>",
    "#include \"cudnn.h\"",
    "#if defined(_WIN32)",
    "#include <windows.h>",
    "#endif",
    "",
    "#define CC_STR2(x) #x",
    "#define CC_STR(x) CC_STR2(x)",
    "",
    "static void put_num(const char *key, long value)",
    "{",
    "        printf(\"%s=%ld\\n\", key, value);",
    "        fflush(stdout);",
    "}",
    "",
    "static void put_str(const char *key, const char *value)",
    "{",
    "        printf(\"%s=%s\\n\", key, value != NULL ? value : \"\");",
    "        fflush(stdout);",
    "}",
    "",
    "/* The cuDNN library file this process really mapped. */",
    "static void put_loaded_from(void)",
    "{",
    "#if defined(__linux__)",
    "        char line[4096];",
    "        FILE *f = fopen(\"/proc/self/maps\", \"r\");",
    "",
    "        if (f == NULL)",
    "                return;",
    "        while (fgets(line, sizeof(line), f) != NULL) {",
    "                char *path = strchr(line, '/');",
    "                size_t n;",
    "",
    "                if (path == NULL)",
    "                        continue;",
    "                n = strlen(path);",
    "                while (n > 0 && (path[n - 1] == '\\n' || path[n - 1] == '\\r'))",
    "                        path[--n] = '\\0';",
    "                if (strncmp(strrchr(path, '/') + 1, \"libcudnn.so\", 11) == 0) {",
    "                        put_str(\"loaded_from\", path);",
    "                        break;",
    "                }",
    "        }",
    "        fclose(f);",
    "#elif defined(_WIN32)",
    "        char path[4096];",
    "        HMODULE h = GetModuleHandleA(\"cudnn64_\" CC_STR(CUDNN_MAJOR) \".dll\");",
    "        DWORD n;",
    "",
    "        if (h == NULL)",
    "                return;",
    "        n = GetModuleFileNameA(h, path, (DWORD)sizeof(path));",
    "        if (n > 0 && n < (DWORD)sizeof(path))",
    "                put_str(\"loaded_from\", path);",
    "#endif",
    "}",
    "",
    "int main(void)",
    "{",
    "        cudnnHandle_t handle = NULL;",
    "        cudnnStatus_t status;",
    "",
    "        put_num(\"header_major\", (long)CUDNN_MAJOR);",
    "        put_num(\"header_minor\", (long)CUDNN_MINOR);",
    "        put_num(\"header_patch\", (long)CUDNN_PATCHLEVEL);",
    "#if defined(CUDNN_VERSION)",
    "        put_num(\"CUDNN_VERSION\", (long)CUDNN_VERSION);",
    "#endif",
    "        put_num(\"runtime_version\", (long)cudnnGetVersion());",
    "        put_num(\"cudart_version\", (long)cudnnGetCudartVersion());",
    "        put_loaded_from();",
    "        status = cudnnCreate(&handle);",
    "        put_num(\"create_status\", (long)status);",
    "        put_str(\"create_status_name\", cudnnGetErrorString(status));",
    "        if (status == CUDNN_STATUS_SUCCESS)",
    "                put_num(\"destroy_status\", (long)cudnnDestroy(handle));",
    "        put_str(\"end\", \"1\");",
    "        return status == CUDNN_STATUS_SUCCESS ? 0 : 2;",
    "}",
};

/* Headers of the C library and the compiler that cudnn.h may include. */
static const char *const std_headers[] = {
    "assert.h",  "complex.h", "ctype.h",  "errno.h",  "fenv.h",   "float.h",       "inttypes.h", "iso646.h",
    "limits.h",  "locale.h",  "math.h",   "setjmp.h", "signal.h", "stdalign.h",    "stdarg.h",   "stdatomic.h",
    "stdbool.h", "stddef.h",  "stdint.h", "stdio.h",  "stdlib.h", "stdnoreturn.h", "string.h",   "tgmath.h",
    "threads.h", "time.h",    "uchar.h",  "wchar.h",  "wctype.h", "windows.h",
};

static int is_type(const char *path, int type)
{
        cc_stat st;
        cc_error e = {0};

        if (path == NULL || cc_stat_path(path, &st, &e) < 0)
                return 0;
        return st.type == type;
}

static int has_sep(const char *s)
{
        for (; *s; s++)
                if (*s == '/' || cc_is_sep(*s))
                        return 1;
        return 0;
}

static int set_status(ctx *c, const char *status, const char *reason, cc_error *err)
{
        if (cc_v_set_str(c->facts, "status", status, err) < 0)
                return -1;
        return cc_v_set_str(c->facts, "reason", reason, err);
}

static int set_statusf(ctx *c, const char *status, cc_error *err, const char *fmt, ...) CC_PRINTF(4, 5);
static int set_statusf(ctx *c, const char *status, cc_error *err, const char *fmt, ...)
{
        va_list ap;
        char *s;
        int rv;

        va_start(ap, fmt);
        s = cc_vasprintf(err, fmt, ap);
        va_end(ap);
        if (s == NULL)
                return -1;
        rv = set_status(c, status, s, err);
        free(s);
        return rv;
}

/* A NULL-terminated argv over the strings of sv (the array only; caller
 * frees it). */
static const char **strv_argv(const cc_strv *sv, cc_error *err)
{
        const char **a = cc_calloc(err, sv->n + 1, sizeof(*a));
        size_t i;

        if (a == NULL)
                return NULL;
        for (i = 0; i < sv->n; i++)
                a[i] = sv->v[i];
        return a;
}

/* The value of an environment variable of this process (caller frees), or
 * NULL when unset. Windows compares names case-insensitively. */
static int env_value(const char *key, char **out, cc_error *err)
{
        cc_strv env = {0};
        cc_error e = {0};
        size_t i, kl = strlen(key);
        int rv = -1;

        *out = NULL;
        if (cc_environ(&env, &e) < 0) {
                TRY(cc_err_keep_nomem(&e, err));
                rv = 0;
                goto fail;
        }
        for (i = 0; i < env.n; i++) {
                const char *kv = env.v[i];
                int same = cc_host_is_windows() ? cc_strncasecmp(kv, key, kl) == 0 : strncmp(kv, key, kl) == 0;

                if (same && kv[kl] == '=') {
                        if ((*out = cc_strdup(err, kv + kl + 1)) == NULL)
                                goto fail;
                        break;
                }
        }
        rv = 0;
fail:
        cc_strv_free(&env);
        return rv;
}

/* Split a command line such as $CC ("ccache gcc -m64") on blanks. */
static int split_words(const char *s, cc_strv *out, cc_error *err)
{
        while (*s) {
                const char *w;

                while (*s == ' ' || *s == '\t')
                        s++;
                if (*s == '\0')
                        break;
                w = s;
                while (*s && *s != ' ' && *s != '\t')
                        s++;
                if (out->n >= COMMAND_MAX_WORDS)
                        return cc_err(err, CC_ERR_LIMIT, "more than %d words", COMMAND_MAX_WORDS);
                if (cc_strv_pushn(out, w, (size_t)(s - w), err) < 0)
                        return -1;
        }
        return 0;
}

/* The program file a command word names: a path as given when it exists, a
 * bare name searched on PATH. *out NULL when there is none. */
static int resolve_program(ctx *c, const char *word, char **out, cc_error *err)
{
        cc_error e = {0};

        *out = NULL;
        if (has_sep(word)) {
                if (is_type(word, CC_FT_FILE) && (*out = cc_strdup(err, word)) == NULL)
                        return -1;
                return 0;
        }
        if (c->path_value == NULL)
                return 0;
        *out = cc_find_program(word, c->path_value, &e);
        if (*out == NULL)
                return cc_err_keep_nomem(&e, err);
        return 0;
}

/* A compiler command (o->compiler or $CC) into c->words: a whole string that
 * is an existing file is one path (C:\Program Files\...\cl.exe), otherwise
 * the first word is the program and the rest its arguments. 1 if found. */
static int take_command(ctx *c, const char *cmd, cc_error *err)
{
        cc_strv w = {0};
        char *prog = NULL;
        cc_error e = {0};
        int rv = -1;
        size_t i;

        if (has_sep(cmd) && is_type(cmd, CC_FT_FILE)) {
                TRY(cc_strv_push(&c->words, cmd, err));
                rv = 1;
                goto fail;
        }
        if (split_words(cmd, &w, &e) < 0) {
                TRY(cc_err_keep_nomem(&e, err));
                rv = 0;
                goto fail;
        }
        rv = 0;
        if (w.n == 0)
                goto fail;
        rv = -1;
        TRY(resolve_program(c, w.v[0], &prog, err));
        rv = 0;
        if (prog == NULL)
                goto fail;
        rv = -1;
        TRY(cc_strv_take(&c->words, prog, err));
        prog = NULL;
        for (i = 1; i < w.n; i++)
                TRY(cc_strv_push(&c->words, w.v[i], err));
        rv = 1;
fail:
        free(prog);
        cc_strv_free(&w);
        return rv;
}

/* The kind a compiler's name tells: cl and clang-cl take cl's options. */
static int kind_from_name(const char *path)
{
        const char *b = cc_basename(path);
        size_t n = strlen(b);

        if (cc_ends_with_nocase(b, ".exe"))
                n -= 4;
        if (n == 2 && cc_strncasecmp(b, "cl", 2) == 0)
                return CK_MSVC;
        if (n == 8 && cc_strncasecmp(b, "clang-cl", 8) == 0)
                return CK_CLANG_CL;
        return CK_UNKNOWN;
}

/* Find the compiler: o->compiler, else $CC, else the usual names on PATH.
 * 1 when found (c->words set), 0 when not (status set). */
static int find_compiler(ctx *c, cc_error *err)
{
        static const char *const unix_names[] = {"cc", "gcc", "clang"};
        static const char *const win_names[] = {"cl", "gcc", "clang"};
        const char *const *names = c->o->windows ? win_names : unix_names;
        const char *from = "PATH";
        char *ccenv = NULL;
        size_t i;
        int r, rv = -1;

        if (c->o->compiler != NULL) {
                TRY(r = take_command(c, c->o->compiler, err));
                if (r == 0) {
                        TRY(set_statusf(c, "not-checked", err, "the compiler \"%s\" %s", c->o->compiler,
                                        has_sep(c->o->compiler) ? "does not exist" : "was not found on PATH"));
                        rv = 0;
                        goto fail;
                }
                from = "option";
        } else {
                TRY(env_value("CC", &ccenv, err));
                if (ccenv != NULL && ccenv[0] != '\0') {
                        TRY(r = take_command(c, ccenv, err));
                        if (r == 1)
                                from = "CC";
                        else
                                TRY(cc_strv_pushf(&c->notes, 1, err,
                                                  "$CC is \"%s\", which was not found; looked on PATH instead", ccenv));
                }
                for (i = 0; c->words.n == 0 && i < 3; i++) {
                        char *p = NULL;

                        TRY(resolve_program(c, names[i], &p, err));
                        if (p != NULL)
                                TRY(cc_strv_take(&c->words, p, err));
                }
                if (c->words.n == 0) {
                        TRY(set_statusf(c, "not-checked", err, "no C compiler found on PATH (looked for %s)",
                                        c->o->windows ? "cl.exe, gcc, clang" : "cc, gcc, clang"));
                        rv = 0;
                        goto fail;
                }
        }
        c->kind = kind_from_name(c->words.v[c->words.n - 1]);
        if (c->kind == CK_UNKNOWN)
                c->kind = kind_from_name(c->words.v[0]);
        TRY(cc_v_set_str(c->facts, "compiler_from", from, err));
        rv = 1;
fail:
        free(ccenv);
        return rv;
}

/* The first non-empty line of s (n bytes), without its end, as a new string. */
static char *first_line(const char *s, size_t n, cc_error *err)
{
        size_t i = 0, j;

        if (s == NULL)
                return cc_strdup(err, "");
        for (;;) {
                while (i < n && (s[i] == '\r' || s[i] == '\n' || s[i] == ' ' || s[i] == '\t'))
                        i++;
                for (j = i; j < n && s[j] != '\n' && s[j] != '\r'; j++)
                        ;
                if (j > i || i >= n)
                        break;
        }
        if (j - i > 512)
                j = i + 512;
        return cc_strndup(err, s + i, j - i);
}

/* Up to OUTPUT_KEEP bytes of a child's stdout then stderr, cut on a
 * character boundary. */
static cc_value *output_value(const cc_spawn_result *r, cc_error *err)
{
        cc_buf b = {0};
        size_t cut;
        cc_value *v;

        if (r->out.len > 0 && cc_buf_append(&b, r->out.data, r->out.len, err) < 0)
                goto fail;
        if (r->errout.len > 0) {
                if (b.len > 0 && b.data[b.len - 1] != '\n' && cc_buf_putc(&b, '\n', err) < 0)
                        goto fail;
                if (cc_buf_append(&b, r->errout.data, r->errout.len, err) < 0)
                        goto fail;
        }
        cut = b.len;
        if (cut > OUTPUT_KEEP) {
                cut = OUTPUT_KEEP;
                while (cut > 0 && ((unsigned char)b.data[cut] & 0xC0) == 0x80)
                        cut--;
        }
        v = cc_v_strn(b.len > 0 ? b.data : "", cut, err);
        cc_buf_free(&b);
        return v;
fail:
        cc_buf_free(&b);
        return NULL;
}

/* {exit, signal, timed_out, how, wall_ms, output, output_bytes} of a child. */
static cc_value *child_value(const cc_spawn_result *r, cc_error *err)
{
        cc_value *v = cc_v_object(err);
        char *how = NULL;
        cc_error e = {0};

        if (v == NULL)
                return NULL;
        if (r->exited)
                TRY(cc_v_set_int(v, "exit", r->exit_code, err));
        else
                TRY(cc_v_set_null(v, "exit", err));
        if (r->signal != 0)
                TRY(cc_v_set_int(v, "signal", r->signal, err));
        TRY(cc_v_set_bool(v, "timed_out", r->timed_out, err));
        how = cc_spawn_describe(r, &e);
        if (how == NULL)
                TRY(cc_err_keep_nomem(&e, err));
        TRY(cc_v_set_str(v, "how", how, err));
        TRY(cc_v_set_int(v, "wall_ms", r->wall_ms, err));
        TRY(cc_v_set(v, "output", output_value(r, err), err));
        TRY(cc_v_set_int(v, "output_bytes", (int64_t)(r->out_total + r->err_total), err));
        free(how);
        return v;
fail:
        free(how);
        cc_v_free(v);
        return NULL;
}

/* Run argv with the time limit in the temporary directory. 1 when it ran
 * (*r filled), 0 when it could not be started (*why set, caller frees). */
static int spawn(ctx *c, const cc_strv *argv, const char *const *env_set, size_t nenv, cc_spawn_result *r, char **why,
                 cc_error *err)
{
        static const char *const tmpvars[] = {"TMPDIR", "TMP", "TEMP"};
        cc_spawn_opts so = {0};
        const char **a = strv_argv(argv, err);
        cc_strv env = {0};
        cc_error e = {0};
        size_t i;
        int rv = -1;

        *why = NULL;
        memset(r, 0, sizeof(*r));
        if (a == NULL)
                return -1;
        for (i = 0; i < nenv; i++)
                TRY(cc_strv_push(&env, env_set[i], err));
        /* The compiler's own temporary files (gcc's cc*.s, cc*.o) and the
         * program's go into our private directory, and so go with it: a
         * compiler killed at the time limit, or with this process, leaves them
         * behind in the system's temporary directory otherwise. */
        for (i = 0; c->tmp != NULL && i < CC_ARRAY_LEN(tmpvars); i++)
                TRY(cc_strv_pushf(&env, 0, err, "%s=%s", tmpvars[i], c->tmp));
        so.argv = a;
        so.env_set = (const char *const *)env.v;
        so.nenv_set = env.n;
        so.cwd = c->tmp;
        so.timeout_ms = c->timeout_ms;
        so.max_output = CHILD_MAX_OUTPUT;
        if (cc_spawn_run(&so, r, &e) < 0) {
                cc_spawn_result_free(r);
                memset(r, 0, sizeof(*r));
                TRY(cc_err_keep_nomem(&e, err));
                TRY((*why = cc_strdup(err, e.msg[0] ? e.msg : "it could not be started")) != NULL ? 0 : -1);
                rv = 0;
                goto fail;
        }
        rv = 1;
fail:
        free(a);
        cc_strv_free(&env);
        return rv;
}

/* The compiler's path, kind and version line (`--version`; cl prints its
 * banner on stderr when run with no arguments). */
static int compiler_facts(ctx *c, cc_error *err)
{
        cc_value *v = cc_v_object(err);
        cc_strv argv = {0};
        cc_spawn_result r;
        char *why = NULL, *line = NULL;
        int ran, r2, rv = -1;
        size_t i;

        memset(&r, 0, sizeof(r));
        if (v == NULL)
                return -1;
        TRY(cc_v_set_str(v, "path", c->words.v[0], err));
        TRY(cc_v_set(v, "command", cc_v_strv(&c->words, err), err));
        for (i = 0; i < c->words.n; i++)
                TRY(cc_strv_push(&argv, c->words.v[i], err));
        if (c->kind != CK_MSVC)
                TRY(cc_strv_push(&argv, "--version", err));
        TRY(ran = spawn(c, &argv, NULL, 0, &r, &why, err));
        if (ran == 1 && !r.timed_out) {
                if (c->kind == CK_MSVC)
                        line = first_line(r.errout.len ? r.errout.data : r.out.data,
                                          r.errout.len ? r.errout.len : r.out.len, err);
                else
                        line = first_line(r.out.len ? r.out.data : r.errout.data, r.out.len ? r.out.len : r.errout.len,
                                          err);
                if (line == NULL)
                        goto fail;
                if (c->kind == CK_UNKNOWN && r.out.data != NULL) {
                        /* "cc (Debian 12.2.0-14) 12.2.0" says gcc only in its copyright line */
                        if (strstr(r.out.data, "clang") != NULL)
                                c->kind = CK_CLANG;
                        else if (strstr(r.out.data, "Free Software Foundation") != NULL ||
                                 strstr(r.out.data, "gcc") != NULL || strstr(r.out.data, "GCC") != NULL)
                                c->kind = CK_GCC;
                }
                TRY(cc_v_set_str(v, "version", line[0] ? line : NULL, err));
                if (line[0])
                        TRY((c->compiler_version = cc_strdup(err, line)) == NULL ? -1 : 0);
        } else {
                TRY(cc_v_set_null(v, "version", err));
                if (ran == 1)
                        TRY(cc_strv_pushf(&c->notes, 1, err, "%s %s did not answer within %d ms", c->words.v[0],
                                          c->kind == CK_MSVC ? "(no arguments)" : "--version", c->timeout_ms));
                else
                        TRY(cc_strv_pushf(&c->notes, 1, err, "%s --version: %s", c->words.v[0], why));
        }
        TRY(cc_v_set_str(v, "kind", kind_names[c->kind], err));
        r2 = cc_v_set(c->facts, "compiler", v, err);
        v = NULL;
        TRY(r2);
        rv = 0;
fail:
        cc_v_free(v);
        cc_spawn_result_free(&r);
        cc_strv_free(&argv);
        free(why);
        free(line);
        return rv;
}

/* ---- headers ------------------------------------------------------------------ */

static int is_std_header(const char *name)
{
        size_t i;

        for (i = 0; i < CC_ARRAY_LEN(std_headers); i++)
                if (cc_strcasecmp(name, std_headers[i]) == 0)
                        return 1;
        return 0;
}

/* The names of the #include lines of a header (quoted and angled), in
 * order, once each. Conditionals are not evaluated. */
static int scan_includes(const char *t, size_t n, cc_strv *out, cc_error *err)
{
        size_t i = 0;

        while (i < n && out->n < SCAN_MAX_INCLUDES) {
                size_t eol = i, j;
                char close;

                while (eol < n && t[eol] != '\n')
                        eol++;
                j = i;
                while (j < eol && (t[j] == ' ' || t[j] == '\t'))
                        j++;
                if (j < eol && t[j] == '#') {
                        j++;
                        while (j < eol && (t[j] == ' ' || t[j] == '\t'))
                                j++;
                        if (eol - j > 7 && memcmp(t + j, "include", 7) == 0) {
                                j += 7;
                                while (j < eol && (t[j] == ' ' || t[j] == '\t'))
                                        j++;
                                close = j < eol && t[j] == '<' ? '>' : j < eol && t[j] == '"' ? '"' : 0;
                                if (close) {
                                        size_t s = ++j;

                                        while (j < eol && t[j] != close && t[j] != '\0')
                                                j++;
                                        if (j < eol && t[j] == close && j > s && j - s <= INCLUDE_NAME_MAX) {
                                                char *name = cc_strndup(err, t + s, j - s);

                                                if (name == NULL)
                                                        return -1;
                                                if (cc_strv_contains(out, name))
                                                        free(name);
                                                else if (cc_strv_take(out, name, err) < 0)
                                                        return -1;
                                        }
                                }
                        }
                }
                i = eol + 1;
        }
        return 0;
}

/* The directory among the -I directories that holds name, or NULL. */
static const char *locate_header(ctx *c, const char *name, cc_error *err, int *oom)
{
        size_t i;

        *oom = 0;
        for (i = 0; i < c->incdirs.n; i++) {
                char *p = cc_path_join(c->incdirs.v[i], name, err);
                int found;

                if (p == NULL) {
                        *oom = 1;
                        return NULL;
                }
                found = is_type(p, CC_FT_FILE);
                free(p);
                if (found)
                        return c->incdirs.v[i];
        }
        return NULL;
}

static int add_missing(ctx *c, const char *name, const char *by, cc_error *err)
{
        if (cc_strv_contains(&c->missing, name))
                return 0;
        if (cc_strv_push(&c->missing, name, err) < 0)
                return -1;
        return cc_strv_push(&c->missing_by, by != NULL ? by : "", err);
}

/* Follow cudnn.h's #include lines through the installation's own cudnn*.h
 * headers and check that every header they name can be found. */
static int scan_headers(ctx *c, cc_error *err)
{
        cc_value *scan = cc_v_object(err), *files = NULL, *miss = NULL, *elsewhere = NULL;
        cc_strv queue = {0}, incs = {0};
        size_t qi, k;
        int r, rv = -1, oom;

        if (scan == NULL)
                return -1;
        TRY((files = cc_v_array(err)) != NULL ? 0 : -1);
        TRY((miss = cc_v_array(err)) != NULL ? 0 : -1);
        TRY((elsewhere = cc_v_array(err)) != NULL ? 0 : -1);
        TRY(cc_strv_push(&queue, "cudnn.h", err));
        for (qi = 0; qi < queue.n; qi++) {
                char *path = cc_path_join(c->o->include_dir, queue.v[qi], err), *text = NULL;
                size_t len = 0;
                cc_error e = {0};

                if (path == NULL)
                        goto fail;
                if (cc_read_file(path, HEADER_MAX_SIZE, &text, &len, &e) < 0) {
                        free(path);
                        TRY(cc_err_keep_nomem(&e, err));
                        TRY(cc_strv_pushf(&c->notes, 1, err, "header scan: %s", e.msg));
                        continue;
                }
                free(path);
                TRY(cc_v_push(files, cc_v_str(queue.v[qi], err), err));
                cc_strv_free(&incs);
                if (scan_includes(text, len, &incs, err) < 0) {
                        free(text);
                        goto fail;
                }
                free(text);
                for (k = 0; k < incs.n; k++) {
                        const char *name = incs.v[k];
                        const char *dir;

                        if (is_std_header(name))
                                continue;
                        if (name[0] == '/' || name[0] == '\\' || strstr(name, "..") != NULL || strchr(name, ':'))
                                continue; /* not a name the -I directories answer for */
                        dir = locate_header(c, name, err, &oom);
                        if (oom)
                                goto fail;
                        if (dir == NULL) {
                                cc_value *m = cc_v_object(err);

                                TRY(m == NULL ? -1 : 0);
                                if (!cc_strv_contains(&c->missing, name)) {
                                        TRY(cc_v_set_str(m, "header", name, err));
                                        TRY(cc_v_set_str(m, "included_by", queue.v[qi], err));
                                        TRY(cc_v_push(miss, m, err));
                                } else {
                                        cc_v_free(m);
                                }
                                TRY(add_missing(c, name, queue.v[qi], err));
                                continue;
                        }
                        if (!cc_starts_with(cc_basename(name), "cudnn"))
                                continue;
                        if (strcmp(dir, c->o->include_dir) != 0) {
                                /* A cuDNN header from the toolkit's directory,
                                 * not the installation's: two cuDNNs mixed. */
                                cc_value *m = cc_v_object(err);

                                TRY(m == NULL ? -1 : 0);
                                TRY(cc_v_set_str(m, "header", name, err));
                                TRY(cc_v_set_str(m, "found_in", dir, err));
                                TRY(cc_v_push(elsewhere, m, err));
                                TRY(cc_strv_pushf(&c->notes, 1, err,
                                                  "%s is not in %s; the compiler takes it from %s, which may "
                                                  "belong to another cuDNN",
                                                  name, c->o->include_dir, dir));
                                continue;
                        }
                        if (!cc_strv_contains(&queue, name) && queue.n < SCAN_MAX_FILES)
                                TRY(cc_strv_push(&queue, name, err));
                }
        }
        r = cc_v_set(scan, "files", files, err);
        files = NULL;
        TRY(r);
        r = cc_v_set(scan, "missing", miss, err);
        miss = NULL;
        TRY(r);
        r = cc_v_set(scan, "elsewhere", elsewhere, err);
        elsewhere = NULL;
        TRY(r);
        r = cc_v_set(c->facts, "header_scan", scan, err);
        scan = NULL;
        TRY(r);
        rv = 0;
fail:
        cc_v_free(scan);
        cc_v_free(files);
        cc_v_free(miss);
        cc_v_free(elsewhere);
        cc_strv_free(&queue);
        cc_strv_free(&incs);
        return rv;
}

/* The reason for a header that cannot be found. */
static char *missing_reason(ctx *c, const char *name, const char *by, cc_error *err)
{
        const char *base = cc_basename(name);

        if (cc_starts_with(base, "cudnn"))
                return cc_asprintf(err,
                                   "%s includes %s, which is not in %s (cuDNN 8 and later split the headers: copy "
                                   "every cudnn*.h)",
                                   by != NULL && by[0] ? by : "cudnn.h", name, c->o->include_dir);
        if (is_std_header(name))
                return cc_asprintf(err, "%s not found: the compiler's own headers are not installed or not set up%s",
                                   name,
                                   c->kind == CK_MSVC || c->kind == CK_CLANG_CL
                                       ? " (INCLUDE is not set: run from a Developer Command Prompt or after "
                                         "vcvars64.bat)"
                                       : "");
        return cc_asprintf(err, "%s not found: the CUDA toolkit's headers are not installed or not in the include path",
                           name);
}

/* ---- the compiler's output ---------------------------------------------------- */

/* Find the header a diagnostic line says is missing: gcc "X: No such file or
 * directory" after "fatal error: ", clang "fatal error: 'X' file not found",
 * MSVC "C1083: Cannot open include file: 'X'". The includer is the file
 * the line starts with. */
static int parse_missing_line(const char *l, size_t n, char **name, char **by, cc_error *err)
{
        static const char gcc_mark[] = "fatal error: ";
        static const char gcc_end[] = ": No such file or directory";
        static const char msvc_mark[] = "Cannot open include file: '";
        char *line = cc_strndup(err, l, n);
        const char *p, *s = NULL, *e = NULL, *dot;
        size_t bl = 0;
        int rv = -1;

        *name = *by = NULL;
        if (line == NULL)
                return -1;
        if ((p = strstr(line, msvc_mark)) != NULL) {
                s = p + sizeof(msvc_mark) - 1;
                e = strchr(s, '\'');
                bl = strchr(line, '(') != NULL ? strcspn(line, "(") : 0;
        } else if ((p = strstr(line, gcc_mark)) != NULL) {
                s = p + sizeof(gcc_mark) - 1;
                if (*s == '\'' && strstr(s, "' file not found") != NULL) {
                        s++;
                        e = strchr(s, '\'');
                } else {
                        e = strstr(s, gcc_end);
                }
                bl = (size_t)(p - line);
                /* "path:59:10: " -> "path" */
                while (bl > 0 &&
                       (line[bl - 1] == ' ' || line[bl - 1] == ':' || (line[bl - 1] >= '0' && line[bl - 1] <= '9')))
                        bl--;
        }
        if (s == NULL || e == NULL || e <= s || (size_t)(e - s) > INCLUDE_NAME_MAX) {
                rv = 0;
                goto fail;
        }
        if ((*name = cc_strndup(err, s, (size_t)(e - s))) == NULL)
                goto fail;
        /* a header, not the source file or a library gcc could not open */
        dot = strrchr(*name, '.');
        if (dot != NULL && strcmp(dot, ".h") != 0 && strcmp(dot, ".hpp") != 0 && strcmp(dot, ".hh") != 0 &&
            strcmp(dot, ".hxx") != 0 && strcmp(dot, ".inc") != 0) {
                free(*name);
                *name = NULL;
                rv = 0;
                goto fail;
        }
        if (bl > 0) {
                line[bl] = '\0';
                if ((*by = cc_strdup(err, cc_basename(line))) == NULL)
                        goto fail;
        }
        rv = 1;
fail:
        if (rv < 0) {
                free(*name);
                *name = NULL;
        }
        free(line);
        return rv;
}

static int contains_nocase(const char *s, size_t n, const char *needle)
{
        size_t k = strlen(needle), i;

        for (i = 0; k <= n && i <= n - k; i++)
                if (cc_strncasecmp(s + i, needle, k) == 0)
                        return 1;
        return 0;
}

static int is_error_line(const char *l, size_t n)
{
        return contains_nocase(l, n, "error") || contains_nocase(l, n, "cannot find") ||
               contains_nocase(l, n, "undefined reference") || contains_nocase(l, n, "unresolved external") ||
               contains_nocase(l, n, "No such file");
}

static int is_link_line(const char *l, size_t n)
{
        return contains_nocase(l, n, "ld:") || contains_nocase(l, n, "ld.exe:") || contains_nocase(l, n, "collect2") ||
               contains_nocase(l, n, "undefined reference") || contains_nocase(l, n, "error LNK") ||
               contains_nocase(l, n, "LINK :") || contains_nocase(l, n, "linker command failed") ||
               contains_nocase(l, n, "ld returned");
}

static int is_old_tool_line(const char *l, size_t n)
{
        return contains_nocase(l, n, "unsupported Microsoft Visual Studio version") ||
               contains_nocase(l, n, "unrecognized command-line option") ||
               contains_nocase(l, n, "unrecognized command line option") ||
               contains_nocase(l, n, "unrecognized option") || contains_nocase(l, n, "unknown argument") ||
               contains_nocase(l, n, "unknown option") || contains_nocase(l, n, "D9002");
}

/* Read the compiler's diagnostics: missing headers into c->missing, the
 * first error line, whether the linker failed and an old-toolset line. */
static int read_diagnostics(ctx *c, const cc_buf *b, char **first, int *at_link, char **old, cc_error *err)
{
        const char *t = b->data;
        size_t n = b->len, i = 0;

        if (t == NULL)
                return 0;
        while (i < n) {
                size_t e = i, len;
                char *name = NULL, *by = NULL;
                int r;

                while (e < n && t[e] != '\n')
                        e++;
                len = e;
                while (len > i && (t[len - 1] == '\r' || t[len - 1] == ' '))
                        len--;
                len -= i;
                if (len > 0) {
                        const char *l = t + i;

                        if (len > 512)
                                len = 512;
                        if ((r = parse_missing_line(l, len, &name, &by, err)) < 0)
                                return -1;
                        if (r == 1) {
                                r = add_missing(c, name, by, err);
                                free(name);
                                free(by);
                                if (r < 0)
                                        return -1;
                        }
                        if (*old == NULL && is_old_tool_line(l, len) && (*old = cc_strndup(err, l, len)) == NULL)
                                return -1;
                        if (*first == NULL && is_error_line(l, len)) {
                                if ((*first = cc_strndup(err, l, len)) == NULL)
                                        return -1;
                                *at_link = is_link_line(l, len);
                        }
                }
                i = e + 1;
        }
        return 0;
}

/* ---- linking ------------------------------------------------------------------ */

/* A name libcudnn.so.N...: the file to link when there is no libcudnn.so. */
static int is_versioned_so(const char *name)
{
        const char *p = name + strlen("libcudnn.so.");

        if (!cc_starts_with(name, "libcudnn.so.") || *p == '\0')
                return 0;
        for (; *p; p++)
                if (!((*p >= '0' && *p <= '9') || *p == '.'))
                        return 0;
        return 1;
}

/* Append the link arguments to argv and record them in facts "link". 1 when
 * the layer can go on, 0 when it cannot (status set). */
static int link_args(ctx *c, cc_strv *argv, cc_error *err)
{
        const char *lib = c->o->lib_dir;
        cc_value *link = cc_v_object(err);
        cc_strv names = {0};
        char *file = NULL, *pick = NULL;
        cc_error e = {0};
        size_t i;
        int r, best = -1, rv = -1, msvc = c->kind == CK_MSVC || c->kind == CK_CLANG_CL;

        if (link == NULL)
                return -1;
        if (lib == NULL || !is_type(lib, CC_FT_DIR)) {
                if (lib == NULL)
                        TRY(set_status(c, "not-checked", "no library directory was given for this installation", err));
                else
                        TRY(set_statusf(c, "not-checked", err, "the library directory %s does not exist", lib));
                rv = 0;
                goto fail;
        }
        TRY(cc_v_set_str(link, "lib_dir", lib, err));
        if (c->o->windows) {
                TRY((file = cc_path_join(lib, "cudnn.lib", err)) == NULL ? -1 : 0);
                if (!is_type(file, CC_FT_FILE))
                        TRY(cc_strv_pushf(&c->notes, 1, err, "there is no cudnn.lib in %s: linking will fail", lib));
                TRY(cc_v_set_str(link, "library", file, err));
                if (msvc) {
                        TRY(cc_v_set_str(link, "method", "cudnn.lib", err));
                        TRY(cc_strv_push(argv, "/link", err));
                        TRY(cc_strv_pushf(argv, 0, err, "/LIBPATH:%s", lib));
                        TRY(cc_strv_push(argv, "cudnn.lib", err));
                } else {
                        TRY(cc_v_set_str(link, "method", "-lcudnn", err));
                        TRY(cc_strv_pushf(argv, 0, err, "-L%s", lib));
                        TRY(cc_strv_push(argv, "-lcudnn", err));
                }
        } else {
                TRY((file = cc_path_join(lib, "libcudnn.so", err)) == NULL ? -1 : 0);
                if (is_type(file, CC_FT_FILE)) {
                        TRY(cc_v_set_str(link, "method", "-lcudnn", err));
                        TRY(cc_v_set_str(link, "library", file, err));
                        TRY(cc_strv_pushf(argv, 0, err, "-L%s", lib));
                        TRY(cc_strv_push(argv, "-lcudnn", err));
                } else {
                        if (cc_list_dir(lib, 0, &names, &e) < 0)
                                TRY(cc_err_keep_nomem(&e, err));
                        for (i = 0; i < names.n; i++) {
                                const char *ver = names.v[i] + strlen("libcudnn.so.");
                                int score;

                                if (!is_versioned_so(names.v[i]))
                                        continue;
                                /* libcudnn.so.<major> first, else the shortest name */
                                score = 1000 - (int)(strlen(ver) > 900 ? 900 : strlen(ver));
                                if (c->o->major > 0 && strchr(ver, '.') == NULL && strlen(ver) < 4 &&
                                    atoi(ver) == c->o->major)
                                        score += 1000;
                                if (score > best) {
                                        best = score;
                                        pick = names.v[i];
                                }
                        }
                        if (pick == NULL) {
                                TRY(cc_v_set_str(link, "method", "-lcudnn", err));
                                TRY(cc_strv_pushf(&c->notes, 1, err, "there is no libcudnn.so* in %s", lib));
                                TRY(cc_strv_pushf(argv, 0, err, "-L%s", lib));
                                TRY(cc_strv_push(argv, "-lcudnn", err));
                        } else {
                                free(file);
                                TRY((file = cc_path_join(lib, pick, err)) == NULL ? -1 : 0);
                                TRY(cc_v_set_str(link, "method", "path", err));
                                TRY(cc_v_set_str(link, "library", file, err));
                                TRY(cc_strv_push(argv, file, err));
                                TRY(cc_strv_pushf(&c->notes, 1, err,
                                                  "%s has %s but no libcudnn.so (the development link, which pip "
                                                  "wheels do not ship): linked the file by its path; a plain -lcudnn "
                                                  "fails here (\"cannot find -lcudnn\") because the linker looks "
                                                  "only for libcudnn.so and libcudnn.a",
                                                  lib, pick));
                        }
                }
                /* -rpath with --disable-new-dtags writes DT_RPATH, which the
                 * loader searches before LD_LIBRARY_PATH (DT_RUNPATH, the
                 * default of newer linkers, comes after it): the program
                 * loads this installation's libcudnn even when
                 * LD_LIBRARY_PATH points at another copy. -Xlinker passes the
                 * directory as one argument, commas and all. */
                TRY(cc_strv_push(argv, "-Xlinker", err));
                TRY(cc_strv_push(argv, "-rpath", err));
                TRY(cc_strv_push(argv, "-Xlinker", err));
                TRY(cc_strv_push(argv, lib, err));
                TRY(cc_strv_push(argv, "-Wl,--disable-new-dtags", err));
                TRY(cc_v_set_str(link, "rpath", lib, err));
                TRY(cc_v_set_str(link, "rpath_tag", "DT_RPATH", err));
                TRY(cc_v_set_str(link, "rpath_why",
                                 "-Wl,--disable-new-dtags: DT_RPATH is searched before LD_LIBRARY_PATH, so the "
                                 "program loads this installation even when LD_LIBRARY_PATH points elsewhere",
                                 err));
        }
        r = cc_v_set(c->facts, "link", link, err);
        link = NULL;
        TRY(r);
        rv = 1;
fail:
        cc_v_free(link);
        cc_strv_free(&names);
        free(file);
        return rv;
}

/* ---- the program's output ----------------------------------------------------- */

/* A decimal integer (optional sign), the whole value, at most 18 digits. */
static int parse_int(const char *s, size_t n, int64_t *out)
{
        size_t i = 0, digits = 0;
        int neg = 0;
        int64_t v = 0;

        if (n > 0 && (s[0] == '-' || s[0] == '+')) {
                neg = s[0] == '-';
                i++;
        }
        for (; i < n; i++, digits++) {
                if (s[i] < '0' || s[i] > '9' || digits >= 18)
                        return -1;
                v = v * 10 + (s[i] - '0');
        }
        if (digits == 0)
                return -1;
        *out = neg ? -v : v;
        return 0;
}

static void printed_free(printed *p)
{
        free(p->create_name);
        free(p->loaded_from);
        free(p->last_key);
}

/* Read KEY=VALUE lines leniently: unknown keys and malformed lines are
 * ignored, a cut-off last line is kept as far as it goes. */
static int parse_printed(const cc_buf *b, printed *p, cc_error *err)
{
        static const char *const num_keys[] = {"header_major",    "header_minor",   "header_patch",  "CUDNN_VERSION",
                                               "runtime_version", "cudart_version", "create_status", "destroy_status"};
        const char *t = b->data;
        size_t n = b->len, i = 0;

        if (t == NULL)
                return 0;
        while (i < n) {
                size_t e = i, eq, kl, vl;
                const char *val;
                size_t k;
                int64_t num;

                while (e < n && t[e] != '\n')
                        e++;
                vl = e;
                if (vl > i && t[vl - 1] == '\r')
                        vl--;
                for (eq = i; eq < vl && t[eq] != '='; eq++)
                        ;
                kl = eq - i;
                if (eq >= vl || kl == 0 || kl > 32) {
                        i = e + 1;
                        continue;
                }
                val = t + eq + 1;
                vl -= eq + 1;
                if (vl > PRINTED_VALUE_MAX)
                        vl = PRINTED_VALUE_MAX;
                for (k = 0; k < CC_ARRAY_LEN(num_keys); k++)
                        if (strlen(num_keys[k]) == kl && memcmp(t + i, num_keys[k], kl) == 0)
                                break;
                if (k < CC_ARRAY_LEN(num_keys) && parse_int(val, vl, &num) == 0) {
                        int *have[] = {&p->have_major,   &p->have_minor,  &p->have_patch,  &p->have_version,
                                       &p->have_runtime, &p->have_cudart, &p->have_create, &p->have_destroy};
                        int64_t *dst[] = {&p->major,   &p->minor,  &p->patch,  &p->version,
                                          &p->runtime, &p->cudart, &p->create, &p->destroy};

                        *have[k] = 1;
                        *dst[k] = num;
                } else if (kl == 18 && memcmp(t + i, "create_status_name", kl) == 0) {
                        free(p->create_name);
                        if ((p->create_name = cc_strndup(err, val, vl)) == NULL)
                                return -1;
                } else if (kl == 11 && memcmp(t + i, "loaded_from", kl) == 0) {
                        free(p->loaded_from);
                        if ((p->loaded_from = cc_strndup(err, val, vl)) == NULL)
                                return -1;
                } else if (kl == 3 && memcmp(t + i, "end", kl) == 0 && e < n) {
                        p->end = 1;
                }
                if (k < CC_ARRAY_LEN(num_keys) || (kl == 18 && memcmp(t + i, "create_status_name", kl) == 0) ||
                    (kl == 11 && memcmp(t + i, "loaded_from", kl) == 0)) {
                        free(p->last_key);
                        if ((p->last_key = cc_strndup(err, t + i, kl)) == NULL)
                                return -1;
                }
                i = e + 1;
        }
        return 0;
}

static int set_opt_int(cc_value *v, const char *key, int have, int64_t i, cc_error *err)
{
        return have ? cc_v_set_int(v, key, i, err) : cc_v_set_null(v, key, err);
}

static cc_value *printed_value(const printed *p, cc_error *err)
{
        cc_value *v = cc_v_object(err);

        if (v == NULL)
                return NULL;
        if (p->have_major && p->have_minor && p->have_patch)
                TRY(cc_v_set(
                    v, "header_version",
                    cc_v_strf(err, "%lld.%lld.%lld", (long long)p->major, (long long)p->minor, (long long)p->patch),
                    err));
        else
                TRY(cc_v_set_null(v, "header_version", err));
        TRY(set_opt_int(v, "header_major", p->have_major, p->major, err));
        TRY(set_opt_int(v, "header_minor", p->have_minor, p->minor, err));
        TRY(set_opt_int(v, "header_patch", p->have_patch, p->patch, err));
        TRY(set_opt_int(v, "CUDNN_VERSION", p->have_version, p->version, err));
        TRY(set_opt_int(v, "runtime_version", p->have_runtime, p->runtime, err));
        TRY(set_opt_int(v, "cudart_version", p->have_cudart, p->cudart, err));
        TRY(set_opt_int(v, "create_status", p->have_create, p->create, err));
        TRY(cc_v_set_str(v, "create_status_name", p->create_name, err));
        if (p->have_destroy)
                TRY(cc_v_set_int(v, "destroy_status", p->destroy, err));
        TRY(cc_v_set_str(v, "loaded_from", p->loaded_from, err));
        TRY(cc_v_set_bool(v, "complete", p->end, err));
        return v;
fail:
        cc_v_free(v);
        return NULL;
}

/* Why a Windows program ended with an NTSTATUS code, in words. */
static const char *win_status_words(uint32_t code)
{
        switch (code) {
        case 0xC0000135u:
                return "a DLL it needs (cudnn64_N.dll or one of its dependencies) was not found";
        case 0xC000007Bu:
                return "a DLL it loaded is for the wrong architecture (32/64-bit mix) or is damaged";
        case 0xC0000139u:
                return "a DLL it loaded lacks a function it needs (an older or mismatched DLL)";
        case 0xC0000142u:
                return "a DLL failed to initialise";
        default:
                return NULL;
        }
}

/* ---- the whole layer ---------------------------------------------------------- */

static int build_source(cc_buf *src, cc_error *err)
{
        size_t i;

        for (i = 0; i < CC_ARRAY_LEN(probe_source); i++)
                if (cc_buf_puts(src, probe_source[i], err) < 0 || cc_buf_putc(src, '\n', err) < 0)
                        return -1;
        return 0;
}

/* The include directories: the installation's, then each CUDA directory
 * that exists (once each). */
static int include_dirs(ctx *c, cc_error *err)
{
        size_t i;

        if (cc_strv_push(&c->incdirs, c->o->include_dir, err) < 0)
                return -1;
        for (i = 0; c->o->cuda_include_dirs != NULL && i < c->o->ncuda_include_dirs; i++) {
                const char *d = c->o->cuda_include_dirs[i];

                if (d == NULL || cc_strv_contains(&c->incdirs, d))
                        continue;
                if (!is_type(d, CC_FT_DIR)) {
                        if (cc_strv_pushf(&c->notes, 1, err, "the CUDA include directory %s does not exist", d) < 0)
                                return -1;
                        continue;
                }
                if (cc_strv_push(&c->incdirs, d, err) < 0)
                        return -1;
        }
        return cc_v_set(c->facts, "include_dirs", cc_v_strv(&c->incdirs, err), err);
}

/* Add "what why" to the facts' cache_notes. */
static int cache_note(ctx *c, const char *what, const char *why, cc_error *err)
{
        cc_value *arr = cc_v_getm(c->facts, "cache_notes");

        if (arr == NULL) {
                TRY_RET(cc_v_set(c->facts, "cache_notes", cc_v_array(err), err));
                arr = cc_v_getm(c->facts, "cache_notes");
        }
        return cc_v_push(arr, cc_v_strf(err, "%s%s", what, why), err);
}

/* Keep a build that passed for the next proof (compile_cache.h): its inputs
 * are the headers it read, the compiler and the library it linked. */
static int keep_build(ctx *c, const char *exe, int64_t started, cc_error *err)
{
        cc_strv extra = {0};
        const char *lib = cc_v_get_str(cc_v_get(c->facts, "link"), "library");
        char *why = NULL;
        int rv = -1;

        TRY(cc_strv_push(&extra, c->words.v[0], err));
        if (lib != NULL)
                TRY(cc_strv_push(&extra, lib, err));
        TRY(cc_ccache_put(c->o->cache_dir, c->cache_key, c->tmp, exe, &extra, cc_v_get(c->facts, "compile"),
                          c->compiler_version, started, &why, err));
        if (why != NULL)
                TRY(cache_note(c, "the build was not kept for reuse: ", why, err));
        rv = 0;
fail:
        free(why);
        cc_strv_free(&extra);
        return rv;
}

/* Compile and link, or take the kept build (compile_cache.h). 1 when it
 * built, 0 when not (status set). */
static int compile_step(ctx *c, const char *exe, cc_error *err)
{
        cc_strv argv = {0};
        cc_spawn_result r;
        char *why = NULL, *first = NULL, *old = NULL, *reason = NULL;
        int ran, at_link = 0, rv = -1, msvc = c->kind == CK_MSVC || c->kind == CK_CLANG_CL, cacheable;
        int64_t started;
        size_t i;

        memset(&r, 0, sizeof(r));
        for (i = 0; i < c->words.n; i++)
                TRY(cc_strv_push(&argv, c->words.v[i], err));
        if (msvc) {
                TRY(cc_strv_push(&argv, "/nologo", err));
                for (i = 0; i < c->incdirs.n; i++)
                        TRY(cc_strv_pushf(&argv, 0, err, "/I%s", c->incdirs.v[i]));
                TRY(cc_strv_push(&argv, PROBE_SOURCE, err));
                TRY(cc_strv_pushf(&argv, 0, err, "/Fe%s", exe));
        } else {
                TRY(cc_strv_push(&argv, "-o", err));
                TRY(cc_strv_push(&argv, exe, err));
                TRY(cc_strv_push(&argv, PROBE_SOURCE, err));
                for (i = 0; i < c->incdirs.n; i++)
                        TRY(cc_strv_pushf(&argv, 0, err, "-I%s", c->incdirs.v[i]));
        }
        TRY(ran = link_args(c, &argv, err));
        if (ran == 0) {
                rv = 0;
                goto fail;
        }
        /* The headers the compiler reads, for a build kept to be run again */
        cacheable = c->o->cache_dir != NULL && (c->kind == CK_GCC || c->kind == CK_CLANG);
        if (cacheable) {
                TRY(cc_strv_push(&argv, "-MD", err));
                TRY(cc_strv_push(&argv, "-MF", err));
                TRY(cc_strv_push(&argv, CC_CCACHE_DEPFILE, err));
        }
        TRY(cc_v_set(c->facts, "command", cc_v_strv(&argv, err), err));
        if (cacheable)
                TRY(cc_ccache_key(&argv, c->source, c->path_value, c->cache_key, err));
        if (cacheable && !c->o->rebuild) {
                cc_value *meta = NULL;

                TRY(ran = cc_ccache_take(c->o->cache_dir, c->cache_key, c->tmp, exe, &meta, &why, err));
                if (ran == 1) {
                        cc_value *comp = cc_v_take(meta, "compile");

                        if (cc_v_set(c->facts, "compile", comp ? comp : cc_v_null(err), err) < 0 ||
                            cc_v_set(c->facts, "reused", meta, err) < 0) {
                                cc_v_free(meta);
                                goto fail;
                        }
                        goto passed;
                }
                if (why != NULL)
                        TRY(cache_note(c, "the kept build was not used: ", why, err));
                free(why);
                why = NULL;
        }
        started = (int64_t)time(NULL);
        TRY(ran = spawn(c, &argv, NULL, 0, &r, &why, err));
        if (ran == 0) {
                TRY(set_statusf(c, "not-checked", err, "the compiler could not be started: %s", why));
                rv = 0;
                goto fail;
        }
        TRY(cc_v_set(c->facts, "compile", child_value(&r, err), err));
        TRY(read_diagnostics(c, &r.out, &first, &at_link, &old, err));
        TRY(read_diagnostics(c, &r.errout, &first, &at_link, &old, err));
        if (r.timed_out) {
                TRY(cc_v_set_str(c->facts, "failed_at", "compile", err));
                TRY(set_statusf(c, "failed", err, "the compiler did not finish within %d ms and was stopped",
                                c->timeout_ms));
                rv = 0;
                goto fail;
        }
        if (r.exited && r.exit_code == 0) {
                if (cacheable)
                        TRY(keep_build(c, exe, started, err));
        passed:
                /* What the scan missed sits behind a condition the compiler
                 * did not take: header_scan keeps it, missing_headers not. */
                for (i = 0; i < c->missing.n; i++)
                        TRY(cc_strv_pushf(&c->notes, 1, err,
                                          "%s (included by %s) was not found, but the compiler did not need it",
                                          c->missing.v[i], c->missing_by.v[i]));
                cc_strv_free(&c->missing);
                cc_strv_free(&c->missing_by);
                rv = 1;
                goto fail;
        }
        TRY(cc_v_set_str(c->facts, "failed_at", at_link ? "link" : "compile", err));
        if (c->missing.n > 0) {
                /* The compiler's first missing header decides; the scan's
                 * come first in the list, so find the compiler's. */
                size_t k = 0;

                for (i = 0; i < c->missing.n; i++)
                        if (first != NULL && strstr(first, c->missing.v[i]) != NULL) {
                                k = i;
                                break;
                        }
                TRY((reason = missing_reason(c, c->missing.v[k], c->missing_by.v[k], err)) == NULL ? -1 : 0);
        } else if (old != NULL) {
                TRY((reason = cc_asprintf(err,
                                          "the compiler or linker is too old or not the kind expected for these "
                                          "headers and options: %s",
                                          old)) == NULL
                        ? -1
                        : 0);
        } else if (first != NULL) {
                TRY((reason = cc_asprintf(err, "%s failed: %s", at_link ? "linking" : "compiling", first)) == NULL ? -1
                                                                                                                   : 0);
        } else {
                char *how = cc_spawn_describe(&r, err);

                TRY(how == NULL ? -1 : 0);
                reason = cc_asprintf(err, "the compiler failed (%s) and printed no error line", how);
                free(how);
                TRY(reason == NULL ? -1 : 0);
        }
        TRY(set_status(c, "failed", reason, err));
        rv = 0;
fail:
        cc_spawn_result_free(&r);
        cc_strv_free(&argv);
        free(why);
        free(first);
        free(old);
        free(reason);
        return rv;
}

/* Run the program and read what it printed. Sets the final status. */
static int run_step(ctx *c, const char *exe, cc_error *err)
{
        cc_strv argv = {0};
        cc_spawn_result r;
        printed p;
        char *why = NULL, *how = NULL, *pathv = NULL, *envs[1] = {NULL}, *line = NULL;
        const char *env_set[1];
        size_t nenv = 0;
        int ran, r2, rv = -1;
        cc_value *run = NULL;

        memset(&r, 0, sizeof(r));
        memset(&p, 0, sizeof(p));
        TRY(cc_strv_take(&argv, cc_path_join(c->tmp, exe, err), err));
        if (c->o->windows) {
                /* The DLL directory first on PATH, as the guide's "add bin to
                 * PATH" does, for this program only. */
                if (c->o->dll_dir != NULL) {
                        TRY(env_value("PATH", &pathv, err));
                        TRY((envs[0] = cc_asprintf(err, "PATH=%s%s%s", c->o->dll_dir, pathv ? ";" : "",
                                                   pathv ? pathv : "")) == NULL
                                ? -1
                                : 0);
                        env_set[0] = envs[0];
                        nenv = 1;
                } else {
                        TRY(cc_strv_push(&c->notes,
                                         "no DLL directory given: the program finds cudnn64_N.dll "
                                         "through the loader's normal search",
                                         err));
                }
        }
        TRY(ran = spawn(c, &argv, nenv ? env_set : NULL, nenv, &r, &why, err));
        if (ran == 0) {
                TRY(cc_v_set_str(c->facts, "failed_at", "run", err));
                TRY(set_statusf(c, "failed", err, "the program could not be started: %s", why));
                rv = 0;
                goto fail;
        }
        TRY((run = child_value(&r, err)) == NULL ? -1 : 0);
        TRY(cc_v_set(run, "command", cc_v_strv(&argv, err), err));
        if (nenv)
                TRY(cc_v_set_str(run, "path_prepended", c->o->dll_dir, err));
        r2 = cc_v_set(c->facts, "run", run, err);
        run = NULL;
        TRY(r2);
        TRY(parse_printed(&r.out, &p, err));
        TRY(cc_v_set(c->facts, "printed", printed_value(&p, err), err));
        TRY((how = cc_spawn_describe(&r, err)) == NULL ? -1 : 0);
        if (p.end && r.exited && (r.exit_code == 0 || r.exit_code == 2)) {
                TRY(set_status(c, "passed", NULL, err));
                if (r.exit_code == 2)
                        TRY(cc_strv_pushf(&c->notes, 1, err, "cudnnCreate failed: status %lld %s", (long long)p.create,
                                          p.create_name ? p.create_name : ""));
                rv = 0;
                goto fail;
        }
        TRY(cc_v_set_str(c->facts, "failed_at", "run", err));
        if (r.timed_out) {
                TRY(set_statusf(c, "failed", err, "the program did not finish within %d ms and was stopped%s%s",
                                c->timeout_ms, p.last_key ? "; the last key it printed was " : "",
                                p.last_key ? p.last_key : ""));
        } else if (cc_spawn_crashed(&r)) {
                const char *words = r.exited ? win_status_words((uint32_t)r.exit_code) : NULL;

                if (words != NULL)
                        TRY(set_statusf(c, "failed", err, "the program could not run: %s (%s)", words, how));
                else
                        TRY(set_statusf(c, "failed", err, "the program ended (%s) %s%s", how,
                                        p.last_key ? "after printing " : "before printing anything",
                                        p.last_key ? p.last_key : ""));
        } else {
                /* ld.so: "error while loading shared libraries: ..." */
                TRY((line = first_line(r.errout.data, r.errout.len, err)) == NULL ? -1 : 0);
                if (line[0] != '\0' && p.last_key == NULL)
                        TRY(set_statusf(c, "failed", err, "the program ended (%s): %s", how, line));
                else
                        TRY(set_statusf(c, "failed", err, "the program ended (%s) %s%s", how,
                                        p.last_key ? "after printing " : "before printing anything",
                                        p.last_key ? p.last_key : ""));
        }
        rv = 0;
fail:
        cc_v_free(run);
        cc_spawn_result_free(&r);
        cc_strv_free(&argv);
        printed_free(&p);
        free(why);
        free(how);
        free(pathv);
        free(envs[0]);
        free(line);
        return rv;
}

/* Everything between the facts' first and last keys; sets the status. */
static int layer(ctx *c, const cc_buf *src, cc_error *err)
{
        const cc_compile_opts *o = c->o;
        char *cudnn_h = NULL, *srcpath = NULL;
        const char *exe = o->windows ? "cudnn_probe.exe" : "cudnn_probe";
        cc_error e = {0};
        int r, rv = -1;

        if (o->windows != cc_host_is_windows()) {
                TRY(set_statusf(c, "not-checked", err, "a %s program cannot be built and run on this %s host",
                                o->windows ? "Windows" : "Linux", cc_host_is_windows() ? "Windows" : "non-Windows"));
                rv = 0;
                goto fail;
        }
        if (o->path_env != NULL)
                TRY((c->path_value = cc_strdup(err, o->path_env)) == NULL ? -1 : 0);
        else
                TRY(env_value("PATH", &c->path_value, err));
        TRY(r = find_compiler(c, err));
        rv = 0;
        if (r == 0)
                goto fail;
        rv = -1;
        TRY(compiler_facts(c, err));
        if (o->include_dir == NULL) {
                TRY(set_status(c, "not-checked", "no include directory with cudnn.h was found for this installation",
                               err));
                rv = 0;
                goto fail;
        }
        TRY((cudnn_h = cc_path_join(o->include_dir, "cudnn.h", err)) == NULL ? -1 : 0);
        if (!is_type(cudnn_h, CC_FT_FILE)) {
                TRY(set_statusf(c, "not-checked", err, "there is no cudnn.h in %s", o->include_dir));
                rv = 0;
                goto fail;
        }
        TRY(include_dirs(c, err));
        TRY(scan_headers(c, err));
        TRY(cc_v_set_str(c->facts, "lib_dir", o->lib_dir, err));
        if ((c->tmp = cc_make_temp_dir("cudnnctl-compile", &e)) == NULL) {
                TRY(cc_err_keep_nomem(&e, err));
                TRY(set_statusf(c, "not-checked", err, "cannot make a temporary directory: %s", e.msg));
                rv = 0;
                goto fail;
        }
        TRY((srcpath = cc_path_join(c->tmp, PROBE_SOURCE, err)) == NULL ? -1 : 0);
        if (cc_write_file(srcpath, src->data, src->len, 0, &e) < 0) {
                TRY(cc_err_keep_nomem(&e, err));
                TRY(set_statusf(c, "not-checked", err, "cannot write the program: %s", e.msg));
                rv = 0;
                goto fail;
        }
        TRY(r = compile_step(c, exe, err));
        if (r == 1)
                TRY(run_step(c, exe, err));
        rv = 0;
fail:
        free(cudnn_h);
        free(srcpath);
        return rv;
}

int cc_compile_probe(const cc_compile_opts *o, cc_value **out, cc_error *err)
{
        ctx c;
        cc_buf src = {0};
        cc_error e = {0};
        int rv = -1;

        memset(&c, 0, sizeof(c));
        *out = NULL;
        c.o = o;
        c.timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : DEFAULT_TIMEOUT_MS;
        TRY((c.facts = cc_v_object(err)) == NULL ? -1 : 0);
        TRY(set_status(&c, "not-checked", NULL, err));
        TRY(build_source(&src, err));
        c.source = src.data;
        TRY(cc_v_set_str(c.facts, "source", src.data, err));
        TRY(layer(&c, &src, err));
        TRY(cc_v_set(c.facts, "missing_headers", cc_v_strv(&c.missing, err), err));
        if (c.tmp != NULL && cc_remove_tree(c.tmp, &e) < 0) {
                TRY(cc_err_keep_nomem(&e, err));
                TRY(cc_strv_pushf(&c.notes, 1, err, "the temporary directory was not removed: %s", e.msg));
        }
        TRY(cc_v_set(c.facts, "notes", cc_v_strv(&c.notes, err), err));
        *out = c.facts;
        c.facts = NULL;
        rv = 0;
fail:
        if (c.tmp != NULL && rv < 0) {
                cc_error ignore = {0};

                (void)cc_remove_tree(c.tmp, &ignore);
        }
        free(c.tmp);
        cc_v_free(c.facts);
        cc_buf_free(&src);
        free(c.path_value);
        free(c.compiler_version);
        cc_strv_free(&c.notes);
        cc_strv_free(&c.missing);
        cc_strv_free(&c.missing_by);
        cc_strv_free(&c.incdirs);
        cc_strv_free(&c.words);
        return rv;
}
