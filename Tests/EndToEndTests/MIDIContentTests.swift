// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Testing

/// What the MIDI file of a run holds, read back with the project's reader and with mido.
@Suite("MIDI file content")
struct MIDIContentTests {
    /// One run writing both files; shared by the tests below (each makes its own).
    struct Session {
        let directory: TemporaryDirectory
        let midiPath: String
        let events: [LogEvent]
        let contents: MIDIFileContents

        init(_ arguments: [String]) async throws {
            directory = try TemporaryDirectory()
            midiPath = directory.file("session.mid")
            let eventsPath = directory.file("session.jsonl")
            let result = try await CLI.run(["run"] + arguments + ["--midi", midiPath, "--events", eventsPath, "--quiet"])
            try #require(result.status == 0 && !result.signalled, "\(result)")
            events = try readEventLog(eventsPath)
            contents = try MIDIFileReader.read(path: midiPath)
        }
    }

    @Test("Header, tracks, names, programs, tempo and the description text (original, 120 bpm)")
    func structure() async throws {
        let session = try await Session(["original", "--duration", "20", "--seed", "1"])
        let midi = session.contents
        #expect(midi.format == 1)
        #expect(midi.ticksPerQuarter == 960)
        try #require(midi.tracks.count == 3, "expected 3 tracks, got \(midi.tracks.count)")
        #expect(midi.trackName(at: 1) == "Bass")
        #expect(midi.trackName(at: 2) == "Keys")

        // Track 0: tempo 500000 µs per quarter (120 bpm) and a text naming preset, seed, gravity, speed.
        let conductor = midi.tracks[0]
        let tempos = conductor.compactMap { event -> UInt32? in
            if case .tempo(let microseconds) = event.message { return microseconds }
            return nil
        }
        #expect(tempos == [500_000], "tempo events in track 0: \(tempos)")
        let texts = conductor.compactMap { event -> String? in
            if case .text(let text) = event.message { return text }
            return nil
        }
        let text = try #require(texts.first, "no text event in track 0")
        for part in ["preset original", "seed 1", "gravity 9.81 m/s^2", "speed 1.8333 m/s"] {
            #expect(text.contains(part), "track 0 text \"\(text)\" lacks \"\(part)\"")
        }
        #expect(!conductor.contains { $0.message.channel != nil }, "track 0 holds channel messages")

        // Tracks 1 and 2: a program change on the track's own channel (bass 0, keys 1), before any note,
        // and every channel message on that channel.
        for (track, channel) in [(1, UInt8(0)), (2, UInt8(1))] {
            let events = midi.tracks[track]
            let programIndex = events.firstIndex {
                if case .programChange(let c, _) = $0.message { return c == channel }
                return false
            }
            let program = try #require(programIndex, "track \(track) has no program change on channel \(channel + 1)")
            let firstNote = events.firstIndex {
                if case .noteOn = $0.message { return true }
                return false
            }
            #expect(firstNote.map { program < $0 } ?? true, "program change after the first note in track \(track)")
            // The keys spread over their pan-zone channels (MIDI 2–5), the bass stays on channel 1.
            let channels = Set(events.compactMap { $0.message.channel })
            let expected: Set<UInt8> = track == 1 ? [0] : [1, 2, 3, 4]
            #expect(channels == expected, "track \(track) uses channels \(channels.sorted())")
        }
    }

    @Test("Overridden seed, gravity and speed are written into track 0's text (minor-storm, 140 bpm)")
    func overridesInText() async throws {
        let session = try await Session(["minor-storm", "--duration", "2", "--seed", "99", "--gravity", "3.5", "--speed", "2.25"])
        let texts = session.contents.tracks.first?.compactMap { event -> String? in
            if case .text(let text) = event.message { return text }
            return nil
        } ?? []
        let text = try #require(texts.first, "no text event in track 0")
        for part in ["preset minor-storm", "seed 99", "gravity 3.5 m/s^2", "speed 2.25 m/s"] {
            #expect(text.contains(part), "track 0 text \"\(text)\" lacks \"\(part)\"")
        }
        let tempos = session.contents.tracks[0].compactMap { event -> UInt32? in
            if case .tempo(let microseconds) = event.message { return microseconds }
            return nil
        }
        #expect(tempos == [428_571], "140 bpm is 428571 µs per quarter; got \(tempos)")
    }

