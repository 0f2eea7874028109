// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Live key change over OSC (no JACK)", .serialized,
       .enabled(if: oscsend != nil && oscdump != nil && hasSmallSoundFont, "needs liblo-tools (oscsend, oscdump) and \(smallSoundFont)"))
struct LiveKeyChangeTests {
    @Test("/clumsy/key mid-session: applied at a step, logged, sent out, named in the MIDI file, replayed byte-identically; malformed ones ignored and logged")
    func keyChangeAndReplay() async throws {
        let directory = try TemporaryDirectory()
        let port = 40_100 + Int(getpid() % 20_000)
        let listener = try Background(oscdump!, ["-L", "\(port + 1)"], environment: CLI.environment, output: directory.file("osc.txt"))
        defer { listener.stop() }
        await pause(0.2)
        let result = try await CLI.run(["run", "original", "--live", "--audio-driver", "file", "--audio", "live.wav", "--soundfont", smallSoundFont,
                                  "--osc-in", "\(port)", "--osc-out", "127.0.0.1:\(port + 1)",
                                  "--duration", "16", "--midi", "live.mid", "--events", "live.jsonl", "--quiet"],
                                 in: directory.path, timeout: 60) { _ in
            // 2.5 s into the session: from its first OSC message (the opening bass note at
            // t = 0, oscdump writing line by line), not from the launch, which a busy machine
            // can take a second or two to get through.
            // The session lasts 16 s: seven oscsend launches took over 5 s on a loaded machine,
            // and a message after the end is never read. On a thread of its own, so that a busy
            // pool does not add its wait to theirs.
            await onOwnThread {
                blockUntil(timeout: 20) { fileSize(directory.file("osc.txt")) > 0 }
                sleepThread(2.5)
                for arguments in [["/clumsy/key", "ss", "Eb", "dorian"],
                                  ["/clumsy/key", "ss", "H", "dorian"], ["/clumsy/key", "ss", "H", "dorian"],   // the same problem twice: logged once
                                  ["/clumsy/key", "s", "Eb"], ["/clumsy/key", "ii", "3", "2"], ["/clumsy/key", "ss", "C", "doric"],
                                  ["/clumsy/key", "ss", "A", "minor pentatonic"]] {   // a pentatonic scale lacks two of the seven bouncers' degrees
                    runToEnd(oscsend!, ["127.0.0.1", "\(port)"] + arguments, timeout: 5)
                }
            }
        }
        try #require(result.status == 0 && !result.signalled, "\(result)")
        await pause(0.3)
        listener.stop(signal: SIGINT)

        // Five distinct problems, one line each, naming the path; the good message none.
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "stderr: \(result.stderr)")
        #expect(lines.allSatisfy { $0.contains("OSC /clumsy/key") && $0.hasSuffix("ignored") }, "stderr: \(result.stderr)")
        #expect(lines.filter { $0.contains("\"H\" is not a tonic") }.count == 1, "stderr: \(result.stderr)")
        #expect(lines.contains { $0.contains("two strings") } && lines.contains { $0.contains("\"doric\" is not a known mode") }, "stderr: \(result.stderr)")
        #expect(lines.contains { $0.contains("A minor pentatonic has no degree 2 or 6") }, "stderr: \(result.stderr)")

        // The event log: one control line, the key change, at a step in the middle of the set.
        let log = try liveLog(directory.file("live.jsonl"))
        let controls = log.filter { $0.kind == "control" }
        try #require(controls.count == 1, "controls: \(controls)")
        let change = controls[0]
        #expect(change.control == "key" && change.tonic == "Eb" && change.mode == "dorian", "\(change)")
        let changedAt = change.t
        let step = change.step.map { Int($0) } ?? -1
        #expect(changedAt > 2 && changedAt < 15 && abs(Double(step) / 240 - changedAt) < 1e-5, "key changed at \(changedAt) s, step \(step)")
        print("key change: OSC /clumsy/key took effect at step \(step) (t = \(changedAt) s)")

