// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import Text

/// One session of a batch: a preset, a seed and `--set` settings, with its place `index` in the
/// whole batch (the k of `--shard I/N`: items with k mod N = I) and its `name`, the directory
/// its outputs go to: `<index, 5 digits>-<preset>-s<seed>`, never the shard.
public struct BatchItem: Sendable, Equatable {
    /// 0-based place in the batch.
    public let index: Int
    /// The preset as given (a bundled name or a path).
    public let preset: String
    /// The session's seed.
    public let seed: UInt64
    /// `--set` settings, in order: path and value text.
    public let settings: [(path: String, value: String)]

    public static func == (a: BatchItem, b: BatchItem) -> Bool {
        a.index == b.index && a.preset == b.preset && a.seed == b.seed
            && a.settings.map { $0.path + "=" + $0.value } == b.settings.map { $0.path + "=" + $0.value }
    }

    /// The item's directory name (and the stem of its files).
    public var name: String {
        let number = String(index)
        return String(repeating: "0", count: max(0, 5 - number.count)) + number + "-" + Self.safeName(preset) + "-s" + String(seed)
    }

    /// The preset's file name without directories and `.json`, kept to letters, digits, `.`, `_`, `-`.
    static func safeName(_ preset: String) -> String {
        var base = Substring(preset.split(separator: "/").last ?? Substring(preset))
        if base.lowercased().hasSuffix(".json") { base = base.dropLast(5) }
        let kept = base.unicodeScalars.map { scalar -> Character in
            let ok = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
            return ok ? Character(scalar) : "_"
        }
        let text = String(kept.prefix(60))
        return text.isEmpty || text.hasPrefix(".") ? "_" + text : text
    }

    /// The `clumsy run` options that make this item's notes (outputs not included), without the preset.
    public var runOptions: [String] {
        var arguments = ["--seed", String(seed)]
        for setting in settings { arguments += ["--set", setting.path + "=" + setting.value] }
        return arguments
    }

    /// The options, then `--` and the preset: a preset named `--help` or `--score=/x.ly` (a
    /// path, from a manifest) is the preset, never an option of the child `clumsy run`.
    public var runArguments: [String] { runOptions + ["--", preset] }
}

/// Parses `--seeds`: `N`, `lo..hi` (inclusive) or `a,b,c`.
public enum SeedList {
    /// The seeds, in order. - Throws: `.usage` (64) saying what is accepted.
    public static func parse(_ text: String) throws(SessionError) -> [UInt64] {
        let accepted = "expected a seed, lo..hi (inclusive, at most 1000000 seeds) or a,b,c, e.g. --seeds 1..1000"
        if let (low, high) = Variation.splitRange(text) {
            guard let lo = UInt64(low), let hi = UInt64(high), lo <= hi,
                  hi - lo < 1_000_000 else {
                throw .usage("--seeds \(Quote.text(text)) is not accepted; \(accepted)")
            }
            return Array(lo...hi)
        }
        var seeds: [UInt64] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let seed = UInt64(part) else { throw .usage("--seeds \(Quote.text(text)) is not accepted; \(accepted)") }
            seeds.append(seed)
        }
        return seeds
    }
}

/// The items of a batch, each made when asked for: a batch of presets × seeds (3 million items
/// and more) holds its presets, its seeds and its settings, never a list of its items, so a
/// shard plans only its own (item k is preset k / seeds, seed k mod seeds).
public struct BatchItemList: Sendable {
    private enum Source: Sendable {
        case grid(presets: [String], seeds: [UInt64], fixed: [(path: String, value: String)], variations: [Variation])
        case listed([BatchItem])
    }

    private let source: Source
    /// Items in the whole batch (every shard).
    public let count: Int

    /// Every preset with every seed (preset by preset), each varied field drawn for the item.
    public init(presets: [String], seeds: [UInt64], fixed: [FieldAssignment], variations: [Variation]) {
        source = .grid(presets: presets, seeds: seeds, fixed: fixed.map { (path: $0.path, value: $0.text) }, variations: variations)
        count = presets.count * seeds.count
    }

    /// These items, in order (their indexes must be 0, 1, 2…).
    public init(_ items: [BatchItem]) {
        source = .listed(items)
        count = items.count
    }

