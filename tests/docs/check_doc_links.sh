#!/bin/sh
# Checks the links into the manual: every `NAME.md#anchor` written in the code, the docs
# or the READMEs names a file that exists and a heading (or <a id>) that it has, and
# every relative Markdown link `](path)` names a file or folder that exists. Anchors are
# made as GitHub makes them: lower case, punctuation dropped, spaces to hyphens.
# Usage: check_doc_links.sh ROOT
set -u
root=${1:?usage: check_doc_links.sh ROOT}
cd "$root" || exit 2
export LC_ALL=C

# The anchors of a Markdown file, one per line.
anchors() {
  awk '
    /^```/ { fenced = !fenced; next }
    fenced { next }
    /^#+ / {
      h = $0; sub(/^#+ +/, "", h); h = tolower(h)
      gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h); print h
    }
    { while (match($0, /<a (id|name)="[^"]+"/)) {
        a = substr($0, RSTART, RLENGTH); sub(/^<a (id|name)="/, "", a); sub(/"$/, "", a); print a
        $0 = substr($0, RSTART + RLENGTH) } }
  ' "$1"
}

# Where a referenced path points: beside the file that names it, from the root, or in docs/.
resolve() {
  for candidate in "$(dirname "$1")/$2" "$2" "docs/$2"; do
    if [ -e "$candidate" ]; then echo "$candidate"; return 0; fi
  done
  return 1
}

status=0
count=0
files=$(find src include docs data bench fuzz scripts cmake tests/unit tests/cli_unit README.md CHANGELOG.md \
          CONTRIBUTING.md -type f \( -name '*.md' -o -name '*.cpp' -o -name '*.hpp' -o -name '*.yaml' \
          -o -name '*.sh' -o -name '*.py' -o -name '*.txt' -o -name '*.cmake' \) 2>/dev/null | sort)
for file in $files; do
  # NAME.md#anchor anywhere in the text.
  grep -noE '[A-Za-z0-9_./-]*\.md#[A-Za-z0-9_-]+' "$file" | while IFS=: read -r line ref; do
    path=${ref%%#*}
    anchor=${ref#*#}
    if ! target=$(resolve "$file" "$path"); then
      echo "$file:$line: $ref: no file $path"
      echo x >>"${TMPDIR:-/tmp}/doclinks.$$"
    elif ! anchors "$target" | grep -qxF "$anchor"; then
      echo "$file:$line: $ref: $target has no heading for #$anchor"
      echo x >>"${TMPDIR:-/tmp}/doclinks.$$"
    fi
  done
  # Relative Markdown links, in Markdown files.
  case $file in
    *.md)
      grep -noE '\]\([^)#: ]+(#[^) ]*)?\)' "$file" | while IFS=: read -r line ref; do
        path=$(echo "$ref" | sed 's/^](//; s/)$//; s/#.*//')
        [ -z "$path" ] && continue
        if [ ! -e "$(dirname "$file")/$path" ]; then
          echo "$file:$line: link to $path: no such file"
          echo x >>"${TMPDIR:-/tmp}/doclinks.$$"
        fi
      done
      ;;
  esac
  count=$((count + 1))
done
if [ -s "${TMPDIR:-/tmp}/doclinks.$$" ]; then status=1; fi
rm -f "${TMPDIR:-/tmp}/doclinks.$$"
[ "$status" = 0 ] && echo "doc links: $count files, every link resolves"
exit "$status"
