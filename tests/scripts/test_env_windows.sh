#!/usr/bin/env bash
# `env` for a Windows machine (issue #14): on the report's capture it sets
# HIP_PATH to the SDK that matches the driver (6.2, not the 7.1 HIP_PATH
# names), puts its bin first on PATH and gives the exact Python line;
# PowerShell is the default shell there. Then the same capture with a
# hostile %ProgramFiles% (quotes, $(...), backticks, %VAR%, !, ^, &, |):
#  - the sh lines, evaluated by sh, give the value byte for byte and run
#    nothing;
#  - the PowerShell lines hold it in '...' with ' doubled (read back by the
#    rules of PowerShell's single-quoted strings; pwsh is not in Debian);
#  - cmd refuses (it has no quoting that stops %VAR% and ^), and a value
#    with only & | ( ) ; is set right by Wine's cmd.exe when Wine is there;
#  - the Python line is a literal Python reads back as the folder.
# Under Wine, the Windows build's run in an environment spelling it "Path"
# (names are case-insensitive on Windows): one Path, SDK bin first.
set -u
: "${GPUDOCTOR:?built binary}" "${GD_SRCDIR:?source dir}"
command -v jq >/dev/null || { echo "skipped: jq not installed"; exit 77; }
FX=$GD_SRCDIR/tests/fixtures/windows-rx5700xt-hip62-hip71/root
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fail=1; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }
G() { env -i PATH=/usr/bin:/bin HOME="$tmp" "$GPUDOCTOR" "$@"; }

# 1. the report's machine
G --root "$FX" env >"$tmp/ps.txt"
check "default shell for a Windows machine is PowerShell" \
	"grep -qxF \"\\\$env:HIP_PATH = 'C:\\Program Files\\AMD\\ROCm\\6.2\\'\" '$tmp/ps.txt'"
# sh on Windows is Git Bash or MSYS2: PATH in their form (/c/..., ':'),
# which they convert when starting a Windows program; HIP_PATH as is
G --root "$FX" env --shell sh >"$tmp/sh.txt"
(PATH=/usr/bin:/bin; . "$tmp/sh.txt"; printf '%s\n%s\n' "$HIP_PATH" "$PATH") >"$tmp/sh.out"
printf '%s\n%s\n' 'C:\Program Files\AMD\ROCm\6.2\' '/c/Program Files/AMD/ROCm/6.2/bin:/usr/bin:/bin' >"$tmp/sh.want"
check "sh: HIP_PATH is SDK 6.2 (not 7.1), its bin first on PATH as /c/..." \
	'cmp -s "$tmp/sh.out" "$tmp/sh.want"'
(unset PATH; . "$tmp/sh.txt"; printf '%s\n' "$PATH") >"$tmp/sh.out2" 2>/dev/null
check "sh: no PATH before: just the SDK's bin" \
	"[ \"\$(cat '$tmp/sh.out2')\" = '/c/Program Files/AMD/ROCm/6.2/bin' ]"
if command -v fish >/dev/null; then
	G --root "$FX" env --shell fish >"$tmp/fish.txt"
	out=$(PATH=/usr/bin:/bin fish -c "source $tmp/fish.txt; printf '%s\n' \"\$HIP_PATH\" \"\$PATH\"" 2>/dev/null)
	check "fish: the same values" \
		'[ "$out" = "$(cat "$tmp/sh.want")" ]'
fi
# a profile file of one's own: a drive folder on another list variable
# stays C:\... joined with ';' (Windows programs read it); a drive letter
# other than C becomes its own /d/...
printf 'prepend-path PATH=D:\\tools\\bin\nprepend-path OCL_DIRS=C:\\ocl\n' >"$tmp/own.prof"
chmod 600 "$tmp/own.prof"
G --root "$FX" env --profile "$tmp/own.prof" --shell sh >"$tmp/own.sh"
(PATH=/usr/bin; OCL_DIRS='C:\old'; . "$tmp/own.sh"; printf '%s\n%s\n' "$PATH" "$OCL_DIRS") >"$tmp/own.out"
printf '%s\n%s\n' '/d/tools/bin:/usr/bin' 'C:\ocl;C:\old' >"$tmp/own.want"
check "sh: /d/... on PATH, another list of Windows folders joined with ';'" \
	'cmp -s "$tmp/own.out" "$tmp/own.want"'
