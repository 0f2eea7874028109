// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// The `form` block: sections that return by putting the world back (docs/form.md).
@Suite("Form", .serialized) struct FormTests {
    /// polska-aabb: 3/4 at 108 bpm, so a bar is 5/3 s (400 timesteps).
    static let barSeconds = 3 * 60 / 108.0

    /// A note as heard, its time relative to `start` (equal within a microsecond: the spans'
    /// times are sums of different floating-point values).
    struct Heard: Equatable, CustomStringConvertible {
        static func == (a: Heard, b: Heard) -> Bool {
            abs(a.time - b.time) < 1e-6 && a.kind == b.kind && a.note == b.note && a.velocity == b.velocity && a.ball == b.ball
        }

        var time: Double
        var kind: String
        var note: Int
        var velocity: Int
        var ball: Int
        var description: String { "\(kind) \(note) v\(velocity) ball \(ball) at +\(String(format: "%.6f", time))" }
    }

    /// The notes whose hit (or time) falls in [start, start + length): the notes a section played,
    /// not those of the section before that land on its first bar line by the grid, nor the
    /// session's opening tonic (sounded before the first section line).
    static func notes(_ events: [LogEvent], from start: Double, length: Double) -> [Heard] {
        let epsilon = 1e-6
        return events.filter { ["bass", "key", "drum", "second"].contains($0.kind) }.compactMap { event in
            let origin = event.hit ?? event.t
            guard origin >= start - epsilon, origin < start + length - epsilon,
                  // The bass on the section's own line: the opening at 0, or a hit in the line's
                  // step, which the opening's root gives way to at 0 (the same note either way).
                  !(abs(event.t - start) < epsilon && event.kind == "bass") else { return nil }
            return Heard(time: event.t - start, kind: event.kind, note: event.note ?? -1,
                         velocity: event.velocity ?? -1, ball: event.ball ?? -1)
        }
    }

    func render(_ extra: [String], seconds: Int, in directory: TemporaryDirectory) async throws -> (log: [LogEvent], midi: [UInt8]) {
        let log = directory.file("form.jsonl"), midi = directory.file("form.mid")
        // The returns' own mechanism: the preset's travel and new second times pinned off unless
        // the test sets them (a field may be set once).
        let pins = ["form.travel=0", "form.secondTime=same"].filter { pin in
            !extra.contains { $0.hasPrefix(pin.prefix { $0 != "=" } + "=") }
        }.flatMap { ["--set", $0] }
        let result = try await CLI.run(["run", "polska-aabb", "--duration", String(seconds), "--seed", "3", "--quiet",
                                  "--events", log, "--midi", midi] + pins + extra)
        #expect(result.status == 0, "\(result)")
        return (try readEventLog(log), [UInt8](try Data(contentsOf: URL(fileURLWithPath: midi))))
    }

    @Test func everyRepeatIsNoteForNoteItsFirstTimeWithVariationZero() async throws {
        let directory = try TemporaryDirectory()
        // AABB in four-bar sections: A A B B A A B B A A …
        let (events, _) = try await render(["--set", "form.variation=0", "--set", "form.bars=4"], seconds: 70, in: directory)
        let length = 4 * Self.barSeconds
        let letters = Array("AABB")
        let firsts: [Character: Int] = ["A": 0, "B": 2]
        for section in 1..<10 {
            let first = firsts[letters[section % 4]]!
            guard first != section else { continue }
            let original = Self.notes(events, from: Double(first) * length, length: length)
            let again = Self.notes(events, from: Double(section) * length, length: length)
            #expect(original.count > 10, "section \(first) plays")
            let difference = zip(again, original).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "in length"
            #expect(again == original, "section \(section) replays section \(first); first difference: \(difference)")
        }
    }

    @Test func variationReplaysTheStartAndDriftsTheRest() async throws {
        let directory = try TemporaryDirectory()
        // 0.25 of four bars: each returning section is exact for three bars, then nudged.
        let (events, _) = try await render(["--set", "form.variation=0.25", "--set", "form.bars=4"], seconds: 70, in: directory)
        let length = 4 * Self.barSeconds
        var drifted = 0
        for section in [1, 4, 5, 8, 9] {   // the A sections after the first
            let exact = Self.notes(events, from: Double(section) * length, length: 3 * Self.barSeconds)
            #expect(exact == Self.notes(events, from: 0, length: 3 * Self.barSeconds), "section \(section)'s first three bars")
            let last = Self.notes(events, from: Double(section) * length + 3 * Self.barSeconds, length: Self.barSeconds)
            if last != Self.notes(events, from: 3 * Self.barSeconds, length: Self.barSeconds) { drifted += 1 }
        }
        #expect(drifted >= 3, "the nudged last bar differs in most returns (\(drifted) of 5)")
    }

