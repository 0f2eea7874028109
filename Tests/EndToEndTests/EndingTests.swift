// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// A beginning and an end: `form.intro` and `form.ending` (docs/form.md).
@Suite("Ending", .serialized) struct EndingTests {
    /// What mido reads of a session's MIDI file: its ticks per quarter and meter, the last
    /// note-on and note-off of any track, the last tick of any event that is not end-of-track,
    /// and the notes of the Bass track struck at its last note-on's tick.
    static let endScript = """
    import sys, json, mido
    mid = mido.MidiFile(sys.argv[1], charset="utf-8")
    meter = next(((m.numerator, m.denominator) for t in mid.tracks for m in t if m.type == "time_signature"), (4, 4))
    last_on = last_off = last_event = -1
    bass = {}
    for track in mid.tracks:
        name = next((m.name for m in track if m.type == "track_name"), None)
        tick = 0
        for m in track:
            tick += m.time
            if m.type == "end_of_track":
                continue
            last_event = max(last_event, tick)
            if m.type == "note_on" and m.velocity > 0:
                last_on = max(last_on, tick)
                if name == "Bass":
                    bass.setdefault(tick, []).append(m.note)
            elif m.type == "note_off" or m.type == "note_on":
                last_off = max(last_off, tick)
    last_bass = max(bass) if bass else -1
    print(json.dumps({"ticksPerBeat": mid.ticks_per_beat, "numerator": meter[0], "denominator": meter[1],
                      "lastOn": last_on, "lastOff": last_off, "lastEvent": last_event,
                      "lastBassTick": last_bass, "lastBassNotes": bass.get(last_bass, [])}))
    """

    struct End: Decodable {
        var ticksPerBeat: Int
        var numerator: Int
        var denominator: Int
        var lastOn: Int
        var lastOff: Int
        var lastEvent: Int
        var lastBassTick: Int
        var lastBassNotes: [Int]
        var barTicks: Int { ticksPerBeat * 4 * numerator / denominator }
    }

    static func end(of midi: String) throws -> End {
        let result = try Mido.python(["-c", endScript, midi])
        guard result.status == 0 else { throw Mido.Failed(output: result.output) }
        return try JSONDecoder().decode(End.self, from: Data(result.output.utf8))
    }

    /// A bundled preset's `form` block and its tempo, key tonic and meter, read from its file.
    struct Form {
        var name: String
        var bars: Int
        var ending: Double
        var tempo: Double
        var tonic: String
        var beats: Int

        /// Seconds of a bar (the bundled presets' meters are all in quarters).
        var barSeconds: Double { Double(beats) * 60 / tempo }
    }

    static func bundledFormsWithAnEnding() -> [Form] {
        bundledPresetFiles().compactMap { path -> Form? in
            guard let data = FileManager.default.contents(atPath: path),
                  let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let form = json["form"] as? [String: Any], let ending = form["ending"] as? Double, ending > 0 else { return nil }
            let meter = (json["meter"] as? String) ?? "4/4"
            return Form(name: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent,
                        bars: form["bars"] as? Int ?? 8, ending: ending, tempo: json["tempo"] as? Double ?? 120,
                        tonic: (json["key"] as? [String: Any])?["tonic"] as? String ?? "C",
                        beats: Int(meter.split(separator: "/")[0]) ?? 4)
        }
    }

    @Test("The bundled presets with an ending include the ballad and the polska")
    func bundledEndings() {
        let names = Self.bundledFormsWithAnEnding().map(\.name)
        #expect(names.contains("ballad-aaba") && names.contains("polska-aabb"), "\(names)")
    }

    @Test("Every bundled preset with an ending ends on the tonic at a phrase's end, its last note-off last",
          .enabled(if: Mido.isAvailable, "needs python3 with mido"), arguments: bundledFormsWithAnEnding().map(\.name))
    func endsOnTheTonicAtAPhraseBoundary(_ name: String) async throws {
        let form = try #require(Self.bundledFormsWithAnEnding().first { $0.name == name })
        let directory = try TemporaryDirectory()
        let midi = directory.file("end.mid"), log = directory.file("end.jsonl")
        // 50 s is no phrase's end in either preset: the session goes on to the next one.
        let result = try await CLI.run(["run", name, "--duration", "50", "--seed", "3", "--midi", midi, "--events", log])
        #expect(result.status == 0, "\(result)")
        let phrase = Double(form.bars) * form.barSeconds
        let bars = Int((50 / phrase).rounded(.up)) * form.bars
        let endTime = Double(bars) * form.barSeconds
        let said = "ended at bar \(bars), the end of a phrase, on "
        #expect(result.stdout.contains(said + "I (") || result.stdout.contains(said + "i ("), "\(result.stdout)")

        let end = try Self.end(of: midi)
        let endTick = bars * end.barTicks   // a phrase end: `bars` is a whole number of phrases
        #expect(end.lastOn <= endTick && end.lastOn > endTick - end.barTicks, "last note-on at tick \(end.lastOn), the end at \(endTick)")
        let ringTicks = Int((form.ending * form.tempo / 60 * Double(end.ticksPerBeat)).rounded())
        #expect(end.lastOff == endTick + ringTicks, "the notes sounding at the end ring \(form.ending) s")
        #expect(end.lastEvent == end.lastOff, "the last note-off is the last event (\(end.lastEvent) vs \(end.lastOff))")

        let events = try readEventLog(log)
        #expect(events.allSatisfy { $0.t <= endTime + 1e-6 }, "nothing after the phrase's end")
        let chord = try #require(events.last { $0.kind == "chord" })
        #expect(chord.degree == 1 && chord.tonic == form.tonic, "the last chord: \(chord.line)")
        // The last bar: I's root at its bar line, and every bass note I's root.
        let lastBar = endTime - form.barSeconds
        let tonicRoot = events.first { $0.kind == "bass" }!.note! % 12   // the opening tonic
        let lastBass = events.filter { $0.kind == "bass" && $0.t >= lastBar - 1e-6 }
        let roots = lastBass.filter { abs($0.t - lastBar) < 1e-6 }
        #expect(roots.count == 1 && roots.first?.speed == 0, "I's root at the last bar line, once, no bouncer struck: \(lastBass.map(\.line))")
        #expect(!lastBass.isEmpty && lastBass.allSatisfy { $0.note! % 12 == tonicRoot && $0.degree == 1 }, "\(lastBass.map(\.line))")
        #expect(end.lastBassNotes.allSatisfy { $0 % 12 == tonicRoot }, "the bass's last notes: \(end.lastBassNotes)")
    }

