// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// An output file that appears at its final path atomically, or not at all: an
/// `OutputFile` (the one way Clumsy creates outputs) with a 64 KiB write buffer.
///
/// Bytes go to a hidden temporary beside the target (see `TemporaryName`); `commit()`
/// renames it over the target in one step; until then any earlier file there is untouched,
/// and it stays untouched if anything fails. `abandon()` (also run by `deinit` and after any
/// write failure) deletes the temporary, so error paths never leave debris behind.
///
/// The temporary is created in `init`, so a bad output path is reported before any
/// expensive work starts. A symbolic link is written through (its target is replaced, the
/// link stays); a special file (a device such as /dev/null or /dev/full, a FIFO) is
/// written in place.
///
/// Not thread-safe: use from one thread (or actor) at a time.
public final class AtomicFile {
    /// Buffer size, in bytes, used between `write` calls and `write(2)`.
    public static let bufferCapacity = 64 * 1024

    /// The final path, as given to `init`.
    public let path: String
    /// Where the bytes go until `commit()`: the hidden temporary, or the special file itself.
    public var temporaryPath: String { PathBytes.string(file.writePath) }

    private let file: OutputFile
    private let output: BufferedDescriptor
    private var lifecycle = WriterLifecycle<FileOutputError>(owner: "AtomicFile", finishName: "commit()")
    /// True when `path` is a special file written in place (no temporary, no rename).
    public var isDirect: Bool { file.isInPlace }

    /// Resolves `path` (`OutputTarget`) and creates its temporary (mode 0644 before umask,
    /// `O_CREAT|O_EXCL`) or opens the special file.
    ///
    /// - Parameter kept: the temporary outlives a crash: no other process removes it when
    ///   this one is killed (`TemporaryName.make(for:kept:)`).
    /// - Throws: `FileOutputError.cannotCreate` with the reason if the directory is
    ///   missing or not writable, the name is too long, or `path` names a directory.
    public init(path: String, kept: Bool = false) throws(FileOutputError) {
        self.path = path
        file = try OutputFile(path: path, kept: kept)
        output = BufferedDescriptor(fd: file.descriptor!, capacity: AtomicFile.bufferCapacity)
    }

    deinit {
        if lifecycle.isOpen { abandon() }
    }

    /// Closes and deletes the temporary file. Never throws; idempotent; does
    /// nothing after a successful `commit()`.
    public func abandon() {
        lifecycle.abandon(cleanUp: discardAll)
    }

    /// Bytes accepted so far (written to the temporary file or still buffered).
    public var bytesWritten: Int { output.totalCount }

    /// True once `commit()` has succeeded.
    public var isCommitted: Bool { lifecycle.isFinished }

    /// Appends raw bytes.
    /// - Throws: `FileOutputError.writeFailed` (e.g. "No space left on
    ///   device"); the temporary file is then deleted and every later call
    ///   throws the same error.
    public func write(_ buffer: UnsafeRawBufferPointer) throws(FileOutputError) {
        try lifecycle.check(path)
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
        try lifecycle.check(path)
        for byte in bytes {
            do {
                try output.append(byte: byte)
            } catch {
                throw fail(.writeFailed(path: path, reason: error.text))
            }
        }
    }

    /// Hands the buffered bytes to the file (`write(2)`), so that they survive the process (a
    /// crash, SIGKILL) though not the machine. Same errors as `write(_: UnsafeRawBufferPointer)`.
    public func flush() throws(FileOutputError) {
        try lifecycle.check(path)
        do {
            try output.flush()
        } catch {
            throw fail(.writeFailed(path: path, reason: error.text))
        }
    }

    /// Overwrites bytes already written, at byte `offset` from the start of
    /// the file (e.g. to fill in a length field in a header). The range must
    /// lie within `bytesWritten`. Flushes the buffer first.
    /// - Throws: `FileOutputError.writeFailed`, as for `write`.
    public func overwrite(_ data: [UInt8], atOffset offset: Int) throws(FileOutputError) {
        precondition(offset >= 0 && offset + data.count <= bytesWritten,
                     "overwrite range \(offset)..<\(offset + data.count) lies outside the \(bytesWritten) bytes written")
        try lifecycle.check(path)
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

    /// Flushes and commits the `OutputFile`: the temporary is renamed onto `path` (synced
    /// first when it replaces an earlier file), or the special file is closed.
    /// Calling `write` or `commit` afterwards is a programmer error.
    /// - Throws: `.writeFailed` if flushing, syncing or closing fails, `.commitFailed`
    ///   if the rename fails; in both cases the temporary file is deleted and
    ///   the earlier file at `path` is left untouched.
    public func commit() throws(FileOutputError) {
        try lifecycle.check(path)
        do {
            try output.flush()
        } catch {
            throw fail(.writeFailed(path: path, reason: error.text))
        }
        do {
            try file.commit()
        } catch {
            // The OutputFile has already removed its temporary; the buffer was flushed.
            throw lifecycle.fail(error, cleanUp: {})
        }
        lifecycle.finish()
    }

    /// Cleans up after a failure and remembers the error for later calls.
    private func fail(_ error: FileOutputError) -> FileOutputError {
        lifecycle.fail(error, cleanUp: discardAll)
    }

    private func discardAll() {
        output.discard()
        file.abandon()
    }
}
