// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput

/// Reads Standard MIDI Files (formats 0, 1 and 2, ticks-per-quarter time
/// division).
///
/// Handles running status (kept across meta and system-exclusive events,
/// leniently, as most readers do), meta events, system-exclusive events
/// (0xF0 and 0xF7), variable-length quantities of up to 4 bytes, and skips
/// unknown chunks and header bytes beyond the standard six. Note on with velocity 0 is kept as `.noteOn`. An End of Track
/// ends a track (anything after it in the chunk is ignored); a track
/// without one is accepted as is. Garbage and truncated data make it throw
/// `.malformed`; it never traps and always terminates, since every step
/// consumes input.
public enum MIDIFileReader {
    /// Reads and parses the file at `path`.
    /// - Throws: `.cannotRead` (with the `strerror` text) if it cannot be
    ///   opened or read; `.malformed` / `.unsupported` (naming `path`) if its
    ///   contents are not a usable MIDI file.
    public static func read(path: String) throws(MIDIFileError) -> MIDIFileContents {
        let bytes: [UInt8]?
        do {
            bytes = try InputBytes.read(path, limit: maximumFileSize)
        } catch {
            throw .cannotRead(path: path, reason: error.text)
        }
        guard let bytes else { throw .tooLarge(path: path, limit: maximumFileSize) }
        return try parse(bytes, source: path)
    }

    /// Reads and parses the file open on `descriptor` (the caller opened `path` and closes it).
    /// - Throws: as `read(path:)`.
    public static func read(descriptor: Int32, path: String) throws(MIDIFileError) -> MIDIFileContents {
        let bytes: [UInt8]?
        do {
            bytes = try InputBytes.read(descriptor: descriptor, limit: maximumFileSize)
        } catch {
            throw .cannotRead(path: path, reason: error.text)
        }
        guard let bytes else { throw .tooLarge(path: path, limit: maximumFileSize) }
        return try parse(bytes, source: path)
    }

    /// The largest MIDI file read, bytes (256 MiB: a day of a busy session is a few MiB).
    public static let maximumFileSize = 256 << 20

    /// Parses the bytes of a whole MIDI file held in memory.
    /// - Throws: `.malformed` (path "<bytes>", with the byte offset) or `.unsupported`.
    public static func parse(_ bytes: [UInt8]) throws(MIDIFileError) -> MIDIFileContents {
        try parse(bytes, source: "<bytes>")
    }

    static func parse(_ bytes: [UInt8], source: String) throws(MIDIFileError) -> MIDIFileContents {
        var parser = MIDIByteParser(bytes: bytes, source: source)
        return try parser.parseFile()
    }
}
