// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// The quality of a chord: its intervals above the root, from the catalog of triads, sixths,
/// sevenths, added-ninth and ninth chords, or `.other`.
public enum ChordQuality: String, Sendable, Hashable, CaseIterable, Codable {
    /// Major seventh: 0 4 7 11.
    case major7
    /// Minor seventh: 0 3 7 10.
    case minor7
    /// Dominant seventh: 0 4 7 10.
    case dominant7
    /// Half-diminished seventh (m7♭5): 0 3 6 10.
    case halfDiminished7
    /// Diminished seventh: 0 3 6 9.
    case diminished7
    /// Minor-major seventh: 0 3 7 11.
    case minorMajor7
    /// Augmented major seventh: 0 4 8 11.
    case augmentedMajor7
    /// Major triad: 0 4 7.
    case major
    /// Minor triad: 0 3 7.
    case minor
    /// Diminished triad: 0 3 6.
    case diminished
    /// Augmented triad: 0 4 8.
    case augmented
    /// Suspended second: 0 2 7.
    case suspended2
    /// Suspended fourth: 0 5 7.
    case suspended4
    /// Major sixth: 0 4 7 9.
    case major6
    /// Minor sixth: 0 3 7 9.
    case minor6
    /// Major triad with an added ninth: 0 4 7 14.
    case added9
    /// Dominant ninth: 0 4 7 10 14.
    case dominant9
    /// Major ninth: 0 4 7 11 14.
    case major9
    /// Minor ninth: 0 3 7 10 14.
    case minor9
    /// Any other interval combination.
    case other

    /// Classifies intervals above a root (compared modulo 12, order preserved); unknown shapes give `.other`.
    public init(intervals: [Int]) {
        let normalized = intervals.map { (($0 % 12) + 12) % 12 }
        self = ChordQuality.allCases.first { $0 != .other && $0.intervals.map { $0 % 12 } == normalized } ?? .other
    }

    /// Canonical intervals above the root in semitones, in chord-tone order (ninths as 14; empty for `.other`).
    public var intervals: [Int] {
        switch self {
        case .major7: [0, 4, 7, 11]
        case .minor7: [0, 3, 7, 10]
        case .dominant7: [0, 4, 7, 10]
        case .halfDiminished7: [0, 3, 6, 10]
        case .diminished7: [0, 3, 6, 9]
        case .minorMajor7: [0, 3, 7, 11]
        case .augmentedMajor7: [0, 4, 8, 11]
        case .major: [0, 4, 7]
        case .minor: [0, 3, 7]
        case .diminished: [0, 3, 6]
        case .augmented: [0, 4, 8]
        case .suspended2: [0, 2, 7]
        case .suspended4: [0, 5, 7]
        case .major6: [0, 4, 7, 9]
        case .minor6: [0, 3, 7, 9]
        case .added9: [0, 4, 7, 14]
        case .dominant9: [0, 4, 7, 10, 14]
        case .major9: [0, 4, 7, 11, 14]
        case .minor9: [0, 3, 7, 10, 14]
        case .other: []
        }
    }

    /// Letters above the root's letter that spell each chord tone (third 2, fifth 4, sixth 5,
    /// seventh 6, ninth 8), so a diminished seventh on C is C E♭ G♭ B𝄫, not A.
    public var letterSteps: [Int] {
        switch self {
        case .suspended2: [0, 1, 4]
        case .suspended4: [0, 3, 4]
        case .major6, .minor6: [0, 2, 4, 5]
        case .added9: [0, 2, 4, 8]
        case .dominant9, .major9, .minor9: [0, 2, 4, 6, 8]
        case .other: []
        default: Array([0, 2, 4, 6].prefix(intervals.count))
        }
    }

    /// The letter step that spells an interval outside the catalog: m2/M2 a second, m3/M3 a third,
    /// P4 and the tritone a fourth, P5 a fifth, m6/M6 a sixth, m7/M7 a seventh.
    public static func letterStep(forInterval interval: Int) -> Int {
        [0, 1, 1, 2, 2, 3, 3, 4, 5, 5, 6, 6][((interval % 12) + 12) % 12]
    }

    /// Symbol suffix written after the root name in unicode style, e.g. "maj7", "m7", "ø7", "°", "" (nil for `.other`).
    public var suffix: String? { suffix(.unicode) }

    /// Symbol suffix in the given style: unicode "°7", "ø7", "°"; ascii "dim7", "m7b5", "dim" (nil for `.other`).
    public func suffix(_ style: SpellingStyle) -> String? {
        switch self {
        case .major7: "maj7"
        case .minor7: "m7"
        case .dominant7: "7"
        case .halfDiminished7: style == .unicode ? "ø7" : "m7b5"
        case .diminished7: style == .unicode ? "°7" : "dim7"
        case .minorMajor7: "mMaj7"
        case .augmentedMajor7: "+maj7"
        case .major: ""
        case .minor: "m"
        case .diminished: style == .unicode ? "°" : "dim"
        case .augmented: "+"
        case .suspended2: "sus2"
        case .suspended4: "sus4"
        case .major6: "6"
        case .minor6: "m6"
        case .added9: "add9"
        case .dominant9: "9"
        case .major9: "maj9"
        case .minor9: "m9"
        case .other: nil
        }
    }

    /// Whether the chord has a seventh (four-note tertian qualities).
    public var isSeventh: Bool {
        switch self {
        case .major7, .minor7, .dominant7, .halfDiminished7, .diminished7, .minorMajor7, .augmentedMajor7: true
        default: false
        }
    }

    /// Every suffix `ChordSymbol` accepts, by quality (the first is the unicode one printed).
    public var acceptedSuffixes: [String] {
        switch self {
        case .major7: ["maj7", "M7", "Δ7", "Δ", "ma7", "major7"]
        case .minor7: ["m7", "min7", "-7", "mi7"]
        case .dominant7: ["7", "dom7"]
        case .halfDiminished7: ["ø7", "ø", "m7b5", "m7♭5", "-7b5", "min7b5"]
        case .diminished7: ["°7", "dim7", "o7"]
        case .minorMajor7: ["mMaj7", "mM7", "m(maj7)", "minmaj7", "-maj7"]
        case .augmentedMajor7: ["+maj7", "augmaj7", "maj7#5", "maj7♯5", "+M7"]
        case .major: ["", "M", "maj", "major"]
        case .minor: ["m", "min", "-", "mi", "minor"]
        case .diminished: ["°", "dim", "o"]
        case .augmented: ["+", "aug"]
        case .suspended2: ["sus2"]
        case .suspended4: ["sus4", "sus"]
        case .major6: ["6", "maj6", "M6"]
        case .minor6: ["m6", "min6", "-6"]
        case .added9: ["add9", "add2"]
        case .dominant9: ["9", "dom9"]
        case .major9: ["maj9", "M9", "Δ9"]
        case .minor9: ["m9", "min9", "-9"]
        case .other: []
        }
    }
}
