// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Text
#if canImport(Glibc)
import Glibc
#endif

/// Where an export is written: a hidden directory beside its place
/// (`.<name>.export-<pid>.partial`, locked while written), renamed into place when complete, so
/// that a killed export leaves nothing under the export's name (the next export removes what a
/// dead one left). An existing export is replaced only when asked, and only when it is one: a
/// `README.md` and a `data/` of `train-NNNNN.tar` shards and nothing else.
struct ExportOutput {
    let path: String
    let partial: String
    private let replaces: Bool
    private let lock: DirectoryLock

    /// - Throws: `.usage` (64) for an output that is the batch, or one of the batch's own names
    ///   inside it; `.cannotCreate` (73) for one that exists (without `overwrite`), exists and is
    ///   not an export, or whose parent cannot take the hidden directory.
    init(_ request: ExportRequest, items: Set<String>) throws(SessionError) {
        var path = request.output
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let name = String(parts.last ?? "")
        guard !name.isEmpty, name != ".", name != ".." else {
            throw .usage("\(Quote.text(request.output)): the export needs a directory name of its own (e.g. album-export)")
        }
        let parent = parts.count > 1 ? parts.dropLast().joined(separator: "/") : "."
        let parentReal = FileBytes.realPath(parent.isEmpty ? "/" : parent)
        if let batchReal = FileBytes.realPath(request.batch), let parentReal {
            if parentReal + "/" + name == batchReal || (parentReal == batchReal
                && (BatchDirectory.ownFiles.contains(name) || name.hasPrefix("manifest-") || items.contains(name))) {
                throw .usage("\(Quote.text(request.output)) is the batch \(Quote.text(request.batch)) or one of its own names: "
                    + "give the export a directory of its own")
            }
        }
        self.path = path
        BatchRunner.removeStalePartials(in: parent.isEmpty ? "/" : parent, marker: ".export-")
        switch FileBytes.kind(path) {
        case .missing: replaces = false
        case .directory where request.overwrite:
            guard Self.isExport(path) else {
                throw .cannotCreate("\(Quote.text(path)) is not an export (it holds more than README.md and data/train-NNNNN.tar): "
                    + "not replaced; give the export a directory of its own")
            }
            replaces = true
        default:
            throw .cannotCreate("\(Quote.text(path)) exists: give --overwrite to replace an earlier export, or another directory")
        }
        partial = (parent.isEmpty ? "" : parent + "/") + "." + name + ".export-\(getpid()).partial"
        FileBytes.removeTree(partial)
        try FileBytes.makeDirectory(partial, existingIsFine: false)
        guard let lock = DirectoryLock(ifFree: partial) else {
            FileBytes.removeTree(partial)
            throw .cannotCreate("\(Quote.text(partial)): another process took the export's directory")
        }
        self.lock = lock
    }

    /// True for a directory that holds an export and nothing else.
    static func isExport(_ path: String) -> Bool {
        let names = FileBytes.names(in: path)
        guard Set(names).isSubset(of: ["README.md", "data"]), FileBytes.kind(path + "/data") == .directory else { return false }
        return FileBytes.names(in: path + "/data").allSatisfy { name in
            name.hasPrefix("train-") && name.hasSuffix(".tar") && name.dropFirst(6).dropLast(4).allSatisfy(\.isNumber)
                && FileBytes.kind(path + "/data/" + name) == .file
        }
    }

    /// Moves the finished export into place (the earlier one, if replaced, removed after).
    func commit() throws(SessionError) {
        if replaces {
            let old = partial.dropLast(".partial".count) + ".old.partial"
            try FileBytes.rename(path, to: String(old))
            try FileBytes.rename(partial, to: path)
            FileBytes.removeTree(String(old))
        } else {
            try FileBytes.rename(partial, to: path)
        }
        withExtendedLifetime(lock) {}
    }

    /// Removes the unfinished export.
    func abandon() { FileBytes.removeTree(partial) }
}
