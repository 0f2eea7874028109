/// A seven-note scale (mode) described by semitone offsets of its degrees from the tonic.
public struct Scale: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Canonical name, e.g. "major" or "harmonicMinor".
    public let name: String
    /// Semitone offsets of degrees 1…7 from the tonic: starts at 0, strictly increasing, all < 12.
    public let steps: [Int]

    /// Creates a scale; returns nil unless `steps` has 7 strictly increasing values starting at 0 and below 12.
    public init?(name: String, steps: [Int]) {
        guard Scale.isValid(steps: steps) else { return nil }
        self.name = name
        self.steps = steps
    }

    /// Unchecked initializer for the built-in catalog.
    init(catalogName name: String, steps: [Int]) {
        precondition(Scale.isValid(steps: steps), "invalid catalog scale \(name)")
        self.name = name
        self.steps = steps
    }

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

    /// Encodes as an object with `name` and `steps`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(steps, forKey: .steps)
    }
}
