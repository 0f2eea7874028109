// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import EventLog
import Foundation
import MIDIFile
import Session
import Synchronization
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

// Shared helpers for the end-to-end tests: they run the real `clumsy` executable
// (built beside the test bundle) as a child process and look only at what a user
// sees — exit status, stdout, stderr and the files it writes.

/// What one run of `clumsy` (or of another program, see `CLI.run`'s `executable`) did.
struct RunResult: CustomStringConvertible {
    /// Exit status (when `signalled` is false) or the signal number that ended it.
    var status: Int32
    /// True when the process was ended by a signal it did not handle.
    var signalled: Bool
    /// True when the helper had to kill it after the timeout.
    var timedOut: Bool
    var stdout: String
    var stderr: String
    /// Wall-clock seconds from launch to exit.
    var elapsed: Double
    /// Every argument after the program's name (prefix arguments included).
    var arguments: [String]
    /// The program that ran: "clumsy", or the path of the executable run instead of it.
    var program = "clumsy"

    var description: String {
        "\(program) \(arguments.joined(separator: " ")) → status \(status)\(signalled ? " (signal)" : "")\(timedOut ? " (timed out)" : ""), "
            + "\(String(format: "%.2f", elapsed)) s\n--- stdout:\n\(stdout.prefix(2000))\n--- stderr:\n\(stderr.prefix(2000))"
    }

    /// Non-empty stdout lines.
    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
}

struct ExecutableNotFound: Error, CustomStringConvertible {
    var directory: String
    var description: String { "no `clumsy` executable beside the test bundle in \(directory); build with `swift build --build-tests`" }
}

/// True when the slow checks run: measurements of the music that `make test` leaves to `make
/// musicality` and `make slow-checks` (CLUMSY_SLOW_CHECKS=1). A test gated on it still fails
/// when it runs and its measure is not met.
let slowChecksEnabled = ProcessInfo.processInfo.environment["CLUMSY_SLOW_CHECKS"] == "1"

