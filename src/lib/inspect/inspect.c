/* inspect: static facts of files, directories and archives. Never loads or
 * runs what it reads. The kind of a file comes from its content; its name is
 * only more evidence, kept apart (docs/json.md). */
#include "inspect.h"

#include "../facts/views.h"
#include "../formats/cheader.h"
#include "../formats/distinfo.h"
#include "../formats/elf.h"
#include "../formats/names.h"
#include "../formats/pe.h"
#include "../machine/tree.h"
#include "../platform/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_DIR_ENTRIES 20000
#define MAX_WALK_DEPTH 4
#define MAX_HEADER_BYTES ((size_t)16 << 20)
#define MAX_SMALL_FILE ((size_t)4 << 20)

/* The functions a cuDNN library exports that say what it is. */
static const char *const cudnn_entry_points[] = {
    "cudnnGetVersion",
    "cudnnGetCudartVersion",
    "cudnnGetMaxDeviceVersion",
    "cudnnGetProperty",
    "cudnnCreate",
    "cudnnDestroy",
    "cudnnGetErrorString",
    "cudnnGraphVersionCheck",
    "cudnnOpsVersionCheck",
    "cudnnCnnVersionCheck",
    "cudnnAdvVersionCheck",
    "cudnnOpsInferVersionCheck",
    "cudnnOpsTrainVersionCheck",
    "cudnnCnnInferVersionCheck",
    "cudnnCnnTrainVersionCheck",
    "cudnnAdvInferVersionCheck",
    "cudnnAdvTrainVersionCheck",
    "cudnnBackendCreateDescriptor",
};

/* Header macros worth reading, with what they tell. */
static const char *const header_macros[] = {
    "CUDNN_MAJOR",
    "CUDNN_MINOR",
    "CUDNN_PATCHLEVEL",
    "CUDNN_VERSION",
    "CUDNN_MAX_SM_MAJOR_NUMBER",
    "CUDNN_MAX_SM_MINOR_NUMBER",
    "CUDNN_MAX_DEVICE_VERSION",
    "CUDNN_MIN_DEVICE_VERSION",
    "CUDA_VERSION",
    "CUDART_VERSION",
};

/* Sub-library macro prefixes: CUDNN_<X>_MAJOR/MINOR/PATCH. */
static const char *const sublib_macros[] = {
    "OPS_INFER", "OPS_TRAIN", "CNN_INFER", "CNN_TRAIN", "ADV_INFER", "ADV_TRAIN", "GRAPH", "OPS", "CNN", "ADV",
};

/* 1 if the last component of path (trailing separators ignored) is a
 * *.dist-info directory name. */
static int is_distinfo_path(const char *p)
{
        static const char suffix[] = ".dist-info";
        size_t n = strlen(p), k = sizeof(suffix) - 1;

        while (n > 1 && cc_is_sep(p[n - 1]))
                n--;
        return n >= k && memcmp(p + n - k, suffix, k) == 0;
}

/* ---- versions ----------------------------------------------------------- */

/* Append {component, source, version, ...extra} to obj["versions"]. Takes
 * ownership of extra (an object or NULL); its members are moved in. */
static int add_version(cc_value *obj, const char *component, const char *source, const char *version,
                       cc_value **entry_out, cc_error *err)
{
        cc_value *arr = cc_v_getm(obj, CC_K(ins_facts, versions));
        cc_value *e;

        if (arr == NULL) {
                TRY(cc_v_set(obj, CC_K(ins_facts, versions), cc_v_array(err), err));
                arr = cc_v_getm(obj, CC_K(ins_facts, versions));
        }
        e = cc_v_object(err);
        if (e == NULL)
                return -1;
        if (cc_v_set_str(e, CC_K(version, component), component, err) < 0 ||
            cc_v_set_str(e, CC_K(version, source), source, err) < 0 ||
            cc_v_set_str(e, CC_K(version, version), version, err) < 0) {
                cc_v_free(e);
                return -1;
        }
        if (entry_out)
                *entry_out = e;
        return cc_v_push(arr, e, err);
fail:
        return -1;
}

static const char *ver_str(const cudnnctl_ver *v, char *buf, size_t size)
{
        return cudnnctl_ver_str(v, buf, size);
}

/* ---- names -------------------------------------------------------------- */

static const char *sys_name(int s)
{
        switch (s) {
        case CC_SYS_LINUX:
                return "linux";
        case CC_SYS_WINDOWS:
                return "windows";
        default:
                return "any";
        }
}

static const char *era_name(int e)
{
        switch (e) {
        case CC_ERA_LEGACY:
                return "legacy";
        case CC_ERA_REDIST:
                return "redist";
        case CC_ERA_WHEEL:
                return "wheel";
        default:
                return "unknown";
        }
}

/* Name-derived facts: "file_name" for cuDNN library/header names,
 * "archive_name" for archive names. */
static int name_facts(const char *name, cc_value *obj, cc_error *err)
{
        cc_libname ln;
        cc_archname an;
        char vb[64];
        cc_value *o = NULL;

        if (cc_name_library(name, &ln) == 0) {
                o = cc_v_object(err);
                if (o == NULL)
                        return -1;
                TRY(cc_v_set_str(o, CC_K(ins_file_name, role), ln.role, err));
                TRY(cc_v_set_str(o, CC_K(ins_file_name, file_kind), cc_file_kind_name(ln.kind), err));
                TRY(cc_v_set_str(o, CC_K(ins_file_name, system), sys_name(ln.system), err));
                if (ln.major >= 0)
                        TRY(cc_v_set_int(o, CC_K(ins_file_name, major), ln.major, err));
                else
                        TRY(cc_v_set_null(o, CC_K(ins_file_name, major), err));
                TRY(cc_v_set(o, CC_K(ins_file_name, version),
                             ln.version.n ? cc_v_str(ver_str(&ln.version, vb, sizeof(vb)), err) : cc_v_null(err), err));
                TRY(cc_v_set_bool(o, CC_K(ins_file_name, dev_link), ln.dev_link, err));
                TRY(cc_v_set_bool(o, CC_K(ins_file_name, known_role), ln.known_role, err));
                TRY(cc_v_set(obj, CC_K(ins_facts, file_name), o, err));
                o = NULL;
                if (ln.version.n)
                        TRY(add_version(obj, "cudnn", "file-name", ver_str(&ln.version, vb, sizeof(vb)), NULL, err));
                return 0;
        }
        if (cc_name_archive(name, &an) == 0) {
                o = cc_v_object(err);
                if (o == NULL)
                        return -1;
                TRY(cc_v_set_str(o, CC_K(ins_archive_name, era), era_name(an.era), err));
                TRY(cc_v_set_str(o, CC_K(ins_archive_name, format), an.format, err));
                TRY(cc_v_set(o, CC_K(ins_archive_name, version),
                             an.version.n ? cc_v_str(ver_str(&an.version, vb, sizeof(vb)), err) : cc_v_null(err), err));
                TRY(cc_v_set_str(o, CC_K(ins_archive_name, platform), an.platform, err));
                TRY(cc_v_set_str(o, CC_K(ins_archive_name, system), sys_name(an.system), err));
                TRY(cc_v_set_str(o, CC_K(ins_archive_name, arch), an.arch, err));
                TRY(cc_v_set(o, CC_K(ins_archive_name, cuda), an.cuda[0] ? cc_v_str(an.cuda, err) : cc_v_null(err),
                             err));
                if (an.package[0])
                        TRY(cc_v_set_str(o, CC_K(ins_archive_name, package), an.package, err));
                TRY(cc_v_set(obj, CC_K(ins_facts, archive_name), o, err));
                o = NULL;
                if (an.version.n)
                        TRY(add_version(obj, "cudnn", "archive-name", ver_str(&an.version, vb, sizeof(vb)), NULL, err));
                return 0;
        }
        return 0;
fail:
        cc_v_free(o);
        return -1;
}

static int set_warnings(cc_value *obj, const cc_strv *w, cc_error *err)
{
        if (w->n == 0)
                return 0;
        return cc_v_set(obj, CC_K(ins_facts, warnings), cc_v_strv(w, err), err);
}

static int set_error(cc_value *obj, const cc_error *perr, cc_error *err)
{
        return cc_v_set_str(obj, CC_K(ins_facts, error), perr->msg[0] ? perr->msg : "unreadable", err);
}

/* The cuDNN entry points an object exports, as an array (NULL when out of
 * memory); has() answers for one name. */
static cc_value *entry_points(int (*has)(const void *ctx, const char *name), const void *ctx, cc_error *err)
{
        cc_value *eps = cc_v_array(err);
        size_t i;

        for (i = 0; eps != NULL && i < CC_ARRAY_LEN(cudnn_entry_points); i++) {
                if (has(ctx, cudnn_entry_points[i]) && cc_v_push(eps, cc_v_str(cudnn_entry_points[i], err), err) < 0) {
                        cc_v_free(eps);
                        return NULL;
                }
        }
        return eps;
}

/* obj["cudnn"] = {entry_points, version_constants (when consts != NULL)} if
 * either is non-empty. Takes ownership of eps and consts. */
