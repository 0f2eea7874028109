// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import FileOutput
import Text

/// A POSIX ustar archive (POSIX.1-1988, what `tar`, Python's `tarfile` and WebDataset read),
/// written as a stream into an `AtomicFile`: regular files only, each a 512-byte header and its
/// bytes padded to 512, then two zero blocks, the whole padded to a 10,240-byte record as GNU
/// tar and `tarfile` write it.
///
/// Deterministic: every member has mode 0644, uid and gid 0, no owner names and mtime 0, so the
/// same files in the same order give the same archive, byte for byte.
struct TarWriter {
    static let blockSize = 512
    static let recordSize = 10_240
    /// The largest member: 11 octal digits of size (8 GiB − 1).
    static let largestMember = (1 << 33) - 1

    private let file: AtomicFile
    private(set) var bytesWritten = 0

    init(_ file: AtomicFile) { self.file = file }

    /// Appends a member `name` holding `bytes`. - Throws: `.io` (74) when the write fails.
    mutating func add(_ name: String, _ bytes: [UInt8]) throws(SessionError) {
        try write(try Self.header(name: name, size: bytes.count))
        try write(bytes)
        try write([UInt8](repeating: 0, count: Self.padding(bytes.count)))
    }

    /// Writes the end of the archive (two zero blocks, then zeros to the record's end).
    mutating func finish() throws(SessionError) {
        let end = bytesWritten + 2 * Self.blockSize
        let total = (end + Self.recordSize - 1) / Self.recordSize * Self.recordSize
        try write([UInt8](repeating: 0, count: total - bytesWritten))
    }

    private mutating func write(_ bytes: [UInt8]) throws(SessionError) {
        do throws(FileOutputError) { try file.write(bytes) } catch { throw .io(error.description) }
        bytesWritten += bytes.count
    }

    /// The zeros after `size` bytes of a member, to the next block.
    static func padding(_ size: Int) -> Int { (blockSize - size % blockSize) % blockSize }

    /// The 512-byte ustar header of a regular file.
    /// - Throws: `.software` (70) for a name that is not 1…100 bytes of printable ASCII without
    ///   `..` parts, or a member of 8 GiB or more (the export makes its names; neither happens).
    static func header(name: String, size: Int) throws(SessionError) -> [UInt8] {
        let nameBytes = Array(name.utf8)
        guard (1...100).contains(nameBytes.count), nameBytes.allSatisfy({ (0x21...0x7E).contains($0) }),
              !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
            throw .software("\(Quote.text(name)): not a tar member name (1…100 bytes of printable ASCII, relative)")
        }
        guard (0...largestMember).contains(size) else {
            throw .software("\(Quote.text(name)): \(size) bytes is more than a ustar member holds (8 GiB − 1)")
        }
        var header = [UInt8](repeating: 0, count: blockSize)
        func put(_ bytes: [UInt8], at offset: Int) { header.replaceSubrange(offset..<(offset + bytes.count), with: bytes) }
        /// `digits` octal digits and a NUL, as the numeric fields hold them.
        func octal(_ value: Int, digits: Int) -> [UInt8] {
            let text = String(value, radix: 8)
            return Array((String(repeating: "0", count: digits - text.count) + text).utf8) + [0]
        }
        put(nameBytes, at: 0)
        put(octal(0o644, digits: 7), at: 100)          // mode
        put(octal(0, digits: 7), at: 108)              // uid
        put(octal(0, digits: 7), at: 116)              // gid
        put(octal(size, digits: 11), at: 124)          // size
        put(octal(0, digits: 11), at: 136)             // mtime
        put(Array("        ".utf8), at: 148)           // checksum, as spaces while it is summed
        put([UInt8(ascii: "0")], at: 156)              // typeflag: a regular file
        put(Array("ustar".utf8) + [0], at: 257)        // magic
        put(Array("00".utf8), at: 263)                 // version
        put(octal(0, digits: 7), at: 329)              // devmajor
        put(octal(0, digits: 7), at: 337)              // devminor
        let sum = header.reduce(0) { $0 + Int($1) }
        put(octal(sum, digits: 6) + [UInt8(ascii: " ")], at: 148)
        return header
    }
}
