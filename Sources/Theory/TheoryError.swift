// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// What went wrong reading a chord, numeral or interval list; each message names the text
/// and what would be accepted.
public enum TheoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A chord symbol that does not parse, e.g. "Hmaj7" or "Cmaj13".
    case unknownChordSymbol(String, reason: String)
    /// A Roman numeral that does not parse, e.g. "VIII" or "V/".
    case unknownRomanNumeral(String, reason: String)
    /// A Roman numeral naming a degree the key's scale does not play (IV in a major pentatonic key).
    case degreeNotInScale(String, key: String, degrees: String)
    /// Explicit chord intervals that are not usable.
    case badIntervals(String, reason: String)
    /// Text that is neither a Roman numeral, a chord symbol nor an interval list.
    case unknownChord(String)

    /// Forms a chord symbol may take.
    public static let acceptedSymbols = "a root A–G with optional ♯/♭ (# or b), then one of "
        + ChordQuality.allCases.filter { $0 != .other }.map { $0.acceptedSuffixes.first.map { $0.isEmpty ? "(nothing: major)" : $0 } ?? "" }.joined(separator: ", ")
        + ", and optionally /bass (\"E♭maj7\", \"F#m7b5\", \"C/E\")"

    /// Forms a Roman numeral may take.
    public static let acceptedNumerals = "I…VII (upper case: major third, lower case: minor), optionally after ♭ ♯ b # "
        + "(lowering or raising the key's own degree), then °, ø, +, 7, maj7, °7, ø7, 6, 9, add9, sus2, sus4 or 7sus4, "
        + "and /numeral for a secondary chord (\"V/V\", \"♭VII\", \"iv\", \"ii7\", \"V7/vi\")"

    /// A one-line message naming the text and what is accepted.
    public var description: String {
        switch self {
        case .unknownChordSymbol(let text, let reason):
            return "\"\(text)\" is not a chord symbol: \(reason); expected \(TheoryError.acceptedSymbols)"
        case .unknownRomanNumeral(let text, let reason):
            return "\"\(text)\" is not a Roman numeral: \(reason); expected \(TheoryError.acceptedNumerals)"
        case .degreeNotInScale(let text, let key, let degrees):
            return "\"\(text)\" names a degree that \(key) does not have; its degrees are \(degrees) (write ♭ or ♯ before the numeral for a chromatic root)"
        case .badIntervals(let text, let reason):
            return "\"\(text)\" is not a chord's interval list: \(reason); expected 2 to 6 semitone counts above the root, "
                + "the first 0, strictly increasing, at most 24 (\"0 4 7 10\" or \"[0, 3, 7]\")"
        case .unknownChord(let text):
            return "\"\(text)\" is not a chord: expected a Roman numeral (\(TheoryError.acceptedNumerals)), "
                + "a chord symbol (\(TheoryError.acceptedSymbols)) or intervals (\"0 4 7 10\")"
        }
    }
}
