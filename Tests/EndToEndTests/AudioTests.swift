// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A preset with one piano ball and one small bouncer (the vii°, which the bass ball never
/// reaches in a few seconds): after the opening tonic, the only notes are single, widely
/// spaced key strikes, about 1.45 s apart (0.755, 2.234, 3.683, 5.103 s with seed 1).
let sparsePreset = #"{"piano": {"count": 1}, "bass": {"bouncers": [7], "bouncerRadius": 0.05}}"#

/// Samples at or below this (about −60 dBFS) count as silence when looking for onsets.
let onsetThreshold: Int32 = 32

/// Key events of a log that follow the previous event by at least `gap` seconds (and,
/// with `after`, precede the next one by at least that much).
func isolatedKeyEvents(_ events: [LogEvent], gap: Double, after: Double = 0) -> [LogEvent] {
    events.indices.compactMap { index in
        let event = events[index]
        guard event.kind == "key", index > 0, event.t - events[index - 1].t >= gap else { return nil }
        if index + 1 < events.count, events[index + 1].t - event.t < after { return nil }
        return event
    }
}

@Suite("Audio rendering", .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont) (timgm6mb-soundfont)"))
struct AudioRenderTests {
    @Test("A WAV render is 24-bit stereo 44.1 kHz by default, not silent, as long as the session plus the documented tail, and identical on a rerun")
    func wavRender() async throws {
        let directory = try TemporaryDirectory()
        let arguments = ["run", "original", "--duration", "3", "--audio", "a.wav", "--soundfont", smallSoundFont, "--quiet"]
        let first = try await CLI.run(arguments, in: directory.path)
        try #require(first.status == 0 && !first.signalled, "\(first)")
        #expect(first.stdout.isEmpty && first.stderr.isEmpty, "\(first)")
        let original = try #require(bytes(of: directory.file("a.wav")))
        let wav = try WAVFile(path: directory.file("a.wav"))
        #expect(wav.sampleRate == 44_100)
        #expect(wav.channels == 2)
        #expect(wav.bitsPerSample == 24 && !wav.isFloat)
        #expect(wav.rms > 100, "RMS \(wav.rms) of 32768: the render is (nearly) silent")

        // Length: 3 s of session plus the documented tail (5.83 s for the default preset's
        // delay and reverb), rounded up to whole 64-frame blocks.
        let expected = expectedFrames(session: 3, tail: defaultPresetTail, rate: 44_100)
        #expect(wav.frameCount >= 3 * 44_100 && wav.frameCount <= (3 + 30) * 44_100 + 64, "\(wav.frameCount) frames")
        #expect(abs(wav.frameCount - expected) <= 64,
                "\(wav.frameCount) frames (\(wav.duration) s); expected \(expected) = 3 s + tail \(defaultPresetTail) s")
        // The tail lets everything die away: the last 100 ms are at least 50 dB below the loudest 100 ms.
        let last = wav.rms(frames: wav.frameCount - 4410..<wav.frameCount)
        let loudest = wav.loudestWindow(length: 0.1)
        #expect(last <= loudest * pow(10, -50.0 / 20), "the file ends at RMS \(last), loudest 100 ms is \(loudest)")
        #expect(directory.entries() == ["a.wav"], "files left behind: \(directory.entries())")

