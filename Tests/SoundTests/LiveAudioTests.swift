// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import TestSupport
import Testing
@testable import Sound

@Suite("Live audio and disk full", .serialized, .enabled(if: hasTestSoundFont, "needs \(testSoundFont) (Debian package timgm6mb-soundfont)"))
struct LiveAudioTests {
    @Test("this FluidSynth offers the file driver")
    func drivers() {
        #expect(LiveAudio.availableDrivers.contains("file"))
    }

    @Test("the file driver runs paced to the wall clock")
    func fileDriverPacing() throws {
        let directory = try TemporaryDirectory(prefix: "clumsy-sound-tests")
        let output = directory.file("live.wav")
        let sampler = try Sampler(configuration: SamplerConfiguration(soundFont: testSoundFont))
        let clock = ContinuousClock()
        let start = clock.now
        let live = try LiveAudio(sampler: sampler, driver: "file", fileName: output)
        sampler.noteOn(channel: 0, note: 60, velocity: 100)
        Thread.sleep(forTimeInterval: 1.5)
        live.stop()
        let wall = (clock.now - start) / .seconds(1)
        // Stopped: the driver writes nothing more.
        let size = try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int == size, "the file grew after stop()")
        let wav = try WAVFile(path: output)
        let seconds = Double(wav.frameCount) / Double(wav.sampleRate)
        #expect(seconds > 0)
        #expect(rms(wav.channel(0), 0..<wav.frameCount) > 0.001, "the note was played")
        #expect(seconds > wall * 0.6 && seconds < wall * 1.4, "\(seconds) s of audio in \(wall) wall seconds")
        #expect(seconds > 0.9 && seconds < 2.1)
        // The sampler is free again.
        let renderer = try AudioFileRenderer(sampler: sampler, path: directory.file("after.wav"), format: .wav)
        renderer.abandon()
    }

    @Test("unknown and unavailable drivers are clear errors")
    func driverErrors() throws {
        let sampler = try Sampler(configuration: SamplerConfiguration(soundFont: testSoundFont))
        #expect(throws: SoundError.unknownAudioDriver(name: "bogus", available: LiveAudio.availableDrivers)) {
            _ = try LiveAudio(sampler: sampler, driver: "bogus")
        }
        #expect(throws: SoundError.self) { _ = try LiveAudio(sampler: sampler, driver: "file", fileName: nil) }
        if LiveAudio.availableDrivers.contains("oss"), !FileManager.default.fileExists(atPath: "/dev/dsp") {
            do {
                _ = try LiveAudio(sampler: sampler, driver: "oss")
                Issue.record("oss started without /dev/dsp")
            } catch {
                guard case .audioDriverFailed(let driver, let messages, _) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(driver == "oss")
                #expect(messages.contains { $0.contains("/dev/dsp") }, "\(messages)")
            }
        }
    }

    @Test("a full disk mid-render throws writeFailed and removes the partial file",
          .enabled(if: TinyFileSystem.isAvailable, "needs root to mount a 256 KiB tmpfs"))
    func diskFull() throws {
        let disk = try #require(TinyFileSystem(kibibytes: 256))
        defer { disk.unmount() }
        let directory = disk.path
        let output = directory + "/full.wav"
        let sampler = try Sampler(configuration: SamplerConfiguration(soundFont: testSoundFont))
        let renderer = try AudioFileRenderer(sampler: sampler, path: output, format: .wav)
        sampler.noteOn(channel: 0, note: 60, velocity: 100)
        do {
            try renderer.render(toSeconds: 10)  // 1.7 MB of 16-bit stereo
            Issue.record("rendering 10 s onto 256 KiB succeeded")
        } catch {
            guard case .writeFailed(let errorPath, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(errorPath == output)
            #expect(reason.contains("No space left on device"), "\(reason)")
        }
        #expect(renderer.framesRendered < 441_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        #expect(throws: SoundError.rendererClosed(path: output)) { try renderer.finish() }
    }
}
