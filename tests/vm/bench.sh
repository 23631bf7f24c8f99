#!/bin/sh
# Guest side of `make bench`.  Booted with an IOMMU (scripts/vm-run.sh
# VM_IOMMU=1: ptwalk_iommu= on the command line), the recorder's cost
# alone: the kernel modules VFIO and the virtio disk need (guest-suite.sh
# has not loaded them in bench mode), edu's IOMMU group, map/unmap pairs
# through it, and O_DIRECT reads of the disk (the DMA API's maps).
if grep -q ' ptwalk_iommu=' /proc/cmdline; then
	while read -r ko params; do
		# shellcheck disable=SC2086 # the parameters, one word each
		insmod "$ko" $params
	done < /lib/kmods.load
	group=
	for d in /sys/bus/pci/devices/*; do
		if [ "$(cat "$d/vendor")" = 0x1234 ] && [ "$(cat "$d/device")" = 0x11e8 ]; then
			group=$(basename "$(readlink "$d/iommu_group")")
		fi
	done
	echo "kernel $(uname -r), edu in IOMMU group ${group:-none}"
	/bin/ptbench recorder "${group:--1}"
	return 0 2>/dev/null || exit 0
fi
# Otherwise enough 2 MiB hugetlb pages for a 1 GiB target, then the
# measurements.
echo 512 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
echo "hugetlb 2M pages: $(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages), kernel $(uname -r)"
# ptwalk_only=035 (make bench VM_ONLY=035) measures targets 0, 3 and 5 only
/bin/ptbench $(sed -n 's/.*ptwalk_only=\([0-9]*\).*/\1/p' /proc/cmdline)
