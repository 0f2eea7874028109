// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Live
import MIDIFile
import Session
import Testing
#if canImport(Glibc)
import Glibc
#endif

// Issue 8, "What hostile use still breaks": one test (or a few) per finding, each run against
// the built `clumsy`. Each failed on the code before the fix (see the commit history).

/// Runs `script` with `sh -c`, `$C` being the built clumsy; returns what `CLI.run` returns.
func shell(_ script: String, in directory: String? = nil, environment: [String: String?] = [:], timeout: Double = 30,
           whileRunning: ((Int32) async -> Void)? = nil) async throws -> RunResult {
    var environment = environment
    environment["C"] = CLI.executable
    return try await CLI.run([], executable: "/bin/sh", prefix: ["-c", script], environment: environment, in: directory,
                       timeout: timeout, whileRunning: whileRunning)
}

@Suite("Hostile use (issue 8)", .serialized)
struct HostileUseTests {
    // MARK: 1. Symbolic links are written through

    @Test("A symlinked output is written through: the link stays a link, its target holds the file",
          arguments: ["midi", "events"])
    func symlinkWrittenThrough(flag: String) async throws {
        let directory = try TemporaryDirectory()
        try directory.write("real.out", "old\n")
        try FileManager.default.createSymbolicLink(atPath: directory.file("link.out"), withDestinationPath: "real.out")
        let result = try await CLI.run(["run", "original", "--duration", "2", "--\(flag)", "link.out", "--quiet"], in: directory.path)
        #expect(result.status == 0, "\(result)")
        let type = try FileManager.default.attributesOfItem(atPath: directory.file("link.out"))[.type] as? FileAttributeType
        #expect(type == .typeSymbolicLink, "the link was replaced by a regular file")
        let written = try #require(bytes(of: directory.file("real.out")))
        #expect(written != Array("old\n".utf8), "the link's target was not written")
        #expect(flag == "midi" ? written.starts(with: Array("MThd".utf8)) : written.first == UInt8(ascii: "{"))
        #expect(directory.entries() == ["link.out", "real.out"], "left behind: \(directory.entries())")
    }

