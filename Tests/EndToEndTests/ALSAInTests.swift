// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIWire
import Studio
import Testing

let hasALSASequencer = fileExists("/dev/snd/seq")

/// `--clock-in alsa` and `--midi-in alsa` (issue 33). Where the machine has no ALSA sequencer
/// (no `/dev/snd/seq`: a container, no snd-seq module) what is tested is the refusal; where it
/// has one, the follower against a clock this test sends through the sequencer itself.
@Suite(.serialized) struct ALSAInTests {
    @Test("--clock-in alsa and --midi-in alsa without a sequencer: 69 in one line naming /dev/snd/seq and the flag",
          .enabled(if: !hasALSASequencer, "a sequencer exists here"))
    func alsaInputsUnavailable() async throws {
        for flags in [["--clock-in", "alsa", "--midi-out", "alsa"], ["--clock-in", "alsa:20:0"], ["--midi-in", "alsa"]] {
            let result = try await CLI.run(["run", "pulse", "--live", "--duration", "1"] + flags)
            #expect(result.status == 69, "\(flags): \(result)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("/dev/snd/seq")
                    && result.stderr.contains(flags[0]), "\(flags): \(result.stderr)")
        }
    }

    @Test("--clock-in alsa: paced by the ALSA sequencer, so not with --midi-out jack, and never fed its own clock: 64")
    func alsaClockInRefusals() async throws {
        let jack = try await CLI.run(["run", "pulse", "--live", "--clock-in", "alsa", "--midi-out", "jack", "--duration", "1"])
        #expect(jack.status == 64 && jack.stderr.contains("use --midi-out alsa"), "\(jack)")
        let own = try await CLI.run(["run", "pulse", "--live", "--clock-in", "alsa:Clumsy:clock", "--midi-out", "alsa", "--clock-out", "--duration", "1"])
        #expect(own.status == 64 && own.stderr.contains("its clock input"), "\(own)")
        let typo = try await CLI.run(["run", "pulse", "--live", "--midi-in", "asla", "--duration", "1"])
        #expect(typo.status == 64 && typo.stderr.contains("did you mean alsa"), "\(typo)")
    }

    @Test("Following a clock sent over the ALSA sequencer: nothing before Start, notes on the master's sixteenths, none while stopped, on again at Continue; the log replays",
          .enabled(if: hasALSASequencer, "no ALSA sequencer on this machine (/dev/snd/seq is missing: no snd-seq kernel module, as in a container); run where one is"))
    func clockInOverALSA() async throws {
        let directory = try TemporaryDirectory()
        let master = try ALSASequencerOutput(clientName: "clumsy-test-master", ports: ["clock"])
        defer { master.close(timeout: 0) }
        // The ear: every note the session sends, stamped by the kernel on its queue.
        let ear = try ALSASequencerInput(clientName: "clumsy-test-ear", port: "in", flag: "test")
        defer { ear.close() }
        var environment = ProcessInfo.processInfo.environment
        environment["CLUMSY_UNDER_TEST"] = nil
        let session = try Background(CLI.executable, ["run", "pulse", "--swing", "0", "--live", "--clock-in", "alsa:clumsy-test-master:clock",
                                                      "--midi-out", "alsa", "--duration", "4", "--events", directory.file("live.jsonl"),
                                                      "--midi", directory.file("live.mid")],
                                     environment: environment, output: directory.file("clumsy.log"))
        defer { session.stop(signal: SIGINT) }
        let deadline = Date().addingTimeInterval(15)
        var connected = false
        while !connected && Date() < deadline {
            connected = (try? ear.connect(from: "Clumsy:bass", flag: "test")) != nil
            if !connected { await pause(0.05) }
        }
        try #require(connected, "the session's ALSA ports did not appear: \(session.output)")
        try ear.connect(from: "Clumsy:keys", flag: "test")
        await pause(0.5)
        // 90 bpm: Start, 4 s of pulses, Stop, 1.5 s of silence, Continue, 4 s of pulses, Stop. The
        // session (4 s, from the bar line after Start) ends during the second run of pulses.
        let interval = 60 / (90.0 * 24)
        var pulses: [(micros: Double, position: Int)] = []
        var stops: [(at: Double, resumed: Double)] = []
        var position = 0
        // Taken as they come: the kernel keeps only a few hundred events for a client.
        var heard: [(frame: UInt32, message: MIDIBytes)] = []
        // Counted as the follower counts (and MIDI says): the first pulse after Start or
        // Continue marks the position, each later one moves it on.
        var awaitingFirst = true
        func play(_ first: MIDIBytes, seconds: Double) {
            _ = master.send(first, port: 0, at: 0)
            awaitingFirst = true
            let begin = Date()
            for index in 0..<Int(seconds / interval) {
                let due = begin.addingTimeInterval(Double(index) * interval)
                let ahead = due.timeIntervalSinceNow
                if ahead > 0 { usleep(UInt32(ahead * 1e6)) }
                _ = master.send(.clock, port: 0, at: 0)
                if awaitingFirst { awaitingFirst = false } else { position += 1 }
                pulses.append((Double(ear.frameTime), position))
                heard += ear.takeTimed()
            }
            _ = master.send(.stop, port: 0, at: 0)
        }
        let before = Double(ear.frameTime)
        play(.start, seconds: 4)
        let stopped = Double(ear.frameTime)
        for _ in 0..<30 {
            await pause(0.05)
            heard += ear.takeTimed()
        }
        play(.continue, seconds: 4)
        stops.append((stopped, pulses.first { $0.micros > stopped }?.micros ?? .infinity))
        let end = Date().addingTimeInterval(10)
        while session.isRunning && Date() < end {
            await pause(0.05)
            heard += ear.takeTimed()
        }
        #expect(!session.isRunning, "the session did not end: \(session.output.suffix(500))")
        heard += ear.takeTimed()
        let notes = heard.filter { if case .noteOn = $0.message.meaning { true } else { false } }.map { Double($0.frame) }
        try #require(notes.count > 8, "\(notes.count) notes heard")
        #expect(notes.allSatisfy { $0 > before }, "notes before Start")
        // The session begins a bar after Start; its notes fall on the master's sixteenths.
        let grid = pulses.filter { $0.position % 6 == 0 }.map(\.micros)
        let offGrid = notes.filter { note in abs(note - (grid.min { abs($0 - note) < abs($1 - note) } ?? 0)) > 5_000 }
        #expect(offGrid.isEmpty, "\(offGrid.count) of \(notes.count) notes more than 5 ms off the master's sixteenths")
        for stop in stops {
            let during = notes.filter { $0 > stop.at + 5_000 && $0 < stop.resumed }
            #expect(during.isEmpty, "notes while stopped: \(during)")
        }
        #expect(notes.contains { $0 > stopped }, "nothing played after Continue")
        let replay = try await CLI.run(["replay", "live.jsonl", "--midi", "replay.mid", "--quiet"], in: directory.path)
        #expect(replay.status == 0, "\(replay)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("live.mid"))) == Data(contentsOf: URL(fileURLWithPath: directory.file("replay.mid"))),
                "the replay's MIDI differs from the live set's")
    }
}
