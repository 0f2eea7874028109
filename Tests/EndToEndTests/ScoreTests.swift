// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Testing

/// `--score file.ly`: the LilyPond score names the session's chords, holds its notes (within
/// the sixteenth quantisation), fills every bar, and compiles with `lilypond` when installed.
@Suite("LilyPond score (--score)", .serialized)
struct ScoreTests {
    /// A score read back: chord names (from the comments) and chord-mode tokens; per staff,
    /// the notes started (not tied into) and each bar's length in sixteenths.
    struct Score {
        var chordNames: [String] = []
        var chordRoots: [String] = []
        var starts: [String: Int] = [:]
        var barLengths: [String: [Int]] = [:]

        static let durations = ["1": 16, "2.": 12, "2": 8, "4.": 6, "4": 4, "8.": 3, "8": 2, "16": 1]

        init(path: String) throws {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            var staff: String?
            var tied = Set<String>()
            for line in text.split(separator: "\n").map(String.init) {
                if let range = line.range(of: " % ") {
                    let comment = line[range.upperBound...]
                    chordNames.append(String(comment.prefix { $0 != " " }))
                    let token = line.trimmingCharacters(in: .whitespaces)
                    chordRoots.append(String(token.prefix { $0.isLetter }))
                } else if line.contains("\\new Staff"), let name = line.split(separator: "\"").dropFirst().first {
                    staff = String(name)
                    tied = []
                } else if let name = staff, !line.contains("\\"), line.trimmingCharacters(in: .whitespaces) != "}" {
                    read(bar: line, staff: name, tied: &tied)
                }
            }
        }