        let second = try await CLI.run(arguments, in: directory.path)
        try #require(second.status == 0, "\(second)")
        let identical = bytes(of: directory.file("a.wav")) == original  // (not inside #expect: it would diff megabytes)
        #expect(identical, "the rerun wrote a different WAV file")
    }

    @Test("A FLAC render decodes (sox) to the WAV render's samples (±1 step), and is identical on a rerun",
          .enabled(if: firstExecutable(["/usr/bin/sox"]) != nil, "needs sox"))
    func flacRender() async throws {
        let directory = try TemporaryDirectory()
        func render(_ name: String) async throws {
            let result = try await CLI.run(["run", "original", "--duration", "3", "--audio", name, "--soundfont", smallSoundFont, "--quiet"],
                                     in: directory.path)
            try #require(result.status == 0 && !result.signalled, "\(result)")
        }
        try await render("a.flac")
        let original = try #require(bytes(of: directory.file("a.flac")))
        #expect(Array(original.prefix(4)) == Array("fLaC".utf8), "not a FLAC stream")
        let stat = try await CLI.run([directory.file("a.flac"), "-n", "stat"], executable: "/usr/bin/sox", timeout: 60)
        #expect(stat.status == 0, "sox cannot decode the FLAC file: \(stat)")
        #expect(stat.stderr.contains("Length (seconds)"), "\(stat)")
        try await render("a.flac")
        let identical = bytes(of: directory.file("a.flac")) == original
        #expect(identical, "the rerun wrote a different FLAC file")

        try await render("a.wav")
        let decode = try await CLI.run([directory.file("a.flac"), directory.file("decoded.wav")], executable: "/usr/bin/sox", timeout: 60)
        try #require(decode.status == 0, "\(decode)")
        let decoded = try WAVFile(path: directory.file("decoded.wav"))
        let wav = try WAVFile(path: directory.file("a.wav"))
        #expect(decoded.sampleRate == 44_100 && decoded.channels == 2)
        #expect(decoded.frameCount == wav.frameCount, "FLAC has \(decoded.frameCount) frames, WAV \(wav.frameCount)")
        // Same audio: libsndfile rounds float to 16 bits differently for WAV and FLAC (WAV
        // writes digital silence as −1, FLAC as 0), so the two may differ by one step, no more.
        var largestDifference = 0
        if decoded.samples.count == wav.samples.count {
            for index in wav.samples.indices {
                largestDifference = max(largestDifference, abs(Int(decoded.samples[index]) - Int(wav.samples[index])))
            }
        }
        #expect(largestDifference <= 1, "the FLAC file's samples differ from the WAV render's by up to \(largestDifference)")
    }

    @Test("An Ogg render is written and decodes (sox) to about the same length",
          .enabled(if: firstExecutable(["/usr/bin/sox"]) != nil, "needs sox"))
    func oggRender() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--duration", "2", "--audio", "a.ogg", "--soundfont", smallSoundFont, "--quiet"],
                                 in: directory.path)
        try #require(result.status == 0 && !result.signalled, "\(result)")
        #expect(Array((bytes(of: directory.file("a.ogg")) ?? []).prefix(4)) == Array("OggS".utf8), "not an Ogg stream")
        let decode = try await CLI.run([directory.file("a.ogg"), "-b", "16", directory.file("decoded.wav")], executable: "/usr/bin/sox",
                                timeout: 60)
        try #require(decode.status == 0, "sox cannot decode the Ogg file: \(decode)")
        let decoded = try WAVFile(path: directory.file("decoded.wav"))
        let expected = 2 + defaultPresetTail
        #expect(abs(decoded.duration - expected) < 0.05, "\(decoded.duration) s, expected about \(expected) s")
        #expect(decoded.rms > 100, "RMS \(decoded.rms)")
        #expect(directory.entries() == ["a.ogg", "decoded.wav"], "files left behind: \(directory.entries())")
    }

    @Test("--sample-rate 22050 gives a 22050 Hz file of the same duration")
    func sampleRate() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--duration", "3", "--audio", "s.wav", "--sample-rate", "22050",
                                  "--soundfont", smallSoundFont, "--quiet"], in: directory.path)
        try #require(result.status == 0, "\(result)")
        let wav = try WAVFile(path: directory.file("s.wav"))
        #expect(wav.sampleRate == 22_050)
        #expect(wav.channels == 2)
        let expected = expectedFrames(session: 3, tail: defaultPresetTail, rate: 22_050)
        #expect(abs(wav.frameCount - expected) <= 64, "\(wav.frameCount) frames, expected \(expected)")
        #expect(wav.rms > 100, "RMS \(wav.rms)")
    }

    @Test("The opening tonic sounds at frame 0: the first audible sample is within 64 frames + 10 ms")
    func firstOnset() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--duration", "2", "--audio", "o.wav", "--events", "o.jsonl",
                                  "--soundfont", smallSoundFont, "--quiet"], in: directory.path)
        try #require(result.status == 0, "\(result)")
        let events = try readEventLog(directory.file("o.jsonl"))
        let first = try #require(events.first { $0.kind != "chord" }, "no note in the log")
        #expect(first.t == 0 && first.kind == "bass" && first.note == 48 && first.degree == 1, "first event \(first)")
        let peaks = try WAVFile(path: directory.file("o.wav")).peaks()
        let onset = try #require(peaks.firstIndex { $0 > onsetThreshold }, "the file is silent")
        #expect(onset <= 64 + 441, "the first note is audible only from frame \(onset) (\(Double(onset) / 44.1) ms)")
    }

    @Test("Isolated key strikes sound at round(t × 44100): silent before, audible within 64 frames + 15 ms (--dry)")
    func laterOnsets() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("sparse.json", sparsePreset)
        let result = try await CLI.run(["run", "sparse.json", "--duration", "6", "--dry", "--audio", "s.wav", "--events", "s.jsonl",
                                  "--soundfont", smallSoundFont, "--quiet"], in: directory.path)
        try #require(result.status == 0, "\(result)")
        let events = try readEventLog(directory.file("s.jsonl"))
        let wav = try WAVFile(path: directory.file("s.wav"))
        let peaks = wav.peaks()
        var checked = 0
        for event in isolatedKeyEvents(events, gap: 1.2) {
            let frame = Int((event.t * 44_100).rounded())
            // A quiet stretch of 50 ms before the strike (the previous note has died away)…
            let before = peaks[max(0, frame - 2205)..<frame]
            guard let loudBefore = before.max(), loudBefore <= onsetThreshold else { continue }
            // …then the first audible sample at the event's block, not before and not much after.
            let onset = try #require(peaks[frame...].firstIndex { $0 > onsetThreshold }, "no sound after the strike at \(event.t) s")
            #expect(onset - frame <= 64 + 662,
                    "the key strike at \(event.t) s (frame \(frame)) is audible only from frame \(onset), \(onset - frame) frames late")
            checked += 1
        }
        #expect(checked >= 2, "only \(checked) isolated strikes found in \(events)")
    }

    @Test("The tone reaches the synthesizer: --tone harp sounds different from the default marimba")
    func toneChangesSound() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("sparse.json", sparsePreset)
        for (name, extra) in [("marimba.wav", [String]()), ("harp.wav", ["--tone", "harp"])] {
            let result = try await CLI.run(["run", "sparse.json", "--duration", "2", "--dry", "--audio", name,
                                      "--soundfont", smallSoundFont, "--quiet"] + extra, in: directory.path)
            try #require(result.status == 0, "\(result)")
        }
        let differ = bytes(of: directory.file("marimba.wav")) != bytes(of: directory.file("harp.wav"))
        #expect(differ, "--tone harp rendered the same audio as marimba")
    }
}