    @Test("A symlink to a character device is written in place, the link and the device untouched")
    func symlinkToDevice() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: directory.file("null.wav"), withDestinationPath: "/dev/null")
        try FileManager.default.createSymbolicLink(atPath: directory.file("null.mid"), withDestinationPath: "/dev/null")
        var arguments = ["run", "original", "--duration", "1", "--midi", "null.mid", "--quiet"]
        if hasSmallSoundFont { arguments += ["--audio", "null.wav", "--soundfont", smallSoundFont, "--dry"] }
        let result = try await CLI.run(arguments, in: directory.path)
        #expect(result.status == 0, "\(result)")
        for name in ["null.mid", "null.wav"] {
            let type = try FileManager.default.attributesOfItem(atPath: directory.file(name))[.type] as? FileAttributeType
            #expect(type == .typeSymbolicLink, "\(name) was replaced")
        }
        let device = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
        #expect(device == .typeCharacterSpecial)
        #expect(directory.entries() == ["null.mid", "null.wav"], "left behind: \(directory.entries())")
    }

    @Test("As root, --midi /dev/stdout > m.mid keeps /dev/stdout a link and fills m.mid (private /dev, unshare -m)",
          .enabled(if: getuid() == 0 && firstExecutable(["/usr/bin/unshare"]) != nil))
    func devStdoutAsRoot() async throws {
        let directory = try TemporaryDirectory()
        // A private mount namespace with a tmpfs /dev holding only stdout and null: the
        // machine's real /dev is never touched.
        let script = """
        set -e
        d=$(mktemp -d)
        mount -t tmpfs none "$d"
        ln -s /proc/self/fd/1 "$d/stdout"
        touch "$d/null" && mount --bind /dev/null "$d/null"
        mount --rbind "$d" /dev
        "$C" run original --duration 2 --midi /dev/stdout --quiet > m.mid
        if [ -L /dev/stdout ]; then echo "stdout is a link"; else echo "stdout was replaced"; fi
        """
        let result = try await CLI.run(["-m", "/bin/sh", "-c", script], executable: "/usr/bin/unshare",
                                 environment: ["C": CLI.executable], in: directory.path)
        if result.stderr.contains("Operation not permitted") { return }  // no mount namespaces here
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("stdout is a link"), "\(result)")
        #expect(try MIDIFileReader.read(path: directory.file("m.mid")).tracks.count == 3)
    }

    // MARK: 2. An output can never overwrite an input or another output

    @Test("An output naming the preset (directly, by a link, by a hard link) is refused with 64; the preset survives",
          arguments: ["same", "symlink", "hardlink", "dotdot"])
    func outputOverPreset(how: String) async throws {
        let directory = try TemporaryDirectory()
        let preset = try String(contentsOfFile: projectRoot + "/Presets/default.json", encoding: .utf8)
        try directory.write("my.json", preset)
        try FileManager.default.createDirectory(atPath: directory.file("sub"), withIntermediateDirectories: true)
        let output: String
        switch how {
        case "symlink":
            try FileManager.default.createSymbolicLink(atPath: directory.file("l.jsonl"), withDestinationPath: "my.json")
            output = "l.jsonl"
        case "hardlink":
            try FileManager.default.linkItem(atPath: directory.file("my.json"), toPath: directory.file("h.jsonl"))
            output = "h.jsonl"
        case "dotdot":
            output = "sub/../my.json"
        default:
            output = "my.json"
        }
        let result = try await CLI.run(["run", "my.json", "--duration", "2", "--events", output], in: directory.path)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(output) && result.stderr.contains("my.json"), "names both: \(result.stderr)")
        #expect(try String(contentsOfFile: directory.file("my.json"), encoding: .utf8) == preset, "the preset was overwritten")
    }

    @Test("Two outputs on one file are refused (64); two on /dev/null are fine")
    func outputsCollide() async throws {
        let directory = try TemporaryDirectory()
        let same = try await CLI.run(["run", "--duration", "1", "--midi", "a.mid", "--events", "./a.mid"], in: directory.path)
        #expect(same.status == 64 && same.stderr.contains("a.mid"), "\(same)")
        #expect(directory.entries().isEmpty, "left behind: \(directory.entries())")
        let null = try await CLI.run(["run", "--duration", "1", "--midi", "/dev/null", "--events", "/dev/null", "--quiet"],
                               in: directory.path)
        #expect(null.status == 0, "\(null)")
    }

    @Test("An output on a file of $CLUMSY_PRESETS, the SoundFont or live mode's default file is refused")
    func outputOverOtherInputs() async throws {
        let directory = try TemporaryDirectory()
        let presets = directory.file("presets")
        try FileManager.default.createDirectory(atPath: presets, withIntermediateDirectories: true)
        let text = try String(contentsOfFile: projectRoot + "/Presets/default.json", encoding: .utf8)
        try text.write(toFile: presets + "/default.json", atomically: false, encoding: .utf8)
        try text.write(toFile: presets + "/other.json", atomically: false, encoding: .utf8)
        let bundled = try await CLI.run(["run", "default", "--duration", "1", "--midi", presets + "/other.json"],
                                  environment: ["CLUMSY_PRESETS": presets], in: directory.path)
        #expect(bundled.status == 64, "\(bundled)")
        #expect(try String(contentsOfFile: presets + "/other.json", encoding: .utf8) == text)
        if hasSmallSoundFont {
            let copy = directory.file("font.sf2")
            try FileManager.default.copyItem(atPath: smallSoundFont, toPath: copy)
            let font = try await CLI.run(["run", "--duration", "1", "--soundfont", copy, "--audio", "x.wav", "--midi", copy],
                                   in: directory.path)
            #expect(font.status == 64, "\(font)")
            let live = try await CLI.run(["run", "--duration", "1", "--live", "--audio-driver", "file", "--soundfont", smallSoundFont,
                                    "--midi", "clumsy-live.wav"], in: directory.path)
            #expect(live.status == 64 && live.stderr.contains("clumsy-live.wav"), "\(live)")
        }
    }

    // MARK: 3. Signals always stop it; inputs must be regular files

    @Test("SIGTERM ends a run blocked on a FIFO output with 143, never waiting for a reader")
    func fifoOutputTerm() async throws {
        let directory = try TemporaryDirectory()
        #expect(mkfifo(directory.file("out.mid"), 0o644) == 0)
        var stopping = 0.0
        let result = try await CLI.run(["run", "--duration", "5", "--midi", "out.mid", "--quiet"], in: directory.path, timeout: 30) { pid in
            // Timed on a thread of its own: awaiting, it would count how long the pool was busy.
            stopping = await onOwnThread {
                blockUntil(timeout: 30) { catchesSIGINT(pid) }
                sleepThread(0.4)
                kill(pid, SIGTERM)
                return secondsUntilExit(pid, limit: 30)
            }
        }
        #expect(!result.timedOut && result.status == 143, "\(result)")
        // Blocked in open(2), only the signal ends it: 0.0x s when the machine is idle; the bound is
        // a hang guard that holds on a loaded machine (how fast a stop is: make bench, row 9).
        #expect(stopping < 15, "took \(stopping) s after SIGTERM")
        #expect(directory.entries() == ["out.mid"], "left behind: \(directory.entries())")
    }

    @Test("A FIFO as the preset or SoundFont is refused at once with 66")
    func fifoInputs() async throws {
        let directory = try TemporaryDirectory()
        #expect(mkfifo(directory.file("f.json"), 0o644) == 0)
        let preset = try await CLI.run(["run", "./f.json", "--duration", "1"], in: directory.path, timeout: 30)
        #expect(!preset.timedOut && preset.status == 66, "\(preset)")
        #expect(preset.stderr.contains("FIFO"), "\(preset.stderr)")
        let validate = try await CLI.run(["validate", "./f.json"], in: directory.path, timeout: 30)
        #expect(!validate.timedOut && validate.status == 66, "\(validate)")
        let font = try await CLI.run(["run", "--duration", "1", "--soundfont", "f.json", "--audio", "x.wav"], in: directory.path, timeout: 30)
        #expect(!font.timedOut && font.status == 66, "\(font)")
        #expect(!fileExists(directory.file("x.wav")))
    }

    @Test("clumsy presets with a FIFO in $CLUMSY_PRESETS lists it as invalid and does not hang")
    func fifoInPresetsDirectory() async throws {
        let directory = try TemporaryDirectory()
        try String(contentsOfFile: projectRoot + "/Presets/default.json", encoding: .utf8)
            .write(toFile: directory.file("default.json"), atomically: false, encoding: .utf8)
        #expect(mkfifo(directory.file("pipe.json"), 0o644) == 0)
        let result = try await CLI.run(["presets"], environment: ["CLUMSY_PRESETS": directory.path], timeout: 30)
        #expect(!result.timedOut && result.status == 0, "\(result)")
        #expect(result.stdout.contains("pipe") && result.stdout.contains("invalid"), "\(result.stdout)")
    }

    // MARK: 4. Stopping an audio render is quick: StopLatencyTests (run on its own by make test)

    // MARK: 5. SIGHUP and SIGQUIT

    @Test("SIGHUP and SIGQUIT stop like SIGTERM: files finished, no temporaries, 129 / 131, nothing left running",
          arguments: [(SIGHUP, Int32(129)), (SIGQUIT, Int32(131))])
    func otherSignals(signal number: Int32, status: Int32) async throws {
        let directory = try TemporaryDirectory()
        let before = await Set(try shell("pgrep -x swift-backtrace || true").stdoutLines)
        let result = try await CLI.run(["run", "original", "--duration", "604800", "--midi", "a.mid", "--events", "a.jsonl"],
                                 in: directory.path, timeout: 10) { pid in
            await waitForStopHandlers(pid)
            await pause(0.6)
            kill(pid, number)
        }
        #expect(!result.timedOut && !result.signalled && result.status == status, "\(result)")
        #expect(!result.stderr.contains("crashed"), "\(result.stderr)")
        #expect(directory.entries() == ["a.jsonl", "a.mid"], "left behind: \(directory.entries())")
        #expect(try MIDIFileReader.read(path: directory.file("a.mid")).tracks.count == 3)
        await pause(0.2)
        let after = await Set(try shell("pgrep -x swift-backtrace || true").stdoutLines)
        #expect(after.subtracting(before).isEmpty, "swift-backtrace still running: \(after.subtracting(before))")
    }

    // MARK: 6. Lost standard output

    @Test("Every command exits 74 with one line on stderr when stdout is /dev/full",
          arguments: ["run --duration 1", "presets", "tones", "validate default", "--help", "--version", "run --help"])
    func stdoutFull(command: String) async throws {
        let result = try await shell("\"$C\" \(command) > /dev/full")
        #expect(result.status == 74, "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("standard output"), "\(result.stderr)")
    }

    @Test("A closed stdout is 74, and no output file takes its place")
    func stdoutClosed() async throws {
        let directory = try TemporaryDirectory()
        let text = try await shell("\"$C\" run --duration 1 >&-", in: directory.path)
        #expect(text.status == 74 && text.stderr.contains("standard output"), "\(text)")
        let files = try await shell("\"$C\" run --duration 1 --midi a.mid >&-", in: directory.path)
        #expect(files.status == 74, "\(files)")
        let midi = try MIDIFileReader.read(path: directory.file("a.mid"))
        #expect(midi.tracks.count == 4, "the summary line went into the MIDI file")   // conductor, bass, keys, melody
    }

    /// Issue 44 #8: it said "No space left on device" (the /dev/full a closed stdout is
    /// reopened on) before "it is closed".
    @Test("An output on a closed stdout is 74 with one line: that it is closed", arguments: ["--audio -", "--midi -", "--events -", "--audio flac:-"])
    func outputOnClosedStdout(output: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await shell("\"$C\" run --duration 1 --quiet \(output) >&-", in: directory.path)
        #expect(result.status == 74, "\(result)")
        #expect(result.stderr == "clumsy: error: cannot write to standard output: it is closed\n", "\(result)")
    }

    @Test("A reader that goes away stops the session at once: | head -1 ends quickly with 141, silently")
    func brokenPipe() async throws {
        let directory = try TemporaryDirectory()
        let result = try await shell("{ \"$C\" run --duration 60480; echo \"status $?\" >&2; } | head -1",
                               in: directory.path, timeout: 20)
        #expect(!result.timedOut && result.elapsed < 10, "\(result)")
        // The first line is the opening chord's (the text view names each chord as it takes over).
        #expect(result.stdout.hasPrefix("     0.000 s  chord"), "\(result.stdout)")
        #expect(result.stderr == "status 141\n", "\(result.stderr)")
    }

    // MARK: 7. File-size limit, long names, stale temporaries

    @Test("Under ulimit -f a write past the limit is 74 like a full disk: temporaries removed, old file kept")
    func fileSizeLimit() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("e.jsonl", "old\n")
        // The test runner may ignore SIGXFSZ, which children inherit: give clumsy the default action.
        let result = try await shell("ulimit -f 8; exec env --default-signal=XFSZ \"$C\" run default --duration 3600 --events e.jsonl --quiet",
                               in: directory.path)
        #expect(!result.signalled && result.status == 74, "\(result)")
        #expect(try String(contentsOfFile: directory.file("e.jsonl"), encoding: .utf8) == "old\n")
        #expect(directory.entries() == ["e.jsonl"], "left behind: \(directory.entries())")
    }

    @Test("A 300-byte output name is 73 before the session; a 250-byte one works")
    func longNames() async throws {
        let directory = try TemporaryDirectory()
        let long = String(repeating: "x", count: 296) + ".mid"
        let refused = try await CLI.run(["run", "--duration", "604800", "--midi", long], in: directory.path, timeout: 10)
        #expect(!refused.timedOut && refused.status == 73, "\(refused)")
        #expect(refused.stderr.count < 1000, "the error echoes the whole name: \(refused.stderr.count) bytes")
        let fits = String(repeating: "y", count: 246) + ".mid"
        let accepted = try await CLI.run(["run", "--duration", "1", "--midi", fits, "--quiet"], in: directory.path)
        #expect(accepted.status == 0, "\(accepted)")
        #expect(directory.entries() == [fits])
        if hasSmallSoundFont {
            let audio = String(repeating: "z", count: 246) + ".wav"
            let rendered = try await CLI.run(["run", "--duration", "1", "--audio", audio, "--soundfont", smallSoundFont, "--quiet"],
                                       in: directory.path)
            #expect(rendered.status == 0, "\(rendered)")
            let live = String(repeating: "w", count: 241) + ".wav"
            let played = try await CLI.run(["run", "--duration", "0.5", "--live", "--audio-driver", "file", "--audio", live,
                                      "--soundfont", smallSoundFont, "--quiet"], in: directory.path)
            #expect(played.status == 0, "\(played)")
        }
    }

    @Test("The temporaries of a dead process are removed by the next run; a live process's are kept")
    func staleTemporaries() async throws {
        let directory = try TemporaryDirectory()
        // A pid that cannot exist (above pid_max), and our own, which does.
        let dead = ".x.mid.clumsy-2147483646-0123456789abcdef.tmp"
        let alive = ".y.mid.clumsy-\(getpid())-0123456789abcdef.tmp"
        try directory.write(dead, "debris")
        try directory.write(alive, "in use")
        let result = try await CLI.run(["run", "--duration", "1", "--midi", "a.mid", "--quiet"], in: directory.path)
        #expect(result.status == 0, "\(result)")
        #expect(directory.entries() == [alive, "a.mid"], "\(directory.entries())")
    }

    @Test("A kill -9 leaves temporaries with the pid in their names, which the next run removes")
    func killNine() async throws {
        let directory = try TemporaryDirectory()
        let killed = try await CLI.run(["run", "--duration", "604800", "--midi", "a.mid", "--events", "a.jsonl"],
                                 in: directory.path, timeout: 30) { pid in
            // Killed once its temporaries exist (a loaded machine may take seconds to start it).
            for _ in 0..<200 where directory.hiddenEntries().count < 2 { await pause(0.05) }
            kill(pid, SIGKILL)
        }
        #expect(killed.signalled)
        let left = directory.hiddenEntries()
        #expect(!left.isEmpty && left.allSatisfy { $0.contains(".clumsy-") }, "\(left)")
        let next = try await CLI.run(["run", "--duration", "1", "--midi", "b.mid", "--quiet"], in: directory.path)
        #expect(next.status == 0, "\(next)")
        #expect(directory.entries() == ["b.mid"], "\(directory.entries())")
    }

    // MARK: 8. Long audio renders

    @Test("A WAV past 4 GiB is refused at once with 73 and the estimate", .enabled(if: hasSmallSoundFont))
    func hugeWAV() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "--duration", "604800", "--audio", "x.wav", "--soundfont", smallSoundFont],
                                 in: directory.path, timeout: 60)
        #expect(!result.timedOut && result.status == 73, "\(result)")
        #expect(result.stderr.contains("GB"), "\(result.stderr)")
        #expect(directory.entries().isEmpty)
    }

    @Test("A render larger than the free space is refused at once with 73 (tmpfs of 1 MB, private mount namespace)",
          .enabled(if: getuid() == 0 && hasSmallSoundFont && firstExecutable(["/usr/bin/unshare"]) != nil))
    func noRoomForAudio() async throws {
        let directory = try TemporaryDirectory()
        let script = """
        mount -t tmpfs -o size=1m none "$PWD" && cd "$PWD" || exit 99
        "$C" run --duration 600 --audio x.wav --soundfont "$F" --quiet; echo "status $?"; ls -A
        """
        let result = try await CLI.run(["-m", "/bin/sh", "-c", script], executable: "/usr/bin/unshare",
                                 environment: ["C": CLI.executable, "F": smallSoundFont], in: directory.path, timeout: 120)
        if result.status == 99 || result.stderr.contains("Operation not permitted") { return }
        // Refused before the session: status 73, nothing left in the directory (no temporary,
        // no partial WAV), and no summary of a session that ran. (Not a time: a loaded machine
        // took 22 s to start the namespace, the shell and clumsy.)
        #expect(result.stdout == "status 73\n", "\(result)")
        #expect(result.stderr.contains("free") && !result.stderr.contains("interrupted"), "\(result.stderr)")
    }

    // MARK: 9. Live into a file

    @Test("Live into FLAC and Ogg files works", .enabled(if: hasSmallSoundFont), arguments: ["l.flac", "l.ogg"])
    func liveCompressed(name: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "--duration", "1.5", "--live", "--audio-driver", "file", "--audio", name,
                                  "--soundfont", smallSoundFont, "--quiet"], in: directory.path)
        #expect(result.status == 0, "\(result)")
        #expect(directory.entries() == [name], "\(directory.entries())")
        let size = (try? FileManager.default.attributesOfItem(atPath: directory.file(name))[.size] as? Int) ?? 0
        #expect(size > 1000)
    }

    @Test("Live refuses an .mp3 name (64) and a directory (73) before playing", .enabled(if: hasSmallSoundFont))
    func liveBadTargets() async throws {
        let directory = try TemporaryDirectory()
        let mp3 = try await CLI.run(["run", "--live", "--audio-driver", "file", "--audio", "l.mp3", "--soundfont", smallSoundFont],
                              in: directory.path, timeout: 60)
        #expect(!mp3.timedOut && mp3.status == 64, "\(mp3)")
        try FileManager.default.createDirectory(atPath: directory.file("d.wav"), withIntermediateDirectories: true)
        // A live session is paced to the wall clock: ending well inside its 60 s means it never played
        // (a bound about Clumsy, not about how quickly a busy machine starts a process).
        let folder = try await CLI.run(["run", "--live", "--duration", "60", "--audio-driver", "file", "--audio", "d.wav",
                                  "--soundfont", smallSoundFont], in: directory.path, timeout: 90)
        #expect(folder.status == 73 && folder.elapsed < 30, "\(folder)")
    }

    // MARK: 10. Printed text is escaped and cut; the driver list is this FluidSynth's

    @Test("Control characters of a preset never reach the terminal or the MIDI text raw")
    func controlCharacters() async throws {
        let directory = try TemporaryDirectory()
        let preset = #"{"name": "evil\u001b[2J\u001b]0;pwned\u0007", "description": "line\nbreak\u001b[31m red"}"#
        try directory.write("default.json", preset)
        let listing = try await CLI.run(["presets"], environment: ["CLUMSY_PRESETS": directory.path])
        #expect(listing.status == 0, "\(listing)")
        #expect(!listing.stdout.contains("\u{1B}") && !listing.stdout.contains("\u{07}"), "\(listing.stdout)")
        #expect(listing.stdout.split(separator: "\n").count == 1, "a newline in the description split the line")
        let run = try await CLI.run(["run", "default.json", "--duration", "1"], in: directory.path)
        #expect(run.status == 0 && !run.stdout.contains("\u{1B}"), "\(run)")
        let midi = try await CLI.run(["run", "default.json", "--duration", "1", "--midi", "a.mid", "--quiet"], in: directory.path)
        #expect(midi.status == 0, "\(midi)")
        let data = try #require(bytes(of: directory.file("a.mid")))
        let text = try #require(firstTextEvent(data))
        #expect(text.allSatisfy { (0x20..<0x7F).contains($0) }, "MIDI text is not printable ASCII: \(text)")
    }

    @Test("Error messages cut long quoted input to a readable length")
    func longInputInErrors() async throws {
        let huge = String(repeating: "a", count: 100_000)
        for arguments in [["run", "--tone", huge], ["run", huge], ["run", "--filter", huge], ["validate", huge + ".json"]] {
            let result = try await CLI.run(arguments)
            #expect(result.status != 0)
            #expect(result.stderr.utf8.count < 2000, "\(arguments[1]): \(result.stderr.utf8.count) bytes of stderr")
        }
    }

    @Test("--audio-driver's help lists exactly the drivers this FluidSynth has")
    func driverHelp() async throws {
        let result = try await CLI.run(["run", "--help"])
        let help = result.stdout.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        #expect(help.contains("this FluidSynth has: \(AudioDrivers.list)"), "\(help)")
        if !AudioDrivers.list.contains("pipewire") { #expect(!help.contains("pipewire")) }
    }
}

/// The bytes of the first text meta event (FF 01 <variable-length size> <text>) in a MIDI file.
func firstTextEvent(_ data: [UInt8]) -> [UInt8]? {
    var index = 0
    while index + 3 < data.count {
        if data[index] == 0xFF && data[index + 1] == 0x01 {
            var length = 0
            var position = index + 2
            while position < data.count {
                length = length << 7 | Int(data[position] & 0x7F)
                position += 1
                if data[position - 1] & 0x80 == 0 { break }
            }
            guard position + length <= data.count else { return nil }
            return Array(data[position..<(position + length)])
        }
        index += 1
    }
    return nil
}
