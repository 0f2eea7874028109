// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
#if canImport(Glibc)
import Glibc
#endif

/// An `flock(LOCK_EX)` on a directory, held for as long as this value lives (the descriptor is
/// close-on-exec: the children's `clumsy run` do not hold it).
///
/// A batch holds one on each partial item directory it renders into; the stale-work cleanup
/// removes a partial only when it can take that lock itself, so a live batch in another PID
/// namespace (a Slurm task on another node, a container sharing the directory), whose pid
/// `kill(pid, 0)` cannot see, keeps its work. The same rule as round 3's for temporaries
/// (`TemporaryName`).
final class DirectoryLock {
    private let fd: Int32

    /// Locks the directory at `path` when its lock is free, and only when `path` still names
    /// the directory locked (a cleaner may have removed it before the lock was taken).
    init?(ifFree path: String) {
        let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        var held = stat()
        var named = stat()
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, fstat(fd, &held) == 0,
              PathBytes.withCString(path, { lstat($0, &named) }) == 0,
              held.st_dev == named.st_dev, held.st_ino == named.st_ino else {
            close(fd)
            return nil
        }
        self.fd = fd
    }

    deinit { close(fd) }
}

extension FileBytes {
    /// The device and inode of the file at `path` (links followed), nil when there is none.
    static func identity(_ path: String) -> (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// True when `path` is a directory or a symbolic link to one.
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return PathBytes.withCString(path, { stat($0, &info) }) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// `path` with every link, `.` and `..` resolved (`realpath`), nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = PathBytes.withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return PathBytes.string(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    }
}
