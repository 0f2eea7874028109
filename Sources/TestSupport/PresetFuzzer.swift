import Presets
import Session

/// Mutates preset files at random (seeded) to check that the decoder and the simulator
/// meet hostile input with clean errors or valid sessions: never a crash, never a hang.
public struct PresetFuzzer {
    /// What one input did.
    public enum Outcome: Equatable, Sendable {
        /// Decoded, configured and simulated briefly.
        case ran
        /// Rejected with a preset (65) or usage (64) error.
        case rejected(Int32)
    }

    private var rng: SplitMix64
    private let seeds: [[UInt8]]
    private let seedValues: [JSONValue]

    /// A fuzzer starting from `corpus` (preset file contents) with a seed.
    public init(corpus: [[UInt8]], seed: UInt64) {
        rng = SplitMix64(seed: seed, stream: 99)
        seeds = corpus
        seedValues = corpus.compactMap { try? JSONParser.parse($0) }
    }

    /// The next mutated input.
    public mutating func next() -> [UInt8] {
        let base = seeds[rng.below(seeds.count)]
        switch rng.below(4) {
        case 0: return mutateBytes(base)
        default:
            guard !seedValues.isEmpty else { return mutateBytes(base) }
            var value = seedValues[rng.below(seedValues.count)]
            for _ in 0...rng.below(4) { value = mutate(value, depth: 0) }
            return Array(JSONWriter.text(value).utf8)
        }
    }

    /// Runs one input through the decoder and, if accepted, a short simulation.
    public static func check(_ bytes: [UInt8], duration: Double = 0.25) throws(SessionError) -> Outcome {
        do {
            let preset = try Preset.decode(bytes, file: "fuzz.json", defaultName: "fuzz")
            let configuration = try Configuration(preset: preset, duration: duration)
            try Simulator(configuration: configuration).run(into: [])
            return .ran
        } catch {
            switch error {
            case .preset, .usage: return .rejected(error.exitStatus)
            default: throw error
            }
        }
    }

    private mutating func mutateBytes(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0...rng.below(8) {
            guard !bytes.isEmpty else { return [UInt8(truncatingIfNeeded: rng.next())] }
            let index = rng.below(bytes.count)
            switch rng.below(6) {
            case 0: bytes[index] = UInt8(truncatingIfNeeded: rng.next())
            case 1: bytes.remove(at: index)
            case 2: bytes.insert(Array("{}[],:\"0-.eE9nt \\".utf8)[rng.below(17)], at: index)
            case 3: bytes = Array(bytes[0..<index])
            case 4: bytes.insert(contentsOf: bytes[index..<min(bytes.count, index + rng.below(40))], at: index)
            default: bytes[index] ^= 1 << UInt8(rng.below(8))
            }
        }
        return bytes
    }

    private static let extremes: [Double] = [0, -0.0, 1, -1, 1e308, -1e308, 1e-308, Double.leastNonzeroMagnitude, 0.5, 2, 7, 8, 127, 128, 1000, 1001,
                                             4096, 1e9, 9_007_199_254_740_992, -9_007_199_254_740_992, 0.001, 100, 101, 20, 0.1, 0.95]
    private static let words = ["", "C", "H", "Cb", "B#", "C-1", "G9", "C99", "major", "bebop", "off", "marimba", "kazoo",
                                "folded", "ring", "scatter", "🎹", String(repeating: "x", count: 300), "\u{0}"]

    private mutating func randomLeaf() -> JSONValue {
        switch rng.below(6) {
        case 0: return .number(Self.extremes[rng.below(Self.extremes.count)])
        case 1: return .number(rng.uniform(-1000...1000))
        case 2: return .string(Self.words[rng.below(Self.words.count)])
        case 3: return .bool(rng.below(2) == 0)
        case 4: return .null
        default: return rng.below(2) == 0 ? .array([.number(Double(rng.below(9)))]) : .object([])
        }
    }

    private mutating func mutate(_ value: JSONValue, depth: Int) -> JSONValue {
        if depth > 6 || rng.below(5) == 0 { return randomLeaf() }
        switch value {
        case .object(var members):
            guard !members.isEmpty else { return .object([("piano", .object([("count", randomLeaf())]))]) }
            let index = rng.below(members.count)
            switch rng.below(5) {
            case 0: members.remove(at: index)
            case 1: members.append((members[index].key + (rng.below(2) == 0 ? "x" : ""), randomLeaf()))
            default: members[index].value = mutate(members[index].value, depth: depth + 1)
            }
            return .object(members)
        case .array(var items):
            if items.isEmpty || rng.below(4) == 0 { items.append(randomLeaf()); return .array(items) }
            let index = rng.below(items.count)
            if rng.below(3) == 0 { items.remove(at: index) } else { items[index] = mutate(items[index], depth: depth + 1) }
            return .array(items)
        case .number(let n, _):
            return rng.below(2) == 0 ? .number(Self.extremes[rng.below(Self.extremes.count)]) : .number(n * rng.uniform(-3...3))
        default:
            return randomLeaf()
        }
    }
}
