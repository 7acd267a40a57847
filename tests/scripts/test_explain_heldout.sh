#!/usr/bin/env bash
# explain on the generalization corpus (tests/fixtures/explain-corpus: real
# logs from public threads with the causes the threads established, split by
# thread into train and held-out halves). Fails when a train log is not
# judged right, or when the held-out half falls below the figure recorded in
# its README.md ("held-out-floor: right N of M, wrong at most W"). The
# held-out logs are never used to write signatures.
set -u
: "${GPUDOCTOR:?set GPUDOCTOR to the built binary}"
: "${GD_SRCDIR:?set GD_SRCDIR to the source tree}"
command -v python3 >/dev/null || {
	echo "SKIP: no python3"
	exit 77
}
exec python3 "$GD_SRCDIR/bench/explain-corpus.py" --gpudoctor "$GPUDOCTOR" \
	--corpus "$GD_SRCDIR/tests/fixtures/explain-corpus" --check-floor
