// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import SystemPackage

/// The one way Clumsy creates an output file: the MIDI writer, the event log (both through
/// `AtomicFile`), the audio renderer and the live file driver all use it.
///
/// - The target is resolved first (`OutputTarget`): links followed, special files written
///   in place, everything checkable checked before the session starts.
/// - A regular target is written to an exclusive temporary beside it (`O_CREAT|O_EXCL`, so
///   nothing that appears at that name can be clobbered or followed), then renamed over the
///   target by `commit()`. When an earlier file is replaced the temporary is `fsync`ed first:
///   after a crash the name holds the old file or the new one, never an empty one. A new
///   name is not synced (a crash then loses only the new file), which keeps long renders fast.
/// - A special target (a device, a FIFO) is opened and written in place. For a writer that
///   needs a seekable file by name (FluidSynth's renderer, through libsndfile), the bytes go
///   to a scratch temporary in `$TMPDIR` that `commit()` copies into the special file.
/// - `abandon()` (also after a failure, and in `deinit` before `commit()`) removes the
///   temporary; the target is untouched. The temporary is locked (`flock`) until then, and
///   its directory held open, so that the temporary is removed through it when the
///   directory is moved during the run; `commit()` then says that the directory was moved
///   and the file not written (never a disk error). Temporaries left by dead processes
///   (lock free) are removed by the next process that writes in that directory (`TemporaryName`).
public final class OutputFile {
    /// Where the output goes.
    public let target: OutputTarget
    /// Where the bytes go until `commit()`: the temporary, the special file itself, or a scratch file.
    public let writePath: FilePath
    /// The descriptor open on `writePath` (nil when another writer was handed the path, or once closed).
    public private(set) var descriptor: FileDescriptor?

    private enum Mode { case temporary, inPlace, scratch }
    private let mode: Mode
    /// A descriptor of the temporary's open file, which holds its `flock` (see `TemporaryName`).
    private var lock: FileDescriptor?
    private var isFinished = false
    /// The temporary's directory, held open so that the temporary is found and removed even
    /// if the directory is moved during the run (-1 when written in place or not opened).
    private var directory: Int32 = -1

    /// Creates the temporary (or opens the special file) for `path`.
    /// - Parameter byName: another writer will open `writePath` itself (no descriptor is kept).
    /// - Throws: `FileOutputError.cannotCreate` naming `path`.
    /// - Parameter kept: the temporary outlives a crash (`TemporaryName.make(for:kept:)`).
    public convenience init(path: String, byName: Bool = false, kept: Bool = false) throws(FileOutputError) {
        try self.init(target: OutputTarget(path: path), byName: byName, kept: kept)
    }

    /// Creates the temporary (or opens the special file) for `target`.
    /// - Parameters:
    ///   - byName: another writer will open `writePath` itself (no descriptor is kept); a
    ///     special target then goes through a scratch file.
    ///   - seekable: the writer needs a regular file (it seeks, or reopens it: ffmpeg's
    ///     MP4 muxer); a special target then goes through a scratch file whose descriptor is kept.
    ///   - kept: a temporary that no other process removes when this one is killed (a live
    ///     run's event log, for `clumsy recover`: `TemporaryName.make(for:kept:)`).
    public init(target: OutputTarget, byName: Bool = false, seekable: Bool = false, kept: Bool = false) throws(FileOutputError) {
        self.target = target
        if target.isSpecial && !byName && !seekable {
            mode = .inPlace
            writePath = target.file
            do throws(SystemError) {
                // Opening a FIFO blocks until a reader comes, and only a signal that arrives
                // during the call interrupts it: a stop requested earlier (a slow start) ends here.
                if StopSignal.process.isRaised { throw SystemError(Errno.interrupted, step: "opening it after the stop signal") }
                descriptor = try POSIX.openForWriting(target.file, exclusive: false)
            } catch {
                throw .cannotCreate(path: target.requested, reason: error.text)
            }
            lock = nil
            return
        }
        mode = target.isSpecial ? .scratch : .temporary
        let folder = target.isSpecial ? POSIX.temporaryDirectory : target.directory
        let fd: FileDescriptor
        do {
            // The directory the temporary was made in, held from before it was made.
            (fd, writePath, directory) = try TemporaryName.create(in: folder, for: target.file.lastComponent.map(PathBytes.string) ?? "output",
                                                                  kept: kept && !target.isSpecial)
        } catch {
            guard target.isSpecial else { throw .cannotCreate(path: target.requested, reason: error.text) }
            throw .cannotCreate(path: target.requested, reason: Self.scratchProblem(folder, error))
        }
        // The lock lives as long as any descriptor of this open file: kept until the end.
        lock = POSIX.duplicate(fd)
        if byName {
            try? POSIX.close(fd)
            descriptor = nil
        } else {
            descriptor = fd
        }
    }

    /// Why a scratch file (for a special target) could not be made: `$TMPDIR` is named.
    private static func scratchProblem(_ directory: FilePath, _ error: SystemError) -> String {
        let missing = error.code == Errno.noSuchFileOrDirectory.rawValue || error.code == Errno.notDirectory.rawValue
        return "the special file is written through a scratch file in $TMPDIR ('\(PathBytes.string(directory))'), "
            + (missing ? "which does not exist" : "which cannot be written (\(error.text))")
            + "; set TMPDIR to a writable directory"
    }

    deinit { abandon() }

    /// True when the target is written in place (no temporary).
    public var isInPlace: Bool { mode == .inPlace }

