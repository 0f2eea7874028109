// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// File names as the bytes the operating system uses, carried in Swift `String`s.
///
/// A Linux file name is any bytes but `/` and NUL; a `String` holds Unicode. Command-line
/// arguments, environment values and directory entries are decoded with `string(_:)`: valid
/// UTF-8 as it is, and each byte of an invalid sequence as one private-use code point,
/// U+10FF00 + the byte (U+10FF80…U+10FFFF; like Python's surrogateescape, which Swift
/// strings cannot hold). `bytes(_:)` turns such a string back into exactly the bytes it came
/// from, and every path handed to the system goes through it (`filePath(_:)`,
/// `withCString(_:_:)`), so `$'\xff.mid'` never becomes a file named U+FFFD. Printing
/// shows each escaped byte as `\xFF` (`Quote.text`).
///
/// A name that is valid UTF-8 but holds one of those 128 code points itself is decoded with
/// its bytes escaped too, so decoding and `bytes(_:)` are exact inverses for every input.
public enum PathBytes {
    /// The code point standing for byte 0x00 (only 0x80…0xFF are ever used).
    static let escapeBase: UInt32 = 0x10FF00

    /// The byte an escape code point stands for, or nil for any other scalar.
    public static func escapedByte(_ scalar: Unicode.Scalar) -> UInt8? {
        let value = scalar.value
        guard value >= escapeBase + 0x80, value <= escapeBase + 0xFF else { return nil }
        return UInt8(value - escapeBase)
    }

    /// Decodes bytes from the system (an argument, an environment value, a directory entry).
    public static func string<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            if length > 0, let scalar = decode(bytes[index..<index + length]), escapedByte(scalar) == nil {
                scalars.append(scalar)
            } else {
                // An invalid byte, or an escape code point spelled in the input: escape each byte.
                for byte in bytes[index..<index + max(length, 1)] { scalars.append(Unicode.Scalar(escapeBase + UInt32(byte))!) }
            }
            index += max(length, 1)
        }
        return String(scalars)
    }

    /// The exact bytes `path` stands for (see `string(_:)`).
    public static func bytes(_ path: String) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if let byte = escapedByte(scalar) {
                result.append(byte)
            } else {
                result.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        return result
    }

    /// `path` as a swift-system path of its exact bytes.
    public static func filePath(_ path: String) -> FilePath {
        withCString(path) { FilePath(platformString: $0) }
    }

    /// A swift-system path as a `String` that `bytes(_:)` turns back into its bytes.
    public static func string(_ path: FilePath) -> String {
        path.withPlatformString { pointer in
            string(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
        }
    }

    /// A path component as a `String` (see `string(_:)`).
    public static func string(_ component: FilePath.Component) -> String {
        string(FilePath(root: nil, [component]))
    }

    /// Calls `body` with `path`'s exact bytes as a NUL-terminated C string.
    public static func withCString<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        var bytes = Self.bytes(path)
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// The length of the well-formed UTF-8 sequence at `index` (RFC 3629), or 0 if there is none.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF4: length = 4; second = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default: return 0
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return 0 }
        return length
    }

    /// The scalar of one well-formed UTF-8 sequence.
    private static func decode(_ sequence: ArraySlice<UInt8>) -> Unicode.Scalar? {
        var iterator = sequence.makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }
}
