// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIFile
import Testing
@testable import Analysis

/// Recurring bars and four-bar spans (`Repetition`), on bars given as sets of (sixteenth, pitch).
@Suite struct RepetitionTests {
    /// A bar of `notes` pitches on sixteenths 0, 4, 8…
    func bar(_ notes: [Int]) -> Set<Int> { Set(notes.enumerated().map { $0.offset * 4 * 128 + $0.element }) }

    @Test func aBarRecursWhenEachSharesEightyPerCentOfTheOther() {
        let a = bar([60, 62, 64, 65, 67])
        var fourOfFive = a
        fourOfFive.remove(a.first!)
        let r = Repetition(barTicks: 1920, bars: [a, bar([70, 71, 72, 73, 74]), fourOfFive, bar([60]), []])
        // 4 of 5 shared: 80 % of the fuller bar. One shared of five: not. An empty bar never.
        #expect(r.recurringBars == [Repetition.Match(bar: 3, earlier: 1)])
        #expect(r.bars == 5 && r.spans == 2)
    }

    @Test func spansAndPassages() {
        let phrase = (0..<4).map { bar([60 + $0, 64 + $0, 67 + $0]) }
        let other = (0..<3).map { bar([50 + $0, 55 + $0]) }
        // bars 1–4 the phrase, 5–7 other, 8–11 the phrase again
        let r = Repetition(barTicks: 1920, bars: phrase + other + phrase)
        #expect(r.recurringBars.map(\.bar) == [8, 9, 10, 11])
        #expect(r.recurringSpans == [Repetition.Match(bar: 8, earlier: 1)])
        #expect(r.passages == [Repetition.Passage(start: 8, end: 11, earlier: 1)])
        #expect(abs(r.spanFraction - 1.0 / 8) < 1e-12)
    }

    @Test func barsFollowTheTimeSignature() {
        // 3/4 at 96 ticks per quarter: bars of 288 ticks; the same two notes in bars 1 and 3.
        let signature = MIDIEvent(tick: 0, message: .timeSignature(numerator: 3, denominatorPowerOfTwo: 2,
                                                                   clocksPerClick: 24, thirtySecondsPerQuarter: 8))
        let contents = MIDIFileContents(format: 0, ticksPerQuarter: 96, tracks: [[signature]])
        func note(_ pitch: Int, at start: UInt64, channel: Int = 0) -> NoteSpan {
            NoteSpan(track: 0, channel: channel, note: pitch, velocity: 90, start: start, end: start + 48)
        }
        let first: [NoteSpan] = [note(60, at: 0), note(64, at: 96)]
        let third: [NoteSpan] = [note(60, at: 576), note(64, at: 672)]
        let notes = first + [note(36, at: 288, channel: 9)] + third   // the drum in bar 2 is aside
        let r = Repetition.find(notes, contents: contents)
        #expect(r.barTicks == 288)
        #expect(r.bars == 3)
        #expect(r.recurringBars == [Repetition.Match(bar: 3, earlier: 1)])
    }
}
