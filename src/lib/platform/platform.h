/* The only place libcudnnctl touches the operating system. One POSIX and one
 * Win32 implementation behind this header; paths are UTF-8 everywhere (wide
 * strings only at Win32 calls). */
#ifndef CC_PLATFORM_H
#define CC_PLATFORM_H

#include "../common.h"

#include <stdio.h>

/* A read-only view of a whole file. data is NULL when size == 0. */
typedef struct cc_map {
        const uint8_t *data;
        size_t size;
        /* The file's identity: device and inode (Windows: volume serial
         * number and file index); both 0 when the system cannot tell. */
        uint64_t dev, ino;
        void *priv_; /* implementation state */
} cc_map;

/* Map the file at path read-only. Files over max_size (0: no cap) are refused
 * with CC_ERR_LIMIT. Directories and special files are refused. A file that
 * shrinks while mapped does not crash the process: the pages past its new
 * end read as zeros and the map is marked changed (posix.c says how). */
int cc_map_file(const char *path, size_t max_size, cc_map *out, cc_error *err);
/* 1 when the file changed while it was mapped (pages vanished under it, or
 * its size or modification time differs from when it was mapped): what was
 * parsed from it is not to be trusted. */
int cc_map_changed(const cc_map *m);
/* 0 when unchanged; else -1 with CC_ERR_IO "PATH: changed while read".
 * Every caller that parses a mapping asks this before using the result. */
int cc_map_check(const cc_map *m, const char *path, cc_error *err);
void cc_unmap(cc_map *m);
/* Up to n bytes from the start of the regular file at path into buf, *got
 * how many (fewer only at the end of the file): a look at a file's header
 * without mapping or copying the rest. Refuses what cc_map_file refuses
 * (directories, special files). */
int cc_read_head(const char *path, void *buf, size_t n, size_t *got, cc_error *err);

enum cc_ftype {
        CC_FT_NONE = 0, /* does not exist */
        CC_FT_FILE,
        CC_FT_DIR,
        CC_FT_LINK,
        CC_FT_OTHER,
};

typedef struct cc_stat {
        int type; /* enum cc_ftype; CC_FT_LINK only from cc_lstat */
        uint64_t size;
        int mode;      /* permission bits where the system has them, else -1 */
        int64_t mtime; /* seconds since the epoch */
} cc_stat;

/* Follows links. A path that does not exist gives 0 with type CC_FT_NONE. */
int cc_stat_path(const char *path, cc_stat *out, cc_error *err);
/* Does not follow the last link. */
int cc_lstat_path(const char *path, cc_stat *out, cc_error *err);
/* A stamp of the file at path, links followed: its device, inode, size and
 * modification and change times to the nanosecond (Windows: volume, file
 * index, size and last write time), to tell later whether it changed. 1 with
 * the stamp in buf (and *newest, the later of its two times, in seconds since
 * the epoch), 0 when there is no such file, -1 on an error. */
int cc_file_stamp(const char *path, char *buf, size_t size, int64_t *newest, cc_error *err);
/* A directory of the program's own state (a cache) at path: made with its
 * missing parents (mode 0700) when absent. It must be a directory, not a
 * link, owned by this user and writable by no one else; else -1 with a
 * one-line error. Not a step of the test hook CUDNNCTL_TEST_FAULT: these
 * are not writes to a target. Windows: CC_ERR_UNSUPPORTED (no owner check). */
int cc_private_dir(const char *path, cc_error *err);
/* rename(2) and mkdir(path, 0700) for files inside such a directory. */
int cc_own_rename(const char *from, const char *to, cc_error *err);
int cc_own_mkdir(const char *path, cc_error *err);
/* The target of a symbolic link, as stored (caller frees). */
char *cc_readlink(const char *path, cc_error *err);

/* The names in a directory, without "." and "..", sorted bytewise. Refuses
 * directories with more than max_entries (0: 100000) names. */
int cc_list_dir(const char *path, size_t max_entries, cc_strv *out, cc_error *err);
/* The same, but a directory with more names gives the first max_entries the
 * system lists (in its own order, then sorted) and *more = 1: a bounded part
 * of a huge directory instead of nothing. */
