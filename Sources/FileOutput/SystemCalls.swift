// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An operating-system error: the `errno` value and its `strerror` text.
public struct SystemError: Error, Equatable, Sendable {
    /// The `errno` value.
    public var code: Int32
    /// Optional step description prefixed to the text, e.g. "closing".
    public var step: String?

    /// An error with `errno` value `code`.
    public init(code: Int32, step: String? = nil) {
        self.code = code
        self.step = step
    }

    init(_ errno: Errno, step: String? = nil) {
        self.init(code: errno.rawValue, step: step)
    }

    /// `strerror(code)`, prefixed with the failing step if there is one.
    public var text: String {
        let message = String(cString: strerror(code))
        if let step { return "\(step): \(message)" }
        return message
    }

    /// True for "file too large" (a `ulimit -f` limit): handled like a full disk.
    var isOutOfSpace: Bool { code == ENOSPC || code == EFBIG || code == EDQUOT }
}

/// The few system calls this module makes, on swift-system's `FileDescriptor` and `FilePath`.
///
/// swift-system retries `EINTR` itself when asked (`retryOnInterrupt`); here it is told not
/// to, and `interruptible` retries only while no stop was requested (see `StopSignal`).
/// What swift-system 1.8 lacks — `rename`, `unlink`, `fsync`, `readlink`, `realpath`,
/// `statvfs`, `kill`, `poll` — is called from Glibc here, and only here.
enum POSIX {
    /// Runs `body` again after `EINTR` unless a stop was requested.
    static func interruptible<T>(_ body: () throws(Errno) -> T) throws(SystemError) -> T {
        while true {
            do {
                return try body()
            } catch .interrupted where !StopSignal.process.isRaised {
                continue
            } catch {
                throw SystemError(error)
            }
        }
    }

    /// Opens `path` for writing (a special file in place, or a new file with `O_CREAT|O_EXCL`).
    static func openForWriting(_ path: FilePath, exclusive: Bool, readable: Bool = false) throws(SystemError) -> FileDescriptor {
        var options: FileDescriptor.OpenOptions = [.closeOnExec]
        if exclusive { options.formUnion([.create, .exclusiveCreate]) }
        let mode: FileDescriptor.AccessMode = readable ? .readWrite : .writeOnly
        return try interruptible { () throws(Errno) in
            do {
                return try FileDescriptor.open(path, mode, options: options,
                                               permissions: exclusive ? [.ownerReadWrite, .groupRead, .otherRead] : nil,
                                               retryOnInterrupt: false)
            } catch let error as Errno {
                throw error
            } catch {
                throw Errno.ioError
            }
        }
    }

    /// Opens an input for reading without blocking (a FIFO opens at once; it is refused by the caller).
    static func openForReading(_ path: FilePath) throws(SystemError) -> FileDescriptor {
        try interruptible { () throws(Errno) in
            do {
                return try FileDescriptor.open(path, .readOnly, options: [.closeOnExec, .nonBlocking], retryOnInterrupt: false)
            } catch let error as Errno {
                throw error
            } catch {
                throw Errno.ioError
            }
        }
    }

    /// Writes all `count` bytes, retrying after partial writes.
    static func writeAll(_ fd: FileDescriptor, _ base: UnsafeRawPointer, _ count: Int) throws(SystemError) {
        var done = 0
        while done < count {
            if StopSignal.process.isRaised { try waitWritable(fd) }
            let n = try interruptible { () throws(Errno) in
                do {
                    return try fd.write(UnsafeRawBufferPointer(start: base + done, count: count - done), retryOnInterrupt: false)
                } catch let error as Errno {
                    throw error
                } catch {
                    throw Errno.ioError
                }
            }
            if n == 0 { throw SystemError(code: EIO, step: "write(2) made no progress") }
            done += n
        }
    }

