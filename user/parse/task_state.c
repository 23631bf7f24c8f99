// SPDX-License-Identifier: GPL-2.0
/* /proc's words about a process to stop: state, tracer, VFIO device. */
#include <stdlib.h>
#include <string.h>
#include "parse/task_state.h"

char task_stat_state(const char *line)
{
	const char *close = strrchr(line, ')');

	if (!close || close[1] != ' ' || !close[2] || close[2] == '\n')
		return '\0';
	return close[2];
}

bool task_state_stopped(char s)
{
	return s == 'T' || s == 't';
}

bool task_state_still(char s)
{
	return task_state_stopped(s) || s == 'Z' || s == 'X';
}

/* The value of "key:" at the start of a line of text, or NULL. */
static const char *line_value(const char *text, const char *key)
{
	size_t len = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!strncmp(p, key, len)) {
			p += len;
			while (*p == ' ' || *p == '\t')
				p++;
			return p;
		}
	return NULL;
}

pid_t task_status_tracer(const char *status)
{
	const char *v = line_value(status, "TracerPid:");
	char *end;
	long n;

	if (!v)
		return -1;
	n = strtol(v, &end, 10);
	if (end == v || n < 0 || (*end && *end != '\n'))
		return -1;
	return (pid_t)n;
}

bool fdinfo_is_vfio_device(const char *fdinfo, const char *bdf)
{
	const char *v = line_value(fdinfo, "vfio-device-syspath:");
	size_t len, blen = strlen(bdf);

	if (!v || !blen)
		return false;
	len = strcspn(v, "\n");
	return len > blen && v[len - blen - 1] == '/' &&
	       !strncmp(v + len - blen, bdf, blen);
}