int cc_list_dir_some(const char *path, size_t max_entries, cc_strv *out, int *more, cc_error *err);

/* Join two path parts with the system's separator (caller frees). */
char *cc_path_join(const char *a, const char *b, cc_error *err);
/* '/' on POSIX, '\\' on Windows. */
char cc_path_sep(void);
/* 1 if c separates path components on this system. */
int cc_is_sep(char c);

/* Read a whole (small) file into a NUL-terminated buffer (caller frees). */
int cc_read_file(const char *path, size_t max_size, char **out, size_t *len, cc_error *err);

/* A small file read through read(2), for files whose size stat cannot tell
 * (/proc/cpuinfo, /proc/version). NUL-terminated, caller frees. */
int cc_read_stream(const char *path, size_t max_size, char **out, size_t *len, cc_error *err);

/* The current directory (caller frees). */
char *cc_getcwd(cc_error *err);
/* The process's environment as "KEY=VALUE" strings, in the order the system
 * gives (on Windows the per-drive "=C:=..." entries are left out). */
int cc_environ(cc_strv *out, cc_error *err);
/* 1 when this program runs on Windows. */
int cc_host_is_windows(void);
/* Standard input read byte for byte from here on (Windows: out of text mode,
 * where a Ctrl-Z ends the input and CR LF become LF); nothing elsewhere. */
void cc_stdin_binary(void);
/* Set (value) or remove (NULL) a variable of this process's environment. */
int cc_env_put(const char *name, const char *value, cc_error *err);
/* The name of the parent process's program ("bash", "cmd.exe"; the file
 * name, not a path), or NULL when it cannot be read (caller frees). */
char *cc_parent_name(void);
/* Run argv (argv[0] searched on the environment's PATH unless it names a
 * path) with this process's environment, streams and directory. POSIX: it
 * replaces this process (returns only on failure); Windows: waits for it,
 * *status gets its exit status. CC_ERR_NOTFOUND: no such program. */
int cc_exec_program(const char *const *argv, int *status, cc_error *err);
/* The host's own canonical spelling of an existing path, links resolved
 * (caller frees); NULL with CC_ERR_NOTFOUND when it does not exist. */
char *cc_realpath(const char *path, cc_error *err);

/* The x86-64 micro-architecture level this CPU and OS support, as glibc's
 * loader decides it for glibc-hwcaps (1: baseline, 2: x86-64-v2, 3, 4); 0
 * when unknown or not x86-64. */
int cc_host_x86_64_level(void);
/* 1 when this CPU says it is Intel's (CPUID vendor "GenuineIntel"), 0 otherwise or unknown. */
int cc_host_cpu_is_intel(void);

/* Windows registry, HKEY_LOCAL_MACHINE (hive "HKLM") or HKEY_CURRENT_USER
 * ("HKCU"). Off Windows every call fails with CC_ERR_UNSUPPORTED; a missing
 * key or value gives CC_ERR_NOTFOUND. */
int cc_reg_get_dword(const char *hive, const char *key, const char *value, uint32_t *out, cc_error *err);
/* A REG_SZ / REG_EXPAND_SZ value, unexpanded (caller frees). */
char *cc_reg_get_str(const char *hive, const char *key, const char *value, cc_error *err);
/* The same, and its type (REG_SZ 1, REG_EXPAND_SZ 2) in *type. */
char *cc_reg_get_str_type(const char *hive, const char *key, const char *value, uint32_t *type, cc_error *err);
/* Every string value of a key: names[i] = data[i]. */
int cc_reg_values(const char *hive, const char *key, cc_strv *names, cc_strv *data, cc_error *err);
/* The names of a key's subkeys, in the order the registry lists them (the
 * 64-bit view: KEY_WOW64_64KEY; the 32-bit view is the key
 * SOFTWARE\WOW6432Node\... named as such). A name longer than the
 * registry's 255 characters or one that cannot be read is left out; at most
 * 100000 names. */
int cc_reg_subkeys(const char *hive, const char *key, cc_strv *names, cc_error *err);
/* The Windows system directory (GetSystemDirectory) and Windows directory
 * (GetWindowsDirectory); off Windows CC_ERR_UNSUPPORTED. */
