// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

// What a distribution needs to build and ship Clumsy (issue 47): the release tarballs build with
// no network, as an ordinary user, from the versions Package.resolved pins.

/// Package.resolved's pins: identity → (location, version, revision).
func resolvedPins() throws -> [String: (location: String, version: String, revision: String)] {
    let data = try Data(contentsOf: URL(fileURLWithPath: projectRoot + "/Package.resolved"))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    var pins: [String: (location: String, version: String, revision: String)] = [:]
    for pin in object?["pins"] as? [[String: Any]] ?? [] {
        let state = pin["state"] as? [String: Any] ?? [:]
        pins[pin["identity"] as? String ?? ""] = (pin["location"] as? String ?? "", state["version"] as? String ?? "",
                                                   state["revision"] as? String ?? "")
    }
    return pins
}

let unshareProgram = firstExecutable(["/usr/bin/unshare"])

@Suite("The release builds offline", .serialized,
       .enabled(if: unshareProgram != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "needs util-linux's unshare and git"))
struct OfflineBuildTests {
    @Test("Package.resolved is committed, not ignored, and pins every dependency of Package.swift to a version and a revision")
    func resolvedPinsEverything() async throws {
        let ignored = try await CLI.run(["check-ignore", "-q", "Package.resolved"], executable: "/usr/bin/git", in: projectRoot)
        #expect(ignored.status == 1, "git ignores Package.resolved")
        let tracked = try await CLI.run(["ls-files", "--error-unmatch", "Package.resolved"], executable: "/usr/bin/git", in: projectRoot)
        #expect(tracked.status == 0, "Package.resolved is not committed")
        let manifest = try String(contentsOfFile: projectRoot + "/Package.swift", encoding: .utf8)
        let urls = manifest.components(separatedBy: ".package(url: \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        let pins = try resolvedPins()
        #expect(urls.count == 2 && pins.count == urls.count, "\(urls) against \(pins.keys.sorted())")
        for url in urls {
            let pin = pins.values.first { $0.location == url }
            #expect(pin != nil && pin!.version.split(separator: ".").count == 3 && pin!.revision.count == 40, "\(url) is not pinned: \(String(describing: pin))")
        }
    }

    @Test("From the make dist tarballs, with no network, an empty HOME and as nobody, make resolve checks out the pinned revisions; without the vendor tarball it cannot")
    func resolvesOffline() async throws {
        let pins = try resolvedPins()
        let directory = try TemporaryDirectory()
        let vendored = try await CLI.run(["resolve", directory.path], executable: projectRoot + "/Tools/offline_build.sh", timeout: 1200)
        #expect(vendored.status == 0, "\(vendored)")
        let checkouts = vendored.stdoutLines.filter { $0.hasPrefix("checkout ") }.map { $0.split(separator: " ").map(String.init) }
        #expect(checkouts.count == pins.count, "\(vendored)")
        for line in checkouts where line.count == 3 {
            #expect(pins[line[1]]?.revision == line[2], "\(line[1]) checked out at \(line[2]), Package.resolved pins \(pins[line[1]]?.revision ?? "nothing")")
        }
        #expect(vendored.stderr.contains("Fetching file://") && !vendored.stderr.contains("https://"), "\(vendored.stderr)")

        // The control: the same sandbox without the vendor tarball has nowhere to fetch from.
        let other = try TemporaryDirectory()
        let unvendored = try await CLI.run(["unvendored", other.path], executable: projectRoot + "/Tools/offline_build.sh", timeout: 1200)
        #expect(unvendored.status != 0 && !unvendored.stdout.contains("checkout "), "\(unvendored)")
    }
}
