#!/usr/bin/env bash
# .gpudoctor/devnodes (docs/devnodes.md): a capture's GPU device nodes are
# judged as the live machine's are (an AMD GPU's /dev/kfd and render node
# closed to the user: the group to join); a capture without the list says
# what was not recorded and gives no access step; gather keeps the list of
# a tree it replays, and writes one live. The tree is the rx7900xtx fixture
# with the list a user outside the render group would capture.
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
command -v jq >/dev/null || { echo "skipped: jq not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
run() { env -i PATH=/usr/bin:/bin LANG=C HOME=/nonexistent "$GPUDOCTOR" "$@" 2>/dev/null; }
ok() { if [ "$1" = 0 ]; then echo "ok - $2"; else echo "FAIL $2"; fail=1; fi; }

cp -a "$GD_SRCDIR/tests/fixtures/rx7900xtx/root" "$tmp/r"
mkdir -p "$tmp/r/.gpudoctor"
printf 'gpudoctor-devnodes 1\nuser 1000 1000,44\nc 238:0 0660 0 109 render /dev/kfd\nd 0:0 0755 0 0 root /dev/dri\nc 226:128 0660 0 109 render /dev/dri/renderD128\n' \
  >"$tmp/r/.gpudoctor/devnodes"
out=$(run --root "$tmp/r" check --no-probe)
grep -q '/dev/kfd: no read-write access (mode 660, group render, not yours)' <<<"$out" &&
  grep -q 'Give your user access to the GPU: sudo usermod -aG render' <<<"$out"
ok $? "a capture's list: /dev/kfd and the render node closed, join render"

out=$(run --root "$tmp/r" --json check --no-probe)
jq -e '.gpus[0].verdict.facts | map(.code) | index("access.kfd") != null' <<<"$out" >/dev/null
ok $? "JSON: the access.kfd fact"

# the user in render (gid 109): nothing to grant
sed -i 's/^user .*/user 1000 1000,44,109/' "$tmp/r/.gpudoctor/devnodes"
out=$(run --root "$tmp/r" check --no-probe)
! grep -q 'no read-write access\|usermod' <<<"$out"
ok $? "a user in the render group: no access finding"

# an older capture: environ, an empty dev/, no list: not recorded, no step
rm "$tmp/r/.gpudoctor/devnodes"
mkdir -p "$tmp/r/dev/dri"
: >"$tmp/r/.gpudoctor/environ"
out=$(run --root "$tmp/r" --json check --no-probe)
jq -e '.gpus[0].access.kfd_unknown == "/dev/kfd is not in the capture"' <<<"$out" >/dev/null &&
  ! grep -q 'usermod\|--device=/dev/kfd' <<<"$out"
ok $? "no list: /dev/kfd not in the capture, no access step"

# gather: a tree's list is kept, a tree without one gets none, live writes one
printf 'gpudoctor-devnodes 1\nuser 0 0\nc 238:0 0666 0 0 root /dev/kfd\n' >"$tmp/r/.gpudoctor/devnodes"
run --root "$tmp/r" gather "$tmp/a.tar.gz" >/dev/null
tar xzf "$tmp/a.tar.gz" -O .gpudoctor/devnodes 2>/dev/null | grep -qx 'c 238:0 0666 0 0 root /dev/kfd'
ok $? "gather --root keeps the tree's device list"
rm "$tmp/r/.gpudoctor/devnodes"
run --root "$tmp/r" gather "$tmp/b.tar.gz" >/dev/null
! tar tzf "$tmp/b.tar.gz" | grep -q devnodes
ok $? "gather --root of a tree without a list writes none"
run gather "$tmp/c.tar.gz" >/dev/null
tar xzf "$tmp/c.tar.gz" -O .gpudoctor/devnodes 2>/dev/null | head -2 | grep -q '^user [0-9]'
ok $? "live gather writes the list with the user line"
exit $fail