    @Test func theSecondTimeEndsOtherwiseAndTheSameEachTime() async throws {
        let directory = try TemporaryDirectory()
        // Four-bar sections, a two-bar second ending: A A' B B' A A' B B' …
        let (events, _) = try await render(["--set", "form.variation=0", "--set", "form.bars=4", "--set", "form.endings=2"],
                                     seconds: 60, in: directory)
        let bar = Self.barSeconds, length = 4 * bar
        func notes(section: Int, bars: Range<Int>) -> [Heard] {
            Self.notes(events, from: Double(section) * length + Double(bars.lowerBound) * bar, length: Double(bars.count) * bar)
        }
        #expect(notes(section: 1, bars: 0..<2) == notes(section: 0, bars: 0..<2), "the second A begins as the first")
        #expect(notes(section: 1, bars: 2..<4) != notes(section: 0, bars: 2..<4), "and ends otherwise")
        #expect(notes(section: 4, bars: 0..<4) == notes(section: 0, bars: 0..<4), "the first time is the first time again")
        #expect(notes(section: 5, bars: 0..<4) == notes(section: 1, bars: 0..<4), "the second ending is the same each time")
        #expect(notes(section: 7, bars: 0..<4) == notes(section: 3, bars: 0..<4), "B's too")
    }

    @Test func aSecondTimeWithNewChangesKeepsTheStrikesAndFindsOtherChords() async throws {
        let directory = try TemporaryDirectory()
        // Four-bar sections: A A B B, then A A' B B' … (' : the bass ball sent off anew).
        let (events, _) = try await render(["--set", "form.variation=0", "--set", "form.bars=4", "--set", "form.secondTime=new-changes"],
                                     seconds: 80, in: directory)
        let length = 4 * Self.barSeconds
        func heard(_ section: Int, _ kind: String) -> [Heard] {
            Self.notes(events, from: Double(section) * length, length: length).filter { $0.kind == kind }
        }
        func strikes(_ section: Int) -> [Heard] { heard(section, "key").map { Heard(time: $0.time, kind: "key", note: 0, velocity: 0, ball: $0.ball) } }
        for kind in ["bass", "key"] {
            #expect(heard(1, kind) == heard(0, kind), "the first time through, the second A is as the first")
            #expect(heard(4, kind) == heard(0, kind), "and so is the next time's first A")
        }
        for (again, first) in [(5, 0), (7, 2)] {
            #expect(!heard(first, "bass").isEmpty && heard(again, "bass") != heard(first, "bass"), "section \(again): new changes")
            #expect(!strikes(first).isEmpty && strikes(again) == strikes(first), "section \(again): section \(first)'s strikes")
        }
    }

