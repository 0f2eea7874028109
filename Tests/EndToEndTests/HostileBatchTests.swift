// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 30, findings 3, 4, 5, 7 and 8: `clumsy batch` gets the guarantees `run` has. No output
/// overwrites an input or a file the batch did not write; a manifest's preset is never an
/// option of the child; a resume never removes the user's files; merge checks the files; a
/// live shard's work in another PID namespace (its lock held) is never removed.
@Suite("Hostile use, round 4: batch", .serialized)
struct HostileBatchTests {
    static let quick = ["--duration", "1", "--outputs", "midi,events", "--jobs", "1", "--quiet"]

    static func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    @Test("--manifest OUT/manifest.jsonl, a preset at OUT/batch.json or OUT/README.md: refused (64), the input intact")
    func outputsNeverOverwriteInputs() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-inputs")
        try FileManager.default.createDirectory(atPath: directory.file("out"), withIntermediateDirectories: true)
        let items = "{\"preset\":\"default\",\"seed\":4}\n"
        try directory.write("out/manifest.jsonl", items)
        let byManifest = try await CLI.run(["batch", "-o", "out", "--manifest", "out/manifest.jsonl"] + Self.quick, in: directory.path)
        #expect(byManifest.status == 64 && byManifest.stderr.contains("manifest.jsonl"), "\(byManifest)")
        #expect(Self.text(directory.file("out/manifest.jsonl")) == items)
        try FileManager.default.removeItem(atPath: directory.file("out/manifest.jsonl"))
        let preset = try String(contentsOfFile: bundledPresetFiles()[0], encoding: .utf8)
        for name in ["batch.json", "README.md"] {
            try directory.write("out/" + name, preset)
            let result = try await CLI.run(["batch", "-o", "out", "--presets", "out/" + name] + Self.quick, in: directory.path)
            #expect(result.status == 64 && result.stderr.contains(name), "\(result)")
            #expect(Self.text(directory.file("out/" + name)) == preset)
            try FileManager.default.removeItem(atPath: directory.file("out/" + name))
        }
    }

    @Test("clumsy batch -o . in a project: its README.md, batch.json and manifest.jsonl are kept, the batch refused (73)",
          arguments: ["README.md", "batch.json", "manifest.jsonl"])
    func existingDirectoryKeepsItsFiles(name: String) async throws {
        let directory = try TemporaryDirectory(prefix: "batch-project")
        let mine = "# My project\n"
        try directory.write(name, mine)
        let result = try await CLI.run(["batch", "-o", ".", "--seeds", "1"] + Self.quick, in: directory.path)
        #expect(result.status == 73 && result.stderr.contains(name), "\(result)")
        #expect(Self.text(directory.file(name)) == mine)
        #expect(directory.entries() == [name], "\(directory.entries())")
    }

    @Test("A manifest's preset --score=/abs/x.ly (a file there) or --help is the preset, not an option of the child")
    func presetIsNeverAnOption() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-dashes")
        let outside = directory.file("outside")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let preset = try String(contentsOfFile: bundledPresetFiles()[0], encoding: .utf8)
        // A relative path that reads as an option: the directory "--score=" holds OUTSIDE/x.ly.
        let scoreLike = "--score=" + outside + "/x.ly"
        try FileManager.default.createDirectory(atPath: directory.file("--score=" + outside), withIntermediateDirectories: true)
        try directory.write(scoreLike, preset)
        try directory.write("--help", preset)
        try directory.write("items.jsonl", "{\"preset\":\(jsonQuoted(scoreLike))}\n{\"preset\":\"--help\"}\n")
        let result = try await CLI.run(["batch", "-o", "out", "--manifest", "items.jsonl"] + Self.quick, in: directory.path)
        #expect(result.status == 0, "\(result)")
        #expect(!fileExists(outside + "/x.ly"), "the child took the preset for --score")
        let manifest = Self.text(directory.file("out/manifest.jsonl")) ?? ""
        let lines = manifest.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains(".mid\"") && $0.contains(".jsonl\"") }, "\(manifest)")
    }

    @Test("A resume keeps files the user added to an item's directory, done or rendered again")
    func resumeKeepsUserFiles() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-resume")
        let arguments = ["batch", "-o", "out", "--seeds", "1..2"] + Self.quick
        #expect(try await CLI.run(arguments, in: directory.path).status == 0)
        let item = try #require(directory.entriesOf("out").first { $0.hasPrefix("00000-") })
        try directory.write("out/\(item)/notes.txt", "mine\n")
        try FileManager.default.createDirectory(atPath: directory.file("out/\(item)/features"), withIntermediateDirectories: true)
        try directory.write("out/\(item)/features/f.npy", "data")
        let again = try await CLI.run(["batch", "-o", "out", "--seeds", "1..2", "--duration", "1", "--outputs", "midi,events", "--jobs", "1"],
                                in: directory.path)
        #expect(again.status == 0 && again.stdout.contains("0 rendered, 2 already done"), "\(again)")
        #expect(Self.text(directory.file("out/\(item)/notes.txt")) == "mine\n")
        // A changed output makes the item render again; the user's files come along.
        try directory.write("out/\(item)/\(item).mid", "not MIDI")
        let third = try await CLI.run(arguments, in: directory.path)
        #expect(third.status == 0, "\(third)")
        #expect(Self.text(directory.file("out/\(item)/notes.txt")) == "mine\n" && Self.text(directory.file("out/\(item)/features/f.npy")) == "data")
        #expect(bytes(of: directory.file("out/\(item)/\(item).mid"))?.prefix(4) == [0x4D, 0x54, 0x68, 0x64])
    }

    @Test("batch merge checks the files: one deleted, one changed, a preset \"evil\" or an index 1e300 are refused (65)")
    func mergeChecksFiles() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-merge")
        #expect(try await CLI.run(["batch", "-o", "out", "--seeds", "1..2"] + Self.quick, in: directory.path).status == 0)
        #expect(try await CLI.run(["batch", "merge", "out"], in: directory.path).status == 0)
        let shard = directory.file("out/manifest-0-of-1.jsonl")
        let original = try #require(Self.text(shard))
        let items = directory.entriesOf("out").filter { $0.hasPrefix("0000") }
        let tamperings: [(String, () throws -> Void, () throws -> Void)] = [
            ("missing", { try FileManager.default.removeItem(atPath: directory.file("out/\(items[0])/\(items[0]).jsonl")) },
             { try FileManager.default.copyItem(atPath: directory.file("kept.jsonl"), toPath: directory.file("out/\(items[0])/\(items[0]).jsonl")) }),
            ("not the file rendered", { try directory.write("out/\(items[1])/\(items[1]).mid", "MThd corrupted") },
             { try FileManager.default.removeItem(atPath: directory.file("out/\(items[1])/\(items[1]).mid"))
               try FileManager.default.copyItem(atPath: directory.file("kept.mid"), toPath: directory.file("out/\(items[1])/\(items[1]).mid")) }),
            ("do not make its name", { try original.replacingOccurrences(of: "\"preset\":\"default\"", with: "\"preset\":\"evil\"").write(toFile: shard, atomically: true, encoding: .utf8) },
             { try original.write(toFile: shard, atomically: true, encoding: .utf8) }),
            ("not a batch's", { try original.replacingOccurrences(of: "\"index\":0,", with: "\"index\":1e300,").write(toFile: shard, atomically: true, encoding: .utf8) },
             { try original.write(toFile: shard, atomically: true, encoding: .utf8) }),
        ]
        try FileManager.default.copyItem(atPath: directory.file("out/\(items[0])/\(items[0]).jsonl"), toPath: directory.file("kept.jsonl"))
        try FileManager.default.copyItem(atPath: directory.file("out/\(items[1])/\(items[1]).mid"), toPath: directory.file("kept.mid"))
        for (reason, tamper, restore) in tamperings {
            try tamper()
            let merged = try await CLI.run(["batch", "merge", "out"], in: directory.path)
            #expect(merged.status == 65 && merged.stderr.contains(reason), "\(reason): \(merged)")
            try restore()
        }
        #expect(try await CLI.run(["batch", "merge", "out"], in: directory.path).status == 0)
    }

    @Test("A partial item whose lock is held (a live shard in another PID namespace) is kept; once free, removed")
    func stalePartialNeedsItsLock() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-namespace")
        try FileManager.default.createDirectory(atPath: directory.file("out"), withIntermediateDirectories: true)
        // A pid no process here has: in another namespace it is a live batch.
        var pid: Int32 = 4_000_000
        while kill(pid, 0) == 0 || errno != ESRCH { pid -= 1 }
        let partial = directory.file("out/.00001-default-s2.batch-\(pid).partial")
        try FileManager.default.createDirectory(atPath: partial, withIntermediateDirectories: true)
        try directory.write("out/.00001-default-s2.batch-\(pid).partial/work.mid", "rendering")
        let fd = open(partial, O_RDONLY | O_DIRECTORY)
        try #require(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
        let arguments = ["batch", "-o", "out", "--seeds", "1", "--shard", "0/2"] + Self.quick
        let held = try await CLI.run(arguments, in: directory.path)
        #expect(held.status == 0, "\(held)")
        #expect(fileExists(partial + "/work.mid"), "a live shard's partial item was removed")
        close(fd)
        #expect(try await CLI.run(arguments, in: directory.path).status == 0)
        #expect(!fileExists(partial), "a dead shard's partial item was kept")
    }
}