    /// After a stop request: waits at most `StopSignal.writeGrace` for `fd` to take bytes.
    private static func waitWritable(_ fd: FileDescriptor) throws(SystemError) {
        var entry = pollfd(fd: fd.rawValue, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&entry, 1, StopSignal.writeGrace)
        if ready == 0 { throw SystemError(code: EINTR, step: "the reader did not take the output after the stop signal") }
    }

    /// `pread(2)`; returns the number of bytes read (0 at end of file).
    static func pread(_ fd: FileDescriptor, _ base: UnsafeMutableRawPointer, _ count: Int, _ offset: Int) throws(SystemError) -> Int {
        try interruptible { () throws(Errno) in
            do {
                return try fd.read(fromAbsoluteOffset: Int64(offset), into: UnsafeMutableRawBufferPointer(start: base, count: count),
                                   retryOnInterrupt: false)
            } catch let error as Errno {
                throw error
            } catch {
                throw Errno.ioError
            }
        }
    }

    /// `pwrite(2)` of all bytes at `offset`.
    static func pwriteAll(_ fd: FileDescriptor, _ base: UnsafeRawPointer, _ count: Int, _ offset: Int) throws(SystemError) {
        do {
            _ = try fd.writeAll(toAbsoluteOffset: Int64(offset), UnsafeRawBufferPointer(start: base, count: count))
        } catch let error as Errno {
            throw SystemError(error)
        } catch {
            throw SystemError(code: EIO)
        }
    }

    /// `close(2)`; an error here can be a deferred write error. Never retried
    /// (on Linux the descriptor is released even when `close` fails).
    static func close(_ fd: FileDescriptor) throws(SystemError) {
        do {
            try fd.close()
        } catch let error as Errno {
            throw SystemError(error)
        } catch {
            throw SystemError(code: EIO)
        }
    }

    /// `fsync(2)`: the file's bytes reach the disk before it replaces an earlier file.
    static func sync(_ fd: FileDescriptor) throws(SystemError) {
        if fsync(fd.rawValue) != 0 { throw SystemError(code: errno, step: "fsync") }
    }

    /// `rename(2)`: atomically replaces `to` with `from`.
    static func rename(_ from: FilePath, _ to: FilePath) throws(SystemError) {
        let result = from.withPlatformString { source in to.withPlatformString { target in systemRename(source, target) } }
        if result != 0 { throw SystemError(code: errno) }
    }

    /// `unlink(2)`, ignoring errors (used only for cleanup).
    static func unlinkIgnoringErrors(_ path: FilePath) {
        _ = path.withPlatformString { Glibc.unlink($0) }
    }

    /// `unlink(2)`; nil on success or when nothing is there, else the error.
    static func unlink(_ path: FilePath) -> SystemError? {
        let result = path.withPlatformString { Glibc.unlink($0) }
        return result == 0 || errno == ENOENT ? nil : SystemError(code: errno)
    }

    /// `unlinkat(2)` of `name` in the directory open as `directory`; nil on success or when
    /// nothing is there, else the error.
    static func unlink(_ name: FilePath.Component, in directory: Int32) -> SystemError? {
        let result = FilePath(root: nil, [name]).withPlatformString { unlinkat(directory, $0, 0) }
        return result == 0 || errno == ENOENT ? nil : SystemError(code: errno)
    }

    /// A descriptor on `directory` that names it wherever it is moved (`O_PATH`), or -1.
    static func openDirectory(_ directory: FilePath) -> Int32 {
        // O_PATH (Linux's 0o10000000 on x86 and ARM; Glibc's module hides it): no read
        // permission needed, the descriptor serves only as the base of `unlinkat`.
        directory.withPlatformString { open($0, 0o10000000 | O_DIRECTORY | O_CLOEXEC) }
    }

    /// Closes a descriptor from `openDirectory` (nothing for -1).
    static func closeDirectory(_ fd: Int32) {
        if fd >= 0 { _ = Glibc.close(fd) }
    }

