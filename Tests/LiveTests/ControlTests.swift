// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import EventLog
import MIDIFile
import Performance
import Presets
import Studio
import TestSupport
import Testing
import Theory
@testable import Engine
@testable import Live
@testable import Sinks
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
    @Test func aFastForwardStopsWhenAskedAndOtherwiseReachesItsTime() throws {
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled("pulse"), duration: 600))
        var asked = 0
        let stopped = Simulator(plan: plan)
        stopped.fastForward(to: 500, tempo: plan.clock.tempo) { asked += 1; return asked >= 2 }
        #expect(asked == 2 && stopped.time > 0 && stopped.time < 60, "asked \(asked) times, stopped at \(stopped.time) s")
        let whole = Simulator(plan: plan)
        whole.fastForward(to: 20, tempo: plan.clock.tempo) { false }
        #expect(whole.time >= 20 && whole.time < 20 + 2 * plan.world.timestep, "\(whole.time)")
    }

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
        #expect(try interpret("/clumsy/chord", [.int(5)]).get() == .chord(5))
        for degree: OSCValue in [.int(0), .int(8), .float(2.5), .string("V")] {
            if case .success(let control) = interpret("/clumsy/chord", [degree]) { Issue.record("chord \(degree) accepted as \(control)") }
        }
        let refused: [(String, [OSCValue])] = [
            ("/clumsy/gravity", [.string("x")]), ("/clumsy/gravity", []), ("/clumsy/gravity", [.float(1), .float(2)]),
            ("/clumsy/gravity", [.float(.nan)]), ("/clumsy/tempo", [.float(1e30)]), ("/clumsy/kick", [.int(1)]),
            ("/clumsy/key", [.string("H"), .string("dorian")]), ("/clumsy/key", [.string("D"), .string("doric")]),
            ("/clumsy/key", [.string("D")]), ("/clumsy/key", [.string("D"), .int(2)]), ("/clumsy/key", [.int(2)]),
            ("/clumsy/key", [.string("D"), .string("dorian"), .string("x")]), ("/other", []), ("", []),
        ]
        for (path, arguments) in refused {
            if case .success(let control) = interpret(path, arguments) { Issue.record("\(path) accepted as \(control)") }
        }
        #expect(try interpret("/clumsy/key", [.string("D"), .string("dorian")]).get() == .key(Key(parsing: "D dorian")!))
        #expect(try interpret("/clumsy/key", [.string("Eb"), .string("harmonic minor")]).get() == .key(Key(parsing: "Eb harmonic minor")!))
        if case .failure(let reason) = interpret("/clumsy/key", [.string("H"), .string("dorian")]) {
            #expect(reason.description.contains("/clumsy/key") && reason.description.contains("\"H\" is not a tonic"), "\(reason)")
        }
        if case .failure(let reason) = interpret("/clumsy/key", [.string("D"), .int(2)]) {
            #expect(reason.description.contains("two strings"), "\(reason)")
        }
    }

    @Test("a key control accepts exactly the spellings a preset's --key and --mode accept, with the same key")
    func keySpellingsAreThePresets() throws {
        let preset = try bundled("original")
        let tonics = ["C", "c", "Eb", "E♭", "D#", "F#", "F♯", "Gb", "Cb", "B#", "Fb", "E#", "bb", "H", "", "C##", "Ebb", "Do", " D"]
        let modes = ["major", "ionian", "Dorian", "harmonic minor", "harmonic-minor", "harmonicMinor", "aeolian", "minor pentatonic",
                     "blues", "jazz minor", "doric", "", "major scale"]
        for tonic in tonics {
            for mode in modes {
                var overrides = Overrides()
                overrides.flags["key"] = tonic
                overrides.flags["mode"] = mode
                // The preset's own parsing (a pentatonic key is fine at setup: it switches bouncers off).
                let fromPreset = try? Configuration(preset: preset, overrides: overrides, duration: 1).preset.key
                let fromControl = try? Control.key(tonic: tonic, mode: mode).get()
                #expect(fromControl == fromPreset.map(Control.key), "\(tonic) \(mode): control \(String(describing: fromControl)), preset \(String(describing: fromPreset))")
            }
        }
    }

    @Test("a session refuses a key whose scale lacks a bouncer's degree, and accepts every seven-degree key")
    func keysASessionCanPlay() throws {
        let full = SessionPlan(configuration: try Configuration(preset: try bundled("original"), duration: 1))
        for scale in Scale.all {
            for tonic in 0..<12 {
                let key = Key(tonic: PitchClass(tonic), scale: scale)
                let rejection = full.rejection(of: .key(key))
                #expect((rejection == nil) == (scale.degrees.count == 7), "\(key): \(String(describing: rejection))")
            }
        }
        let refusal = try #require(full.rejection(of: .key(Key(parsing: "A minor pentatonic")!)))
        #expect(refusal.description.contains("no degree 2 or 6") && refusal.description.contains("bouncers"), "\(refusal)")
        // G major pentatonic: bouncers on 1 2 3 5 6 only. Major pentatonic and seven-degree keys fit; minor pentatonic does not.
        let five = SessionPlan(configuration: try Configuration(preset: try bundled("pentatonic-triads"), duration: 1))
        #expect(five.layout.bouncers.map(\.tag).sorted() == [1, 2, 3, 5, 6])
        #expect(five.rejection(of: .key(Key(parsing: "E major")!)) == nil)
        #expect(five.rejection(of: .key(Key(parsing: "A major pentatonic")!)) == nil)
        #expect(five.rejection(of: .key(Key(parsing: "A minor pentatonic")!)) != nil)
        // Other controls are the settings table's business only.
        #expect(full.rejection(of: .gravity(3)) == nil && full.rejection(of: .kick) == nil)
    }

    @Test("a bass register that fits one key may not fit another: the change is refused")
    func keyChangesKeepNotesInMIDI() throws {
        var preset = try bundled("original")
        preset.bass.register = Pitch(midi: 117)   // roots in 117…128: C major's fit, A♭ (128) does not
        let plan = SessionPlan(configuration: try Configuration(preset: preset, duration: 1))
        #expect(plan.rejection(of: .key(Key(parsing: "G major")!)) == nil)
        let refusal = try #require(plan.rejection(of: .key(Key(parsing: "Eb major")!)))
        #expect(refusal.description.contains("bass.register"), "\(refusal)")
    }

    @Test("a key change takes effect at its step: logged, the keys play the new key's chords, the text names them")
    func keyChangeTakesEffectAndIsLogged() throws {
        let change = TimedControl(step: 1200, control: .key(Key(parsing: "F# dorian")!))
        let (events, midi) = try run("original", seconds: 12, controls: [change])
        let logged = events.compactMap { event -> (Double, Int64, Control)? in
            if case .live(let t, let step, let control) = event { return (t, step, control) } else { return nil }
        }
        #expect(logged.map(\.1) == [1200] && logged.map(\.2) == [change.control])
        // Notes due by the change's time were delivered before it; every later one is in the new key.
        let changedAt = try #require(logged.first?.0)
        #expect(abs(changedAt - 5) < 1e-9)
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled("original"), duration: 12))
        let newChords = try plan.keyChange(to: Key(parsing: "F# dorian")!).get().performer.chords
        var before = 0, after = 0
        for case .note(let note) in events where note.kind == .on && note.voice == .keys {
            let chords = note.time > changedAt ? newChords : plan.performer.chords
            #expect(chords[note.degree - 1].tones.contains(PitchClass(note.note)), "\(note.note) at \(note.time)")
            if note.time > changedAt { after += 1 } else { before += 1 }
        }
        #expect(before > 5 && after > 5)
        // The same change again gives the same file; another key or none another.
        #expect(try run("original", seconds: 12, controls: [change]).midi == midi)
        #expect(try run("original", seconds: 12, controls: []).midi != midi)
        #expect(try run("original", seconds: 12, controls: [TimedControl(step: 1200, control: .key(Key(parsing: "F# lydian")!))]).midi != midi)
        // The text printer names the chords in F♯ dorian from the change on, and the log line holds tonic and mode.
        let printer = TextPrinter(output: TerminalOutput(descriptor: -1), plan: plan)
        let lines = events.compactMap { printer.line(for: $0) }
        let changeLine = try #require(lines.firstIndex { $0.contains("control: key F♯ dorian") })
        let newKey = Key(parsing: "F# dorian")!
        let oldNames = plan.performer.chords.map { plan.key.symbol(of: $0) }, newNames = newChords.map { newKey.symbol(of: $0) }
        #expect(Set(oldNames).isDisjoint(with: newNames))
        let keysBefore = lines[..<changeLine].filter { $0.contains("piano") }, keysAfter = lines[(changeLine + 1)...].filter { $0.contains("piano") }
        #expect(!keysBefore.isEmpty && keysBefore.allSatisfy { line in oldNames.contains { line.hasSuffix(" of " + $0) } })
        #expect(!keysAfter.isEmpty && keysAfter.allSatisfy { line in newNames.contains { line.hasSuffix(" of " + $0) } }, "\(keysAfter.prefix(3))")
        let line = EventLogRecord(.live(time: 5, step: 1200, control: change.control), voices: plan.voices)?.line
        #expect(line == "{\"t\":5.000000,\"kind\":\"control\",\"step\":1200,\"control\":\"key\",\"tonic\":\"F#\",\"mode\":\"dorian\"}")
    }

    @Test("after a key change the second voice doubles the keys a diatonic third away in the new key")
    func secondVoiceFollowsTheKey() throws {
        // borrowed-chords: D major, a celesta a third below the keys.
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled("borrowed-chords"), duration: 12))
        let second = try #require(plan.voices.id(of: .derived))
        let rule = try #require(plan.voices[second].derived?.rule)
        let newKey = Key(parsing: "Ab major")!
        let (events, _) = try run("borrowed-chords", seconds: 12, controls: [TimedControl(step: 1200, control: .key(newKey))])
        let changedAt = try #require(events.compactMap { event -> Double? in if case .live(let t, _, _) = event { return t } else { return nil } }.first)
        let notes = events.compactMap { event -> NoteEvent? in if case .note(let note) = event, note.kind == .on { return note } else { return nil } }
        let before = rule.notes(in: plan.key), after = rule.notes(in: newKey)
        var checked = 0
        for (index, note) in notes.enumerated() where note.voice == second {
            // The keys note it doubles: the keys note just before it, at the same time.
            let keys = try #require(notes[..<index].last { $0.voice == .keys && $0.time == note.time })
            #expect(note.note == (note.time > changedAt ? after : before)[keys.note], "\(note.note) with \(keys.note) at \(note.time)")
            if note.time > changedAt { checked += 1 }
        }
        #expect(checked > 5)
    }

    @Test("a key change the session cannot play is dropped by the simulator, unlogged")
    func anUnplayableKeyIsNotApplied() throws {
        let (events, midi) = try run("original", seconds: 6, controls: [TimedControl(step: 600, control: .key(Key(parsing: "A blues")!))])
        #expect(!events.contains { if case .live = $0 { return true } else { return false } })
        #expect(try run("original", seconds: 6, controls: []).midi == midi)
    }

    @Test func controlsTakeEffectAtTheirStepAndAreLogged() throws {
        let controls = [TimedControl(step: 1200, control: .gravity(2)), TimedControl(step: 1200, control: .kick),
                        TimedControl(step: 1800, control: .drop), TimedControl(step: 2000, control: .speed(4))]
        let (events, _) = try run("original", seconds: 10, controls: controls)
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
        let voices = SessionPlan(configuration: try Configuration(preset: try bundled("original"), duration: 10)).voices
        for line in events.compactMap({ EventLogRecord($0, voices: voices)?.line }) where line.contains("control") {
            #expect(line.contains("\"step\":"))
        }
    }

    @Test func theSameControlsGiveTheSameMIDIAndDifferentControlsOther() throws {
        let controls = [TimedControl(step: 1000, control: .gravity(3.5))]
        let a = try run("original", seconds: 12, controls: controls).midi
        let b = try run("original", seconds: 12, controls: controls).midi
        let none = try run("original", seconds: 12, controls: []).midi
        let later = try run("original", seconds: 12, controls: [TimedControl(step: 1001, control: .gravity(3.5))]).midi
        #expect(a == b)
        #expect(a != none)
        #expect(a != later)
    }

    @Test func aTempoChangeGoesIntoTheMIDIFileWithoutMovingTheNotesInTime() throws {
        let path = "/tmp/clumsy-tempo-test-\(UInt32.random(in: 0...UInt32.max)).mid"
        defer { _ = unlink(path) }
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled("original"), duration: 10))
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
            if case .note(let note) = event, note.kind == .on, note.voice == drums, note.cause == .drum(.stomp) { return note.time } else { return nil }
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
        let record = ReplayRecord(arguments: ["original", "--gravity", "4.0", "--seed", "7"], presetName: "original", seed: 7, timestep: 1.0 / 240)
        let voices = SessionPlan(configuration: try Configuration(preset: try bundled("original"), duration: 10)).voices
        let writer = try EventLogWriter(path: path, voices: voices, replay: record)
        let key = Control.key(Key(parsing: "Bb harmonic minor")!)
        try writer.record([.live(time: 1, step: 240, control: .gravity(2.5)), .live(time: 1, step: 240, control: .kick),
                           .kick(time: 1), .live(time: 2, step: 480, control: key)], through: 2)
        try writer.finish(at: 2.5)
        let log = try ReplayLog.read(path: path)
        #expect(log.arguments == record.arguments)
        let stream = try log.controls()
        var controls: [TimedControl] = []
        while let timed = try stream.next() { controls.append(timed) }
        #expect(log.controlCount == 3)
        #expect(controls == [TimedControl(step: 240, control: .gravity(2.5)), TimedControl(step: 240, control: .kick),
                                 TimedControl(step: 480, control: key)])
        #expect(log.endStep == 600 && Int64((log.duration * 240).rounded()) == 600)
    }

    /// A live run stopped before its first step (a busy machine, an early Ctrl-C) ends its log
    /// at step 0; its replay runs no step at all, where any other session runs at least one.
    @Test func aLiveLogStoppedBeforeItsFirstStepReplaysNoStep() throws {
        let path = "/tmp/clumsy-replay-test-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        defer { _ = unlink(path) }
        let record = ReplayRecord(arguments: ["original"], presetName: "original", seed: 1, timestep: 1.0 / 240)
        let voices = SessionPlan(configuration: try Configuration(preset: try bundled("original"), duration: 10)).voices
        let writer = try EventLogWriter(path: path, voices: voices, replay: record)
        try writer.finish(at: 0)
        let log = try ReplayLog.read(path: path)
        #expect(log.endStep == 0 && log.duration == 0)
        var exact = Overrides()
        exact.isExact = true
        let configuration = try Configuration(preset: try bundled("original"), overrides: exact, duration: log.duration)
        #expect(configuration.stepCount == 0)
        let summary = try Simulator(configuration: configuration).run(into: [])
        #expect(summary.steps == 0 && summary.duration == 0)
        // Anything but an exact replay still needs a duration of at least a millisecond.
        #expect(throws: (any Error).self) { try Configuration(preset: try bundled("original"), duration: 0) }
    }

    @Test func logsThatCannotBeReplayedAreRefusedNamingTheLine() throws {
        let cases = [
            "{\"t\":0.000000,\"kind\":\"bass\",\"ball\":0}\n",   // an offline log: no session line
            "{\"t\":0,\"kind\":\"session\",\"timestep\":0.004,\"arguments\":[\"default\"]}\n",   // no end line
            "{\"t\":0,\"kind\":\"session\",\"timestep\":0.004,\"arguments\":[\"default\"]}\n{\"t\":1,\"kind\":\"control\",\"step\":250,\"control\":\"gravity\",\"value\":1000}\n{\"t\":2,\"kind\":\"end\",\"step\":500}\n",
            "{\"t\":0,\"kind\":\"session\",\"timestep\":0.004,\"arguments\":[\"default\"]}\n{\"kind\":\"control\",\"step\":-1,\"control\":\"kick\"}\n",
            "{\"t\":0,\"kind\":\"session\",\"timestep\":0.004,\"arguments\":[\"default\"]}\n{\"kind\":\"control\",\n",
            "{\"t\":0,\"kind\":\"session\",\"timestep\":0.004,\"arguments\":[\"default\"]}\n{\"t\":1,\"kind\":\"control\",\"step\":250,\"control\":\"key\",\"tonic\":\"H\",\"mode\":\"major\"}\n{\"t\":2,\"kind\":\"end\",\"step\":500}\n",
            "{\"t\":0,\"kind\":\"session\",\"timestep\":0.004,\"arguments\":[\"default\"]}\n{\"t\":1,\"kind\":\"control\",\"step\":250,\"control\":\"key\",\"value\":3}\n{\"t\":2,\"kind\":\"end\",\"step\":500}\n",
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

