// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "parse/lockdown.h"

static const char *const names[] = {
	[LOCKDOWN_UNKNOWN] = "unknown",
	[LOCKDOWN_NONE] = "none",
	[LOCKDOWN_INTEGRITY] = "integrity",
	[LOCKDOWN_CONFIDENTIALITY] = "confidentiality",
};

enum lockdown_mode lockdown_parse(const char *text)
{
	const char *open = strchr(text, '['), *close;
	size_t len;

	if (!open)
		return LOCKDOWN_UNKNOWN;
	close = strchr(++open, ']');
	if (!close)
		return LOCKDOWN_UNKNOWN;
	len = (size_t)(close - open);
	for (size_t m = LOCKDOWN_NONE; m < sizeof(names) / sizeof(names[0]); m++)
		if (strlen(names[m]) == len && !strncmp(open, names[m], len))
			return (enum lockdown_mode)m;
	return LOCKDOWN_UNKNOWN;
}

const char *lockdown_name(enum lockdown_mode mode)
{
	return names[mode];
}

int lockdown_active(enum lockdown_mode mode)
{
	return mode == LOCKDOWN_INTEGRITY || mode == LOCKDOWN_CONFIDENTIALITY;
}
