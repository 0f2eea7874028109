// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import EventLog
import Foundation
import Performance
import Pictures
import Presets
import TestSupport
import Testing
import Theory
import WorldDrawing
@testable import Engine
@testable import PictureCommands
@testable import Sinks
#if canImport(Glibc)
import Glibc
#endif

/// Piano rolls follow the session's voices table (one lane per voice) and its tempo and meter.
@Suite("Piano rolls from MIDI files and event logs")
struct RollReaderTests {
    /// A fresh directory under /tmp, removed by the caller.

    /// Runs `preset` (with `flags`) for `seconds` into a MIDI file and an event log.
    static func record(_ preset: String, flags: [String: String] = [:], seconds: Double, in directory: String)
        throws -> (plan: SessionPlan, midi: String, log: String) {
        var overrides = Overrides()
        overrides.flags = flags
        let plan = SessionPlan(configuration: try Configuration(preset: try PresetLibrary.load(preset), overrides: overrides, duration: seconds))
        let midi = directory + "/s.mid", log = directory + "/s.jsonl"
        try Simulator(plan: plan).run(into: [try MIDIRecorder(path: midi, plan: plan), try EventLogWriter(path: log, voices: plan.voices)])
        return (plan, midi, log)
    }

    @Test("A 3/4 session with drums: four lanes in table order, beats and bars of 3/4 at the preset's tempo, notes from when they sound")
    func drumsAndThreeFour() throws {
        let temporary = try TemporaryDirectory(prefix: "clumsy-roll-tests")
        let directory = temporary.path
        let (plan, midi, log) = try Self.record("polska", seconds: 8, in: directory)
        #expect(plan.voices.voices.map(\.name) == ["Bass", "Keys", "Melody", "Drums"])
        for roll in [try RollReader.fromEventLog(path: log, preset: "polska"),
                     try RollReader.fromMIDI(path: midi)] {
            #expect(roll.lanes.map(\.name) == ["Bass", "Keys", "Melody", "Drums"])
            #expect(roll.beatsPerBar == 3)
            #expect(abs(roll.secondsPerBeat - 60.0 / 112) < 1e-6, "\(roll.secondsPerBeat)")
            // The stomp (low floor tom, 41) on beats 1 and 3 of every bar: on the Drums lane, on beat lines.
            let stomps = roll.notes.filter { $0.lane == 3 && $0.pitch == 41 }
            #expect(stomps.count >= 8)
            for note in stomps {
                let beats = note.start / roll.secondsPerBeat
                #expect(abs(beats - beats.rounded()) < 1e-3, "stomp at \(note.start) s is off the beat")
                #expect([0, 2].contains(Int(beats.rounded()) % 3), "stomp at \(note.start) s is on beat \(Int(beats.rounded()) % 3 + 1)")
            }
            for note in roll.notes {
                let lane = roll.lanes[note.lane]
                #expect(lane.pitches.contains(note.pitch), "\(note.pitch) outside lane \(lane.name)")
            }
        }
        // The log's notes start at their `t` (quantised), which can be after their hit.
        let logRoll = try RollReader.fromEventLog(path: log, preset: "polska")
        let grid = 60.0 / 112 / 2
        let keys = logRoll.notes.filter { $0.lane == 1 }
        #expect(!keys.isEmpty && keys.allSatisfy { abs($0.start / grid - ($0.start / grid).rounded()) < 0.2 },
                "key notes of a swung eighth grid should sit near its lines")
    }

    @Test("6/8: a beat is an eighth, six to a bar, in the MIDI file's roll and the event log's")
    func sixEight() throws {
        let temporary = try TemporaryDirectory(prefix: "clumsy-roll-tests")
        let directory = temporary.path
        let (_, midi, log) = try Self.record("original", flags: ["meter": "6/8", "tempo": "90"], seconds: 3, in: directory)
        let fromMIDI = try RollReader.fromMIDI(path: midi)
        #expect(fromMIDI.beatsPerBar == 6 && abs(fromMIDI.secondsPerBeat - 60.0 / 90 / 2) < 1e-6)
        #expect(fromMIDI.legend.first == "90 bpm, 6/8")
        var overrides = Overrides()
        overrides.flags = ["meter": "6/8", "tempo": "90"]
        let plan = SessionPlan(configuration: try Configuration(preset: try PresetLibrary.load("original"), overrides: overrides, duration: 1))
        let fromLog = try RollReader.fromEventLog(path: log, plan: plan)
        #expect(fromLog.beatsPerBar == 6 && abs(fromLog.secondsPerBeat - 60.0 / 90 / 2) < 1e-6)
        #expect(fromLog.lanes.map(\.name) == ["Bass", "Keys"])
    }

    @Test("After a live key change the roll names chords in the new key, from the MIDI file and the event log alike; the legend lists the change")
    func keyChange() throws {
        let temporary = try TemporaryDirectory(prefix: "clumsy-roll-tests")
        let directory = temporary.path
        let plan = SessionPlan(configuration: try Configuration(preset: try PresetLibrary.load("original"), duration: 12))
        let midi = directory + "/s.mid", log = directory + "/s.jsonl"
        let change = Key(parsing: "Eb major")!
        try Simulator(plan: plan).run(into: [try MIDIRecorder(path: midi, plan: plan), try EventLogWriter(path: log, voices: plan.voices)],
                                      controls: ReplayControls([TimedControl(step: 1440, control: .key(change))]))
        let eFlat = Set(ScaleDegree.all.map { change.symbol(of: change.seventhChord(on: $0)) })
        let c = Set(ScaleDegree.all.map { plan.key.symbol(of: plan.key.seventhChord(on: $0)) })
        for roll in [try RollReader.fromMIDI(path: midi), try RollReader.fromEventLog(path: log, preset: "original")] {
            let before = roll.chords.filter { $0.time < 6 }, after = roll.chords.filter { $0.time >= 6 }
            #expect(!before.isEmpty && before.allSatisfy { c.contains($0.name) }, "\(before.map(\.name))")
            #expect(!after.isEmpty && after.allSatisfy { eFlat.contains($0.name) }, "\(after.map(\.name))")
            #expect(roll.legend.contains("C major; E♭ major from 6.0 s"), "\(roll.legend)")
        }
    }

    @Test("A log whose voice the preset does not have is bad data naming the line and the voice")
    func unknownVoice() throws {
        let temporary = try TemporaryDirectory(prefix: "clumsy-roll-tests")
        let directory = temporary.path
        let (_, _, log) = try Self.record("polska", seconds: 4, in: directory)
        do {
            _ = try RollReader.fromEventLog(path: log, preset: "original")
            Issue.record("a log with drums read against a preset without them")
        } catch {
            guard case .data(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.contains("drums") && message.contains("line "), "\(message)")
        }
    }

    @Test("roll of a log written before chord lines names each bass root's chord as the session does")
    func rollOfAnOlderLog() throws {
        let directory = try TemporaryDirectory(prefix: "clumsy-chord-tests")
        let log = directory.file("s.jsonl"), old = directory.file("old.jsonl")
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled("borrowed-chords"), duration: 30))
        try Simulator(plan: plan).run(into: [try EventLogWriter(path: log, voices: plan.voices)])
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        try lines.filter { !$0.contains("\"kind\":\"chord\"") }.joined(separator: "\n").appending("\n").write(toFile: old, atomically: true, encoding: .utf8)
        let now = try RollReader.fromEventLog(path: log, plan: plan), before = try RollReader.fromEventLog(path: old, plan: plan)
        #expect(now.chords.map(\.name) == before.chords.map(\.name), "\(now.chords.map(\.name)) vs \(before.chords.map(\.name))")
        #expect(now.notes.count == before.notes.count)
    }
}