    /// Syncs if an earlier file is replaced, closes, and puts the file in place (rename, or
    /// copy into a special file). Afterwards `abandon()` does nothing.
    /// - Throws: `.writeFailed` (closing, syncing, copying) or `.commitFailed` (the rename;
    ///   for `ENOENT` the reason tells a moved or removed directory from a deleted temporary);
    ///   the temporary is then removed and an earlier file at the target left untouched.
    public func commit() throws(FileOutputError) {
        precondition(!isFinished, "OutputFile '\(target.requested)' committed twice or after abandon()")
        let replacesFile = mode == .temporary && target.kind == .existingFile
        do throws(SystemError) {
            if let descriptor {
                self.descriptor = nil
                if replacesFile {
                    do {
                        try POSIX.sync(descriptor)
                    } catch {
                        try? POSIX.close(descriptor)
                        throw error
                    }
                }
                try POSIX.close(descriptor)
            } else if replacesFile {
                let reopened = try POSIX.openForWriting(writePath, exclusive: false)
                defer { try? POSIX.close(reopened) }
                try POSIX.sync(reopened)
            }
        } catch {
            abandon()
            throw .writeFailed(path: target.requested, reason: error.text)
        }
        switch mode {
        case .inPlace:
            break
        case .temporary:
            do {
                try POSIX.rename(writePath, target.file)
            } catch where error.code == Errno.noSuchFileOrDirectory.rawValue {
                let isMoved = !isDirectoryInPlace
                let removal = removeTemporary()
                finish()
                throw .commitFailed(path: target.requested, reason: lostReason(isMoved: isMoved, removal: removal))
            } catch {
                abandon()
                throw .commitFailed(path: target.requested, reason: error.text)
            }
        case .scratch:
            do {
                try copyScratchIntoTarget()
            } catch {
                abandon()
                throw .writeFailed(path: target.requested, reason: error.text)
            }
            _ = removeTemporary()
        }
        finish()
    }

    private func releaseLock() {
        if let lock { try? POSIX.close(lock) }
        lock = nil
    }

    /// Closes and removes the temporary. Never throws; idempotent; nothing after `commit()`.
    public func abandon() {
        guard !isFinished else { return }
        if let descriptor {
            try? POSIX.close(descriptor)
            self.descriptor = nil
        }
        if mode != .inPlace { _ = removeTemporary() }
        finish()
    }

    /// When the temporary's directory was moved or removed: removes the temporary there and
    /// says so. For a writer that opens the temporary by its path (FluidSynth's file driver)
    /// and then fails with a reason of its own. Nil, and nothing done, while the directory is
    /// in place.
    public func abandonIfMoved() -> FileOutputError? {
        guard mode != .inPlace, !isFinished, !isDirectoryInPlace else { return nil }
        if let descriptor {
            try? POSIX.close(descriptor)
            self.descriptor = nil
        }
        let removal = removeTemporary()
        finish()
        return .commitFailed(path: target.requested, reason: lostReason(isMoved: true, removal: removal))
    }

    private func finish() {
        isFinished = true
        POSIX.closeDirectory(directory)
        directory = -1
        releaseLock()
    }

    /// Removes the temporary through its directory's descriptor (wherever the directory is
    /// now), or by name; nil when it is gone, else the error.
    private func removeTemporary() -> SystemError? {
        guard directory >= 0, let name = writePath.lastComponent else { return POSIX.unlink(writePath) }
        return POSIX.unlink(name, in: directory)
    }

    /// True while the temporary's directory is still at its path (not moved or removed).
    private var isDirectoryInPlace: Bool {
        guard directory >= 0, let held = POSIX.identity(of: directory) else { return true }
        return FileIdentity(file: target.directory) == held
    }

    /// What happened when the rename found no temporary or no directory (`ENOENT`).
    private func lostReason(isMoved: Bool, removal: SystemError?) -> String {
        let folder = PathBytes.string(target.directory)
        let temporary = writePath.lastComponent.map(PathBytes.string) ?? ""
        guard isMoved else {
            return "its temporary file '\(temporary)' in '\(folder)' was deleted during the run by another program, so the file was not written"
        }
        let fate = removal == nil ? "its temporary file was removed"
            : "its temporary file '\(temporary)' is left in the moved directory (removing it failed: \(removal!.text))"
        return "the directory '\(folder)' was moved or removed during the run, so the file was not written; \(fate)"
    }

    /// The size in bytes of what was written so far (of `writePath`), or nil.
    public var writtenSize: Int64? {
        guard mode != .inPlace else { return nil }
        // Through the directory's descriptor: found even if the directory was moved.
        if directory >= 0, let name = writePath.lastComponent { return POSIX.size(of: name, in: directory) }
        return (try? POSIX.status(writePath, followingLinks: false))?.size
    }

    private func copyScratchIntoTarget() throws(SystemError) {
        let source = try POSIX.openForWriting(writePath, exclusive: false, readable: true)
        defer { try? POSIX.close(source) }
        let destination = try POSIX.openForWriting(target.file, exclusive: false)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { chunk.deallocate() }
        var offset = 0
        do {
            while true {
                let count = try POSIX.pread(source, chunk.baseAddress!, chunk.count, offset)
                if count == 0 { break }
                try POSIX.writeAll(destination, chunk.baseAddress!, count)
                offset += count
            }
        } catch {
            try? POSIX.close(destination)
            throw error
        }
        try POSIX.close(destination)
    }
}

/// The parts of a path, by swift-system's `FilePath` rules (the one path splitter).
public enum PathName {
    /// The directory a path's file is in ("." for a bare name).
    public static func directory(of path: String) -> String {
        let parent = PathBytes.filePath(path).removingLastComponent()
        return parent.isEmpty ? "." : PathBytes.string(parent)
    }

    /// The last component of a path ("" for "/").
    public static func name(of path: String) -> String {
        PathBytes.filePath(path).lastComponent.map(PathBytes.string) ?? ""
    }

    /// The name without its last extension ("a/b.json" → "b").
    public static func stem(of path: String) -> String {
        let name = name(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
