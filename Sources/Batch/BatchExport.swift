// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import FileOutput
import Text
#if canImport(Glibc)
import Glibc
#endif

/// What `clumsy batch export` is asked.
public struct ExportRequest: Sendable {
    /// The finished, merged batch's directory.
    public var batch: String
    /// The export's directory (must not exist unless `overwrite`).
    public var output: String
    /// Items per shard, or nil for the default (`BatchExport.shardSize`).
    public var shardSize: Int?
    /// Replace an earlier export at `output`.
    public var overwrite = false

    public init(batch: String, output: String) {
        self.batch = batch
        self.output = output
    }
}

/// `clumsy batch export BATCH OUT`: a finished batch as WebDataset shards that a dataset hub
/// and a PyTorch or `datasets` loader read without Clumsy: `OUT/data/train-00000.tar`, … (plain
/// ustar, `TarWriter`), each holding for every item, in index order, `KEY.json` (its settings
/// from the manifest and, with labels, its key, chords, beats, tempi, sections and the whole
/// JAMS text), `KEY.mid` and the audio (`KEY.wav`, `.flac` or `.ogg`) when the batch has them;
/// and the dataset card `OUT/README.md`, whose YAML front matter names the shards and declares
/// the columns. KEY is the item's name with its dots made `_` (WebDataset splits a member's
/// name at its first dot). Every file packed is checked against its sha256 in `manifest.jsonl`
/// first; the export is written beside OUT under a hidden name and renamed into place whole.
public enum BatchExport {
    /// What an export wrote.
    public struct Result: Sendable {
        public var items = 0
        public var shards = 0
        public var shardSize = 0
        public var bytes = 0
    }

    /// A dataset hub's limit of files in one folder (and the shards an export may make).
    public static let folderLimit = 10_000
    /// The default shard's size in bytes, roughly: the items per shard are chosen to come near it.
    public static let shardBytes = 500_000_000
    /// The default shard's most items, whatever their size.
    public static let shardItems = 1_000
    /// The audio formats a batch writes, as member extensions.
    static let audioExtensions = ["flac", "ogg", "wav"]

    /// Items per shard: `requested`, or as many as fill about `shardBytes` (at most
    /// `shardItems`); in either case few enough shards for one folder (`folderLimit`).
    /// - Throws: `.usage` (64) for a requested size that makes more than `folderLimit` shards.
    public static func shardSize(items: Int, bytes: Int, requested: Int?) throws(SessionError) -> Int {
        let fewest = max(1, (items + folderLimit - 1) / folderLimit)
        if let requested {
            guard requested >= fewest else {
                throw .usage("--shard-size \(requested) makes \((items + requested - 1) / max(1, requested)) shards of \(items) items, "
                    + "more than the \(folderLimit) files a dataset hub reads in one folder; accepted: \(fewest) or more")
            }
            return requested
        }
        let perItem = max(1, bytes / max(1, items))
        return max(fewest, min(shardItems, max(1, shardBytes / perItem)))
    }

    /// The shard file of number `index`, inside `data/`.
    static func shardName(_ index: Int) -> String {
        let digits = String(index)
        return "train-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + ".tar"
    }

    /// The WebDataset key of an item: its name, dots made `_` (names differ in their index, so keys do too).
    static func key(of item: String) -> String { String(item.map { $0 == "." ? "_" : $0 }) }

