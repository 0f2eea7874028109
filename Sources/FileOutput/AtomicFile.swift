/// An output file that appears at its final path atomically, or not at all.
///
/// Bytes are written, through a 64 KiB buffer, to a hidden temporary file
/// (`.<basename>.<pid>.<random>.tmp`) in the same directory as `path`.
/// `commit()` renames it over `path` in one step; until then any earlier
/// file at `path` is untouched, and it stays untouched if anything fails.
/// `abandon()` (also run by `deinit` and after any write failure) deletes
/// the temporary file, so error paths never leave debris behind.
///
/// Creating the temporary file happens in `init`, so a bad output path is
/// reported before any expensive work starts.
///
/// A path that names an existing special file (a device such as /dev/null or
/// /dev/full, a FIFO) is written directly: there is nothing to rename over, and
/// renaming over a device node would replace it.
///
/// Not thread-safe: use from one thread (or actor) at a time.
public final class AtomicFile {
    /// Buffer size, in bytes, used between `write` calls and `write(2)`.
    public static let bufferCapacity = 64 * 1024

    /// The final path, as given to `init`.
    public let path: String
    /// The hidden temporary file in the same directory, replaced onto `path` by `commit()`.
    public let temporaryPath: String

    private enum State {
        case open
        case failed(FileOutputError)
        case committed
        case abandoned
    }

    private let output: BufferedDescriptor
    private var state: State = .open
    /// True when `path` is a special file written in place (no temporary, no rename).
    public let isDirect: Bool

    /// Creates the temporary file next to `path` (mode 0644 before umask,
    /// `O_CREAT|O_EXCL`).
    ///
    /// - Throws: `FileOutputError.cannotCreate` with the `strerror` text if
    ///   the directory is missing or not writable, or if `path` names a directory.
    public init(path: String) throws(FileOutputError) {
        guard !path.isEmpty else {
            throw .cannotCreate(path: path, reason: "the output path is empty")
        }
        let (directory, basename) = AtomicFile.split(path)
        guard !basename.isEmpty, basename != ".", basename != ".." else {
            throw .cannotCreate(path: path, reason: "the output path names a directory, not a file")
        }
        if POSIX.isDirectory(path) {
            throw .cannotCreate(path: path, reason: "a directory already exists at that path")
        }
        self.path = path
        if POSIX.isSpecialFile(path) {
            do {
                let fd = try POSIX.open(path, POSIX.writeOnly, mode: 0)
                self.temporaryPath = path
                self.output = BufferedDescriptor(fd: fd, capacity: AtomicFile.bufferCapacity)
                self.isDirect = true
                return
            } catch {
                throw .cannotCreate(path: path, reason: error.text)
            }
        }
        self.isDirect = false
        let shortName = String(basename.prefix(100))
        var attempt = 0
        while true {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let candidate = "\(directory)/.\(shortName).\(POSIX.processID).\(suffix).tmp"
            do {
                let fd = try POSIX.open(candidate, POSIX.createExclusiveFlags | POSIX.writeOnly, mode: 0o644)
                self.temporaryPath = candidate
                self.output = BufferedDescriptor(fd: fd, capacity: AtomicFile.bufferCapacity)
                return
            } catch {
                attempt += 1
                if error.code == POSIX.alreadyExists && attempt < 16 { continue }
                throw .cannotCreate(path: path, reason: error.text)
            }
        }
    }

    deinit {
        if case .open = state { abandon() }
    }

    /// Bytes accepted so far (written to the temporary file or still buffered).
    public var bytesWritten: Int { output.totalCount }

    /// True once `commit()` has succeeded.
    public var isCommitted: Bool {
        if case .committed = state { return true }
        return false
    }

    /// Appends raw bytes.
    /// - Throws: `FileOutputError.writeFailed` (e.g. "No space left on
    ///   device"); the temporary file is then deleted and every later call
    ///   throws the same error.
    public func write(_ buffer: UnsafeRawBufferPointer) throws(FileOutputError) {
        try checkWritable()
        do {
            try output.append(buffer)
        } catch {
            throw fail(.writeFailed(path: path, reason: error.text))
        }
    }

    /// Appends bytes. Same errors as `write(_: UnsafeRawBufferPointer)`.
    public func write(_ data: [UInt8]) throws(FileOutputError) {
        let result: Result<Void, FileOutputError> = data.withUnsafeBytes { raw in
            Result { () throws(FileOutputError) in try self.write(raw) }
        }
        try result.get()
    }

