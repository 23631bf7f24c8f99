// SPDX-License-Identifier: GPL-2.0
/* Bit sets by name (model/flag_names.h): the walk and the text list. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "unit.h"
#include "engine/compare.h"
#include "engine/kpageflags.h"
#include "model/flag_names.h"
#include "module/ptwalk_names.h"

static const char *no_names(unsigned int bit)
{
	(void)bit;
	return NULL;
}

static const char *even_names(unsigned int bit)
{
	static const char *const names[] = { "b0", NULL, "b2", NULL, "b4" };

	return bit < 5 ? names[bit] : bit == 63 ? "b63" : NULL;
}

/* Named set bits in order, unnamed ones skipped, up to bit 63. */
static void next_walks_named_bits(void **state)
{
	unsigned int bit = 0;

	(void)state;
	assert_string_equal(flag_names_next(0x1fULL | 1ULL << 63, even_names,
					    &bit), "b0");
	assert_int_equal(bit, 1);
	assert_string_equal(flag_names_next(0x1fULL | 1ULL << 63, even_names,
					    &bit), "b2");
	assert_string_equal(flag_names_next(0x1fULL | 1ULL << 63, even_names,
					    &bit), "b4");
	assert_string_equal(flag_names_next(0x1fULL | 1ULL << 63, even_names,
					    &bit), "b63");
	assert_null(flag_names_next(0x1fULL | 1ULL << 63, even_names, &bit));
	bit = 0;
	assert_null(flag_names_next(~0ULL, no_names, &bit));
	assert_int_equal(bit, 64);
}

static void join_record_flags(void **state)
{
	char buf[512];

	(void)state;
	flag_names_join(buf, sizeof(buf), PTWALK_F_PRESENT | PTWALK_F_WRITE |
			PTWALK_F_PFN_VALID, ptwalk_flag_name, "-");
	assert_string_equal(buf, "present,write,pfn_valid");
	flag_names_join(buf, sizeof(buf), PTWALK_VM_READ | PTWALK_VM_HUGEPAGE,
			ptwalk_vm_flag_name, "-");
	assert_string_equal(buf, "read,hugepage");
	flag_names_join(buf, sizeof(buf), 0, ptwalk_vm_flag_name, "-");
	assert_string_equal(buf, "-");
	flag_names_join(buf, sizeof(buf), HUGE_THP | HUGE_HUGETLB_1G,
			huge_kind_name, "-");
	assert_string_equal(buf, "thp,hugetlb-1G");
	/* kpageflags shows only KPF_SHOWN, and nothing as nothing */
	assert_string_equal(kpf_format(buf, sizeof(buf), KPF(MMAP) |
				       KPF(LRU) | KPF(ANON)), "mmap,anon");
	assert_string_equal(kpf_format(buf, sizeof(buf), KPF(LRU)), "");
}

static void unnamed_bits_are_skipped(void **state)
{
	char buf[16];

	(void)state;
	flag_names_join(buf, sizeof(buf), ~0ULL, no_names, "-");
	assert_string_equal(buf, "-");
}

/* A small buffer holds a terminated prefix, and the length says so. */
static void join_truncates_safely(void **state)
{
	char full[512], buf[12];
	size_t len;

	(void)state;
	flag_names_join(full, sizeof(full), 0x7fff, ptwalk_flag_name, "-");
	memset(buf, 'x', sizeof(buf));
	len = flag_names_join(buf, sizeof(buf), 0x7fff, ptwalk_flag_name, "-");
	assert_true(len < sizeof(buf));
	assert_int_equal(strlen(buf), len);
	assert_memory_equal(buf, full, len);
	assert_int_equal(flag_names_join(buf, 0, 0x7fff, ptwalk_flag_name, "-"),
			 0);
}

/*
 * Every enum ptwalk_memtype has its one name (x86's cache modes, arm64's
 * MT_* attributes from 16 on, riscv64's PBMT from 24 on); none, the gap between and past the end have
 * none, so the JSON says null.
 */
static void memtype_names(void **state)
{
	static const struct { unsigned int t; const char *name; } names[] = {
		{ PTWALK_MEMTYPE_WB, "wb" }, { PTWALK_MEMTYPE_WC, "wc" },
		{ PTWALK_MEMTYPE_WT, "wt" }, { PTWALK_MEMTYPE_WP, "wp" },
		{ PTWALK_MEMTYPE_UC, "uc" }, { PTWALK_MEMTYPE_UC_MINUS, "uc-" },
		{ PTWALK_MEMTYPE_NORMAL, "normal" },
		{ PTWALK_MEMTYPE_NORMAL_TAGGED, "normal-tagged" },
		{ PTWALK_MEMTYPE_NORMAL_NC, "normal-nc" },
		{ PTWALK_MEMTYPE_DEVICE_NGNRNE, "device-ngnrne" },
		{ PTWALK_MEMTYPE_DEVICE_NGNRE, "device-ngnre" },
		{ PTWALK_MEMTYPE_PMA, "pma" }, { PTWALK_MEMTYPE_NC, "nc" },
		{ PTWALK_MEMTYPE_IO, "io" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_string_equal(ptwalk_memtype_name(names[i].t),
				    names[i].name);
	assert_int_equal(PTWALK_MEMTYPE_NORMAL, 16);
	assert_int_equal(PTWALK_MEMTYPE_DEVICE_NGNRE, 20);
	assert_null(ptwalk_memtype_name(PTWALK_MEMTYPE_NONE));
	for (unsigned int t = PTWALK_MEMTYPE_UC_MINUS + 1;
	     t < PTWALK_MEMTYPE_NORMAL; t++)
		assert_null(ptwalk_memtype_name(t));
	for (unsigned int t = PTWALK_MEMTYPE_DEVICE_NGNRE + 1;
	     t < PTWALK_MEMTYPE_PMA; t++)
		assert_null(ptwalk_memtype_name(t));
	assert_int_equal(PTWALK_MEMTYPE_PMA, 24);
	assert_int_equal(PTWALK_MEMTYPE_IO, 26);
	assert_null(ptwalk_memtype_name(PTWALK_MEMTYPE_IO + 1));
	assert_null(ptwalk_memtype_name(255));
}

UNIT_MAIN("flag_names", UT(next_walks_named_bits), UT(join_record_flags),
	  UT(unnamed_bits_are_skipped), UT(join_truncates_safely), UT(memtype_names))
