/* Fuzz target: the extraction model of archive members (inspect/archmodel.h).
 * The input is a member list, one member a line:
 *
 *   <type><mode> <name>[\t<link>]
 *
 * type: f file, d directory, l symbolic link, h hard link, c character
 * device, b block device, p FIFO, s socket, anything else an unknown type;
 * mode: up to four octal digits (none: no mode); name and link: any bytes
 * but '\t' and '\n' (NUL included). tests/fixtures/gen-hostile-archives.py
 * writes the member lists of its hostile archives this way as seeds.
 * Checked: every member gets a verdict, unsafe ones a one-line reason, safe
 * ones none, and the reasons are valid UTF-8 when the input is. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/archmodel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_MEMBERS 4096

static int type_of(uint8_t c)
{
        switch (c) {
        case 'f':
                return CC_AM_FILE;
        case 'd':
                return CC_AM_DIR;
        case 'l':
                return CC_AM_SYMLINK;
        case 'h':
                return CC_AM_HARDLINK;
        case 'c':
                return CC_AM_CHARDEV;
        case 'b':
                return CC_AM_BLOCKDEV;
        case 'p':
                return CC_AM_FIFO;
        case 's':
                return CC_AM_SOCKET;
        default:
                return CC_AM_OTHER;
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        cc_am_member *ms = calloc(MAX_MEMBERS, sizeof(*ms));
        cc_am_verdict *v = NULL;
        cc_error err = {0};
        size_t n = 0, i = 0, k, unsafe = 0;
        int utf8 = cc_utf8_valid((const char *)data, size);

        if (ms == NULL)
                return 0;
        while (i < size && n < MAX_MEMBERS) {
                size_t end = i, tab;
                cc_am_member *m = &ms[n++];

                while (end < size && data[end] != '\n')
                        end++;
                m->type = type_of(data[i++]);
                m->size = -1;
                for (k = 0; k < 4 && i < end && data[i] >= '0' && data[i] <= '7'; k++, i++) {
                        m->mode = (m->mode << 3) | (uint32_t)(data[i] - '0');
                        m->has_mode = 1;
                }
                if (i < end && data[i] == ' ')
                        i++;
                for (tab = i; tab < end && data[tab] != '\t'; tab++)
                        ;
                m->name = (const char *)data + i;
                m->name_len = tab - i;
                if (tab < end) {
                        m->link = (const char *)data + tab + 1;
                        m->link_len = end - tab - 1;
                }
                /* the type byte may take the lead byte of a character: the
                 * input valid UTF-8 and a name not */
                if (!cc_utf8_valid(m->name, m->name_len) || (m->link && !cc_utf8_valid(m->link, m->link_len)))
                        utf8 = 0;
                i = end + 1;
        }
        if (cc_archive_judge(ms, n, &v, &err) == 0) {
                for (k = 0; k < n; k++) {
                        if ((v[k].problems == 0) != (v[k].reason == NULL))
                                abort();
                        if (v[k].reason == NULL)
                                continue;
                        unsafe++;
                        if (strchr(v[k].reason, '\n') != NULL)
                                abort();
                        if (utf8 && !cc_utf8_valid(v[k].reason, strlen(v[k].reason)))
                                abort();
                }
                cc_am_verdicts_free(v, n);
        }
        free(ms);
        return unsafe > n;
}
