import SystemPackage
import Synchronization

/// The names of Clumsy's hidden temporary files, and the removal of those a dead process left.
///
/// A temporary is `.<name>.clumsy-<pid>-<16 hex digits>.tmp` beside its target: hidden,
/// recognisable, and carrying the pid of the process that writes it. `<name>` is the target's
/// name cut (at a character boundary) so that the whole temporary name stays within the
/// file system's 255 bytes whenever the target's own name does.
///
/// Before a process creates its first temporary in a directory it removes the temporaries
/// there whose process no longer exists (left by `kill -9` or a power cut). Only names of
/// exactly this shape are touched, and only when `kill(pid, 0)` says `ESRCH`.
public enum TemporaryName {
    /// Bytes a temporary name adds to the (cut) target name: "." + ".clumsy-" + pid + "-" + 16 + ".tmp".
    static let overhead = 1 + 8 + 10 + 1 + 16 + 4
    /// The longest file name (one path component), in bytes, on Linux file systems.
    public static let maximumNameBytes = 255

    /// A fresh temporary name for `target` (a file name, no directory).
    static func make(for target: String) -> String {
        let room = maximumNameBytes - overhead
        var cut = Substring(target)
        while PathBytes.bytes(String(cut)).count > room { cut = cut.dropLast() }
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let hex = String(repeating: "0", count: 16 - random.count) + random
        return ".\(cut).clumsy-\(POSIX.processID)-\(hex).tmp"
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
            POSIX.unlinkIgnoringErrors(directory.pushing(PathBytes.filePath(name)))
            removed.append(name)
        }
        return removed
    }
}
