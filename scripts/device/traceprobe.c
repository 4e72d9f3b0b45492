/* A plain program's use of cuDNN, as a user's program would use it, for
 * scripts/device/traces.sh: dlopen the library named on the command line
 * ("libcudnn.so.9", or a path) and let cuDNN load the rest itself, then
 * make it load its sub-libraries and engines: cudnnCreate, the four
 * version checks, an RNN descriptor, one legacy convolution on the GPU.
 * Prints KEY=VALUE lines (flushed, so a crash keeps what came before) and,
 * after each stage, the cuDNN files newly mapped (/proc/self/maps).
 *
 *   traceprobe LIBCUDNN LIBCUDART
 *
 * No cuDNN or CUDA header: the few entry points are declared here, with
 * cuDNN 9's enumerators (cudnn_graph.h, cudnn_cnn.h of 9.x). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int st_t; /* cudnnStatus_t, cudaError_t */

static void *lib, *rt;
static char seen[256][512];
static int nseen;

static void *sym(void *h, const char *name)
{
        void *p = dlsym(h, name);

        if (p == NULL)
                printf("missing=%s\n", name);
        return p;
}

/* The cuDNN files mapped now that were not before. */
static void maps(const char *stage)
{
        FILE *f = fopen("/proc/self/maps", "r");
        char line[1024];

        if (f == NULL)
                return;
        while (fgets(line, sizeof(line), f) != NULL) {
                char *path = strchr(line, '/');
                int i;

                if (path == NULL || strstr(path, "cudnn") == NULL)
                        continue;
                path[strcspn(path, "\n")] = '\0';
                for (i = 0; i < nseen; i++)
                        if (strcmp(seen[i], path) == 0)
                                break;
                if (i < nseen || nseen == 256)
                        continue;
                snprintf(seen[nseen++], sizeof(seen[0]), "%s", path);
                printf("mapped.%s=%s\n", stage, path);
        }
        fclose(f);
        fflush(stdout);
}

static const char *status_str(st_t s)
{
        const char *(*es)(st_t) = (const char *(*)(st_t))dlsym(lib, "cudnnGetErrorString");

        return es ? es(s) : "?";
}

static void report(const char *what, st_t s)
{
        printf("%s=%d %s\n", what, s, status_str(s));
        fflush(stdout);
}

int main(int argc, char **argv)
{
        size_t (*get_version)(void);
        st_t (*create)(void **), (*check)(void);
        static const char *const checks[] = {"cudnnGraphVersionCheck", "cudnnOpsVersionCheck", "cudnnCnnVersionCheck",
                                             "cudnnAdvVersionCheck"};
        void *h = NULL;
        size_t i;

        if (argc != 3) {
                fprintf(stderr, "usage: traceprobe LIBCUDNN LIBCUDART\n");
                return 2;
        }
        setvbuf(stdout, NULL, _IOLBF, 0);
        lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
        if (lib == NULL) {
                printf("dlopen=failed %s\n", dlerror());
                return 1;
        }
        maps("dlopen");
        get_version = (size_t(*)(void))sym(lib, "cudnnGetVersion");
        if (get_version != NULL)
                printf("version=%zu\n", get_version());
        create = (st_t(*)(void **))sym(lib, "cudnnCreate");
        if (create == NULL)
                return 1;
        report("cudnnCreate", create(&h));
        maps("create");
        for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
                check = (st_t(*)(void))sym(lib, checks[i]);
                if (check != NULL)
                        report(checks[i], check());
        }
        maps("checks");
        {
                st_t (*mk)(void **) = (st_t(*)(void **))sym(lib, "cudnnCreateRNNDescriptor");
                void *rnn = NULL;

                if (mk != NULL)
                        report("cudnnCreateRNNDescriptor", mk(&rnn));
                maps("rnn");
        }
        rt = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
        if (rt == NULL || h == NULL) {
                printf("convolution=not run (%s)\n", rt == NULL ? dlerror() : "no handle");
                return 0;
        }
        {
                st_t (*cmalloc)(void **, size_t) = (st_t(*)(void **, size_t))sym(rt, "cudaMalloc");
                st_t (*csync)(void) = (st_t(*)(void))sym(rt, "cudaDeviceSynchronize");
                st_t (*mk)(void **) = (st_t(*)(void **))sym(lib, "cudnnCreateTensorDescriptor");
                st_t (*set4)(void *, int, int, int, int, int, int) =
                    (st_t(*)(void *, int, int, int, int, int, int))sym(lib, "cudnnSetTensor4dDescriptor");
                st_t (*mkf)(void **) = (st_t(*)(void **))sym(lib, "cudnnCreateFilterDescriptor");
                st_t (*setf)(void *, int, int, int, int, int, int) =
                    (st_t(*)(void *, int, int, int, int, int, int))sym(lib, "cudnnSetFilter4dDescriptor");
                st_t (*mkc)(void **) = (st_t(*)(void **))sym(lib, "cudnnCreateConvolutionDescriptor");
                st_t (*setc)(void *, int, int, int, int, int, int, int, int) =
                    (st_t(*)(void *, int, int, int, int, int, int, int, int))sym(lib,
                                                                                 "cudnnSetConvolution2dDescriptor");
                st_t (*fwd)(void *, const void *, void *, const void *, void *, const void *, void *, int, void *,
                            size_t, const void *, void *, void *) =
                    (st_t(*)(void *, const void *, void *, const void *, void *, const void *, void *, int, void *,
                             size_t, const void *, void *, void *))sym(lib, "cudnnConvolutionForward");
                void *xd = NULL, *yd = NULL, *wd = NULL, *cd = NULL, *x = NULL, *y = NULL, *w = NULL;
                float one = 1.0f, zero = 0.0f;
                st_t s;

                if (!cmalloc || !csync || !mk || !set4 || !mkf || !setf || !mkc || !setc || !fwd) {
                        printf("convolution=not run (an entry point is missing)\n");
                        return 0;
                }
                s = cmalloc(&x, 64 * 4);
                if (s == 0)
                        s = cmalloc(&y, 36 * 4);
                if (s == 0)
                        s = cmalloc(&w, 9 * 4);
                if (s != 0) {
                        printf("cudaMalloc=%d\n", s);
                        return 0;
                }
                /* NCHW = 0, FLOAT = 0, CROSS_CORRELATION = 1, IMPLICIT_GEMM = 0 */
                if ((s = mk(&xd)) || (s = set4(xd, 0, 0, 1, 1, 8, 8)) || (s = mk(&yd)) ||
                    (s = set4(yd, 0, 0, 1, 1, 6, 6)) || (s = mkf(&wd)) || (s = setf(wd, 0, 0, 1, 1, 3, 3)) ||
                    (s = mkc(&cd)) || (s = setc(cd, 0, 0, 1, 1, 1, 1, 1, 0))) {
                        report("descriptors", s);
                        return 0;
                }
                report("cudnnConvolutionForward", fwd(h, &one, xd, x, wd, w, cd, 0, NULL, 0, &zero, yd, y));
                printf("cudaDeviceSynchronize=%d\n", csync());
                maps("conv");
        }
        return 0;
}