    @Test("Notes agree with the event log of the same run, and every note-on ends",
          arguments: [["default", "--duration", "20", "--seed", "1"], ["minor-storm", "--duration", "8"],
                      ["phrygian-scatter", "--duration", "8", "--seed", "5"]])
    func notesMatchEventLog(arguments: [String]) async throws {
        let session = try await Session(arguments)
        let midi = session.contents
        // Bass and keys, and the melody where the preset has one.
        try #require([3, 4].contains(midi.tracks.count))
        // Ticks per second at the file's single tempo (µs per quarter in track 0).
        let microseconds = midi.tracks[0].compactMap { event -> UInt32? in
            if case .tempo(let value) = event.message { return value }
            return nil
        }.first ?? 500_000
        let ticksPerSecond = Double(midi.ticksPerQuarter) * 1_000_000 / Double(microseconds)

        for (track, kind) in [(1, "bass"), (2, "key")] + (midi.tracks.count == 4 ? [(3, "melody")] : []) {
            let logged = session.events.filter { $0.kind == kind }
            let played = noteOns(midi.tracks[track])
            #expect(played.count == logged.count,
                    "track \(track): \(played.count) note-ons, event log has \(logged.count) \"\(kind)\" lines")
            #expect(!logged.isEmpty, "no \(kind) notes at all")
            // Same notes, velocities and (to the tick) times, in the same order.
            for (index, (note, event)) in zip(played, logged).enumerated() {
                let expectedTick = (event.t * ticksPerSecond).rounded()
                guard Int(note.note) == event.note, Int(note.velocity) == event.velocity,
                      abs(Double(note.tick) - expectedTick) <= 1 else {
                    Issue.record("track \(track) note-on #\(index) is tick \(note.tick) note \(note.note) velocity \(note.velocity); log says \(event)")
                    break
                }
            }
            let problems = pairingProblems(midi.tracks[track])
            #expect(problems.isEmpty, "track \(track): \(problems.prefix(5).joined(separator: "; "))")
        }
        #expect(noteOns(midi.tracks[0]).isEmpty)
    }

    @Test("mido reads the same track names and note counts as our reader",
          .enabled(if: Mido.isAvailable, "needs python3 with mido (pip install mido)"))
    func midoAgrees() async throws {
        let session = try await Session(["minor-storm", "--duration", "10", "--seed", "3"])
        let mido = try Mido.summary(of: session.midiPath)
        let midi = session.contents
        #expect(mido.type == Int(midi.format))
        #expect(mido.ticksPerBeat == Int(midi.ticksPerQuarter))
        try #require(mido.tracks.count == midi.tracks.count, "mido sees \(mido.tracks.count) tracks, we see \(midi.tracks.count)")
        #expect(mido.tracks.map(\.name) == [nil, "Bass", "Keys", "Melody"])
        for (index, (theirs, ours)) in zip(mido.tracks, midi.tracks).enumerated() {
            let ourOns = ours.filter { if case .noteOn = $0.message { return true } else { return false } }.count
            let ourOffs = ours.filter { if case .noteOff = $0.message { return true } else { return false } }.count
            let ourChannels = Set(ours.compactMap { event -> Int? in
                switch event.message {
                case .noteOn(let c, _, _), .noteOff(let c, _, _): return Int(c)
                default: return nil
                }
            }).sorted()
            #expect(theirs.name == midi.trackName(at: index), "track \(index) name")
            #expect(theirs.noteOns == ourOns, "track \(index): mido counts \(theirs.noteOns) note-ons, we count \(ourOns)")
            #expect(theirs.noteOffs == ourOffs, "track \(index): mido counts \(theirs.noteOffs) note-offs, we count \(ourOffs)")
            #expect(theirs.channels == ourChannels, "track \(index) channels")
        }
        // And both agree with the event log.
        #expect(mido.tracks[1].noteOns == session.events.filter { $0.kind == "bass" }.count)
        #expect(mido.tracks[2].noteOns == session.events.filter { $0.kind == "key" }.count)
    }
}