@Suite("Audio effects", .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont) (timgm6mb-soundfont)"))
struct AudioEffectTests {
    /// Renders `preset` (a bundled name or a file written into the directory) with `flags` to `name`.
    static func render(_ directory: TemporaryDirectory, _ name: String, preset: String = "original", duration: String,
                       _ flags: [String]) async throws -> WAVFile {
        let result = try await CLI.run(["run", preset, "--duration", duration, "--audio", name, "--soundfont", smallSoundFont,
                                  "--quiet"] + flags, in: directory.path)
        try #require(result.status == 0 && !result.signalled, "\(result)")
        return try WAVFile(path: directory.file(name))
    }

    @Test("--gain 0.25 renders the same notes at half the level of the default gain 0.5")
    func gain() async throws {
        let directory = try TemporaryDirectory()
        // With the loudness off: normalisation would bring both to −16 LUFS.
        let normal = try await Self.render(directory, "normal.wav", duration: "4", ["--dry", "--loudness", "off"])
        let quiet = try await Self.render(directory, "quiet.wav", duration: "4", ["--dry", "--gain", "0.25", "--loudness", "off"])
        let ratio = quiet.rms / normal.rms
        #expect(normal.rms > 100, "the default render is silent (RMS \(normal.rms))")
        #expect(abs(ratio - 0.5) < 0.03, "RMS ratio \(ratio) with --gain 0.25 against the default 0.5")
    }

