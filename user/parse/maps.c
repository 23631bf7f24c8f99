// SPDX-License-Identifier: GPL-2.0
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "parse/hex.h"
#include "parse/maps.h"

#define DELETED_SUFFIX " (deleted)"

/*
 * Reads a hex number ending at stop; advances *p past stop.  Digits only
 * (strtoull would also take a "0x" after a leading 0, which the kernel
 * never prints), at most 64 bits of them.
 */
static bool hex_field(const char **p, char stop, uint64_t *out)
{
	const char *c = hex_scan(*p, 0, out);

	if (!c || *c != stop)
		return false;
	*p = c + 1;
	return true;
}

bool maps_parse_line(char *line, struct maps_entry *e)
{
	const char *p = line;
	uint64_t major, minor;
	size_t len = strlen(line);
	char *end;

	if (len && line[len - 1] == '\n')
		line[--len] = '\0';
	memset(e, 0, sizeof(*e));
	if (!hex_field(&p, '-', &e->start) || !hex_field(&p, ' ', &e->end) ||
	    e->start >= e->end)
		return false;
	if (strlen(p) < 5 || p[4] != ' ' || !strchr("r-", p[0]) ||
	    !strchr("w-", p[1]) || !strchr("x-", p[2]) || !strchr("ps", p[3]))
		return false;
	memcpy(e->perms, p, 4);
	p += 5;
	if (!hex_field(&p, ' ', &e->offset) || !hex_field(&p, ':', &major) ||
	    !hex_field(&p, ' ', &minor) || major > UINT_MAX || minor > UINT_MAX)
		return false;
	e->dev_major = (unsigned int)major;
	e->dev_minor = (unsigned int)minor;
	if (!isdigit((unsigned char)*p))
		return false;
	errno = 0;
	e->inode = strtoull(p, &end, 10);
	if (errno || (*end != ' ' && *end != '\0'))
		return false;
	p = end;
	while (*p == ' ')
		p++;
	e->name = p;
	len = strlen(p);
	e->deleted = len > strlen(DELETED_SUFFIX) &&
		     !strcmp(p + len - strlen(DELETED_SUFFIX), DELETED_SUFFIX);
	return true;
}

int maps_next_in(FILE *f, uint64_t start, uint64_t end, char **line,
		 size_t *size, struct maps_entry *e)
{
	while (getline(line, size, f) > 0) {
		if (!maps_parse_line(*line, e))
			return -1;
		if (e->start >= end)
			return 0;
		if (e->end > start)
			return 1;
	}
	return 0;
}
