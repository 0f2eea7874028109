// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The one error line of a failed run: stderr must be exactly one line, starting with
/// "clumsy: error:" (nothing from FluidSynth, ALSA or libsndfile printed raw). Returns the
/// message after the prefix.
@discardableResult
func singleErrorLine(_ result: RunResult, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    #expect(lines.count == 1, "stderr should be one line: \(result)", sourceLocation: sourceLocation)
    let line = lines.first ?? ""
    #expect(line.hasPrefix("clumsy: error: "), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    return String(line.dropFirst("clumsy: error: ".count))
}

@Suite("SoundFont errors")
struct SoundFontErrorTests {
    enum Case: String, CaseIterable, Sendable {
        case missing, truncated, text, directory, environment
    }

    /// Every case fails before the (week-long) session starts, with one clear line, and leaves
    /// neither the audio file nor the MIDI file that was also asked for.
    @Test("A bad SoundFont is an error before the session, with one clear line and no output left", arguments: Case.allCases)
    func badSoundFont(_ kind: Case) async throws {
        let directory = try TemporaryDirectory()
        var flags: [String] = []
        var environment: [String: String?] = [:]
        let status: Int32
        let mentions: [String]
        var inputs: [String] = []
        switch kind {
        case .missing:
            flags = ["--soundfont", "/nonexistent.sf2"]
            status = 66
            mentions = ["/nonexistent.sf2", "--soundfont", "does not exist", "fluid-soundfont-gm"]
        case .truncated:
            let original = try #require(bytes(of: smallSoundFont), "needs \(smallSoundFont)")
            try Data(original.prefix(1000)).write(to: URL(fileURLWithPath: directory.file("cut.sf2")))
            flags = ["--soundfont", "cut.sf2"]
            status = 65
            mentions = ["cut.sf2", "truncated", "1000"]
            inputs = ["cut.sf2"]
        case .text:
            try directory.write("x.sf2", "This is a text file, not a SoundFont at all.\n")
            flags = ["--soundfont", "x.sf2"]
            status = 65
            mentions = ["x.sf2", "not a SoundFont", "RIFF"]
            inputs = ["x.sf2"]
        case .directory:
            try FileManager.default.createDirectory(atPath: directory.file("fonts.sf2"), withIntermediateDirectories: false)
            flags = ["--soundfont", "fonts.sf2"]
            status = 66
            mentions = ["fonts.sf2"]
            inputs = ["fonts.sf2"]
        case .environment:
            environment = ["CLUMSY_SOUNDFONT": "/nonexistent"]
            status = 66
            mentions = ["\"/nonexistent\"", "CLUMSY_SOUNDFONT"]
        }
        let result = try await CLI.run(["run", "original", "--duration", "604800", "--midi", "m.mid", "--audio", "a.wav"] + flags,
                                 environment: environment, in: directory.path, timeout: 60)
        // A week of audio takes hours: ending inside the time limit means it failed before playing.
        #expect(!result.timedOut, "the session ran instead of failing on the SoundFont")
        #expect(result.status == status && !result.signalled, "\(result)")
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)")
        let message = singleErrorLine(result)
        for text in mentions {
            #expect(message.contains(text), "the message does not mention \(text): \(message)")
        }
        #expect(!message.lowercased().contains("fluidsynth:"), "FluidSynth's own log leaked: \(message)")
        #expect(directory.entries() == inputs.sorted(), "files left behind: \(directory.entries())")

        if kind == .truncated || kind == .text {
            #expect(!message.hasPrefix(":"), "the message starts with an empty file name: \(message)")
        }
        if kind == .directory {
            #expect(!message.contains("does not exist"), "a directory that exists is reported as missing: \(message)")
        }
    }
}

@Suite("Write errors during a session")
struct DiskFullTests {
    static let earlier = "old"

    @Test("A disk too small for an audio render is refused up front (73), keeping the earlier file (filling during a render: MixTests)",
          .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"), .timeLimit(.minutes(15)))   // a hang guard, not a speed target: over 3 min while make test shared both cores
    func audioDiskFull() async throws {
        let (mounted, reason) = try TinyFileSystem.mount(kibibytes: 16 * 1024)
        guard let tmpfs = mounted else { try Test.cancel("cannot mount a tmpfs (needs root): \(reason)") }
        defer { tmpfs.unmount() }
        let target = tmpfs.path + "/full.wav"
        try Data(Self.earlier.utf8).write(to: URL(fileURLWithPath: target))
        let other = try TemporaryDirectory()
        // 600 s of 24-bit audio is 159 MB: refused before the session (AudioBudget, or the mix's
        // own check of the scratch space and the outputs).
        let result = try await CLI.run(["run", "original", "--duration", "600", "--audio", target, "--midi", "m.mid", "--events", "e.jsonl",
                                  "--soundfont", smallSoundFont], in: other.path, timeout: 40)
        #expect(result.status == 73 && !result.signalled && !result.timedOut, "\(result)")
        let message = singleErrorLine(result)
        #expect(message.contains(tmpfs.path), "the message does not name the directory: \(message)")
        #expect(message.contains("free"), "the message does not say why: \(message)")
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)")
        let kept = bytes(of: target) == Array(Self.earlier.utf8)
        #expect(kept, "the earlier \(target) was changed")
        let left = ((try? FileManager.default.contentsOfDirectory(atPath: tmpfs.path)) ?? []).sorted()
        #expect(left == ["full.wav"], "files left in the small file system: \(left)")
        // The other outputs of the failed session are not left half-written either.
        #expect(other.entries().isEmpty, "files left beside: \(other.entries())")
    }

    @Test("A full disk under the live file driver exits 74 and keeps the earlier file",
          .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"), .timeLimit(.minutes(15)))   // a hang guard, not a speed target: over 3 min while make test shared both cores
    func liveFileDiskFull() async throws {
        let (mounted, reason) = try TinyFileSystem.mount(kibibytes: 100)
        guard let tmpfs = mounted else { try Test.cancel("cannot mount a tmpfs (needs root): \(reason)") }
        defer { tmpfs.unmount() }
        let target = tmpfs.path + "/live.wav"
        try Data(Self.earlier.utf8).write(to: URL(fileURLWithPath: target))
        // 2 s of live sound is 350 KB: the 100 KB file system fills after about half a second.
        let result = try await CLI.run(["run", "original", "--live", "--audio-driver", "file", "--audio", target, "--duration", "2",
                                  "--soundfont", smallSoundFont, "--quiet"], timeout: 30)
        #expect(!result.signalled && !result.timedOut, "\(result)")
        let kept = bytes(of: target) == Array(Self.earlier.utf8)
        #expect(result.status == 74, "\(result)")
        #expect(kept, "the earlier \(target) was replaced by a truncated file")
    }

    @Test("A write error on --midi or --events (/dev/full) exits 74 and leaves /dev/full a device",
          arguments: ["--midi", "--events"])
    func deviceFull(flag: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--duration", "600", flag, "/dev/full", "--events" == flag ? "--midi" : "--events",
                                  flag == "--midi" ? "e.jsonl" : "m.mid"], in: directory.path, timeout: 40)
        #expect(result.status == 74 && !result.signalled && !result.timedOut, "\(result)")
        let message = singleErrorLine(result)
        #expect(message.contains("/dev/full"), "the message does not name /dev/full: \(message)")
        #expect(message.contains("No space left on device"), "the message does not say why: \(message)")
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR, "/dev/full is no longer a character device")
        #expect(directory.entries().isEmpty, "files left behind: \(directory.entries())")
    }
}
