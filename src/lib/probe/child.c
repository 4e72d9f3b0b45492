/* The probe child: `cudnnctl __probe KIND ...`. It loads the CUDA driver,
 * a CUDA runtime or one cuDNN installation, calls into it and reports each
 * result as one JSON line on its original standard output (probe.h). It
 * trusts nothing it loads: every entry point may be missing, every call may
 * crash or hang (the parent then names the step it died in). */
#include "probe.h"

#include <stdlib.h>
#include <string.h>

#include "../platform/platform.h"
#include "gpuwork.h"

static FILE *chan;

/* Write one protocol object and flush it, so a crash keeps it. Takes v. */
static void emit(cc_value *v)
{
        cc_error err = {0};
        cc_buf b = {0};

        if (v == NULL)
                return;
        if (chan != NULL && cc_json_write(v, 0, &b, &err) == 0 && cc_buf_putc(&b, '\n', &err) == 0) {
                fwrite(b.data, 1, b.len, chan);
                fflush(chan);
        }
        cc_buf_free(&b);
        cc_v_free(v);
}

static void mark(const char *t, const char *step)
{
        cc_error err = {0};
        cc_value *o = cc_v_object(&err);

        if (o != NULL && (cc_v_set_str(o, "t", t, &err) < 0 || cc_v_set_str(o, "step", step, &err) < 0)) {
                cc_v_free(o);
                return;
        }
        emit(o);
}

static void begin(const char *step)
{
        mark("begin", step);
}

static void end(const char *step)
{
        mark("end", step);
}

/* A fact; a key ending in "[]" is appended to an array in the parent. Takes v. */
static void fact(const char *key, cc_value *v)
{
        cc_error err = {0};
        cc_value *o;

        if (v == NULL)
                return;
        o = cc_v_object(&err);
        if (o == NULL || cc_v_set_str(o, "t", "fact", &err) < 0 || cc_v_set_str(o, "k", key, &err) < 0 ||
            cc_v_set(o, "v", v, &err) < 0) {
                cc_v_free(o);
                return;
        }
        emit(o);
}

/* dlsym's object pointer into a function pointer, without the cast ISO C
 * does not define. */
#define LOAD_FN(fp, handle, name)                                                                                      \
        do {                                                                                                           \
                void *sym_ = cc_dl_sym((handle), (name));                                                              \
                memcpy(&(fp), &sym_, sizeof(fp));                                                                      \
        } while (0)

/* A loaded library as a fact: {name, loaded, path | error}. */
static void *load_lib(const char *key, const char *name, const char *probe_sym)
{
        cc_error err = {0}, e2 = {0};
        cc_value *o = cc_v_object(&e2);
        char *step = cc_asprintf(&e2, "load %s", cc_basename(name));
        void *h;

        begin(step ? step : name);
        h = cc_dl_open(name, &err);
        end(step ? step : name);
        free(step);
        if (o == NULL)
                return h;
        cc_v_set_str(o, "name", name, &e2);
        cc_v_set_bool(o, "loaded", h != NULL, &e2);
        if (h == NULL) {
                cc_v_set_str(o, "error", err.msg, &e2);
        } else {
                /* The file that provides the probe symbol: the loader's answer
                 * for a bare name; for a full path, the path itself. */
                char *path = probe_sym ? cc_dl_path_of_addr(cc_dl_sym(h, probe_sym), &e2) : NULL;

                cc_v_set_str(o, "path", path ? path : (strpbrk(name, "/\\") ? name : NULL), &e2);
                free(path);
        }
        fact(key, o);
        return h;
}

static cc_value *code_obj(long code, const char *name, const char *text)
{
        cc_error err = {0};
        cc_value *o = cc_v_object(&err);

        if (o == NULL)
                return NULL;
        cc_v_set_int(o, "code", code, &err);
        if (name != NULL)
                cc_v_set_str(o, "name", name, &err);
        if (text != NULL)
                cc_v_set_str(o, "text", text, &err);
        return o;
}

/* ---- driver ---------------------------------------------------------------- */

