// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import FileOutput
import Text
#if canImport(Glibc)
import Glibc
#endif

/// The lines of an event log (`roll` and `replay` read them), one at a time and each at most
/// `maximumLine` bytes: a log of any length is read in constant memory, and a line that is
/// not one a clumsy session could write (a megabyte, or a gigabyte without a newline) is
/// refused (65) as soon as it passes the bound, naming the file and the line.
/// The file must be a regular file (`InputFile`: a FIFO or a device is refused, never waited on).
public final class EventLogLines {
    /// The longest line read, bytes without the newline. A session writes lines of about 200
    /// bytes; a `session` line with a preset's absolute path stays well under this.
    public static let maximumLine = 64 << 10
    /// The bound as people read it, for messages and the README.
    public static let maximumLineText = "64 KiB"

    public let path: String
    /// The number of the line `next()` returned last (1-based).
    public private(set) var number = 0
    /// True when the line `next()` returned last is the file's end without a newline (a line a
    /// killed writer may have cut).
    public private(set) var isCut = false
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var searched = 0
    private var atEnd = false

    /// Opens `path`. - Throws: `.noInput` (66) if it is missing, unreadable or not a regular file.
    public init(path: String) throws(SessionError) {
        self.path = path
        descriptor = try InputFile.open(path, what: "event log")
    }

    deinit { close(descriptor) }

    /// The next line without its newline, or nil after the last.
    /// - Throws: `.data` (65) for a line over `maximumLine`, `.noInput` (66) for a read error.
    public func next() throws(SessionError) -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                number += 1
                let line = buffer[start..<newline]
                start = newline + 1
                searched = start
                guard line.count <= Self.maximumLine else { throw tooLong() }
                return line
            }
            searched = buffer.count
            if buffer.count - start > Self.maximumLine {
                number += 1
                throw tooLong()
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                number += 1
                isCut = true
                let line = buffer[start...]
                start = buffer.count
                return line
            }
            try fill()
        }
    }

    private func tooLong() -> SessionError {
        .data("\(Quote.text(path)): line \(number) is longer than \(Self.maximumLineText) (\(Self.maximumLine) bytes); "
            + "an event log's lines are short: is this an event log that clumsy wrote?")
    }

    /// Drops the lines already returned and reads the next chunk (sets `atEnd` at the end of the file).
    private func fill() throws(SessionError) {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            searched -= start
            start = 0
        }
        // A stop signal ends the reading at the next chunk (reads of a regular file are
        // never interrupted by it): roll and replay of a long log stop at once.
        if StopSignal.process.isRaised { throw .io("\(Quote.text(path)): stopped by a signal") }
        let chunk = 1 << 16
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + old, chunk) }
            if count < 0 {
                if errno == EINTR && !StopSignal.process.isRaised { continue }
                let reason = String(cString: strerror(errno))
                buffer.removeSubrange(old...)
                throw .noInput("\(Quote.text(path)): cannot read event log: \(reason)")
            }
            buffer.removeSubrange((old + count)...)
            if count == 0 { atEnd = true }
            return
        }
    }
}
