// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The complete lines (each with its newline) at the start of `bytes`.
private func completeLines(_ bytes: [UInt8]) -> [UInt8] {
    guard let last = bytes.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
    return Array(bytes[...last])
}

/// The `t` of the last complete line of an event log's bytes (nil without one).
private func lastTime(_ bytes: [UInt8]) -> Double? {
    let lines = completeLines(bytes).split(separator: UInt8(ascii: "\n"))
    guard let line = lines.last else { return nil }
    return try? LogEvent(parsing: Array(line), path: "log", line: lines.count).t
}

/// The entries of `directory` whose names start with `prefix`.
private func entries(_ directory: TemporaryDirectory, prefix: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
}

@Suite("Recovering a killed live run", .serialized, .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"))
struct RecoverTests {
    /// A live run killed with SIGKILL once its event log on disk reaches `target` seconds; what
    /// the log held then, what it held after the kill, and the wall seconds from the launch to the kill.
    private func killLiveRun(in directory: TemporaryDirectory, at target: Double) async throws -> (seen: [UInt8], log: String, wall: Double) {
        let watch = Watch()
        let result = try await CLI.run(["run", "original", "--live", "--audio-driver", "file", "--audio", "live.wav", "--midi", "set.mid",
                                  "--events", "set.jsonl", "--duration", "120", "--soundfont", smallSoundFont, "--quiet"],
                                 in: directory.path, timeout: 120) { pid in
            // The log reaches its temporary as the set goes: watch for a line at or past `target`,
            // on a thread of its own. Awaiting between looks, the watcher resumed only when a pool
            // thread was free of in-process tests: beside two busy loops it missed the whole set,
            // which ran its 120 s and exited 0 (make test at c06bc8a).
            await onOwnThread {
                let launched = Date()
                blockUntil(timeout: 90) {
                    watch.logName = entries(directory, prefix: ".set.jsonl.clumsy-live-").first
                    guard let name = watch.logName, let bytes = bytes(of: directory.file(name)) else { return false }
                    watch.seen = completeLines(bytes)
                    return (lastTime(bytes) ?? 0) >= target
                }
                watch.wall = Date().timeIntervalSince(launched)
                kill(pid, SIGKILL)
            }
        }
        #expect(result.signalled && result.status == SIGKILL, "\(result)")
        let name = try #require(watch.logName, "no event log temporary .set.jsonl.clumsy-live-… appeared: \(directory.hiddenEntries())")
        #expect((lastTime(watch.seen) ?? 0) >= target, "the log on disk never reached \(target) s: \(watch.seen.count) bytes")
        return (watch.seen, name, watch.wall)
    }

    /// What the watcher's thread saw; read after it has ended (`onOwnThread` returns then).
    private final class Watch: @unchecked Sendable {
        var seen: [UInt8] = []
        var wall = 0.0
        var logName: String?
    }

    /// Kills a live run at `target` seconds, recovers it, and checks the files against the log left.
    private func killAndRecover(at target: Double) async throws {
        let directory = try TemporaryDirectory()
        let (seen, logName, wall) = try await killLiveRun(in: directory, at: target)
        let left = try #require(bytes(of: directory.file(logName)))
        #expect(left.starts(with: seen), "the log lost lines it held before the kill")
        #expect(!entries(directory, prefix: ".set.mid.clumsy-").isEmpty, "the killed run's MIDI temporary is gone already")

        let recover = try await CLI.run(["recover", logName, "--midi", "r.mid", "--events", "r.jsonl", "--audio", "r.wav",
                                   "--soundfont", smallSoundFont], in: directory.path, timeout: 120)
        try #require(recover.status == 0, "\(recover)")
        let events = completeLines(left).split(separator: UInt8(ascii: "\n")).count - 1   // the session line left out
        #expect(recover.stderr.contains("\(events) events up to") && recover.stderr.contains("no end line"), "stderr: \(recover.stderr)")
        // The temporary is kept (a later clumsy in the directory leaves it), the dead run's others are not.
        #expect(fileExists(directory.file(logName)), "recover's own outputs removed the killed run's log")
        #expect(entries(directory, prefix: ".set.mid.clumsy-").isEmpty, "the dead run's MIDI temporary was left")

        // The recovered log is the one left, line for line, then the rest of its last step and the end line.
        let recovered = try #require(bytes(of: directory.file("r.jsonl")))
        #expect(recovered.starts(with: completeLines(left)), "the recovered log is not the killed run's log continued")
        let log = try readEventLog(directory.file("r.jsonl"))
        let end = try #require(log.last)
        #expect(end.kind == "end", "no end line: \(end)")
        let lastLeft = try #require(lastTime(left))
        let lastEvent = log.dropLast().last?.t ?? 0
        #expect(lastEvent >= target && lastEvent <= lastLeft + 2.0 / 240, "the last event at \(lastEvent) s, the log left ends at \(lastLeft) s")
        // Paced to the wall clock from after the launch: the session cannot have passed it.
        #expect(lastEvent <= wall + 0.1, "an event at \(lastEvent) s in a run killed \(wall) wall seconds after its launch")

        // MIDI: readable, every note ended, as many notes as the log; replay of the log makes it again.
        let contents = try expectCompleteMIDI(directory.file("r.mid"))
        #expect(noteOns(contents.tracks[1]).count == log.filter { $0.kind == "bass" }.count)
        #expect(noteOns(contents.tracks[2]).count == log.filter { $0.kind == "key" }.count && !noteOns(contents.tracks[2]).isEmpty)
        let replay = try await CLI.run(["replay", "r.jsonl", "--midi", "again.mid", "--quiet"], in: directory.path, timeout: 120)
        try #require(replay.status == 0, "\(replay)")
        #expect(bytes(of: directory.file("again.mid")) == bytes(of: directory.file("r.mid")), "replay of the recovered log differs from the recovered MIDI")
        let wav = try WAVFile(path: directory.file("r.wav"))
        #expect(wav.duration >= lastEvent && wav.rms > 100, "r.wav: \(wav.duration) s, RMS \(wav.rms)")
    }

    @Test("A live run killed with SIGKILL at three moments: its log is on disk up to the kill; clumsy recover rebuilds MIDI, log and audio, as replay does")
    func killedAndRecovered() async throws {
        for target in [Double.random(in: 1...2), Double.random(in: 2...3.5), Double.random(in: 3.5...5)] {
            try await killAndRecover(at: target)
        }
    }

    @Test("replay refuses a killed run's log (65) and points to recover; recover finds it by the run's name; a complete log is replayed")
    func replayPointsToRecover() async throws {
        let directory = try TemporaryDirectory()
        let (_, logName, _) = try await killLiveRun(in: directory, at: 1)
        let replay = try await CLI.run(["replay", logName, "--midi", "x.mid"], in: directory.path)
        #expect(replay.status == 65 && replay.stderr.contains("no end line") && replay.stderr.contains("clumsy recover"), "\(replay)")
        #expect(!fileExists(directory.file("x.mid")))
        // By the name the live run was given: the temporary beside it, into that name.
        let recover = try await CLI.run(["recover", "set.jsonl", "--events", "set.jsonl", "--quiet"], in: directory.path)
        try #require(recover.status == 0 && recover.stderr.isEmpty, "\(recover)")
        let whole = try #require(bytes(of: directory.file("set.jsonl")))
        #expect(whole.starts(with: completeLines(try #require(bytes(of: directory.file(logName))))))
        try Data(whole).write(to: URL(fileURLWithPath: directory.file("whole.jsonl")))
        let again = try await CLI.run(["recover", "whole.jsonl", "--events", "same.jsonl"], in: directory.path)
        #expect(again.status == 0 && again.stderr.contains("the log is complete"), "\(again)")
        #expect(bytes(of: directory.file("same.jsonl")) == whole)
        // Two killed runs' logs beside one name: which one is not guessed (64, naming both).
        let other = ".set.jsonl.clumsy-live-999999-0123456789abcdef.tmp"
        try Data(completeLines(whole)).write(to: URL(fileURLWithPath: directory.file(other)))
        let ambiguous = try await CLI.run(["recover", "set.jsonl", "--midi", "y.mid"], in: directory.path)
        #expect(ambiguous.status == 64 && ambiguous.stderr.contains(other) && ambiguous.stderr.contains(logName), "\(ambiguous)")
    }
}