typedef int (*cu_int_fn)(int *);
typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_err_fn)(int, const char **);
typedef int (*cu_dev_get_fn)(int *, int);
typedef int (*cu_name_fn)(char *, int, int);
typedef int (*cu_attr_fn)(int *, int, int);
typedef int (*cu_mem_fn)(size_t *, int);
typedef int (*nvml_void_fn)(void);
typedef int (*nvml_str_fn)(char *, unsigned);
typedef int (*nvml_uint_fn)(unsigned *);
typedef int (*nvml_int_fn)(int *);
typedef const char *(*nvml_errstr_fn)(int);

static cc_value *cu_code(void *h, int r)
{
        cu_err_fn fn = NULL;
        const char *lib_name = NULL;

        LOAD_FN(fn, h, "cuGetErrorName");
        if (fn != NULL && fn(r, &lib_name) != 0)
                lib_name = NULL;
        return code_obj(r, cc_cu_result_name(r) ? cc_cu_result_name(r) : lib_name, NULL);
}

static void probe_devices(void *h)
{
        cu_int_fn count_fn = NULL;
        cu_dev_get_fn get_fn = NULL;
        cu_name_fn name_fn = NULL;
        cu_attr_fn attr_fn = NULL;
        cu_mem_fn mem_fn = NULL;
        cc_error err = {0};
        int n = 0, r, i;
        cc_value *devs;

        LOAD_FN(count_fn, h, "cuDeviceGetCount");
        LOAD_FN(get_fn, h, "cuDeviceGet");
        LOAD_FN(name_fn, h, "cuDeviceGetName");
        LOAD_FN(attr_fn, h, "cuDeviceGetAttribute");
        LOAD_FN(mem_fn, h, "cuDeviceTotalMem_v2");
        if (count_fn == NULL)
                return;
        begin("cuDeviceGetCount");
        r = count_fn(&n);
        end("cuDeviceGetCount");
        fact("device_count", code_obj(r, cc_cu_result_name(r), NULL));
        if (r != 0)
                return;
        devs = cc_v_array(&err);
        for (i = 0; devs != NULL && i < n && i < 64; i++) {
                cc_value *d = cc_v_object(&err);
                char name[256] = "";
                int dev = i, ccmaj = -1, ccmin = -1;
                size_t mem = 0;

                if (d == NULL)
                        break;
                cc_v_set_int(d, "index", i, &err);
                begin("cuDeviceGet");
                if (get_fn != NULL && get_fn(&dev, i) != 0)
                        dev = i;
                if (name_fn != NULL && name_fn(name, (int)sizeof(name) - 1, dev) == 0)
                        cc_v_set_str(d, "name", name, &err);
                if (attr_fn != NULL && attr_fn(&ccmaj, 75, dev) == 0 && attr_fn(&ccmin, 76, dev) == 0) {
                        cc_v_set_int(d, "cc_major", ccmaj, &err);
                        cc_v_set_int(d, "cc_minor", ccmin, &err);
                }
                if (mem_fn != NULL && mem_fn(&mem, dev) == 0)
                        cc_v_set_int(d, "memory_bytes", (int64_t)mem, &err);
                end("cuDeviceGet");
                cc_v_push(devs, d, &err);
        }
        fact("devices", devs);
}

