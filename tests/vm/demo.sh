#!/bin/sh
# Guest side of `make demo`: translate a process with a THP, a hugetlb page,
# a remap_pfn_range mapping and a PCI BAR, as ptwalk sees it.
# liar_scan START END FROM: ptcompare --kpageflags against the fixture's
# impostor over [START, END) of the target, its report from the line that
# starts with FROM on, and its exit status.
liar_scan() {
	echo "--- ptcompare --kpageflags --debugfs /sys/kernel/debug/ptwalk_fixture_liar --range $1-$2 $pid"
	ptcompare --kpageflags --debugfs /sys/kernel/debug/ptwalk_fixture_liar --range "$1-$2" "$pid" > /tmp/liar.txt
	status=$?
	sed -n "/^$3/,\$p" /tmp/liar.txt
	echo "(exit status $status)"
	echo
}
echo "=== ptwalk demo: kernel $(uname -r) ==="
/bin/demo_target /tmp/ranges &
pid=$!
while [ ! -s /tmp/ranges ]; do sleep 0.1; done
sleep 0.2
echo "target pid $pid maps:"
sed 's/^/  /' /tmp/ranges
echo
echo "--- ptcompare --kpageflags $pid"
ptcompare --kpageflags "$pid"
echo "(exit status $?)"
read -r name start end < /tmp/ranges
echo
echo "--- ptcompare --json --kpageflags --range $start-$end $pid  ($name)"
ptcompare --json --kpageflags --range "$start-$end" "$pid"
bar_start=$(awk '$1 == "pci_bar_vga" { print $2 }' /tmp/ranges)
thp_end=$(awk '$1 == "thp" { print $3 }' /tmp/ranges)
if [ -n "$bar_start" ] && [ -n "$thp_end" ]; then
	echo
	echo "--- the DMA view of a range: the PCI BAR, the remap_pfn_range mapping, untouched anonymous pages, the THP"
	echo "--- ptcompare --range $bar_start-$thp_end $pid  (from the findings on)"
	ptcompare --range "$bar_start-$thp_end" "$pid" | sed -n '/^findings/,$p'
	echo "--- ptcompare --json --range $bar_start-$thp_end $pid  (the dma object)"
	ptcompare --json --range "$bar_start-$thp_end" "$pid" | sed -n '/^"dma"/,$p'
fi
echo
echo "--- what a mismatch looks like: the test fixture's impostor claims frames pagemap contradicts"
liar_scan "$start" "$end" findings
addr=$(printf '0x%x' $((start + 0x12345)))
echo "--- ptcompare $pid $addr  (one address of the $name, like crash's vtop)"
ptcompare "$pid" "$addr"
echo "(exit status $?)"
while read -r name2 start2 end2; do
	[ "$name2" = remap_pfn_range ] || continue
	addr=$(printf '0x%x' $((start2 + 0x3010)))
	echo
	echo "--- ptcompare --json $pid $addr  ($name2)"
	ptcompare --json "$pid" "$addr"
	echo "(exit status $?)"
done < /tmp/ranges
echo
echo "--- ptcompare $pid 0x1000  (an address no VMA holds)"
ptcompare "$pid" 0x1000
echo "(exit status $?)"
echo
# u64 little-endian, as printf octal escapes (busybox has no \x)
le64() {
	v=$1 i=0
	while [ $i -lt 8 ]; do
		printf "\\$(printf %03o $((v & 255)))"
		v=$((v >> 8)) i=$((i + 1))
	done
}
read -r name start end < /tmp/ranges
pm=$(dd if=/proc/$pid/pagemap bs=8 skip=$((start / 4096)) count=1 2>/dev/null |
	od -An -tx8 | tr -d ' ')
pfn=$((0x$pm & 0x7fffffffffffff))
echo "--- a contradiction only the third witness sees: the impostor now tells the true frame"
echo "--- of the $name's first page (pagemap agrees) but calls it a plain 4 KiB page, not part of a compound page"
{ le64 "$start"; le64 $((start + 4096)); le64 "$pfn"; le64 $((0x10403))
  le64 $((0x1007 | 1 << 32)); } > /tmp/claim
# one write of the whole struct ptwalk_fixture_liar_claim
dd if=/tmp/claim of=/sys/kernel/debug/ptwalk_fixture_liar/claim bs=40 count=1 2>/dev/null
liar_scan "$start" "$(printf 0x%x $((start + 4096)))" "physical memory"
echo "--- raw pagemap entries of the first page of each mapping"
while read -r name start end; do
	pm=$(dd if=/proc/$pid/pagemap bs=8 skip=$((start / 4096)) count=1 2>/dev/null |
		od -An -tx8 | tr -d ' ')
	echo "    $name: 0x$pm (bit 63 = present, bits 0-54 = pfn)"
done < /tmp/ranges
bar=$(for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor")" = 0x1234 ] && head -1 "$d/resource" | cut -d' ' -f1; done)
echo
echo "VGA BAR 0 starts at physical $bar: its frame number is that address >> 12."
echo "pagemap's generic walker skips VM_PFNMAP mappings (the BAR, remap_pfn_range):"
echo "their entries above read as holes, while ptwalk reads the frames from the page tables."
kill "$pid"
