import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

// The LV2 plugin in a real host: jalv on a JACK server of the test's own (dummy backend),
// driven by jack_transport and read by jack_midi_dump. Every process started here is stopped here.

let jalv = firstExecutable(["/usr/bin/jalv"])
let jackTransport = firstExecutable(["/usr/bin/jack_transport"])
let jackConnect = firstExecutable(["/usr/bin/jack_connect"])

/// The plugin in a real host: jalv on a dummy JACK server of the test's own, the transport
/// driven by jack_transport (timebase master), the output read by jack_midi_dump. Run with the
/// JACK suite (make test runs it apart: a loaded machine makes a dummy server skip cycles).
@Suite("LV2 plugin in jalv and JACK", .serialized,
       .enabled(if: hasJack && jalv != nil && jackTransport != nil && jackConnect != nil, "needs jackd2 and jalv"))
struct PluginJackTests {
    @Test("jack_transport sets 90 bpm and starts: the notes arrive on the transport's beats, the headless host's notes")
    func notesFollowTheTransport() throws {
        let harness = try PluginHarness()
        let preset = try harness.presetIndex("pulse")
        let jack = try JackServer(directory: harness.directory)
        defer { jack.stop() }
        var environment = jack.fullEnvironment
        environment["LV2_PATH"] = harness.directory.path
        let host = try JalvHost(arguments: ["-x", "-n", "clumsy-lv2", "-c", "preset=\(preset)", "-c", "seed=3", "urn:clumsy:lv2"],
                                environment: environment)
        defer { host.stop() }
        try waitForPort("clumsy-lv2:midi_out", jack: jack)
        let dumpPath = harness.directory.file("dump.txt")
        let dump = try jack.dump(client: "lv2dump", into: dumpPath)
        defer { dump.stop() }
        let connect = try CLI.run(["clumsy-lv2:midi_out", "lv2dump:input"], executable: jackConnect!, environment: jack.environment)
        #expect(connect.status == 0, "\(connect)")
        let script = "(printf 'master\\ntempo 90\\nplay\\n'; sleep 6; echo stop; sleep 1; echo quit) | \(jackTransport!)"
        let transport = try CLI.run(["-c", script], executable: "/bin/sh", environment: jack.fullEnvironment, timeout: 30)
        #expect(transport.status == 0, "\(transport)")
        usleep(300_000)
        dump.stop()

        let dumped = parseDump(dump.output).map { PluginMessage(frame: $0.frame, bytes: $0.bytes) }
        let start = try #require(dumped.first, "no MIDI from the plugin in jalv: \(dump.output.prefix(500))").frame
        let window = 4 * Int(PluginHarness.rate)
        let live = noteOns(dumped, from: start, frames: window)
        let (offline, _) = try harness.run(seconds: 5, ["--preset", "\(preset)", "--seed", "3", "--bpm", "90"])
        let expected = noteOns(offline, from: 0, frames: window)
        #expect(live.count > 20, "\(live.count) notes in 4 s")
        #expect(live == expected, "jalv against the headless host at 90 bpm: \(firstDifference(live, expected))")
        let beat = Int(PluginHarness.rate * 60 / 90)
        for stomp in live where stomp.bytes[0] == 0x99 && stomp.bytes[1] == 36 {
            #expect(stomp.frame % (2 * beat) == 0, "a stomp \(stomp.frame) frames after the start, off beats 1 and 3")
        }
    }

    private func waitForPort(_ port: String, jack: JackServer) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let ports = try CLI.run([], executable: jackLsp!, environment: jack.environment, timeout: 5)
            if ports.stdout.contains(port) { return }
            usleep(100_000)
        }
        throw JackNotStarted(log: "jalv did not register \(port)")
    }
}

/// jalv with a pipe for its stdin: it reads commands there and quits at its end. It exits on
/// nothing else while it waits for a line (SIGTERM only marks it done), so `stop` closes the
/// pipe, then waits 3 s, then kills it; either way it is reaped.
final class JalvHost {
    let process = Process()
    private let input = Pipe()
    private var isStopped = false

    init(arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: jalv!)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func stop() {
        guard !isStopped else { return }
        isStopped = true
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}
