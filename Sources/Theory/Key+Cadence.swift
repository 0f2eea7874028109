// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

extension Key {
    /// The degree (1…7) whose chord leads home to the tonic at a cadence, among the degrees
    /// `available` says are there, given each degree's chord (`chords[0]` is degree 1's): a
    /// dominant (V or V7: its root a fifth above the tonic, with a major third), else a
    /// leading-tone chord (vii°: its root a semitone below, with a diminished fifth), else the
    /// mode's own cadence chord (mixolydian ♭VII; dorian, minor and the minor pentatonic and blues
    /// scales ♭VII, then v; phrygian and locrian ♭II; lydian II; the major pentatonic's V of any
    /// third). Nil when none is there. Allocates nothing.
    public func cadenceDegree(chords: [Chord], available: (Int) -> Bool) -> Int? {
        for rank in 0..<4 {
            for degree in 1...min(7, chords.count) where available(degree) {
                let chord = chords[degree - 1]
                if leadsHome(above: PitchClass(chord.root.value - tonic.value).value, intervals: chord.intervals, rank: rank) {
                    return degree
                }
            }
        }
        return nil
    }

    /// Whether a chord whose root is `above` semitones over the tonic is a cadence chord of
    /// preference `rank` (0 V, 1 vii°, 2 and 3 the mode's own).
    private func leadsHome(above: Int, intervals: [Int], rank: Int) -> Bool {
        switch rank {
        case 0: return above == 7 && intervals.contains(4)
        case 1: return above == 11 && intervals.contains(3) && intervals.contains(6)
        default: return modeCadenceRoot(rank: rank) == above
        }
    }

    /// The root (semitones above the tonic) of the mode's own cadence chords, first (rank 2)
    /// and second (rank 3) choice.
    private func modeCadenceRoot(rank: Int) -> Int? {
        switch scale.name {
        case "mixolydian": return rank == 2 ? 10 : nil
        case "dorian", "minor", "minorPentatonic", "blues": return rank == 2 ? 10 : 7
        case "phrygian", "locrian": return rank == 2 ? 1 : nil
        case "lydian": return rank == 2 ? 2 : nil
        case "majorPentatonic": return rank == 2 ? 7 : nil
        default: return nil
        }
    }
}
