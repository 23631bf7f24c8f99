// SPDX-License-Identifier: GPL-2.0
/* ptwalk.ko's geometry line (parse/geometry.h). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "unit.h"
#include "geom.h"
#include "parse/geometry.h"

static void assert_geom_equal(const struct page_geom *a,
			      const struct page_geom *b)
{
	assert_int_equal(a->shift, b->shift);
	assert_int_equal(a->levels, b->levels);
	for (int l = 0; l < 4; l++) {
		assert_int_equal(a->leaf[l], b->leaf[l]);
		assert_int_equal(a->cont[l], b->cont[l]);
	}
}

/* The lines the module writes on each kernel of the matrix. */
static void module_lines(void **state)
{
	static const struct {
		const char *line;
		struct page_geom (*want)(void);
	} cases[] = {
		{ "page_size=4096 levels=4 pte=4096 cont_pte=0 pmd=2097152 cont_pmd=0 pud=1073741824\n",
		  ut_geom_x86 },
		{ "page_size=4096 levels=4 pte=4096 cont_pte=65536 pmd=2097152 cont_pmd=33554432 pud=1073741824\n",
		  ut_geom_arm64_4k },
		{ "page_size=16384 levels=4 pte=16384 cont_pte=2097152 pmd=33554432 cont_pmd=1073741824 pud=0\n",
		  ut_geom_arm64_16k },
		{ "page_size=65536 levels=3 pte=65536 cont_pte=2097152 pmd=536870912 cont_pmd=17179869184 pud=0\n",
		  ut_geom_arm64_64k },
	};
	char why[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct page_geom g, want = cases[i].want();

		assert_int_equal(geom_parse(cases[i].line, &g, why, sizeof(why)), 0);
		assert_geom_equal(&g, &want);
		assert_true(g.from_module);
	}
}

/* Later modules may add keys: ignored, as the ABI promises. */
static void unknown_keys_ignored(void **state)
{
	struct page_geom g, want = ut_geom_arm64_16k();
	char why[256];

	(void)state;
	assert_int_equal(geom_parse("cont_pud=0 page_size=16384 levels=4 pte=16384 cont_pte=2097152 pmd=33554432 frobs=7 cont_pmd=1073741824 pud=0",
				    &g, why, sizeof(why)), 0);
	assert_geom_equal(&g, &want);
}

static void bad_lines(void **state)
{
	static const struct {
		const char *line, *needle;
	} cases[] = {
		{ "", "page_size, pte and pmd" },
		{ "page_size=4096 pte=4096", "page_size, pte and pmd" },
		{ "page_size=4096 pte=16384 pmd=2097152", "page_size, pte and pmd" },
		{ "page_size=12288 pte=12288 pmd=2097152", "page_size, pte and pmd" },
		{ "page_size=4096 pte=4096 pmd=2097152 pud=3", "not a power of two" },
		{ "page_size=4096 pte=4096 pmd=2097152 cont_pte=6", "not a power of two" },
		{ "page_size=x", "no decimal value" },
		{ "page_size=4096x pte=4096 pmd=2097152", "no decimal value" },
		{ "page_size 4096", "expected key=value" },
		{ "=4096", "expected key=value" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct page_geom g;
		char why[256] = "";

		if (geom_parse(cases[i].line, &g, why, sizeof(why)) != -1 ||
		    !strstr(why, cases[i].needle) || strchr(why, '\n'))
			fail_msg("case %zu '%s': '%s', want '%s'", i,
				 cases[i].line, why, cases[i].needle);
	}
}

/* A module without the file: the 4K geometry it was built for. */
static void assumed_for_old_modules(void **state)
{
	struct page_geom g, want = ut_geom_x86();

	(void)state;
	geom_assume_4k(&g);
	want.levels = 0;
	assert_geom_equal(&g, &want);
	assert_false(g.from_module);
}

/* pagemap's entry size is the running kernel's page: it must agree. */
static void page_size_check(void **state)
{
	struct page_geom g = ut_geom_arm64_16k();
	char why[256] = "";

	(void)state;
	assert_int_equal(geom_check_page_size(&g, 16384, why, sizeof(why)), 0);
	assert_int_equal(geom_check_page_size(&g, 4096, why, sizeof(why)), -1);
	assert_contains(why, "16384 bytes, sysconf(_SC_PAGESIZE) 4096");
	assert_int_equal(geom_check_page_size(&g, -1, why, sizeof(why)), -1);
}

/* Leaf sizes per level and granule, a contiguous group whole. */
static void leaf_sizes(void **state)
{
	struct page_geom x86 = ut_geom_x86(), g16 = ut_geom_arm64_16k(),
			 g64 = ut_geom_arm64_64k();

	(void)state;
	assert_int_equal(geom_leaf_size(&x86, PTWALK_LEVEL_PTE, 0), 4096);
	/* x86 has no contiguous bit: the flag changes nothing */
	assert_int_equal(geom_leaf_size(&x86, PTWALK_LEVEL_PTE, PTWALK_F_CONT), 4096);
	assert_int_equal(geom_leaf_size(&x86, PTWALK_LEVEL_PUD, 0), 1ULL << 30);
	assert_int_equal(geom_leaf_size(&g16, PTWALK_LEVEL_PTE, 0), 16384);
	assert_int_equal(geom_leaf_size(&g16, PTWALK_LEVEL_PTE, PTWALK_F_CONT), 2ULL << 20);
	assert_int_equal(geom_leaf_size(&g16, PTWALK_LEVEL_PMD, 0), 32ULL << 20);
	assert_int_equal(geom_leaf_size(&g16, PTWALK_LEVEL_PMD, PTWALK_F_CONT), 1ULL << 30);
	assert_int_equal(geom_leaf_size(&g16, PTWALK_LEVEL_PUD, 0), 0);
	assert_int_equal(geom_leaf_size(&g64, PTWALK_LEVEL_PTE, 0), 65536);
	assert_int_equal(geom_leaf_size(&g64, PTWALK_LEVEL_PMD, 0), 512ULL << 20);
	assert_int_equal(geom_leaf_size(&g64, PTWALK_LEVEL_PMD, PTWALK_F_CONT), 16ULL << 30);
	assert_int_equal(geom_leaf_size(&g64, PTWALK_LEVEL_NONE, 0), 0);
	assert_int_equal(geom_pages_to_bytes(&g64, 3), 3 * 65536);
	assert_int_equal(geom_bytes_to_pages(&g16, 1 << 20), 64);
}

UNIT_MAIN("geometry", UT(module_lines), UT(unknown_keys_ignored),
	  UT(bad_lines), UT(assumed_for_old_modules), UT(page_size_check),
	  UT(leaf_sizes))