static void probe_nvml(void)
{
        const char *name = cc_host_is_windows() ? "nvml.dll" : "libnvidia-ml.so.1";
        nvml_void_fn init = NULL, shut = NULL;
        nvml_str_fn ver = NULL;
        nvml_uint_fn count = NULL;
        nvml_int_fn cuda_ver = NULL;
        nvml_errstr_fn estr = NULL;
        cc_error err = {0};
        cc_value *o;
        void *h = load_lib("nvml_library", name, "nvmlInit_v2");
        char buf[128] = "";
        unsigned n = 0;
        int r, cv = 0;

        if (h == NULL)
                return;
        LOAD_FN(init, h, "nvmlInit_v2");
        LOAD_FN(shut, h, "nvmlShutdown");
        LOAD_FN(ver, h, "nvmlSystemGetDriverVersion");
        LOAD_FN(count, h, "nvmlDeviceGetCount_v2");
        LOAD_FN(cuda_ver, h, "nvmlSystemGetCudaDriverVersion_v2");
        LOAD_FN(estr, h, "nvmlErrorString");
        if (init == NULL)
                return;
        o = cc_v_object(&err);
        if (o == NULL)
                return;
        begin("nvmlInit_v2");
        r = init();
        end("nvmlInit_v2");
        cc_v_set_int(o, "init", r, &err);
        if (r != 0 && estr != NULL)
                cc_v_set_str(o, "init_error", estr(r), &err);
        if (r == 0) {
                begin("nvmlSystemGetDriverVersion");
                if (ver != NULL && ver(buf, sizeof(buf) - 1) == 0)
                        cc_v_set_str(o, "driver_version", buf, &err);
                if (cuda_ver != NULL && cuda_ver(&cv) == 0)
                        cc_v_set_int(o, "cuda_driver_version", cv, &err);
                if (count != NULL && count(&n) == 0)
                        cc_v_set_int(o, "device_count", n, &err);
                end("nvmlSystemGetDriverVersion");
                if (shut != NULL)
                        shut();
        }
        fact("nvml", o);
}

static int probe_driver(void)
{
        const char *name = cc_host_is_windows() ? "nvcuda.dll" : "libcuda.so.1";
        void *h = load_lib("libcuda", name, "cuInit");
        cu_init_fn init = NULL;
        cu_int_fn ver = NULL;
        int r, v = 0;

        if (h != NULL) {
                LOAD_FN(init, h, "cuInit");
                LOAD_FN(ver, h, "cuDriverGetVersion");
                if (ver != NULL) {
                        cc_error err = {0};
                        cc_value *o;

                        begin("cuDriverGetVersion");
                        r = ver(&v);
                        end("cuDriverGetVersion");
                        o = cu_code(h, r);
                        if (o != NULL && r == 0)
                                cc_v_set_int(o, "value", v, &err);
                        fact("driver_version", o);
                }
                if (init != NULL) {
                        begin("cuInit");
                        r = init(0);
                        end("cuInit");
                        fact("cuInit", cu_code(h, r));
                        if (r == 0)
                                probe_devices(h);
                }
        }
        probe_nvml();
        return 0;
}

/* ---- CUDA runtime -------------------------------------------------------------- */

typedef int (*rt_int_fn)(int *);
typedef const char *(*rt_str_fn)(int);

static cc_value *rt_code(void *h, int r)
{
        rt_str_fn nm = NULL, st = NULL;

        LOAD_FN(nm, h, "cudaGetErrorName");
        LOAD_FN(st, h, "cudaGetErrorString");
        return code_obj(r, cc_cuda_error_name(r) ? cc_cuda_error_name(r) : (nm ? nm(r) : NULL), st ? st(r) : NULL);
}

static void rt_call(void *h, const char *fn_name, const char *key)
{
        rt_int_fn fn = NULL;
        cc_error err = {0};
        cc_value *o;
        int v = 0, r;

        LOAD_FN(fn, h, fn_name);
        if (fn == NULL) {
                fact(key, cc_v_strf(&err, "not exported: %s", fn_name));
                return;
        }
        begin(fn_name);
        r = fn(&v);
        end(fn_name);
        o = rt_code(h, r);
        if (o != NULL && r == 0)
                cc_v_set_int(o, "value", v, &err);
        fact(key, o);
}

static int probe_cudart(int argc, char **argv)
{
        void *h;

        if (argc < 2)
                return 2;
        h = load_lib("cudart", argv[1], "cudaRuntimeGetVersion");
        if (h == NULL)
                return 0;
        rt_call(h, "cudaRuntimeGetVersion", "runtime_version");
        rt_call(h, "cudaDriverGetVersion", "driver_version");
        rt_call(h, "cudaGetDeviceCount", "device_count");
        return 0;
}

/* ---- cuDNN ------------------------------------------------------------------- */

#define MAX_LIBS 32

struct cudnn_set {
        char *stem[MAX_LIBS];
        void *handle[MAX_LIBS];
        size_t n;
        void *shim;
        void *cudart;
        int major;
        int as_program; /* the shim alone: calls go through its exports */
};

