#!/bin/sh
# Guest side of `make bench`: enough 2 MiB hugetlb pages for a 1 GiB target,
# then the measurements.
echo 512 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
echo "hugetlb 2M pages: $(cat /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages), kernel $(uname -r)"
/bin/ptbench
