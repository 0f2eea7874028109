// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The names of Clumsy's hidden temporary files, and the removal of those a dead process left.
///
/// A temporary is `.<name>.clumsy-<pid>-<16 hex digits>.tmp` beside its target: hidden,
/// recognisable, and carrying the pid of the process that writes it. `<name>` is the target's
/// name cut (at a character boundary) so that the whole temporary name stays within the
/// file system's 255 bytes whenever the target's own name does.
///
/// Its owner holds an `flock(LOCK_EX)` on every temporary for as long as it exists (see
/// `create(in:for:)`). Before a process creates its first temporary in a directory it
/// removes the temporaries there that a dead process left (`kill -9`, a power cut): only
/// regular files with names of exactly this shape, whose pid `kill(pid, 0)` does not know,
/// and only when it can take that lock itself. A pid unknown here may be a live process in
/// another PID namespace (a container sharing the directory); its lock keeps its files.
///
/// A temporary made to outlive a crash (a live run's event log, which `clumsy recover`
/// rebuilds the set from) is `.<name>.clumsy-live-<pid>-<16 hex digits>.tmp`: not of that
/// shape, so never removed by another process; a run that ends (even in error) removes or
/// renames it as any other, only a killed one leaves it.
public enum TemporaryName {
    /// Bytes a temporary name adds to the (cut) target name: "." + ".clumsy-" + pid + "-" + 16 + ".tmp".
    static let overhead = 1 + 8 + 10 + 1 + 16 + 4
    /// What a kept temporary's name adds after ".clumsy-" (`make(for:kept:)`).
    public static let keptMarker = "live-"
    /// The longest file name (one path component), in bytes, on Linux file systems.
    public static let maximumNameBytes = 255

    /// A fresh temporary name for `target` (a file name, no directory); `kept`: one that the
    /// removal of dead processes' temporaries leaves alone (see above).
    public static func make(for target: String, kept: Bool = false) -> String {
        let marker = kept ? keptMarker : ""
        let cut = cut(target, kept: kept)
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let hex = String(repeating: "0", count: 16 - random.count) + random
        return ".\(cut).clumsy-\(marker)\(POSIX.processID)-\(hex).tmp"
    }

    /// `target` cut (at a character boundary) so that its temporary's name fits 255 bytes.
    private static func cut(_ target: String, kept: Bool) -> Substring {
        let room = maximumNameBytes - overhead - (kept ? keptMarker.utf8.count : 0)
        var cut = Substring(target)
        while PathBytes.bytes(String(cut)).count > room { cut = cut.dropLast() }
        return cut
    }

    /// The temporaries kept for `target` (a path; `make(for:kept:)`: a live run's event log)
    /// by processes that no longer exist, as paths beside it, sorted by name. The proof of an
    /// owner's death is its lock, free (a process killed a moment ago may still be listed, a
    /// zombie not yet reaped; its open files, and so its lock, are gone).
    public static func keptByDeadProcesses(for target: String) -> [String] {
        let path = PathBytes.filePath(target)
        guard let name = path.lastComponent.map(PathBytes.string) else { return [] }
        var directory = path
        directory.removeLastComponent()
        let folder = directory.isEmpty ? FilePath(".") : directory
        let prefix = ".\(cut(name, kept: true)).clumsy-\(keptMarker)"
        let found = DirectoryListing.names(in: folder).filter { entry in
            guard entry.hasPrefix(prefix), entry.hasSuffix(".tmp") else { return false }
            let parts = entry.dropFirst(prefix.count).dropLast(4).split(separator: "-")   // "<pid>-<16 hex digits>"
            guard parts.count == 2, parts[1].count == 16, Int32(parts[0]) != nil,
                  let fd = POSIX.lockIfFree(folder.pushing(PathBytes.filePath(entry))) else { return false }
            try? POSIX.close(fd)
            return true
        }
        return found.sorted().map { directory.isEmpty ? $0 : PathBytes.string(directory.pushing(PathBytes.filePath($0))) }
    }

