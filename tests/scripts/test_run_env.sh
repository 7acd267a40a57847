#!/usr/bin/env bash
# gpudoctor run / env end to end:
#  - arguments full of shell metacharacters reach the child verbatim (no
#    shell anywhere between the user's argv and exec), and `--json` after
#    `--`, or after CMD without `--`, belongs to the child;
#  - what `env` prints, evaluated by sh (dash) and by fish, gives exactly
#    the environment `run` gives its child (env -0 dumps compared);
#  - a group-writable profile is refused with the chmod that fixes it;
#  - run's exit status is the child's; a missing command gives 127.
set -u
GPUDOCTOR=${GPUDOCTOR:?set GPUDOCTOR to the built binary}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
umask 077

ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fail=1; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

export XDG_CONFIG_HOME="$tmp/cfg"
mkdir -p -m 700 "$XDG_CONFIG_HOME/gpudoctor"
prof="$XDG_CONFIG_HOME/gpudoctor/t.profile"
cat >"$prof" <<EOF
# gpudoctor profile t
saved 2026-11-22
note a test profile; \$(not expanded)
set HSA_OVERRIDE_GFX_VERSION=10.3.0
set WEIRD=it's a "test" \$(touch $tmp/pwned-env) \`x\` \\back\\slash * ; & | < > ~ #
unset REMOVE_ME
prepend-path LD_LIBRARY_PATH=/opt/rocm-6.2.4/lib
prepend-path NEWLIST=/opt/x y
set FISHY=a\\'b\\\\c
EOF
export REMOVE_ME=1 LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu
# fish sets USER when it is missing: give both sides the same one
USER=$(id -un)
export USER
unset NEWLIST 2>/dev/null || true

