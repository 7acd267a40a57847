# bash completion for gpudoctor
_gpudoctor()
{
	local cur prev cmd i
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	local commands="check list probe scan run try env explain report gather kb"
	local global="--root --json --kb --color=always --color=never --color=auto --help --version"

	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--) return 0 ;; # the user's command follows
		--root | --kb) ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	case $prev in
	--root | --dll-path) COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
	--kb | -o | --output) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
	--shell) COMPREPLY=($(compgen -W "sh bash zsh fish powershell cmd" -- "$cur")); return 0 ;;
	--backend) COMPREPLY=($(compgen -W "cuda hip vulkan opencl" -- "$cur")); return 0 ;;
	esac
	if [ -z "$cmd" ]; then
		COMPREPLY=($(compgen -W "$commands $global" -- "$cur"))
		return 0
	fi
	local opts=""
	case $cmd in
	check) opts="--no-probe --timeout --verbose" ;;
	list) opts="--verbose" ;;
	probe) opts="--backend --timeout --total-timeout --bench --selftest --quick --only --miopen-find-mode" ;;
	scan) opts="--gpu --dll-path --max-files" ;;
	run) opts="--profile --quiet --dry-run --" ;;
	try) opts="--timeout --expect --save --save-as --first --" ;;
	env) opts="--shell --profile" ;;
	report) opts="--no-probe --output" ;;
	kb | explain | gather) opts="" ;;
	esac
	case $cmd in
	scan | explain | gather) COMPREPLY=($(compgen -W "$opts $global" -- "$cur") $(compgen -f -- "$cur")) ;;
	*) COMPREPLY=($(compgen -W "$opts $global" -- "$cur")) ;;
	esac
}
complete -F _gpudoctor gpudoctor