    /// Item `index` (0 ≤ index < count).
    public func item(_ index: Int) -> BatchItem {
        switch source {
        case .listed(let items): return items[index]
        case .grid(let presets, let seeds, let fixed, let variations):
            let preset = presets[index / seeds.count], seed = seeds[index % seeds.count]
            let key = BatchItem(index: index, preset: preset, seed: seed, settings: []).name
            let settings = fixed + variations.map { (path: $0.path, value: $0.draw(for: key)) }
            return BatchItem(index: index, preset: preset, seed: seed, settings: settings)
        }
    }

    /// The directory name of item `index` (as `item(index).name`, without drawing its settings).
    public func name(of index: Int) -> String {
        switch source {
        case .listed(let items): return items[index].name
        case .grid(let presets, let seeds, _, _):
            return BatchItem(index: index, preset: presets[index / seeds.count], seed: seeds[index % seeds.count], settings: []).name
        }
    }

    /// The indexes of the items `shard` renders.
    public func indexes(in shard: Shard) -> StrideTo<Int> { stride(from: shard.index, to: count, by: shard.count) }

    /// The presets the items name, each once, in order of first use.
    public var presets: [String] {
        let named: [String]
        switch source {
        case .grid(let presets, _, _, _): named = presets
        case .listed(let items): named = items.map(\.preset)
        }
        var seen = Set<String>()
        return named.filter { seen.insert($0).inserted }
    }

    /// True when `name` is the directory name of one of the items (read back from its index).
    public func contains(name: String) -> Bool {
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        guard digits.count >= 5, name.dropFirst(digits.count).first == "-", let index = Int(digits), (0..<count).contains(index) else { return false }
        return self.name(of: index) == name
    }
}

/// Reads the items of a batch.
public enum BatchItems {
    /// Every preset with every seed (preset by preset), each varied field drawn for the item.
    public static func make(presets: [String], seeds: [UInt64], fixed: [FieldAssignment], variations: [Variation]) -> BatchItemList {
        BatchItemList(presets: presets, seeds: seeds, fixed: fixed, variations: variations)
    }

    /// Items from a JSON Lines file, one object a line: `preset` (required), `seed` (default 1),
    /// `settings` (an object of field paths and values, as `--set` takes them). Blank lines are skipped.
    /// - Throws: `.noInput` (66) for an unreadable file, `.data` (65) naming the line and field.
    public static func read(manifest path: String) throws(SessionError) -> BatchItemList {
        let text = String(decoding: try FileBytes.read(path, what: "item manifest"), as: UTF8.self)
        var items: [BatchItem] = []
        // "\r\n" is one Character: split on either, so a CRLF file is as many lines as an LF one.
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated()
        where !line.allSatisfy({ $0 == " " || $0 == "\r" || $0 == "\t" }) {
            let place = "\(Quote.text(path)) line \(number + 1)"
            let json: JSONValue
            do { json = try JSONParser.parse(Array(line.utf8)) } catch {
                throw .data("\(place): \(error.description)")
            }
            guard let preset = JSONText.string("preset", of: json), !preset.isEmpty else {
                throw .data("\(place): field preset: expected a preset name or path")
            }
            var seed: UInt64 = 1
            if let value = JSONText.member("seed", of: json) {
                switch value {
                case .number(let number, let exact) where exact != nil || (number >= 0 && number == number.rounded() && number < 9e15):
                    seed = exact ?? UInt64(number)
                case .string(let text) where UInt64(text) != nil: seed = UInt64(text)!
                default: throw .data("\(place): field seed: expected a whole number 0…\(UInt64.max)")
                }
            }
            var settings: [(path: String, value: String)] = []
            if let object = JSONText.member("settings", of: json) {
                guard case .object(let members) = object else { throw .data("\(place): field settings: expected an object of field paths and values") }
                for member in members {
                    let value: String
                    if case .string(let text) = member.value { value = text } else { value = JSONText.of(member.value) }
                    settings.append((path: member.key, value: value))
                }
            }
            items.append(BatchItem(index: items.count, preset: preset, seed: seed, settings: settings))
        }
        guard !items.isEmpty else { throw .data("\(Quote.text(path)): no items (one JSON object a line: {\"preset\": \"default\", \"seed\": 7})") }
        return BatchItemList(items)
    }
}
