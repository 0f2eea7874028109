// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

// Issue 19, findings 1, 14 and replay's part of 2: what a replayed log can make `clumsy replay`
// do. Each test failed on the code before the fix (see the commit history).

/// A hand-written live log of `default` (seed 3): its session line's arguments are `arguments`.
private func craftedLog(_ arguments: [String], timestep: String = "0.004166666666666667") -> String {
    let list = arguments.map { "\"\($0)\"" }.joined(separator: ",")
    return """
        {"t":0.000000,"kind":"session","clumsy":"0.1.0","preset":"original","seed":"3","timestep":\(timestep),"arguments":[\(list)]}
        {"t":0.500000,"kind":"control","step":120,"control":"speed","value":4}
        {"t":1.000000,"kind":"end","step":240}

        """
}

/// Device and inode of `path` (not following a link), or nil.
private func identity(of path: String) -> (UInt64, UInt64)? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return (UInt64(info.st_dev), UInt64(info.st_ino))
}

@Suite("Hostile replay: what a log can make replay do (issue 19)", .serialized)
struct HostileReplayTests {
    @Test("A log cannot choose outputs, live mode, ports or servers: 65 naming the file, line 1 and the flag; nothing created",
          arguments: [
              ["default", "--events", "victim"],
              ["default", "--audio", "victim.wav"],
              ["default", "--stems", ".", "--audio", "victim.wav"],
              ["default", "--video", "victim.mp4"],
              ["default", "--live", "--osc-in", "127.0.0.1:47311"],
              ["default", "--seed", "3", "--midi", "victim"],
              ["default", "--gravity=5", "--events", "victim"],
              ["--events", "victim", "default"],
          ])
    func logCannotChooseOutputs(arguments: [String]) async throws {
        let directory = try TemporaryDirectory()
        try directory.write("evil.jsonl", craftedLog(arguments))
        let before = directory.entries()
        let result = try await CLI.run(["replay", "evil.jsonl", "--midi", "x.mid"], in: directory.path, timeout: 20)
        #expect(result.status == 65, "\(result)")
        let offending = arguments.first { $0.hasPrefix("-") } ?? ""
        #expect(result.stderr.contains("evil.jsonl") && result.stderr.contains("line 1") && result.stderr.contains(offending), "\(result)")
        #expect(directory.entries() == before, "replay created \(Set(directory.entries()).subtracting(before))")
    }

