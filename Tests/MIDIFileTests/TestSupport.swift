// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under the system temporary directory, removed on deinit.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "midifile-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Path of `name` inside this directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// Every entry, hidden ones included, sorted.
    func entries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }
}

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

/// Reads a whole file as bytes.
func contentsOf(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// Writes bytes to a file directly (not through the code under test).
func writeDirectly(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
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

/// A tiny tmpfs mounted on a fresh directory, to make "No space left on
/// device" happen for real. Needs root (or CAP_SYS_ADMIN) and a kernel that
/// allows it; `isAvailable` probes that once.
final class TinyFileSystem {
    let directory: TemporaryDirectory
    var path: String { directory.path }

    init?(kibibytes: Int) {
        guard let directory = try? TemporaryDirectory() else { return nil }
        self.directory = directory
        #if canImport(Glibc)
        guard mount("tmpfs", directory.path, "tmpfs", 0, "size=\(kibibytes)k") == 0 else { return nil }
        #else
        return nil
        #endif
    }

    deinit {
        #if canImport(Glibc)
        _ = umount2(directory.path, Int32(MNT_DETACH))
        #endif
    }

    /// True if this process may mount a tmpfs (probed once by mounting and unmounting one).
    static let isAvailable: Bool = TinyFileSystem(kibibytes: 64) != nil
}
