#!/bin/bash
# Boots Debian's kernel under QEMU with an initramfs holding busybox,
# ptwalk.ko, the test fixture and the test programs, and runs the guest
# suite there.  Writes TAP to $OUT/vm.tap (guest cases plus "the VM
# finished" and "the kernel log is clean"), the console to $OUT/console.log.
#
# usage: scripts/vm-run.sh OUTDIR KREL MODE [extra files: SRC:DEST ...]
#   KREL: kernel release, e.g. 6.1.0-56-amd64 (/boot/vmlinuz-KREL)
#   MODE: test | demo | bench
# Env: VM_TIMEOUT (seconds, default 600), VM_BOOT_TIMEOUT (seconds
# without a word from the guest before a boot is killed and tried once
# more, default 300), VM_MEM (default 4G, 8G with
# VM_PAGE_SIZE=64K), VM_ACCEL
# (tcg, the default, or kvm); VM_KERNEL, a kernel image to boot instead of
# /boot/vmlinuz-KREL (its release must be KREL; make check-debug uses it);
# VM_KO_DIR, where module/ptwalk.ko and tests/fixture/ptwalk_*.ko are
# (default: this tree); VM_MODTREE, the booted kernel's modules tree, where
# the kernel modules the suite needs come from (default /lib/modules/KREL);
# VM_ONLY, run only the vmtest cases whose names start so (the shell cases of
# the guest suite still run); VM_SKIP, comma-separated prefixes of vmtest
# cases this lane leaves to another (make check-debug: the cases whose work
# is ptcompare's, which the plain 6.1 lane runs); VM_STRESS_SECONDS, how long each race case
# (tests/vm/cases_races.c) hammers its race (default 3; make check-debug
# sets more); VM_SANITIZED, the /bin/ptcompare given is a
# sanitized build: asan (or 1) the ASan+UBSan one (make check-vm-asan,
# make check-debug DEBUG_SANITIZED=1), tsan the ThreadSanitizer one (make
# check-vm-tsan); the guest checks it has that runtime, sets the
# sanitizer's options, and any report fails the run; VM_SANITIZED_ONLY,
# comma-separated prefixes of the vmtest cases the sanitized build runs,
# the plain one (a FILE to /bin/ptcompare.plain) the rest after them
# (tests/vm/guest-suite.sh; make check-vm-tsan and the tsan kernel lanes:
# the cases where ptcompare starts threads, TSAN_CASES).
# Other architectures (make check-arm64, make check-riscv64): VM_ARCH
# (x86_64, the default, arm64 or riscv64; a KREL ending in -arm64 or
# -riscv64 implies it), VM_PAGE_SIZE (arm64: the
# kernel's page size, 4K (default), 16K or 64K, which picks the hugetlb
# pools of that granule), VM_SYSROOT (the guest's
# busybox and the shared libraries the cross toolchain does not supply:
# scripts/arm64-fetch.sh's tree), VM_MISSING_KO=ok (boot without the ptwalk
# modules that did not build: the guest suite's insmod cases then fail).
# VM_IOMMU=1 (MODE iommu; make check-iommu, make check-arm64-iommu): an
# emulated IOMMU and QEMU's edu device (1234:11e8, DMA to 48-bit addresses)
# bound to vfio-pci: on x86_64 VT-d (-device intel-iommu, 48-bit IOVAs for
# IOVA = VA, intel_iommu=on), on arm64 virt's SMMUv3 (-M virt,iommu=smmuv3);
# with MODE test (make check-debug) the suite runs on that machine and the
# IOMMU lane's cases follow it in the same boot;
# VM_IOMMU_KIND: on x86_64 vtd (default), amd (-device
# amd-iommu,intremap=off, no kernel option: the IVRS table enables it) or
# virtio (-device virtio-iommu-pci, the kernel's virtio-iommu module); on
# arm64 smmuv3 (default) or virtio; the guest reads which from
# ptwalk_iommu= (make check-iommu IOMMU=..., make check-arm64
# ARM64_KERNELS_VIRTIO_IOMMU=...).  VM_QEMU: the QEMU binary to boot
# instead of the installed one (a newer QEMU unpacked under build/: make
# check-riscv64's newest lane), VM_QEMU_BIOS its firmware.
# VM_EDU=0: no edu in the ordinary lane's machine (default 1 on x86_64
# and arm64: edu without an IOMMU, its kernel driver's cases after the
# suite).
# VM_IOMMU_PASSTHROUGH=1 adds iommu.passthrough=1: identity default domains,
# for kernels before 5.11, which cannot change a group's domain at run time.
# VM_DRIVERS (x86_64): the real drivers of the dmainfo cases and pci-stub
# (bound to the display and unbound under a query by iommu_none_), loaded
# as modules or found built in (default "vgem vivid:allocators=1
# pci-stub"; set empty for a kernel without them, make check-debug's,
# whose VM_SKIP leaves those cases out).  VM_APPEND: more kernel command line (make check-debug's
# no5lvl).  VM_DISK_IOPS: the IOMMU lane's virtio-blk disk throttled to
# that many requests a second (default 200; empty: not throttled).
set -euo pipefail

