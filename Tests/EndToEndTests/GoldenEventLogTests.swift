// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// The event log of a fixed session, pinned byte for byte.
///
/// `Golden/original-20s-seed1.jsonl` was produced by the program itself and checked by eye
/// (times non-decreasing, the first lines chord I (Cmaj7) and its tonic C3 = note 48 at t = 0,
/// only `chord`, `bass` and `key` lines, notes of the chords of C major). The `chord` lines were
/// added on purpose (issue 20); the note lines are those of before. Any difference means the simulation, the
/// music or the log format changed: that must be a deliberate behaviour change. If it is,
/// regenerate the golden file from the checkout's root and review the diff before committing:
///
///     swift build --scratch-path .build-e2e
///     .build-e2e/debug/clumsy run original --duration 20 --seed 1 \
///         --events Tests/EndToEndTests/Golden/original-20s-seed1.jsonl
///
/// `Golden/default-20s-seed1.jsonl` pins today's `default` the same way (re-recorded on purpose
/// when `default` became a tune with a melody, issue 29, and again when its melody took the
/// `places` shape, its notes the melody's pulse, its phrases a swell and its world a fifth
/// piano ball, issue 43; `original` kept the old default's log byte for byte).
@Suite("Golden event log")
struct GoldenEventLogTests {
    static let golden = "original-20s-seed1.jsonl"

    @Test("clumsy run PRESET --duration 20 --seed 1 --events writes the golden log byte for byte",
          arguments: [("original", golden), ("default", "default-20s-seed1.jsonl")])
    func matchesGolden(preset: String, golden: String) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("events.jsonl")
        let result = try await CLI.run(["run", preset, "--duration", "20", "--seed", "1", "--events", path])
        try #require(result.status == 0 && !result.signalled, "\(result)")
        let expected = try goldenBytes(golden)
        let actual = try #require(bytes(of: path), "no event log written")
        if actual != expected {
            let expectedLines = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = String(decoding: actual, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(expectedLines.count, actualLines.count)
            let want = first < expectedLines.count ? String(expectedLines[first]) : "<end of file>"
            let got = first < actualLines.count ? String(actualLines[first]) : "<end of file>"
            Issue.record("""
                event log differs from Golden/\(golden) (\(actual.count) bytes, expected \(expected.count)); \
                first difference on line \(first + 1):
                  expected: \(want)
                  got:      \(got)
                If this is a deliberate behaviour change, regenerate the golden file (see the comment on this suite).
                """)
        }
    }

    @Test("The golden session's log is musically sane: chord I and its tonic first, ordered times, chord, bass and key lines only")
    func goldenIsSane() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("golden.jsonl")
        try Data(try goldenBytes(Self.golden)).write(to: URL(fileURLWithPath: path))
        let events = try readEventLog(path)
        try #require(events.count > 20, "only \(events.count) events in 20 s")
        let chord = events[0], first = events[1]
        #expect(chord.t == 0 && chord.kind == "chord" && chord.name == "Cmaj7" && chord.degree == 1 && chord.intervals == [0, 4, 7, 11],
                "the session must open on chord I, Cmaj7, at t = 0, got \(chord)")
        #expect(first.t == 0 && first.kind == "bass" && first.note == 48 && first.degree == 1,
                "the session must open on the tonic C3 (note 48) at t = 0, got \(first)")
        for (a, b) in zip(events, events.dropFirst()) {
            #expect(a.t <= b.t, "times go backwards: \(a.t) then \(b.t)")
        }
        #expect(events.allSatisfy { $0.t >= 0 && $0.t < 20 })
        #expect(Set(events.map(\.kind)).isSubset(of: ["chord", "bass", "key"]), "kinds: \(Set(events.map(\.kind)))")
        #expect(events.contains { $0.kind == "key" } && events.filter { $0.kind == "bass" }.count > 1)
        // C major: every note is a pitch of the scale C D E F G A B.
        let scale: Set<Int> = [0, 2, 4, 5, 7, 9, 11]
        // The chords are C major's seventh chords, each a change from the one before.
        let chords = events.filter { $0.kind == "chord" }
        let cMajor: Set<String> = ["Cmaj7", "Dm7", "Em7", "Fmaj7", "G7", "Am7", "Bø7"]
        #expect(chords.count > 1 && chords.allSatisfy { cMajor.contains($0.name ?? "") && $0.tonic == "C" && $0.mode == "major" })
        #expect(zip(chords, chords.dropFirst()).allSatisfy { $0.degree != $1.degree })
        for event in events where event.kind != "chord" {
            let note = try #require(event.note)
            #expect(scale.contains(note % 12), "note \(note) is not in C major: \(event)")
            #expect((1...127).contains(event.velocity ?? 0))
            #expect((1...7).contains(event.degree ?? 0))
            if event.kind == "key" { #expect(event.key != nil && event.tone != nil) }
        }
    }
}
