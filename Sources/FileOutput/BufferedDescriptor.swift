/// A file descriptor with a fixed-size write buffer in front of it.
///
/// The buffer is flushed with `write(2)` when it would overflow, on
/// `flush()`, and before `close()`. Every system call result is checked.
final class BufferedDescriptor {
    /// The descriptor; owned, closed by `close()` or `deinit`.
    let fd: Int32
    /// Buffer capacity in bytes.
    let capacity: Int
    /// Bytes currently held in memory, not yet written to the descriptor.
    private(set) var bufferedCount = 0
    /// Bytes already handed to `write(2)` successfully.
    private(set) var flushedCount = 0
    private let storage: UnsafeMutableRawPointer
    private var isClosed = false

    /// Takes ownership of `fd`; `capacity` is the buffer size in bytes (> 0).
    init(fd: Int32, capacity: Int) {
        precondition(capacity > 0, "buffer capacity must be positive")
        self.fd = fd
        self.capacity = capacity
        self.storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        storage.deallocate()
        if !isClosed { try? POSIX.close(fd) }
    }

    /// Total bytes accepted so far (flushed plus buffered).
    var totalCount: Int { flushedCount + bufferedCount }

    /// Appends bytes, flushing first if they do not fit; writes blocks at
    /// least as large as the buffer straight through.
    func append(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        precondition(!isClosed, "write after close")
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
        precondition(!isClosed, "write after close")
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

    /// Closes the descriptor without flushing. Idempotent.
    func close() throws(SystemError) {
        guard !isClosed else { return }
        isClosed = true
        bufferedCount = 0
        try POSIX.close(fd)
    }

    /// Closes, ignoring any error. Idempotent.
    func closeIgnoringErrors() {
        try? close()
    }
}