    /// The size in bytes of `name` in the directory open as `directory` (links not followed), or nil.
    static func size(of name: FilePath.Component, in directory: Int32) -> Int64? {
        var info = Glibc.stat()
        let result = FilePath(root: nil, [name]).withPlatformString { fstatat(directory, $0, &info, AT_SYMLINK_NOFOLLOW) }
        return result == 0 ? Int64(info.st_size) : nil
    }

    /// The identity of the file open as `fd`, or nil.
    static func identity(of fd: Int32) -> FileIdentity? {
        var info = Glibc.stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// `stat` or `lstat` of `path`.
    static func status(_ path: FilePath, followingLinks: Bool) throws(SystemError) -> Stat {
        do {
            return try path.stat(followTargetSymlink: followingLinks)
        } catch {
            throw SystemError(error)
        }
    }

    /// The target of the symbolic link at `path`.
    static func linkTarget(_ path: FilePath) throws(SystemError) -> FilePath {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = path.withPlatformString { readlink($0, &buffer, 4096) }
        guard count >= 0 else { throw SystemError(code: errno, step: "reading the symbolic link") }
        buffer[count] = 0
        return FilePath(platformString: buffer)
    }

    /// The absolute path of an existing directory or file, all links resolved; nil if that fails.
    static func realPath(_ path: FilePath) -> FilePath? {
        guard let resolved = path.withPlatformString({ realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return FilePath(platformString: resolved)
    }

    /// Nil if this process may write in (and, for a directory, search) `path`, else why not (`access`).
    static func accessFailure(_ path: FilePath, writable: Bool) -> SystemError? {
        let mode = writable ? W_OK | X_OK : R_OK
        guard path.withPlatformString({ access($0, mode) }) != 0 else { return nil }
        return SystemError(code: errno)
    }

    /// Bytes available to this user on the file system holding `directory`; nil if unknown.
    static func availableBytes(in directory: FilePath) -> Int64? {
        var info = statvfs()
        guard directory.withPlatformString({ statvfs($0, &info) }) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// True unless process `pid` certainly does not exist (`kill(pid, 0)` fails with `ESRCH`).
    static func processMayExist(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno != ESRCH
    }

    /// Opens `path` (a regular file, never through a link, never blocking) and takes its
    /// `flock` without waiting; nil when it cannot be opened or its lock is held.
    static func lockIfFree(_ path: FilePath) -> FileDescriptor? {
        let opened = try? interruptible { () throws(Errno) in
            do {
                return try FileDescriptor.open(path, .readOnly, options: [.closeOnExec, .nonBlocking, .noFollow], retryOnInterrupt: false)
            } catch let error as Errno {
                throw error
            } catch {
                throw Errno.ioError
            }
        }
        guard let fd = opened else { return nil }
        guard let status = try? fd.stat(), status.type == .regular, lockIfFree(fd) else {
            try? close(fd)
            return nil
        }
        return fd
    }

    /// Another descriptor of `fd`'s open file (close-on-exec), or nil.
    static func duplicate(_ fd: FileDescriptor) -> FileDescriptor? {
        let copy = fcntl(fd.rawValue, F_DUPFD_CLOEXEC, 3)
        return copy >= 0 ? FileDescriptor(rawValue: copy) : nil
    }

    /// `flock(fd, LOCK_EX | LOCK_NB)`: true when the lock is now ours.
    static func lockIfFree(_ fd: FileDescriptor) -> Bool {
        flock(fd.rawValue, LOCK_EX | LOCK_NB) == 0
    }

    /// True when `path` still names the file open on `fd` (not removed or replaced since).
    /// True while `name` in the directory open as `directory` is the file open as `fd`
    /// (wherever the directory has been moved meanwhile).
    static func isStill(_ fd: FileDescriptor, named name: FilePath.Component, in directory: Int32) -> Bool {
        var named = stat()
        guard let open = try? fd.stat(),
              FilePath(root: nil, [name]).withPlatformString({ fstatat(directory, $0, &named, AT_SYMLINK_NOFOLLOW) }) == 0 else { return false }
        return FileIdentity(open) == FileIdentity(device: UInt64(named.st_dev), inode: UInt64(named.st_ino))
    }

    /// Creates `name` in the directory open as `directory` (`O_CREAT|O_EXCL`, mode 0644 before
    /// umask), wherever the directory is now.
    static func createExclusive(_ name: FilePath.Component, in directory: Int32, readable: Bool) throws(SystemError) -> FileDescriptor {
        let flags = (readable ? O_RDWR : O_WRONLY) | O_CREAT | O_EXCL | O_CLOEXEC
        while true {
            let fd = FilePath(root: nil, [name]).withPlatformString { openat(directory, $0, flags, mode_t(0o644)) }
            if fd >= 0 { return FileDescriptor(rawValue: fd) }
            if errno != EINTR { throw SystemError(code: errno) }
        }
    }

    static func isStill(_ fd: FileDescriptor, at path: FilePath) -> Bool {
        guard let open = try? fd.stat(), let named = try? status(path, followingLinks: false) else { return false }
        return FileIdentity(open) == FileIdentity(named)
    }

    /// `$TMPDIR`, or /tmp.
    static var temporaryDirectory: FilePath {
        if let value = getenv("TMPDIR"), value.pointee != 0 { return FilePath(platformString: value) }
        return "/tmp"
    }

    /// The process id, part of every temporary name.
    static var processID: Int32 { getpid() }
}

/// `rename(3)` under a name that `POSIX.rename` does not shadow.
private func systemRename(_ source: UnsafePointer<CChar>, _ target: UnsafePointer<CChar>) -> Int32 {
    rename(source, target)
}

/// The entry names of a directory (readdir(3)), without "." and "..".
public enum DirectoryListing {
    /// Entry names of `directory`, unsorted; empty if it cannot be read.
    public static func names(in directory: String) -> [String] { names(in: PathBytes.filePath(directory)) }

    static func names(in directory: FilePath) -> [String] {
        guard let handle = directory.withPlatformString({ opendir($0) }) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                PathBytes.string(raw.prefix(while: { $0 != 0 }))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// Reading a whole input file, by the same rules as every other system call here.
public enum InputBytes {
    /// The bytes of `path`. - Throws: `SystemError` with the failing step.
    public static func read(_ path: String) throws(SystemError) -> [UInt8] {
        try read(path, limit: Int.max) ?? []
    }

    /// The bytes of `path`, or nil if it holds more than `limit` bytes (read no further than that).
    /// - Throws: `SystemError` with the failing step.
    public static func read(_ path: String, limit: Int) throws(SystemError) -> [UInt8]? {
        let fd = try POSIX.interruptible { () throws(Errno) in
            do {
                return try FileDescriptor.open(PathBytes.filePath(path), .readOnly, options: [.closeOnExec], retryOnInterrupt: false)
            } catch let error as Errno {
                throw error
            } catch {
                throw Errno.ioError
            }
        }
        defer { try? POSIX.close(fd) }
        return try read(descriptor: fd.rawValue, limit: limit)
    }

    /// The bytes from `descriptor` to its end, or nil if there are more than `limit` (a regular
    /// file whose size says so is not read at all). The caller closes it.
    /// - Throws: `SystemError` with the failing step.
    public static func read(descriptor: Int32, limit: Int) throws(SystemError) -> [UInt8]? {
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) > limit { return nil }
        let fd = FileDescriptor(rawValue: descriptor)
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let count = try POSIX.interruptible { () throws(Errno) in
                do {
                    return try fd.read(into: chunk, retryOnInterrupt: false)
                } catch let error as Errno {
                    throw error
                } catch {
                    throw Errno.ioError
                }
            }
            if count == 0 { return bytes }
            if count > limit - bytes.count { return nil }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
