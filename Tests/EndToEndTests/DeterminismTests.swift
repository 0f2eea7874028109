// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// Same preset, flags and seed → the same files, byte for byte; another seed → another session.
@Suite("Determinism")
struct DeterminismTests {
    /// Runs a session writing both files into `directory` under `stem` and returns their bytes.
    static func session(_ preset: String, seed: Int, extra: [String] = [], in directory: TemporaryDirectory,
                        stem: String) async throws -> (midi: [UInt8], events: [UInt8]) {
        let midi = directory.file(stem + ".mid")
        let events = directory.file(stem + ".jsonl")
        let result = try await CLI.run(["run", preset, "--duration", "10", "--seed", String(seed)] + extra
                                 + ["--midi", midi, "--events", events, "--quiet"])
        try #require(result.status == 0 && !result.signalled, "\(result)")
        #expect(result.stdout.isEmpty, "--quiet printed: \(result.stdout)")
        let midiBytes = try #require(bytes(of: midi), "no MIDI file at \(midi)")
        let eventBytes = try #require(bytes(of: events), "no event log at \(events)")
        return (midiBytes, eventBytes)
    }

    @Test("Two runs with the same flags and seed write identical files; a different seed differs",
          arguments: [("default", [String]()), ("minor-storm", []), ("dorian-drift", ["--gravity", "4.2", "--speed", "3"])])
    func sameSeedSameFiles(preset: String, extra: [String]) async throws {
        let directory = try TemporaryDirectory()
        let first = try await Self.session(preset, seed: 7, extra: extra, in: directory, stem: "a")
        let second = try await Self.session(preset, seed: 7, extra: extra, in: directory, stem: "b")
        let other = try await Self.session(preset, seed: 8, extra: extra, in: directory, stem: "c")
        #expect(first.events.count > 100, "event log suspiciously short: \(first.events.count) bytes")
        #expect(first.midi == second.midi, "MIDI files differ between identical runs of \(preset)")
        #expect(first.events == second.events, "event logs differ between identical runs of \(preset)")
        #expect(first.events != other.events, "seed 7 and seed 8 gave the same event log for \(preset)")
        #expect(first.midi != other.midi, "seed 7 and seed 8 gave the same MIDI file for \(preset)")
    }

    @Test("The preset's own seed is used when --seed is absent, and --seed overrides it")
    func presetSeedIsDefault() async throws {
        // minor-storm's preset seed is 31.
        let directory = try TemporaryDirectory()
        let implicit = directory.file("implicit.jsonl")
        let explicit = directory.file("explicit.jsonl")
        let r1 = try await CLI.run(["run", "minor-storm", "--duration", "5", "--events", implicit])
        let r2 = try await CLI.run(["run", "minor-storm", "--duration", "5", "--seed", "31", "--events", explicit])
        try #require(r1.status == 0 && r2.status == 0, "\(r1)\n\(r2)")
        #expect(r1.stdout.contains("(seed 31,"), "summary does not name the preset's seed: \(r1.stdout)")
        #expect(bytes(of: implicit) == bytes(of: explicit))
    }
}
