// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Presets

/// `OUT/batch.json`: what the whole batch is (its command without the shard, every item's
/// name), written the same by every shard, so that `clumsy batch merge` knows what must be there.
enum BatchPlanFile {
    static let name = "batch.json"

    static func write(_ request: BatchRequest) throws(SessionError) {
        let plan: JSONValue = .object([
            ("command", .array(request.command.map { .string($0) })),
            ("outputs", .array(request.outputs.sorted().map { .string($0.rawValue) })),
            ("items", .array(request.items.map { .string($0.name) })),
        ])
        try FileBytes.writeAtomically(JSONText.of(plan) + "\n", to: request.directory + "/" + name)
    }

    /// The command and the item names of the batch in `directory`.
    /// - Throws: `.noInput` (66) without `batch.json`, `.data` (65) for one that is not a batch's.
    static func read(_ directory: String) throws(SessionError) -> (command: [String], items: [String]) {
        let path = directory + "/" + name
        let json: JSONValue
        do { json = try JSONParser.parse(try FileBytes.read(path, what: "batch plan")) } catch let error as SessionError {
            throw error
        } catch {
            throw .data("\(Quote.text(path)): not the batch.json clumsy batch writes")
        }
        guard case .array(let items)? = JSONText.member("items", of: json), case .array(let command)? = JSONText.member("command", of: json) else {
            throw .data("\(Quote.text(path)): not the batch.json clumsy batch writes (no items or command)")
        }
        let text = { (values: [JSONValue]) in values.compactMap { value -> String? in
            if case .string(let s) = value { return s } else { return nil } } }
        return (text(command), text(items))
    }
}

/// `clumsy batch merge OUT`: the shard manifests joined into `manifest.jsonl` (sorted by item,
/// without `seconds`) and the dataset card `README.md`.
public enum BatchMerge {
    /// What a merge found.
    public struct Result: Sendable {
        public var items = 0
        public var shards = 0
    }

    /// Joins the shard manifests of `directory`.
    /// - Throws: `.data` (65) naming items missing, recorded by two shards, or whose entry does
    ///   not match its files (a file missing or changed, an index, preset or seed that does not
    ///   make the item's name; nothing is written then), `.noInput` (66) without `batch.json` or
    ///   any shard manifest.
    public static func merge(_ directory: String) throws(SessionError) -> Result {
        let (command, names) = try BatchPlanFile.read(directory)
        let manifests = FileBytes.names(in: directory).filter { $0.hasPrefix("manifest-") && $0.hasSuffix(".jsonl") }
        guard !manifests.isEmpty else {
            throw .noInput("\(Quote.text(directory)): no shard manifest (manifest-I-of-N.jsonl); run clumsy batch first")
        }
        var found: [String: JSONValue] = [:]
        var duplicated: [String] = []
        for manifest in manifests {
            for (item, entry) in Manifest.read(directory + "/" + manifest) {
                if found[item] != nil { duplicated.append(item) }
                found[item] = Manifest.stable(entry)
            }
        }
        let expected = Set(names)
        let missing = names.filter { found[$0] == nil }
        let extra = found.keys.filter { !expected.contains($0) }.sorted()
        var problems: [String] = []
        if !missing.isEmpty { problems.append("\(missing.count) missing: \(listed(missing))") }
        if !duplicated.isEmpty { problems.append("\(Set(duplicated).count) in two shard manifests: \(listed(Set(duplicated).sorted()))") }
        if !extra.isEmpty { problems.append("\(extra.count) not in this batch: \(listed(extra))") }
        if problems.isEmpty {
            let unchecked = names.compactMap { item in ManifestCheck.problem(found[item]!, item: item, directory: directory).map { "\(Quote.text(item)) (\($0))" } }
            if !unchecked.isEmpty {
                problems.append("\(unchecked.count) whose entry does not match the files: "
                    + unchecked.prefix(10).joined(separator: ", ") + (unchecked.count > 10 ? ", …" : ""))
            }
        }
        guard problems.isEmpty else {
            throw .data("\(Quote.text(directory)): cannot merge the manifests of \(names.count) items: " + problems.joined(separator: "; "))
        }
        let entries = names.map { found[$0]! }
        try Manifest.rewrite(entries, to: directory + "/" + Manifest.mergedName)
        try FileBytes.writeAtomically(DatasetCard.text(entries: entries, command: command, directory: directory), to: directory + "/README.md")
        return Result(items: entries.count, shards: manifests.count)
    }

    private static func listed(_ items: [String]) -> String {
        items.prefix(10).map { Quote.text($0) }.joined(separator: ", ") + (items.count > 10 ? ", …" : "")
    }
}
