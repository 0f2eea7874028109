// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
@testable import Theory

@Suite("Chord identification and key estimation")
struct IdentificationTests {
    func name(_ pitches: [Int], in keyText: String = "C major") -> String? {
        ChordIdentification.identify(pitches).map { $0.symbol(in: Key(parsing: keyText)!) }
    }

    @Test("root position, inversions and slash bass")
    func inversions() {
        #expect(name([48, 64, 67, 72]) == "C")
        #expect(ChordIdentification.identify([48, 64, 67])?.inversion == 0)
        #expect(name([52, 60, 67]) == "C/E")
        #expect(ChordIdentification.identify([52, 60, 67])?.inversionName == "1st inversion")
        #expect(name([55, 60, 64]) == "C/G")
        #expect(name([53, 55, 59, 62]) == "G7/F")
        #expect(ChordIdentification.identify([53, 55, 59, 62])?.inversion == 3)
        #expect(name([50, 60, 64, 67]) == "C/D")
        #expect(ChordIdentification.identify([50, 60, 64, 67])?.inversion == nil)
        #expect(ChordIdentification.identify([50, 60, 64, 67])?.inversionName == "slash bass")
        #expect(name([50, 60, 62, 64, 67]) == "Cadd9/D")
        #expect(name([53, 55, 59, 62, 67]) == "G7/F")
        #expect(name([48, 62, 64, 67]) == "Cadd9")
    }

    @Test("every catalog quality on every root is named back in root position")
    func catalog() {
        for quality in ChordQuality.allCases where quality != .other {
            for root in 0..<12 {
                let chord = Chord(root: PitchClass(root), quality: quality)
                let pitches = chord.intervals.map { 48 + root + $0 }
                let found = ChordIdentification.identify(pitches)
                if [.augmented, .diminished7].contains(quality) || quality == .suspended2 || quality == .suspended4 {
                    // Symmetric or ambiguous shapes: the bass decides the root.
                    #expect(found?.chord.root == PitchClass(root), "\(quality) on \(root)")
                } else {
                    #expect(found?.chord == chord, "\(quality) on \(root): \(String(describing: found?.chord))")
                }
                #expect(found?.inversion == 0)
            }
        }
    }

    @Test("sixth chords versus minor sevenths: the bass decides")
    func sixths() {
        #expect(name([48, 64, 67, 69]) == "C6")
        #expect(name([57, 60, 64, 67]) == "Am7")
        #expect(name([48, 55, 58, 64]) == "C7")
        #expect(name([48, 58, 64]) == "C7")
    }

    @Test("chords are spelled for the key")
    func spelled() {
        #expect(name([51, 55, 58, 62], in: "Eb major") == "E♭maj7")
        #expect(name([58, 62, 65, 68], in: "Eb major") == "B♭7")
        #expect(name([54, 58, 61, 65], in: "F# major") == "F♯maj7")
        #expect(name([56, 59, 62, 65], in: "A harmonic minor") == "G♯°7")
    }

    @Test("fewer than three pitch classes is no chord")
    func tooFew() {
        #expect(ChordIdentification.identify([]) == nil)
        #expect(ChordIdentification.identify([60, 72, 64]) == nil)
    }

    func durations(_ key: Key, weights: [Double] = [4, 2, 3, 2, 3, 2, 1]) -> [Double] {
        var d = [Double](repeating: 0, count: 12)
        for (degree, weight) in zip(ScaleDegree.all, weights) { d[key.pitchClass(of: degree).value] += weight }
        return d
    }

    @Test("Krumhansl–Schmuckler finds the key of a weighted scale", arguments: [
        "C major", "Eb major", "F# major", "A minor", "C# minor", "Bb minor",
    ])
    func keyEstimate(text: String) {
        let key = Key(parsing: text)!
        let estimate = KeyEstimate.estimate(durations: durations(key))!
        #expect(estimate.key.tonic == key.tonic)
        #expect(estimate.key.scale == key.scale)
        #expect(estimate.correlation > 0.8)
        #expect(estimate.margin > 0)
        #expect(estimate.key.description == Key(tonic: key.tonic, scale: key.scale).description)
    }

    @Test("a known correlation: C major profile against itself is 1")
    func exactProfile() {
        let estimate = KeyEstimate.estimate(durations: KeyEstimate.majorProfile)!
        #expect(estimate.key == Key(tonic: .C, scale: .major))
        #expect(abs(estimate.correlation - 1) < 1e-12)
        #expect(KeyEstimate.estimate(durations: [Double](repeating: 1, count: 12)) == nil)
    }
}