    func run(_ arguments: [String], in directory: TemporaryDirectory, name: String = "s") async throws -> (log: [LogEvent], midi: [UInt8], text: String) {
        let log = directory.file(name + ".jsonl"), midi = directory.file(name + ".mid")
        let result = try await CLI.run(["run"] + arguments + ["--seed", "3", "--events", log, "--midi", midi])
        #expect(result.status == 0, "\(result)")
        return (try readEventLog(log), bytes(of: midi) ?? [], result.stdout)
    }

    @Test("--duration is \"at least\": a duration on a phrase's end is kept, another goes on to the next")
    func durationIsAtLeast() async throws {
        let directory = try TemporaryDirectory()
        // polska-aabb in two-bar phrases: 10/3 s each.
        let short = ["polska-aabb", "--set", "form.bars=2", "--set", "form.ending=1"]
        let onTheLine = try await run(short + ["--bars", "6"], in: directory, name: "a")
        let text = try await CLI.run(["run"] + short + ["--bars", "6"])
        #expect(text.stdout.contains("ending      → i      D2"), "the text view names the ending's root: \(text.stdout.suffix(600))")
        #expect(onTheLine.text.hasPrefix("11.0 s of") && onTheLine.text.contains("ended at bar 6, the end of a phrase"), "\(onTheLine.text)")
        let after = try await run(short + ["--duration", "10.1"], in: directory, name: "b")
        #expect(after.text.hasPrefix("14.3 s of") && after.text.contains("ended at bar 8,"), "\(after.text)")
        // Sessions without an ending stop where the duration cuts them.
        let none = try await run(["polska-aabb", "--set", "form.bars=2", "--set", "form.ending=0", "--duration", "10.1"], in: directory, name: "c")
        #expect(none.text.hasPrefix("10.1 s of") && !none.text.contains("ended at"), "\(none.text)")
        #expect(none.log.allSatisfy { $0.t <= 10.1 + 1e-6 })
    }

