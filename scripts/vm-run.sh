#!/bin/bash
# Boots Debian's kernel under QEMU with an initramfs holding busybox,
# ptwalk.ko, the test fixture and the test programs, and runs the guest
# suite there.  Writes TAP to $OUT/vm.tap (guest cases plus "the VM
# finished" and "the kernel log is clean"), the console to $OUT/console.log.
#
# usage: scripts/vm-run.sh OUTDIR KREL MODE [extra files: SRC:DEST ...]
#   KREL: kernel release, e.g. 6.1.0-56-amd64 (/boot/vmlinuz-KREL)
#   MODE: test | demo | bench
# Env: VM_TIMEOUT (seconds, default 600), VM_MEM (default 4G), VM_ACCEL
# (tcg, the default, or kvm); VM_KERNEL, a kernel image to boot instead of
# /boot/vmlinuz-KREL (its release must be KREL; make check-debug uses it);
# VM_KO_DIR, where module/ptwalk.ko and tests/fixture/ptwalk_fixture.ko are
# (default: this tree); VM_MODTREE, the booted kernel's modules tree, where
# the kernel modules the suite needs come from (default /lib/modules/KREL);
# VM_ONLY, run only the vmtest cases whose names start so (the shell cases of
# the guest suite still run); VM_SANITIZED=1, the /bin/ptcompare given is the
# ASan+UBSan build (make check-debug): the guest sets the sanitizers'
# options, and any report fails the run.
set -euo pipefail

out=$1 krel=$2 mode=$3
shift 3
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=${VM_KERNEL:-/boot/vmlinuz-$krel}
kodir=${VM_KO_DIR:-$top}
timeout_s=${VM_TIMEOUT:-600}

die() { echo "vm-run: $*" >&2; exit 2; }
if [ -n "${VM_KERNEL:-}" ]; then
	[ -r "$kernel" ] || die "no $kernel (VM_KERNEL)"
	# The release string a bzImage carries: setup header field kernel_version
	# (offset 0x20e) points to it, relative to 0x200.
	ptr=$(od -An -tu2 -j $((0x20e)) -N2 "$kernel" | tr -d ' ')
	img_rel=$(dd if="$kernel" bs=1 skip=$((ptr + 0x200)) count=256 status=none | tr '\0' '\n' | sed -n '1s/ .*//p')
	[ "$img_rel" = "$krel" ] || die "VM_KERNEL $kernel is release '$img_rel', not $krel"
else
	[ -r "$kernel" ] || die "no $kernel: apt-get install linux-image-amd64 (or pass the KREL of an installed one)"
fi
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: apt-get install qemu-system-x86"
[ -x /bin/busybox ] || die "/bin/busybox missing: apt-get install busybox-static"
for ko in module/ptwalk.ko tests/fixture/ptwalk_fixture.ko; do
	[ -r "$kodir/$ko" ] || die "$kodir/$ko not built: run make check"
	vm=$(modinfo -F vermagic "$kodir/$ko" | cut -d' ' -f1)
	[ "$vm" = "$krel" ] || die "$kodir/$ko is built for $vm, the VM boots $krel: rebuild with KDIR=/usr/src/linux-headers-$krel"
done

mkdir -p "$out"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
chmod 0755 "$root"	# mktemp makes it 0700: unprivileged test users need to reach /bin
mkdir -p "$root"/{bin,lib,tests,etc,proc,sys,dev,tmp}
cp /bin/busybox "$root/bin/busybox"
cp "$top/tests/vm/guest-init.sh" "$root/init"
cp "$top/tests/vm/guest-suite.sh" "$top/tests/vm/guest-lockdown.sh" "$top/tests/vm/demo.sh" "$top/tests/vm/bench.sh" "$root/tests/"
cp "$kodir/module/ptwalk.ko" "$kodir/tests/fixture/ptwalk_fixture.ko" "$root/lib/"
# Kernel modules the suite needs (zram, for the swap tests), with every
# module they depend on, from the booted kernel's own tree: modules.dep
# lists a module's dependencies so that modprobe loads them last to first;
# one the kernel has built in (modules.builtin) needs nothing.  The guest
# insmods /lib/kmods/* in the order of /lib/kmods.load.
modtree=${VM_MODTREE:-/lib/modules/$krel}
[ -r "$modtree/modules.dep" ] || die "no $modtree/modules.dep: the modules of $krel are not there"
mkdir -p "$root/lib/kmods"
: > "$root/lib/kmods.load"
add_kmod_file() { # PATH relative to the modules tree [PARAMS]
	local name
	name=$(basename "$1")
	name=${name%%.ko*}.ko
	grep -q "^/lib/kmods/$name\( \|\$\)" "$root/lib/kmods.load" && return 0
	case $1 in
	*.ko) cp "$modtree/$1" "$root/lib/kmods/$name" ;;
	*.ko.xz) xz -dc "$modtree/$1" > "$root/lib/kmods/$name" ;;
	*.ko.zst) zstd -qdc "$modtree/$1" > "$root/lib/kmods/$name" ;;
	*.ko.gz) gzip -dc "$modtree/$1" > "$root/lib/kmods/$name" ;;
	*) die "$1: unknown module compression" ;;
	esac
	echo "/lib/kmods/$name${2:+ $2}" >> "$root/lib/kmods.load"
}
add_kmod() { # NAME [PARAMS]
	local line dep
	grep -qE "(^|/)$1\.ko\$" "$modtree/modules.builtin" && return 0
	line=$(grep -E "(^|/)$1\.ko(\.[a-z]+)?:" "$modtree/modules.dep") ||
		die "kernel module $1 is neither in $modtree/modules.dep nor built in"
	for dep in $(echo "${line#*:}" | tr ' ' '\n' | tac); do
		add_kmod_file "$dep"
	done
	add_kmod_file "${line%%:*}" "${2:-}"
}
add_kmod zram
# The real drivers of the dmainfo cases: vgem (DRM dumb buffers) and vivid
# (V4L2) with its dma-contig allocator.
add_kmod vgem
add_kmod vivid allocators=1
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"