typedef size_t (*dnn_size_fn)(void);
typedef int (*dnn_status_fn)(void);
typedef int (*dnn_prop_fn)(int, int *);
typedef const char *(*dnn_errstr_fn)(int);
typedef int (*dnn_create_fn)(void **);
typedef int (*dnn_destroy_fn)(void *);

/* The shim first (what a program linked with -lcudnn calls), then each
 * sub-library in load order. */
static void *set_sym(void *ctx, const char *name)
{
        struct cudnn_set *s = ctx;
        void *p = cc_dl_sym(s->shim, name);
        size_t i;

        for (i = 0; p == NULL && i < s->n; i++)
                p = cc_dl_sym(s->handle[i], name);
        return p;
}

static void *rt_sym(void *ctx, const char *name)
{
        struct cudnn_set *s = ctx;

        return cc_dl_sym(s->cudart, name);
}

static cc_value *dnn_code(struct cudnn_set *s, int r)
{
        dnn_errstr_fn es = NULL;
        void *p = set_sym(s, "cudnnGetErrorString");

        memcpy(&es, &p, sizeof(es));
        return code_obj(r, cc_cudnn_status_name(s->major, r), es ? es(r) : NULL);
}

static void size_call(struct cudnn_set *s, const char *fn_name, const char *key)
{
        dnn_size_fn fn = NULL;
        cc_error err = {0};
        void *p = set_sym(s, fn_name);
        size_t v;

        memcpy(&fn, &p, sizeof(fn));
        if (fn == NULL)
                return;
        begin(fn_name);
        v = fn();
        end(fn_name);
        fact(key, cc_v_int((int64_t)v, &err));
}

struct vcheck {
        int major;
        const char *stem;
        const char *fn;
};

static const struct vcheck vchecks[] = {
    {8, "ops_infer", "cudnnOpsInferVersionCheck"},
    {8, "ops_train", "cudnnOpsTrainVersionCheck"},
    {8, "cnn_infer", "cudnnCnnInferVersionCheck"},
    {8, "cnn_train", "cudnnCnnTrainVersionCheck"},
    {8, "adv_infer", "cudnnAdvInferVersionCheck"},
    {8, "adv_train", "cudnnAdvTrainVersionCheck"},
    {9, "graph", "cudnnGraphVersionCheck"},
    {9, "ops", "cudnnOpsVersionCheck"},
    {9, "cnn", "cudnnCnnVersionCheck"},
    {9, "adv", "cudnnAdvVersionCheck"},
};

static void version_checks(struct cudnn_set *s)
{
        size_t i, j;

        for (i = 0; i < CC_ARRAY_LEN(vchecks); i++) {
                const struct vcheck *c = &vchecks[i];
                cc_error err = {0};
                cc_value *o;
                void *h = NULL, *p;
                dnn_status_fn fn = NULL;

                if (c->major != (s->major >= 9 ? 9 : s->major))
                        continue;
                for (j = 0; j < s->n; j++)
                        if (strcmp(s->stem[j], c->stem) == 0)
                                h = s->handle[j];
                o = cc_v_object(&err);
                if (o == NULL)
                        return;
                cc_v_set_str(o, "function", c->fn, &err);
                cc_v_set_str(o, "sublibrary", c->stem, &err);
                /* As a program calls it, the shim's export (which has cuDNN
                 * load the sub-library itself); else the sub-library's own. */
                p = s->as_program ? cc_dl_sym(s->shim, c->fn) : NULL;
                if (p != NULL)
                        h = s->shim;
                else
                        p = cc_dl_sym(h, c->fn);
                memcpy(&fn, &p, sizeof(fn));
                if (h == NULL) {
                        cc_v_set_str(o, "status", "not-loaded", &err);
                } else if (fn == NULL) {
                        cc_v_set_str(o, "status", "not-exported", &err);
                } else {
                        int r;

                        begin(c->fn);
                        r = fn();
                        end(c->fn);
                        cc_v_set_str(o, "status", "called", &err);
                        cc_v_set(o, "result", dnn_code(s, r), &err);
                }
                fact("version_checks[]", o);
        }
}

