// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Testing

/// `clumsy analyze` on MIDI files written by another program (mido) and by `clumsy run`.
@Suite("Analyze")
struct AnalyzeTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("AnalysisTests/make_fixtures.py").path

    /// A temporary directory holding the fixtures of make_fixtures.py.
    func fixtures() async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(prefix: "analyze")
        let made = try await CLI.run([Self.script, directory.path], executable: "/usr/bin/env", prefix: ["python3"])
        try #require(made.status == 0, "make_fixtures.py failed (python3 with mido needed): \(made)")
        return directory
    }

    @Test("text: key, chord timeline with inversions and slash bass, times, velocities, tracks")
    func text() async throws {
        let directory = try await fixtures()
        let result = try await CLI.run(["analyze", directory.file("chords.mid")])
        try #require(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdoutLines
        #expect(lines.first?.contains("format 1, 3 tracks, 480 ticks per quarter, 10.667 s, 52 notes") == true, "\(lines.first ?? "")")
        #expect(lines.contains { $0.hasPrefix("key: C major (correlation ") })
        let timeline = lines.filter { $0.contains(" s  ") && ($0.contains("inversion") || $0.contains("position") || $0.contains("slash")) }
        let chords = timeline.map { $0.split(separator: " ", omittingEmptySubsequences: true)[2] }
        #expect(chords == ["C", "F/A", "G7/F", "C/G", "Am7", "C/D", "C", "G7", "C"], "\(timeline)")
        #expect(timeline[1].hasSuffix("IV     1st inversion"))
        #expect(timeline[2].hasSuffix("V      3rd inversion"))
        #expect(timeline[5].hasSuffix("slash bass"))
        for section in ["time per chord:", "time per degree:", "velocity histogram:", "tracks:"] {
            #expect(lines.contains(section), "missing \(section)")
        }
        #expect(lines.contains { $0.contains("\"Drums\"") && $0.contains("16 notes") && $0.contains("channel 10") })
        #expect(lines.contains { $0.contains("\"Piano\"") && $0.contains("36 notes") && $0.contains("D2–F5") })
    }

    @Test("time per chord and time per degree each add up to the whole file: the time no degree is heard in has its own line")
    func timesAddUp() async throws {
        let directory = try TemporaryDirectory()
        let made = try await CLI.run(["run", "default", "--duration", "20", "--midi", "d.mid", "--quiet"], in: directory.path)
        try #require(made.status == 0, "\(made)")
        let result = try await CLI.run(["analyze", directory.file("d.mid")])
        try #require(result.status == 0, "\(result)")
        let lines = result.stdoutLines
        for section in ["time per chord:", "time per degree (estimated from the notes):"] {
            let start = try #require(lines.firstIndex(of: section), "\(lines)")
            let rows = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }
            let seconds = rows.compactMap { row in row.split(separator: " ").dropLast(3).last.flatMap { Double($0) } }
            #expect(!rows.isEmpty && seconds.count == rows.count && abs(seconds.reduce(0, +) - 20) < 0.01, "\(section) \(Array(rows))")
        }
    }

    @Test("--json is one ASCII object programs can read")
    func json() async throws {
        let directory = try await fixtures()
        let result = try await CLI.run(["analyze", "--json", directory.file("eflat.mid")])
        try #require(result.status == 0, "\(result)")
        #expect(result.stdout.unicodeScalars.allSatisfy { $0.isASCII })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((object["key"] as? [String: Any])?["name"] as? String == "Eb major")
        let chords = try #require(object["chords"] as? [[String: Any]])
        #expect(chords.map { $0["symbol"] as? String } == ["Eb", "Ab/C", "Bb7", "Eb"])
        #expect(chords.map { $0["numeral"] as? String } == ["I", "IV", "V", "I"])
        let tracks = try #require(object["tracks"] as? [[String: Any]])
        #expect(tracks.first?["lowest"] as? String == "Bb2")
        let histogram = try #require(object["velocityHistogram"] as? [[String: Any]])
        #expect(histogram.count == 8 && histogram[4]["count"] as? Int == 16)
    }

    @Test("a file that is not MIDI or is truncated: exit 65 naming the file; missing or a FIFO: 66; no file: 64")
    func badInput() async throws {
        let directory = try await fixtures()
        for name in ["notmidi.mid", "truncated.mid"] {
            let result = try await CLI.run(["analyze", directory.file(name)])
            #expect(result.status == 65 && !result.signalled, "\(result)")
            #expect(result.stderr.hasPrefix("clumsy: error: malformed MIDI file '\(directory.file(name))'"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        let missing = try await CLI.run(["analyze", directory.file("absent.mid")])
        #expect(missing.status == 66, "\(missing)")
        #expect(missing.stderr.contains("No such file"))
        // A FIFO is refused at once (no writer would ever come), as a preset's is.
        let fifo = directory.file("pipe.mid")
        #expect(mkfifo(fifo, 0o600) == 0)
        let piped = try await CLI.run(["analyze", fifo])
        #expect(piped.status == 66 && piped.stderr.contains("is a FIFO"), "\(piped)")
        let none = try await CLI.run(["analyze"])
        #expect(none.status == 64, "\(none)")
    }

    @Test("swarm prints E♭ major and E♭maj7, writes ASCII Eb into the MIDI text, and analyze hears E♭ major")
    func swarmSpelling() async throws {
        let directory = try TemporaryDirectory(prefix: "analyze")
        let printed = try await CLI.run(["run", "swarm", "--duration", "3"])
        try #require(printed.status == 0, "\(printed)")
        #expect(printed.stdout.contains("E♭maj7") && printed.stdout.contains("E♭4"))
        #expect(printed.stdoutLines.last?.contains("E♭ major") == true, "\(printed.stdoutLines.last ?? "")")
        #expect(!printed.stdout.contains("D#") && !printed.stdout.contains("A#") && !printed.stdout.contains("G#"))
        let midi = directory.file("swarm.mid")
        let run = try await CLI.run(["run", "swarm", "--duration", "20", "--midi", midi, "--quiet"])
        try #require(run.status == 0, "\(run)")
        let contents = try MIDIFileReader.read(path: midi)
        let texts = contents.tracks[0].compactMap { event -> String? in
            if case .text(let text) = event.message { return text }
            return nil
        }
        #expect(texts.count == 1 && texts[0].hasSuffix("key Eb major") && texts[0].unicodeScalars.allSatisfy { $0.isASCII }, "\(texts)")
        let analysis = try await CLI.run(["analyze", midi])
        try #require(analysis.status == 0, "\(analysis)")
        #expect(analysis.stdout.contains("key: E♭ major"), "\(analysis.stdout.prefix(300))")
        #expect(analysis.stdout.contains("E♭maj7"))
    }
}
