// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Sound
import Testing
import Vocabulary

@Suite("Configuration")
struct ConfigurationTests {
    @Test("tailDuration is bounded and grows with delay feedback")
    func tailDurationMonotone() {
        var configuration = SamplerConfiguration(soundFont: "x.sf2")
        #expect(configuration.tailDuration == SamplerConfiguration.releaseAllowance)
        var previous = 0.0
        for step in 0...95 {
            configuration.delay = Delay(time: 0.5, feedback: Double(step) / 100, mix: 0.5)
            let tail = configuration.tailDuration
            #expect(tail >= previous, "feedback \(Double(step) / 100)")
            #expect(tail > 0 && tail <= 30)
            previous = tail
        }
        configuration.delay = Delay(time: 5, feedback: 0.95, mix: 1)
        configuration.reverb = Reverb(level: 1, roomSize: 1)
        #expect(configuration.tailDuration == 30)
    }

    @Test("tailDuration follows the documented formula")
    func tailDurationFormula() {
        var configuration = SamplerConfiguration(soundFont: "x.sf2")
        configuration.delay = Delay(time: 0.3, feedback: 0.3, mix: 0.5)
        // ceil(ln 0.001 / ln 0.3) = ceil(5.74) = 6 echoes.
        #expect(abs(configuration.tailDuration - (2 + 0.3 * 6)) < 1e-9)
        configuration.delay = Delay(time: 0.3, feedback: 0, mix: 0.5)
        #expect(abs(configuration.tailDuration - 2.3) < 1e-9)
        configuration.delay = nil
        configuration.reverb = Reverb(level: 0.8, roomSize: 0.9)
        let reverbTail = configuration.tailDuration - 2
        #expect(reverbTail > 4 && reverbTail < 7, "room 0.9 rings about 5 s: \(reverbTail)")
        var previous = 0.0
        for step in 0...10 {
            configuration.reverb = Reverb(level: 0.8, roomSize: Double(step) / 10)
            #expect(configuration.tailDuration >= previous)
            previous = configuration.tailDuration
        }
    }

    @Test("out-of-range values are reported with their field")
    func validation() {
        var configuration = SamplerConfiguration(soundFont: "x.sf2")
        #expect(throws: Never.self) { try configuration.validate() }
        configuration.sampleRate = 200_000
        #expect(throws: SoundError.invalidConfiguration(field: "sampleRate", value: "200000", accepted: "8000…96000 Hz")) {
            try configuration.validate()
        }
        configuration.sampleRate = 48_000
        configuration.filter = LowPassFilter(cutoff: 10)
        #expect(throws: SoundError.invalidConfiguration(field: "filter.cutoff", value: "10", accepted: "20…20000 Hz")) {
            try configuration.validate()
        }
        configuration.filter = LowPassFilter(cutoff: 300, resonance: -3)
        #expect(throws: SoundError.self) { try configuration.validate() }
        configuration.filter = nil
        configuration.delay = Delay(time: 0.5, feedback: 0.99, mix: 0.5)
        #expect(throws: SoundError.invalidConfiguration(field: "delay.feedback", value: "0.99", accepted: "0…0.95")) {
            try configuration.validate()
        }
        configuration.delay = nil
        configuration.polyphony = 0
        #expect(throws: SoundError.self) { try configuration.validate() }
        configuration.polyphony = 64
        configuration.gain = .nan
        #expect(throws: SoundError.self) { try configuration.validate() }
    }

    @Test("the audio file format comes from the extension, case-insensitively")
    func formatFromPath() {
        #expect(AudioFileFormat(path: "out.wav") == .wav)
        #expect(AudioFileFormat(path: "/tmp/x/OUT.WAV") == .wav)
        #expect(AudioFileFormat(path: "a.b/song.Flac") == .flac)
        #expect(AudioFileFormat(path: "song.ogg") == .ogg)
        #expect(AudioFileFormat(path: "song.oga") == .ogg)
        #expect(AudioFileFormat(path: "song.mp3") == nil)
        #expect(AudioFileFormat(path: "a.wav/song") == nil)
        #expect(AudioFileFormat(path: ".wav") == nil)
    }

    @Test("error descriptions say what would fix the problem")
    func descriptions() {
        let missing = SoundError.soundFontNotFound(path: "/a.sf2", source: "--soundfont")
        #expect(missing.description.contains("/a.sf2"))
        #expect(missing.description.contains("--soundfont"))
        let disk = SoundError.writeFailed(path: "/x.wav", reason: "No space left on device")
        #expect(disk.description.contains("disk space"))
        let driver = SoundError.audioDriverFailed(driver: "alsa", messages: ["no card"], available: ["alsa", "file"])
        #expect(driver.description.contains("\"alsa\""))
        #expect(driver.description.contains("file"))
    }
}
