// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// `--tone bank:program` and a voice's `"tone": "bank:program"` (issue 33): any preset of the
/// SoundFont in use, as fluidsynth's `select` takes it, checked against the SoundFont's own
/// preset headers; `clumsy tones --soundfont` lists them as fluidsynth's `inst` does.
@Suite("Tones as a SoundFont's bank:program")
struct ToneBankProgramTests {
    /// Every SoundFont Debian put on this machine.
    static let soundFonts: [String] = ["/usr/share/sounds/sf2", "/usr/share/sounds/sf3"].flatMap { directory in
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
            .filter { $0.hasSuffix(".sf2") || $0.hasSuffix(".sf3") }.map { directory + "/" + $0 }
    }

    @Test("clumsy tones --soundfont lists the presets fluidsynth's inst command lists: the same bank:program, the same names",
          arguments: soundFonts)
    func presetsAsFluidSynthReadsThem(soundFont: String) async throws {
        let directory = try TemporaryDirectory()
        let fluid = try await CLI.run(["-c", "printf 'inst 1\\nquit\\n' | fluidsynth -n -a file -o audio.file.name=/dev/null \"$0\"", soundFont],
                                executable: "/bin/sh", in: directory.path, timeout: 60)
        let theirs = fluid.stdout.split(separator: "\n").compactMap { line -> String? in
            // "000-065 Alto Sax"
            guard line.count > 8, line.prefix(7).allSatisfy({ $0.isNumber || $0 == "-" }), line.dropFirst(3).first == "-" else { return nil }
            let bank = Int(line.prefix(3))!, program = Int(line.dropFirst(4).prefix(3))!
            return "\(bank):\(program) \(line.dropFirst(8).trimmingCharacters(in: .whitespaces))"
        }
        try #require(theirs.count > 100, "fluidsynth listed \(theirs.count) presets: \(fluid)")
        let ours = try await CLI.run(["tones", "--soundfont", soundFont])
        try #require(ours.status == 0, "\(ours)")
        let listed = ours.stdout.split(separator: "\n").drop { !$0.hasPrefix("presets of") }.dropFirst().map { line in
            let words = line.split(separator: " ", maxSplits: 1)
            return "\(words[0]) \(words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : "")"
        }
        #expect(listed.sorted() == theirs.sorted(), "\(Set(listed).symmetricDifference(theirs).sorted().prefix(8))")
    }

    @Test("--tone 0:65 plays program 65 on the keys' channels (mido reads the program change); 5:3 is refused naming the banks there are",
          .enabled(if: hasSmallSoundFont))
    func bankProgramChecked() async throws {
        let directory = try TemporaryDirectory()
        let played = try await CLI.run(["run", "default", "--duration", "3", "--tone", "0:65", "--midi", "t.mid", "--audio", "t.wav",
                                  "--soundfont", smallSoundFont], in: directory.path)
        try #require(played.status == 0, "\(played)")
        let programs = try await CLI.run(["-c", """
            import mido, sys
            for track in mido.MidiFile(sys.argv[1]).tracks:
                print(track.name, sorted({m.program for m in track if m.type == 'program_change'}))
            """, directory.file("t.mid")], executable: "/usr/bin/env", prefix: ["python3"])
        #expect(programs.stdout.contains("Keys [65]") && programs.stdout.contains("Bass [32]"), "\(programs)")
        let missing = try await CLI.run(["run", "default", "--duration", "3", "--tone", "5:3", "--audio", "u.wav", "--soundfont", smallSoundFont],
                                  in: directory.path)
        #expect(missing.status == 64, "\(missing)")
        #expect(missing.stderr.contains("no preset at bank 5, program 3") && missing.stderr.contains("its banks: 0 ("), "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("u.wav")))
        // In a preset, for any voice, checked the same way.
        let preset = #"{"bass": {"tone": "0:33"}, "melody": {"tone": "128:0"}}"#
        try preset.write(toFile: directory.file("p.json"), atomically: true, encoding: .utf8)
        let fromFile = try await CLI.run(["run", "p.json", "--duration", "2", "--midi", "p.mid", "--audio", "p.wav", "--soundfont", smallSoundFont],
                                   in: directory.path)
        #expect(fromFile.status == 0, "\(fromFile)")
    }

    @Test("bank:program is refused outside bank 0…128 and program 0…127, and in any other form: 64 naming the flag",
          arguments: ["0:128", "129:0", "-1:5", "0:+5", "0: 5", "0x0:5", "1:2:3", ":5", "0:", "0:٥"])
    func malformed(text: String) async throws {
        let result = try await CLI.run(["run", "default", "--duration", "1", "--tone", text])
        #expect(result.status == 64 && result.stderr.contains("--tone") && result.stderr.contains("bank:program"), "\(result)")
    }
}
