#!/usr/bin/env bash
# The failures the vendors and projects document themselves
# (docs/vendor-failures.tsv: the message as their page prints it, the page,
# the date read, the documented cause, the signature that explains it):
# each message alone through `explain -` must come back with that signature
# as its first match; `none` rows (documented as harmless, or a warning
# before the real failure) must match nothing. An Xid line must also be
# decoded by its own number (the `detail` names "Xid N:").
set -u
: "${GPUDOCTOR:?set GPUDOCTOR to the built binary}"
command -v jq >/dev/null || { echo "skipped: no jq"; exit 77; }
: "${GD_SRCDIR:?set GD_SRCDIR to the source tree}"
list="$GD_SRCDIR/docs/vendor-failures.tsv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/root" # an empty machine: the answer must not depend on this one
total=0 fail=0
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
echo "vendor-documented failures: $total, $([ $fail = 0 ] && echo all explained || echo some not)"
[ "$total" -ge 60 ] || { echo "FAIL only $total rows in $list"; fail=1; }
exit $fail
