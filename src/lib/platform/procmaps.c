/* The text of /proc/PID/maps and /proc/PID/cmdline, parsed. Pure string
 * work (no system call), built on every system so that the unit tests and
 * the Windows build check it too; posix_users.c reads the files. */
#include "platform.h"

#include <stdlib.h>
#include <string.h>

static int hexval(char c)
{
        if (c >= '0' && c <= '9')
                return c - '0';
        if (c >= 'a' && c <= 'f')
                return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
                return c - 'A' + 10;
        return -1;
}

/* A hexadecimal number of 1 to 16 digits at *i, ended by `end` (consumed). */
static int hex_field(const char *s, size_t len, size_t *i, char end, uint64_t *out)
{
        uint64_t v = 0;
        size_t n = 0;
        int d;

        while (*i < len && (d = hexval(s[*i])) >= 0) {
                if (++n > 16)
                        return -1;
                v = (v << 4) | (uint64_t)d;
                (*i)++;
        }
        if (n == 0 || *i >= len || s[*i] != end)
                return -1;
        (*i)++;
        *out = v;
        return 0;
}

int cc_procmap_parse(const char *line, size_t len, cc_procmap *out)
{
        static const char deleted[] = " (deleted)";
        const size_t dl = sizeof(deleted) - 1;
        uint64_t major, minor, ino = 0;
        size_t i = 0, k, nd = 0;

        memset(out, 0, sizeof(*out));
        if (line == NULL)
                return -1;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
                len--;
        if (hex_field(line, len, &i, '-', &out->start) < 0 || hex_field(line, len, &i, ' ', &out->end) < 0 ||
            out->end < out->start)
                return -1;
        if (len - i < 5 || line[i + 4] != ' ')
                return -1;
        for (k = 0; k < 4; k++) {
                static const char allowed[4][3] = {"r-", "w-", "x-", "ps"};
                char c = line[i + k];

                if (c == '\0' || strchr(allowed[k], c) == NULL)
                        return -1;
                out->perms[k] = c;
        }
        out->perms[4] = '\0';
        i += 5;
        if (hex_field(line, len, &i, ' ', &out->offset) < 0 || hex_field(line, len, &i, ':', &major) < 0 ||
            hex_field(line, len, &i, ' ', &minor) < 0 || major > 0xfffffffu || minor > 0xfffffffu)
                return -1;
        out->dev_major = (uint32_t)major;
        out->dev_minor = (uint32_t)minor;
        while (i < len && line[i] >= '0' && line[i] <= '9') {
                unsigned d = (unsigned)(line[i] - '0');

                if (++nd > 20 || ino > (UINT64_MAX - d) / 10)
                        return -1;
                ino = ino * 10 + d;
                i++;
        }
        if (nd == 0 || (i < len && line[i] != ' '))
                return -1;
        out->ino = ino;
        while (i < len && line[i] == ' ')
                i++;
        if (i == len)
                return 0; /* anonymous */
        for (k = i; k < len; k++)
                if (line[k] == '\0' || line[k] == '\n')
                        return -1; /* one line, and the kernel escapes a newline in a name */
        out->path = line + i;
        out->path_len = len - i;
        if (out->path_len > dl && memcmp(line + len - dl, deleted, dl) == 0) {
                out->deleted = 1;
                out->path_len -= dl;
        }
        return 0;
}

long cc_procmap_path(const cc_procmap *m, char *buf, size_t size)
{
        size_t i, o = 0;

        if (m->path == NULL || size == 0)
                return -1;
        for (i = 0; i < m->path_len; i++) {
                char c = m->path[i];

                /* the kernel writes a newline in a name as \012 and nothing else escaped */
                if (c == '\\' && m->path_len - i >= 4 && memcmp(m->path + i, "\\012", 4) == 0) {
                        c = '\n';
                        i += 3;
                }
                if (o + 1 >= size)
                        return -1;
                buf[o++] = c;
        }
        buf[o] = '\0';
        return (long)o;
}

char *cc_cmdline_join(const char *raw, size_t len, size_t max, cc_error *err)
{
        static const char more[] = "...";
        size_t n = len, i, keep;
        char *s;

        while (n > 0 && raw[n - 1] == '\0')
                n--;
        keep = n > max ? max : n;
        s = cc_malloc(err, keep + sizeof(more));
        if (s == NULL)
                return NULL;
        for (i = 0; i < keep; i++)
                s[i] = raw[i] == '\0' ? ' ' : raw[i];
        s[keep] = '\0';
        if (keep < n)
                memcpy(s + keep, more, sizeof(more));
        return s;
}
