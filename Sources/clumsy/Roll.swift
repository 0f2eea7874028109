// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import ArgumentParser
import PictureCommands
import Sinks

struct Roll: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a piano roll of a MIDI file or an event log (PNG, SVG or PDF).",
        discussion: """
        One lane per voice, notes as bars (velocity as opacity), chord names along the top, \
        bar and beat lines from the tempo and meter. An event log has no voices table, note \
        lengths, key, tempo or meter: they come from --preset (default: default).
        Exit status: 0 ok, 64 bad flag or an output over an input, 65 bad input file, 66 unreadable input, 73 output cannot be created, 74 write error.
        """)

    @Argument(help: ArgumentHelp("A Standard MIDI File (.mid) or an event log (.jsonl) that clumsy wrote.", valueName: "file"), completion: Completions.files("mid", "jsonl"))
    var input: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The picture to write: .png, .svg or .pdf.", valueName: "file"), completion: Completions.files("png", "svg", "pdf"))
    var output: String

    @Option(help: ArgumentHelp("Picture size in pixels, 64x64…3840x2160.", valueName: "WxH"))
    var size: String = "1600x600"

    @Option(help: ArgumentHelp("For an event log: the preset that wrote it (voices, note lengths, key, tempo, meter).", valueName: "preset"), completion: Completions.presets)
    var preset: String?

    func validate() throws {
        try validatePicture(size: size, output: output)
    }

    func run() throws {
        do {
            try RollReader.draw(RollRequest(inputPath: input, outputPath: output, size: try PictureSize(parsing: size), preset: preset))
        } catch {
            throw fail(error)
        }
    }
}
