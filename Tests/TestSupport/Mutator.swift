// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Text

/// The one mutation engine of every fuzz target: seeded, so a campaign is repeatable.
///
/// Each input starts from a seed file of the target and gets one to eight edits: bytes
/// replaced, flipped, removed or cut, runs duplicated, a token of the target's format
/// inserted or written over (JSON punctuation, MIDI status bytes and chunk lengths, OSC type
/// tags), a splice with another seed; and for JSON formats, structured edits of a decoded
/// document (or of one line of a JSON Lines log): members removed, added or renamed, values
/// replaced by extremes (1e308, -0, 2^53, huge strings, the wrong type).
public struct Mutator {
    /// How the target's inputs are built, for structured edits.
    public enum Structure: Sendable {
        /// Bytes only (MIDI files, OSC packets).
        case bytes
        /// One JSON document (presets).
        case json
        /// JSON Lines (event logs): one line at a time is decoded and edited.
        case jsonLines
    }

    private var rng: SplitMix64
    private let seeds: [[UInt8]]
    private let tokens: [[UInt8]]
    private let structure: Structure

    /// A mutator of `seeds` (at least one) with the format's `tokens`.
    public init(seeds: [[UInt8]], tokens: [[UInt8]], structure: Structure, seed: UInt64) {
        precondition(!seeds.isEmpty, "a fuzz target needs seed inputs")
        rng = SplitMix64(seed: seed, stream: 99)
        self.seeds = seeds
        self.tokens = tokens.isEmpty ? [[0]] : tokens
        self.structure = structure
    }

    /// The next input.
    public mutating func next() -> [UInt8] {
        let base = seeds[rng.below(seeds.count)]
        switch (structure, rng.below(4)) {
        case (.bytes, _), (_, 0): return mutateBytes(base)
        case (.json, _):
            guard var value = try? JSONParser.parse(base) else { return mutateBytes(base) }
            for _ in 0...rng.below(4) { value = mutate(value, depth: 0) }
            return Array(JSONWriter.text(value).utf8)
        case (.jsonLines, _):
            var lines = base.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
            for _ in 0...rng.below(3) {
                let index = rng.below(lines.count)
                guard var value = try? JSONParser.parse(lines[index]) else { continue }
                for _ in 0...rng.below(3) { value = mutate(value, depth: 0) }
                lines[index] = Array(JSONWriter.text(value).utf8)
            }
            return Array(lines.joined(separator: [UInt8(ascii: "\n")]))
        }
    }

    private mutating func mutateBytes(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0...rng.below(8) {
            guard !bytes.isEmpty else { return tokens[rng.below(tokens.count)] }
            let index = rng.below(bytes.count)
            switch rng.below(9) {
            case 0: bytes[index] = UInt8(truncatingIfNeeded: rng.next())
            case 1: bytes.remove(at: index)
            case 2: bytes.insert(contentsOf: tokens[rng.below(tokens.count)], at: index)
            case 3: bytes = Array(bytes[0..<index])
            case 4: bytes.insert(contentsOf: bytes[index..<min(bytes.count, index + rng.below(40))], at: index)
            case 5:
                let token = tokens[rng.below(tokens.count)]
                bytes.replaceSubrange(index..<min(bytes.count, index + token.count), with: token)
            case 6:
                let other = seeds[rng.below(seeds.count)]
                guard !other.isEmpty else { continue }
                let from = rng.below(other.count)
                bytes.replaceSubrange(index..., with: other[from..<min(other.count, from + rng.below(400) + 1)])
            case 7: bytes.removeSubrange(index..<min(bytes.count, index + rng.below(16) + 1))
            default: bytes[index] ^= 1 << UInt8(rng.below(8))
            }
        }
        return bytes
    }

    private static let extremes: [Double] = [0, -0.0, 1, -1, 1e308, -1e308, 1e-308, Double.leastNonzeroMagnitude, 0.5, 2, 7, 8, 127, 128, 1000, 1001,
                                             4096, 1e9, 1e21, 1e300, 9_007_199_254_740_992, -9_007_199_254_740_992, 9e18, -9e18, 0.001, 100, 101, 20,
                                             0.1, 0.95]
    private static let words = ["", "C", "H", "Cb", "B#", "C-1", "G9", "C99", "major", "bebop", "off", "marimba", "kazoo",
                                "folded", "ring", "scatter", "🎹", String(repeating: "x", count: 300), "\u{0}",
                                "session", "control", "end", "key", "bass", "drum", "keys", "gravity", "tempo", "dorian", "\u{1B}[2J"]

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
