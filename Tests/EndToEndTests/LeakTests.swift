// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// Reads valgrind's memcheck output and finds the loss records and memory errors that
/// involve the project's own code.
enum ValgrindReport {
    /// Frames of the project's code: Swift-mangled symbols of its modules, and the executable's main.
    static let projectMarkers = ["$s5Sound", "$s7Session", "$s7Physics", "$s8MIDIFile", "$s10FileOutput", "$s11Performance",
                                 "$s6Theory", "$s7Presets", "$s6Engine", "$s8Pictures", "$s6clumsy", "clumsy_main"]

    /// Known losses and errors of third-party code, given to valgrind with --suppressions:
    /// - libinstpatch (loaded by FluidSynth for DLS support) registers GObject types in
    ///   `ipatch_init` from every `new_fluid_synth` and never frees them (about 1.9 KB);
    /// - the cmt plugin `fbdelay_5s` (Debian cmt 1.17) connects a fifth control port into a
    ///   four-slot array: an 8-byte write past a 32-byte block when the effect is added and
    ///   an 8-byte read of it per block rendered;
    /// - Cairo 1.16's toy font faces (`cairo_select_font_face`) copy a fontconfig pattern
    ///   once per face that is never freed, and fontconfig's configuration loads once per
    ///   process: about 1 KB in all, the same for one picture as for thousands of frames.
    static let suppressions = """
    {
       cairo-toy-font-face-fontconfig-pattern
       Memcheck:Leak
       match-leak-kinds: definite,indirect
       ...
       fun:cairo_toy_font_face_create
    }
    {
       fontconfig-configuration-load
       Memcheck:Leak
       match-leak-kinds: definite,indirect
       ...
       fun:FcInitLoadConfigAndFonts
    }
    {
       libinstpatch-ipatch_init-type-registration
       Memcheck:Leak
       match-leak-kinds: definite,indirect
       ...
       fun:ipatch_init
    }
    {
       cmt-fbdelay-port-array-overrun
       Memcheck:Addr8
       obj:*/cmt.so
    }

    """

    struct Record {
        /// The record's first line, e.g. "64 bytes in 1 blocks are definitely lost in loss record 3 of 9".
        var title: String
        /// Its stack, "at …"/"by …" lines, innermost first.
        var frames: [String]
        /// True when a frame belongs to the project.
        var isProjects: Bool { frames.contains { frame in ValgrindReport.projectMarkers.contains { frame.contains($0) } } }
    }

    /// The definitely and indirectly lost records, and the other error records (invalid reads and
    /// writes, uninitialised values, bad frees), each with its stack.
    static func parse(_ output: String) -> (leaks: [Record], errors: [Record]) {
        var leaks: [Record] = []
        var errors: [Record] = []
        var current: Record?
        var currentIsLeak = false
        func close() {
            if let record = current { if currentIsLeak { leaks.append(record) } else { errors.append(record) } }
            current = nil
        }
        for rawLine in output.split(separator: "\n", omittingEmptySubsequences: false) {
            // Strip the "==1234== " prefix.
            var line = Substring(rawLine)
            if line.hasPrefix("=="), let end = line.dropFirst(2).range(of: "== ") {
                line = line[end.upperBound...]
            }
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.contains("are definitely lost in loss record") || text.contains("are indirectly lost in loss record") {
                close()
                current = Record(title: text, frames: [])
                currentIsLeak = true
            } else if text.hasPrefix("Invalid read") || text.hasPrefix("Invalid write") || text.hasPrefix("Invalid free")
                        || text.hasPrefix("Conditional jump") || text.hasPrefix("Use of uninitialised")
                        || text.hasPrefix("Mismatched free") || text.hasPrefix("Syscall param") {
                close()
                current = Record(title: text, frames: [])
                currentIsLeak = false
            } else if current != nil, text.hasPrefix("at ") || text.hasPrefix("by ") {
                current!.frames.append(text)
            } else if current != nil, !text.isEmpty, !currentIsLeak {
                // "Address 0x… is 0 bytes after a block…": the allocation stack that follows is not the error's.
                close()
            } else if text.isEmpty {
                close()
            }
        }
        close()
        return (leaks, errors)
    }