    @Test("An ending is the same bytes for the same seed, and leaves everything before its last bar as it was")
    func endingIsDeterministicAndOnlyTouchesTheEnd() async throws {
        let directory = try TemporaryDirectory()
        // Without cadences, so that only the ending brings I at the end.
        let args = ["ballad-aaba", "--set", "form.bars=4", "--set", "form.cadence=false", "--duration", "20", "--quiet"]
        let one = try await run(args, in: directory, name: "one"), two = try await run(args, in: directory, name: "two")
        #expect(one.midi == two.midi && one.log.map(\.line) == two.log.map(\.line))
        // Without the ending, the same 20 s (a phrase's end): identical up to one beat before the last bar.
        let plain = try await run(["ballad-aaba", "--set", "form.bars=4", "--set", "form.cadence=false", "--set", "form.ending=0",
                             "--duration", "20", "--quiet"],
                            in: directory, name: "plain")
        let homeFrom = 20 - 2.5 - 60 / 72.0
        let before = { (log: [LogEvent]) in log.filter { ($0.hit ?? $0.t) < homeFrom - 1e-6 && $0.t < homeFrom - 1e-6 }.map(\.line) }
        let (ended, cut) = (before(one.log), before(plain.log))
        #expect(ended.count > 20)
        #expect(ended == cut, "first difference: \(zip(ended, cut).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "in length")")
        #expect(one.log.last { $0.kind == "chord" }?.degree == 1 && plain.log.last { $0.kind == "chord" }?.degree != 1,
                "the ending, not the seed, brings I (\(plain.log.last { $0.kind == "chord" }?.line ?? "none"))")
    }

    @Test("one-by-one: piano ball n is first heard in bar n + 1; the bass from the start, the physics unchanged")
    func oneByOne() async throws {
        let directory = try TemporaryDirectory()
        let bar = 2.5   // ballad-aaba: 3/4 at 72 bpm
        let intro = try await run(["ballad-aaba", "--duration", "40", "--quiet", "--set", "form.intro=one-by-one"], in: directory, name: "intro")
        let keys = intro.log.filter { $0.kind == "key" }
        for ball in 1...4 {
            let first = keys.first { $0.ball == ball }
            #expect(first != nil, "ball \(ball) plays")
            #expect(keys.filter { $0.ball == ball }.allSatisfy { $0.hit! >= Double(ball) * bar - 1e-6 }, "ball \(ball) waits for bar \(ball + 1)")
        }
        #expect(keys.contains { $0.hit! < 2 * bar }, "ball 1 is heard in bar 2")
        let none = try await run(["ballad-aaba", "--duration", "40", "--quiet", "--set", "form.intro=none"], in: directory, name: "none")
        let bass = { (log: [LogEvent]) in log.filter { $0.kind == "bass" }.map(\.line) }
        #expect(bass(intro.log) == bass(none.log), "the balls move as ever: the bass plays the same notes")
        #expect(none.log.filter { $0.kind == "key" }.contains { $0.hit! < bar }, "without an intro, keys in the first bar")
    }

    @Test("bass: the keys are silent for the first phrase and play from the second")
    func bassIntro() async throws {
        let directory = try TemporaryDirectory()
        let phrase = 2 * 3 * 60 / 108.0   // polska-aabb in two-bar phrases, 3/4 at 108 bpm
        let session = try await run(["polska-aabb", "--set", "form.bars=2", "--set", "form.intro=bass", "--duration", "20", "--quiet"],
                              in: directory)
        let keys = session.log.filter { $0.kind == "key" }
        #expect(keys.allSatisfy { $0.hit! >= phrase - 1e-6 }, "no key before the second phrase")
        #expect(keys.contains { $0.hit! < 2 * phrase }, "keys in the second phrase")
        #expect(session.log.contains { $0.kind == "bass" && $0.t > 0 && $0.t < phrase }, "the bass plays the intro")
    }

    /// A live run of the ballad in one-bar phrases (2.5 s) with half a second of ringing.
    static let liveBallad = ["run", "ballad-aaba", "--set", "form.bars=1", "--set", "form.ending=0.5", "--live",
                             "--audio-driver", "file", "--audio", "live.wav", "--soundfont", smallSoundFont,
                             "--midi", "live.mid", "--events", "live.jsonl"]

    @Test("A live run that reached its ending replays byte for byte, ending and all",
          .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"))
    func liveEndingReplays() async throws {
        let directory = try TemporaryDirectory()
        let live = try await CLI.run(Self.liveBallad + ["--duration", "1"], in: directory.path, timeout: 60)
        try #require(live.status == 0, "\(live)")
        #expect(live.stdout.contains("ended at bar 1, the end of a phrase, on I"), "\(live.stdout)")
        let replay = try await CLI.run(["replay", "live.jsonl", "--midi", "again.mid", "--events", "again.jsonl"], in: directory.path, timeout: 60)
        #expect(replay.status == 0 && replay.stdout.contains("ended at bar 1,"), "\(replay)")
        #expect(bytes(of: directory.file("again.mid")) == bytes(of: directory.file("live.mid")))
        #expect(bytes(of: directory.file("again.jsonl")) == bytes(of: directory.file("live.jsonl")))
    }

    @Test("A live run stopped before its ending replays without one: the steps it ran, byte for byte",
          .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"))
    func interruptedLiveReplaysWithoutAnEnding() async throws {
        let directory = try TemporaryDirectory()
        let (live, _) = try await runInterrupted(Self.liveBallad + ["--duration", "60"], in: directory.path, after: 1.8)
        try #require(live.status == 130, "\(live)")
        #expect(!live.stdout.contains("ended at"), "\(live.stdout)")
        let replay = try await CLI.run(["replay", "live.jsonl", "--midi", "again.mid", "--events", "again.jsonl"], in: directory.path, timeout: 60)
        #expect(replay.status == 0 && !replay.stdout.contains("ended at"), "\(replay)")
        #expect(bytes(of: directory.file("again.mid")) == bytes(of: directory.file("live.mid")))
        #expect(bytes(of: directory.file("again.jsonl")) == bytes(of: directory.file("live.jsonl")))
    }

    @Test("form.intro and form.ending are checked: the field and what is accepted")
    func badValues() async throws {
        let intro = try await CLI.run(["run", "polska-aabb", "--set", "form.intro=drums", "--duration", "1", "--quiet"])
        #expect(intro.status != 0 && intro.stderr.contains("form.intro") && intro.stderr.contains("one-by-one"), "\(intro)")
        let ending = try await CLI.run(["run", "polska-aabb", "--set", "form.ending=-1", "--duration", "1", "--quiet"])
        #expect(ending.status != 0 && ending.stderr.contains("form.ending"), "\(ending)")
    }
}
