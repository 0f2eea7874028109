// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

// Mix and master (issue 12): one synth per voice, stems, loudness, true peak, bit depth.
// Most runs use the small SoundFont (fast to load); loudness is measured by ffmpeg's
// ebur128 filter, a meter Clumsy does not use.

/// ffmpeg's EBU R128 reading of an audio file: integrated loudness (LUFS) and true peak (dBTP).
func ffmpegLoudness(_ path: String) async throws -> (loudness: Double, truePeak: Double)? {
    guard let ffmpeg = firstExecutable(["/usr/bin/ffmpeg"]) else { return nil }
    let result = try await CLI.run(["-hide_banner", "-nostats", "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"],
                             executable: ffmpeg, timeout: 60)
    guard result.status == 0, let summary = result.stderr.range(of: "Summary:") else { return nil }
    let text = result.stderr[summary.upperBound...]
    func value(after label: String) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        let rest = text[range.upperBound...].drop { $0 == " " }
        return Double(rest.prefix { "-+.0123456789".contains($0) })
    }
    guard let loudness = value(after: "I:"), let peak = value(after: "Peak:") else { return nil }
    return (loudness, peak)
}

/// Note-ons per channel of a MIDI file, and the track count.
private func noteChannels(_ path: String) throws -> (tracks: Int, notes: [UInt8: Int]) {
    let contents = try MIDIFileReader.read(path: path)
    var notes: [UInt8: Int] = [:]
    for track in contents.tracks {
        for event in track {
            if case .noteOn(let channel, _, let velocity) = event.message, velocity > 0 { notes[channel, default: 0] += 1 }
        }
    }
    return (contents.tracks.count, notes)
}

