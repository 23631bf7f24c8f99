// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "parse/proc_stat.h"

bool proc_stat_parse(const char *text, char *state, unsigned long *flags)
{
	const char *p = strrchr(text, ')');
	char *end;

	if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
		return false;
	*state = p[2];
	p += 3;
	/* ppid pgrp session tty_nr tpgid, then flags */
	for (int field = 0; field < 5; field++) {
		strtol(p, &end, 10);
		if (end == p || *end != ' ')
			return false;
		p = end;
	}
	*flags = strtoul(p, &end, 10);
	return end != p && (*end == ' ' || *end == '\n' || !*end);
}
