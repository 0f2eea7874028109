// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
import Theory
import Vocabulary
@testable import Performance

/// The harmony's changes as the scheduler delivers them: when the chord takes over, never at
/// the bass hit when the session waits for a beat or bar line; one per change.
@Suite struct HarmonyEventTests {
    static func band(_ change: ChordChange) -> Band {
        var configuration = cMajorConfiguration()
        configuration.chordChange = change
        var band = Band(configuration: configuration, clock: Clock(tempo: 120, grid: Grid("1/8")!))
        band.start()
        return band
    }

    @Test func theOpeningChordIsOneAtZero() {
        let band = Self.band(.hit)
        #expect(band.chords.map(\.time) == [0] && band.chords.map(\.degree) == [1])
        #expect(band.performer.chordEvent(degree: 1, at: 0).name == "Cmaj7")
        #expect(band.performer.chordEvent(degree: 2, at: 0).numeral == "ii")
    }

    @Test func underBarTheChordTakesOverOnTheBarLineAndALaterHitForTheLineReplacesIt() {
        var band = Self.band(.bar)
        band.play(Hit(time: 0.9, ball: 0, target: .degree(4), speed: 2))
        band.play(Hit(time: 1.2, ball: 0, target: .degree(5), speed: 2))   // same bar line: V, not IV
        band.run(through: 2.5)
        #expect(band.chords.map(\.time) == [0, 2.0] && band.chords.map(\.degree) == [1, 5])
        // A hit back to the chord playing before the line: no change at all.
        band.play(Hit(time: 2.6, ball: 0, target: .degree(4), speed: 2))
        band.play(Hit(time: 2.7, ball: 0, target: .degree(5), speed: 2))
        band.run(through: 4.5)
        #expect(band.chords.count == 2, "\(band.chords.map { ($0.time, $0.degree) })")
    }

    @Test func underHitTheChordTakesOverWhenItsRootSounds() {
        var band = Self.band(.hit)
        band.play(Hit(time: 0.3, ball: 0, target: .degree(6), speed: 2))   // on the 1/8 grid: 0.5 s
        band.run(through: 1)
        let root = band.noteOns.last { $0.voice == .bass }
        #expect(band.chords.last?.time == 0.5 && band.chords.last?.degree == 6 && root?.time == 0.5)
        // The same degree again is no change.
        band.play(Hit(time: 1.1, ball: 0, target: .degree(6), speed: 2))
        band.run(through: 2)
        #expect(band.chords.count == 2)
    }

    @Test func aKeyChangeRenamesTheChordPlaying() {
        var band = Self.band(.hit)
        var d = cMajorConfiguration()
        d.key = Key(tonic: PitchClass(2), scale: .major)
        d.chords = ScaleDegree.all.map { d.key.scaleChord(on: $0, toneCount: 4) }
        band.performer.changeKey(to: d, at: 0.5, scheduler: &band.scheduler)
        band.run(through: 1)
        #expect(band.chords.map(\.time) == [0, 0.5] && band.chords.map(\.degree) == [1, 1])
        #expect(band.performer.chordEvent(degree: 1, at: 0.5).name == "Dmaj7")
    }
}