    /// The pid inside a temporary name of ours, or nil for any other name.
    public static func processID(in name: String) -> Int32? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let body = name.utf8.dropLast(4)                    // without ".tmp"
        guard body.count > 17 else { return nil }
        let hex = body.suffix(16)
        guard hex.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        let beforeHex = body.dropLast(16)
        guard beforeHex.last == UInt8(ascii: "-") else { return nil }
        let withPid = beforeHex.dropLast()
        let digits = withPid.reversed().prefix(while: { (48...57).contains($0) })
        guard !digits.isEmpty, digits.count <= 10 else { return nil }
        let marker = withPid.dropLast(digits.count)
        guard marker.count > 8, Array(marker.suffix(8)) == Array(".clumsy-".utf8) else { return nil }
        return Int32(String(decoding: digits.reversed(), as: UTF8.self))
    }

    private static let cleaned = Mutex<Set<String>>([])

    /// Removes, once per directory and process, temporaries of processes that no longer exist.
    /// Returns the names removed.
    @discardableResult
    public static func removeStale(in directory: FilePath) -> [String] {
        let key = PathBytes.string(POSIX.realPath(directory) ?? directory)
        let isFirst = cleaned.withLock { $0.insert(key).inserted }
        guard isFirst else { return [] }
        var removed: [String] = []
        for name in DirectoryListing.names(in: directory) {
            guard let pid = processID(in: name), pid != POSIX.processID, !POSIX.processMayExist(pid) else { continue }
            // Proof of death: the owner's lock is free (taken here, held across the unlink).
            let path = directory.pushing(PathBytes.filePath(name))
            guard let fd = POSIX.lockIfFree(path) else { continue }
            POSIX.unlinkIgnoringErrors(path)
            try? POSIX.close(fd)
            removed.append(name)
        }
        return removed
    }

    /// Creates a fresh temporary for `target` (a file name) in `directory`, exclusively
    /// (`O_CREAT|O_EXCL`: nothing at that name is clobbered or followed), and locks it
    /// (`flock(LOCK_EX)`) for as long as the returned descriptor's open file lives, dups
    /// and children included. A temporary removed by a cleaner before the lock was taken is
    /// noticed (the name no longer names the locked file) and another name is tried.
    ///
    /// The directory is opened first and everything after goes through that descriptor
    /// (returned, the caller's to close with `POSIX.closeDirectory`): a directory moved while
    /// the temporary is made still holds it, and the caller removes it there (`unlinkat`).
    /// - Throws: `SystemError` of the last attempt.
    static func create(in directory: FilePath, for target: String, readable: Bool = false,
                       kept: Bool = false) throws(SystemError) -> (FileDescriptor, FilePath, directory: Int32) {
        removeStale(in: directory)
        let folder = POSIX.openDirectory(directory)
        guard folder >= 0 else { throw SystemError(code: errno) }
        var attempt = 0
        while true {
            let component = PathBytes.filePath(make(for: target, kept: kept)).lastComponent ?? "output.tmp"
            do throws(SystemError) {
                let fd = try POSIX.createExclusive(component, in: folder, readable: readable)
                if POSIX.lockIfFree(fd), POSIX.isStill(fd, named: component, in: folder) {
                    return (fd, directory.pushing(FilePath(root: nil, [component])), folder)
                }
                try? POSIX.close(fd)
                throw SystemError(code: EEXIST, step: "the temporary was taken by another process")
            } catch {
                attempt += 1
                if error.code == EEXIST && attempt < 16 { continue }
                POSIX.closeDirectory(folder)
                throw error
            }
        }
    }

    /// A file with no name: created as a temporary for `target` in `directory`, then unlinked
    /// at once, so that nothing is left of it however the process ends. Read and written
    /// through the descriptor (or `/proc/self/fd/N` by a child that inherits it).
    public static func anonymous(in directory: String, for target: String) throws(SystemError) -> FileDescriptor {
        try anonymous(in: PathBytes.filePath(directory), for: target)
    }

    static func anonymous(in directory: FilePath, for target: String) throws(SystemError) -> FileDescriptor {
        let (fd, path, folder) = try create(in: directory, for: target, readable: true)
        // Through the directory's descriptor: removed even if the directory was just moved.
        if let name = path.lastComponent { _ = POSIX.unlink(name, in: folder) }
        POSIX.closeDirectory(folder)
        return fd
    }
}
