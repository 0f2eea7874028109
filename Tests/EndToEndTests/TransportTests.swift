// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Testing

/// `--transport jack` (issue 33): `jack_transport` is the timebase master; Clumsy follows the
/// transport itself. Debian's `jack_midi_clock`, which turns the same transport into MIDI
/// clock, is only the test's ruler: one `jack_midi_dump` client reads its pulses and Clumsy's
/// notes, so their frames share one origin. In `StudioEndToEndTests`: the JACK phase.
extension StudioEndToEndTests {
    @Test("Following JACK transport: notes on the master's sixteenths, 90 then 140 bpm, none while stopped; bar 33 located twice plays the same notes both times",
          .enabled(if: jackMIDIClock != nil && jackTransport != nil && jackConnect != nil, "needs jack-midi-clock and jackd2"))
    func transportIsFollowed() async throws {
        try await Self.retryingOnHostTrouble("transport", transportAttempt)
    }

    private func transportAttempt() async throws -> (problems: [String], hostTrouble: String?) {
        var problems: [String] = []
        func check(_ condition: Bool, _ message: @autoclosure () -> String) { if !condition { problems.append(message()) } }
        let directory = try TemporaryDirectory()
        let jack = try await JackServer(directory: directory)
        defer { jack.stop() }
        let ruler = try Background(jackMIDIClock!, [], environment: jack.fullEnvironment, output: directory.file("jack_midi_clock.log"))
        defer { ruler.stop() }
        let dump = try await jack.dump(client: "dump", into: directory.file("dump.txt"))
        defer { dump.stop() }
        try await Self.waitForPorts(["jack_midi_clock:mclk_out"], jack: jack)
        check(try await CLI.run(["jack_midi_clock:mclk_out", "dump:input"], executable: jackConnect!, environment: jack.environment).status == 0,
              "jack_connect jack_midi_clock:mclk_out dump:input failed")
        var environment = jack.fullEnvironment
        environment["CLUMSY_UNDER_TEST"] = nil
        let session = try Background(CLI.executable, ["run", "pulse", "--swing", "0", "--live", "--transport", "jack",
                                                      "--midi-out", "jack", "--connect", "dump:input", "--duration", "120",
                                                      "--events", directory.file("live.jsonl"), "--midi", directory.file("live.mid")],
                                     environment: environment, output: directory.file("clumsy.log"))
        defer { session.stop(signal: SIGINT) }
        try await Self.waitForPorts(["clumsy:bass"], jack: jack)
        // Bar 33 at 120 bpm in 4/4 is 64 s in: frame 3 072 000 at 48 kHz.
        let script = "(printf 'master\\ntempo 90\\nlocate 0\\n'; sleep 1; echo play; sleep 5; echo 'tempo 140'; sleep 4; echo stop; sleep 2; "
            + "echo play; sleep 3; echo stop; sleep 0.5; printf 'tempo 120\\nlocate 3072000\\n'; sleep 2; echo play; sleep 3; echo stop; "
            + "sleep 0.5; echo 'locate 3072000'; sleep 2; echo play; sleep 3; echo stop; sleep 0.5; echo quit) | \(jackTransport!)"
        let transport = try await CLI.run(["-c", script], executable: "/bin/sh", environment: jack.fullEnvironment, timeout: 60)
        let hostTrouble = JackServer.trouble(log: jack.server.output, master: transport.status)
        check(transport.status == 0, "\(transport)")
        session.stop(signal: SIGINT)
        check(!session.isRunning && session.output.contains("wrote"), "the session did not end well: \(session.output.suffix(500))")
        check(session.output.contains("the transport was located"), "the takes were not said: \(session.output.suffix(500))")
        await pause(0.3)
        dump.stop()
        let messages = parseDump(dump.output)
        let heard = Self.readDump(dump.output)
        let stops = heard.stops
        // The ruler's pulses, all of them: after a stop it sends its Continue only a while after its pulses resume.
        let pulses = messages.filter { $0.bytes[0] == 0xF8 }.map { Double($0.frame) }
        guard heard.notes.count > 40 && heard.pulses.count > 400 && stops.count >= 4 else {
            return (problems + ["dump: \(heard.notes.count) notes, \(heard.pulses.count) pulses, \(stops.count) stops; \(jack.logs(directory))"], hostTrouble)
        }
        // Until the first stop: every note on the master's sixteenths. Before the tempo change
        // they are the ruler's; after it, jack_transport recounts its bars from frame 0 at 140
        // (the ruler keeps its own phase there), so its grid is frame × 140/60/48 000 quarter
        // notes from the roll. Near the change the session waits for the
        // master's next bar line: no note there is judged.
        let grid = heard.pulses.filter { $0.position % 6 == 0 }.map(\.frame)
        // The roll's frame: where the ruler's pulses at 90 bpm say it was (the median, so one
        // late pulse does not move it).
        let change = heard.tempoChange, perPulse90 = 48_000 * 60 / 90.0 / 24
        let origins = heard.pulses.prefix { $0.frame < change }.map { $0.frame - Double($0.position) * perPulse90 }.sorted()
        let roll = origins.isEmpty ? 0 : origins[origins.count / 2]
        let sixteenth140 = 48_000 * 60 / 140.0 / 4
        var offGrid: [String] = []
        for note in heard.notes where note < stops[0] {
            let miss: Double
            if note < change - 48_000 * 60 / 90.0 {
                miss = note - (grid.min { abs($0 - note) < abs($1 - note) } ?? 0)
            } else if note > change + 2 * 48_000 * 60 / 140.0 {
                let sixteenths = (note - roll) / sixteenth140
                miss = (sixteenths - sixteenths.rounded()) * sixteenth140
            } else {
                continue
            }
            if abs(miss) > 256 { offGrid.append("\(note) (\(Int(miss)) frames)") }
        }
        check(offGrid.isEmpty, "\(offGrid.count) notes off the master's sixteenths (tempo change at \(change)): \(offGrid.prefix(8))")
        // Stopped: nothing after the notes already queued (the lead, 40 ms).
        for (index, stop) in stops.enumerated() {
            let rolls = pulses.first { $0 > stop } ?? .infinity
            let during = heard.notes.filter { $0 > stop + 0.045 * 48_000 && $0 < rolls }
            check(during.isEmpty, "notes while stopped (stop \(index + 1) at \(stop)): \(during.prefix(5))")
        }
        check(heard.notes.contains { $0 > stops[0] && $0 < stops[1] }, "nothing played after the transport rolled again")
        // Bar 33, twice: the same notes at the same places after the transport rolls.
        func take(after stop: Double, before end: Double) -> [(note: String, frames: Double)] {
            // The roll's frame by the ruler's first two beats of pulses at 120 bpm (their median),
            // each counted by time from the first (a lost pulse does not move the rest).
            let spacing = 48_000 * 60 / 120.0 / 24, after = pulses.filter { $0 > stop }.prefix(48)
            let first = after.first ?? 0
            let origins = after.map { $0 - (($0 - first) / spacing).rounded() * spacing }.sorted()
            let roll = origins.isEmpty ? 0 : origins[origins.count / 2]
            return messages.filter { (0x90...0x9F).contains($0.bytes[0]) && $0.bytes.count == 3 && $0.bytes[2] > 0 }
                // The first 2.5 s of the roll: the shell's `sleep 3` before stop is not exact.
                .filter { Double($0.frame) > roll && Double($0.frame) < min(end, roll + 2.5 * 48_000) }
                .map { ("\($0.bytes[0]):\($0.bytes[1]):\($0.bytes[2])", Double($0.frame) - roll) }
        }
        let first = take(after: stops[1], before: stops[2]), second = take(after: stops[2], before: stops[3])
        // The notes against each other to the frame; against the ruler within one period (256
        // frames): jack_midi_clock starts its pulses in the first cycle it sees rolling, a
        // cycle late if it missed one.
        let shift = (second.first?.frames ?? 0) - (first.first?.frames ?? 0)
        let differ = Array(zip(first, second)).firstIndex { $0.note != $1.note || abs($0.frames + shift - $1.frames) > 2 }
        check(first.count > 5 && first.count == second.count && differ == nil && abs(shift) <= 258,
              "bar 33 played differently (\(first.count) and \(second.count) notes, the second take \(shift) frames on): from note \(differ ?? -1), "
              + "\(first.dropFirst(differ ?? 0).prefix(4)) then \(second.dropFirst(differ ?? 0).prefix(4))")
        let tempi = try liveLog(directory.file("live.jsonl")).filter { $0.control == "tempo" }.compactMap(\.value)
        check(tempi.contains { abs($0 - 140) < 1.4 }, "\(tempi)")
        return (problems, hostTrouble)
    }

