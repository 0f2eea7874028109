// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Theory
import Vocabulary

/// Where the melody goes next: the rule of a `MelodyShape` applied to a key strike, with the
/// little it remembers (the call's steps, the lead ball and its last key, the repeats).
///
/// Targets are indices into the melody's scale notes (`HarmonyState.melodyNotes`, ascending).
/// Allocation-free once made: the call's steps live in a buffer of fixed size, copied in place.
struct MelodyShaper: Sendable {
    /// A key strike as the shapes read it.
    struct Strike {
        /// The key struck, 1…K from the left.
        var key: Int
        /// The pitch class of the chord tone the key plays.
        var toneClass: PitchClass
        /// Whether the note sounds on the bar line or a strong beat.
        var strong: Bool
        /// The bar it sounds in (from the session's start) and that bar within its phrase.
        var bar: Int
        var barInPhrase: Int
    }

    /// The most steps a call remembers.
    static let callLength = 16

    let plan: MelodyPlan
    /// The same note played this many times in a row, after the first.
    private var repeats = 0
    /// `answer`: the call's steps (scale steps), how many, the bar it was made in, and how many
    /// of them the answer has played.
    private var call: [Int]
    private var callCount = 0
    private var callBar = -1
    private var answered = 0
    /// `lead`: the ball leading (0: none yet), the pair of bars it leads in, its last key (0: none).
    private var leader = 0
    private var leaderPair = -1
    private var leaderKey = 0

    init(plan: MelodyPlan) {
        self.plan = plan
        call = [Int](repeating: 0, count: Self.callLength)
    }

    /// Becomes `other`, in its own buffer.
    mutating func assign(from other: MelodyShaper) {
        repeats = other.repeats
        call.overwrite(with: other.call)
        (callCount, callBar, answered) = (other.callCount, other.callBar, other.answered)
        (leader, leaderPair, leaderKey) = (other.leader, other.leaderPair, other.leaderKey)
    }

    /// Forgets everything (the session opens).
    mutating func reset() {
        (repeats, callCount, callBar, answered) = (0, 0, -1, 0)
        (leader, leaderPair, leaderKey) = (0, -1, 0)
    }

    /// Whether a strike by `ball` in `bar` may move the melody: always, but under `lead` only the
    /// leading ball's, and the first ball to strike in each pair of bars leads them.
    mutating func hears(ball: Int, bar: Int) -> Bool {
        guard plan.shape == .lead else { return true }
        let pair = bar / 2
        if pair != leaderPair {
            (leader, leaderPair, leaderKey) = (ball, pair, 0)
            return true
        }
        return ball == leader
    }

    /// The melody moved by `step` scale steps.
    mutating func played(_ step: Int) { repeats = step == 0 ? repeats + 1 : 0 }

