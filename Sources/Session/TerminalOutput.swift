// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
import Engine
#if canImport(Glibc)
import Glibc
#endif

/// Buffered writes to a file descriptor (stdout or stderr) that never throw, but remember
/// the first failure so the command can report it (`failure`) and exit with 74.
///
/// A failed write (a reader that went away, `EPIPE`; a full disk) raises `brokenPipeStop` with
/// SIGPIPE's number, so a session printing into `| head -1` stops at once instead of
/// simulating into the void; the command then exits 141 (EPIPE) or 74 (anything else).
/// After a stop signal a write waits at most `StopSignal.writeGrace` for a stalled reader.
public final class TerminalOutput {
    /// Standard output.
    nonisolated(unsafe) public static let standardOutput = TerminalOutput(descriptor: 1)
    /// Standard error.
    nonisolated(unsafe) public static let standardError = TerminalOutput(descriptor: 2)

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// False once a write failed (the reader went away, the disk is full, the descriptor is closed).
    public private(set) var isOpen = true
    /// The `errno` of the first failed write, if any.
    public private(set) var failure: Int32?
    /// True once anything was written (or tried to be).
    public private(set) var wasUsed = false
    /// Raised with SIGPIPE (13) when a write fails.
    nonisolated(unsafe) public var brokenPipeStop: StopSignal?

    /// Wraps a descriptor.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    /// True when the descriptor is a terminal.
    public var isTerminal: Bool { isatty(descriptor) == 1 }

    /// Appends text; flushes when the buffer passes 64 KiB.
    public func write(_ text: String) {
        wasUsed = true
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Records a failure without writing (a descriptor found closed at start-up).
    public func markFailed(_ code: Int32) {
        if failure == nil { failure = code }
        isOpen = false
    }

    /// Writes everything buffered.
    public func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard !buffer.isEmpty else { return }
        guard isOpen else {
            if failure == nil { failure = EBADF }
            return
        }
        var offset = 0
        while offset < buffer.count {
            if StopSignal.process.isRaised {
                var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                if poll(&entry, 1, StopSignal.writeGrace) == 0 { fail(EAGAIN); return }
            }
            let written = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR && !StopSignal.process.isRaised { continue }
                fail(errno)
                return
            }
            offset += written
        }
    }

    private func fail(_ code: Int32) {
        isOpen = false
        if failure == nil { failure = code }
        // Nothing more can reach the reader: stop the session (text mode writes only here).
        brokenPipeStop?.raise(SIGPIPE)
    }
}