static void properties(struct cudnn_set *s)
{
        static const char *const names[] = {"major", "minor", "patch"};
        dnn_prop_fn fn = NULL;
        void *p = set_sym(s, "cudnnGetProperty");
        cc_error err = {0};
        cc_value *o;
        int i;

        memcpy(&fn, &p, sizeof(fn));
        if (fn == NULL)
                return;
        o = cc_v_object(&err);
        if (o == NULL)
                return;
        begin("cudnnGetProperty");
        for (i = 0; i < 3; i++) {
                int v = -1, r = fn(i, &v);

                if (r == 0)
                        cc_v_set_int(o, names[i], v, &err);
                else
                        cc_v_set(o, names[i], dnn_code(s, r), &err);
        }
        end("cudnnGetProperty");
        fact("properties", o);
}

/* The modules of interest mapped in this process now. */
static void modules(const char *key)
{
        static const char *const prefixes[] = {"libcudnn", "cudnn",    "libcudart",    "cudart",   "libcublas",
                                               "cublas",   "libcuda.", "nvcuda",       "libnvrtc", "nvrtc",
                                               "libz.",    "zlibwapi", "libnvidia-ml", "nvml"};
        cc_strv mods = {0};
        cc_error err = {0};
        cc_value *arr;
        size_t i, k;

        if (cc_loaded_modules(&mods, &err) < 0) {
                fact(key, cc_v_strf(&err, "cannot list: %s", err.msg));
                return;
        }
        /* by name, not by address: where the loader maps a library late
         * (libz, now that nothing loads it at start-up) moves with address
         * space randomisation, and two runs must give the same document */
        cc_strv_sort(&mods);
        arr = cc_v_array(&err);
        for (i = 0; arr != NULL && i < mods.n; i++) {
                const char *b = cc_basename(mods.v[i]);

                for (k = 0; k < CC_ARRAY_LEN(prefixes); k++)
                        if (cc_strncasecmp(b, prefixes[k], strlen(prefixes[k])) == 0) {
                                cc_v_push(arr, cc_v_str(mods.v[i], &err), &err);
                                break;
                        }
        }
        cc_strv_free(&mods);
        fact(key, arr);
}

static void gpu_emit(void *ctx, cc_value *result)
{
        cc_error err = {0};
        cc_value *o = cc_v_object(&err);

        (void)ctx;
        if (o == NULL || cc_v_set_str(o, "t", "gpu", &err) < 0 || cc_v_set(o, "v", result, &err) < 0) {
                cc_v_free(o);
                return;
        }
        emit(o);
}

static void gpu_begin(void *ctx, const char *step)
{
        (void)ctx;
        begin(step);
}

/* The installation's libraries by full path, in load order ("loads[]"). */
static void load_libs(struct cudnn_set *s, char **stem, const char **path, size_t n)
{
        size_t i;

        for (i = 0; i < n && s->n < MAX_LIBS; i++) {
                s->stem[s->n] = stem[i];
                s->handle[s->n] = load_lib("loads[]", path[i], NULL);
                s->n++;
        }
}

