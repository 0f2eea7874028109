// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One preset of a SoundFont: where `bank:program` finds it, and its name.
public struct SoundFontPreset: Sendable, Hashable, Comparable {
    /// Bank, 0…128 in practice (128: percussion kits).
    public var bank: Int
    /// Program, 0…127.
    public var program: Int
    /// The name the SoundFont gives it ("Alto Sax").
    public var name: String

    /// Creates a preset entry.
    public init(bank: Int, program: Int, name: String) {
        self.bank = bank
        self.program = program
        self.name = name
    }

    public static func < (a: Self, b: Self) -> Bool { (a.bank, a.program) < (b.bank, b.program) }
}

/// The preset headers of a SoundFont (SF2 or SF3), read from its `pdta` list's `phdr` chunk
/// without loading a sample: what `--tone bank:program` is checked against, and what
/// `clumsy tones --soundfont` lists.
public enum SoundFontPresets {
    /// The presets of the SoundFont at `path`, sorted by bank and program.
    /// - Throws: `SoundError.notASoundFont` when its RIFF structure or preset headers are
    ///   broken, `.soundFontUnreadable` when it cannot be read.
    public static func read(_ path: String) throws(SoundError) -> [SoundFontPreset] {
        try SoundFontFile.validate(path: path)
        guard let file = PathBytes.withCString(path, { fopen($0, "rb") }) else {
            throw .soundFontUnreadable(path: path, reason: errorText(errno))
        }
        defer { fclose(file) }
        func bytes(_ count: Int) -> [UInt8]? {
            var buffer = [UInt8](repeating: 0, count: count)
            let got = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, file) }
            return got == count ? buffer : nil
        }
        func word(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24 }
        func broken(_ reason: String) -> SoundError { .notASoundFont(path: path, reason: reason) }
        guard let header = bytes(12) else { throw broken("it ends inside its RIFF header") }
        let end = 8 + word(header, 4)
        var offset = 12
        // Top-level chunks: LIST INFO, LIST sdta (the samples, skipped), LIST pdta.
        while offset + 12 <= end {
            guard let chunk = bytes(12) else { throw broken("it ends inside a chunk header at byte \(offset)") }
            let size = word(chunk, 4)
            // Every size is bounded by the bytes left (the RIFF size is checked against the
            // file's): a size is read before anything is allocated for it.
            guard size <= end - offset - 8 else {
                throw broken("its \(chunkName(chunk)) chunk at byte \(offset) says \(size) bytes, but only \(end - offset - 8) are left")
            }
            let isPresetData = chunk[0..<4].elementsEqual("LIST".utf8) && chunk[8..<12].elementsEqual("pdta".utf8)
            if isPresetData {
                let skip = { (count: Int) in fseek(file, count, SEEK_CUR) == 0 }
                return try presetHeaders(in: size - 4, at: offset + 12, read: bytes, skip: skip, word: word, broken: broken)
            }
            offset += 8 + size + size % 2
            guard fseek(file, offset, SEEK_SET) == 0 else { throw broken("a chunk runs past its end at byte \(offset)") }
        }
        throw broken("it has no preset data (no LIST pdta chunk)")
    }

    /// Reads the `pdta` list's sub-chunks up to `phdr` and decodes its 38-byte records.
    /// `length` bytes of sub-chunks from byte `start`; other sub-chunks than `phdr` are skipped, not read.
    private static func presetHeaders(in length: Int, at start: Int, read: (Int) -> [UInt8]?, skip: (Int) -> Bool,
                                      word: ([UInt8], Int) -> Int, broken: (String) -> SoundError) throws(SoundError) -> [SoundFontPreset] {
        var remaining = length
        while remaining >= 8 {
            let offset = start + length - remaining
            guard let chunk = read(8) else { throw broken("it ends inside its preset data") }
            let size = word(chunk, 4)
            remaining -= 8
            guard size >= 0, size <= remaining else {
                throw broken("its \(chunkName(chunk)) chunk at byte \(offset) says \(size) bytes, but only \(remaining) are left in its LIST pdta")
            }
            guard chunk[0..<4].elementsEqual("phdr".utf8) else {
                guard skip(size + size % 2) else { throw broken("it ends inside its preset data") }
                remaining -= size + size % 2
                continue
            }
            guard size % 38 == 0, size >= 76, size <= 38 * 65_536, let records = read(size) else {
                throw broken("its preset headers (phdr) are \(size) bytes, not a whole number of 38-byte records")
            }
            // The last record is the terminal "EOP".
            return stride(from: 0, to: size - 38, by: 38).map { start in
                let nameBytes = records[start..<start + 20].prefix { $0 != 0 }
                let name = String(decoding: nameBytes.map { $0 < 0x20 || $0 > 0x7E ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
                let program = Int(records[start + 20]) | Int(records[start + 21]) << 8
                let bank = Int(records[start + 22]) | Int(records[start + 23]) << 8
                return SoundFontPreset(bank: bank, program: program, name: name.trimmingSpaces)
            }.sorted()
        }
        throw broken("it has no preset headers (no phdr chunk)")
    }
}

extension SoundFontPresets {
    /// A chunk's four-character id, quoted, with bytes that are not printable as `?`.
    static func chunkName(_ chunk: [UInt8]) -> String {
        "\"" + String(decoding: chunk.prefix(4).map { $0 < 0x20 || $0 > 0x7E ? UInt8(ascii: "?") : $0 }, as: UTF8.self) + "\""
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(self.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
