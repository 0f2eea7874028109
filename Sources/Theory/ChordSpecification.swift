// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// What chord a bouncer plays, as a preset would write it: its degree's diatonic chord, a Roman
/// numeral in the session's key, a chord symbol on a fixed root, or intervals above the degree's root.
public enum ChordSpecification: Sendable, Hashable, CustomStringConvertible {
    /// The key's diatonic chord on the degree, stacked in thirds with this many tones (3 = triad, 4 = seventh, 5 = ninth).
    case diatonic(toneCount: Int)
    /// A Roman numeral relative to the key ("V/V", "♭VII", "iv", "ii7", "V7/vi").
    case numeral(RomanNumeral)
    /// A chord symbol with its own root ("B♭7", "Fm6").
    case symbol(ChordSymbol)
    /// Semitones above the degree's root (first 0, increasing, at most 24; 2 to 6 tones).
    case intervals([Int])

    /// Parses a Roman numeral, a chord symbol, or an interval list ("0 4 7 10", "0,3,7", "[0, 4, 8]").
    /// Text starting with a digit or "[" is intervals; with I/V (after any ♭ ♯ b #) a numeral; with A–G a symbol.
    public init(parsing text: String) throws(TheoryError) {
        let trimmed = text.trimmingSpaces
        guard let first = trimmed.first else { throw .unknownChord(text) }
        if first == "[" || first.isNumber {
            self = .intervals(try ChordSpecification.parseIntervals(trimmed, text: text))
            return
        }
        let afterAccidentals = trimmed.drop { ["b", "♭", "#", "♯"].contains($0) }
        if let c = afterAccidentals.first, "IViv".contains(c) {
            self = .numeral(try RomanNumeral(parsing: trimmed))
        } else if "ABCDEFGabcdefg".contains(first) {
            self = .symbol(try ChordSymbol(parsing: trimmed))
        } else {
            throw .unknownChord(text)
        }
    }

    /// Checks and returns an interval list.
    public static func parseIntervals(_ trimmed: String, text: String) throws(TheoryError) -> [Int] {
        var body = Substring(trimmed)
        if body.first == "[" {
            guard body.last == "]" else { throw .badIntervals(text, reason: "\"[\" without \"]\"") }
            body = body.dropFirst().dropLast()
        }
        let words = body.split { $0 == "," || $0 == " " }
        var intervals: [Int] = []
        for word in words {
            guard let value = Int(word) else { throw .badIntervals(text, reason: "\"\(word)\" is not a whole number") }
            intervals.append(value)
        }
        guard (2...6).contains(intervals.count) else { throw .badIntervals(text, reason: "\(intervals.count) tones") }
        guard intervals.first == 0 else { throw .badIntervals(text, reason: "the first interval (the root) must be 0") }
        guard zip(intervals, intervals.dropFirst()).allSatisfy({ $0 < $1 }), intervals.last! <= 24 else {
            throw .badIntervals(text, reason: "the intervals must increase and stay within 24 semitones")
        }
        return intervals
    }

    /// The chord for a bouncer on `degree` of `key`.
    /// - Throws: `.degreeNotInScale` for a numeral naming a degree the scale lacks.
    public func chord(in key: Key, degree: ScaleDegree) throws(TheoryError) -> Chord {
        switch self {
        case .diatonic(let count): return key.chord(on: degree, toneCount: count)
        case .numeral(let numeral): return try numeral.chord(in: key)
        case .symbol(let symbol): return symbol.chord
        case .intervals(let intervals): return Chord(root: key.pitchClass(of: degree), intervals: intervals)
        }
    }

    /// The text form: "diatonic 4", the numeral, the symbol, or the intervals.
    public var description: String {
        switch self {
        case .diatonic(let count): "diatonic \(count)"
        case .numeral(let numeral): numeral.text
        case .symbol(let symbol): symbol.name()
        case .intervals(let intervals): intervals.map(String.init).joined(separator: " ")
        }
    }
}
