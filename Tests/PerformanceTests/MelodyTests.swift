// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
import Theory
import Vocabulary
@testable import Performance

/// The original app's voices with a melody voice on top (monophonic, flute).
private func melodyVoices() -> VoiceTable {
    var rows = cMajorVoices().voices
    var melody = Voice(name: "Melody", channel: 6, tone: Tone.keys(named: "flute")!,
                       curve: VelocityCurve(quietSpeed: 0.5, loudSpeed: 10, exponent: 0.7), noteLength: 1.5, source: .melody)
    melody.isMonophonic = true
    rows.append(melody)
    return VoiceTable(rows)
}

private func melodyConfiguration(phraseBars: Int = 4, shape: MelodyShape = .places) -> PerformerConfiguration {
    var configuration = cMajorConfiguration()
    configuration.melody = MelodyPlan(phraseBars: phraseBars, shortest: 0.5, keys: 4, shape: shape)
    configuration.melodyBase = Pitch(midi: 72)
    return configuration
}

/// A band in C major at 120 bpm on an eighth-note grid with a melody, started.
private func melodyBand(phraseBars: Int = 4, shape: MelodyShape = .places) -> Band {
    var band = Band(configuration: melodyConfiguration(phraseBars: phraseBars, shape: shape), voices: melodyVoices(),
                    clock: Clock(tempo: 120, grid: Grid("1/8")!))
    band.start()
    return band
}

private let melody = VoiceID(rawValue: 2)