/// Runs the `clumsy` executable built with the tests.
enum CLI {
    /// The directory holding the test bundle's executable (`/proc/self/exe`), where SwiftPM
    /// also puts `clumsy`.
    static let productsDirectory: String = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent().path
    }()

    /// Path of the `clumsy` under test: the one `$CLUMSY_UNDER_TEST` names, else the debug build
    /// beside the test bundle. `make test` names the release build (what `make install` ships,
    /// and a tenth of the debug build's CPU per run); naming an older binary checks that a new
    /// test fails on it.
    static var executable: String { ProcessInfo.processInfo.environment["CLUMSY_UNDER_TEST"] ?? productsDirectory + "/clumsy" }

    /// The directory of the `clumsy` under test, first on the PATH of scripts that call `clumsy`.
    static var executableDirectory: String { URL(fileURLWithPath: executable).deletingLastPathComponent().path }

    /// The environment every run gets: ours, minus anything that would change which presets are found.
    static let environment: [String: String] = {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "CLUMSY_PRESETS")
        // Clumsy's messages are checked as a UTF-8 terminal shows them (TerminalOutput.isASCII):
        // the machine running the tests may have no locale set at all.
        environment["LC_ALL"] = "C.UTF-8"
        return environment
    }()

    /// Runs `clumsy arguments…` with working directory `directory` (default: the test process's),
    /// stdin from /dev/null, capturing stdout and stderr (neither is a terminal).
    /// Kills it and marks `timedOut` after `timeout` seconds (a hang guard: 120 by default, since a
    /// 20 s swarm render took over 30 s beside two builds; no test relies on it firing). `whileRunning` is called with the
    /// child's pid right after launch (used to send signals). SIGINT and SIGTERM are unblocked
    /// in the child unless `inheritBlockedSignals` (then they are blocked).
    ///
    /// `executable` runs another program instead of `clumsy` (sox, mount, or valgrind with
    /// `CLI.executable` among its `prefix` arguments); `prefix` goes before `arguments`.
    /// The environment is `CLI.environment` with `changes` applied (a nil value removes the variable).
    static func run(_ arguments: [String], executable other: String? = nil, prefix: [String] = [],
                    environment changes: [String: String?] = [:], in directory: String? = nil, timeout: Double = 120,
                    inheritBlockedSignals: Bool = false, whileRunning: ((Int32) async -> Void)? = nil) async throws -> RunResult {
        // At most `ChildSlots.width` tests' children at once: awaiting tests hold no thread, and
        // without a bound every test of the suite would start its processes together on two cores.
        // A child started while the test already holds a slot (in `whileRunning`) takes none.
        if ChildSlots.held {
            return try await runNow(arguments, executable: other, prefix: prefix, environment: changes, in: directory, timeout: timeout,
                                    inheritBlockedSignals: inheritBlockedSignals, whileRunning: whileRunning)
        }
        await ChildSlots.shared.acquire()
        do {
            let result = try await ChildSlots.$held.withValue(true) {
                try await runNow(arguments, executable: other, prefix: prefix, environment: changes, in: directory, timeout: timeout,
                                 inheritBlockedSignals: inheritBlockedSignals, whileRunning: whileRunning)
            }
            await ChildSlots.shared.release()
            return result
        } catch {
            await ChildSlots.shared.release()
            throw error
        }
    }

    private static func runNow(_ arguments: [String], executable other: String?, prefix: [String], environment changes: [String: String?],
                               in directory: String?, timeout: Double, inheritBlockedSignals: Bool,
                               whileRunning: ((Int32) async -> Void)?) async throws -> RunResult {
        let child = try Child(prefix + arguments, executable: other, environment: changes, in: directory,
                              inheritBlockedSignals: inheritBlockedSignals)
        await whileRunning?(child.pid)
        // The test waits without holding a thread: Swift Testing runs tests on a pool as wide as
        // the machine's cores, and a test blocked on its child would keep others from starting.
        let guardTimer = child.killAfter(timeout)
        await child.exit.wait()
        guardTimer.cancel()
        return child.result()
    }

    /// `run` for the initializer of a global, which cannot await: blocks its thread until the
    /// child ends (or `timeout` passes). Only for the few one-off probes of what this machine has.
    static func runBlocking(_ arguments: [String], executable other: String, timeout: Double = 120) throws -> RunResult {
        let child = try Child(arguments, executable: other, environment: [:], in: nil, inheritBlockedSignals: false)
        let guardTimer = child.killAfter(timeout)
        child.exit.blockingWait()
        guardTimer.cancel()
        return child.result()
    }

    /// One child process, started: stdout and stderr captured into files (no full pipe can block it).
    final class Child {
        let process = Process()
        let exit = ChildExit()
        let capture: TemporaryDirectory
        let program: String
        let arguments: [String]
        let start = Date()
        var pid: Int32 { process.processIdentifier }

        init(_ arguments: [String], executable other: String?, environment changes: [String: String?], in directory: String?,
             inheritBlockedSignals: Bool) throws {
            if other == nil, !FileManager.default.isExecutableFile(atPath: CLI.executable) {
                throw ExecutableNotFound(directory: productsDirectory)
            }
            self.arguments = arguments
            program = other ?? "clumsy"
            capture = try TemporaryDirectory(prefix: "capture")
            _ = FileManager.default.createFile(atPath: capture.file("stdout"), contents: nil)
            _ = FileManager.default.createFile(atPath: capture.file("stderr"), contents: nil)
            let out = try FileHandle(forWritingTo: URL(fileURLWithPath: capture.file("stdout")))
            let err = try FileHandle(forWritingTo: URL(fileURLWithPath: capture.file("stderr")))
            defer {
                try? out.close()
                try? err.close()
            }
            var environment = CLI.environment
            for (name, value) in changes { environment[name] = value }
            process.executableURL = URL(fileURLWithPath: other ?? CLI.executable)
            process.arguments = arguments
            process.environment = environment
            if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = out
            process.standardError = err
            let exit = exit
            process.terminationHandler = { _ in exit.finish() }
            try Self.spawn(process, inheritBlockedSignals: inheritBlockedSignals)
        }

        /// The hang guard: kills the child after `timeout` seconds unless it ended (cancel it then).
        func killAfter(_ timeout: Double) -> DispatchWorkItem {
            let exit = exit, pid = pid
            let item = DispatchWorkItem { if exit.expire() { kill(pid, SIGKILL) } }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: item)
            return item
        }

        /// What it did, once it has ended.
        func result() -> RunResult {
            // From the launch to the exit as the termination handler saw it, not to when this
            // test resumed: a test awaiting on a busy pool resumed seconds late, and a 3 s live
            // session measured 34 s (make test at 709ae2c) though its 30 s guard never fired.
            let elapsed = (exit.endedAt ?? Date()).timeIntervalSince(start)
            let stdout = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: capture.file("stdout")))) ?? Data(), as: UTF8.self)
            let stderr = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: capture.file("stderr")))) ?? Data(), as: UTF8.self)
            return RunResult(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                             timedOut: exit.timedOut, stdout: stdout, stderr: stderr, elapsed: elapsed, arguments: arguments,
                             program: program)
        }

        /// Starts `process`. The child inherits this thread's signal mask, and test code runs on
        /// threads that block SIGINT and SIGTERM: spawn with them unblocked, as from a shell,
        /// unless the caller wants to see what happens when they are inherited blocked.
        private static func spawn(_ process: Process, inheritBlockedSignals: Bool) throws {
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGINT)
            sigaddset(&signals, SIGTERM)
            var previousMask = sigset_t()
            pthread_sigmask(inheritBlockedSignals ? SIG_BLOCK : SIG_UNBLOCK, &signals, &previousMask)
            defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }
            try process.run()
        }
    }
}

