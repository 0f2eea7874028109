import FileOutput
import CFluidSynth
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Renders a mix of parts offline: one FluidSynth synth per part (each with the whole
/// effect chain of `configuration`), synthesised in parallel, summed in part order, then
/// mastered (loudness gain, true-peak limiter) and written as the mix file and, if asked,
/// one stem file per part.
///
/// - Parallelism: at most `threadCount` synthesis threads (the number of cores by default,
///   never more than the synths). A part that plays several MIDI channels (the keys, one
///   channel per key) is split over `synthsPerPart` (2) synths, each set up with all its
///   channels and the same effects (mixing is linear, so their sum is the part): note-ons
///   go to them in turn, a note struck again while it sounds goes to the synth playing it
///   (so FluidSynth ends the old voice as it would in one synth), note-offs follow their
///   note, and controllers go to all. Dealt in turn, the notes load the synths evenly
///   (measured on 600 s of `default`: 3.17 and 3.16 s of CPU in the two keys synths,
///   against 3.87 and 3.23 s when the keys were split by channel; the render phase took
///   3.7–3.9 s instead of 5.0–5.1 s). The threads render up to `pipelineDepth` blocks
///   of time ahead of the mixing thread and never wait for each other between blocks: a
///   free thread takes the synth whose next block comes earliest (see `SynthPipeline`).
///   Which thread renders which block never changes a sample: every synth sees its own
///   events in order, and sums are taken in a fixed order, so the output is
///   byte-identical run to run.
/// - Timing: an event due at frame f sounds from the first 64-frame block boundary at or
///   after f, as with `AudioFileRenderer`.
/// - Mastering reads the render back: the float samples are spooled (one track, or one per
///   part with stems: 8 bytes per frame per track), the first `spoolMemoryBytes` in memory
///   and the rest in an unlinked scratch file beside the mix (30 GB per track for 24 h at
///   44.1 kHz), while a `LimiterPreview` estimates the loudness and what the limiter will
///   take; then each pass (see `master`) reads the spool, limits and scales it on this
///   thread while two helpers measure the mix (libebur128) and write the files, each at its
///   own pace (`OrderedStages`). Usually one pass; free disk space is checked up front.
/// - Mono: when every channel of every part is panned to the centre (CC10 64), each part is
///   folded to mono (left = right = their mean) before it is summed and spooled, so a
///   preset that pans everything to the centre is exactly mono even though most of the
///   SoundFont's instruments are stereo samples (their left and right differ).
/// - Files appear only when everything was written: each is written under a temporary
///   name and all are renamed at the end; any failure removes them all.
public final class MixRenderer {
    /// The parts, in mixing order.
    public let parts: [MixPart]
    /// Synthesizer settings shared by every part's synth.
    public let configuration: SamplerConfiguration
    /// Where the mix goes.
    public let mixPath: String
    /// Where the stems go (nil = no stems).
    public let stemsDirectory: String?
    /// File format of the mix and the stems.
    public let format: AudioFileFormat
    /// Loudness, ceiling and bit depth.
    public let mastering: Mastering
    /// Synthesis threads in use.
    public var threadCount: Int { max(1, pipeline.threadCount) }
    /// Synthesizers in use (at least one per part).
    public var synthCount: Int { units.count }
    /// True when every part's channels are centred: the mix and the stems are folded to mono.
    public let foldsToMono: Bool
    /// The usual mix, summed by `sumThree`: one synth for the first part, two for the second,
    /// no stems, no folding.
    private let sumsThreeInOneLoop: Bool

    private let units: [SynthUnit]
    private let partOfChannel: [Int]
    /// The synths of each part, and which of them gets the part's next new note.
    private let shardsOfPart: [[Int]]
    private var nextShard: [Int]
    /// The synth playing each (channel × 128 + note) now, or −1.
    private var holder = [Int](repeating: -1, count: 16 * 128)
    private let pipeline: SynthPipeline
    private let rate: Double
    private var issuedEnd: Int64 = 0
    /// Blocks issued to the pipeline, and blocks summed; frames of each slot's block.
    private var issuedBlocks = 0
    private var mixedBlocks = 0
    private var blockFrames: [Int]
    private var spools: [FloatSpool] = []
    /// The loudness and the limiter's loss, estimated while rendering (nil without a loudness target).
    private let preview: LimiterPreview?
    /// The loudness estimated while rendering when there is no target (for the report after a stop).
    private let plainEstimate: LoudnessEstimator?
    private var partMeters: [LoudnessMeter] = []
    private var samplePeak: Float = 0
    private var mixBuffer: [Float] = []
    private var partBuffer: [Float] = []
    private var isClosed = false

    /// Headroom under the true-peak ceiling, dB, for the sample peak of a mix mastered after a stop.
    public static let quickStopHeadroom = 1.0

    /// Synths a part with several channels is split over (its notes dealt in turn): 2, the
    /// cores of the machine this was tuned on. Fixed, so that a render is byte-identical on any number of cores.
    public static let synthsPerPart = 2

    /// Memory for the floats of the render, shared by its spools (the rest goes to scratch
    /// files): 512 MiB, 25 minutes of a stereo mix at 44.1 kHz.
    public static let spoolMemoryBytes: Int64 = 512 << 20

    /// Blocks of time (half a second each, as `AudioFileSink` asks) the synthesis threads
    /// may run ahead of the mixing thread: 4 blocks, 2 s, 0.7 MB of buffers per synth.
    static let pipelineDepth = 4

    /// The number of cores this process may use.
    public static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Loads one synth per part (more when parts are split, see above), checks the output
    /// paths and the free disk space for `expectedSeconds` of audio, and starts the threads.
    /// `spoolMemory` bytes of the render's floats are kept in memory, the rest in scratch files.
    /// - Throws: `SoundError` for the SoundFont, the settings, a stems directory that is
    ///   missing or not writable, too little disk space, or a file that cannot be created.
    public init(parts: [MixPart], configuration: SamplerConfiguration, mixPath: String, stemsDirectory: String?,
                format: AudioFileFormat, mastering: Mastering, expectedSeconds: Double,
                threads: Int = MixRenderer.coreCount, spoolMemory: Int64 = MixRenderer.spoolMemoryBytes) throws(SoundError) {
        try mastering.validate()
        precondition(!parts.isEmpty, "a mix needs at least one part")
        guard mastering.bitDepth.isSupported(by: format) else {
            throw .invalidConfiguration(field: "bitDepth", value: mastering.bitDepth.rawValue, accepted: "16 or 24 for FLAC")
        }
        self.parts = parts
        self.configuration = configuration
        self.mixPath = mixPath
        self.stemsDirectory = stemsDirectory
        self.format = format
        self.mastering = mastering
        self.rate = configuration.sampleRate
        self.foldsToMono = parts.allSatisfy { $0.channels.allSatisfy { $0.pan == 64 } }

        let (mixDirectory, _) = splitPath(mixPath)
        try Self.checkDirectory(mixDirectory, for: mixPath, isStems: false)
        if let stemsDirectory { try Self.checkDirectory(stemsDirectory, for: stemsDirectory, isStems: true) }

        // Synths: one per part; a part with several channels is split over
        // `synthsPerPart` synths, so that one busy part (the keys) still spreads over the
        // cores. The split never depends on the number of cores, so neither does the output.
        let threadLimit = max(1, threads)
        var channelMap = [Int](repeating: -1, count: 16)
        var units: [SynthUnit] = []
        var shardsOfPart: [[Int]] = []
        for (index, part) in parts.enumerated() {
            for channel in part.channels {
                precondition((0..<16).contains(channel.channel) && channelMap[channel.channel] == -1,
                             "MIDI channel \(channel.channel) is outside 0…15 or in two parts")
                channelMap[channel.channel] = index
            }
            let shards = part.channels.count > 1 ? Self.synthsPerPart : 1
            shardsOfPart.append(Array(units.count..<(units.count + shards)))
            for _ in 0..<shards {
                // Every synth plays the first one's SoundFont (loaded once; see `Sampler.init`).
                units.append(try SynthUnit(part: index, channels: part.channels, configuration: configuration,
                                           sharing: units.first?.sampler, slots: Self.pipelineDepth))
            }
        }
        self.shardsOfPart = shardsOfPart
        sumsThreeInOneLoop = !foldsToMono && stemsDirectory == nil && shardsOfPart == [[0], [1, 2]]
        nextShard = [Int](repeating: 0, count: parts.count)
        // Disk space for the scratch files and the outputs (after the SoundFont, whose errors come first).
        let tracks = stemsDirectory == nil ? 1 : parts.count
        let frames = (expectedSeconds + configuration.tailDuration + 1) * configuration.sampleRate
        let bytesPerFrame = Double(2 * (format == .ogg ? 1 : mastering.bitDepth.bytesPerSample))
        let spoolMemory = max(0, spoolMemory) / Int64(tracks) / 4
        let scratchBytes = Double(tracks) * max(0, 8 * frames - 4 * Double(spoolMemory))
        var needs: [(String, Double)] = [(mixDirectory, scratchBytes + frames * bytesPerFrame)]
        if let stemsDirectory { needs.append((stemsDirectory, frames * bytesPerFrame * Double(parts.count))) }
        try Self.checkSpace(needs, path: mixPath)
        self.units = units
        self.partOfChannel = channelMap
        self.plainEstimate = mastering.loudness == nil ? LoudnessEstimator(sampleRate: configuration.sampleRate) : nil
        self.preview = mastering.loudness.map {
            LimiterPreview(sampleRate: configuration.sampleRate, target: $0,
                           ceiling: linear(mastering.truePeak - Mastering.limiterMargin), expectedSeconds: expectedSeconds)
        }
        if stemsDirectory != nil {
            for _ in parts { partMeters.append(try LoudnessMeter(sampleRate: rate, truePeak: false)) }
        }
        if let stemsDirectory {
            for part in parts {
                spools.append(try FloatSpool(directory: mixDirectory, label: "the \(part.name) stem",
                                             path: stemsDirectory + "/" + part.stemFileName(format), memoryCapacity: spoolMemory))
            }
        } else {
            spools.append(try FloatSpool(directory: mixDirectory, label: "the mix", path: mixPath, memoryCapacity: spoolMemory))
        }
        blockFrames = [Int](repeating: 0, count: Self.pipelineDepth)
        // One thread renders on the caller's thread (no thread at all).
        let threadCount = min(threadLimit, units.count)
        pipeline = SynthPipeline(units: units, threads: threadCount > 1 ? threadCount : 0, depth: Self.pipelineDepth)
    }

    deinit {
        abandon()
    }

    /// Queues a channel message. Messages must come in frame order, and none may be due
    /// before the frame of the last `render(toFrame:)`.
    public func send(_ event: MixEvent) {
        let part = partOfChannel[event.channel]
        precondition(part >= 0, "MIDI channel \(event.channel) belongs to no part")
        let shards = shardsOfPart[part]
        if shards.count == 1 {
            units[shards[0]].pending.append(event)
            return
        }
        switch event.kind {
        case .noteOn(let note, _):
            let slot = event.channel * 128 + note
            if holder[slot] < 0 {
                holder[slot] = shards[nextShard[part]]
                nextShard[part] = (nextShard[part] + 1) % shards.count
            }
            units[holder[slot]].pending.append(event)
        case .noteOff(let note):
            let slot = event.channel * 128 + note
            units[holder[slot] >= 0 ? holder[slot] : shards[0]].pending.append(event)
            holder[slot] = -1
        case .control:
            for shard in shards { units[shard].pending.append(event) }
        }
    }

    /// Issues the time up to `frame` (rounded up to a 64-frame block) to the synthesis
    /// threads as one block, and mixes and spools the blocks they have finished on this
    /// thread (waiting for the oldest when `pipelineDepth` blocks are outstanding).
    public func render(toFrame frame: Int64) throws(SoundError) {
        guard !isClosed else { throw .rendererClosed(path: mixPath) }
        let block = Int64(Sampler.blockSize)
        let end = (frame + block - 1) / block * block
        guard end > issuedEnd else { return }
        let depth = Self.pipelineDepth
        // The block's slot is free once the block `depth` before it is summed.
        while mixedBlocks <= issuedBlocks - depth { try mixNext(waiting: true) }
        let slot = issuedBlocks % depth
        for unit in units { unit.prepare(slot: slot, start: issuedEnd, end: end) }
        blockFrames[slot] = Int(end - issuedEnd)
        pipeline.issue()
        issuedBlocks += 1
        issuedEnd = end
        while mixedBlocks < issuedBlocks, try mixNext(waiting: false) {}
    }

    /// Sums and spools the oldest block not yet summed, if every synth has rendered it
    /// (waiting for them when `waiting`). Returns whether it did.
    @discardableResult
    private func mixNext(waiting: Bool) throws(SoundError) -> Bool {
        if waiting {
            pipeline.waitRendered(mixedBlocks)
        } else if !pipeline.isRendered(mixedBlocks) {
            return false
        }
        let slot = mixedBlocks % Self.pipelineDepth
        try mixDown(slot: slot, frames: blockFrames[slot])
        mixedBlocks += 1
        return true
    }

    /// Renders to `frame`, then masters and writes the mix and the stems.
    /// - Parameters:
    ///   - quickly: a stop was asked for (a signal): master in one pass, without the
    ///     limiter or the final measurement (see `master`), so stopping stays fast.
    ///   - interrupted: asked between chunks while mastering; when it turns true (a stop
    ///     asked for during mastering), the pass under way is dropped and the quick pass follows.
    /// - Returns: the loudness and true peak of the written mix.
    /// - Throws: `SoundError.writeFailed` (e.g. a full disk: no file is left behind).
    public func finish(atFrame frame: Int64, quickly: Bool = false, interrupted: () -> Bool = { false },
                       stage: (String) -> Void = { _ in }) throws(SoundError) -> MasteringReport {
        do {
            stage("rendering the sound's tail")
            try render(toFrame: frame)
            while mixedBlocks < issuedBlocks { try mixNext(waiting: true) }
            pipeline.shutDown()
            for spool in spools { try spool.flush() }
            let report = try master(quickly: quickly, interrupted: interrupted, stage: stage)
            isClosed = true
            return report
        } catch {
            abandon()
            throw error
        }
    }

    /// `value` with one decimal ("+3.2", "-1.0"), for the stage lines.
    static func tenths(_ value: Double, signed: Bool = false) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : signed ? "+" : ""
        return sign + "\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    /// Stops the threads; nothing is written. Idempotent.
    public func abandon() {
        guard !isClosed else { return }
        isClosed = true
        pipeline.shutDown()
    }

    // MARK: - Mixing

    /// Sums the synths of each part (in synth order) and the parts (in part order) for one
    /// block of time; spools it and feeds the loudness meter.
    private func mixDown(slot: Int, frames: Int) throws(SoundError) {
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
            if stemsDirectory == nil { try spools[0].append(mix) }
            preview?.add(mix)
            plainEstimate?.add(mix)
        }
    }

    /// The general sum of `mixDown`: each part into `partBuffer` (folded to mono if so; spooled
    /// and measured as a stem if so), then into `mixBuffer`; and the sample peak.
    private func sumParts(slot: Int, frames: Int) throws(SoundError) {
        let count = frames * 2
        for part in parts.indices {
            let members = units.filter { $0.part == part }
            partBuffer.withUnsafeMutableBufferPointer { partSum in
                members[0].buffers[slot].samples.withUnsafeBufferPointer { first in
                    for i in 0..<count { partSum[i] = first[i] }
                }
                for member in members.dropFirst() {
                    member.buffers[slot].samples.withUnsafeBufferPointer { other in
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
            if stemsDirectory != nil {
                try partBuffer.withUnsafeBufferPointer { (all) throws(SoundError) in
                    let slice = UnsafeBufferPointer(rebasing: all[0..<count])
                    try spools[part].append(slice)
                    partMeters[part].add(slice)
                }
            }
        }
        var peak = samplePeak
        for value in mixBuffer[0..<count] { peak = max(peak, abs(value)) }
        samplePeak = peak
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

    // MARK: - Mastering

    /// Largest distance (LU) between the written mix's measured loudness and the target
    /// that is accepted without writing the mix again.
    public static let loudnessTolerance = 0.1
    /// Most passes that write the mastered files (each reads the spool once).
    public static let masteringPasses = 3
    /// Chunks (65536 frames each) a mastering pass's helpers may be behind its reading thread.
    static let passSlots = 4
    /// The first correction assumes this much loudness per dB of gain (see `master`).
    static let limitedLoudnessSlope = 0.8

    /// Masters and writes the files.
    ///
    /// With a loudness target: the gain is the one the `LimiterPreview` expects (the target
    /// minus the loudness estimated while rendering, plus the limiter's previewed loss); one
    /// pass applies it and the limiter, writes every file and measures the mix (libebur128). The limiter lowers the loudness a little where it acts; when the
    /// measured loudness misses the target by more than `loudnessTolerance`, the files are
    /// written again with the gain corrected by the miss divided by the loudness gained per
    /// dB of gain (`limitedLoudnessSlope` at first, then the slope between the last two
    /// passes: more gain means a little more limiting), at most `masteringPasses` times.
    /// When the limiter does not act, the loudness follows the gain exactly (slope 1).
    ///
    /// After a stop (`quickly`, or `interrupted()` turning true during a pass) there is no
    /// time for the limiter: one static gain brings the loudness estimated while rendering to
    /// the target, lowered if needed so the sample peak stays `quickStopHeadroom` dB under
    /// the ceiling (inter-sample peaks rarely exceed sample peaks by more); the report then
    /// gives the expected loudness and the sample peak after the gain, not a measurement.
    private func master(quickly: Bool, interrupted: () -> Bool, stage: (String) -> Void) throws(SoundError) -> MasteringReport {
        let measured = (preview?.unlimited ?? plainEstimate)?.integratedLoudness ?? -.infinity
        if !quickly {
            var gain = 0.0
            var ceiling: Double?
            if mastering.loudness != nil {
                gain = preview?.expectedGain ?? 0
                ceiling = linear(mastering.truePeak - Mastering.limiterMargin)
            }
            var previous: (gain: Double, loudness: Double)?
            for pass in 1...Self.masteringPasses {
                stage("mastering, pass \(pass): gain \(Self.tenths(gain, signed: true)) dB"
                      + (ceiling == nil ? "" : ", limited to \(Self.tenths(mastering.truePeak)) dBTP") + ", writing the files")
                let writers = try openWriters()
                let result: PassResult?
                do {
                    result = try process(gain: gain, ceiling: ceiling, writers: writers, interrupted: interrupted)
                } catch {
                    for writer in writers { writer.abandon() }
                    throw error
                }
                guard let result else {
                    for writer in writers { writer.abandon() }
                    break
                }
                let miss = (mastering.loudness ?? result.loudness) - result.loudness
                // Loudness gained per dB of gain: below 1 where the limiter acts (0.70–0.92
                // measured on the bundled presets); from the last two passes once there are two.
                var slope = Self.limitedLoudnessSlope
                if result.smallestGain >= 1 {
                    slope = 1   // nothing was limited: loudness follows the gain exactly
                } else if let previous, gain != previous.gain {
                    slope = min(1, max(0.5, (result.loudness - previous.loudness) / (gain - previous.gain)))
                }
                previous = (gain, result.loudness)
                let corrected = min(Mastering.maximumGain, gain + miss / slope)
                if pass == Self.masteringPasses || !miss.isFinite || abs(miss) <= Self.loudnessTolerance
                    || corrected == gain {
                    try commit(writers)
                    return MasteringReport(loudness: result.loudness, truePeak: result.truePeak, gain: gain,
                                           limiting: result.smallestGain < 1 ? 20 * log10(result.smallestGain) : 0,
                                           partLoudness: partMeters.map(\.integratedLoudness), passes: pass)
                }
                for writer in writers { writer.abandon() }
                gain = corrected
            }
        }
        // The quick pass.
        stage("mastering quickly after the stop: one static gain")
        var gain = 0.0
        if let target = mastering.loudness, measured.isFinite {
            gain = min(Mastering.maximumGain, target - measured)
            if samplePeak > 0 {
                gain = min(gain, mastering.truePeak - Self.quickStopHeadroom - 20 * log10(Double(samplePeak)))
            }
        }
        let writers = try openWriters()
        do {
            try writeScaled(gain: gain, writers: writers)
        } catch {
            for writer in writers { writer.abandon() }
            throw error
        }
        try commit(writers)
        return MasteringReport(loudness: measured.isFinite ? measured + gain : -.infinity,
                               truePeak: samplePeak > 0 ? 20 * log10(Double(samplePeak)) + gain : -.infinity,
                               gain: gain, limiting: 0, partLoudness: partMeters.map(\.integratedLoudness), passes: 0)
    }

    /// Opens the mix's writer, then one per stem (part order); on failure closes those opened.
    private func openWriters() throws(SoundError) -> [SoundFileWriter] {
        var writers: [SoundFileWriter] = []
        do throws(SoundError) {
            writers.append(try SoundFileWriter(path: mixPath, format: format, bitDepth: mastering.bitDepth,
                                               sampleRate: rate, ditherSeed: 1))
            if let stemsDirectory {
                for (index, part) in parts.enumerated() {
                    writers.append(try SoundFileWriter(path: stemsDirectory + "/" + part.stemFileName(format), format: format,
                                                       bitDepth: mastering.bitDepth, sampleRate: rate, ditherSeed: UInt64(2 + index)))
                }
            }
        } catch {
            for writer in writers { writer.abandon() }
            throw error
        }
        return writers
    }

    /// Closes every writer, then renames every file into place; on failure removes them all.
    private func commit(_ writers: [SoundFileWriter]) throws(SoundError) {
        do throws(SoundError) {
            for writer in writers { try writer.close() }
            for writer in writers { try writer.commit() }
        } catch {
            for writer in writers { writer.abandon() }
            throw error
        }
    }

    /// The quick pass after a stop: reads the spool(s) back, applies `gain` dB and writes (mix
    /// first, then one file per part), with no limiter and no measurement.
    private func writeScaled(gain decibels: Double, writers: [SoundFileWriter]) throws(SoundError) {
        let gain = Float(linear(decibels))
        let tracks = spools.count
        let chunk = 65_536
        var input = [[Float]](repeating: [Float](repeating: 0, count: chunk), count: tracks)
        var mix = [Float](repeating: 0, count: chunk)
        var position: Int64 = 0
        while true {
            var count = 0
            for track in 0..<tracks {
                count = try input[track].withUnsafeMutableBufferPointer { (buffer) throws(SoundError) in
                    try spools[track].read(at: position, into: buffer)
                }
            }
            if count == 0 { break }
            position += Int64(count)
            try mix.withUnsafeMutableBufferPointer { (sum) throws(SoundError) in
                for index in 0..<count { sum[index] = 0 }
                for track in 0..<tracks {
                    try input[track].withUnsafeMutableBufferPointer { (samples) throws(SoundError) in
                        for index in 0..<count {
                            sum[index] += samples[index]
                            samples[index] *= gain
                        }
                        if writers.count > 1 { try writers[track + 1].write(UnsafeBufferPointer(rebasing: samples[0..<count])) }
                    }
                }
                for index in 0..<count { sum[index] *= gain }
                try writers[0].write(UnsafeBufferPointer(rebasing: sum[0..<count]))
            }
        }
    }

    /// What one mastering pass measured on the mix it wrote.
    private struct PassResult {
        /// Integrated loudness, LUFS (libebur128).
        var loudness: Double
        /// True peak, dBTP (libebur128's, see `TruePeakMeter`).
        var truePeak: Double
        /// The limiter's smallest gain (1 = it never acted).
        var smallestGain: Double
    }

    /// Reads the spool(s) back, applies `gain` dB and the limiter, writes the result to
    /// `writers` (mix first, then one per part) and measures the mix with libebur128.
    /// Returns nil, having stopped part way, when `interrupted()` turns true.
    private func process(gain decibels: Double, ceiling: Double?, writers: [SoundFileWriter],
                         interrupted: () -> Bool) throws(SoundError) -> PassResult? {
        let gain = Float(linear(decibels))
        let limiter = ceiling.map { TruePeakLimiter(ceiling: $0 / Double(gain), sampleRate: rate) }
        let delay = limiter?.delay ?? 0
        // Three stages overlap: this thread reads the spool, limits and scales the chunks;
        // one helper measures their loudness, the other writes the files, then measures the
        // true peak, each at its own pace (up to `passSlots` chunks behind this thread).
        let meter = try LoudnessMeter(sampleRate: rate, truePeak: false)
        let peakMeter = try TruePeakMeter(sampleRate: rate)
        let tracks = spools.count
        let chunk = 65_536
        var input = [[Float]](repeating: [Float](repeating: 0, count: chunk * 2), count: tracks)
        var mix = [Float](repeating: 0, count: chunk * 2)
        var chunkGains = [Float](repeating: 1, count: chunk)
        // Frames waiting for their gain: the mix, then each stem (when stems are spooled).
        let pendingTracks = stemsDirectory == nil ? 1 : tracks + 1
        var pending = [[Float]](repeating: [], count: pendingTracks)
        var gains: [Float] = []
        let stage = PassStage(tracks: pendingTracks, slots: Self.passSlots)
        // 600 s of `default`: loudness 0.5 s of CPU; writing 0.25 s and the true peak
        // 0.05 s; this thread's part 0.35 s.
        let helpers = OrderedStages(slots: Self.passSlots, consumers: [
            { slot in stage.chunks[slot][0].withFilled { meter.add($0) } },
            { slot in
                // With stems, writers and buffers are both [mix, stem 0, stem 1, …].
                stage.write(slot, to: writers)
                stage.chunks[slot][0].withFilled { peakMeter.add($0) }
            },
        ])
        defer { helpers.shutDown() }
        var position: Int64 = 0
        var pushed = 0

        /// Passes on a write error.
        func check() throws(SoundError) {
            if let failure = stage.failure { throw failure }
        }

        func emit() throws(SoundError) {
            let ready = gains.count
            guard ready > 0 else { return }
            // The helpers may still read the other slots' buffers, never this one's.
            let slot = helpers.nextSlot()
            try check()
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
            helpers.publish()
        }

        func limit(_ frames: Int, silent: Bool) {
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

        while true {
            if interrupted() { return nil }
            var frames = 0
            for track in 0..<tracks {
                let count = try input[track].withUnsafeMutableBufferPointer { (buffer) throws(SoundError) in
                    try spools[track].read(at: position * 2, into: buffer)
                }
                frames = count / 2
            }
            if frames == 0 { break }
            position += Int64(frames)
            let count = frames * 2
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
            if stemsDirectory != nil {
                for track in 0..<tracks { pending[track + 1].append(contentsOf: input[track][0..<count]) }
            }
            limit(frames, silent: false)
            try emit()
        }
        if limiter != nil {
            // Silence after the end lets the limiter say the gains of the last `delay` frames.
            var remaining = delay
            while remaining > 0 {
                let frames = min(chunk, remaining)
                limit(frames, silent: true)
                remaining -= frames
            }
            try emit()
        }
        helpers.drain()
        try check()
        return PassResult(loudness: meter.integratedLoudness, truePeak: peakMeter.truePeak, smallestGain: limiter?.smallestGain ?? 1)
    }

    // MARK: - Checks

    private static func checkDirectory(_ directory: String, for path: String, isStems: Bool) throws(SoundError) {
        var status = stat()
        guard PathBytes.withCString(directory, { stat($0, &status) }) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            if isStems { throw .stemsDirectoryUnusable(path: directory, reason: "it does not exist or is not a directory") }
            throw .outputDirectoryMissing(path: path)
        }
        guard PathBytes.withCString(directory, { access($0, W_OK | X_OK) }) == 0 else {
            if isStems { throw .stemsDirectoryUnusable(path: directory, reason: "it is not writable (\(errorText(errno)))") }
            throw .outputNotWritable(path: path, reason: "the directory \"\(directory)\" is not writable (\(errorText(errno)))")
        }
    }

    private static func checkSpace(_ needs: [(String, Double)], path: String) throws(SoundError) {
        var byDevice: [UInt64: (directory: String, bytes: Double, available: Double)] = [:]
        for (directory, bytes) in needs {
            var status = stat()
            var space = statvfs()
            guard PathBytes.withCString(directory, { stat($0, &status) == 0 && statvfs($0, &space) == 0 }) else { continue }
            let device = UInt64(status.st_dev)
            let available = Double(space.f_bavail) * Double(space.f_frsize)
            let entry = byDevice[device] ?? (directory, 0, available)
            byDevice[device] = (entry.directory, entry.bytes + bytes, available)
        }
        for entry in byDevice.values.sorted(by: { $0.directory < $1.directory }) where entry.bytes > entry.available {
            throw .insufficientSpace(directory: entry.directory, needed: Int64(entry.bytes), available: Int64(entry.available))
        }
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

/// Samples handed between threads: a synth's block, or a chunk of a mastering pass. An
/// object of its own, so that the thread filling one slot and the thread reading another
/// never touch the same array.
final class SampleBuffer: @unchecked Sendable {
    /// Grown as needed, never shrunk.
    var samples: [Float] = []
    /// Samples in use (a chunk of a mastering pass).
    var count = 0

    /// Calls `body` with the first `count` samples.
    func withFilled<E: Error>(_ body: (UnsafeBufferPointer<Float>) throws(E) -> Void) throws(E) {
        try samples.withUnsafeBufferPointer { (all) throws(E) in try body(UnsafeBufferPointer(rebasing: all[0..<count])) }
    }
}

/// One FluidSynth synth of a mix: some or all channels of one part.
final class SynthUnit: @unchecked Sendable {
    let part: Int
    let sampler: Sampler
    /// Events queued for the next block of time (mixing thread only).
    var pending: [MixEvent] = []
    /// One buffer per slot of the pipeline: a block rendered by a worker while older ones
    /// are mixed.
    let buffers: [SampleBuffer]
    /// Each slot's events and span of frames, set by `prepare` on the mixing thread before
    /// the block is issued, read by the worker that renders it (objects of their own, so
    /// the two threads never touch the same array).
    private let batches: [Batch]

    private final class Batch: @unchecked Sendable {
        var events: [MixEvent] = []
        var start: Int64 = 0
        var end: Int64 = 0
    }

    init(part: Int, channels: [PartChannel], configuration: SamplerConfiguration, sharing owner: Sampler?,
         slots: Int) throws(SoundError) {
        self.part = part
        sampler = try Sampler(configuration: configuration, sharing: owner)
        for channel in channels {
            sampler.select(channel: channel.channel, bank: channel.bank, program: channel.program)
            for controller in channel.placement + channel.controllers {
                sampler.controlChange(channel: channel.channel, controller: controller.number, value: controller.value)
            }
        }
        buffers = (0..<slots).map { _ in SampleBuffer() }
        batches = (0..<slots).map { _ in Batch() }
        pending.reserveCapacity(1024)
    }

    /// Takes the queued events for the block [start, end) into `slot` (on the mixing
    /// thread, while no worker uses that slot).
    func prepare(slot: Int, start: Int64, end: Int64) {
        let batch = batches[slot]
        swap(&batch.events, &pending)
        pending.removeAll(keepingCapacity: true)
        batch.start = start
        batch.end = end
        let count = Int(end - start) * 2
        // Grown, never shrunk: the blocks alternate between lengths (64-frame rounding), and a
        // fresh array each time cost a page fault per 4 KB.
        if buffers[slot].samples.count < count { buffers[slot].samples = [Float](repeating: 0, count: count) }
    }

    /// Renders the block in `slot` on a worker thread, each event at the first 64-frame
    /// boundary at or after its frame.
    func render(slot: Int) {
        let synth = sampler.synth
        let block = Int64(Sampler.blockSize)
        let batch = batches[slot]
        let start = batch.start, end = batch.end
        var position = start
        buffers[slot].samples.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            // One call per stretch between events (FluidSynth still renders 64 frames at a
            // time inside it, so the samples are those of 64-frame calls): each call also
            // reads the clock twice and takes the synth's lock.
            func render(to frame: Int64) {
                guard position < frame else { return }
                let offset = Int32((position - start) * 2)
                fluid_synth_write_float(synth, Int32(frame - position), base, offset, 2, base, offset + 1, 2)
                position = frame
            }
            for event in batch.events {
                render(to: min(end, (event.frame + block - 1) / block * block))
                switch event.kind {
                case let .noteOn(note, velocity): sampler.noteOn(channel: event.channel, note: note, velocity: velocity)
                case let .noteOff(note): sampler.noteOff(channel: event.channel, note: note)
                case let .control(controller, value):
                    sampler.controlChange(channel: event.channel, controller: controller, value: value)
                }
            }
            render(to: end)
        }
    }
}

