// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput

/// Everything that can go wrong writing or reading a Standard MIDI File.
/// Each case names the file (or "<bytes>" for in-memory parsing) and says
/// what went wrong, including the operating system's error text where there is one.
public enum MIDIFileError: Error, CustomStringConvertible, Equatable {
    /// The output file (or its temporary files) could not be created; usually
    /// the directory is missing or not writable. `reason` is the `strerror` text.
    case cannotCreate(path: String, reason: String)
    /// Writing the output failed (e.g. "No space left on device"); nothing was
    /// written to `path` and any earlier file there is untouched.
    case writeFailed(path: String, reason: String)
    /// An event cannot be represented in a Standard MIDI File (e.g. a delta
    /// time above 0x0FFFFFFF ticks or a track longer than 4 GiB).
    case unrepresentable(path: String, reason: String)
    /// The file could not be opened or read. `reason` is the `strerror` text.
    case cannotRead(path: String, reason: String)
    /// The bytes are not a valid Standard MIDI File; `offset` is the byte
    /// offset from the start of the file where the problem was found.
    case malformed(path: String, offset: Int, reason: String)
    /// A valid file using a feature this reader does not support (SMPTE time division).
    case unsupported(path: String, reason: String)
    /// The file is larger than `limit` bytes (`MIDIFileReader.maximumFileSize`); it was not read.
    case tooLarge(path: String, limit: Int)

    /// A one-line message naming the file and what went wrong.
    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason):
            return "cannot create MIDI file '\(path)': \(reason) (its directory must exist and be writable)"
        case .writeFailed(let path, let reason):
            return "failed writing MIDI file '\(path)': \(reason)"
        case .unrepresentable(let path, let reason):
            return "cannot write MIDI file '\(path)': \(reason)"
        case .cannotRead(let path, let reason):
            return "cannot read MIDI file '\(path)': \(reason)"
        case .malformed(let path, let offset, let reason):
            return "malformed MIDI file '\(path)' at byte offset \(offset): \(reason)"
        case .unsupported(let path, let reason):
            return "unsupported MIDI file '\(path)': \(reason)"
        case .tooLarge(let path, let limit):
            return "MIDI file '\(path)' is larger than \(limit >> 20) MiB (\(limit) bytes), the most clumsy reads"
        }
    }

    /// Translates an output-layer error, keeping its path and OS error text.
    init(_ error: FileOutputError) {
        switch error {
        case .cannotCreate(let path, let reason):
            self = .cannotCreate(path: path, reason: reason)
        case .writeFailed(let path, let reason):
            self = .writeFailed(path: path, reason: reason)
        case .commitFailed(let path, let reason):
            self = .writeFailed(path: path, reason: "could not move the finished file into place: \(reason)")
        }
    }
}
