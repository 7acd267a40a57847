#!/usr/bin/env bash
# Failures made to happen on a real NVIDIA GPU (tests/fixtures/device-
# captures: what PyTorch 2.11, CUDA 13, NCCL, JAX, CuPy, ONNX Runtime and nvcc
# printed, unchanged): each capture's first match must be the signature
# EXPECT.tsv names, with the cause the case was made to have as its first.
set -u
: "${GPUDOCTOR:?set GPUDOCTOR to the built binary}"
: "${GD_SRCDIR:?set GD_SRCDIR to the source tree}"
command -v jq >/dev/null || { echo "skipped: no jq"; exit 77; }
D=$GD_SRCDIR/tests/fixtures/device-captures
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir "$T/root" # an empty machine: the answer comes from the log alone
fail=0 n=0
while IFS=$'\t' read -r file what sig cause; do
	case $file in '#'* | '') continue ;; esac
	n=$((n + 1))
	got=$("$GPUDOCTOR" --root "$T/root" explain --json "$D/$file" |
		jq -r '"\(.matches[0].id // "none") \(.matches[0].causes[0].id // "none")"')
	if [ "$got" = "$sig $cause" ]; then
		echo "ok: $file ($what)"
	else
		echo "FAIL: $file ($what): got '$got', want '$sig $cause'"
		fail=1
	fi
done <"$D/EXPECT.tsv"
# every capture is listed, and the list is not empty
listed=$(grep -vc '^#' "$D/EXPECT.tsv")
files=$(ls "$D"/*.txt | wc -l)
[ "$n" -ge 20 ] && [ "$listed" = "$files" ] && echo "ok: $files captures, all listed" ||
	{ echo "FAIL: $files captures, $listed listed, $n read"; fail=1; }
exit $fail