@Suite struct MelodyTests {
    /// `places`: a ball striking the rightmost key again and again draws the line up to that
    /// key's place and holds it there, the same note at most twice in a row (then a neighbour).
    @Test func placesDrawTheLineTowardTheKeyStruck() {
        var band = melodyBand(phraseBars: 8)
        for line in 0..<24 {
            band.play(Hit(time: Double(line) * 0.25 + 0.01, ball: 1, target: .key(number: 4, tone: 4), speed: 6))
        }
        band.run(through: 8)
        let notes = band.noteOns.filter { $0.voice == melody }.map(\.note)
        #expect(notes.count >= 20)
        // Key 4 of 4 is three scale steps above the register's middle (B5, index 6 of C5…A6): E6;
        // the line stays near it.
        #expect(notes.suffix(12).allSatisfy { (84...91).contains($0) }, "\(notes)")
        let intervals = zip(notes, notes.dropFirst()).map { $1 - $0 }
        #expect(intervals.contains(0), "repeats where the ball keeps to its key: \(intervals)")
        for index in 0..<(intervals.count - 1) { #expect(intervals[index] != 0 || intervals[index + 1] != 0, "three in a row") }
    }

    /// `places`: the leftmost key draws the line down, the rightmost up.
    @Test func leftIsLowRightIsHigh() {
        var low = melodyBand(phraseBars: 8), high = melodyBand(phraseBars: 8)
        for line in 0..<8 {
            low.play(Hit(time: Double(line) * 0.25 + 0.01, ball: 1, target: .key(number: 1, tone: 1), speed: 6))
            high.play(Hit(time: Double(line) * 0.25 + 0.01, ball: 1, target: .key(number: 4, tone: 4), speed: 6))
        }
        low.run(through: 3)
        high.run(through: 3)
        let lows = low.noteOns.filter { $0.voice == melody }.map(\.note)
        let highs = high.noteOns.filter { $0.voice == melody }.map(\.note)
        #expect(lows.last! <= 79 && highs.last! >= 84, "\(lows) \(highs)")
    }

    /// `chords`: on the strong beats the melody plays the struck key's chord tone (key 3 plays
    /// the fifth, G, of chord I); off the beat a chord tone a third or more away is reached by
    /// a passing step.
    @Test func chordsPlayTheStruckKeysTone() {
        var band = melodyBand(phraseBars: 8, shape: .chords)
        for line in 0..<12 {
            let tone = line % 2 == 0 ? 3 : 1
            band.play(Hit(time: Double(line) * 0.25 + 0.01, ball: 1, target: .key(number: tone, tone: tone), speed: 6))
        }
        band.run(through: 4)
        let ons = band.noteOns.filter { $0.voice == melody }
        let onBeat = ons.filter { (($0.time * 1000).rounded() / 1000).truncatingRemainder(dividingBy: 1) == 0 }
        #expect(!onBeat.isEmpty)
        for note in onBeat { #expect(note.note % 12 == 7, "\(note.note) at \(note.time) s") }
        let intervals = zip(ons, ons.dropFirst()).map { abs($1.note - $0.note) }
        #expect(intervals.allSatisfy { $0 <= 7 }, "\(intervals)")
    }

    /// `arpeggio` against `chords`, from E5 in C major (the notes C5…A6, chord I): off the beat,
    /// the struck key's chord tone a third away (G5 above, C5 below) is played by `arpeggio` and
    /// approached by a passing step by `chords`; a fourth away (A5) both approach by a step; the
    /// same class again is the same note; on a strong beat both play the chord tone.
    @Test(arguments: [
        (7, false, 79, 77),   // G: a third up. arpeggio G5, chords F5
        (0, false, 72, 74),   // C: a third down (C5 nearer than C6). arpeggio C5, chords D5
        (9, false, 77, 77),   // A: a fourth up. both F5
        (4, false, 76, 76),   // E again: both E5
        (7, true, 79, 79),    // G on the beat: both G5
        (9, true, 79, 79),    // A on the beat: bent onto the chord, G5
    ])
    func arpeggioLeapsAThirdOffTheBeatWhereChordsPass(toneClass: Int, strong: Bool, arpeggio: Int, chords: Int) {
        let notes = Array(stride(from: 72, through: 93, by: 1)).filter { [0, 2, 4, 5, 7, 9, 11].contains($0 % 12) }
        var played: [MelodyShape: Int] = [:]
        for shape in [MelodyShape.arpeggio, .chords] {
            var shaper = MelodyShaper(plan: MelodyPlan(phraseBars: 8, shortest: 0.5, keys: 4, shape: shape))
            let strike = MelodyShaper.Strike(key: 1, toneClass: PitchClass(toneClass), strong: strong, bar: 0, barInPhrase: 0)
            played[shape] = notes[shaper.target(for: strike, from: 2, notes: notes, centre: 7, mask: 0b1001_0001)]
        }
        #expect(played[.arpeggio] == arpeggio && played[.chords] == chords, "\(played)")
    }

    /// `answer`: the bar after a call moves by the call's own scale steps, one a strike, whatever
    /// keys its strikes fall on (off the strong beats, where no chord tone bends them).
    @Test func answerRepeatsTheCallsSteps() {
        var shaper = MelodyShaper(plan: MelodyPlan(phraseBars: 4, shortest: 0.5, keys: 4, shape: .answer))
        let notes = Array(stride(from: 60, through: 84, by: 1)).filter { [0, 2, 4, 5, 7, 9, 11].contains($0 % 12) }
        var pointer = 7
        var calls: [Int] = [], answers: [Int] = []
        for (bar, keys) in [(0, [4, 1, 1, 3]), (1, [2, 2, 2, 2])] {
            for key in keys {
                let strike = MelodyShaper.Strike(key: key, toneClass: PitchClass(0), strong: false, bar: bar, barInPhrase: bar)
                let target = shaper.target(for: strike, from: pointer, notes: notes, centre: 7, mask: 0xFFF)
                shaper.played(target - pointer)
                if bar == 0 { calls.append(target - pointer) } else { answers.append(target - pointer) }
                pointer = target
            }
        }
        #expect(answers == calls, "call \(calls), answer \(answers)")
        #expect(Set(calls).count > 1)
    }

    /// `lead`: in a pair of bars only the ball that struck first moves the melody; the same key
    /// struck again by it is the same note.
    @Test func leadHearsOneBall() {
        var band = melodyBand(phraseBars: 8, shape: .lead)
        for line in 0..<14 {
            let ball = line % 2 == 0 ? 1 : 2
            band.play(Hit(time: Double(line) * 0.25 + 0.01, ball: ball, target: .key(number: ball == 1 ? 3 : 1, tone: 1), speed: 6))
        }
        band.run(through: 4)
        let ons = band.noteOns.filter { $0.voice == melody }
        #expect(ons.count >= 4)
        #expect(ons.allSatisfy { $0.ball == 1 })
        #expect(ons.dropFirst().first?.note == ons.first?.note, "ball 1 keeps to key 3: \(ons.map(\.note))")
    }

    /// Rhythm: a strike alone off the beat waits for the next beat; strikes on successive lines
    /// make a run on successive eighths; a strike too long after its line adds nothing.
    @Test func aLoneOffbeatWaitsForTheBeat() {
        var band = melodyBand(phraseBars: 8)
        band.play(Hit(time: 0.01, ball: 1, target: .key(number: 3, tone: 3), speed: 6))   // line 0.25, alone off the beat: 0.5
        band.play(Hit(time: 0.51, ball: 1, target: .key(number: 2, tone: 2), speed: 6))   // line 0.75, right after: a run
        band.play(Hit(time: 0.52, ball: 2, target: .key(number: 4, tone: 4), speed: 6))   // 0.75 taken: 1.0
        band.play(Hit(time: 0.53, ball: 3, target: .key(number: 1, tone: 1), speed: 6))   // 1.25, half a beat late
        band.play(Hit(time: 0.54, ball: 4, target: .key(number: 2, tone: 2), speed: 6))   // 1.5 would be too late: nothing
        band.run(through: 3)
        let times = band.noteOns.filter { $0.voice == melody }.map(\.time)
        #expect(times.map { ($0 * 1000).rounded() / 1000 } == [0.5, 0.75, 1.0, 1.25], "\(times)")
    }

    /// Every note on a strong beat (beats 1 and 3 of 4/4) is a tone of the chord playing (I: C E G B).
    @Test func strongBeatsLandOnChordTones() {
        var band = melodyBand()
        for line in 0..<24 {
            band.play(Hit(time: Double(line) * 0.25 + 0.01, ball: 1 + line % 3, target: .key(number: 1 + line % 4, tone: 1), speed: 6))
        }
        let strong = band.noteOns.filter { note in
            note.voice == melody && [0.0, 1.0].contains((note.time.truncatingRemainder(dividingBy: 2) * 1000).rounded() / 1000)
        }
        #expect(!strong.isEmpty)
        for note in strong { #expect([0, 4, 7, 11].contains(note.note % 12), "\(note.note) at \(note.time) s") }
    }

    /// The phrase's last bar walks home: the melody sounding at the end of a two-bar phrase is
    /// the tonic, and once home in that bar, later strikes there add nothing (the tonic rests).
    @Test func phraseEndsOnTheTonic() {
        var band = melodyBand(phraseBars: 2)
        for line in 0..<16 {
            band.play(Hit(time: Double(line) * 0.25 + 0.01, ball: 1, target: .key(number: 2 + line % 2, tone: 1), speed: 6))
        }
        let phrase = band.noteOns.filter { $0.voice == melody && $0.time < 4 - 1e-9 }
        #expect(phrase.last.map { $0.note % 12 } == 0, "\(phrase.map(\.note))")
        let lastBar = phrase.filter { $0.time >= 2 - 1e-9 }
        if let home = lastBar.firstIndex(where: { $0.note % 12 == 0 }) { #expect(home == lastBar.count - 1) }
    }

    /// One note at a time: each melody note ends the one before at its start.
    @Test func isMonophonic() {
        var band = melodyBand()
        for line in 0..<8 {
            band.play(Hit(time: Double(line) * 0.25 + 0.01, ball: 1, target: .key(number: 2, tone: 1), speed: 6))
        }
        band.finish(at: 4)
        var sounding = 0, most = 0
        for event in band.events where event.voice == melody {
            sounding += event.kind == .on ? 1 : -1
            most = max(most, sounding)
        }
        #expect(most == 1)
        #expect(sounding == 0)
    }

    /// At most one melody note every eighth note, however many strikes fall between.
    @Test func keepsItsPace() {
        var band = melodyBand()
        for index in 0..<40 {
            band.play(Hit(time: Double(index) * 0.05 + 0.01, ball: 1 + index % 4, target: .key(number: 2, tone: 1), speed: 6))
        }
        let times = band.noteOns.filter { $0.voice == melody }.map(\.time)
        for (a, b) in zip(times, times.dropFirst()) { #expect(b - a >= 0.25 - 1e-9) }
    }

    /// A strike too soft to sound moves no melody.
    @Test func softStrikesMoveNothing() {
        var band = melodyBand()
        band.play(Hit(time: 0.01, ball: 1, target: .key(number: 2, tone: 1), speed: 0.1))
        #expect(band.noteOns.filter { $0.voice == melody }.isEmpty)
    }
}
