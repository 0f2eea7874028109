// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
import Theory
import Vocabulary
@testable import Performance

/// Every note says why it sounds (`NoteEvent.Cause`), and derived voices follow their own rules.
@Suite struct CauseTests {
    @Test("the opening root, a bass hit, a key hit and a wall drum each carry their cause")
    func hitsCarryTheirCause() {
        var configuration = cMajorConfiguration()
        configuration.percussion = PercussionPlan(bassWalls: Drum.named("rim"), walls: Drum.named("snare"), floor: Drum.named("clap"))
        var band = Band(configuration: configuration, voices: cMajorVoices(percussion: true))
        band.start()
        band.play(Hit(time: 1, ball: 0, target: .degree(4), speed: 2))
        band.play(Hit(time: 2, ball: 2, target: .key(number: 3, tone: 2), speed: 5))
        band.play(Hit(time: 3, ball: 1, target: .floor, speed: 5))
        band.play(Hit(time: 4, ball: 0, target: .wall, speed: 1))
        band.play(Hit(time: 5, ball: 3, target: .wall, speed: 5))
        #expect(band.noteOns.map(\.cause) == [.opening, .bassHit(degree: 4), .keyHit(key: 3, tone: 2),
                                               .drum(.floor), .drum(.wall), .drum(.wall)])
        #expect(band.noteOns.map(\.note) == [48, 53, 69, 39, 37, 38], "C3, F3, A4 (the 3rd of IV), clap, rim, snare")
        // Note-offs say nothing about a cause.
        band.finish(at: 10)
        #expect(band.events.filter { $0.kind == .off }.allSatisfy { $0.cause == .none })
        #expect(NoteEvent.Cause.keyHit(key: 3, tone: 2).key == 3 && NoteEvent.Cause.bassHit(degree: 4).key == nil)
    }

    @Test("the stomp and the metronome are drums of their own sources")
    func beatDrums() {
        var configuration = cMajorConfiguration()
        configuration.percussion = PercussionPlan(stompBeats: [1], metronome: true)
        var band = Band(configuration: configuration, voices: cMajorVoices(percussion: true), clock: Clock(tempo: 120, meter: Meter("3/4")!))
        band.start()
        band.run(through: 1.1)
        let drums = band.noteOns.filter { $0.voice.rawValue == 2 }
        // Beats every 0.5 s; the stomp on beat 1 of each 3/4 bar (queued before the click), the next at 1.5 s.
        #expect(drums.map(\.cause) == [.drum(.stomp), .drum(.metronome), .drum(.metronome), .drum(.metronome)])
        #expect(drums.map(\.time) == [0, 0, 0.5, 1])
    }

    @Test("under melodic keys a key hit is a melody step by the key's steps, never a chord tone")
    func melodySteps() {
        var configuration = cMajorConfiguration()
        configuration.melodicSteps = PerformerConfiguration.melodicSteps(keys: 4)
        var band = Band(configuration: configuration)
        band.start()
        band.play(Hit(time: 1, ball: 1, target: .key(number: 4, tone: 4), speed: 5))
        band.play(Hit(time: 2, ball: 1, target: .key(number: 1, tone: 1), speed: 5))
        let keys = band.noteOns.filter { $0.voice == .keys }
        #expect(keys.map(\.cause) == [.melodyStep(key: 4, step: 2), .melodyStep(key: 1, step: -2)])
    }

    @Test("a leading note is one, and the root it leads to is a bass hit")
    func leadingNote() {
        var configuration = cMajorConfiguration()
        configuration.approach = .chromaticBelow
        configuration.chordChange = .bar
        var band = Band(configuration: configuration, clock: Clock(tempo: 120, grid: Grid("1/8")!))
        band.start()
        band.play(Hit(time: 0.3, ball: 0, target: .degree(5), speed: 2))
        band.run(through: 2.5)
        let bass = band.noteOns.filter { $0.voice == .bass }
        #expect(bass.map(\.cause) == [.opening, .leadingNote, .bassHit(degree: 5)])
        #expect(bass.map(\.note) == [48, 54, 55] && bass[1].time == 1.75 && bass[2].time == 2)
    }

    @Test("two derived voices double the keys by their own rules, each note saying which it doubles")
    func derivedVoices() {
        let key = Key(tonic: PitchClass(0), scale: .major)
        var rows = cMajorVoices().voices
        for (name, rule) in [("Sixth", Voice.Rule.diatonic(6)), ("Below", Voice.Rule.diatonic(-3)), ("Fifth", Voice.Rule.semitones(7))] {
            var voice = Voice(name: name, channel: 5 + rows.count, tone: Tone.keysCatalog[0], curve: rows[1].curve, noteLength: 0.5, source: .derived)
            voice.derived = .init(from: .keys, rule: rule, key: key)
            rows.append(voice)
        }
        var band = Band(voices: VoiceTable(rows))
        band.play(Hit(time: 1, ball: 1, target: .key(number: 2, tone: 2), speed: 5))   // E4 (the 3rd of I)
        let ons = band.noteOns
        #expect(ons.map(\.voice.rawValue) == [1, 2, 3, 4])
        #expect(ons.map(\.note) == [64, 72, 60, 71], "E4; C5 a sixth above; C4 a third below; B4 seven semitones above")
        #expect(ons.dropFirst().allSatisfy { $0.cause == .derived(from: .keys, of: 64) && $0.velocity == ons[0].velocity && $0.time == 1 })
    }

    @Test("a diatonic rule counts on the scale; a note outside it moves the rule's fallback semitones; semitones ignore the key")
    func rules() {
        let d = Key(tonic: PitchClass(2), scale: .major)
        let third = Voice.Rule.diatonic(3).notes(in: d), octave = Voice.Rule.diatonic(-8).notes(in: d)
        #expect(third[62] == 66 && third[66] == 69 && third[73] == 76, "D → F♯, F♯ → A, C♯ → E")
        #expect(third[63] == 66, "E♭, outside D major, a minor third up")
        #expect(octave[62] == 50 && octave[5] == 5 && octave[0] == 0, "an octave below; below MIDI 0 it comes back up an octave")
        #expect(Voice.Rule.semitones(-5).notes(in: d)[60] == 55 && Voice.Rule.semitones(24).notes(in: d)[120] == 120)
        #expect(Voice.Rule.diatonic(-6).description == "a sixth below" && Voice.Rule.diatonic(8).description == "an octave above")
        // A live key change works the rule out again.
        let derivation = Voice.Derivation(from: .keys, rule: .diatonic(3), key: d).rekeyed(to: Key(tonic: PitchClass(0), scale: .minor))
        #expect(derivation.notes[60] == 63 && derivation.rule == .diatonic(3))
    }
}