static int probe_cudnn(int argc, char **argv)
{
        struct cudnn_set s;
        char *lib_stem[MAX_LIBS];
        const char *lib_path[MAX_LIBS];
        size_t nlibs = 0;
        const char *cudart = NULL, *shim = NULL;
        uint64_t seed = 1;
        int gpu = 0, i, r, created = 0, as_program = 0;
        void *handle = NULL;
        dnn_create_fn create = NULL;
        dnn_destroy_fn destroy = NULL;
        void *p;

        memset(&s, 0, sizeof(s));
        for (i = 1; i < argc; i++) {
                if (strcmp(argv[i], "--major") == 0 && i + 1 < argc) {
                        s.major = atoi(argv[++i]);
                } else if (strcmp(argv[i], "--lib") == 0 && i + 1 < argc && nlibs < MAX_LIBS) {
                        char *eq = strchr(argv[++i], '=');

                        if (eq == NULL)
                                return 2;
                        *eq = '\0';
                        lib_stem[nlibs] = argv[i];
                        lib_path[nlibs++] = eq + 1;
                } else if (strcmp(argv[i], "--shim") == 0 && i + 1 < argc) {
                        shim = argv[++i];
                } else if (strcmp(argv[i], "--cudart") == 0 && i + 1 < argc) {
                        cudart = argv[++i];
                } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
                        seed = strtoull(argv[++i], NULL, 10);
                } else if (strcmp(argv[i], "--gpu") == 0) {
                        gpu = 1;
                } else if (strcmp(argv[i], "--as-program") == 0) {
                        as_program = 1;
                } else {
                        return 2;
                }
        }
        /* --as-program: as a program, open the shim and let cuDNN load the
         * rest (its own search for its sub-libraries and engines is part of
         * what is proven), then open each library by its path. Otherwise the
         * sub-libraries by their paths first, then the shim. */
        as_program = as_program && shim != NULL;
        s.as_program = as_program;
        if (!as_program)
                load_libs(&s, lib_stem, lib_path, nlibs);
        if (shim != NULL)
                s.shim = load_lib("shim", shim, "cudnnGetVersion");
        size_call(&s, "cudnnGetVersion", "version");
        size_call(&s, "cudnnGetCudartVersion", "cudart_version");
        size_call(&s, "cudnnGetMaxDeviceVersion", "max_device_version");
        properties(&s);
        version_checks(&s);
        p = set_sym(&s, "cudnnCreate");
        memcpy(&create, &p, sizeof(create));
        p = set_sym(&s, "cudnnDestroy");
        memcpy(&destroy, &p, sizeof(destroy));
        if (create != NULL) {
                begin("cudnnCreate");
                r = create(&handle);
                end("cudnnCreate");
                created = r == 0 && handle != NULL;
                fact("create", dnn_code(&s, r));
        } else {
                cc_error err = {0};

                fact("create", cc_v_str("not-exported", &err));
        }
        modules("modules");
        if (gpu && created) {
                cc_gpuwork_env env;
                cc_error err = {0};

                if (cudart != NULL)
                        s.cudart = load_lib("gpu_cudart", cudart, "cudaMalloc");
                if (s.cudart != NULL) {
                        memset(&env, 0, sizeof(env));
                        env.cudnn_version = 0;
                        p = set_sym(&s, "cudnnGetVersion");
                        {
                                dnn_size_fn vf = NULL;

                                memcpy(&vf, &p, sizeof(vf));
                                if (vf != NULL)
                                        env.cudnn_version = (long)vf();
                        }
                        env.cudnn_major = s.major;
                        env.cudnn_sym = set_sym;
                        env.cudart_sym = rt_sym;
                        env.ctx = &s;
                        env.handle = handle;
                        env.seed = seed;
                        env.emit = gpu_emit;
                        env.begin = gpu_begin;
                        cc_gpuwork_run(&env, &err);
                        modules("modules_after_gpu");
                }
        }
        if (created && destroy != NULL) {
                begin("cudnnDestroy");
                destroy(handle);
                end("cudnnDestroy");
        }
        /* Then every library of the installation by its path, after what
         * was mapped has been listed: whether each loads at all (a file
         * the search never reached may not). */
        if (as_program)
                load_libs(&s, lib_stem, lib_path, nlibs);
        /* The libraries stay loaded until the child exits, as in a program. */
        return 0;
}

int cc_probe_child(int argc, char **argv)
{
        cc_error err = {0};
        cc_value *done;
        int rc = 2;

        if (argc < 1)
                return 2;
        chan = cc_probe_channel(&err);
        if (chan == NULL)
                return 3;
        if (strcmp(argv[0], "driver") == 0)
                rc = probe_driver();
        else if (strcmp(argv[0], "cudart") == 0)
                rc = probe_cudart(argc, argv);
        else if (strcmp(argv[0], "cudnn") == 0)
                rc = probe_cudnn(argc, argv);
        /* The report is complete: the last line. A library that ended the
         * process (exit(0) in a constructor) or closed our descriptor never
         * lets this through, and the parent then fails the probe whatever
         * the exit status says. */
        done = cc_v_object(&err);
        if (done != NULL && cc_v_set_str(done, "t", "done", &err) == 0)
                emit(done);
        else
                cc_v_free(done);
        /* A report that could not be written is not a success either. */
        return rc == 0 && ferror(chan) ? 3 : rc;
}
