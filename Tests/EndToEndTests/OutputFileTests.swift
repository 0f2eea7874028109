// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Output files: created before simulating, all or nothing, earlier files kept on failure,
/// complete after an interruption.
@Suite("Output files")
struct OutputFileTests {
    static let sentinel = "an earlier file that must survive a failed run\n"

    @Test("An output in a missing directory exits 73 at once, and the other output is not created",
          arguments: [("midi", "events"), ("events", "midi")])
    func missingDirectory(bad: String, good: String) async throws {
        let directory = try TemporaryDirectory()
        let missing = directory.file("no-such-dir/out.\(bad == "midi" ? "mid" : "jsonl")")
        let goodPath = directory.file("ok.\(good == "midi" ? "mid" : "jsonl")")
        // A week of simulated time: only failing before the simulation starts can be fast.
        let result = try await CLI.run(["run", "original", "--duration", "604800", "--\(bad)", missing, "--\(good)", goodPath],
                                 timeout: 60)
        #expect(!result.timedOut, "the run simulated instead of failing on the output path")
        #expect(result.status == 73 && !result.signalled, "\(result)")
        #expect(result.stderr.contains(missing), "stderr does not name the path: \(result.stderr)")
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)")
        #expect(!fileExists(goodPath), "the other output was created")
        #expect(directory.entries().isEmpty, "files left behind: \(directory.entries())")
    }

    @Test("An output path that is an existing directory exits 73")
    func directoryAsOutput() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--duration", "1", "--midi", directory.path, "--events", "e.jsonl"],
                                 in: directory.path)
        #expect(result.status == 73, "\(result)")
        #expect(directory.entries().isEmpty, "files left behind: \(directory.entries())")
    }

    @Test("An existing --midi file is untouched when the run fails",
          arguments: [["--speed", "25"], ["--events", "missing-dir/e.jsonl"], ["--gravity", "nan"]])
    func failedRunKeepsOldFile(failure: [String]) async throws {
        let directory = try TemporaryDirectory()
        let midi = try directory.write("song.mid", Self.sentinel)
        let result = try await CLI.run(["run", "original", "--duration", "2", "--midi", "song.mid"] + failure, in: directory.path)
        #expect(result.status == 64 || result.status == 73, "\(result)")
        #expect(bytes(of: midi) == Array(Self.sentinel.utf8), "the earlier file was changed by a failed run")
        #expect(directory.entries() == ["song.mid"], "files left behind: \(directory.entries())")
    }

    @Test("An existing --midi file is untouched when the preset is bad")
    func badPresetKeepsOldFile() async throws {
        let directory = try TemporaryDirectory()
        let midi = try directory.write("song.mid", Self.sentinel)
        try directory.write("bad.json", #"{"keys": {"tones": []}}"#)
        let result = try await CLI.run(["run", "bad.json", "--duration", "2", "--midi", "song.mid"], in: directory.path)
        #expect(result.status == 65, "\(result)")
        #expect(bytes(of: midi) == Array(Self.sentinel.utf8))
        #expect(directory.entries() == ["bad.json", "song.mid"], "files left behind: \(directory.entries())")
    }

    @Test("An existing --midi file is replaced by a successful run")
    func successfulRunReplaces() async throws {
        let directory = try TemporaryDirectory()
        let midi = try directory.write("song.mid", Self.sentinel)
        let result = try await CLI.run(["run", "original", "--duration", "2", "--midi", "song.mid"], in: directory.path)
        #expect(result.status == 0, "\(result)")
        let contents = try MIDIFileReader.read(path: midi)
        #expect(contents.tracks.count == 3)
        #expect(!noteOns(contents.tracks[2]).isEmpty)
        #expect(directory.entries() == ["song.mid"], "files left behind: \(directory.entries())")
    }

    @Test("SIGINT/SIGTERM stop the run with 128+signal and leave complete files",
          arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func interrupted(signal number: Int32, status: Int32) async throws {
        let directory = try TemporaryDirectory()
        let midi = directory.file("i.mid")
        let events = directory.file("i.jsonl")
        let result = try await CLI.run(["run", "original", "--duration", "604800", "--midi", midi, "--events", events],
                                 timeout: 20) { pid in
            // Let it simulate a little: wait (at most 10 s, however busy the machine) until the
            // event log's temporary file holds something, then a moment more.
            for _ in 0..<200 {
                let written = directory.entries().filter { $0.hasPrefix(".i.jsonl") }.contains { name in
                    ((try? FileManager.default.attributesOfItem(atPath: directory.file(name))[.size] as? Int) ?? 0) > 0
                }
                if written { break }
                await pause(0.05)
            }
            await pause(0.2)
            kill(pid, number)
        }
        #expect(!result.timedOut && !result.signalled, "\(result)")
        #expect(result.status == status, "\(result)")
        #expect(result.stdout.hasPrefix("interrupted at "), "\(result.stdout)")
        let log = try readEventLog(events)
        let contents = try MIDIFileReader.read(path: midi)
        try #require(contents.tracks.count == 3)
        #expect(log.count > 1, "nothing recorded before the interruption")
        #expect(noteOns(contents.tracks[1]).count == log.filter { $0.kind == "bass" }.count)
        #expect(noteOns(contents.tracks[2]).count == log.filter { $0.kind == "key" }.count)
        for track in 1...2 {
            #expect(pairingProblems(contents.tracks[track]).isEmpty, "track \(track): notes left sounding after the interruption")
        }
        #expect(directory.entries() == ["i.jsonl", "i.mid"], "files left behind: \(directory.entries())")
    }

    @Test("SIGTERM still stops a run started with SIGINT/SIGTERM blocked (inherited signal mask)")
    func interruptedWithInheritedMask() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--duration", "604800", "--events", "i.jsonl"], in: directory.path,
                                 timeout: 30, inheritBlockedSignals: true) { pid in
            await pause(0.5)
            kill(pid, SIGTERM)
        }
        // clumsy unblocks SIGINT/SIGTERM itself, so the signal arrives.
        #expect(!result.timedOut && result.status == 143, "\(result)")
        #expect(directory.hiddenEntries().count <= 1, "temporaries: \(directory.entries())")
    }
}
