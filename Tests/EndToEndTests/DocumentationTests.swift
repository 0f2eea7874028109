import Foundation
import Testing

/// One fenced ```sh block of README.md or docs/*.md: where it is and what it runs.
struct DocumentedCommands: CustomTestStringConvertible, Sendable {
    let place: String
    let script: String
    var testDescription: String { place }

    /// Every ```sh block of the README and the guides, in file order. ```console blocks (a
    /// server, a device, a long run) and plain ``` blocks (output) are not run.
    static func all() -> [DocumentedCommands] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: projectRoot + "/docs")) ?? []
        let files = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var blocks: [DocumentedCommands] = []
        for file in files {
            guard let text = try? String(contentsOfFile: projectRoot + "/" + file, encoding: .utf8) else { continue }
            var current: [String]?
            var start = 0
            for (index, line) in text.components(separatedBy: "\n").enumerated() {
                if current == nil, line.trimmingCharacters(in: .whitespaces) == "```sh" {
                    current = []
                    start = index + 1
                } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                    blocks.append(DocumentedCommands(place: "\(file):\(start)", script: current!.joined(separator: "\n")))
                    current = nil
                } else if current != nil {
                    current!.append(line)
                }
            }
        }
        return blocks
    }
}

@Suite("Every command block of the README and docs/ runs as written", .serialized)
struct DocumentationTests {
    @Test("There are command blocks to run, in the README and in the guides")
    func blocksExist() {
        let blocks = DocumentedCommands.all()
        #expect(blocks.filter { $0.place.hasPrefix("README.md") }.count >= 5, "\(blocks.map(\.place))")
        #expect(blocks.filter { $0.place.hasPrefix("docs/") }.count >= 10, "\(blocks.map(\.place))")
    }

    @Test("A command block runs from a new empty directory, clumsy on PATH, and exits 0", arguments: DocumentedCommands.all())
    func blockRuns(_ block: DocumentedCommands) throws {
        let directory = try TemporaryDirectory()
        let path = CLI.productsDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try CLI.run(["-e", "-o", "pipefail", "-c", block.script], executable: "/bin/bash",
                                 environment: ["PATH": path, "CLUMSY_UNDER_TEST": nil], in: directory.path, timeout: 300)
        #expect(result.status == 0 && !result.timedOut, "\(block.place):\n\(block.script)\n\(result)")
    }
}
