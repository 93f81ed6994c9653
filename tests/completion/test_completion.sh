#!/bin/bash
# The completion scripts complete: bash's is sourced and its function run on the words of
# a command line, as bash does at TAB; fish's is run by fish (`complete -C`) when fish is
# installed; zsh's is checked for syntax when zsh is. Usage: test_completion.sh MLSIZE
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
status=0
# The developer's own overlays must not change the ids offered.
XDG_CONFIG_HOME=$(mktemp -d)
export XDG_CONFIG_HOME
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT
unset MLSIZE_CATALOG

# As strict as a user's shell may be: the script must not trip over unset variables.
# shellcheck source=/dev/null
source <("$bin" completion bash) || { echo "FAIL: the bash script does not load"; exit 1; }

# What bash offers for the words given, the last being the word at the cursor ('' for a
# new word): one line, the offers sorted and space-separated.
offers() {
  COMP_WORDS=("$bin" "$@")
  COMP_CWORD=$#
  COMP_LINE="${COMP_WORDS[*]}"
  COMPREPLY=()
  _mlsize
  printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}

# expect WANT WORDS...: the offers are exactly WANT.
expect() {
  local want=$1 got
  shift
  got=$(offers "$@")
  if [ "$got" != "$want" ]; then
    echo "FAIL: mlsize $*<TAB>: expected [$want], got [$got]"
    status=1
  fi
}

# expect_some WANT WORDS...: each word of WANT is offered.
expect_some() {
  local want=$1 got word
  shift
  got=" $(offers "$@") "
  for word in $want; do
    if [[ $got != *" $word "* ]]; then
      echo "FAIL: mlsize $*<TAB>: [$word] not among [$got]"
      status=1
    fi
  done
}

expect "recommend" rec
expect "calibrate catalog completion detect estimate explain recommend rules" ''
expect "--force --format --from" detect --f
expect "--optimize --optimizer" recommend --opt
expect "--max-devices" recommend --params 7B --data 200GB --max-dev
expect "balanced cost time" recommend --optimize ''
expect "cost" recommend --optimize c
expect "balanced cost time" recommend --optimize = ''
expect "bash fish zsh" completion ''
expect "compile export import list show validate" catalog ''
expect "csv json markdown table tsv yaml" catalog list --format ''
expect "aws-p5.48xlarge aws-p5en.48xlarge" estimate --offering aws-p5
expect "llama-2-70b llama-2-7b" recommend --model llama-2-7
expect "h100,a100-80gb h100,a100-80gb-pcie h100,a100-80gb-sxm" recommend --gpus h100,a100-80
expect_some "aws gcp azure" recommend --provider ''
expect_some "bf16 bf16-mixed fp32 fp8-mixed" estimate --precision ''
expect_some "--offering --zero --explain" estimate --params 7B ''
expect "" recommend --gpus h100 : ''
# bash splits h100:8,a10 at the colon: the list's next item still completes (issue 51).
expect "8,a10 8,a100-40gb 8,a100-40gb-pcie 8,a100-40gb-sxm 8,a100-80gb 8,a100-80gb-pcie 8,a100-80gb-sxm 8,a10g" \
  recommend --gpus h100 : 8,a10
expect "4,l40s" recommend --gpus h100 : 8,a100 : 4,l40s
expect "" recommend --gpus h100 : 8
expect_some "-o --output -q --quiet --no-pager" catalog export -
expect_some "-q --quiet" rules check -
expect "" recommend --price-factor aws = ''
expect_some "h100-sxm aws-p5.48xlarge" catalog show ''
expect_some "--help --format --catalog" catalog list -

# fish: its own completion engine on the installed-style script.
if command -v fish >/dev/null; then
  fish_offers() {
    PATH="$(dirname "$bin"):$PATH" fish --no-config -c \
      "$bin completion fish | source; complete -C '$1'" | cut -f1 | sort | tr '\n' ' ' | sed 's/ $//'
  }
  [ "$(fish_offers 'mlsize rec')" = "recommend" ] || { echo "FAIL: fish: mlsize rec"; status=1; }
  [ "$(fish_offers 'mlsize recommend --optimize ')" = "balanced cost time" ] || { echo "FAIL: fish: --optimize"; status=1; }
  got=$(fish_offers 'mlsize estimate --offering aws-p5')
  [ "$got" = "aws-p5.48xlarge aws-p5en.48xlarge" ] || { echo "FAIL: fish: --offering [$got]"; status=1; }
  got=$(fish_offers 'mlsize recommend --gpus h100:8,a100-80gb-s')
  [ "$got" = "h100:8,a100-80gb-sxm" ] || { echo "FAIL: fish: --gpus list [$got]"; status=1; }
else
  echo "fish not installed: its script not run"
fi
if command -v zsh >/dev/null; then
  "$bin" completion zsh | zsh -n || { echo "FAIL: zsh: the script does not parse"; status=1; }
else
  echo "zsh not installed: its script not checked"
fi
[ $status = 0 ] && echo "ok"
exit $status
