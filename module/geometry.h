/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The geometry file (PTWALK_GEOMETRY_FILE, ptwalk_abi.h): the kernel's page
 * size, what a leaf of each level and a contiguous group map, and how many
 * levels the page tables use, as one line for debugfs and sysfs alike.
 */
#ifndef PTWALK_GEOMETRY_H
#define PTWALK_GEOMETRY_H

#include <linux/types.h>

/* Formats the line, newline included, into @buf; returns its length. */
int ptwalk_format_geometry(char *buf, size_t size);

#endif /* PTWALK_GEOMETRY_H */
