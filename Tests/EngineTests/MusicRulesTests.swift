// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Performance
import TestSupport
import Testing
@testable import Engine

/// The rules that make a world play music: soft contacts taken up, phrases that cadence on the
/// tonic, a melody voice on top, a delay in musical time.
@Suite struct MusicRulesTests {
    private func notes(_ events: [SessionEvent], voice: VoiceID? = nil) -> [NoteEvent] {
        events.compactMap { event in
            if case .note(let note) = event, note.kind == .on, voice == nil || note.voice == voice { return note }
            return nil
        }
    }

    /// With `piano.takeUp`, a ball whose key contact is too soft to be a hit is dropped again at
    /// once: the world plays no dribble (key notes from one ball never come faster and softer
    /// than a bounce), and drops happen; without it, the soft contacts just go unheard.
    @Test func softContactsAreTakenUp() throws {
        var preset = try decode(#"{"keys": {"minimumSpeed": 2.2}, "piano": {"restitution": 0.9}}"#)
        let (plain, plainSummary) = try simulate(preset, duration: 60)
        preset.piano.takeUp = true
        let (taken, takenSummary) = try simulate(preset, duration: 60)
        #expect(takenSummary.drops > plainSummary.drops + 10, "\(takenSummary.drops) vs \(plainSummary.drops) drops")
        // Every key contact too soft to sound drops its ball: more key notes are heard in the same time.
        #expect(notes(taken, voice: .keys).count > notes(plain, voice: .keys).count)
        for note in notes(taken, voice: .keys) { #expect(note.speed >= 2.2) }
    }

    /// With `form.cadence`, the last bar of every section is on chord I, with I's root in the bass
    /// at its bar line.
    @Test func everySectionCadencesOnTheTonic() throws {
        let preset = try decode(#"{"tempo": 120, "time": {"quantize": "1/8", "chordChange": "bar"},"#
                                + #" "form": {"bars": 4, "sections": "AB", "cadence": true}}"#)
        let (events, _) = try simulate(preset, duration: 40)
        var chordAt: [(time: Double, degree: Int)] = []
        for case .chord(let chord) in events { chordAt.append((chord.time, chord.degree)) }
        // Sections of 4 bars of 2 s: the last bar of section n begins at 8n + 6 s.
        for section in 0..<4 {
            let lastBar = Double(section) * 8 + 6
            let playing = chordAt.last { $0.time <= lastBar + 1e-9 }
            #expect(playing?.degree == 1, "section \(section): chord \(String(describing: playing)) at \(lastBar) s")
            let changes = chordAt.filter { $0.time > lastBar + 1e-9 && $0.time < lastBar + 2 - 1e-9 }
            #expect(changes.isEmpty, "section \(section): the cadence bar changed chord: \(changes)")
            let root = notes(events, voice: .bass).first { abs($0.time - lastBar) < 1e-9 }
            #expect(root.map { $0.note % 12 } == 0, "section \(section): no tonic in the bass at \(lastBar) s")
        }
    }

    /// A melody voice is its own track on top: every note above the keys' notes, in the scale,
    /// one at a time, and mostly by step.
    @Test func aMelodyOnTop() throws {
        let preset = try decode(#"{"time": {"quantize": "1/8"}, "keys": {"register": "C3"}, "piano": {"restitution": 1},"#
                                + #" "melody": {"register": "C5"}}"#)
        let configuration = try Configuration(preset: preset, duration: 60)
        let plan = SessionPlan(configuration: configuration)
        let voice = try #require(plan.voices.id(of: .melody))
        #expect(plan.voices[voice].name == "Melody" && plan.voices[voice].isMonophonic)
        let (events, _) = try simulate(preset, duration: 60)
        let melody = notes(events, voice: voice)
        #expect(melody.count > 40)
        let keysTop = notes(events, voice: .keys).map(\.note).max() ?? 0
        for note in melody {
            #expect(note.note >= 72 && note.note > keysTop)
            #expect([0, 2, 4, 5, 7, 9, 11].contains(note.note % 12))
        }
        let intervals = zip(melody, melody.dropFirst()).map { abs($1.note - $0.note) }
        let steps = intervals.filter { (1...2).contains($0) }.count
        #expect(Double(steps) / Double(intervals.count) > 0.5)
    }

    /// `sound.delay.note` sets the delay time from the tempo: a dotted eighth is 0.375 s at 120
    /// bpm and 0.5 s at 90; `--delay` still wins; a note value longer than 5 s is refused.
    @Test func delayInMusicalTime() throws {
        let preset = try decode(#"{"sound": {"delay": {"note": "3/16"}}}"#)
        #expect(try Configuration(preset: preset, duration: 1).sound.delay?.time == 0.375)
        var slow = Overrides()
        slow.flags["tempo"] = "90"
        #expect(try Configuration(preset: preset, overrides: slow, duration: 1).sound.delay?.time == 0.5)
        var flagged = Overrides()
        flagged.flags["delay"] = "0.2"
        #expect(try Configuration(preset: preset, overrides: flagged, duration: 1).sound.delay?.time == 0.2)
        let long = try decode(#"{"tempo": 20, "sound": {"delay": {"note": "2/1"}}}"#)
        #expect(throws: SessionError.self) { try Configuration(preset: long, duration: 1) }
        #expect(presetError(#"{"sound": {"delay": {"note": "3/17"}}}"#)?.description.contains("sound.delay.note") == true)
    }

    /// `sound.delay.time` takes a note value too, and so does `--delay`: a flag's note value
    /// replaces the preset's seconds, a flag's seconds replace the preset's note value, and a
    /// malformed fraction is refused naming the field or the flag.
    @Test func delayTimeAsNoteValue() throws {
        let noted = try decode(#"{"tempo": 90, "sound": {"delay": {"time": "3/16"}}}"#)
        #expect(try Configuration(preset: noted, duration: 1).sound.delay?.time == 0.5)
        let seconds = try decode(#"{"tempo": 90, "sound": {"delay": {"time": 0.3}}}"#)
        #expect(try Configuration(preset: seconds, duration: 1).sound.delay?.time == 0.3)
        var quarter = Overrides()
        quarter.flags["delay"] = "1/4"
        #expect(try Configuration(preset: seconds, overrides: quarter, duration: 1).sound.delay?.time == 2.0 / 3)
        var plain = Overrides()
        plain.flags["delay"] = "0.25"
        #expect(try Configuration(preset: noted, overrides: plain, duration: 1).sound.delay?.time == 0.25)
        #expect(presetError(#"{"sound": {"delay": {"time": "3/5"}}}"#)?.description.contains("sound.delay.time") == true)
        for text in ["3/5", "0/4", "1/", "nan", "3/16/2"] {
            var bad = Overrides()
            bad.flags["delay"] = text
            #expect(throws: SessionError.self, "--delay \(text)") { try Configuration(preset: noted, overrides: bad, duration: 1) }
        }
        var long = Overrides()
        long.flags["delay"] = "32/1"
        let message = #expect(throws: SessionError.self) { try Configuration(preset: noted, overrides: long, duration: 1) }
        #expect(message?.description.contains("--delay 32/1") == true)
    }
}