out=$1 krel=$2 mode=$3
shift 3
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=${VM_KERNEL:-/boot/vmlinuz-$krel}
kodir=${VM_KO_DIR:-$top}
timeout_s=${VM_TIMEOUT:-600}
boot_timeout_s=${VM_BOOT_TIMEOUT:-300}
poweroff_grace_s=${VM_POWEROFF_GRACE:-60}
modtree=${VM_MODTREE:-/lib/modules/$krel}
sysroot=${VM_SYSROOT:-}
# Software emulation by default: on the machines this runs on /dev/kvm can
# exist without working (a guest that never prints).  VM_ACCEL=kvm opts in.
accel=${VM_ACCEL:-tcg}
# With 64K pages a PMD THP (and the huge zero page) is 512M: in 4G the
# kernel found no free 512M block for one, in 8G every THP case passed.
mem=${VM_MEM:-4G}
[ -n "${VM_MEM:-}" ] || [ "${VM_PAGE_SIZE:-}" != 64K ] || mem=8G

die() { echo "vm-run: $*" >&2; exit 2; }

# Which emulated IOMMU (VM_IOMMU=1): on x86_64 VT-d (the default), AMD-Vi
# or virtio-iommu; on arm64 SMMUv3 (the default) or virtio-iommu.
iommu_kind=${VM_IOMMU_KIND:-}
case $iommu_kind in
'' | vtd | amd | virtio | smmuv3 | riscv) ;;
*) die "VM_IOMMU_KIND=$iommu_kind: vtd, amd or virtio (x86_64), smmuv3 or virtio (arm64), riscv (riscv64)" ;;
esac

case ${VM_SANITIZED:-} in
'') sanitized= ;;
1 | asan) sanitized=asan ;;
tsan) sanitized=tsan ;;
*) die "VM_SANITIZED=$VM_SANITIZED: asan (or 1) or tsan" ;;
esac
[ -z "${VM_SANITIZED_ONLY:-}" ] || [ -n "$sanitized" ] ||
	die "VM_SANITIZED_ONLY=$VM_SANITIZED_ONLY without VM_SANITIZED"
# The suite and the IOMMU lane's cases in one boot (tests/vm/guest-suite.sh)
iommu_cases=
if [ "${VM_IOMMU:-}" = 1 ] && [ "$mode" = test ]; then
	iommu_cases=1
fi

# VM_IOMMU=1: QEMU's edu behind the IOMMU, bound to vfio-pci; VFIO needs
# allow_unsafe_interrupts (no interrupt remapping in these machines).  The
# parameters go on the command line too, for a kernel that has the
# drivers built in (the debug kernel), with ptwalk_iommu= for the guest.
# VM_IOMMU_KIND=virtio: virtio-iommu-pci, whose driver is a module on
# Debian's kernels that have it, loaded before vfio-pci binds edu.
virtio_iommu() {
	machine+=(-device virtio-iommu-pci)
	drv_kmods="$drv_kmods virtio-iommu"
}
edu_for_vfio() {
	machine+=(-device "edu,dma_mask=0xffffffffffff")
	drv_kmods="$drv_kmods vfio_iommu_type1:allow_unsafe_interrupts=1 vfio-pci:ids=1234:11e8"
	drv_append="$drv_append vfio_iommu_type1.allow_unsafe_interrupts=1 vfio_pci.ids=1234:11e8 ptwalk_iommu=$iommu_kind"
}

