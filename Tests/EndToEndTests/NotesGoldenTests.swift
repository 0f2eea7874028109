// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Testing

/// What `original` (the old `default`) plays, pinned from before the musical-time redesign (voices table, scheduler,
/// clock): the notes of `clumsy run original --duration 300 --seed 1` and `--seed 3`, from the MIDI
/// file and the event log, must stay exactly as they were. Only the notes are compared: controllers
/// (pan CC10 and level CC7 are new) and the event log's other fields may change.
///
/// `Golden/notes-original-300s-seed*.txt` were written by `Golden/reduce_notes.py` (mido, not
/// Clumsy's reader) from the files of the commit before the redesign; the format is described
/// there. This suite reduces the files of the current build the same way and compares line by line,
/// with one change: the golden files' third column was the MIDI channel (1 bass, 2 keys); the keys
/// now spread over one channel per pan zone (2–5), so the column is the voice's track (1 Bass,
/// 2 Keys), which names the same voice as the channel did. The note sequence is unchanged.
@Suite("Notes of original, before and after the redesign")
struct NotesGoldenTests {
    /// The golden text for `clumsy run original --duration 300 --seed <seed>`'s MIDI file and event log.
    static func reduce(midi path: String, events eventsPath: String) throws -> String {
        let contents = try MIDIFileReader.read(path: path)
        var rows: [(tick: UInt64, voice: Int, track: Int, index: Int, note: Int, velocity: Int)] = []
        for (number, track) in contents.tracks.enumerated() {
            for (index, event) in track.enumerated() {
                switch event.message {
                case .noteOn(_, let note, let velocity):
                    rows.append((event.tick, number, number, index, Int(note), Int(velocity)))
                case .noteOff(_, let note, _):
                    rows.append((event.tick, number, number, index, Int(note), 0))
                default:
                    break
                }
            }
        }
        rows.sort { a, b in
            (a.tick, a.voice, a.track, a.index) < (b.tick, b.voice, b.track, b.index)
        }
        var lines = rows.map { "m \($0.tick) \($0.voice) \($0.note) \($0.velocity)" }
        for event in try readEventLog(eventsPath) {
            guard let note = event.note, let velocity = event.velocity else { continue }
            let voice = event.voice ?? (event.kind == "bass" ? "bass" : event.kind == "key" ? "keys" : event.kind)
            lines.append("e \(String(format: "%.6f", event.t)) \(voice) \(note) \(velocity)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("original plays the same notes as before the redesign", arguments: [1, 3])
    func sameNotes(seed: Int) async throws {
        let directory = try TemporaryDirectory()
        let midi = directory.file("session.mid")
        let events = directory.file("events.jsonl")
        let result = try await CLI.run(["run", "original", "--duration", "300", "--seed", String(seed), "--midi", midi, "--events", events, "--quiet"],
                                 timeout: 120)
        try #require(result.status == 0 && !result.signalled, "\(result)")
        let expected = String(decoding: try goldenBytes("notes-original-300s-seed\(seed).txt"), as: UTF8.self)
        let actual = try Self.reduce(midi: midi, events: events)
        if actual != expected {
            let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let got = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(want, got).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(want.count, got.count)
            Issue.record("""
                the notes of original (seed \(seed)) changed: \(got.count) lines, expected \(want.count); first difference on line \(first + 1):
                  expected: \(first < want.count ? String(want[first]) : "<end>")
                  got:      \(first < got.count ? String(got[first]) : "<end>")
                """)
        }
    }
}
