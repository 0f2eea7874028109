#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An operating-system error: the `errno` value and its `strerror` text.
struct SystemError: Error, Equatable {
    /// The `errno` value.
    var code: Int32
    /// Optional step description prefixed to the text, e.g. "closing".
    var step: String?

    /// `strerror(code)`, prefixed with the failing step if there is one.
    var text: String {
        let message = String(cString: strerror(code))
        if let step { return "\(step): \(message)" }
        return message
    }

    /// The current thread's `errno`, captured immediately after a failed call.
    static func current(_ step: String? = nil) -> SystemError {
        SystemError(code: errno, step: step)
    }
}

/// Thin, module-qualified wrappers over the POSIX calls this module uses,
/// so that methods named `write`/`close` never shadow the system functions.
enum POSIX {
    /// `open(2)`; returns the descriptor or throws the `errno`.
    static func open(_ path: String, _ flags: Int32, mode: mode_t) throws(SystemError) -> Int32 {
        while true {
            #if canImport(Glibc)
            let fd = Glibc.open(path, flags, mode)
            #elseif canImport(Musl)
            let fd = Musl.open(path, flags, mode)
            #else
            let fd = Darwin.open(path, flags, mode)
            #endif
            if fd >= 0 { return fd }
            if errno == EINTR { continue }
            throw SystemError.current()
        }
    }

    /// Writes all `count` bytes, retrying after partial writes and `EINTR`.
    static func writeAll(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int) throws(SystemError) {
        var done = 0
        while done < count {
            #if canImport(Glibc)
            let n = Glibc.write(fd, base + done, count - done)
            #elseif canImport(Musl)
            let n = Musl.write(fd, base + done, count - done)
            #else
            let n = Darwin.write(fd, base + done, count - done)
            #endif
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError.current()
            }
            if n == 0 { throw SystemError(code: EIO, step: "write(2) made no progress") }
            done += n
        }
    }

    /// `pread(2)` retried on `EINTR`; returns the number of bytes read (0 at end of file).
    static func pread(_ fd: Int32, _ base: UnsafeMutableRawPointer, _ count: Int, _ offset: Int) throws(SystemError) -> Int {
        while true {
            #if canImport(Glibc)
            let n = Glibc.pread(fd, base, count, off_t(offset))
            #elseif canImport(Musl)
            let n = Musl.pread(fd, base, count, off_t(offset))
            #else
            let n = Darwin.pread(fd, base, count, off_t(offset))
            #endif
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw SystemError.current()
        }
    }

    /// `pwrite(2)` of all bytes at `offset`, retrying partial writes and `EINTR`.
    static func pwriteAll(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int, _ offset: Int) throws(SystemError) {
        var done = 0
        while done < count {
            #if canImport(Glibc)
            let n = Glibc.pwrite(fd, base + done, count - done, off_t(offset + done))
            #elseif canImport(Musl)
            let n = Musl.pwrite(fd, base + done, count - done, off_t(offset + done))
            #else
            let n = Darwin.pwrite(fd, base + done, count - done, off_t(offset + done))
            #endif
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError.current()
            }
            if n == 0 { throw SystemError(code: EIO, step: "pwrite(2) made no progress") }
            done += n
        }
    }

    /// `close(2)`; an error here can be a deferred write error. Never retried
    /// (on Linux the descriptor is released even when `close` fails).
    static func close(_ fd: Int32) throws(SystemError) {
        #if canImport(Glibc)
        let result = Glibc.close(fd)
        #elseif canImport(Musl)
        let result = Musl.close(fd)
        #else
        let result = Darwin.close(fd)
        #endif
        if result != 0 { throw SystemError.current() }
    }

    /// `rename(2)`: atomically replaces `to` with `from`.
    static func rename(_ from: String, _ to: String) throws(SystemError) {
        #if canImport(Glibc)
        let result = Glibc.rename(from, to)
        #elseif canImport(Musl)
        let result = Musl.rename(from, to)
        #else
        let result = Darwin.rename(from, to)
        #endif
        if result != 0 { throw SystemError.current() }
    }

    /// `unlink(2)`, ignoring errors (used only for cleanup).
    static func unlinkIgnoringErrors(_ path: String) {
        #if canImport(Glibc)
        _ = Glibc.unlink(path)
        #elseif canImport(Musl)
        _ = Musl.unlink(path)
        #else
        _ = Darwin.unlink(path)
        #endif
    }

    /// True if `path` exists and is a directory (follows symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// True if `path` exists and is neither a regular file nor a directory
    /// (a character device such as /dev/null or /dev/full, a FIFO, a socket).
    static func isSpecialFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind != S_IFREG && kind != S_IFDIR
    }

    /// `$TMPDIR`, or /tmp.
    static var temporaryDirectory: String {
        if let value = getenv("TMPDIR"), let text = String(validatingCString: value), !text.isEmpty { return text }
        return "/tmp"
    }

    /// The process id, used to make temporary names unique.
    static var processID: Int32 { getpid() }

    /// Flags for creating a fresh, exclusive file for writing.
    static var createExclusiveFlags: Int32 { O_CREAT | O_EXCL | O_CLOEXEC }
    /// `O_WRONLY`.
    static var writeOnly: Int32 { O_WRONLY }
    /// `O_RDWR`.
    static var readWrite: Int32 { O_RDWR }
    /// `EEXIST`.
    static var alreadyExists: Int32 { EEXIST }
}
