// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// Sums the synths' blocks into the mix (the second stage of the audio path: `SynthBank` →
/// mix bus → `MasteringPass`): each part's synths in synth order, then the parts in part
/// order, block by block on the mixing thread; folds each part to mono when every channel
/// is centred; spools the float samples (the mix, or each part as a stem) for mastering to
/// read back, and measures the mix as it passes (the loudness, the limiter's preview, the
/// sample peak).
///
/// - Mono: when every channel of every part is panned to the centre (CC10 64), each part is
///   folded to mono (left = right = their mean) before it is summed and spooled, so a
///   preset that pans everything to the centre is exactly mono even though most of the
///   SoundFont's instruments are stereo samples (their left and right differ).
/// - Spooling: one track (the mix), or one per part with stems, 8 bytes per frame per
///   track; the first `floatsInMemoryPerTrack` floats of each in memory and the rest in an unlinked
///   scratch file (30 GB per track for 24 h at 44.1 kHz).
final class MixBus {
    /// True when every part's channels are centred: the mix and the stems are folded to mono.
    let foldsToMono: Bool
    /// True when each part is spooled as a stem (the mix is then their sum, formed again when mastering).
    let hasStems: Bool
    /// The spooled tracks: the mix, or one per part with stems.
    let spools: [FloatSpool]
    /// The loudness and the limiter's loss, estimated while rendering (nil without a loudness target).
    let preview: LimiterPreview?
    /// The loudness estimated while rendering when there is no target (for the report after a stop).
    let plainEstimate: LoudnessEstimator?
    /// The mix's largest sample magnitude so far.
    private(set) var samplePeak: Float = 0

    private let units: [SynthUnit]
    private let shardsOfPart: [[Int]]
    /// The usual mix, summed by `sumThree`: one synth for the first part, two for the second,
    /// no stems, no folding.
    private let sumsThreeInOneLoop: Bool
    private var mixBuffer: [Float] = []
    private var partBuffer: [Float] = []

    /// A bus for the synths of `bank`, spooling into `scratchDirectory` (the mix's): the mix
    /// for `mixPath`, or with `stemPaths` (one per part) each part. The paths only name the spools.
    /// - Throws: `SoundError` when a scratch file cannot be made.
    init(bank: SynthBank, parts: [MixPart], mixPath: String, stemPaths: [String]?, scratchDirectory: String,
         floatsInMemoryPerTrack: Int64, sampleRate: Double, mastering: Mastering, expectedSeconds: Double) throws(SoundError) {
        units = bank.units
        shardsOfPart = bank.shardsOfPart
        foldsToMono = parts.allSatisfy { $0.channels.allSatisfy { $0.pan == 64 } }
        hasStems = stemPaths != nil
        sumsThreeInOneLoop = !foldsToMono && stemPaths == nil && shardsOfPart == [[0], [1, 2]]
        plainEstimate = mastering.loudness == nil ? LoudnessEstimator(sampleRate: sampleRate) : nil
        preview = mastering.loudness.map {
            LimiterPreview(sampleRate: sampleRate, target: $0,
                           ceiling: linear(mastering.truePeak - Mastering.limiterMargin), expectedSeconds: expectedSeconds)
        }
        var spools: [FloatSpool] = []
        if let stemPaths {
            for (part, path) in zip(parts, stemPaths) {
                spools.append(try FloatSpool(directory: scratchDirectory, label: "the \(part.name) stem",
                                             path: path, memoryCapacity: floatsInMemoryPerTrack))
            }
        } else {
            spools.append(try FloatSpool(directory: scratchDirectory, label: "the mix", path: mixPath, memoryCapacity: floatsInMemoryPerTrack))
        }
        self.spools = spools
    }

    /// Sums the synths of each part (in synth order) and the parts (in part order) for one
    /// block of time in `slot` of the synths' buffers; spools it and feeds the loudness estimates.
    func mixDown(slot: Int, frames: Int) throws(SoundError) {
        let count = frames * 2
        if mixBuffer.count < count { mixBuffer = [Float](repeating: 0, count: count) }
        if partBuffer.count < count { partBuffer = [Float](repeating: 0, count: count) }
        if sumsThreeInOneLoop {
            samplePeak = max(samplePeak, sumThree(slot: slot, count: count))
        } else {
            try sumParts(slot: slot, frames: frames)
        }
        try mixBuffer.withUnsafeBufferPointer { (all) throws(SoundError) in
            let mix = UnsafeBufferPointer(rebasing: all[0..<count])
            if !hasStems { try spools[0].append(mix) }
            preview?.add(mix)
            plainEstimate?.add(mix)
        }
    }

