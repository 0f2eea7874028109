// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

// What a release ships (issue 32): the version from VERSION, the licence, the manual pages as
// `man` renders them, and the LV2 plugin as hosts see it (preset numbers, LV2 presets, labelled
// sentinel values, no JACK, ALSA or liblo).

/// The contents of VERSION, without its newline.
let releaseVersion: String = {
    let text = (try? String(contentsOfFile: projectRoot + "/VERSION", encoding: .utf8)) ?? ""
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
}()

let lv2info = firstExecutable(["/usr/bin/lv2info"])
let readelf = firstExecutable(["/usr/bin/readelf"])

/// The NEEDED and RUNPATH lines of `readelf -d path`.
func dynamicSection(_ path: String) async throws -> [String] {
    let result = try await CLI.run(["-d", path], executable: readelf!)
    try #require(result.status == 0, "readelf -d \(path): \(result)")
    return result.stdoutLines.filter { $0.contains("(NEEDED)") || $0.contains("RUNPATH") || $0.contains("RPATH") }
}

@Suite("Version and licence")
struct VersionLicenceTests {
    @Test("VERSION holds one semantic version, and clumsy --version says it with the licence")
    func versionAndLicence() async throws {
        #expect(releaseVersion.split(separator: ".").count == 3 && releaseVersion.allSatisfy { $0.isNumber || $0 == "." }, "\(releaseVersion)")
        let result = try await CLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdoutLines.first == "Clumsy \(releaseVersion)", "\(result.stdout)")
        #expect(result.stdout.contains("GPL-3.0-or-later") && result.stdout.contains("NO WARRANTY"), "\(result.stdout)")
    }
}