/// How many tests may have children running at once: twice the cores, or `$CLUMSY_TEST_CHILDREN`.
/// A test waiting for a slot holds no thread.
actor ChildSlots {
    static let width = ProcessInfo.processInfo.environment["CLUMSY_TEST_CHILDREN"].flatMap { Int($0) }.map { max(1, $0) }
        ?? 2 * ProcessInfo.processInfo.activeProcessorCount
    static let shared = ChildSlots()
    /// True inside a test's `CLI.run` (its `whileRunning`): a child started there takes no slot.
    @TaskLocal static var held = false
    private var free = ChildSlots.width
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}

/// The end of one child process, awaited: `finish` (its termination handler) resumes the one
/// waiter, however the two race; `expire` (the hang guard) marks it timed out unless it ended.
final class ChildExit: Sendable {
    private struct State {
        var finished = false
        var timedOut = false
        var endedAt: Date?
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())
    private let ended = DispatchSemaphore(value: 0)

    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.finished = true
            state.endedAt = Date()
            defer { state.waiter = nil }
            return state.waiter
        }
        ended.signal()
        waiter?.resume()
    }

    /// True when the child was still running: the caller kills it.
    func expire() -> Bool {
        state.withLock { state in
            if state.finished { return false }
            state.timedOut = true
            return true
        }
    }

    var timedOut: Bool { state.withLock { $0.timedOut } }

    /// When the child ended, as its termination handler saw it (nil while it runs).
    var endedAt: Date? { state.withLock { $0.endedAt } }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { state -> Bool in
                if !state.finished { state.waiter = continuation }
                return state.finished
            }
            if finished { continuation.resume() }
        }
    }

    func blockingWait() { ended.wait() }
}

