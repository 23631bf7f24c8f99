#!/bin/sh
# Guest side of `make bench`: enough 2 MiB hugetlb pages for a 1 GiB target,
# then the measurements.
echo 512 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
echo "hugetlb 2M pages: $(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages), kernel $(uname -r)"
# ptwalk_only=035 (make bench VM_ONLY=035) measures targets 0, 3 and 5 only
/bin/ptbench $(sed -n 's/.*ptwalk_only=\([0-9]*\).*/\1/p' /proc/cmdline)
