// SPDX-License-Identifier: GPL-2.0
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/pci_sysfs.h"
#include "model/page.h"
#include "parse/pci.h"

/* Reads a small sysfs file into buf (NUL-terminated): bytes read, or -1. */
static long read_small(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (long)n;
}

/*
 * Looks through devices (normally PCI_SYSFS_DEVICES) for the memory BAR
 * holding phys: out->found, with the device, the BAR and the device's
 * numa_node, or not found (no such BAR, or sysfs unreadable).
 */
static void pci_find_owner(const char *devices, uint64_t phys,
			   struct pci_owner *out)
{
	DIR *d = opendir(devices);
	struct pci_bar bars[PCI_BARS];
	struct dirent *de;
	char path[512], buf[1024];

	*out = (struct pci_owner){ .numa_node = -1 };
	if (!d)
		return;
	while (!out->found && (de = readdir(d))) {
		int n, bar;

		if (de->d_name[0] == '.' ||
		    snprintf(path, sizeof(path), "%s/%s/resource", devices,
			     de->d_name) >= (int)sizeof(path) ||
		    read_small(path, buf, sizeof(buf)) <= 0)
			continue;
		n = pci_parse_resource(buf, bars);
		bar = n > 0 ? pci_bar_of(bars, n, phys) : -1;
		if (bar < 0)
			continue;
		out->found = true;
		out->bar = bar;
		/* PCI names are 12 characters: a longer one is cut */
		memcpy(out->dev, de->d_name, strnlen(de->d_name,
						     sizeof(out->dev) - 1));
		snprintf(path, sizeof(path), "%s/%s/numa_node", devices,
			 de->d_name);
		if (read_small(path, buf, sizeof(buf)) > 0)
			out->numa_node = atoi(buf);
	}
	closedir(d);
}

void pci_find_devmem_owners(const char *devices,
			    const struct dma_devmem *devmem, unsigned int n,
			    unsigned int page_shift, struct pci_owner *owners)
{
	for (unsigned int i = 0; i < n; i++)
		pci_find_owner(devices, devmem[i].pfn << page_shift,
			       &owners[i]);
}

static bool device_path(const char *devices, const char *name,
			const char *file, char *path, size_t size)
{
	return snprintf(path, size, "%s/%s%s%s", devices, name,
			*file ? "/" : "", file) < (int)size;
}

bool pci_sysfs_exists(const char *devices, const char *name)
{
	char path[512];

	return device_path(devices, name, "", path, sizeof(path)) &&
	       !access(path, F_OK);
}

bool pci_sysfs_has_group(const char *devices, const char *name)
{
	char path[512];

	return device_path(devices, name, "iommu_group", path, sizeof(path)) &&
	       !access(path, F_OK);
}

void pci_sysfs_group_type(const char *devices, const char *name, char *buf,
			  size_t size)
{
	char path[512];
	FILE *f;

	buf[0] = '\0';
	if (!device_path(devices, name, "iommu_group/type", path, sizeof(path)))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(buf, (int)size, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

unsigned int pci_sysfs_dma_mask_bits(const char *devices, const char *name)
{
	char path[512];
	unsigned int bits = 0;
	FILE *f;

	if (!device_path(devices, name, "dma_mask_bits", path, sizeof(path)))
		return 0;
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fscanf(f, "%u", &bits) != 1 || bits > 64)
		bits = 0;
	fclose(f);
	return bits;
}

void pci_sysfs_driver(const char *devices, const char *name, char *buf,
		      size_t size)
{
	char path[512], link[512];
	const char *slash;
	ssize_t n;

	buf[0] = '\0';
	if (!device_path(devices, name, "driver", path, sizeof(path)))
		return;
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = '\0';
	slash = strrchr(link, '/');
	snprintf(buf, size, "%s", slash ? slash + 1 : link);
}
