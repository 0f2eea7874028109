// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Testing
#if canImport(Glibc)
import Glibc
#endif

// Scenes: a preset's live controls at bar lines, applied and logged as OSC's are, and replayed
// from the log alone.

/// A preset at 120 bpm in 4/4 (a bar is 2 s, 480 steps) with three scenes.
private let scenePreset = """
    { "seed": 3, "tempo": 120,
      "scenes": [ {"bar": 3, "gravity": 4, "key": {"tonic": "Eb", "scale": "dorian"}},
                  {"bar": 5, "tempo": 90, "drop": true, "level": {"keys": 90}},
                  {"bar": 7, "kick": true, "speed": 2} ] }
    """

/// Pitch classes of a scale on a tonic (0 = C): major's modes by their steps.
private func scale(_ tonic: Int, _ steps: [Int]) -> Set<Int> { Set(steps.map { (tonic + $0) % 12 }) }
private let dorian = [0, 2, 3, 5, 7, 9, 10], lydian = [0, 2, 4, 6, 7, 9, 11]
private let minor = [0, 2, 3, 5, 7, 8, 10], mixolydian = [0, 2, 4, 5, 7, 9, 10]

@Suite("Scenes: live controls at bar lines", .serialized)
struct ScenesTests {
    @Test("Scenes take effect at the first step of their bar line (after a tempo change too), logged as controls; same seed, same bytes")
    func scenesApplyAtTheirBars() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("scenes.json", scenePreset)
        try directory.write("plain.json", "{ \"seed\": 3, \"tempo\": 120 }")
        var runs: [RunResult] = []
        for name in ["a", "b"] {
            runs.append(try await CLI.run(["run", "scenes.json", "--duration", "16", "--midi", "\(name).mid", "--events", "\(name).jsonl", "--quiet"],
                                    in: directory.path))
        }
        runs.append(try await CLI.run(["run", "plain.json", "--duration", "16", "--events", "plain.jsonl", "--quiet"], in: directory.path))
        for run in runs { try #require(run.status == 0, "\(run)") }
        #expect(bytes(of: directory.file("a.mid")) == bytes(of: directory.file("b.mid")), "same seed, different MIDI")
        #expect(bytes(of: directory.file("a.jsonl")) == bytes(of: directory.file("b.jsonl")), "same seed, different event log")

        let log = try readEventLog(directory.file("a.jsonl"))
        let controls = log.filter { $0.kind == "control" }
        // Bar 3 at 4 s, bar 5 at 8 s; then 90 bpm: bar 7 at 8 + 2 × 8/3 s = 13.333 s (step 3200).
        #expect(controls.map(\.step) == [960, 960, 1920, 1920, 1920, 3200, 3200], "\(controls)")
        #expect(controls.map(\.control) == ["gravity", "key", "drop", "tempo", "level", "speed", "kick"], "\(controls)")
        #expect(controls[4].voice == "keys" && controls[4].value == 90, "\(controls[4])")
        #expect(controls.allSatisfy { abs(Double($0.step ?? -1) / 240 - $0.t) < 1e-6 }, "\(controls)")
        #expect(controls[1].tonic == "Eb" && controls[1].mode == "dorian" && controls[0].value == 4 && controls[3].value == 90)
        #expect(log.filter { $0.kind == "drop" && $0.t == 8 }.count == 4, "the drop scene drops the four piano balls at 8 s")
        #expect(log.contains { $0.kind == "kick" && abs($0.t - 40.0 / 3) < 1e-6 }, "no kick at the bar-7 scene")
        // The level scene: CC7 90 on every keys channel (2–5) at 8 s (16 quarters of 960 ticks).
        let keysTrack = try MIDIFileReader.read(path: directory.file("a.mid")).tracks[2]
        let volumes = keysTrack.compactMap { event -> String? in
            guard case .controlChange(let channel, 7, let value) = event.message else { return nil }
            return "\(event.tick):\(channel):\(value)"
        }
        #expect(volumes == ["0:1:127", "0:2:127", "0:3:127", "0:4:127", "15360:1:90", "15360:2:90", "15360:3:90", "15360:4:90"], "\(volumes)")

        // The chords are C major's until the key scene, E♭ dorian's from it; so are the notes.
        let chords = log.filter { $0.kind == "chord" }
        #expect(chords.filter { $0.t < 4 }.allSatisfy { $0.tonic == "C" && $0.mode == "major" }, "\(chords)")
        #expect(chords.contains { $0.t == 4 && $0.tonic == "Eb" }, "no chord announced at the key scene: \(chords)")
        #expect(chords.filter { $0.t >= 4 }.allSatisfy { $0.tonic == "Eb" && $0.mode == "dorian" }, "\(chords)")
        let notesAfter = log.filter { ($0.kind == "bass" || $0.kind == "key") && $0.t > 4 }.compactMap(\.note)
        #expect(notesAfter.count > 10 && notesAfter.allSatisfy { scale(3, dorian).contains($0 % 12) }, "\(notesAfter)")

        // Before the first scene the session is the one without scenes, line for line.
        let plain = try readEventLog(directory.file("plain.jsonl"))
        let before = { (events: [LogEvent]) in events.dropFirst().filter { $0.t < 4 }.map(\.line) }
        #expect(!before(log).isEmpty && before(log) == before(plain), "the scenes changed what came before them")
        #expect(plain.allSatisfy { $0.kind != "control" })
    }

