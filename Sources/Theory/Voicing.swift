// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// How a chord's tones are placed as concrete pitches relative to a base pitch.
public enum Voicing: String, CaseIterable, Codable, Sendable {
    /// Original app voicing: root, 3rd and 5th folded into [base, base + 12); 7th = folded root + its interval.
    case folded
    /// Root folded into [base, base + 12); every other tone stacked at root + interval (root position).
    case close
    /// Root folded; 5th at root + interval; 3rd and 7th an octave above root + interval (spread voicing).
    case open
    /// Smooth voice leading: each chord voiced to move the least total distance from the last one,
    /// inside a register. It needs the previous chord, so a performer voices it with a `VoiceLeader`;
    /// `pitches(of:base:)` gives the first chord's voicing, close from `base`.
    case smooth

    /// One pitch per chord tone, in chord-tone order (root, 3rd, 5th, 7th, …).
    public func pitches(of chord: Chord, base: Pitch) -> [Pitch] {
        let root = base.nextUp(to: chord.root)
        return chord.intervals.enumerated().map { index, interval in
            switch self {
            case .folded:
                return index < 3 ? base.nextUp(to: chord.root.transposed(by: interval)) : root.transposed(by: interval)
            case .close, .smooth:
                return root.transposed(by: interval)
            case .open:
                let raise = (index == 1 || index >= 3) ? 12 : 0
                return root.transposed(by: interval + raise)
            }
        }
    }
}
