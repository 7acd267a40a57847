#!/usr/bin/env bash
# Run one libFuzzer target for a few seconds from a scratch copy of its seed
# corpus. A crash, leak or timeout makes libFuzzer exit non-zero.
# With a fourth argument RUNS (make fuzz-long), run RUNS inputs instead of
# SECS seconds.
set -eu
bin=$1 seeds=$2 secs=$3 runs=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus"
[ -d "$seeds" ] && cp -r "$seeds"/. "$work/corpus/" 2>/dev/null || true
cd "$work"
if [ -n "$runs" ]; then limit="-runs=$runs"; else limit="-max_total_time=$secs"; fi
"$bin" "$limit" -timeout=10 -rss_limit_mb=2048 \
       -max_len=65536 -print_final_stats=1 corpus 2>&1 | tail -n 25
exit "${PIPESTATUS[0]}"
