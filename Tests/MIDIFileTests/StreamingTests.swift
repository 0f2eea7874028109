// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIFile
import TestSupport
import Testing

@Suite("Streaming")
struct StreamingTests {
    @Test("200k events: the writer's memory buffer stays bounded and everything reads back")
    func boundedBuffer() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("long.mid")
        let trackCount = 4
        let writer = try MIDIFileWriter(path: path, trackCount: trackCount)
        let bound = trackCount * MIDIFileWriter.spoolBufferCapacity
        var largestBuffer = 0
        var ticks = [UInt64](repeating: 0, count: trackCount)
        let eventCount = 200_000
        for index in 0..<eventCount {
            let track = index % trackCount
            let note = UInt8(36 + index % 48)
            let message: MIDIMessage = index / trackCount % 2 == 0
                ? .noteOn(channel: UInt8(track), note: note, velocity: 90)
                : .noteOff(channel: UInt8(track), note: note, velocity: 0)
            ticks[track] += UInt64(index % 7 * 60)
            try writer.append(MIDIEvent(tick: ticks[track], message: message), track: track)
            largestBuffer = max(largestBuffer, writer.bufferedByteCount)
            if writer.bufferedByteCount > bound {
                Issue.record("buffered \(writer.bufferedByteCount) bytes after \(index + 1) events; bound is \(bound)")
                break
            }
        }
        #expect(largestBuffer <= bound)
        #expect(largestBuffer > 0)
        try writer.finish()
        #expect(writer.bufferedByteCount == 0)

        let fileSize = try contentsOf(path).count
        #expect(fileSize > 2 * bound, "the test must write far more than the buffers hold")
        let contents = try MIDIFileReader.read(path: path)
        #expect(contents.tracks.count == trackCount)
        #expect(contents.eventCount == eventCount + trackCount)
        for track in 0..<trackCount {
            #expect(contents.tracks[track].last == MIDIEvent(tick: ticks[track], message: .endOfTrack))
        }
        #expect(directory.entries() == ["long.mid"])
    }

    @Test("a system-exclusive event larger than the buffer goes straight through")
    func largeEvent() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sysex.mid")
        let writer = try MIDIFileWriter(path: path, trackCount: 1)
        let payload = (0..<200_000).map { UInt8($0 % 128) }
        try writer.append(.sysEx(payload), atTick: 10, track: 0)
        #expect(writer.bufferedByteCount <= MIDIFileWriter.spoolBufferCapacity)
        try writer.finish()
        let contents = try MIDIFileReader.read(path: path)
        #expect(contents.tracks == [[MIDIEvent(tick: 10, message: .sysEx(payload)), MIDIEvent(tick: 10, message: .endOfTrack)]])
    }
}
