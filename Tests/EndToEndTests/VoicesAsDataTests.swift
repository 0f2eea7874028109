// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// Derived voices as data: a preset's `voices` list adds any number of them, each with its own
/// rule, track, channel, log name and stem, and each follows a live key change.
@Suite("Voices as data: derived voices with rules of their own", .serialized)
struct VoicesAsDataTests {
    /// `default` with a celesta a sixth above the keys and a vibraphone a third below them.
    static func writeTwoVoicePreset(in directory: TemporaryDirectory) throws -> String {
        var preset = try String(contentsOfFile: projectRoot + "/Presets/original.json", encoding: .utf8)
        let end = try #require(preset.lastIndex(of: "}"))
        preset.replaceSubrange(end...end, with: """
            , "voices": [{"name": "sixth", "follows": "keys", "interval": 6, "tone": "celesta"},
                         {"name": "below", "interval": -3, "level": 70}] }
            """)
        return try directory.write("two.json", preset)
    }

    /// MIDI notes 0…127 of a scale given by its pitch classes, ascending.
    static func scale(_ pitchClasses: Set<Int>) -> [Int] { (0...127).filter { pitchClasses.contains($0 % 12) } }

    /// The note `steps` scale steps from `note` (which must be in `scale`).
    static func move(_ note: Int, _ steps: Int, in scale: [Int]) -> Int? {
        scale.firstIndex(of: note).map { scale[$0 + steps] }
    }

    static let cMajor: Set<Int> = [0, 2, 4, 5, 7, 9, 11]
    static let eFlatDorian: Set<Int> = [3, 5, 6, 8, 10, 0, 1]

    /// Each `key` line of `log` with the derived lines that follow it at the same time, in table order.
    static func doubles(in log: [LogEvent]) -> [(keys: LogEvent, derived: [LogEvent])] {
        var pairs: [(keys: LogEvent, derived: [LogEvent])] = []
        for (index, line) in log.enumerated() where line.kind == "key" {
            pairs.append((line, Array(log[(index + 1)...].prefix { $0.kind == "second" && $0.t == line.t })))
        }
        return pairs
    }

    /// Checks that every key note is doubled by `sixth` (6th above) then `below` (3rd below) in
    /// the scale `scaleAt(t)`; returns how many were checked.
    static func checkDoubles(_ log: [LogEvent], scaleAt: (Double) -> [Int]) -> Int {
        var checked = 0
        for (keys, derived) in doubles(in: log) {
            let scale = scaleAt(keys.t)
            guard let note = keys.note else { Issue.record("key line without a note at \(keys.t)"); continue }
            #expect(derived.map(\.voice) == ["sixth", "below"], "at \(keys.t): \(derived.map(\.voice))")
            #expect(derived.map(\.note) == [move(note, 5, in: scale), move(note, -2, in: scale)], "at \(keys.t): \(note) → \(derived.map(\.note))")
            #expect(derived.allSatisfy { $0.velocity == keys.velocity && $0.ball == keys.ball })
            checked += 1
        }
        return checked
    }

    /// mido's view of the note-ons of a MIDI file: per track name, [tick, note] pairs in order.
    static let noteOnsScript = """
    import sys, json, mido
    mid = mido.MidiFile(sys.argv[1])
    out = {}
    for track in mid.tracks:
        name = next((m.name for m in track if m.type == "track_name"), None)
        tick, ons, channels = 0, [], set()
        for m in track:
            tick += m.time
            if m.type == "note_on" and m.velocity > 0:
                ons.append([tick, m.note])
                channels.add(m.channel)
        if name: out[name] = {"ons": ons, "channels": sorted(channels)}
    print(json.dumps(out))
    """

    struct Track: Decodable {
        var ons: [[Int]]
        var channels: [Int]
    }

    @Test("two derived voices: their own MIDI tracks and channels (read by mido), their own names in the log, the text view and the stems, each at its interval")
    func twoDerivedVoices() async throws {
        let directory = try TemporaryDirectory()
        let preset = try Self.writeTwoVoicePreset(in: directory)
        let run = try await CLI.run(["run", preset, "--duration", "20", "--seed", "3", "--midi", "two.mid", "--events", "two.jsonl", "--quiet"],
                              in: directory.path)
        try #require(run.status == 0, "\(run)")

        // The event log: every key note is followed by its two doubles, each under its name.
        let log = try readEventLog(directory.file("two.jsonl"))
        let scale = Self.scale(Self.cMajor)
        #expect(Self.checkDoubles(log, scaleAt: { _ in scale }) > 40)
        #expect(log.filter { $0.kind == "second" }.count == 2 * log.filter { $0.kind == "key" }.count)

        // The MIDI file, read by mido: a track per voice, named, each on a channel of its own;
        // each derived track plays with the keys at the same ticks, at its interval.
        try #require(Mido.isAvailable, "python3 with mido is needed")
        let result = try Mido.python(["-c", Self.noteOnsScript, directory.file("two.mid")])
        try #require(result.status == 0, "\(result.output)")
        let tracks = try JSONDecoder().decode([String: Track].self, from: Data(result.output.utf8))
        #expect(Set(tracks.keys) == ["Bass", "Keys", "Sixth", "Below"], "\(tracks.keys.sorted())")
        let keys = try #require(tracks["Keys"]), sixth = try #require(tracks["Sixth"]), below = try #require(tracks["Below"])
        #expect(sixth.channels == [5] && below.channels == [6] && keys.channels == [1, 2, 3, 4])
        for (derived, steps) in [(sixth, 5), (below, -2)] {
            let expected = keys.ons.map { [$0[0], Self.move($0[1], steps, in: scale) ?? -1] }
            #expect(derived.ons.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) } == expected.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) },
                    "\(steps > 0 ? "sixth" : "below") differs from the keys moved \(steps) steps")
        }

