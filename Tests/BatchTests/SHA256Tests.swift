// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
@testable import Batch

/// The manifest's checksums: FIPS 180-4's examples, and bytes added in pieces.
@Suite("SHA-256")
struct SHA256Tests {
    static func hex(_ text: String) -> String {
        var hash = SHA256()
        hash.add(Array(text.utf8))
        return hash.hex()
    }

    @Test("FIPS 180-4's and NIST's example messages")
    func knownDigests() {
        #expect(Self.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Self.hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu")
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test("Bytes added in pieces of any size hash as the whole (block edges at 55, 56, 63, 64 and 65 bytes)")
    func pieces() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 128, 1000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var whole = SHA256()
            whole.add(bytes)
            let expected = whole.hex()
            for piece in [1, 7, 63, 64, 65] {
                var pieces = SHA256()
                var start = 0
                while start < bytes.count {
                    let end = min(start + piece, bytes.count)
                    bytes[start..<end].withUnsafeBytes { pieces.add($0) }
                    start = end
                }
                #expect(pieces.hex() == expected, "\(length) bytes in pieces of \(piece)")
            }
        }
    }
}
