/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PCI device whose BAR holds a physical address, as sysfs tells it
 * (io/pci_sysfs.c finds it, the DMA view's report names it).
 */
#ifndef PTCOMPARE_MODEL_PCI_OWNER_H
#define PTCOMPARE_MODEL_PCI_OWNER_H

#include <stdbool.h>
#include <stdint.h>

struct pci_owner {
	bool found;		/* a BAR of a device holds the address */
	char dev[32];		/* "0000:00:01.0" */
	int bar;		/* 0-5 */
	int numa_node;		/* sysfs numa_node: -1 when the device has none */
};

#endif /* PTCOMPARE_MODEL_PCI_OWNER_H */