    /// Writes out what the spools still hold in their buffers, before mastering reads them.
    func flush() throws(SoundError) {
        for spool in spools { try spool.flush() }
    }

    /// The general sum of `mixDown`: each part into `partBuffer` (folded to mono if so; spooled
    /// as a stem if so), then into `mixBuffer`; and the sample peak.
    private func sumParts(slot: Int, frames: Int) throws(SoundError) {
        let count = frames * 2
        for part in shardsOfPart.indices {
            let members = shardsOfPart[part]
            partBuffer.withUnsafeMutableBufferPointer { partSum in
                units[members[0]].buffers[slot].samples.withUnsafeBufferPointer { first in
                    for i in 0..<count { partSum[i] = first[i] }
                }
                for member in members.dropFirst() {
                    units[member].buffers[slot].samples.withUnsafeBufferPointer { other in
                        for i in 0..<count { partSum[i] += other[i] }
                    }
                }
            }
            if foldsToMono {
                partBuffer.withUnsafeMutableBufferPointer { partSum in
                    for frame in 0..<frames {
                        let mean = (partSum[2 * frame] + partSum[2 * frame + 1]) * 0.5
                        partSum[2 * frame] = mean
                        partSum[2 * frame + 1] = mean
                    }
                }
            }
            partBuffer.withUnsafeBufferPointer { partSum in
                mixBuffer.withUnsafeMutableBufferPointer { mix in
                    if part == 0 {
                        for i in 0..<count { mix[i] = partSum[i] }
                    } else {
                        for i in 0..<count { mix[i] += partSum[i] }
                    }
                }
            }
            if hasStems {
                try partBuffer.withUnsafeBufferPointer { (all) throws(SoundError) in
                    let slice = UnsafeBufferPointer(rebasing: all[0..<count])
                    try spools[part].append(slice)
                }
            }
        }
        samplePeak = mixBuffer.withUnsafeBufferPointer { SamplePeak.largestMagnitude(UnsafeBufferPointer(rebasing: $0[0..<count]), from: samplePeak) }
    }

    /// The sum of `mixDown` for the usual mix (one synth for the first part, two for the
    /// second, no stems, no folding): `first + (second + third)` into `mixBuffer`, the order
    /// `sumParts` adds in, in one loop instead of four passes over the block. Returns the
    /// block's sample peak.
    private func sumThree(slot: Int, count: Int) -> Float {
        var peak: Float = 0
        mixBuffer.withUnsafeMutableBufferPointer { mix in
        units[0].buffers[slot].samples.withUnsafeBufferPointer { a in
        units[1].buffers[slot].samples.withUnsafeBufferPointer { b in
        units[2].buffers[slot].samples.withUnsafeBufferPointer { c in
            var loud = SIMD4<Float>(repeating: 0)
            var i = 0
            while i + 4 <= count {
                let sum = SIMD4(a[i], a[i + 1], a[i + 2], a[i + 3])
                    + (SIMD4(b[i], b[i + 1], b[i + 2], b[i + 3]) + SIMD4(c[i], c[i + 1], c[i + 2], c[i + 3]))
                mix[i] = sum[0]; mix[i + 1] = sum[1]; mix[i + 2] = sum[2]; mix[i + 3] = sum[3]
                // (`pointwiseMax` is not inlined: a call per four samples.)
                let magnitude = sum.replacing(with: -sum, where: sum .< 0)
                loud.replace(with: magnitude, where: magnitude .> loud)
                i += 4
            }
            peak = max(peak, loud.max())
            while i < count {
                let sum = a[i] + (b[i] + c[i])
                mix[i] = sum
                peak = max(peak, abs(sum))
                i += 1
            }
        }
        }
        }
        }
        return peak
    }
}
