// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
import Glibc
#endif

/// A concrete pitch identified by its MIDI note number (middle C = 60 = C4).
public struct Pitch: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// MIDI note number; 0…127 is valid MIDI, other values are representable but see `isValidMIDI`.
    public let midi: Int

    /// Creates a pitch from a MIDI note number without range checking.
    public init(midi: Int) {
        self.midi = midi
    }

    /// Creates a pitch from a pitch class and scientific octave (C4 = MIDI 60).
    public init(_ pitchClass: PitchClass, octave: Int) {
        self.midi = (octave + 1) * 12 + pitchClass.value
    }

    /// Parses names like "C4", "F#5", "Bb3", "C-1"; "Cb4" is B3 and "B#3" is C4.
    public init?(name: String) {
        guard let spelled = SpelledNote(parsing: Substring(name)) else { return nil }
        var digits = spelled.rest
        var negative = false
        if digits.first == "-" {
            negative = true
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let magnitude = Int(digits) else { return nil }
        let octave = negative ? -magnitude : magnitude
        self.midi = (octave + 1) * 12 + spelled.semitones
    }

    /// Whether `midi` lies in 0…127.
    public var isValidMIDI: Bool { (0...127).contains(midi) }

    /// The pitch class of this pitch.
    public var pitchClass: PitchClass { PitchClass(midi) }

    /// Scientific octave number: floor(midi / 12) - 1, so MIDI 60 is octave 4.
    public var octave: Int {
        let (q, r) = midi.quotientAndRemainder(dividingBy: 12)
        return (r < 0 ? q - 1 : q) - 1
    }

    /// Sharp-spelled scientific name such as "C4", "F#5" or "C-1".
    public var name: String { "\(pitchClass.name)\(octave)" }

    /// The scientific name.
    public var description: String { name }

    /// The pitch the given number of semitones higher (negative goes lower).
    public func transposed(by semitones: Int) -> Pitch {
        Pitch(midi: midi + semitones)
    }

    /// The lowest pitch of the given pitch class at or above this pitch (within [self, self + 12)).
    public func nextUp(to pitchClass: PitchClass) -> Pitch {
        transposed(by: self.pitchClass.semitones(upTo: pitchClass))
    }

    /// Equal-tempered frequency in Hz, with A4 (MIDI 69) at `a4` Hz.
    public func frequency(a4: Double = 440) -> Double {
        a4 * pow(2, Double(midi - 69) / 12)
    }

    /// Orders by MIDI note number.
    public static func < (lhs: Pitch, rhs: Pitch) -> Bool { lhs.midi < rhs.midi }

    /// Decodes from a MIDI number or a name such as "C4".
    public init(from decoder: any Decoder) throws {
        self = try decoder.singleValueContainer().decodeNumberOrName(Pitch.init(midi:), Pitch.init(name:), what: "pitch name")
    }

    /// Encodes as the MIDI note number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(midi)
    }

    /// Middle C, MIDI 60.
    public static let middleC = Pitch(midi: 60)
}

extension SingleValueDecodingContainer {
    /// A value written either as a whole number or as a name (Pitch, PitchClass).
    func decodeNumberOrName<Value>(_ number: (Int) -> Value, _ name: (String) -> Value?, what: String) throws -> Value {
        if let value = try? decode(Int.self) { return number(value) }
        let text = try decode(String.self)
        guard let parsed = name(text) else {
            throw DecodingError.dataCorruptedError(in: self, debugDescription: "Invalid \(what) \"\(text)\"")
        }
        return parsed
    }
}
