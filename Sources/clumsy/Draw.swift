// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import ArgumentParser
import Controls
import Engine
import PictureCommands
import Presets
import Sinks

struct Draw: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw the world of a preset to scale (PNG, SVG or PDF).",
        discussion: """
        Walls, bouncers labelled with their degree and chord, keys with the chord tone they play, \
        the balls at their start, and a legend. With --trace, the paths of every ball over the \
        first seconds, each hit marked and coloured by its velocity.
        Exit status: 0 ok, 64 bad flag or an output over an input, 65 bad preset, 66 unknown preset, 73 output cannot be created, 74 write error.
        """)

    @Argument(help: "A bundled preset's name or a path to a preset file.", completion: Completions.presets)
    var preset: String = "default"

    @Option(name: .shortAndLong, help: ArgumentHelp("The picture to write: .png, .svg or .pdf.", valueName: "file"), completion: Completions.files("png", "svg", "pdf"))
    var output: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Draw the balls' paths and hits over the first <s> simulated seconds (\(Limits.text(DrawRequest.traceLimits)) s).", valueName: "s"))
    var trace: Double?

    @Option(help: ArgumentHelp("Picture size in pixels, 64x64…3840x2160.", valueName: "WxH"))
    var size: String = "1280x720"

    // Three flags of `clumsy run`, with their help and checks from the settings table.
    @Option(name: .customLong("seed"), parsing: .unconditional, help: Self.help("seed", "n"))
    var seed: String?

    @Option(name: .customLong("gravity"), parsing: .unconditional, help: Self.help("gravity", "m/s²"))
    var gravity: String?

    @Option(name: .customLong("speed"), parsing: .unconditional, help: Self.help("speed", "m/s"))
    var speed: String?

    private static func help(_ flag: String, _ valueName: String) -> ArgumentHelp {
        ArgumentHelp(Settings.setting(flag: flag)!.help, valueName: valueName)
    }

    func validate() throws {
        if let trace, !(trace.isFinite && DrawRequest.traceLimits.contains(trace)) {
            throw ValidationError("--trace \(trace) is out of range; accepted: \(Limits.text(DrawRequest.traceLimits, unit: "s"))")
        }
        try validatePicture(size: size, output: output)
    }

    func run() throws {
        var overrides = Overrides()
        overrides.flags = Dictionary(uniqueKeysWithValues: [("seed", seed), ("gravity", gravity), ("speed", speed)]
            .compactMap { flag, text in text.map { (flag, $0) } })
        do {
            let request = DrawRequest(preset: preset, overrides: overrides, outputPath: output, trace: trace,
                                      size: try PictureSize(parsing: size))
            try PictureRunner.draw(request, stop: stopSignal)
        } catch {
            throw fail(error)
        }
        // Interrupted during --trace: the picture holds the trace so far.
        if stopSignal.isRaised { throw ExitCode(128 + stopSignal.raised) }
    }
}
