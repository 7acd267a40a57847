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

# One pipeline for every judged OS (issue #21): the judged OS is chosen in
# one table (report/check_data.c); the rest reads gd_check_data. The other
# places that still ask are listed with what they do; the list may only
# shrink.
#   discover/discover.c  discovery's own source (registry or sysfs)
#   cli/cmd_env.c        the default shell of the judged machine
#   cli/cmd_gather.c     what a capture of that machine records
#   cli/wa_common.c      env/run take the Windows profile from the verdict
# shellcheck disable=SC2046
check "judged-OS ifs (gd_ctx_is_windows) only in the table and the allowed files" \
	$(grep -l -w gd_ctx_is_windows -r . --include='*.c' |
	  grep -v -E '^\./(core/|report/check_data\.c$|discover/discover\.c$|cli/(cmd_env|cmd_gather|wa_common)\.c$)')
# shellcheck disable=SC2046
check "no JSON built in cli/ check code (report/ renders the check)" \
	$(grep -l -E 'json_(object|array)_(set|append)' cli/cmd_check.c cli/check_*.c 2>/dev/null)
# shellcheck disable=SC2046
check "the backend-to-vendor map is the vendor table's (gd_vendor_of_backend)" \
	$(grep -l -E 'backend_vendor\(|GD_VENDOR_[A-Z]+ *&& *!strcmp\([^)]*"(hip|cuda)"' -r . --include='*.c')

# Vendor comparisons belong in the vendor and backend tables. What remains
# outside them, per file, with the count it may not exceed (lower it when
# a comparison moves into a table; a new file is a failure). Added by the
# fifth wave's parallel work, to move into the tables next: amdgpu.ids
# names by revision (ids.c), a Windows adapter's vendor from its name
# (win_adapter_name.c: "no vendor found" tests), the exporters' join labels
# per vendor (cmd_metrics.c: NVIDIA's UUID, AMD's gpu_id).
vendor_max="cli/cmd_list.c 1
cli/cmd_metrics.c 3
discover/discover.c 2
discover/drm.c 4
discover/ids.c 2
discover/kstate.c 1
discover/override.c 2
discover/win_adapter_name.c 4
discover/win_adapters.c 4
doctor/evidence.c 2
doctor/explain_check.c 8
doctor/explain_check.h 1
doctor/explain_check_override.c 2
doctor/probe_cause.c 4
doctor/strategy.c 5
doctor/verdict.c 2
doctor/verdict_amd.c 1
doctor/verdict_deps.c 1
doctor/verdict_kernel.c 8
doctor/verdict_strategy.c 1
report/check_brief.c 4
report/check_extra.c 1
report/render_windows.c 1"
over=$(grep -r -c -E '(==|!=)\s*GD_VENDOR_|GD_VENDOR_[A-Z]+\s*(==|!=)|case GD_VENDOR_' \
	--include='*.c' --include='*.h' . | grep -v ':0$' | sed 's|^\./||' |
	while IFS=: read -r f n; do
		[ "$f" = discover/vendor.c ] && continue
		max=$(printf '%s\n' "$vendor_max" | awk -v f="$f" '$1 == f { print $2 }')
		[ -n "$max" ] && [ "$n" -le "$max" ] || echo "$f($n>${max:-0})"
	done)
# shellcheck disable=SC2086
check "vendor comparisons outside the vendor tables: none new, none more" $over
[ "$fail" = 0 ] || { echo "test_seams: $fail failed"; exit 1; }
