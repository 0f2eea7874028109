// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// Preset and flag values that used to be accepted wrongly (issue 8, item 10): seeds beyond
/// 2^53, fractional sample rates, empty SoundFont paths, relative SoundFonts, trapped bass balls.
@Suite("Settings checks")
struct SettingsTests {
    @Test("A preset seed up to 2^64−1 is used exactly: the same session as --seed with that number")
    func exactSeeds() async throws {
        let directory = try TemporaryDirectory()
        for seed in ["18446744073709551615", "9007199254740993"] {
            let preset = try directory.write("s\(seed).json", "{\"seed\": \(seed)}")
            let fromPreset = try await CLI.run(["run", preset, "--duration", "5", "--events", "p\(seed).jsonl"], in: directory.path)
            #expect(fromPreset.status == 0, "\(fromPreset)")
            #expect(fromPreset.stdout.contains("(seed \(seed),"), "\(fromPreset.stdout)")
            let fromFlag = try await CLI.run(["run", "./s\(seed).json", "--seed", seed, "--duration", "5", "--events", "f\(seed).jsonl"],
                                       in: directory.path)
            #expect(fromFlag.status == 0, "\(fromFlag)")
            #expect(bytes(of: directory.file("p\(seed).jsonl")) == bytes(of: directory.file("f\(seed).jsonl")))
        }
        // 2^53 + 1 and 2^53 are different seeds (a Double would make them one).
        _ = try directory.write("a.json", #"{"seed": 9007199254740992}"#)
        let a = try await CLI.run(["run", "./a.json", "--duration", "20", "--events", "a.jsonl"], in: directory.path)
        #expect(a.status == 0, "\(a)")
        #expect(bytes(of: directory.file("a.jsonl")) != bytes(of: directory.file("p9007199254740993.jsonl")))
    }

    @Test("A seed that is not a whole number 0…2^64−1 is refused with 65, naming the field",
          arguments: ["18446744073709551616", "1e19", "-1", "2.5", "\"7\""])
    func badSeeds(_ seed: String) async throws {
        let directory = try TemporaryDirectory()
        let preset = try directory.write("s.json", "{\"seed\": \(seed)}")
        let result = try await CLI.run(["run", preset, "--duration", "1", "--events", "e.jsonl"], in: directory.path)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("seed") && result.stderr.contains("18446744073709551615"), "\(result.stderr)")
        #expect(!fileExists(directory.file("e.jsonl")))
    }

