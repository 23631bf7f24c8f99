// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "parse/iomem.h"

/* Shaped like /proc/iomem of the test VM (QEMU pc, -vga std), abridged. */
static const char vm_iomem[] =
	"00000000-00000fff : Reserved\n"
	"00001000-0009fbff : System RAM\n"
	"0009fc00-0009ffff : Reserved\n"
	"000a0000-000bffff : PCI Bus 0000:00\n"
	"000c0000-000c95ff : Video ROM\n"
	"000f0000-000fffff : Reserved\n"
	"  000f0000-000fffff : System ROM\n"
	"00100000-bffdffff : System RAM\n"
	"  31000000-31e02606 : Kernel code\n"
	"  32000000-3249cfff : Kernel rodata\n"
	"  32600000-32a2b7bf : Kernel data\n"
	"c0000000-febfffff : PCI Bus 0000:00\n"
	"  fd000000-fdffffff : 0000:00:01.0\n"
	"    fd000000-fdffffff : bochs-drm\n"
	"  feb00000-feb7ffff : 0000:00:03.0\n"
	"  febf0000-febf0fff : 0000:00:01.0\n"
	"fec00000-fec003ff : IOAPIC 0\n"
	"100000000-13fffffff : System RAM\n";

static char path[256];

static const char *name_of(const struct iomem *m, uint64_t addr)
{
	return iomem_path(m, iomem_find(m, addr), path, sizeof(path));
}

/* text parsed into *m, as it must be. */
static void parsed(struct iomem *m, const char *text)
{
	char why[128] = "";

	if (iomem_parse_string(m, text, why, sizeof(why)))
		fail_msg("iomem not parsed: %s", why);
}

static void names_innermost_with_parents(void **state)
{
	struct iomem m;

	(void)state;
	parsed(&m, vm_iomem);
	assert_false(m.zeroed);
	assert_int_equal(m.n, 18);
	assert_string_equal(name_of(&m, 0xfd000000), "PCI Bus 0000:00 > 0000:00:01.0 > bochs-drm");
	assert_string_equal(name_of(&m, 0xfdffffff), "PCI Bus 0000:00 > 0000:00:01.0 > bochs-drm");
	assert_string_equal(name_of(&m, 0xfeb01000), "PCI Bus 0000:00 > 0000:00:03.0");
	/* inside the bus, between devices: the bus itself */
	assert_string_equal(name_of(&m, 0xfe000000), "PCI Bus 0000:00");
	assert_string_equal(name_of(&m, 0xc0000), "Video ROM");
	assert_string_equal(name_of(&m, 0x31000000), "System RAM > Kernel code");
	assert_string_equal(name_of(&m, 0x40000000), "System RAM");
	assert_string_equal(name_of(&m, 0x13fffffff), "System RAM");
	assert_string_equal(name_of(&m, 0xf0000), "Reserved > System ROM");
	/* gaps: nothing holds them */
	assert_int_equal(iomem_find(&m, 0xfed00000), IOMEM_NONE);
	assert_int_equal(iomem_find(&m, 0x140000000), IOMEM_NONE);
	assert_string_equal(name_of(&m, 0x140000000), "");
	assert_true(iomem_is_ram(&m, iomem_find(&m, 0x31000000)));
	assert_true(iomem_is_ram(&m, iomem_find(&m, 0x100000000)));
	assert_false(iomem_is_ram(&m, iomem_find(&m, 0xfd000000)));
	assert_false(iomem_is_ram(&m, IOMEM_NONE));
	/* a short buffer truncates, NUL-terminated */
	iomem_path(&m, iomem_find(&m, 0xfd000000), path, 10);
	assert_string_equal(path, "PCI Bus 0");
	iomem_free(&m);
}

/* Every address from the first to the last of each entry, and around. */
static void every_boundary(void **state)
{
	struct iomem m;

	(void)state;
	parsed(&m, vm_iomem);
	for (size_t i = 0; i < m.n; i++) {
		size_t at_start = iomem_find(&m, m.e[i].start);
		size_t at_end = iomem_find(&m, m.e[i].end);

		/* the innermost entry holding an address is i or inside i */
		for (size_t j = at_start; j != i; j = m.e[j].parent)
			assert_int_not_equal(j, IOMEM_NONE);
		for (size_t j = at_end; j != i; j = m.e[j].parent)
			assert_int_not_equal(j, IOMEM_NONE);
	}
	iomem_free(&m);
}