static int set_cudnn_facts(cc_value *obj, cc_value *eps, cc_value *consts, cc_error *err)
{
        cc_value *cud;

        if (eps == NULL) {
                cc_v_free(consts);
                return -1;
        }
        if (cc_v_len(eps) == 0 && cc_v_len(consts) == 0) {
                cc_v_free(eps);
                cc_v_free(consts);
                return 0;
        }
        cud = cc_v_object(err);
        if (cud == NULL) {
                cc_v_free(eps);
                cc_v_free(consts);
                return -1;
        }
        if (cc_v_set(cud, CC_K(ins_cudnn, entry_points), eps, err) < 0) {
                cc_v_free(consts);
                cc_v_free(cud);
                return -1;
        }
        if (consts != NULL && cc_v_set(cud, CC_K(ins_cudnn, version_constants), consts, err) < 0) {
                cc_v_free(cud);
                return -1;
        }
        return cc_v_set(obj, CC_K(ins_facts, cudnn), cud, err);
}

/* ---- ELF ---------------------------------------------------------------- */

static int elf_has(const void *ctx, const char *name)
{
        return cc_elf_find_sym(ctx, name) != NULL;
}

/* The exported version constants reported per library. cuDNN 9 exports
 * about ten; a library with millions of names like them gets the first
 * ones and a warning, not millions of objects. */
#define MAX_VERSION_CONSTANTS 256

/* name, n bytes long: "cudnn" and "_version" cannot overlap, so 13 at least */
static int is_version_constant_name_n(const char *name, size_t n)
{
        return n >= 13 && memcmp(name, "cudnn", 5) == 0 && memcmp(name + n - 8, "_version", 8) == 0;
}

static int is_version_constant_name(const char *name)
{
        return is_version_constant_name_n(name, strlen(name));
}

/* Which exported symbols elf_facts keeps (cc_elf_keep_fn): all of them for
 * --symbols, else only the cuDNN entry points (each name once) and the
 * first MAX_VERSION_CONSTANTS version constants; the rest is only counted,
 * so the memory does not grow with the number of symbols. */
_Static_assert(CC_ARRAY_LEN(cudnn_entry_points) <= 32, "elf_keep.eps_seen has a bit per entry point");

struct elf_keep {
        int all;
        uint32_t eps_seen; /* bit i: cudnn_entry_points[i] kept already */
        size_t consts, consts_dropped;
};

static int elf_keep_sym(void *ctx, const char *name)
{
        struct elf_keep *k = ctx;
        size_t i, n;

        if (k->all)
                return 1;
        if (name[0] != 'c' || strncmp(name, "cudnn", 5) != 0)
                return 0;
        n = strlen(name); /* cuDNN's own names by the thousand: each compared by length first */
        for (i = 0; i < CC_ARRAY_LEN(cudnn_entry_points); i++) {
                /* all start with "cudnn": the byte after it, then the length */
                if (name[5] == cudnn_entry_points[i][5] && strlen(cudnn_entry_points[i]) == n &&
                    memcmp(name, cudnn_entry_points[i], n) == 0) {
                        if (k->eps_seen & (1u << i))
                                return 0;
                        k->eps_seen |= 1u << i;
                        return 1;
                }
        }
        if (!is_version_constant_name_n(name, n))
                return 0;
        if (k->consts >= MAX_VERSION_CONSTANTS) {
                k->consts_dropped++;
                return 0;
        }
        k->consts++;
        return 1;
}

static int elf_facts(const uint8_t *data, size_t size, unsigned flags, cc_value *obj, cc_error *err)
{
        cc_error perr = {0};
        cc_elf *e = NULL;
        cc_value *o = NULL, *eps = NULL, *consts = NULL, *exports = NULL;
        struct elf_keep keep = {0};
        const char *mname;
        size_t i;
        int rv = -1;

        TRY(cc_v_set_str(obj, CC_K(ins_facts, kind), "elf", err));
        keep.all = (flags & CUDNNCTL_INSPECT_SYMBOLS) != 0;
        /* every symbol elf_keep_sym takes, short of --symbols, starts with "cudnn" */
        if ((!keep.all && (flags & CC_INSPECT_VERSIONS_ONLY)
                 ? cc_elf_parse_kept(data, size, 0, "cudnn", elf_keep_sym, &keep, &e, &perr)
                 : cc_elf_parse_keep(data, size, 0, elf_keep_sym, &keep, &e, &perr)) < 0) {
                TRY(set_error(obj, &perr, err));
                rv = 0;
                goto fail;
        }
        o = cc_v_object(err);
        if (o == NULL)
                goto fail;
        TRY(cc_v_set_int(o, CC_K(ins_elf, class), e->bits, err));
        TRY(cc_v_set_str(o, CC_K(ins_elf, endian), e->big_endian ? "big" : "little", err));
        TRY(cc_v_set(o, CC_K(ins_elf, type), cc_v_str(cc_elf_type_name(e->type), err), err));
        TRY(cc_v_set_int(o, CC_K(ins_elf, type_code), e->type, err));
        mname = cc_elf_machine_name(e->machine);
        TRY(cc_v_set(o, CC_K(ins_elf, machine), mname ? cc_v_str(mname, err) : cc_v_strf(err, "machine %u", e->machine),
                     err));
        TRY(cc_v_set_int(o, CC_K(ins_elf, machine_code), e->machine, err));
        TRY(cc_v_set_int(o, CC_K(ins_elf, osabi), e->osabi, err));
        TRY(cc_v_set_str(o, CC_K(ins_elf, interp), e->interp, err));
        TRY(cc_v_set_bool(o, CC_K(ins_elf, dynamic), e->has_dynamic, err));
        TRY(cc_v_set_str(o, CC_K(ins_elf, soname), e->soname, err));
        TRY(cc_v_set(o, CC_K(ins_elf, needed), cc_v_strv(&e->needed, err), err));
        TRY(cc_v_set_str(o, CC_K(ins_elf, rpath), e->rpath, err));
        TRY(cc_v_set_str(o, CC_K(ins_elf, runpath), e->runpath, err));
        TRY(cc_v_set_int(o, CC_K(ins_elf, flags_1), (int64_t)e->flags_1, err));
        TRY(cc_v_set_bool(o, CC_K(ins_elf, nodeflib), (e->flags_1 & CC_DF_1_NODEFLIB) != 0, err));
        TRY(e->exports_uncounted ? cc_v_set_null(o, CC_K(ins_elf, exports_count), err)
                                 : cc_v_set_int(o, CC_K(ins_elf, exports_count), (int64_t)e->nexports, err));
        if (keep.all) {
                exports = cc_v_array(err);
                if (exports == NULL)
                        goto fail;
                for (i = 0; i < e->nsyms; i++)
                        TRY(cc_v_push(exports, cc_v_str(e->syms[i].name, err), err));
                TRY(cc_v_set(o, CC_K(ins_elf, exports), exports, err));
                exports = NULL;
        }
        TRY(cc_v_set(obj, CC_K(ins_facts, elf), o, err));
        o = NULL;

        /* cuDNN: entry points and the exported version constants. */
        eps = entry_points(elf_has, e, err);
        consts = cc_v_array(err);
        if (eps == NULL || consts == NULL)
                goto fail;
        for (i = 0; i < e->nsyms; i++) {
                const cc_elf_sym *s = &e->syms[i];
                uint8_t raw[4];
                uint32_t v;
                cudnnctl_ver ver;
                cc_value *c;
                char vb[64];
                cc_error rerr = {0};

                if (!is_version_constant_name(s->name) || s->type != CC_STT_OBJECT)
                        continue;
                if (cc_v_len(consts) >= MAX_VERSION_CONSTANTS) {
                        keep.consts_dropped++; /* --symbols kept them all */
                        continue;
                }
                c = cc_v_object(err);
                if (c == NULL)
                        goto fail;
                if (cc_v_push(consts, c, err) < 0)
                        goto fail;
                TRY(cc_v_set_str(c, "symbol", s->name, err));
                TRY(cc_v_set_int(c, "size", (int64_t)s->size, err));
                if (s->size != 4 || cc_elf_read_vaddr(e, data, size, s->value, raw, 4, &rerr) < 0) {
                        TRY(cc_v_set_null(c, "raw", err));
                        TRY(cc_v_set_null(c, "version", err));
                        TRY(cc_v_set_str(c, "error",
                                         s->size != 4 ? "not a 4-byte constant" : "value not stored in the file", err));
                        continue;
                }
                (void)cc_rd_u32(raw, 4, 0, e->big_endian, &v);
                TRY(cc_v_set_int(c, "raw", v, err));
                if (cudnnctl_cudnn_decode_packed(v, &ver) < 0) {
                        TRY(cc_v_set_null(c, "version", err));
                        TRY(cc_v_set_str(c, "error", "value is not a packed (major, minor, patch) version", err));
                        continue;
                }
                TRY(cc_v_set_str(c, "version", ver_str(&ver, vb, sizeof(vb)), err));
                {
                        cc_value *ve = NULL;

                        TRY(add_version(obj, "cudnn", "exported-constant", vb, &ve, err));
                        TRY(cc_v_set_str(ve, CC_K(version, symbol), s->name, err));
                }
        }
        rv = set_cudnn_facts(obj, eps, consts, err);
        eps = consts = NULL;
        TRY(rv);
        if (keep.consts_dropped &&
            cc_strv_pushf(&e->warnings, 0, err, "%zu more cudnn*_version symbols not read (the first %d are)",
                          keep.consts_dropped, MAX_VERSION_CONSTANTS) < 0)
                goto fail;
        TRY(set_warnings(obj, &e->warnings, err));
        rv = 0;
fail:
        cc_v_free(o);
        cc_v_free(eps);
        cc_v_free(consts);
        cc_v_free(exports);
        cc_elf_free(e);
        return rv;
}

