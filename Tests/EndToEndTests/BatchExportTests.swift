// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// `clumsy batch export`: a batch as WebDataset shards, loaded by Hugging Face `datasets` the
/// hub's way (Tools/check_export.py: the audio decodes, the MIDI parses with mido, the labels
/// are there); the same batch gives the same bytes; a changed file, a missing item and an
/// existing directory are refused and leave nothing.
@Suite("clumsy batch export", .serialized)
struct BatchExportTests {
    /// A batch of `seeds` items per preset, MIDI, FLAC audio (8 kHz, the small GM SoundFont) and labels.
    static func batch(_ directory: TemporaryDirectory, presets: String = "default,polska", seeds: Int, duration: String = "2",
                      timeout: Double = 300) async throws {
        let result = try await CLI.run(["batch", "-o", "b", "--presets", presets, "--seeds", "1..\(seeds)", "--duration", duration,
                                        "--outputs", "midi,audio,labels", "--audio-format", "flac", "--sample-rate", "8000",
                                        "--soundfont", "/usr/share/sounds/sf2/TimGM6mb.sf2", "--quiet"],
                                       in: directory.path, timeout: timeout)
        try #require(result.status == 0, "\(result)")
    }

    /// Tools/check_export.py's report on `export`, which must hold `items` items.
    static func checked(_ directory: TemporaryDirectory, _ export: String, items: Int, timeout: Double = 300) async throws -> [String: Any] {
        let check = try await CLI.run(["-c", "import datasets, mido, soundfile"], executable: "/usr/bin/env", prefix: ["python3"])
        try #require(check.status == 0, "python3 lacks datasets, mido or soundfile (make deps installs them): \(check.stderr)")
        // A cache of its own: an earlier load of another export at the same path is never reused.
        let scored = try await CLI.run([projectRoot + "/Tools/check_export.py", directory.file(export), String(items)],
                                       executable: "/usr/bin/env", prefix: ["python3"],
                                       environment: ["HF_DATASETS_CACHE": directory.file("hf-cache"), "HF_HUB_OFFLINE": "1"], timeout: timeout)
        try #require(scored.status == 0, "\(scored)")
        print("export read by datasets: \(scored.stdout)")
        return try #require(try JSONSerialization.jsonObject(with: Data(scored.stdout.utf8)) as? [String: Any], "\(scored.stdout)")
    }

    @Test("12 items in shards of 5: datasets loads 12 with audio, MIDI and labels from 3 shards; a second export is the same bytes")
    func loadedByDatasets() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-export")
        try await Self.batch(directory, seeds: 6)
        let exported = try await CLI.run(["batch", "export", "b", "e", "--shard-size", "5"], in: directory.path)
        try #require(exported.status == 0, "\(exported)")
        #expect(exported.stdout.hasPrefix("exported 12 items as 3 shards of up to 5"), "\(exported.stdout)")
        #expect(directory.entriesOf("e") == ["README.md", "data"])
        #expect(directory.entriesOf("e/data") == ["train-00000.tar", "train-00001.tar", "train-00002.tar"])
        #expect(directory.entries().allSatisfy { !$0.hasPrefix(".") }, "a partial export was left: \(directory.entries())")
        let report = try await Self.checked(directory, "e", items: 12)
        #expect(report["items"] as? Int == 12 && report["shards"] as? Int == 3)
        for column in ["audio", "midi", "labels"] { #expect(report[column] as? Int == 12, "\(column): \(report)") }
        let card = try String(contentsOfFile: directory.file("e/README.md"), encoding: .utf8)
        #expect(card.hasPrefix("---\nconfigs:\n- config_name: default\n") && card.contains("## Chords (seconds)"), "\(card)")
        // The same batch, exported again: byte for byte the same shards and card.
        let again = try await CLI.run(["batch", "export", "b", "e2", "--shard-size", "5"], in: directory.path)
        try #require(again.status == 0, "\(again)")
        for name in ["README.md", "data/train-00000.tar", "data/train-00001.tar", "data/train-00002.tar"] {
            #expect(bytes(of: directory.file("e/" + name)) == bytes(of: directory.file("e2/" + name)), "\(name) differs")
        }
    }

