#!/bin/sh
# Builds the .deb (build-package/: Release, no tests), installs it with apt in a clean
# Debian 12 root made by debootstrap (build-package/root, from the Debian mirror this
# machine's apt uses, or $MLSIZE_DEBIAN_MIRROR), and there runs the headline command,
# README's examples, `man mlsize` and bash completion. Needs root: uses sudo when not root.
# Only build-package/ is written (its debootstrap-cache/ keeps the downloaded packages).
set -eu
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ]; then as_root=""; else as_root="sudo"; fi
started=$(date +%s)
build=build-package
root=$PWD/$build/root

say() { printf '== [%3d s] %s\n' "$(($(date +%s) - started))" "$*"; }
fail() {
  printf 'test-package: FAIL: %s\n' "$*" >&2
  exit 1
}

# The first Debian archive in apt's sources (one-line or deb822), not the security one.
debian_mirror() {
  cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
    sed -n -e 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\).*/\2/p' -e 's/^URIs: *\([^ ]*\).*/\1/p' |
    grep -m1 -E '/debian/?$' || echo http://deb.debian.org/debian
}

# Everything mounted under the root (our /proc; debootstrap's own when it was stopped
# midway), deepest first.
unmount_root() {
  for point in $(awk -v root="$root/" 'index($2, root) == 1 { print $2 }' /proc/mounts | sort -r); do
    $as_root umount "$point" || $as_root umount -l "$point"
  done
}
trap unmount_root EXIT
trap 'exit 130' INT TERM

say "tools: debootstrap, dpkg-dev (dpkg-shlibdeps), file, pandoc"
DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends \
  debootstrap dpkg-dev file pandoc >/dev/null

say "build the .deb in $build/"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMLSIZE_BUILD_TESTS=OFF >/dev/null
cmake --build "$build"
rm -f "$build"/mlsize_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/mlsize_*.deb)
dpkg-deb -I "$deb"
dpkg-deb -c "$deb"

mirror=${MLSIZE_DEBIAN_MIRROR:-$(debian_mirror)}
say "a clean Debian 12 root from $mirror"
unmount_root
$as_root rm -rf --one-file-system "$root"
mkdir -p "$build/debootstrap-cache"
$as_root debootstrap --variant=minbase --cache-dir="$PWD/$build/debootstrap-cache" bookworm "$root" "$mirror" \
  >"$build/debootstrap.log" 2>&1 || {
  tail -20 "$build/debootstrap.log"
  fail "debootstrap"
}
$as_root mount -t proc proc "$root/proc"
$as_root cp /etc/resolv.conf "$root/etc/resolv.conf"
$as_root cp "$deb" "$root/tmp/"
in_root() { $as_root chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

say "apt-get install ./$(basename "$deb") (with man-db and bash-completion to check them)"
in_root sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
  --no-install-recommends /tmp/$(basename "$deb") man-db bash-completion" >"$build/apt.log" 2>&1 || {
  tail -20 "$build/apt.log"
  fail "apt-get install"
}

say "mlsize recommend --params 7B --data 200GB"
out=$(in_root mlsize recommend --params 7B --data 200GB) || fail "recommend exited $?"
[ -n "$out" ] || fail "recommend printed nothing"
printf '%s\n' "$out" | head -8

say "README's examples (those that need no file of yours, nor the repository's tests/data)"
examples=$(sed -n '/^More examples:/,/^## /p' README.md | grep '^mlsize ' | grep -v -e '|' -e '\.yaml' -e '\.json' -e 'tests/data')
[ -n "$examples" ] || fail "no examples found in README.md"
printf '%s\n' "$examples" | while IFS= read -r line; do
  command=$(printf '%s\n' "$line" | sed 's/ *#.*//')
  want=0
  case $line in *"# exit 3"*) want=3 ;; esac  # README marks them: no plan meets the constraints
  rc=0
  in_root sh -c "$command" >/dev/null 2>&1 || rc=$?
  [ "$rc" = "$want" ] || fail "$command: exit $rc, expected $want"
  echo "ok (exit $rc): $command"
done

say "man mlsize"
page=$(in_root man -w mlsize) || fail "man -w mlsize finds no page"
echo "$page"
in_root sh -c 'MANWIDTH=80 MANPAGER=cat man mlsize 2>/dev/null' | head -5 | tee "$build/man-head.txt"
grep -q 'mlsize - hardware sizing advisor' "$build/man-head.txt" || fail "man mlsize has no NAME line"

say "bash completion, loaded as bash-completion loads it"
completion=$(in_root bash -c '
  . /usr/share/bash-completion/bash_completion
  __load_completion mlsize || exit 1
  complete -p mlsize
  offer() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _mlsize; echo "${COMPREPLY[*]}"; }
  offer mlsize rec
  offer mlsize recommend --opt
  offer mlsize estimate --offering aws-p5') || fail "bash completion did not load"
printf '%s\n' "$completion"
printf '%s\n' "$completion" | grep -qx 'recommend' || fail "mlsize rec<TAB> is not recommend"
printf '%s\n' "$completion" | grep -q -- '--optimize\( \|$\)' || fail "--opt<TAB> does not offer --optimize"
printf '%s\n' "$completion" | grep -q 'aws-p5.48xlarge' || fail "--offering aws-p5<TAB> offers no aws-p5 id"

unmount_root
say "ok: the .deb installs and runs in a clean Debian 12 root ($(($(date +%s) - started)) s)"