char *cc_win_system_dir(cc_error *err);
char *cc_win_windows_dir(cc_error *err);
/* Windows' memory (GlobalMemoryStatusEx), in bytes: the commit limit and
 * what is left of it, the physical memory and what is free of it; off
 * Windows CC_ERR_UNSUPPORTED. */
typedef struct cc_win_memory {
        uint64_t commit_limit, commit_available;
        uint64_t physical_total, physical_available;
} cc_win_memory;
int cc_win_memory_status(cc_win_memory *out, cc_error *err);

/* This machine's host name (POSIX gethostname; Windows the DNS host name,
 * GetComputerNameExA), NUL-terminated in buf; -1 when it cannot be read. */
int cc_host_name(char *buf, size_t n);

/* ---- child processes ------------------------------------------------------
 * Anything that loads CUDA, cuDNN or framework code runs in a child process
 * with a time limit; its crash, hang or noise becomes a fact. */

typedef struct cc_spawn_opts {
        const char *const *argv;    /* argv[0] is the program's path (no PATH search); NULL-terminated */
        const char *const *env_set; /* "VAR=VALUE" strings that replace or add to the environment */
        size_t nenv_set;
        const char *const *env_unset; /* variable names removed from the environment */
        size_t nenv_unset;
        const char *cwd;   /* NULL: the parent's */
        int timeout_ms;    /* wall-clock limit; <= 0: 30000 */
        size_t max_output; /* kept per stream; the rest is counted and dropped (0: 1 MiB) */
} cc_spawn_opts;

typedef struct cc_spawn_result {
        int exited;                    /* 1: ended by exit (or, on Windows, by any termination: see exit_code) */
        int exit_code;                 /* the exit status; on Windows an exception ends with its code (0xC0000005) */
        int signal;                    /* POSIX: the signal that ended it, 0 if none */
        int timed_out;                 /* 1: killed at the time limit (with its whole process group / job) */
        int64_t wall_ms;               /* how long it ran */
        cc_buf out;                    /* its standard output, at most max_output bytes */
        cc_buf errout;                 /* its standard error, likewise */
        uint64_t out_total, err_total; /* bytes it wrote to each */
} cc_spawn_result;

/* Run a program to its end or to the time limit. Standard input is empty.
 * When it ends (or is killed at the limit), whatever it started that is
 * still running is ended too (its process group / job; with
 * cc_cleanup_install also what left the group).
 * -1 only when the child could not be started at all (no such program, not
 * executable, out of resources): the error names the program. Everything
 * the child does after that (crash, hang, garbage output) is in *r. */
int cc_spawn_run(const cc_spawn_opts *o, cc_spawn_result *r, cc_error *err);
void cc_spawn_result_free(cc_spawn_result *r);
/* One line for how a child ended: "exited with status 3", "killed by signal
 * 11 (SIGSEGV)", "timed out after 10000 ms", "crashed with exception
 * 0xC0000005 (access violation)" (caller frees). */
char *cc_spawn_describe(const cc_spawn_result *r, cc_error *err);
/* 1 if the child ended by crashing (a signal other than the time-limit
 * kill, or a Windows exception code). */
int cc_spawn_crashed(const cc_spawn_result *r);

/* ---- ending what the program started ---------------------------------------
 * Every child cc_spawn_run starts (its process group; on Windows its job)
 * and every directory cc_make_temp_dir makes is on a list while it lives;
 * cc_remove_tree takes a directory off it. */

/* For a program whose every child process comes from cc_spawn_run (the
 * CLI), once at its start: at exit() and on a signal that ends the process
 * (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE; on Windows Ctrl+C, Ctrl+Break
 * and closing the console) cc_cleanup_all runs, and the signal then ends the
 * process as it would have. Signals ignored at the start stay ignored. On
 * Linux the process also becomes the reaper of its orphaned descendants
 * (PR_SET_CHILD_SUBREAPER): a process that left its child's process group
 * (setsid) comes back to it when that child ends, and cc_spawn_run ends it
 * there and then. */