        /// Counts the notes a line starts and adds its length when it ends with a bar check.
        mutating func read(bar line: String, staff: String, tied: inout Set<String>) {
            let pattern = #"(<[^>]*>|r|[a-g](?:is|es)*[',]*)(16|1|2\.?|4\.?|8\.?)(~?)"#
            let regex = try! NSRegularExpression(pattern: pattern)
            var length = 0
            for match in regex.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                let body = String(line[Range(match.range(at: 1), in: line)!])
                let duration = String(line[Range(match.range(at: 2), in: line)!])
                let tiesAll = match.range(at: 3).length > 0
                length += Self.durations[duration] ?? 0
                if body == "r" { tied = []; continue }
                let notes = body.trimmingCharacters(in: CharacterSet(charactersIn: "<>")).split(separator: " ").map(String.init)
                let pitches = notes.map { $0.hasSuffix("~") ? String($0.dropLast()) : $0 }
                starts[staff, default: 0] += pitches.filter { !tied.contains($0) }.count
                tied = tiesAll ? Set(pitches) : Set(notes.filter { $0.hasSuffix("~") }.map { String($0.dropLast()) })
            }
            if line.hasSuffix("|") { barLengths[staff, default: []].append(length) }
        }
    }

    /// A chord name's root in LilyPond's spelling: "E♭maj7" → "ees", "F♯m7" → "fis".
    static func lilyRoot(of name: String) -> String {
        var root = String(name.prefix(1)).lowercased()
        for character in name.dropFirst() {
            switch character {
            case "♯": root += "is"
            case "♭": root += "es"
            case "𝄪": root += "isis"
            case "𝄫": root += "eses"
            default: return root
            }
        }
        return root
    }

    /// Runs `preset` for `seconds` at 120 bpm (a sixteenth is 0.125 s) with every output the tests compare.
    static func session(_ preset: String, seconds: Int, extra: [String] = [], in directory: TemporaryDirectory) async throws {
        let result = try await CLI.run(["run", preset, "--duration", String(seconds), "--tempo", "120", "--midi", "s.mid",
                                  "--events", "s.jsonl", "--score", "s.ly", "--quiet"] + extra, in: directory.path, timeout: 60)
        try #require(result.status == 0, "\(result)")
    }

    @Test("The score names the event log's chord sequence (a chord per sixteenth, the last one), roots spelled alike",
          arguments: ["borrowed-chords", "default", "pentatonic-triads"])
    func chordsMatchTheLog(preset: String) async throws {
        let directory = try TemporaryDirectory()
        try await Self.session(preset, seconds: 20, in: directory)
        var expected: [(slot: Int, name: String)] = []
        for event in try readEventLog(directory.file("s.jsonl")) where event.kind == "chord" {
            let slot = Int((event.t / 0.125).rounded())
            if expected.last?.slot == slot { expected.removeLast() }
            if slot < 160 { expected.append((slot, event.name ?? "")) }
        }
        let score = try Score(path: directory.file("s.ly"))
        #expect(!score.chordNames.isEmpty)
        #expect(score.chordNames == expected.map(\.name), "score \(score.chordNames)\nlog \(expected.map(\.name))")
        #expect(score.chordRoots == score.chordNames.map(Self.lilyRoot), "\(score.chordRoots) for \(score.chordNames)")
    }

    @Test("Each staff starts as many notes as its MIDI track has note-ons on distinct (pitch, sixteenth); every bar is full",
          arguments: [("default", "4/4"), ("borrowed-chords", "7/8"), ("default", "6/8")])
    func notesMatchTheMIDIFile(preset: String, meter: String) async throws {
        let directory = try TemporaryDirectory()
        try await Self.session(preset, seconds: 20, extra: ["--meter", meter], in: directory)
        let midi = try MIDIFileReader.read(path: directory.file("s.mid"))
        let score = try Score(path: directory.file("s.ly"))
        let bar = Int(meter.prefix(1))! * 16 / Int(meter.suffix(1))!
        #expect(score.starts.count >= 2, "staves: \(score.starts)")
        for (track, events) in midi.tracks.enumerated() {
            guard let name = midi.trackName(at: track), let started = score.starts[name] else { continue }
            var distinct = Set<[Int]>()
            for event in events {
                // 960 ticks a quarter: a sixteenth is 240 ticks.
                if case .noteOn(_, let note, let velocity) = event.message, velocity > 0 {
                    distinct.insert([Int(note), (Int(event.tick) + 120) / 240])
                }
            }
            let tolerance = max(2, distinct.count / 100)
            #expect(abs(started - distinct.count) <= tolerance, "\(name): score \(started), MIDI \(distinct.count)")
            #expect(score.barLengths[name]?.allSatisfy { $0 == bar } == true, "\(name) bars: \(score.barLengths[name] ?? [])")
            #expect((score.barLengths[name]?.count ?? 0) == 20 * 8 / bar, "\(name): \(score.barLengths[name]?.count ?? 0) bars")
        }
    }

    @Test("lilypond compiles the score to a PDF without errors",
          arguments: [("borrowed-chords", ["--meter", "7/8"]), ("default", ["--key", "Eb", "--mode", "minor"]),
                      ("pentatonic-triads", ["--meter", "6/8", "--quantize", "1/16"])])
    func lilypondAccepts(preset: String, extra: [String]) async throws {
        let lilypond = try #require(firstExecutable(["/usr/bin/lilypond", "/usr/local/bin/lilypond"]), "make deps installs lilypond")
        let directory = try TemporaryDirectory()
        try await Self.session(preset, seconds: 12, extra: extra, in: directory)
        let result = try await CLI.run(["-dno-point-and-click", "--loglevel=WARNING", "-o", directory.file("s"), directory.file("s.ly")],
                                 executable: lilypond, timeout: 120)
        #expect(result.status == 0 && !result.stderr.lowercased().contains("error") && !result.stderr.lowercased().contains("warning"),
                "\(result)")
        #expect(fileExists(directory.file("s.pdf")))
    }

    @Test("A --score name without .ly is refused with 64 before anything is written", arguments: ["s.pdf", ".ly", ""])
    func badNames(name: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--duration", "2", "--score", name], in: directory.path)
        #expect(result.status == 64 && result.stderr.contains("--score"), "\(result)")
        #expect(directory.entries().isEmpty)
    }
}