    @Test("--filter 300 lowers the spectral centroid well below --filter off")
    func filter() async throws {
        let directory = try TemporaryDirectory()
        let open = try await Self.render(directory, "open.wav", duration: "6", ["--filter", "off", "--delay", "off", "--reverb", "off"])
        let filtered = try await Self.render(directory, "low.wav", duration: "6", ["--filter", "300", "--delay", "off", "--reverb", "off"])
        let openCentroid = open.spectralCentroid()
        let filteredCentroid = filtered.spectralCentroid()
        #expect(filtered.rms > 100, "the filtered render is silent (RMS \(filtered.rms))")
        #expect(filteredCentroid < 0.5 * openCentroid,
                "spectral centroid \(filteredCentroid) Hz with --filter 300, \(openCentroid) Hz without")
        #expect(filteredCentroid < 600, "spectral centroid \(filteredCentroid) Hz with --filter 300")
    }

    @Test("--delay 0.5 puts an echo 0.5 s after an isolated strike; --delay off does not")
    func delay() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("sparse.json", sparsePreset)
        let logged = try await CLI.run(["run", "sparse.json", "--duration", "6", "--events", "s.jsonl", "--quiet"], in: directory.path)
        try #require(logged.status == 0, "\(logged)")
        let events = try readEventLog(directory.file("s.jsonl"))
        let strike = try #require(isolatedKeyEvents(events, gap: 1.2, after: 1.2).first, "no isolated strike in \(events)")
        let echoing = try await Self.render(directory, "echo.wav", preset: "sparse.json", duration: "6",
                                      ["--delay", "0.5", "--feedback", "0.3", "--delay-mix", "0.6", "--reverb", "off"])
        let plain = try await Self.render(directory, "plain.wav", preset: "sparse.json", duration: "6",
                                    ["--delay", "off", "--reverb", "off"])
        // Loudness just before and just after strike + 0.5 s.
        func jump(_ wav: WAVFile) -> (before: Double, after: Double) {
            (wav.rms(from: strike.t + 0.5 - 0.10, length: 0.08), wav.rms(from: strike.t + 0.5 + 0.005, length: 0.06))
        }
        let (echoBefore, echoAfter) = jump(echoing)
        let (plainBefore, plainAfter) = jump(plain)
        #expect(echoAfter > 3 * echoBefore,
                "no echo 0.5 s after the strike at \(strike.t) s: RMS \(echoBefore) before, \(echoAfter) after")
        #expect(plainAfter < 1.5 * plainBefore,
                "without the delay the sound still jumps 0.5 s after the strike: RMS \(plainBefore) → \(plainAfter)")
        // The echo is a copy of the strike, not noise: comparable loudness to the strike itself.
        let strikeLevel = echoing.rms(from: strike.t, length: 0.06)
        #expect(echoAfter > 0.1 * strikeLevel && echoAfter < 3 * strikeLevel, "echo RMS \(echoAfter), strike RMS \(strikeLevel)")
    }

    @Test("--reverb 0.9 --room 0.95 leaves far more sound after the last note than --reverb off, and a longer tail")
    func reverb() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("sparse.json", sparsePreset)
        let wet = try await Self.render(directory, "wet.wav", preset: "sparse.json", duration: "6",
                                  ["--delay", "off", "--reverb", "0.9", "--room", "0.95"])
        let dry = try await Self.render(directory, "dry.wav", preset: "sparse.json", duration: "6", ["--delay", "off", "--reverb", "off"])
        // Lengths follow the documented tail: 2 s without effects, 2 s + the reverb's decay with it.
        let wetFrames = expectedFrames(session: 6, tail: documentedTail(delay: nil, reverb: (0.9, 0.95)), rate: 44_100)
        let dryFrames = expectedFrames(session: 6, tail: documentedTail(delay: nil, reverb: nil), rate: 44_100)
        #expect(abs(wet.frameCount - wetFrames) <= 64, "reverb render: \(wet.frameCount) frames, expected \(wetFrames)")
        #expect(abs(dry.frameCount - dryFrames) <= 64, "dry render: \(dry.frameCount) frames, expected \(dryFrames)")
        // The last strike is at about 5.1 s and ends at 5.7 s; from 7 s to 8 s only the reverb is left.
        let wetTail = wet.rms(from: 7, length: 1)
        let dryTail = dry.rms(from: 7, length: 1)
        #expect(wetTail > 10, "reverb tail RMS \(wetTail) from 7 s to 8 s")
        #expect(wetTail > 10 * max(dryTail, 0.5), "RMS from 7 s to 8 s: \(wetTail) with reverb, \(dryTail) without")
        // And the long tail does die away by the end of the file.
        let last = wet.rms(frames: wet.frameCount - 4410..<wet.frameCount)
        #expect(last <= wet.loudestWindow(length: 0.1) * pow(10, -50.0 / 20), "the reverb render ends at RMS \(last)")
    }

    @Test("--dry gives the same bytes as --filter off --delay off --reverb off, and differs from the default effects")
    func dry() async throws {
        let directory = try TemporaryDirectory()
        let dry = try await Self.render(directory, "dry.wav", duration: "3", ["--dry"])
        let off = try await Self.render(directory, "off.wav", duration: "3", ["--filter", "off", "--delay", "off", "--reverb", "off"])
        let wet = try await Self.render(directory, "wet.wav", duration: "3", [])
        let dryIsOff = bytes(of: directory.file("dry.wav")) == bytes(of: directory.file("off.wav"))
        #expect(dryIsOff, "--dry differs from every effect off (\(dry.frameCount) vs \(off.frameCount) frames)")
        let dryIsWet = bytes(of: directory.file("dry.wav")) == bytes(of: directory.file("wet.wav"))
        #expect(!dryIsWet, "--dry sounds like the default effects")
        #expect(dry.frameCount < wet.frameCount, "the dry render (\(dry.frameCount) frames) is not shorter than the wet one (\(wet.frameCount))")
        #expect(abs(dry.frameCount - expectedFrames(session: 3, tail: 2, rate: 44_100)) <= 64, "dry render \(dry.frameCount) frames")
        // The same notes: over the session itself the two are alike in loudness (within 6 dB).
        let dryLevel = dry.rms(from: 0, length: 3), wetLevel = wet.rms(from: 0, length: 3)
        #expect(dryLevel > wetLevel / 2 && dryLevel < wetLevel * 2, "RMS over the session: dry \(dryLevel), wet \(wetLevel)")
    }
}