        // The text view and the summary name them; the stems are one file each.
        let text = try await CLI.run(["run", preset, "--duration", "3", "--seed", "3"], in: directory.path)
        try #require(text.status == 0, "\(text)")
        #expect(text.stdoutLines.contains { $0.contains(" sixth ") && $0.hasSuffix("with the keys in Cmaj7") }, "\(text.stdout.prefix(800))")
        #expect(text.stdoutLines.contains { $0.contains(" below ") && $0.contains("with the keys in") })
        let stems = try await CLI.run(["run", preset, "--duration", "3", "--seed", "3", "--audio", "two.wav", "--stems", "."], in: directory.path)
        try #require(stems.status == 0, "\(stems)")
        #expect(stems.stdout.contains("sixth notes") && stems.stdout.contains("below notes"), "\(stems.stdout.suffix(400))")
        for stem in ["bass", "keys", "sixth", "below"] {
            #expect((bytes(of: directory.file("\(stem).wav"))?.count ?? 0) > 44, "no stem \(stem).wav: \(directory.entries())")
        }
    }

    @Test("both derived voices follow a live key change (a replayed log with one): their rules are worked out again in the new key")
    func followAKeyChange() async throws {
        let directory = try TemporaryDirectory()
        let preset = try Self.writeTwoVoicePreset(in: directory)
        // A live log written by hand: the session, a key change to E♭ dorian at 5 s, the end at 10 s.
        try directory.write("set.jsonl", """
            {"t":0.000000,"kind":"session","clumsy":"0.1.0","preset":"two","seed":"3","timestep":0.004166666666666667,"arguments":["\(preset)","--seed","3"]}
            {"t":5.000000,"kind":"control","step":1200,"control":"key","tonic":"Eb","mode":"dorian"}
            {"t":10.000000,"kind":"end","step":2400}

            """)
        let replay = try await CLI.run(["replay", "set.jsonl", "--events", "out.jsonl", "--midi", "out.mid", "--quiet"], in: directory.path)
        try #require(replay.status == 0, "\(replay)")
        let log = try readEventLog(directory.file("out.jsonl"))
        let change = try #require(log.first { $0.kind == "control" })
        #expect(change.t == 5 && change.tonic == "Eb" && change.mode == "dorian")
        let before = Self.scale(Self.cMajor), after = Self.scale(Self.eFlatDorian)
        #expect(Self.checkDoubles(log, scaleAt: { $0 < change.t ? before : after }) > 30)
        // After the change the doubles are E♭ dorian's, and some of them are not C major's.
        let late = log.filter { $0.kind == "second" && $0.t > change.t }.compactMap(\.note)
        #expect(late.count > 20 && late.allSatisfy { Self.eFlatDorian.contains($0 % 12) })
        #expect(late.contains { !Self.cMajor.contains($0 % 12) }, "\(late)")
    }

    @Test("a bad derived voice is refused before anything runs, naming the field and what is accepted",
          arguments: [(#"[{"name": "x", "interval": 1}]"#, "voices[0].interval", "2…8"),
                      (#"[{"name": "x", "interval": 9}]"#, "voices[0].interval", "-8…8"),
                      (#"[{"name": "x", "semitones": 0}]"#, "voices[0].semitones", "1…24"),
                      (#"[{"name": "x", "interval": 3, "semitones": 4}]"#, "voices[0].semitones", "one rule"),
                      (#"[{"name": "x"}]"#, "voices[0].interval", "\"semitones\""),
                      (#"[{"name": "x", "interval": 3, "follows": "drums"}]"#, "voices[0].follows", "keys, bass"),
                      (#"[{"name": "x", "interval": 3}, {"name": "x", "interval": 6}]"#, "voices[1].name", "a name of its own"),
                      (#"[{"name": "Third", "interval": 3}]"#, "voices[0].name", "lower-case"),
                      (#"[{"name": "second", "interval": 3}]"#, "voices[0].name", "choose another"),
                      (#"[{"name": "x", "interval": 3, "tone": "kazoo"}]"#, "voices[0].tone", "celesta"),
                      (#"{"name": "x", "interval": 3}"#, "voices", "up to 8")])
    func refused(list: String, field: String, accepted: String) async throws {
        let directory = try TemporaryDirectory()
        let preset = try directory.write("bad.json", #"{"voices": \#(list)}"#)
        let file = try await CLI.run(["run", preset, "--duration", "2", "--midi", "x.mid"], in: directory.path)
        #expect(file.status == 65 && file.stderr.contains("bad.json: \(field): ") && file.stderr.contains(accepted), "\(file)")
        let flag = try await CLI.run(["run", "original", "--duration", "2", "--midi", "x.mid", "--set", "voices=\(list)"], in: directory.path)
        #expect(flag.status == 64 && flag.stderr.contains("--set \(field): ") && flag.stderr.contains(accepted), "\(flag)")
        #expect(!fileExists(directory.file("x.mid")))
    }

    @Test("clumsy validate lists the problem of every bad entry of the list, each by its index")
    func validateEveryEntry() async throws {
        let directory = try TemporaryDirectory()
        let preset = try directory.write("bad.json", #"{"voices": [{"name": "x", "interval": 1}, {"name": "a", "interval": 3}, {"name": "a", "semitones": 4}]}"#)
        let result = try await CLI.run(["validate", preset])
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(result.status == 65 && lines.count == 2, "\(result)")
        #expect(lines.first?.contains("voices[0].interval: 1 is not accepted") == true)
        #expect(lines.last?.contains("voices[2].name: \"a\" is already the name of voices[1]") == true, "\(lines)")
    }
}
