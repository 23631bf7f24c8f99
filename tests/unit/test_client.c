// SPDX-License-Identifier: GPL-2.0
/* Pure helpers over record arrays, and the shared record formatting. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "../../user/ptwalk_client.h"
#include "../../user/record_text.h"

static const struct ptwalk_record recs[] = {
	{ .start = 0x1000, .nr_pages = 2, .pfn = 0x500, .kind = 1, .level = 1 },
	{ .start = 0x3000, .nr_pages = 512, .pfn = PTWALK_PFN_NONE },
	{ .start = 0x203000, .nr_pages = 1, .pfn = 0x900, .kind = 1, .level = 1 },
};

static void find_covers_boundaries(void **state)
{
	(void)state;
	assert_null(ptwalk_find(recs, 3, 0x0));
	assert_ptr_equal(ptwalk_find(recs, 3, 0x1000), &recs[0]);
	assert_ptr_equal(ptwalk_find(recs, 3, 0x2fff), &recs[0]);
	assert_ptr_equal(ptwalk_find(recs, 3, 0x3000), &recs[1]);
	assert_ptr_equal(ptwalk_find(recs, 3, 0x202fff), &recs[1]);
	assert_ptr_equal(ptwalk_find(recs, 3, 0x203000), &recs[2]);
	assert_null(ptwalk_find(recs, 3, 0x204000));
	assert_null(ptwalk_find(recs, 0, 0x1000));
}

static void pfn_at_advances_per_page(void **state)
{
	(void)state;
	assert_int_equal(ptwalk_pfn_at(&recs[0], 0x1000), 0x500);
	assert_int_equal(ptwalk_pfn_at(&recs[0], 0x2abc), 0x501);
	assert_true(ptwalk_pfn_at(&recs[1], 0x4000) == PTWALK_PFN_NONE);
}

static void partition_ok_and_broken(void **state)
{
	struct ptwalk_record gap[3], empty[3];
	char why[128];

	(void)state;
	assert_true(ptwalk_check_partition(recs, 3, 0x1000, 0x204000, why,
					   sizeof(why)));
	assert_false(ptwalk_check_partition(recs, 3, 0x0, 0x204000, why,
					    sizeof(why)));
	assert_non_null(strstr(why, "record 0 starts at 0x1000"));
	assert_false(ptwalk_check_partition(recs, 3, 0x1000, 0x205000, why,
					    sizeof(why)));
	assert_non_null(strstr(why, "records end at 0x204000"));
	memcpy(gap, recs, sizeof(gap));
	gap[2].start += 0x1000;
	assert_false(ptwalk_check_partition(gap, 3, 0x1000, 0x205000, why,
					    sizeof(why)));
	memcpy(empty, recs, sizeof(empty));
	empty[1].nr_pages = 0;
	assert_false(ptwalk_check_partition(empty, 3, 0x1000, 0x204000, why,
					    sizeof(why)));
	assert_non_null(strstr(why, "empty"));
	/*
	 * 2^52 pages more: the end address wraps around to the same value
	 * (fuzz_record); so does one record covering the whole range and more.
	 */
	memcpy(gap, recs, sizeof(gap));
	gap[1].nr_pages += 1ULL << 52;
	assert_false(ptwalk_check_partition(gap, 3, 0x1000, 0x204000, why,
					    sizeof(why)));
	assert_non_null(strstr(why, "record 1 ("));
	assert_non_null(strstr(why, "runs past 0x204000"));
	assert_false(ptwalk_check_partition(recs, 3, 0x1000, 0x3000, why,
					    sizeof(why)));
	assert_non_null(strstr(why, "record 1 (512 pages at 0x3000) runs past 0x3000"));
}

static void format_present_and_swap(void **state)
{
	struct ptwalk_record r = {
		.start = 0x7f0000000000, .nr_pages = 512, .pfn = 0x12a400,
		.level = PTWALK_LEVEL_PMD, .kind = PTWALK_KIND_PRESENT,
		.flags = PTWALK_F_PRESENT | PTWALK_F_WRITE | PTWALK_F_PFN_VALID,
		.vm_flags = PTWALK_VM_READ | PTWALK_VM_HUGEPAGE,
	};
	char buf[512];

	(void)state;
	format_record(buf, sizeof(buf), &r);
	assert_string_equal(buf,
		"0x7f0000000000-0x7f0000200000      512 pmd  present   pfn=0x12a400 present,write,pfn_valid vm=read,hugepage");
	r.pfn = PTWALK_PFN_NONE;
	r.kind = PTWALK_KIND_SWAP;
	r.level = PTWALK_LEVEL_PTE;
	r.swap_type = 1;
	r.swap_offset = 0x42;
	r.flags = 0;
	r.vm_flags = 0;
	format_record(buf, sizeof(buf), &r);
	assert_non_null(strstr(buf, "pte  swap      type=1 offset=0x42 - vm=-"));
}

static void format_truncates_safely(void **state)
{
	struct ptwalk_record r = {
		.start = 0x1000, .nr_pages = 1, .pfn = 1, .kind = 1,
		.flags = 0x7fff, .vm_flags = 0x3ffff,
	};
	char buf[40];
	size_t len;

	(void)state;
	memset(buf, 'x', sizeof(buf));
	len = format_record(buf, sizeof(buf), &r);
	assert_true(len < sizeof(buf));
	assert_int_equal(strlen(buf), len);
}

static const char *no_names(unsigned int bit)
{
	(void)bit;
	return NULL;
}

static void unnamed_bits_are_skipped(void **state)
{
	char buf[16];

	(void)state;
	format_flag_names(buf, sizeof(buf), ~0ULL, no_names);
	assert_string_equal(buf, "-");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(find_covers_boundaries),
		cmocka_unit_test(pfn_at_advances_per_page),
		cmocka_unit_test(partition_ok_and_broken),
		cmocka_unit_test(format_present_and_swap),
		cmocka_unit_test(format_truncates_safely),
		cmocka_unit_test(unnamed_bits_are_skipped),
	};

	return cmocka_run_group_tests_name("client", tests, NULL, NULL);
}
