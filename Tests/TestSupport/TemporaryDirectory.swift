// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under the system temporary directory, removed (with everything in it) when
/// the last reference goes: the one temporary-directory helper of every test target.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Makes `<tmp>/<prefix>-<UUID>`.
    public init(prefix: String = "clumsy-tests") throws {
        path = NSTemporaryDirectory() + "\(prefix)-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Path of `name` inside this directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Every entry, hidden ones included, sorted.
    public func entries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Entries whose names start with "." (AtomicFile's temporaries look like `.name.pid.random.tmp`).
    public func hiddenEntries() -> [String] { entries().filter { $0.hasPrefix(".") } }

    /// The entries of the subdirectory `name`, sorted.
    public func entriesOf(_ name: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: file(name))) ?? []).sorted()
    }

    /// Writes `text` to `name` in this directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let path = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Reads a whole file as bytes.
public func contentsOf(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// Writes bytes to a file directly (not through the code under test).
public func writeDirectly(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// A tiny tmpfs mounted on a fresh directory, to make "No space left on
/// device" happen for real: the one such helper of every test target. Needs root (or
/// CAP_SYS_ADMIN) and a kernel that allows it; `isAvailable` probes that once. Unmounted by
/// `unmount()` or when the last reference goes.
public final class TinyFileSystem {
    public let directory: TemporaryDirectory
    public var path: String { directory.path }
    private var isMounted = false

    /// A tmpfs of `kibibytes` KiB, or nil when it cannot be mounted (`mount(kibibytes:)` says why).
    public convenience init?(kibibytes: Int) {
        guard let directory = try? TemporaryDirectory(prefix: "clumsy-tmpfs"), Self.mountTmpfs(at: directory.path, kibibytes: kibibytes) == nil else {
            return nil
        }
        self.init(directory: directory)
    }

    private init(directory: TemporaryDirectory) {
        self.directory = directory
        isMounted = true
    }

    /// Mounts a tmpfs of `kibibytes` KiB, or returns nil with the reason it cannot.
    public static func mount(kibibytes: Int) throws -> (TinyFileSystem?, String) {
        let directory = try TemporaryDirectory(prefix: "clumsy-tmpfs")
        if let failure = mountTmpfs(at: directory.path, kibibytes: kibibytes) { return (nil, failure) }
        return (TinyFileSystem(directory: directory), "")
    }

    /// Mounts a tmpfs at `path`; nil when done, else why not.
    private static func mountTmpfs(at path: String, kibibytes: Int) -> String? {
        #if canImport(Glibc)
        guard Glibc.mount("tmpfs", path, "tmpfs", 0, "size=\(kibibytes)k") == 0 else {
            return "mount(2) of a tmpfs failed: \(String(cString: strerror(errno)))"
        }
        return nil
        #else
        return "no tmpfs here"
        #endif
    }

    /// Unmounts it (lazily: a file still open there does not keep it); the directory goes with
    /// the last reference.
    public func unmount() {
        guard isMounted else { return }
        #if canImport(Glibc)
        _ = umount2(directory.path, Int32(MNT_DETACH))
        #endif
        isMounted = false
    }

    deinit { unmount() }

    /// True if this process may mount a tmpfs (probed once by mounting and unmounting one).
    public static let isAvailable: Bool = TinyFileSystem(kibibytes: 64) != nil
}
