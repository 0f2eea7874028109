import Testing
import Performance
import MIDIFile
import Studio
@testable import Session
#if canImport(Glibc)
import Glibc
#endif

/// Runs `preset` with `controls` replayed at their steps, into a MIDI file and a log.
private func run(_ name: String, seconds: Double, controls: [TimedControl]) throws -> (events: [SessionEvent], midi: [UInt8]) {
    let plan = SessionPlan(configuration: try Configuration(preset: try bundled(name), duration: seconds))
    let sink = CollectingSink()
    let path = "/tmp/clumsy-control-test-\(UInt32.random(in: 0...UInt32.max)).mid"
    defer { _ = unlink(path) }
    let recorder = try MIDIRecorder(path: path, plan: plan)
    try Simulator(plan: plan).run(into: [sink, recorder], controls: ReplayControls(controls))
    let bytes = try #require(readAll(path))
    return (sink.events, bytes)
}

private func readAll(_ path: String) -> [UInt8]? {
    guard let stream = fopen(path, "r") else { return nil }
    defer { fclose(stream) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&chunk, 1, chunk.count, stream)
        if count == 0 { break }
        bytes += chunk[0..<count]
    }
    return bytes
}

@Suite struct ControlTests {
    @Test func controlValuesAreCheckedAgainstTheFlagRanges() throws {
        #expect(try Control.make(name: "gravity", value: 3.5).get() == .gravity(3.5))
        #expect(try Control.make(name: "tempo", value: 90).get() == .tempo(90))
        #expect(try Control.make(name: "kick", value: nil).get() == .kick)
        for (name, value) in [("gravity", Double.nan), ("gravity", 101), ("gravity", -1), ("speed", 0), ("speed", .infinity),
                              ("tempo", 1e30), ("tempo", 19), ("kick", 1), ("gravity", nil), ("key", 1)] as [(String, Double?)] {
            if case .success(let control) = Control.make(name: name, value: value) {
                Issue.record("\(name) \(String(describing: value)) accepted as \(control)")
            }
        }
    }

    @Test func oscMessagesBecomeControlsOrAreRefusedWithAReason() throws {
        func interpret(_ path: String, _ arguments: [OSCValue]) -> Result<Control, ControlRejection> {
            OSCControlSource.interpret(OSCMessage(path: path, arguments: arguments))
        }
        #expect(try interpret("/clumsy/gravity", [.float(2)]).get() == .gravity(2))
        #expect(try interpret("/clumsy/speed", [.int(3)]).get() == .speed(3))
        #expect(try interpret("/clumsy/drop", []).get() == .drop)
        let refused: [(String, [OSCValue])] = [
            ("/clumsy/gravity", [.string("x")]), ("/clumsy/gravity", []), ("/clumsy/gravity", [.float(1), .float(2)]),
            ("/clumsy/gravity", [.float(.nan)]), ("/clumsy/tempo", [.float(1e30)]), ("/clumsy/kick", [.int(1)]),
            ("/clumsy/key", [.string("D"), .string("dorian")]), ("/clumsy/key", [.int(2)]), ("/other", []), ("", []),
        ]
        for (path, arguments) in refused {
            if case .success(let control) = interpret(path, arguments) { Issue.record("\(path) accepted as \(control)") }
        }
        if case .failure(let reason) = interpret("/clumsy/key", [.string("D"), .string("dorian")]) {
            #expect(reason.description.contains("not supported live"))
        }
    }

    @Test func controlsTakeEffectAtTheirStepAndAreLogged() throws {
        let controls = [TimedControl(step: 1200, control: .gravity(2)), TimedControl(step: 1200, control: .kick),
                        TimedControl(step: 1800, control: .drop), TimedControl(step: 2000, control: .speed(4))]
        let (events, _) = try run("default", seconds: 10, controls: controls)
        let logged = events.compactMap { event -> (Double, Int64, Control)? in
            if case .live(let t, let step, let control) = event { return (t, step, control) } else { return nil }
        }
        #expect(logged.map(\.2) == controls.map(\.control))
        #expect(logged.map(\.1) == controls.map(\.step))
        for (t, step, _) in logged { #expect(abs(t - Double(step) / 240) < 1e-9) }
        // The kick and the drops happen at the control's time, in the same step.
        #expect(events.contains { if case .kick(let t) = $0 { return abs(t - 5) < 1e-9 } else { return false } })
        #expect(events.filter { if case .drop(let t, _) = $0 { return abs(t - 7.5) < 1e-9 } else { return false } }.count == 4)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
        let lines = EventLogWriter.Lines(voices: SessionPlan(configuration: try Configuration(preset: try bundled("default"), duration: 10)).voices)
        for line in events.compactMap({ lines.line(for: $0) }) where line.contains("control") {
            #expect(line.contains("\"step\":"))
        }
    }

    @Test func theSameControlsGiveTheSameMIDIAndDifferentControlsOther() throws {
        let controls = [TimedControl(step: 1000, control: .gravity(3.5))]
        let a = try run("default", seconds: 12, controls: controls).midi
        let b = try run("default", seconds: 12, controls: controls).midi
        let none = try run("default", seconds: 12, controls: []).midi
        let later = try run("default", seconds: 12, controls: [TimedControl(step: 1001, control: .gravity(3.5))]).midi
        #expect(a == b)
        #expect(a != none)
        #expect(a != later)
    }

    @Test func aTempoChangeGoesIntoTheMIDIFileWithoutMovingTheNotesInTime() throws {
        let path = "/tmp/clumsy-tempo-test-\(UInt32.random(in: 0...UInt32.max)).mid"
        defer { _ = unlink(path) }
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled("default"), duration: 10))
        let sink = CollectingSink()
        let recorder = try MIDIRecorder(path: path, plan: plan)
        try Simulator(plan: plan).run(into: [sink, recorder], controls: ReplayControls([TimedControl(step: 1200, control: .tempo(90))]))
        let contents = try MIDIFileReader.read(path: path)
        let tempos = contents.tracks[0].compactMap { event -> UInt32? in
            if case .tempo(let microseconds) = event.message { return microseconds } else { return nil }
        }
        #expect(tempos == [500_000, 666_667])
        let map = contents.tempoMap
        var times: [Double] = []
        for track in contents.tracks.dropFirst() {
            for event in track { if case .noteOn = event.message { times.append(map.seconds(atTick: event.tick)) } }
        }
        let expected = sink.events.compactMap { event -> Double? in
            if case .note(let note) = event, note.kind == .on { return note.time } else { return nil }
        }
        #expect(times.count == expected.count)
        for (a, b) in zip(times.sorted(), expected.sorted()) { #expect(abs(a - b) < 0.001, "\(a) vs \(b)") }
    }