/* ---- PE ----------------------------------------------------------------- */

static char *pe_ver4(uint32_t ms, uint32_t ls, cc_error *err)
{
        return cc_asprintf(err, "%u.%u.%u.%u", (unsigned)(ms >> 16), (unsigned)(ms & 0xFFFF), (unsigned)(ls >> 16),
                           (unsigned)(ls & 0xFFFF));
}

/* 1 if s holds "cudnn" in any case. */
static int mentions_cudnn(const char *s)
{
        for (; s != NULL && *s; s++)
                if (cc_strncasecmp(s, "cudnn", 5) == 0)
                        return 1;
        return 0;
}

/* What a DLL's version resource is the version of: "cudnn" for a cuDNN file
 * (a cuDNN name, a cudnn* export, or a resource that says cuDNN), else the
 * file's own name as the resource or export directory gives it, lower case
 * and without extension ("kernel32", "zlibwapi"), else "file". */
static const char *pe_component(const cc_pe *pe, const cc_value *facts, char *buf, size_t size)
{
        const char *n = cc_pe_string_value(pe, "OriginalFilename");
        cc_vw_ins_facts f;
        size_t i, k = 0;

        cc_vw_ins_facts_read(facts, &f, NULL);
        if (f.file_name != NULL || mentions_cudnn(cc_pe_string_value(pe, "ProductName")) ||
            mentions_cudnn(cc_pe_string_value(pe, "FileDescription")) || mentions_cudnn(pe->export_name))
                return "cudnn";
        for (i = 0; i < pe->exports.n; i++)
                if (cc_starts_with(pe->exports.v[i], "cudnn"))
                        return "cudnn";
        if (n == NULL || n[0] == '\0')
                n = pe->export_name;
        for (n = n ? cc_basename(n) : ""; n[k] && n[k] != '.' && k + 1 < size; k++)
                buf[k] = (char)((n[k] >= 'A' && n[k] <= 'Z') ? n[k] - 'A' + 'a' : n[k]);
        buf[k] = '\0';
        return k ? buf : "file";
}

static int pe_version_info(const cc_pe *pe, cc_value *obj, cc_value *facts, cc_error *err)
{
        char cb[64];
        const char *component = pe_component(pe, facts, cb, sizeof(cb));
        cc_value *vi = NULL, *strs = NULL, *tr = NULL;
        char *fv = NULL, *pv = NULL;
        const char *sfv;
        size_t i;
        int rv = -1;

        if (!pe->has_version && pe->nstrings == 0)
                return cc_v_set_null(obj, CC_K(ins_pe, version_info), err);
        vi = cc_v_object(err);
        if (vi == NULL)
                return -1;
        if (pe->has_version) {
                fv = pe_ver4(pe->file_version_ms, pe->file_version_ls, err);
                pv = pe_ver4(pe->product_version_ms, pe->product_version_ls, err);
                if (fv == NULL || pv == NULL)
                        goto fail;
                TRY(cc_v_set_str(vi, CC_K(ins_pe_version, file_version), fv, err));
                TRY(cc_v_set_str(vi, CC_K(ins_pe_version, product_version), pv, err));
                TRY(cc_v_set_int(vi, CC_K(ins_pe_version, file_flags_mask), pe->file_flags_mask, err));
                TRY(cc_v_set_int(vi, CC_K(ins_pe_version, file_flags), pe->file_flags, err));
                TRY(cc_v_set_int(vi, CC_K(ins_pe_version, file_os), pe->file_os, err));
                TRY(cc_v_set_int(vi, CC_K(ins_pe_version, file_type), pe->file_type, err));
                TRY(cc_v_set_int(vi, CC_K(ins_pe_version, file_subtype), pe->file_subtype, err));
        } else {
                TRY(cc_v_set_null(vi, CC_K(ins_pe_version, file_version), err));
                TRY(cc_v_set_null(vi, CC_K(ins_pe_version, product_version), err));
        }
        strs = cc_v_array(err);
        if (strs == NULL)
                goto fail;
        for (i = 0; i < pe->nstrings; i++) {
                cc_value *s = cc_v_object(err);

                if (cc_v_push(strs, s, err) < 0)
                        goto fail;
                TRY(cc_v_set_str(s, CC_K(ins_pe_string, table), pe->strings[i].table, err));
                TRY(cc_v_set_str(s, CC_K(ins_pe_string, key), pe->strings[i].key, err));
                TRY(cc_v_set_str(s, CC_K(ins_pe_string, value), pe->strings[i].value, err));
        }
        TRY(cc_v_set(vi, CC_K(ins_pe_version, strings), strs, err));
        strs = NULL;
        tr = cc_v_array(err);
        if (tr == NULL)
                goto fail;
        for (i = 0; i < pe->ntranslations; i++) {
                cc_value *t = cc_v_object(err);

                if (cc_v_push(tr, t, err) < 0)
                        goto fail;
                TRY(cc_v_set_int(t, "language", pe->translations[i] >> 16, err));
                TRY(cc_v_set_int(t, "codepage", pe->translations[i] & 0xFFFF, err));
        }
        TRY(cc_v_set(vi, CC_K(ins_pe_version, translations), tr, err));
        tr = NULL;
        TRY(cc_v_set(obj, CC_K(ins_pe, version_info), vi, err));
        vi = NULL;

        /* Version evidence: the fixed FileVersion, and the string when it differs. */
        if (fv != NULL) {
                cudnnctl_ver ver;
                char vb[64];

                if (cudnnctl_ver_parse(fv, &ver) == 0)
                        TRY(add_version(facts, component, "version-resource", ver_str(&ver, vb, sizeof(vb)), NULL,
                                        err));
        }
        sfv = cc_pe_string_value(pe, "FileVersion");
        if (sfv != NULL && (fv == NULL || strcmp(sfv, fv) != 0)) {
                cudnnctl_ver ver;
                char vb[64];

                if (cudnnctl_ver_parse(sfv, &ver) == 0)
                        TRY(add_version(facts, component, "version-resource-string", ver_str(&ver, vb, sizeof(vb)),
                                        NULL, err));
        }
        rv = 0;
fail:
        free(fv);
        free(pv);
        cc_v_free(vi);
        cc_v_free(strs);
        cc_v_free(tr);
        return rv;
}

static int pe_has(const void *ctx, const char *name)
{
        return cc_strv_contains(&((const cc_pe *)ctx)->exports, name);
}

static int pe_facts(const uint8_t *data, size_t size, unsigned flags, cc_value *obj, cc_error *err)
{
        cc_error perr = {0};
        cc_pe *pe = NULL;
        cc_value *o = NULL;
        const char *mname;
        int rv = -1;

        TRY(cc_v_set_str(obj, CC_K(ins_facts, kind), "pe", err));
        if (cc_pe_parse(data, size, &pe, &perr) < 0) {
                TRY(set_error(obj, &perr, err));
                rv = 0;
                goto fail;
        }
        o = cc_v_object(err);
        if (o == NULL)
                goto fail;
        mname = cc_pe_machine_name(pe->machine);
        TRY(cc_v_set(o, CC_K(ins_pe, machine),
                     mname ? cc_v_str(mname, err) : cc_v_strf(err, "machine 0x%04x", pe->machine), err));
        TRY(cc_v_set_int(o, CC_K(ins_pe, machine_code), pe->machine, err));
        TRY(cc_v_set_str(o, CC_K(ins_pe, type), pe->is_dll ? "dll" : "exe", err));
        TRY(cc_v_set_bool(o, CC_K(ins_pe, pe32plus), pe->pe32plus, err));
        TRY(cc_v_set_int(o, CC_K(ins_pe, subsystem), pe->subsystem, err));
        TRY(cc_v_set_int(o, CC_K(ins_pe, timestamp), pe->timestamp, err));
        TRY(cc_v_set(o, CC_K(ins_pe, imports), cc_v_strv(&pe->imports, err), err));
        TRY(cc_v_set(o, CC_K(ins_pe, delay_imports), cc_v_strv(&pe->delay_imports, err), err));
        TRY(cc_v_set_str(o, CC_K(ins_pe, export_name), pe->export_name, err));
        TRY(cc_v_set_int(o, CC_K(ins_pe, exports_count), (int64_t)pe->exports.n, err));
        if (flags & CUDNNCTL_INSPECT_SYMBOLS)
                TRY(cc_v_set(o, CC_K(ins_pe, exports), cc_v_strv(&pe->exports, err), err));
        TRY(cc_v_set_int(o, CC_K(ins_pe, exports_by_ordinal_only), (int64_t)pe->exports_by_ordinal_only, err));
        TRY(pe_version_info(pe, o, obj, err));
        TRY(cc_v_set(obj, CC_K(ins_facts, pe), o, err));
        o = NULL;

        TRY(set_cudnn_facts(obj, entry_points(pe_has, pe, err), NULL, err));
        TRY(set_warnings(obj, &pe->warnings, err));
        rv = 0;
fail:
        cc_v_free(o);
        cc_pe_free(pe);
        return rv;
}

