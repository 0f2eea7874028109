#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

# The release tarballs built as a Debian buildd builds them (issue 47, docs/install.md):
#
#   Tools/offline_build.sh resolve|unvendored|build [WORKDIR]
#
# make dist writes clumsy-VERSION.tar.gz and clumsy-VERSION-vendor.tar.gz into WORKDIR (a
# fresh temporary directory when not given, removed at the end), both are unpacked there, and
# then, with no network (unshare -n: loopback only), an empty HOME (so no SwiftPM cache or configuration) and
# an empty environment but PATH, as nobody when run by root (else in a user namespace):
#   resolve     make resolve (SwiftPM clones the pinned commits from vendor/); prints
#               "checkout IDENTITY REVISION" for each dependency checked out
#   unvendored  the same without the vendor tarball (it must fail: the control that shows the
#               sandbox has no network)
#   build       make binaries (the release program and plugin), then make test's build step
#               (swift build --build-tests), both with --disable-automatic-resolution
# The exit status is that of the offline step.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
if [[ $# -lt 1 || $# -gt 2 || ! $mode =~ ^(resolve|unvendored|build)$ ]]; then
    echo "usage: Tools/offline_build.sh resolve|unvendored|build [WORKDIR]" >&2
    exit 64
fi
if [[ $# -eq 2 ]]; then
    work=$2 owned=false
else
    work=$(mktemp -d) owned=true
fi
version=$(cat VERSION)
tree=$work/clumsy-$version home=$work/home
# SwiftPM's lock files go in /tmp, named by the path they lock: removed with the tree.
cleanup() {
    rm -f -- /tmp/"${tree//\//_}"_*.lock /tmp/"${home//\//_}"_*.lock
    if $owned; then rm -rf -- "$work"; fi
}
trap cleanup EXIT
make --no-print-directory dist DIST_DIR="$work" >/dev/null
chmod 755 "$work"
tar -xzf "$work/clumsy-$version.tar.gz" -C "$work"
if [[ $mode != unvendored ]]; then
    tar -xzf "$work/clumsy-$version-vendor.tar.gz" -C "$work"
fi
mkdir -p "$home"

# The namespace has its loopback up, as a buildd's has (Foundation's run loop wakes up through
# a loopback socket pair: without one, swift build hung after running the VersionPlugin), and
# no other interface.
loopback=(/bin/sh -c 'ip link set lo up && exec "$@"' sandbox)
if [[ $(id -u) == 0 ]]; then
    chown -R nobody:nogroup "$tree" "$home"
    sandbox=(unshare --net "${loopback[@]}" setpriv --reuid=nobody --regid=nogroup --clear-groups)
else
    sandbox=(unshare --map-root-user --net "${loopback[@]}")
fi
offline() { "${sandbox[@]}" env -i PATH="$PATH" HOME="$home" LANG=C.UTF-8 "$@"; }

case $mode in
resolve | unvendored)
    # Bounded: with no network, swift-package resolve sometimes waits for ever with no child
    # left (its main thread in sigsuspend, the other in epoll_wait, SIGCHLD not caught: a git's
    # exit it never saw); seen twice, once in each mode. Resolving from vendor/ takes about a
    # minute, so a resolve gets 300 s and one more try; the control, which fails in seconds when
    # it does not hang, 60 s and no second try (a hang fetches nothing either).
    # 124 and 137 are timeout's statuses.
    if [[ $mode == resolve ]]; then bound=300 tries=2; else bound=60 tries=1; fi
    for ((try = 1; try <= tries; try++)); do
        status=0
        offline timeout --kill-after=10 "$bound" make -C "$tree" --no-print-directory resolve || status=$?
        [[ $status == 124 || $status == 137 ]] || break
        echo "offline_build.sh: make resolve did not finish in $bound s (try $try of $tries)" >&2
    done
    for checkout in "$tree"/.build/checkouts/*/; do
        [[ -d $checkout ]] || continue
        name=${checkout%/}
        echo "checkout ${name##*/} $(git -c safe.directory='*' -C "$checkout" rev-parse HEAD)"
    done
    exit $status
    ;;
build)
    offline make -C "$tree" --no-print-directory binaries
    offline bash -c 'cd "$1" && swift build --disable-automatic-resolution --build-tests' build "$tree"
    echo "built offline: $tree/.build/release/clumsy and the tests"
    ;;
esac
