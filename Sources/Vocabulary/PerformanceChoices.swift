// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Theory

/// When a bass hit's chord takes over.
public enum ChordChange: String, Sendable, Hashable, CaseIterable {
    /// At the hit (the original app).
    case hit
    /// On the next beat line.
    case beat
    /// On the next bar line.
    case bar
}

/// The bass's leading note before a new root.
public enum Approach: String, Sendable, Hashable, CaseIterable {
    /// None.
    case off
    /// The half step below the new root.
    case chromaticBelow = "chromatic-below"
    /// The half step above the new root.
    case chromaticAbove = "chromatic-above"
    /// The scale tone below the new root.
    case diatonicBelow = "diatonic-below"
    /// The scale tone above the new root.
    case diatonicAbove = "diatonic-above"

    /// The approach note to `root` in `key`.
    public func note(to root: Int, in key: Key) -> Int {
        switch self {
        case .off: return root
        case .chromaticBelow: return root - 1
        case .chromaticAbove: return root + 1
        case .diatonicBelow:
            var note = root - 1
            while note > root - 12 && !key.contains(PitchClass(note)) { note -= 1 }
            return note
        case .diatonicAbove:
            var note = root + 1
            while note < root + 12 && !key.contains(PitchClass(note)) { note += 1 }
            return note
        }
    }
}

/// How the melody voice moves: each a rule applied to the key strikes, reading another part of
/// the world (`melody.shape`).
public enum MelodyShape: String, Sendable, Hashable, CaseIterable {
    /// The keys are places: each key stands for a height in the melody's register (left low,
    /// right high) and a strike draws the line toward it, by steps, a leap from a strong beat,
    /// the same note again when the line is already there.
    case places
    /// The struck key's chord tone, in the melody's register nearest its last note: broken
    /// chords from the bass ball's harmony, a passing step between two chord tones off the beat.
    case chords
    /// Broken chords: the struck key's chord tone in the melody's register nearest its last note,
    /// as `chords`, but off the beat a chord tone a third away is played, not passed to; only a
    /// fourth or more is approached by a passing step. The line outlines the harmony in thirds
    /// where the keys struck change, repeats where one key is struck twice.
    case arpeggio
    /// Call and response: a bar moves as `places` (the call), the next answers with the call's
    /// own steps again from where it stands, in its own rhythm and on its own chords.
    case answer
    /// One ball leads: only its strikes move the line, each on a bar line or strong beat, so
    /// its bounce period is the rhythm and its flight a rest; the same key struck again is the
    /// same note, another key a scale step its way (no chord tone forced: an appoggiatura).
    /// The lead passes at every second bar line to the ball that strikes first.
    case lead
}

/// What a key strike plays.
public enum KeysMode: String, Sendable, Hashable, CaseIterable {
    /// The chord tone the key stands for (the original app).
    case chord
    /// A melody: each strike moves a scale-degree pointer by the key's step (−2…+2 scale steps);
    /// notes on strong beats are chord tones, others may be passing scale tones.
    case melodic
}

/// The keys' dribble gate: a ball that strikes again soon and softly is not heard again.
public struct DribbleGate: Sendable, Hashable {
    /// A re-strike by the same ball within this many seconds of its last key hit is a dribble.
    public var window: Double
    /// A dribble below this velocity (1…127) is dropped; the note already sounding rings on.
    public var velocity: Int

    /// Creates a gate.
    public init(window: Double, velocity: Int) {
        self.window = window
        self.velocity = velocity
    }
}