static int implib_facts(const uint8_t *data, size_t size, cc_value *obj, cc_error *err)
{
        cc_error perr = {0};
        cc_implib *lib = NULL;
        cc_value *o = NULL;
        const char *mname;
        int rv = -1;

        if (cc_implib_parse(data, size, &lib, &perr) < 0) {
                TRY(cc_v_set_str(obj, CC_K(ins_facts, kind), "ar-archive", err));
                TRY(set_error(obj, &perr, err));
                rv = 0;
                goto fail;
        }
        /* A Unix static library is an ar archive too, but without import members. */
        TRY(cc_v_set_str(obj, CC_K(ins_facts, kind), lib->dlls.n ? "import-library" : "ar-archive", err));
        o = cc_v_object(err);
        if (o == NULL)
                goto fail;
        TRY(cc_v_set(o, CC_K(ins_implib, dlls), cc_v_strv(&lib->dlls, err), err));
        TRY(cc_v_set_int(o, CC_K(ins_implib, symbols), (int64_t)lib->nsymbols, err));
        TRY(cc_v_set_int(o, CC_K(ins_implib, members), (int64_t)lib->nmembers, err));
        mname = lib->machine ? cc_pe_machine_name(lib->machine) : NULL;
        TRY(cc_v_set(o, CC_K(ins_implib, machine), mname ? cc_v_str(mname, err) : cc_v_null(err), err));
        TRY(cc_v_set(obj, lib->dlls.n ? CC_K(ins_facts, implib) : CC_K(ins_facts, ar), o, err));
        o = NULL;
        rv = 0;
fail:
        cc_v_free(o);
        cc_implib_free(lib);
        return rv;
}

/* ---- headers ------------------------------------------------------------- */

/* A header's facts, the interesting macros evaluated over headers
 * hs[0..nh) (hs[0] is the file itself; the others are headers it includes
 * from the same directory): its includes, number of definitions and the
 * macros about cuDNN and CUDA (not with CC_INSPECT_VERSIONS_ONLY: a reader
 * that takes only the versions does not pay for them), then the versions
 * the macros give. */
static int header_facts_multi(const cc_header *const *hs, size_t nh, unsigned flags, cc_value *obj, cc_error *err)
{
        const cc_header *h = hs[0];
        cc_value *o = NULL, *macros = NULL;
        int64_t major = 0, minor = 0, patch = 0, val;
        int have_mmp = 0, rv = -1;
        size_t i, k;
        char name[64];

        if (flags & CC_INSPECT_VERSIONS_ONLY) {
                TRY(cc_v_set_str(obj, CC_K(ins_facts, kind), "header", err));
                goto versions;
        }
        o = cc_v_object(err);
        macros = cc_v_array(err);
        if (o == NULL || macros == NULL)
                goto fail;
        TRY(cc_v_set(o, CC_K(ins_header, includes), cc_v_strv(&h->includes, err), err));
        TRY(cc_v_set_int(o, CC_K(ins_header, defines), (int64_t)h->nmacros, err));

        /* Report the interesting macros defined in this header (not its includes). */
        for (i = 0; i < CC_ARRAY_LEN(header_macros) + CC_ARRAY_LEN(sublib_macros) * 3; i++) {
                const cc_macro *m;
                cc_value *mv;
                cc_error eerr = {0};

                if (i < CC_ARRAY_LEN(header_macros)) {
                        snprintf(name, sizeof(name), "%s", header_macros[i]);
                } else {
                        static const char *const parts[] = {"MAJOR", "MINOR", "PATCH"};

                        k = i - CC_ARRAY_LEN(header_macros);
                        snprintf(name, sizeof(name), "CUDNN_%s_%s", sublib_macros[k / 3], parts[k % 3]);
                }
                m = cc_header_find(&h, 1, name);
                if (m == NULL)
                        continue;
                mv = cc_v_object(err);
                if (cc_v_push(macros, mv, err) < 0)
                        goto fail;
                TRY(cc_v_set_str(mv, CC_K(ins_macro, name), name, err));
                TRY(cc_v_set_str(mv, CC_K(ins_macro, definition), m->body, err));
                TRY(cc_v_set_int(mv, CC_K(ins_macro, line), m->line, err));
                if (m->redefinitions > 0)
                        TRY(cc_v_set(mv, CC_K(ins_macro, warning),
                                     cc_v_strf(err,
                                               "defined %d more time(s) with another body (under #if branches?); "
                                               "the first definition was used",
                                               m->redefinitions),
                                     err));
                if (cc_header_eval(hs, nh, name, &val, &eerr) == 0) {
                        TRY(cc_v_set_int(mv, CC_K(ins_macro, value), val, err));
                } else {
                        TRY(cc_v_set_null(mv, CC_K(ins_macro, value), err));
                        TRY(cc_v_set_str(mv, CC_K(ins_macro, error), eerr.msg, err));
                }
        }
        TRY(cc_v_set(o, CC_K(ins_header, macros), macros, err));
        macros = NULL;
        TRY(cc_v_set_str(obj, CC_K(ins_facts, kind), "header", err));
        TRY(cc_v_set(obj, CC_K(ins_facts, header), o, err));
        o = NULL;

versions:
        /* cuDNN version from CUDNN_MAJOR/MINOR/PATCHLEVEL defined in this header. */
        if (cc_header_find(&h, 1, "CUDNN_MAJOR") != NULL) {
                cc_error e1 = {0};

                have_mmp = cc_header_eval(hs, nh, "CUDNN_MAJOR", &major, &e1) == 0 &&
                           cc_header_eval(hs, nh, "CUDNN_MINOR", &minor, &e1) == 0 &&
                           cc_header_eval(hs, nh, "CUDNN_PATCHLEVEL", &patch, &e1) == 0;
                if (have_mmp && major >= 0 && major < 100 && minor >= 0 && minor < 100 && patch >= 0 && patch < 100) {
                        cc_value *ve = NULL;
                        char vb[64];
                        int64_t cv;
                        long expect = cudnnctl_cudnn_encode((int)major, (int)minor, (int)patch);

                        snprintf(vb, sizeof(vb), "%d.%d.%d", (int)major, (int)minor, (int)patch);
                        TRY(add_version(obj, "cudnn", "header", vb, &ve, err));
                        TRY(cc_v_set_str(ve, "macros", "CUDNN_MAJOR.CUDNN_MINOR.CUDNN_PATCHLEVEL", err));
                        if (cc_header_eval(hs, nh, "CUDNN_VERSION", &cv, &e1) == 0) {
                                TRY(cc_v_set_int(ve, "CUDNN_VERSION", cv, err));
                                if (cv != expect)
                                        TRY(cc_v_set(ve, CC_K(version, warning),
                                                     cc_v_strf(err,
                                                               "CUDNN_VERSION is %lld, not %ld as cuDNN %s's "
                                                               "formula gives",
                                                               (long long)cv, expect, vb),
                                                     err));
                        }
                } else if (!have_mmp) {
                        cc_value *ve = NULL;

                        TRY(add_version(obj, "cudnn", "header", "unknown", &ve, err));
                        TRY(cc_v_set_str(ve, CC_K(version, error), e1.msg, err));
                }
        }
        /* Sub-library versions. */
        for (k = 0; k < CC_ARRAY_LEN(sublib_macros); k++) {
                int64_t a, b, c;
                cc_error e2 = {0};
                char n1[64], n2[64], n3[64], vb[64], lib[32];
                cc_value *ve = NULL;

                snprintf(n1, sizeof(n1), "CUDNN_%s_MAJOR", sublib_macros[k]);
                snprintf(n2, sizeof(n2), "CUDNN_%s_MINOR", sublib_macros[k]);
                snprintf(n3, sizeof(n3), "CUDNN_%s_PATCH", sublib_macros[k]);
                if (cc_header_find(&h, 1, n1) == NULL)
                        continue;
                if (cc_header_eval(hs, nh, n1, &a, &e2) < 0 || cc_header_eval(hs, nh, n2, &b, &e2) < 0 ||
                    cc_header_eval(hs, nh, n3, &c, &e2) < 0)
                        continue;
                snprintf(vb, sizeof(vb), "%lld.%lld.%lld", (long long)a, (long long)b, (long long)c);
                for (i = 0; sublib_macros[k][i] && i + 1 < sizeof(lib); i++)
                        lib[i] = (char)cc_ascii_tolower((unsigned char)sublib_macros[k][i]);
                lib[i] = '\0';
                TRY(add_version(obj, "cudnn", "header-sublibrary", vb, &ve, err));
                TRY(cc_v_set_str(ve, CC_K(version, sublibrary), lib, err));
        }
        /* CUDA versions. */
        {
                static const char *const cuda_macros[][2] = {{"CUDA_VERSION", "cuda"}, {"CUDART_VERSION", "cudart"}};

                for (k = 0; k < CC_ARRAY_LEN(cuda_macros); k++) {
                        cudnnctl_ver cver;
                        cc_error e3 = {0};
                        cc_value *ve = NULL;
                        char vb[64];

                        if (cc_header_find(&h, 1, cuda_macros[k][0]) == NULL)
                                continue;
                        if (cc_header_eval(hs, nh, cuda_macros[k][0], &val, &e3) < 0 ||
                            cudnnctl_cuda_decode((long)val, &cver) < 0)
                                continue;
                        TRY(add_version(obj, cuda_macros[k][1], "header", ver_str(&cver, vb, sizeof(vb)), &ve, err));
                        TRY(cc_v_set_str(ve, "macro", cuda_macros[k][0], err));
                        TRY(cc_v_set_int(ve, "value", val, err));
                }
        }
        /* The newest GPU architecture the headers know. */
        if (cc_header_find(&h, 1, "CUDNN_MAX_SM_MAJOR_NUMBER") != NULL) {
                int64_t a, b;
                cc_error e4 = {0};

                if (cc_header_eval(hs, nh, "CUDNN_MAX_SM_MAJOR_NUMBER", &a, &e4) == 0 &&
                    cc_header_eval(hs, nh, "CUDNN_MAX_SM_MINOR_NUMBER", &b, &e4) == 0)
                        TRY(cc_v_set(obj, CC_K(ins_facts, max_compute_capability),
                                     cc_v_strf(err, "%lld.%lld", (long long)a, (long long)b), err));
        }
        /* The header's own warnings (redefinitions of unrelated macros under
         * #if branches) are not evidence about cuDNN; the version macros carry
         * theirs. */
        rv = 0;
fail:
        cc_v_free(o);
        cc_v_free(macros);
        return rv;
}