    /// Appends a string as UTF-8 (no terminator). Same errors as `write(_: UnsafeRawBufferPointer)`.
    public func write(_ string: String) throws(FileOutputError) {
        var copy = string
        let result: Result<Void, FileOutputError> = copy.withUTF8 { utf8 in
            Result { () throws(FileOutputError) in try self.write(UnsafeRawBufferPointer(utf8)) }
        }
        try result.get()
    }

    /// Appends any sequence of bytes. Same errors as `write(_: UnsafeRawBufferPointer)`.
    public func write(_ bytes: some Sequence<UInt8>) throws(FileOutputError) {
        let contiguous: Result<Void, FileOutputError>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(FileOutputError) in try self.write(UnsafeRawBufferPointer(buffer)) }
        }
        if let contiguous { return try contiguous.get() }
        try checkWritable()
        for byte in bytes {
            do {
                try output.append(byte: byte)
            } catch {
                throw fail(.writeFailed(path: path, reason: error.text))
            }
        }
    }

    /// Overwrites bytes already written, at byte `offset` from the start of
    /// the file (e.g. to fill in a length field in a header). The range must
    /// lie within `bytesWritten`. Flushes the buffer first.
    /// - Throws: `FileOutputError.writeFailed`, as for `write`.
    public func overwrite(_ data: [UInt8], atOffset offset: Int) throws(FileOutputError) {
        precondition(offset >= 0 && offset + data.count <= bytesWritten,
                     "overwrite range \(offset)..<\(offset + data.count) lies outside the \(bytesWritten) bytes written")
        try checkWritable()
        let fd = output.fd
        let result: Result<Void, SystemError> = data.withUnsafeBytes { raw in
            Result { () throws(SystemError) in
                try output.flush()
                if let base = raw.baseAddress { try POSIX.pwriteAll(fd, base, raw.count, offset) }
            }
        }
        if case .failure(let error) = result {
            throw fail(.writeFailed(path: path, reason: error.text))
        }
    }

    /// Flushes, closes and renames the temporary file onto `path`,
    /// atomically replacing any earlier file there. No `fsync`.
    /// Calling `write` or `commit` afterwards is a programmer error.
    /// - Throws: `.writeFailed` if flushing or closing fails, `.commitFailed`
    ///   if the rename fails; in both cases the temporary file is deleted and
    ///   the earlier file at `path` is left untouched.
    public func commit() throws(FileOutputError) {
        try checkWritable()
        do {
            try output.flush()
        } catch {
            throw fail(.writeFailed(path: path, reason: error.text))
        }
        do {
            try output.close()
        } catch {
            throw fail(.writeFailed(path: path, reason: "closing the file: \(error.text)"))
        }
        if !isDirect {
            do {
                try POSIX.rename(temporaryPath, path)
            } catch {
                throw fail(.commitFailed(path: path, reason: error.text))
            }
        }
        state = .committed
    }

    /// Closes and deletes the temporary file. Never throws; idempotent; does
    /// nothing after a successful `commit()`.
    public func abandon() {
        switch state {
        case .open:
            output.closeIgnoringErrors()
            if !isDirect { POSIX.unlinkIgnoringErrors(temporaryPath) }
            state = .abandoned
        case .failed:
            state = .abandoned
        case .committed, .abandoned:
            break
        }
    }

    private func checkWritable() throws(FileOutputError) {
        switch state {
        case .open: return
        case .failed(let error): throw error
        case .committed: preconditionFailure("AtomicFile '\(path)' used after commit()")
        case .abandoned: preconditionFailure("AtomicFile '\(path)' used after abandon()")
        }
    }

    /// Cleans up after a failure and remembers the error for later calls.
    private func fail(_ error: FileOutputError) -> FileOutputError {
        if case .open = state {
            output.closeIgnoringErrors()
            if !isDirect { POSIX.unlinkIgnoringErrors(temporaryPath) }
        }
        state = .failed(error)
        return error
    }

    /// Splits "a/b/c.mid" into ("a/b", "c.mid"); "c.mid" into (".", "c.mid").
    static func split(_ path: String) -> (directory: String, basename: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        let basename = String(path[path.index(after: slash)...])
        return (directory.isEmpty ? "/" : directory, basename)
    }
}
