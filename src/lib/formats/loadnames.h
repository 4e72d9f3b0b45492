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

#endif
