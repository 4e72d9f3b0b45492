/* Internal interface of the inspect module. */
#ifndef CC_INSPECT_H
#define CC_INSPECT_H

#include "../machine/machine.h"
#include "../value.h"

/* Facts of one file's bytes (already read or mapped), named `name` (used for
 * name-derived facts and messages only: the kind comes from content). Writes
 * the facts into obj (an object); parse problems become an "error" member,
 * not a failure. -1 only when out of memory. */
int cc_inspect_bytes(const char *name, const uint8_t *data, size_t size, unsigned flags, cc_value *obj, cc_error *err);
/* A flag of cc_inspect_bytes beside the public CUDNNCTL_INSPECT_*: only the
 * versions are wanted. An ELF file's symbols other than cudnn* are then
 * passed over, and its exports are not counted (exports_count is null). */
#define CC_INSPECT_VERSIONS_ONLY (1u << 30)

/* ---- one file of a machine's tree (tree_file.c) ---------------------------- */

/* The static versions of one file (file name, exported constants, version
 * resource) as inspect reads them: an array, empty when there are none. */
cc_value *cc_file_versions(cc_machine *m, const char *vpath, cc_error *err);
/* The same, and (when problems is not NULL) an array of what the file's
 * name and content disagree about (a cudnn64_8.dll that says 7.6.5). */
cc_value *cc_file_versions_ex(cc_machine *m, const char *vpath, cc_value **problems, cc_error *err);

/* The versions of a file's bytes already read (name: the file's own name,
 * not a link's), as cc_file_versions gives them. */
cc_value *cc_bytes_versions(const char *name, const uint8_t *data, size_t size, cc_error *err);

/* 1 if the file is a program (an ELF with PT_INTERP, a PE that is not a
 * DLL) rather than a library; 0 otherwise or when it cannot be read. */
int cc_is_program(cc_machine *m, const char *vpath);

/* Archives (libarchive). cc_archive_is: 1 if the bytes start like a zip,
 * gzip, xz, bzip2, zstd or tar archive. cc_archive_inspect fills obj with
 * the archive's facts (docs/json.md, kind "archive"). Returns -1 only when
 * out of memory; an unreadable archive gets an "error" member. Builds
 * without libarchive set "error" to say so. */
int cc_archive_is(const uint8_t *data, size_t size);
/* What a binary's first bytes say it is built for: its machine ("x86_64",
 * "aarch64", "ppc64le", "i386", "arm", "riscv", "other") from ELF e_machine
 * or PE Machine, and *system (CC_SYS_LINUX for ELF, CC_SYS_WINDOWS for a
 * PE or any MZ file, else unchanged). NULL when it is neither, or the
 * machine field cannot be read. */
const char *cc_binary_machine(const uint8_t *d, size_t size, int *system);
/* An archive member's name normalised: no leading "./" (and "/" after
 * them), "//" collapsed, "/./" dropped, no '/' at the end; one leading '/'
 * kept (an absolute name). Caller frees. */
char *cc_archive_norm_name(const char *name, cc_error *err);
/* Push a cuDNN version evidence {component "cudnn", source, version,
 * detail, member (when not NULL)} onto the array arr. */
int cc_version_entry(cc_value *arr, const char *source, const char *version, const char *detail, const char *member,
                     cc_error *err);
/* Copy the version evidence of one file's facts onto the array versions,
 * each with `member` naming the file. */
int cc_lift_versions(cc_value *versions, const cc_value *facts, const char *member, cc_error *err);
int cc_archive_inspect(const char *path, unsigned flags, cc_value *obj, cc_error *err);
/* An archive listed and read in one pass (an install's source): besides
 * the facts, every regular file member's bytes go to the tap as the listing
 * passes over them (begin(i) with i the member's index in the listing's
 * "members", data calls, end; none after a member that is damaged or over
 * a limit), and the archive file's own SHA-256 is computed from the bytes
 * read (sha256: 64 hex digits, or "" when the file was not read whole in
 * order: a zip, read by its central directory, or a listing that stopped
 * early). A tap call returning -1 ends the listing: cc_archive_inspect_tap
 * returns -1 with that error. begin, data and end NULL: only the digest. */
typedef struct cc_archive_tap {
        void *ctx;
        int (*begin)(void *ctx, size_t i, cc_error *err);
        int (*data)(void *ctx, const void *p, size_t n, cc_error *err);
        int (*end)(void *ctx, cc_error *err);
        char sha256[65];    /* out */
        uint64_t file_size; /* out: the bytes hashed */
} cc_archive_tap;
int cc_archive_inspect_tap(const char *path, unsigned flags, cc_archive_tap *tap, cc_value *obj, cc_error *err);
/* The same over an archive's bytes in memory, named name (for the fuzz
 * target). pass_floor: the least decompressed bytes a compressed stream may
 * pass over (0: the default, 256 MiB). */
int cc_archive_inspect_mem(const char *name, const uint8_t *data, size_t size, unsigned flags, uint64_t pass_floor,
                           cc_value *obj, cc_error *err);

#endif
