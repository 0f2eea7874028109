// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A chord as a root pitch class plus semitone intervals of each chord tone above it (root first).
public struct Chord: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The chord root.
    public let root: PitchClass
    /// Semitones above the root for each tone in chord-tone order (root 0, 3rd, 5th, 7th).
    public let intervals: [Int]

    /// Creates a chord from a root and intervals above it (the first interval should be 0).
    public init(root: PitchClass, intervals: [Int]) {
        self.root = root
        self.intervals = intervals
    }

    /// Creates a chord from a root and a known quality (`.other` yields a bare root).
    public init(root: PitchClass, quality: ChordQuality) {
        self.init(root: root, intervals: quality == .other ? [0] : quality.intervals)
    }

    /// The name of chord tone `number` (1 root, 2 3rd, 3 5th, 4 7th, 5 9th, 6 11th, 7 13th),
    /// as keys and the text view show it; "tone N" past the 13th.
    public static func toneName(_ number: Int) -> String {
        let names = ["root", "3rd", "5th", "7th", "9th", "11th", "13th"]
        return names.indices.contains(number - 1) ? names[number - 1] : "tone \(number)"
    }

    /// Pitch classes of the chord tones in chord-tone order.
    public var tones: [PitchClass] { intervals.map { root.transposed(by: $0) } }

    /// Quality derived from `intervals`.
    public var quality: ChordQuality { ChordQuality(intervals: intervals) }

    /// Chord symbol with a sharp-spelled root, e.g. "Cmaj7", "D#maj7", "Bø7", "C°7": pitch classes only,
    /// no key. To print a chord for people use `Key.symbol(of:)`, which spells it for the key ("E♭maj7").
    public var symbol: String {
        if let suffix = quality.suffix { return root.name + suffix }
        return root.name + "(" + intervals.map(String.init).joined(separator: ",") + ")"
    }

    /// The chord symbol.
    public var description: String { symbol }

    /// The first three tones (root, 3rd, 5th) as a chord.
    public var triad: Chord { Chord(root: root, intervals: Array(intervals.prefix(3))) }

    /// The same chord shape on a root the given number of semitones higher.
    public func transposed(by semitones: Int) -> Chord {
        Chord(root: root.transposed(by: semitones), intervals: intervals)
    }
}