/// Issue 30, finding 10's small ones of batch: the statuses a manifest's faults have, CRLF
/// manifests, and `--vary` refused up front.
@Suite("Hostile use, round 4: batch, small", .serialized)
struct HostileBatchSmallTests {
    @Test("A bad manifest line exits 65 and a FIFO manifest 66, without the usage text")
    func manifestStatuses() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-manifest-status")
        try directory.write("bad.jsonl", "{\"preset\":\"default\"}\n{\"preset\":\n")
        let bad = try await CLI.run(["batch", "-o", "out", "--manifest", "bad.jsonl"] + HostileBatchTests.quick, in: directory.path)
        #expect(bad.status == 65 && bad.stderr.contains("line 2") && !bad.stderr.contains("USAGE"), "\(bad)")
        try #require(mkfifo(directory.file("fifo.jsonl"), 0o600) == 0)
        let fifo = try await CLI.run(["batch", "-o", "out", "--manifest", "fifo.jsonl"] + HostileBatchTests.quick, in: directory.path, timeout: 20)
        #expect(fifo.status == 66 && !fifo.timedOut && !fifo.stderr.contains("USAGE"), "\(fifo)")
    }

    @Test("-o given as a symbolic link to a directory writes into that directory")
    func outputThroughLink() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-link")
        try FileManager.default.createDirectory(atPath: directory.file("volume"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.file("out"), withDestinationPath: "volume")
        let result = try await CLI.run(["batch", "-o", "out", "--seeds", "1"] + HostileBatchTests.quick, in: directory.path)
        #expect(result.status == 0, "\(result)")
        #expect(directory.entriesOf("volume").contains("00000-default-s1"), "\(directory.entriesOf("volume"))")
    }

    /// Issue 44 (round 4, still open): each child read `-x/…` as a flag, and every item failed.
    @Test("--output=-x, a directory whose name begins with a dash, gets its items")
    func outputNamedLikeAFlag() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-dash")
        let result = try await CLI.run(["batch", "--output=-x", "--seeds", "1..2"] + HostileBatchTests.quick, in: directory.path)
        #expect(result.status == 0, "\(result)")
        let items = directory.entriesOf("-x")
        #expect(items.contains("00000-default-s1") && items.contains("00001-default-s2"), "\(items)")
        #expect(directory.entriesOf("-x/00000-default-s1").contains { $0.hasSuffix(".mid") }, "\(directory.entriesOf("-x/00000-default-s1"))")
    }

    @Test("A batch killed with SIGKILL leaves no child rendering on")
    func childrenFollowTheParent() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-orphans")
        var started: [Int32] = []
        var left: [Int32] = []
        // All inside the callback: orphans would hold the capture's descriptors open, and the
        // run would not be seen to end until they did.
        let result = try await CLI.run(["batch", "-o", "out", "--presets", "swarm", "--seeds", "1..2", "--duration", "3600", "--outputs", "midi",
                                  "--jobs", "2", "--quiet"], in: directory.path, timeout: 120) { pid in
            // On a thread of its own: a watcher awaiting a busy pool could look again long after
            // the 30 s, and so give the children longer than that to go.
            (started, left) = await onOwnThread {
                blockUntil(timeout: 60, every: 0.1) { Self.children(of: pid).count >= 2 }
                let running = Self.children(of: pid)
                kill(pid, SIGKILL)
                blockUntil(timeout: 30, every: 0.2) { Self.children(of: pid).isEmpty }
                let remaining = Self.children(of: pid)
                for child in remaining { kill(child, SIGKILL) }
                return (running, remaining)
            }
        }
        #expect(result.signalled && started.count == 2, "\(result)")
        #expect(left.isEmpty, "children of the killed batch still rendering 30 s on: \(left)")
    }

    /// The `clumsy run` processes rendering into a partial item of the batch `pid`.
    static func children(of pid: Int32) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap(Int32.init).filter { process in
            guard let data = FileManager.default.contents(atPath: "/proc/\(process)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).contains(".batch-\(pid).partial")
        }
    }

    @Test("A CRLF manifest is read line by line")
    func crlfManifest() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-crlf")
        try directory.write("items.jsonl", "{\"preset\":\"default\",\"seed\":1}\r\n{\"preset\":\"default\",\"seed\":2}\r\n")
        let result = try await CLI.run(["batch", "-o", "out", "--manifest", "items.jsonl"] + HostileBatchTests.quick, in: directory.path)
        #expect(result.status == 0, "\(result)")
        #expect(directory.entriesOf("out").filter { $0.hasPrefix("0000") } == ["00000-default-s1", "00001-default-s2"])
    }

    @Test("Two --vary for one field, or a bound in hex, are refused (64) before anything is made",
          arguments: [["--vary", "gravity=4..5", "--vary", "world.gravity=6..7"], ["--vary", "gravity=0x4..0x8"]])
    func varyRefusedUpFront(vary: [String]) async throws {
        let directory = try TemporaryDirectory(prefix: "batch-vary")
        let result = try await CLI.run(["batch", "-o", "out", "--seeds", "1..2"] + vary + HostileBatchTests.quick, in: directory.path)
        #expect(result.status == 64 && result.stderr.contains("gravity"), "\(result)")
        #expect(!fileExists(directory.file("out")))
    }

    /// Peak resident kilobytes of `clumsy batch` (GNU time's %M) for a batch of `seeds` seeds whose shard renders ten items.
    static func planPeak(seeds: Int, shard: String, in directory: TemporaryDirectory) async throws -> Int {
        try await peakKilobytes(["batch", "-o", "big", "--seeds", "1..\(seeds)", "--shard", shard, "--duration", "0.1", "--outputs", "midi",
                           "--jobs", "1", "--quiet"], in: directory, timeout: 600)
    }

    @Test("A shard plans only its own items: a million-item batch in the memory of a thousand-item one; batch.json is written once")
    func planPerShard() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-plan")
        let small = try await Self.planPeak(seeds: 1_000, shard: "0/100", in: directory)
        try FileManager.default.removeItem(atPath: directory.file("big"))
        let large = try await Self.planPeak(seeds: 1_000_000, shard: "0/100000", in: directory)
        // Before: every item was made (and every name held twice) in each shard, 310 MB more for a million.
        #expect(small > 0 && large > 0 && large - small < 16 * 1024, "peak \(small) KB for 1 000 items, \(large) KB for 1 000 000")
        let plan = directory.file("big/batch.json")
        let text = try #require(HostileBatchTests.text(plan))
        #expect(text.hasPrefix("{\"command\":[") && text.contains("\"00000-default-s1\",") && text.hasSuffix(",\"999999-default-s1000000\"]}\n"))
        // A second shard finds the plan as it would write it, and leaves the file alone.
        let old = timeval(tv_sec: 946_684_800, tv_usec: 0)
        var times = [old, old]
        #expect(utimes(plan, &times) == 0)
        _ = try await Self.planPeak(seeds: 1_000_000, shard: "1/100000", in: directory)
        var info = stat()
        #expect(stat(plan, &info) == 0 && info.st_mtim.tv_sec == old.tv_sec, "the second shard rewrote batch.json")
        #expect(HostileBatchTests.text(plan) == text)
        let entries = directory.entriesOf("big")
        #expect(entries.count == 23 && entries.contains("00000-default-s1") && entries.contains("900001-default-s900002")
                && entries.contains("manifest-1-of-100000.jsonl"), "\(entries)")
    }
}

