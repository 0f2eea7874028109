// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// clumsy-bench: the in-process half of `make bench`.
//
// Steps one preset's world four ways, in the same process, with the same
// `SessionPlan.resolve(preset:duration:)` (same bodies, timestep and sub-steps):
//
//   bare       World(recordsContacts: false).stepWithoutRules(): Chipmunk alone, no
//              collision handlers, no speed rules, no music, no output.
//   world      World.step(): plus the World's rules (bass speed, piano speed limit,
//              escape checks) and contact recording.
//   simulator  Simulator.run(into: []): plus performer, kicks, redrops; no sink.
//   midi       Simulator.run(into: [MIDIRecorder]): what `clumsy run --midi x.mid --quiet`
//              does after start-up, writing into a temporary directory.
//   share      the midi tier again with the World timing Chipmunk (`timesChipmunk`): how much of the
//              full run's wall time is spent inside cpSpaceStep on the session's own
//              trajectory (bare stepping drifts to a different state: no redrops, no kicks).
//
// Repetitions are interleaved (bare, world, simulator, midi, bare, …) so drift in the
// machine's speed hits every tier alike. Each result line is
//
//   tier=<name> rate=<median simulated s per wall s> wall=<median wall s> cpu=<median CPU s>
//        samples=<wall s,…> <details>
//
// and `Benchmarks/bench.sh` reads them. Usage:
//
//   clumsy-bench [--preset default] [--duration 3600] [--repetitions 3]
//                [--tiers bare,world,simulator,midi,share] [--trace]
//
// --trace prints, on stderr, the wall time and sleeping balls at every 5 % of each tier's first run.

import ArgumentParser
import Engine
import Physics
import Sinks
#if canImport(Glibc)
import Glibc
#endif

/// The tiers, in the order they run within a repetition.
let knownTiers = ["bare", "world", "simulator", "midi", "share", "form"]

func fail(_ message: String) -> Never {
    let line = Array("clumsy-bench: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(64)
}

@main
struct ClumsyBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clumsy-bench",
        abstract: "Step one preset's world four ways in one process and print one result line per tier.",
        discussion: "Tiers: bare (Chipmunk alone), world (plus the World's rules and contacts), simulator (plus performer, kicks, redrops), midi (plus the MIDI file), share (midi, timing Chipmunk's part), form (world, with the world saved or restored at every eight-bar line, AABB: form_wall is the time of those saves and restores). Benchmarks/bench.sh reads the output.")

    @Option(help: ArgumentHelp("A bundled preset's name or a preset file.", valueName: "name"))
    var preset = "default"

    @Option(help: ArgumentHelp("Simulated seconds per run (a positive number).", valueName: "s"))
    var duration = 3600.0

    @Option(help: ArgumentHelp("Runs of every tier; the median is reported (a positive integer).", valueName: "n"))
    var repetitions = 3

    @Option(help: ArgumentHelp("Comma-separated tiers to run: \(knownTiers.joined(separator: ", ")).", valueName: "list"))
    var tiers = knownTiers.filter { $0 != "form" }.joined(separator: ",")

    @Flag(help: "Print the wall time and sleeping balls at every 5 % of each tier's first run, on stderr.")
    var trace = false

    var tierList: [String] { tiers.split(separator: ",").map(String.init) }

    func validate() throws {
        guard duration.isFinite, duration > 0 else { throw ValidationError("--duration needs a positive number of seconds, not \(duration)") }
        guard repetitions > 0 else { throw ValidationError("--repetitions needs a positive integer, not \(repetitions)") }
        guard !tierList.isEmpty, tierList.allSatisfy(knownTiers.contains) else {
            throw ValidationError("--tiers takes a comma-separated list of \(knownTiers.joined(separator: ", ")), not \(tiers)")
        }
    }

    func run() throws {
        bench(preset: preset, duration: duration, repetitions: repetitions, tiers: tierList, tracing: trace)
    }
}

/// Monotonic wall time, seconds.
func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

/// CPU seconds used by this process so far (less sensitive than wall time to other load).
func cpuNow() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : 0.5 * (sorted[middle - 1] + sorted[middle])
}

/// `value` with exactly `decimals` digits after the point (no Foundation).
func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(scaled - Double(whole) * scale)
    var text = (value < 0 && scaled > 0 ? "-" : "") + "\(whole)"
    if decimals > 0 {
        let digits = "\(fraction)"
        text += "." + String(repeating: "0", count: decimals - digits.count) + digits
    }
    return text
}

func sleepingCount(_ world: World) -> Int {
    (1..<world.ballCount).filter { world.isSleeping(ball: $0) }.count
}

