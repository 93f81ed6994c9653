#!/bin/sh
# The man page the build writes from docs/cli.md (cmake/man-page.lua): titled MLSIZE(1), a
# NAME line that whatis and apropos read, and each section of the manual as a .SH heading
# in capitals. Usage: check_man_page.sh BUILT_PAGE DOCS_CLI_MD
set -u
page=${1:?usage: check_man_page.sh mlsize.1 docs/cli.md}
manual=${2:?usage: check_man_page.sh mlsize.1 docs/cli.md}
status=0
grep -q '^\.TH "MLSIZE" "1"' "$page" || { echo "$page: no .TH MLSIZE 1"; status=1; }
[ "$(grep -m1 '^\.SH' "$page")" = ".SH NAME" ] || { echo "$page: NAME is not the first section"; status=1; }
sed -n '/^\.SH NAME/,/^\.SH/p' "$page" | grep -q '^mlsize \\*- hardware sizing advisor' ||
  { echo "$page: no NAME line 'mlsize - ...'"; status=1; }
sections=$(grep '^## ' "$manual" | sed 's/^## //')
[ -n "$sections" ] || { echo "$manual: no sections"; status=1; }
printf '%s\n' "$sections" | while IFS= read -r section; do
  heading=$(printf '%s' "$section" | tr '[:lower:]' '[:upper:]')
  grep -qxF ".SH $heading" "$page" || { echo "$page: no .SH $heading (## $section)"; exit 1; }
done || status=1
[ $status = 0 ] && echo "man page: $(grep -c '^\.SH' "$page") sections, NAME first"
exit $status
