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

private func melodyConfiguration(phraseBars: Int = 4) -> PerformerConfiguration {
    var configuration = cMajorConfiguration()
    configuration.melody = MelodyPlan(phraseBars: phraseBars, shortest: 0.5, keys: 4)
    configuration.melodyBase = Pitch(midi: 72)
    return configuration
}

/// A band in C major at 120 bpm on an eighth-note grid with a melody, started.
private func melodyBand(phraseBars: Int = 4) -> Band {
    var band = Band(configuration: melodyConfiguration(phraseBars: phraseBars), voices: melodyVoices(),
                    clock: Clock(tempo: 120, grid: Grid("1/8")!))
    band.start()
    return band
}

private let melody = VoiceID(rawValue: 2)

@Suite struct MelodyTests {
    /// Strikes on keys 2 and 3 (steps with the phrase's way) every eighth note of a bar that
    /// is neither the phrase's last: the melody moves, mostly by step, and never repeats a note.
    @Test func movesByStepAndNeverRepeats() {
        var band = melodyBand()
        for line in 0..<14 {
            band.play(Hit(time: Double(line) * 0.25 + 0.01, ball: 1, target: .key(number: 2 + line % 2, tone: 1), speed: 6))
        }
        let notes = band.noteOns.filter { $0.voice == melody }.map(\.note)
        #expect(notes.count >= 12)
        let intervals = zip(notes, notes.dropFirst()).map { abs($1 - $0) }
        #expect(!intervals.contains(0))
        let steps = intervals.filter { (1...2).contains($0) }.count
        #expect(Double(steps) / Double(intervals.count) >= 0.6, "intervals \(intervals)")
        // Rising in bar 1 (the phrase's first), falling in bar 2.
        let firstBar = band.noteOns.filter { $0.voice == melody && $0.time < 2 - 1e-9 }.map(\.note)
        #expect(firstBar.last! > firstBar.first!)
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
