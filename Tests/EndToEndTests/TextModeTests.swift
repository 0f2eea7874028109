// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// `clumsy run` without output files prints the performance, then a summary.
@Suite("Text mode")
struct TextModeTests {
    /// "5.000 s of original (seed 1, C major): 1 bass note, 16 key notes, 0 kicks, 0 drops, 0 escapes"
    static var summaryPattern: Regex<(Substring, Substring, Substring, Substring, Substring, Substring, Substring, Substring, Substring, Substring)> { #/^(\d+\.\d+) s of ([a-z-]+) \(seed (\d+), ([^)]+)\): (\d+) bass notes?, (\d+) key notes?(?:, \d+ [a-z-]+ notes?)*, (\d+) kicks?, (\d+) drops?, (\d+) escapes?$/# }

    @Test("Readable lines, then a one-line summary; nothing on stderr; no Chipmunk banner")
    func printsPerformance() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--duration", "5"], in: directory.path)
        try #require(result.status == 0 && !result.signalled, "\(result)")
        #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
        #expect(!result.stdout.lowercased().contains("chipmunk"), "Chipmunk's banner leaked to stdout: \(result.stdout.prefix(300))")
        #expect(result.stdout.hasSuffix("\n"))
        let lines = result.stdoutLines
        try #require(lines.count >= 3, "\(result)")
        let summary = try #require(lines.last.flatMap { try? Self.summaryPattern.wholeMatch(in: $0) },
                                   "last line is not the summary: \(lines.last ?? "")")
        #expect(summary.output.1 == "5.000" && summary.output.2 == "original" && summary.output.3 == "1" && summary.output.4 == "C major")
        let bass = Int(summary.output.5)!, keys = Int(summary.output.6)!
        let others = Int(summary.output.7)! + Int(summary.output.8)! + Int(summary.output.9)!
        #expect(bass >= 1 && keys >= 1)
        // One line per note, per chord change (and per kick/drop/escape), before the summary.
        let body = lines.dropLast()
        let chords = body.filter { $0.contains(" chord ") }
        #expect(body.count == bass + keys + others + chords.count, "\(body.count) event lines for \(bass) + \(keys) + \(others) events and \(chords.count) chords")
        // The first lines are the opening chord and its tonic: "     0.000 s  chord       → I      Cmaj7 in C major",
        // "     0.000 s  start       → I      C3 …".
        let first = try #require(body.first), second = try #require(body.dropFirst().first)
        #expect(first.contains("0.000 s") && first.contains("chord") && first.hasSuffix("Cmaj7 in C major"), "first line: \(first)")
        #expect(second.contains("0.000 s") && second.contains("start") && second.contains("C3") && second.contains("Cmaj7"), "second line: \(second)")
        let bassLines = body.filter { $0.contains("start") || $0.contains("bass ball") }
        let keyLines = body.filter { $0.contains("piano ") && $0.contains("key ") }
        #expect(bassLines.count == bass && keyLines.count == keys)
        // Times in the first column never go backwards.
        let times = body.compactMap { line in Double(line.split(separator: " ").first ?? "") }
        #expect(times.count == body.count, "every line starts with a time")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(times.allSatisfy { $0 >= 0 && $0 <= 5 })
        #expect(directory.entries().isEmpty, "text mode wrote files: \(directory.entries())")
    }

    @Test("The summary agrees with the event log of the same session")
    func summaryMatchesLog() async throws {
        let directory = try TemporaryDirectory()
        let events = directory.file("e.jsonl")
        let text = try await CLI.run(["run", "minor-storm", "--duration", "6"])
        let logged = try await CLI.run(["run", "minor-storm", "--duration", "6", "--events", events])
        try #require(text.status == 0 && logged.status == 0, "\(text)\n\(logged)")
        let summary = try #require(text.stdoutLines.last.flatMap { try? Self.summaryPattern.wholeMatch(in: $0) })
        let log = try readEventLog(events)
        #expect(Int(summary.output.5) == log.filter { $0.kind == "bass" }.count)
        #expect(Int(summary.output.6) == log.filter { $0.kind == "key" }.count)
        // With a file the only stdout line is the summary, naming the file.
        #expect(logged.stdoutLines.count == 1, "\(logged.stdout)")
        #expect(logged.stdoutLines.first?.hasSuffix("; wrote \(events)") == true, "\(logged.stdout)")
        #expect(logged.stdout.hasPrefix(text.stdoutLines.last! + ";"), "same summary with and without a file")
        #expect(logged.stderr.isEmpty, "progress or errors on a non-terminal stderr: \(logged.stderr)")
    }

    @Test("--quiet prints nothing at all", arguments: [[String](), ["--events", "e.jsonl"]])
    func quiet(extra: [String]) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--duration", "5", "--quiet"] + extra, in: directory.path)
        try #require(result.status == 0 && !result.signalled, "\(result)")
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout.prefix(300))")
        #expect(result.stderr.isEmpty, "stderr: \(result.stderr.prefix(300))")
        #expect(directory.entries() == (extra.isEmpty ? [] : ["e.jsonl"]))
    }

    @Test("The summary counts the drums' notes as \"drum notes\" (issue 47: it printed \"9 drums notes\")")
    func drumNotes() async throws {
        let result = try await CLI.run(["run", "pulse", "--duration", "3"])
        let summary = try #require(result.stdoutLines.last)
        #expect(result.status == 0 && summary.contains(" drum notes, ") && !summary.contains("drums note"), "\(summary)")
    }

    /// A count of one is singular ("1 bass note"), and where the locale is not UTF-8 the
    /// summary's typography is ASCII; the loudness is ASCII in every locale, so `grep -- -16.0`
    /// finds it.
    @Test("The summary: \"1 bass note\"; ASCII typography under LC_ALL=C (or no locale), UTF-8 otherwise",
          .enabled(if: hasSmallSoundFont), arguments: [("C", true), ("POSIX", true), ("", true), ("C.UTF-8", false), ("en_US.utf8", false)])
    func summaryWords(locale: String, ascii: Bool) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--key", "Bb", "--duration", "0.5", "--audio", "x.wav", "--soundfont", smallSoundFont],
                                 environment: ["LC_ALL": locale, "LC_CTYPE": nil, "LANG": nil], in: directory.path)
        try #require(result.status == 0, "\(result)")
        let summary = try #require(result.stdoutLines.last)
        #expect(summary.contains(": 1 bass note, 0 key notes, 0 kicks, 0 drops, 0 escapes;"), "\(summary)")
        let loudness = try #require(summary.range(of: #"(-|\x{2212})[0-9]+\.[0-9] LUFS, (-|\x{2212})[0-9]+\.[0-9] dBTP$"#, options: .regularExpression),
                                    "\(summary)")
        if ascii {
            #expect(summary.allSatisfy(\.isASCII) && summary.contains("(seed 1, Bb major)"), "\(summary)")
            #expect(summary[loudness].hasPrefix("-"), "\(summary)")
        } else {
            // The key in UTF-8 typography; the loudness, a number a user greps and pastes, in ASCII
            // whatever the locale (issue 47), as sox and ffmpeg print theirs.
            #expect(summary.contains("(seed 1, B\u{266D} major)") && summary[loudness].hasPrefix("-"), "\(summary)")
        }
    }
}
