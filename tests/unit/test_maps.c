// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "parse/maps.h"

static bool parse(const char *text, struct maps_entry *e, char *buf,
		  size_t size)
{
	strncpy(buf, text, size - 1);
	buf[size - 1] = '\0';
	return maps_parse_line(buf, e);
}

static void file_mapping(void **state)
{
	struct maps_entry e;
	char buf[256];

	(void)state;
	assert_true(parse("55d0c4a00000-55d0c4a02000 r-xp 00002000 fe:01 1234567                    /usr/bin/cat\n",
			  &e, buf, sizeof(buf)));
	assert_int_equal(e.start, 0x55d0c4a00000);
	assert_int_equal(e.end, 0x55d0c4a02000);
	assert_string_equal(e.perms, "r-xp");
	assert_int_equal(e.offset, 0x2000);
	assert_int_equal(e.dev_major, 0xfe);
	assert_int_equal(e.dev_minor, 1);
	assert_int_equal(e.inode, 1234567);
	assert_string_equal(e.name, "/usr/bin/cat");
	assert_false(e.deleted);
}

static void anonymous_and_special(void **state)
{
	struct maps_entry e;
	char buf[256];

	(void)state;
	assert_true(parse("7f0000000000-7f0000021000 rw-p 00000000 00:00 0 ",
			  &e, buf, sizeof(buf)));
	assert_string_equal(e.name, "");
	assert_true(parse("ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]",
			  &e, buf, sizeof(buf)));
	assert_int_equal(e.start, 0xffffffffff600000ULL);
	assert_string_equal(e.name, "[vsyscall]");
	assert_string_equal(e.perms, "--xp");
}

static void spaces_and_deleted(void **state)
{
	struct maps_entry e;
	char buf[256];

	(void)state;
	assert_true(parse("7f0000000000-7f0000001000 rw-s 00000000 00:05 77  /tmp/my file  with spaces (deleted)\n",
			  &e, buf, sizeof(buf)));
	assert_string_equal(e.name, "/tmp/my file  with spaces (deleted)");
	assert_true(e.deleted);
	assert_string_equal(e.perms, "rw-s");
}

static void very_long_line(void **state)
{
	size_t n = 20000;
	char *line = malloc(n + 64);
	struct maps_entry e;

	(void)state;
	assert_non_null(line);
	strcpy(line, "1000-2000 r--p 00000000 08:01 5 /");
	memset(line + strlen(line), 'a', n);
	line[33 + n] = '\0';
	assert_true(maps_parse_line(line, &e));
	assert_int_equal(strlen(e.name), n + 1);
	free(line);
}

static void malformed_lines(void **state)
{
	static const char *const bad[] = {
		"",
		"\n",
		"zz-2000 r--p 00000000 08:01 5",
		"2000-1000 r--p 00000000 08:01 5",
		"1000-1000 r--p 00000000 08:01 5",
		"1000 r--p 00000000 08:01 5",
		"1000-2000 rwxq 00000000 08:01 5",
		"1000-2000 r--p",
		"1000-2000 r--p 00000000 08:01",
		"1000-2000 r--p 00000000 0801 5",
		"1000-2000 r--p 00000000 08:01 x",
		"1000-2000 r--p 0000000g 08:01 5",
		"1000-20000000000000000000 r--p 00000000 08:01 5",
		/* one bit over 64 */
		"1000-10000000000000000 r--p 00000000 08:01 5",
		"1000-2000 r--p 00000000 08:01 5x /bin",
		/* device numbers wider than dev_major/dev_minor (fuzz_maps) */
		"1000-2000 r--p 00000000 00:14c77f000 5 /x",
		"1000-2000 r--p 00000000 100000008:01 5 /x",
		/* a "0x" strtoull would take (fuzz_maps) */
		"1000-2000 r--p 00000000 0x5:00 5 /x",
		"0x1000-2000 r--p 00000000 08:01 5 /x",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct maps_entry e;
		char buf[128];

		if (parse(bad[i], &e, buf, sizeof(buf)))
			fail_msg("accepted malformed line %zu: '%s'", i, bad[i]);
	}
}

/*
 * Only the VMAs a range touches are returned, and maps is read no further
 * than the first VMA past the range: the lines after it stay unread.
 */
static void next_in_range(void **state)
{
	static const char text[] =
		"00400000-00401000 r-xp 00000000 08:01 10 /bin/a\n"
		"00600000-00700000 rw-p 00000000 00:00 0 \n"
		"00700000-00800000 rw-p 00000000 00:00 0 [heap]\n"
		"00900000-00a00000 rw-p 00000000 00:00 0 \n"
		"not a maps line at all\n";
	char *line = NULL;
	size_t size = 0;
	struct maps_entry e;
	FILE *f;

	(void)state;
	/* [0x600800, 0x900000): the second and third VMAs */
	f = fmemopen((void *)text, sizeof(text) - 1, "r");
	assert_non_null(f);
	assert_int_equal(maps_next_in(f, 0x600800, 0x900000, &line, &size, &e), 1);
	assert_int_equal(e.start, 0x600000);
	assert_int_equal(maps_next_in(f, 0x600800, 0x900000, &line, &size, &e), 1);
	assert_string_equal(e.name, "[heap]");
	/* the fourth starts at the end: stop there, the bad line unread */
	assert_int_equal(maps_next_in(f, 0x600800, 0x900000, &line, &size, &e), 0);
	assert_int_equal(ftell(f), strstr(text, "not a maps") - text);
	fclose(f);
	/* the whole address space: every VMA, then the malformed line */
	f = fmemopen((void *)text, sizeof(text) - 1, "r");
	for (int i = 0; i < 4; i++)
		assert_int_equal(maps_next_in(f, 0, UINT64_MAX, &line, &size,
					      &e), 1);
	assert_int_equal(e.start, 0x900000);
	assert_int_equal(maps_next_in(f, 0, UINT64_MAX, &line, &size, &e), -1);
	assert_int_equal(maps_next_in(f, 0, UINT64_MAX, &line, &size, &e), 0);
	fclose(f);
	free(line);
}

UNIT_MAIN("maps", UT(file_mapping), UT(anonymous_and_special),
	  UT(spaces_and_deleted), UT(very_long_line), UT(malformed_lines),
	  UT(next_in_range))
