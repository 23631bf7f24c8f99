// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "parse/hex.h"
#include "parse/pci.h"

/* After sep, "0x" and hex digits into *v: after the digits, or NULL. */
static const char *field(const char *p, char sep, uint64_t *v)
{
	if (!p || (sep && *p++ != sep) || strncmp(p, "0x", 2))
		return NULL;
	return hex_scan(p + 2, 0, v);
}

/* A line is "0x%016llx 0x%016llx 0x%016llx" (resource_show()). */
int pci_parse_resource(const char *text, struct pci_bar bars[PCI_BARS])
{
	int n = 0;

	while (n < PCI_BARS && *text) {
		struct pci_bar *b = &bars[n];
		const char *nl = strchr(text, '\n');
		const char *p = field(text, '\0', &b->start);

		p = field(field(p, ' ', &b->end), ' ', &b->flags);
		if (!p || (*p && *p != '\n'))
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