int cc_cleanup_install(cc_error *err);
/* End every child on the list with everything it started, and remove every
 * directory on the list. Async-signal-safe on POSIX; may run more than once. */
void cc_cleanup_all(void);

/* A monotonic clock in microseconds (for durations only). */
int64_t cc_monotonic_us(void);

/* The path of the running program (caller frees). */
char *cc_self_exe(cc_error *err);

/* A new private directory under the system's temporary directory (caller
 * frees the path; remove it with cc_remove_tree, or cc_cleanup_all does). */
char *cc_make_temp_dir(const char *prefix, cc_error *err);
/* Remove a directory and everything in it (links are removed, not followed). */
int cc_remove_tree(const char *path, cc_error *err);
/* Write a whole file (created or truncated, mode 0644/0755). An executable
 * is written with no fork() of cc_spawn_run in between: a child forked
 * while it is open would hold it so, and running it would fail (ETXTBSY). */
int cc_write_file(const char *path, const void *data, size_t len, int executable, cc_error *err);
/* The directories of the PATH variable `path_value` searched for an
 * executable called name (".exe" added on Windows): the first hit, or NULL
 * with CC_ERR_NOTFOUND (caller frees). */
char *cc_find_program(const char *name, const char *path_value, cc_error *err);

/* ---- writing (only the transaction engine, src/lib/txn, calls these) ----
 *
 * Each call that changes the file system counts as one step of the test
 * hook CUDNNCTL_TEST_FAULT: "kill:N" ends the process (SIGKILL; on Windows
 * TerminateProcess) before the Nth such call, "enospc:N", "eacces:N" or
 * "eio:N" makes the Nth call fail with that error. The hook is in every
 * build (the crash walk of the tests runs the real program); it reads the
 * variable once, and does nothing when it is not set. */

/* A file being written, created new: an existing file or a link at the
 * path is an error (O_CREAT|O_EXCL|O_NOFOLLOW; CREATE_NEW). */
typedef struct cc_wfile cc_wfile;
int cc_fs_create(const char *path, unsigned mode, cc_wfile **out, cc_error *err);
int cc_fs_write(cc_wfile *f, const void *p, size_t n, cc_error *err);
/* A file opened for appending, created when absent (never through a
 * link): fetch's download resumed into NAME.part. *size: the bytes it held
 * when opened. Written with cc_fs_write, closed as a created file is. */
int cc_fs_open_append(const char *path, unsigned mode, cc_wfile **out, uint64_t *size, cc_error *err);
/* Start writing the bytes [off, off+len) of f to the device and return
 * without waiting (Linux: sync_file_range SYNC_FILE_RANGE_WRITE; nothing
 * elsewhere), so that cc_fs_close_synced later waits only for what came
 * after. A hint: it reports nothing, and the flush at the close is still
 * what makes the file durable. Not a step of the test hook. */
void cc_fs_start_writeback(cc_wfile *f, uint64_t off, uint64_t len);
/* Flush the file to the device and close it (closed on failure too). */
int cc_fs_close_synced(cc_wfile *f, cc_error *err);
/* Close without flushing (after a failure; the caller removes the file). */
void cc_fs_close_abort(cc_wfile *f);
/* Append one line to a file (created when absent, never through a link)
 * and flush it to the device: the journal's write. */
int cc_fs_append_synced(const char *path, const char *line, cc_error *err);
int cc_fs_mkdir(const char *path, unsigned mode, cc_error *err);
int cc_fs_rmdir(const char *path, cc_error *err);
/* Remove a file or a link (not a directory). */
int cc_fs_unlink(const char *path, cc_error *err);
/* Rename from over to (atomic; to is replaced when it exists and is not a
 * directory). Neither path's last component is followed. */
int cc_fs_rename(const char *from, const char *to, cc_error *err);
int cc_fs_symlink(const char *target, const char *path, cc_error *err);
/* Set the permission bits of a file that is not a link (no-op on Windows
 * except the read-only attribute). */