    @Test("With a timebase master already there, its tempo and meter are the session's: polska (3/4 at its own tempo) plays 4/4 at 100 bpm",
          .enabled(if: jackTransport != nil, "needs jackd2's jack_transport"))
    func transportGivesTempoAndMeter() async throws {
        let directory = try TemporaryDirectory()
        let jack = try await JackServer(directory: directory)
        defer { jack.stop() }
        // jack_transport stays the timebase master while it reads its input: 4/4 (its default) at 100.
        let fifo = directory.file("commands")
        try #require(mkfifo(fifo, 0o600) == 0)
        let master = try Background("/bin/sh", ["-c", "\(jackTransport!) < \(fifo)"], environment: jack.fullEnvironment,
                                    output: directory.file("jack_transport.log"))
        defer { master.stop() }
        let commands = try FileHandle(forWritingTo: URL(fileURLWithPath: fifo))
        defer { try? commands.close() }
        commands.write(Data("master\ntempo 100\nlocate 0\nplay\n".utf8))
        // It prompts again once it has carried out `play`: then the transport rolls.
        await waitUntil(timeout: 20) {
            ((try? String(contentsOfFile: directory.file("jack_transport.log"), encoding: .utf8)) ?? "").contains("> play\njack_transport> ")
        }
        await pause(0.1)
        let run = try await CLI.run(["run", "polska", "--live", "--transport", "jack", "--audio-driver", "file", "--audio", "live.wav",
                               "--duration", "3", "--midi", "live.mid", "--events", "live.jsonl", "--quiet"],
                              environment: jack.environment, in: directory.path, timeout: 60)
        commands.write(Data("stop\nquit\n".utf8))
        try #require(run.status == 0, "\(run)")
        let contents = try MIDIFileReader.read(path: directory.file("live.mid"))
        let meta = contents.tracks[0].map(\.message)
        #expect(meta.contains { if case .timeSignature(4, 2, _, _) = $0 { return true } else { return false } }, "\(meta.prefix(6))")
        #expect(meta.contains(.tempo(microsecondsPerQuarter: 600_000)), "\(meta.prefix(6))")
        let notes = contents.tracks.joined().filter { if case .noteOn = $0.message { return true } else { return false } }
        #expect(notes.count > 3, "\(notes.count) notes in 3 s")
        // The log's session line holds them, so a replay plays at the master's tempo and meter.
        let header = try String(contentsOfFile: directory.file("live.jsonl"), encoding: .utf8).prefix { $0 != "\n" }
        #expect(header.contains(#""--meter","4/4""#) && header.contains(#""--tempo","100""#), "\(header)")
    }

    @Test("--transport needs --live and takes jack; with --clock-in: 64 naming both")
    func transportRefusals() async throws {
        let notLive = try await CLI.run(["run", "default", "--transport", "jack", "--duration", "1"])
        #expect(notLive.status == 64 && notLive.stderr.contains("--transport only applies with --live"), "\(notLive)")
        let other = try await CLI.run(["run", "default", "--live", "--transport", "link", "--duration", "1"])
        #expect(other.status == 64 && other.stderr.contains("expected jack"), "\(other)")
        let both = try await CLI.run(["run", "default", "--live", "--transport", "jack", "--clock-in", "jack", "--duration", "1"])
        #expect(both.status == 64 && both.stderr.contains("two masters"), "\(both)")
    }
}
