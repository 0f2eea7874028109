// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

// The `balls` live control: piano balls in or out of the world, from a scene, OSC and a replay.

/// 120 bpm in 4/4 (a bar is 2 s, 480 steps), four piano balls: one ball from bar 3 (4 s), four
/// again from bar 6 (10 s).
private let outAndBack = """
    { "seed": 3, "tempo": 120, "scenes": [ {"bar": 3, "balls": 1}, {"bar": 6, "balls": 4} ] }
    """

/// Key hits of the log by ball: (ball, hit time) of every `key` line.
private func keyHits(_ log: [LogEvent]) -> [(ball: Int, hit: Double)] {
    log.filter { $0.kind == "key" }.compactMap { event in event.ball.flatMap { ball in event.hit.map { (ball, $0) } } }
}

@Suite("The balls control: piano balls in or out", .serialized)
struct BallsControlTests {
    @Test("A scene takes balls out at bar 3 (no key hit of theirs after it) and brings them back, dropped, at bar 6; same seed, same bytes")
    func sceneTakesBallsOutAndBack() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("balls.json", outAndBack)
        try directory.write("plain.json", "{ \"seed\": 3, \"tempo\": 120 }")
        for name in ["a", "b"] {
            let run = try await CLI.run(["run", "balls.json", "--duration", "20", "--midi", "\(name).mid", "--events", "\(name).jsonl", "--quiet"],
                                  in: directory.path)
            try #require(run.status == 0, "\(run)")
        }
        let plain = try await CLI.run(["run", "plain.json", "--duration", "20", "--events", "plain.jsonl", "--quiet"], in: directory.path)
        try #require(plain.status == 0, "\(plain)")
        #expect(bytes(of: directory.file("a.mid")) == bytes(of: directory.file("b.mid")), "same seed, different MIDI")
        #expect(bytes(of: directory.file("a.jsonl")) == bytes(of: directory.file("b.jsonl")), "same seed, different event log")

