// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// FluidSynth's own warnings (a SoundFont it loads but partly ignores) reach the user as one
/// escaped `clumsy: warning: fluidsynth: …` line each, after the run; `--quiet` keeps them out.
@Suite("FluidSynth's warnings", .serialized, .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"))
struct FluidSynthWarningTests {
    /// The test SoundFont with its first sample header changed by `edit` (the header's 46 bytes:
    /// name 20, start, end, loop start, loop end, rate 4 each, pitch, correction, link, type).
    static func soundFont(_ edit: (inout [UInt8], Int) -> Void) throws -> [UInt8] {
        var font = try #require(bytes(of: smallSoundFont))
        let tag = Array("shdr".utf8)
        let at = try #require((0..<(font.count - 8)).first { Array(font[$0..<($0 + 4)]) == tag }, "no shdr chunk")
        edit(&font, at + 8)
        return font
    }

    /// The first sample ends far past the sample data: FluidSynth disables it with a warning.
    static func brokenSample(name: String? = nil) throws -> [UInt8] {
        try soundFont { font, header in
            for (offset, byte) in [0xFF, 0xFF, 0xFF, 0x7F].enumerated() { font[header + 24 + offset] = UInt8(byte) }
            if let name {
                let bytes = Array(name.utf8.prefix(19))
                for index in 0..<20 { font[header + index] = index < bytes.count ? bytes[index] : 0 }
            }
        }
    }

    @Test("A SoundFont with a sample FluidSynth ignores: the run succeeds and says so on stderr, once")
    func warningReachesStandardError() async throws {
        let directory = try TemporaryDirectory()
        try Data(Self.brokenSample()).write(to: URL(fileURLWithPath: directory.file("broken.sf2")))
        let result = try await CLI.run(["run", "polska", "--duration", "3", "--audio", "a.wav", "--stems", ".", "--soundfont", "broken.sf2"],
                                 in: directory.path, timeout: 120)
        #expect(result.status == 0 && !result.signalled, "\(result)")
        #expect(result.stdout.contains("wrote a.wav"), "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        // Every synth of the mix plays the SoundFont loaded once, so the warning comes once.
        #expect(lines == ["clumsy: warning: fluidsynth: Sample 'FluteG6': invalid start/end file positions"], "\(result.stderr)")
        #expect(fileExists(directory.file("a.wav")))
    }

    @Test("--quiet keeps FluidSynth's warnings out, as it keeps out everything but errors")
    func quietRunStaysQuiet() async throws {
        let directory = try TemporaryDirectory()
        try Data(Self.brokenSample()).write(to: URL(fileURLWithPath: directory.file("broken.sf2")))
        let result = try await CLI.run(["run", "original", "--duration", "2", "--audio", "a.wav", "--soundfont", "broken.sf2", "--quiet"],
                                 in: directory.path, timeout: 120)
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
    }

    @Test("A sample name with terminal controls is printed escaped, on one line")
    func warningIsEscaped() async throws {
        let directory = try TemporaryDirectory()
        try Data(Self.brokenSample(name: "Evil\u{1B}[2J\nName")).write(to: URL(fileURLWithPath: directory.file("evil.sf2")))
        let result = try await CLI.run(["run", "original", "--duration", "2", "--audio", "a.wav", "--soundfont", "evil.sf2"],
                                 in: directory.path, timeout: 120)
        #expect(result.status == 0, "\(result)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(!result.stderr.unicodeScalars.contains("\u{1B}"), "a raw escape reached the terminal: \(result.stderr)")
        #expect(result.stderr.contains("Sample 'Evil\\u{1B}[2J"), "\(result.stderr)")
    }

    @Test("An intact SoundFont gives no warning")
    func intactSoundFontIsSilent() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--duration", "2", "--audio", "a.wav", "--soundfont", smallSoundFont],
                                 in: directory.path, timeout: 120)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
    }
}