static int header_facts(const uint8_t *data, size_t size, unsigned flags, cc_value *obj, cc_error *err)
{
        cc_error perr = {0};
        cc_header *h = NULL;
        int rv;

        if (cc_header_parse((const char *)data, size, &h, &perr) < 0) {
                if (cc_v_set_str(obj, CC_K(ins_facts, kind), "header", err) < 0)
                        return -1;
                return set_error(obj, &perr, err);
        }
        {
                const cc_header *hs[1] = {h};

                rv = header_facts_multi(hs, 1, flags, obj, err);
        }
        cc_header_free(h);
        return rv;
}

/* ---- pip metadata -------------------------------------------------------- */

static int metadata_facts(const char *text, size_t len, cc_value *obj, const char *record, size_t record_len,
                          cc_error *err)
{
        cc_error perr = {0};
        cc_metadata *m = NULL;
        cc_record *r = NULL;
        cc_value *o = NULL;
        cc_distname dn;
        int rv = -1;

        if (cc_metadata_parse(text, len, &m, &perr) < 0) {
                TRY(set_error(obj, &perr, err));
                return 0;
        }
        o = cc_v_object(err);
        if (o == NULL)
                goto fail;
        TRY(cc_v_set_str(o, CC_K(ins_dist, name), m->name, err));
        TRY(cc_v_set_str(o, CC_K(ins_dist, version), m->version, err));
        TRY(cc_v_set_str(o, CC_K(ins_dist, summary), m->summary, err));
        TRY(cc_v_set(o, CC_K(ins_dist, requires), cc_v_strv(&m->requires_dist, err), err));
        if (record != NULL) {
                if (cc_record_parse(record, record_len, &r, &perr) == 0)
                        TRY(cc_v_set_int(o, CC_K(ins_dist, files), (int64_t)r->n, err));
                else
                        TRY(cc_v_set_str(o, CC_K(ins_dist, record_error), perr.msg, err));
        }
        TRY(cc_v_set(obj, CC_K(ins_facts, distribution), o, err));
        o = NULL;
        if (m->name != NULL && m->version != NULL) {
                char dname[256];

                /* Reuse the dist-info name parser to classify the package. */
                snprintf(dname, sizeof(dname), "%s-%s.dist-info", m->name, m->version);
                if (cc_name_distinfo(dname, &dn) == 0 && dn.is_cudnn) {
                        cc_value *ve = NULL;

                        TRY(add_version(obj, "cudnn", "dist-info", m->version, &ve, err));
                        TRY(cc_v_set_str(ve, CC_K(version, package), m->name, err));
                        if (dn.cuda_major >= 0)
                                TRY(cc_v_set_int(ve, CC_K(version, cuda_major), dn.cuda_major, err));
                }
        }
        TRY(set_warnings(obj, &m->warnings, err));
        rv = 0;
fail:
        cc_v_free(o);
        cc_metadata_free(m);
        cc_record_free(r);
        return rv;
}

/* ---- dispatch ------------------------------------------------------------ */

/* What the bytes are, from their content alone; first match wins. */
enum content {
        CT_EMPTY,
        CT_ELF,
        CT_PE,
        CT_IMPLIB,
        CT_ARCHIVE,
        CT_METADATA,
        CT_HEADER,
        CT_UNKNOWN,
};

static enum content detect(const uint8_t *data, size_t size)
{
        if (size == 0)
                return CT_EMPTY;
        if (cc_elf_is(data, size))
                return CT_ELF;
        if (size >= 2 && data[0] == 'M' && data[1] == 'Z')
                return CT_PE;
        if (cc_implib_is(data, size))
                return CT_IMPLIB;
        if (cc_archive_is(data, size))
                return CT_ARCHIVE;
        if (cc_metadata_looks_like(data, size))
                return CT_METADATA;
        if (cc_header_looks_like(data, size))
                return CT_HEADER;
        return CT_UNKNOWN;
}

int cc_inspect_bytes(const char *name, const uint8_t *data, size_t size, unsigned flags, cc_value *obj, cc_error *err)
{
        cc_vw_ins_facts f;

        /* a size the caller wrote (a member's declared size) stays */
        cc_vw_ins_facts_read(obj, &f, NULL);
        if (!CC_VW_HAS(&f, ins_facts, size) && cc_v_set_int(obj, CC_K(ins_facts, size), (int64_t)size, err) < 0)
                return -1;
        if (name_facts(name, obj, err) < 0)
                return -1;
        switch (detect(data, size)) {
        case CT_EMPTY:
                if (cc_v_set_str(obj, CC_K(ins_facts, kind), "empty", err) < 0)
                        return -1;
                return cc_v_set_str(obj, CC_K(ins_facts, error), "empty file (0 bytes)", err);
        case CT_ELF:
                return elf_facts(data, size, flags, obj, err);
        case CT_PE:
                return pe_facts(data, size, flags, obj, err);
        case CT_IMPLIB:
                return implib_facts(data, size, obj, err);
        case CT_ARCHIVE:
                return cc_v_set_str(obj, CC_K(ins_facts, kind), "archive", err);
        case CT_METADATA:
                if (cc_v_set_str(obj, CC_K(ins_facts, kind), "metadata", err) < 0)
                        return -1;
                return metadata_facts((const char *)data, size, obj, NULL, 0, err);
        case CT_HEADER:
                return header_facts(data, size, flags, obj, err);
        default:
                return cc_v_set_str(obj, CC_K(ins_facts, kind), "unknown", err);
        }
}

/* ---- paths --------------------------------------------------------------- */

/* A run: the files read so far, by identity ("dev:ino" -> the path shown
 * when it was read, owned). */
struct cudnnctl_inspect_run {
        cc_smap seen;
};

cudnnctl_inspect_run *cudnnctl_inspect_run_new(cudnnctl_error *err)
{
        return cc_calloc(err, 1, sizeof(cudnnctl_inspect_run));
}

static void free_seen(void *ctx, const char *key, void *value)
{
        (void)ctx;
        (void)key;
        free(value);
}

void cudnnctl_inspect_run_free(cudnnctl_inspect_run *run)
{
        if (run == NULL)
                return;
        cc_smap_each(&run->seen, free_seen, NULL);
        cc_smap_free(&run->seen);
        free(run);
}

struct ictx {
        const cudnnctl_inspect_options *opts;
        cudnnctl_inspect_run *run;
        size_t max_entries;
        size_t entries;       /* directory entries seen in this walk */
        int truncated;        /* the entry cap cut the walk */
        size_t depth_limited; /* directories not entered: deeper than MAX_WALK_DEPTH */
};

/* The path this run read the file (dev, ino) under before, or NULL (and the
 * file is remembered under `shown`). -1 only when out of memory. */
static int seen_before(struct ictx *cx, const cc_map *m, const char *shown, const char **first, cc_error *err)
{
        char key[48];
        void *v;
        char *copy;

        *first = NULL;
        if (m->dev == 0 && m->ino == 0)
                return 0; /* the system cannot tell */
        snprintf(key, sizeof(key), "%llx:%llx", (unsigned long long)m->dev, (unsigned long long)m->ino);
        if (cc_smap_get(&cx->run->seen, key, &v)) {
                *first = v;
                return 0;
        }
        copy = cc_strdup(err, shown);
        if (copy == NULL)
                return -1;
        if (cc_smap_put(&cx->run->seen, key, copy, NULL, err) < 0) {
                free(copy);
                return -1;
        }
        return 0;
}

