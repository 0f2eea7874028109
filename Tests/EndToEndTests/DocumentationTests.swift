// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// One fenced ```sh block of README.md or docs/*.md: where it is and what it runs.
struct DocumentedCommands: CustomTestStringConvertible, Sendable {
    let place: String
    let script: String
    /// The lines of clumsy's own messages (`clumsy: …`) quoted in a plain ``` block right
    /// after the commands: what they print, which the output must hold word for word.
    var quoted: [String] = []
    var testDescription: String { place }
    /// True when the commands start a JACK server.
    var startsJack: Bool { script.contains("jackd ") }

    /// Every ```sh block of the README, the guides and the manual pages' examples, in file order. ```console blocks (a
    /// server, a device, a long run) and plain ``` blocks (output) are not run.
    static func all() -> [DocumentedCommands] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: projectRoot + "/docs")) ?? []
        let manual = (try? FileManager.default.contentsOfDirectory(atPath: projectRoot + "/Tools/man")) ?? []
        let files = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
            + manual.filter { $0.hasSuffix(".md") }.sorted().map { "Tools/man/" + $0 }
        var blocks: [DocumentedCommands] = []
        for file in files {
            guard let text = try? String(contentsOfFile: projectRoot + "/" + file, encoding: .utf8) else { continue }
            var current: [String]?
            var start = 0
            var output: [String]?   // a plain block after a command block, being read
            var afterCommands = false
            for (index, line) in text.components(separatedBy: "\n").enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if var lines = output {
                    if trimmed == "```" {
                        blocks[blocks.count - 1].quoted = lines.filter { $0.hasPrefix("clumsy: ") }
                        output = nil
                    } else {
                        lines.append(line)
                        output = lines
                    }
                    continue
                }
                if afterCommands, current == nil {
                    if trimmed == "```" { output = []; afterCommands = false; continue }
                    if !trimmed.isEmpty { afterCommands = false }
                }
                if current == nil, trimmed == "```sh" {
                    current = []
                    start = index + 1
                } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                    blocks.append(DocumentedCommands(place: "\(file):\(start)", script: current!.joined(separator: "\n")))
                    current = nil
                    afterCommands = true
                } else if current != nil {
                    current!.append(line)
                }
            }
        }
        return blocks
    }
}

@Suite("Every command block of the README, docs/ and the manual pages runs as written", .serialized)
struct DocumentationTests {
    @Test("There are command blocks to run, in the README and in the guides, and some quote clumsy's messages")
    func blocksExist() {
        let blocks = DocumentedCommands.all()
        #expect(blocks.contains { $0.quoted.contains { $0.contains("160.03 GB") } }, "the 4 GiB message is not checked")
        #expect(blocks.filter { $0.place.hasPrefix("README.md") }.count >= 5, "\(blocks.map(\.place))")
        #expect(blocks.filter { $0.place.hasPrefix("docs/") }.count >= 10, "\(blocks.map(\.place))")
    }

    @Test("The README's printed performance is what `clumsy run default --duration 8` prints today (its first lines and summary)")
    func readmeShowsTodaysOutput() async throws {
        let readme = try String(contentsOfFile: projectRoot + "/README.md", encoding: .utf8)
        let start = try #require(readme.range(of: "```sh\nclumsy run default --duration 8\n```\n\n```\n"), "the example is gone")
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        let shown = readme[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
        let run = try await CLI.run(["run", "default", "--duration", "8"])
        let printed = run.stdout.split(separator: "\n").map(String.init)
        try #require(run.status == 0 && shown.count >= 3 && shown[shown.count - 2] == "     …", "\(shown)")
        #expect(Array(shown.dropLast(2)) == Array(printed.prefix(shown.count - 2)), "README.md shows:\n\(shown.joined(separator: "\n"))")
        #expect(shown.last == printed.last, "README.md's summary: \(shown.last ?? ""); printed: \(printed.last ?? "")")
    }

    /// The blocks that start a JACK server run in the JACK phase of `make test`, alone
    /// (`StudioEndToEndTests.jackRecipesRun`): a dummy server without real-time priority
    /// skips cycles on a loaded machine.
    static var withoutJack: [DocumentedCommands] { DocumentedCommands.all().filter { !$0.startsJack } }

    @Test("A command block runs from a new empty directory, clumsy on PATH, and exits 0", arguments: withoutJack)
    func blockRuns(_ block: DocumentedCommands) async throws {
        try await Self.run(block)
    }

    /// Runs `block` with bash (`-e`, `pipefail`) in a new directory, clumsy first on PATH.
    static func run(_ block: DocumentedCommands) async throws {
        let directory = try TemporaryDirectory()
        let path = CLI.executableDirectory + ":" + CLI.productsDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        // A recipe that starts jackd starts a server of its own name, never a developer's default
        // (one fixed name: JACK's registry holds eight servers and reclaims a name only on reuse).
        let server = "clumsy-docs"
        let result = try await CLI.run(["-e", "-o", "pipefail", "-c", block.script], executable: "/bin/bash",
                                 environment: ["PATH": path, "CLUMSY_UNDER_TEST": nil, "JACK_DEFAULT_SERVER": server],
                                 in: directory.path, timeout: 300)
        #expect(result.status == 0 && !result.timedOut, "\(block.place):\n\(block.script)\n\(result)")
        for line in block.quoted {
            #expect((result.stdout + result.stderr).contains(line), "\(block.place) quotes a message the commands do not print:\n\(line)\n\(result)")
        }
    }
}
