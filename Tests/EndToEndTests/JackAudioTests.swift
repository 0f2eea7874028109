// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// Live JACK audio that sounds (issue 33): `--live --audio-driver jack` is JACK client
/// `clumsy`, on the system's playback ports unless `--connect-audio` says otherwise; the clock
/// port is connected by `--connect-clock` alone. In `StudioEndToEndTests`, so `make test` runs
/// it in its JACK phase, one test at a time.
extension StudioEndToEndTests {
    /// The connections `jack_lsp -c` shows for each port whose name starts with `prefix`.
    static func connections(_ jack: JackServer, of prefix: String) async throws -> [String: [String]] {
        let listing = try await CLI.run(["-c"], executable: jackLsp!, environment: jack.environment, timeout: 10).stdout
        var result: [String: [String]] = [:]
        var current: String?
        for line in listing.split(separator: "\n") {
            if line.hasPrefix(" ") || line.hasPrefix("\t") {
                if let current { result[current, default: []].append(line.trimmingCharacters(in: .whitespaces)) }
            } else {
                current = line.hasPrefix(prefix) ? String(line) : nil
                if let current { result[current] = result[current] ?? [] }
            }
        }
        return result
    }

    /// Runs `clumsy arguments` in the background on `jack` and returns the connections of the
    /// ports starting with `prefix` once all of `ports` are registered (or after 20 s).
    static func connectionsWhilePlaying(_ jack: JackServer, _ arguments: [String], ports: [String], prefix: String = "clumsy:",
                                        directory: TemporaryDirectory) async throws -> [String: [String]] {
        var environment = jack.fullEnvironment
        environment["CLUMSY_UNDER_TEST"] = nil
        let session = try Background(CLI.executable, arguments, environment: environment, output: directory.file("clumsy.log"))
        defer { session.stop(signal: SIGINT) }
        let deadline = Date().addingTimeInterval(20)
        var seen: [String: [String]] = [:]
        while Date() < deadline && session.isRunning {
            seen = try await connections(jack, of: prefix)
            if ports.allSatisfy({ seen[$0] != nil }) {
                // FluidSynth connects right after registering: until every port has a connection,
                // or 3 s (a session asked to connect nothing).
                try await waitUntil(timeout: 3) {
                    seen = try await connections(jack, of: prefix)
                    return ports.allSatisfy { seen[$0]?.isEmpty == false }
                }
                return seen
            }
            await pause(0.1)
        }
        Issue.record("the ports \(ports) never appeared; clumsy said: \(session.output.suffix(600))")
        return seen
    }

    @Test("--live --audio-driver jack: client clumsy, clumsy:left and :right on system:playback_1 and _2; --connect-audio moves or drops them")
    func liveAudioIsConnected() async throws {
        let directory = try TemporaryDirectory()
        let jack = try await JackServer(directory: directory)
        defer { jack.stop() }
        let live = ["run", "default", "--live", "--audio-driver", "jack", "--duration", "30", "--soundfont", smallSoundFont]
        let ports = ["clumsy:left", "clumsy:right"]
        let plain = try await Self.connectionsWhilePlaying(jack, live, ports: ports, directory: directory)
        #expect(plain["clumsy:left"] == ["system:playback_1"] && plain["clumsy:right"] == ["system:playback_2"], "\(plain)")
        let moved = try await Self.connectionsWhilePlaying(jack, live + ["--connect-audio", "system:playback_2"], ports: ports, directory: directory)
        #expect(moved["clumsy:left"] == ["system:playback_2"] && moved["clumsy:right"] == ["system:playback_2"], "\(moved)")
        let swapped = try await Self.connectionsWhilePlaying(jack, live + ["--connect-audio", "system:playback_2", "--connect-audio", "system:playback_1"],
                                                       ports: ports, directory: directory)
        #expect(swapped["clumsy:left"] == ["system:playback_2"] && swapped["clumsy:right"] == ["system:playback_1"], "\(swapped)")
        let none = try await Self.connectionsWhilePlaying(jack, live + ["--connect-audio", "none"], ports: ports, directory: directory)
        #expect(none["clumsy:left"] == [] && none["clumsy:right"] == [], "\(none)")
        let missing = try await CLI.run(live + ["--connect-audio", "nobody:in"], environment: jack.environment, timeout: 30)
        #expect(missing.status == 64 && missing.stderr.contains("--connect-audio nobody:in"), "\(missing)")
    }

    @Test("--connect reaches the voices' ports and not the clock; --connect-clock the clock alone")
    func clockHasItsOwnConnection() async throws {
        let directory = try TemporaryDirectory()
        let jack = try await JackServer(directory: directory)
        defer { jack.stop() }
        let voices = try await jack.dump(client: "voices", into: directory.file("voices.txt"))
        defer { voices.stop() }
        let clock = try await jack.dump(client: "clock", into: directory.file("clock.txt"))
        defer { clock.stop() }
        let seen = try await Self.connectionsWhilePlaying(jack, ["run", "default", "--live", "--midi-out", "jack", "--clock-out", "--connect", "voices:input",
                                                           "--connect-clock", "clock:input", "--duration", "30"],
                                                    ports: ["clumsy:bass", "clumsy:keys", "clumsy:clock"], directory: directory)
        #expect(seen["clumsy:clock"] == ["clock:input"], "\(seen)")
        #expect(seen["clumsy:bass"] == ["voices:input"] && seen["clumsy:keys"] == ["voices:input"], "\(seen)")
        let refused = try await CLI.run(["run", "default", "--live", "--midi-out", "jack", "--connect-clock", "clock:input", "--duration", "2"],
                                  environment: jack.environment, timeout: 20)
        #expect(refused.status == 64 && refused.stderr.contains("--connect-clock only applies with --midi-out jack --clock-out"), "\(refused)")
    }
}

extension StudioEndToEndTests {
    @Test("The README's and guides' blocks that start a JACK server run as written, from a script")
    func jackRecipesRun() async throws {
        let blocks = DocumentedCommands.all().filter(\.startsJack)
        #expect(blocks.contains { $0.place.hasPrefix("README.md") }, "no JACK recipe in the README: \(blocks.map(\.place))")
        for block in blocks { try await DocumentationTests.run(block) }
    }
}
