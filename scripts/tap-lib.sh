# shellcheck shell=bash
# TAP lines for the test scripts that source this (packaging-test.sh,
# deb-test.sh, dist-test.sh), appended to the file named by their $out.
#   ok NAME              "ok - NAME"
#   nok NAME REASON      "not ok - NAME # REASON"
#   check NAME REASON COMMAND...   ok when COMMAND succeeds, else nok
#                        with REASON, its newlines made spaces
#   oneline FILE [N]     FILE's first N bytes (300) on one line
# and the start every such script shares:
#   tap_begin NAME OUT [new]   the tree's top the working directory ($top),
#                        OUT ($out) begun in its directory (emptied with
#                        "new", else appended to), $tmp a new temporary
#                        directory removed on exit, INT and TERM exit 2

# shellcheck disable=SC2154 # $out: the sourcing script sets it
ok() { echo "ok - $1" >> "$out"; }
nok() { echo "not ok - $1 # $2" >> "$out"; }
check() {
	local name=$1 why=${2//$'\n'/ }
	shift 2
	if "$@"; then ok "$name"; else nok "$name" "$why"; fi
}
oneline() { head -c "${2:-300}" "$1" | tr '\n' ' '; }
tap_begin() {
	out=${2:?usage: $1-test.sh OUT.tap}
	top=$(cd "$(dirname "$0")/.." && pwd)
	cd "$top" || exit 2
	mkdir -p "$(dirname "$out")"
	if [ "${3-}" = new ]; then : > "$out"; else touch "$out"; fi
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptwalk-$1.XXXXXX") || exit 2
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 2' INT TERM
}
