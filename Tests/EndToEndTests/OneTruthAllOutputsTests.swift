// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Foundation
import Glibc
import Pictures
import Presets
import Studio
import TestSupport
import Testing
import WorldDrawing
@testable import Engine
@testable import Live
@testable import PictureCommands
@testable import Session
@testable import Sinks

/// Issue 20's acceptance: for every bundled preset (30 s, seeds 1 and 2) the text view, the
/// event log, the OSC output, `draw`'s labels, the video's label, `roll` of the log and `roll`
/// of the MIDI file name the same chords, and `roll` of the log and of the MIDI file draw the
/// same notes. The presets run two at a time (each case starts its own processes).
@Suite("One truth in every output", .serialized)
struct OneTruthAllOutputsTests {
    typealias Named = OneTruthTests.Named

    @Test("Every bundled preset, 30 s, seeds 1 and 2: text view, event log, OSC, draw, the video's label, roll of the log and roll of the MIDI file name the same chords; both rolls draw the same notes")
    func everyOutputAgrees() async throws {
        let cases = OneTruthTests.cases
        #expect(cases.count >= 20, "bundled presets: \(cases.map(\.preset))")
        // Two cases at a time: each starts several processes of its own.
        var all: [String] = []
        try await withThrowingTaskGroup(of: [String].self) { group in
            var next = 0
            func start() {
                guard next < cases.count else { return }
                let (preset, seed) = cases[next]
                next += 1
                group.addTask {
                    do {
                        return try await Self.check(preset: preset, seed: seed).map { "\(preset) seed \(seed): \($0)" }
                    } catch {
                        return ["\(preset) seed \(seed): \(error)"]
                    }
                }
            }
            start()
            start()
            while let found = try await group.next() {
                all += found
                start()
            }
        }
        #expect(all.isEmpty, "\(all.count) disagreements:\n\(all.joined(separator: "\n"))")
    }

    /// Same names in the same order, each within `tolerance` seconds of the other's time.
    static func differ(_ what: String, _ a: [Named], _ b: [Named], tolerance: Double = 0.0006) -> String? {
        let same = a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && abs($0.time - $1.time) <= tolerance }
        return same ? nil : "\(what): \(a.count) chords \(a.prefix(6)) … against the log's \(b.count) \(b.prefix(6)) …"
    }

    /// What each output named, checked against the event log; the problems found.
    static func check(preset: String, seed: Int) async throws -> [String] {
        let directory = try TemporaryDirectory()
        let session = ["run", preset, "--duration", "30", "--seed", String(seed)]
        let text = try await CLI.run(session, timeout: 120)
        let files = try await CLI.run(session + ["--midi", "s.mid", "--events", "s.jsonl", "--quiet"], in: directory.path, timeout: 120)
        guard text.status == 0 && files.status == 0 else { return ["clumsy failed: \(text)\n\(files)"] }
        let log = try readEventLog(directory.file("s.jsonl"))
        let logged = log.filter { $0.kind == "chord" }.map { Named(time: $0.t, name: $0.name ?? "?") }
        var problems: [String] = []
        if logged.isEmpty || logged.first?.time != 0 { problems.append("no opening chord in the log") }

        let plan = SessionPlan(configuration: try Configuration(preset: try PresetLibrary.load(preset), overrides: Overrides(seed: UInt64(seed)), duration: 30))
        let heard = try HeardOutputs.run(plan)
        let fromLog = try RollReader.fromEventLog(path: directory.file("s.jsonl"), preset: preset)
        let fromMIDI = try RollReader.fromMIDI(path: directory.file("s.mid"))
        // A MIDI tick is 1/960 of a quarter: half of one at the session's tempo, and a little.
        let tick = 60 / plan.clock.tempo / Double(MIDIRecorder.ticksPerQuarter)
        problems += [
            differ("text view", OneTruthTests.textChords(text.stdout), logged),
            // OSC sends a chord when the session's step reaches it: its time here is that step's end,
            // up to one step after the chord (a form's return lands exactly on a step), and the
            // log keeps microseconds.
            differ("OSC /clumsy/chord", heard.osc, logged, tolerance: plan.world.timestep + 1e-6),
            differ("the video's label", heard.video, logged),
            differ("roll of the log", fromLog.chords.map { Named(time: $0.time, name: $0.name) }, logged),
            differ("roll of the MIDI file", fromMIDI.chords.map { Named(time: $0.time, name: $0.name) }, logged, tolerance: tick / 2 + 1e-6),
            sameNotes(fromLog, fromMIDI, tolerance: tick / 2 + 1e-6),
        ].compactMap { $0 }

        // draw: each bouncer is labelled with the chord the session played on its degree.
        let labels = Dictionary(PlanDrawing.drawing(for: plan).bouncers.map { ($0.hue + 1, $0.detail) }, uniquingKeysWith: { a, _ in a })
        for chord in log where chord.kind == "chord" && labels[chord.degree ?? 0] != chord.name {
            problems.append("draw labels degree \(chord.degree ?? 0) \(labels[chord.degree ?? 0] ?? "-"), the session played \(chord.name ?? "-")")
        }
        return problems
    }

    /// Roll of the log and roll of the MIDI file draw the same notes: in each voice's lane the
    /// same pitches at the same times with the same velocities (the ends are the log's note lengths).
    static func sameNotes(_ log: Roll, _ midi: Roll, tolerance: Double) -> String? {
        func notes(_ roll: Roll) -> [(lane: String, start: Double, pitch: Int, velocity: Int)] {
            roll.notes.map { (roll.lanes[$0.lane].name, $0.start, $0.pitch, $0.velocity) }
                .sorted { ($0.lane, $0.pitch, $0.start) < ($1.lane, $1.pitch, $1.start) }
        }
        let a = notes(log), b = notes(midi)
        guard a.count == b.count else { return "roll of the log draws \(a.count) notes, of the MIDI file \(b.count)" }
        for (x, y) in zip(a, b) where x.lane != y.lane || x.pitch != y.pitch || x.velocity != y.velocity || abs(x.start - y.start) > tolerance {
            return "roll of the log draws \(x), of the MIDI file \(y)"
        }
        return nil
    }
}

