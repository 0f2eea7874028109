// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import FileOutput
import Sound
import Text
#if canImport(Glibc)
import Glibc
#endif

/// The JSON Lines manifests of a batch.
///
/// Each shard appends a line to `manifest-<I>-of-<N>.jsonl` as each item lands, and rewrites the
/// file sorted by item at its end. A line: `item`, `index`, `preset`, `preset_digest` (sha256 of
/// the preset file), `seed`, `settings` (field paths and values as `--set` took them), `arguments`
/// (the `clumsy run` arguments that remake the item, outputs left out), `outputs` (the kinds
/// requested), `files` (each file's path in the item's directory, bytes and sha256), `clumsy`,
/// `fluidsynth`, `soundfont` (file name and bytes, or null without sound) and `seconds` (wall-clock
/// time the item took). `clumsy batch merge` joins them into `manifest.jsonl` without `seconds`,
/// the one field that differs between two renders of the same batch.
enum Manifest {
    /// The shard manifest's name.
    static func shardName(_ shard: Shard) -> String { "manifest-\(shard.index)-of-\(shard.count).jsonl" }

    /// The merged manifest's name.
    static let mergedName = "manifest.jsonl"

    /// The fields that say what an item is (a rerun keeps an item whose fields match and whose files do).
    static func identity(_ plan: ItemPlan, outputs: Set<OutputKind>, soundFont: JSONValue) -> [(key: String, value: JSONValue)] {
        [("item", .string(plan.item.name)), ("index", .number(Double(plan.item.index))),
         ("preset", .string(plan.item.preset)), ("preset_digest", .string(plan.presetDigest)),
         ("seed", .number(Double(plan.item.seed), exact: plan.item.seed > 1 << 53 ? plan.item.seed : nil)),
         ("settings", .object(plan.item.settings.map { (key: $0.path, value: JSONValue.string($0.value)) })),
         ("arguments", .array(plan.arguments.map { .string($0) })),
         ("outputs", .array(outputs.sorted().map { .string($0.rawValue) })),
         ("clumsy", .string(Clumsy.version)), ("fluidsynth", .string(FluidSynthVersion.text)), ("soundfont", soundFont)]
    }

    /// A whole entry: the identity, the files and the seconds taken.
    static func entry(identity: [(key: String, value: JSONValue)], files: [(path: String, bytes: Int, sha256: String)], seconds: Double) -> JSONValue {
        let list: [JSONValue] = files.map {
            .object([("path", .string($0.path)), ("bytes", .number(Double($0.bytes))), ("sha256", .string($0.sha256))])
        }
        return .object(identity + [("files", .array(list)), ("seconds", .number((seconds * 1000).rounded() / 1000))])
    }

    /// An entry without the fields that vary between renders (`seconds`): a line of the merged manifest.
    static func stable(_ entry: JSONValue) -> JSONValue {
        guard case .object(let members) = entry else { return entry }
        return .object(members.filter { $0.key != "seconds" })
    }

    /// The entries of a manifest file by item name (a later line for an item replaces an earlier
    /// one; a line that does not parse, as a crash may leave last, is passed over). Empty if absent.
    static func read(_ path: String) -> [String: JSONValue] {
        guard FileBytes.kind(path) == .file, let bytes = try? FileBytes.read(path, what: "manifest") else { return [:] }
        var entries: [String: JSONValue] = [:]
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let json = try? JSONParser.parse(Array(line)), let item = JSONText.string("item", of: json) else { continue }
            entries[item] = json
        }
        return entries
    }

    /// True when `entry` states `identity` and every file it lists is in `directory` with its
    /// checksum. Files it does not list (the user's notes, features computed later) are the
    /// user's: they neither unfinish the item nor are ever removed.
    static func isDone(_ entry: JSONValue, identity: [(key: String, value: JSONValue)], directory: String) -> Bool {
        guard case .object(let members) = entry else { return false }
        let stated = members.filter { member in identity.contains { $0.key == member.key } }
        guard JSONText.of(.object(stated)) == JSONText.of(.object(identity)),
              case .array(let files)? = JSONText.member("files", of: entry) else { return false }
        for file in files {
            guard let path = JSONText.string("path", of: file), let sum = JSONText.string("sha256", of: file),
                  (try? FileBytes.sha256(directory + "/" + path)) == sum else { return false }
        }
        return true
    }

    /// The paths `entry` lists in its item's directory.
    static func listedPaths(_ entry: JSONValue?) -> Set<String> {
        guard let entry, case .array(let files)? = JSONText.member("files", of: entry) else { return [] }
        return Set(files.compactMap { JSONText.string("path", of: $0) })
    }

    /// Appends one line to the manifest at `path` in a single write (`O_APPEND`).
    /// - Throws: `.cannotCreate` (73) or `.io` (74).
    static func append(_ entry: JSONValue, to path: String) throws(SessionError) {
        let line = Array((JSONText.of(entry) + "\n").utf8)
        let fd = PathBytes.withCString(path) { open($0, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw .cannotCreate("\(Quote.text(path)): cannot open the manifest: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == line.count else { throw .io("\(Quote.text(path)): cannot write the manifest: \(String(cString: strerror(errno)))") }
    }

    /// Rewrites a manifest atomically: one line per entry, sorted by index.
    static func rewrite(_ entries: [JSONValue], to path: String) throws(SessionError) {
        let sorted = entries.sorted { (JSONText.number("index", of: $0) ?? 0) < (JSONText.number("index", of: $1) ?? 0) }
        try FileBytes.writeAtomically(sorted.map { JSONText.of($0) + "\n" }.joined(), to: path)
    }
}

extension FileBytes {
    /// The regular files under `directory`, as paths relative to it (`stems/bass.wav`).
    static func files(under directory: String, prefix: String = "") -> [String] {
        var found: [String] = []
        for name in names(in: directory) {
            switch kind(directory + "/" + name) {
            case .file: found.append(prefix + name)
            case .directory: found += files(under: directory + "/" + name, prefix: prefix + name + "/")
            default: found.append(prefix + name)
            }
        }
        return found
    }
}
