#!/bin/sh
# make demo: install what is missing, build, boot the VM and show ptwalk's
# translation of a process with a THP, a hugetlb page, a remap_pfn_range
# mapping and a PCI BAR mapping.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
scripts/install-deps.sh
kdir=${KDIR:-$(scripts/find-kdir.sh)}
make KDIR="$kdir" demo-build
krel=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$kdir/include/generated/utsrelease.h")
echo "booting Debian's $krel under QEMU (software emulation, about 10 s)..."
scripts/vm-run.sh build/demo "$krel" demo build/demo_target:/bin/demo_target user/ptcompare:/bin/ptcompare
grep -q '^ok - kernel_log_clean' build/demo/vm.tap || { echo "demo: the kernel log has a warning, see build/demo/console.log" >&2; exit 1; }
