/* File names as evidence: the role and version in every cuDNN library, import
 * library, static library and header name of every major on both systems, and
 * cuDNN archive / wheel / dist-info names of every era. Pure string work. */
#ifndef CC_FORMATS_NAMES_H
#define CC_FORMATS_NAMES_H

#include "../common.h"

enum cc_sys {
        CC_SYS_ANY = 0,
        CC_SYS_LINUX,
        CC_SYS_WINDOWS,
};

enum cc_file_kind {
        CC_FK_NONE = 0,
        CC_FK_SHARED, /* libcudnn*.so[.N[.M[.P]]] */
        CC_FK_DLL,    /* cudnn*64_N.dll */
        CC_FK_IMPLIB, /* cudnn*.lib */
        CC_FK_STATIC, /* libcudnn*_static*.a */
        CC_FK_HEADER, /* cudnn*.h */
};

typedef struct cc_libname {
        int kind;             /* enum cc_file_kind */
        int system;           /* enum cc_sys */
        char role[64];        /* "cudnn", "cudnn_ops_infer", "cudnn_graph", "cudnn_version" (headers)... */
        int major;            /* cuDNN major the name implies, -1 if none */
        cudnnctl_ver version; /* full version in the name (libcudnn.so.9.14.0), n == 0 if none; a lone
                                 major (libcudnn.so.9, cudnn64_9.dll) is only in `major` */
        int dev_link;         /* the unversioned development name (libcudnn.so) */
        int known_role;       /* role is one cuDNN ships (a table of every major's members) */
} cc_libname;

/* 0 and *out filled if basename is a cuDNN library/header name, -1 if not.
 * Linux names (lib*.so*, lib*.a) match case-sensitively; Windows names
 * (.dll, .lib) and headers case-insensitively, with role in lower case. A
 * role is "cudnn" or "cudnn_" + [a-z0-9_]; headers take their major from a
 * _vN suffix (cudnn_graph_v9.h). */
int cc_name_library(const char *basename, cc_libname *out);

/* 1 if a dotted version can be a cuDNN release (1.x .. 8.9, 9.x): the
 * version resources of cuDNN DLLs may instead carry a driver-style
 * 6.14.11.xxxx, which is not one. */
int cc_cudnn_ver_plausible(const cudnnctl_ver *v);

/* The file names a short cuDNN name stands for on a system ("cudnn" ->
 * libcudnn.so.9, libcudnn.so.8, ...; "cudnn_ops" -> cudnn_ops64_9.dll),
 * newest major first; a name that is already a file name, or is no cuDNN
 * role, gives itself. */
int cc_expand_name(const char *name, int system, cc_strv *out, cc_error *err);

/* "shared-library", "dll", "import-library", "static-library", "header" or "unknown". */
const char *cc_file_kind_name(int kind);

/* The majors [*min, *max] that ship a library role ("cudnn_ops_infer" ->
 * 8..8, "cudnn" -> 1..9). -1 if the role is not one cuDNN ships. */
int cc_name_role_majors(const char *role, int *min, int *max);

enum cc_arch_era {
        CC_ERA_NONE = 0,
        CC_ERA_LEGACY, /* cudnn-11.4-linux-x64-v8.2.2.26.tgz (<= 8.3.0) */
        CC_ERA_REDIST, /* cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz (>= 8.3.1) */
        CC_ERA_WHEEL,  /* nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl */
};

typedef struct cc_archname {
        int era;         /* enum cc_arch_era */
        char format[16]; /* "tgz", "tar.gz", "tar.xz", "zip", "whl" */
        cudnnctl_ver version;
        char platform[48]; /* as written: "linux-x64", "windows10-x64", "linux-x86_64", "manylinux2014_x86_64",
                              "win_amd64"... */
        int system;        /* enum cc_sys */
        char arch[16];     /* "x86_64", "sbsa", "aarch64", "ppc64le" */
        char cuda[16];     /* CUDA variant as written: "11.4", "11", "12"; "" if none */
        char package[64];  /* wheels: "nvidia_cudnn_cu12" */
        int dup_suffix;    /* a download-duplicate suffix before the extension was ignored: " (1)", "(2)",
                              " copy", " - Copy" (the browser's or file manager's, not NVIDIA's) */
} cc_archname;

/* 0 and *out filled if basename is the name of a cuDNN archive or wheel of
 * any era, -1 if not. Case-sensitive except for the extension. */
int cc_name_archive(const char *basename, cc_archname *out);

/* nvidia_cudnn_cu13-9.19.0.56.dist-info (also .egg-info) */
typedef struct cc_distname {
        char package[96]; /* normalised: lower case, '-' and '.' as '_' */
        cudnnctl_ver version;
        char version_str[48];
        int cuda_major; /* from a _cuNN suffix, -1 if none */
        int is_cudnn;   /* nvidia_cudnn_* */
} cc_distname;

/* 0 for any well-formed NAME-VERSION.dist-info, NAME-VERSION[-pyX.Y].egg-info
 * or NAME.egg-info (cuDNN or not: see is_cudnn, which is set for
 * nvidia_cudnn and nvidia_cudnn_cuNN only); -1 otherwise. version is the
 * leading dotted-number part of version_str ("2.11.0+cu130" -> 2.11.0). */
int cc_name_distinfo(const char *basename, cc_distname *out);

#endif
