// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A scale (mode): seven harmonic degrees given as semitone offsets from the tonic, of which the
/// scale plays all (the church modes, harmonic and melodic minor) or a subset (pentatonic, blues).
///
/// A scale of fewer than seven notes keeps the seven-degree scale it is drawn from in `steps`
/// (major for major pentatonic, natural minor for minor pentatonic and blues): its chords are
/// that scale's chords, and its Roman numerals count that scale's degrees (C major pentatonic
/// has I II III V VI). The blues scale's ♭5 is an added tone (`addedTones`), a scale tone
/// without a degree or a chord of its own.
public struct Scale: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Canonical name, e.g. "major", "harmonicMinor" or "minorPentatonic".
    public let name: String
    /// Semitone offsets of harmonic degrees 1…7 from the tonic: starts at 0, strictly increasing, all < 12.
    public let steps: [Int]
    /// The degrees the scale plays, ascending: all seven, or five for a pentatonic scale.
    public let degrees: [ScaleDegree]
    /// Tones the scale plays besides its degrees (the blues scale's ♭5); usually none.
    public let addedTones: [ScaleTone]
    /// Steps whose key signature chooses the tonic's spelling: `steps`, except the natural minor's
    /// for harmonic and melodic minor (so E♭ harmonic minor is spelled like E♭ minor).
    public let signatureSteps: [Int]

    /// Creates a seven-note scale; returns nil unless `steps` has 7 strictly increasing values starting at 0 and below 12.
    public init?(name: String, steps: [Int]) {
        guard Scale.isValid(steps: steps) else { return nil }
        self.name = name
        self.steps = steps
        self.degrees = ScaleDegree.all
        self.addedTones = []
        self.signatureSteps = steps
    }

    /// Unchecked initializer for the built-in catalog.
    init(catalogName name: String, steps: [Int], degrees: [Int] = [1, 2, 3, 4, 5, 6, 7],
         addedTones: [ScaleTone] = [], signatureSteps: [Int]? = nil) {
        precondition(Scale.isValid(steps: steps), "invalid catalog scale \(name)")
        self.name = name
        self.steps = steps
        self.degrees = degrees.map { ScaleDegree($0)! }
        self.addedTones = addedTones
        self.signatureSteps = signatureSteps ?? steps
    }

    /// How many different notes the scale plays in an octave (7, 6 for blues, 5 for pentatonic).
    public var noteCount: Int { degrees.count + addedTones.count }

    /// Semitone offsets from the tonic of every note the scale plays, ascending.
    public var toneSteps: [Int] { (degrees.map { steps[$0.index] } + addedTones.map(\.step)).sorted() }

    /// Whether the scale plays `degree`.
    public func contains(_ degree: ScaleDegree) -> Bool { degrees.contains(degree) }

    /// Whether `steps` is a valid seven-degree step list.
    public static func isValid(steps: [Int]) -> Bool {
        guard steps.count == 7, steps.first == 0, let last = steps.last, last < 12 else { return false }
        return zip(steps, steps.dropFirst()).allSatisfy { $0 < $1 }
    }

    /// Semitone offset of the given degree above the tonic.
    public func step(of degree: ScaleDegree) -> Int { steps[degree.index] }

    /// Human-readable lower-case name with spaces, e.g. "harmonic minor" for "harmonicMinor".
    public var displayName: String {
        var result = ""
        for c in name {
            if c.isUppercase {
                if !result.isEmpty { result.append(" ") }
                result.append(contentsOf: c.lowercased())
            } else {
                result.append(c)
            }
        }
        return result
    }

    /// The display name.
    public var description: String { displayName }

    private enum CodingKeys: String, CodingKey { case name, steps }

    /// Decodes from a catalog name string (e.g. "dorian") or an object with `name` and `steps`.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
            guard let scale = Scale.named(text) else {
                throw DecodingError.dataCorruptedError(
                    in: single,
                    debugDescription: "Unknown scale \"\(text)\"; known: \(Scale.catalogNames.joined(separator: ", "))")
            }
            self = scale
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        let steps = try container.decode([Int].self, forKey: .steps)
        guard let scale = Scale(name: name, steps: steps) else {
            throw DecodingError.dataCorruptedError(forKey: .steps, in: container,
                                                   debugDescription: "Scale steps \(steps) are not 7 increasing offsets 0..<12 starting at 0")
        }
        self = scale
    }

    /// Encodes a catalog scale as its name ("dorian", "blues"), any other as an object with `name` and `steps`.
    public func encode(to encoder: any Encoder) throws {
        if Scale.named(name) == self {
            var single = encoder.singleValueContainer()
            try single.encode(name)
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(steps, forKey: .steps)
    }
}
