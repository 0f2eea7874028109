# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""A private numba cache for each process of the listening tools that use librosa.

librosa compiles its beat tracker with numba and caches the machine code (`cache=True`), by
default beside its own files in site-packages. Two processes compiling at once write the
same cache entries, and a later process that loads them can crash: a segmentation fault in
`beat_track` (numba 0.68, librosa 0.11), seen when `make musicality`'s two measuring workers
had filled the cache, and then in every run after, with 1 job or 2, and in
Tools/check_batch_beats.py. Reproduced: two `beat_track` runs at once on a fresh
NUMBA_CACHE_DIR, then a third on that cache, which crashes.

`use_private_cache()`, called before numba is imported (librosa imports it), gives this
process a cache of its own under one temporary directory per top-level run, removed when
that run exits. Each process compiles librosa's functions once (a few seconds); nothing is
shared, so nothing is written twice.
"""
import atexit
import os
import shutil
import sys
import tempfile

_ROOT = "CLUMSY_NUMBA_ROOT"


def use_private_cache():
    """Points NUMBA_CACHE_DIR at a directory of this process's own; returns it."""
    if "numba" in sys.modules:
        raise RuntimeError("numba_cache.use_private_cache() must run before numba (librosa) is imported")
    root = os.environ.get(_ROOT)
    if not root or not os.path.isdir(root):
        root = tempfile.mkdtemp(prefix="clumsy-numba-")
        os.environ[_ROOT] = root
        owner = os.getpid()
        # Only the process that made the root removes it (forked workers inherit the handler).
        atexit.register(lambda: os.getpid() == owner and shutil.rmtree(root, ignore_errors=True))
    directory = os.path.join(root, str(os.getpid()))
    os.makedirs(directory, exist_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = directory
    return directory
