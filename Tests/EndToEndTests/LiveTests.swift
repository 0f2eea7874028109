// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Session
import Sinks
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Checks a MIDI file written up to an interruption: `tracks` tracks (the conductor's, the bass's
/// and the keys', and the melody's where the preset has one), every note ended.
func expectCompleteMIDI(_ path: String, tracks: Int = 3, sourceLocation: SourceLocation = #_sourceLocation) throws -> MIDIFileContents {
    let contents = try MIDIFileReader.read(path: path)
    #expect(contents.tracks.count == tracks, "\(contents.tracks.count) tracks", sourceLocation: sourceLocation)
    for track in contents.tracks.indices {
        let problems = pairingProblems(contents.tracks[track])
        #expect(problems.isEmpty, "track \(track): \(problems.prefix(5).joined(separator: "; "))", sourceLocation: sourceLocation)
    }
    return contents
}

/// The simulated seconds in "interrupted at 12.345 s of …".
func interruptedAt(_ stdout: String) -> Double? {
    guard let range = stdout.range(of: "interrupted at ") else { return nil }
    return Double(stdout[range.upperBound...].prefix { $0 != " " })
}

/// Runs clumsy, sends `signal` `after` seconds, and returns the result with the seconds from
/// the signal to the exit (an upper bound: counted from the launch as the watcher saw it). The
/// seconds count from the launch or, given `started`, from when entries with those prefixes
/// appear in `directory` (a session's temporaries: its own start, which a busy machine may
/// take seconds to reach).
func runInterrupted(_ arguments: [String], in directory: String, after delay: Double, started: [String]? = nil,
                    signal number: Int32 = SIGINT, timeout: Double = 30) async throws -> (RunResult, afterSignal: Double) {
    let (result, afterSignal, _) = try await runInterruptedTimed(arguments, in: directory, after: delay, started: started,
                                                                 signal: number, timeout: timeout)
    return (result, afterSignal)
}

/// `runInterrupted`, also giving the wall seconds from the launch to the signal: a live
/// session, paced to the wall clock, cannot have played more than that.
func runInterruptedTimed(_ arguments: [String], in directory: String, after delay: Double, started: [String]? = nil,
                         signal number: Int32 = SIGINT, timeout: Double = 30) async throws
    -> (RunResult, afterSignal: Double, signalAfterLaunch: Double) {
    var signalAfterLaunch = 0.0
    let result = try await CLI.run(arguments, in: directory, timeout: timeout) { pid in
        // On a thread of its own: a watcher awaiting a busy pool signalled seconds late, and a
        // late signal finds a short session over (or a live WAV longer than the test allows).
        let launchedAt = Date()
        signalAfterLaunch = await onOwnThread {
            if let started { blockUntil(timeout: timeout / 2) { hasEntries(withPrefixes: started, in: directory) } }
            sleepThread(delay)
            let signalledAt = Date()
            kill(pid, number)
            return signalledAt.timeIntervalSince(launchedAt)
        }
    }
    // To the exit as the termination handler saw it (`elapsed` counts from the launch, at or
    // before `launchedAt`), not to when this test resumed on the pool, which may be seconds later.
    return (result, result.elapsed - signalAfterLaunch, signalAfterLaunch)
}

@Suite("Live play", .serialized, .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"))
struct LiveTests {
    @Test("--live --audio-driver file plays 3 s in about 3 wall seconds into a non-silent WAV")
    func fileDriver() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--live", "--audio-driver", "file", "--audio", "live.wav", "--duration", "3",
                                  "--soundfont", smallSoundFont, "--quiet"], in: directory.path, timeout: 30)
        #expect(result.status == 0 && !result.signalled, "\(result)")
        // 3 s paced to the wall clock, plus start-up and at most 1 s of ring-out.
        // (The upper bound is a hang guard: a busy machine may take seconds to start the process.)
        #expect(result.elapsed >= 2.5 && result.elapsed <= 20, "the live session took \(result.elapsed) wall seconds")
        #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
        let wav = try WAVFile(path: directory.file("live.wav"))
        #expect(wav.sampleRate == 44_100 && wav.channels == 2)
        #expect(wav.duration >= 2.9 && wav.duration <= 5, "live.wav holds \(wav.duration) s")
        #expect(wav.rms > 100, "live.wav is (nearly) silent: RMS \(wav.rms)")
        #expect(directory.entries() == ["live.wav"], "files left behind: \(directory.entries())")
    }

    @Test("Ctrl-C stops a live session with 130; the MIDI file is complete")
    func interruptLive() async throws {
        let directory = try TemporaryDirectory()
        let (result, afterSignal, signalAfterLaunch) = try await runInterruptedTimed(
            ["run", "original", "--live", "--audio-driver", "file", "--audio", "live.wav", "--midi", "l.mid",
             "--soundfont", smallSoundFont], in: directory.path, after: 2, started: [".live.wav"])
        #expect(result.status == 130 && !result.signalled && !result.timedOut, "\(result)")
        // A hang guard here, beside the parallel suites; StopLatencyTests holds the 0.5 s, measured alone.
        #expect(afterSignal <= 15, "exited \(afterSignal) s after SIGINT")
        let stoppedAt = try #require(interruptedAt(result.stdout), "stdout: \(result.stdout)")
        // Past the first key notes (0.72 s): 2 wall s after the session opened its WAV; and paced to
        // the wall clock, never ahead of it (a loaded machine signalled 4.3 s after the launch, not 3.5).
        #expect(stoppedAt > 0.8 && stoppedAt < signalAfterLaunch + 0.25,
                "interrupted at \(stoppedAt) simulated s, \(signalAfterLaunch) wall s after the launch")
        let contents = try expectCompleteMIDI(directory.file("l.mid"))
        #expect(!noteOns(contents.tracks[1]).isEmpty && !noteOns(contents.tracks[2]).isEmpty, "no notes before the interruption")
        let wav = try WAVFile(path: directory.file("live.wav"))
        #expect(wav.duration > 0.5 && wav.duration < 4.5, "live.wav holds \(wav.duration) s")
        #expect(directory.hiddenEntries().isEmpty, "temporaries left: \(directory.entries())")
    }

    @Test("--audio-driver with a name FluidSynth does not know exits 64 naming it and the drivers it has")
    func unknownDriver() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--live", "--audio-driver", "nosuchdriver", "--duration", "1", "--midi", "m.mid",
                                  "--soundfont", smallSoundFont], in: directory.path, timeout: 20)
        #expect(result.status == 64 && !result.signalled, "\(result)")
        let message = singleErrorLine(result)
        #expect(message.contains("nosuchdriver"), "\(message)")
        #expect(message.contains("file"), "the message does not list the drivers: \(message)")
        #expect(directory.entries().isEmpty, "files left behind: \(directory.entries())")
    }

    @Test("--live --audio-driver alsa without a sound device exits 69 naming alsa, in one line")
    func noDevice() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--live", "--audio-driver", "alsa", "--duration", "1", "--midi", "m.mid",
                                  "--soundfont", smallSoundFont], in: directory.path, timeout: 20)
        if result.status == 0 { try Test.cancel("ALSA played: this machine has a sound device") }
        #expect(result.status == 69 && !result.signalled, "\(result)")
        let message = singleErrorLine(result)
        #expect(message.contains("\"alsa\""), "the message does not name alsa: \(message)")
        #expect(message.contains("file"), "the message does not point to the file driver: \(message)")
        #expect(directory.entries().isEmpty, "files left behind: \(directory.entries())")
    }
}