    /// The LEAK SUMMARY and ERROR SUMMARY lines.
    static func summary(_ output: String) -> String {
        let wanted = ["definitely lost:", "indirectly lost:", "possibly lost:", "still reachable:", "suppressed:", "ERROR SUMMARY:"]
        return output.split(separator: "\n").map(String.init).filter { line in wanted.contains { line.contains($0) } }
            .map { $0.replacingOccurrences(of: #"^==\d+==\s*"#, with: "", options: .regularExpression) }
            .joined(separator: "\n")
    }
}

let valgrind = firstExecutable(["/usr/bin/valgrind", "/usr/local/bin/valgrind"])

/// `clumsy` as valgrind can read it: a copy without DWARF debug information (the symbol table,
/// which names the project's frames, stays). swift-system's C shim is compiled by clang with
/// DWARF 5, which Debian 12's valgrind 3.19 cannot read ("unhandled dwarf2 abbrev form code
/// 0x25 … I can't recover"). Without `objcopy`, the executable itself.
///
/// The debug build beside the tests, whatever `CLUMSY_UNDER_TEST` names: in optimised code Swift
/// keeps flags in a pointer's spare bits, and memcheck, which looks for whole pointers, then
/// reports memory that is still referenced as lost.
func valgrindReadableExecutable(in directory: TemporaryDirectory) async throws -> String {
    let executable = CLI.productsDirectory + "/clumsy"
    guard let objcopy = firstExecutable(["/usr/bin/objcopy"]) else { return executable }
    let copy = directory.file("clumsy-for-valgrind")
    let result = try await CLI.run(["--strip-debug", executable, copy], executable: objcopy, timeout: 60)
    return result.status == 0 ? copy : executable
}

@Suite("Leaks")
struct LeakTests {
    @Test("The valgrind report parser finds a project frame in a loss record, and not in a foreign one")
    func parser() {
        let output = """
        ==42== 48 bytes in 1 blocks are definitely lost in loss record 7 of 9
        ==42==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
        ==42==    by 0x1234: swift_slowAlloc (in /usr/lib/swift/linux/libswiftCore.so)
        ==42==    by 0x2AD3F6: $s7Session14SamplerFactoryO4make (AudioSinks.swift:44)
        ==42==
        ==42== 16 bytes in 1 blocks are indirectly lost in loss record 2 of 9
        ==42==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
        ==42==    by 0x690E658: g_malloc (in /usr/lib/x86_64-linux-gnu/libglib-2.0.so.0.7400.6)
        ==42==
        ==42== Invalid read of size 8
        ==42==    at 0xC98FFD7: ??? (in /usr/lib/ladspa/cmt.so)
        ==42==    by 0x48C5D7A: fluid_synth_write_float (in /usr/lib/x86_64-linux-gnu/libfluidsynth.so.3.1.4)
        ==42==  Address 0xc5d5080 is 0 bytes after a block of size 32 alloc'd
        ==42==    at 0x484320F: operator new[](unsigned long) (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
        ==42==    by 0x335220: $s5Sound7SamplerC14configureDelay (Sampler.swift:286)
        ==42==
        """
        let (leaks, errors) = ValgrindReport.parse(output)
        #expect(leaks.count == 2)
        #expect(leaks.map(\.isProjects) == [true, false])
        #expect(errors.count == 1)
        #expect(errors.first?.frames.count == 2, "the allocation stack was taken for the error's: \(String(describing: errors.first))")
        #expect(errors.first?.isProjects == false)
    }

    @Test("No memory the project allocates is lost, under valgrind (offline render with effects, MIDI and event log; and a SoundFont error)",
          .enabled(if: slowChecksEnabled, "a soak under valgrind (minutes of CPU each): make slow-checks runs it"), .enabled(if: valgrind != nil, "needs valgrind"),
          .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"), .timeLimit(.minutes(30)), arguments: [false, true])
    func noProjectLeaks(failing: Bool) async throws {
        let directory = try TemporaryDirectory()
        let suppressions = try directory.write("clumsy.supp", ValgrindReport.suppressions)
        var soundFont = smallSoundFont
        if failing { soundFont = try directory.write("bad.sf2", "not a SoundFont, only text that is long enough\n") }
        let executable = try await valgrindReadableExecutable(in: directory)
        let valgrindArguments = ["--leak-check=full", "--show-leak-kinds=definite,indirect", "--errors-for-leak-kinds=definite,indirect",
                                 "--num-callers=60", "--suppressions=" + suppressions, executable]
        let result = try await CLI.run(["run", "original", "--duration", "2", "--audio", "v.wav", "--midi", "v.mid",
                                  "--events", "v.jsonl", "--soundfont", soundFont, "--quiet"],
                                 executable: valgrind!, prefix: valgrindArguments,
                                 environment: ["CLUMSY_PRESETS": projectRoot + "/Presets"], in: directory.path, timeout: 1200)
        #expect(!result.timedOut, "valgrind timed out")
        // Without --error-exitcode valgrind exits with the program's own status.
        #expect(result.status == (failing ? 65 : 0) && !result.signalled, "clumsy under valgrind: status \(result.status)\n\(result.stderr.suffix(3000))")
        let (leaks, errors) = ValgrindReport.parse(result.stderr)
        let ours = leaks.filter(\.isProjects)
        for record in ours.prefix(5) {
            let stack = record.frames.prefix(20).joined(separator: "\n")
            Issue.record("lost memory from the project's code: \(record.title)\n\(stack)")
        }
        // Memory errors whose innermost frame is the project's own code.
        for record in errors where record.frames.first.map({ frame in ValgrindReport.projectMarkers.contains { frame.contains($0) } }) == true {
            let stack = record.frames.prefix(20).joined(separator: "\n")
            Issue.record("memory error in the project's code: \(record.title)\n\(stack)")
        }
        #expect(result.stderr.contains("LEAK SUMMARY") || result.stderr.contains("All heap blocks were freed"),
                "no leak report from valgrind:\n\(result.stderr.suffix(2000))")
        print("valgrind (\(failing ? "SoundFont error" : "render")): \(leaks.count) unsuppressed loss records (\(ours.count) with project frames), "
              + "\(errors.count) other error records\n" + ValgrindReport.summary(result.stderr))
        if !failing {
            #expect(fileExists(directory.file("v.wav")) && fileExists(directory.file("v.mid")) && fileExists(directory.file("v.jsonl")))
        }
    }

    @Test("Pictures leak nothing of the project's under valgrind: a traced SVG drawing and a short video (Cairo surfaces, the ffmpeg child)",
          .enabled(if: slowChecksEnabled, "a soak under valgrind (minutes of CPU each): make slow-checks runs it"), .enabled(if: valgrind != nil, "needs valgrind"),
          .enabled(if: hasSmallSoundFont && hasFFmpeg, "needs \(smallSoundFont) and ffmpeg"), .timeLimit(.minutes(30)))
    func noPictureLeaks() async throws {
        let directory = try TemporaryDirectory()
        let suppressions = try directory.write("clumsy.supp", ValgrindReport.suppressions)
        let executable = try await valgrindReadableExecutable(in: directory)
        let valgrindArguments = ["--leak-check=full", "--show-leak-kinds=definite,indirect", "--errors-for-leak-kinds=definite,indirect",
                                 "--num-callers=60", "--suppressions=" + suppressions, executable]
        for arguments in [["draw", "--trace", "1", "-o", "w.svg"],
                          ["run", "--duration", "0.5", "--video", "v.mp4", "--size", "160x90", "--soundfont", smallSoundFont, "--quiet"]] {
            let result = try await CLI.run(arguments, executable: valgrind!, prefix: valgrindArguments,
                                     environment: ["CLUMSY_PRESETS": projectRoot + "/Presets"], in: directory.path, timeout: 1200)
            #expect(result.status == 0 && !result.timedOut, "clumsy \(arguments) under valgrind: status \(result.status)\n\(result.stderr.suffix(3000))")
            let (leaks, errors) = ValgrindReport.parse(result.stderr)
            for record in leaks.filter(\.isProjects).prefix(5) {
                Issue.record("lost memory from the project's code (\(arguments[0])): \(record.title)\n\(record.frames.prefix(20).joined(separator: "\n"))")
            }
            for record in errors where record.frames.first.map({ frame in ValgrindReport.projectMarkers.contains { frame.contains($0) } }) == true {
                Issue.record("memory error in the project's code (\(arguments[0])): \(record.title)\n\(record.frames.prefix(20).joined(separator: "\n"))")
            }
            #expect(result.stderr.contains("LEAK SUMMARY") || result.stderr.contains("All heap blocks were freed"))
        }
        #expect(fileExists(directory.file("w.svg")) && fileExists(directory.file("v.mp4")))
    }
}
