#!/usr/bin/env bash
# The committed .clang-format is the style (docs/style.md habit 11): every C file
# of the tree must already be formatted by it. Reformat with
#   clang-format -i $(git ls-files '*.c' '*.h')
# clang-format's output differs between major versions: the check uses the
# one tools/install-deps.sh installs (clang-format-14 on Debian 12) and says
# so when it is missing.
set -u
: "${GD_SRCDIR:?}"
cd "$GD_SRCDIR" || exit 1
cf=$(command -v clang-format-14 || command -v clang-format) ||
	{ echo "skipped: clang-format not installed"; exit 77; }
files=$(git ls-files '*.c' '*.h' 2>/dev/null) ||
	files=$(find src shim tests tools bench -name '*.[ch]' 2>/dev/null)
[ -n "$files" ] || { echo "FAIL: no C files found"; exit 1; }
# the knowledge base is reviewed line by line: no line over 1,000
# characters (tools/kb-format.py spreads an entry out; --check names them)
python3 "$GD_SRCDIR/tools/kb-format.py" --check "$GD_SRCDIR/src/kb/gpudoctor-kb.json" ||
	{ echo "FAIL: run tools/kb-format.py"; exit 1; }
# and it refuses a kb that no line length shows is broken: refused WHAT SED
# WANT edits a copy with SED and wants --check to fail saying WANT
refused() {
	bad=$(mktemp) || exit 1
	sed "$2" "$GD_SRCDIR/src/kb/gpudoctor-kb.json" >"$bad"
	msg=$(python3 "$GD_SRCDIR/tools/kb-format.py" --check "$bad")
	rc=$?
	rm -f "$bad"
	[ "$rc" -ne 0 ] || { echo "FAIL: kb-format.py --check passed $1"; exit 1; }
	case $msg in *"$3"*) ;; *) echo "FAIL: kb-format.py --check on $1 said: $msg"; exit 1 ;; esac
}
# an entry left after the array's last one: not JSON
refused "a kb that is not JSON" '0,/"id": "cuda-oom"/s//"id": "cuda-oom",,/' "not valid JSON"
# a source named twice (JSON would keep only the second)
first=$(jq -r '.sources | keys[0]' "$GD_SRCDIR/src/kb/gpudoctor-kb.json")
refused "a kb with source $first twice" "0,/^\"$first\": {/s//\"$first\": {\"title\": \"again\"},\n&/" "key given twice: $first"
# shellcheck disable=SC2086
out=$("$cf" --dry-run $files 2>&1)
n=$(printf '%s\n' "$out" | grep -c 'warning:')
if [ "$n" -gt 0 ]; then
	printf '%s\n' "$out" | grep 'warning:' | head -20
	echo "FAIL: $n places differ from .clang-format ($("$cf" --version))"
	exit 1
fi
echo "ok: $(echo "$files" | wc -w) C files formatted as .clang-format says"
