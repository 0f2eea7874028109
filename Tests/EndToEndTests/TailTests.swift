// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// `--tail` (issue 33): how much sound follows the session's end, instead of the estimate of how
/// long its notes, echoes and reverb ring (a 5 s `default` writes about 11 s of audio).
@Suite("--tail")
struct TailTests {
    @Test("--tail 0, 0.5 and 3 give the session's length plus that (within a millisecond); without it the estimate",
          .enabled(if: hasSmallSoundFont), arguments: [("0", 5.0), ("0.5", 5.5), ("3", 8.0), (nil, 0)])
    func tailSetsTheLength(tail: String?, seconds: Double) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "default", "--duration", "5", "--audio", "t.wav", "--soundfont", smallSoundFont, "--quiet"]
                                 + (tail.map { ["--tail", $0] } ?? []), in: directory.path)
        try #require(result.status == 0, "\(result)")
        let wav = try WAVFile(path: directory.file("t.wav"))
        let length = Double(wav.frameCount) / Double(wav.sampleRate)
        if tail == nil {
            #expect(length > 8 && length <= 35, "the estimated tail: \(length) s")
        } else {
            #expect(abs(length - seconds) < 0.001, "--tail \(tail!): \(length) s")
        }
    }

    @Test("--tail refuses NaN, a negative, more than 30 s and a word: 64 naming the flag", arguments: ["nan", "-1", "30.5", "inf", "long"])
    func badTails(value: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "default", "--duration", "1", "--audio", "t.wav", "--tail", value], in: directory.path)
        #expect(result.status == 64 && result.stderr.contains("--tail \(value) is not accepted"), "\(result)")
        #expect(directory.entries().isEmpty)
    }
}
