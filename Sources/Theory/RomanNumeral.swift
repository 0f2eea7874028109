// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A chord named by its degree in a key: "V", "ii7", "♭VII", "iv", "vii°7", and secondary chords
/// "V/V", "V7/vi" (the chord before the slash, in the key of the chord after it).
///
/// Rules: a numeral without an accidental is that degree of the key's scale (an error if the
/// scale lacks it); ♭ or ♯ lowers or raises the key's own degree (♭VII in C major is B♭; in
/// A minor the leading-tone chord is ♯vii°, G♯ B D, while VII is G; a pentatonic scale's
/// degrees are its parent's, so ♭VII in C major pentatonic is B♭). Upper case gives a major third, lower case a minor
/// third; ° lowers the fifth, + raises it. "7" adds the key's own seventh when the triad is the
/// key's diatonic one on that degree (I7 in C is Cmaj7, ii7 Dm7), else a minor seventh (V7 in
/// A minor is E7; ♭VII7 in C is B♭7); "maj7" adds a major seventh, "°7" a diminished one, "ø7"
/// makes a half-diminished seventh. "6" adds a major sixth (not an inversion), "9" a seventh and
/// a major ninth, "add9" only the ninth; "sus2"/"sus4" replace the third. A secondary target in
/// upper case is a major key, in lower case a natural minor key.
public struct RomanNumeral: Sendable, Hashable, CustomStringConvertible {
    /// One numeral without slashes.
    struct Part: Sendable, Hashable {
        var accidental: Int
        var degree: ScaleDegree
        var isMinor: Bool
        var suffix: String
    }

    /// The text as given.
    public let text: String
    /// The numeral and its chain of targets, outermost last: "V7/V" is [V7, V].
    let parts: [Part]

    /// Parses a numeral; throws naming what is accepted.
    public init(parsing text: String) throws(TheoryError) {
        let pieces = text.trimmingSpaces.split(separator: "/", omittingEmptySubsequences: false)
        var parts: [Part] = []
        for piece in pieces {
            parts.append(try RomanNumeral.parsePart(piece, text: text))
        }
        self.text = text
        self.parts = parts
    }

    private static let numerals = ["VII", "VI", "IV", "V", "III", "II", "I"]
    private static let numeralDegrees = ["VII": 7, "VI": 6, "IV": 4, "V": 5, "III": 3, "II": 2, "I": 1]
    /// Accepted suffixes after the numeral.
    static let suffixes: Set<String> = ["", "°", "o", "dim", "+", "aug", "ø", "ø7", "°7", "o7", "dim7", "7", "maj7", "M7", "Δ7",
                                        "6", "9", "add9", "sus2", "sus4", "7sus4"]

    private static func parsePart(_ piece: Substring, text: String) throws(TheoryError) -> Part {
        var rest = piece
        var accidental = 0
        while let c = rest.first, ["b", "♭", "#", "♯"].contains(c) {
            accidental += (c == "#" || c == "♯") ? 1 : -1
            rest = rest.dropFirst()
        }
        guard abs(accidental) <= 1 else { throw .unknownRomanNumeral(text, reason: "at most one ♭ or ♯ before a numeral") }
        guard let numeral = numerals.first(where: { rest.uppercased().hasPrefix($0) }) else {
            throw .unknownRomanNumeral(text, reason: piece.isEmpty ? "a numeral is missing around \"/\"" : "\"\(piece)\" does not start with I, II, III, IV, V, VI or VII")
        }
        let written = rest.prefix(numeral.count)
        let isUpper = written == Substring(numeral)
        let isLower = written == Substring(numeral.lowercased())
        guard isUpper || isLower else { throw .unknownRomanNumeral(text, reason: "\"\(written)\" mixes upper and lower case") }
        let suffix = String(rest.dropFirst(numeral.count))
        guard suffixes.contains(suffix) else {
            throw .unknownRomanNumeral(text, reason: "\"\(suffix)\" after \"\(written)\" is not a known figure")
        }
        return Part(accidental: accidental, degree: ScaleDegree(numeralDegrees[numeral]!)!, isMinor: isLower, suffix: suffix)
    }

    /// The chord the numeral names in `key`.
    /// - Throws: `.degreeNotInScale` when a numeral without an accidental names a degree the scale lacks.
    public func chord(in key: Key) throws(TheoryError) -> Chord {
        var context = key
        for target in parts.dropFirst().reversed() {
            let chord = try chord(target, in: context)
            context = Key(spelledTonic: context.spell(chord.root), scale: target.isMinor ? .minor : .major)
        }
        return try chord(parts[0], in: context)
    }

    private func chord(_ part: Part, in key: Key) throws(TheoryError) -> Chord {
        let root: PitchClass
        if part.accidental == 0 {
            guard key.scale.contains(part.degree) else {
                throw .degreeNotInScale(text, key: key.description,
                                        degrees: key.degrees.map { key.romanNumeral(of: $0) }.joined(separator: " "))
            }
            root = key.pitchClass(of: part.degree)
        } else {
            root = key.tonic.transposed(by: key.scale.step(of: part.degree) + part.accidental)
        }
        let suffix = part.suffix
        let third = suffix.hasPrefix("sus2") ? 2 : suffix.contains("sus4") ? 5 : (part.isMinor ? 3 : 4)
        let fifth = ["°", "o", "dim", "ø", "ø7", "°7", "o7", "dim7"].contains(suffix) ? 6 : (["+", "aug"].contains(suffix) ? 8 : 7)
        var intervals = [0, third, fifth]
        let isDiatonic = part.accidental == 0 && key.triad(on: part.degree).intervals == intervals
        let diatonicSeventh = key.seventhChord(on: part.degree).intervals[3]
        switch suffix {
        case "7", "9", "7sus4": intervals.append(isDiatonic ? diatonicSeventh : 10)
        case "maj7", "M7", "Δ7": intervals.append(11)
        case "°7", "o7", "dim7": intervals.append(9)
        case "ø", "ø7": intervals.append(10)
        case "6": intervals.append(9)
        default: break
        }
        if suffix == "9" || suffix == "add9" { intervals.append(14) }
        return Chord(root: root, intervals: intervals)
    }

    /// The text as given.
    public var description: String { text }
}
