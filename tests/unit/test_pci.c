// SPDX-License-Identifier: GPL-2.0
/* A PCI device's sysfs resource file, and which memory BAR holds an address. */
#include <stddef.h>
#include <stdint.h>
#include "unit.h"
#include "parse/pci.h"

/* QEMU's -vga std: a prefetchable framebuffer, a register BAR, a ROM. */
static const char vga[] =
	"0x00000000fd000000 0x00000000fdffffff 0x0000000000142208\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x00000000febd4000 0x00000000febd4fff 0x0000000000040200\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
	"0x00000000000c0000 0x00000000000dffff 0x0000000000000212\n";

static void bars_of_a_vga(void **state)
{
	struct pci_bar bars[PCI_BARS];
	int n;

	(void)state;
	n = pci_parse_resource(vga, bars);
	assert_int_equal(n, PCI_BARS);	/* the ROM line is not a BAR */
	assert_int_equal(bars[0].start, 0xfd000000);
	assert_int_equal(bars[2].end, 0xfebd4fff);
	assert_int_equal(pci_bar_of(bars, n, 0xfd000000), 0);
	assert_int_equal(pci_bar_of(bars, n, 0xfdffffff), 0);
	assert_int_equal(pci_bar_of(bars, n, 0xfe000000), -1);
	assert_int_equal(pci_bar_of(bars, n, 0xfebd4800), 2);
	/* an empty BAR holds nothing, not address 0 */
	assert_int_equal(pci_bar_of(bars, n, 0), -1);
}

static void io_bars_and_garbage(void **state)
{
	struct pci_bar bars[PCI_BARS];

	(void)state;
	/* an I/O port BAR (flags 0x101) is no memory */
	assert_int_equal(pci_parse_resource("0x000000000000c000 0x000000000000c03f 0x0000000000040101\n",
					    bars), 1);
	assert_int_equal(pci_bar_of(bars, 1, 0xc010), -1);
	assert_int_equal(pci_parse_resource("not a resource\n", bars), -1);
	assert_int_equal(pci_parse_resource("", bars), 0);
}

UNIT_MAIN("pci", UT(bars_of_a_vga), UT(io_bars_and_garbage))