    @Test("--sample-rate takes whole numbers only", arguments: ["44100.5", "22050.0", "4e4", "nan"])
    func fractionalSampleRate(_ rate: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--duration", "1", "--audio", "a.wav", "--sample-rate", rate], in: directory.path)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--sample-rate") && result.stderr.contains("8000…96000"), "\(result.stderr)")
        #expect(directory.entries().isEmpty, "files left behind: \(directory.entries())")
    }

    @Test("--soundfont '' is refused (64), and so is \"soundFont\": \"\" in a preset (65)")
    func emptySoundFont() async throws {
        let directory = try TemporaryDirectory()
        let flag = try await CLI.run(["run", "original", "--duration", "1", "--audio", "a.wav", "--soundfont", ""], in: directory.path)
        #expect(flag.status == 64 && flag.stderr.contains("--soundfont"), "\(flag)")
        let preset = try directory.write("p.json", #"{"sound": {"soundFont": ""}}"#)
        let field = try await CLI.run(["run", preset, "--duration", "1", "--audio", "a.wav"], in: directory.path)
        #expect(field.status == 65 && field.stderr.contains("sound.soundFont"), "\(field)")
        #expect(!fileExists(directory.file("a.wav")))
    }

    @Test("A relative soundFont is found beside the preset file, whatever the working directory",
          .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"))
    func relativeSoundFont() async throws {
        let presets = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: presets.file("fonts"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: presets.file("fonts/small.sf2"), withDestinationPath: smallSoundFont)
        let good = try presets.write("good.json", #"{"sound": {"soundFont": "fonts/small.sf2"}}"#)
        let missing = try presets.write("missing.json", #"{"sound": {"soundFont": "fonts/none.sf2"}}"#)
        let elsewhere = try TemporaryDirectory()
        let result = try await CLI.run(["run", good, "--duration", "1", "--audio", "a.wav", "--quiet"],
                                 environment: ["CLUMSY_SOUNDFONT": nil], in: elsewhere.path)
        #expect(result.status == 0, "\(result)")
        #expect(fileExists(elsewhere.file("a.wav")))
        let failed = try await CLI.run(["run", missing, "--duration", "1", "--audio", "b.wav"],
                                 environment: ["CLUMSY_SOUNDFONT": nil], in: elsewhere.path)
        #expect(failed.status == 66 && failed.stderr.contains(presets.file("fonts/none.sf2")), "\(failed)")
    }

    @Test("A bass ball too big to pass between the original layout's bouncers is refused (65); one that fits runs")
    func trappedBassBall() async throws {
        let directory = try TemporaryDirectory()
        let trapped = try directory.write("trap.json", #"{"bass": {"radius": 0.6, "bouncerRadius": 0.8}}"#)
        let result = try await CLI.run(["run", trapped, "--duration", "1", "--events", "e.jsonl"], in: directory.path)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("bass.radius") && result.stderr.contains("degree 6, 7"), "\(result.stderr)")
        #expect(!fileExists(directory.file("e.jsonl")))
        // Just fits between bouncer I and the edge bouncers IV and V (2 × (0.35 + 0.5) m < 1.707 m).
        let fits = try directory.write("fits.json", #"{"bass": {"radius": 0.35, "bouncerRadius": 0.5}}"#)
        let ran = try await CLI.run(["run", fits, "--duration", "60", "--events", "f.jsonl"], in: directory.path, timeout: 120)
        #expect(ran.status == 0, "\(ran)")
        let degrees = Set(try readEventLog(directory.file("f.jsonl")).filter { $0.kind == "bass" }.compactMap(\.degree))
        #expect(degrees.count >= 5, "a ball that fits reaches most bouncers in 60 s; it reached \(degrees.sorted())")
    }

    @Test("Piano radius: below 0.04 m is refused; 1000 balls at 0.04 m that pass through each other never escape")
    func smallestPianoBalls() async throws {
        let directory = try TemporaryDirectory()
        // 1000 non-colliding balls escaped 14–18 times per 10 s at 0.02 m and 9.81 m/s², 37–69 at
        // 100 m/s²; at 0.03 m once in 10 s (seed 3, 100 m/s²); at 0.04 m never (seeds 1–6).
        let tiny = try directory.write("tiny.json", #"{"piano": {"count": 1000, "radius": 0.03, "collide": false}}"#)
        let refused = try await CLI.run(["run", tiny, "--duration", "1", "--events", "t.jsonl"], in: directory.path)
        #expect(refused.status == 65 && refused.stderr.contains("piano.radius") && refused.stderr.contains("0.04…0.5"), "\(refused)")
        let smallest = try directory.write("smallest.json", #"{"piano": {"count": 1000, "radius": 0.04, "collide": false}}"#)
        for gravity in ["9.81", "100"] {
            let result = try await CLI.run(["run", smallest, "--duration", "3", "--gravity", gravity, "--events", "e\(gravity).jsonl"],
                                     in: directory.path, timeout: 240)
            #expect(result.status == 0, "\(result)")
            let events = try readEventLog(directory.file("e\(gravity).jsonl"))
            #expect(events.filter { $0.kind == "key" }.count > 1000, "the balls reached the keys")
            #expect(events.filter { $0.kind == "escape" }.isEmpty, "balls escaped at \(gravity) m/s²: \(result.stdout)")
        }
    }
}