# What differs between the architectures: QEMU and its machine, the
# console, the channel the guest suite writes TAP to (a second UART on x86;
# virtio-console on arm64, whose virt machine has one UART) and the kernel
# modules it needs, the hugetlb pools, the cross toolchain's triplet, and
# how an image names its release.
vm_arch() {
	case $1 in
	x86_64)
		qemu=qemu-system-x86_64 qemu_pkg=qemu-system-x86
		# -vga std: a PCI device with a BAR, for the PFNMAP cases.
		# Two NUMA nodes, a CPU (and socket) each, half the memory
		# each, for the dmainfo cases; the second half lies wholly
		# above 4 GiB, where the boot-time 1G hugetlb page finds room
		# (with node 1 only 1G, its page did not fit anywhere).
		if ! [[ $mem =~ ^[0-9]+G$ ]] || [ $((${mem%G} % 2)) != 0 ]; then
			die "VM_MEM=$mem: give an even number of GiB (4G)"
		fi
		smp=2,sockets=2
		machine=(-machine "q35,accel=$accel" -cpu max -vga std
			-object "memory-backend-ram,id=m0,size=$((${mem%G} / 2))G"
			-object "memory-backend-ram,id=m1,size=$((${mem%G} / 2))G"
			-numa "node,nodeid=0,cpus=0,memdev=m0"
			-numa "node,nodeid=1,cpus=1,memdev=m1")
		console=ttyS0 chan=ttyS1 chan_kmods=""
		chan_args=(-serial "file:$out/guest.log")
		hugepages="hugepagesz=1G hugepages=1 hugepagesz=2M hugepages=16"
		# the IOMMU lane maps no 1G page: none reserved (on the debug
		# kernel, kmemleak scans a page reserved at boot, a memblock
		# allocation: 197 s of its two scans with it, 86 s without)
		[ "${VM_IOMMU:-}" != 1 ] || [ "$mode" = test ] || hugepages="hugepagesz=2M hugepages=16"
		# the dmainfo cases' real drivers: vgem, vivid's dma-contig
		# allocator (the parameter also on the command line, where a
		# built-in vivid reads it); pci-stub, a driver the
		# iommu_none_ cases bind and unbind under a query
		drv_kmods=${VM_DRIVERS-vgem vivid:allocators=1 pci-stub}
		# numa_balancing=disable: with two nodes the kernel would
		# otherwise make PTEs PROT_NONE and migrate pages on its own
		# (NUMA hinting), and the suite's processes would change
		# between two scans of them
		drv_append="vivid.allocators=1 numa_balancing=disable"
		# The bench keeps the clocksource real machines use: under TCG
		# the kernel's watchdog finds the TSC unstable and falls back
		# to the HPET, each read of which leaves the emulated CPU for
		# QEMU's device model (and clock_gettime() becomes a system
		# call).  That slows a run of many small system calls more
		# than one of few large reads, so the bench's ratios would
		# measure the emulator: ptcompare --all over 200 processes,
		# median of 15, 129.6 ms with the HPET, 106.9 with the TSC.
		# TCG's TSC is one host clock for every vCPU.
		[ "$mode" != bench ] || drv_append="$drv_append tsc=reliable"
		triplet=x86_64-linux-gnu
		if [ "${VM_IOMMU:-}" = 1 ]; then
			# intremap=off: no split irqchip under TCG; so
			# VFIO needs allow_unsafe_interrupts (it refuses
			# a group without interrupt remapping: EPERM)
			iommu_kind=${iommu_kind:-vtd}
			case $iommu_kind in
			vtd)
				machine+=(-device "intel-iommu,aw-bits=48,intremap=off")
				drv_append="$drv_append intel_iommu=on" ;;
			amd)
				# AMD-Vi: the kernel enables it by itself
				# when the firmware has an IVRS table
				# (QEMU's amd-iommu adds one)
				machine+=(-device "amd-iommu,intremap=off") ;;
			virtio)
				# described to the kernel by QEMU's ACPI
				# VIOT table (Debian's 6.12 and newer)
				virtio_iommu ;;
			*) die "VM_IOMMU_KIND=$iommu_kind: vtd, amd or virtio on x86_64" ;;
			esac
			edu_for_vfio
		fi ;;
	arm64)
		qemu=qemu-system-aarch64 qemu_pkg=qemu-system-arm
		# pauth-impdef: QEMU's own pointer-authentication hash instead
		# of QARMA, boots in about 12 s instead of 30 under TCG
		# shellcheck disable=SC2054 # commas inside QEMU's arguments
		# Two NUMA nodes, as on x86-64, for the watch cases that move
		# pages between them (move_pages(2)); numa_balancing=disable
		# for the same reason as there.  Node 0 holds all but 1G: with
		# two halves of 4G the boot-time allocations of each node
		# (top-down) and the kernel image left no 1G-aligned 1G free
		# for the 16K lane's 1G hugetlb page.
		if ! [[ $mem =~ ^[0-9]+G$ ]] || [ "${mem%G}" -lt 3 ]; then
			die "VM_MEM=$mem: give 3G or more, in whole GiB (4G)"
		fi
		machine=(-machine "virt,accel=$accel" -cpu max,pauth-impdef=on -device bochs-display
			-object "memory-backend-ram,id=m0,size=$((${mem%G} - 1))G"
			-object "memory-backend-ram,id=m1,size=1G"
			-numa "node,nodeid=0,cpus=0,memdev=m0"
			-numa "node,nodeid=1,cpus=1,memdev=m1")
		console=ttyAMA0 chan=hvc0 chan_kmods="virtio_mmio virtio_console"
		smp=2 drv_kmods="" drv_append="numa_balancing=disable"
		# shellcheck disable=SC2054
		chan_args=(-device virtio-serial-device
			-chardev "file,id=chan,path=$out/guest.log" -device virtconsole,chardev=chan)
		# Each granule's hugetlb sizes (arch/arm64/mm/hugetlbpage.c,
		# arch_hugetlb_valid_size()): contiguous PTEs, PMD, contiguous
		# PMDs, and with 4K pages the PUD.  4K: 64K and 32M are 16
		# contiguous PTEs and PMD blocks; 16K: 2M is 128 PTEs, 1G 32 PMDs
		# (no PUD leaf); 64K: 2M is 32 PTEs, 16G 32 PMDs of 512M, a size
		# registered without a page (the guest has 8G), so that the suite
		# sees it exists and says it cannot allocate one.
		case ${VM_PAGE_SIZE:-4K} in
		4K) hugepages="hugepagesz=64K hugepages=32 hugepagesz=2M hugepages=16 hugepagesz=32M hugepages=2 hugepagesz=1G hugepages=1" ;;
		16K) hugepages="hugepagesz=2M hugepages=16 hugepagesz=32M hugepages=2 hugepagesz=1G hugepages=1" ;;
		64K) hugepages="hugepagesz=2M hugepages=16 hugepagesz=512M hugepages=2 hugepagesz=16G hugepages=0" ;;
		*) die "VM_PAGE_SIZE=$VM_PAGE_SIZE: 4K, 16K or 64K" ;;
		esac
		triplet=aarch64-linux-gnu
		if [ "${VM_IOMMU:-}" = 1 ]; then
			# virt's SMMUv3 in front of its PCIe root complex
			# (arm-smmu-v3: built in on Debian's, else loaded from
			# the image; a kernel with neither fails the run), edu
			# beside bochs-display: VFIO_IOMMU_MAP_DMA at IOVA = VA
			# needs its 48-bit DMA mask (the stage-1 aperture is
			# VA_BITS wide).  allow_unsafe_interrupts as on x86:
			# virt's GICv2 has no ITS, so no MSI isolation.
			iommu_kind=${iommu_kind:-smmuv3}
			case $iommu_kind in
			smmuv3)
				machine[1]="virt,accel=$accel,iommu=smmuv3"
				drv_kmods="arm_smmu_v3" ;;
			virtio)
				# on virt's PCIe instead of the SMMU,
				# described by the device tree QEMU makes
				# (iommu-map); Debian's 6.12 has the driver,
				# 6.1 none
				virtio_iommu ;;
			*) die "VM_IOMMU_KIND=$iommu_kind: smmuv3 or virtio on arm64" ;;
			esac
			edu_for_vfio
		fi ;;
	riscv64)
		qemu=qemu-system-riscv64 qemu_pkg=qemu-system-misc
		# virt with Svnapot (64K hugetlb pages as NAPOT PTEs) and
		# Svpbmt (the memory types of PCI BARs); rv64 supports Sv57,
		# the kernel's default mode (no5lvl: Sv48, no4lvl: Sv39, by
		# VM_APPEND).  bochs-display: a PCI BAR for the PFNMAP and
		# memory-type cases, without its VGA option ROM, which no
		# riscv64 firmware runs and the QEMU 10 bundle has not (its
		# data are its own: scripts/riscv64-qemu-fetch.sh).  One NUMA
		# node: with two (-numa as on arm64) Debian's 6.12 never
		# brought up a virtio-serial port (no /dev/vport* nor hvc1
		# in 60 s after virtio-pci enabled the device).
		# shellcheck disable=SC2054 # -cpu's properties, one word
		machine=(-machine "virt,accel=$accel" -cpu rv64,svnapot=on,svpbmt=on -device bochs-display,romfile=)
		# The channel: a virtio-serial port on PCI named ptwalk
		# (@ptwalk: tests/vm/guest-init.sh finds its /dev/vportDpP)
		# (virtio_pci and virtio_console are built in; a console
		# port is refused to open() as vport0p0, and hvc0 is the SBI
		# console there, so a plain port rather than virtconsole)
		console=ttyS0 chan=@ptwalk chan_kmods=""
		smp=2 drv_kmods="" drv_append=""
		# shellcheck disable=SC2054
		chan_args=(-device virtio-serial-pci
			-chardev "file,id=chan,path=$out/guest.log" -device virtserialport,chardev=chan,name=ptwalk)
		# arch/riscv/mm/hugetlbpage.c: 64K (16 NAPOT PTEs), PMD, PUD
		hugepages="hugepagesz=64K hugepages=32 hugepagesz=2M hugepages=16 hugepagesz=1G hugepages=1"
		triplet=riscv64-linux-gnu
		if [ "${VM_IOMMU:-}" = 1 ]; then
			# The RISC-V IOMMU: QEMU 10's riscv-iommu-pci (virt
			# gives the PCI host an iommu-map to it; the kernel's
			# RISCV_IOMMU_PCI is built in on 7.2), edu behind it.
			# Its driver needs MSIs (pci_alloc_irq_vectors() of
			# MSI-X or MSI: "unable to allocate irq vectors" on the
			# PLIC), so virt gets the AIA's IMSICs.
			# Debian's riscv64 VFIO has no type1, and vfio-pci's
			# probe of edu fails there (-EINVAL): edu stays without
			# a driver between cases (ptwalk_iommu=riscv tells the
			# cases), and the device's view is its kernel driver's
			# DMA-API domain (ptwalk_edu.ko, --dma-api).
			iommu_kind=${iommu_kind:-riscv}
			[ "$iommu_kind" = riscv ] || die "VM_IOMMU_KIND=$iommu_kind: riscv on riscv64"
			# Two NUMA nodes (as on arm64: node 1 has 1G) for
			# edu_driver_unpinned_page_moves, which moves a page to
			# node 1; the newest kernel brings up the channel with
			# them (6.12, which did not, has no IOMMU lane).
			machine[1]="virt,accel=$accel,aia=aplic-imsic"
			# shellcheck disable=SC2054
			machine+=(-device riscv-iommu-pci -device "edu,dma_mask=0xffffffffffff"
				-object "memory-backend-ram,id=m0,size=$((${mem%G} - 1))G"
				-object "memory-backend-ram,id=m1,size=1G"
				-numa "node,nodeid=0,cpus=0,memdev=m0"
				-numa "node,nodeid=1,cpus=1,memdev=m1")
			drv_append="$drv_append numa_balancing=disable ptwalk_iommu=$iommu_kind"
		fi ;;
	*)
		die "VM_ARCH $1: x86_64, arm64 or riscv64" ;;
	esac
	if [ "${VM_IOMMU:-}" = 1 ] && [ "${VM_IOMMU_PASSTHROUGH:-}" = 1 ]; then
		drv_append="$drv_append iommu.passthrough=1"
	fi
}
image_release() { # IMAGE: the release string the kernel image carries
	case $arch in
	x86_64)
		# bzImage setup header field kernel_version (offset 0x20e)
		# points to it, relative to 0x200.
		local ptr
		ptr=$(od -An -tu2 -j $((0x20e)) -N2 "$1" | tr -d ' ')
		dd if="$1" bs=1 skip=$((ptr + 0x200)) count=256 status=none | tr '\0' '\n' | sed -n '1s/ .*//p' ;;
	*)
		# an uncompressed Image: the banner of /proc/version
		grep -a -o -m1 'Linux version [^ ]*' "$1" | sed -n '1s/^Linux version //p' ;;
	esac
}
case $krel in
*-arm64) arch=${VM_ARCH:-arm64} ;;
*-riscv64) arch=${VM_ARCH:-riscv64} ;;
*) arch=${VM_ARCH:-x86_64} ;;
esac
vm_arch "$arch"
# The ordinary lane's edu (MODE test without VM_IOMMU): QEMU's edu with no
# IOMMU in front of it, its DMA the DMA API's dma-direct (device address =
# physical), and ptwalk_edu=1 for the guest, which runs edu's kernel
# driver cases after the suite (tests/vm/guest-suite.sh).  VM_EDU=1 (the
# default on x86_64 and arm64) or 0 (riscv64's default).
edu_plain=${VM_EDU:-}
if [ -z "$edu_plain" ]; then
	case $arch in x86_64 | arm64) edu_plain=1 ;; *) edu_plain=0 ;; esac