@Suite("Mix and master", .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"))
struct MixTests {
    @Test("Dry stems sum to the dry mix (residual ≤ −90 dBFS), have its length and rate, and hold only their voice")
    func stemsSumToMix() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("stems"), withIntermediateDirectories: false)
        let result = try await CLI.run(["run", "original", "--duration", "12", "--dry", "--audio", "mix.wav", "--stems", "stems",
                                  "--bit-depth", "32f", "--midi", "m.mid", "--events", "e.jsonl", "--soundfont", smallSoundFont],
                                 in: directory.path, timeout: 120)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("stems bass.wav, keys.wav, bass.mid, keys.mid"), "summary: \(result.stdout)")
        #expect(Set(directory.entries()) == ["mix.wav", "stems", "m.mid", "e.jsonl"])
        let mix = try WAVFile(path: directory.file("mix.wav"))
        let bass = try WAVFile(path: directory.file("stems/bass.wav"))
        let keys = try WAVFile(path: directory.file("stems/keys.wav"))
        #expect(mix.isFloat && bass.isFloat && keys.isFloat)
        #expect(bass.values.count == mix.values.count && keys.values.count == mix.values.count, "stem lengths differ from the mix")
        #expect(bass.sampleRate == mix.sampleRate && keys.sampleRate == mix.sampleRate)
        var residual = 0.0
        var peak = 0.0
        for index in mix.values.indices where index < bass.values.count && index < keys.values.count {
            residual = max(residual, abs(mix.values[index] - bass.values[index] - keys.values[index]))
            peak = max(peak, abs(mix.values[index]))
        }
        #expect(peak > 0.1, "the mix is (nearly) silent: peak \(peak)")
        #expect(20 * log10(max(residual, 1e-30)) <= -90, "stems differ from the mix by up to \(20 * log10(residual)) dBFS")

        // The keys stem is silent until the first key note sounds (the bass plays from frame 0).
        let log = try String(contentsOfFile: directory.file("e.jsonl"), encoding: .utf8)
        let firstKey = try #require(log.split(separator: "\n").first { $0.contains("\"kind\":\"key\"") })
        let time = try #require(Double(firstKey.split(separator: ",")[0].dropFirst("{\"t\":".count)))
        let firstFrame = Int((time * Double(mix.sampleRate)).rounded())
        #expect(firstFrame > 4410, "the first key note comes too early to test: \(time) s")
        let keysBefore = keys.values[0..<2 * (firstFrame - 64)].reduce(0.0) { max($0, abs($1)) }
        let bassBefore = bass.values[0..<2 * (firstFrame - 64)].reduce(0.0) { max($0, abs($1)) }
        #expect(keysBefore == 0, "the keys stem sounds (peak \(keysBefore)) before the first key note at \(time) s")
        #expect(bassBefore > 0.01, "the bass stem is silent before the first key note")
        let keysAfter = keys.rms(frames: firstFrame..<firstFrame + 4410)
        #expect(keysAfter > 10, "the keys stem is silent after the first key note (RMS \(keysAfter))")

        // One MIDI file per voice: tempo track + the voice's track, on the voice's channels only.
        let bassMIDI = try noteChannels(directory.file("stems/bass.mid"))
        let keysMIDI = try noteChannels(directory.file("stems/keys.mid"))
        let whole = try noteChannels(directory.file("m.mid"))
        #expect(bassMIDI.tracks == 2 && keysMIDI.tracks == 2)
        #expect(Set(bassMIDI.notes.keys) == [0], "bass.mid channels: \(bassMIDI.notes)")
        #expect(Set(keysMIDI.notes.keys).isSubset(of: [1, 2, 3, 4]) && keysMIDI.notes[0] == nil, "keys.mid channels: \(keysMIDI.notes)")
        #expect(bassMIDI.notes.merging(keysMIDI.notes, uniquingKeysWith: +) == whole.notes, "the stems' notes are not the session's")
    }

    @Test("The second voice is a part of its own: its stem and MIDI file, on a channel no other voice uses; the four stems sum to the mix")
    func secondVoiceStem() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("stems"), withIntermediateDirectories: false)
        let result = try await CLI.run(["run", "pentatonic-triads", "--duration", "8", "--dry", "--audio", "mix.wav", "--stems", "stems",
                                  "--bit-depth", "32f", "--midi", "m.mid", "--soundfont", smallSoundFont],
                                 in: directory.path, timeout: 120)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("stems bass.wav, keys.wav, second.wav, melody.wav, bass.mid, keys.mid, second.mid, melody.mid"),
                "summary: \(result.stdout)")
        let mix = try WAVFile(path: directory.file("mix.wav"))
        let stems = try ["bass", "keys", "second", "melody"].map { try WAVFile(path: directory.file("stems/\($0).wav")) }
        var residual = 0.0
        for index in mix.values.indices { residual = max(residual, abs(mix.values[index] - stems.reduce(0) { $0 + $1.values[index] })) }
        #expect(20 * log10(max(residual, 1e-30)) <= -90, "stems differ from the mix by up to \(20 * log10(residual)) dBFS")
        #expect(stems[2].values.reduce(0.0) { max($0, abs($1)) } > 0.01, "the second stem is silent")
        let keys = try noteChannels(directory.file("stems/keys.mid"))
        let second = try noteChannels(directory.file("stems/second.mid"))
        let whole = try noteChannels(directory.file("m.mid"))
        // pentatonic-triads has three keys spread by position (MIDI 2–4): the second voice plays on 5.
        #expect(Set(keys.notes.keys) == [1, 2, 3], "keys.mid channels: \(keys.notes)")
        #expect(Set(second.notes.keys) == [4], "second.mid channels: \(second.notes)")
        #expect(second.notes.values.reduce(0, +) == keys.notes.values.reduce(0, +), "every key note is doubled")
        #expect(whole.tracks == 5 && whole.notes[4] == second.notes[4])
    }

    @Test("The mix is byte-identical with and without stems, run to run, for WAV (16-bit, dithered) and FLAC",
          arguments: [["--audio", "a.flac"], ["--audio", "a.wav", "--bit-depth", "16"]])
    func identicalWithStems(_ output: [String]) async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("s"), withIntermediateDirectories: false)
        let name = output[1]
        var copies: [[UInt8]] = []
        for (index, stems) in [[], ["--stems", "s"], []].enumerated() {
            let result = try await CLI.run(["run", "original", "--duration", "8", "--seed", "5", "--soundfont", smallSoundFont, "--quiet"]
                                     + output + stems, in: directory.path, timeout: 120)
            #expect(result.status == 0, "run \(index): \(result)")
            copies.append(try #require(bytes(of: directory.file(name))))
        }
        #expect(copies[0] == copies[1], "the mix changes when stems are written")
        #expect(copies[0] == copies[2], "the mix differs between two identical runs")
        if name.hasSuffix(".wav") {
            let wav = try WAVFile(path: directory.file(name))
            #expect(wav.bitsPerSample == 16 && !wav.isFloat)
        }
    }

    @Test("One synthesis thread and two write the same bytes (the parts' split never depends on the cores)")
    func threadCountInvariant() async throws {
        let directory = try TemporaryDirectory()
        var copies: [[UInt8]] = []
        for threads in ["1", "2"] {
            let result = try await CLI.run(["run", "original", "--duration", "6", "--audio", "t\(threads).wav", "--soundfont", smallSoundFont, "--quiet"],
                                     environment: ["CLUMSY_THREADS": threads], in: directory.path, timeout: 120)
            #expect(result.status == 0, "\(result)")
            copies.append(try #require(bytes(of: directory.file("t\(threads).wav"))))
        }
        #expect(copies[0] == copies[1], "the render depends on the number of synthesis threads")
    }

    @Test("Defaults reach −16 ± 0.5 LUFS with a true peak ≤ −1 dBTP (ffmpeg's meter); the summary says so; targets can be changed",
          arguments: [[String](), ["--loudness", "-23", "--true-peak", "-3"]])
    func loudness(_ flags: [String]) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--duration", "20", "--audio", "a.wav", "--soundfont", smallSoundFont] + flags,
                                 in: directory.path, timeout: 120)
        #expect(result.status == 0, "\(result)")
        let target = flags.isEmpty ? -16.0 : -23.0
        let ceiling = flags.isEmpty ? -1.0 : -3.0
        guard let measured = try await ffmpegLoudness(directory.file("a.wav")) else { try Test.cancel("ffmpeg's ebur128 filter is not available") }
        #expect(abs(measured.loudness - target) <= 0.5, "ffmpeg measures \(measured.loudness) LUFS, target \(target)")
        #expect(measured.truePeak <= ceiling, "ffmpeg measures a true peak of \(measured.truePeak) dBTP, ceiling \(ceiling)")
        // "…; -16.0 LUFS, -1.3 dBTP", in ASCII (issue 47: a terminal's user greps and pastes it)
        let pattern = try #require(result.stdout.range(of: #"-?[0-9]+\.[0-9] LUFS, -?[0-9]+\.[0-9] dBTP"#, options: .regularExpression),
                                   "no loudness in the summary: \(result.stdout)")
        #expect(!result.stdout.contains("\u{2212}"), "a U+2212 minus in the summary: \(result.stdout)")
        let reported = result.stdout[pattern].split(separator: " ")
        let reportedLoudness = try #require(Double(reported[0]))
        #expect(abs(reportedLoudness - measured.loudness) <= 0.2, "reported \(reportedLoudness), ffmpeg \(measured.loudness)")
    }

    @Test("--loudness off writes the synthesizers' level: far quieter than the normalised default")
    func loudnessOff() async throws {
        let directory = try TemporaryDirectory()
        for (name, flags) in [("off.wav", ["--loudness", "off"]), ("on.wav", [])] {
            let result = try await CLI.run(["run", "original", "--duration", "10", "--audio", name, "--soundfont", smallSoundFont, "--quiet"] + flags,
                                     in: directory.path, timeout: 120)
            #expect(result.status == 0, "\(result)")
        }
        let off = try WAVFile(path: directory.file("off.wav"))
        let on = try WAVFile(path: directory.file("on.wav"))
        #expect(off.bitsPerSample == 24 && on.bitsPerSample == 24, "the default bit depth is 24")
        #expect(on.rms > 2 * off.rms, "normalised RMS \(on.rms) vs raw \(off.rms)")
    }

    @Test("Bad mix flags are refused before anything runs, naming the flag and what is accepted",
          arguments: [
            (["--audio", "a.wav", "--loudness", "5"], "--loudness"), (["--audio", "a.wav", "--loudness", "-41"], "--loudness"),
            (["--audio", "a.wav", "--loudness", "loud"], "--loudness"), (["--audio", "a.wav", "--loudness", "nan"], "--loudness"),
            (["--audio", "a.wav", "--true-peak", "0.5"], "--true-peak"), (["--audio", "a.wav", "--true-peak", "-10"], "--true-peak"),
            (["--audio", "a.wav", "--bit-depth", "20"], "--bit-depth"), (["--audio", "a.flac", "--bit-depth", "32f"], "--bit-depth"),
            (["--stems", "."], "--stems"), (["--midi", "m.mid", "--loudness", "-14"], "--loudness"),
          ])
    func badFlags(_ flags: [String], _ flag: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--duration", "5"] + flags, in: directory.path, timeout: 30)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(flag), "the message does not name \(flag): \(result.stderr)")
        #expect(directory.entries().isEmpty, "files left: \(directory.entries())")
    }

    @Test("A stems directory that is missing or not a directory exits 73 before the session, leaving nothing",
          arguments: ["missing", "file"])
    func badStemsDirectory(_ kind: String) async throws {
        let directory = try TemporaryDirectory()
        if kind == "file" { try directory.write("file", "not a directory\n") }
        let result = try await CLI.run(["run", "original", "--duration", "3600", "--audio", "a.wav", "--midi", "m.mid", "--stems", kind,
                                  "--soundfont", smallSoundFont], in: directory.path, timeout: 30)
        #expect(result.status == 73, "\(result)")
        let message = singleErrorLine(result)
        #expect(message.contains(kind) && message.contains("--stems"), "message: \(message)")
        #expect(directory.entries() == (kind == "file" ? ["file"] : []), "files left: \(directory.entries())")
    }

    @Test("Too little free space for the render is refused up front (73); a disk that fills while rendering exits 74 and leaves no partial mix or stem",
          .timeLimit(.minutes(15)))   // a hang guard: it took over 2 min while the rest of make test shared both cores
    func diskSpace() async throws {
        // Up front: 60 s (and the tail) at 24 bits is about 17 MB of WAV, which does not fit a
        // 12 MB file system (the float scratch of a render this short stays in memory, so the
        // mix's own check counts only the WAV).
        do {
            let (mounted, reason) = try TinyFileSystem.mount(kibibytes: 12 * 1024)
            guard let tmpfs = mounted else { try Test.cancel("cannot mount a tmpfs (needs root): \(reason)") }
            defer { tmpfs.unmount() }
            let result = try await CLI.run(["run", "original", "--duration", "60", "--audio", tmpfs.path + "/a.wav",
                                      "--soundfont", smallSoundFont], timeout: 30)
            #expect(result.status == 73, "\(result)")
            let message = singleErrorLine(result)
            // Refused by the session's output budget (the WAV alone does not fit).
            #expect(message.contains("is free there") && message.contains("--audio"), "\(result.stderr)")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: tmpfs.path)) ?? []).isEmpty)
        }
        // While rendering: 30 s dry needs about 17 MB (three outputs; the scratch for the two
        // stems stays in memory) and fits in 64 MB; once the session has started, another file
        // takes the rest of the space.
        let (mounted, reason) = try TinyFileSystem.mount(kibibytes: 65_536)
        guard let tmpfs = mounted else { try Test.cancel("cannot mount a tmpfs (needs root): \(reason)") }
        defer { tmpfs.unmount() }
        try FileManager.default.createDirectory(atPath: tmpfs.path + "/stems", withIntermediateDirectories: false)
        try Data("old".utf8).write(to: URL(fileURLWithPath: tmpfs.path + "/a.wav"))
        let filler = tmpfs.path + "/filler", stems = tmpfs.path + "/stems"
        let result = try await CLI.run(["run", "original", "--duration", "30", "--dry", "--audio", tmpfs.path + "/a.wav", "--stems", stems,
                                  "--soundfont", smallSoundFont], timeout: 90) { _ in
            // The stems' MIDI files are opened right after the space check: then fill the disk,
            // within milliseconds (the release build renders the 30 s in about a second). On a
            // thread of its own: a pool thread may be busy with in-process tests for seconds, and
            // a watcher that waited for one missed the render (make test beside two busy loops).
            await onOwnThread {
                let deadline = Date().addingTimeInterval(30)
                while Date() < deadline, ((try? FileManager.default.contentsOfDirectory(atPath: stems)) ?? []).isEmpty { usleep(1_000) }
                let descriptor = open(filler, O_WRONLY | O_CREAT, 0o644)
                var block = [UInt8](repeating: 1, count: 1 << 16)
                while block.withUnsafeMutableBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
                close(descriptor)
            }
        }
        #expect(result.status == 74, "\(result)")
        #expect(singleErrorLine(result).contains("No space left on device"), "\(result.stderr)")
        let left = Set((try? FileManager.default.contentsOfDirectory(atPath: tmpfs.path)) ?? [])
        #expect(left == ["a.wav", "stems", "filler"], "files left: \(left)")
        // Compared apart from the expectation, which would print every byte of a changed file.
        let kept = bytes(of: tmpfs.path + "/a.wav"), unchanged = kept == Array("old".utf8)
        #expect(unchanged, "the earlier a.wav was changed: \(kept?.count ?? 0) bytes now")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: tmpfs.path + "/stems")) ?? []).isEmpty, "partial stems left")
    }
}