    @Test("A section's bar counts the form's bars (polska-aabb: 16 bars of 400 steps), set with --set")
    func sectionBar() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "polska-aabb", "--set", "scenes=[{\"section\":2,\"bar\":2,\"gravity\":5}]", "--duration", "40",
                                  "--events", "p.jsonl", "--quiet"], in: directory.path)
        try #require(result.status == 0, "\(result)")
        let controls = try readEventLog(directory.file("p.jsonl")).filter { $0.kind == "control" }
        #expect(controls.map(\.step) == [6800] && controls.first?.value == 5, "\(controls)")
    }

    @Test("Bad scenes: run exits 65 naming the file and scenes[i].field; validate lists every bad entry")
    func badScenesRefused() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("bad.json", """
            { "scenes": [ {"bar": 0, "gravity": 400}, {"gravity": 3}, {"bar": 2},
                          {"bar": 2, "key": {"tonic": "H", "scale": "doric"}, "kik": true}, {"bar": 2, "tempo": "fast"},
                          {"bar": 2, "level": {"keys": 128}} ] }
            """)
        let run = try await CLI.run(["run", "bad.json", "--duration", "2"], in: directory.path)
        #expect(run.status == 65 && run.stderr.contains("bad.json") && run.stderr.contains("scenes[0].bar") && run.stderr.contains("1…100000"), "\(run)")
        let validate = try await CLI.run(["validate", "bad.json"], in: directory.path)
        #expect(validate.status == 65, "\(validate)")
        let lines = validate.stderr.split(separator: "\n").map(String.init)
        for (field, accepted) in [("scenes[0].bar", "1…100000"), ("scenes[0].gravity", "0…100 m/s²"), ("scenes[1].bar", "\"section\""),
                                  ("scenes[2]:", "gravity, speed, kick, drop, tempo, key"), ("scenes[3].kik", "did you mean kick"),
                                  ("scenes[3].key.tonic", "C#/Db"), ("scenes[3].key.scale", "dorian"), ("scenes[4].tempo", "20…400 bpm"),
                                  ("scenes[5].level.keys", "0…127")] {
            #expect(lines.filter { $0.contains("bad.json: " + field) && $0.contains(accepted) }.count == 1, "\(field): \(validate.stderr)")
        }
        #expect(lines.count == 9, "\(validate.stderr)")

        // What only the whole session shows: a section without a form, a key it cannot play.
        try directory.write("session.json", """
            { "scenes": [ {"section": 2, "tempo": 60}, {"bar": 3, "key": {"tonic": "A", "scale": "minor pentatonic"}},
                          {"bar": 4, "level": {"keys": 50, "drums": 90}} ] }
            """)
        let whole = try await CLI.run(["validate", "session.json"], in: directory.path)
        #expect(whole.status == 65 && whole.stderr.split(separator: "\n").count == 3, "\(whole)")
        #expect(whole.stderr.contains("session.json: scenes[2].level.drums: this session has no voice \"drums\"; its voices: bass, keys"), "\(whole)")
        #expect(whole.stderr.contains("session.json: scenes[0].section") && whole.stderr.contains("no form"), "\(whole)")
        #expect(whole.stderr.contains("session.json: scenes[1].key") && whole.stderr.contains("no degree 2 or 6"), "\(whole)")
        let refused = try await CLI.run(["run", "session.json", "--duration", "2", "--midi", "x.mid"], in: directory.path)
        #expect(refused.status == 65 && refused.stderr.contains("scenes[0].section") && !fileExists(directory.file("x.mid")), "\(refused)")
    }

    @Test("A replay takes the scenes from its log only: none when the log has none, once when it has them")
    func replayOwnsTheScenesOfItsLog() async throws {
        let directory = try TemporaryDirectory()
        let preset = try directory.write("scenes.json", scenePreset)
        let run = try await CLI.run(["run", "scenes.json", "--duration", "16", "--midi", "run.mid", "--events", "run.jsonl", "--quiet"], in: directory.path)
        try #require(run.status == 0, "\(run)")
        let session = "{\"t\":0.000000,\"kind\":\"session\",\"clumsy\":\"0.1.0\",\"preset\":\"scenes\",\"seed\":\"3\",\"timestep\":0.004166666666666667,\"arguments\":[\"\(preset)\"]}\n"
        let end = "{\"t\":16.000000,\"kind\":\"end\",\"step\":3840}\n"
        // The run's own control lines: the replay plays each once, so the notes are the run's.
        let controlLines = try readEventLog(directory.file("run.jsonl")).filter { $0.kind == "control" }.map { $0.line + "\n" }
        try #require(controlLines.count == 7)
        try directory.write("with.jsonl", session + controlLines.joined() + end)
        try directory.write("without.jsonl", session + end)
        for name in ["with", "without"] {
            let replay = try await CLI.run(["replay", "\(name).jsonl", "--midi", "\(name).mid", "--events", "\(name)-replayed.jsonl", "--quiet"], in: directory.path)
            try #require(replay.status == 0, "\(replay)")
        }
        #expect(bytes(of: directory.file("with.mid")) == bytes(of: directory.file("run.mid")), "a replay of the scenes' controls is not the run")
        let with = try readEventLog(directory.file("with-replayed.jsonl")).filter { $0.kind == "control" }.map { $0.line + "\n" }
        #expect(with == controlLines, "the replay applied the scenes again, or not at all: \(with)")
        let without = try readEventLog(directory.file("without-replayed.jsonl"))
        #expect(without.allSatisfy { $0.kind != "control" }, "the replay played the preset's scenes besides its log's")
        #expect(bytes(of: directory.file("without.mid")) != bytes(of: directory.file("run.mid")))
    }
}

