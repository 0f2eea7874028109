// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIWire
import TestSupport
import Testing
@testable import Sound

/// A deterministic test signal: stereo noise in bursts of different levels, with a tone
/// near a quarter of the sample rate whose peaks fall between samples (inter-sample peaks).
private func burstSignal(seconds: Double, sampleRate: Double, seed: UInt64) -> [Float] {
    var state = seed
    func random() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53) * 2 - 1
    }
    let frames = Int(seconds * sampleRate)
    var samples = [Float](repeating: 0, count: 2 * frames)
    var level = 0.1
    for frame in 0..<frames {
        if frame % Int(sampleRate * 0.7) == 0 { level = [0.002, 0.05, 0.3, 0.01, 0.6, 0.03][Int(Double(frame) / (sampleRate * 0.7)) % 6] }
        let tone = sin(2 * Double.pi * 0.2499 * Double(frame) + 0.8)
        samples[2 * frame] = Float(level * (0.5 * tone + 0.4 * random()))
        samples[2 * frame + 1] = Float(level * (0.5 * tone + 0.4 * random()))
    }
    return samples
}

@Suite("Mastering: the true-peak meter, the loudness estimate, and stopping while mastering")
struct MasteringTests {
    @Test("The true-peak meter gives exactly libebur128's true peak of the whole stream while interpolating only some chunks",
          arguments: [44_100.0, 48_000, 96_000])
    func truePeakIsExact(_ rate: Double) throws {
        let samples = burstSignal(seconds: 12, sampleRate: rate, seed: 7)
        let whole = try LoudnessMeter(sampleRate: rate, truePeak: true)
        let selective = try TruePeakMeter(sampleRate: rate)
        samples.withUnsafeBufferPointer { all in
            whole.add(all)
            // Uneven pieces: the meter's own chunks do not follow the caller's.
            var start = 0
            var size = 777
            while start < all.count {
                let end = min(all.count, start + 2 * size)
                selective.add(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
                size = size * 7 % 5003 + 100
            }
        }
        #expect(selective.truePeak == whole.truePeak)
        #expect(selective.interpolatedChunks < selective.chunks / 2,
                "interpolated \(selective.interpolatedChunks) of \(selective.chunks) chunks")
        #expect(selective.interpolatedChunks > 0)
        // The screen (the known design's interpolation in single precision) leaves fewer
        // chunks to libebur128 than the bound alone.
        #expect(selective.screen != nil)
        #expect(selective.interpolatedChunks < selective.screenedChunks,
                "libebur128 ran on \(selective.interpolatedChunks) of \(selective.screenedChunks) screened chunks")
    }

    @Test("A tone that grows a little in every chunk: the screened meter still gives exactly libebur128's true peak")
    func risingToneTruePeak() throws {
        let rate = 44_100.0
        let frames = 10 * 44_100
        var samples = [Float](repeating: 0, count: 2 * frames)
        for frame in 0..<frames {
            // Peaks between samples (a quarter of the rate, off by a little), 0.01 % louder every 1024 frames.
            let level = 0.3 * (1 + 1e-4 * Double(frame) / 1024)
            samples[2 * frame] = Float(level * sin(2 * Double.pi * 0.2499 * Double(frame) + 0.8))
            samples[2 * frame + 1] = Float(0.5 * level * sin(2 * Double.pi * 0.2499 * Double(frame) + 0.3))
        }
        let whole = try LoudnessMeter(sampleRate: rate, truePeak: true)
        let selective = try TruePeakMeter(sampleRate: rate)
        samples.withUnsafeBufferPointer { whole.add($0); selective.add($0) }
        #expect(selective.truePeak == whole.truePeak)
        // Each chunk's peak is within 0.01 % of the last one's: the screen decides them all.
        #expect(selective.screenedChunks > selective.chunks / 2)
    }

    @Test("A stream whose loudest sample is its last frame: libebur128 counts it, and so does the screened meter",
          arguments: [44_100.0, 96_000])
    func loudestSampleLast(_ rate: Double) throws {
        for frames in [2048, 3000] {
            var samples = [Float](repeating: 0, count: 2 * frames)
            samples[2 * (frames / 3)] = 0.3
            samples[2 * (frames - 1)] = 0.5
            let whole = try LoudnessMeter(sampleRate: rate, truePeak: true)
            let selective = try TruePeakMeter(sampleRate: rate)
            samples.withUnsafeBufferPointer { whole.add($0); selective.add($0) }
            #expect(selective.truePeak == whole.truePeak, "\(frames) frames at \(rate) Hz")
            #expect(abs(whole.truePeak - 20 * log10(0.5)) < 0.01)
        }
    }

    @Test("The bound covers libebur128's interpolator (at least the largest sum of |coefficients| of a phase) and is that sum when the library is the known design")
    func boundCoversInterpolator() throws {
        // 49 taps, 4× below 96 kHz: the phases' sums of |coefficients| are 1, 1.63, 1.86, 1.63.
        #expect(try TruePeakMeter(sampleRate: 44_100).bound >= 1.864)
        #expect(try TruePeakMeter(sampleRate: 96_000).bound >= 2.306)
        // Debian 12's libebur128 (1.2.6) is recognised as its design, so the bound is the
        // tight one, not the sum over delays (2.51), which would interpolate three times as much.
        #expect(try TruePeakMeter(sampleRate: 44_100).bound <= 1.87)
        #expect(try TruePeakMeter(sampleRate: 96_000).bound <= 2.31)
    }

    /// Runs a limiter's `process` over `samples` in pieces of uneven size (`sizes`, cycling, or
    /// 64 frames and more from a recurrence; ceiling `ceilings[k]` for piece k, cycling), then
    /// `delay` frames of silence; returns one gain per input frame.
    private func limit(_ samples: [Float], delay: Int, ceilings: [Double], sizes: [Int]? = nil, setCeiling: (Double) -> Void,
                       process: (UnsafePointer<Float>?, Int, UnsafeMutablePointer<Float>) -> Void) -> [Float] {
        var gains: [Float] = []
        var scratch = [Float](repeating: 0, count: 9000)
        var start = 0, size = 513, piece = 0
        samples.withUnsafeBufferPointer { all in
            while start < all.count {
                if let sizes { size = sizes[piece % sizes.count] }
                let end = min(all.count, start + 2 * size)
                setCeiling(ceilings[piece % ceilings.count])
                scratch.withUnsafeMutableBufferPointer { process(all.baseAddress! + start, (end - start) / 2, $0.baseAddress!) }
                gains += scratch[0..<((end - start) / 2)]
                start = end
                size = size * 5 % 8191 + 64
                piece += 1
            }
        }
        scratch.withUnsafeMutableBufferPointer { process(nil, delay, $0.baseAddress!) }
        gains += scratch[0..<delay]
        return Array(gains.dropFirst(delay))
    }

    private func limit(_ samples: [Float], with limiter: TruePeakLimiter, ceilings: [Double], sizes: [Int]? = nil) -> [Float] {
        limit(samples, delay: limiter.delay, ceilings: ceilings, sizes: sizes, setCeiling: { limiter.ceiling = $0 },
              process: { limiter.process($0, frames: $1, gains: $2) })
    }

    @Test("The limiter's staged loops give exactly the gains of computing every step frame by frame, also when the ceiling changes between calls",
          arguments: [[0.5], [0.5, 0.2, 0.9, 0.35]])
    func stagedLimiterMatchesReference(_ ceilings: [Double]) {
        let samples = burstSignal(seconds: 10, sampleRate: 44_100, seed: 11)
        let limiter = TruePeakLimiter(ceiling: ceilings[0], sampleRate: 44_100)
        let reference = ReferenceLimiter(ceiling: ceilings[0], sampleRate: 44_100)
        let gains = limit(samples, with: limiter, ceilings: ceilings)
        let expected = limit(samples, delay: reference.delay, ceilings: ceilings, setCeiling: { reference.ceiling = $0 },
                             process: { reference.process($0, frames: $1, gains: $2) })
        #expect(gains.count == samples.count / 2)
        #expect(expected.count == gains.count)
        let firstDifference = gains.indices.first { gains[$0] != expected[$0] }
        #expect(firstDifference == nil, "gains differ from frame \(firstDifference ?? -1)")
        #expect(limiter.smallestGain == reference.smallestGain)
        // The signal has loud and quiet stretches: the limiter acted, and let go again.
        #expect(limiter.smallestGain < 0.9)
        #expect(gains.filter { $0 == 1 }.count > gains.count / 10)
    }

    @Test("Calls of one to a few frames, and an unlimited ceiling (as the preview starts) between limited ones: still the one-loop gains")
    func tinyCallsAndUnlimitedCeilings() {
        // Pieces shorter than the idle stretch's eight-need compare, at and around it, and
        // longer; the ceiling off (infinite), then limiting, then off again.
        let samples = burstSignal(seconds: 3, sampleRate: 44_100, seed: 3)
        let ceilings = [Double.infinity, 0.5, .infinity, 0.3]
        let sizes = [1, 2, 7, 8, 9, 16, 17, 64, 513, 3, 1, 1, 5000]
        let limiter = TruePeakLimiter(ceiling: ceilings[0], sampleRate: 44_100)
        let reference = ReferenceLimiter(ceiling: ceilings[0], sampleRate: 44_100)
        let gains = limit(samples, with: limiter, ceilings: ceilings, sizes: sizes)
        let expected = limit(samples, delay: reference.delay, ceilings: ceilings, sizes: sizes, setCeiling: { reference.ceiling = $0 },
                             process: { reference.process($0, frames: $1, gains: $2) })
        let firstDifference = gains.indices.first { gains[$0] != expected[$0] }
        #expect(gains.count == samples.count / 2)
        #expect(firstDifference == nil, "gains differ from frame \(firstDifference ?? -1)")
        #expect(limiter.smallestGain == reference.smallestGain)
        #expect(limiter.smallestGain < 0.9)
        #expect(gains.filter { $0 == 1 }.count > gains.count / 10)
    }

    @Test("A release decayed past the smallest normal float, then peaks a hair over the ceiling: the limiter's gains are still the one-loop gains")
    func releaseDecayedToNothing() {
        // The reference lets the release's depth decay through the subnormal floats; the limiter
        // stops it at 2⁻²⁵, where it can no longer change a gain. 12 s of quiet after a hard peak
        // take the depth from 0.44 past 2⁻¹²⁶ (keep^frames) and on to 0. Then slow swells
        // (no step, so the interpolation does not ring) to one to four float steps over the
        // ceiling need gains a few steps under 1: depths that must still win over what is left
        // of each decay, and a stop at 2⁻²⁴ or above would already change them.
        // The stop itself: at it a released gain is exactly 1, one float above it no longer.
        #expect(1 - TruePeakLimiter.negligibleDepth == 1)
        #expect(1 - TruePeakLimiter.negligibleDepth.nextUp < 1)
        let rate = 44_100.0, ceiling: Float = 0.5
        let keep = 1 - Float(1 - exp(-1 / (0.08 * rate)))
        var frames = [Float](repeating: 0.9, count: 2 * 2000)
        frames += [Float](repeating: 0.01, count: 2 * 12 * 44_100)
        #expect(pow(Double(keep), Double(12 * 44_100)) * 0.44 < Double(Float.leastNormalMagnitude))
        let swell = 40_000
        for step in 1...4 {
            let over = ceiling * (1 + Float(step) * Float.ulpOfOne)
            for i in 0..<swell {
                let level = 0.01 + (over - 0.01) * Float(sin(Double.pi * Double(i) / Double(swell - 1)))
                frames += [level, level]
            }
            frames += [Float](repeating: 0.01, count: 2 * 44_100)
        }
        let limiter = TruePeakLimiter(ceiling: Double(ceiling), sampleRate: rate)
        let reference = ReferenceLimiter(ceiling: Double(ceiling), sampleRate: rate)
        let gains = limit(frames, with: limiter, ceilings: [Double(ceiling)])
        let expected = limit(frames, delay: reference.delay, ceilings: [Double(ceiling)], setCeiling: { reference.ceiling = $0 },
                             process: { reference.process($0, frames: $1, gains: $2) })
        let firstDifference = gains.indices.first { gains[$0] != expected[$0] }
        #expect(firstDifference == nil, "gains differ from frame \(firstDifference ?? -1)")
        // The swells were limited by a hair (gains a few float steps under 1, none lower), and let go.
        let late = gains[(2000 + 12 * 44_100)...]
        #expect(late.contains { $0 < 1 })
        #expect(late.allSatisfy { $0 > 1 - 16 * Float.ulpOfOne })
        #expect(late.last == 1)
    }

    @Test("A ceiling lowered between calls, just after loud frames: the staged limiter still gives the one-loop gains")
    func loweredCeiling() {
        // 1000 frames at 0.38: quiet for a ceiling of 0.9 (under its threshold), over a ceiling
        // of 0.35; then quiet frames. The first call limits at 0.9, the next at 0.35.
        var samples = [Float](repeating: 0.01, count: 2 * 3000)
        for i in 0..<2000 { samples[i] = 0.38 }
        for ceilings in [[0.9, 0.35], [0.9, 0.35, 0.2, 0.8]] {
            let limiter = TruePeakLimiter(ceiling: ceilings[0], sampleRate: 44_100)
            let reference = ReferenceLimiter(ceiling: ceilings[0], sampleRate: 44_100)
            var gains: [[Float]] = [[], []]
            var scratch = [Float](repeating: 0, count: 3000)
            for (call, range) in [0..<1000, 1000..<1003, 1003..<2000, 2000..<3000].enumerated() {
                let ceiling = ceilings[call % ceilings.count]
                limiter.ceiling = ceiling
                reference.ceiling = ceiling
                samples.withUnsafeBufferPointer { all in
                    let start = all.baseAddress! + 2 * range.lowerBound
                    scratch.withUnsafeMutableBufferPointer { limiter.process(start, frames: range.count, gains: $0.baseAddress!) }
                    gains[0] += scratch[0..<range.count]
                    scratch.withUnsafeMutableBufferPointer { reference.process(start, frames: range.count, gains: $0.baseAddress!) }
                    gains[1] += scratch[0..<range.count]
                }
            }
            let first = gains[0].indices.first { gains[0][$0] != gains[1][$0] }
            #expect(first == nil, "gains differ from frame \(first ?? -1) with ceilings \(ceilings)")
            #expect(gains[0].contains { $0 < 0.95 })
        }
    }

    @Test("The limited signal's true peak, measured by libebur128, stays under the ceiling")
    func limitedUnderCeiling() throws {
        let rate = 44_100.0
        let samples = burstSignal(seconds: 10, sampleRate: rate, seed: 5)
        let ceiling = 0.4
        let limiter = TruePeakLimiter(ceiling: ceiling, sampleRate: rate)
        let gains = limit(samples, with: limiter, ceilings: [ceiling])
        var limited = samples
        for frame in gains.indices {
            limited[2 * frame] *= gains[frame]
            limited[2 * frame + 1] *= gains[frame]
        }
        let before = try LoudnessMeter(sampleRate: rate, truePeak: true)
        let after = try LoudnessMeter(sampleRate: rate, truePeak: true)
        samples.withUnsafeBufferPointer { before.add($0) }
        limited.withUnsafeBufferPointer { after.add($0) }
        #expect(before.truePeak > 20 * log10(ceiling) + 3)
        // The limiter's 16-tap detector and libebur128's 49-tap interpolator differ a little.
        #expect(after.truePeak <= 20 * log10(ceiling) + 0.2, "true peak \(after.truePeak) dBTP")
    }

    @Test("The loudness estimate agrees with libebur128 within 0.01 LU, gating included",
          arguments: [22_050.0, 44_100, 48_000, 96_000])
    func estimateAgreesWithLibebur128(_ rate: Double) throws {
        let samples = burstSignal(seconds: 20, sampleRate: rate, seed: 11)
        let meter = try LoudnessMeter(sampleRate: rate, truePeak: false)
        let estimator = LoudnessEstimator(sampleRate: rate)
        samples.withUnsafeBufferPointer { all in
            meter.add(all)
            var start = 0
            while start < all.count {
                let end = min(all.count, start + 2 * 3001)
                estimator.add(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        let reference = meter.integratedLoudness
        #expect(reference.isFinite)
        #expect(abs(estimator.integratedLoudness - reference) <= 0.01, "estimate \(estimator.integratedLoudness), libebur128 \(reference)")
    }

    @Test("Two estimates in one loop (as the limiter preview takes them) are exactly those taken one after the other")
    func pairedEstimates() {
        let samples = burstSignal(seconds: 8, sampleRate: 44_100, seed: 5)
        let frames = samples.count / 2
        // Gains like a limiter's: 1 mostly, lower in stretches.
        let gains = (0..<frames).map { frame -> Float in frame % 30_000 < 9_000 ? 0.5 + Float(frame % 9_000) / 18_000 : 1 }
        let plain = LoudnessEstimator(sampleRate: 44_100), limited = LoudnessEstimator(sampleRate: 44_100)
        let plainAlone = LoudnessEstimator(sampleRate: 44_100), limitedAlone = LoudnessEstimator(sampleRate: 44_100)
        samples.withUnsafeBufferPointer { all in
            gains.withUnsafeBufferPointer { g in
                // Calls that end inside a 100 ms segment (4,410 frames), on its edge and then go
                // on (4,410, then 1 and 4,409), and span several.
                let sizes = [4_410, 1, 4_409, 1_234, 13_230, 7, 9_999]
                var start = 0, call = 0
                while start < frames {
                    let size = sizes[call % sizes.count]
                    call += 1
                    let end = min(frames, start + size)
                    let chunk = UnsafeBufferPointer(rebasing: all[(2 * start)..<(2 * end)])
                    let chunkGains = UnsafeBufferPointer(rebasing: g[start..<end])
                    LoudnessEstimator.add(chunk, plain: plain, limited: limited, gains: chunkGains)
                    plainAlone.add(chunk)
                    limitedAlone.add(chunk, gains: chunkGains)
                    start = end
                }
            }
        }
        #expect(plain.integratedLoudness.isFinite)
        #expect(plain.integratedLoudness == plainAlone.integratedLoudness)
        #expect(limited.integratedLoudness == limitedAlone.integratedLoudness)
        #expect(limited.integratedLoudness < plain.integratedLoudness - 0.5)
    }

    @Test("Silence has no loudness estimate")
    func silentEstimate() {
        let estimator = LoudnessEstimator(sampleRate: 44_100)
        let silence = [Float](repeating: 0, count: 2 * 44_100)
        silence.withUnsafeBufferPointer { estimator.add($0) }
        #expect(estimator.integratedLoudness == -.infinity)
    }

    /// A few seconds of marimba chords through a mix of one part.
    private func renderChords(into path: String, stems: String? = nil, mastering: Mastering = Mastering(),
                              interrupted: @escaping () -> Bool) throws -> MasteringReport {
        let configuration = SamplerConfiguration(soundFont: testSoundFont)
        let part = MixPart(name: "Keys", channels: [PartChannel(channel: 0, bank: 0, program: 12)])
        let mixer = try MixRenderer(parts: [part], configuration: configuration, mixPath: path, stemsDirectory: stems,
                                    format: .wav, mastering: mastering, expectedSeconds: 6)
        for beat in 0..<12 {
            let frame = Int64(Double(beat) * 0.5 * 44_100)
            for note in [60, 64, 67] {
                mixer.send(MixEvent(frame: frame, message: .noteOn(channel: 0, note: note, velocity: 40 + 7 * beat)))
                mixer.send(MixEvent(frame: frame + 15_000, message: .noteOff(channel: 0, note: note)))
            }
            try mixer.render(toFrame: frame)
        }
        return try mixer.finish(atFrame: 6 * 44_100, interrupted: interrupted)
    }

    @Test("Mastering measures the written mix and lands within the tolerance of the target", .enabled(if: hasTestSoundFont))
    func masteredToTarget() throws {
        let directory = try TemporaryDirectory(prefix: "clumsy-sound-tests")
        let report = try renderChords(into: directory.file("m.wav"), interrupted: { false })
        #expect(report.passes >= 1 && report.passes <= MasteringPass.masteringPasses)
        #expect(abs(report.loudness - -16) <= MasteringPass.loudnessTolerance || report.passes == MasteringPass.masteringPasses)
        #expect(report.truePeak <= -1)
    }

    @Test("The loudness and true peak mastering reports are libebur128's of the written file (within 0.01 LU; the peak exactly)",
          .enabled(if: hasTestSoundFont))
    func reportIsLibebur128sMeasurement() throws {
        let directory = try TemporaryDirectory(prefix: "clumsy-sound-tests")
        let path = directory.file("m.wav")
        // Louder than the chords are as rendered, so the limiter acts on the written mix.
        let report = try renderChords(into: path, mastering: Mastering(loudness: -9, truePeak: -1, bitDepth: .float32),
                                      interrupted: { false })
        #expect(report.limiting < 0)
        let samples = try floatWAVSamples(path)
        #expect(samples.count >= 2 * 6 * 44_100)
        let meter = try LoudnessMeter(sampleRate: 44_100, truePeak: true)
        samples.withUnsafeBufferPointer { meter.add($0) }
        #expect(abs(report.loudness - meter.integratedLoudness) <= 0.01,
                "reported \(report.loudness) LUFS, libebur128 \(meter.integratedLoudness) LUFS")
        #expect(abs(report.truePeak - meter.truePeak) <= 1e-9, "reported \(report.truePeak) dBTP, libebur128 \(meter.truePeak) dBTP")
    }

    /// The samples of a 32-bit float WAV as libsndfile writes it (the chunks walked to `data`).
    private func floatWAVSamples(_ path: String) throws -> [Float] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func word(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        #expect(bytes.count > 12 && String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF"
                && String(decoding: bytes[8..<12], as: UTF8.self) == "WAVE")
        var at = 12
        while at + 8 <= bytes.count {
            let size = word(at + 4)
            if String(decoding: bytes[at..<(at + 4)], as: UTF8.self) == "data" {
                let body = Array(bytes[(at + 8)..<min(bytes.count, at + 8 + size)])
                return stride(from: 0, to: body.count - 3, by: 4).map { i in
                    Float(bitPattern: UInt32(body[i]) | UInt32(body[i + 1]) << 8 | UInt32(body[i + 2]) << 16 | UInt32(body[i + 3]) << 24)
                }
            }
            at += 8 + size + size % 2
        }
        Issue.record("no data chunk in \(path)")
        return []
    }

    @Test("A stop asked for while mastering drops the pass under way and writes the quick pass", .enabled(if: hasTestSoundFont))
    func interruptedMastering() throws {
        let directory = try TemporaryDirectory(prefix: "clumsy-sound-tests")
        let path = directory.file("m.wav")
        let report = try renderChords(into: path, interrupted: { true })
        #expect(report.passes == 0)
        #expect(report.limiting == 0)
        #expect(FileManager.default.fileExists(atPath: path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "m.wav" }
        #expect(leftovers.isEmpty, "left behind: \(leftovers)")
    }

    @Test("A mix of one part with stems writes its stem, the same bytes as the mix, mastered or after a stop",
          .enabled(if: hasTestSoundFont), arguments: [false, true])
    func onePartStem(_ stopped: Bool) throws {
        let directory = try TemporaryDirectory(prefix: "clumsy-sound-tests")
        let mix = directory.file("m.wav")
        _ = try renderChords(into: mix, stems: directory.path, interrupted: { stopped })
        let stem = try Data(contentsOf: URL(fileURLWithPath: directory.file("keys.wav")))
        #expect(stem.count > 44 + 6 * 44_100 * 6)
        #expect(stem == (try Data(contentsOf: URL(fileURLWithPath: mix))))
    }

    @Test("A stop while mastering without a loudness target still reports the loudness estimated while rendering",
          .enabled(if: hasTestSoundFont))
    func stoppedWithoutTarget() throws {
        let directory = try TemporaryDirectory(prefix: "clumsy-sound-tests")
        let report = try renderChords(into: directory.file("m.wav"),
                                      mastering: Mastering(loudness: nil), interrupted: { true })
        #expect(report.passes == 0)
        #expect(report.loudness.isFinite && report.loudness < -10, "\(report.loudness)")
        #expect(report.description != "silent")
    }
}
