// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Testing

// What `make install` ships, installed (issue 32): the release program and plugin run with the
// Swift toolchain hidden (a mount namespace with an empty tmpfs over it), and `make install`
// works as an ordinary user into a DESTDIR with a blank and shell syntax in it, runs no package
// manager and builds nothing when the build is current, and `make uninstall` takes it all away.

/// The toolchain's `usr` directory (the parent of the `bin` holding `swift`), or nil.
let swiftToolchain: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(directory) + "/swift")
        if FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent().path
        }
    }
    return nil
}()

/// True when this process may make a mount namespace and mount a tmpfs in it (root, or CAP_SYS_ADMIN).
let canHideToolchain: Bool = {
    guard swiftToolchain != nil, let result = try? CLI.runBlocking(["-m", "/bin/sh", "-c", "mount -t tmpfs none /mnt"], executable: "/usr/bin/unshare") else {
        return false
    }
    return result.status == 0
}()

/// Runs `command` with the toolchain's directory covered by an empty tmpfs (only for this child).
func withoutToolchain(_ command: [String], environment: [String: String?] = [:], timeout: Double = 300) async throws -> RunResult {
    try await CLI.run(["-m", "/bin/sh", "-c", "mount -t tmpfs none \"$0\" && exec \"$@\"", swiftToolchain!] + command,
                executable: "/usr/bin/unshare", environment: environment, timeout: timeout)
}

/// `make ARGUMENTS` in the checkout.
func make(_ arguments: [String], environment: [String: String?] = [:], prefix: [String] = [], executable: String = "/usr/bin/make",
          timeout: Double = 300) async throws -> RunResult {
    try await CLI.run(["--no-print-directory", "-C", projectRoot] + arguments, executable: executable, prefix: prefix,
                environment: environment, in: projectRoot, timeout: timeout)
}

