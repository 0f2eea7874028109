// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A JACK server killed under the live modes that do not play through `--midi-out jack` (issue
/// 44, findings 3 and 4): `--transport jack`, `--live --audio-driver jack`, `--clock-in jack`
/// and `--midi-in jack` each end with exit 74 naming the server, every file complete, as
/// `--midi-out jack` does (`serverDies`). In `StudioEndToEndTests`, so `make test` runs them in its JACK phase.
extension StudioEndToEndTests {
    /// Runs `clumsy arguments` in `directory` on `jack`, and kills the server with SIGKILL once
    /// `ready()` holds (a hang guard of 60 s for it); the run has 60 s more to end.
    private func killServer(_ jack: JackServer, under arguments: [String], in directory: TemporaryDirectory,
                            once ready: @escaping () -> Bool) async throws -> RunResult {
        var wasReady = false
        let result = try await CLI.run(arguments, environment: jack.environment, in: directory.path, timeout: 120) { _ in
            wasReady = await waitUntil(timeout: 60, ready)
            jack.server.stop(signal: SIGKILL)
        }
        #expect(wasReady, "the session never got going: \(jack.logs(directory))")
        #expect(result.status == 74 && !result.signalled && !result.timedOut, "\(result)")
        #expect(result.stderr.contains("JACK server \"\(jack.name)\" went away"), "stderr: \(result.stderr)")
        return result
    }