fi
case $edu_plain in
0 | 1) ;;
*) die "VM_EDU=$edu_plain: 1 or 0" ;;
esac
if [ "$edu_plain" = 1 ] && [ "$mode" = test ] && [ "${VM_IOMMU:-}" != 1 ]; then
	machine+=(-device "edu,dma_mask=0xffffffffffff")
	drv_append="$drv_append ptwalk_edu=1"
fi
# make bench's IOMMU boot: a DMA-API device too, a virtio-blk disk behind
# the IOMMU (iommu_platform=on: its driver maps every request through the
# DMA API, iommu_map() and iommu_unmap()), on a sparse scratch file
if [ "$mode" = bench ] && [ "${VM_IOMMU:-}" = 1 ] && [ "$arch" = x86_64 ]; then
	mkdir -p "$out"
	truncate -s 256M "$out/scratch.img"
	# shellcheck disable=SC2054 # commas inside QEMU's arguments
	machine+=(-drive "file=$out/scratch.img,if=none,id=scratch,format=raw"
		-device "virtio-blk-pci,drive=scratch,iommu_platform=on,disable-legacy=on")
	drv_kmods="$drv_kmods virtio_pci virtio_blk"
fi
# Every IOMMU lane's real drivers (tests/vm/cases_dma_drivers.c), behind
# the IOMMU: virtio-blk and virtio-net with iommu_platform=on (their drivers
# then map every buffer through the DMA API), QEMU's nvme, e1000e; the two
# NICs on one QEMU hub, so that frames sent by one reach the other, with
# no option ROM (no firmware here boots from them, and riscv64's QEMU 10
# bundle has none).  Each
# disk a sparse 64M file; virtio-blk's throttled to VM_DISK_IOPS requests
# a second (200), so that requests stay mapped across ptcompare's two
# reads, as on a busy disk: the page cache's writeback then shows there
# (tests/vm/cases_dma_drivers.c).  The ring sizes given here are the
# cases' truth.  VM_DMA_DRIVERS=0: none of them (a kernel without their
# drivers: arm64's 64k lane).
if [ "$mode" = iommu ] && [ "${VM_DMA_DRIVERS:-1}" = 1 ]; then
	mkdir -p "$out"
	truncate -s 64M "$out/vblk.img" "$out/nvme.img"
	disk_iops=${VM_DISK_IOPS-200}
	# shellcheck disable=SC2054 # commas inside QEMU's arguments
	machine+=(-drive "file=$out/vblk.img,if=none,id=vblk,format=raw${disk_iops:+,throttling.iops-total=$disk_iops}"
		-device "virtio-blk-pci,drive=vblk,iommu_platform=on,disable-legacy=on,num-queues=2,queue-size=128"
		-drive "file=$out/nvme.img,if=none,id=nvme,format=raw"
		-device "nvme,drive=nvme,serial=ptwalk"
		-netdev "hubport,id=nic0,hubid=0"
		-device "virtio-net-pci,netdev=nic0,iommu_platform=on,disable-legacy=on,romfile="
		-netdev "hubport,id=nic1,hubid=0"
		-device "e1000e,netdev=nic1,romfile=")
	drv_kmods="$drv_kmods virtio_pci virtio_blk virtio_net nvme e1000e"