G --root "$FX" --json env >"$tmp/env.json"
python3 - "$tmp/env.json" <<'EOF' >"$tmp/env.res"
import json, sys
d = json.load(open(sys.argv[1]))
ok = (d["python"] == ["import os",
      'os.add_dll_directory(r"C:\\Program Files\\AMD\\ROCm\\6.2\\bin")']
      and d["origin"] == "recommended"
      and d["profile"]["set"]["HIP_PATH"] == "C:\\Program Files\\AMD\\ROCm\\6.2\\")
print("ok" if ok else d)
EOF
check "JSON: the exact Python lines, HIP_PATH corrected" '[ "$(cat "$tmp/env.res")" = ok ]'
G --root "$FX" run -q -- /usr/bin/env >"$tmp/run.env"
check "run: the SDK's bin first on PATH, ';' after a Windows folder" \
	"grep -qxF 'PATH=C:\\Program Files\\AMD\\ROCm\\6.2\\bin;/usr/bin:/bin' '$tmp/run.env'"
check "the note says why HIP_PATH changes" \
	"grep -qF 'HIP_PATH named HIP SDK 7.1 (HIP 7)' '$tmp/ps.txt'"

# 2. a hostile %ProgramFiles%: the capture copied with the folder renamed
hostile() { # name, ProgramFiles value (after C:\)
	local d=$tmp/$1
	mkdir -p "$d/fs/C"
	cp -r "$FX/registry" "$FX/.gpudoctor" "$d/"
	cp -r "$FX/fs/C/Windows" "$d/fs/C/"
	cp -r "$FX/fs/C/Program Files" "$d/fs/C/$2"
	grep -v '^ProgramFiles=' "$FX/.gpudoctor/environ" >"$d/.gpudoctor/environ"
	printf 'ProgramFiles=C:\\%s\n' "$2" >>"$d/.gpudoctor/environ"
}
bad_name=$'P\'r"o $(touch PWNED)`touch PWNED2` %PATH% !x! ^& | ; \xe2\x80\x99q'
hostile h1 "$bad_name"
want='C:\'"$bad_name"'\AMD\ROCm\6.2'
G --root "$tmp/h1" env --shell sh >"$tmp/h1.sh" 2>"$tmp/h1.err"
(cd "$tmp" && PATH=/usr/bin:/bin; . "$tmp/h1.sh"; printf '%s' "$HIP_PATH") >"$tmp/h1.val"
printf '%s\\' "$want" >"$tmp/h1.want"
check "sh: hostile HIP_PATH arrives byte for byte" 'cmp -s "$tmp/h1.val" "$tmp/h1.want"'
check "sh: nothing in it ran" '[ ! -e "$tmp/PWNED" ] && [ ! -e "$tmp/PWNED2" ]'
G --root "$tmp/h1" env --shell powershell >"$tmp/h1.ps1"
python3 - "$tmp/h1.ps1" "$want\\" <<'EOF' >"$tmp/h1.psres"
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
want = sys.argv[2]
m = re.search(r"^\$env:HIP_PATH = '((?:[^'\u2018\u2019\u201a\u201b]|''|\u2018\u2018|\u2019\u2019|\u201a\u201a|\u201b\u201b)*)'$", text, re.M)
# PowerShell single-quoted string: a quote character (' or U+2018..201B)
# is written twice; nothing else is special.
val = re.sub("(['\u2018\u2019\u201a\u201b])\\1", r"\1", m.group(1)) if m else None
print("ok" if val == want else "got %r" % val)
EOF
check "powershell: hostile HIP_PATH is one single-quoted literal" \
	'[ "$(cat "$tmp/h1.psres")" = ok ]'
