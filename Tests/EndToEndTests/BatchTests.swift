// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// `clumsy batch`: sharded equals whole (Slurm's variables, GNU parallel), a killed shard
/// resumes without redoing finished items, merge names what is missing or duplicated, Ctrl-C
/// leaves no half item, and the labels are read right by jams, mir_eval and mido.
@Suite("clumsy batch", .serialized)
struct BatchTests {
    /// 200 items: two presets, a hundred seeds, gravity and key drawn per item.
    static let batch = ["batch", "--presets", "default,polska", "--seeds", "1..100", "--vary", "gravity=4..12",
                        "--vary", "key=*", "--duration", "4", "-o", "out"]

    /// Every file under `directory` (relative path → bytes), shard manifests left out.
    static func tree(_ directory: String) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let path = enumerator?.nextObject() as? String {
            let full = directory + "/" + path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                  !path.hasPrefix("manifest-") else { continue }
            files[path] = bytes(of: full)
        }
        return files
    }

    static func manifestLines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The whole batch, rendered by one process into `<dir>/out`: once for every test that
    /// compares shards with it (the Slurm variables, GNU parallel, a Slurm job array).
    static func whole() async throws -> TemporaryDirectory { try await WholeBatch.shared.directory() }

    @Test("200 items as one batch and as 8 shards run as 8 processes with SLURM_ARRAY_TASK_ID: identical files and merged manifest")
    func slurmShardsEqualWhole() async throws {
        let one = try await Self.whole()
        let sharded = try TemporaryDirectory(prefix: "batch-slurm")
        let shardedPath = sharded.path
        let results = try await withThrowingTaskGroup(of: RunResult.self) { group in
            for task in 0..<8 {
                // An array submitted as --array=1-8: the ids start at SLURM_ARRAY_TASK_MIN.
                let environment = ["SLURM_ARRAY_TASK_ID": String(task + 1), "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "8"]
                group.addTask { try await CLI.run(Self.batch + ["--jobs", "1", "--quiet"], environment: environment, in: shardedPath, timeout: 600) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for result in results { #expect(result.status == 0, "\(result)") }
        for task in 0..<8 {
            let lines = Self.manifestLines(sharded.file("out/manifest-\(task)-of-8.jsonl"))
            #expect(lines.count == 25 && lines.allSatisfy { $0.contains("\"seconds\":") }, "shard \(task): \(lines.count) lines")
        }
        #expect(!fileExists(sharded.file("out/manifest.jsonl")), "a shard merged on its own")
        let merged = try await CLI.run(["batch", "merge", "out"], in: sharded.path)
        #expect(merged.status == 0 && merged.stdout.contains("merged 200 items from 8 shard manifests"), "\(merged)")
        let expected = Self.tree(one.file("out")), actual = Self.tree(sharded.file("out"))
        #expect(expected.count == 200 * 5 + 3, "\(expected.keys.sorted())")
        #expect(expected.keys.sorted() == actual.keys.sorted())
        for (path, content) in expected where actual[path] != content { Issue.record("\(path) differs between the whole batch and the shards") }
        let manifest = Self.manifestLines(one.file("out/manifest.jsonl"))
        #expect(manifest.count == 200 && !manifest.contains { $0.contains("\"seconds\"") })
        // The drawn settings vary from item to item (12 tonics, a gravity range).
        let keys = Set(manifest.compactMap { line in line.range(of: "\"key.tonic\":\"[^\"]*\"", options: .regularExpression).map { String(line[$0]) } })
        #expect(keys.count >= 4, "\(keys)")
    }

    @Test("GNU parallel runs the 8 shards (--shard {}/8): identical files and merged manifest")
    func gnuParallelShardsEqualWhole() async throws {
        let parallel = try #require(firstExecutable(["/usr/bin/parallel", "/usr/local/bin/parallel"]), "make deps installs GNU parallel")
        let one = try await Self.whole()
        let sharded = try TemporaryDirectory(prefix: "batch-parallel")
        let arguments = ["--will-cite", "--halt", "now,fail=1", "-j", "4", CLI.executable] + Self.batch + ["--jobs", "1", "--quiet", "--shard", "{}/8", ":::", "0", "1", "2", "3", "4", "5", "6", "7"]
        let result = try await CLI.run(arguments, executable: parallel, in: sharded.path, timeout: 600)
        try #require(result.status == 0, "\(result)")
        let merged = try await CLI.run(["batch", "merge", "out"], in: sharded.path)
        #expect(merged.status == 0, "\(merged)")
        #expect(Self.tree(one.file("out")) == Self.tree(sharded.file("out")), "the files under GNU parallel differ from the whole batch's")
    }

    @Test("A shard killed half way (kill -9, children too) reruns to completion without redoing its finished items")
    func killedShardResumes() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-kill")
        let arguments = ["batch", "--seeds", "1..8", "--duration", "60", "--jobs", "1", "-o", "out"]
        let manifest = directory.file("out/manifest-0-of-1.jsonl")
        let killed = try await CLI.run(arguments, in: directory.path, timeout: 600) { pid in
            // On a thread of its own: the eight minute-long items take seconds, and a watcher
            // awaiting a busy pool could resume after the last (the test needs one unfinished).
            await onOwnThread {
                Self.waitFor { Self.manifestLines(manifest).count >= 3 }
                // A node that dies takes the children with it.
                let children = childProcesses(of: pid)
                kill(pid, SIGKILL)
                for child in children { kill(-child, SIGKILL); kill(child, SIGKILL) }
            }
        }
        #expect(killed.signalled, "\(killed)")
        let done = Self.manifestLines(manifest).compactMap { line in line.range(of: "0000[0-9]-default-s[0-9]", options: .regularExpression).map { String(line[$0]) } }
        try #require(done.count >= 3 && done.count < 8, "\(done)")
        let stamps = done.map { Self.modificationDate(directory.file("out/\($0)/\($0).mid")) }
        #expect(stamps.allSatisfy { $0 != nil }, "the finished items' MIDI files")
        await pause(1.1)   // mtimes of anything redone now would differ
        let rerun = try await CLI.run(arguments, in: directory.path, timeout: 600)
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.stdout.contains("\(8 - done.count) rendered, \(done.count) already done"), "\(rerun)")
        for item in done { #expect(!rerun.stderr.contains(item + ":"), "\(item) was rendered again:\n\(rerun.stderr)") }
        #expect(done.map { Self.modificationDate(directory.file("out/\($0)/\($0).mid")) } == stamps)
        #expect(Self.manifestLines(directory.file("out/manifest.jsonl")).count == 8)
        let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: directory.file("out"))) ?? []).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "the killed shard's partial items remain: \(leftovers)")
    }

    @Test("Merge names the items missing and those two shards recorded (exit 65), and writes nothing then")
    func mergeChecksCompleteness() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-merge")
        let arguments = ["batch", "--seeds", "1..6", "--duration", "3", "-o", "out", "--quiet"]
        #expect(try await CLI.run(arguments + ["--shard", "0/2"], in: directory.path).status == 0)
        var merged = try await CLI.run(["batch", "merge", "out"], in: directory.path)
        #expect(merged.status == 65 && merged.stderr.contains("3 missing: 00001-default-s2, 00003-default-s4, 00005-default-s6"), "\(merged)")
        #expect(!fileExists(directory.file("out/manifest.jsonl")))
        let environment = ["JOB_COMPLETION_INDEX": "1", "CLUMSY_SHARD_COUNT": "2"]   // a Kubernetes Indexed Job
        #expect(try await CLI.run(arguments, environment: environment, in: directory.path).status == 0)
        let first = Self.manifestLines(directory.file("out/manifest-0-of-2.jsonl"))[0]
        let second = directory.file("out/manifest-1-of-2.jsonl")
        try (Self.manifestLines(second) + [first]).joined(separator: "\n").write(toFile: second, atomically: true, encoding: .utf8)
        merged = try await CLI.run(["batch", "merge", "out"], in: directory.path)
        #expect(merged.status == 65 && merged.stderr.contains("1 in two shard manifests: 00000-default-s1"), "\(merged)")
        let unsized = try await CLI.run(arguments, environment: ["JOB_COMPLETION_INDEX": "1"], in: directory.path)
        #expect(unsized.status == 64 && unsized.stderr.contains("--shard-count"), "\(unsized)")
    }

    @Test("Ctrl-C stops the children, removes their unfinished items and exits 130")
    func interruptLeavesNoPartialItem() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-int")
        var children: [Int32] = []
        let result = try await CLI.run(["batch", "--seeds", "1..4", "--duration", "3600", "--jobs", "2", "-o", "out", "--quiet"],
                                 in: directory.path, timeout: 120) { pid in
            // On a thread of its own: an hour of default renders in about a second, and a watcher
            // awaiting a busy pool could resume after the batch had finished.
            children = await onOwnThread {
                Self.waitFor { childProcesses(of: pid).count >= 2 }
                let children = childProcesses(of: pid)
                kill(pid, SIGINT)
                return children
            }
        }
        #expect(result.status == 130, "\(result)")
        #expect(children.count >= 2, "the batch's children were seen running")
        #expect(children.allSatisfy { kill($0, 0) != 0 }, "a child outlived the batch")
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.file("out"))) ?? []
        #expect(entries == ["batch.json"], "\(entries)")
    }

    @Test("Labels: the JAMS files validate with jams; mir_eval scores the .lab chords against mido's reading of the MIDI file (markers, bass roots) ≥ 0.99")
    func labelsReadByOthers() async throws {
        let check = try await CLI.run(["-c", "import jams, mir_eval, mido"], executable: "/usr/bin/env", prefix: ["python3"])
        try #require(check.status == 0, "python3 lacks jams, mir_eval or mido (make deps installs them): \(check.stderr)")
        let directory = try TemporaryDirectory(prefix: "batch-labels")
        let presets = bundledPresetNames().joined(separator: ",")
        let result = try await CLI.run(["batch", "--presets", presets, "--seeds", "1..2", "--duration", "30", "--outputs", "midi,labels",
                                  "-o", "out", "--quiet"], in: directory.path, timeout: 900)
        try #require(result.status == 0, "\(result)")
        let items = ((try? FileManager.default.contentsOfDirectory(atPath: directory.file("out"))) ?? []).filter { $0.first?.isNumber == true }
        #expect(items.count == bundledPresetNames().count * 2)
        let scored = try await CLI.run([projectRoot + "/Tools/check_batch_labels.py"] + items.sorted().map { directory.file("out/" + $0) },
                                 executable: "/usr/bin/env", prefix: ["python3"], timeout: 300)
        try #require(scored.status == 0, "\(scored)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(scored.stdout.utf8)) as? [String: Any], "\(scored.stdout)")
        print("labels checked by jams, mir_eval and mido: \(scored.stdout)")
        #expect(report["jams_valid"] as? Int == items.count)
        // The chord markers of track 0 and, separately, the bass line alone, both read by mido.
        for score in ["marker_root", "marker_sevenths", "bass_root"] {
            #expect((report[score] as? Double ?? 0) >= 0.99, "\(score): \(report)")
        }
        let card = try String(contentsOfFile: directory.file("out/README.md"), encoding: .utf8)
        #expect(card.contains("## Chords (seconds)") && card.contains("| C:maj7 |") && card.contains("clumsy run --midi item.mid --events item.jsonl --seed 1 --duration 30 -- \(bundledPresetNames()[0])"), "\(card)")
        // Issue 33: the tempi in the order of their values, not as text; one spelling per chord.
        func rows(_ title: String) -> [String] {
            let lines = card.components(separatedBy: "\n")
            guard let start = lines.firstIndex(of: "## \(title)") else { return [] }
            return lines[(start + 1)...].drop { !$0.hasPrefix("|---") }.dropFirst().prefix { $0.hasPrefix("| ") }
                .map { String($0.dropFirst(2).prefix { $0 != " " }) }
        }
        let tempi = rows("Tempi, bpm (items)").compactMap(Double.init)
        #expect(tempi.count >= 5 && tempi == tempi.sorted(), "tempi \(tempi)")
        let chords = rows("Chords (seconds)").filter { !$0.hasPrefix("(") }
        let pitchClass: [Character: Int] = ["C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11]
        let sounded = chords.map { chord -> String in
            let accidentals = chord.dropFirst().prefix { $0 == "#" || $0 == "b" }
            let pitch = accidentals.reduce(pitchClass[chord.first ?? "C"] ?? 0) { $0 + ($1 == "#" ? 1 : -1) }
            return "\((pitch + 12) % 12)" + chord.dropFirst(1 + accidentals.count)
        }
        #expect(chords.count >= 5 && Set(sounded).count == sounded.count, "one chord, two spellings: \(chords)")
    }

    /// Polls `condition` every 50 ms for up to two minutes.
    /// Waits up to 120 s for `condition`, blocking: a watcher's own thread only.
    static func waitFor(_ condition: () -> Bool) {
        blockUntil(timeout: 120, every: 0.05, condition)
    }

    static func modificationDate(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
}

/// The one rendering of `BatchTests.batch`, shared: the first caller starts it, the others await it.
actor WholeBatch {
    static let shared = WholeBatch()
    private var rendering: Task<TemporaryDirectory, Error>?

    struct Failed: Error, CustomStringConvertible {
        var result: RunResult
        var description: String { "the whole batch failed: \(result)" }
    }

    func directory() async throws -> TemporaryDirectory {
        if let rendering { return try await rendering.value }
        let rendering = Task {
            let directory = try TemporaryDirectory(prefix: "batch-whole")
            let result = try await CLI.run(BatchTests.batch + ["--jobs", "2", "--quiet"], in: directory.path, timeout: 600)
            guard result.status == 0 else { throw Failed(result: result) }
            return directory
        }
        self.rendering = rendering
        return try await rendering.value
    }
}
