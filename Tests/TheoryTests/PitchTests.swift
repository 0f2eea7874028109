// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
@testable import Theory

@Suite("Pitch")
struct PitchTests {
    @Test("known MIDI names", arguments: [
        (0, "C-1"), (1, "C#-1"), (11, "B-1"), (12, "C0"), (21, "A0"), (59, "B3"), (60, "C4"),
        (61, "C#4"), (69, "A4"), (78, "F#5"), (108, "C8"), (127, "G9"),
    ])
    func knownNames(midi: Int, name: String) {
        #expect(Pitch(midi: midi).name == name)
        #expect(Pitch(name: name)?.midi == midi)
    }

    @Test("octave and pitch class")
    func octaveAndPitchClass() {
        #expect(Pitch(midi: 60).octave == 4)
        #expect(Pitch(midi: 60).pitchClass == .C)
        #expect(Pitch(midi: 71).octave == 4)
        #expect(Pitch(midi: 72).octave == 5)
        #expect(Pitch(midi: 0).octave == -1)
        #expect(Pitch(midi: 127).octave == 9)
        #expect(Pitch(midi: 127).pitchClass == .G)
        #expect(Pitch(midi: -1).octave == -2)
        #expect(Pitch(midi: -1).pitchClass == .B)
        #expect(Pitch(midi: -1).name == "B-2")
        #expect(Pitch(midi: -12).octave == -2)
        #expect(Pitch(midi: -13).octave == -3)
    }

    @Test("init from pitch class and octave")
    func fromPitchClassOctave() {
        #expect(Pitch(.C, octave: 4).midi == 60)
        #expect(Pitch(.A, octave: 4).midi == 69)
        #expect(Pitch(.C, octave: -1).midi == 0)
        #expect(Pitch(.G, octave: 9).midi == 127)
        #expect(Pitch(.Fs, octave: 5).midi == 78)
    }

    @Test("name round trip for all MIDI notes")
    func roundTripAllMIDI() {
        for midi in 0...127 {
            let pitch = Pitch(midi: midi)
            #expect(pitch.isValidMIDI)
            #expect(Pitch(name: pitch.name) == pitch, "MIDI \(midi) named \(pitch.name)")
            #expect(Pitch(pitch.pitchClass, octave: pitch.octave) == pitch)
            #expect((pitch.octave + 1) * 12 + pitch.pitchClass.value == midi)
        }
    }

    @Test("flat and enharmonic names parse by letter octave", arguments: [
        ("Bb3", 58), ("B♭3", 58), ("Db4", 61), ("Cb4", 59), ("B#3", 60), ("E#4", 65), ("Fb4", 64),
        ("c4", 60), ("a4", 69), ("bb3", 58), ("Ebb4", 62), ("F##2", 43), ("G10", 139), ("C-2", -12),
    ])
    func parseVariants(name: String, midi: Int) {
        #expect(Pitch(name: name)?.midi == midi)
    }

    @Test("rejected pitch names", arguments: [
        "", "C", "C#", "H4", "4", "C4.5", "C+4", "C--1", "C 4", " C4", "C4 ", "C4a", "C-", "Cx4", "C#b4", "C12345",
    ])
    func rejects(name: String) {
        #expect(Pitch(name: name) == nil)
    }

    @Test("validity, ordering, transposition")
    func validityAndOrdering() {
        #expect(!Pitch(midi: -1).isValidMIDI)
        #expect(!Pitch(midi: 128).isValidMIDI)
        #expect(Pitch(name: "G10")?.isValidMIDI == false)
        #expect(Pitch(midi: 59) < Pitch(midi: 60))
        #expect([Pitch(midi: 64), Pitch(midi: 60), Pitch(midi: 67)].sorted().map(\.midi) == [60, 64, 67])
        #expect(Pitch(midi: 60).transposed(by: 7).midi == 67)
        #expect(Pitch(midi: 60).transposed(by: -13).name == "B2")
        #expect(Pitch.middleC.name == "C4")
    }

    @Test("next up folds into an octave above")
    func nextUp() {
        let base = Pitch(midi: 60)
        #expect(base.nextUp(to: .C).midi == 60)
        #expect(base.nextUp(to: .B).midi == 71)
        #expect(Pitch(midi: 62).nextUp(to: .C).midi == 72)
    }

    @Test("equal-tempered frequency")
    func frequency() {
        #expect(Pitch(midi: 69).frequency() == 440)
        #expect(Pitch(midi: 81).frequency() == 880)
        #expect(abs(Pitch(midi: 60).frequency() - 261.6255653) < 1e-6)
        #expect(Pitch(midi: 69).frequency(a4: 432) == 432)
    }
}
