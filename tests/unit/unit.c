// SPDX-License-Identifier: GPL-2.0
/* The unit tests' shared helpers (unit.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"

void ut_contains(const char *file, int line, const char *text, ...)
{
	const char *want;
	va_list ap;

	va_start(ap, text);
	while ((want = va_arg(ap, const char *))) {
		if (text && strstr(text, want))
			continue;
		va_end(ap);
		print_error("missing \"%s\" in:\n%s\n", want,
			    text ? text : "(null)");
		_fail(file, line);
	}
	va_end(ap);
}

int temp_fd(const void *data, size_t len)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	if (len)
		assert_int_equal(fwrite(data, len, 1, f), 1);
	assert_int_equal(fflush(f), 0);
	return dup(fileno(f));
}

FILE *capture_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
	return c->f;
}

char *capture_close(struct capture *c)
{
	assert_int_equal(fclose(c->f), 0);
	c->f = NULL;
	return c->buf;
}