# Programs with the shared libraries they need; ptcompare opens libkmod
# only to explain a failure (dlopen), so ldd does not list it: it comes too.
add_libs() {
	local lib
	for lib in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*' || true); do
		[ -e "$root$lib" ] || install -D "$lib" "$root$lib"
	done
}
add_program() {
	install -D -m 0755 "$1" "$root$2"
	add_libs "$1"
}
for spec in "$@"; do
	add_program "${spec%%:*}" "${spec#*:}"
done
libkmod=$(ldconfig -p | sed -n 's/.*libkmod.so.2 (libc6,x86-64) => //p' | head -1)
[ -n "$libkmod" ] || die "libkmod.so.2 missing: apt-get install libkmod2"
install -D "$libkmod" "$root$libkmod"
add_libs "$libkmod"
chmod +x "$root/init"

(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out/initramfs.gz"

# Software emulation by default: on the machines this runs on /dev/kvm can
# exist without working (a guest that never prints).  VM_ACCEL=kvm opts in.
accel=${VM_ACCEL:-tcg}
# Two NUMA nodes, a CPU (and socket) each, half the memory each: the
# dmainfo cases bind buffers to each.  The second half lies wholly above
# 4 GiB, where the boot-time 1G hugetlb page finds room (with node 1 only
# 1G, its page did not fit anywhere).
mem=${VM_MEM:-4G}
if ! [[ $mem =~ ^[0-9]+G$ ]] || [ $((${mem%G} % 2)) != 0 ]; then
	die "VM_MEM=$mem: give an even number of GiB (4G)"
fi
half=$((${mem%G} / 2))G
numa=(-object "memory-backend-ram,id=m0,size=$half"
	-object "memory-backend-ram,id=m1,size=$half"
	-numa "node,nodeid=0,cpus=0,memdev=m0" -numa "node,nodeid=1,cpus=1,memdev=m1")
rm -f "$out/console.log" "$out/guest.log"
set +e
timeout "$timeout_s" qemu-system-x86_64 \
	-machine q35,accel=$accel -cpu max -smp 2,sockets=2 -m "$mem" "${numa[@]}" \
	-vga std -display none -no-reboot -monitor none \
	-serial "file:$out/console.log" -serial "file:$out/guest.log" \
	-kernel "$kernel" -initrd "$out/initramfs.gz" \
	-append "console=ttyS0 loglevel=5 panic=-1 rdinit=/init ptwalk_mode=$mode${VM_ONLY:+ ptwalk_only=$VM_ONLY}${VM_SANITIZED:+ ptwalk_sanitized=1} hugepagesz=1G hugepages=1 hugepagesz=2M hugepages=16 transparent_hugepage=always vivid.allocators=1"
status=$?
set -e
tr -d '\r' < "$out/guest.log" > "$out/guest.txt"

{
	sed -n '/^PTWALK-GUEST-BEGIN$/,/^PTWALK-DMESG-BEGIN$/p' "$out/guest.txt" |
		grep -E '^(ok|not ok) ' || true
	if grep -q '^PTWALK-GUEST-END$' "$out/guest.txt"; then
		echo "ok - vm_ran_to_completion"
	elif [ $status -eq 124 ]; then
		echo "not ok - vm_ran_to_completion # hung: killed after ${timeout_s}s"
	else
		echo "not ok - vm_ran_to_completion # qemu exited $status before the end marker"
	fi
	# A splat fails the run even where every case passed.
	# kmemleak: its reports and its failures, not its boot banner.
	splat='(WARNING:|BUG:|Oops|general protection|Call Trace|UBSAN|KASAN|unreferenced object|suspected memory leak|memory leak detector disabled|circular locking|possible recursive locking|sleeping function called)'
	if grep -Eq "$splat" "$out/console.log" "$out/guest.txt"; then
		echo "not ok - kernel_log_clean # $(grep -Eh "$splat" "$out/console.log" "$out/guest.txt" | head -1)"
	else
		echo "ok - kernel_log_clean"
	fi
	# The guest prints the sanitized ptcompare's reports: any fails the run.
	if [ -n "${VM_SANITIZED:-}" ]; then
		san='(runtime error:|ERROR: (Address|Leak)Sanitizer)'
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