int cc_fs_chmod(const char *path, unsigned mode, cc_error *err);
/* Flush a directory's entries to the device (no-op where not needed). */
int cc_fs_sync_dir(const char *path, cc_error *err);
/* An exclusive lock on a file (created when absent): 0 and *out, or -1
 * with CC_ERR_IO naming the path when another process holds it. */
typedef struct cc_fs_lock cc_fs_lock;
int cc_fs_lock_take(const char *path, cc_fs_lock **out, cc_error *err);
void cc_fs_lock_release(cc_fs_lock *l);
/* Whether the process runs as root (Windows: as an elevated administrator). */
int cc_is_admin(void);
/* Whether this user may create files in the directory dir (POSIX: access
 * W_OK; Windows: 1, the first write says otherwise). */
int cc_fs_writable(const char *dir);
/* Free bytes for an unprivileged user on the file system of path. */
int cc_fs_free_bytes(const char *path, uint64_t *out, cc_error *err);
/* The device and inode (Windows: volume serial and file index) of path,
 * not following a last link: what tells two names for one file. */
int cc_fs_identity(const char *path, uint64_t *dev, uint64_t *ino, cc_error *err);
/* A registry value as stored: present 0 when there is no such value;
 * else its type (REG_SZ 1, REG_EXPAND_SZ 2...) and its data bytes exactly
 * (UTF-16LE with its terminator for the string types). */
typedef struct cc_regval {
        int present;
        uint32_t type;
        unsigned char *data;
        size_t len;
} cc_regval;
/* Read value of hive\key (the key must exist: CC_ERR_NOTFOUND when it does
 * not; an absent value is present 0). Off Windows CC_ERR_UNSUPPORTED. */
int cc_reg_read(const char *hive, const char *key, const char *value, cc_regval *out, cc_error *err);
void cc_regval_free(cc_regval *v);
/* Set value of hive\key to v exactly (present 0: delete it; deleting an
 * absent value is no error). A step of the test hook. */
int cc_reg_write(const char *hive, const char *key, const char *value, const cc_regval *v, cc_error *err);
/* Tell the running programs that the environment in the registry changed
 * (WM_SETTINGCHANGE "Environment" to every top-level window, 5 s at most):
 * new shells from Explorer then see it. */
int cc_env_broadcast(cc_error *err);
/* The test hook: 0 go on; -1 with err set when the hook makes this call
 * fail (what and path name the call); does not return for "kill". */
int cc_fs_fault(const char *what, const char *path, cc_error *err);
/* Arm the hook with spec (as the variable would; NULL: off) and restart
 * its count; and the number of writing calls counted so far. */
void cc_fs_fault_set(const char *spec);
long cc_fs_fault_calls(void);

/* ---- more threads (the transaction engine's writer, the doctor's workers) -
 *
 * A thread that runs fn(arg) with every signal blocked but the faults it
 * raises itself (SIGBUS, SIGSEGV, SIGFPE, SIGILL: the main thread keeps
 * handling interrupts and clean-up), and a mutex with one condition
 * variable to hand work to it. */
typedef struct cc_thread cc_thread;
int cc_thread_start(void (*fn)(void *), void *arg, cc_thread **out, cc_error *err);
/* Wait for the thread to end, and free it (NULL: nothing). */
void cc_thread_join(cc_thread *t);
/* The CPUs this process may run on (at least 1). */
int cc_cpu_count(void);
typedef struct cc_sync cc_sync;
int cc_sync_new(cc_sync **out, cc_error *err);
void cc_sync_free(cc_sync *s);
void cc_sync_lock(cc_sync *s);
void cc_sync_unlock(cc_sync *s);
/* Called locked: release the lock, sleep until cc_sync_wake, lock again
 * (it may also wake without a cause: the caller loops on its condition). */
void cc_sync_wait(cc_sync *s);
/* The same, waking after ms milliseconds at the latest. */
void cc_sync_wait_ms(cc_sync *s, int ms);
void cc_sync_wake(cc_sync *s);

/* ---- dynamic loading (only ever in a probe child) ------------------------- */

/* For a probe child: a stream on the standard output the process started
 * with, for its results; from then on anything else written to standard
 * output (by libraries it loads) goes to standard error. NULL on failure. */
FILE *cc_probe_channel(cc_error *err);

