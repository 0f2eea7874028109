// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Theory
import Vocabulary

extension Voice {
    /// How a derived voice follows another: the voice whose notes it doubles, and its rule.
    ///
    /// The scheduler sounds the derived note with every note-on of `from` (same time, same
    /// velocity). `notes` is the rule worked out in the session's key; a live key change works
    /// it out again in the new key (`rekeyed(to:)`).
    public struct Derivation: Sendable, Hashable {
        /// The voice whose notes are doubled.
        public var from: VoiceID
        /// What the derived voice plays with each note of `from`.
        public var rule: Rule
        /// The note played for each MIDI note 0…127 of `from` (128 entries), in the key in force.
        public private(set) var notes: [Int]

        /// A derivation of `from` by `rule`, in `key`.
        public init(from: VoiceID, rule: Rule, key: Key) {
            self.from = from
            self.rule = rule
            notes = rule.notes(in: key)
        }

        /// The same rule worked out again in `key` (a live key change).
        public func rekeyed(to key: Key) -> Derivation { Derivation(from: from, rule: rule, key: key) }
    }

    /// A derived voice's rule (a value a preset names, so it lives in Vocabulary).
    public typealias Rule = VoiceRule
}
