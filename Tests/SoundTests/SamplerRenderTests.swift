// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import TestSupport
import Testing
import Vocabulary
@testable import Sound

@Suite("Rendering to a file", .serialized, .enabled(if: hasTestSoundFont, "needs \(testSoundFont) (Debian package timgm6mb-soundfont)"))
final class SamplerRenderTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "clumsy-sound-tests")
    }

    func path(_ name: String) -> String { directory.file(name) }

    @Test("a note at a known frame sounds from the next 64-frame block, and the file has the requested length")
    func noteTimingAndLength() throws {
        let output = path("timing.wav")
        let eventFrame: Int64 = 1000
        try renderScript(SamplerConfiguration(soundFont: testSoundFont), to: output, frames: 88_200, events: [
            (eventFrame, { $0.noteOn(channel: 0, note: 60, velocity: 100) }),
            (eventFrame + 22_050, { $0.noteOff(channel: 0, note: 60) }),
        ])
        let wav = try WAVFile(path: output)
        #expect(wav.channels == 2)
        #expect(wav.sampleRate == 44_100)
        #expect(wav.frameCount >= 88_200 && wav.frameCount < 88_200 + 64)
        #expect(wav.frameCount % 64 == 0)

        let left = wav.channel(0)
        #expect(rms(left, 0..<wav.frameCount) > 0.005, "the note is audible")
        // Nothing before the event…
        #expect(left[0..<Int(eventFrame)].allSatisfy { abs($0) < 4.0 / 32768 })
        // …and the onset within one block plus a short attack.
        let onset = try #require(left.firstIndex { abs($0) > 4.0 / 32768 })
        #expect(onset >= Int(eventFrame))
        #expect(onset <= Int(eventFrame) + 64 + 200, "onset at frame \(onset)")
    }

    @Test("framesRendered advances in whole 64-frame blocks and never backwards")
    func blockGranularity() throws {
        let sampler = try Sampler(configuration: SamplerConfiguration(soundFont: testSoundFont))
        let renderer = try AudioFileRenderer(sampler: sampler, path: path("blocks.wav"), format: .wav)
        try renderer.render(toFrame: 1)
        #expect(renderer.framesRendered == 64)
        try renderer.render(toFrame: 64)
        #expect(renderer.framesRendered == 64)
        try renderer.render(toFrame: 65)
        #expect(renderer.framesRendered == 128)
        try renderer.render(toFrame: 10)
        #expect(renderer.framesRendered == 128)
        try renderer.render(toSeconds: 0.5)
        #expect(renderer.framesRendered == 22_080)
        try renderer.finish()
        #expect(try WAVFile(path: path("blocks.wav")).frameCount == 22_080)
    }

    @Test("the same calls give byte-identical WAV files, with every effect on")
    func determinism() throws {
        var configuration = SamplerConfiguration(soundFont: testSoundFont)
        configuration.filter = LowPassFilter(cutoff: 2_000, resonance: 6)
        configuration.delay = Delay(time: 0.25, feedback: 0.4, mix: 0.3)
        configuration.reverb = Reverb(level: 0.7, roomSize: 0.6)
        let events: [(frame: Int64, action: (Sampler) -> Void)] = [
            (0, { $0.select(channel: 1, bank: 0, program: 48) }),
            (3_000, { $0.noteOn(channel: 0, note: 60, velocity: 90) }),
            (3_001, { $0.noteOn(channel: 1, note: 67, velocity: 70) }),
            (10_000, { $0.controlChange(channel: 0, controller: 91, value: 127) }),
            (20_000, { $0.noteOff(channel: 0, note: 60) }),
            (30_000, { $0.noteOn(channel: 9, note: 38, velocity: 120) }),
            (40_000, { $0.allNotesOff() }),
        ]
        try renderScript(configuration, to: path("first.wav"), frames: 66_150, events: events)
        try renderScript(configuration, to: path("second.wav"), frames: 66_150, events: events)
        let first = try Data(contentsOf: URL(fileURLWithPath: path("first.wav")))
        let second = try Data(contentsOf: URL(fileURLWithPath: path("second.wav")))
        #expect(first.count > 44 + 66_150 * 4 - 1)
        #expect(first == second)
    }

    @Test("a 300 Hz low-pass lowers the spectral centroid")
    func lowPassFilter() throws {
        func centroid(_ filter: LowPassFilter?) throws -> Double {
            var configuration = SamplerConfiguration(soundFont: testSoundFont)
            configuration.filter = filter
            let output = path("filter-\(filter?.cutoff ?? 0).wav")
            try renderScript(configuration, to: output, frames: 44_100, events: [
                (0, { $0.select(channel: 0, bank: 0, program: 81) }),  // Lead 2 (sawtooth)
                (64, { $0.noteOn(channel: 0, note: 60, velocity: 100) }),
            ])
            let left = try WAVFile(path: output).channel(0)
            return spectralCentroid(left, start: 8_192, count: 2_048, sampleRate: 44_100)
        }
        let open = try centroid(nil)
        let filtered = try centroid(LowPassFilter(cutoff: 300))
        #expect(open > 1_000, "unfiltered centroid \(open) Hz")
        #expect(filtered < open * 0.5, "filtered \(filtered) Hz vs unfiltered \(open) Hz")
    }

    @Test("the filter cutoff is in Hz, whatever the instrument: −3 dB-ish at the cutoff, about −12 dB an octave above")
    func filterCutoffIsAbsolute() throws {
        // Ocarina (a near-sine) at 247 Hz, 988 Hz and 1976 Hz through a 1000 Hz low-pass.
        func level(note: Int, filtered: Bool) throws -> Double {
            var configuration = SamplerConfiguration(soundFont: testSoundFont)
            configuration.filter = filtered ? LowPassFilter(cutoff: 1_000) : nil
            let output = path("cutoff-\(note)-\(filtered).wav")
            try renderScript(configuration, to: output, frames: 22_050, events: [
                (0, { $0.select(channel: 0, bank: 0, program: 79) }),
                (64, { $0.noteOn(channel: 0, note: note, velocity: 100) }),
            ])
            return rms(try WAVFile(path: output).channel(0), 5_000..<22_050)
        }
        func gain(_ note: Int) throws -> Double {
            20 * log10(try level(note: note, filtered: true) / level(note: note, filtered: false))
        }
        let below = try gain(59), at = try gain(83), above = try gain(95)
        #expect(abs(below) < 3, "two octaves below: \(below) dB")
        #expect(at < 0 && at > -6, "at the cutoff: \(at) dB")
        #expect(above < -7 && above > -16, "an octave above: \(above) dB")
    }

    @Test("a 0.3 s delay adds an echo 0.3 s after a staccato note")
    func delayEcho() throws {
        func envelope(_ delay: Delay?) throws -> (onset: Int, signal: [Double]) {
            var configuration = SamplerConfiguration(soundFont: testSoundFont)
            configuration.delay = delay
            let output = path("delay-\(delay == nil ? "off" : "on").wav")
            try renderScript(configuration, to: output, frames: 44_100, events: [
                (4_096, { $0.noteOn(channel: 9, note: 75, velocity: 127) }),  // claves
                (4_096 + 2_205, { $0.noteOff(channel: 9, note: 75) }),
            ])
            let left = try WAVFile(path: output).channel(0)
            let onset = try #require(left.firstIndex { abs($0) > 16.0 / 32768 })
            return (onset, left)
        }
        let dry = try envelope(nil)
        let wet = try envelope(Delay(time: 0.3, feedback: 0.3, mix: 0.5))
        #expect(abs(dry.onset - wet.onset) <= 64)
        let echo = 13_230  // 0.3 s
        func windows(_ run: (onset: Int, signal: [Double])) -> (before: Double, echo: Double) {
            (rms(run.signal, run.onset + echo - 4_410..<run.onset + echo - 441),
             rms(run.signal, run.onset + echo..<run.onset + echo + 2_205))
        }
        let (dryBefore, dryEcho) = windows(dry)
        let (wetBefore, wetEcho) = windows(wet)
        #expect(wetEcho > 4 * wetBefore, "echo window \(wetEcho) vs just before \(wetBefore)")
        #expect(wetEcho > 4 * dryEcho, "echo window with delay \(wetEcho) vs without \(dryEcho)")
        #expect(dryEcho <= dryBefore * 1.5 + 1e-6, "no bump without delay: \(dryEcho) vs \(dryBefore)")
        // The echo starts 0.3 s (13 230 frames) after the sound, to the block.
        let searchStart = wet.onset + echo - 2_205
        let echoOnset = try #require(wet.signal[searchStart...].firstIndex { abs($0) > 16.0 / 32768 })
        #expect(abs(echoOnset - (wet.onset + echo)) <= 64, "echo onset \(echoOnset - wet.onset) frames after the sound")
    }

    @Test("reverb lengthens the tail after note-off")
    func reverbTail() throws {
        func tail(_ reverb: Reverb?) throws -> Double {
            var configuration = SamplerConfiguration(soundFont: testSoundFont)
            configuration.reverb = reverb
            let output = path("reverb-\(reverb == nil ? "off" : "on").wav")
            try renderScript(configuration, to: output, frames: 88_200, events: [
                (0, { $0.noteOn(channel: 0, note: 60, velocity: 110) }),
                (13_230, { $0.noteOff(channel: 0, note: 60) }),
            ])
            let left = try WAVFile(path: output).channel(0)
            return rms(left, 13_230 + 35_280..<13_230 + 70_560)  // 0.8…1.6 s after note-off
        }
        let dry = try tail(nil)
        let wet = try tail(Reverb(level: 0.8, roomSize: 0.9))
        #expect(wet > 10 * dry + 1e-4, "tail RMS with reverb \(wet), without \(dry)")
    }

    @Test("FLAC and Ogg files are written and renamed into place")
    func otherFormats() throws {
        for format in [AudioFileFormat.flac, .ogg] {
            let output = path("other.\(format.fileExtension)")
            let sampler = try Sampler(configuration: SamplerConfiguration(soundFont: testSoundFont))
            let renderer = try AudioFileRenderer(sampler: sampler, path: output, format: format)
            sampler.noteOn(channel: 0, note: 64, velocity: 100)
            try renderer.render(toSeconds: 0.5)
            #expect(!FileManager.default.fileExists(atPath: output), "not in place before finish()")
            try renderer.finish()
            let data = try Data(contentsOf: URL(fileURLWithPath: output))
            let magic = String(decoding: data.prefix(4), as: UTF8.self)
            #expect(magic == (format == .flac ? "fLaC" : "OggS"))
        }
    }

    @Test("the file appears only on finish(); abandon() and deinit leave no file behind")
    func atomicity() throws {
        let output = path("atomic.wav")
        let sampler = try Sampler(configuration: SamplerConfiguration(soundFont: testSoundFont))
        do {
            let renderer = try AudioFileRenderer(sampler: sampler, path: output, format: .wav)
            try renderer.render(toFrame: 4_096)
            #expect(FileManager.default.fileExists(atPath: renderer.temporaryPath))
            #expect(!FileManager.default.fileExists(atPath: output))
            renderer.abandon()
            #expect(!FileManager.default.fileExists(atPath: renderer.temporaryPath))
            #expect(throws: SoundError.rendererClosed(path: output)) { try renderer.render(toFrame: 8_192) }
        }
        var temporary = ""
        do {
            let renderer = try AudioFileRenderer(sampler: sampler, path: output, format: .wav)
            temporary = renderer.temporaryPath
            try renderer.render(toFrame: 4_096)
        }
        #expect(!FileManager.default.fileExists(atPath: temporary), "deinit removed the partial file")
        #expect(!FileManager.default.fileExists(atPath: output))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(leftovers.isEmpty, "left: \(leftovers)")
    }

    @Test("one output per sampler at a time")
    func singleOutput() throws {
        let sampler = try Sampler(configuration: SamplerConfiguration(soundFont: testSoundFont))
        let first = try AudioFileRenderer(sampler: sampler, path: path("one.wav"), format: .wav)
        #expect(throws: SoundError.self) {
            _ = try AudioFileRenderer(sampler: sampler, path: path("two.wav"), format: .wav)
        }
        try first.finish()
        let second = try AudioFileRenderer(sampler: sampler, path: path("two.wav"), format: .wav)
        second.abandon()
    }

    @Test("a missing or unwritable directory is an error at init")
    func badDirectory() throws {
        let sampler = try Sampler(configuration: SamplerConfiguration(soundFont: testSoundFont))
        let missing = path("no/such/dir/out.wav")
        #expect(throws: SoundError.outputDirectoryMissing(path: missing)) {
            _ = try AudioFileRenderer(sampler: sampler, path: missing, format: .wav)
        }
        #expect(throws: SoundError.self) {
            _ = try AudioFileRenderer(sampler: sampler, path: directory.path, format: .wav)
        }
        // The sampler is still free after the failures.
        let renderer = try AudioFileRenderer(sampler: sampler, path: path("ok.wav"), format: .wav)
        renderer.abandon()
    }

    @Test("presets are looked up by bank and program; a missing preset leaves the channel as it was")
    func presets() throws {
        let sampler = try Sampler(configuration: SamplerConfiguration(soundFont: testSoundFont))
        #expect(sampler.midiChannelCount == 16)
        #expect(sampler.presetName(bank: 0, program: 0) != nil)
        #expect(sampler.presetName(bank: 128, program: 0) != nil, "GM percussion kit")
        #expect(sampler.presetName(bank: 77, program: 3) == nil)
        sampler.select(channel: 2, bank: 77, program: 3)  // ignored
        sampler.select(channel: 9, bank: 128, program: 0)
    }

    @Test("allNotesOff releases notes held by the sustain pedal")
    func allNotesOffLiftsPedal() throws {
        func tail(stopping: Bool) throws -> Double {
            let output = path("pedal-\(stopping).wav")
            try renderScript(SamplerConfiguration(soundFont: testSoundFont), to: output, frames: 88_200, events: [
                (0, { $0.select(channel: 0, bank: 0, program: 48) }),  // strings: sustain while held
                (64, { $0.controlChange(channel: 0, controller: 64, value: 127) }),
                (128, { $0.noteOn(channel: 0, note: 60, velocity: 100) }),
                (4_410, { $0.noteOff(channel: 0, note: 60) }),
                (22_050, { if stopping { $0.allNotesOff() } }),
            ])
            return rms(try WAVFile(path: output).channel(0), 66_150..<88_200)
        }
        let held = try tail(stopping: false)
        let stopped = try tail(stopping: true)
        #expect(held > 0.001, "the pedal holds the note: \(held)")
        #expect(stopped < held / 10, "after allNotesOff: \(stopped) vs \(held)")
    }

    @Test("other sample rates are honoured")
    func sampleRate() throws {
        let output = path("rate.wav")
        var configuration = SamplerConfiguration(soundFont: testSoundFont)
        configuration.sampleRate = 22_050
        configuration.delay = Delay(time: 0.1, feedback: 0.2, mix: 0.3)
        try renderScript(configuration, to: output, frames: 22_050, events: [
            (0, { $0.noteOn(channel: 0, note: 72, velocity: 100) }),
        ])
        let wav = try WAVFile(path: output)
        #expect(wav.sampleRate == 22_050)
        #expect(wav.frameCount == 22_080)
        #expect(rms(wav.channel(1), 0..<wav.frameCount) > 0.001)
    }
}