fi
# VM_QEMU: another build of the same QEMU system emulator (a newer one
# unpacked under build/, never installed); VM_QEMU_BIOS, its own firmware
# (-bios), which the installed QEMU's must not stand in for.  It must load
# no module of the installed QEMU, which abort another build:
# scripts/riscv64-qemu-fetch.sh makes its QEMU a bundle that looks for
# modules in its own tree alone.
qemu=${VM_QEMU:-$qemu}
if [ -n "${VM_QEMU_BIOS:-}" ]; then
	[ -r "$VM_QEMU_BIOS" ] || die "no $VM_QEMU_BIOS (VM_QEMU_BIOS)"
	machine+=(-bios "$VM_QEMU_BIOS")
fi
if [ -n "${VM_KERNEL:-}" ]; then
	[ -r "$kernel" ] || die "no $kernel (VM_KERNEL)"
	img_rel=$(image_release "$kernel")
	[ "$img_rel" = "$krel" ] || die "VM_KERNEL $kernel is release '$img_rel', not $krel"
else
	[ "$arch" = x86_64 ] || die "VM_KERNEL: which $arch kernel to boot (make check-$arch sets it)"
	[ -r "$kernel" ] || die "no $kernel: apt-get install linux-image-amd64 (or pass the KREL of an installed one)"