/* Forget the facts gathered into obj (all but "path") and say why. */
static int facts_withdrawn(cc_value *obj, const char *kind, const char *why, cc_error *err)
{
        size_t i = 0;

        while (i < cc_v_len(obj)) {
                const char *key = cc_v_key_at(obj, i);

                if (strcmp(key, "path") == 0) {
                        i++;
                        continue;
                }
                cc_v_free(cc_v_take(obj, key));
        }
        if (cc_v_set_str(obj, CC_K(ins_facts, kind), kind, err) < 0)
                return -1;
        return cc_v_set_str(obj, CC_K(ins_facts, error), why, err);
}

static int inspect_path(struct ictx *cx, const char *real, const char *shown, cc_value *obj, int depth, cc_error *err);

/* A header on disk: evaluate with the headers it includes from its own
 * directory ("cudnn.h" includes "cudnn_version.h"). */
static int header_file_facts(const char *real, const uint8_t *data, size_t size, cc_value *obj, cc_error *err)
{
        cc_header *hs[9] = {0};
        size_t nh = 0, i;
        cc_error perr = {0};
        char *dir = NULL;
        const char *base = cc_basename(real);
        int rv = -1;

        if (cc_header_parse((const char *)data, size, &hs[0], &perr) < 0)
                return header_facts(data, size, 0, obj, err);
        nh = 1;
        dir = cc_strndup(err, real, (size_t)(base - real));
        if (dir == NULL)
                goto fail;
        for (i = 0; i < hs[0]->includes.n && nh < CC_ARRAY_LEN(hs); i++) {
                const char *inc = hs[0]->includes.v[i];
                char *p, *text = NULL;
                size_t len;
                cc_error ierr = {0};

                if (strchr(inc, '/') != NULL || strchr(inc, '\\') != NULL || strcmp(inc, base) == 0)
                        continue;
                p = cc_asprintf(err, "%s%s", dir, inc);
                if (p == NULL)
                        goto fail;
                if (cc_read_file(p, MAX_HEADER_BYTES, &text, &len, &ierr) == 0) {
                        if (cc_header_parse(text, len, &hs[nh], &ierr) == 0)
                                nh++;
                        free(text);
                }
                free(p);
        }
        rv = header_facts_multi((const cc_header *const *)hs, nh, 0, obj, err);
fail:
        for (i = 0; i < nh; i++)
                cc_header_free(hs[i]);
        free(dir);
        return rv;
}

/* The mapping changed under the parser (truncated, rewritten): what was read
 * from it is withdrawn. rv is the parser's result (-1: out of memory). */
static int check_changed(int rv, const cc_map *m, cc_value *obj, cc_error *err)
{
        if (rv < 0 || !cc_map_changed(m))
                return rv;
        return facts_withdrawn(obj, "unreadable",
                               "changed while read (it was truncated or rewritten while its content was parsed)", err);
}

static int file_facts(struct ictx *cx, const char *real, const char *shown, cc_value *obj, cc_error *err)
{
        cc_map m;
        cc_error ferr = {0};
        enum content ct;
        const char *first;
        int rv;

        if (cc_map_file(real, 0, &m, &ferr) < 0) {
                if (cc_v_set_str(obj, CC_K(ins_facts, kind), "unreadable", err) < 0)
                        return -1;
                return set_error(obj, &ferr, err);
        }
        /* A hard link (or another path) to a file this run read already:
         * its facts are there; reading it again would only cost memory. */
        if (seen_before(cx, &m, shown, &first, err) < 0) {
                cc_unmap(&m);
                return -1;
        }
        if (first != NULL) {
                rv = cc_v_set_int(obj, CC_K(ins_facts, size), (int64_t)m.size, err) < 0 ||
                             cc_v_set_str(obj, CC_K(ins_facts, kind), "same-file", err) < 0 ||
                             cc_v_set_str(obj, CC_K(ins_facts, same_file_as), first, err) < 0 ||
                             name_facts(cc_basename(shown), obj, err) < 0
                         ? -1
                         : 0;
                cc_unmap(&m);
                return rv;
        }
        ct = detect(m.data, m.size);
        if (ct == CT_ARCHIVE) {
                size_t size = m.size;

                cc_unmap(&m);
                /* The archive reader reports the archive's name facts itself. */
                if (cc_v_set_int(obj, CC_K(ins_facts, size), (int64_t)size, err) < 0 ||
                    cc_v_set_str(obj, CC_K(ins_facts, kind), "archive", err) < 0)
                        return -1;
                return cc_archive_inspect(real, cx->opts->flags, obj, err);
        }
        if (ct == CT_HEADER) {
                if (cc_v_set_int(obj, CC_K(ins_facts, size), (int64_t)m.size, err) < 0 ||
                    name_facts(cc_basename(shown), obj, err) < 0) {
                        cc_unmap(&m);
                        return -1;
                }
                rv = check_changed(header_file_facts(real, m.data, m.size, obj, err), &m, obj, err);
                cc_unmap(&m);
                return rv;
        }
        rv = check_changed(cc_inspect_bytes(cc_basename(shown), m.data, m.size, cx->opts->flags, obj, err), &m, obj,
                           err);
        cc_unmap(&m);
        return rv;
}

/* A *.dist-info directory: METADATA and RECORD. */
static int distinfo_dir_facts(const char *real, cc_value *obj, cc_error *err)
{
        char *mp = NULL, *rp = NULL, *meta = NULL, *rec = NULL;
        size_t mlen = 0, rlen = 0;
        cc_error ferr = {0};
        cc_distname dn;
        int rv = -1;

        TRY(cc_v_set_str(obj, CC_K(ins_facts, kind), "dist-info", err));
        if (cc_name_distinfo(cc_basename(real), &dn) == 0) {
                cc_value *o = cc_v_object(err);

                if (cc_v_set(obj, CC_K(ins_facts, dist_info_name), o, err) < 0)
                        goto fail;
                TRY(cc_v_set_str(o, "package", dn.package, err));
                TRY(cc_v_set_str(o, "version", dn.version_str, err));
                if (dn.cuda_major >= 0)
                        TRY(cc_v_set_int(o, "cuda_major", dn.cuda_major, err));
                else
                        TRY(cc_v_set_null(o, "cuda_major", err));
                TRY(cc_v_set_bool(o, "cudnn", dn.is_cudnn, err));
        }
        mp = cc_path_join(real, "METADATA", err);
        rp = cc_path_join(real, "RECORD", err);
        if (mp == NULL || rp == NULL)
                goto fail;
        if (cc_read_file(mp, MAX_SMALL_FILE, &meta, &mlen, &ferr) < 0) {
                TRY(set_error(obj, &ferr, err));
                rv = 0;
                goto fail;
        }
        if (cc_read_file(rp, (size_t)64 << 20, &rec, &rlen, &ferr) < 0) {
                free(rec);
                rec = NULL;
        }
        TRY(metadata_facts(meta, mlen, obj, rec, rlen, err));
        rv = 0;
fail:
        free(mp);
        free(rp);
        free(meta);
        free(rec);
        return rv;
}

/* Is this directory entry something a cuDNN directory report should list? */
static int interesting_name(const char *name)
{
        cc_libname ln;
        cc_distname dn;

        if (cc_name_library(name, &ln) == 0)
                return 1;
        if (cc_name_distinfo(name, &dn) == 0 && dn.is_cudnn)
                return 1;
        return strcmp(name, "cuda.h") == 0 || strcmp(name, "cuda_runtime_api.h") == 0;
}

/* A {path, reason} entry of a directory's "skipped" (reason is taken). */
static int add_skipped(cc_value *skipped, const char *path, cc_value *reason, cc_error *err)
{
        cc_value *s = cc_v_object(err);

        if (cc_v_push(skipped, s, err) < 0) {
                cc_v_free(reason);
                return -1;
        }
        if (cc_v_set_str(s, CC_K(ins_skipped, path), path, err) < 0)
                return -1;
        return cc_v_set(s, CC_K(ins_skipped, reason), reason, err);
}

/* Directories a walk descends into: every directory except symbolic links
 * to directories (recorded, not walked). The walk is bounded two ways,
 * whatever the names in it: depth (a
 * directory more than MAX_WALK_DEPTH levels below the path given is not
 * entered, and counted) and entries (the --max-entries budget over the whole
 * walk: a directory larger than what is left of it is read in part, the
 * entries the system lists first, so its cuDNN files up to the cap are still
 * reported; the walk is then marked truncated, never taken for "none"). */
