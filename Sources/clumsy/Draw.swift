import ArgumentParser
import Session

struct Draw: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw the world of a preset to scale (PNG, SVG or PDF).",
        discussion: """
        Walls, bouncers labelled with their degree and chord, keys with the chord tone they play,
        the balls at their start, and a legend. With --trace, the paths of every ball over the
        first seconds, each hit marked and coloured by its velocity.
        Exit status: 0 ok, 64 bad flag, 65 bad preset, 66 unknown preset, 73 output cannot be created, 74 write error.
        """)

    @Argument(help: "A bundled preset's name or a path to a preset file.")
    var preset: String = "default"

    @Option(name: .shortAndLong, help: ArgumentHelp("The picture to write: .png, .svg or .pdf.", valueName: "file"))
    var output: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Draw the balls' paths and hits over the first <s> simulated seconds (\(Limits.text(DrawRequest.traceLimits)) s).", valueName: "s"))
    var trace: Double?

    @Option(help: ArgumentHelp("Picture size in pixels, 64x64…3840x2160 (default 1280x720).", valueName: "WxH"))
    var size: String = "1280x720"

    @Option(parsing: .unconditional, help: ArgumentHelp("Random seed (overrides the preset's).", valueName: "n"))
    var seed: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Gravity on the piano balls in m/s² (\(Limits.text(Limits.gravity))).", valueName: "m/s²"))
    var gravity: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Bass ball speed in m/s (\(Limits.text(Limits.speed))).", valueName: "m/s"))
    var speed: Double?

    func validate() throws {
        if let seed, UInt64(seed) == nil {
            throw ValidationError("--seed \(seed) is not accepted; expected a whole number 0…\(UInt64.max)")
        }
        if let trace { try check("--trace", trace, DrawRequest.traceLimits, unit: "s") }
        if let gravity { try check("--gravity", gravity, Limits.gravity, unit: "m/s²") }
        if let speed { try check("--speed", speed, Limits.speed, unit: "m/s") }
        do {
            _ = try PictureSize(parsing: size)
            _ = try PictureRunner.format(of: output)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        installSignalHandlers()
        let request: DrawRequest
        do {
            request = DrawRequest(preset: preset, overrides: Overrides(seed: seed.flatMap { UInt64($0) }, gravity: gravity, speed: speed),
                                  outputPath: output, trace: trace, size: try PictureSize(parsing: size))
            try PictureRunner.draw(request, stop: stopSignal)
        } catch {
            throw fail(error)
        }
        // Interrupted during --trace: the picture holds the trace so far.
        if stopSignal.isRaised { throw ExitCode(128 + stopSignal.raised) }
    }
}
