// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIFile
import MIDIWire
import TestSupport
import Testing

@Suite("Round trip")
struct RoundTripTests {
    @Test("random scores read back as written, plus End of Track", arguments: 0..<40)
    func randomScores(seed: Int) throws {
        let directory = try TemporaryDirectory()
        let score = RandomScore(seed: UInt64(seed))
        let path = directory.file("random.mid")
        try score.write(to: path)
        let contents = try MIDIFileReader.read(path: path)
        #expect(contents.format == 1)
        #expect(contents.ticksPerQuarter == score.ticksPerQuarter)
        #expect(contents.tracks.count == score.tracks.count)
        for (index, (got, want)) in zip(contents.tracks, score.expectedTracks).enumerated() {
            #expect(got.count == want.count, "track \(index)")
            if let first = zip(got, want).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
                Issue.record("track \(index) event \(first.offset): read \(first.element.0), wrote \(first.element.1)")
            }
        }
        let identical = contents.tracks == score.expectedTracks // compared as a Bool: the full dump is huge
        #expect(identical)
        #expect(directory.entries() == ["random.mid"])
    }

    @Test("the same score always produces the same bytes")
    func deterministic() throws {
        let directory = try TemporaryDirectory()
        let score = RandomScore(seed: 99)
        let first = try score.write(to: directory.file("a.mid"))
        let second = try score.write(to: directory.file("b.mid"))
        #expect(first == second)
        #expect(try score.write(to: directory.file("a.mid")) == first) // replacing an existing file
    }

    @Test("a channel message from the wire is the file's event: note-on, note-off with its release velocity, control change; nothing else")
    func wireMessages() {
        #expect(MIDIMessage(.noteOn(channel: 2, note: 60, velocity: 99)) == .noteOn(channel: 2, note: 60, velocity: 99))
        #expect(MIDIMessage(.noteOff(channel: 15, note: 0)) == .noteOff(channel: 15, note: 0, velocity: 0))
        var released = MIDIBytes.noteOff(channel: 3, note: 5)
        released.data2 = 64
        #expect(MIDIMessage(released) == .noteOff(channel: 3, note: 5, velocity: 64))
        #expect(MIDIMessage(.controlChange(channel: 9, controller: 91, value: 40)) == .controlChange(channel: 9, controller: 91, value: 40))
        #expect(MIDIMessage(.programChange(channel: 0, program: 4)) == nil && MIDIMessage(.clock) == nil)
    }

    @Test("empty tracks get just an End of Track at tick 0")
    func emptyTracks() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("empty.mid")
        let writer = try MIDIFileWriter(path: path, trackCount: 2, ticksPerQuarter: 480)
        try writer.finish()
        #expect(try contentsOf(path) == [
            0x4D, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 1, 0, 2, 0x01, 0xE0,
            0x4D, 0x54, 0x72, 0x6B, 0, 0, 0, 4, 0x00, 0xFF, 0x2F, 0x00,
            0x4D, 0x54, 0x72, 0x6B, 0, 0, 0, 4, 0x00, 0xFF, 0x2F, 0x00,
        ])
        let contents = try MIDIFileReader.read(path: path)
        #expect(contents.tracks == [[MIDIEvent(tick: 0, message: .endOfTrack)], [MIDIEvent(tick: 0, message: .endOfTrack)]])
    }

    @Test("an explicit End of Track at a later tick is kept and not duplicated")
    func explicitEndOfTrack() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("eot.mid")
        let writer = try MIDIFileWriter(path: path, trackCount: 1)
        try writer.append(.noteOn(channel: 0, note: 60, velocity: 100), atTick: 0, track: 0)
        try writer.append(.endOfTrack, atTick: 3840, track: 0)
        #expect(writer.lastTick(ofTrack: 0) == 3840)
        try writer.finish()
        let contents = try MIDIFileReader.read(path: path)
        #expect(contents.tracks == [[
            MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: 60, velocity: 100)),
            MIDIEvent(tick: 3840, message: .endOfTrack),
        ]])
    }
}
