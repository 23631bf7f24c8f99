/* SPDX-License-Identifier: GPL-2.0 */
/* The PCI device behind a physical address, from sysfs. */
#ifndef PTCOMPARE_PCI_SYSFS_H
#define PTCOMPARE_PCI_SYSFS_H

#include <stdint.h>
#include "engine/dma.h"
#include "model/pci_owner.h"

#define PCI_SYSFS_DEVICES "/sys/bus/pci/devices"

/*
 * Looks through devices (normally PCI_SYSFS_DEVICES) for the memory BAR
 * holding phys: out->found, with the device, the BAR and the device's
 * numa_node, or not found (no such BAR, or sysfs unreadable).
 */
void pci_find_owner(const char *devices, uint64_t phys, struct pci_owner *out);

/*
 * The owner of each of n runs of frames without struct page (the DMA
 * view's devmem, engine/dma.h), by the run's first frame: owners[i] for
 * devmem[i].
 */
void pci_find_devmem_owners(const char *devices,
			    const struct dma_devmem *devmem, unsigned int n,
			    unsigned int page_shift, struct pci_owner *owners);

#endif /* PTCOMPARE_PCI_SYSFS_H */
