// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIFile
import TestSupport

/// Seeded random scores that use every kind of message the writer can encode.
struct RandomScore {
    var ticksPerQuarter: UInt16
    var tracks: [[MIDIEvent]]

    init(seed: UInt64, maxEventsPerTrack: Int = 300, onlyCommonMessages: Bool = false) {
        var random = SeededGenerator(seed: seed)
        ticksPerQuarter = [24, 96, 480, 960, 0x7FFF].randomElement(using: &random)!
        let trackCount = Int.random(in: 1...5, using: &random)
        tracks = (0..<trackCount).map { _ in
            var tick: UInt64 = 0
            let count = Int.random(in: 0...maxEventsPerTrack, using: &random)
            return (0..<count).map { _ in
                tick += RandomScore.delta(using: &random)
                let message = onlyCommonMessages
                    ? RandomScore.commonMessage(using: &random)
                    : RandomScore.message(using: &random)
                return MIDIEvent(tick: tick, message: message)
            }
        }
    }

    static func delta(using random: inout SeededGenerator) -> UInt64 {
        switch Int.random(in: 0..<10, using: &random) {
        case 0...3: return 0
        case 4...7: return UInt64.random(in: 1...2000, using: &random)
        case 8: return UInt64.random(in: 0...0x0FFF_FFFF, using: &random)
        default: return [127, 128, 16383, 16384, 0x0FFF_FFFF].randomElement(using: &random)!
        }
    }

    static func data(using random: inout SeededGenerator) -> UInt8 {
        UInt8.random(in: 0...127, using: &random)
    }

    static func channel(using random: inout SeededGenerator) -> UInt8 {
        UInt8.random(in: 0...15, using: &random)
    }

    static func text(using random: inout SeededGenerator) -> String {
        let pieces = ["a", "Z", " ", "é", "ü", "ß", "♩", "🎹", "\u{0}", "\n", "Bass", "Keys"]
        let count = Int.random(in: 0...20, using: &random)
        return (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    static func bytes(maxCount: Int, below limit: UInt8, using random: inout SeededGenerator) -> [UInt8] {
        (0..<Int.random(in: 0...maxCount, using: &random)).map { _ in UInt8.random(in: 0..<limit, using: &random) }
    }

    /// Channel messages and the meta events a generative session writes.
    static func commonMessage(using random: inout SeededGenerator) -> MIDIMessage {
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1, 2: return .noteOn(channel: channel(using: &random), note: data(using: &random), velocity: data(using: &random))
        case 3, 4: return .noteOff(channel: channel(using: &random), note: data(using: &random), velocity: data(using: &random))
        case 5: return .controlChange(channel: channel(using: &random), controller: data(using: &random), value: data(using: &random))
        case 6: return .programChange(channel: channel(using: &random), program: data(using: &random))
        case 7: return .pitchBend(channel: channel(using: &random), value: UInt16.random(in: 0...0x3FFF, using: &random))
        case 8: return .tempo(microsecondsPerQuarter: UInt32.random(in: 1...0xFF_FFFF, using: &random))
        default: return .text(text(using: &random))
        }
    }

    /// Any message except End of Track.
    static func message(using random: inout SeededGenerator) -> MIDIMessage {
        switch Int.random(in: 0..<17, using: &random) {
        case 0...6: return commonMessage(using: &random)
        case 7: return .polyphonicPressure(channel: channel(using: &random), note: data(using: &random), pressure: data(using: &random))
        case 8: return .channelPressure(channel: channel(using: &random), pressure: data(using: &random))
        case 9: return .sysEx(bytes(maxCount: 40, below: 0x80, using: &random))
        case 10: return .sysExEscape(bytes(maxCount: 40, below: 0xFF, using: &random))
        case 11: return .timeSignature(numerator: data(using: &random), denominatorPowerOfTwo: UInt8.random(in: 0...6, using: &random),
                                       clocksPerClick: data(using: &random), thirtySecondsPerQuarter: data(using: &random))
        case 12: return .trackName(text(using: &random))
        case 13:
            let types: [UInt8] = [0x00, 0x02, 0x04, 0x05, 0x07, 0x08, 0x20, 0x21, 0x54, 0x7F]
            let count = [0, 1, 2, 127, 128, 200].randomElement(using: &random)!
            return .unknownMeta(type: types.randomElement(using: &random)!,
                                data: (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) })
        case 14: return .unknownMeta(type: 0x01, data: [0xC3, 0x28]) // text that is not UTF-8 stays raw
        case 15: return .keySignature(sharps: Int8.random(in: -7...7, using: &random), minor: Bool.random(using: &random))
        default: return .text(String(repeating: "long ", count: Int.random(in: 26...40, using: &random))) // length VLQ ≥ 128
        }
    }

    /// The tracks as the reader should return them: each ends with End of Track at its last tick.
    var expectedTracks: [[MIDIEvent]] {
        tracks.map { $0 + [MIDIEvent(tick: $0.last?.tick ?? 0, message: .endOfTrack)] }
    }

    /// Writes the score to `path` and returns the file's bytes.
    @discardableResult
    func write(to path: String) throws -> [UInt8] {
        let writer = try MIDIFileWriter(path: path, trackCount: tracks.count, ticksPerQuarter: ticksPerQuarter)
        for (index, events) in tracks.enumerated() {
            for event in events { try writer.append(event, track: index) }
        }
        try writer.finish()
        return try contentsOf(path)
    }
}
