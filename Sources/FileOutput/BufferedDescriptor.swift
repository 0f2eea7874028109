// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import SystemPackage

/// A fixed-size write buffer in front of a file descriptor that someone else owns (and closes).
///
/// The buffer is flushed with `write(2)` when it would overflow and on `flush()`. Every
/// system call result is checked.
final class BufferedDescriptor {
    /// The descriptor written to; not owned.
    let fd: FileDescriptor
    /// Buffer capacity in bytes.
    let capacity: Int
    /// Bytes currently held in memory, not yet written to the descriptor.
    private(set) var bufferedCount = 0
    /// Bytes already handed to `write(2)` successfully.
    private(set) var flushedCount = 0
    private let storage: UnsafeMutableRawPointer

    /// Writes to `fd`; `capacity` is the buffer size in bytes (> 0).
    init(fd: FileDescriptor, capacity: Int) {
        precondition(capacity > 0, "buffer capacity must be positive")
        self.fd = fd
        self.capacity = capacity
        self.storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        storage.deallocate()
    }

    /// Total bytes accepted so far (flushed plus buffered).
    var totalCount: Int { flushedCount + bufferedCount }

    /// Appends bytes, flushing first if they do not fit; writes blocks at
    /// least as large as the buffer straight through.
    func append(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return }
        if count > capacity - bufferedCount { try flush() }
        if count >= capacity {
            try POSIX.writeAll(fd, base, count)
            flushedCount += count
        } else {
            (storage + bufferedCount).copyMemory(from: base, byteCount: count)
            bufferedCount += count
        }
    }

    /// Appends a single byte.
    func append(byte: UInt8) throws(SystemError) {
        if bufferedCount == capacity { try flush() }
        storage.storeBytes(of: byte, toByteOffset: bufferedCount, as: UInt8.self)
        bufferedCount += 1
    }

    /// Writes the buffered bytes to the descriptor.
    func flush() throws(SystemError) {
        guard bufferedCount > 0 else { return }
        let count = bufferedCount
        // Forget the bytes even on failure: the file is unusable afterwards anyway.
        bufferedCount = 0
        try POSIX.writeAll(fd, storage, count)
        flushedCount += count
    }

    /// Forgets buffered bytes (before the descriptor is closed on an error path).
    func discard() { bufferedCount = 0 }
}
