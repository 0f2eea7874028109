// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
import Testing

/// `PathBytes`: file names decoded from bytes and turned back into exactly those bytes.
@Suite("PathBytes")
struct PathBytesTests {
    @Test("Valid UTF-8 decodes as itself")
    func validUTF8() {
        for text in ["x.mid", "été/ü.wav", "音楽.jsonl", "\u{10FF7F}", ""] {
            #expect(PathBytes.string(Array(text.utf8)) == text)
            #expect(PathBytes.bytes(text) == Array(text.utf8))
        }
    }

    @Test("Every byte sequence comes back exactly", arguments: [
        [0xFF], [0xFE, 0x2E, 0x6D], [0xC3], [0xC3, 0x28], [0xE2, 0x82], [0xED, 0xA0, 0x80],  // lone, truncated, surrogate
        [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF],                                              // past U+10FFFF, overlong
        [0xF4, 0x8F, 0xBF, 0xBF], [0x61, 0xF4, 0x8F, 0xBE, 0x80, 0x62],                      // escape code points spelled out
        [0xEF, 0xBF, 0xBD],                                                                  // U+FFFD itself
    ] as [[UInt8]])
    func roundTrip(bytes: [UInt8]) {
        let text = PathBytes.string(bytes)
        #expect(PathBytes.bytes(text) == bytes)
        #expect(PathBytes.string(PathBytes.filePath(text)) == text)
    }

    @Test("All two-byte sequences without NUL come back exactly, and differ from each other")
    func allPairs() {
        // Compared by scalars: String's == equates canonically equivalent names (U+0340, U+0300).
        var seen = Set<[UInt32]>()
        for first in 1...255 {
            for second in 1...255 {
                let bytes = [UInt8(first), UInt8(second)]
                let text = PathBytes.string(bytes)
                #expect(PathBytes.bytes(text) == bytes)
                seen.insert(text.unicodeScalars.map(\.value))
            }
        }
        #expect(seen.count == 255 * 255)
    }

    @Test("An invalid byte is not U+FFFD")
    func notReplacement() {
        #expect(PathBytes.string([0xFF]) != "\u{FFFD}")
        #expect(PathBytes.escapedByte(PathBytes.string([0xFF]).unicodeScalars.first!) == 0xFF)
    }
}
