#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

# make install / make uninstall (and the Debian package's install step):
#
#   Tools/install.sh install|uninstall DESTDIR PREFIX BINARY LV2_BUNDLE
#
# Installs already built files only: it never builds, never runs the program and never calls a
# package manager. DESTDIR and PREFIX arrive as arguments (the Makefile quotes them), so any
# byte but NUL and newline is a path character here, never shell syntax. Under DESTDIR/PREFIX:
#   bin/clumsy                                the program
#   share/clumsy/presets/*.json               the bundled presets
#   share/man/man1/clumsy*.1, man5/clumsy-preset.5   the manual pages (committed in man/)
#   share/bash-completion/completions/clumsy, share/zsh/site-functions/_clumsy,
#   share/fish/vendor_completions.d/clumsy.fish      the completions (committed in completions/)
#   share/doc/clumsy/                         README.md, CHANGELOG.md, docs/, Presets/README.md
#   lib/lv2/clumsy.lv2/                       the LV2 plugin bundle; its presets/ is a link to
#                                             ../../../share/clumsy/presets (installed once)
# The program and the plugin's library are stripped with $STRIP (from the environment; the
# Makefile passes `strip`), unless it is empty: the Debian package leaves that to dh_strip,
# which puts the debugging symbols in the clumsy-dbgsym package.
# `uninstall` removes those files (the same list, from the same tree) and then the
# directories that are Clumsy's own once they are empty; nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -ne 5 || ( $1 != install && $1 != uninstall ) ]]; then
    echo "usage: Tools/install.sh install|uninstall DESTDIR PREFIX BINARY LV2_BUNDLE" >&2
    exit 64
fi
action=$1 destdir=$2 prefix=$3 binary=$4 bundle=$5
if [[ $prefix != /* || $destdir == *$'\n'* || $prefix == *$'\n'* ]]; then
    echo "install: PREFIX must be an absolute path and neither PREFIX nor DESTDIR may hold a newline (PREFIX is '$prefix')" >&2
    exit 64
fi
root=$destdir$prefix

# Source and destination (relative to PREFIX) and mode of each file, one triple per entry.
entries=()
add() { entries+=("$1" "$2" "$3"); }
add "$binary" bin/clumsy 755
for f in Presets/*.json; do add "$f" "share/clumsy/presets/${f#Presets/}" 644; done
for f in man/*.1; do add "$f" "share/man/man1/${f#man/}" 644; done
add man/clumsy-preset.5 share/man/man5/clumsy-preset.5 644
add completions/clumsy.bash share/bash-completion/completions/clumsy 644
add completions/_clumsy share/zsh/site-functions/_clumsy 644
add completions/clumsy.fish share/fish/vendor_completions.d/clumsy.fish 644
for f in README.md CHANGELOG.md Presets/README.md docs/*.md docs/*.png; do add "$f" "share/doc/clumsy/$f" 644; done
add "$bundle/clumsy.so" lib/lv2/clumsy.lv2/clumsy.so 644
for f in manifest.ttl clumsy.ttl presets.ttl presets.txt; do add "$bundle/$f" "lib/lv2/clumsy.lv2/$f" 644; done
# The bundle's presets are the program's (lv2bundle.py copies Presets/*.json): a relative link,
# so it holds under any PREFIX and DESTDIR.
presets_link=lib/lv2/clumsy.lv2/presets presets_target=../../../share/clumsy/presets
for f in "$bundle"/presets/*.json; do
    if ! cmp -s -- "$f" "Presets/${f##*/}"; then
        echo "install: $f is not Presets/${f##*/}: the bundle's presets must be the program's (make lv2)" >&2
        exit 65
    fi
done
# Clumsy's own directories, deepest first: removed by uninstall once empty.
owned=(share/clumsy/presets share/clumsy share/doc/clumsy/docs share/doc/clumsy/Presets share/doc/clumsy lib/lv2/clumsy.lv2)

if [[ $action == install ]]; then
    for ((i = 0; i < ${#entries[@]}; i += 3)); do
        if [[ ! -f ${entries[i]} ]]; then
            echo "install: ${entries[i]} is missing: build first (make release lv2)" >&2
            exit 66
        fi
    done
    for ((i = 0; i < ${#entries[@]}; i += 3)); do
        target=$root/${entries[i + 1]}
        install -d -m 755 -- "${target%/*}"
        install -m "${entries[i + 2]}" -- "${entries[i]}" "$target"
    done
    rm -rf -- "${root:?}/$presets_link"
    ln -s -- "$presets_target" "$root/$presets_link"
    if [[ -n ${STRIP:-} ]]; then
        "$STRIP" --strip-unneeded -- "$root/bin/clumsy" "$root/lib/lv2/clumsy.lv2/clumsy.so"
    fi
    echo "installed clumsy into $root: try 'clumsy run lydian-moon' and 'man clumsy'"
else
    for ((i = 0; i < ${#entries[@]}; i += 3)); do
        rm -f -- "$root/${entries[i + 1]}"
    done
    if [[ -L $root/$presets_link ]]; then rm -f -- "$root/$presets_link"; fi
    for d in "${owned[@]}"; do
        if [[ -d $root/$d ]]; then rmdir --ignore-fail-on-non-empty -- "$root/$d"; fi
    done
    echo "removed clumsy from $root"
fi
