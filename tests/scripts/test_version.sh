#!/usr/bin/env bash
# The version: `gpudoctor --version` names the build and the knowledge base
# it uses; tools/version.cmake takes `git describe --tags --dirty` in a
# checkout and the project VERSION elsewhere (a tiny git repository here).
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
gd=$GPUDOCTOR
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL: $*"; fail=1; }

out=$("$gd" --version)
grep -Eq '^gpudoctor [0-9][^ ]* \(knowledge base [0-9]{4}-[0-9]{2}-[0-9]{2}\)$' <<< "$out" || bad "--version: '$out'"
# the kb named with --kb is the one whose date is shown
sed 's/"kb_date": "[0-9-]*"/"kb_date": "2099-01-02"/' "$GD_SRCDIR/src/kb/gpudoctor-kb.json" > "$tmp/kb.json"
out=$("$gd" --kb "$tmp/kb.json" --version)
[[ "$out" == *"(knowledge base 2099-01-02)" ]] || bad "--kb FILE --version: '$out'"

ver() { # source dir -> the GD_VERSION_FULL tools/version.cmake writes
  rm -f "$tmp/v.h"
  cmake -DSRC="$1" -DOUT="$tmp/v.h" -DFALLBACK=9.9.9 -P "$GD_SRCDIR/tools/version.cmake" &&
    sed -n 's/^#define GD_VERSION_FULL "\(.*\)"$/\1/p' "$tmp/v.h"
}
command -v git >/dev/null || { echo "SKIP: git not installed"; exit 77; }
r="$tmp/repo"
mkdir -p "$r" && git -C "$r" init -q && echo a > "$r/f"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
git -C "$r" add f && git -C "$r" commit -qm one
[ "$(ver "$r")" = 9.9.9 ] || bad "a checkout without tags: '$(ver "$r")', want the fallback"
git -C "$r" tag v1.2.3
[ "$(ver "$r")" = 1.2.3 ] || bad "on tag v1.2.3: '$(ver "$r")'"
echo b > "$r/f" && git -C "$r" commit -qam two
h=$(git -C "$r" rev-parse --short HEAD)
[ "$(ver "$r")" = "1.2.3-1-g$h" ] || bad "a commit after the tag: '$(ver "$r")', want 1.2.3-1-g$h"
echo c > "$r/f"
[ "$(ver "$r")" = "1.2.3-1-g$h-dirty" ] || bad "a changed tree: '$(ver "$r")'"
mkdir -p "$tmp/tarball"
[ "$(ver "$tmp/tarball")" = 9.9.9 ] || bad "no checkout: '$(ver "$tmp/tarball")'"
# unchanged text: the header is not rewritten (nothing recompiles)
ver "$r" >/dev/null && touch -d @1000000000 "$tmp/v.h"
cmake -DSRC="$r" -DOUT="$tmp/v.h" -DFALLBACK=9.9.9 -P "$GD_SRCDIR/tools/version.cmake"
[ "$(stat -c %Y "$tmp/v.h")" = 1000000000 ] || bad "gd_version.h rewritten with the same text"
echo "version: $([ $fail = 0 ] && echo ok || echo failed)"
[ "$fail" = 0 ]
