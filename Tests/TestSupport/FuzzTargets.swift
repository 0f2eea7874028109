// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Analysis
import Errors
import EventLog
import Live
import MIDIFile
import PictureCommands
import Pictures
import Presets
import Studio
@testable import Engine

/// The readers of everything Clumsy takes from outside, as fuzz targets (`make fuzz`; CI runs a
/// short campaign of each): presets, event logs (as `roll` and as `replay` read them), MIDI
/// files (as `analyze` and `roll` read them) and OSC packets (as `--osc-in` reads them).
extension FuzzTarget {
    /// Preset files: decoded, configured and, if accepted, simulated for `duration` seconds.
    public static func preset(seeds: [[UInt8]], duration: Double = 0.1) -> FuzzTarget {
        FuzzTarget(name: "preset", seeds: seeds, tokens: jsonTokens, structure: .json) { input, _ in
            try outcome { () throws(SessionError) in
                let preset = try Preset.decode(input, file: "fuzz.json", defaultName: "fuzz")
                let configuration = try Configuration(preset: preset, duration: duration)
                try Simulator(configuration: configuration).run(into: [])
            }
        }
    }

    /// Event logs as `clumsy roll` reads them (with the default preset), drawn when accepted.
    public static func rollEventLog(seeds: [[UInt8]]) throws -> FuzzTarget {
        let plan = SessionPlan(configuration: try Configuration(preset: try PresetLibrary.load("original"), duration: 1))
        return FuzzTarget(name: "roll-event-log", seeds: seeds, tokens: jsonTokens, structure: .jsonLines) { _, path in
            try outcome { () throws(SessionError) in try draw(RollReader.fromEventLog(path: path, plan: plan)) }
        }
    }

    /// Event logs as `clumsy replay` reads them.
    public static func replayEventLog(seeds: [[UInt8]]) -> FuzzTarget {
        FuzzTarget(name: "replay-event-log", seeds: seeds, tokens: jsonTokens, structure: .jsonLines) { _, path in
            try outcome { () throws(SessionError) in _ = try ReplayLog.read(path: path) }
        }
    }

    /// MIDI files: parsed from memory and analysed (both reports), and read by `roll` from the file and drawn.
    public static func midiFile(seeds: [[UInt8]]) -> FuzzTarget {
        FuzzTarget(name: "midi-file", seeds: seeds, tokens: midiTokens, structure: .bytes) { input, path in
            let contents: MIDIFileContents?
            do throws(MIDIFileError) {
                contents = try MIDIFileReader.parse(input)
            } catch {
                switch error {
                case .malformed, .unsupported: contents = nil
                default: throw Finding(description: "\(error)")
                }
            }
            if let contents {
                let analysis = MIDIAnalyzer.analyze(contents)
                _ = AnalysisReport.text(analysis, file: path)
                _ = AnalysisReport.json(analysis, file: path)
            }
            return try outcome { () throws(SessionError) in try draw(RollReader.fromMIDI(path: path)) }
        }
    }

    /// OSC packets as `--osc-in` decodes and interprets them.
    public static func oscPacket(seeds: [[UInt8]]) -> FuzzTarget {
        FuzzTarget(name: "osc-packet", seeds: seeds, tokens: oscTokens, structure: .bytes) { input, _ in
            let decoded = input.withUnsafeBytes { OSCMessage.decode($0) }
            guard case .success(let message) = decoded else { return .rejected }
            switch OSCControlSource.interpret(message) {
            case .success: return .accepted
            case .failure: return .rejected
            }
        }
    }

    /// OSC packets made by the encoder: every control `--osc-in` takes, and some it refuses.
    public static var oscSeeds: [[UInt8]] {
        let messages: [OSCMessage] = [
            OSCMessage(path: "/clumsy/gravity", arguments: [.float(3.5)]), OSCMessage(path: "/clumsy/speed", arguments: [.int(4)]),
            OSCMessage(path: "/clumsy/tempo", arguments: [.number(96, type: "d")]), OSCMessage(path: "/clumsy/kick", arguments: []),
            OSCMessage(path: "/clumsy/drop", arguments: []), OSCMessage(path: "/clumsy/key", arguments: [.string("Eb"), .string("dorian")]),
            OSCMessage(path: "/clumsy/tempo", arguments: [.number(-9e18, type: "h")]), OSCMessage(path: "/other", arguments: [.other("N")]),
        ]
        return messages.map { $0.encoded() }.filter { !$0.isEmpty }
    }

    /// A picture of an accepted roll, small (the painter's arithmetic is what is under test).
    static func draw(_ roll: Roll) throws(SessionError) {
        do {
            _ = try RollPainter.render(roll, width: 64, height: 64, format: .svg)
        } catch {
            throw .io("\(error)")
        }
    }

    static let jsonTokens: [[UInt8]] = ["{", "}", "[", "]", ",", ":", "\"", "0", "-", ".", "e", "E", "9", "1e21", "1e300", "-1", "null", "true",
                                        "\\", "\\u0000", "\n", "\"kind\":\"control\"", "\"kind\":\"session\"", "\"kind\":\"end\"", "\"t\":",
                                        "\"degree\":", "\"step\":9007199254740993"].map { Array($0.utf8) }
    static let midiTokens: [[UInt8]] = [Array("MThd".utf8), Array("MTrk".utf8), [0, 0, 0, 6], [0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xFF],
                                        [0x80, 0x80, 0x80, 0x80], [0xFF, 0xFF, 0xFF, 0x7F], [0xFF, 0x2F, 0x00], [0xFF, 0x51, 0x03, 0, 0, 0],
                                        [0xFF, 0x58, 0x04, 255, 255, 255, 255], [0xFF, 0x03, 0x05, 0x1B, 0x5B, 0x32, 0x4A, 0x07], [0xF0, 0x7F],
                                        [0x90, 60, 100], [0x80, 60, 0], [0x99, 36, 127], [0xB0], [0xE0, 0x7F, 0x7F], [0x00], [0xFF, 0xFF]]
    static let oscTokens: [[UInt8]] = [Array("/clumsy/".utf8), Array("#bundle\0".utf8), Array(",iifs\0\0\0".utf8), Array(",hd\0".utf8),
                                       [0, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0xF0, 0, 0, 0, 0, 0, 0], Array(",ss\0".utf8), [0x1B, 0x5D]]
}