static int walk_dir(struct ictx *cx, const char *real, const char *shown, cc_value *files, cc_value *skipped, int depth,
                    cc_error *err)
{
        cc_strv names = {0};
        cc_error derr = {0};
        size_t i, budget = cx->entries < cx->max_entries ? cx->max_entries - cx->entries : 0;
        int rv = -1, more = 0;

        if (depth > MAX_WALK_DEPTH) {
                cx->depth_limited++;
                return 0;
        }
        if (budget == 0) {
                cx->truncated = 1;
                return add_skipped(
                    skipped, shown,
                    cc_v_strf(err, "not read: the walk stopped after %zu directory entries", cx->max_entries), err);
        }
        if (cc_list_dir_some(real, budget, &names, &more, &derr) < 0) {
                if (derr.code == CC_ERR_NOMEM) {
                        *err = derr;
                        return -1;
                }
                return add_skipped(skipped, shown, cc_v_str(derr.msg, err), err);
        }
        cx->entries += names.n; /* counted when listed: the subdirectories get what is left */
        if (more) {
                cx->truncated = 1;
                TRY(add_skipped(skipped, shown,
                                cc_v_strf(err,
                                          "only %zu of its entries were read: the walk stops after %zu "
                                          "directory entries (--max-entries)",
                                          names.n, cx->max_entries),
                                err));
        }
        for (i = 0; i < names.n; i++) {
                char *rp = NULL, *sp = NULL;
                cc_stat st;
                cc_error serr = {0};

                rp = cc_path_join(real, names.v[i], err);
                sp = cc_path_join(shown, names.v[i], err);
                if (rp == NULL || sp == NULL) {
                        free(rp);
                        free(sp);
                        goto fail;
                }
                if (cc_lstat_path(rp, &st, &serr) < 0) {
                        st.type = CC_FT_OTHER;
                }
                /* every directory is walked as a directory, whatever its name
                 * (one called cuda.h or libcudnn.so.9 too), within the same
                 * depth limit; only a cuDNN *.dist-info is a fact of its own */
                if (st.type == CC_FT_DIR && !is_distinfo_path(names.v[i])) {
                        if (walk_dir(cx, rp, sp, files, skipped, depth + 1, err) < 0) {
                                free(rp);
                                free(sp);
                                goto fail;
                        }
                } else if (interesting_name(names.v[i])) {
                        cc_value *f = cc_v_object(err);

                        if (cc_v_push(files, f, err) < 0 || inspect_path(cx, rp, sp, f, depth + 1, err) < 0) {
                                free(rp);
                                free(sp);
                                goto fail;
                        }
                }
                free(rp);
                free(sp);
        }
        rv = 0;
fail:
        cc_strv_free(&names);
        return rv;
}

/* Summary of a directory walk: counts per kind, majors, and every version
 * source with the file it came from. */
static int dir_summary(cc_value *files, cc_value *obj, cc_error *err)
{
        cc_value *counts = NULL, *majors = NULL, *vers = NULL;
        int64_t libraries = 0, headers = 0, implibs = 0, statics = 0, symlinks = 0, dist_info = 0;
        size_t i, j;
        int rv = -1;

        counts = cc_v_object(err);
        majors = cc_v_array(err);
        vers = cc_v_array(err);
        if (counts == NULL || majors == NULL || vers == NULL)
                goto fail;
        for (i = 0; i < cc_v_len(files); i++) {
                cc_vw_ins_facts f;
                cc_vw_ins_file_name fn;
                const char *fk;

                cc_vw_ins_facts_at(files, i, &f, NULL);
                cc_vw_ins_file_name_read(f.file_name, &fn, NULL);
                fk = fn.file_kind;
                if (f.kind != NULL && strcmp(f.kind, "symlink") == 0)
                        symlinks++;
                else if (f.kind != NULL && strcmp(f.kind, "dist-info") == 0)
                        dist_info++;
                else if (fk != NULL && (strcmp(fk, "shared-library") == 0 || strcmp(fk, "dll") == 0))
                        libraries++;
                else if (fk != NULL && strcmp(fk, "header") == 0)
                        headers++;
                else if (fk != NULL && strcmp(fk, "import-library") == 0)
                        implibs++;
                else if (fk != NULL && strcmp(fk, "static-library") == 0)
                        statics++;
                if (CC_VW_HAS(&fn, ins_file_name, major)) {
                        int seen = 0;

                        for (j = 0; j < cc_v_len(majors); j++)
                                seen |= cc_v_as_int(cc_v_at(majors, j)) == fn.major;
                        if (!seen)
                                TRY(cc_v_push(majors, cc_v_int(fn.major, err), err));
                }
                if (f.kind != NULL && strcmp(f.kind, "symlink") == 0)
                        continue; /* its target is listed with its own versions */
                for (j = 0; j < cc_v_len(f.versions); j++) {
                        const cc_value *e = cc_v_at(f.versions, j);
                        cc_value *c = cc_v_object(err);
                        size_t k;

                        if (cc_v_push(vers, c, err) < 0)
                                goto fail;
                        for (k = 0; k < cc_v_len(e); k++) {
                                const cc_value *x = cc_v_at(e, k);
                                const char *key = cc_v_key_at(e, k);

                                if (cc_v_type(x) == CUDNNCTL_STRING)
                                        TRY(cc_v_set_str(c, key, cc_v_as_str(x), err));
                                else if (cc_v_type(x) == CUDNNCTL_INT)
                                        TRY(cc_v_set_int(c, key, cc_v_as_int(x), err));
                        }
                        TRY(cc_v_set_str(c, CC_K(version, file), f.path, err));
                }
        }
        TRY(cc_v_set_int(counts, CC_K(ins_dir_counts, libraries), libraries, err));
        TRY(cc_v_set_int(counts, CC_K(ins_dir_counts, headers), headers, err));
        TRY(cc_v_set_int(counts, CC_K(ins_dir_counts, import_libraries), implibs, err));
        TRY(cc_v_set_int(counts, CC_K(ins_dir_counts, static_libraries), statics, err));
        TRY(cc_v_set_int(counts, CC_K(ins_dir_counts, symlinks), symlinks, err));
        TRY(cc_v_set_int(counts, CC_K(ins_dir_counts, dist_info), dist_info, err));
        TRY(cc_v_set(obj, CC_K(ins_directory, counts), counts, err));
        counts = NULL;
        TRY(cc_v_set(obj, CC_K(ins_directory, majors), majors, err));
        majors = NULL;
        TRY(cc_v_set(obj, CC_K(ins_directory, versions), vers, err));
        vers = NULL;
        rv = 0;
fail:
        cc_v_free(counts);
        cc_v_free(majors);
        cc_v_free(vers);
        return rv;
}

static int dir_facts(struct ictx *cx, const char *real, const char *shown, cc_value *obj, int depth, cc_error *err)
{
        cc_value *files = NULL, *skipped = NULL, *d = NULL;
        int rv = -1;

        TRY(cc_v_set_str(obj, CC_K(ins_facts, kind), "directory", err));
        files = cc_v_array(err);
        skipped = cc_v_array(err);
        d = cc_v_object(err);
        if (files == NULL || skipped == NULL || d == NULL)
                goto fail;
        TRY(walk_dir(cx, real, shown, files, skipped, depth, err));
        TRY(dir_summary(files, d, err));
        TRY(cc_v_set(d, CC_K(ins_directory, files), files, err));
        files = NULL;
        TRY(cc_v_set(d, CC_K(ins_directory, skipped), skipped, err));
        skipped = NULL;
        if (depth == 0) {
                /* the walk's own limits, said once for the path given */
                TRY(cc_v_set_bool(d, CC_K(ins_directory, truncated), cx->truncated, err));
                if (cx->truncated)
                        TRY(cc_v_set(d, CC_K(ins_directory, truncated_reason),
                                     cc_v_strf(err,
                                               "the walk stopped after %zu directory entries (--max-entries): "
                                               "the results are incomplete",
                                               cx->max_entries),
                                     err));
                TRY(cc_v_set_int(d, CC_K(ins_directory, max_depth), MAX_WALK_DEPTH, err));
                TRY(cc_v_set_int(d, CC_K(ins_directory, not_entered_depth), (int64_t)cx->depth_limited, err));
        }
        TRY(cc_v_set(obj, CC_K(ins_facts, directory), d, err));
        d = NULL;
        rv = 0;
fail:
        cc_v_free(files);
        cc_v_free(skipped);
        cc_v_free(d);
        return rv;
}

static int inspect_path(struct ictx *cx, const char *real, const char *shown, cc_value *obj, int depth, cc_error *err)
{
        cc_stat lst, st;
        cc_error serr = {0};

        TRY(cc_v_set_str(obj, CC_K(ins_facts, path), shown, err));
        if (cc_lstat_path(real, &lst, &serr) < 0) {
                TRY(cc_v_set_str(obj, CC_K(ins_facts, kind), "unreadable", err));
                return set_error(obj, &serr, err);
        }
        if (lst.type == CC_FT_NONE) {
                TRY(cc_v_set_str(obj, CC_K(ins_facts, kind), "missing", err));
                return cc_v_set_str(obj, CC_K(ins_facts, error), "no such file or directory", err);
        }
        if (lst.type == CC_FT_LINK) {
                char *target = cc_readlink(real, &serr);

                if (target == NULL) {
                        TRY(cc_v_set_str(obj, CC_K(ins_facts, kind), "symlink", err));
                        return set_error(obj, &serr, err);
                }
                if (cc_v_set_str(obj, CC_K(ins_facts, link), target, err) < 0) {
                        free(target);
                        return -1;
                }
                free(target);
                if (cc_stat_path(real, &st, &serr) < 0 || st.type == CC_FT_NONE) {
                        TRY(cc_v_set_str(obj, CC_K(ins_facts, kind), "symlink", err));
                        return cc_v_set_str(obj, CC_K(ins_facts, error),
                                            serr.msg[0] ? serr.msg : "dangling symbolic link (its target is missing)",
                                            err);
                }
                if (depth > 0) {
                        /* Inside a directory report a link is listed as a link:
                         * its target is listed with its facts on its own. */
                        TRY(cc_v_set_str(obj, CC_K(ins_facts, kind), "symlink", err));
                        return name_facts(cc_basename(shown), obj, err);
                }
        } else {
                st = lst;
        }
        if (st.type == CC_FT_DIR) {
                if (is_distinfo_path(real))
                        return distinfo_dir_facts(real, obj, err);
                return dir_facts(cx, real, shown, obj, depth, err);
        }
        if (st.type != CC_FT_FILE) {
                TRY(cc_v_set_str(obj, CC_K(ins_facts, kind), "special", err));
                return cc_v_set_str(obj, CC_K(ins_facts, error), "not a regular file or directory", err);
        }
        return file_facts(cx, real, shown, obj, err);
fail:
        return -1;
}

