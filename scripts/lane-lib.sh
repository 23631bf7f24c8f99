# shellcheck shell=bash
# shellcheck disable=SC2154 # top: the sourcing script's
# What the cross lanes' scripts (arm64-check.sh, riscv64-check.sh) share;
# sourced, with top set to the tree.

# step TAP LOGDIR NAME MAKE-ARGS...: make's output to LOGDIR/NAME.log; on
# TAP, "ok - NAME # N s", or "not ok - NAME # " and the log's first error
# line; the status of make.
step() {
	local tap=$1 logdir=$2 name=$3 start why
	shift 3
	start=$(date +%s)
	if make -C "$top" --no-print-directory "$@" > "$logdir/$name.log" 2>&1; then
		echo "ok - $name # $(($(date +%s) - start)) s" >> "$tap"
		return 0
	fi
	why=$(grep -m1 -E ' error:|^make.*\*\*\*|(arm64|riscv64)-fetch:|kernel-fetch:|vm-run:' "$logdir/$name.log" |
		sed "s|$top/||g")
	echo "not ok - $name # ${why:-make $* failed}, see $logdir/$name.log" >> "$tap"
	return 1
}

# kernel_fetched NAME KOUT TAP: waits for the background fetch of a lane's
# kernel into KOUT (its fetch.rc); "ok - NAME # N s" on TAP, or "not ok -
# NAME" with the fetch log's last line (its tail on stderr): false.
kernel_fetched() {
	local name=$1 kout=$2 tap=$3
	while [ ! -e "$kout/fetch.rc" ]; do
		sleep 2
	done
	if [ "$(cat "$kout/fetch.rc")" != 0 ]; then
		tail -5 "$kout/fetch.log" >&2
		echo "not ok - $name # $(tail -1 "$kout/fetch.log"), see $kout/fetch.log" >> "$tap"
		return 1
	fi
	echo "ok - $name # $(cat "$kout/fetch.seconds") s" >> "$tap"
}

# lane_env_mk VAR KOUT: the lines of a lane's env.mk (VAR_KREL, VAR_KDIR,
# ...) from KOUT/kernel.env (scripts/kernel-fetch.sh's), on stdout.
lane_env_mk() {
	(
		# shellcheck source=/dev/null
		. "$2/kernel.env"
		echo "# Written by scripts/${0##*/} from $2/kernel.env"
		local pair src
		for pair in KREL:KREL KDIR:KDIR KERNEL:VMLINUZ MODDIR:MODTREE \
			CHROOT:CHROOT KCC:KCC; do
			src=${pair#*:}
			echo "$1_${pair%%:*} := ${!src:-}"
		done
	)
}
