// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "parse/pci.h"

int pci_parse_resource(const char *text, struct pci_bar bars[PCI_BARS])
{
	int n = 0;

	while (n < PCI_BARS && *text) {
		struct pci_bar *b = &bars[n];
		const char *nl = strchr(text, '\n');

		if (sscanf(text, "%" SCNx64 " %" SCNx64 " %" SCNx64, &b->start,
			   &b->end, &b->flags) != 3)
			return -1;
		n++;
		if (!nl)
			break;
		text = nl + 1;
	}
	return n;
}

int pci_bar_of(const struct pci_bar *bars, int n, uint64_t phys)
{
	for (int i = 0; i < n; i++)
		if ((bars[i].flags & PCI_RES_MEM) && bars[i].end > bars[i].start &&
		    phys >= bars[i].start && phys <= bars[i].end)
			return i;
	return -1;
}
