// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// One of the twelve pitch classes of equal temperament, C = 0 … B = 11.
public struct PitchClass: Sendable, Hashable, Comparable, CaseIterable, Codable, CustomStringConvertible {
    /// Semitones above C, always in 0…11.
    public let value: Int

    /// Creates a pitch class, wrapping any integer modulo 12 (e.g. 12 → C, -1 → B).
    public init(_ value: Int) {
        self.value = ((value % 12) + 12) % 12
    }

    /// Parses a note name: a letter A–G (any case) followed by up to two sharps (#, ♯) or flats (b, ♭).
    public init?(name: String) {
        guard let spelled = SpelledNote(parsing: Substring(name)), spelled.rest.isEmpty else { return nil }
        self.init(spelled.semitones)
    }

    /// Name with sharp spelling: "C", "C#", "D", … "B".
    public var name: String { PitchClass.sharpNames[value] }

    /// Name with flat spelling: "C", "Db", "D", … "B".
    public var flatName: String { PitchClass.flatNames[value] }

    /// The sharp-spelled name.
    public var description: String { name }

    /// The pitch class the given number of semitones higher (negative goes lower), wrapping.
    public func transposed(by semitones: Int) -> PitchClass {
        PitchClass(value + semitones)
    }

    /// Ascending semitone distance from this pitch class up to `other`, in 0…11.
    public func semitones(upTo other: PitchClass) -> Int {
        PitchClass(other.value - value).value
    }

    /// Orders pitch classes by `value` (C lowest).
    public static func < (lhs: PitchClass, rhs: PitchClass) -> Bool { lhs.value < rhs.value }

    /// All twelve pitch classes, C through B.
    public static let allCases: [PitchClass] = (0..<12).map { PitchClass($0) }

    /// Decodes from an integer (wrapped modulo 12) or a note name string such as "F#".
    public init(from decoder: any Decoder) throws {
        self = try decoder.singleValueContainer().decodeNumberOrName(PitchClass.init(_:), PitchClass.init(name:), what: "pitch class name")
    }

    /// Encodes as its sharp-spelled name, e.g. "F#".
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    private static let sharpNames = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
    private static let flatNames = ["C", "Db", "D", "Eb", "E", "F", "Gb", "G", "Ab", "A", "Bb", "B"]
}

// Note names as musicians write them (C, Db, F#): capitals on purpose.
// swift-format-ignore: AlwaysUseLowerCamelCase
extension PitchClass {
    /// C (0).
    public static let C = PitchClass(0)
    /// C sharp (1).
    public static let Cs = PitchClass(1)
    /// D flat (1).
    public static let Db = PitchClass(1)
    /// D (2).
    public static let D = PitchClass(2)
    /// D sharp (3).
    public static let Ds = PitchClass(3)
    /// E flat (3).
    public static let Eb = PitchClass(3)
    /// E (4).
    public static let E = PitchClass(4)
    /// F (5).
    public static let F = PitchClass(5)
    /// F sharp (6).
    public static let Fs = PitchClass(6)
    /// G flat (6).
    public static let Gb = PitchClass(6)
    /// G (7).
    public static let G = PitchClass(7)
    /// G sharp (8).
    public static let Gs = PitchClass(8)
    /// A flat (8).
    public static let Ab = PitchClass(8)
    /// A (9).
    public static let A = PitchClass(9)
    /// A sharp (10).
    public static let As = PitchClass(10)
    /// B flat (10).
    public static let Bb = PitchClass(10)
    /// B (11).
    public static let B = PitchClass(11)
}
