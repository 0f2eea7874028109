// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

let jackMIDIClock = firstExecutable(["/usr/bin/jack_midi_clock"])

/// `--clock-in jack` (issue 33) against a master Clumsy did not write: Debian's
/// `jack_midi_clock` turns JACK transport (driven by `jack_transport` as timebase master) into
/// MIDI clock. One `jack_midi_dump` client reads both the master's pulses and Clumsy's notes, so
/// their frames share one origin. In `StudioEndToEndTests`: the JACK phase of `make test`.
extension StudioEndToEndTests {
    @Test("Following jack_midi_clock: notes on the master's sixteenths within one period, 90 then 140 bpm within a beat, none while stopped, on again at Continue; the log replays byte-identically",
          .enabled(if: jackMIDIClock != nil && jackTransport != nil && jackConnect != nil, "needs jack-midi-clock and jackd2"))
    func clockInFollowsTheMaster() async throws {
        try await Self.retryingOnHostTrouble("clock in", clockInAttempt)
    }

    /// One run against jack_midi_clock; what was wrong, and whether the JACK host had trouble.
    private func clockInAttempt() async throws -> (problems: [String], hostTrouble: String?) {
        var problems: [String] = []
        func check(_ condition: Bool, _ message: @autoclosure () -> String) { if !condition { problems.append(message()) } }
        let directory = try TemporaryDirectory()
        let jack = try await JackServer(directory: directory)
        defer { jack.stop() }
        let master = try Background(jackMIDIClock!, [], environment: jack.fullEnvironment, output: directory.file("jack_midi_clock.log"))
        defer { master.stop() }
        let dump = try await jack.dump(client: "dump", into: directory.file("dump.txt"))
        defer { dump.stop() }
        try await Self.waitForPorts(["jack_midi_clock:mclk_out"], jack: jack)
        check(try await CLI.run(["jack_midi_clock:mclk_out", "dump:input"], executable: jackConnect!, environment: jack.environment).status == 0,
              "jack_connect jack_midi_clock:mclk_out dump:input failed")
        var environment = jack.fullEnvironment
        environment["CLUMSY_UNDER_TEST"] = nil
        let session = try Background(CLI.executable, ["run", "pulse", "--swing", "0", "--live", "--clock-in", "jack:jack_midi_clock:mclk_out",
                                                      "--midi-out", "jack", "--connect", "dump:input", "--duration", "9",
                                                      "--events", directory.file("live.jsonl"), "--midi", directory.file("live.mid")],
                                     environment: environment, output: directory.file("clumsy.log"))
        defer { session.stop(signal: SIGINT) }
        try await Self.waitForPorts(["clumsy-clock:clock_in", "clumsy:bass"], jack: jack)
        let script = "(printf 'master\\ntempo 90\\n'; sleep 1; echo play; sleep 5; echo 'tempo 140'; sleep 5; echo stop; sleep 2; echo play; sleep 7; echo stop; echo quit) | \(jackTransport!)"
        let transport = try await CLI.run(["-c", script], executable: "/bin/sh", environment: jack.fullEnvironment, timeout: 60)
        let hostTrouble = JackServer.trouble(log: jack.server.output, master: transport.status)
        check(transport.status == 0, "\(transport)")
        let end = Date().addingTimeInterval(15)
        while session.isRunning && Date() < end { await pause(0.1) }
        check(!session.isRunning, "the session did not end: \(session.output.suffix(500))")
        await pause(0.3)
        dump.stop()
        let heard = Self.readDump(dump.output)
        guard heard.notes.count > 30 && heard.pulses.count > 400 else {
            return (problems + ["dump: \(heard.notes.count) notes, \(heard.pulses.count) pulses; \(jack.logs(directory))"], hostTrouble)
        }
        // The master's sixteenths: every sixth pulse counted from the first after Start.
        let grid = heard.pulses.filter { $0.position % 6 == 0 }.map(\.frame)
        let change = heard.tempoChange
        let beat140 = 48_000 * 60 / 140.0
        var offGrid: [String] = []
        for note in heard.notes {
            let nearest = grid.min { abs($0 - note) < abs($1 - note) } ?? 0
            // Within a beat of the change the tempo is being measured (it is found here up to
            // half a beat late): those notes may miss.
            let ramp = note >= change - 48_000 * 60 / 90.0 && note <= change + 2 * beat140
            if abs(note - nearest) > 256 && !ramp {
                let position = heard.pulses.min { abs($0.frame - note) < abs($1.frame - note) }?.position ?? -1
                offGrid.append("\(note) (\(note - nearest) frames, near pulse \(position))")
            }
        }
        check(offGrid.isEmpty, "\(offGrid.count) of \(heard.notes.count) notes off the master's sixteenths (tempo change at \(change)): \(offGrid.prefix(8))")
        // Notes already queued when the master stops (the lead, 40 ms) may still sound; no later one.
        for stop in heard.stops {
            let resumed = heard.pulses.first { $0.frame > stop }?.frame ?? .infinity
            let during = heard.notes.filter { $0 > stop + 0.045 * 48_000 && $0 < resumed }
            check(during.isEmpty, "notes while stopped at \(stop): \(during)")
        }
        check(heard.notes.contains { $0 > (heard.stops.first ?? .infinity) }, "nothing played after Continue")
        // The log: the master's tempi, as tempo controls.
        let tempi = try liveLog(directory.file("live.jsonl")).filter { $0.control == "tempo" }.compactMap(\.value)
        check(tempi.contains { abs($0 - 90) < 0.9 } && tempi.contains { abs($0 - 140) < 1.4 }, "\(tempi)")
        let replay = try await CLI.run(["replay", "live.jsonl", "--midi", "replay.mid", "--quiet"], in: directory.path)
        guard replay.status == 0 else { return (problems + ["\(replay)"], hostTrouble) }
        check(try Data(contentsOf: URL(fileURLWithPath: directory.file("live.mid"))) == Data(contentsOf: URL(fileURLWithPath: directory.file("replay.mid"))),
              "the replay's MIDI differs from the live set's")
        return (problems, hostTrouble)
    }