/// Requires CONFIG's program and plugin to be current (make -q), then assembles the bundle.
func requireBuilt(config: String) async throws {
    let bin = ".build/\(config)/clumsy", library = ".build/\(config)/libClumsyLV2.so"
    let current = try await make(["-q", bin, library, "CONFIG=\(config)"])
    try #require(current.status == 0, """
        the \(config) program or plugin is missing or older than its sources: \
        make binaries CONFIG=\(config) first (make test does); this test runs no swift build (it would wait for the lock of swift test)
        """)
    let bundle = try await make(["binaries", "CONFIG=\(config)"])
    try #require(bundle.status == 0, "\(bundle)")
}

/// Regular files (and links) under `root`, relative to it.
func filesUnder(_ root: String) -> [String] {
    (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []).filter {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: root + "/" + $0, isDirectory: &isDirectory) && !isDirectory.boolValue
    }.sorted()
}

@Suite("The release, installed, without the Swift toolchain", .serialized,
       .enabled(if: canHideToolchain, "unshare -m and mount are not permitted here (needs root or CAP_SYS_ADMIN)"),
       .enabled(if: readelf != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/pkg-config"), "needs binutils and liblilv-dev"))
struct ToolchainFreeTests {
    let root: TemporaryDirectory
    var usr: String { root.path + "/usr" }

    init() async throws {
        try await requireBuilt(config: "release")
        root = try TemporaryDirectory(prefix: "clumsy-release")
        let installed = try await make(["install-files", "CONFIG=release", "DESTDIR=\(root.path)", "PREFIX=/usr"])
        try #require(installed.status == 0, "\(installed)")
    }

    @Test("readelf -d: no Swift runtime library and no RUNPATH into the toolchain; the plugin links no JACK, ALSA or liblo")
    func dynamicSections() async throws {
        for path in [usr + "/bin/clumsy", usr + "/lib/lv2/clumsy.lv2/clumsy.so"] {
            let lines = try await dynamicSection(path)
            #expect(!lines.isEmpty)
            #expect(!lines.contains { $0.contains("libswift") || $0.contains("libFoundation") || $0.contains("libdispatch") }, "\(path): \(lines)")
            #expect(!lines.contains { $0.contains(swiftToolchain!) || $0.contains("/swift/linux") }, "\(path): \(lines)")
        }
        let plugin = try await dynamicSection(usr + "/lib/lv2/clumsy.lv2/clumsy.so")
        for library in ["libjack", "libasound", "liblo."] {
            #expect(!plugin.contains { $0.contains(library) }, "\(plugin)")
        }
    }

    @Test("make install strips the program and the plugin, and installs the presets once: the bundle's presets/ is a link to share/clumsy/presets")
    func strippedAndPresetsOnce() async throws {
        for path in [usr + "/bin/clumsy", usr + "/lib/lv2/clumsy.lv2/clumsy.so"] {
            let sections = try await CLI.run(["-S", "-W", path], executable: readelf!)
            #expect(sections.status == 0 && !sections.stdout.contains(".symtab") && !sections.stdout.contains(".debug_info"), "\(path) is not stripped")
        }
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: usr + "/lib/lv2/clumsy.lv2/presets")
        #expect(link == "../../../share/clumsy/presets")
        // Every preset the plugin lists is there through the link (plugin() plays one).
        let listed = try String(contentsOfFile: usr + "/lib/lv2/clumsy.lv2/presets.txt", encoding: .utf8).split(separator: "\n")
        #expect(!listed.isEmpty && listed.allSatisfy { FileManager.default.fileExists(atPath: usr + "/lib/lv2/clumsy.lv2/presets/\($0).json") })
    }

    @Test("clumsy --version and clumsy run default --duration 2 --midi x.mid, the toolchain hidden")
    func program() async throws {
        // The namespace really hides it: the debug build, linked to the toolchain's runtime, cannot start.
        let debug = try await withoutToolchain([CLI.productsDirectory + "/clumsy", "--version"])
        #expect(debug.status != 0 && debug.stderr.contains("libswift"), "the toolchain is not hidden: \(debug)")
        let version = try await withoutToolchain([usr + "/bin/clumsy", "--version"])
        #expect(version.status == 0 && version.stdoutLines.first == "Clumsy \(releaseVersion)", "\(version)")
        let midi = root.file("x.mid")
        let run = try await withoutToolchain([usr + "/bin/clumsy", "run", "default", "--duration", "2", "--midi", midi, "--quiet"], timeout: 600)
        #expect(run.status == 0, "\(run)")
        let file = try MIDIFileReader.read(path: midi)
        let notes = file.tracks.joined().filter { if case .noteOn(_, _, let velocity) = $0.message { velocity > 0 } else { false } }
        #expect(file.tracks.count >= 3 && !notes.isEmpty, "\(file.tracks.count) tracks, \(notes.count) notes")
    }

    @Test("The installed plugin plays in the headless host and in jalv (its presets listed and one loaded), the toolchain hidden")
    func plugin() async throws {
        let host = root.file("lv2host")
        let flags = try await CLI.run(["--cflags", "--libs", "lilv-0"], executable: "/usr/bin/pkg-config")
        let compile = try await CLI.run(["-O2", "-rdynamic", "-o", host, projectRoot + "/Tools/lv2host.c"] + flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init),
                                  executable: "/usr/bin/cc", timeout: 120)
        try #require(compile.status == 0, "\(compile)")
        let bundle = usr + "/lib/lv2/clumsy.lv2"
        let headless = try await withoutToolchain([host, bundle, "4", "--preset", "7"], timeout: 600)
        #expect(headless.status == 0 && headless.stdoutLines.count > 10, "\(headless)")
        guard hasJack, let jalv else { return }
        let jack = try await JackServer(directory: root)
        defer { jack.stop() }
        var environment: [String: String?] = [:]
        for (key, value) in jack.environment { environment[key] = value }
        environment["JACK_NO_AUDIO_RESERVATION"] = "1"
        environment["LV2_PATH"] = usr + "/lib/lv2"
        // jalv reads commands on stdin and quits at its end: list the presets, load lydian-moon, show the controls.
        let script = "(echo presets; sleep 3; echo \"preset $1\"; sleep 3; echo controls; sleep 1) | \"$0\" -n clumsy-installed urn:clumsy:lv2"
        let session = try await withoutToolchain(["/bin/sh", "-c", script, jalv, "urn:clumsy:lv2:preset:07-lydian-moon"], environment: environment, timeout: 120)
        let output = session.stdout + session.stderr
        #expect(!output.contains("Failed to instantiate") && !output.contains("libswift"), "\(output)")
        for (number, name) in todaysPresetNumbers.enumerated() {
            let label = presetNumber(number) + " " + name
            #expect(output.contains("urn:clumsy:lv2:preset:\(presetNumber(number))-\(name) (\(label))"), "jalv does not list \(label):\n\(output)")
        }
        #expect(output.contains("preset = 7.000000"), "jalv did not load lydian-moon (port 7):\n\(output)")
    }
}

@Suite("make install as an ordinary user", .serialized,
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") && getuid() == 0, "needs setpriv and root (to become nobody)"))
struct InstallAsUserTests {
    @Test("make install DESTDIR=\"…/a b/it's $(…);`…`/root\" PREFIX=/usr as nobody: installs there only, runs no package manager or build; uninstall leaves nothing")
    func installAsNobody() async throws {
        try await requireBuilt(config: "debug")
        let directory = try TemporaryDirectory(prefix: "clumsy-install")
        let nobody: UInt32 = 65_534
        // The checkout must be readable by nobody: a clone inside a private directory (mktemp -d
        // makes mode 700) is not, and make then stops at "Permission denied" before Clumsy's
        // Makefile is read. That is the machine, not the install.
        let readable = try await CLI.run(["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--", "/usr/bin/test", "-r", projectRoot + "/Makefile"],
                                         executable: "/usr/bin/setpriv")
        if readable.status != 0 { try Test.cancel("the checkout \(projectRoot) is not readable by nobody (a private parent directory)") }
        // Stand-ins for every package manager and for swift: each call is written to called.log.
        let fake = directory.file("bin")
        try FileManager.default.createDirectory(atPath: fake, withIntermediateDirectories: true)
        let log = try directory.write("called.log", "")
        for name in ["apt-get", "apt", "dpkg", "pip", "pip3", "sudo", "swift"] {
            let path = try directory.write("bin/" + name, "#!/bin/sh\necho \"$0 $*\" >> '\(log)'\nexit 1\n")
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: log)
        let home = directory.file("home")
        try FileManager.default.createDirectory(atPath: home + "/a b", withIntermediateDirectories: true)
        for path in [home, home + "/a b"] { try FileManager.default.setAttributes([.ownerAccountID: nobody], ofItemAtPath: path) }
        let destdir = home + "/a b/it's $(touch pwned);`touch pwned2`/root"
        let status = try await CLI.run(["status", "--porcelain", "--ignored"], executable: "/usr/bin/git", in: projectRoot)
        let environment: [String: String?] = ["PATH": fake + ":/usr/local/bin:/usr/bin:/bin", "HOME": home, "MAKEFLAGS": nil, "MAKELEVEL": nil]
        let asNobody = ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--", "/usr/bin/make"]
        let install = try await make(["install", "CONFIG=debug", "DESTDIR=\(destdir)", "PREFIX=/usr"], environment: environment, prefix: asNobody,
                               executable: "/usr/bin/setpriv")
        #expect(install.status == 0, "\(install)")
        let usr = destdir + "/usr"
        for path in ["bin/clumsy", "share/clumsy/presets/default.json", "share/man/man1/clumsy.1", "share/man/man1/clumsy-run.1",
                     "share/man/man5/clumsy-preset.5", "share/bash-completion/completions/clumsy", "share/zsh/site-functions/_clumsy",
                     "share/fish/vendor_completions.d/clumsy.fish", "share/doc/clumsy/README.md", "share/doc/clumsy/CHANGELOG.md",
                     "share/doc/clumsy/docs/install.md", "share/doc/clumsy/Presets/README.md", "lib/lv2/clumsy.lv2/clumsy.so",
                     "lib/lv2/clumsy.lv2/manifest.ttl", "lib/lv2/clumsy.lv2/presets.ttl", "lib/lv2/clumsy.lv2/presets/default.json"] {
            let owner = (try? FileManager.default.attributesOfItem(atPath: usr + "/" + path))?[.ownerAccountID] as? UInt32
            #expect(owner == nobody, "\(path): not installed by nobody (\(String(describing: owner)))")
        }
        #expect(FileManager.default.isExecutableFile(atPath: usr + "/bin/clumsy"))
        let called = try String(contentsOfFile: log, encoding: .utf8)
        #expect(called.isEmpty, "called: \(called)")
        // Nothing ran from the path's shell syntax, and nothing outside DESTDIR changed.
        for place in [projectRoot, home, home + "/a b", directory.path] {
            #expect(!FileManager.default.fileExists(atPath: place + "/pwned") && !FileManager.default.fileExists(atPath: place + "/pwned2"), "\(place)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: home + "/a b") == ["it's $(touch pwned);`touch pwned2`"])
        #expect(try await CLI.run(["status", "--porcelain", "--ignored"], executable: "/usr/bin/git", in: projectRoot).stdout == status.stdout)
        // The installed program works (the debug build: with the toolchain) and finds its presets.
        let listed = try await CLI.run(["presets"], executable: usr + "/bin/clumsy", in: "/")
        #expect(listed.status == 0 && listed.stdout.contains("lydian-moon"), "\(listed)")

        let uninstall = try await make(["uninstall", "CONFIG=debug", "DESTDIR=\(destdir)", "PREFIX=/usr"], environment: environment, prefix: asNobody,
                                 executable: "/usr/bin/setpriv")
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(filesUnder(destdir).isEmpty, "left behind: \(filesUnder(destdir))")
        let directories = FileManager.default.enumerator(atPath: destdir)?.compactMap { $0 as? String } ?? []
        #expect(!directories.contains { $0.contains("clumsy") }, "Clumsy's directories left: \(directories)")
    }
}
