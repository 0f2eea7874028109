// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import FileOutput
import Text
#if canImport(Glibc)
import Glibc
#endif

/// Whole-file reads, checksums and the directory operations of a batch, by exact path bytes (`PathBytes`).
enum FileBytes {
    /// The bytes of the regular file `path`. - Throws: `.noInput` (66).
    static func read(_ path: String, what: String) throws(SessionError) -> [UInt8] {
        let fd = try InputFile.open(path, what: what)
        defer { close(fd) }
        var bytes: [UInt8] = []
        try forEachChunk(fd, path: path, what: what) { bytes += $0 }
        return bytes
    }

    /// SHA-256 of the regular file `path`, as 64 hex digits. - Throws: `.noInput` (66).
    static func sha256(_ path: String) throws(SessionError) -> String {
        let fd = try InputFile.open(path, what: "output")
        defer { close(fd) }
        var hash = SHA256()
        try forEachChunk(fd, path: path, what: "output") { hash.add($0) }
        return hash.hex()
    }

    private static func forEachChunk(_ fd: Int32, path: String, what: String,
                                     _ body: (UnsafeRawBufferPointer) -> Void) throws(SessionError) {
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .noInput("\(Quote.text(path)): cannot read \(what): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            chunk.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// The names in a directory (not `.` and `..`), sorted; empty if it cannot be read.
    static func names(in directory: String) -> [String] {
        guard let dir = PathBytes.withCString(directory, { opendir($0) }) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                PathBytes.string(UnsafeRawBufferPointer(rebasing: raw[0..<(raw.firstIndex(of: 0) ?? raw.count)]))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// What is at `path`: a regular file, a directory, something else, or nothing (not following a last symbolic link).
    enum Kind { case file, directory, other, missing }

    static func kind(_ path: String) -> Kind {
        var info = stat()
        guard PathBytes.withCString(path, { lstat($0, &info) }) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Removes `path` and, for a directory, everything under it (symbolic links are removed, never followed).
    static func removeTree(_ path: String) {
        if kind(path) == .directory {
            for name in names(in: path) { removeTree(path + "/" + name) }
            _ = PathBytes.withCString(path) { rmdir($0) }
        } else {
            _ = PathBytes.withCString(path) { unlink($0) }
        }
    }

    /// Creates the directory `path` (not its parents). - Throws: `.cannotCreate` (73).
    static func makeDirectory(_ path: String, existingIsFine: Bool) throws(SessionError) {
        guard PathBytes.withCString(path, { mkdir($0, 0o777) }) == 0 else {
            // A link to a directory (-o pointing into a data volume) is that directory.
            if errno == EEXIST, existingIsFine, isDirectory(path) { return }
            throw .cannotCreate("\(Quote.text(path)): cannot create the directory: \(String(cString: strerror(errno)))")
        }
    }

    /// Renames `from` to `to` (one file system). - Throws: `.cannotCreate` (73).
    static func rename(_ from: String, to: String) throws(SessionError) {
        let status = PathBytes.withCString(from) { a in PathBytes.withCString(to) { b in Glibc.rename(a, b) } }
        guard status == 0 else {
            throw .cannotCreate("\(Quote.text(to)): cannot move the finished item into place: \(String(cString: strerror(errno)))")
        }
    }

    /// Writes `text` to `path` atomically (`AtomicFile`). - Throws: `.cannotCreate` (73) or `.io` (74).
    static func writeAtomically(_ text: String, to path: String) throws(SessionError) {
        try writeAtomically(to: path) { file throws(FileOutputError) in try file.write(text) }
    }

    /// Writes what `body` writes into the file to `path` atomically. - Throws: `.cannotCreate` (73) or `.io` (74).
    static func writeAtomically(to path: String, _ body: (AtomicFile) throws(FileOutputError) -> Void) throws(SessionError) {
        do throws(FileOutputError) {
            let file = try AtomicFile(path: path)
            do throws(FileOutputError) {
                try body(file)
                try file.commit()
            } catch {
                file.abandon()
                throw error
            }
        } catch {
            if case .cannotCreate = error { throw .cannotCreate(error.description) }
            throw .io(error.description)
        }
    }
}

extension FileBytes {
    /// The size in bytes of the file at `path` (following links), or 0.
    static func size(_ path: String) -> Int {
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else { return 0 }
        return Int(info.st_size)
    }
}
