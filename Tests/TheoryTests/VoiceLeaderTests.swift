// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
@testable import Theory

/// A small deterministic generator for test progressions (SplitMix64).
struct TestRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// The least total movement between two voicings over all matchings of their voices (equal sizes).
func matchedMovement(_ a: [Int], _ b: [Int]) -> Int {
    func permutations(_ items: [Int]) -> [[Int]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { i in
            permutations(Array(items[..<i] + items[(i + 1)...])).map { [items[i]] + $0 }
        }
    }
    return permutations(b).map { VoiceLeader.movement(from: a, to: $0) }.min()!
}

@Suite("Voice leading")
struct VoiceLeaderTests {
    @Test("common tones stay and the others move by step: C → Am → F → G7 → C")
    func commonTones() {
        var leader = VoiceLeader(register: 60...79)
        let c = Key(parsing: "C major")!
        let first = leader.voice(c.triad(on: ScaleDegree(1)!)).map(\.midi)
        #expect(first == [60, 64, 67])
        let am = leader.voice(c.triad(on: ScaleDegree(6)!)).map(\.midi)
        #expect(am.sorted() == [60, 64, 69])
        let f = leader.voice(c.triad(on: ScaleDegree(4)!)).map(\.midi)
        #expect(f.sorted() == [60, 65, 69])
        #expect(VoiceLeader.movement(from: [60, 64, 69], to: f.sorted()) == 1)
    }

    @Test("on random progressions smooth moves less than folded, and never leaves the register", arguments: [
        (Scale.major, 48...67), (.minor, 55...74), (.dorian, 60...84), (.harmonicMinor, 52...71),
    ])
    func smoothBeatsFolded(scale: Scale, register: ClosedRange<Int>) {
        var random = TestRandom(state: UInt64(register.lowerBound) * 7919)
        for tonic in [0, 3, 6, 10] {
            let key = Key(tonic: PitchClass(tonic), scale: scale)
            var leader = VoiceLeader(register: register)
            var smoothTotal = 0, foldedTotal = 0, changes = 0
            var lastSmooth: [Int] = [], lastFolded: [Int] = []
            for _ in 0..<200 {
                let size = [3, 4, 4, 5][random.below(4)]
                let chord = key.chord(on: ScaleDegree(wrappingIndex: random.below(7)), toneCount: size)
                let smooth = leader.voice(chord).map(\.midi)
                let folded = Voicing.folded.pitches(of: chord, base: Pitch(midi: register.lowerBound)).map(\.midi)
                #expect(smooth.allSatisfy { register.contains($0) }, "\(smooth) outside \(register)")
                #expect(smooth.map { PitchClass($0) } == chord.tones)
                if lastSmooth.count == smooth.count && lastFolded.count == folded.count {
                    smoothTotal += matchedMovement(lastSmooth, smooth)
                    foldedTotal += matchedMovement(lastFolded, folded)
                    changes += 1
                }
                lastSmooth = smooth
                lastFolded = folded
            }
            #expect(changes > 20)
            #expect(smoothTotal < foldedTotal, "\(key): smooth \(smoothTotal) vs folded \(foldedTotal) over \(changes) changes")
        }
    }

    @Test("changing the number of tones shares or drops voices")
    func sizes() {
        var leader = VoiceLeader(register: 60...80)
        let c = Key(parsing: "C major")!
        _ = leader.voice(c.triad(on: ScaleDegree(1)!))
        let g7 = leader.voice(c.seventhChord(on: ScaleDegree(5)!)).map(\.midi)
        #expect(g7.map { PitchClass($0) } == [.G, .B, .D, .F])
        #expect(Set(g7).count == 4)
        let c2 = leader.voice(c.triad(on: ScaleDegree(1)!)).map(\.midi)
        #expect(c2.allSatisfy { (60...80).contains($0) })
        #expect(leader.previous == c2)
    }

    @Test("lead(to:) reusing its buffers voices as voice(_:) and smooth(from:to:) do, through size changes and resets")
    func reusedBuffers() {
        let key = Key(parsing: "D dorian")!
        var random = TestRandom(state: 42)
        var reusing = VoiceLeader(register: 50...70), voicing = VoiceLeader(register: 50...70)
        for index in 0..<300 {
            if index == 150 { reusing.reset(); voicing.reset() }
            let chord = key.chord(on: ScaleDegree(wrappingIndex: random.below(7)), toneCount: [3, 4, 5, 7][random.below(4)])
            let before = reusing.previous
            reusing.lead(to: chord)
            let expected = before.isEmpty ? reusing.initial(chord) : VoiceLeader.smooth(from: before, to: chord, register: 50...70)
            #expect(reusing.previous == expected)
            // `voice(_:)` leads in place too: it must give what a fresh search gives.
            #expect(voicing.voice(chord).map(\.midi) == expected)
        }
    }

    @Test("nearest note of a pitch class within a register")
    func nearest() {
        #expect(VoiceLeader.nearest(.E, to: 62, in: 48...72) == 64)
        #expect(VoiceLeader.nearest(.C, to: 62, in: 48...72) == 60)
        #expect(VoiceLeader.nearest(.Fs, to: 60, in: 48...72) == 54)
        #expect(VoiceLeader.nearest(.B, to: 49, in: 50...72) == 59)
        #expect(VoiceLeader.nearest(.C, to: 75, in: 48...72) == 72)
    }
}
