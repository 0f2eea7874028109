// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import SystemPackage

/// An anonymous scratch file for staging a stream of bytes that is later
/// copied into an `AtomicFile` (for example one MIDI track whose length is
/// only known at the end).
///
/// The file is created in a given directory (named like every temporary, see `TemporaryName`) and unlinked immediately, so it
/// never shows up in a directory listing and vanishes when closed, even if
/// the process crashes. Writes go through an in-memory buffer of
/// `bufferCapacity` bytes, so memory use stays flat however much is spooled.
///
/// Not thread-safe: use from one thread (or actor) at a time.
public final class SpoolFile {
    /// Default in-memory buffer size in bytes (64 KiB).
    public static let defaultBufferCapacity = 64 * 1024

    /// The output path this spool serves; used only in error messages.
    public let outputPath: String
    /// In-memory buffer size in bytes.
    public let bufferCapacity: Int

    private let fd: FileDescriptor
    private let storage: BufferedDescriptor
    private var failure: FileOutputError?
    private var isClosed = false

    /// Creates and immediately unlinks a scratch file in `directory`.
    /// - Parameters:
    ///   - directory: where the scratch bytes live (same file system as the output is a good choice).
    ///   - outputPath: the final output file this spool belongs to, for error messages.
    ///   - bufferCapacity: in-memory buffer size in bytes (> 0).
    /// - Throws: `FileOutputError.cannotCreate` (naming `outputPath`) with the `strerror` text.
    public init(directory: String, outputPath: String, bufferCapacity: Int = SpoolFile.defaultBufferCapacity) throws(FileOutputError) {
        precondition(bufferCapacity > 0, "spool buffer capacity must be positive")
        self.outputPath = outputPath
        self.bufferCapacity = bufferCapacity
        let fd: FileDescriptor
        do {
            fd = try TemporaryName.anonymous(in: PathBytes.filePath(directory), for: "spool")
        } catch {
            throw .cannotCreate(path: outputPath, reason: "creating a temporary spool file in '\(directory)': \(error.text)")
        }
        self.fd = fd
        self.storage = BufferedDescriptor(fd: fd, capacity: bufferCapacity)
    }

    deinit { close() }

    /// Where to spool for an output at `path`: its directory ("." if it has none), where
    /// `AtomicFile` puts its temporary file; for a special file (/dev/full, a FIFO), `$TMPDIR` or /tmp.
    public static func directory(of path: String) -> String {
        guard let target = try? OutputTarget(path: path) else { return "." }
        return PathBytes.string(target.isSpecial ? POSIX.temporaryDirectory : target.directory)
    }

    /// Total bytes spooled so far (on disk plus buffered).
    public var byteCount: Int { storage.totalCount }

    /// Bytes currently held in memory; never more than `bufferCapacity`.
    public var bufferedByteCount: Int { storage.bufferedCount }

    /// Appends raw bytes.
    /// - Throws: `FileOutputError.writeFailed` (naming `outputPath`), e.g. on a full disk;
    ///   later calls throw the same error.
    public func write(_ buffer: UnsafeRawBufferPointer) throws(FileOutputError) {
        try checkUsable()
        do {
            try storage.append(buffer)
        } catch {
            throw fail(error)
        }
    }

    /// Appends bytes. Same errors as `write(_: UnsafeRawBufferPointer)`.
    public func write(_ data: [UInt8]) throws(FileOutputError) {
        let result: Result<Void, FileOutputError> = data.withUnsafeBytes { raw in
            Result { () throws(FileOutputError) in try self.write(raw) }
        }
        try result.get()
    }

    /// Flushes the buffer and streams the whole spool, from its first byte,
    /// into `destination` (through a 64 KiB chunk buffer).
    /// - Throws: `FileOutputError.writeFailed` if reading the spool or writing the destination fails.
    public func copy(to destination: AtomicFile) throws(FileOutputError) {
        try checkUsable()
        do {
            try storage.flush()
        } catch {
            throw fail(error)
        }
        let total = storage.flushedCount
        let chunkSize = 64 * 1024
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { chunk.deallocate() }
        var offset = 0
        while offset < total {
            let wanted = min(chunkSize, total - offset)
            let got: Int
            do {
                got = try POSIX.pread(fd, chunk.baseAddress!, wanted, offset)
            } catch {
                throw fail(SystemError(code: error.code, step: "reading back the temporary spool"))
            }
            if got == 0 {
                throw fail(SystemError(code: Errno.ioError.rawValue, step: "the temporary spool ended early"))
            }
            try destination.write(UnsafeRawBufferPointer(rebasing: chunk[0..<got]))
            offset += got
        }
    }

    /// Closes (and so deletes) the scratch file. Idempotent; never throws.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        storage.discard()
        try? POSIX.close(fd)
    }

    private func checkUsable() throws(FileOutputError) {
        precondition(!isClosed, "SpoolFile for '\(outputPath)' used after close()")
        if let failure { throw failure }
    }

    private func fail(_ error: SystemError) -> FileOutputError {
        let wrapped = FileOutputError.writeFailed(path: outputPath, reason: "temporary spool: \(error.text)")
        failure = wrapped
        return wrapped
    }
}
