# Sourced by test_explain_vendor.sh and test_explain_framework.sh: feed each
# message of a list (5 tab-separated columns: message, where it comes from,
# a date or version, the cause, the signature that explains it) alone
# through `explain -` and expect that signature as the first match; `none`
# rows must match nothing. An Xid line must also be decoded by its own
# number (the `detail` names "Xid N:").
#   check_messages LIST MIN_ROWS WHAT
check_messages() {
	local list=$1 min=$2 what=$3 tmp total=0 fail=0 first exp n
	local msg url read cause want
	tmp=$(mktemp -d)
	mkdir "$tmp/root" # an empty machine: the answer must not depend on this one
	while IFS=$'\t' read -r msg url read cause want; do
		case $msg in '#'* | '') continue ;; esac
		total=$((total + 1))
		if [ -z "$want" ] || [ -z "$url" ] || [ -z "$cause" ]; then
			echo "FAIL row $total: want 5 tab-separated columns"
			fail=1
			continue
		fi
		printf '%s\n' "$msg" |
			"$GPUDOCTOR" --root "$tmp/root" explain --json - >"$tmp/out" 2>/dev/null
		first=$(jq -r '.matches[0].id // empty' "$tmp/out")
		[ "$want" = none ] && exp="" || exp=$want
		if [ "$first" != "$exp" ]; then
			echo "FAIL want ${want} got ${first:-nothing}: $msg"
			fail=1
			continue
		fi
		case $msg in *"NVRM: Xid (PCI:"*)
			n=$(printf '%s' "$msg" | sed -n 's/.*NVRM: Xid (PCI:[^)]*): \([0-9]*\).*/\1/p')
			if ! grep -q "\"detail\": \"Xid $n: " "$tmp/out"; then
				echo "FAIL Xid $n not decoded: $msg"
				fail=1
			fi
			;;
		esac
	done <"$list"
	rm -rf "$tmp"
	echo "$what: $total, $([ $fail = 0 ] && echo all explained || echo some not)"
	[ "$total" -ge "$min" ] || { echo "FAIL only $total rows in $list"; fail=1; }
	return $fail
}
