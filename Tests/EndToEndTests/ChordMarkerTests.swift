// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Session
import Testing

/// Issue 20: the MIDI file carries the session's chords as markers (FF 06 on track 0), which
/// `roll` and `analyze` read back; other files keep the estimate, and say so.
@Suite("Chord markers in the MIDI file")
struct ChordMarkerTests {
    @Test("borrowed-chords: one marker per chord line of the log, on track 0; analyze reports them as the session's chords, text and JSON")
    func analyzeReadsMarkers() async throws {
        let directory = try TemporaryDirectory()
        let run = try await CLI.run(["run", "borrowed-chords", "--duration", "20", "--midi", "b.mid", "--events", "b.jsonl", "--quiet"], in: directory.path)
        try #require(run.status == 0, "\(run)")
        let logged = try readEventLog(directory.file("b.jsonl")).filter { $0.kind == "chord" }.compactMap(\.name)
        let contents = try MIDIFileReader.read(path: directory.file("b.mid"))
        let markers = contents.tracks[0].compactMap { event -> String? in if case .marker(let name) = event.message { name } else { nil } }
        #expect(!logged.isEmpty && markers == logged, "markers \(markers), log \(logged)")
        #expect(contents.tracks.dropFirst().allSatisfy { track in !track.contains { if case .marker = $0.message { true } else { false } } })

        let text = try await CLI.run(["analyze", "b.mid"], in: directory.path)
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = lines.firstIndex { $0.hasPrefix("chords (") && $0.contains("as the session played them") }
        let start = try #require(heading, "\(text.stdout)")
        let timeline = lines[(start + 1)...].prefix { !$0.isEmpty }.map { String($0.split(separator: " ").last ?? "") }
        #expect(timeline == logged, "analyze \(timeline), log \(logged)")
        #expect(text.stdout.contains("time per degree (estimated from the notes):"))

        let json = try await CLI.run(["analyze", "--json", "b.mid"], in: directory.path)
        #expect(json.stdout.unicodeScalars.allSatisfy { $0.isASCII })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["chordSource"] as? String == "markers")
        #expect((object["markedChords"] as? [[String: Any]])?.compactMap { $0["symbol"] as? String } == logged)
    }

    /// Issue 33: other tools read the key and the chords as SMF expects, ASCII text and a key
    /// signature; Clumsy's own readers show the symbols as the session named them.
    @Test("ballad-aaba (B\u{266D} major): mido reads a key signature Bb and ASCII chord markers; analyze shows them as B\u{266D}maj7")
    func keySignatureAndASCIIMarkers() async throws {
        let check = try await CLI.run(["-c", "import mido"], executable: "/usr/bin/env", prefix: ["python3"])
        try #require(check.status == 0, "python3 with mido is needed (make deps installs it)")
        let directory = try TemporaryDirectory()
        let run = try await CLI.run(["run", "ballad-aaba", "--duration", "20", "--midi", "b.mid", "--events", "b.jsonl", "--quiet"], in: directory.path)
        try #require(run.status == 0, "\(run)")
        let script = """
            import sys, mido
            for m in mido.MidiFile(sys.argv[1]).tracks[0]:
                if m.type == "key_signature": print("key", m.key)
                if m.type == "marker": print("marker", m.text)
            """
        let read = try await CLI.run(["-c", script, directory.file("b.mid")], executable: "/usr/bin/env", prefix: ["python3"])
        try #require(read.status == 0, "\(read)")
        let lines = read.stdoutLines
        #expect(lines.first == "key Bb", "\(lines.prefix(3))")
        let markers = lines.filter { $0.hasPrefix("marker ") }.map { String($0.dropFirst(7)) }
        let logged = try readEventLog(directory.file("b.jsonl")).filter { $0.kind == "chord" }.compactMap(\.name)
        let ascii = logged.map { $0.replacingOccurrences(of: "\u{266D}", with: "b").replacingOccurrences(of: "\u{266F}", with: "#")
            .replacingOccurrences(of: "\u{00F8}7", with: "m7b5").replacingOccurrences(of: "\u{00B0}", with: "dim") }
        #expect(logged.contains { $0.contains("\u{266D}") }, "\(logged)")
        #expect(!markers.isEmpty && markers == ascii, "markers \(markers), log \(logged)")
        let text = try await CLI.run(["analyze", "b.mid"], in: directory.path)
        #expect(text.stdout.contains("  B\u{266D}maj7\n"), "\(text.stdout.prefix(800))")
    }

    @Test("A MIDI file from another program: analyze says its chords are estimated, and lists no marked chords")
    func otherFilesAreEstimated() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("other.mid")
        let writer = try MIDIFileWriter(path: path, trackCount: 1, ticksPerQuarter: 480)
        try writer.append(MIDIEvent(tick: 0, message: .marker("Verse")), track: 0)
        for (index, note) in [60, 64, 67].enumerated() {
            try writer.append(MIDIEvent(tick: UInt64(index), message: .noteOn(channel: 0, note: UInt8(note), velocity: 90)), track: 0)
        }
        for note in [60, 64, 67] { try writer.append(MIDIEvent(tick: 1920, message: .noteOff(channel: 0, note: UInt8(note), velocity: 0)), track: 0) }
        try writer.finish()
        let text = try await CLI.run(["analyze", path])
        #expect(text.status == 0 && text.stdout.contains("estimated from the notes):") && !text.stdout.contains("Verse"), "\(text)")
        let json = try await CLI.run(["analyze", "--json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["chordSource"] as? String == "estimate" && (object["markedChords"] as? [Any])?.isEmpty == true, "\(json.stdout)")
    }
}
