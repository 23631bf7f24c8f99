// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "unit.h"
#include "report/progress.h"

#define MS 1000000ULL
#define T0 (5000 * MS)		/* the clock does not start at 0 */

/* A progress line on a terminal, its scan started at T0. */
static struct progress started(void)
{
	struct progress p;

	progress_init(&p, true, T0);
	return p;
}

static void wanted(void **state)
{
	(void)state;
	assert_true(progress_wanted(true, false));
	assert_false(progress_wanted(false, false));	/* a pipe, a file */
	assert_false(progress_wanted(true, true));	/* --no-progress */
	assert_false(progress_wanted(false, true));
}

/* Nothing in the first second; then at most one line per interval. */
static void delay_and_throttle(void **state)
{
	struct progress p = started();
	char buf[128];

	(void)state;
	assert_false(progress_due(&p, T0));
	assert_false(progress_due(&p, T0 + 999 * MS));
	assert_true(progress_due(&p, T0 + 1000 * MS));
	assert_true(progress_line(&p, T0 + 1000 * MS, buf, sizeof(buf)) > 0);
	assert_false(progress_due(&p, T0 + 1100 * MS));
	assert_false(progress_due(&p, T0 + 1249 * MS));
	assert_true(progress_due(&p, T0 + 1250 * MS));

	progress_init(&p, false, T0);			/* disabled: never */
	assert_false(progress_due(&p, T0 + 60000 * MS));
}

static void line_text(void **state)
{
	struct progress p = started();
	char buf[128];
	size_t n;

	(void)state;
	p.total_pages = 262144;
	p.total_vmas = 16;
	p.pages = 131072;
	p.vmas = 3;
	n = progress_line(&p, T0 + 2345 * MS, buf, sizeof(buf));
	assert_string_equal(buf,
		"\rptcompare: 131072 of 262144 pages (50%), 3 of 16 VMAs, 2.3 s");
	assert_int_equal(n, strlen(buf));
	assert_int_equal(p.width, n - 1);

	/* past a total that the process outgrew: counts only */
	p.pages = 300000;
	p.vmas = 17;
	progress_line(&p, T0 + 3000 * MS, buf, sizeof(buf));
	assert_int_equal(strncmp(buf, "\rptcompare: 300000 pages, 17 VMAs, 3.0 s ",
				 strlen("\rptcompare: 300000 pages, 17 VMAs, 3.0 s ")), 0);
}

/* --all counts processes: "N of M processes", the pages beside. */
static void processes_text(void **state)
{
	struct progress p = started();
	char buf[128];

	(void)state;
	p.total_procs = 230;
	p.procs = 23;
	p.pages = 5000;
	progress_line(&p, T0 + 1500 * MS, buf, sizeof(buf));
	assert_string_equal(buf,
		"\rptcompare: 23 of 230 processes (10%), 5000 pages, 1.5 s");
}

/* A shorter line blanks what the longer one left behind. */
static void shorter_line_pads(void **state)
{
	struct progress p = started();
	char buf[128];

	(void)state;
	p.pages = 123456789;
	progress_line(&p, T0 + 1500 * MS, buf, sizeof(buf));
	assert_string_equal(buf, "\rptcompare: 123456789 pages, 0 VMAs, 1.5 s");
	/* the next, shorter, line is as long: padded with blanks */
	p.pages = 5;
	assert_int_equal(progress_line(&p, T0 + 2000 * MS, buf, sizeof(buf)),
			 strlen("\rptcompare: 123456789 pages, 0 VMAs, 1.5 s"));
	assert_string_equal(buf, "\rptcompare: 5 pages, 0 VMAs, 2.0 s        ");
	assert_int_equal(p.width, strlen("ptcompare: 5 pages, 0 VMAs, 2.0 s"));
}

static void clear(void **state)
{
	struct progress p = started();
	char buf[128];

	(void)state;
	assert_int_equal(progress_clear(&p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");		/* nothing drawn: nothing */
	p.pages = 7;
	progress_line(&p, T0 + 1000 * MS, buf, sizeof(buf));
	assert_int_equal(progress_clear(&p, buf, sizeof(buf)),
			 strlen("ptcompare: 7 pages, 0 VMAs, 1.0 s") + 2);
	assert_int_equal(buf[0], '\r');
	assert_int_equal(buf[strlen(buf) - 1], '\r');
	assert_int_equal(strspn(buf + 1, " "), strlen(buf) - 2);
	assert_int_equal(progress_clear(&p, buf, sizeof(buf)), 0);
	/* the next line after a clear is due at once, without padding */
	assert_true(progress_due(&p, T0 + 1001 * MS));
}

/* A buffer too small never gets a cut line. */
static void small_buffer(void **state)
{
	struct progress p = started();
	char buf[8];

	(void)state;
	assert_int_equal(progress_line(&p, T0 + 1000 * MS, buf, sizeof(buf)), 0);
	assert_int_equal(p.width, 0);
}

UNIT_MAIN("progress", UT(wanted), UT(delay_and_throttle), UT(line_text),
	  UT(processes_text),
	  UT(shorter_line_pads), UT(clear), UT(small_buffer))
