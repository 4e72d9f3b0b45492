/* bench/sha256.sh's driver, compiled by the script itself against
 * src/lib/formats/sha256.c: hashes FILE with the library's SHA-256 and prints
 * "DIGEST  FILE" as sha256sum does, so that the script can time it against
 * sha256sum on the same data and check that the digests agree.
 * usage: sha256_bench [--portable] FILE   (--portable: the portable compression even where SHA-NI is there)
 *        sha256_bench --which [--portable]  (prints the compression that would be used) */
#include "formats/sha256.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
        static unsigned char buf[1 << 20]; /* reads of 1 MiB, as the install's staging writes */
        const char *path = NULL, *which;
        int portable = 0, only_which = 0, i;
        cc_sha256 h;
        char hex[65];
        size_t n;
        FILE *f;

        for (i = 1; i < argc; i++) {
                if (strcmp(argv[i], "--portable") == 0)
                        portable = 1;
                else if (strcmp(argv[i], "--which") == 0)
                        only_which = 1;
                else
                        path = argv[i];
        }
        which = cc_sha256_force_portable(portable);
        if (only_which) {
                puts(which);
                return 0;
        }
        if (path == NULL) {
                fprintf(stderr, "usage: sha256_bench [--portable] FILE | --which [--portable]\n");
                return 2;
        }
        f = fopen(path, "rb");
        if (f == NULL) {
                perror(path);
                return 1;
        }
        cc_sha256_init(&h);
        while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
                cc_sha256_update(&h, buf, n);
        if (ferror(f)) {
                perror(path);
                fclose(f);
                return 1;
        }
        fclose(f);
        cc_sha256_final_hex(&h, hex);
        printf("%s  %s\n", hex, path);
        return 0;
}