@Suite("Interrupted audio render", .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"))
struct InterruptedRenderTests {
    @Test("SIGINT during an hour-long render exits 130 soon, with complete WAV, MIDI and event log")
    func interruptRender() async throws {
        let directory = try TemporaryDirectory()
        let (result, afterSignal) = try await runInterrupted(
            ["run", "original", "--duration", "3600", "--audio", "r.wav", "--midi", "r.mid", "--events", "r.jsonl",
             "--soundfont", smallSoundFont], in: directory.path, after: 2)
        #expect(result.status == 130 && !result.signalled && !result.timedOut, "\(result)")
        // A hang guard (an hour-long render that ignored the signal would run for minutes). How
        // quickly a stop ends a render is row 9 of make bench, not a wall-clock test: this test
        // runs beside the parallel suites, and a loaded machine measured 2.5 s here.
        #expect(afterSignal <= 15, "exited \(afterSignal) s after SIGINT")
        let stoppedAt = try #require(interruptedAt(result.stdout), "stdout: \(result.stdout)")
        #expect(directory.entries() == ["r.jsonl", "r.mid", "r.wav"], "files: \(directory.entries())")

        // WAV: a consistent header (checked by the reader) and the interrupted session plus the tail.
        let wav = try WAVFile(path: directory.file("r.wav"))
        // After an interruption the tail is cut short, so that stopping stays quick.
        let expected = expectedFrames(session: stoppedAt, tail: min(defaultPresetTail, AudioFileSink.interruptedTail), rate: 44_100)
        // stdout rounds the time to 0.1 s above 10 s: allow 0.05 s either way.
        #expect(abs(wav.frameCount - expected) <= 64 + 2205, "\(wav.frameCount) frames, expected about \(expected)")
        #expect(wav.rms > 100, "RMS \(wav.rms)")

        // Event log: ends with a newline, every line parses, nothing after the interruption.
        let events = try readEventLog(directory.file("r.jsonl"))
        #expect(events.count > 10, "\(events.count) events")
        #expect((events.last?.t ?? 0) <= stoppedAt + 0.05, "an event after the interruption at \(stoppedAt) s: \(String(describing: events.last))")

        // MIDI: readable, every note ended, as many notes as the log.
        let contents = try expectCompleteMIDI(directory.file("r.mid"))
        #expect(noteOns(contents.tracks[1]).count == events.filter { $0.kind == "bass" }.count)
        #expect(noteOns(contents.tracks[2]).count == events.filter { $0.kind == "key" }.count)
    }
}