    @Test func eachLetterPlaysInItsOwnKey() async throws {
        let directory = try TemporaryDirectory()
        // B on the dominant: D minor for A, A minor for B, and A back in D minor.
        let (events, _) = try await render(["--set", "form.bars=4", "--set", #"form.transpose={"B":7}"#], seconds: 60, in: directory)
        let length = 4 * Self.barSeconds
        func tonics(_ section: Int) -> Set<String> {
            Set(events.filter { $0.kind == "chord" && $0.t >= Double(section) * length - 1e-6 && $0.t < Double(section + 1) * length - 1e-6 }
                .compactMap(\.tonic))
        }
        func bassNotes(_ section: Int) -> [Int] {
            Self.notes(events, from: Double(section) * length, length: length).filter { $0.kind == "bass" }.map(\.note)
        }
        #expect(tonics(0) == ["D"] && tonics(2) == ["A"] && tonics(6) == ["A"], "\(tonics(0)) \(tonics(2)) \(tonics(6))")
        #expect(tonics(4).contains("D"), "the return of A is announced in D minor: \(tonics(4))")
        #expect(!bassNotes(4).isEmpty && bassNotes(4).allSatisfy { [2, 4, 5, 7, 9, 10, 0].contains($0 % 12) }, "A in D minor: \(bassNotes(4))")
        #expect(!bassNotes(2).isEmpty && bassNotes(2).allSatisfy { [9, 11, 0, 2, 4, 5, 7].contains($0 % 12) }, "B in A minor: \(bassNotes(2))")
    }

    @Test func sameSeedSameBytes() async throws {
        let one = try TemporaryDirectory(), two = try TemporaryDirectory()
        let a = try await render([], seconds: 60, in: one), b = try await render([], seconds: 60, in: two)
        #expect(a.midi == b.midi)
        #expect(a.log.map(\.line) == b.log.map(\.line))
    }

    /// The acceptance figures, measured from the MIDI file with mido (Tools/form_recurrence.py),
    /// independently of the Swift analyser: docs/form.md quotes them.
    @Test func polskaAABBRecursLikeATuneAndVaries() async throws {
        let directory = try TemporaryDirectory()
        let midi = directory.file("polska.mid")
        // The drift of `variation` alone, as docs/form.md's table measures it (the preset also
        // travels and has new second times: docs/benchmarks.md, "Generative, not a loop").
        let result = try await CLI.run(["run", "polska-aabb", "--duration", "300", "--seed", "3", "--midi", midi, "--quiet",
                                  "--set", "form.travel=0", "--set", "form.secondTime=same"])
        #expect(result.status == 0, "\(result)")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tools/form_recurrence.py").path
        let measured = try await CLI.run(["python3", script, midi, "--section", "16", "1"], executable: "/usr/bin/env")
        #expect(measured.status == 0, "\(measured)")
        let figures = try JSONSerialization.jsonObject(with: Data(measured.stdout.utf8)) as? [String: Any] ?? [:]
        let bars = figures["barFraction"] as? Double ?? -1
        let spans = figures["spanFraction"] as? Double ?? -1
        let differing = figures["differingFraction"] as? Double ?? -1
        #expect(bars >= 0.5 && bars <= 0.85, "bars recurring: \(bars)")
        #expect(spans >= 0.4, "four-bar spans recurring: \(spans)")
        #expect(differing >= 0.2, "bars of the second A unlike the first: \(differing)")
    }

    @Test func analyzeShowsTheReturningPassages() async throws {
        let directory = try TemporaryDirectory()
        let (_, _) = try await render(["--set", "form.variation=0", "--set", "form.bars=4"], seconds: 40, in: directory)
        let text = try await CLI.run(["analyze", directory.file("form.mid")])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("repetition (bars of"))
        #expect(text.stdout.contains(" repeat bars "), "a passage returning:\n\(text.stdout)")
        let json = try await CLI.run(["analyze", "--json", directory.file("form.mid")])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let repetition = object?["repetition"] as? [String: Any]
        let bars = repetition?["bars"] as? Int ?? 0
        let recurring = (repetition?["recurringBars"] as? [Any])?.count ?? 0
        #expect(bars >= 20 && recurring * 2 >= bars, "\(recurring) of \(bars) bars recur")
    }

    @Test func badSectionsNameTheFieldAndWhatIsAccepted() async throws {
        let directory = try TemporaryDirectory()
        let preset = directory.file("bad.json")
        try Data(#"{"form": {"bars": 8, "sections": "aabb"}}"#.utf8).write(to: URL(fileURLWithPath: preset))
        let result = try await CLI.run(["run", preset, "--duration", "1", "--quiet"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("form.sections") && result.stderr.contains("capital letters A–Z"), "\(result.stderr)")
        let bars = try await CLI.run(["run", "polska-aabb", "--set", "form.bars=0", "--duration", "1", "--quiet"])
        #expect(bars.status != 0 && bars.stderr.contains("form.bars"), "\(bars)")
    }

    @Test("After a scene's tempo change, sections begin on the clock's bar lines, as the scenes' bars do")
    func sectionsFollowATempoScene() async throws {
        let directory = try TemporaryDirectory()
        // Four-bar sections, AABB; bars 1–2 at 108 bpm, then 90 from the scene at bar 3.
        let (events, _) = try await render(["--set", "form.variation=0", "--set", "form.bars=4", "--set", "form.ending=0",
                                      "--set", #"scenes=[{"bar": 3, "tempo": 90}]"#], seconds: 40, in: directory)
        let scene = 2 * Self.barSeconds, slowBar = 3 * 60 / 90.0
        #expect(events.contains { $0.kind == "control" && abs($0.t - scene) < 1e-5 }, "the tempo scene at bar 3")
        // The first B (bars 9–12) and its repeat (bars 13–16): the bars after the scene are 2 s long.
        let first = scene + 6 * slowBar, again = scene + 10 * slowBar, length = 4 * slowBar
        let original = Self.notes(events, from: first, length: length)
        let repeated = Self.notes(events, from: again, length: length)
        #expect(original.count > 10, "the first B plays")
        let difference = zip(repeated, original).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "in length"
        #expect(repeated == original, "the second B replays the first from the clock's bar 13; first difference: \(difference)")
    }
}