    @Test("The settings that shape the notes are still replayed: gravity, seed and --dry from the log")
    func settingsStillReplayed() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("set.jsonl", craftedLog(["original", "--gravity", "5", "--dry", "--seed", "3"]))
        let replay = try await CLI.run(["replay", "set.jsonl", "--midi", "a.mid", "--quiet"], in: directory.path)
        let flat = try await CLI.run(["run", "original", "--seed", "3", "--duration", "1", "--midi", "q.mid", "--quiet"], in: directory.path)
        try #require(replay.status == 0 && flat.status == 0, "\(replay)\n\(flat)")
        // The gravity (and the control at step 120) change the notes.
        #expect(bytes(of: directory.file("a.mid")) != bytes(of: directory.file("q.mid")))
        // A hand-written log has no plan digest: replayed, with a warning saying so.
        #expect(replay.stderr.contains("set.jsonl") && replay.stderr.contains("digest"), "\(replay)")
    }

    @Test("replay --midi through a link to the log, and --events naming the log: 64, the log untouched")
    func outputOverTheLog() async throws {
        let directory = try TemporaryDirectory()
        let log = try directory.write("set.jsonl", craftedLog(["original", "--seed", "3"]))
        let original = bytes(of: log)
        let inode = try #require(identity(of: log))
        try FileManager.default.createSymbolicLink(atPath: directory.file("link.mid"), withDestinationPath: "set.jsonl")
        for outputs in [["--midi", "link.mid"], ["--events", "set.jsonl"], ["--events", "./set.jsonl", "--midi", "m.mid"]] {
            let result = try await CLI.run(["replay", "set.jsonl"] + outputs + ["--quiet"], in: directory.path)
            #expect(result.status == 64 && result.stderr.contains("set.jsonl") && result.stderr.contains("event log"), "\(result)")
            #expect(bytes(of: log) == original, "\(outputs): the log was overwritten")
            let now = identity(of: log)
            #expect(now?.0 == inode.0 && now?.1 == inode.1, "\(outputs): the log was replaced")
            #expect(!fileExists(directory.file("m.mid")))
        }
    }

    /// A real live log (the file driver into a small SoundFont, 1.5 s of wall time) of `preset`.
    private func liveLog(in directory: TemporaryDirectory, preset: String) async throws {
        let live = try await CLI.run(["run", preset, "--live", "--audio-driver", "file", "--audio", "live.wav", "--soundfont", smallSoundFont,
                                "--duration", "1.5", "--midi", "live.mid", "--events", "live.jsonl", "--quiet"],
                               in: directory.path, timeout: 60)
        try #require(live.status == 0, "\(live)")
    }

    @Test("A log whose timestep is not the preset's: 65 naming the timestep, nothing written",
          .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"))
    func timestepMismatch() async throws {
        let directory = try TemporaryDirectory()
        try await liveLog(in: directory, preset: "default")
        let path = directory.file("live.jsonl")
        let text = String(decoding: try #require(bytes(of: path)), as: UTF8.self)
        try #require(text.contains("\"timestep\":0.004166666666666667"), "\(text)")
        try directory.write("live.jsonl", text.replacingOccurrences(of: "\"timestep\":0.004166666666666667", with: "\"timestep\":0.008333333333333333"))
        let result = try await CLI.run(["replay", "live.jsonl", "--midi", "r.mid"], in: directory.path)
        #expect(result.status == 65 && result.stderr.contains("live.jsonl") && result.stderr.contains("timestep"), "\(result)")
        #expect(!fileExists(directory.file("r.mid")))
        // A hand-written log without a digest is checked for its timestep too.
        try directory.write("old.jsonl", craftedLog(["original", "--seed", "3"], timestep: "0.01"))
        let old = try await CLI.run(["replay", "old.jsonl", "--midi", "r.mid"], in: directory.path)
        #expect(old.status == 65 && old.stderr.contains("old.jsonl") && old.stderr.contains("timestep"), "\(old)")
        #expect(!fileExists(directory.file("r.mid")))
    }

    @Test("A preset edited after the live run: the replay is refused with 65 naming the preset; unedited, byte-identical",
          .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"))
    func editedPreset() async throws {
        let directory = try TemporaryDirectory()
        let preset = String(decoding: try #require(bytes(of: projectRoot + "/Presets/default.json")), as: UTF8.self)
        try directory.write("mine.json", preset)
        try await liveLog(in: directory, preset: "mine.json")
        let same = try await CLI.run(["replay", "live.jsonl", "--midi", "same.mid", "--events", "same.jsonl", "--quiet"], in: directory.path)
        try #require(same.status == 0, "\(same)")
        #expect(same.stderr.isEmpty, "\(same)")
        #expect(bytes(of: directory.file("same.mid")) == bytes(of: directory.file("live.mid")))
        #expect(bytes(of: directory.file("same.jsonl")) == bytes(of: directory.file("live.jsonl")))

        try #require(preset.contains("\"gravity\": 9.81"))
        try directory.write("mine.json", preset.replacingOccurrences(of: "\"gravity\": 9.81", with: "\"gravity\": 6"))
        let result = try await CLI.run(["replay", "live.jsonl", "--midi", "r.mid"], in: directory.path)
        #expect(result.status == 65 && result.stderr.contains("live.jsonl") && result.stderr.contains("mine.json")
                && result.stderr.contains("digest"), "\(result)")
        #expect(!fileExists(directory.file("r.mid")))
    }

    /// Issue 44 #7: logs a live run cannot write replayed with exit 0 (the control past the end
    /// silently not applied).
    @Test("A control at or past the end line's step, a control after it and a second end line are refused: 65 naming the file and line",
          arguments: [
              ("{\"t\":1.5,\"kind\":\"control\",\"step\":360,\"control\":\"speed\",\"value\":2}\n{\"t\":1.000000,\"kind\":\"end\",\"step\":240}",
               "line 4: the end line's step 240 is not after the control at step 360 (line 3): a live run ends after the steps of its controls; "
                   + "accepted: an end step of at least 361"),
              ("{\"t\":1.000000,\"kind\":\"end\",\"step\":240}\n{\"t\":1.5,\"kind\":\"control\",\"step\":360,\"control\":\"speed\",\"value\":2}",
               "line 4: a control after the end line (line 3): a live run writes its end line last"),
              ("{\"t\":1.000000,\"kind\":\"end\",\"step\":240}\n{\"t\":2.000000,\"kind\":\"end\",\"step\":480}",
               "line 4: a second end line (the first is line 3): a live run writes one, last"),
          ])
    func logsALiveRunCannotWrite(tail: String, message: String) async throws {
        let directory = try TemporaryDirectory()
        let log = craftedLog(["original"]).split(separator: "\n").prefix(2).joined(separator: "\n") + "\n" + tail + "\n"
        try directory.write("odd.jsonl", log)
        let result = try await CLI.run(["replay", "odd.jsonl", "--midi", "x.mid"], in: directory.path, timeout: 20)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("odd.jsonl") && result.stderr.contains(message), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("x.mid")))
    }
}
