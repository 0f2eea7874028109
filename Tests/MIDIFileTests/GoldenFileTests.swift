// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIFile
import TestSupport
import Testing

/// The writer's bytes for a small score must equal Golden/small.mid, which
/// was built from hand-written hex by make_small.py and checked with
/// the independent `mido` reader. Any change to the encoding fails here.
@Suite("Golden file")
struct GoldenFileTests {
    static let score: [[MIDIEvent]] = [
        [
            MIDIEvent(tick: 0, message: .tempo(microsecondsPerQuarter: 500_000)),
            MIDIEvent(tick: 0, message: .timeSignature(numerator: 4, denominatorPowerOfTwo: 2, clocksPerClick: 24, thirtySecondsPerQuarter: 8)),
            MIDIEvent(tick: 0, message: .text("Clumsy golden")),
            MIDIEvent(tick: 0, message: .endOfTrack), // explicit: the writer must not add a second one
        ],
        [
            MIDIEvent(tick: 0, message: .trackName("Bass")),
            MIDIEvent(tick: 0, message: .programChange(channel: 0, program: 33)),
            MIDIEvent(tick: 0, message: .controlChange(channel: 0, controller: 7, value: 100)),
            MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: 36, velocity: 100)),
            MIDIEvent(tick: 960, message: .noteOff(channel: 0, note: 36, velocity: 0)),
            MIDIEvent(tick: 960, message: .noteOn(channel: 0, note: 43, velocity: 90)),
            MIDIEvent(tick: 1920, message: .noteOff(channel: 0, note: 43, velocity: 64)),
        ],
        [
            MIDIEvent(tick: 0, message: .trackName("Keys")),
            MIDIEvent(tick: 0, message: .programChange(channel: 1, program: 4)),
            MIDIEvent(tick: 0, message: .controlChange(channel: 1, controller: 64, value: 127)),
            MIDIEvent(tick: 480, message: .noteOn(channel: 1, note: 60, velocity: 80)),
            MIDIEvent(tick: 480, message: .noteOn(channel: 1, note: 64, velocity: 80)),
            MIDIEvent(tick: 480, message: .noteOn(channel: 1, note: 67, velocity: 80)),
            MIDIEvent(tick: 1440, message: .pitchBend(channel: 1, value: 8292)),
            MIDIEvent(tick: 2400, message: .noteOff(channel: 1, note: 60, velocity: 0)),
            MIDIEvent(tick: 2400, message: .noteOff(channel: 1, note: 64, velocity: 0)),
            MIDIEvent(tick: 2400, message: .noteOff(channel: 1, note: 67, velocity: 0)),
            MIDIEvent(tick: 2400, message: .controlChange(channel: 1, controller: 64, value: 0)),
        ],
    ]

    @Test("writer output equals Golden/small.mid byte for byte")
    func writerMatchesGolden() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("small.mid")
        let writer = try MIDIFileWriter(path: path, trackCount: 3)
        for (track, events) in Self.score.enumerated() {
            for event in events { try writer.append(event, track: track) }
        }
        try writer.finish()
        let written = try contentsOf(path)
        let golden = try goldenBytes("small.mid")
        #expect(written.count == golden.count)
        if let mismatch = zip(written, golden).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
            Issue.record("first difference at byte \(mismatch.offset): wrote 0x\(String(mismatch.element.0, radix: 16)), golden has 0x\(String(mismatch.element.1, radix: 16))")
        }
        #expect(written == golden)
    }

    @Test("reader parses Golden/small.mid into the score plus End of Track events")
    func readerParsesGolden() throws {
        let contents = try MIDIFileReader.parse(try goldenBytes("small.mid"))
        #expect(contents.format == 1)
        #expect(contents.ticksPerQuarter == 960)
        var expected = Self.score
        expected[1].append(MIDIEvent(tick: 1920, message: .endOfTrack))
        expected[2].append(MIDIEvent(tick: 2400, message: .endOfTrack))
        #expect(contents.tracks == expected)
        #expect(contents.trackName(at: 0) == nil)
        #expect(contents.trackName(at: 1) == "Bass")
        #expect(contents.trackName(at: 2) == "Keys")
        #expect(contents.trackName(at: 3) == nil)
        #expect(contents.seconds(atTick: 2400) == 1.25)
    }
}
