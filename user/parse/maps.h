/* SPDX-License-Identifier: GPL-2.0 */
/* One line of /proc/PID/maps: pure parsing, no I/O, no allocation. */
#ifndef PTCOMPARE_MAPS_H
#define PTCOMPARE_MAPS_H

#include <stdbool.h>
#include <stdint.h>

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

#endif /* PTCOMPARE_MAPS_H */
