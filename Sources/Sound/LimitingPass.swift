// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// What one mastering pass measured on the mix it wrote.
struct PassResult {
    /// Integrated loudness, LUFS (`LoudnessEstimator`).
    var loudness: Double
    /// True peak, dBTP (libebur128's, see `TruePeakMeter`).
    var truePeak: Double
    /// The limiter's smallest gain (1 = it never acted).
    var smallestGain: Double
}

/// One pass of `MasteringPass` with the limiter: reads the spool(s) back, applies `gain` dB
/// and the limiter, writes the result to `writers` (mix first, then one per part) and
/// measures the mix: its loudness (`LoudnessEstimator`) and its true peak (`TruePeakMeter`).
///
/// Three stages overlap: this thread reads the spool, limits and scales the chunks; one
/// helper measures their loudness, the other writes the files, then measures the true
/// peak, each at its own pace (up to `MasteringPass.passSlots` chunks behind this thread).
/// 600 s of `default`: loudness 0.2 s of CPU (libebur128's `ebur128_add_frames_float`,
/// which measured it until stop 59, took 0.5 s and was the pass's slowest stage); writing
/// 0.25 s and the true peak 0.05 s; this thread's part 0.3 s.
final class LimitingPass {
    /// Frames read from the spool at a time.
    static let chunk = 65_536

    private let spools: [FloatSpool]
    private let hasStems: Bool
    private let gain: Float
    private let limiter: TruePeakLimiter?
    private let delay: Int
    private let meter: LoudnessEstimator
    private let peakMeter: TruePeakMeter
    private let stage: PassStage
    private let helpers: SlotPipeline
    /// Frames waiting for their gain: the mix, then each stem (when stems are spooled).
    private let pendingTracks: Int
    private var input: [[Float]]
    private var mix: [Float]
    private var chunkGains: [Float]
    private var pending: [[Float]]
    private var gains: [Float] = []
    /// Frames read from the spool, and frames given to the limiter.
    private var position: Int64 = 0
    private var pushed = 0

    /// Sets up the pass and starts its helpers. - Throws: `SoundError` for a meter.
    init(bus: MixBus, gain decibels: Double, ceiling: Double?, sampleRate: Double,
         writers: [SoundFileWriter]) throws(SoundError) {
        spools = bus.spools
        hasStems = bus.hasStems
        let gain = Float(linear(decibels))
        self.gain = gain
        limiter = ceiling.map { TruePeakLimiter(ceiling: $0 / Double(gain), sampleRate: sampleRate) }
        delay = limiter?.delay ?? 0
        let meter = LoudnessEstimator(sampleRate: sampleRate)
        let peakMeter = try TruePeakMeter(sampleRate: sampleRate)
        self.meter = meter
        self.peakMeter = peakMeter
        let tracks = spools.count
        input = [[Float]](repeating: [Float](repeating: 0, count: Self.chunk * 2), count: tracks)
        mix = [Float](repeating: 0, count: Self.chunk * 2)
        chunkGains = [Float](repeating: 1, count: Self.chunk)
        pendingTracks = hasStems ? tracks + 1 : 1
        pending = [[Float]](repeating: [], count: pendingTracks)
        let stage = PassStage(tracks: pendingTracks, slots: MasteringPass.passSlots)
        self.stage = stage
        helpers = SlotPipeline(depth: MasteringPass.passSlots, threads: .perUnit, units: [
            { slot in stage.chunks[slot][0].withFilled { meter.add($0) } },
            { slot in
                // With stems, writers and buffers are both [mix, stem 0, stem 1, …].
                stage.write(slot, to: writers)
                stage.chunks[slot][0].withFilled { peakMeter.add($0) }
            },
        ])
    }

    /// Runs the pass; nil, having stopped part way, when `interrupted()` turns true.
    func run(interrupted: () -> Bool) throws(SoundError) -> PassResult? {
        defer { helpers.shutDown() }
        while true {
            if interrupted() { return nil }
            let frames = try read()
            if frames == 0 { break }
            limit(frames, silent: false)
            try emit()
        }
        if limiter != nil {
            // Silence after the end lets the limiter say the gains of the last `delay` frames.
            var remaining = delay
            while remaining > 0 {
                let frames = min(Self.chunk, remaining)
                limit(frames, silent: true)
                remaining -= frames
            }
            try emit()
        }
        helpers.drain()
        try check()
        return PassResult(loudness: meter.integratedLoudness, truePeak: peakMeter.truePeak, smallestGain: limiter?.smallestGain ?? 1)
    }