/// The first of `candidates` that is an executable file.
func firstExecutable(_ candidates: [String]) -> String? {
    candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Peak resident memory in KB (GNU time's %M) of `clumsy arguments…` run in `directory`; expects exit 0.
func peakKilobytes(_ arguments: [String], in directory: TemporaryDirectory, timeout: Double) async throws -> Int {
    let result = try await CLI.run(["-f", "%M", CLI.executable] + arguments, executable: "/usr/bin/time", in: directory.path, timeout: timeout)
    #expect(result.status == 0, "\(result)")
    return Int(result.stderr.split(separator: "\n").last.map(String.init) ?? "") ?? -1
}

/// The one temporary-directory helper (TestSupport), by its short name in every file here.
typealias TemporaryDirectory = TestSupport.TemporaryDirectory

/// The checkout these tests belong to (this file is Tests/EndToEndTests/Support.swift).
let projectRoot: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// The bundled preset files in the checkout, sorted by name.
func bundledPresetFiles() -> [String] {
    let directory = projectRoot + "/Presets"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().map { directory + "/" + $0 }
}

/// The bundled preset names (file stems) in the checkout.
func bundledPresetNames() -> [String] {
    bundledPresetFiles().map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
}

/// Bytes of a file, or nil if it cannot be read.
func bytes(of path: String) -> [UInt8]? {
    (try? Data(contentsOf: URL(fileURLWithPath: path))).map { [UInt8]($0) }
}

func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

struct GoldenMissing: Error, CustomStringConvertible {
    var name: String
    var description: String { "Golden/\(name) is not in the test bundle's resources" }
}

/// Bytes of a file in the test bundle's Golden directory.
func goldenBytes(_ name: String) throws -> [UInt8] {
    guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Golden") else {
        throw GoldenMissing(name: name)
    }
    return [UInt8](try Data(contentsOf: url))
}

// MARK: Event log

/// One line of the event log (`--events`): the program's own record type, so that the tests
/// read the log as `roll` and `replay` do.
typealias LogEvent = EventLogRecord

struct BadLogLine: Error, CustomStringConvertible {
    var number: Int
    var line: String
    var description: String { "event log line \(number) is not a valid event: \(line)" }
}

/// Parses an event log (JSON Lines); every line must be a record (`EventLogRecord`).
func readEventLog(_ path: String) throws -> [LogEvent] {
    let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    var events: [LogEvent] = []
    guard text.isEmpty || text.hasSuffix("\n") else { throw BadLogLine(number: 0, line: "(the log does not end with a newline)") }
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
        do {
            events.append(try EventLogRecord(parsing: Array(line.utf8), path: path, line: index + 1))
        } catch {
            throw BadLogLine(number: index + 1, line: "\(line): \(error)")
        }
    }
    return events
}

// MARK: MIDI

/// Note-on / note-off pairing problems in one track: unmatched note-offs, note-ons never
/// ended, note-offs before their note-on. Empty when every note-on has a later note-off.
func pairingProblems(_ track: [MIDIEvent]) -> [String] {
    var open: [UInt16: [UInt64]] = [:]  // channel << 8 | note → ticks of sounding note-ons (FIFO)
    var problems: [String] = []
    for event in track {
        switch event.message {
        case .noteOn(let channel, let note, let velocity) where velocity > 0:
            open[UInt16(channel) << 8 | UInt16(note), default: []].append(event.tick)
        case .noteOff(let channel, let note, _), .noteOn(let channel, let note, 0):
            let id = UInt16(channel) << 8 | UInt16(note)
            if var ticks = open[id], !ticks.isEmpty {
                let onTick = ticks.removeFirst()
                open[id] = ticks
                if event.tick < onTick { problems.append("note \(note) ends at tick \(event.tick) before it starts at \(onTick)") }
            } else {
                problems.append("note-off without a note-on: channel \(channel) note \(note) at tick \(event.tick)")
            }
        default:
            break
        }
    }
    for (id, ticks) in open where !ticks.isEmpty {
        problems.append("channel \(id >> 8) note \(id & 0xFF) started at ticks \(ticks) never ends")
    }
    return problems
}

/// Note-ons (velocity > 0) in a track.
func noteOns(_ track: [MIDIEvent]) -> [(tick: UInt64, channel: UInt8, note: UInt8, velocity: UInt8)] {
    track.compactMap { event in
        if case .noteOn(let channel, let note, let velocity) = event.message, velocity > 0 {
            return (event.tick, channel, note, velocity)
        }
        return nil
    }
}

