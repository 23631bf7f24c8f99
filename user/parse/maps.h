/* SPDX-License-Identifier: GPL-2.0 */
/* One line of /proc/PID/maps: pure parsing, no I/O, no allocation. */
#ifndef PTCOMPARE_MAPS_H
#define PTCOMPARE_MAPS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct maps_entry {
	uint64_t start;
	uint64_t end;		/* exclusive */
	uint64_t offset;
	uint64_t inode;
	unsigned int dev_major;
	unsigned int dev_minor;
	char perms[5];		/* "rwxp" */
	const char *name;	/* points into the parsed line; "" if none */
	bool deleted;		/* the file was unlinked ("(deleted)") */
};

/*
 * Parses one line (its trailing newline, if any, is removed in place).
 * Names may contain spaces and be arbitrarily long.  Returns false for a
 * malformed line.
 */
bool maps_parse_line(char *line, struct maps_entry *e);

/*
 * The next VMA of maps f that ends after start, parsed into *e over
 * *line (getline()'s buffer and *size): 1; 0 at the end of f, or at a
 * VMA that starts at or past end, whose successors (maps is in address
 * order) lie past it too, so f is read no further; -1 for a malformed
 * line (left in *line).  For a --range low in a process of many VMAs the
 * rest of maps is neither formatted by the kernel nor parsed.
 */
int maps_next_in(FILE *f, uint64_t start, uint64_t end, char **line,
		 size_t *size, struct maps_entry *e);

#endif /* PTCOMPARE_MAPS_H */
