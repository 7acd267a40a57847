#!/usr/bin/env bash
# The seams DESIGN.md draws, checked on the source so they do not erode:
# only kb/ (and `gpudoctor kb`, which dumps entries as written) reads the
# knowledge base as JSON; judgement of probe results stays in doctor/;
# a GPU's code target comes from the vendor table, not from a copied
# "NVIDIA ? sm : gfx"; verdict lines carry a code.
set -u
: "${GD_SRCDIR:?source dir}"
cd "$GD_SRCDIR/src" || exit 1
fail=0

# check DESCRIPTION FILES...: fails when any file is listed
check() {
	local what=$1; shift
	if [ "$#" -gt 0 ]; then
		echo "FAIL $what: $*"
		fail=$((fail + 1))
	else
		echo "ok - $what"
	fi
}

# shellcheck disable=SC2046
# cli/guide_kb.c (the guide, h10) still reads JSON: a known exception
check "kb JSON (kb_raw.h, kb_internal.h) only in kb/ and cli/cmd_kb*.c" \
	$(grep -l -E '#include "(kb/)?kb_(raw|internal)\.h"' -r . |
	  grep -v -E '^\./kb/|^\./cli/(cmd_kb|cmd_kb_text|guide_kb)\.c$')
check "no raw kb lookups (gd_kb_root/get/str) outside kb/ and cli/cmd_kb*.c" \
	$(grep -l -E 'gd_kb_(root|get|str)\(' -r . |
	  grep -v -E '^\./kb/|^\./cli/(cmd_kb|cmd_kb_text|guide_kb)\.c$')
check "no kbroot parameters" $(grep -l -w kbroot -r .)
check "'no device' read from probe errors only in doctor/probe_verdict.c" \
	$(grep -l -E 'strstr\([^)]*"(NoDevice|no device|DEVICE_NOT_FOUND)"' -r . |
	  grep -v '^\./doctor/probe_verdict\.c$')
check "code targets from the vendor table" \
	$(grep -l -E 'GD_VENDOR_NVIDIA *\? *[a-z]+->(nv\.)?sm' -r .)
check "every verdict fact and step has a code" \
	$(grep -l -E 'gd_v_(fact|step)\([^,"]+, "' -r doctor)
[ "$fail" = 0 ] || { echo "test_seams: $fail failed"; exit 1; }