/* With a root, the path is looked up inside it the way the machine itself
 * would (links resolved inside the root, Windows names case-insensitively):
 * the host path of what it names, and the link text when it is a link. */
static int rooted_path(const cudnnctl_inspect_options *o, const char *path, char **real, char **link, char *why,
                       size_t wsize, cc_error *err)
{
        cc_tree *t = NULL;
        cc_tree_res r;
        char *abs = NULL;
        int rv = -1, sys = o->system == CUDNNCTL_SYSTEM_WINDOWS ? CC_SYS_WINDOWS
                           : o->system == CUDNNCTL_SYSTEM_LINUX ? CC_SYS_LINUX
                           : cc_host_is_windows()               ? CC_SYS_WINDOWS
                                                                : CC_SYS_LINUX;

        *real = *link = NULL;
        memset(&r, 0, sizeof(r));
        if (cc_tree_open(o->root, sys, &t, err) < 0)
                return -1;
        abs = cc_tree_abs(t, sys == CC_SYS_WINDOWS ? "C:\\" : "/", path, err);
        if (abs == NULL || cc_tree_resolve(t, abs, 0, &r, err) < 0)
                goto done;
        if (r.st.type == CC_FT_LINK) {
                *link = cc_tree_readlink(t, abs, err);
                if (*link == NULL)
                        goto done;
                cc_tree_res_free(&r);
                if (cc_tree_resolve(t, abs, 1, &r, err) < 0)
                        goto done;
        }
        if (r.st.type == CC_FT_NONE) {
                snprintf(why, wsize, "%s", r.why[0] ? r.why : "no such file or directory");
                rv = 0;
                goto done;
        }
        *real = r.host;
        r.host = NULL;
        rv = 0;
done:
        cc_tree_res_free(&r);
        free(abs);
        cc_tree_free(t);
        if (rv < 0) {
                free(*link);
                *link = NULL;
        }
        return rv;
}

static int inspect_top(struct ictx *cx, const char *path, cudnnctl_value **out, cudnnctl_error *err)
{
        cc_value *obj = NULL;
        char *real = NULL, *link = NULL;
        char why[256] = "";

        if (cx->opts->root != NULL && cx->opts->root[0] != '\0') {
                if (rooted_path(cx->opts, path, &real, &link, why, sizeof(why), err) < 0)
                        return -1;
                if (real == NULL) {
                        obj = cc_v_object(err);
                        if (obj == NULL || cc_v_set_str(obj, CC_K(ins_facts, path), path, err) < 0 ||
                            cc_v_set_str(obj, CC_K(ins_facts, kind), "missing", err) < 0 ||
                            cc_v_set_str(obj, CC_K(ins_facts, error), why, err) < 0 ||
                            (link && cc_v_set_str(obj, CC_K(ins_facts, link), link, err) < 0)) {
                                cc_v_free(obj);
                                free(link);
                                return -1;
                        }
                        free(link);
                        *out = obj;
                        return 0;
                }
        } else {
                real = cc_strdup(err, path);
        }
        if (real == NULL)
                return -1;
        obj = cc_v_object(err);
        if (obj == NULL || inspect_path(cx, real, path, obj, 0, err) < 0 ||
            (link != NULL && cc_v_set_str(obj, CC_K(ins_facts, link), link, err) < 0)) {
                cc_v_free(obj);
                free(real);
                free(link);
                return -1;
        }
        free(real);
        free(link);
        *out = obj;
        return 0;
}

int cudnnctl_inspect(const char *path, const cudnnctl_inspect_options *opts, cudnnctl_value **out, cudnnctl_error *err)
{
        static const cudnnctl_inspect_options defaults = {0};
        struct ictx cx;
        cudnnctl_inspect_run *own_run = NULL;
        int rv;

        *out = NULL;
        memset(&cx, 0, sizeof(cx));
        cx.opts = opts ? opts : &defaults;
        cx.max_entries = cx.opts->max_dir_entries ? cx.opts->max_dir_entries : DEFAULT_MAX_DIR_ENTRIES;
        cx.run = cx.opts->run;
        if (cx.run == NULL) {
                own_run = cudnnctl_inspect_run_new(err);
                if (own_run == NULL)
                        return -1;
                cx.run = own_run;
        }
        rv = inspect_top(&cx, path, out, err);
        cudnnctl_inspect_run_free(own_run);
        return rv;
}

static const char *elf_machine(uint16_t m, int big)
{
        switch (m) {
        case 3:
                return "i386";
        case 21:
                return big ? "ppc64" : "ppc64le";
        case 40:
                return "arm";
        case 62:
                return "x86_64";
        case 183:
                return "aarch64";
        case 243:
                return "riscv";
        default:
                return "other";
        }
}

static const char *pe_machine(uint16_t m)
{
        switch (m) {
        case 0x14c:
                return "i386";
        case 0x8664:
                return "x86_64";
        case 0xaa64:
                return "aarch64";
        default:
                return "other";
        }
}

const char *cc_binary_machine(const uint8_t *d, size_t size, int *system)
{
        uint16_t m;
        uint32_t lfanew;

        if (size >= 20 && memcmp(d, "\177ELF", 4) == 0) {
                int big = d[5] == 2;

                *system = CC_SYS_LINUX;
                return cc_rd_u16(d, size, 18, big, &m) == 0 ? elf_machine(m, big) : NULL;
        }
        if (size >= 64 && d[0] == 'M' && d[1] == 'Z') {
                *system = CC_SYS_WINDOWS;
                if (cc_rd_u32(d, size, 0x3c, 0, &lfanew) == 0 && cc_range_ok(size, lfanew, 6) &&
                    memcmp(d + lfanew, "PE\0\0", 4) == 0 && cc_rd_u16(d, size, (uint64_t)lfanew + 4, 0, &m) == 0)
                        return pe_machine(m);
        }
        return NULL;
}

/* The name without leading "./" (and "/" after them), "//" collapsed, "/./"
 * dropped and no '/' at the end. Caller frees. */
char *cc_archive_norm_name(const char *name, cc_error *err)
{
        size_t len = strlen(name), i, o = 0;
        char *s = cc_malloc(err, len + 1);

        if (s == NULL)
                return NULL;
        for (i = 0; i < len;) {
                size_t n = strcspn(name + i, "/");

                if ((n == 0 && o > 0) || (n == 1 && name[i] == '.')) {
                        i += n + (name[i + n] == '/');
                        continue;
                }
                if (o > 0 && s[o - 1] != '/')
                        s[o++] = '/';
                memcpy(s + o, name + i, n);
                o += n;
                i += n;
                if (name[i] == '/') {
                        if (n == 0)
                                s[o++] = '/'; /* keep one leading '/': absolute */
                        i++;
                }
        }
        while (o > 1 && s[o - 1] == '/')
                o--;
        s[o] = '\0';
        return s;
}

int cc_version_entry(cc_value *arr, const char *source, const char *version, const char *detail, const char *member,
                     cc_error *err)
{
        cc_value *e = cc_v_object(err);

        if (e == NULL)
                return -1;
        if (cc_v_set_str(e, CC_K(version, component), "cudnn", err) < 0 ||
            cc_v_set_str(e, CC_K(version, source), source, err) < 0 ||
            cc_v_set_str(e, CC_K(version, version), version, err) < 0 || cc_v_set_str(e, "detail", detail, err) < 0 ||
            (member != NULL && cc_v_set_str(e, CC_K(version, member), member, err) < 0)) {
                cc_v_free(e);
                return -1;
        }
        return cc_v_push(arr, e, err);
}

int cc_lift_versions(cc_value *versions, const cc_value *facts, const char *member, cc_error *err)
{
        cc_vw_ins_facts f;
        size_t i;

        if (cc_vw_ins_facts_read(facts, &f, NULL) < 0 || f.versions == NULL)
                return 0;
        for (i = 0; i < cc_v_len(f.versions); i++) {
                const cc_value *e = cc_v_at(f.versions, i);
                cc_value *c;

                if (cc_v_type(e) != CUDNNCTL_OBJECT)
                        continue;
                c = cc_v_copy(e, err);
                if (c == NULL)
                        return -1;
                if (cc_v_set_str(c, CC_K(version, member), member, err) < 0) {
                        cc_v_free(c);
                        return -1;
                }
                if (cc_v_push(versions, c, err) < 0)
                        return -1;
        }
        return 0;
}