/* Load a library: a full path loads that file, a bare name is searched for
 * as the system's loader does for a program. The error carries the loader's
 * own text (dlerror, or GetLastError's number and message). */
void *cc_dl_open(const char *path_or_name, cc_error *err);
/* 1 if a library with this name is already loaded (without loading it). */
int cc_dl_is_loaded(const char *name);
void *cc_dl_sym(void *handle, const char *name);
void cc_dl_close(void *handle);
/* The file a loaded handle or an address inside it came from (caller
 * frees), or NULL. */
char *cc_dl_path_of_addr(const void *addr, cc_error *err);
/* Every file mapped into this process as a module, once each, in the order
 * the system lists them (Linux: /proc/self/maps; Windows: the module list). */
int cc_loaded_modules(cc_strv *out, cc_error *err);

/* ---- who maps a file (posix_users.c, win32_users.c; procmaps.c) ----------
 * The processes of this machine that have one of a set of files mapped (a
 * library loaded). */

/* How a process was seen to map a file (bits of cc_proc_user.how). */
enum {
        CC_SEEN_MAPS = 0x01,        /* Linux /proc/PID/maps: a mapping of the file's device and inode */
        CC_SEEN_MAP_FILES = 0x02,   /* Linux /proc/PID/map_files: the mapped file itself is that file */
        CC_SEEN_DELETED = 0x04,     /* Linux maps: a deleted file of that path (the file there now is another) */
        CC_SEEN_MODULES = 0x08,     /* Windows: the process's module list (Toolhelp snapshot) */
        CC_SEEN_RESTART_MGR = 0x10, /* Windows: the Restart Manager names it */
};

typedef struct cc_proc_user {
        int64_t pid;
        char *name;    /* the process's name (comm; the executable's file name), or NULL */
        char *cmdline; /* its command line, arguments joined by spaces, bounded; NULL when not read */
        size_t file;   /* which of the paths asked about */
        unsigned how;  /* CC_SEEN_* */
} cc_proc_user;

typedef struct cc_proc_users {
        cc_proc_user *v; /* by pid, then file */
        size_t n, cap;
        size_t scanned;    /* processes looked at */
        size_t unreadable; /* processes whose mappings could not be read (another user's, without privilege) */
        cc_strv notes;     /* what could not be asked (the Restart Manager missing...), one line each */
} cc_proc_users;

/* Every process that maps one of paths[0..n) (host paths; a path that does
 * not exist can still be mapped as a deleted file). Linux: /proc/[0-9]*\/maps
 * compared by device and inode, /proc/PID/map_files where readable;
 * Windows: a module snapshot per process and the Restart Manager. A process
 * that cannot be read is counted, not an error; -1 only when out of memory
 * or when no process can be listed at all. */
int cc_proc_mappers(const char *const *paths, size_t n, cc_proc_users *out, cc_error *err);
void cc_proc_users_free(cc_proc_users *u);

/* One line of /proc/PID/maps, parsed (pure; procmaps.c):
 * "START-END PERMS OFFSET MAJOR:MINOR INODE   PATH". */
typedef struct cc_procmap {
        uint64_t start, end, offset, ino;
        uint32_t dev_major, dev_minor;
        char perms[5];
        const char *path; /* inside the line, as the kernel wrote it ("\012" for a newline), without
                             " (deleted)"; NULL for an anonymous mapping */
        size_t path_len;
        int deleted; /* the path ended in " (deleted)" */
} cc_procmap;
/* 0, or -1 when the line is not of that form. */
int cc_procmap_parse(const char *line, size_t len, cc_procmap *out);
/* The path unescaped ("\012" back to a newline) into buf, NUL-terminated:
 * its length, or -1 when it does not fit or m has no path. */
long cc_procmap_path(const cc_procmap *m, char *buf, size_t size);
/* A command line for display: NUL-separated arguments (as /proc/PID/cmdline
 * holds them) joined by spaces, trailing NULs dropped, at most max bytes
 * kept ("..." added when cut). A new string (caller frees). */
char *cc_cmdline_join(const char *raw, size_t len, size_t max, cc_error *err);

#endif