// MARK: mido (independent reader)

/// Python's `mido`, used as an independent MIDI file reader when installed.
enum Mido {
    /// True if `python3 -c "import mido"` succeeds.
    static let isAvailable: Bool = (try? python(["-c", "import mido"]))?.status == 0

    /// Prints, as JSON, per track: name, note_on count, note_off count, channels used by notes.
    static let summaryScript = """
    import sys, json, mido
    mid = mido.MidiFile(sys.argv[1], charset="utf-8")
    tracks = []
    for track in mid.tracks:
        name = next((m.name for m in track if m.type == "track_name"), None)
        ons = sum(1 for m in track if m.type == "note_on")
        offs = sum(1 for m in track if m.type == "note_off")
        channels = sorted({m.channel for m in track if m.type in ("note_on", "note_off")})
        tracks.append({"name": name, "noteOns": ons, "noteOffs": offs, "channels": channels})
    print(json.dumps({"type": mid.type, "ticksPerBeat": mid.ticks_per_beat, "tracks": tracks}))
    """

    struct Summary: Decodable, Equatable {
        struct Track: Decodable, Equatable {
            var name: String?
            var noteOns: Int
            var noteOffs: Int
            var channels: [Int]
        }
        var type: Int
        var ticksPerBeat: Int
        var tracks: [Track]
    }

    struct Failed: Error, CustomStringConvertible {
        var output: String
        var description: String { "python3/mido failed: \(output)" }
    }

    /// mido's view of the MIDI file at `path`.
    static func summary(of path: String) throws -> Summary {
        let result = try python(["-c", summaryScript, path])
        guard result.status == 0 else { throw Failed(output: result.output) }
        return try JSONDecoder().decode(Summary.self, from: Data(result.output.utf8))
    }

    static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// Polls `condition` every 20 ms for up to `timeout` seconds; true once it holds. The end-to-end
/// tests wait this way for what a run has reached (a port, a file, a handler) where a fixed
/// sleep would guess it from the machine's speed.
/// It sleeps without holding a thread of the test pool.
@discardableResult
func waitUntil(timeout: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let start = Date()
    while Date().timeIntervalSince(start) < timeout {
        if try await condition() { return true }
        await pause(0.02)
    }
    return false
}

/// Waits `seconds` without holding a thread. Swift Testing runs tests on a pool as wide as the
/// machine's cores: a test that blocked its thread (usleep) for seconds kept other tests from
/// sending their signals on time, and a render signalled late has more to write when it stops
/// (issue 45: a Vorbis stop measured at 30 s in CI, the signal late, not the stop).
func pause(_ seconds: Double) async {
    try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
}

/// The size in bytes of the file at `path`; 0 when there is none.
func fileSize(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
}

/// Waits up to `timeout` seconds until process `pid` catches SIGINT (signal 2's bit in the
/// `SigCgt` mask of /proc/<pid>/status). Clumsy installs its stop handlers (SIGINT, SIGTERM,
/// SIGHUP, SIGQUIT) together, so a signal sent after this is its own to handle, however slowly a
/// busy machine started it. Swift's runtime catches SIGQUIT itself, so that bit would prove nothing.
@discardableResult
func waitForStopHandlers(_ pid: pid_t, timeout: Double = 30) async -> Bool {
    await waitUntil(timeout: timeout) { catchesSIGINT(pid) }
}

/// Whether process `pid` catches SIGINT now (see `waitForStopHandlers`).
func catchesSIGINT(_ pid: pid_t) -> Bool {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let mask = status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }
        .flatMap { UInt64($0.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) } ?? 0
    return mask & (1 << UInt64(SIGINT - 1)) != 0
}

/// Whether `directory` holds, for each prefix, an entry whose name starts with it.
func hasEntries(withPrefixes prefixes: [String], in directory: String) -> Bool {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return prefixes.allSatisfy { prefix in names.contains { $0.hasPrefix(prefix) } }
}
