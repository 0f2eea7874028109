// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import FileOutput
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
///
/// Where the locale's character set is not UTF-8 (`LC_ALL=C`, or no locale set at all) the
/// typography Clumsy itself prints becomes ASCII (`asciiTypography`): `Bb major`,
/// `->`, `...`, so `grep -- -16.0` finds it. Names that came from the user (a preset's, a
/// file's) pass through byte for byte.
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

    /// The terminal's width in columns; nil when the descriptor is not a terminal or the
    /// terminal does not say.
    public var columns: Int? {
        guard isTerminal else { return nil }
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// True when the locale (`LC_ALL`, else `LC_CTYPE`, else `LANG`, as POSIX orders them)
    /// names no UTF-8 character set: then the typography written is ASCII.
    public static let isASCII: Bool = {
        let names: [String] = ["LC_ALL", "LC_CTYPE", "LANG"]
        let variables = names.compactMap { name in getenv(name).map { String(cString: $0) } }
        let locale = (variables.first { !$0.isEmpty } ?? "").uppercased()
        return !(locale.contains("UTF-8") || locale.contains("UTF8"))
    }()

    /// Clumsy's own typography and its ASCII spelling.
    static let asciiTypography: [Character: String] = [
        "\u{2212}": "-", "\u{2013}": "-", "\u{2014}": "--", "\u{266D}": "b", "\u{266F}": "#", "\u{266E}": "",
        "\u{2026}": "...", "\u{2192}": "->", "\u{2190}": "<-", "\u{00D7}": "x", "\u{2264}": "<=", "\u{2265}": ">=",
        "\u{00B1}": "+/-", "\u{221E}": "inf", "\u{00B7}": ".", "\u{00B2}": "2", "\u{00B0}": " deg",
        "\u{2018}": "'", "\u{2019}": "'", "\u{201C}": "\"", "\u{201D}": "\"", "\u{2009}": " ", "\u{00A0}": " ",
    ]

    /// `text` with `asciiTypography` applied; everything else as it was.
    static func ascii(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let spelled = asciiTypography[Character(scalar)] { result += spelled } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// Appends text; flushes when the buffer passes 64 KiB.
    public func write(_ text: String) {
        wasUsed = true
        buffer.append(contentsOf: (Self.isASCII ? Self.ascii(text) : text).utf8)
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
