// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import FileOutput
#if canImport(Glibc)
import Glibc
#endif

/// Opening an input (a preset) so that it can never block: without waiting for a FIFO's
/// writer (`O_NONBLOCK`), and refusing anything but a regular file.
public enum InputFile {
    /// A descriptor open for reading on the regular file `path` (the caller closes it).
    /// - Throws: `SessionError.noInput` (66) naming `path` and what it is instead.
    public static func open(_ path: String, what: String) throws(SessionError) -> Int32 {
        let fd = PathBytes.withCString(path) { Glibc.open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else {
            throw .noInput("\(Quote.text(path)): cannot open \(what): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .noInput("\(Quote.text(path)): cannot examine \(what): \(reason)")
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            let name = kind == S_IFDIR ? "a directory" : kind == S_IFIFO ? "a FIFO" : kind == S_IFSOCK ? "a socket" : "a device"
            throw .noInput("\(Quote.text(path)): is \(name), not a \(what) (a regular file is needed)")
        }
        // Back to blocking reads: a regular file never blocks anyway.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }
}