static void zeroed_for_non_root(void **state)
{
	static const char text[] =
		"00000000-00000000 : Reserved\n"
		"00000000-00000000 : System RAM\n"
		"  00000000-00000000 : Kernel code\n"
		"00000000-00000000 : PCI Bus 0000:00\n";
	struct iomem m;

	(void)state;
	parsed(&m, text);
	assert_true(m.zeroed);
	/* no wrong name: address 0 is in "Reserved" only for real */
	assert_int_equal(iomem_find(&m, 0), IOMEM_NONE);
	iomem_free(&m);
	/* one real zero-based entry is not the non-root view */
	parsed(&m, vm_iomem);
	assert_false(m.zeroed);
	iomem_free(&m);
	parsed(&m, "");
	assert_false(m.zeroed);
	assert_int_equal(iomem_find(&m, 0), IOMEM_NONE);
	iomem_free(&m);
}

static void malformed(void **state)
{
	static const char *const bad[] = {
		"00000000-00000fff Reserved\n",
		"0000zz00-00000fff : Reserved\n",
		"00001000-00000fff : backwards\n",
		" 00000000-00000fff : odd indentation\n",
		"  00000000-00000fff : child without parent\n",
		"00000000-00000fff : ok\n    00000000-00000fff : two levels down\n",
		"00000000-10000000000000000 : too wide\n",
		"-00000fff : no start\n",
		/* r_show() indents 5 levels at most (fuzz_iomem) */
		"00000000-ffffffff : l0\n  00000000-0fffffff : l1\n"
		"    00000000-00ffffff : l2\n      00000000-000fffff : l3\n"
		"        00000000-0000ffff : l4\n"
		"          00000000-00000fff : l5\n"
		"            00000100-000001ff : l6 printed at 6\n",
	};
	struct iomem m;
	char why[128];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(iomem_parse_string(&m, bad[i], why, sizeof(why)),
				 -EINVAL);
		assert_contains(why, "line ");
		assert_null(m.e);
	}
	assert_int_equal(iomem_parse_string(&m, "00000000-00000fff : ok\nnonsense\n",
					    why, sizeof(why)), -EINVAL);
	assert_contains(why, "line 2:");
}

/* Names keep their spaces and colons; a missing final newline is fine. */
static void names_and_unsorted_siblings(void **state)
{
	static const char text[] =
		"00002000-00002fff : b: second\n"
		"00001000-00001fff : a: first one\n"
		"  00001800-000018ff : inner : colon";
	struct iomem m;

	(void)state;
	parsed(&m, text);
	assert_string_equal(name_of(&m, 0x1880), "a: first one > inner : colon");
	assert_string_equal(name_of(&m, 0x2000), "b: second");
	assert_string_equal(name_of(&m, 0x1000), "a: first one");
	iomem_free(&m);
}

/* r_show() prints resources deeper than 5 levels at depth 5. */
static void deeper_than_printed(void **state)
{
	static const char text[] =
		"00000000-ffffffff : l0\n"
		"  00000000-0fffffff : l1\n"
		"    00000000-00ffffff : l2\n"
		"      00000000-000fffff : l3\n"
		"        00000000-0000ffff : l4\n"
		"          00000000-00000fff : l5\n"
		"          00000100-000001ff : l6\n"
		"          00001000-00001fff : l5b\n";
	struct iomem m;

	(void)state;
	parsed(&m, text);
	assert_string_equal(name_of(&m, 0x180), "l0 > l1 > l2 > l3 > l4 > l5 > l6");
	assert_string_equal(name_of(&m, 0x1100), "l0 > l1 > l2 > l3 > l4 > l5b");
	iomem_free(&m);
}

static void from_a_file(void **state)
{
	FILE *f = fmemopen((void *)vm_iomem, sizeof(vm_iomem) - 1, "r");
	struct iomem m;
	char why[128];

	(void)state;
	assert_non_null(f);
	assert_int_equal(iomem_parse_file(&m, f, why, sizeof(why)), 0);
	fclose(f);
	assert_int_equal(m.n, 18);
	assert_string_equal(name_of(&m, 0xfd001000), "PCI Bus 0000:00 > 0000:00:01.0 > bochs-drm");
	iomem_free(&m);
}

/* Many siblings: the binary search finds each one. */
static void many_siblings(void **state)
{
	static char text[200 * 40];
	struct iomem m;
	size_t len = 0;

	(void)state;
	for (unsigned int i = 0; i < 200; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					"%08x-%08x : dev%u\n", i * 0x2000,
					i * 0x2000 + 0xfff, i);
	parsed(&m, text);
	for (unsigned int i = 0; i < 200; i++) {
		char want[16];

		snprintf(want, sizeof(want), "dev%u", i);
		assert_string_equal(name_of(&m, i * 0x2000 + 0x800), want);
		assert_int_equal(iomem_find(&m, i * 0x2000 + 0x1000), IOMEM_NONE);
	}
	iomem_free(&m);
}

UNIT_MAIN("iomem", UT(names_innermost_with_parents), UT(every_boundary),
	  UT(zeroed_for_non_root), UT(malformed), UT(names_and_unsorted_siblings),
	  UT(deeper_than_printed), UT(from_a_file), UT(many_siblings))
