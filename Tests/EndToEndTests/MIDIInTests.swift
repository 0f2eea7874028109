// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

let jackMIDISeq = firstExecutable(["/usr/bin/jack_midiseq"])

/// `--midi-in jack` (issue 33): a sequencer Clumsy did not write (jackd2's `jack_midiseq`) plays
/// into `clumsy-in:midi_in`; the plugin's rules (`HeldNotes`) steer the live session, the
/// controls are logged, and the log replays byte for byte. In `StudioEndToEndTests`: the JACK
/// phase of `make test`.
extension StudioEndToEndTests {
    @Test("Held D F# A C plays D mixolydian with its chord I, a lone note drops a ball; the log replays byte-identically",
          .enabled(if: jackMIDISeq != nil && jackConnect != nil, "needs jackd2's jack_midiseq and jack_connect"))
    func midiInSteersTheSession() async throws {
        let directory = try TemporaryDirectory()
        let jack = try await JackServer(directory: directory)
        defer { jack.stop() }
        var environment = jack.fullEnvironment
        environment["CLUMSY_UNDER_TEST"] = nil
        let session = try Background(CLI.executable, ["run", "default", "--live", "--midi-in", "jack", "--midi-out", "jack", "--duration", "10",
                                                      "--events", directory.file("live.jsonl"), "--midi", directory.file("live.mid")],
                                     environment: environment, output: directory.file("clumsy.log"))
        defer { session.stop(signal: SIGINT) }
        // A 2 s loop at 48 kHz: D3 F#3 A3 C4 held for 1 s, then E3 alone for 0.2 s. The session
        // runs 10 s so that a connection made late (a slow jack_connect) still hears whole loops.
        let sequencer = try Background(jackMIDISeq!, ["seq", "96000", "0", "50", "48000", "0", "54", "48000", "0", "57", "48000",
                                                      "0", "60", "48000", "60000", "52", "9600"],
                                       environment: jack.fullEnvironment, output: directory.file("seq.log"))
        defer { sequencer.stop() }
        var connected = false
        let deadline = Date().addingTimeInterval(15)
        while !connected && Date() < deadline && session.isRunning {
            connected = try await CLI.run(["seq:out", "clumsy-in:midi_in"], executable: jackConnect!, environment: jack.environment, timeout: 5).status == 0
            if !connected { await pause(0.1) }
        }
        #expect(connected, "could not connect seq:out to clumsy-in:midi_in: \(session.output.suffix(500))")
        let end = Date().addingTimeInterval(20)
        while session.isRunning && Date() < end { await pause(0.1) }
        sequencer.stop()
        #expect(!session.isRunning, "the 10 s session did not end")
        let controls = try liveLog(directory.file("live.jsonl")).filter { $0.kind == "control" }
        let keys = controls.filter { $0.control == "key" }.map { "\($0.tonic ?? "?") \($0.mode ?? "?")" }
        let sequenced = (try? String(contentsOfFile: directory.file("seq.log"), encoding: .utf8)) ?? ""
        // When nothing was heard, jackd's log says whether it dropped a client (zombified, kicked).
        #expect(keys.contains("D mixolydian"),
                "keys set: \(keys); \(session.output.suffix(500)); jack_midiseq: \(sequenced.suffix(500)); \(jack.logs(directory))")
        #expect(controls.contains { $0.control == "chord" && $0.value == 1 }, "\(controls.map(\.control))")
        #expect(controls.contains { $0.control == "lift" } && !controls.contains { $0.control == "drop" }, "\(controls.map(\.control))")
        let replay = try await CLI.run(["replay", "live.jsonl", "--midi", "replay.mid", "--quiet"], in: directory.path)
        try #require(replay.status == 0, "\(replay)")
        let live = try Data(contentsOf: URL(fileURLWithPath: directory.file("live.mid")))
        #expect(live == (try Data(contentsOf: URL(fileURLWithPath: directory.file("replay.mid")))), "the replay's MIDI differs from the live set's")
    }

    @Test("--midi-in needs --live and takes jack or alsa: 64 naming the flag; no server: 69")
    func midiInRefusals() async throws {
        let notLive = try await CLI.run(["run", "default", "--midi-in", "jack", "--duration", "1"])
        #expect(notLive.status == 64 && notLive.stderr.contains("--midi-in only applies with --live"), "\(notLive)")
        let other = try await CLI.run(["run", "default", "--live", "--midi-in", "usb", "--duration", "1"])
        #expect(other.status == 64 && other.stderr.contains("--midi-in usb is not accepted; expected jack or alsa"), "\(other)")
        let noServer = try await CLI.run(["run", "default", "--live", "--midi-in", "jack", "--midi-out", "jack", "--duration", "1"],
                                   environment: ["JACK_DEFAULT_SERVER": "nothing-here"], timeout: 20)
        #expect(noServer.status == 69, "\(noServer)")
    }

    @Test("No JACK server: each JACK input names its own flag and the server, in one line, exit 69",
          .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"), arguments: ["--midi-in", "--clock-in", "--transport"])
    func inputWithoutServerNamesItsFlag(flag: String) async throws {
        let directory = try TemporaryDirectory()
        let server = "clumsy-absent-\(getpid())"
        let arguments = ["run", "default", "--live", "--audio-driver", "file", "--soundfont", smallSoundFont, flag, "jack",
                         "--duration", "1"]
        let result = try await CLI.run(arguments, environment: ["JACK_DEFAULT_SERVER": server], in: directory.path, timeout: 20)
        #expect(result.status == 69, "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("for \(flag) jack")
                && result.stderr.contains(server), "\(result.stderr)")
    }
}