/// Prints one trace line on stderr.
func trace(_ tier: String, simulated: Double, wall: Double, world: World) {
    let line = "  trace \(tier): t=\(fixed(simulated, 2)) s  wall=\(fixed(wall, 3)) s  sleeping=\(sleepingCount(world))/\(world.ballCount - 1)\n"
    let bytes = Array(line.utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

/// One timed run of a tier: wall seconds and a short description of the end state.
func runTier(_ tier: String, plan: SessionPlan, directory: String, tracing: Bool) -> (wall: Double, details: String, chipmunk: Double?) {
    let steps = plan.stepCount
    let timestep = plan.world.timestep
    switch tier {
    case "form":
        return formTier(plan: plan)
    case "bare", "world":
        let world = World(configuration: plan.world, recordsContacts: tier == "world")
        var contacts = 0
        let traceEvery = tracing ? max(steps / 20, 1) : Int64.max
        let start = now()
        if tier == "bare" {
            for step in 1...max(steps, 1) where step <= steps {
                world.stepWithoutRules()
                if step % traceEvery == 0 { trace(tier, simulated: Double(step) * timestep, wall: now() - start, world: world) }
            }
        } else {
            for step in 1...max(steps, 1) where step <= steps {
                world.step()
                contacts += world.contacts.count
                if step % traceEvery == 0 { trace(tier, simulated: Double(step) * timestep, wall: now() - start, world: world) }
            }
        }
        let wall = now() - start
        var details = "sleeping=\(sleepingCount(world))/\(world.ballCount - 1)"
        if tier == "world" { details += " contacts=\(contacts) escapes=\(world.escapeCount)" }
        return (wall, details, nil)
    default:
        do {
            var sinks: [SessionSink] = []
            let path = directory + "/bench.mid"
            if tier != "simulator" {
                sinks.append(try MIDIRecorder(path: path, plan: plan))
            }
            let simulator = Simulator(plan: plan, timesChipmunk: tier == "share")
            var progress: ((Double) -> Void)? = nil
            let start = now()
            if tracing {
                var lastPercent = 0
                progress = { fraction in
                    let percent = Int((fraction * 100).rounded())
                    if percent >= lastPercent + 5 {
                        lastPercent = percent
                        trace(tier, simulated: fraction * plan.duration, wall: now() - start, world: simulator.world)
                    }
                }
            }
            let summary = try simulator.run(into: sinks, progress: progress)
            let wall = now() - start
            var details = "sleeping=\(sleepingCount(simulator.world))/\(simulator.world.ballCount - 1)"
            details += " notes=\(summary.bassNotes + summary.keyNotes) drops=\(summary.drops) kicks=\(summary.kicks) escapes=\(summary.escapes)"
            if tier != "simulator" {
                var info = stat()
                if stat(path, &info) == 0 { details += " midi_bytes=\(info.st_size)" }
                unlink(path)
            }
            return (wall, details, tier == "share" ? simulator.world.chipmunkSeconds : nil)
        } catch {
            fail("\(tier): \(error)")
        }
    }
}

/// Chipmunk's part of the share tier: median seconds inside cpSpaceStep, their share of
/// the run, and the rate Chipmunk alone would reach on this trajectory.
func shareDetails(wall: Double, chipmunkWalls: [Double], duration: Double) -> String {
    let chipmunk = median(chipmunkWalls)
    return " chipmunk_wall=\(fixed(chipmunk, 4)) chipmunk_share=\(fixed(100 * chipmunk / wall, 1))"
        + " chipmunk_rate=\(fixed(duration / chipmunk, 1))"
}

/// Runs every tier `repetitions` times, interleaved, and prints the result lines.
func bench(preset: String, duration: Double, repetitions: Int, tiers: [String], tracing: Bool) {
    let plan: SessionPlan
    do {
        plan = try SessionPlan.resolve(preset: preset, duration: duration)
    } catch {
        fail("\(error)")
    }

    let temporary = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((temporary + "/clumsy-bench.XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { fail("cannot create a temporary directory") }
    let directory = String(cString: made)

    let world = plan.world
    print("preset=\(preset) duration=\(duration) steps=\(plan.stepCount) "
          + "timestep=\(fixed(world.timestep, 6)) substeps=\(world.substeps) iterations=\(world.iterations) "
          + "balls=\(world.pianoStarts.count + 1) sleeping=\(world.sleepTimeThreshold.map { fixed($0, 2) } ?? "off") "
          + "repetitions=\(repetitions)")
    fflush(nil)

    var walls: [String: [Double]] = [:]
    var cpus: [String: [Double]] = [:]
    var details: [String: String] = [:]
    var chipmunkWalls: [Double] = []
    for repetition in 0..<repetitions {
        for tier in tiers {
            let cpuStart = cpuNow()
            let result = runTier(tier, plan: plan, directory: directory, tracing: tracing && repetition == 0)
            cpus[tier, default: []].append(cpuNow() - cpuStart)
            walls[tier, default: []].append(result.wall)
            details[tier] = result.details
            if let chipmunk = result.chipmunk { chipmunkWalls.append(chipmunk) }
        }
    }
    for tier in tiers {
        let samples = walls[tier]!
        let wall = median(samples)
        print("tier=\(tier) rate=\(fixed(duration / wall, 1)) wall=\(fixed(wall, 4)) cpu=\(fixed(median(cpus[tier]!), 4)) "
              + "samples=\(samples.map { fixed($0, 4) }.joined(separator: ",")) \(details[tier]!)"
              + (tier == "share" ? shareDetails(wall: wall, chipmunkWalls: chipmunkWalls, duration: duration) : ""))
    }
    rmdir(directory)
}

/// The form tier: the world stepped with its rules and contacts, saved (`rebase`) at the first
/// line of each section and restored at each return, sections of eight bars in AABB order.
func formTier(plan: SessionPlan) -> (wall: Double, details: String, chipmunk: Double?) {
    let world = World(configuration: plan.world)
    let lineSteps = max(1, Int64((8 * plan.clock.barSeconds / plan.world.timestep).rounded()))
    let sections = [0, 0, 1, 1]
    var saved: [Int: WorldState] = [:]
    var formWall = 0.0
    var longest = 0.0
    var lines = 0
    let start = now()
    for step in 0..<plan.stepCount {
        if step % lineSteps == 0 {
            let section = sections[Int(step / lineSteps) % sections.count]
            let begin = now()
            if let state = saved[section] { world.restore(state) } else { saved[section] = world.rebase() }
            formWall += now() - begin
            longest = max(longest, now() - begin)
            lines += 1
        }
        world.step()
    }
    let wall = now() - start
    return (wall, "lines=\(lines) form_wall=\(fixed(formWall, 5)) form_share=\(fixed(100 * formWall / wall, 3)) form_longest=\(fixed(longest, 5))", nil)
}
