// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput

/// Writes a format 1 Standard MIDI File, streaming: memory use stays flat
/// however long the session.
///
/// Each track's encoded events go into its own `SpoolFile` (an unlinked
/// scratch file next to the output, behind a 64 KiB buffer). `finish()` adds
/// an End of Track where missing, then assembles the header and every
/// track into an `AtomicFile`, which replaces `path` in one step. The output
/// file is created (as a hidden temporary) in `init`, so a bad path fails
/// before any work is done. If anything fails, or the writer is abandoned or
/// deallocated before `finish()`, no file appears at `path` and an earlier
/// file there is left untouched.
///
/// Encoding: full status bytes on every channel message (no running
/// status), delta times as variable-length quantities, text in UTF-8. The
/// output is byte-for-byte deterministic.
///
/// Not thread-safe: use from one thread (or actor) at a time.
public final class MIDIFileWriter {
    /// The final output path.
    public let path: String
    /// Number of tracks (MTrk chunks) in the file, 1…65535.
    public let trackCount: Int
    /// Time resolution in ticks per quarter note, 1…32767.
    public let ticksPerQuarter: UInt16

    private let output: AtomicFile
    private var spools: [SpoolFile]
    private var lastTicks: [UInt64]
    private var ended: [Bool]
    private var scratch: [UInt8] = []
    private var lifecycle = WriterLifecycle<MIDIFileError>(owner: "MIDIFileWriter for", finishName: "finish()")

    /// Starts a file at `path` with `trackCount` tracks (1…65535) and
    /// `ticksPerQuarter` ticks per quarter note (1…32767); both are checked
    /// with `precondition`.
    /// - Throws: `MIDIFileError.cannotCreate` if the directory of `path` is
    ///   missing or not writable (message includes the `strerror` text).
    public init(path: String, trackCount: Int, ticksPerQuarter: UInt16 = 960) throws(MIDIFileError) {
        precondition((1...0xFFFF).contains(trackCount), "a MIDI file needs 1...65535 tracks, not \(trackCount)")
        precondition((1...0x7FFF).contains(ticksPerQuarter), "ticks per quarter must be 1...32767, not \(ticksPerQuarter)")
        self.path = path
        self.trackCount = trackCount
        self.ticksPerQuarter = ticksPerQuarter
        do {
            output = try AtomicFile(path: path)
        } catch {
            throw MIDIFileError(error)
        }
        var spools: [SpoolFile] = []
        spools.reserveCapacity(trackCount)
        let directory = SpoolFile.directory(of: path)
        for _ in 0..<trackCount {
            do {
                spools.append(try SpoolFile(directory: directory, outputPath: path))
            } catch {
                for spool in spools { spool.close() }
                output.abandon()
                throw MIDIFileError(error)
            }
        }
        self.spools = spools
        lastTicks = Array(repeating: 0, count: trackCount)
        ended = Array(repeating: false, count: trackCount)
        scratch.reserveCapacity(64)
    }

    deinit {
        abandon()
    }

    /// In-memory capacity of each track's spool buffer, in bytes.
    public static let spoolBufferCapacity = SpoolFile.defaultBufferCapacity

    /// Bytes of encoded events currently held in memory across all tracks;
    /// never more than `trackCount × spoolBufferCapacity`.
    public var bufferedByteCount: Int {
        spools.reduce(0) { $0 + $1.bufferedByteCount }
    }

    /// The tick of the last event appended to `track` (0 if none).
    public func lastTick(ofTrack track: Int) -> UInt64 {
        precondition(spools.indices.contains(track), "track \(track) is outside 0..<\(trackCount)")
        return lastTicks[track]
    }

