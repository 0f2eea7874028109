// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Width and height from a PNG's IHDR chunk, or nil if `data` is not a PNG.
func pngSize(_ data: [UInt8]) -> (width: Int, height: Int)? {
    guard data.count > 24, data[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
          String(decoding: data[12..<16], as: UTF8.self) == "IHDR" else { return nil }
    func u32(_ o: Int) -> Int { Int(data[o]) << 24 | Int(data[o + 1]) << 16 | Int(data[o + 2]) << 8 | Int(data[o + 3]) }
    return (u32(16), u32(20))
}

/// Converts an SVG or PDF with a tool Clumsy did not write and returns the PNG it made.
func convertWithForeignTool(_ path: String, in directory: TemporaryDirectory) async throws -> [UInt8] {
    let out = directory.file(UUID().uuidString)
    let result: RunResult
    if path.hasSuffix(".svg") {
        result = try await CLI.run(["-o", out + ".png", path], executable: "/usr/bin/rsvg-convert")
    } else {
        result = try await CLI.run(["-png", "-r", "36", "-singlefile", path, out], executable: "/usr/bin/pdftoppm")
    }
    try #require(result.status == 0, "\(result)")
    return try #require(bytes(of: out + ".png"), "the converter wrote no PNG")
}

let hasConverters = FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert")
    && FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftoppm")

@Suite("Pictures: draw and roll")
struct PictureTests {
    @Test("draw writes a PNG of the requested size, and SVG and PDF that rsvg-convert and pdftoppm render",
          .enabled(if: hasConverters, "needs librsvg2-bin and poppler-utils"))
    func drawEveryFormat() async throws {
        let directory = try TemporaryDirectory()
        let png = directory.file("world.png"), svg = directory.file("world.svg"), pdf = directory.file("world.pdf")
        for (path, extra) in [(png, ["--size", "800x500"]), (svg, ["--trace", "3"]), (pdf, ["--trace", "3", "--size", "640x640"])] {
            let result = try await CLI.run(["draw", "minor-storm", "-o", path] + extra)
            try #require(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        }
        let pngBytes = try #require(bytes(of: png))
        let size = try #require(pngSize(pngBytes), "world.png is not a PNG")
        #expect(size.width == 800 && size.height == 500)
        let fromSVG = try await convertWithForeignTool(svg, in: directory)
        #expect(pngSize(fromSVG) != nil)
        let fromPDF = try await convertWithForeignTool(pdf, in: directory)
        #expect(pngSize(fromPDF) != nil)
        #expect(String(decoding: try #require(bytes(of: svg)).prefix(200), as: UTF8.self).contains("<svg"))
        #expect(directory.hiddenEntries().isEmpty, "temporary files left: \(directory.hiddenEntries())")
    }

    @Test("The same seed draws byte-identical PNG and SVG files; another seed draws another trace")
    func drawIsDeterministic() async throws {
        let directory = try TemporaryDirectory()
        func draw(_ name: String, seed: Int) async throws -> [UInt8] {
            let path = directory.file(name)
            let result = try await CLI.run(["draw", "original", "--seed", String(seed), "--trace", "4", "-o", path])
            try #require(result.status == 0, "\(result)")
            return try #require(bytes(of: path))
        }
        #expect(try await draw("a.png", seed: 3) == draw("b.png", seed: 3), "PNG differs between identical runs")
        #expect(try await draw("a.svg", seed: 3) == draw("b.svg", seed: 3), "SVG differs between identical runs")
        #expect(try await draw("c.png", seed: 3) != draw("d.png", seed: 4), "seeds 3 and 4 drew the same trace")
    }

    @Test("roll draws a MIDI file and an event log of the same session; rsvg-convert and pdftoppm render them; same input, same SVG",
          .enabled(if: hasConverters, "needs librsvg2-bin"))
    func rollFromBothInputs() async throws {
        let directory = try TemporaryDirectory()
        let midi = directory.file("s.mid"), events = directory.file("s.jsonl")
        let run = try await CLI.run(["run", "--duration", "20", "--midi", midi, "--events", events, "--quiet"])
        try #require(run.status == 0, "\(run)")
        let fromMIDI = directory.file("midi.svg"), fromLog = directory.file("log.png"), asPDF = directory.file("log.pdf")
        let r1 = try await CLI.run(["roll", midi, "-o", fromMIDI])
        let r2 = try await CLI.run(["roll", events, "-o", fromLog, "--size", "1000x400"])
        let r3 = try await CLI.run(["roll", events, "-o", asPDF, "--preset", "default"])
        try #require(r1.status == 0 && r2.status == 0 && r3.status == 0, "\(r1)\n\(r2)\n\(r3)")
        #expect(pngSize(try await convertWithForeignTool(asPDF, in: directory)) != nil)
        let again = directory.file("again.svg")
        #expect(try await CLI.run(["roll", midi, "-o", again]).status == 0)
        #expect(bytes(of: again) == bytes(of: fromMIDI), "the same MIDI file drew two different SVGs")
        let svg = String(decoding: try #require(bytes(of: fromMIDI)), as: UTF8.self)
        #expect(svg.contains("<svg") && (svg.contains("<rect") || svg.contains("<path")), "no shapes in the roll's SVG")
        #expect(pngSize(try await convertWithForeignTool(fromMIDI, in: directory)) != nil)
        let logBytes = try #require(bytes(of: fromLog))
        let size = try #require(pngSize(logBytes))
        #expect(size.width == 1000 && size.height == 400)
    }

    @Test("Bad sizes, extensions, traces and inputs are refused with the right status and no file",
          arguments: [
            (["draw", "-o", "OUT.png", "--size", "63x64"], Int32(64), "64x64…3840x2160"),
            (["draw", "-o", "OUT.png", "--size", "3841x2160"], 64, "64x64…3840x2160"),
            (["draw", "-o", "OUT.png", "--size", "big"], 64, "WIDTHxHEIGHT"),
            (["draw", "-o", "OUT.gif"], 64, ".png, .svg, .pdf"),
            (["draw", "-o", "OUT.png", "--trace", "nan"], 64, "--trace"),
            (["draw", "-o", "OUT.png", "--trace", "0"], 64, "--trace"),
            (["draw", "no-such-preset", "-o", "OUT.png"], 66, "no-such-preset"),
            (["draw", "-o", "/nonexistent-dir/x.png"], 73, "/nonexistent-dir/x.png"),
            (["roll", "/nonexistent.mid", "-o", "OUT.png"], 66, "/nonexistent.mid"),
            (["roll", "INPUT.txt", "-o", "OUT.png"], 64, ".jsonl"),
            (["roll", "GARBAGE.mid", "-o", "OUT.png"], 65, "GARBAGE.mid"),
            (["roll", "GARBAGE.jsonl", "-o", "OUT.svg"], 65, "line 1"),
          ])
    func badInput(arguments: [String], status: Int32, mentions: String) async throws {
        let directory = try TemporaryDirectory()
        try directory.write("GARBAGE.mid", "not a MIDI file at all")
        try directory.write("GARBAGE.jsonl", "{\"t\": oops}\n")
        try directory.write("INPUT.txt", "hello\n")
        let resolved = arguments.map { a in
            ["OUT.png", "OUT.gif", "OUT.svg", "GARBAGE.mid", "GARBAGE.jsonl", "INPUT.txt"].contains(a) ? directory.file(a) : a
        }
        let result = try await CLI.run(resolved)
        #expect(result.status == status, "\(result)")
        #expect(result.stderr.contains(mentions), "\(result)")
        #expect(!fileExists(directory.file("OUT.png")) && !fileExists(directory.file("OUT.svg")))
        #expect(directory.hiddenEntries().isEmpty, "temporary files left: \(directory.hiddenEntries())")
    }
}
