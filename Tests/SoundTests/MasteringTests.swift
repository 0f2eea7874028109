import Foundation
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
                mixer.send(MixEvent(frame: frame, channel: 0, kind: .noteOn(note: note, velocity: 40 + 7 * beat)))
                mixer.send(MixEvent(frame: frame + 15_000, channel: 0, kind: .noteOff(note: note)))
            }
            try mixer.render(toFrame: frame)
        }
        return try mixer.finish(atFrame: 6 * 44_100, interrupted: interrupted)
    }

    @Test("Mastering measures the written mix and lands within the tolerance of the target", .enabled(if: hasTestSoundFont))
    func masteredToTarget() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try renderChords(into: directory.appendingPathComponent("m.wav").path, interrupted: { false })
        #expect(report.passes >= 1 && report.passes <= MixRenderer.masteringPasses)
        #expect(abs(report.loudness - -16) <= MixRenderer.loudnessTolerance || report.passes == MixRenderer.masteringPasses)
        #expect(report.truePeak <= -1)
    }

    @Test("A stop asked for while mastering drops the pass under way and writes the quick pass", .enabled(if: hasTestSoundFont))
    func interruptedMastering() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("m.wav").path
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
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mix = directory.appendingPathComponent("m.wav").path
        _ = try renderChords(into: mix, stems: directory.path, interrupted: { stopped })
        let stem = try Data(contentsOf: directory.appendingPathComponent("keys.wav"))
        #expect(stem.count > 44 + 6 * 44_100 * 6)
        #expect(stem == (try Data(contentsOf: URL(fileURLWithPath: mix))))
    }

    @Test("A stop while mastering without a loudness target still reports the loudness estimated while rendering",
          .enabled(if: hasTestSoundFont))
    func stoppedWithoutTarget() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try renderChords(into: directory.appendingPathComponent("m.wav").path,
                                      mastering: Mastering(loudness: nil), interrupted: { true })
        #expect(report.passes == 0)
        #expect(report.loudness.isFinite && report.loudness < -10, "\(report.loudness)")
        #expect(report.description != "silent")
    }
}
