// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Theory

/// The one place a session's chords are named: each degree's numeral and chord symbol in a key.
/// The performer names its chords with it once per key (`Performer.chordEvent`), and every
/// output takes the names from the chord events it receives.
public enum ChordNames {
    /// Each degree's numeral and chord symbol: a bouncer playing its degree's own scale chord
    /// keeps the degree's numeral ("ii"); any other chord (`bass.chords`: E7 on ii of D major)
    /// is numbered from its root and quality ("II").
    public static func of(_ chords: [Chord], in key: Key) -> (numerals: [String], symbols: [String]) {
        let numerals = ScaleDegree.all.map { degree in
            let chord = chords[degree.index]
            let isOwn = key.degrees.contains(degree) && chord == key.scaleChord(on: degree, toneCount: chord.intervals.count)
            return isOwn ? key.romanNumeral(of: degree) : key.romanNumeral(for: chord.intervals.count > 3 ? chord.triad : chord)
        }
        return (numerals, chords.map { key.symbol(of: $0) })
    }
}

/// The harmony changing: from `time` on the session plays `chord`, the chord of scale degree
/// `degree`'s bouncer in `key`, named `name` (spelled in the key) with its numeral `numeral`.
public struct ChordEvent: Sendable, Hashable {
    /// Simulated time from which the chord sounds, seconds (when the scheduler applies it:
    /// the bass root's time under `time.chordChange` hit, the beat or bar line otherwise).
    public var time: Double
    /// Scale degree 1…7 of the bouncer whose chord this is.
    public var degree: Int
    /// The chord (root and intervals) as played.
    public var chord: Chord
    /// The key it is played in.
    public var key: Key
    /// Its chord symbol, spelled in the key ("E7", "F♯m7").
    public var name: String
    /// Its numeral in the key ("II7" for a borrowed dominant, "ii" for the scale's own).
    public var numeral: String

    /// Creates a chord event.
    public init(time: Double, degree: Int, chord: Chord, key: Key, name: String, numeral: String) {
        self.time = time
        self.degree = degree
        self.chord = chord
        self.key = key
        self.name = name
        self.numeral = numeral
    }
}
