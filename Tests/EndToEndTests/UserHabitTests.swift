// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Testing

// The CLI habits people expect: each mistake a new user made gets the better message.

@Suite("A new user's mistakes get the better message")
struct UserHabitTests {
    @Test("A mistyped preset name: 66 with the nearest bundled name", arguments: [("minor-strom", "minor-storm"), ("polka", "polska"), ("Lydian-Mon", "lydian-moon")])
    func presetDidYouMean(typed: String, meant: String) async throws {
        let result = try await CLI.run(["run", typed, "--duration", "1"])
        #expect(result.status == 66 && result.stderr.contains("did you mean \(meant)?"), "\(result)")
    }

    /// Every enumerated value: the flag's word, a `--set` value and a preset file's field
    /// name the nearest accepted word; `--tone` (the keys' tone) says where a bass tone goes.
    @Test("A mistyped enumerated value: 64 or 65 with the nearest accepted word", arguments: [
        (["--mode", "dorain"], 64, "did you mean dorian?"), (["--quantize", "1/61"], 64, "did you mean 1/16?"),
        (["--meter", "4/5"], 64, "did you mean"), (["--tone", "vibrafone"], 64, "did you mean vibraphone?"),
        (["--tone", "contrbass"], 64, "did you mean the bass tone contrabass? --bass-tone contrabass"),
        (["--tone", "contrabass"], 64, "it is a bass tone: --bass-tone contrabass"),
        (["--set", "bass.tone=fretles-bass"], 64, "did you mean fretless-bass?"),
        (["--set", "layout=rign"], 64, "did you mean ring?"),
        (["--live", "--audio-driver", "jakc"], 64, "did you mean jack?"),
        (["FILE:{\"key\": {\"scale\": \"lidian\"}}"], 65, "did you mean lydian?"),
        (["FILE:{\"voices\": [{\"name\": \"v\", \"interval\": 3, \"tone\": \"celeste\"}]}"], 65, "did you mean celesta?")])
    func valueDidYouMean(flags: [String], status: Int32, words: String) async throws {
        let directory = try TemporaryDirectory()
        var arguments = ["run", "default", "--duration", "1"]
        if let json = flags.first, json.hasPrefix("FILE:") {
            try Data(json.dropFirst(5).utf8).write(to: URL(fileURLWithPath: directory.file("p.json")))
            arguments[1] = "./p.json"
        } else {
            arguments += flags
        }
        let result = try await CLI.run(arguments, in: directory.path)
        #expect(result.status == status && result.stderr.contains(words), "\(result)")
    }

    @Test("A bundled name in any letter case, or with .json, is that preset (when no such file is here)", arguments: ["Polska", "POLSKA", "polska.json"])
    func presetNameTolerated(typed: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", typed, "--duration", "1"], in: directory.path)
        #expect(result.status == 0 && result.stdout.contains("of polska"), "\(result)")
    }

