/* A plain driver for the fuzz targets: runs LLVMFuzzerTestOneInput over every
 * file named on the command line, and over every file in named directories,
 * plus prefixes and bit flips of each (a cheap mutation pass that is the same
 * on every run). Exits non-zero if no input was found. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t ninputs;

static void run_bytes(const uint8_t *data, size_t size)
{
        uint8_t *copy;
        size_t i, cut;

        copy = malloc(size ? size : 1);
        if (copy == NULL)
                return;
        memcpy(copy, data, size);
        LLVMFuzzerTestOneInput(copy, size);
        /* truncations */
        for (cut = 0; cut < size; cut = cut ? cut * 2 : 1) {
                uint8_t *p = malloc(cut ? cut : 1);

                if (p == NULL)
                        break;
                memcpy(p, data, cut);
                LLVMFuzzerTestOneInput(p, cut);
                free(p);
        }
        /* deterministic byte corruption over the first 4 KiB */
        for (i = 0; i < size && i < 4096; i += 7) {
                uint8_t old = copy[i];

                copy[i] = (uint8_t)(old ^ 0xFF);
                LLVMFuzzerTestOneInput(copy, size);
                copy[i] = 0x7F;
                LLVMFuzzerTestOneInput(copy, size);
                copy[i] = old;
        }
        free(copy);
}

static void run_file(const char *path)
{
        FILE *f = fopen(path, "rb");
        uint8_t *buf = NULL;
        size_t size = 0, cap = 0, n;

        if (f == NULL)
                return;
        for (;;) {
                if (size == cap) {
                        uint8_t *p;

                        cap = cap ? cap * 2 : 65536;
                        if (cap > ((size_t)64 << 20))
                                break;
                        p = realloc(buf, cap);
                        if (p == NULL)
                                break;
                        buf = p;
                }
                n = fread(buf + size, 1, cap - size, f);
                if (n == 0)
                        break;
                size += n;
        }
        fclose(f);
        run_bytes(buf, size);
        free(buf);
        ninputs++;
}

static void run_path(const char *path, int depth)
{
        struct stat st;
        DIR *d;
        struct dirent *de;

        if (stat(path, &st) < 0)
                return;
        if (S_ISREG(st.st_mode)) {
                run_file(path);
                return;
        }
        if (!S_ISDIR(st.st_mode) || depth > 4)
                return;
        d = opendir(path);
        if (d == NULL)
                return;
        while ((de = readdir(d)) != NULL) {
                char sub[4096];

                if (de->d_name[0] == '.')
                        continue;
                snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
                run_path(sub, depth + 1);
        }
        closedir(d);
}

int main(int argc, char **argv)
{
        int i;

        for (i = 1; i < argc; i++)
                run_path(argv[i], 0);
        printf("%zu inputs run\n", ninputs);
        return ninputs ? 0 : 1;
}
