# Sourced by the tracer's script tests (test_trace*.sh): the built binary,
# the source tree, a temporary directory removed at exit (also TMPDIR, where
# the shim writes its logs), an empty machine root, ok/bad and $fail.
GPUDOCTOR=${GPUDOCTOR:?set GPUDOCTOR to the built binary}
here=$(cd "$(dirname "$0")" && pwd)
src=${GD_SRCDIR:-$here/../..}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/root" "$tmp/t"
export TMPDIR=$tmp/t
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
