// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import Text

/// The batch's own files in its directory, and the checks made before any is written: no
/// output may be an input (the item manifest, a preset file, the SoundFont), and an existing
/// directory's files of those names must be a batch's, never the user's (`-o .` in a project).
enum BatchDirectory {
    /// The files a batch writes at the top of its directory (besides the shard manifests).
    static let ownFiles = [BatchPlanFile.name, "README.md", Manifest.mergedName]

    /// True for a name of the batch's in its directory: its own files, a shard manifest, an
    /// item's directory (`items`) or a hidden partial one.
    static func isBatchName(_ name: String, items: BatchItemList) -> Bool {
        ownFiles.contains(name) || (name.hasPrefix("manifest-") && name.hasSuffix(".jsonl")) || items.contains(name: name)
            || (name.hasPrefix(".") && name.hasSuffix(".partial"))
    }

    /// - Throws: `.usage` (64) when an input is, or is inside, something the batch writes
    ///   (through links, `..` or a hard link); `.cannotCreate` (73) when the directory holds a
    ///   `batch.json` that is not a batch's, or a `README.md` or `manifest.jsonl` beside no `batch.json`.
    static func check(_ request: BatchRequest) throws(SessionError) {
        try checkInputs(request)
        try checkOwnership(request.directory)
    }

    /// The inputs: the item manifest, each preset named by a path, the SoundFont.
    static func inputs(_ request: BatchRequest) -> [String] {
        let presets = request.items.presets.filter { PresetFiles.isPath($0) }
        return request.inputs + presets
    }

    private static func checkInputs(_ request: BatchRequest) throws(SessionError) {
        guard let root = FileBytes.realPath(request.directory) else { return }   // a new directory holds no input
        let items = request.items
        let written = (FileBytes.names(in: root)).filter { isBatchName($0, items: items) }
        let identities = written.compactMap { name in FileBytes.identity(root + "/" + name).map { (name, $0) } }
        for input in inputs(request) {
            guard let real = FileBytes.realPath(input) else { continue }
            var name: Substring?
            if real.hasPrefix(root + "/") { name = real.dropFirst(root.count + 1).split(separator: "/").first }
            let linked = FileBytes.identity(real).flatMap { id in identities.first { $0.1 == id }?.0 }
            guard let clash = name.map(String.init).flatMap({ isBatchName($0, items: items) ? $0 : nil }) ?? linked else { continue }
            throw .usage("\(Quote.text(input)) is an input of the batch, and \(Quote.text(request.directory + "/" + clash)) is "
                + "what the batch writes: give the batch another directory (-o) or move the input out of it")
        }
    }

    private static func checkOwnership(_ directory: String) throws(SessionError) {
        guard FileBytes.isDirectory(directory) else { return }
        let plan = directory + "/" + BatchPlanFile.name
        if FileBytes.kind(plan) != .missing {
            guard BatchPlanFile.looksWritten(plan) else {
                throw .cannotCreate("\(Quote.text(plan)) is not a batch's (not the batch.json clumsy batch writes): it would be overwritten; "
                    + "give the batch a directory of its own (-o)")
            }
            return
        }
        for name in ownFiles where FileBytes.kind(directory + "/" + name) != .missing {
            throw .cannotCreate("\(Quote.text(directory + "/" + name)) is not a batch's (there is no batch.json beside it): "
                + "it would be overwritten; give the batch a directory of its own (-o)")
        }
    }
}
