/* The release a cuDNN 9 library names the libraries it loads by: cuDNN's
 * shim asks for libcudnn_graph.so.MAJOR.MINOR.PATCH of its own release,
 * whatever its file is called (loadnames.c says how it is read). Pure: no
 * I/O, every read checked against the buffer. */
#ifndef CC_FORMATS_LOADNAMES_H
#define CC_FORMATS_LOADNAMES_H

#include <stddef.h>
#include <stdint.h>

#include "elf.h"

/* 0 and out = {major, minor, patch} when the x86-64 code of the ELF image
 * (parsed as e) formats "%s.%d.%d.%d" with constants, the same at every
 * such call; -1 otherwise (another machine, no such call, constants not
 * read or not agreeing). */
int cc_elf_load_release(const cc_elf *e, const uint8_t *data, size_t size, int out[3]);
/* Each x86-64 `lea r64, [rip + disp32]` (REX.W 0x48/0x4c, 0x8d, modrm 00
 * reg 101) in seg (n bytes, mapped at vaddr) that loads target, the offset
 * of its 0x8d byte to hit in increasing order (its REX byte before it, its
 * disp32 after the modrm inside seg). -1 as soon as hit gives -1, else 0. */
int cc_lea_rip_scan(const uint8_t *seg, size_t n, uint64_t vaddr, uint64_t target, int (*hit)(void *ctx, size_t at),
                    void *ctx);

#endif