    /// The seconds of the last line of the live event log temporary `.<name>.clumsy-live-…` in `directory`.
    static func liveLogReached(_ name: String, in directory: TemporaryDirectory) -> Double {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasPrefix(".\(name).clumsy-live-") }
        guard let found = names.first, let bytes = bytes(of: directory.file(found)), let end = bytes.lastIndex(of: UInt8(ascii: "\n")) else { return 0 }
        let lines = bytes[...end].split(separator: UInt8(ascii: "\n"))
        return lines.last.flatMap { try? LogEvent(parsing: Array($0), path: name, line: lines.count).t } ?? 0
    }

    /// True once the live event log temporary `.<name>.clumsy-live-…` is in `directory`.
    private static func hasLiveLog(_ name: String, in directory: TemporaryDirectory) -> Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).contains { $0.hasPrefix(".\(name).clumsy-live-") }
    }

    /// The MIDI file and the event log a session that ended at the server's death left: complete
    /// (every note ended). `strayNoteOffs`: a take of `--transport` caught up silently (the
    /// transport rolled while it was built) keeps the note-offs of the notes it dropped, a
    /// matter of takes, not of the server's death.
    func expectCompleteFiles(_ midi: String, _ log: String, in directory: TemporaryDirectory, notes: Bool,
                                     strayNoteOffs: Bool = false) throws {
        let contents = try MIDIFileReader.read(path: directory.file(midi))
        #expect(contents.tracks.count == 4, "\(contents.tracks.count) tracks")   // default has a melody
        for track in contents.tracks.indices {
            let problems = pairingProblems(contents.tracks[track]).filter { !(strayNoteOffs && $0.hasPrefix("note-off without a note-on")) }
            #expect(problems.isEmpty, "track \(track): \(problems.prefix(5).joined(separator: "; "))")
        }
        if notes { #expect(!noteOns(contents.tracks[2]).isEmpty, "no key notes before the server died") }
        #expect(try liveLog(directory.file(log)).last?.kind == "end", "the event log was not completed")
        #expect(directory.hiddenEntries().isEmpty, "temporaries left: \(directory.entries())")
    }

    @Test("--transport jack without --midi-out: the server dies while the transport rolls: exit 74 naming it, files complete",
          .enabled(if: jackTransport != nil, "needs jackd2's jack_transport"))
    func transportServerDies() async throws {
        let directory = try TemporaryDirectory()
        let jack = try await JackServer(directory: directory)
        defer { jack.stop() }
        let fifo = directory.file("commands")
        try #require(mkfifo(fifo, 0o600) == 0)
        let master = try Background("/bin/sh", ["-c", "\(jackTransport!) < \(fifo)"], environment: jack.fullEnvironment,
                                    output: directory.file("jack_transport.log"))
        defer { master.stop() }
        let commands = try FileHandle(forWritingTo: URL(fileURLWithPath: fifo))
        defer { try? commands.close() }
        commands.write(Data("master\ntempo 120\nlocate 0\n".utf8))
        // Rolled once the session waits for it (its log is open), so that it plays from bar 1.
        var rolled = false
        let result = try await killServer(jack, under: ["run", "default", "--live", "--transport", "jack", "--audio-driver", "file",
                                                  "--audio", "live.wav", "--duration", "60", "--midi", "t.mid", "--events", "t.jsonl",
                                                  "--soundfont", smallSoundFont],
                                    in: directory) {
            let reached = Self.liveLogReached("t.jsonl", in: directory)
            if !rolled && Self.hasLiveLog("t.jsonl", in: directory) {
                commands.write(Data("play\n".utf8))
                rolled = true
            }
            return reached >= 2
        }
        #expect(!result.stdout.contains("wrote"), "a summary as of a complete session: \(result.stdout)")
        try expectCompleteFiles("t.mid", "t.jsonl", in: directory, notes: true, strayNoteOffs: true)
        #expect(try WAVFile(path: directory.file("live.wav")).duration > 1)
    }

    @Test("--live --audio-driver jack: the server dies mid-session: exit 74 naming it, files complete, no playing on")
    func liveAudioServerDies() async throws {
        let directory = try TemporaryDirectory()
        let jack = try await JackServer(directory: directory)
        defer { jack.stop() }
        let result = try await killServer(jack, under: ["run", "default", "--live", "--audio-driver", "jack", "--duration", "100",
                                                  "--midi", "a.mid", "--events", "a.jsonl", "--soundfont", smallSoundFont, "--quiet"],
                                    in: directory) { Self.liveLogReached("a.jsonl", in: directory) >= 2 }
        // A hang guard (the session would play 100 s into the dead server), not a speed target.
        #expect(result.elapsed < 90, "took \(result.elapsed) s")
        try expectCompleteFiles("a.mid", "a.jsonl", in: directory, notes: true)
    }

    /// `--midi-in jack` alone said that the server went away and played on into it, to its end, exit 0.
    @Test("--midi-in jack alone: the server dies mid-session: exit 74 naming it, files complete, no playing on")
    func midiInServerDies() async throws {
        let directory = try TemporaryDirectory()
        let jack = try await JackServer(directory: directory)
        defer { jack.stop() }
        let result = try await killServer(jack, under: ["run", "default", "--live", "--midi-in", "jack", "--audio-driver", "file",
                                                        "--audio", "live.wav", "--duration", "100", "--midi", "i.mid", "--events", "i.jsonl",
                                                        "--soundfont", smallSoundFont, "--quiet"],
                                          in: directory) { Self.liveLogReached("i.jsonl", in: directory) >= 2 }
        // A hang guard (the session would play 100 s without the server), not a speed target.
        #expect(result.elapsed < 90, "took \(result.elapsed) s")
        try expectCompleteFiles("i.mid", "i.jsonl", in: directory, notes: true)
    }

    @Test("--clock-in jack without --midi-out: waiting for Start is said once; the server dies: exit 74 naming it, files complete")
    func clockInServerDies() async throws {
        let directory = try TemporaryDirectory()
        let jack = try await JackServer(directory: directory)
        defer { jack.stop() }
        var environment = jack.fullEnvironment
        environment["CLUMSY_UNDER_TEST"] = nil
        let session = try Background(CLI.executable, ["run", "default", "--live", "--clock-in", "jack", "--audio-driver", "file",
                                                      "--audio", directory.file("live.wav"), "--duration", "60",
                                                      "--midi", directory.file("c.mid"), "--events", directory.file("c.jsonl"),
                                                      "--soundfont", smallSoundFont],
                                     environment: environment, output: directory.file("clumsy.log"))
        defer { session.stop(signal: SIGINT) }
        let line = "waiting for the MIDI clock master's Start on clumsy-clock:clock_in"
        // Said once the session waits (its mark of progress), and nothing plays meanwhile.
        let said = await waitUntil(timeout: 60) { session.output.contains(line) }
        jack.server.stop(signal: SIGKILL)
        let ended = await waitUntil(timeout: 60) { !session.isRunning }
        #expect(said, "not said: \(session.output.suffix(500))")
        try #require(ended, "still running 60 s after the server died: \(session.output.suffix(500))")
        session.process.waitUntilExit()
        #expect(session.process.terminationStatus == 74 && session.process.terminationReason == .exit, "\(session.output.suffix(500))")
        let output = session.output
        #expect(output.components(separatedBy: line).count - 1 == 1, "said other than once: \(output)")
        #expect(output.contains("JACK server \"\(jack.name)\" went away"), "\(output)")
        try expectCompleteFiles("c.mid", "c.jsonl", in: directory, notes: false)
    }
}
