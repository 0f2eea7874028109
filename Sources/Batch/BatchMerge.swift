// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import FileOutput
import Text
#if canImport(Glibc)
import Glibc
#endif

/// `OUT/batch.json`: what the whole batch is (its command without the shard, every item's
/// name), the same for every shard, so that `clumsy batch merge` knows what must be there.
/// The first shard writes it; the others find it as they would write it and leave it.
enum BatchPlanFile {
    static let name = "batch.json"

    /// Writes the plan unless the file holds it already. Made a piece at a time, never whole:
    /// the plan of 3 million items is 78 MB.
    static func write(_ request: BatchRequest) throws(SessionError) {
        let path = request.directory + "/" + name
        if holds(request, path) { return }
        try FileBytes.writeAtomically(to: path) { file throws(FileOutputError) in
            var failure: FileOutputError?
            pieces(of: request) { piece in
                guard failure == nil else { return }
                do throws(FileOutputError) { try file.write(piece) } catch { failure = error }
            }
            if let failure { throw failure }
        }
    }

    /// True when the regular file `path` holds the plan's bytes exactly (compared a piece at a time).
    private static func holds(_ request: BatchRequest, _ path: String) -> Bool {
        guard FileBytes.kind(path) == .file, let fd = try? InputFile.open(path, what: "batch plan") else { return false }
        defer { close(fd) }
        var same = true, offset = 0
        pieces(of: request) { piece in
            guard same else { return }
            let expected = Array(piece.utf8)
            var found = [UInt8](repeating: 0, count: expected.count)
            let count = found.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset)) }
            same = count == expected.count && found == expected
            offset += expected.count
        }
        return same && offset == FileBytes.size(path)
    }

    /// True when `path` is a regular file that begins and ends as a plan does, read without
    /// parsing the whole (a shard of a large batch checks it before it renders).
    static func looksWritten(_ path: String) -> Bool {
        let size = FileBytes.size(path)
        let head = Array("{\"command\":[".utf8), tail = Array("]}\n".utf8)
        guard FileBytes.kind(path) == .file, size >= head.count + tail.count,
              let fd = try? InputFile.open(path, what: "batch plan") else { return false }
        defer { close(fd) }
        var start = [UInt8](repeating: 0, count: head.count), end = [UInt8](repeating: 0, count: tail.count)
        let first = start.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        let last = end.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(size - tail.count)) }
        return first == head.count && last == tail.count && start == head && end == tail
    }

    /// The plan's text in pieces of about 64 KB (the compact JSON of command, outputs and items).
    private static func pieces(of request: BatchRequest, _ body: (String) -> Void) {
        var text = "{\"command\":" + JSONText.of(.array(request.command.map { .string($0) }))
            + ",\"outputs\":" + JSONText.of(.array(request.outputs.sorted().map { .string($0.rawValue) })) + ",\"items\":["
        for index in 0..<request.items.count {
            if index > 0 { text += "," }
            text += Format.jsonString(request.items.name(of: index))
            if text.utf8.count >= 1 << 16 {
                body(text)
                text = ""
            }
        }
        body(text + "]}\n")
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
