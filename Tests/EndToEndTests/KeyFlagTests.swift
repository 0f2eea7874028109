// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// `clumsy run --key/--mode`: the key printed is spelled as written, five-note scales use five
/// bouncers, and bad values are refused before anything runs.
@Suite("Key and mode flags")
struct KeyFlagTests {
    @Test("every tonic, written with ♭/♯ or b/#, is printed spelled for its key", arguments: [
        ("C", "major", "C major"), ("C#", "major", "C♯ major"), ("Db", "major", "D♭ major"), ("D", "dorian", "D dorian"),
        ("D#", "minor", "D♯ minor"), ("Eb", "major", "E♭ major"), ("E", "phrygian", "E phrygian"), ("F", "lydian", "F lydian"),
        ("F#", "major", "F♯ major"), ("Gb", "major", "G♭ major"), ("G", "mixolydian", "G mixolydian"),
        ("G#", "harmonic minor", "G♯ harmonic minor"), ("Ab", "major", "A♭ major"), ("A", "aeolian", "A minor"),
        ("A#", "major", "B♭ major"), ("B♭", "melodic minor", "B♭ melodic minor"), ("B", "locrian", "B locrian"),
        ("e♭", "blues", "E♭ blues"), ("f♯", "minor pentatonic", "F♯ minor pentatonic"), ("Bb", "major-pentatonic", "B♭ major pentatonic"),
    ])
    func spelledKeys(tonic: String, mode: String, printed: String) async throws {
        let result = try await CLI.run(["run", "original", "--duration", "2", "--key", tonic, "--mode", mode])
        try #require(result.status == 0, "\(result)")
        #expect(result.stdoutLines.last?.contains("(seed 1, \(printed))") == true, "\(result.stdoutLines.last ?? "")")
        let flats = printed.contains("♭"), sharps = printed.contains("♯")
        if flats { #expect(!result.stdout.contains("♯"), "sharps in a flat key: \(result.stdout.prefix(400))") }
        if sharps { #expect(!result.stdout.contains("♭"), "flats in a sharp key: \(result.stdout.prefix(400))") }
    }

    @Test("a five-note scale switches off the bouncers of the degrees it lacks")
    func pentatonicBouncers() async throws {
        let directory = try TemporaryDirectory()
        let events = directory.file("e.jsonl")
        let result = try await CLI.run(["run", "original", "--duration", "120", "--key", "A", "--mode", "minor pentatonic", "--events", events])
        try #require(result.status == 0, "\(result)")
        let degrees = try readEventLog(events).filter { $0.kind == "bass" }.compactMap(\.degree)
        #expect(degrees.count > 5)
        #expect(Set(degrees).isSubset(of: [1, 3, 4, 5, 7]), "\(Set(degrees))")
        #expect(Set(degrees).count >= 3)
    }

    @Test("bad --key and --mode exit 64 naming the flag and what is accepted", arguments: [
        (["--key", "H"], "--key H is not a tonic; accepted: C, C#/Db"),
        (["--key", "C#b"], "--key C#b is not a tonic"),
        (["--key", ""], "--key  is not a tonic"),
        (["--mode", "bluesy"], "--mode bluesy is not a known mode (did you mean blues?); accepted: major, dorian"),
        (["--mode", "xyzzy"], "--mode xyzzy is not a known mode; accepted: major, dorian"),
    ])
    func badValues(arguments: [String], message: String) async throws {
        let directory = try TemporaryDirectory()
        let midi = directory.file("x.mid")
        let result = try await CLI.run(["run", "original", "--duration", "2", "--midi", midi] + arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: midi))
    }
}