    /// Writes the export. - Throws: `.noInput` (66) without a batch or its `manifest.jsonl`;
    /// `.data` (65) for an unfinished batch (items missing from `manifest.jsonl`, named) or a
    /// file that is missing or not what the manifest says (named); `.usage` (64) for an output
    /// that is the batch or one of its own names, or a shard size that fills a folder too full;
    /// `.cannotCreate` (73) for an output that exists (without `overwrite`) or is not an
    /// export, `.io` (74) for a failed write.
    public static func export(_ request: ExportRequest) throws(SessionError) -> Result {
        let batch = request.batch
        let (_, names) = try BatchPlanFile.read(batch)
        let manifestPath = batch + "/" + Manifest.mergedName
        guard FileBytes.kind(manifestPath) == .file else {
            throw .noInput("\(Quote.text(manifestPath)) is missing: the batch is unfinished or not merged; "
                + "finish it (rerun its command) and run clumsy batch merge \(Quote.text(batch))")
        }
        let entries = Manifest.read(manifestPath)
        let missing = names.filter { entries[$0] == nil }
        guard missing.isEmpty else {
            throw .data("\(Quote.text(batch)): unfinished: \(missing.count) of \(names.count) items are not in manifest.jsonl: "
                + missing.prefix(10).map { Quote.text($0) }.joined(separator: ", ") + (missing.count > 10 ? ", …" : "")
                + "; finish the batch (rerun its command, then clumsy batch merge)")
        }
        let items = names.map { ExportItem(name: $0, entry: entries[$0]!) }
        let fields = Set(items.flatMap { $0.members.map(\.field) })
        let size = try shardSize(items: items.count, bytes: items.reduce(0) { $0 + $1.bytes }, requested: request.shardSize)
        let output = try ExportOutput(request, items: Set(names))
        var result = Result(items: items.count, shards: 0, shardSize: size)
        do throws(SessionError) {
            try FileBytes.makeDirectory(output.partial + "/data", existingIsFine: false)
            var first = 0
            while first < items.count {
                let shard = items[first..<min(items.count, first + size)]
                result.bytes += try write(shard, to: output.partial + "/data/" + shardName(result.shards), batch: batch)
                result.shards += 1
                first += size
            }
            let card = ExportCard.text(items: items.count, shards: result.shards, shardSize: size, fields: fields,
                                       batchCard: try? FileBytes.read(batch + "/README.md", what: "dataset card"))
            try FileBytes.writeAtomically(card, to: output.partial + "/README.md")
            try output.commit()
        } catch {
            output.abandon()
            throw error
        }
        return result
    }

    /// Writes one shard (`AtomicFile`: complete or absent); returns its size in bytes.
    private static func write(_ items: ArraySlice<ExportItem>, to path: String, batch: String) throws(SessionError) -> Int {
        let file: AtomicFile
        do throws(FileOutputError) { file = try AtomicFile(path: path) } catch { throw .cannotCreate(error.description) }
        do throws(SessionError) {
            var tar = TarWriter(file)
            for item in items {
                let key = key(of: item.name)
                var members: [(name: String, bytes: [UInt8])] = []
                var jams: [UInt8]?
                for member in item.members {
                    let bytes = try member.verifiedBytes(in: batch + "/" + item.name)
                    if member.field == "jams" { jams = bytes } else { members.append((key + "." + member.field, bytes)) }
                }
                members.append((key + ".json", Array(try ExportRecord.text(item.entry, jams: jams, path: batch + "/" + item.name).utf8)))
                for member in members.sorted(by: { $0.name < $1.name }) { try tar.add(member.name, member.bytes) }
            }
            try tar.finish()
            do throws(FileOutputError) { try file.commit() } catch { throw .io(error.description) }
            return tar.bytesWritten
        } catch {
            file.abandon()
            throw error
        }
    }
}

/// An item as its `manifest.jsonl` entry lists it: the files the export packs or reads.
struct ExportItem {
    struct Member {
        /// The WebDataset field: `mid`, `wav`/`flac`/`ogg`, or `jams` (read into `KEY.json`).
        let field: String
        let path: String
        let bytes: Int
        let sha256: String

        /// The file's bytes, checked against the manifest.
        /// - Throws: `.data` (65) naming the file when it is missing or not the one recorded.
        func verifiedBytes(in directory: String) throws(SessionError) -> [UInt8] {
            let full = directory + "/" + path
            guard FileBytes.kind(full) == .file, let bytes = try? FileBytes.read(full, what: "item file") else {
                throw .data("\(Quote.text(full)) is missing (manifest.jsonl lists it); render the item again (rerun the batch's command) and merge")
            }
            var hash = SHA256()
            hash.add(bytes)
            guard bytes.count == self.bytes, hash.hex() == sha256 else {
                throw .data("\(Quote.text(full)): its size or sha256 is not manifest.jsonl's (the file changed or is corrupt); "
                    + "render the item again (rerun the batch's command) and merge")
            }
            return bytes
        }
    }

    let name: String
    let entry: JSONValue
    let members: [Member]

    init(name: String, entry: JSONValue) {
        self.name = name
        self.entry = entry
        var members: [Member] = []
        if case .array(let files)? = JSONText.member("files", of: entry) {
            for file in files {
                guard let path = JSONText.string("path", of: file), let sum = JSONText.string("sha256", of: file),
                      let bytes = JSONText.number("bytes", of: file) else { continue }
                let field: String?
                switch path {
                case name + ".mid": field = "mid"
                case name + ".jams": field = "jams"
                default: field = BatchExport.audioExtensions.first { path == name + "." + $0 }
                }
                if let field { members.append(Member(field: field, path: path, bytes: Int(bytes), sha256: sum)) }
            }
        }
        self.members = members
    }

    /// The bytes packed (the JAMS text goes into `KEY.json` as it is).
    var bytes: Int { members.reduce(0) { $0 + $1.bytes } }
}
