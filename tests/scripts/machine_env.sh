# Sourced by the script tests: machine_env DIR appends the NAME=VALUE lines
# of a captured machine's optional DIR/env file (comments and blank lines
# skipped) to the array `envs`, so each machine runs with its recorded
# environment (e.g. CUDA_VISIBLE_DEVICES).
machine_env() {
  local line
  [ -f "$1/env" ] || return 0
  while IFS= read -r line; do
    [ -n "$line" ] && [ "${line#\#}" = "$line" ] && envs+=("$line")
  done < "$1/env"
}
