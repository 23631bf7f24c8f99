/* SPDX-License-Identifier: GPL-2.0 */
/* The PCI device behind a physical address, from sysfs. */
#ifndef PTCOMPARE_PCI_SYSFS_H
#define PTCOMPARE_PCI_SYSFS_H

#include <stdint.h>
#include "model/pci_owner.h"

#define PCI_SYSFS_DEVICES "/sys/bus/pci/devices"

/*
 * Looks through devices (normally PCI_SYSFS_DEVICES) for the memory BAR
 * holding phys: out->found, with the device, the BAR and the device's
 * numa_node, or not found (no such BAR, or sysfs unreadable).
 */
void pci_find_owner(const char *devices, uint64_t phys, struct pci_owner *out);

#endif /* PTCOMPARE_PCI_SYSFS_H */
