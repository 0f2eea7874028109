// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

// What a host shows of the plugin (issue 47): its presets, in number order and keeping the
// host's seed, and the control output ports (the chord's degree, the bar, the form's section).

/// One "outputs FRAME DEGREE BAR SECTION" line of lv2host --outputs: the values after the block from `frame`.
struct ShownOutputs: Equatable {
    var frame: Int
    var degree: Int
    var bar: Int
    var section: Int

    /// Seconds of the session at the end of the block.
    var seconds: Double { Double(frame + 256) / PluginHarness.rate }

    static func parse(_ stderr: String) -> [ShownOutputs] {
        stderr.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 5, words[0] == "outputs" else { return nil }
            let numbers = words.dropFirst().compactMap { Double($0) }.map { Int($0) }
            return numbers.count == 4 ? ShownOutputs(frame: numbers[0], degree: numbers[1], bar: numbers[2], section: numbers[3]) : nil
        }
    }
}

@Suite("LV2 plugin in a host: presets and output ports", .serialized)
struct PluginHostTests {
    @Test("The LV2 presets' labels and URIs start with their number, zero-padded: by label or by URI they sort in number order; lv2info lists them so")
    func presetsSortByNumber() async throws {
        let harness = try await PluginHarness()
        let names = try String(contentsOfFile: harness.bundle + "/presets.txt", encoding: .utf8).split(separator: "\n").map(String.init)
        let expected = names.enumerated().map { String(format: "%02d %@", $0.offset, $0.element) }
        let turtle = try String(contentsOfFile: harness.bundle + "/presets.ttl", encoding: .utf8)
        let labels = turtle.components(separatedBy: "rdfs:label \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        let uris = turtle.components(separatedBy: "\n<urn:clumsy:lv2:preset:").dropFirst().map { String($0.prefix { $0 != ">" }) }
        #expect(labels == expected, "\(labels)")
        #expect(labels.sorted() == expected && uris.sorted() == uris, "\(uris)")
        #expect(uris == expected.map { $0.replacingOccurrences(of: " ", with: "-") }, "\(uris)")
        let info = try await CLI.run(["urn:clumsy:lv2"], executable: "/usr/bin/lv2info", environment: ["LV2_PATH": harness.directory.path])
        let listed = info.stdout.components(separatedBy: "Presets:").dropFirst().first?.components(separatedBy: "\n\n").first?
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } ?? []
        // lilv (0.24) lists a plugin's presets in the order of its nodes' memory addresses, not by
        // label or URI: the numbers in the labels are what puts them in order there.
        #expect(listed.sorted() == expected, "\(info)")
    }

    @Test("Loading an LV2 preset (lilv_state, as jalv does) keeps the host's seed and sets the preset and the other controls to the preset's own")
    func presetKeepsSeed() async throws {
        let harness = try await PluginHarness()
        let uri = "urn:clumsy:lv2:preset:" + String(format: "%02d-ballad-aaba", try harness.presetIndex("ballad-aaba"))
        let (_, result) = try await harness.run(seconds: 0.1, ["--seed", "9", "--gravity", "3", "--load-preset", uri])
        let line = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("preset ") }, "\(result)")
        #expect(line.contains(" seed=9 "), "\(line)")
        #expect(line.contains(" preset=\(try harness.presetIndex("ballad-aaba")) ") && line.contains(" gravity=-1 "), "\(line)")
    }

    @Test("The output ports move while the transport rolls and agree with clumsy run's event log: the chord's degree at its chord events, the bar and the AABA section")
    func outputPortsFollowTheSession() async throws {
        let harness = try await PluginHarness()
        let seconds = 60.0
        let log = harness.directory.file("run.jsonl")
        let run = try await CLI.run(["run", "ballad-aaba", "--seed", "7", "--tempo", "120", "--duration", "\(Int(seconds))", "--events", log, "--quiet"])
        #expect(run.status == 0, "\(run)")
        let (_, result) = try await harness.run(seconds: seconds, ["--preset", "\(try harness.presetIndex("ballad-aaba"))", "--seed", "7", "--outputs"])
        let shown = ShownOutputs.parse(result.stderr)
        // A value changes within a block and a step of its time (256 frames, 1/240 s).
        let tolerance = 256 / PluginHarness.rate + 1.0 / 240
        // The chord's degree: each change of the port is a chord event of the log, at its time.
        var chords: [(t: Double, degree: Int)] = []
        for event in try readEventLog(log) where event.kind == "chord" {
            let degree = try #require(event.degree)
            if chords.last?.degree != degree { chords.append((event.t, degree)) }
        }
        var changes: [ShownOutputs] = []
        for value in shown where changes.last?.degree != value.degree { changes.append(value) }
        #expect(chords.count > 8, "\(chords)")
        #expect(changes.map(\.degree) == chords.map(\.degree), "port \(changes.map(\.degree)), log \(chords.map(\.degree))")
        for (change, chord) in zip(changes.dropFirst(), chords.dropFirst()) {
            #expect(abs(change.seconds - chord.t) <= tolerance, "degree \(chord.degree) at \(chord.t) s in the log, on the port at \(change.seconds) s")
        }
        // The bar (3/4 at 120 bpm: 1.5 s) and the section of AABA (8 bars each), 1-based.
        #expect(shown.last.map(\.bar) == Int(seconds / 1.5) + 1 || shown.last.map(\.bar) == Int(seconds / 1.5), "\(shown.last.map { "\($0)" } ?? "")")
        for value in shown {
            let bar = value.seconds / 1.5
            #expect(Double(value.bar - 1) <= bar + tolerance && bar < Double(value.bar) + tolerance, "\(value)")
            #expect(value.section == (value.bar - 1) / 8 % 4 + 1, "\(value)")
        }
        #expect(Set(shown.map(\.section)) == [1, 2, 3, 4], "\(shown)")
    }
}