/// Issue 30, finding 10: `presets show` prints bundled presets only.
@Suite("Hostile use, round 4: presets show")
struct HostilePresetsShowTests {
    @Test("presets show PATH of any readable file is refused (66), nothing printed; a bundled name still prints")
    func showPrintsOnlyBundled() async throws {
        let directory = try TemporaryDirectory(prefix: "presets-show")
        try directory.write("x.json", "\u{1B}]0;owned\u{7}{\"name\":\"x\"}")
        for argument in ["./x.json", directory.file("x.json"), "/etc/passwd"] {
            let result = try await CLI.run(["presets", "show", argument], in: directory.path)
            #expect(result.status == 66 && result.stdout.isEmpty, "\(argument): \(result)")
        }
        let bundled = try await CLI.run(["presets", "show", "polska"])
        #expect(bundled.status == 0 && bundled.stdout.contains("\"tempo\""), "\(bundled)")
    }
}

/// Issue 30, finding 10: DESTDIR and PREFIX never reach the shell as code. Since issue 32 they
/// are not refused either: a backquote, a quote or a blank is a character of the path.
@Suite("Hostile use, round 4: make install paths", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/make")))
struct HostileInstallPathTests {
    @Test("make uninstall with a backquote, a quote or a blank in DESTDIR or PREFIX takes them as path characters, and runs nothing",
          arguments: ["DESTDIR=X/a`touch X/pwned`", "DESTDIR=X/a\"b", "DESTDIR=X/a$(touch X/pwned)", "PREFIX=X/victim X/p"])
    func installPathsAreData(assignment: String) async throws {
        let directory = try TemporaryDirectory(prefix: "install-paths")
        try FileManager.default.createDirectory(atPath: directory.file("victim"), withIntermediateDirectories: true)
        try directory.write("victim/kept", "")
        let concrete = assignment.replacingOccurrences(of: "X/", with: directory.path + "/")
        let result = try await CLI.run(["--no-print-directory", "uninstall", concrete], executable: "/usr/bin/make", in: projectRoot)
        #expect(result.status == 0 && result.stdout.contains("removed clumsy from"), "\(result)")
        #expect(!fileExists(directory.file("pwned")) && fileExists(directory.file("victim/kept")))
    }
}

extension TemporaryDirectory {
    /// The entries of the subdirectory `name`, sorted.
    func entriesOf(_ name: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: file(name))) ?? []).sorted()
    }
}

/// `text` as a JSON string literal.
func jsonQuoted(_ text: String) -> String {
    String(decoding: try! JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast().description
}
