#!/usr/bin/env bash
# The embedded id tables (docs/ids.md): the committed src/discover/ids_table.c
# is what tools/gen-ids.py makes of data/ids/, and every GPU id in it gets its
# architecture from `gpudoctor --root` on a tree of PCI files only.
set -u
: "${GPUDOCTOR:?built binary}" "${GD_SRCDIR:?source dir}"
command -v python3 >/dev/null || { echo "skipped: python3 not installed"; exit 77; }
python3 "$GD_SRCDIR/tools/gen-ids.py" --check || exit 1
exec python3 "$GD_SRCDIR/tests/scripts/ids_every.py"
