// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import SystemPackage

/// A file's identity: device and inode. Two names with the same identity are the same file
/// (a symbolic link, `..`, or a hard link).
public struct FileIdentity: Hashable, Sendable {
    /// `st_dev`.
    public var device: UInt64
    /// `st_ino`.
    public var inode: UInt64

    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    init(_ status: Stat) {
        device = UInt64(status.deviceID.rawValue)
        inode = UInt64(status.inode.rawValue)
    }

    /// The identity of the file `path` names (links followed), or nil if there is none.
    public init?(path: String) {
        guard !path.isEmpty else { return nil }
        self.init(file: PathBytes.filePath(path))
    }

    /// The identity of the file `file` names (links followed), or nil if there is none.
    init?(file: FilePath) {
        guard let status = try? POSIX.status(file, followingLinks: true) else { return nil }
        self.init(status)
    }
}

/// Where an output really goes, decided before anything is written.
///
/// Symbolic links are followed to their final target: the file written (and renamed over)
/// is the link's target, in the target's directory, so the link stays a link. A target that
/// is a special file (a character or block device, a FIFO, a socket) is written in place:
/// nothing is ever renamed over a link, a device or a FIFO. A regular file or a name that
/// does not exist yet is written through a temporary beside it and renamed at the end.
///
/// Everything that can be known up front is checked here: an empty name, a directory, a
/// missing parent directory, a name longer than 255 bytes, a loop of links.
public struct OutputTarget: Sendable {
    /// How the target is written.
    public enum Kind: Sendable, Equatable {
        /// No file there yet: a temporary beside it is renamed into place.
        case newFile
        /// A regular file is replaced (the temporary is synced first, so a crash cannot
        /// leave an empty file where a good one was).
        case existingFile
        /// A device, FIFO or socket: written in place.
        case special
    }

    /// The path as the user gave it (used in messages).
    public let requested: String
    /// The file actually written: `requested` with symbolic links followed.
    public let file: FilePath
    /// How it is written.
    public let kind: Kind
    /// Device and inode, if the file exists already.
    public let identity: FileIdentity?

    /// Resolves `path`. - Throws: `FileOutputError.cannotCreate` naming `path` and the reason.
    public init(path: String) throws(FileOutputError) {
        requested = path
        guard !path.isEmpty else { throw .cannotCreate(path: path, reason: "the output path is empty") }
        if path.hasSuffix("/") { throw .cannotCreate(path: path, reason: "the output path names a directory, not a file") }
        if StandardOutputName.isStandardOutput(path) {
            // Written in place through the descriptor the shell gave: a pipe, or a file it
            // opened for `>` (never renamed over, so `>>` and a reader already there keep it).
            let device = PathBytes.filePath(StandardOutputName.device)
            let status: Stat
            do { status = try POSIX.status(device, followingLinks: true) } catch {
                throw .cannotCreate(path: path, reason: "standard output is closed (\(error.text))")
            }
            file = device
            kind = .special
            identity = FileIdentity(status)
            return
        }
        var current = PathBytes.filePath(path)
        // A link to a special file is written in place through the link (open follows it,
        // also /proc's links to pipes such as /dev/stdout, which readlink cannot name).
        if let followed = try? POSIX.status(current, followingLinks: true) {
            switch followed.type {
            case .regular, .directory:
                break
            default:
                file = current
                kind = .special
                identity = FileIdentity(followed)
                return
            }
        }
        for _ in 0..<40 {
            guard let name = current.lastComponent, name.kind == .regular else {
                throw .cannotCreate(path: path, reason: "the output path names a directory, not a file")
            }
            let bytes = PathBytes.bytes(PathBytes.string(name)).count
            if bytes > TemporaryName.maximumNameBytes {
                throw .cannotCreate(path: path, reason: "the file name is \(bytes) bytes long; file systems allow at most \(TemporaryName.maximumNameBytes)")
            }
            let status: Stat
            do {
                status = try POSIX.status(current, followingLinks: false)
            } catch where error.code == Errno.noSuchFileOrDirectory.rawValue {
                try Self.checkDirectory(of: current, requested: path)
                file = current
                kind = .newFile
                identity = nil
                return
            } catch {
                throw .cannotCreate(path: path, reason: error.text)
            }
            switch status.type {
            case .symbolicLink:
                let target: FilePath
                do {
                    target = try POSIX.linkTarget(current)
                } catch {
                    throw .cannotCreate(path: path, reason: error.text)
                }
                current = target.isAbsolute ? target : current.removingLastComponent().pushing(target)
                continue
            case .directory:
                throw .cannotCreate(path: path, reason: "a directory already exists at that path")
            case .regular:
                try Self.checkDirectory(of: current, requested: path)
                file = current
                kind = .existingFile
                identity = FileIdentity(status)
                return
            default:
                file = current
                kind = .special
                identity = FileIdentity(status)
                return
            }
        }
        throw .cannotCreate(path: path, reason: "too many levels of symbolic links")
    }

    /// The directory the temporary goes in (the target's own; "." for a bare name).
    public var directory: FilePath {
        let parent = file.removingLastComponent()
        return parent.isEmpty ? "." : parent
    }

    /// The target's absolute path with its directory's links resolved: two targets with the
    /// same `canonicalPath` are the same file, whether it exists yet or not.
    public var canonicalPath: String {
        let base = PathBytes.string(POSIX.realPath(directory) ?? directory)
        let name = file.lastComponent.map(PathBytes.string) ?? ""
        return (base == "/" ? "" : base) + "/" + name
    }

    /// True when the target is written in place (a device, FIFO or socket).
    public var isSpecial: Bool { kind == .special }

    private static func checkDirectory(of file: FilePath, requested: String) throws(FileOutputError) {
        let parent = file.removingLastComponent()
        let directory: FilePath = parent.isEmpty ? "." : parent
        let status: Stat
        do {
            status = try POSIX.status(directory, followingLinks: true)
        } catch {
            throw .cannotCreate(path: requested, reason: error.text)
        }
        guard status.type == .directory else {
            throw .cannotCreate(path: requested, reason: "'\(directory)' is not a directory")
        }
    }
}