fi
command -v "$qemu" >/dev/null || die "$qemu missing: apt-get install $qemu_pkg"
[ -x "$sysroot/bin/busybox" ] || die "$sysroot/bin/busybox missing: apt-get install busybox-static${sysroot:+ (VM_SYSROOT: scripts/arm64-fetch.sh)}"
for ko in module/ptwalk.ko tests/fixture/ptwalk_fixture.ko tests/fixture/ptwalk_edu.ko; do
	if [ ! -r "$kodir/$ko" ] && [ "${VM_MISSING_KO:-}" = ok ]; then
		echo "vm-run: $kodir/$ko not built: booting without it (VM_MISSING_KO=ok)" >&2
		continue
	fi
	[ -r "$kodir/$ko" ] || die "$kodir/$ko not built: run make check"
	vm=$(modinfo -F vermagic "$kodir/$ko" | cut -d' ' -f1)
	[ "$vm" = "$krel" ] || die "$kodir/$ko is built for $vm, the VM boots $krel: rebuild with KDIR=/usr/src/linux-headers-$krel"
done

mkdir -p "$out"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
chmod 0755 "$root"	# mktemp makes it 0700: unprivileged test users need to reach /bin
mkdir -p "$root"/{bin,lib,tests,etc,proc,sys,dev,tmp}
cp "$sysroot/bin/busybox" "$root/bin/busybox"
cp "$top/tests/vm/guest-init.sh" "$root/init"
cp "$top/tests/vm/guest-suite.sh" "$top/tests/vm/guest-lockdown.sh" \
	"$top/tests/vm/guest-platform.sh" "$top/tests/vm/demo.sh" \
	"$top/tests/vm/bench.sh" "$root/tests/"
for ko in module/ptwalk.ko tests/fixture/ptwalk_fixture.ko tests/fixture/ptwalk_edu.ko; do
	[ ! -r "$kodir/$ko" ] || cp "$kodir/$ko" "$root/lib/"
done
# Kernel modules the guest needs, with every module they depend on, from
# the booted kernel's own tree: modules.dep lists a module's dependencies
# so that modprobe loads them last to first; one the kernel has built in
# (modules.builtin) needs nothing.  /init insmods the channel's (arm64's
# virtio-console) in the order of /lib/chan.load before it writes there,
# the guest suite zram's (for the swap tests) in the order of
# /lib/kmods.load; the modules themselves are in /lib/kmods/.
[ -r "$modtree/modules.dep" ] || die "no $modtree/modules.dep: the modules of $krel are not there"
mkdir -p "$root/lib/kmods"
: > "$root/lib/kmods.load"
: > "$root/lib/chan.load"
add_kmod_file() { # LOAD PATH [PARAMS]: PATH relative to the modules tree
	local name
	name=$(basename "$2")
	name=${name%%.ko*}.ko
	grep -q "^/lib/kmods/$name\( \|\$\)" "$root/lib/kmods.load" "$root/lib/chan.load" && return 0
	case $2 in
	*.ko) cp "$modtree/$2" "$root/lib/kmods/$name" ;;
	*.ko.xz) xz -dc "$modtree/$2" > "$root/lib/kmods/$name" ;;
	*.ko.zst) zstd -qdc "$modtree/$2" > "$root/lib/kmods/$name" ;;
	*.ko.gz) gzip -dc "$modtree/$2" > "$root/lib/kmods/$name" ;;
	*) die "$2: unknown module compression" ;;
	esac
	echo "/lib/kmods/$name${3:+ $3}" >> "$root/lib/$1"
}
add_kmod() { # LOAD NAME [PARAMS]
	local line dep
	grep -qE "(^|/)$2\.ko\$" "$modtree/modules.builtin" && return 0
	line=$(grep -E "(^|/)$2\.ko(\.[a-z]+)?:" "$modtree/modules.dep") ||
		die "kernel module $2 is neither in $modtree/modules.dep nor built in"
	for dep in $(echo "${line#*:}" | tr ' ' '\n' | tac); do
		add_kmod_file "$1" "$dep"
	done
	add_kmod_file "$1" "${line%%:*}" "${3:-}"
}
for m in $chan_kmods; do
	add_kmod chan.load "$m"