/// A session run in this process into the OSC output (read back from a UDP socket) and the
/// function that labels the video's chord, collecting the chords each names.
final class HeardOutputs: SessionSink {
    private let osc: OSCOutSink
    private let socket: UDPReader
    private(set) var oscChords: [OneTruthTests.Named] = []
    private(set) var videoChords: [OneTruthTests.Named] = []

    /// The chords OSC sent and the video labelled over the whole of `plan`.
    static func run(_ plan: SessionPlan) throws -> (osc: [OneTruthTests.Named], video: [OneTruthTests.Named]) {
        let outputs = try HeardOutputs(plan: plan)
        try Simulator(plan: plan).run(into: [outputs])
        return (outputs.oscChords, outputs.videoChords)
    }

    private init(plan: SessionPlan) throws {
        socket = try UDPReader()
        osc = try OSCOutSink(target: socket.target, plan: plan)
    }

    /// Each step's events go out over OSC and the datagrams are read back at once (loopback
    /// delivers while sending), so no burst outgrows the socket's buffer.
    func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        try osc.record(events, through: time)
        for case .chord(let chord) in events {
            videoChords.append(.init(time: chord.time, name: VideoSink.label(of: chord).chord))
        }
        for message in socket.messages() {
            // `/clumsy/chord i:degree s:symbol`
            guard message.path == "/clumsy/chord", message.arguments.count == 2, case .string(let name) = message.arguments[1] else { continue }
            oscChords.append(.init(time: time, name: name))
        }
    }

    func finish(at time: Double) throws(SessionError) {}
    func abandon() {}
}

@Suite("Five keys in the piano area")
struct FiveKeysTests {
    @Test("A five-key preset's keys lie inside the piano area, side by side without overlapping, and draw names each")
    func keysInsidePianoArea() async throws {
        let directory = try TemporaryDirectory()
        let path = try fiveKeyPreset(in: directory)
        let plan = SessionPlan(configuration: try Configuration(preset: try PresetLibrary.load(path), duration: 5))
        let drawing = PlanDrawing.drawing(for: plan)
        let piano = try #require(drawing.areas.first { $0.name == "piano" }).box
        let keys = drawing.keys.map(\.box).sorted { $0.minX < $1.minX }
        #expect(keys.count == 5)
        for key in keys {
            #expect(key.minX >= piano.minX - 1e-9 && key.maxX <= piano.maxX + 1e-9, "key \(key) outside the piano area \(piano)")
        }
        for (left, right) in zip(keys, keys.dropFirst()) { #expect(left.maxX <= right.minX + 1e-9, "keys overlap: \(left) \(right)") }
        let drawn = try await CLI.run(["draw", path, "-o", "five.svg"], in: directory.path)
        let svg = String(decoding: bytes(of: directory.file("five.svg")) ?? [], as: UTF8.self)
        #expect(drawn.status == 0 && svg.contains("</svg>"), "\(drawn)")
    }
}
