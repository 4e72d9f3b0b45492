/* The version model: dotted versions, cuDNN's CUDNN_VERSION integers (whose
 * formula changed at 9), cuDNN 9's packed exported constants, CUDA's
 * CUDA_VERSION integers, and driver versions. */
#include "common.h"

#include <stdio.h>
#include <string.h>

int cudnnctl_ver_parse(const char *s, cudnnctl_ver *out)
{
        cudnnctl_ver v = {0};

        if (s == NULL)
                return -1;
        if (*s == 'v' || *s == 'V')
                s++;
        for (;;) {
                long x = 0;
                int digits = 0;

                while (*s >= '0' && *s <= '9') {
                        if (x > 99999999L)
                                return -1;
                        x = x * 10 + (*s - '0');
                        s++;
                        digits++;
                }
                if (digits == 0 || v.n == 4)
                        return -1;
                v.part[v.n++] = x;
                if (*s == '\0')
                        break;
                if (*s != '.')
                        return -1;
                s++;
        }
        *out = v;
        return 0;
}

int cudnnctl_ver_cmp(const cudnnctl_ver *a, const cudnnctl_ver *b)
{
        int i;

        for (i = 0; i < 4; i++) {
                long x = i < a->n ? a->part[i] : 0;
                long y = i < b->n ? b->part[i] : 0;

                if (x != y)
                        return x < y ? -1 : 1;
        }
        return 0;
}

long cudnnctl_cudnn_encode(int major, int minor, int patch)
{
        if (major >= 9)
                return major * 10000L + minor * 100L + patch;
        return major * 1000L + minor * 100L + patch;
}

int cudnnctl_cudnn_decode(long v, cudnnctl_ver *out)
{
        cudnnctl_ver r = {0};

        if (v >= 90000 && v < 1000000) {
                r.part[0] = v / 10000;
                r.part[1] = (v / 100) % 100;
                r.part[2] = v % 100;
        } else if (v >= 1000 && v < 9000) {
                r.part[0] = v / 1000;
                r.part[1] = (v / 100) % 10;
                r.part[2] = v % 100;
        } else {
                return -1;
        }
        r.n = 3;
        *out = r;
        return 0;
}

int cudnnctl_cudnn_decode_packed(uint32_t v, cudnnctl_ver *out)
{
        cudnnctl_ver r = {0};

        if ((v >> 24) != 0 || ((v >> 16) & 0xFF) == 0)
                return -1;
        r.part[0] = (long)((v >> 16) & 0xFF);
        r.part[1] = (long)((v >> 8) & 0xFF);
        r.part[2] = (long)(v & 0xFF);
        r.n = 3;
        *out = r;
        return 0;
}

long cudnnctl_cuda_encode(int major, int minor)
{
        return major * 1000L + minor * 10L;
}

int cudnnctl_cuda_decode(long v, cudnnctl_ver *out)
{
        cudnnctl_ver r = {0};

        if (v < 1000 || v >= 100000)
                return -1;
        r.part[0] = v / 1000;
        r.part[1] = (v % 1000) / 10;
        r.n = 2;
        *out = r;
        return 0;
}

const char *cudnnctl_ver_str(const cudnnctl_ver *v, char *buf, size_t size)
{
        size_t off = 0;
        int i;

        if (size == 0)
                return buf;
        buf[0] = '\0';
        if (v == NULL || v->n <= 0) {
                snprintf(buf, size, "unknown");
                return buf;
        }
        for (i = 0; i < v->n && i < 4; i++) {
                int n = snprintf(buf + off, size - off, i ? ".%ld" : "%ld", v->part[i]);

                if (n < 0 || (size_t)n >= size - off) {
                        buf[off] = '\0'; /* whole components only: never "9.1" for 9.19.0 */
                        break;
                }
                off += (size_t)n;
        }
        return buf;
}

const char *cudnnctl_version(void)
{
        return CUDNNCTL_VERSION_STRING;
}

int cudnnctl_have_archives(void)
{
        return CC_HAVE_LIBARCHIVE;
}

int cc_nvrm_version(const char *text, char *out, size_t n)
{
        const char *p = text ? strstr(text, "Kernel Module") : NULL;
        const char *eol;

        if (p == NULL || n == 0)
                return -1;
        p += 13;
        eol = strchr(p, '\n');
        /* "Kernel Module  580.65.06  Sun Jul 27 ..." or "Open Kernel Module for x86_64  580.159.04  Release Build ..."
         */
        while (*p && (eol == NULL || p < eol)) {
                const char *q = p;
                int dots = 0;

                while (*q == ' ' || *q == '\t')
                        q++;
                p = q;
                while (*q && *q != ' ' && *q != '\t' && *q != '\n') {
                        dots += *q == '.';
                        q++;
                }
                if (q > p && *p >= '0' && *p <= '9' && dots >= 1) {
                        size_t k = (size_t)(q - p), i;

                        for (i = 0; i < k; i++)
                                if (!((p[i] >= '0' && p[i] <= '9') || p[i] == '.'))
                                        break;
                        if (i == k && k < n) {
                                memcpy(out, p, k);
                                out[k] = '\0';
                                return 0;
                        }
                }
                if (q == p)
                        break;
                p = q;
        }
        return -1;
}