    @Test("--clock-in needs --live and takes jack, jack:<port>, alsa or alsa:<client:port>: 64 naming the flag; a port that is not there: 64")
    func clockInRefusals() async throws {
        let notLive = try await CLI.run(["run", "default", "--clock-in", "jack", "--duration", "1"])
        #expect(notLive.status == 64 && notLive.stderr.contains("--clock-in only applies with --live"), "\(notLive)")
        let other = try await CLI.run(["run", "default", "--live", "--clock-in", "usb", "--duration", "1"])
        #expect(other.status == 64 && other.stderr.contains("--clock-in usb is not accepted; expected jack, jack:<MIDI output port>, alsa or alsa:<client:port>"),
                "\(other)")
        let directory = try TemporaryDirectory()
        let jack = try await JackServer(directory: directory)
        defer { jack.stop() }
        let missing = try await CLI.run(["run", "default", "--live", "--clock-in", "jack:nobody:out", "--midi-out", "jack", "--duration", "1"],
                                  environment: jack.environment, timeout: 20)
        #expect(missing.status == 64 && missing.stderr.contains("nobody:out"), "\(missing)")
    }

    /// Issue 44 #6: a master at 1000 bpm was followed silently (5 s of session in 1.3 s) and its
    /// tempo never logged. Now it is not followed: the session says so once and waits.
    /// With `--quiet` the line is not said (it is no error: the session goes on), as the wait for Start is not.
    @Test("A MIDI clock master at 1000 bpm is not followed: one line on stderr (none with --quiet), the session waits, nothing plays",
          .enabled(if: jackMIDIClock != nil && jackTransport != nil, "needs jack-midi-clock and jackd2"), arguments: [false, true])
    func clockInRefusesAFastMaster(quiet: Bool) async throws {
        let directory = try TemporaryDirectory()
        let (jack, master) = try await Self.clockMaster(in: directory)
        defer { jack.stop() }
        defer { master.stop() }
        var environment = jack.fullEnvironment
        environment["CLUMSY_UNDER_TEST"] = nil
        let session = try Background(CLI.executable, ["run", "pulse", "--live", "--clock-in", "jack:jack_midi_clock:mclk_out", "--midi-out", "jack", "--duration", "5",
                                                      "--events", directory.file("live.jsonl")] + (quiet ? ["--quiet"] : []),
                                     environment: environment, output: directory.file("clumsy.log"))
        defer { session.stop(signal: SIGINT) }
        try await Self.waitForPorts(["clumsy-clock:clock_in"], jack: jack)
        let transport = try Background("/bin/sh", ["-c", "(printf 'master\\ntempo 1000\\n'; sleep 1; echo play; sleep 10; echo stop; echo quit) | \(jackTransport!)"],
                                       environment: jack.fullEnvironment, output: directory.file("jack_transport.log"))
        defer { transport.stop() }
        let refused = "the MIDI clock master's tempo, 1000 bpm, is outside the 20–400 bpm a session plays at"
        if quiet {
            // The master has played for 4 s (its tempo is measured over a beat, 60 ms): the line would have been said.
            let played = await waitUntil(timeout: 60) { transport.output.contains("play") }
            try? await Task.sleep(nanoseconds: 4_000_000_000)
            #expect(played && session.isRunning, "\(session.output.suffix(800))")
            session.stop(signal: SIGINT)
            #expect(!session.output.contains("outside the"), "said under --quiet: \(session.output.suffix(800))")
        } else {
            // Old code: the session ran through its 5 s in about 1.3 s and said nothing.
            let said = await waitUntil(timeout: 60) { session.output.contains(refused) || !session.isRunning }
            #expect(said && session.isRunning, "\(session.output.suffix(800))")
            session.stop(signal: SIGINT)
            #expect(session.output.components(separatedBy: refused).count == 2, "said more than once: \(session.output.suffix(800))")
        }
        // Stopped while it waited: less than a second of the session played, no tempo logged.
        let log = (try? String(contentsOfFile: directory.file("live.jsonl"), encoding: .utf8)) ?? ""
        let end = log.split(separator: "\n").last { $0.contains("\"kind\":\"end\"") }
        let step = end.flatMap { $0.components(separatedBy: "\"step\":").last }.flatMap { Int($0.prefix { $0.isNumber }) }
        #expect(step.map { $0 < 240 } == true && !log.contains("\"control\":\"tempo\""), "\(log.suffix(600))")
    }

    /// Issue 44: a SIGINT while the master was stopped queued the session's last events (the
    /// notes it ends) where the master's clock stood when it stopped: "JACK MIDI: 5 events late
    /// (worst 1964 ms)" after a stop of 2 s. They go out at once now.
    @Test("SIGINT while the MIDI clock master is stopped: the closing notes are not queued in the past (none reported seconds late); the files are complete",
          .enabled(if: jackMIDIClock != nil && jackTransport != nil, "needs jack-midi-clock and jackd2"))
    func clockInInterruptedWhileStopped() async throws {
        let directory = try TemporaryDirectory()
        let (jack, master) = try await Self.clockMaster(in: directory)
        defer { jack.stop() }
        defer { master.stop() }
        let fifo = directory.file("commands")
        try #require(mkfifo(fifo, 0o600) == 0)
        let transport = try Background("/bin/sh", ["-c", "\(jackTransport!) < \(fifo)"], environment: jack.fullEnvironment,
                                       output: directory.file("jack_transport.log"))
        defer { transport.stop() }
        let commands = try FileHandle(forWritingTo: URL(fileURLWithPath: fifo))
        defer { try? commands.close() }
        commands.write(Data("master\ntempo 120\nlocate 0\n".utf8))
        var environment = jack.fullEnvironment
        environment["CLUMSY_UNDER_TEST"] = nil
        let session = try Background(CLI.executable, ["run", "default", "--live", "--clock-in", "jack:jack_midi_clock:mclk_out", "--midi-out", "jack",
                                                      "--duration", "100", "--events", directory.file("s.jsonl"), "--midi", directory.file("s.mid")],
                                     environment: environment, output: directory.file("clumsy.log"))
        defer { session.stop(signal: SIGINT) }
        try await Self.waitForPorts(["clumsy-clock:clock_in"], jack: jack)
        commands.write(Data("play\n".utf8))
        let played = await waitUntil(timeout: 60) { Self.liveLogReached("s.jsonl", in: directory) >= 2 }
        commands.write(Data("stop\n".utf8))
        try #require(played, "the session never got going: \(jack.logs(directory))")
        try? await Task.sleep(nanoseconds: 3_000_000_000)
        session.stop(signal: SIGINT)
        #expect(session.process.terminationStatus == 130, "\(session.output.suffix(800))")
        // Late by the 3 s the master was stopped before; an xrun of a busy machine makes a few
        // events late by periods (milliseconds), which is another matter.
        let worst = session.output.components(separatedBy: "events late (worst ").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) }
        #expect((worst ?? 0) < 1000, "\(session.output.suffix(800))")
        try expectCompleteFiles("s.mid", "s.jsonl", in: directory, notes: true)
    }

    /// Runs `attempt` again, once, when it fails with the JACK host in trouble (a dummy server
    /// without real-time priority skips cycles on a busy machine and logs an xrun, which moves
    /// every later frame against the clock; `jack_transport` can be dropped): such an attempt
    /// says nothing about Clumsy. The last attempt's problems are the test's; when the host was
    /// in trouble in both, they are reported as a known, intermittent issue of the host, not as
    /// Clumsy's failure: an attempt on a host without trouble still fails the test on any
    /// problem. Two attempts, not three: a host in trouble twice running was in trouble the third
    /// time too in every run recorded (two busy loops beside the server; this machine's idle
    /// dummy server logs a dozen xruns a minute), and each attempt costs half a minute.
    static func retryingOnHostTrouble(_ name: String, _ attempt: () async throws -> (problems: [String], hostTrouble: String?)) async rethrows {
        var last: [String] = []
        var hostInTrouble: String?
        for number in 1...2 {
            let (problems, hostTrouble) = try await attempt()
            (last, hostInTrouble) = (problems, hostTrouble)
            if problems.isEmpty { return }
            print("\(name): attempt \(number) failed\(hostTrouble.map { " (the JACK host had trouble: \($0))" } ?? ""): \(problems.joined(separator: "; "))")
            if hostTrouble == nil { break }
        }
        guard hostInTrouble != nil else {
            for problem in last { Issue.record(Comment(rawValue: problem)) }
            return
        }
        withKnownIssue("\(name): the JACK host had trouble (xruns) in both attempts, so they say nothing about Clumsy", isIntermittent: true) {
            for problem in last { Issue.record(Comment(rawValue: problem)) }
        }
    }

    /// A dummy JACK server with Debian's jack_midi_clock on it, its output port registered (the
    /// caller stops both).
    static func clockMaster(in directory: TemporaryDirectory) async throws -> (jack: JackServer, master: Background) {
        let jack = try await JackServer(directory: directory)
        let master: Background
        do {
            master = try Background(jackMIDIClock!, [], environment: jack.fullEnvironment, output: directory.file("jack_midi_clock.log"))
        } catch {
            jack.stop()
            throw error
        }
        do {
            try await waitForPorts(["jack_midi_clock:mclk_out"], jack: jack)
        } catch {
            master.stop()
            jack.stop()
            throw error
        }
        return (jack, master)
    }

    /// Waits up to 15 s for `ports` to be registered.
    static func waitForPorts(_ ports: [String], jack: JackServer) async throws {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            let listed = try await CLI.run([], executable: jackLsp!, environment: jack.environment, timeout: 5).stdout
            if ports.allSatisfy({ listed.contains($0) }) { return }
            await pause(0.1)
        }
        Issue.record("the ports \(ports) did not appear")
    }

    /// What one `jack_midi_dump -a` client heard: the master's pulses with their song positions
    /// (the first after Start is 0, the first after Continue keeps the count), its stops, and
    /// the frames of the note-ons.
    ///
    /// A pulse's position is counted by time, not only by arrival: a JACK client that misses a
    /// cycle on a busy machine (an xrun) loses that cycle's MIDI, and `jack_midi_clock` skips a
    /// pulse that fell into a cycle it missed. A gap of about two pulses (against the spacing of
    /// the run's last pulses) counts two, and the lost pulse is put back where it would have
    /// been, so one lost pulse does not move every later position.
    static func readDump(_ text: String) -> (pulses: [(frame: Double, position: Int)], stops: [Double], notes: [Double], tempoChange: Double) {
        var pulses: [(frame: Double, position: Int)] = []
        var stops: [Double] = [], notes: [Double] = []
        var position = 0, awaitingFirst = false, running = false
        var gaps: [Double] = []
        for message in parseDump(text) {
            let frame = Double(message.frame)
            switch message.bytes[0] {
            case 0xFA: (position, awaitingFirst, running) = (0, true, true)
            case 0xFB: (awaitingFirst, running) = (true, true)
            case 0xFC:
                stops.append(frame)
                running = false
            case 0xF2 where message.bytes.count == 3: position = (Int(message.bytes[1]) | Int(message.bytes[2]) << 7) * 6
            case 0xF8 where running:
                if awaitingFirst {
                    awaitingFirst = false
                    gaps.removeAll()
                } else {
                    let gap = frame - (pulses.last?.frame ?? frame)
                    // Two pulses for one gap of about two (against the last six's median).
                    let spacing = gaps.count >= 6 ? gaps.suffix(6).sorted()[3] : 0
                    let step = spacing > 0 && (1.6...2.4).contains(gap / spacing) ? 2 : 1
                    // The lost pulses, where they would have been.
                    for lost in 1..<step { pulses.append((frame - gap * Double(step - lost) / Double(step), position + lost)) }
                    position += step
                    gaps.append(gap / Double(step))
                }
                pulses.append((frame, position))
            case 0x90...0x9F where message.bytes.count == 3 && message.bytes[2] > 0: notes.append(frame)
            default: break
            }
        }
        // The tempo change: the first pulse from which the next beat of pulses is faster than 110 bpm.
        let fast = 48_000 * 60 / 110.0 / 24
        var change = Double.infinity
        for index in pulses.indices.dropLast(24) {
            let span = (pulses[index + 24].frame - pulses[index].frame) / 24
            if span < fast { change = pulses[index].frame; break }
        }
        return (pulses, stops, notes, change)
    }
}