G --root "$tmp/h1" env --shell cmd >"$tmp/h1.cmd" 2>"$tmp/h1.cmderr"; rc=$?
check "cmd: a value with \" % ! ^ is refused (exit $rc)" \
	'[ "$rc" -ne 0 ] && grep -q "use --shell powershell" "$tmp/h1.cmderr"'
G --root "$tmp/h1" --json env >"$tmp/h1.json"
python3 - "$tmp/h1.json" "$want\\bin" <<'EOF' >"$tmp/h1.pyres"
import ast, json, sys
doc = json.load(open(sys.argv[1]))
line = doc["python"][1]
assert line.startswith("os.add_dll_directory(") and line.endswith(")")
print("ok" if ast.literal_eval(line[len("os.add_dll_directory("):-1]) == sys.argv[2] else line)
EOF
check "python: the add_dll_directory literal reads back as the folder" \
	'[ "$(cat "$tmp/h1.pyres")" = ok ]'

# 3. cmd.exe itself, under Wine: & | ( ) ; and spaces stay literal
mild='Prog (x86) & echo PWNED | ;x'
hostile h2 "$mild"
G --root "$tmp/h2" env --shell cmd >"$tmp/h2.cmd"
WB=${GD_WIN_BUILD:-$GD_SRCDIR/build-win}
if [ -z "${GD_NO_WINE:-}" ] && [ -d "$WB" ] &&
   { command -v wine64 || command -v wine; } >/dev/null 2>&1; then
	{ printf '@echo off\n'; cat "$tmp/h2.cmd"; printf 'set HIP_PATH\nset PATH\n'; } | sed 's/$/\r/' >"$tmp/h2.bat"
	out=$(cd "$tmp" && "$GD_SRCDIR/tools/wine-run.sh" "$WB" cmd /c h2.bat 2>/dev/null | tr -d '\r')
	printf '%s\n' "$out" >"$tmp/h2.out"
	check "cmd.exe (Wine): HIP_PATH set literally, nothing echoed" \
		'printf "%s\n" "$out" | grep -qxF "HIP_PATH=C:\\$mild\\AMD\\ROCm\\6.2\\" && ! printf "%s\n" "$out" | grep -q "^PWNED"'
	check "cmd.exe (Wine): the SDK's bin first on PATH" \
		'printf "%s\n" "$out" | grep -qiF "PATH=C:\\$mild\\AMD\\ROCm\\6.2\\bin;"'
	# 4. a Windows-style environment ("Path", as Windows spells it; Wine's
	# own is "PATH"): run puts the SDK's bin first in that one variable,
	# keeps its spelling and adds no second PATH
	win_tmp=$(printf '%s' "$tmp" | tr / '\\')
	exe=$(printf '%s' "$(realpath "$WB/gpudoctor.exe")" | tr / '\\')
	printf '@echo off\r\nset PATH=\r\nset Path=C:\\windows\\system32;C:\\windows\r\nZ:%s --root Z:%s run -q -- cmd /c set\r\n' \
		"$exe" "$(printf '%s' "$FX" | tr / '\\')" >"$tmp/path.bat"
	"$GD_SRCDIR/tools/wine-run.sh" "$WB" cmd /c "Z:$win_tmp\\path.bat" 2>/dev/null |
		tr -d '\r' | grep -i '^path=' >"$tmp/path.out"
	check "Wine, Path spelt as on Windows: one variable, spelling kept, SDK bin first" \
		'[ "$(cat "$tmp/path.out")" = "Path=C:\\Program Files\\AMD\\ROCm\\6.2\\bin;C:\\windows\\system32;C:\\windows" ]'
else
	echo "skipped (cmd.exe part): wine or $WB missing"
fi
[ "$fail" = 0 ] && echo "test_env_windows: all passed"
[ "$fail" = 0 ]
