// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The one temporary-directory helper (TestSupport), by its short name in every file here.
typealias TemporaryDirectory = TestSupport.TemporaryDirectory

/// Deterministic SplitMix64 generator so random tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Bytes of a file in the test bundle's Golden directory.
func goldenBytes(_ name: String) throws -> [UInt8] {
    guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Golden") else {
        throw GoldenMissing(name: name)
    }
    return [UInt8](try Data(contentsOf: url))
}

struct GoldenMissing: Error, CustomStringConvertible {
    var name: String
    var description: String { "golden file Golden/\(name) is missing from the test bundle" }
}