done
add_kmod kmods.load zram
for m in $drv_kmods; do	# NAME or NAME:PARAMS
	params=
	case $m in *:*) params=${m#*:} ;; esac
	add_kmod kmods.load "${m%%:*}" "$params"
done
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"

# Programs with the shared libraries they need; ptcompare opens libkmod
# only to explain a failure (dlopen), so ldd does not list it: it comes too.
add_libs() {
	local lib
	if [ -n "$sysroot" ]; then
		add_cross_libs "$1"
		return
	fi
	for lib in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*' || true); do
		[ -e "$root$lib" ] || install -D "$lib" "$root$lib"
	done
}
# Another architecture's program: ldd cannot run it, so its interpreter and
# NEEDED entries are read from the ELF and found in the sysroot or the
# cross toolchain (its libc); they go to the guest's /lib/TRIPLET.
cross_lib() { # NAME: its path on this machine
	local d
	for d in "$sysroot/lib/$triplet" "$sysroot/usr/lib/$triplet" "/usr/$triplet/lib"; do
		[ -e "$d/$1" ] && { echo "$d/$1"; return 0; }
	done
	die "library $1 (for $triplet) is neither in $sysroot nor in /usr/$triplet/lib"
}
add_cross_libs() {
	local interp lib path
	interp=$(readelf -l "$1" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
	if [ -n "$interp" ] && [ ! -e "$root$interp" ]; then
		path=$(cross_lib "$(basename "$interp")") || exit 2
		install -D "$path" "$root$interp"
	fi
	for lib in $(readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		[ -e "$root/lib/$triplet/$lib" ] && continue
		path=$(cross_lib "$lib") || exit 2
		install -D "$path" "$root/lib/$triplet/$lib"
		add_cross_libs "$root/lib/$triplet/$lib"
	done
}
add_program() {
	install -D -m 0755 "$1" "$root$2"
	add_libs "$1"
}
for spec in "$@"; do
	add_program "${spec%%:*}" "${spec#*:}"
done
if [ -n "$sysroot" ]; then
	libkmod=/lib/$triplet/libkmod.so.2
	path=$(cross_lib libkmod.so.2) || exit 2
	install -D "$path" "$root$libkmod"
else
	libkmod=$(ldconfig -p | sed -n 's/.*libkmod.so.2 (libc6,x86-64) => //p' | head -1)
	[ -n "$libkmod" ] || die "libkmod.so.2 missing: apt-get install libkmod2"
	install -D "$libkmod" "$root$libkmod"
fi
add_libs "$root$libkmod"
chmod +x "$root/init"

(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out/initramfs.gz"

rm -f "$out/console.log" "$out/guest.log" "$out/console-boot1.log"
# A boot whose guest has written nothing to its channel after
# boot_timeout_s is killed (status 125): a kernel that spins before /init
# (riscv64's 6.12 under QEMU 7.2 did, now and then) would otherwise hold
# the lane for its whole timeout.
kill_qemu() {
	pkill -TERM -P "$1" 2>/dev/null
	kill -TERM "$1" 2>/dev/null
	wait "$1"
}
boot() {
	local pid waited=0
	boot_qemu &
	pid=$!
	# once the guest has spoken, only the lane's timeout applies
	while [ ! -s "$out/guest.log" ] && kill -0 "$pid" 2>/dev/null; do
		if [ "$waited" -ge "$boot_timeout_s" ]; then
			kill_qemu "$pid"
			return 125
		fi
		sleep 1
		waited=$((waited + 1))
	done
	# ... until its end marker: then its poweroff has poweroff_grace_s
	# (status 126), not the rest of the lane's timeout
	waited=0
	while kill -0 "$pid" 2>/dev/null; do
		if tail -c 256 "$out/guest.log" | grep -aq 'PTWALK-GUEST-END'; then
			if [ "$waited" -ge "$poweroff_grace_s" ]; then
				kill_qemu "$pid"
				return 126
			fi
			waited=$((waited + 1))
		fi
		sleep 1
	done
	wait "$pid"
}
boot_qemu() {
	timeout "$timeout_s" "$qemu" \
		"${machine[@]}" -smp "$smp" -m "$mem" \
		-display none -no-reboot -monitor none \
		-serial "file:$out/console.log" "${chan_args[@]}" \
		-kernel "$kernel" -initrd "$out/initramfs.gz" \
		-append "console=$console loglevel=5 panic=-1 rdinit=/init ptwalk_mode=$mode ptwalk_chan=$chan${VM_ONLY:+ ptwalk_only=$VM_ONLY}${VM_SKIP:+ ptwalk_skip=$VM_SKIP}${iommu_cases:+ ptwalk_iommu_cases=1}${VM_STRESS_SECONDS:+ ptwalk_stress_s=$VM_STRESS_SECONDS}${sanitized:+ ptwalk_sanitized=$sanitized}${VM_SANITIZED_ONLY:+ ptwalk_sanitized_only=$VM_SANITIZED_ONLY} $hugepages transparent_hugepage=always${drv_append:+ $drv_append}${VM_APPEND:+ $VM_APPEND}"
}
set +e
boot
status=$?
# A kernel that dies before the guest suite began ran nothing of this
# project's (neither ptwalk module loaded, no case run): Debian's 7.2 once hit an int3 in the
# scheduler 1.4 s into a boot under TCG, its next boots clean.  Such a
# boot is tried once more, and the TAP says so; a second death fails.
# So is a boot whose guest said nothing in boot_timeout_s (status 125).
reboot_note=""
if [ $status -eq 125 ] || { [ $status -ne 124 ] && ! grep -aq '^PTWALK-GUEST-BEGIN' "$out/guest.log" 2>/dev/null &&
	grep -aq 'Kernel panic' "$out/console.log"; }; then
	if [ $status -eq 125 ]; then
		reboot_note="no output from the guest in ${boot_timeout_s}s"
	else
		reboot_note=$(tr -d '\r' < "$out/console.log" | grep -Eam1 'Oops|BUG:|Kernel panic' || true)
	fi
	mv "$out/console.log" "$out/console-boot1.log"
	rm -f "$out/guest.log"
	boot
	status=$?
fi
set -e
tr -d '\r' < "$out/guest.log" > "$out/guest.txt"

{
	[ -z "$reboot_note" ] ||
		echo "# the first boot died before /init (console-boot1.log: $reboot_note); booted again"
	sed -n '/^PTWALK-GUEST-BEGIN$/,/^PTWALK-DMESG-BEGIN$/p' "$out/guest.txt" |
		grep -E '^(ok|not ok) ' || true
	if grep -q '^PTWALK-GUEST-END$' "$out/guest.txt"; then
		echo "ok - vm_ran_to_completion"
		# every case ran, but the kernel's poweroff never ended: the
		# console names the device whose shutdown did not return
		# (guest-init.sh turns initcall_debug on before it)
		if [ $status -eq 124 ] || [ $status -eq 126 ]; then
			echo "# vm_ran_to_completion: the guest hung in its poweroff: killed $([ $status -eq 126 ] && echo "${poweroff_grace_s}s after its end marker" || echo "after ${timeout_s}s")"
			tr -d '\r' < "$out/console.log" | tail -n 8 | sed 's/^/# console: /'
		fi
	elif [ $status -eq 125 ]; then
		echo "not ok - vm_ran_to_completion # no output from the guest in ${boot_timeout_s}s, twice (console.log, console-boot1.log)"
		tr -d '\r' < "$out/console.log" | tail -n 25 | sed 's/^/# console: /'
	elif [ $status -eq 124 ]; then
		# the case running when it was killed: started, never ended
		last=$(grep -aE '^# start ' "$out/guest.txt" | tail -1 | cut -d' ' -f3)
		if [ -n "$last" ] && grep -aqE "^(ok|not ok) - $last( |\$)" "$out/guest.txt"; then
			last=""
		fi
		echo "not ok - vm_ran_to_completion # hung${last:+ in $last}: killed after ${timeout_s}s"
		# what the guest and its kernel said last, for a CI log that keeps no guest files
		tail -n 25 "$out/guest.txt" | sed 's/^/# guest: /'
		tr -d '\r' < "$out/console.log" | tail -n 25 | sed 's/^/# console: /'
	else
		# the guest's /init says on the console when it found no channel
		why=$(tr -d '\r' < "$out/console.log" | grep -m1 '^init: cannot open' || true)
		echo "not ok - vm_ran_to_completion # qemu exited $status before the end marker${why:+ ($why)}"
	fi
	# A splat fails the run even where every case passed.
	# kmemleak: its reports and its failures, not its boot banner.
	# A ThreadSanitizer report ("WARNING: ThreadSanitizer: data race") is
	# ptcompare's, not the kernel's: ptcompare_sanitizer_clean's below.
	splat='(WARNING:|BUG:|Oops|general protection|Call Trace|UBSAN|KASAN|unreferenced object|suspected memory leak|memory leak detector disabled|circular locking|possible recursive locking|sleeping function called)'
	tsan_line='(WARNING|ERROR|FATAL): ThreadSanitizer'
	first=$(grep -Eah "$splat" "$out/console.log" "$out/guest.txt" | grep -Ev "$tsan_line" | head -1 || true)
	if [ -n "$first" ]; then
		echo "not ok - kernel_log_clean # $first"
		# the report itself, for a CI log that keeps no guest files
		for log in "$out/console.log" "$out/guest.txt"; do
			if grep -Eaq "$splat" "$log"; then
				grep -Ea -m1 -A60 "$splat" "$log" | tr -d '\r' |
					sed 's/^/#   /'
				break
			fi
		done
	else
		echo "ok - kernel_log_clean"
	fi
	# The guest prints the sanitized ptcompare's reports: any fails the run.
	if [ -n "$sanitized" ]; then
		san="(runtime error:|ERROR: (Address|Leak)Sanitizer|$tsan_line)"
		if grep -Eaq "$san" "$out/guest.txt"; then
			echo "not ok - ptcompare_sanitizer_clean # $(grep -Eah "$san" "$out/guest.txt" | head -1)"
		else
			echo "ok - ptcompare_sanitizer_clean"
		fi
	fi
} > "$out/vm.tap"
sed -n '/^PTWALK-DMESG-BEGIN$/,/^PTWALK-DMESG-END$/p' "$out/guest.txt" > "$out/dmesg.txt"
if [ "$mode" = demo ] || [ "$mode" = bench ]; then
	sed -n '/^PTWALK-GUEST-BEGIN$/,/^PTWALK-DMESG-BEGIN$/p' "$out/guest.txt" |
		grep -v -e '^PTWALK-' -e '^ok - insmod'
fi