    /// The index the melody goes to from `pointer` for `strike` (in a bar that is not its phrase's
    /// last); `centre` is the middle of the register, `mask` the chord's pitch classes.
    mutating func target(for strike: Strike, from pointer: Int, notes: [Int], centre: Int, mask: Int) -> Int {
        let count = notes.count
        var target: Int
        switch plan.shape {
        case .places:
            target = Self.toward(Self.place(of: strike.key, keys: plan.keys, centre: centre, count: count),
                                 from: pointer, strong: strike.strong)
        case .chords, .arpeggio:
            let tone = Self.nearest(class: strike.toneClass, to: pointer, in: notes)
            // Off the beat, a chord tone a third or more away (`arpeggio`: a fourth or more) is
            // approached by a passing step.
            let passesFrom = plan.shape == .chords ? 2 : 3
            target = !strike.strong && abs(tone - pointer) >= passesFrom ? pointer + (tone > pointer ? 1 : -1) : tone
        case .answer:
            target = answerTarget(strike, from: pointer, centre: centre, count: count)
        case .lead:
            // Another key, a scale step its way; the same key again the same note (a step toward
            // its place when more than a step away); the first strike of a lead goes to its key's
            // place. Every lead note is on a strong beat and none is bent onto the chord: a
            // step against the chord there is an appoggiatura.
            let place = Self.place(of: strike.key, keys: plan.keys, centre: centre, count: count)
            if leaderKey == 0 {
                target = place
            } else if strike.key != leaderKey {
                target = pointer + Self.clamp(strike.key - leaderKey, 1)
            } else {
                target = abs(place - pointer) <= 1 ? pointer : pointer + Self.clamp(place - pointer, 1)
            }
            leaderKey = strike.key
        }
        if target < 0 || target >= count { target = 2 * pointer - target }   // turned back at the register's edge
        target = min(max(target, 0), count - 1)
        if strike.strong && plan.shape != .lead { target = Self.chordTone(near: target, way: target >= pointer ? 1 : -1, mask: mask, in: notes) }
        if target == pointer && repeats >= 1 {
            // A third time the same: a neighbour, toward the middle.
            target = pointer + (pointer < centre || pointer == 0 ? 1 : -1)
            target = min(max(target, 0), count - 1)
        }
        if plan.shape == .answer && strike.barInPhrase % 2 == 0 && callCount < Self.callLength {
            call[callCount] = target - pointer
            callCount += 1
        }
        return target
    }

    /// `answer`: in a phrase's even bars (the call) as `places`, remembering the steps; in its
    /// odd bars the call's steps again, one a strike, from where the line stands.
    private mutating func answerTarget(_ strike: Strike, from pointer: Int, centre: Int, count: Int) -> Int {
        if strike.barInPhrase % 2 == 0 {
            if strike.bar != callBar { (callBar, callCount, answered) = (strike.bar, 0, 0) }
        } else if callCount > 0 {
            let step = call[answered % callCount]
            answered += 1
            return pointer + step
        }
        return Self.toward(Self.place(of: strike.key, keys: plan.keys, centre: centre, count: count), from: pointer, strong: strike.strong)
    }

    /// Key `key` of `keys` as a place in the register: two scale steps apart (three for three
    /// keys or fewer), centred on `centre`.
    static func place(of key: Int, keys: Int, centre: Int, count: Int) -> Int {
        let offset = (Double(min(max(key, 1), keys) - 1) - Double(keys - 1) / 2) * (keys <= 3 ? 3 : 2)
        return min(max(centre + Int(offset.rounded()), 0), count - 1)
    }

    /// From `pointer` toward `place`: there on a strong beat (a leap when it is far), else a
    /// scale step of the way (the same note when there).
    static func toward(_ place: Int, from pointer: Int, strong: Bool) -> Int {
        strong ? place : pointer + clamp(place - pointer, 1)
    }

    static func clamp(_ value: Int, _ limit: Int) -> Int { min(max(value, -limit), limit) }

    /// The index of the note of pitch class `toneClass` nearest index `index` (the lower on a
    /// tie); `index` when the scale has none.
    static func nearest(class toneClass: PitchClass, to index: Int, in notes: [Int]) -> Int {
        var best = index
        var distance = Int.max
        for (candidate, note) in notes.enumerated() where PitchClass(note) == toneClass && abs(candidate - index) < distance {
            (best, distance) = (candidate, abs(candidate - index))
        }
        return best
    }

    /// The chord tone (pitch classes `mask`) of `notes` nearest index `target`, itself when it is
    /// one, looking first the way `way` the melody goes; `target` when none.
    static func chordTone(near target: Int, way: Int, mask: Int, in notes: [Int]) -> Int {
        func fits(_ index: Int) -> Bool { index >= 0 && index < notes.count && mask & (1 << PitchClass(notes[index]).value) != 0 }
        if fits(target) { return target }
        for distance in 1..<max(notes.count, 2) {
            if fits(target + way * distance) { return target + way * distance }
            if fits(target - way * distance) { return target - way * distance }
        }
        return target
    }
}
