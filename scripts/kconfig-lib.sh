# shellcheck shell=bash
# What the scripts that generate a kernel config from fragments
# (config-check.sh, debug-kernel.sh) share; sourced.

# config_missing WHO CONFIG: each fragment line on stdin ("CONFIG_X=v" or
# "# CONFIG_X is not set") that CONFIG does not hold, on stderr as "WHO
# wants 'LINE', the config has 'WHAT'" (olddefconfig silently drops a
# symbol whose dependencies are not met); on stdout, how many.
config_missing() {
	local who=$1 config=$2 line sym got missing=0

	while IFS= read -r line; do
		case $line in
		"# CONFIG_"*" is not set")
			sym=${line#\# }
			sym=${sym%% *}
			got=$(grep "^$sym=" "$config" || true)
			[ -z "$got" ] && continue
			;;
		CONFIG_*=*)
			grep -qxF -- "$line" "$config" && continue
			sym=${line%%=*}
			got=$(grep -e "^$sym=" -e "^# $sym is not set" "$config" || true)
			;;
		*) continue ;;
		esac
		echo "$who wants '$line', the config has '${got:-nothing}'" >&2
		missing=$((missing + 1))
	done
	echo "$missing"
}
