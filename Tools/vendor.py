#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""The release's vendored dependencies, so that a build needs no network (issue 47, docs/install.md).

  python3 Tools/vendor.py pack OUT.tar.gz PREFIX   (make dist)
  python3 Tools/vendor.py mirrors                  (make, in a tree that holds vendor/)

`pack` writes the second release tarball, clumsy-VERSION-vendor.tar.gz: for every pin of
Package.resolved, PREFIX/vendor/IDENTITY.git, a bare git repository that holds the pinned tag
and its commit and nothing else (no history). It takes them from SwiftPM's own checkouts in
.build (resolving once, with the network, if they are missing), checks that the tag names the
pinned revision, and writes the same bytes every time (sorted, dated by the commit, owner
root, modes 644 and 755, gzip without a name or date).

`mirrors` points SwiftPM at those repositories (`swift package config set-mirror`, written in
.swiftpm/configuration/mirrors.json): resolution then clones the pinned commits from vendor/
instead of the network, checks the revisions Package.resolved pins, and the Makefile builds
with --disable-automatic-resolution, so nothing floats. It does nothing when the mirrors are
already set for this directory.
"""
import gzip, io, json, os, pathlib, shutil, subprocess, sys, tarfile, tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
MIRRORS = ROOT / '.swiftpm' / 'configuration' / 'mirrors.json'


def pins():
    """Package.resolved's pins as (identity, location, version, revision)."""
    resolved = json.loads((ROOT / 'Package.resolved').read_text())
    found = []
    for pin in resolved['pins']:
        state = pin['state']
        if pin.get('kind') != 'remoteSourceControl' or 'version' not in state:
            sys.exit(f"vendor: {pin['identity']} is not pinned to a version of a git repository; only those can be vendored")
        found.append((pin['identity'], pin['location'], state['version'], state['revision']))
    return found


def git(*arguments, cwd=None):
    return subprocess.run(['git', '-c', 'init.defaultBranch=main', '-c', 'pack.threads=1', *arguments], cwd=cwd, check=True,
                          stdout=subprocess.PIPE, text=True).stdout.strip()


def source_of(identity):
    """SwiftPM's checkout of a dependency, or its clone in .build/repositories."""
    checkout = ROOT / '.build' / 'checkouts' / identity
    if (checkout / '.git').exists():
        return checkout
    clones = sorted((ROOT / '.build' / 'repositories').glob(identity + '-*'))
    return clones[0] if clones else None


def bare_repository(identity, version, revision, target):
    """target: a bare repository holding tag `version` (and so `revision`) only."""
    source = source_of(identity)
    if source is None:
        subprocess.run(['swift', 'package', 'resolve', '--disable-automatic-resolution'], cwd=ROOT, check=True)
        source = source_of(identity)
    git('init', '-q', '--bare', '--template=', str(target))
    git('fetch', '-q', '--depth', '1', '--no-tags', str(source), f'refs/tags/{version}:refs/tags/{version}', cwd=target)
    found = git('rev-parse', f'refs/tags/{version}^{{commit}}', cwd=target)
    if found != revision:
        sys.exit(f'vendor: tag {version} of {identity} is {found}, Package.resolved pins {revision}')
    git('-c', 'repack.writeBitmaps=false', 'repack', '-a', '-d', '-f', '-q', cwd=target)
    git('pack-refs', '--all', cwd=target)
    for scratch in ['FETCH_HEAD', 'logs', 'hooks', 'info', 'description']:
        path = target / scratch
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()


def pack(out, prefix):
    """Writes the vendor tarball: PREFIX/vendor/IDENTITY.git for every pin, the same bytes every time."""
    mtime = int(git('log', '-1', '--format=%ct', 'HEAD', cwd=ROOT))
    with tempfile.TemporaryDirectory() as scratch:
        vendor = pathlib.Path(scratch) / 'vendor'
        vendor.mkdir()
        for identity, _, version, revision in pins():
            bare_repository(identity, version, revision, vendor / (identity + '.git'))
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode='w', format=tarfile.GNU_FORMAT) as tar:
            paths = [vendor] + sorted(vendor.rglob('*'))
            for path in paths:
                info = tar.gettarinfo(str(path), arcname=f'{prefix}/{path.relative_to(scratch)}')
                info.mtime, info.uid, info.gid, info.uname, info.gname = mtime, 0, 0, 'root', 'root'
                info.mode = 0o755 if path.is_dir() else 0o644
                if path.is_dir():
                    tar.addfile(info)
                else:
                    with open(path, 'rb') as data:
                        tar.addfile(info, data)
    with open(out, 'wb') as file, gzip.GzipFile(filename='', mode='wb', fileobj=file, mtime=0) as compressed:
        compressed.write(buffer.getvalue())


def mirrors():
    """Sets a SwiftPM mirror from each pin's location to its repository in vendor/."""
    wanted = {location: (ROOT / 'vendor' / (identity + '.git')).as_uri() for identity, location, _, _ in pins()}
    for mirror in wanted.values():
        if not pathlib.Path(mirror[len('file://'):]).is_dir():
            sys.exit(f'vendor: {mirror} is missing: unpack clumsy-VERSION-vendor.tar.gz beside the sources')
    try:
        present = {entry['original']: entry['mirror'] for entry in json.loads(MIRRORS.read_text())['object']}
    except (OSError, ValueError, KeyError, TypeError):
        present = {}
    for original, mirror in sorted(wanted.items()):
        if present.get(original) != mirror:
            subprocess.run(['swift', 'package', 'config', 'set-mirror', '--original', original, '--mirror', mirror], cwd=ROOT, check=True)
    print(f'vendor: SwiftPM fetches {", ".join(identity for identity, *_ in pins())} from {ROOT / "vendor"}')


if __name__ == '__main__':
    if sys.argv[1:2] == ['pack'] and len(sys.argv) == 4:
        pack(sys.argv[2], sys.argv[3])
    elif sys.argv[1:] == ['mirrors']:
        mirrors()
    else:
        sys.exit(__doc__)
