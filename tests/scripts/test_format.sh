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
# shellcheck disable=SC2086
# the knowledge base is reviewed line by line: no line over 1,000
# characters (tools/kb-format.py spreads an entry out; --check names them)
python3 "$GD_SRCDIR/tools/kb-format.py" --check "$GD_SRCDIR/src/kb/gpudoctor-kb.json" ||
	{ echo "FAIL: run tools/kb-format.py"; exit 1; }
# and it refuses a kb that does not parse (an entry left after the array's
# last one), which no line length shows
bad=$(mktemp) || exit 1
sed '0,/"id": "cuda-oom"/s//"id": "cuda-oom",,/' "$GD_SRCDIR/src/kb/gpudoctor-kb.json" >"$bad"
msg=$(python3 "$GD_SRCDIR/tools/kb-format.py" --check "$bad") &&
	{ rm -f "$bad"; echo "FAIL: kb-format.py --check passed a kb that is not JSON"; exit 1; }
rm -f "$bad"
case $msg in *"not valid JSON"*) ;; *) echo "FAIL: kb-format.py --check on bad JSON said: $msg"; exit 1 ;; esac
# nor one that names a source twice (JSON would keep only the second)
first=$(jq -r '.sources | keys[0]' "$GD_SRCDIR/src/kb/gpudoctor-kb.json")
sed "0,/^\"$first\": {/s//\"$first\": {\"title\": \"again\"},\n&/" "$GD_SRCDIR/src/kb/gpudoctor-kb.json" >"$bad"
msg=$(python3 "$GD_SRCDIR/tools/kb-format.py" --check "$bad") &&
	{ rm -f "$bad"; echo "FAIL: kb-format.py --check passed a kb with source $first twice"; exit 1; }
rm -f "$bad"
case $msg in *"key given twice: $first"*) ;; *) echo "FAIL: kb-format.py --check on a doubled key said: $msg"; exit 1 ;; esac
out=$("$cf" --dry-run $files 2>&1)
n=$(printf '%s\n' "$out" | grep -c 'warning:')
if [ "$n" -gt 0 ]; then
	printf '%s\n' "$out" | grep 'warning:' | head -20
	echo "FAIL: $n places differ from .clang-format ($("$cf" --version))"
	exit 1
fi
echo "ok: $(echo "$files" | wc -w) C files formatted as .clang-format says"
