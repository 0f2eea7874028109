import ArgumentParser
import Session
#if canImport(Glibc)
import Glibc
#endif

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a session and record it.",
        discussion: """
        With no --midi or --events, the performance is printed as readable lines, then a summary.
        Exit status: 0 ok, 64 bad flag, 65 bad preset, 66 unknown preset or unreadable file,
        73 output cannot be created, 74 write error, 130/143 interrupted (files complete up to then).
        """)

    @Argument(help: "A bundled preset's name (see `clumsy presets`) or a path to a preset file.")
    var preset: String = "default"

    @Option(help: ArgumentHelp("Simulated seconds to run (\(Limits.text(Limits.duration)) s).", valueName: "s"))
    var duration: Double = 60

    @Option(help: ArgumentHelp("Random seed (overrides the preset's): same seed, same session.", valueName: "n"))
    var seed: UInt64?

    @Option(help: ArgumentHelp("Gravity on the piano balls in m/s² (\(Limits.text(Limits.gravity)); 9.81 = Earth).", valueName: "m/s²"))
    var gravity: Double?

    @Option(help: ArgumentHelp("Bass ball speed in m/s (\(Limits.text(Limits.speed))).", valueName: "m/s"))
    var speed: Double?

    @Option(help: ArgumentHelp("Write a Standard MIDI File (format 1, tracks Bass and Keys).", valueName: "file.mid"))
    var midi: String?

    @Option(help: ArgumentHelp("Write the event log as JSON Lines.", valueName: "file.jsonl"))
    var events: String?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        try check("--duration", duration, Limits.duration, unit: "s")
        if let gravity { try check("--gravity", gravity, Limits.gravity, unit: "m/s²") }
        if let speed { try check("--speed", speed, Limits.speed, unit: "m/s") }
        if let midi, midi.isEmpty { throw ValidationError("--midi needs a file name") }
        if let events, events.isEmpty { throw ValidationError("--events needs a file name") }
        if let midi, let events, midi == events { throw ValidationError("--midi and --events name the same file") }
    }

    func run() throws {
        installSignalHandlers()
        let request = RunRequest(preset: preset, duration: duration,
                                 overrides: Overrides(seed: seed, gravity: gravity, speed: speed),
                                 midiPath: midi, eventsPath: events, isQuiet: quiet)
        let summary: Summary
        do {
            summary = try SessionRunner.run(request, stop: stopSignal)
        } catch {
            throw fail(error)
        }
        if summary.wasInterrupted {
            let signal = stopSignal.raised
            throw ExitCode(128 + signal)
        }
    }
}

/// Rejects NaN, infinities and values outside `range`, naming the flag and the range.
func check(_ flag: String, _ value: Double, _ range: ClosedRange<Double>, unit: String) throws {
    guard value.isFinite else {
        throw ValidationError("\(flag) must be a finite number in \(Limits.text(range, unit: unit)), not \(value)")
    }
    guard range.contains(value) else {
        throw ValidationError("\(flag) \(Format.plain(value)) is out of range; accepted: \(Limits.text(range, unit: unit))")
    }
}

/// SIGINT and SIGTERM ask the running session to stop at the next step.
func installSignalHandlers() {
    let handler: @convention(c) (Int32) -> Void = { number in stopSignal.raise(number) }
    signal(SIGINT, handler)
    signal(SIGTERM, handler)
    signal(SIGPIPE, SIG_IGN)
}
