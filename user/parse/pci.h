/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A PCI device's sysfs "resource" file: one line per resource, "start end
 * flags" in hex, BARs 0-5 first (drivers/pci/pci-sysfs.c, resource_show()).
 */
#ifndef PTCOMPARE_PARSE_PCI_H
#define PTCOMPARE_PARSE_PCI_H

#include <stddef.h>
#include <stdint.h>

#define PCI_BARS	6
#define PCI_RES_MEM	0x200ULL	/* IORESOURCE_MEM in flags */

struct pci_bar {
	uint64_t start, end;	/* inclusive end, as sysfs writes it */
	uint64_t flags;
};

/*
 * Parses text into bars[0..PCI_BARS): how many lines were read, or -1 for
 * a line that is not three hex numbers.
 */
int pci_parse_resource(const char *text, struct pci_bar bars[PCI_BARS]);

/* The memory BAR of the n holding phys, or -1. */
int pci_bar_of(const struct pci_bar *bars, int n, uint64_t phys);

#endif /* PTCOMPARE_PARSE_PCI_H */
