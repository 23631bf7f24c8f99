/* SPDX-License-Identifier: GPL-2.0 */
/* The human-readable view: one line per record. */
#ifndef PTWALK_TEXT_H
#define PTWALK_TEXT_H

#include <linux/types.h>
#include "ptwalk_abi.h"

/* Longest line ptwalk_format_record() writes, every flag set included. */
#define PTWALK_TEXT_LINE_MAX	400

size_t ptwalk_format_header(char *buf, size_t size, pid_t pid, u64 start,
			    u64 end);
size_t ptwalk_format_usage(char *buf, size_t size);
size_t ptwalk_format_record(char *buf, size_t size,
			    const struct ptwalk_record *r);

#endif /* PTWALK_TEXT_H */