    @Test("Refused, writing nothing: a changed file (65, named), an item missing from manifest.jsonl (65, named), an unmerged batch (66), an existing directory (73) unless --overwrite, which replaces only an export")
    func refusals() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-export-no")
        try await Self.batch(directory, presets: "default", seeds: 3, duration: "1")
        func export(_ arguments: [String]) async throws -> RunResult {
            try await CLI.run(["batch", "export"] + arguments, in: directory.path)
        }
        // An existing directory, then --overwrite of an export, then of something that is not one.
        try FileManager.default.createDirectory(atPath: directory.file("mine"), withIntermediateDirectories: false)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: directory.file("mine/notes.txt")))
        let existing = try await export(["b", "mine"])
        #expect(existing.status == 73 && existing.stderr.contains("mine exists: give --overwrite"), "\(existing)")
        let notExport = try await export(["b", "mine", "--overwrite"])
        #expect(notExport.status == 73 && notExport.stderr.contains("is not an export"), "\(notExport)")
        #expect(directory.entriesOf("mine") == ["notes.txt"])
        #expect(try await export(["b", "e"]).status == 0)
        let first = bytes(of: directory.file("e/data/train-00000.tar"))
        let replaced = try await export(["b", "e", "--overwrite", "--shard-size", "1"])
        #expect(replaced.status == 0, "\(replaced)")
        #expect(directory.entriesOf("e/data").count == 3 && bytes(of: directory.file("e/data/train-00000.tar")) != first)
        // The export inside the batch at one of its names.
        let inside = try await export(["b", "b/00000-default-s1"])
        #expect(inside.status == 64 && inside.stderr.contains("one of its own names"), "\(inside)")
        // A changed file: named, nothing written.
        let midi = directory.file("b/00001-default-s2/00001-default-s2.mid")
        var changed = try #require(bytes(of: midi))
        changed[changed.count - 5] ^= 0x01
        try Data(changed).write(to: URL(fileURLWithPath: midi))
        let corrupt = try await export(["b", "c"])
        #expect(corrupt.status == 65 && corrupt.stderr.contains("b/00001-default-s2/00001-default-s2.mid") && corrupt.stderr.contains("sha256"),
                "\(corrupt)")
        #expect(!fileExists(directory.file("c")) && directory.entries().allSatisfy { !$0.hasPrefix(".") }, "\(directory.entries())")
        // An item missing from manifest.jsonl: named.
        let manifest = directory.file("b/manifest.jsonl")
        let lines = try String(contentsOfFile: manifest, encoding: .utf8).split(separator: "\n")
        try Data((lines.dropLast().joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: manifest))
        let unfinished = try await export(["b", "c"])
        #expect(unfinished.status == 65 && unfinished.stderr.contains("unfinished: 1 of 3 items") && unfinished.stderr.contains("00002-default-s3"),
                "\(unfinished)")
        try FileManager.default.removeItem(atPath: manifest)
        let unmerged = try await export(["b", "c"])
        #expect(unmerged.status == 66 && unmerged.stderr.contains("clumsy batch merge"), "\(unmerged)")
        #expect(!fileExists(directory.file("c")))
    }

    @Test("1,000 items (MIDI, audio, labels): datasets reads 1,000 with audio, MIDI bytes and labels; no folder holds more than 10,000 files",
          .enabled(if: slowChecksEnabled, "a thousand renders: make check-export runs it"))
    func thousandItems() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-export-1000")
        try await Self.batch(directory, seeds: 500, duration: "1", timeout: 3600)
        let exported = try await CLI.run(["batch", "export", "b", "e"], in: directory.path, timeout: 600)
        try #require(exported.status == 0, "\(exported)")
        #expect(exported.stdout.hasPrefix("exported 1000 items as 1 shard of up to 1000"), "\(exported.stdout)")
        let report = try await Self.checked(directory, "e", items: 1_000, timeout: 1800)
        for column in ["audio", "midi", "labels"] { #expect(report[column] as? Int == 1_000, "\(column): \(report)") }
        #expect((report["largest_folder"] as? Int ?? .max) <= 10_000, "\(report)")
        // Shards of one item: 1,000 files in data/, each loaded.
        let small = try await CLI.run(["batch", "export", "b", "e1", "--shard-size", "1"], in: directory.path, timeout: 600)
        try #require(small.status == 0, "\(small)")
        #expect(directory.entriesOf("e1/data").count == 1_000)
        let each = try await Self.checked(directory, "e1", items: 1_000, timeout: 1800)
        #expect(each["shards"] as? Int == 1_000 && each["labels"] as? Int == 1_000, "\(each)")
    }
}
