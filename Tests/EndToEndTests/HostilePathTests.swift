// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

// Issue 19, findings 2 (draw and roll), 5 and 13: paths as a hostile user gives them.
// File names with bytes that are not UTF-8 are made with dash's printf octal escapes
// (`\377` is the byte 0xFF, `\357\277\275` is U+FFFD in UTF-8).

@Suite("Hostile paths (issue 19)", .serialized)
struct HostilePathTests {
    /// The checkout these tests were built from.
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// A directory with a copy of the bundled default preset as `p.json`.
    private func directoryWithPreset() async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(prefix: "hostile-paths")
        let result = try await shell("cp \"$SRC\" p.json", in: directory.path,
                               environment: ["SRC": Self.repository + "/Presets/default.json"])
        try #require(result.status == 0, "\(result)")
        return directory
    }

    private func checksum(_ path: String, in directory: String) async throws -> String {
        let result = try await shell("cksum < \"$F\"", in: directory, environment: ["F": path])
        return result.stdout
    }

    // MARK: 2. draw and roll refuse an output that is one of their inputs

    @Test("draw refuses -o through a link to its own preset file (64, preset untouched)")
    func drawOverItsPreset() async throws {
        let directory = try await directoryWithPreset()
        let before = try await checksum("p.json", in: directory.path)
        let result = try await shell("ln -s p.json link.png && $C draw p.json -o link.png", in: directory.path)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("the preset"), "\(result)")
        #expect(try await checksum("p.json", in: directory.path) == before)
    }

    @Test("draw refuses -o through a link to a bundled preset under $CLUMSY_PRESETS (64, untouched)")
    func drawOverBundledPreset() async throws {
        let directory = try await directoryWithPreset()
        let setup = try await shell("mkdir bundle && cp p.json bundle/default.json && cp p.json bundle/other.json "
                              + "&& ln -s bundle/other.json link.svg", in: directory.path)
        try #require(setup.status == 0, "\(setup)")
        let before = try await checksum("bundle/other.json", in: directory.path)
        let result = try await shell("$C draw default -o link.svg", in: directory.path,
                               environment: ["CLUMSY_PRESETS": directory.file("bundle")])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("bundled preset"), "\(result)")
        #expect(try await checksum("bundle/other.json", in: directory.path) == before)
    }

    @Test("roll refuses -o through a link to the file it reads (64, input untouched)", arguments: ["x.mid", "x.jsonl"])
    func rollOverItsInput(input: String) async throws {
        let directory = try await directoryWithPreset()
        let flag = input.hasSuffix(".mid") ? "--midi" : "--events"
        let setup = try await shell("$C run --duration 2 --quiet \(flag) \(input) && ln -s \(input) link.png", in: directory.path)
        try #require(setup.status == 0, "\(setup)")
        let before = try await checksum(input, in: directory.path)
        let result = try await shell("$C roll \(input) -o link.png", in: directory.path)
        #expect(result.status == 64, "\(result)")
        #expect(try await checksum(input, in: directory.path) == before)
    }

    @Test("roll refuses -o through a link to its --preset file (64, preset untouched)")
    func rollOverItsPreset() async throws {
        let directory = try await directoryWithPreset()
        let setup = try await shell("$C run --duration 2 --quiet --events x.jsonl && ln -s p.json link.pdf", in: directory.path)
        try #require(setup.status == 0, "\(setup)")
        let before = try await checksum("p.json", in: directory.path)
        let result = try await shell("$C roll x.jsonl --preset p.json -o link.pdf", in: directory.path)
        #expect(result.status == 64, "\(result)")
        #expect(try await checksum("p.json", in: directory.path) == before)
    }

    // MARK: 5. File names are bytes

    @Test("--midi with a 0xFF byte in the name writes that name and leaves a file named U+FFFD alone")
    func invalidUTF8Output() async throws {
        let directory = try TemporaryDirectory(prefix: "hostile-paths")
        let result = try await shell("""
            printf decoy > "$(printf '\\357\\277\\275').mid"
            $C run --duration 2 --quiet --midi "$(printf '\\377').mid" || exit 10
            test "$(cat "$(printf '\\357\\277\\275').mid")" = decoy || exit 11
            test -s "$(printf '\\377').mid" || exit 12
            """, in: directory.path)
        #expect(result.status == 0, "\(result)")
    }

    @Test("Every command reads and writes names with a 0xFF byte as they are; files named U+FFFD stay untouched")
    func invalidUTF8EveryCommand() async throws {
        let directory = try await directoryWithPreset()
        let result = try await shell("""
            X="$(printf 'n\\377')"; D="$(printf 'n\\357\\277\\275')"
            for e in json mid jsonl wav png svg; do printf decoy > "$D.$e"; done
            mkdir "$X.d" && cp p.json "$X.json" || exit 9
            $C run "$X.json" --duration 2 --quiet --midi "$X.mid" --events "$X.jsonl" --audio "$X.wav" || exit 10
            $C run "$X.json" --duration 1 --quiet --audio "$X.d/a.wav" --stems "$X.d" || exit 11
            $C draw "$X.json" -o "$X.png" || exit 12
            $C roll "$X.mid" -o "$X.svg" || exit 13
            $C roll "$X.jsonl" --preset "$X.json" -o "$X.png" || exit 14
            for e in json mid jsonl wav png svg; do test "$(cat "$D.$e")" = decoy || exit 15; done
            for f in "$X.mid" "$X.jsonl" "$X.wav" "$X.png" "$X.svg" "$X.d/a.wav" "$X.d/bass.wav" "$X.d/bass.mid"; do
                test -s "$f" || exit 16
            done
            test "$(ls -a | grep -c clumsy)" = 0 || exit 17
            """, in: directory.path, timeout: 120)
        #expect(result.status == 0, "\(result)")
    }

    @Test("--video with a 0xFF byte in the name: ffmpeg gets the name's bytes; a file named U+FFFD stays untouched")
    func invalidUTF8Video() async throws {
        let directory = try TemporaryDirectory(prefix: "hostile-paths")
        let result = try await shell("""
            X="$(printf 'v\\377')"; D="$(printf 'v\\357\\277\\275')"
            printf decoy > "$D.mp4"
            $C run --duration 1 --quiet --video "$X.mp4" || exit 10
            test "$(cat "$D.mp4")" = decoy || exit 11
            test -s "$X.mp4" || exit 12
            test "$(ls -a | grep -c '^[.]v')" = 0 || exit 13
            """, in: directory.path, timeout: 120)
        #expect(result.status == 0, "\(result)")
    }

    @Test("analyze reads the file whose name has a 0xFE byte, not a decoy named U+FFFD")
    func invalidUTF8Input() async throws {
        let directory = try TemporaryDirectory(prefix: "hostile-paths")
        let result = try await shell("""
            $C run --duration 4 --quiet --midi real.mid || exit 10
            cp real.mid "$(printf '\\376').mid"
            printf 'not a MIDI file' > "$(printf '\\357\\277\\275').mid"
            $C analyze real.mid | sed 1s/^real.mid:// > expected.txt || exit 11
            $C analyze "$(printf '\\376').mid" | sed '1s/^[^:]*://' > got.txt || exit 12
            cmp expected.txt got.txt || exit 13
            """, in: directory.path)
        #expect(result.status == 0, "\(result)")
    }

    @Test("A missing file with a 0xFD byte in its name is named with the byte escaped, not as U+FFFD")
    func invalidUTF8InMessages() async throws {
        let directory = try TemporaryDirectory(prefix: "hostile-paths")
        let result = try await shell("$C analyze \"$(printf 'a\\375').mid\"", in: directory.path)
        #expect(result.status == 66, "\(result)")
        #expect(result.stderr.contains("a\\xFD.mid"), "\(result)")
        #expect(!result.stderr.contains("\u{FFFD}"), "\(result)")
    }

    // MARK: 13. An output directory moved during a run

    /// Checks what a run whose output directory was moved to `moved` said and left.
    private func expectMovedReported(_ result: RunResult, in directory: TemporaryDirectory) {
        #expect(!result.timedOut, "\(result)")
        #expect(result.status == 74, "\(result)")
        #expect(result.stderr.contains("was moved or removed during the run"), "\(result)")
        #expect(result.stderr.contains("its temporary file was removed"), "\(result)")
        #expect(!result.stderr.contains("disk space") && !result.stderr.contains("disk full"), "\(result)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: directory.file("moved"))) ?? []
        #expect(left.isEmpty, "left behind in the moved directory: \(left)")
    }

    @Test("--midi and --events: the output directory moved during a run: says so, leaves no temporary")
    func movedMIDIDirectory() async throws {
        let directory = try TemporaryDirectory(prefix: "hostile-paths")
        try FileManager.default.createDirectory(atPath: directory.file("out"), withIntermediateDirectories: true)
        var moved = false
        // 20 000 simulated seconds take about 9 s of a free core. The directory moves once both
        // outputs' temporaries are there (a busy machine may take longer than half a second to
        // start the run; moved before, the run rightly fails to create them, with 73).
        let result = try await CLI.run(["run", "--duration", "20000", "--quiet", "--midi", "out/x.mid", "--events", "out/x.jsonl"],
                                 in: directory.path, timeout: 300) { _ in
            // On a thread of its own: a watcher awaiting a busy pool could move the directory
            // after the render had finished, when there is nothing to say.
            moved = await onOwnThread {
                blockUntil(timeout: 120) { hasEntries(withPrefixes: [".x.mid", ".x.jsonl"], in: directory.file("out")) }
                return rename(directory.file("out"), directory.file("moved")) == 0
            }
        }
        #expect(moved)
        expectMovedReported(result, in: directory)
    }

    @Test("--live --audio-driver file: the output directory moved during the run: says so, blames no disk, leaves no temporary")
    func movedLiveFileDirectory() async throws {
        let directory = try TemporaryDirectory(prefix: "hostile-paths")
        try FileManager.default.createDirectory(atPath: directory.file("out"), withIntermediateDirectories: true)
        var moved = false
        // The directory moves once the sound's temporary is there, not after a fixed second: on a
        // busy machine the run may not have opened it yet (moved before, it rightly fails with 73).
        let result = try await CLI.run(["run", "--live", "--audio-driver", "file", "--duration", "3", "--quiet", "--audio", "out/x.wav"],
                                 in: directory.path, timeout: 120) { _ in
            // On a thread of its own: a watcher awaiting a busy pool could move the directory
            // after the 3 s session had ended.
            moved = await onOwnThread {
                blockUntil(timeout: 60) { hasEntries(withPrefixes: [".x.wav"], in: directory.file("out")) }
                return rename(directory.file("out"), directory.file("moved")) == 0
            }
        }
        #expect(moved)
        expectMovedReported(result, in: directory)
    }

    @Test("--audio: the output directory moved while the mix is written: says so, blames no disk, leaves no temporary")
    func movedAudioDirectory() async throws {
        let directory = try TemporaryDirectory(prefix: "hostile-paths")
        try FileManager.default.createDirectory(atPath: directory.file("out"), withIntermediateDirectories: true)
        var moved = false
        let result = try await CLI.run(["run", "--duration", "100", "--quiet", "--loudness", "off", "--audio", "out/x.wav"],
                                 in: directory.path, timeout: 300) { _ in
            // The mix's temporary appears once the session is simulated and mastering starts
            // (one pass only with --loudness off). On a thread of its own: the pass is short, and a
            // watcher awaiting a busy pool could move the directory after it.
            moved = await onOwnThread {
                blockUntil(timeout: 240) { hasEntries(withPrefixes: [".x.wav."], in: directory.file("out")) }
                    && rename(directory.file("out"), directory.file("moved")) == 0
            }
        }
        #expect(moved)
        expectMovedReported(result, in: directory)
        #expect(!result.stderr.contains("partial file was removed"), "\(result)")
    }

    /// Issue 44 #11: moved before the mix's file is made (while the session is simulated, once
    /// the mix's scratch file in it is open), the run names the real cause, not a missing
    /// directory (it said "does not exist" and exited 73), and leaves nothing in it.
    @Test("--audio: the output directory moved while the session is simulated: says it was moved (74), not that it does not exist")
    func movedAudioDirectoryBeforeMastering() async throws {
        let directory = try TemporaryDirectory(prefix: "hostile-paths")
        try FileManager.default.createDirectory(atPath: directory.file("out"), withIntermediateDirectories: true)
        var moved = false
        let result = try await CLI.run(["run", "--duration", "100", "--quiet", "--loudness", "off", "--audio", "out/x.wav"],
                                 in: directory.path, timeout: 300) { pid in
            // The mix's scratch file (open, already unlinked) is made in the directory when the
            // render is set up, after the directory was checked. On a thread of its own: the
            // session is simulated in a second or two, and a watcher awaiting a busy pool could
            // move the directory after it (while mastering, or after the exit).
            moved = await onOwnThread {
                let spooling = blockUntil(timeout: 120) {
                    let links = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
                    return links.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)"))?.contains("/out/.spool.clumsy-") == true }
                }
                return spooling && rename(directory.file("out"), directory.file("moved")) == 0
            }
        }
        #expect(moved)
        #expect(result.status == 74, "\(result)")
        #expect(result.stderr.contains("'out' was moved or removed during the run"), "\(result)")
        #expect(!result.stderr.contains("does not exist"), "\(result)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: directory.file("moved"))) ?? []
        #expect(left.isEmpty, "left behind in the moved directory: \(left)")
    }
}
