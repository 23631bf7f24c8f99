/* SPDX-License-Identifier: GPL-2.0 */
/* The PCI device behind a physical address, from sysfs. */
#ifndef PTCOMPARE_PCI_SYSFS_H
#define PTCOMPARE_PCI_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "engine/dma.h"
#include "model/pci_owner.h"

#define PCI_SYSFS_DEVICES "/sys/bus/pci/devices"

/*
 * The owner of each of n runs of frames without struct page (the DMA
 * view's devmem, engine/dma.h), by the run's first frame: owners[i] for
 * devmem[i].
 */
void pci_find_devmem_owners(const char *devices,
			    const struct dma_devmem *devmem, unsigned int n,
			    unsigned int page_shift, struct pci_owner *owners);

/* Whether devices/name exists (a PCI device of that address). */
bool pci_sysfs_exists(const char *devices, const char *name);

/* Whether devices/name has an IOMMU group (its iommu_group link). */
bool pci_sysfs_has_group(const char *devices, const char *name);

/*
 * The name of the driver bound to devices/name into buf ("" when none is
 * bound or it cannot be read).
 */
void pci_sysfs_driver(const char *devices, const char *name, char *buf,
		      size_t size);

/*
 * The type of devices/name's IOMMU group's default domain, as the kernel
 * names it in iommu_group/type ("DMA", "DMA-FQ", "identity", ...), into
 * buf ("" without a group or when it cannot be read).
 */
void pci_sysfs_group_type(const char *devices, const char *name, char *buf,
			  size_t size);

/*
 * The width of devices/name's DMA mask in bits (its dma_mask_bits), or 0
 * when it cannot be read.
 */
unsigned int pci_sysfs_dma_mask_bits(const char *devices, const char *name);

#endif /* PTCOMPARE_PCI_SYSFS_H */
