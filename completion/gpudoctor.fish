# fish completion for gpudoctor. The words come from the program itself
# (`gpudoctor __complete WORD... CUR`, src/cli/complete.c), from the same
# option tables it parses with.
function __gpudoctor_complete
    set -l words (commandline -opc)
    set -l prog $words[1]
    set -e words[1]
    set -l cur (commandline -ct)
    for line in (command $prog __complete $words $cur 2>/dev/null)
        switch $line
            case :file
                __fish_complete_path $cur
            case :dir
                __fish_complete_directories $cur
            case :command
                __fish_complete_command
            case '*'
                echo $line
        end
    end
end
complete -c gpudoctor -f -a '(__gpudoctor_complete)'
