// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later


extension Preset {
    /// Form: phrases of a few bars, arranged in sections that return (`form` in a preset).
    public struct Form: Sendable, Equatable {
        /// Whether the session has a form (every bar new without one).
        public var isOn = false
        /// Bars in a phrase: the length of one section.
        public var bars = 8
        /// The sections in order, one letter each (`"AABB"`): a letter heard before plays again
        /// from the world as it was at the start of that letter's first section.
        public var sections = "AABB"
        /// Bars of a second-time ending: the second of two sections of one letter in a row ends
        /// otherwise than the first, the same way each time (0: no endings).
        public var endings = 0
        /// Semitones by which each letter's sections are transposed from the preset's key (a
        /// letter not listed: 0), as fiddle tunes move to the dominant for B: `{"B": 7}`.
        public var transpose: [String: Int] = [:]
        /// Semitones each time through the tune moves it, from time `travelFrom` through on (0: none).
        public var travel = 0
        /// The time through the tune (from 1) that first travels.
        public var travelFrom = 3
        /// With `cadence`: bars before a section's last bar at which the bass ball turns toward
        /// the chord that leads home.
        public var approach = 3
        /// What a second time (the second of two sections of one letter in a row) puts back,
        /// from the second time through the tune on.
        public var secondTime = SecondTime.same
        /// 0…1: how far a returning section's balls are nudged from where they were (0 = an exact repeat).
        public var variation = 0.0
        /// How the session begins: who plays from the first bar.
        public var intro = Intro.none
        /// Seconds the last notes ring after the session ends at the end of a phrase, on the
        /// tonic chord (0: no ending, the session stops where its duration cuts it).
        public var ending = 0.0
        /// Whether every section's last bar is on the tonic chord (the bass goes home).
        public var cadence = false

        /// The letters of `form.sections` a preset may use.
        public static let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        /// Most seconds the last notes of an ending ring.
        public static let longestRing = 20.0
        /// Most sections in one form.
        public static let maximumSections = 64
    }
}

extension Preset {
    /// What a second time puts back from the second time through the tune on (`form.secondTime`).
    public enum SecondTime: String, Sendable, CaseIterable {
        /// All of it: it plays as its first time.
        case same
        /// All of it, then the bass ball leaves the first bar line in a new (seeded) direction:
        /// the piano balls' strikes and the section's opening chord return, the changes are new.
        case newChanges = "new-changes"
    }

    /// How a session with a form begins (`form.intro`).
    public enum Intro: String, Sendable, CaseIterable {
        /// Every ball plays from the start.
        case none
        /// The bass ball alone for the first phrase: the piano balls' strikes are heard from
        /// the second phrase on.
        case bass
        /// The bass ball first, then the piano balls one at a time, one more each bar: piano
        /// ball n's strikes are heard from bar n + 1.
        case oneByOne = "one-by-one"
    }
}