# 1. Arguments arrive verbatim: the child prints its argv NUL-separated.
args=('$(touch '"$tmp"'/pwned)' '; rm -rf x' '"' '*' $'\n' "'" '`id`' '--json'
      '--root' '/' '' '-- ' '\')
"$GPUDOCTOR" run -q --profile t -- printf '%s\0' "${args[@]}" >"$tmp/argv.got"
printf '%s\0' "${args[@]}" >"$tmp/argv.want"
check "metacharacter arguments arrive verbatim" \
	'cmp -s "$tmp/argv.got" "$tmp/argv.want"'
check "no command substitution ran" '[ ! -e "$tmp/pwned" ]'
"$GPUDOCTOR" run -q --profile t -- python3 -c \
	'import json,sys; print(json.dumps(sys.argv[1:]))' "${args[@]}" \
	>"$tmp/argv.json"
python3 -c 'import json,sys; print(json.dumps(sys.argv[1:]))' "${args[@]}" \
	>"$tmp/argv.json.want"
check "argv as JSON (python3 child) is identical" \
	'cmp -s "$tmp/argv.json" "$tmp/argv.json.want"'

# 1b. Without "--", CMD starts at the first word that is not an option:
# everything from there is CMD's, global-looking options included.
"$GPUDOCTOR" run -q --profile t printf '%s\0' "${args[@]}" >"$tmp/argv.got"
check "run --profile t CMD ARGS (no --): arguments verbatim" \
	'cmp -s "$tmp/argv.got" "$tmp/argv.want"'
got=$("$GPUDOCTOR" run -q echo --json --root x hi 2>"$tmp/err")
check "run -q echo --json --root x hi prints '--json --root x hi'" \
	'[ "$got" = "--json --root x hi" ] && [ ! -s "$tmp/err" ]'

# 2. The one stderr line says what was applied.
"$GPUDOCTOR" run --profile t -- true 2>"$tmp/line"
check "one stderr line" '[ "$(wc -l <"$tmp/line")" -eq 1 ]'
check "the line names the profile and the override" \
	'grep -q "profile t: HSA_OVERRIDE_GFX_VERSION=10.3.0" "$tmp/line" &&
	 grep -q "(saved 2026-11-22)" "$tmp/line"'
"$GPUDOCTOR" run --json --profile t -- true 2>"$tmp/line.json"
check "run --json: the stderr line is JSON with schema_version" \
	'jq -e ".schema_version == 1 and .profile.set.HSA_OVERRIDE_GFX_VERSION == \"10.3.0\"" "$tmp/line.json" >/dev/null'

# 3. env evaluated by sh and by fish == the environment run gives.
filter() { # drop what a shell itself sets or changes
	python3 -c '
import sys
skip = ("PWD=", "OLDPWD=", "SHLVL=", "_=")
items = sys.stdin.buffer.read().split(b"\0")
out = sorted(i for i in items if i and not i.decode("utf-8","replace").startswith(skip))
sys.stdout.buffer.write(b"\0".join(out) + b"\0")'
}
"$GPUDOCTOR" run -q --profile t -- env -0 | filter >"$tmp/env.run"
"$GPUDOCTOR" env --profile t --shell sh >"$tmp/env.sh"
sh -c '. "$1"; exec env -0' sh "$tmp/env.sh" | filter >"$tmp/env.dash"
check "env --shell sh, evaluated by sh (dash), gives run's environment" \
	'cmp -s "$tmp/env.run" "$tmp/env.dash"'
bash -c 'eval "$("$1" env --profile t --shell bash)"; exec env -0' bash \
	"$GPUDOCTOR" | filter >"$tmp/env.bash"
check "... and evaluated by bash" 'cmp -s "$tmp/env.run" "$tmp/env.bash"'
if command -v fish >/dev/null; then
	"$GPUDOCTOR" env --profile t --shell fish >"$tmp/env.fish"
	fish --no-config -c 'source $argv[1]; or exit 9; exec env -0' \
		"$tmp/env.fish" |
		filter >"$tmp/env.fishout"
	check "env --shell fish, sourced by fish, gives run's environment" \
		'cmp -s "$tmp/env.run" "$tmp/env.fishout"'
else
	echo "note: fish not installed; fish round trip not run"
fi
check "no command substitution ran in any shell" '[ ! -e "$tmp/pwned-env" ]'
check "the child saw the values" \
	'tr "\0" "\n" <"$tmp/env.run" | grep -qx "LD_LIBRARY_PATH=/opt/rocm-6.2.4/lib:/usr/lib/x86_64-linux-gnu" &&
	 tr "\0" "\n" <"$tmp/env.run" | grep -qx "NEWLIST=/opt/x y" &&
	 ! tr "\0" "\n" <"$tmp/env.run" | grep -q "^REMOVE_ME="'
"$GPUDOCTOR" env --profile t --shell powershell >"$tmp/env.ps1"
check "powershell: single quotes doubled, Remove-Item for unset" \
	'grep -qF "\$env:WEIRD = '"'"'it'"''"'s a" "$tmp/env.ps1" &&
	 grep -q "Remove-Item Env:REMOVE_ME" "$tmp/env.ps1" &&
	 grep -q "os.add_dll_directory(" "$tmp/env.ps1"'
check "cmd: refuses values cmd.exe cannot take literally" \
	'! "$GPUDOCTOR" env --profile t --shell cmd >/dev/null 2>&1'
"$GPUDOCTOR" env --json --profile t >"$tmp/env.json"
check "env --json: schema_version, set, unset, prepend_path" \
	'jq -e ".schema_version == 1 and .profile.set.WEIRD != null and
	        .profile.unset == [\"REMOVE_ME\"] and
	        (.profile.prepend_path | length) == 2" "$tmp/env.json" >/dev/null'

# 4. Exit status is the child's; missing command: clear error, 127.
"$GPUDOCTOR" run -q --profile t -- sh -c 'exit 42'
check "run passes the child's exit status (42)" '[ $? -eq 42 ]'
"$GPUDOCTOR" run -q --profile t -- /nonexistent/cmd 2>"$tmp/err"
rc=$?
check "run -- /nonexistent exits 127" '[ $rc -eq 127 ]'
check "... with a clear message, said once" \
	'grep -qx "gpudoctor run: cannot run '"'/nonexistent/cmd'"': No such file or directory" "$tmp/err" &&
	 [ "$(wc -l <"$tmp/err")" -eq 1 ]'

# 5. Unsafe profiles are refused, with the fix.
chmod g+w "$prof"
"$GPUDOCTOR" run -q --profile t -- true 2>"$tmp/err"
rc=$?
check "group-writable profile refused (exit 125)" '[ $rc -eq 125 ]'
check "... saying why and how to fix it" \
	'grep -q "writable by group" "$tmp/err" && grep -q "chmod go-w $prof" "$tmp/err"'
"$GPUDOCTOR" env --profile t >/dev/null 2>&1
check "env refuses it too" '[ $? -ne 0 ]'
chmod go-w "$prof"
printf 'set HSA_OVERRIDE_GFX_VERSION=gfx1030\n' >"$XDG_CONFIG_HOME/gpudoctor/bad.profile"
"$GPUDOCTOR" run -q --profile bad -- true 2>"$tmp/err"
check "an override libhsakmt would reject is refused" \
	'[ $? -eq 125 ] && grep -q "not MAJOR.MINOR.STEPPING" "$tmp/err"'
"$GPUDOCTOR" run -q --profile nosuch -- true 2>"$tmp/err"
check "a missing named profile is an error" \
	'[ $? -eq 125 ] && grep -q "no profile .nosuch." "$tmp/err"'

# 6. No profile: env shows the kb's workaround commented out, applies nothing.
fx="$(cd "$(dirname "$0")/../fixtures" && pwd)/rx5700xt/root"
XDG_CONFIG_HOME="$tmp/empty" "$GPUDOCTOR" --root "$fx" env --shell sh >"$tmp/untried" 2>&1
check "no profile: the kb's workaround is shown as a comment" \
	'grep -qx "#   export HSA_OVERRIDE_GFX_VERSION='"'10.3.0'"'" "$tmp/untried" &&
	 grep -q "^# not applied: .*gpudoctor try --save" "$tmp/untried"'
check "... and evaluating the lines sets nothing" \
	'[ -z "$(env -u HSA_OVERRIDE_GFX_VERSION sh -c ". \"$tmp/untried\"; printf %s \"\${HSA_OVERRIDE_GFX_VERSION-}\"")" ]'
check "... every line is a comment" '! grep -qv "^#" "$tmp/untried"'

exit $fail
