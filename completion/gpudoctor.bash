# bash completion for gpudoctor. The words come from the program itself
# (`gpudoctor __complete WORD... CUR`, src/cli/complete.c), from the same
# option tables it parses with, so this file never needs a new word.
_gpudoctor()
{
	local -a words=() out=()
	local i x cur line strip
	# bash splits "--color=al" and "gfx90a:xnack" at = and :; put them back
	for ((i = 1; i <= COMP_CWORD; i++)); do
		x=${COMP_WORDS[i]}
		if ((${#words[@]})) && [[ $x == [=:]* || ${words[-1]} == *[=:] ]]; then
			words[-1]+=$x
		else
			words+=("$x")
		fi
	done
	((${#words[@]})) || words=("")
	cur=${words[-1]}
	# ... and replaces only the text after the last = or : of the word
	strip=""
	[[ $cur == *[=:]* ]] && strip=${cur%"${cur##*[=:]}"}
	mapfile -t out < <("${COMP_WORDS[0]}" __complete "${words[@]}" 2>/dev/null)
	COMPREPLY=()
	for line in "${out[@]}"; do
		case $line in
		:file) mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur") ;;
		:dir) mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$cur") ;;
		:command) mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -c -- "$cur") ;;
		*)
			line=${line%%$'\t'*}
			COMPREPLY+=("${line#"$strip"}")
			;;
		esac
	done
}
complete -F _gpudoctor gpudoctor
