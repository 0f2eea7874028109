// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Engine
import Errors
import EventLog
import Performance
import Text
import Theory
import Vocabulary

/// `--vary field=lo..hi`, `--vary field=a,b,c` or `--vary field=*`: a preset field whose value
/// each item draws for itself, from a random stream keyed by the item (its name) and the
/// field, so an item's settings depend neither on the shard that renders it nor on any other item.
public struct Variation: Sendable, Equatable {
    /// The field's dotted path (`world.gravity`); a flag name (`gravity`, `key`) is accepted and resolved.
    public let path: String
    /// What is drawn from.
    public let values: Values

    /// The kinds of draw.
    public enum Values: Sendable, Equatable {
        /// A number uniform in the range, kept to 3 decimals.
        case numbers(ClosedRange<Double>)
        /// A whole number, each equally likely.
        case integers(ClosedRange<Int>)
        /// One of these texts, each equally likely.
        case choices([String])
    }

    /// The tonics `key=*` draws from (one spelling each).
    static let tonics = ["C", "C#", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"]

    /// Reads `field=lo..hi`, `field=a,b,c` or `field=*`.
    /// - Throws: `.usage` (64) naming the flag, the field and what is accepted.
    public init(parsing text: String) throws(SessionError) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw .usage("--vary \(Quote.text(text)) is not accepted; expected field=lo..hi, field=a,b,c or field=*, e.g. --vary gravity=2..12")
        }
        let name = String(text[..<equals])
        let spec = String(text[text.index(after: equals)...])
        guard let setting = PresetField.at(name) ?? PresetField.flagged(name) else {
            throw .usage("--vary \(Quote.text(name)): no such preset field\(Suggestion.didYouMean(name, in: PresetField.paths)); the fields are listed in Presets/README.md")
        }
        path = setting.path
        if spec == "*" {
            guard let all = Self.choices(of: setting) else {
                throw .usage("--vary \(path)=*: this field has no short list of values; give lo..hi or a,b,c (accepted: \(setting.accepted))")
            }
            values = .choices(all)
        } else if let (low, high) = Self.splitRange(spec) {
            values = try Self.range(low, high, setting)
        } else {
            let items = spec.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard !items.contains(where: \.isEmpty) else {
                throw .usage("--vary \(path)=\(Quote.text(spec)): an empty value; expected lo..hi, a,b,c or *")
            }
            values = .choices(items)
        }
    }

    /// Every value of a field with a short closed list: tonics, scales, meters, true/false, choices.
    static func choices(of setting: PresetField) -> [String]? {
        switch setting.path {
        case "key.tonic": return tonics
        case "key.scale": return Scale.catalogNames
        case "meter": return Meter.all.map(\.description)
        default: break
        }
        if setting.type == "boolean" { return ["true", "false"] }
        let names = setting.valueName.split(separator: "|").map(String.init)
        if names.count > 1, setting.accepted == names.joined(separator: ", ") { return names }
        return nil
    }

    private static func range(_ low: String, _ high: String, _ setting: PresetField) throws(SessionError) -> Values {
        let shown = "--vary \(setting.path)=\(Quote.text(low))..\(Quote.text(high))"
        if setting.type == "integer", let lo = Int(low), let hi = Int(high) {
            guard lo <= hi else { throw .usage("\(shown): the low end is above the high end") }
            return .integers(lo...hi)
        }
        guard let bounds = setting.numberRange else {
            throw .usage("\(shown): \(setting.path) is not a number; give a,b,c\(choices(of: setting) == nil ? "" : " or *") (accepted: \(setting.accepted))")
        }
        guard let lo = Self.decimal(low), let hi = Self.decimal(high), lo.isFinite, hi.isFinite, lo <= hi else {
            throw .usage("\(shown): expected two numbers, low first, e.g. \(setting.path)=\(Format.plain(bounds.lowerBound))..\(Format.plain(bounds.upperBound))")
        }
        guard bounds.contains(lo), bounds.contains(hi) else {
            throw .usage("\(shown) is out of range; accepted: \(Limits.text(bounds))")
        }
        return .numbers(lo...hi)
    }

    /// A number written in decimal (`12`, `-0.5`, `1e3`), nil for anything else `Double`
    /// would read (`0x10` as 16, `inf`, `nan`).
    static func decimal(_ text: String) -> Double? {
        let allowed = "0123456789+-.eE".unicodeScalars
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ allowed.contains($0) }) else { return nil }
        return Double(text)
    }

    /// The value item `key` draws (the same whatever else is drawn, in whatever order).
    func draw(for key: String) -> String {
        var random = SplitMix64(seed: fnv1a64(key), stream: fnv1a64(path))
        switch values {
        case .numbers(let range): return Format.plain((random.uniform(range) * 1000).rounded() / 1000)
        case .integers(let range): return String(range.lowerBound + random.below(range.count))
        case .choices(let items): return items[random.below(items.count)]
        }
    }
}

extension Variation {
    /// `lo..hi` as its two ends, or nil without `..`.
    static func splitRange(_ text: String) -> (String, String)? {
        let characters = Array(text)
        for index in characters.indices.dropLast() where characters[index] == "." && characters[index + 1] == "." {
            return (String(characters[..<index]), String(characters[(index + 2)...]))
        }
        return nil
    }
}

/// FNV-1a, 64 bits, of a text's UTF-8 bytes.
func fnv1a64(_ text: String) -> UInt64 {
    var hash = PlanDigest.FNV1a64()
    hash.add(text.utf8)
    return hash.value
}