    @Test func aTempoChangeMovesTheBeatsOfTheSessionClockAndTheMIDIFileFollows() throws {
        // polska: 3/4 at 112 bpm, a stomp on beats 1 and 3. Half tempo from 10 s on.
        let path = "/tmp/clumsy-tempo-beats-\(UInt32.random(in: 0...UInt32.max)).mid"
        defer { _ = unlink(path) }
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled("polska"), duration: 20))
        let drums = try #require(plan.voices.id(of: .percussion))
        let sink = CollectingSink()
        let recorder = try MIDIRecorder(path: path, plan: plan)
        try Simulator(plan: plan).run(into: [sink, recorder], controls: ReplayControls([TimedControl(step: 2400, control: .tempo(56))]))
        let stomps = sink.events.compactMap { event -> Double? in
            if case .note(let note) = event, note.kind == .on, note.voice == drums, note.drum == 3 { return note.time } else { return nil }
        }
        func gaps(_ times: [Double], beat: Double) -> [Double] { zip(times, times.dropFirst()).map { ($1 - $0) / beat } }
        let before = stomps.filter { $0 < 10 }, after = stomps.filter { $0 > 10 }
        #expect(before.count > 10 && after.count > 5)
        for gap in gaps(before, beat: 60.0 / 112) + gaps(after, beat: 60.0 / 56) {
            #expect(abs(gap - 1) < 1e-6 || abs(gap - 2) < 1e-6, "stomps \(gap) beats apart")
        }
        // The MIDI file counts beats on: every stomp sits on a quarter note (960 ticks), ±1 tick.
        let contents = try MIDIFileReader.read(path: path)
        let ticks = contents.tracks[drums.rawValue + 1].compactMap { event -> UInt64? in
            if case .noteOn(_, let note, let velocity) = event.message, velocity > 0, Int(note) == plan.performer.percussion.stomp.note { return event.tick }
            return nil
        }
        #expect(ticks.count == stomps.count)
        for tick in ticks { #expect(min(tick % 960, 960 - tick % 960) <= 1, "stomp at tick \(tick)") }
    }

    @Test func aLiveLogReadsBackForReplay() throws {
        let path = "/tmp/clumsy-replay-test-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        defer { _ = unlink(path) }
        let record = ReplayRecord(arguments: ["default", "--gravity", "4.0", "--seed", "7"], presetName: "default", seed: 7, timestep: 1.0 / 240)
        let voices = SessionPlan(configuration: try Configuration(preset: try bundled("default"), duration: 10)).voices
        let writer = try EventLogWriter(path: path, voices: voices, replay: record)
        try writer.record([.live(time: 1, step: 240, control: .gravity(2.5)), .live(time: 1, step: 240, control: .kick),
                           .kick(time: 1)], through: 1)
        try writer.finish(at: 2.5)
        let log = try ReplayLog.read(path: path)
        #expect(log.arguments == record.arguments)
        #expect(log.controls == [TimedControl(step: 240, control: .gravity(2.5)), TimedControl(step: 240, control: .kick)])
        #expect(log.endStep == 600 && Int64((log.duration * 240).rounded()) == 600)
    }

    @Test func logsThatCannotBeReplayedAreRefusedNamingTheLine() throws {
        let cases = [
            "{\"t\":0.000000,\"kind\":\"bass\",\"ball\":0}\n",   // an offline log: no session line
            "{\"t\":0,\"kind\":\"session\",\"timestep\":0.004,\"arguments\":[\"default\"]}\n",   // no end line
            "{\"t\":0,\"kind\":\"session\",\"timestep\":0.004,\"arguments\":[\"default\"]}\n{\"t\":1,\"kind\":\"control\",\"step\":250,\"control\":\"gravity\",\"value\":1000}\n{\"t\":2,\"kind\":\"end\",\"step\":500}\n",
            "{\"t\":0,\"kind\":\"session\",\"timestep\":0.004,\"arguments\":[\"default\"]}\n{\"kind\":\"control\",\"step\":-1,\"control\":\"kick\"}\n",
            "{\"t\":0,\"kind\":\"session\",\"timestep\":0.004,\"arguments\":[\"default\"]}\n{\"kind\":\"control\",\n",
        ]
        for text in cases {
            let path = "/tmp/clumsy-bad-log-\(UInt32.random(in: 0...UInt32.max)).jsonl"
            defer { _ = unlink(path) }
            let stream = fopen(path, "w")
            fputs(text, stream)
            fclose(stream)
            do {
                _ = try ReplayLog.read(path: path)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.exitStatus == 65, "\(error)")
                #expect(error.description.contains(path))
            }
        }
    }
}

