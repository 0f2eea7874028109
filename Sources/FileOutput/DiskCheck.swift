// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The checks made before a long render writes anything: that a directory can take new
/// files, and that the file systems have room for what will be written. The one place
/// that asks the system about free space and writability.
public enum DiskCheck {
    /// Why a directory cannot take new files.
    public enum DirectoryProblem: Equatable, Sendable {
        /// It does not exist, or is not a directory.
        case missing
        /// It exists but this process may not create files in it; `reason` is the system's text.
        case notWritable(reason: String)
    }

    /// What one file system lacks.
    public struct Shortfall: Equatable, Sendable {
        /// The first directory (in name order) of the needs on that file system.
        public var directory: String
        /// Bytes needed there, in all.
        public var needed: Int64
        /// Bytes this user may still write there.
        public var available: Int64
    }

    /// Nil when `directory` is a directory this process may create files in (write and
    /// search permission), else what is wrong with it.
    public static func problem(directory: String) -> DirectoryProblem? {
        let path = PathBytes.filePath(directory)
        guard let status = try? POSIX.status(path, followingLinks: true), status.type == .directory else {
            return .missing
        }
        if let failure = POSIX.accessFailure(path, writable: true) {
            return .notWritable(reason: failure.text)
        }
        return nil
    }

    /// The first file system (by directory name) where the bytes `needs` ask for, added up per
    /// file system, exceed the bytes free; nil when all fit. A directory whose file system
    /// cannot be asked is left out.
    public static func shortfall(_ needs: [(directory: String, bytes: Double)]) -> Shortfall? {
        var byDevice: [UInt64: (directory: String, bytes: Double, available: Double)] = [:]
        for (directory, bytes) in needs {
            let path = PathBytes.filePath(directory)
            guard let status = try? POSIX.status(path, followingLinks: true),
                  let available = POSIX.availableBytes(in: path) else { continue }
            let device = FileIdentity(status).device
            let entry = byDevice[device] ?? (directory, 0, Double(available))
            byDevice[device] = (entry.directory, entry.bytes + bytes, entry.available)
        }
        for entry in byDevice.values.sorted(by: { $0.directory < $1.directory }) where entry.bytes > entry.available {
            return Shortfall(directory: entry.directory, needed: Int64(entry.bytes), available: Int64(entry.available))
        }
        return nil
    }
}
