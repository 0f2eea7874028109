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

@Suite("The Debian package's sources", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-query"), "needs dpkg"))
struct DebianSourceTests {
    /// debian/copyright's paragraphs, each as field name → value (continuation lines joined).
    func paragraphs() throws -> [[String: String]] {
        let text = try String(contentsOfFile: projectRoot + "/debian/copyright", encoding: .utf8)
        return text.components(separatedBy: "\n\n").map { block in
            var fields: [String: String] = [:], last = ""
            for line in block.split(separator: "\n").map(String.init) {
                if line.hasPrefix(" ") { fields[last, default: ""] += "\n" + line } else if let colon = line.firstIndex(of: ":") {
                    last = String(line[..<colon])
                    fields[last] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return fields
        }
    }

    @Test("debian/copyright: a Files paragraph and the text of each licence in the binaries; debian/control: Static-Built-Using")
    func copyrightPerLicence() throws {
        let all = try paragraphs()
        let files = all.filter { $0["Files"] != nil }
        let texts = all.filter { $0["Files"] == nil && $0["License"]?.contains("\n") == true }
        let expected = ["GPL-3.0-or-later": "*", "Apache-2.0": "vendor/swift-argument-parser.git/*",
                        "Apache-2.0 with Runtime-Library exception": "usr/lib/swift_static/*", "GPL-2+": "usr/include/ableton/*",
                        "BSL-1.0": "usr/include/asio/*"]
        for (licence, pattern) in expected {
            #expect(files.contains { ($0["License"] ?? "") == licence && ($0["Files"] ?? "").contains(pattern) }, "no Files paragraph \(pattern) under \(licence)")
            #expect(texts.contains { ($0["License"] ?? "").hasPrefix(licence + "\n") }, "no text of \(licence)")
        }
        #expect(files.contains { ($0["Files"] ?? "").contains("vendor/swift-system.git/*") && $0["License"] == "Apache-2.0" })
        #expect(texts.first { ($0["License"] ?? "").hasPrefix("Apache-2.0 with") }?["License"]?.contains("Sections 4(a), 4(b) and 4(d)") == true)
        let control = try String(contentsOfFile: projectRoot + "/debian/control", encoding: .utf8)
        #expect(control.contains("\nStatic-Built-Using: ${clumsy:Static-Built-Using}\n"), "\(control)")
        let rules = try String(contentsOfFile: projectRoot + "/debian/rules", encoding: .utf8)
        #expect(rules.contains("-Vclumsy:Static-Built-Using=") && rules.contains("ableton-link-dev libasio-dev"))
    }
}

@Suite("Release binaries, hardened", .enabled(if: readelf != nil, "needs binutils"))
struct HardeningTests {
    @Test("The release program and plugin: BIND_NOW and RELRO, no RUNPATH, and Clumsy's C++ (Ableton Link, asio) fortified")
    func hardened() async throws {
        try await requireBuilt(config: "release")
        for path in [projectRoot + "/.build/release/clumsy", projectRoot + "/.build/release/libClumsyLV2.so"] {
            let dynamic = try await CLI.run(["-d", path], executable: readelf!)
            try #require(dynamic.status == 0, "\(dynamic)")
            #expect(dynamic.stdoutLines.contains { $0.contains("(FLAGS)") && $0.contains("BIND_NOW") }, "\(path): no BIND_NOW\n\(dynamic.stdout)")
            #expect(dynamic.stdoutLines.contains { $0.contains("(FLAGS_1)") && $0.contains(" NOW") }, "\(path): no NOW\n\(dynamic.stdout)")
            #expect(!dynamic.stdout.contains("RUNPATH") && !dynamic.stdout.contains("(RPATH)"), "\(path)\n\(dynamic.stdout)")
            let segments = try await CLI.run(["-lW", path], executable: readelf!)
            #expect(segments.stdout.contains("GNU_RELRO"), "\(path): no RELRO")
        }
        let symbols = try await CLI.run(["--dyn-syms", "-W", projectRoot + "/.build/release/clumsy"], executable: readelf!)
        #expect(symbols.stdout.contains("__memcpy_chk"), "clumsy: Sources/CLink was compiled without -D_FORTIFY_SOURCE=2 -O2")
    }
}

@Suite("make install builds what it installs")
struct BuildRecordTests {
    @Test("A release binary that make did not build (a plain swift build -c release relinked it) is built again, with --static-swift-stdlib")
    func rebuildsAForeignBinary() async throws {
        // A checkout of the Makefile alone, with `swift` an echo: what make would run, without a build.
        let directory = try TemporaryDirectory()
        for file in ["Makefile", "VERSION"] { try FileManager.default.copyItem(atPath: projectRoot + "/" + file, toPath: directory.file(file)) }
        try directory.write("Package.swift", "// the manifest's stand-in\n")
        try FileManager.default.createDirectory(atPath: directory.file(".build/release"), withIntermediateDirectories: true)
        await pause(0.02)
        let binary = try directory.write(".build/release/clumsy", "linked by a plain swift build -c release\n")
        let environment: [String: String?] = ["MAKEFLAGS": nil, "MAKELEVEL": nil, "CPPFLAGS": nil, "CXXFLAGS": nil, "LDFLAGS": nil]
        func make(_ arguments: [String]) async throws -> RunResult {
            try await CLI.run(["--no-print-directory", "SWIFT=/bin/echo", "CONFIG=release"] + arguments, executable: "/usr/bin/make",
                              environment: environment, in: directory.path)
        }
        // Newer than every source, but not built by make: not current.
        #expect(try await make(["-q", ".build/release/clumsy"]).status == 1, "make trusts a binary it did not build")
        let built = try await make([".build/release/clumsy"])
        #expect(built.status == 0 && built.stdout.contains("build --disable-automatic-resolution -c release --static-swift-stdlib --disable-local-rpath"),
                "\(built)")
        #expect(built.stdout.contains("-Xlinker -z -Xlinker now") && built.stdout.contains("-Xcxx -D_FORTIFY_SOURCE=2"), "\(built)")
        #expect(try await make(["-q", ".build/release/clumsy"]).status == 0, "make builds again what it built")
        // Relinked by another build: built again.
        try directory.write(".build/release/clumsy", "relinked without the Swift runtime by swift build -c release\n")
        #expect(try await make(["-q", ".build/release/clumsy"]).status == 1, "make installs \(binary) as another build left it")
    }
}
