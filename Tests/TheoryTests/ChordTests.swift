// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
@testable import Theory

@Suite("Diatonic chords")
struct ChordTests {
    /// Checks all seven seventh chords of `key` against expected symbols and tone names.
    func checkSevenths(_ key: Key, _ symbols: [String], _ tones: [String], _ qualities: [ChordQuality]) {
        for degree in ScaleDegree.all {
            let chord = key.seventhChord(on: degree)
            #expect(chord.symbol == symbols[degree.index], "\(key) degree \(degree.number)")
            #expect(chord.tones == pcs(tones[degree.index]), "\(key) degree \(degree.number)")
            #expect(chord.quality == qualities[degree.index], "\(key) degree \(degree.number)")
            #expect(chord.root == key.pitchClass(of: degree))
            #expect(chord.intervals.count == 4)
            #expect(chord.intervals.first == 0)
        }
    }

    @Test("C major seventh chords")
    func cMajor() {
        checkSevenths(
            Key(tonic: .C, scale: .major),
            ["Cmaj7", "Dm7", "Em7", "Fmaj7", "G7", "Am7", "Bø7"],
            ["C E G B", "D F A C", "E G B D", "F A C E", "G B D F", "A C E G", "B D F A"],
            [.major7, .minor7, .minor7, .major7, .dominant7, .minor7, .halfDiminished7])
        let key = Key(tonic: .C, scale: .major)
        #expect(key.seventhChord(on: deg(1)).intervals == [0, 4, 7, 11])
        #expect(key.seventhChord(on: deg(5)).intervals == [0, 4, 7, 10])
        #expect(key.seventhChord(on: deg(7)).intervals == [0, 3, 6, 10])
    }

    @Test("A natural minor seventh chords")
    func aMinor() {
        checkSevenths(
            Key(tonic: .A, scale: .minor),
            ["Am7", "Bø7", "Cmaj7", "Dm7", "Em7", "Fmaj7", "G7"],
            ["A C E G", "B D F A", "C E G B", "D F A C", "E G B D", "F A C E", "G B D F"],
            [.minor7, .halfDiminished7, .major7, .minor7, .minor7, .major7, .dominant7])
    }

    @Test("D dorian seventh chords")
    func dDorian() {
        checkSevenths(
            Key(tonic: .D, scale: .dorian),
            ["Dm7", "Em7", "Fmaj7", "G7", "Am7", "Bø7", "Cmaj7"],
            ["D F A C", "E G B D", "F A C E", "G B D F", "A C E G", "B D F A", "C E G B"],
            [.minor7, .minor7, .major7, .dominant7, .minor7, .halfDiminished7, .major7])
    }

    @Test("E♭ major seventh chords (sharp-spelled symbols)")
    func eFlatMajor() {
        checkSevenths(
            Key(tonic: .Eb, scale: .major),
            ["D#maj7", "Fm7", "Gm7", "G#maj7", "A#7", "Cm7", "Dø7"],
            ["Eb G Bb D", "F Ab C Eb", "G Bb D F", "Ab C Eb G", "Bb D F Ab", "C Eb G Bb", "D F Ab C"],
            [.major7, .minor7, .minor7, .major7, .dominant7, .minor7, .halfDiminished7])
    }

    @Test("F♯ major seventh chords")
    func fSharpMajor() {
        checkSevenths(
            Key(tonic: .Fs, scale: .major),
            ["F#maj7", "G#m7", "A#m7", "Bmaj7", "C#7", "D#m7", "Fø7"],
            ["F# A# C# E#", "G# B D# F#", "A# C# E# G#", "B D# F# A#", "C# E# G# B", "D# F# A# C#", "E# G# B D#"],
            [.major7, .minor7, .minor7, .major7, .dominant7, .minor7, .halfDiminished7])
    }

    @Test("A harmonic minor seventh chords: V7 = E7, vii°7 = G#°7")
    func aHarmonicMinor() {
        checkSevenths(
            Key(tonic: .A, scale: .harmonicMinor),
            ["AmMaj7", "Bø7", "C+maj7", "Dm7", "E7", "Fmaj7", "G#°7"],
            ["A C E G#", "B D F A", "C E G# B", "D F A C", "E G# B D", "F A C E", "G# B D F"],
            [.minorMajor7, .halfDiminished7, .augmentedMajor7, .minor7, .dominant7, .major7, .diminished7])
        #expect(Key(tonic: .A, scale: .harmonicMinor).seventhChord(on: deg(7)).intervals == [0, 3, 6, 9])
    }

    @Test("C harmonic minor V7 and vii°7")
    func cHarmonicMinor() {
        let key = Key(tonic: .C, scale: .harmonicMinor)
        #expect(key.seventhChord(on: deg(5)).symbol == "G7")
        #expect(key.seventhChord(on: deg(5)).tones == pcs("G B D F"))
        #expect(key.seventhChord(on: deg(7)).symbol == "B°7")
        #expect(key.seventhChord(on: deg(7)).tones == pcs("B D F Ab"))
    }