        let log = try readEventLog(directory.file("a.jsonl"))
        let controls = log.filter { $0.kind == "control" }
        #expect(controls.map(\.step) == [960, 2400] && controls.map(\.control) == ["balls", "balls"]
                && controls.map(\.value) == [1, 4], "\(controls)")
        let hits = keyHits(log)
        // Every ball plays before the scene; from it on, only ball 1 until the balls return.
        #expect(Set(hits.filter { $0.hit < 4 }.map(\.ball)).count > 1, "only one ball played before bar 3: \(hits.prefix(20))")
        // A contact is stamped with the end of its sub-step, so a strike in the step before the
        // control's (step 959) carries the control's own time, 4 s: only later ones count.
        let whileOut = hits.filter { $0.hit > 4 && $0.hit < 10 }
        #expect(!whileOut.isEmpty && whileOut.allSatisfy { $0.ball == 1 }, "a removed ball struck a key while out: \(whileOut)")
        // Back at 10 s: each returning ball is dropped there (a drop line), and plays again.
        let drops = log.filter { $0.kind == "drop" && $0.t == 10 }.compactMap(\.ball)
        #expect(drops == [2, 3, 4], "\(drops)")
        let after = Set(hits.filter { $0.hit >= 10 }.map(\.ball))
        #expect(after.isSuperset(of: [2, 3, 4]), "the returning balls never struck a key: \(after)")

        // Until the scene, the session is the one without scenes, line for line.
        let before = { (events: [LogEvent]) in events.filter { $0.t < 4 }.map(\.line) }
        #expect(before(log) == before(try readEventLog(directory.file("plain.jsonl"))), "the scenes changed the session before bar 3")
    }

    @Test("A returning section puts back which balls were in: B saved with one ball, A with four, each returns so, note for note")
    func formReturnsCarryTheBallsIn() async throws {
        let directory = try TemporaryDirectory()
        // AB in two-bar sections: A at 0 s and 8 s, B at 4 s and 12 s. The scene at bar 3
        // comes before B's first line is saved, so B is saved with ball 1 alone.
        try directory.write("form.json", """
            { "seed": 3, "tempo": 120, "form": {"bars": 2, "sections": "AB", "variation": 0},
              "scenes": [ {"bar": 3, "balls": 1} ] }
            """)
        let run = try await CLI.run(["run", "form.json", "--duration", "16", "--events", "form.jsonl", "--quiet"], in: directory.path)
        try #require(run.status == 0, "\(run)")
        let log = try readEventLog(directory.file("form.jsonl"))
        #expect(log.filter { $0.kind == "control" }.count == 1, "a return is not a control")
        let hits = keyHits(log)
        func balls(_ range: Range<Double>) -> Set<Int> { Set(hits.filter { range.contains($0.hit) }.map(\.ball)) }
        #expect(balls(4..<8) == [1] && balls(12..<16) == [1], "B plays ball 1 alone: \(balls(4..<8)), \(balls(12..<16))")
        #expect(balls(8..<12).count > 1, "the returning A brought back no ball: \(balls(8..<12))")
        // The A that returns strikes the first A's keys at the first A's times (8 s later).
        func strikes(_ range: Range<Double>, shift: Double) -> [String] {
            log.filter { $0.kind == "key" && range.contains($0.hit ?? -1) }
                .map { "\($0.ball ?? -1):\($0.key ?? -1):\(String(format: "%.6f", ($0.hit ?? 0) - shift))" }
        }
        let first = strikes(0..<4, shift: 0), again = strikes(8..<12, shift: 8)
        #expect(!first.isEmpty && first == again, "first A \(first.prefix(8)); returning A \(again.prefix(8))")
    }

    @Test("More balls than the session has, or a count that is not a whole number ≥ 0: refused with 65, naming scenes[i].balls")
    func badCountsRefused() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("many.json", "{ \"scenes\": [ {\"bar\": 2, \"gravity\": 3}, {\"bar\": 3, \"balls\": 5} ] }")
        try directory.write("bad.json", "{ \"scenes\": [ {\"bar\": 2, \"balls\": -1}, {\"bar\": 3, \"balls\": 1.5} ] }")
        let many = try await CLI.run(["run", "many.json", "--duration", "8", "--midi", "x.mid"], in: directory.path)
        #expect(many.status == 65 && many.stderr.contains("many.json: scenes[1].balls") && many.stderr.contains("0…4")
                && !fileExists(directory.file("x.mid")), "\(many)")
        // With more balls, the same scene is fine.
        let more = try await CLI.run(["run", "many.json", "--set", "piano.count=5", "--duration", "8", "--quiet"], in: directory.path)
        #expect(more.status == 0, "\(more)")
        let bad = try await CLI.run(["validate", "bad.json"], in: directory.path)
        let lines = bad.stderr.split(separator: "\n").map(String.init)
        #expect(bad.status == 65 && lines.count == 2, "\(bad)")
        for field in ["scenes[0].balls", "scenes[1].balls"] {
            #expect(lines.filter { $0.contains("bad.json: " + field) && $0.contains("0…1000") }.count == 1, "\(field): \(bad.stderr)")
        }
    }

    @Test("A live run steered by /clumsy/balls (oscsend) replays byte-identically; a count past the session's is ignored and said",
          .enabled(if: oscsend != nil && hasSmallSoundFont, "needs liblo-tools (oscsend) and \(smallSoundFont)"))
    func liveBallsReplay() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("live.json", "{ \"seed\": 3, \"tempo\": 120 }")
        let port = 42_100 + Int(getpid() % 20_000)
        let live = try await CLI.run(["run", "live.json", "--live", "--audio-driver", "file", "--audio", "live.wav", "--soundfont", smallSoundFont,
                                "--osc-in", "\(port)", "--duration", "10", "--midi", "live.mid", "--events", "live.jsonl", "--quiet"],
                               in: directory.path, timeout: 40) { _ in
            // 3 s from the first live audio the file driver writes, not from the launch. On a
            // thread of its own: a watcher awaiting a busy pool could send after the 10 s session.
            await onOwnThread {
                blockUntil(timeout: 20) { hasNonEmptyEntry(withPrefix: ".live.wav", in: directory.path) }
                sleepThread(3.0)
                for arguments in [["/clumsy/balls", "i", "1"], ["/clumsy/balls", "i", "9"]] {
                    runToEnd(oscsend!, ["127.0.0.1", "\(port)"] + arguments, timeout: 5)
                }
                sleepThread(3.0)
                runToEnd(oscsend!, ["127.0.0.1", "\(port)", "/clumsy/balls", "f", "3"], timeout: 5)
            }
        }
        try #require(live.status == 0 && !live.signalled, "\(live)")
        #expect(live.stderr.contains("/clumsy/balls") && live.stderr.contains("0…4"), "the count of 9 was not refused aloud: \(live.stderr)")
        let log = try readEventLog(directory.file("live.jsonl"))
        let controls = log.filter { $0.kind == "control" }
        #expect(controls.map(\.control) == ["balls", "balls"] && controls.map(\.value) == [1, 3], "\(controls)")
        if controls.count == 2 {
            let (out, back) = (controls[0].t, controls[1].t)
            // Strictly after: a strike in the step before the control's is stamped with the end
            // of that step, which is the control's own time (CI saw ball 3 at exactly `out`).
            let whileOut = keyHits(log).filter { $0.hit > out && $0.hit < back }
            #expect(whileOut.allSatisfy { $0.ball == 1 }, "a removed ball struck a key: \(whileOut)")
            #expect(log.filter { $0.kind == "drop" && $0.t == back }.compactMap(\.ball) == [2, 3], "\(log.filter { $0.kind == "drop" })")
        }

        let replay = try await CLI.run(["replay", "live.jsonl", "--midi", "replay.mid", "--events", "replay.jsonl", "--quiet"], in: directory.path)
        try #require(replay.status == 0, "\(replay)")
        #expect(bytes(of: directory.file("replay.mid")) == bytes(of: directory.file("live.mid")), "replayed MIDI differs from the live set's")
        #expect(bytes(of: directory.file("replay.jsonl")) == bytes(of: directory.file("live.jsonl")), "replayed event log differs from the live set's")
    }
}