@Suite("Scenes: the ambient-drift preset, and a live set with scenes and OSC", .serialized)
struct SceneSessionTests {
    @Test("ambient-drift, 600 s: key and gravity change every two minutes at the scene bars; the chord markers analyze reads show them")
    func ambientDrift() async throws {
        let directory = try TemporaryDirectory()
        let run = try await CLI.run(["run", "ambient-drift", "--duration", "600", "--midi", "a.mid", "--events", "a.jsonl", "--quiet"],
                              in: directory.path, timeout: 120)
        try #require(run.status == 0, "\(run)")
        let log = try readEventLog(directory.file("a.jsonl"))
        // 60 bpm in 4/4: bar 31 is at 120 s (step 28800), and so on every 30 bars.
        let sceneTimes = [120.0, 240, 360, 480]
        let controls = log.filter { $0.kind == "control" }
        let keys = controls.filter { $0.control == "key" }, gravities = controls.filter { $0.control == "gravity" }
        #expect(keys.map(\.t) == sceneTimes && gravities.map(\.t) == sceneTimes, "\(controls)")
        #expect(keys.map(\.step) == [28800, 57600, 86400, 115200])
        #expect(keys.map { "\($0.tonic ?? "") \($0.mode ?? "")" } == ["Bb lydian", "C minor", "F mixolydian", "D dorian"])
        #expect(gravities.map(\.value) == [1.2, 4, 1.62, 3])

        // Each two minutes, chords and notes in their key (pitch classes of the scale).
        let spans: [(from: Double, tonic: String, mode: String, scale: Set<Int>)] = [
            (0, "D", "dorian", scale(2, dorian)), (120, "Bb", "lydian", scale(10, lydian)), (240, "C", "minor", scale(0, minor)),
            (360, "F", "mixolydian", scale(5, mixolydian)), (480, "D", "dorian", scale(2, dorian))]
        let chords = log.filter { $0.kind == "chord" }
        for (index, span) in spans.enumerated() {
            let to = index + 1 < spans.count ? spans[index + 1].from : 601
            let inSpan = chords.filter { $0.t >= span.from && $0.t < to }
            #expect(inSpan.first?.t == span.from, "no chord announced at \(span.from) s")
            #expect(inSpan.count > 5 && inSpan.allSatisfy { $0.tonic == span.tonic && $0.mode == span.mode }, "\(span.tonic) \(span.mode): \(inSpan.map(\.name))")
            let notes = log.filter { ($0.kind == "bass" || $0.kind == "key") && $0.t > span.from && $0.t < to }.compactMap(\.note)
            #expect(notes.count > 100 && notes.allSatisfy { span.scale.contains($0 % 12) }, "\(span.tonic) \(span.mode): notes outside the scale")
        }

        // analyze reads the MIDI file's chord markers: the same chords at the same times, the
        // key scenes' chords among them.
        let analyze = try await CLI.run(["analyze", "a.mid", "--json"], in: directory.path, timeout: 60)
        try #require(analyze.status == 0, "\(analyze)")
        let json = try JSONSerialization.jsonObject(with: Data(analyze.stdout.utf8)) as? [String: Any]
        let marks = try #require(json?["markedChords"] as? [[String: Any]], "no markedChords: \(analyze.stdout.prefix(300))")
        #expect(marks.count == chords.count, "\(marks.count) markers, \(chords.count) chords in the log")
        for time in sceneTimes {
            let logged = try #require(chords.first { $0.t == time }, "no chord at \(time) s")
            let marked = marks.first { abs(($0["start"] as? Double ?? -1) - time) < 0.001 }
            #expect(marked?["symbol"] as? String == logged.name, "at \(time) s: marker \(String(describing: marked)), log \(logged.name ?? "")")
        }
    }

