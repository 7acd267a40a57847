#!/usr/bin/env bash
# gpudoctor guide (issue #13): docs/gpu-setup.md is `gpudoctor guide
# --markdown`, generated from the knowledge base; it must not drift
# (GPUDOCTOR_UPDATE_EXPECTED=1 rewrites it). Every guide section that
# check --brief points to on a captured machine must exist, and its anchor
# must be in the Markdown.
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
doc="$GD_SRCDIR/docs/gpu-setup.md"

"$GPUDOCTOR" guide --markdown > "$tmp/guide.md" || { echo "FAIL: guide --markdown"; exit 1; }
if [ -n "${GPUDOCTOR_UPDATE_EXPECTED:-}" ]; then
  cp "$tmp/guide.md" "$doc"
elif ! diff -u "$doc" "$tmp/guide.md"; then
  echo "FAIL: docs/gpu-setup.md differs from 'gpudoctor guide --markdown'"
  echo "      (regenerate: GPUDOCTOR_UPDATE_EXPECTED=1 ctest -R test_guide)"; fail=1
fi

for v in nvidia amd intel cpu; do
  "$GPUDOCTOR" guide --vendor "$v" > "$tmp/$v.txt" && [ -s "$tmp/$v.txt" ] ||
    { echo "FAIL: guide --vendor $v"; fail=1; }
done
"$GPUDOCTOR" guide --vendor nosuch >/dev/null 2>&1
[ $? = 3 ] || { echo "FAIL: an unknown section should exit 3"; fail=1; }

for s in $(cat "$GD_SRCDIR"/tests/fixtures/*/expected-brief.json |
           sed -n 's/.*"guide": "\(.*\)".*/\1/p' | sort -u); do
  "$GPUDOCTOR" guide --vendor "$s" > /dev/null 2>&1 ||
    { echo "FAIL: check --brief points to guide section '$s', which does not exist"; fail=1; }
  grep -q "<a id=\"${s/\#/-}\"></a>" "$tmp/guide.md" ||
    { echo "FAIL: no anchor for '$s' in the Markdown"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: guide"
exit "$fail"
