#!/usr/bin/env bash
# The frameworks' own failure messages, harvested from their sources at
# pinned versions (docs/framework-messages.tsv: one instance of the message
# as the code prints it, the file and line at the pinned tag, the releases
# that print it, the cause the code's context shows, the signature that
# explains it): each alone through `explain -` must come back with that
# signature as its first match (messages_list.sh).
set -u
: "${GPUDOCTOR:?set GPUDOCTOR to the built binary}"
command -v jq >/dev/null || { echo "skipped: no jq"; exit 77; }
: "${GD_SRCDIR:?set GD_SRCDIR to the source tree}"
. "$GD_SRCDIR/tests/scripts/messages_list.sh"
check_messages "$GD_SRCDIR/docs/framework-messages.tsv" 300 "framework messages"
