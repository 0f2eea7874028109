// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing
@testable import Theory

/// Parses space-separated note names into pitch classes (test helper).
func pcs(_ names: String) -> [PitchClass] {
    names.split(separator: " ").map { PitchClass(name: String($0))! }
}

/// Degree constructor shorthand for tests.
func deg(_ n: Int) -> ScaleDegree { ScaleDegree(n)! }

@Suite("Key")
struct KeyTests {
    @Test("scale notes of known keys", arguments: [
        (Key(tonic: .C, scale: .major), "C D E F G A B"),
        (Key(tonic: .A, scale: .minor), "A B C D E F G"),
        (Key(tonic: .D, scale: .dorian), "D E F G A B C"),
        (Key(tonic: .E, scale: .phrygian), "E F G A B C D"),
        (Key(tonic: .F, scale: .lydian), "F G A B C D E"),
        (Key(tonic: .G, scale: .mixolydian), "G A B C D E F"),
        (Key(tonic: .B, scale: .locrian), "B C D E F G A"),
        (Key(tonic: .Eb, scale: .major), "Eb F G Ab Bb C D"),
        (Key(tonic: .Fs, scale: .major), "F# G# A# B C# D# E#"),
        (Key(tonic: .A, scale: .harmonicMinor), "A B C D E F G#"),
        (Key(tonic: .A, scale: .melodicMinor), "A B C D E F# G#"),
        (Key(tonic: .C, scale: .harmonicMinor), "C D Eb F G Ab B"),
        (Key(tonic: .Bb, scale: .dorian), "Bb C Db Eb F G Ab"),
        (Key(tonic: .Cs, scale: .minor), "C# D# E F# G# A B"),
    ])
    func scaleNotes(key: Key, notes: String) {
        #expect(key.pitchClasses == pcs(notes))
        for (i, pc) in pcs(notes).enumerated() {
            #expect(key.pitchClass(of: deg(i + 1)) == pc)
            #expect(key.degree(of: pc) == deg(i + 1))
        }
    }

    @Test("pentatonic and blues keys: their degrees, tones and spelling")
    func pentatonic() {
        let key = Key(tonic: .A, scale: .minorPentatonic)
        #expect(key.pitchClasses == pcs("A C D E G"))
        #expect(key.degrees.map(\.number) == [1, 3, 4, 5, 7])
        #expect(key.degree(of: .B) == nil)
        #expect(!key.contains(.B))
        #expect(key.degree(of: .G) == deg(7))
        let blues = Key(tonic: .A, scale: .blues)
        #expect(blues.pitchClasses == pcs("A C D Eb E G"))
        #expect(blues.contains(.Eb))
        #expect(blues.degree(of: .Eb) == nil)
        #expect(blues.scale.noteCount == 6)
        #expect(Key(tonic: .C, scale: .majorPentatonic).degrees.map(\.number) == [1, 2, 3, 5, 6])
        #expect(Key(tonic: .C, scale: .majorPentatonic).seventhChord(on: deg(5)) == Key(tonic: .C, scale: .major).seventhChord(on: deg(5)))
    }

    @Test("degree ↔ pitch class round trip for every tonic and scale", arguments: Scale.all.filter { $0.noteCount == 7 })
    func roundTrips(scale: Scale) {
        for tonic in PitchClass.allCases {
            let key = Key(tonic: tonic, scale: scale)
            #expect(key.pitchClass(of: deg(1)) == tonic)
            for degree in ScaleDegree.all {
                let pc = key.pitchClass(of: degree)
                #expect(key.degree(of: pc) == degree, "\(key) degree \(degree.number)")
                #expect(pc.value == (tonic.value + scale.steps[degree.index]) % 12)
            }
            let members = PitchClass.allCases.filter { key.degree(of: $0) != nil }
            #expect(members.count == 7)
            #expect(Set(members.compactMap { key.degree(of: $0) }).count == 7)
            for pc in PitchClass.allCases where !members.contains(pc) {
                #expect(!key.contains(pc))
            }
        }
    }

    @Test("relative modes share the white keys")
    func relativeModes() {
        let white = Set(pcs("C D E F G A B"))
        let keys = [
            Key(tonic: .C, scale: .major), Key(tonic: .D, scale: .dorian), Key(tonic: .E, scale: .phrygian),
            Key(tonic: .F, scale: .lydian), Key(tonic: .G, scale: .mixolydian), Key(tonic: .A, scale: .minor),
            Key(tonic: .B, scale: .locrian),
        ]
        for key in keys {
            #expect(Set(key.pitchClasses) == white, "\(key)")
        }
    }

    @Test("description and parsing")
    func descriptionAndParsing() {
        #expect(Key(tonic: .C, scale: .major).description == "C major")
        #expect(Key(tonic: .A, scale: .harmonicMinor).description == "A harmonic minor")
        #expect(Key(tonic: .Fs, scale: .dorian).description == "F♯ dorian")
        #expect(Key(tonic: .Fs, scale: .dorian).name(.ascii) == "F# dorian")
        #expect(Key(parsing: "C major") == Key(tonic: .C, scale: .major))
        #expect(Key(parsing: "Eb harmonic minor") == Key(spelledTonic: SpelledPitchClass(name: "E♭")!, scale: .harmonicMinor))
        #expect(Key(parsing: "  f# Dorian ") == Key(tonic: .Fs, scale: .dorian))
        #expect(Key(parsing: "a aeolian") == Key(tonic: .A, scale: .minor))
        #expect(Key(parsing: "C") == nil)
        #expect(Key(parsing: "H major") == nil)
        #expect(Key(parsing: "C bluesy") == nil)
        #expect(Key(parsing: "C blues")?.scale == .blues)
    }

    @Test("bass pitch folds the root above the base")
    func bassPitch() {
        let key = Key(tonic: .C, scale: .major)
        let base = Pitch(midi: 48)
        #expect(key.bassPitch(of: deg(1), base: base).midi == 48)
        #expect(key.bassPitch(of: deg(5), base: base).midi == 55)
        #expect(key.bassPitch(of: deg(7), base: base).midi == 59)
        #expect(key.bassPitch(of: deg(2), base: base).midi == 50)
        #expect(key.bassPitch(of: deg(1), base: Pitch(midi: 50)).midi == 60)
        let aMinor = Key(tonic: .A, scale: .minor)
        #expect(aMinor.bassPitch(of: deg(1), base: base).midi == 57)
        #expect(aMinor.bassPitch(of: deg(3), base: base).midi == 48)
    }

    /// The MIDI key signature (FF 59): the signature's accidentals and major or minor; a
    /// mode is written as its signature, major.
    @Test("midiKeySignature", arguments: [
        ("C major", 0, false), ("A minor", 0, true), ("Bb major", -2, false), ("F# major", 6, false),
        ("Eb harmonic minor", -6, true), ("D dorian", 0, false), ("E phrygian", 0, false), ("F lydian", 0, false),
        ("G minor pentatonic", -2, true), ("A blues", 0, true), ("Db major", -5, false), ("C# minor", 4, true),
    ])
    func midiKeySignature(text: String, sharps: Int, minor: Bool) throws {
        let key = try #require(Key(parsing: text))
        #expect(key.midiKeySignature == (sharps, minor), "\(text): \(key.midiKeySignature)")
    }
}
