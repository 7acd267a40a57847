#!/usr/bin/env bash
# zsh completion (completion/_gpudoctor) offers the commands and the probe
# backends. Skipped (exit 77, shown by ctest) when zsh is not installed.
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
if ! command -v zsh >/dev/null; then
  echo "SKIP: zsh not installed (tools/install-deps.sh test installs it)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" && ln -s "$GPUDOCTOR" "$tmp/bin/gpudoctor"
export PATH="$tmp/bin:$PATH"
fail=0
# The completion function runs outside compsys: _describe and _files are
# stood in by functions that print what they were given.
zraw() { # words (the last is the current one)
  zsh -f -c '
    fpath=("$1" $fpath); shift
    autoload -Uz _gpudoctor
    _describe() { local n=${@[-1]}; print -rl -- "${(@P)n}" }
    _files() { print -r -- ":files $*" }
    _command_names() { print -r -- ":commands" }
    words=("$@"); CURRENT=$#
    _gpudoctor' _ "$GD_SRCDIR/completion" "$@"
}
zcomp() { zraw "$@" | cut -d: -f1 | sort | tr '\n' ' '; }
out=$(zcomp gpudoctor "")
for c in check list probe scan run try env explain report gather kb; do
  [[ " $out" == *" $c "* ]] || { echo "FAIL: zsh: '' does not offer $c: $out"; fail=1; }
done
want=$(gpudoctor __complete probe --backend "" | sort | tr '\n' ' ')
out=$(zcomp gpudoctor probe --backend "")
[ "$out" = "$want" ] || { echo "FAIL: zsh: 'probe --backend ': '$out', want '$want'"; fail=1; }
out=$(zraw gpudoctor scan "")
[[ "$out" == ":files"* ]] || { echo "FAIL: zsh: 'scan ' gives no files: '$out'"; fail=1; }
echo "zsh completion: $([ $fail = 0 ] && echo ok || echo failed)"
[ "$fail" = 0 ]