    @Test("A checkout path to a bundled preset, run elsewhere: 66 saying to use its name")
    func checkoutPathElsewhere() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "Presets/lydian-moon.json", "--duration", "1"], in: directory.path)
        #expect(result.status == 66 && result.stderr.contains("lydian-moon is a bundled preset"), "\(result)")
    }

    @Test("A mistyped subcommand, and help for one: 64 with the nearest", arguments: [["analyse", "x.mid"], ["help", "analyse"], ["rnu"]])
    func subcommandDidYouMean(arguments: [String]) async throws {
        let result = try await CLI.run(arguments)
        #expect(result.status == 64 && result.stderr.hasPrefix("clumsy: error: unknown subcommand"), "\(result)")
        #expect(result.stderr.contains(arguments == ["rnu"] ? "did you mean run?" : "did you mean analyze?"), "\(result)")
    }

    @Test("clumsy help foo: 64, not the overview with 0")
    func helpOfNothing() async throws {
        let result = try await CLI.run(["help", "foo"])
        #expect(result.status == 64 && result.stdout.isEmpty && result.stderr.contains("unknown subcommand foo"), "\(result)")
    }

    @Test("A mistyped flag: the nearest flag, with clumsy's one error prefix")
    func flagDidYouMean() async throws {
        let result = try await CLI.run(["run", "--gravty", "3"])
        #expect(result.status == 64 && result.stderr.hasPrefix("clumsy: error: ") && result.stderr.contains("'--gravity'"), "\(result)")
        #expect(!result.stderr.contains("Error:"), "two error prefixes: \(result.stderr)")
    }

    @Test("Preset fields: a mistyped one and one known by another name get the field meant; validate lists every problem")
    func fieldsAndEveryProblem() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("mine.json", #"{ "gravty": 3, "tempo": 900, "key": { "tonic": "C", "mode": "dorian" }, "piano": { "count": -1 } }"#)
        let result = try await CLI.run(["validate", file])
        #expect(result.status == 65, "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(result.stderr)")
        #expect(lines.allSatisfy { $0.hasPrefix("clumsy: error: ") && $0.contains("mine.json") }, "\(result.stderr)")
        #expect(lines.contains { $0.contains("gravty") && $0.contains("did you mean gravity?") }, "\(result.stderr)")
        #expect(lines.contains { $0.contains("key.mode") && $0.contains("did you mean key.scale?") }, "\(result.stderr)")
        #expect(lines.contains { $0.contains("tempo: 900") } && lines.contains { $0.contains("piano.count") }, "\(result.stderr)")
    }

    @Test("Durations as people write them", arguments: [("90", "90.0"), ("90s", "90.0"), ("2m", "120.0"), ("0h1m5s", "65.0"), ("0.01h", "36.0"), ("1:05", "65.0"), ("0:00:07.5", "7.500"), ("0.5", "0.500")])
    func durations(text: String, seconds: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--duration", text, "--midi", "m.mid"], in: directory.path)
        #expect(result.status == 0 && result.stdout.hasPrefix("\(seconds) s of original"), "\(result)")
    }

    @Test("A duration that is not one: 64 saying what is accepted", arguments: ["5x", "nan", "1m2", "-3", "1:75"])
    func badDurations(text: String) async throws {
        let result = try await CLI.run(["run", "original", "--duration", text])
        #expect(result.status == 64 && result.stderr.hasPrefix("clumsy: error: --duration") && result.stderr.contains("5m"), "\(result)")
    }

    @Test("--bars runs whole bars at the preset's tempo and meter")
    func bars() async throws {
        // polska: 112 bpm in 3/4, so four bars are 4 × 3 × 60/112 s.
        let result = try await CLI.run(["run", "polska", "--bars", "4"])
        #expect(result.status == 0 && result.stdout.contains("6.429 s of polska"), "\(result)")
        let both = try await CLI.run(["run", "polska", "--bars", "4", "--duration", "3"])
        #expect(both.status == 64 && both.stderr.contains("give one"), "\(both)")
    }

    @Test("clumsy run polska --help shows polska's values; plain --help calls a filter that is off by default off")
    func helpShowsThePreset() async throws {
        let polska = try await CLI.run(["run", "polska", "--help"])
        #expect(polska.status == 0 && polska.stdout.contains("112 bpm in polska"), "\(polska.stdout)")
        let plain = try await CLI.run(["run", "--help"])
        #expect(plain.stdout.contains("default off; 1500 Hz when on"), "\(plain.stdout)")
    }

    @Test("clumsy presets show <name> prints the bundled file, to copy it")
    func showPreset() async throws {
        let shown = try await CLI.run(["presets", "show", "polska"])
        #expect(shown.status == 0 && shown.stdout.utf8.elementsEqual(bytes(of: projectRoot + "/Presets/polska.json") ?? []), "\(shown)")
        let missing = try await CLI.run(["presets", "show", "polka"])
        #expect(missing.status == 66 && missing.stderr.contains("did you mean polska?"), "\(missing)")
    }

    @Test("--set sets any preset field, checked as in a file: 64 naming the field and what is accepted")
    func setAnyField() async throws {
        let directory = try TemporaryDirectory()
        let set = try await CLI.run(["run", "original", "--duration", "5", "--set", "piano.count=8", "--set", "bass.tone=fretless-bass",
                               "--set", "second=true", "--midi", "set.mid"], in: directory.path)
        #expect(set.status == 0 && set.stdout.contains("second notes"), "\(set)")
        let plain = try await CLI.run(["run", "original", "--duration", "5", "--midi", "plain.mid"], in: directory.path)
        #expect(plain.status == 0 && bytes(of: directory.file("set.mid")) != bytes(of: directory.file("plain.mid")))
        let group = try await CLI.run(["run", "original", "--duration", "5", "--set", #"piano={"count":8}"#, "--set", "bass.tone=fretless-bass",
                                 "--set", "second=true", "--midi", "group.mid"], in: directory.path)
        #expect(group.status == 0 && bytes(of: directory.file("group.mid")) == bytes(of: directory.file("set.mid")), "\(group)")
        for (argument, words) in [("piano.cont=8", "did you mean piano.count?"), ("key.mode=dorian", "did you mean key.scale?"),
                                  (#"piano={"cont":8}"#, "did you mean count?"),
                                  ("piano.count=5000", "0…1000"), ("piano.count", "field=value")] {
            let bad = try await CLI.run(["run", "original", "--duration", "1", "--set", argument])
            #expect(bad.status == 64 && bad.stderr.hasPrefix("clumsy: error: --set") && bad.stderr.contains(words), "\(argument): \(bad)")
        }
    }

    @Test("--bass-tone and --melody-tone set the bass's and the melody's instruments as --set does; the melody off: 64 saying how (issue 47)")
    func voiceToneFlags() async throws {
        let directory = try TemporaryDirectory()
        let flags = try await CLI.run(["run", "default", "--duration", "3", "--bass-tone", "fretless-bass", "--melody-tone", "oboe",
                                       "--midi", "flags.mid"], in: directory.path)
        let set = try await CLI.run(["run", "default", "--duration", "3", "--set", "bass.tone=fretless-bass", "--set", "melody.tone=oboe",
                                     "--midi", "set.mid"], in: directory.path)
        #expect(flags.status == 0 && set.status == 0, "\(flags)\n\(set)")
        #expect(bytes(of: directory.file("flags.mid")) == bytes(of: directory.file("set.mid")))
        let chosen = try MIDIFileReader.read(path: directory.file("flags.mid")).tracks.flatMap { track in
            (0...15).flatMap { programs(track, channel: UInt8($0)) }
        }
        #expect(chosen.contains(35) && chosen.contains(68), "fretless bass is GM 36, oboe GM 69: \(chosen)")
        let off = try await CLI.run(["run", "original", "--duration", "1", "--melody-tone", "oboe"], in: directory.path)
        #expect(off.status == 64 && off.stderr.contains("--melody-tone needs the melody on") && off.stderr.contains("--set melody=true"), "\(off)")
        let wrong = try await CLI.run(["run", "default", "--duration", "1", "--bass-tone", "oboe"], in: directory.path)
        #expect(wrong.status == 64 && wrong.stderr.contains("fretless-bass"), "\(wrong)")
        // A scale a file names wrongly is answered with the names the docs use, never the code's camelCase.
        try #"{"key": {"tonic": "A", "scale": "harmonic minr"}}"#.write(toFile: directory.file("bad.json"), atomically: true, encoding: .utf8)
        let scale = try await CLI.run(["run", "bad.json", "--duration", "1"], in: directory.path)
        #expect(scale.status == 65 && scale.stderr.contains("harmonic minor") && !scale.stderr.contains("harmonicMinor,"), "\(scale)")
    }

    @Test("A live run's --set is in its log, and replay plays it again byte for byte",
          .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"))
    func setReplays() async throws {
        let directory = try TemporaryDirectory()
        let live = try await CLI.run(["run", "original", "--live", "--audio-driver", "file", "--audio", "live.wav", "--soundfont", smallSoundFont,
                                "--duration", "2", "--set", "piano.count=6", "--midi", "live.mid", "--events", "live.jsonl", "--quiet"],
                               in: directory.path, timeout: 30)
        try #require(live.status == 0, "\(live)")
        let log = String(decoding: bytes(of: directory.file("live.jsonl")) ?? [], as: UTF8.self)
        #expect(log.contains(#""--set","piano.count=6""#), "\(log.prefix(400))")
        let replay = try await CLI.run(["replay", "live.jsonl", "--midi", "again.mid", "--quiet"], in: directory.path)
        #expect(replay.status == 0 && bytes(of: directory.file("again.mid")) == bytes(of: directory.file("live.mid")), "\(replay)")
    }

    @Test("On a terminal a render shows elapsed time, speed and time left, then a line per mastering stage",
          .enabled(if: hasSmallSoundFont && FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs \(smallSoundFont) and script"))
    func progressOnATerminal() async throws {
        let directory = try TemporaryDirectory()
        // script(1) gives clumsy a terminal as its standard error.
        let command = "'\(CLI.executable)' run default --duration 20 --audio p.wav --soundfont '\(smallSoundFont)'"
        let result = try await CLI.run(["-qec", command, "/dev/null"], executable: "/usr/bin/script", in: directory.path, timeout: 120)
        #expect(result.status == 0, "\(result)")
        let screen = result.stdout
        #expect(screen.contains("elapsed") && screen.contains("× real time") && screen.contains(" left"), "\(screen.suffix(600))")
        #expect(screen.contains("rendering the sound's tail") && screen.contains("mastering, pass 1: gain"), "\(screen.suffix(600))")
        #expect(screen.contains("wrote p.wav"), "\(screen.suffix(300))")
    }

    @Test("A 10-minute --audio render and a --video show progress on a terminal; in a pipe, or with --quiet on a terminal, none (issue 47)",
          .enabled(if: hasSmallSoundFont && FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
                   && FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "needs \(smallSoundFont), script and ffmpeg"))
    func progressOnlyOnATerminal() async throws {
        let directory = try TemporaryDirectory()
        let clumsy = "'\(CLI.executable)'", font = "--soundfont '\(smallSoundFont)'"
        let long = try await CLI.run(["-qec", "\(clumsy) run ambient-drift --duration 10m --audio amb.flac \(font)", "/dev/null"],
                                     executable: "/usr/bin/script", in: directory.path, timeout: 600)
        #expect(long.status == 0, "\(long)")
        let shown = long.stdout.components(separatedBy: "\r").filter { $0.contains("simulating") && $0.contains("/ 600.0 s") }
        #expect(shown.count >= 10 && shown.contains { $0.contains(" left") }, "\(long.stdout.suffix(600))")
        let video = try await CLI.run(["-qec", "\(clumsy) run default --duration 3 --video v.mp4 \(font)", "/dev/null"],
                                      executable: "/usr/bin/script", in: directory.path, timeout: 300)
        #expect(video.status == 0 && video.stdout.contains("simulating 3.0 / 3.0 s  100%") && video.stdout.contains("finishing the video"),
                "\(video.stdout.suffix(600))")
        // Standard error a pipe (CLI.run's capture): the summary only, no line rewritten in place.
        let piped = try await CLI.run(["run", "ambient-drift", "--duration", "20", "--audio", "p.flac", "--soundfont", smallSoundFont], in: directory.path)
        #expect(piped.status == 0 && !piped.stderr.contains("simulating") && !piped.stderr.contains("\r"), "\(piped)")
        let quiet = try await CLI.run(["-qec", "\(clumsy) run ambient-drift --duration 20 --audio q.flac \(font) --quiet", "/dev/null"],
                                      executable: "/usr/bin/script", in: directory.path, timeout: 120)
        #expect(quiet.status == 0 && !quiet.stdout.contains("simulating") && !quiet.stdout.contains("mastering"), "\(quiet)")
    }

    @Test("clumsy presets fits a terminal's width (each line cut with …) and prints the descriptions whole in a pipe")
    func presetsFitTheTerminal() async throws {
        let clumsy = "'\(CLI.executable)'"
        for columns in [80, 132] {
            let shown = try await CLI.run(["-qec", "stty cols \(columns); \(clumsy) presets", "/dev/null"], executable: "/usr/bin/script", timeout: 60)
            let lines = shown.stdout.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            #expect(shown.status == 0 && lines.count >= 18, "\(shown)")
            #expect(lines.allSatisfy { $0.count <= columns }, "wider than \(columns): \(lines.filter { $0.count > columns })")
            #expect(lines.contains { $0.hasSuffix("…") }, "nothing cut at \(columns) columns: \(lines)")
        }
        // In a pipe: whole, the longest description included.
        let piped = try await CLI.run(["presets"])
        let descriptions = try FileManager.default.contentsOfDirectory(atPath: projectRoot + "/Presets").filter { $0.hasSuffix(".json") }.map { name in
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: projectRoot + "/Presets/" + name))) as? [String: Any]
            return object?["description"] as? String ?? ""
        }
        let longest = try #require(descriptions.max { $0.count < $1.count })
        #expect(longest.count > 200 && piped.stdout.contains(longest), "the longest description (\(longest.count) characters) is not whole in a pipe")
    }

    @Test("The live file driver never writes over its default clumsy-live.wav unasked, and the summary names it",
          .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"))
    func liveFileNamed() async throws {
        let directory = try TemporaryDirectory()
        let first = try await CLI.run(["run", "original", "--live", "--audio-driver", "file", "--duration", "1", "--soundfont", smallSoundFont], in: directory.path)
        #expect(first.status == 0 && first.stdout.contains("wrote clumsy-live.wav"), "\(first)")
        let kept = bytes(of: directory.file("clumsy-live.wav"))
        let again = try await CLI.run(["run", "original", "--live", "--audio-driver", "file", "--duration", "1", "--soundfont", smallSoundFont], in: directory.path)
        #expect(again.status == 64 && again.stderr.contains("name the output with --audio"), "\(again)")
        #expect(bytes(of: directory.file("clumsy-live.wav")) == kept)
    }

    @Test("roll of a JSON Lines file that is not an event log says so, not 'no notes to draw'")
    func rollOfOtherJSON() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("other.jsonl", "{\"a\": 1}\n{\"b\": [2]}\n")
        let result = try await CLI.run(["roll", "other.jsonl", "-o", "r.png"], in: directory.path)
        #expect(result.status == 65 && result.stderr.contains("not an event log") && result.stderr.contains("clumsy run --events"), "\(result)")
        #expect(!fileExists(directory.file("r.png")))
    }

    @Test("--live on a terminal shows a status line: time, bar:beat, chord, key, notes per second, CPU",
          .enabled(if: hasSmallSoundFont && FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs \(smallSoundFont) and script"))
    func liveStatusLine() async throws {
        let directory = try TemporaryDirectory()
        let command = "'\(CLI.executable)' run pulse --live --audio-driver file --audio l.wav --duration 3 --soundfont '\(smallSoundFont)'"
        let result = try await CLI.run(["-qec", command, "/dev/null"], executable: "/usr/bin/script", in: directory.path, timeout: 60)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.components(separatedBy: "\r").filter { $0.contains("live 0:0") }
        #expect(lines.count >= 4, "\(result.stdout.suffix(500))")
        #expect(lines.contains { $0.contains("bar 2:") && $0.contains("in A dorian") && $0.contains("notes/s") && $0.contains("CPU") },
                "\(lines)")
    }
}