    @Test("A live set with scenes and OSC controls replays byte-identically (MIDI and event log), each scene once",
          .enabled(if: oscsend != nil && hasSmallSoundFont, "needs liblo-tools (oscsend) and \(smallSoundFont)"))
    func liveSetWithScenesReplays() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("scenes.json", scenePreset)
        let port = 41_100 + Int(getpid() % 20_000)
        let live = try await CLI.run(["run", "scenes.json", "--live", "--audio-driver", "file", "--audio", "live.wav", "--soundfont", smallSoundFont,
                                "--osc-in", "\(port)", "--duration", "14", "--midi", "live.mid", "--events", "live.jsonl", "--quiet"],
                               in: directory.path, timeout: 40) { _ in
            // Between the bar-3 scene (4 s) and the bar-5 one (8 s): 4.5 s from the first live
            // audio the file driver writes (the session is playing), not from the launch, which
            // a busy machine can take seconds to get through. On a thread of its own: a watcher
            // awaiting a busy pool could send them after 8 s, or after the 14 s set.
            await onOwnThread {
                blockUntil(timeout: 20) { hasNonEmptyEntry(withPrefix: ".live.wav", in: directory.path) }
                sleepThread(4.5)
                for arguments in [["/clumsy/gravity", "f", "6"], ["/clumsy/key", "ss", "G", "mixolydian"], ["/clumsy/drop"],
                                  ["/clumsy/level", "si", "bass", "50"]] {
                    runToEnd(oscsend!, ["127.0.0.1", "\(port)"] + arguments, timeout: 5)
                }
            }
        }
        try #require(live.status == 0 && !live.signalled, "\(live)")
        let log = try readEventLog(directory.file("live.jsonl"))
        let controls = log.filter { $0.kind == "control" }
        let scenes = controls.filter { [960, 1920, 3200].contains($0.step ?? -1) }
        let osc = controls.filter { ![960, 1920, 3200].contains($0.step ?? -1) }
        #expect(scenes.map(\.control) == ["gravity", "key", "drop", "tempo", "level", "speed", "kick"], "\(controls)")
        #expect(osc.map(\.control) == ["gravity", "key", "drop", "level"] && osc.allSatisfy { $0.t > 4 && $0.t < 8 }, "OSC controls: \(osc)")
        #expect(osc.last?.voice == "bass" && osc.last?.value == 50, "\(osc)")
        #expect(controls.filter { $0.control == "key" && $0.tonic == "G" }.first.map { key in
            log.filter { $0.kind == "chord" && $0.t >= key.t && $0.t < 8 }.allSatisfy { $0.tonic == "G" } } == true)

        let replay = try await CLI.run(["replay", "live.jsonl", "--midi", "replay.mid", "--events", "replay.jsonl", "--quiet"], in: directory.path)
        try #require(replay.status == 0, "\(replay)")
        #expect(bytes(of: directory.file("replay.mid")) == bytes(of: directory.file("live.mid")), "replayed MIDI differs from the live set's")
        #expect(bytes(of: directory.file("replay.jsonl")) == bytes(of: directory.file("live.jsonl")), "replayed event log differs from the live set's")
    }
}
