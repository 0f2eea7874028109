#if canImport(Glibc)
import Glibc
#endif

/// Buffered writes to a file descriptor (stdout or stderr) that never throw:
/// a closed pipe (EPIPE) just stops further output.
public final class TerminalOutput {
    /// Standard output.
    nonisolated(unsafe) public static let standardOutput = TerminalOutput(descriptor: 1)
    /// Standard error.
    nonisolated(unsafe) public static let standardError = TerminalOutput(descriptor: 2)

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// False once the reader went away.
    public private(set) var isOpen = true

    /// Wraps a descriptor.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    /// True when the descriptor is a terminal.
    public var isTerminal: Bool { isatty(descriptor) == 1 }

    /// Appends text; flushes when the buffer passes 64 KiB.
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes everything buffered.
    public func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard isOpen else { return }
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                isOpen = false
                return
            }
            offset += written
        }
    }
}
