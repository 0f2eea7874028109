// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Performance
import Physics

/// A session's form, resolved from the preset's `form` block: sections of `bars` bars each,
/// named by letters; a letter heard before returns to the world as its first section began.
public struct FormPlan: Sendable, Hashable {
    /// Bars in a phrase (one section).
    public var bars: Int
    /// Section letters in order, numbered by first appearance (`"AABA"` → 0, 0, 1, 0).
    public var sections: [Int]
    /// The letters as written, for messages.
    public var letters: String
    /// 0…1: the nudge of a returning section.
    public var variation: Double
    /// Bars of the second-time ending (0: none).
    public var endings = 0
    /// Semitones from the session's key of each letter's sections, by letter index.
    public var transpositions: [Int] = []
    /// Whether every section's last bar is on the tonic chord (a cadence: the bass goes home).
    public var cadence = false
    /// Semitones each time through the tune moves it from time `travelFrom` on (`semitones(at:)`).
    public var travel = 0
    /// The time through the tune (from 1) that first travels: 3, the third.
    public var travelFrom = 3
    /// With `cadence`: bars before a section's last bar at which the bass ball turns toward the
    /// chord that leads home (at most the section's bars − 2).
    public var approach = 3
    /// What a second time puts back from the second time through the tune on (`hasNewChanges(_:)`).
    public var secondTime = SecondTime.same

    /// What a second time puts back (`form.secondTime`).
    public enum SecondTime: String, Sendable, Hashable {
        /// All of it.
        case same
        /// All of it, then the bass ball sent off in a new direction: new changes.
        case newChanges = "new-changes"
    }

    /// The plan of a form string; nil when it has no section.
    public init?(bars: Int, letters: String, variation: Double) {
        guard bars > 0, !letters.isEmpty else { return nil }
        var seen: [Character: Int] = [:]
        sections = letters.map { letter in
            if let index = seen[letter] { return index }
            seen[letter] = seen.count
            return seen.count - 1
        }
        self.bars = bars
        self.letters = letters
        self.variation = variation
        transpositions = Array(repeating: 0, count: seen.count)
    }

    /// The bar (from 0) of a returning section at which its balls are nudged, or nil with
    /// `variation` 0: the section replays exactly up to that bar line and drifts after it. The
    /// physics is chaotic, so even a small nudge soon changes every bar: the variation is the
    /// share of the section left to drift, `variation` × `bars` rounded up (at least one bar).
    public var nudgeBar: Int? {
        guard variation > 0 else { return nil }
        let drifting = Int((Double(bars) * variation - 1e-9).rounded(.up))
        return max(0, bars - max(1, drifting))
    }

    /// The bar (from 0) where the second of two sections of one letter in a row (`"AA"`) leaves
    /// the first for its second-time ending, or nil without endings (all of it with `endings`
    /// ≥ `bars`).
    public var endingBar: Int? { endings > 0 ? max(0, bars - endings) : nil }

    /// Index (in `sections`, round and round) of the section starting at section line `number`.
    public func section(_ number: Int) -> Int { sections[number % sections.count] }

    /// Semitones from the session's key of the section starting at section line `number`: its
    /// letter's (`transpositions`), moved by `travel` for each time through the tune from time
    /// `travelFrom` on (the move taken as the nearest, −6…5 semitones).
    public func semitones(at number: Int) -> Int {
        let round = number / sections.count
        guard travel != 0, round >= travelFrom - 1 else { return transpositions[section(number)] }
        let move = ((((round - travelFrom + 2) * travel + 6) % 12) + 12) % 12 - 6
        return transpositions[section(number)] + move
    }

    /// Every transposition `semitones(at:)` gives, the letters' own first.
    public var allSemitones: [Int] {
        var all: [Int] = []
        for number in 0..<(sections.count * (travel == 0 ? 1 : travelFrom + 11)) where !all.contains(semitones(at: number)) {
            all.append(semitones(at: number))
        }
        return all
    }

    /// Whether the section starting at section line `number` is a second time: the second of two
    /// sections of one letter in a row.
    public func isSecondTime(_ number: Int) -> Bool { number > 0 && section(number - 1) == section(number) }

    /// Whether the return at section line `number` sends the bass ball off anew (new changes):
    /// with `secondTime` `new-changes`, a second time's from the second time through the sections on.
    public func hasNewChanges(_ number: Int) -> Bool {
        secondTime == .newChanges && number >= sections.count && isSecondTime(number)
    }

}

/// What the form keeps of a section's first bar line, to return to it. Each is made with its
/// own buffers when the session is built and then written in place (`Simulator.save`), so
/// saving and returning allocate nothing (the LV2 plugin plays the form in its real-time thread).
struct FormSnapshot {
    var step: Int64 = 0
    var world: WorldState
    var performer: Performer
    var scheduler: Scheduler
    var kicks: SplitMix64
    var drops: SplitMix64
    var lastBouncerHit = 0.0
    var recentDegrees: [Int]
    var lastKeyHit: [Double]
    var stillSince: [Double]
    var rulePhase: Int64 = 0
}

/// The form as it goes: the next section line and the snapshots of the letters heard. A class:
/// the simulator changes it in place at a section line, and the steps between look at
/// `Simulator.formDue` alone (a struct of arrays taken out and put back every step was 15 % of
/// a session's instructions, issue 46).
final class FormProgress {
    var plan: FormPlan
    /// Section lines passed so far (the next one's number).
    var number = 0
    /// Time of the next section line, seconds.
    var nextLine = 0.0
    /// Snapshot of each letter's first section, by letter index (`heard` says which are).
    var saved: [FormSnapshot]
    /// Whether each letter has been heard (its snapshot in `saved` taken).
    var heard: [Bool]
    /// The nudges of returning sections.
    var nudges: SplitMix64
    /// When the returning section now playing is nudged, seconds (nil: not, or done).
    var nudgeAt: Double?
    /// The second-time ending to come: its section (letter index) and time, seconds.
    var ending: (section: Int, time: Double)?
    /// The snapshot at the start of each letter's second-time ending (`endingHeard` says which are).
    var endings: [FormSnapshot]
    /// Whether each letter's second-time ending has been heard.
    var endingHeard: [Bool]
    /// The balls as a nudge moves them.
    var nudged: WorldState
    /// With `cadence`: from one beat before the section's last bar, every bouncer is heard as I's.
    var isHoming = false
    /// With `cadence`: the bass ball's approach to the cadence has begun (`Simulator.beginApproach`).
    var isApproaching = false
    /// With `cadence`: the section's last bar line has been given I's root.
    var gaveCadence = false

    /// The form of `plan` before its first line; `blank` makes a snapshot with buffers of its own.
    init(plan: FormPlan, nudges: SplitMix64, blank: () -> FormSnapshot) {
        self.plan = plan
        self.nudges = nudges
        let letters = (plan.sections.max() ?? 0) + 1
        saved = (0..<letters).map { _ in blank() }
        endings = (0..<letters).map { _ in blank() }
        heard = Array(repeating: false, count: letters)
        endingHeard = Array(repeating: false, count: letters)
        nudged = blank().world
    }
}
