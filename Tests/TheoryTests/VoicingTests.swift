// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
@testable import Theory

@Suite("Voicing")
struct VoicingTests {
    let cMajor = Key(tonic: .C, scale: .major)
    let c4 = Pitch(midi: 60)

    /// MIDI numbers of the seventh chord on `degree` of C major voiced from C4.
    func midis(_ voicing: Voicing, _ degree: Int, key: Key? = nil, base: Pitch? = nil) -> [Int] {
        let key = key ?? cMajor
        return voicing.pitches(of: key.seventhChord(on: deg(degree)), base: base ?? c4).map(\.midi)
    }

    @Test("cases and raw values")
    func cases() {
        #expect(Voicing.allCases == [.folded, .close, .open, .smooth])
        #expect(Voicing(rawValue: "folded") == .folded)
        #expect(Voicing(rawValue: "drop2") == nil)
    }

    @Test("folded voicing matches the original app")
    func folded() {
        #expect(midis(.folded, 1) == [60, 64, 67, 71])  // C4 E4 G4 B4
        #expect(midis(.folded, 5) == [67, 71, 62, 77])  // G4 B4 D4 F5
        #expect(midis(.folded, 4) == [65, 69, 60, 76])  // F4 A4 C4 E5
        #expect(midis(.folded, 7) == [71, 62, 65, 81])  // B4 D4 F4 A5
        #expect(midis(.folded, 2) == [62, 65, 69, 72])  // D4 F4 A4 C5
        #expect(midis(.folded, 3) == [64, 67, 71, 62 + 12])  // E4 G4 B4 D5
        #expect(midis(.folded, 6) == [69, 60, 64, 67 + 12])  // A4 C4 E4 G5
        let names = Voicing.folded.pitches(of: cMajor.seventhChord(on: deg(5)), base: c4).map(\.name)
        #expect(names == ["G4", "B4", "D4", "F5"])
    }

    @Test("folded voicing from a non-C base")
    func foldedOtherBase() {
        // Base E4 (64): C folds up to C5 (72), E and G stay in E4…D#5, 7th = C5 + 11.
        #expect(midis(.folded, 1, base: Pitch(midi: 64)) == [72, 64, 67, 83])
    }

    @Test("folded voicing keeps root, 3rd and 5th within the base octave")
    func foldedRange() {
        for scale in Scale.all {
            for tonic in PitchClass.allCases {
                let key = Key(tonic: tonic, scale: scale)
                for degree in ScaleDegree.all {
                    for baseMIDI in [36, 48, 53, 60] {
                        let chord = key.seventhChord(on: degree)
                        let pitches = Voicing.folded.pitches(of: chord, base: Pitch(midi: baseMIDI))
                        #expect(pitches.map(\.pitchClass) == chord.tones)
                        #expect(pitches.prefix(3).allSatisfy { (baseMIDI..<baseMIDI + 12).contains($0.midi) })
                        #expect(pitches[3].midi > pitches[0].midi)
                    }
                }
            }
        }
    }

    @Test("close voicing stacks in root position")
    func close() {
        #expect(midis(.close, 1) == [60, 64, 67, 71])  // C4 E4 G4 B4
        #expect(midis(.close, 5) == [67, 71, 74, 77])  // G4 B4 D5 F5
        #expect(midis(.close, 7) == [71, 74, 77, 81])  // B4 D5 F5 A5
        #expect(midis(.close, 4) == [65, 69, 72, 76])  // F4 A4 C5 E5
    }

    @Test("open voicing raises the 3rd and 7th an octave")
    func open() {
        #expect(midis(.open, 1) == [60, 76, 67, 83])  // C4 E5 G4 B5
        #expect(midis(.open, 5) == [67, 83, 74, 89])  // G4 B5 D5 F6
        #expect(midis(.open, 2) == [62, 77, 69, 84])  // D4 F5 A4 C6
        for degree in 1...7 {
            let m = midis(.open, degree)
            #expect(m[0] < m[2] && m[2] < m[1] && m[1] < m[3], "degree \(degree): \(m)")
        }
    }

    @Test("voicings of triads")
    func triadVoicings() {
        let g = cMajor.triad(on: deg(5))
        #expect(Voicing.folded.pitches(of: g, base: c4).map(\.midi) == [67, 71, 62])
        #expect(Voicing.close.pitches(of: g, base: c4).map(\.midi) == [67, 71, 74])
        #expect(Voicing.open.pitches(of: g, base: c4).map(\.midi) == [67, 83, 74])
    }

    @Test("key convenience for seventh chord pitches")
    func keyConvenience() {
        #expect(cMajor.seventhChordPitches(on: deg(5), voicing: .folded, base: c4).map(\.midi) == [67, 71, 62, 77])
        let aHarm = Key(tonic: .A, scale: .harmonicMinor)
        // E7 from base A3 (57): E4 G#3 B3 D5.
        #expect(aHarm.seventhChordPitches(on: deg(5), voicing: .folded, base: Pitch(midi: 57)).map(\.midi)
            == [64, 56 + 12, 59, 74])
    }
}