    @Test("A melodic minor seventh chords")
    func aMelodicMinor() {
        checkSevenths(
            Key(tonic: .A, scale: .melodicMinor),
            ["AmMaj7", "Bm7", "C+maj7", "D7", "E7", "F#ø7", "G#ø7"],
            ["A C E G#", "B D F# A", "C E G# B", "D F# A C", "E G# B D", "F# A C E", "G# B D F#"],
            [.minorMajor7, .minor7, .augmentedMajor7, .dominant7, .dominant7, .halfDiminished7, .halfDiminished7])
    }

    @Test("C melodic minor seventh chords")
    func cMelodicMinor() {
        checkSevenths(
            Key(tonic: .C, scale: .melodicMinor),
            ["CmMaj7", "Dm7", "D#+maj7", "F7", "G7", "Aø7", "Bø7"],
            ["C Eb G B", "D F A C", "Eb G B D", "F A C Eb", "G B D F", "A C Eb G", "B D F A"],
            [.minorMajor7, .minor7, .augmentedMajor7, .dominant7, .dominant7, .halfDiminished7, .halfDiminished7])
    }

    @Test("triads in C major and A harmonic minor")
    func triads() {
        let cMajor = Key(tonic: .C, scale: .major)
        #expect(ScaleDegree.all.map { cMajor.triad(on: $0).symbol } == ["C", "Dm", "Em", "F", "G", "Am", "B°"])
        #expect(cMajor.triad(on: deg(5)).tones == pcs("G B D"))
        #expect(cMajor.triad(on: deg(7)).intervals == [0, 3, 6])
        let aHarm = Key(tonic: .A, scale: .harmonicMinor)
        #expect(ScaleDegree.all.map { aHarm.triad(on: $0).symbol } == ["Am", "B°", "C+", "Dm", "E", "F", "G#°"])
        #expect(aHarm.triad(on: deg(3)).quality == .augmented)
        #expect(cMajor.seventhChord(on: deg(2)).triad == cMajor.triad(on: deg(2)))
    }

    @Test("roman numerals", arguments: [
        (Key(tonic: .C, scale: .major), ["I", "ii", "iii", "IV", "V", "vi", "vii°"]),
        (Key(tonic: .Fs, scale: .major), ["I", "ii", "iii", "IV", "V", "vi", "vii°"]),
        (Key(tonic: .A, scale: .minor), ["i", "ii°", "III", "iv", "v", "VI", "VII"]),
        (Key(tonic: .D, scale: .dorian), ["i", "ii", "III", "IV", "v", "vi°", "VII"]),
        (Key(tonic: .E, scale: .phrygian), ["i", "II", "III", "iv", "v°", "VI", "vii"]),
        (Key(tonic: .F, scale: .lydian), ["I", "II", "iii", "iv°", "V", "vi", "vii"]),
        (Key(tonic: .G, scale: .mixolydian), ["I", "ii", "iii°", "IV", "v", "vi", "VII"]),
        (Key(tonic: .B, scale: .locrian), ["i°", "II", "iii", "iv", "V", "VI", "vii"]),
        (Key(tonic: .A, scale: .harmonicMinor), ["i", "ii°", "III+", "iv", "V", "VI", "vii°"]),
        (Key(tonic: .A, scale: .melodicMinor), ["i", "ii", "III+", "IV", "V", "vi°", "vii°"]),
    ])
    func romanNumerals(key: Key, numerals: [String]) {
        #expect(ScaleDegree.all.map { key.romanNumeral(of: $0) } == numerals)
    }

    @Test("quality classification and symbols", arguments: [
        ([0, 4, 7, 11], ChordQuality.major7, "maj7"), ([0, 3, 7, 10], .minor7, "m7"),
        ([0, 4, 7, 10], .dominant7, "7"), ([0, 3, 6, 10], .halfDiminished7, "ø7"),
        ([0, 3, 6, 9], .diminished7, "°7"), ([0, 3, 7, 11], .minorMajor7, "mMaj7"),
        ([0, 4, 8, 11], .augmentedMajor7, "+maj7"), ([0, 4, 7], .major, ""), ([0, 3, 7], .minor, "m"),
        ([0, 3, 6], .diminished, "°"), ([0, 4, 8], .augmented, "+"),
    ])
    func qualities(intervals: [Int], quality: ChordQuality, suffix: String) {
        let chord = Chord(root: .C, intervals: intervals)
        #expect(chord.quality == quality)
        #expect(chord.symbol == "C" + suffix)
        #expect(Chord(root: .C, quality: quality) == chord)
        #expect(chord.transposed(by: 2).symbol == "D" + suffix)
    }

    @Test("unknown shapes are other")
    func otherQuality() {
        #expect(Chord(root: .C, intervals: [0, 1, 7]).quality == .other)
        #expect(Chord(root: .C, intervals: [0, 5, 7, 10]).quality == .other)
        #expect(Chord(root: .C, intervals: [0, 1, 7]).symbol == "C(0,1,7)")
        #expect(ChordQuality(intervals: [0, 16, 19, 23]) == .major7)
    }
}
