// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The commands of docs/studio.md's ```console blocks (issue 47): each line, its `\`
/// continuations joined and its trailing `# comment` cut, by block.
enum StudioRecipes {
    static func blocks() throws -> [[String]] {
        let text = try String(contentsOfFile: projectRoot + "/docs/studio.md", encoding: .utf8)
        var blocks: [[String]] = []
        var current: [String]?
        var pending = ""
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil {
                if trimmed == "```console" { current = [] }
                continue
            }
            if trimmed == "```" {
                blocks.append(current!)
                current = nil
                continue
            }
            let command = pending + withoutComment(line).trimmingCharacters(in: .whitespaces)
            if command.hasSuffix("\\") {
                pending = String(command.dropLast()) + " "
            } else {
                pending = ""
                if !command.isEmpty { current!.append(command) }
            }
        }
        return blocks
    }

    /// `line` up to a `#` that starts a word outside quotes.
    static func withoutComment(_ line: String) -> String {
        var quote: Character?
        var previous: Character = " "
        for (offset, character) in line.enumerated() {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#" && previous.isWhitespace {
                return String(line.prefix(offset))
            }
            previous = character
        }
        return line
    }

    /// A command's words, split at blanks (no quotes in the commands this reads by word).
    static func words(_ command: String) -> [String] { command.split(separator: " ").map(String.init) }

    /// The `clumsy run` commands that need only a JACK server (and the programs the guide starts
    /// beside it): a JACK flag, no ALSA, no Ableton Link (a network: `LinkTests` runs it in a
    /// namespace of its own).
    static func jackOnly(_ blocks: [[String]]) -> [String] {
        blocks.flatMap { $0 }.filter { command in
            let words = Self.words(command)
            return command.hasPrefix("clumsy run ") && words.contains { $0.hasPrefix("jack") }
                && !words.contains { $0.hasPrefix("alsa") } && !words.contains("--link")
        }
    }

    /// The programs the guide starts in the background beside JACK (`fluidsynth …&`,
    /// `jack_midi_clock &`): neither the server (the test's own) nor clumsy.
    static func helpers(_ blocks: [[String]]) -> [String] {
        blocks.flatMap { $0 }.filter { $0.hasSuffix("&") && !$0.hasPrefix("jackd ") && !$0.hasPrefix("clumsy ") }
            .map { String($0.dropLast()).trimmingCharacters(in: .whitespaces) }
    }
}

let fluidSynthProgram = firstExecutable(["/usr/bin/fluidsynth"])

extension StudioEndToEndTests {
    /// The environment of a recipe run on `jack` as a user's shell runs it: clumsy first on
    /// PATH, and no ALSA device (an ALSA configuration that defines none, as on a machine whose
    /// only sound is a JACK server, a dummy one here).
    static func recipeEnvironment(_ jack: JackServer, _ directory: TemporaryDirectory) -> [String: String] {
        let noALSA = directory.file("no-alsa.conf")
        _ = FileManager.default.createFile(atPath: noALSA, contents: Data())
        var environment = jack.fullEnvironment
        environment["CLUMSY_UNDER_TEST"] = nil
        environment["ALSA_CONFIG_PATH"] = noALSA
        environment["PATH"] = CLI.executableDirectory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    @Test("docs/studio.md's recipes that need only JACK run as written with no ALSA device: --midi-in jack plays through JACK; the JACK MIDI, clock and transport ones play",
          .enabled(if: fluidSynthProgram != nil && FileManager.default.fileExists(atPath: "/usr/share/sounds/sf2/FluidR3_GM.sf2")
                   && jackMIDIClock != nil, "needs fluidsynth, fluid-soundfont-gm and jack-midi-clock, as the guide's recipes do"))
    func studioRecipesRunOnJackAlone() async throws {
        let blocks = try StudioRecipes.blocks()
        let recipes = StudioRecipes.jackOnly(blocks)
        let midiIn = try #require(recipes.first { $0.contains("--midi-in jack") }, "no --midi-in jack recipe in docs/studio.md: \(recipes)")
        #expect(recipes.count >= 4, "\(recipes)")
        let directory = try TemporaryDirectory()
        let jack = try await JackServer(directory: directory)
        defer { jack.stop() }
        let environment = Self.recipeEnvironment(jack, directory)
        var helpers: [Background] = []
        defer { for helper in helpers { helper.stop() } }
        for (index, helper) in StudioRecipes.helpers(blocks).enumerated() {
            helpers.append(try Background("/bin/bash", ["-c", "exec " + helper], environment: environment, output: directory.file("helper-\(index).log")))
        }
        try await Self.waitForPorts(["fluidsynth-midi:midi_00", "jack_midi_clock:mclk_out"], jack: jack)
        for (index, recipe) in recipes.enumerated() {
            let place = try TemporaryDirectory()
            let command = recipe.hasSuffix("&") ? String(recipe.dropLast()) : recipe
            let session = try Background("/bin/bash", ["-c", "cd \(place.path) && exec " + command], environment: environment,
                                         output: directory.file("recipe-\(index).log"))
            defer { session.stop(signal: SIGINT) }
            // Playing (or waiting for its master) after 5 s, not refused at the start.
            let ended = await waitUntil(timeout: 5) { !session.isRunning }
            #expect(!ended, "\(recipe) ended at once: \(session.output.suffix(800))")
            if recipe == midiIn {
                let ports = try await Self.connections(jack, of: "clumsy:")
                #expect(ports["clumsy:left"] != nil && ports["clumsy:right"] != nil, "\(recipe) does not play through JACK: \(ports)")
            }
            session.stop(signal: SIGINT)
            #expect(session.process.terminationStatus == 130, "\(recipe): \(session.output.suffix(800))")
            // What the recipe's block does next with the files (clumsy replay), as written.
            let block = blocks.first { $0.contains(recipe) } ?? []
            for next in block where next.hasPrefix("clumsy ") && !next.hasPrefix("clumsy run ") {
                let result = try await CLI.run(["-c", "cd \(place.path) && " + next], executable: "/bin/bash",
                                           environment: environment.mapValues { Optional($0) }, timeout: 120)
                #expect(result.status == 0, "\(next) after \(recipe): \(result)")
            }
        }
    }

    @Test("Without --audio-driver and no ALSA device, FluidSynth's default driver fails naming itself, and on a running JACK server says --audio-driver jack")
    func failedDriverSuggestsJack() async throws {
        let directory = try TemporaryDirectory()
        let jack = try await JackServer(directory: directory)
        defer { jack.stop() }
        let environment = Self.recipeEnvironment(jack, directory)
        let result = try await CLI.run(["run", "default", "--live", "--duration", "1", "--soundfont", smallSoundFont],
                                       environment: environment.mapValues { Optional($0) }, timeout: 60)
        #expect(result.status == 69, "\(result)")
        #expect(result.stderr.contains("The audio driver \"alsa (FluidSynth's default)\" could not start"), "\(result)")
        #expect(result.stderr.contains("A JACK server (\"\(jack.name)\") is running: add --audio-driver jack to play through it."), "\(result)")
        // Asked for, JACK plays it.
        let played = try await CLI.run(["run", "default", "--live", "--duration", "1", "--soundfont", smallSoundFont, "--audio-driver", "jack"],
                                       environment: environment.mapValues { Optional($0) }, timeout: 60)
        #expect(played.status == 0, "\(played)")
    }
}
