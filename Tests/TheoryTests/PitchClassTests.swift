// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
@testable import Theory

@Suite("PitchClass")
struct PitchClassTests {
    @Test("init wraps modulo 12")
    func wrapping() {
        #expect(PitchClass(0).value == 0)
        #expect(PitchClass(11).value == 11)
        #expect(PitchClass(12).value == 0)
        #expect(PitchClass(25).value == 1)
        #expect(PitchClass(-1).value == 11)
        #expect(PitchClass(-13).value == 11)
        #expect(PitchClass(-24).value == 0)
    }

    @Test("sharp and flat names")
    func names() {
        let sharps = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
        let flats = ["C", "Db", "D", "Eb", "E", "F", "Gb", "G", "Ab", "A", "Bb", "B"]
        #expect(PitchClass.allCases.map(\.name) == sharps)
        #expect(PitchClass.allCases.map(\.flatName) == flats)
        #expect(PitchClass.allCases.map(\.value) == Array(0...11))
        #expect(PitchClass(6).description == "F#")
    }

    @Test("constants")
    func constants() {
        #expect(PitchClass.C.value == 0)
        #expect(PitchClass.Cs == PitchClass.Db)
        #expect(PitchClass.Eb.value == 3)
        #expect(PitchClass.Fs.value == 6)
        #expect(PitchClass.Ab.value == 8)
        #expect(PitchClass.Bb.value == 10)
        #expect(PitchClass.B.value == 11)
    }

    @Test("accepted spellings", arguments: [
        ("C", 0), ("c", 0), ("C#", 1), ("C♯", 1), ("Db", 1), ("D♭", 1), ("d", 2), ("D#", 3), ("Eb", 3),
        ("E", 4), ("Fb", 4), ("E#", 5), ("F", 5), ("F#", 6), ("Gb", 6), ("G", 7), ("G#", 8), ("Ab", 8),
        ("A", 9), ("Bbb", 9), ("A#", 10), ("Bb", 10), ("B", 11), ("Cb", 11), ("B#", 0), ("b", 11),
        ("bb", 10), ("bbb", 9), ("C##", 2), ("Ebb", 2), ("g♯", 8), ("a♭", 8), ("E♭♭", 2),
    ])
    func accepts(name: String, value: Int) {
        #expect(PitchClass(name: name)?.value == value)
    }

    @Test("rejected spellings", arguments: [
        "", "H", "h", "X", "#", "♭", "C###", "Bbbb", "C#b", "Cb#", "C4", "C ", " C", "Cx", "C-", "Do", "CC", "1",
    ])
    func rejects(name: String) {
        #expect(PitchClass(name: name) == nil)
    }

    @Test("name parse round trip")
    func nameRoundTrip() {
        for pc in PitchClass.allCases {
            #expect(PitchClass(name: pc.name) == pc)
            #expect(PitchClass(name: pc.flatName) == pc)
        }
    }

    @Test("transposition")
    func transposition() {
        #expect(PitchClass.C.transposed(by: 7) == .G)
        #expect(PitchClass.A.transposed(by: 3) == .C)
        #expect(PitchClass.C.transposed(by: -1) == .B)
        #expect(PitchClass.E.transposed(by: 24) == .E)
        #expect(PitchClass.D.transposed(by: -14) == .C)
        #expect(PitchClass.A.semitones(upTo: .C) == 3)
        #expect(PitchClass.C.semitones(upTo: .A) == 9)
        #expect(PitchClass.G.semitones(upTo: .G) == 0)
    }
}
