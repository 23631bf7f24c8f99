// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "io/lockdown_state.h"

enum lockdown_mode lockdown_read(const char *path)
{
	char text[128];
	FILE *f = fopen(path, "re");
	enum lockdown_mode mode = LOCKDOWN_UNKNOWN;

	if (!f)
		return mode;
	if (fgets(text, sizeof(text), f))
		mode = lockdown_parse(text);
	fclose(f);
	return mode;
}
