// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// `make install-files` of the debug build (program and plugin bundle) into a temporary DESTDIR.
struct Installed {
    let root: TemporaryDirectory
    var prefix: String { root.path + "/usr/local" }
    var binary: String { prefix + "/bin/clumsy" }
    var manual: String { prefix + "/share/man" }

    init() async throws {
        try await requireBuilt(config: "debug")
        root = try TemporaryDirectory()
        let result = try await CLI.run(["--no-print-directory", "install-files", "CONFIG=debug", "DESTDIR=\(root.path)", "PREFIX=/usr/local"],
                                 executable: "/usr/bin/make", in: projectRoot, timeout: 120)
        try #require(result.status == 0, "make install-files: \(result)")
    }
}

@Suite("make install: binary, presets, manual pages, completions", .serialized,
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/make") && FileManager.default.isExecutableFile(atPath: "/usr/bin/man"),
                "needs make and man (man-db)"))
struct InstallTests {
    @Test("The installed binary finds its installed presets from /, whatever the checkout")
    func presetsFromAnywhere() async throws {
        let installed = try await Installed()
        // A preset only the installed directory has: found by name from /.
        let presets = installed.prefix + "/share/clumsy/presets"
        try FileManager.default.copyItem(atPath: presets + "/lydian-moon.json", toPath: presets + "/only-installed.json")
        let result = try await CLI.run(["run", "only-installed", "--duration", "1", "--quiet"], executable: installed.binary, in: "/")
        #expect(result.status == 0, "\(result)")
        let listed = try await CLI.run(["presets"], executable: installed.binary, in: "/")
        #expect(listed.status == 0 && listed.stdout.contains("only-installed") && listed.stdout.contains("lydian-moon"), "\(listed)")
    }

    @Test("man clumsy and a page per subcommand, each with EXIT STATUS, ENVIRONMENT, FILES and EXAMPLES, rendered without a warning")
    func manualPages() async throws {
        let installed = try await Installed()
        let pages = try FileManager.default.contentsOfDirectory(atPath: installed.manual + "/man1").sorted()
        let subcommands = ["analyze", "batch", "batch-export", "batch-merge", "draw", "presets", "presets-list", "presets-show", "recover", "replay", "roll", "run",
                           "tones", "validate"]
        #expect(pages == (["clumsy.1"] + subcommands.map { "clumsy-\($0).1" }).sorted(), "\(pages)")
        for page in pages {
            let rendered = try await CLI.run(["-k", "-Tutf8", "-man", "-ww", "-z", installed.manual + "/man1/" + page], executable: "/usr/bin/groff")
            #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(page): \(rendered.stderr)")
        }
        // `man clumsy` finds the installed page through MANPATH, as it does under /usr/local.
        let shown = try await CLI.run(["clumsy-run"], executable: "/usr/bin/man", environment: ["MANPATH": installed.manual, "MANWIDTH": "100", "MANPAGER": "cat", "PAGER": "cat"])
        #expect(shown.status == 0, "\(shown)")
        for section in ["NAME", "SYNOPSIS", "OPTIONS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES", "--duration", "CLUMSY_PRESETS"] {
            #expect(shown.stdout.contains(section), "man clumsy-run has no \(section)")
        }
    }

    @Test("bash completion: `clumsy run <TAB>` lists the presets, `--mode <TAB>` the modes, and files where nothing else fits")
    func bashCompletion() async throws {
        let installed = try await Installed()
        let script = installed.prefix + "/share/bash-completion/completions/clumsy"
        func complete(_ words: [String]) async throws -> (spec: String, offered: [String]) {
            let line = words.joined(separator: " ")
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let bash = """
                source '\(script)'
                complete -p clumsy
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
                _clumsy clumsy '\(words.last!)' '\(words[words.count - 2])'
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let result = try await CLI.run(["-c", bash], executable: "/bin/bash", in: "/")
            try #require(result.status == 0, "\(result)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            return (lines.first ?? "", Array(lines.dropFirst()))
        }
        // bash-completion's own loader finds the installed script in PREFIX/share (XDG_DATA_DIRS).
        if FileManager.default.fileExists(atPath: "/usr/share/bash-completion/bash_completion") {
            let loader = "source /usr/share/bash-completion/bash_completion; _completion_loader clumsy; complete -p clumsy"
            let loaded = try await CLI.run(["-c", loader], executable: "/bin/bash", environment: ["XDG_DATA_DIRS": installed.prefix + "/share"], in: "/")
            #expect(loaded.stdout.contains("-F _clumsy clumsy"), "\(loaded)")
        }
        let presets = try await complete([installed.binary, "run", ""])
        #expect(presets.spec.contains("-o default"), "no file fallback: \(presets.spec)")
        #expect(Set(presets.offered).isSuperset(of: ["default", "lydian-moon", "polska", "swarm"]), "\(presets.offered)")
        #expect(try await complete([installed.binary, "run", "ly"]).offered == ["lydian-moon"])
        // The modes as the docs write them ("harmonic minor"), one word each, never camelCase.
        let modes = try await complete([installed.binary, "run", "--mode", ""]).offered
        #expect(Set(modes).isSuperset(of: ["dorian", "harmonic-minor", "minor-pentatonic"]) && !modes.contains { $0.contains { $0.isUppercase } }, "\(modes)")
        #expect(try await complete([installed.binary, "run", "--tone", "mari"]).offered == ["marimba"])
        #expect(try await complete([installed.binary, "run", "--bass-tone", "fret"]).offered == ["fretless-bass"])
        #expect(try await complete([installed.binary, "run", "--melody-tone", "obo"]).offered == ["oboe"])
        // Issue 47: the audio drivers FluidSynth has, the MIDI systems, and --set's fields.
        #expect(Set(try await complete([installed.binary, "run", "--audio-driver", ""]).offered).isSuperset(of: ["alsa", "file", "jack"]))
        #expect(try await complete([installed.binary, "run", "--midi-out", "j"]).offered == ["jack"])
        let fields = try await complete([installed.binary, "run", "--set", "piano.c"]).offered
        #expect(fields.contains("piano.count=") && fields.allSatisfy { $0.hasPrefix("piano.c") && $0.hasSuffix("=") }, "\(fields)")
        // File flags offer files of their kind (here, from /: nothing named *.mid, but directories).
        #expect(try await complete([installed.binary, "run", "--midi", "/us"]).offered == ["/usr"])
    }

    @Test("make uninstall removes every installed file")
    func uninstall() async throws {
        let installed = try await Installed()
        let result = try await CLI.run(["--no-print-directory", "uninstall", "DESTDIR=\(installed.root.path)", "PREFIX=/usr/local"],
                                 executable: "/usr/bin/make", in: projectRoot)
        #expect(result.status == 0, "\(result)")
        let left = FileManager.default.enumerator(atPath: installed.root.path)?.compactMap { $0 as? String }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: installed.root.path + "/" + $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        } ?? []
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