    /// Reads the next chunk of every track, sums the mix and queues both for their gains.
    /// Returns the frames read (0 at the end).
    private func read() throws(SoundError) -> Int {
        var frames = 0
        for track in 0..<spools.count {
            let spool = spools[track]
            let at = position * 2
            let count = try input[track].withUnsafeMutableBufferPointer { (buffer) throws(SoundError) in
                try spool.read(at: at, into: buffer)
            }
            frames = count / 2
        }
        if frames == 0 { return 0 }
        position += Int64(frames)
        let count = frames * 2
        let tracks = spools.count
        mix.withUnsafeMutableBufferPointer { sum in
            input[0].withUnsafeBufferPointer { first in
                for i in 0..<count { sum[i] = first[i] }
            }
            for track in 1..<tracks {
                input[track].withUnsafeBufferPointer { other in
                    for i in 0..<count { sum[i] += other[i] }
                }
            }
        }
        pending[0].append(contentsOf: mix[0..<count])
        if hasStems {
            for track in 0..<tracks { pending[track + 1].append(contentsOf: input[track][0..<count]) }
        }
        return frames
    }

    /// Passes on a write error.
    private func check() throws(SoundError) {
        if let failure = stage.failure { throw failure }
    }

    /// Scales the frames whose gains are known into the next free slot and hands it to the helpers.
    private func emit() throws(SoundError) {
        let ready = gains.count
        guard ready > 0 else { return }
        // The helpers may still read the other slots' buffers, never this one's.
        let slot = helpers.nextSlot()
        try check()
        let gain = self.gain
        for track in 0..<pendingTracks {
            let chunk = stage.chunks[slot][track]
            if chunk.samples.count < ready * 2 { chunk.samples = [Float](repeating: 0, count: ready * 2) }
            chunk.count = ready * 2
            pending[track].withUnsafeBufferPointer { samples in
                gains.withUnsafeBufferPointer { g in
                    chunk.samples.withUnsafeMutableBufferPointer { out in
                        for frame in 0..<ready {
                            let factor = gain * g[frame]
                            out[2 * frame] = samples[2 * frame] * factor
                            out[2 * frame + 1] = samples[2 * frame + 1] * factor
                        }
                    }
                }
            }
            pending[track].removeFirst(ready * 2)
        }
        gains.removeAll(keepingCapacity: true)
        helpers.issue()
    }

    /// Gives `frames` frames of the mix (or of silence) to the limiter and keeps the gains it
    /// has decided (after its delay); all 1 without a limiter.
    private func limit(_ frames: Int, silent: Bool) {
        guard let limiter else {
            gains.append(contentsOf: repeatElement(1, count: frames))
            return
        }
        chunkGains.withUnsafeMutableBufferPointer { out in
            if silent {
                limiter.process(nil, frames: frames, gains: out.baseAddress!)
            } else {
                mix.withUnsafeBufferPointer { limiter.process($0.baseAddress!, frames: frames, gains: out.baseAddress!) }
            }
        }
        let skip = max(0, min(frames, delay - pushed))
        pushed += frames
        gains.append(contentsOf: chunkGains[skip..<frames])
    }
}

/// The scaled chunks of a mastering pass, in `slots` sets: one filled by the mastering
/// thread while the helpers measure and write others. Each buffer is an object of its
/// own, so the threads never touch the same array.
private final class PassStage: @unchecked Sendable {
    /// [slot][track]: the mix, then each stem.
    let chunks: [[SampleBuffer]]
    private let lock = ConditionLock()
    private var firstFailure: SoundError?

    init(tracks: Int, slots: Int) {
        chunks = (0..<slots).map { _ in (0..<tracks).map { _ in SampleBuffer() } }
    }

    /// The first write error (later chunks are not written).
    var failure: SoundError? { lock.withLock { firstFailure } }

    func write(_ slot: Int, to writers: [SoundFileWriter]) {
        guard failure == nil else { return }
        do throws(SoundError) {
            for (track, writer) in writers.enumerated() {
                try chunks[slot][track].withFilled { (samples) throws(SoundError) in try writer.write(samples) }
            }
        } catch {
            lock.withLock { firstFailure = error }
        }
    }
}

