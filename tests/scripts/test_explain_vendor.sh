#!/usr/bin/env bash
# The failures the vendors and projects document themselves
# (docs/vendor-failures.tsv: the message as their page prints it, the page,
# the date read, the documented cause, the signature that explains it):
# each message alone through `explain -` must come back with that signature
# as its first match; `none` rows (documented as harmless, or a warning
# before the real failure) must match nothing (messages_list.sh).
set -u
: "${GPUDOCTOR:?set GPUDOCTOR to the built binary}"
command -v jq >/dev/null || { echo "skipped: no jq"; exit 77; }
: "${GD_SRCDIR:?set GD_SRCDIR to the source tree}"
. "$GD_SRCDIR/tests/scripts/messages_list.sh"
check_messages "$GD_SRCDIR/docs/vendor-failures.tsv" 250 "vendor-documented failures"