@Suite("The manual as man renders it", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man"), "needs man (man-db)"))
struct ManualRenderingTests {
    /// `man -P cat` of a page file, 100 columns wide.
    func rendered(_ page: String) async throws -> String {
        let result = try await CLI.run(["-P", "cat", "-l", projectRoot + "/man/" + page], executable: "/usr/bin/man",
                                 environment: ["MANWIDTH": "100", "MAN_KEEP_FORMATTING": nil, "LANG": "C.UTF-8"])
        try #require(result.status == 0, "man \(page): \(result)")
        return result.stdout
    }

    /// The lines of one section (from its heading to the next one) of rendered text.
    func section(_ title: String, of text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: title) else { return [] }
        let end = lines[(start + 1)...].firstIndex { !$0.isEmpty && !$0.hasPrefix(" ") } ?? lines.count
        return Array(lines[(start + 1)..<end])
    }

    @Test("man/ and completions/ are what the program and the docs say today (make man writes them)")
    func pagesAreUpToDate() async throws {
        let directory = try TemporaryDirectory()
        let made = try await CLI.run([projectRoot + "/Tools/manpages.py", CLI.executable, directory.file("man"), directory.file("completions")],
                               executable: "/usr/bin/python3", timeout: 120)
        try #require(made.status == 0, "\(made)")
        for kind in ["man", "completions"] {
            let fresh = try FileManager.default.contentsOfDirectory(atPath: directory.file(kind)).sorted()
            let kept = try FileManager.default.contentsOfDirectory(atPath: projectRoot + "/" + kind).sorted()
            #expect(fresh == kept, "\(kind)/: run make man")
            for name in fresh where kept.contains(name) {
                let a = try Data(contentsOf: URL(fileURLWithPath: directory.file(kind + "/" + name)))
                let b = try Data(contentsOf: URL(fileURLWithPath: projectRoot + "/" + kind + "/" + name))
                #expect(a == b, "\(kind)/\(name) is out of date: run make man")
            }
        }
    }

    @Test("FILES in man clumsy: every item of docs/reference.md's list is a bullet, none a definition list")
    func filesAreBullets() async throws {
        let reference = try String(contentsOfFile: projectRoot + "/docs/reference.md", encoding: .utf8)
        let files = reference.components(separatedBy: "\n## Files\n")[1].components(separatedBy: "\n## ")[0]
        // Each item's bold lead-in: "**Outputs.**" → "Outputs."
        let leads = files.split(separator: "\n").filter { $0.hasPrefix("- **") }.map { line in
            String(line.dropFirst(4).prefix { $0 != "*" })
        }
        #expect(leads.count == 10, "\(leads)")
        for page in ["clumsy.1", "clumsy-run.1"] {
            let lines = await section("FILES", of: try rendered(page))
            let bullets = lines.filter { $0.hasPrefix("       • ") }
            #expect(bullets.count == leads.count, "\(page): \(bullets.count) bullets for \(leads.count) items:\n\(lines.joined(separator: "\n"))")
            for lead in leads {
                let words = lead.split(separator: " ").joined(separator: " ")
                #expect(bullets.contains { $0.split(separator: " ").joined(separator: " ").hasPrefix("• " + words) },
                        "\(page): \(lead) is not a bullet of FILES")
            }
        }
    }

    @Test("EXIT STATUS keeps its table as tagged paragraphs: each status, then its meaning")
    func exitStatusTable() async throws {
        let lines = await section("EXIT STATUS", of: try rendered("clumsy.1"))
        for status in ["0", "64", "65", "66", "69", "70", "73", "74", "141"] {
            #expect(lines.contains { $0.hasPrefix("       \(status) ") && $0.count > 20 }, "no tagged row for \(status):\n\(lines.joined(separator: "\n"))")
        }
    }

    @Test("man 5 clumsy-preset: the preset format, every field of the settings table, the version and the licence")
    func presetPage() async throws {
        let text = try await rendered("clumsy-preset.5")
        #expect(text.hasPrefix("CLUMSY-PRESET(5)"), "\(text.prefix(200))")
        #expect(text.contains("clumsy \(releaseVersion)"), "no version in the page's footer")
        let readme = try String(contentsOfFile: projectRoot + "/Presets/README.md", encoding: .utf8)
        let fields = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { line in
            String(line.dropFirst(3).prefix { $0 != "`" })
        }
        #expect(fields.count > 50, "\(fields.count) fields")
        let body = section("FIELDS", of: text)
        for field in fields {
            #expect(body.contains { $0.hasPrefix("       " + field + " ") || $0 == "       " + field }, "\(field) is not a field of clumsy-preset(5)")
        }
        for title in ["NAME", "DESCRIPTION", "FIELDS", "RULES", "SEE ALSO", "COPYRIGHT"] {
            #expect(text.contains("\n" + title + "\n"), "no \(title)")
        }
        #expect(section("COPYRIGHT", of: text).joined().contains("GPL-3.0-or-later"))
    }

    @Test("mandoc -T lint -W warning says nothing of any page (a date, no empty paragraph); in ASCII every character shows (G♭ as Gb)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc"), "needs mandoc"))
    func mandocLint() async throws {
        let pages = try FileManager.default.contentsOfDirectory(atPath: projectRoot + "/man").sorted().map { projectRoot + "/man/" + $0 }
        let lint = try await CLI.run(["-T", "lint", "-W", "warning"] + pages, executable: "/usr/bin/mandoc")
        #expect(lint.status == 0 && lint.stdout.isEmpty && lint.stderr.isEmpty, "\(lint)")
        var all = ""
        for page in pages {
            let ascii = try await CLI.run(["-Tascii", page], executable: "/usr/bin/mandoc", environment: ["LC_ALL": "C"])
            #expect(ascii.status == 0 && !ascii.stdout.contains("<?>") && ascii.stdout.unicodeScalars.allSatisfy(\.isASCII), "\(page): \(ascii.stderr)")
            all += ascii.stdout
        }
        #expect(all.contains("prints Gb major") && all.contains("0...10^9 s"), "the flat and the ellipsis, in ASCII")
    }

    @Test("Every page renders without a groff warning and says the version and the licence")
    func everyPage() async throws {
        for page in try FileManager.default.contentsOfDirectory(atPath: projectRoot + "/man").sorted() {
            let result = try await CLI.run(["-k", "-Tutf8", "-man", "-ww", "-z", projectRoot + "/man/" + page], executable: "/usr/bin/groff")
            #expect(result.status == 0 && result.stderr.isEmpty, "\(page): \(result.stderr)")
            let text = try await rendered(page)
            #expect(text.contains("clumsy \(releaseVersion)") && text.contains("GPL-3.0-or-later"), "\(page)")
        }
    }
}

/// A preset's number as the LV2 bundle writes it in labels and URIs: two digits.
func presetNumber(_ number: Int) -> String { (number < 10 ? "0" : "") + String(number) }

/// Today's preset port numbers: a host's saved session holds these, so they never change.
let todaysPresetNumbers = ["default", "ambient-drift", "ballad-aaba", "borrowed-chords", "dorian-drift", "fifths-home", "harmonies",
                           "lydian-moon", "melodic-minor-line", "minor-storm", "mixolydian-home", "original", "pentatonic-triads",
                           "phrygian-scatter", "polska", "polska-aabb", "pulse", "swarm"]

