// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A diatonic scale degree, 1 (tonic) through 7 (leading tone / subtonic).
public struct ScaleDegree: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Degree number in 1…7.
    public let number: Int

    /// Creates a degree; returns nil unless `number` is in 1…7.
    public init?(_ number: Int) {
        guard (1...7).contains(number) else { return nil }
        self.number = number
    }

    /// Creates a degree from any zero-based index, wrapping modulo 7 (0 → 1, 7 → 1, -1 → 7).
    public init(wrappingIndex index: Int) {
        self.number = ((index % 7) + 7) % 7 + 1
    }

    /// Zero-based index, 0…6.
    public var index: Int { number - 1 }

    /// The degree `steps` diatonic steps higher, wrapping within 1…7.
    public func advanced(by steps: Int) -> ScaleDegree {
        ScaleDegree(wrappingIndex: index + steps)
    }

    /// Upper-case Roman numeral without quality marks: "I" … "VII".
    public var romanNumeral: String { ScaleDegree.numerals[index] }

    /// The degree number as text.
    public var description: String { String(number) }

    /// Orders by degree number.
    public static func < (lhs: ScaleDegree, rhs: ScaleDegree) -> Bool { lhs.number < rhs.number }

    /// All seven degrees in order, 1…7.
    public static let all: [ScaleDegree] = (0..<7).map { ScaleDegree(wrappingIndex: $0) }

    /// Decodes from an integer in 1…7.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let number = try container.decode(Int.self)
        guard let degree = ScaleDegree(number) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Scale degree \(number) is outside 1…7")
        }
        self = degree
    }

    /// Encodes as its number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(number)
    }

    private static let numerals = ["I", "II", "III", "IV", "V", "VI", "VII"]
}