        // The bass notes after it are roots of E♭ dorian's chords (pitch classes E♭ F G♭ A♭ B♭ C D♭).
        let eFlatDorian: Set<Int> = [3, 5, 6, 8, 10, 0, 1]
        let bassAfter = log.filter { $0.kind == "bass" && $0.t > changedAt }.compactMap { $0.note }
        #expect(!bassAfter.isEmpty && bassAfter.allSatisfy { eFlatDorian.contains($0 % 12) }, "bass after the change: \(bassAfter)")
        let keysAfter = log.filter { $0.kind == "key" && $0.t > changedAt }.compactMap { $0.note }
        #expect(keysAfter.count > 3 && keysAfter.allSatisfy { eFlatDorian.contains($0 % 12) }, "keys after the change: \(keysAfter)")

        // OSC out: the change, then chords of E♭ dorian only, named as the session names them.
        let sent = listener.output.split(separator: "\n").map { $0.split(separator: " ").dropFirst().joined(separator: " ") }
        let keyLine = try #require(sent.firstIndex(of: "/clumsy/key ss \"Eb\" \"dorian\""), "no /clumsy/key out: \(sent.filter { $0.contains("key") })")
        let eFlatDorianChords: Set<String> = ["E♭m7", "Fm7", "G♭maj7", "A♭7", "B♭m7", "Cø7", "D♭maj7"]
        let chordsAfter = sent[keyLine...].filter { $0.hasPrefix("/clumsy/chord is") }.compactMap { $0.split(separator: "\"").dropFirst().first.map(String.init) }
        #expect(!chordsAfter.isEmpty && chordsAfter.allSatisfy(eFlatDorianChords.contains), "chords after the change: \(chordsAfter)")

        // The MIDI file names the new key in a text event on track 0.
        let contents = try MIDIFileReader.read(path: directory.file("live.mid"))
        let texts = contents.tracks[0].compactMap { event -> String? in if case .text(let text) = event.message { return text } else { return nil } }
        #expect(texts.count == 2 && texts.last == "key Eb dorian", "\(texts)")

        // Replay: byte-identical MIDI file and event log; and the change mattered.
        let replay = try await CLI.run(["replay", "live.jsonl", "--midi", "replay.mid", "--events", "replay.jsonl", "--quiet"], in: directory.path)
        try #require(replay.status == 0, "\(replay)")
        #expect(bytes(of: directory.file("replay.mid")) == bytes(of: directory.file("live.mid")), "replayed MIDI differs from the live run's")
        #expect(bytes(of: directory.file("replay.jsonl")) == bytes(of: directory.file("live.jsonl")), "replayed event log differs from the live run's")
        let plain = try await CLI.run(["run", "original", "--duration", "16", "--midi", "plain.mid", "--quiet"], in: directory.path)
        try #require(plain.status == 0, "\(plain)")
        #expect(bytes(of: directory.file("plain.mid")) != bytes(of: directory.file("live.mid")), "the key change made no difference")
    }

    @Test("A replayed log whose key change the session cannot play is refused: 65 naming the file and the step")
    func unplayableKeyInALog() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("set.jsonl", """
            {"t":0.000000,"kind":"session","clumsy":"0.1.0","preset":"original","seed":"3","timestep":0.004166666666666667,"arguments":["original","--seed","3"]}
            {"t":2.000000,"kind":"control","step":480,"control":"key","tonic":"A","mode":"blues"}
            {"t":6.000000,"kind":"end","step":1440}

            """)
        let result = try await CLI.run(["replay", "set.jsonl", "--midi", "x.mid"], in: directory.path)
        #expect(result.status == 65 && result.stderr.contains("set.jsonl") && result.stderr.contains("step 480")
                && result.stderr.contains("A blues has no degree"), "\(result)")
        #expect(!fileExists(directory.file("x.mid")))
    }
}