@Suite("MIDI controllers and tones")
struct MIDIEffectTests {
    static func midi(_ flags: [String]) async throws -> MIDIFileContents {
        let directory = try TemporaryDirectory()
        let path = directory.file("m.mid")
        let result = try await CLI.run(["run", "original", "--duration", "2", "--midi", path, "--quiet"] + flags)
        try #require(result.status == 0 && !result.signalled, "\(result)")
        let contents = try MIDIFileReader.read(path: path)
        try #require(contents.tracks.count == 3, "\(contents.tracks.count) tracks")
        return contents
    }

    /// (flags, CC91, CC74, CC71) expected on both voice tracks; nil = absent.
    @Test("The MIDI file carries the effects: CC91 = reverb × 127, CC74/CC71 only with the filter on",
          arguments: [
            (["--reverb", "0.5"], UInt8(64), UInt8?.none, UInt8?.none),
            (["--filter", "1000"], UInt8(32), UInt8?.some(72), UInt8?.some(64)),  // 127·ln(50)/ln(1000) = 71.9
            (["--filter", "20000", "--resonance", "20"], UInt8(32), UInt8?.some(127), UInt8?.some(127)),
            (["--dry"], UInt8(0), UInt8?.none, UInt8?.none),
            ([], UInt8(32), UInt8?.none, UInt8?.none),  // default reverb 0.25 → 31.75
          ])
    func controllers(flags: [String], reverb: UInt8, brightness: UInt8?, resonance: UInt8?) async throws {
        let contents = try await Self.midi(flags)
        for (track, channel) in [(1, UInt8(0)), (2, UInt8(1))] {
            let events = contents.tracks[track]
            #expect(controllerValues(events, channel: channel, controller: 91) == [reverb], "track \(track) CC91 with \(flags)")
            #expect(controllerValues(events, channel: channel, controller: 93) == [0], "track \(track) CC93 with \(flags)")
            #expect(controllerValues(events, channel: channel, controller: 74) == (brightness.map { [$0] } ?? []),
                    "track \(track) CC74 with \(flags)")
            #expect(controllerValues(events, channel: channel, controller: 71) == (resonance.map { [$0] } ?? []),
                    "track \(track) CC71 with \(flags)")
            // The effect controllers open the track: before the first note (only CC10, the keys'
            // pan by key position, changes later).
            let firstNote = events.firstIndex { if case .noteOn = $0.message { return true } else { return false } } ?? events.count
            let lastController = events.lastIndex { if case .controlChange(_, let number, _) = $0.message { return number != 10 } else { return false } } ?? 0
            #expect(lastController < firstNote, "track \(track): a controller after the first note")
        }
    }

    @Test("--tone harp puts program 46 (GM 47 Orchestral Harp) in the Keys track; the bass keeps 32")
    func harp() async throws {
        let contents = try await Self.midi(["--tone", "harp"])
        #expect(contents.trackName(at: 2) == "Keys")
        #expect(programs(contents.tracks[2], channel: 1) == [46])
        #expect(programs(contents.tracks[1], channel: 0) == [32])
        let marimba = try await Self.midi([])
        #expect(programs(marimba.tracks[2], channel: 1) == [12], "default keys tone is marimba, GM 13")
    }

    @Test("clumsy tones lists the keys tones")
    func tones() async throws {
        let result = try await CLI.run(["tones"])
        #expect(result.status == 0, "\(result)")
        let names = Set(result.stdoutLines.compactMap { $0.split(separator: " ").first.map(String.init) })
        for tone in ["marimba", "pluck", "clav", "electric-piano", "grand-piano", "muted", "harp"] {
            #expect(names.contains(tone), "clumsy tones does not list \(tone):\n\(result.stdout)")
        }
    }

    @Test("An unknown --tone exits 64 and lists the tones, before anything runs")
    func unknownTone() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--tone", "kazoo", "--duration", "604800", "--midi", "k.mid"],
                                 in: directory.path, timeout: 20)
        #expect(result.status == 64 && !result.signalled && !result.timedOut, "\(result)")
        #expect(result.stderr.contains("kazoo"), "\(result.stderr)")
        for tone in ["marimba", "pluck", "clav", "electric-piano", "grand-piano", "muted", "harp"] {
            #expect(result.stderr.contains(tone), "the error does not list \(tone): \(result.stderr)")
        }
        #expect(result.stdout.isEmpty)
        #expect(directory.entries().isEmpty, "files left behind: \(directory.entries())")
    }
}
