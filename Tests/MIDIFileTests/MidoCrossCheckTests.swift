// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import TestSupport
import Testing

/// Runs Python with `mido` (an independent MIDI file reader) when it is installed.
enum Mido {
    /// True if `python3 -c "import mido"` succeeds.
    static let isAvailable: Bool = (try? run(["-c", "import mido"]))?.status == 0

    /// Prints one line per event: "track tick kind fields…", text as UTF-8 hex.
    static let dumpScript = """
    import sys, mido
    mid = mido.MidiFile(sys.argv[1], charset="utf-8")
    print("file", mid.type, mid.ticks_per_beat, len(mid.tracks))
    for index, track in enumerate(mid.tracks):
        tick = 0
        for m in track:
            tick += m.time
            t = m.type
            if t in ("note_on", "note_off"): f = [m.channel, m.note, m.velocity]
            elif t == "polytouch": f = [m.channel, m.note, m.value]
            elif t == "control_change": f = [m.channel, m.control, m.value]
            elif t == "program_change": f = [m.channel, m.program]
            elif t == "aftertouch": f = [m.channel, m.value]
            elif t == "pitchwheel": f = [m.channel, m.pitch + 8192]
            elif t == "sysex": f = [bytes(m.data).hex()]
            elif t == "set_tempo": f = [m.tempo]
            elif t == "time_signature": f = [m.numerator, m.denominator, m.clocks_per_click, m.notated_32nd_notes_per_beat]
            elif t == "key_signature": f = [m.key]
            elif t in ("text", "track_name", "marker"): f = [(m.name if t == "track_name" else m.text).encode("utf-8").hex()]
            elif t == "end_of_track": f = []
            else: f = ["unexpected"]
            print(index, tick, t, *f)
    """

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The line `dumpScript` prints for `event`.
    static func line(track: Int, _ event: MIDIEvent) -> String {
        func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        func join(_ kind: String, _ fields: [String]) -> String {
            ([String(track), String(event.tick), kind] + fields).joined(separator: " ")
        }
        switch event.message {
        case .noteOn(let c, let n, let v): return join("note_on", ["\(c)", "\(n)", "\(v)"])
        case .noteOff(let c, let n, let v): return join("note_off", ["\(c)", "\(n)", "\(v)"])
        case .polyphonicPressure(let c, let n, let p): return join("polytouch", ["\(c)", "\(n)", "\(p)"])
        case .controlChange(let c, let n, let v): return join("control_change", ["\(c)", "\(n)", "\(v)"])
        case .programChange(let c, let p): return join("program_change", ["\(c)", "\(p)"])
        case .channelPressure(let c, let p): return join("aftertouch", ["\(c)", "\(p)"])
        case .pitchBend(let c, let v): return join("pitchwheel", ["\(c)", "\(v)"])
        case .sysEx(let data): return join("sysex", [hex(data)])
        case .tempo(let t): return join("set_tempo", ["\(t)"])
        case .timeSignature(let n, let d, let c, let t): return join("time_signature", ["\(n)", "\(1 << d)", "\(c)", "\(t)"])
        case .keySignature(let sharps, let minor):
            // mido's names: the major key with that many sharps (flats), or its relative minor with "m".
            let names = minor ? ["Abm", "Ebm", "Bbm", "Fm", "Cm", "Gm", "Dm", "Am", "Em", "Bm", "F#m", "C#m", "G#m", "D#m", "A#m"]
                : ["Cb", "Gb", "Db", "Ab", "Eb", "Bb", "F", "C", "G", "D", "A", "E", "B", "F#", "C#"]
            return join("key_signature", [names[Int(sharps) + 7]])
        case .text(let s): return join("text", [hex(s.utf8)])
        case .trackName(let s): return join("track_name", [hex(s.utf8)])
        case .marker(let s): return join("marker", [hex(s.utf8)])
        case .endOfTrack: return join("end_of_track", [])
        case .sysExEscape, .unknownMeta: return join("not-compared", [])
        }
    }
}

@Suite("Independent reader")
struct MidoCrossCheckTests {
    @Test("mido reads the writer's files as the same events",
          .enabled(if: Mido.isAvailable, "needs python3 with mido (pip install mido)"),
          arguments: [3, 4, 5])
    func midoAgrees(seed: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cross.mid")
        var score = RandomScore(seed: UInt64(seed), onlyCommonMessages: true)
        var random = SeededGenerator(seed: UInt64(seed) + 77)
        for index in score.tracks.indices {
            let tick = score.tracks[index].last?.tick ?? 0
            score.tracks[index] += [
                MIDIEvent(tick: tick, message: .trackName("Track \(index) ♩")),
                MIDIEvent(tick: tick, message: .marker("F♯m7 \(index)")),
                MIDIEvent(tick: tick + 1, message: .timeSignature(numerator: 7, denominatorPowerOfTwo: 3, clocksPerClick: 24, thirtySecondsPerQuarter: 8)),
                MIDIEvent(tick: tick + 1, message: .keySignature(sharps: Int8(index % 15) - 7, minor: index % 2 == 1)),
                MIDIEvent(tick: tick + 1, message: .sysEx(RandomScore.bytes(maxCount: 10, below: 0x80, using: &random))),
                MIDIEvent(tick: tick + 2, message: .polyphonicPressure(channel: 2, note: 3, pressure: 4)),
                MIDIEvent(tick: tick + 2, message: .channelPressure(channel: 5, pressure: 6)),
                MIDIEvent(tick: tick + 3, message: .noteOn(channel: 0, note: 60, velocity: 0)),
            ]
        }
        try score.write(to: path)
        let (status, output) = try Mido.run(["-c", Mido.dumpScript, path])
        #expect(status == 0)
        var expected = ["file 1 \(score.ticksPerQuarter) \(score.tracks.count)"]
        for (index, events) in score.expectedTracks.enumerated() {
            expected += events.map { Mido.line(track: index, $0) }
        }
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.count == expected.count)
        if let first = zip(lines, expected).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
            Issue.record("line \(first.offset): mido says '\(first.element.0)', expected '\(first.element.1)'")
        }
    }
}
