#!/usr/bin/env bash
# explain over the real-failure corpus (tests/fixtures/logs/INDEX.tsv: each
# log, its thread, the signature ids expected in log order or "none").
# Prints matched-right / matched-wrong / missed and fails on any wrong
# match (a wrong diagnosis is worse than none), on a match out of order,
# or when matched-right drops below the figure recorded in
# tests/fixtures/logs/README.md ("corpus-floor: N").
set -u
: "${GPUDOCTOR:?set GPUDOCTOR to the built binary}"
command -v jq >/dev/null || { echo "skipped: no jq"; exit 77; }
: "${GD_SRCDIR:?set GD_SRCDIR to the source tree}"
dir="$GD_SRCDIR/tests/fixtures/logs"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/root" # an empty machine: the ids must not depend on this one
right=0 wrong=0 missed=0 total=0 fail=0
while IFS=$'\t' read -r file url expect _; do
	case $file in '#'* | '') continue ;; esac
	total=$((total + 1))
	if [ ! -f "$dir/$file" ]; then
		echo "FAIL $file: listed in INDEX.tsv but missing"
		fail=1
		continue
	fi
	"$GPUDOCTOR" --root "$tmp/root" explain --json "$dir/$file" \
		>"$tmp/out" 2>"$tmp/err"
	got=$(jq -r '[.matches[].id] | join(",")' "$tmp/out")
	[ "$expect" = none ] && exp="" || exp=$expect
	bad=""
	for id in ${got//,/ }; do
		case ",$exp," in *",$id,"*) ;; *) bad="$bad $id" ;; esac
	done
	if [ -n "$bad" ]; then
		wrong=$((wrong + 1))
		echo "WRONG $file: matched$bad (expected ${expect}) [$url]"
	elif [ "$got" = "$exp" ]; then
		right=$((right + 1))
	elif [ -n "$got" ] && [ "$(tr , '\n' <<<"$got" | sort | paste -sd, -)" = \
		"$(tr , '\n' <<<"$exp" | sort | paste -sd, -)" ]; then
		wrong=$((wrong + 1))
		echo "ORDER $file: matched $got, expected $exp"
	else
		missed=$((missed + 1))
		echo "MISSED $file: matched '${got}', expected $expect [$url]"
	fi
done <"$dir/INDEX.tsv"
# Every log in the directory is listed in the index.
for f in "$dir"/*.txt; do
	b=$(basename "$f")
	if ! cut -f1 "$dir/INDEX.tsv" | grep -qx -- "$b"; then
		echo "FAIL $b: not in INDEX.tsv"
		fail=1
	fi
done
floor=$(sed -n 's/.*corpus-floor: \([0-9][0-9]*\).*/\1/p' "$dir/README.md" | head -1)
echo "corpus: $total logs: matched-right $right, matched-wrong $wrong, missed $missed (floor ${floor:-unset})"
[ "$wrong" -eq 0 ] || fail=1
if [ -z "$floor" ] || [ "$right" -lt "$floor" ]; then
	echo "FAIL matched-right $right is below the recorded floor ${floor:-unset}"
	fail=1
fi
exit $fail
