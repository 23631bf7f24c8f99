/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one hex number reader of ptcompare: the command line, maps, iomem,
 * PCI addresses and resources, the kernel log's faults, ptwalk.ko's
 * absent_flags.  Digits only: no sign, no space, no "0x" (each caller
 * takes its own), unlike strtoull and sscanf.
 */
#ifndef PTCOMPARE_PARSE_HEX_H
#define PTCOMPARE_PARSE_HEX_H

#include <stddef.h>
#include <stdint.h>

/*
 * The hex digits at s, at most max of them (0: as many as there are),
 * into *out: the character after the last digit read, or NULL when there
 * is no digit or the value passes 64 bits.
 */
const char *hex_scan(const char *s, size_t max, uint64_t *out);

#endif /* PTCOMPARE_PARSE_HEX_H */
