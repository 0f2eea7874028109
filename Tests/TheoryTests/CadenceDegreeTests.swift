// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
import Theory

/// `Key.cadenceDegree`: the chord a cadence comes home from, by key and by the bouncers there.
@Suite struct CadenceDegreeTests {
    func degree(_ tonic: Int, _ scale: Scale, without missing: Set<Int> = []) -> Int? {
        let key = Key(tonic: PitchClass(tonic), scale: scale)
        let chords = ScaleDegree.all.map { key.scaleChord(on: $0, toneCount: 4) }
        return key.cadenceDegree(chords: chords, available: { key.scale.contains(ScaleDegree($0)!) && !missing.contains($0) })
    }

    @Test func aMajorKeyComesHomeFromItsDominantElseItsLeadingToneChord() {
        #expect(degree(0, .major) == 5)
        #expect(degree(0, .major, without: [5]) == 7, "vii° when V is switched off")
        #expect(degree(0, .major, without: [5, 7]) == nil)
        #expect(degree(9, .harmonicMinor) == 5, "harmonic minor's V is major")
    }

    @Test func aModeComesHomeFromItsOwnCadenceChord() {
        #expect(degree(4, .mixolydian) == 7, "♭VII")
        #expect(degree(2, .dorian) == 7, "♭VII before v")
        #expect(degree(2, .dorian, without: [7]) == 5, "then v")
        #expect(degree(2, .minor) == 7)
        #expect(degree(4, .phrygian) == 2, "♭II")
        #expect(degree(5, .lydian) == 5, "V, a major chord in lydian")
        #expect(degree(5, .lydian, without: [5]) == 2, "then II")
        #expect(degree(7, .majorPentatonic) == 5)
    }

    @Test func aBorrowedDominantCountsWhereverItIs() {
        let key = Key(tonic: PitchClass(2), scale: .dorian)
        var chords = ScaleDegree.all.map { key.scaleChord(on: $0, toneCount: 4) }
        chords[4] = Chord(root: PitchClass(9), intervals: [0, 4, 7, 10])   // V7 (A7) in D dorian
        #expect(key.cadenceDegree(chords: chords, available: { _ in true }) == 5, "a major V before the mode's ♭VII")
    }
}