    /// Appends `event` to `track` (0-based). Ticks must not decrease within a
    /// track, the message's fields must be in range, and nothing may follow
    /// an `.endOfTrack` (all `precondition`s).
    /// - Throws: `.writeFailed` if spooling to disk fails (e.g. disk full),
    ///   `.unrepresentable` if the gap since the previous event exceeds
    ///   0x0FFFFFFF ticks or the track would exceed 4 GiB. After an error the
    ///   writer is abandoned and every later call throws the same error.
    public func append(_ event: MIDIEvent, track: Int) throws(MIDIFileError) {
        try lifecycle.check(path)
        precondition(spools.indices.contains(track), "track \(track) is outside 0..<\(trackCount)")
        precondition(!ended[track], "event appended to track \(track) after its end of track")
        let previous = lastTicks[track]
        precondition(event.tick >= previous,
                     "track \(track): tick \(event.tick) comes before the previous event's tick \(previous)")
        let delta = event.tick - previous
        guard delta <= UInt64(MIDIVariableLengthQuantity.maximum) else {
            throw fail(.unrepresentable(path: path, reason: "track \(track): the gap of \(delta) ticks before tick \(event.tick) exceeds the format's maximum of 268435455 ticks"))
        }
        scratch.removeAll(keepingCapacity: true)
        MIDIVariableLengthQuantity.encode(UInt32(delta), into: &scratch)
        MIDIMessageEncoder.encode(event.message, into: &scratch)
        // Keep room for a final End of Track (4 bytes) within the 32-bit chunk length.
        guard spools[track].byteCount + scratch.count + 4 <= Int(UInt32.max) else {
            throw fail(.unrepresentable(path: path, reason: "track \(track) would exceed the format's maximum chunk length of 4 GiB"))
        }
        do {
            try spools[track].write(scratch)
        } catch {
            throw fail(MIDIFileError(error))
        }
        lastTicks[track] = event.tick
        if event.message == .endOfTrack { ended[track] = true }
    }

    /// Appends `message` at absolute `tick` to `track`; see `append(_:track:)`.
    public func append(_ message: MIDIMessage, atTick tick: UInt64, track: Int) throws(MIDIFileError) {
        try append(MIDIEvent(tick: tick, message: message), track: track)
    }

    /// Ends every track that has no End of Track yet (at its last event's
    /// tick), writes the header and all tracks, and atomically replaces
    /// `path`. Using the writer afterwards is a programmer error.
    /// - Throws: `.writeFailed` (nothing appears at `path`; an earlier file
    ///   there is untouched) or an error from an earlier failed call.
    public func finish() throws(MIDIFileError) {
        try lifecycle.check(path)
        for track in 0..<trackCount where !ended[track] {
            try append(MIDIEvent(tick: lastTicks[track], message: .endOfTrack), track: track)
        }
        var header: [UInt8] = Array("MThd".utf8)
        appendBigEndian(UInt32(6), into: &header)
        appendBigEndian(UInt16(1), into: &header)
        appendBigEndian(UInt16(trackCount), into: &header)
        appendBigEndian(ticksPerQuarter, into: &header)
        do {
            try output.write(header)
            for spool in spools {
                var chunkHeader: [UInt8] = Array("MTrk".utf8)
                appendBigEndian(UInt32(spool.byteCount), into: &chunkHeader)
                try output.write(chunkHeader)
                try spool.copy(to: output)
                spool.close()
            }
            try output.commit()
        } catch {
            throw fail(MIDIFileError(error))
        }
        lifecycle.finish()
    }

    /// Discards everything written so far: no file appears at `path`, and
    /// scratch files are removed. Idempotent; never throws; does nothing
    /// after a successful `finish()`.
    public func abandon() {
        lifecycle.abandon(cleanUp: cleanUp)
    }

    private func fail(_ error: MIDIFileError) -> MIDIFileError {
        lifecycle.fail(error, cleanUp: cleanUp)
    }

    private func cleanUp() {
        for spool in spools { spool.close() }
        output.abandon()
    }

    private func appendBigEndian<T: FixedWidthInteger>(_ value: T, into bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