@Suite("The LV2 plugin as hosts see it", .serialized,
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pkg-config") && lv2info != nil && readelf != nil,
                "needs liblilv-dev, lilv-utils and binutils"))
struct PluginShippingTests {
    func presetsList(_ bundle: String) throws -> [String] {
        try String(contentsOfFile: bundle + "/presets.txt", encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("The preset numbers are today's, and every bundled preset has its line in Presets/lv2-numbers.txt")
    func todaysNumbers() async throws {
        let harness = try await PluginHarness()
        let listed = try presetsList(harness.bundle)
        #expect(Array(listed.prefix(todaysPresetNumbers.count)) == todaysPresetNumbers, "\(listed)")
        let table = try String(contentsOfFile: projectRoot + "/Presets/lv2-numbers.txt", encoding: .utf8)
        let rows = table.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ").map(String.init) }
        let files = try FileManager.default.contentsOfDirectory(atPath: projectRoot + "/Presets").filter { $0.hasSuffix(".json") }
        for file in files {
            #expect(rows.contains { $0.count >= 2 && $0[1] + ".json" == file }, "\(file) has no number in Presets/lv2-numbers.txt")
        }
        #expect(rows.enumerated().allSatisfy { Int($0.element[0]) == $0.offset }, "numbers must run 0, 1, 2, …")
    }

    @Test("A preset added takes the next number: every old number still plays the same preset")
    func addedPresetTakesNextNumber() async throws {
        let harness = try await PluginHarness()
        let presets = harness.directory.file("Presets")
        try FileManager.default.copyItem(atPath: projectRoot + "/Presets", toPath: presets)
        // A name that sorts first: by name it would have taken number 1 and moved every other.
        try FileManager.default.copyItem(atPath: presets + "/pulse.json", toPath: presets + "/aaa-added.json")
        let bundle = harness.directory.file("added/clumsy.lv2")
        let made = try await CLI.run([projectRoot + "/Tools/lv2bundle.py", harness.bundle + "/clumsy.so", presets, bundle], executable: "/usr/bin/python3")
        try #require(made.status == 0, "\(made)")
        #expect(made.stderr.contains("aaa-added takes preset number \(todaysPresetNumbers.count)"), "\(made.stderr)")
        #expect(try presetsList(bundle) == todaysPresetNumbers + ["aaa-added"])
        // A saved session with number 7 (lydian-moon) plays lydian-moon in both bundles.
        let before = try await CLI.run([harness.bundle, "4", "--preset", "7"], executable: harness.host, timeout: 300)
        let after = try await CLI.run([bundle, "4", "--preset", "7"], executable: harness.host, timeout: 300)
        #expect(before.status == 0 && after.status == 0 && !before.stdout.isEmpty, "\(before)\n\(after)")
        #expect(before.stdout == after.stdout, "preset 7 plays something else once a preset is added")
        let added = try await CLI.run([bundle, "4", "--preset", "\(todaysPresetNumbers.count)"], executable: harness.host, timeout: 300)
        let pulse = try await CLI.run([bundle, "4", "--preset", "\(todaysPresetNumbers.firstIndex(of: "pulse")!)"], executable: harness.host, timeout: 300)
        #expect(added.status == 0 && added.stdout == pulse.stdout && !added.stdout.isEmpty, "the added preset (a copy of pulse) does not play pulse")
    }

    @Test("lv2info: the bundled presets are LV2 presets, sentinel values are labelled, the licence and version are declared")
    func hostView() async throws {
        let harness = try await PluginHarness()
        let info = try await CLI.run(["urn:clumsy:lv2"], executable: lv2info!, environment: ["LV2_PATH": harness.directory.path], timeout: 60)
        try #require(info.status == 0, "\(info)")
        let lines = info.stdoutLines.map { $0.trimmingCharacters(in: .whitespaces) }
        let presets = lines.drop { !$0.hasPrefix("Presets:") }.dropFirst().prefix { !$0.isEmpty && !$0.contains(":") }
        // Labelled by number, zero-padded, as the port's scale points number them ("07 lydian-moon").
        #expect(Set(presets) == Set(todaysPresetNumbers.enumerated().map { presetNumber($0.offset) + " " + $0.element }), "\(presets)")
        // Each port's scale points: the "preset's own" of seed, gravity, speed, key … keys_channel.
        let own: [String: String] = ["seed": "0", "gravity": "-1.0", "speed": "0.0", "key": "-1", "mode": "-1", "quantize": "-1",
                                     "swing": "-1.0", "balls": "-1", "bass_channel": "0", "keys_channel": "0"]
        let ports = info.stdout.components(separatedBy: "\tPort ").dropFirst()
        for (symbol, value) in own {
            let port = ports.first { $0.contains("Symbol:      \(symbol)\n") }
            #expect(port?.contains("\(value) = \"preset's own\"") == true, "\(symbol): no scale point \(value) = preset's own")
        }
        let turtle = try String(contentsOfFile: harness.bundle + "/clumsy.ttl", encoding: .utf8)
        #expect(turtle.contains("doap:license <http://spdx.org/licenses/GPL-3.0-or-later>"))
        let parts = releaseVersion.split(separator: ".")
        #expect(turtle.contains("lv2:minorVersion \(parts[1]) ;") && turtle.contains("lv2:microVersion \(parts[2]) ;"))
    }

    @Test("The plugin links no JACK, ALSA or liblo (readelf -d); it links libX11 and libcairo, for its UI")
    func noLiveLibraries() async throws {
        let needed = try await dynamicSection(CLI.productsDirectory + "/libClumsyLV2.so")
        #expect(!needed.isEmpty)
        for library in ["libjack", "libasound", "liblo."] {
            #expect(!needed.contains { $0.contains(library) }, "the plugin links \(library): \(needed)")
        }
        // The UI lives in the plugin's library (one Swift runtime per bundle): its X11 window
        // (ui.c) and its drawing (Cairo, as `clumsy draw` draws). Every desktop host has both
        // loaded already; a headless host loads them with the plugin and never opens a display.
        for library in ["libX11.so", "libcairo.so"] {
            #expect(needed.contains { $0.contains(library) }, "the plugin no longer links \(library): \(needed); say why in docs/plugin.md")
        }
    }
}

@Suite("make dist", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "needs git"))
struct DistTests {
    @Test("make dist twice gives the same bytes (and the same -vendor tarball), clumsy-VERSION.tar.gz holding every file git ls-files lists, and VERSION")
    func reproducibleTarball() async throws {
        let directory = try TemporaryDirectory()
        var tarballs: [Data] = []
        var vendorTarballs: [Data] = []
        for name in ["first", "second"] {
            try FileManager.default.createDirectory(atPath: directory.file(name), withIntermediateDirectories: true)
            let result = try await CLI.run(["--no-print-directory", "dist", "DIST_DIR=\(directory.file(name))"], executable: "/usr/bin/make",
                                     in: projectRoot, timeout: 300)
            try #require(result.status == 0, "\(result)")
            tarballs.append(try Data(contentsOf: URL(fileURLWithPath: directory.file("\(name)/clumsy-\(releaseVersion).tar.gz"))))
            vendorTarballs.append(try Data(contentsOf: URL(fileURLWithPath: directory.file("\(name)/clumsy-\(releaseVersion)-vendor.tar.gz"))))
            await pause(1.1)   // a second apart: a tarball dated by the clock would differ
        }
        #expect(tarballs[0] == tarballs[1], "make dist wrote different bytes twice")
        #expect(vendorTarballs[0] == vendorTarballs[1], "make dist wrote a different vendor tarball twice")
        let listed = try await CLI.run(["tzf", directory.file("first/clumsy-\(releaseVersion).tar.gz")], executable: "/bin/tar")
        let members = Set(listed.stdoutLines.filter { !$0.hasSuffix("/") })
        let tracked = try await CLI.run(["ls-files"], executable: "/usr/bin/git", in: projectRoot).stdoutLines
        let committed = try await CLI.run(["ls-tree", "-r", "--name-only", "HEAD"], executable: "/usr/bin/git", in: projectRoot).stdoutLines
        // Every committed file (git ls-files, less what is staged but not committed yet).
        for file in tracked where committed.contains(file) {
            #expect(members.contains("clumsy-\(releaseVersion)/" + file), "\(file) is not in the tarball")
        }
        #expect(members.contains("clumsy-\(releaseVersion)/VERSION") && members.count == committed.count, "\(members.count) files, \(committed.count) committed")
        // Modes 644 and 755 (git archive's default umask 002 wrote 664), in both tarballs.
        for tarball in ["clumsy-\(releaseVersion).tar.gz", "clumsy-\(releaseVersion)-vendor.tar.gz"] {
            let verbose = try await CLI.run(["tvzf", directory.file("first/" + tarball)], executable: "/bin/tar")
            let modes = Set(verbose.stdoutLines.map { String($0.prefix(10)) })
            #expect(!modes.isEmpty && modes.isSubset(of: ["-rw-r--r--", "-rwxr-xr-x", "drwxr-xr-x"]), "\(tarball): \(modes.sorted())")
        }
    }
}
