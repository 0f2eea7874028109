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
///   never more than the synths). A part that plays several MIDI channels is split by
///   channel over `synthsPerPart` (2) synths (each with the same effects: mixing is linear,
///   so their sum is the part), so a busy part still uses two cores. When there are more
///   synths than threads, a free thread takes the next synth not yet rendered for the
///   current half second, so the work spreads over the cores. Which thread renders which
///   synth never changes a sample: every synth sees its own events in order, and sums are
///   taken in a fixed order, so the output is byte-identical run to run.
/// - Timing: an event due at frame f sounds from the first 64-frame block boundary at or
///   after f, as with `AudioFileRenderer`.
/// - Mastering is two-pass: the rendered float samples are spooled to an unlinked scratch
///   file beside the mix (one track, or one per part with stems: 8 bytes per frame per
///   track, 30.5 GB per track for 24 h at 44.1 kHz), measured with libebur128 while
///   rendering, then read back: to estimate how much the limiter lowers the loudness (only
///   when it has work to do; again while the correction exceeds 1 dB, at most three times), and once to write
///   the files. Free disk space is checked up front.
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
    public var threadCount: Int { pool.threadCount }
    /// Synthesizers in use (at least one per part).
    public var synthCount: Int { units.count }
    /// True when every part's channels are centred: the mix and the stems are folded to mono.
    public let foldsToMono: Bool

    private let units: [SynthUnit]
    private let unitOfChannel: [Int]
    private let pool: WorkerPool
    private let rate: Double
    private var issuedEnd: Int64 = 0
    private var inFlight: (parity: Int, frames: Int)?
    private var parity = 0
    private var spools: [FloatSpool] = []
    private let meter: LoudnessMeter
    private var partMeters: [LoudnessMeter] = []
    private var samplePeak: Float = 0
    private var mixBuffer: [Float] = []
    private var partBuffer: [Float] = []
    private var isClosed = false

    /// Headroom under the true-peak ceiling, dB, for the sample peak of a mix mastered after a stop.
    public static let quickStopHeadroom = 1.0

    /// Most synths one part is split over (by channel): 2, the cores of the machine this was
    /// tuned on. Fixed, so that a render is byte-identical on any number of cores.
    public static let synthsPerPart = 2

    /// The number of cores this process may use.
    public static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Loads one synth per part (more when parts are split, see above), checks the output
    /// paths and the free disk space for `expectedSeconds` of audio, and starts the threads.
    /// - Throws: `SoundError` for the SoundFont, the settings, a stems directory that is
    ///   missing or not writable, too little disk space, or a file that cannot be created.
    public init(parts: [MixPart], configuration: SamplerConfiguration, mixPath: String, stemsDirectory: String?,
                format: AudioFileFormat, mastering: Mastering, expectedSeconds: Double,
                threads: Int = MixRenderer.coreCount) throws(SoundError) {
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

        // Synths: one per part; a part with several channels is split over up to
        // `synthsPerPart` synths, so that one busy part (the keys) still spreads over the
        // cores. The split never depends on the number of cores, so neither does the output.
        let threadLimit = max(1, threads)
        var plan: [(part: Int, channels: [PartChannel])] = []
        for (index, part) in parts.enumerated() {
            let shards = min(part.channels.count, Self.synthsPerPart)
            for shard in 0..<shards {
                plan.append((index, part.channels.enumerated().filter { $0.offset % shards == shard }.map(\.element)))
            }
        }
        var channelMap = [Int](repeating: -1, count: 16)
        var units: [SynthUnit] = []
        for (unitIndex, entry) in plan.enumerated() {
            for channel in entry.channels {
                precondition((0..<16).contains(channel.channel) && channelMap[channel.channel] == -1,
                             "MIDI channel \(channel.channel) is outside 0…15 or in two parts")
                channelMap[channel.channel] = unitIndex
            }
            // Every synth plays the first one's SoundFont (loaded once; see `Sampler.init`).
            units.append(try SynthUnit(part: entry.part, channels: entry.channels, configuration: configuration,
                                       sharing: units.first?.sampler))
        }
        // Disk space for the scratch files and the outputs (after the SoundFont, whose errors come first).
        let tracks = stemsDirectory == nil ? 1 : parts.count
        let frames = (expectedSeconds + configuration.tailDuration + 1) * configuration.sampleRate
        let bytesPerFrame = Double(2 * (format == .ogg ? 1 : mastering.bitDepth.bytesPerSample))
        var needs: [(String, Double)] = [(mixDirectory, frames * (8 * Double(tracks) + bytesPerFrame))]
        if let stemsDirectory { needs.append((stemsDirectory, frames * bytesPerFrame * Double(parts.count))) }
        try Self.checkSpace(needs, path: mixPath)
        self.units = units
        self.unitOfChannel = channelMap
        self.meter = try LoudnessMeter(sampleRate: rate, truePeak: false)
        if stemsDirectory != nil {
            for _ in parts { partMeters.append(try LoudnessMeter(sampleRate: rate, truePeak: false)) }
        }
        if let stemsDirectory {
            for part in parts {
                spools.append(try FloatSpool(directory: mixDirectory, label: "the \(part.name) stem",
                                             path: stemsDirectory + "/" + part.stemFileName(format)))
            }
        } else {
            spools.append(try FloatSpool(directory: mixDirectory, label: "the mix", path: mixPath))
        }
        pool = WorkerPool(threads: min(threadLimit, units.count))
    }

    deinit {
        abandon()
    }

    /// Queues a channel message. Messages must come in frame order, and none may be due
    /// before the frame of the last `render(toFrame:)`.
    public func send(_ event: MixEvent) {
        let unit = unitOfChannel[event.channel]
        precondition(unit >= 0, "MIDI channel \(event.channel) belongs to no part")
        units[unit].pending.append(event)
    }

    /// Renders every synth up to `frame` (rounded up to a 64-frame block) on the worker
    /// threads, and meanwhile mixes and spools the previous block of time on this thread.
    public func render(toFrame frame: Int64) throws(SoundError) {
        guard !isClosed else { throw .rendererClosed(path: mixPath) }
        let block = Int64(Sampler.blockSize)
        let end = (frame + block - 1) / block * block
        guard end > issuedEnd else { return }
        pool.wait()
        let previous = inFlight
        let frames = Int(end - issuedEnd)
        let current = parity
        for unit in units { unit.prepare(start: issuedEnd, end: end, parity: current) }
        let units = self.units
        pool.start(jobs: units.count) { index in units[index].renderBatch() }
        inFlight = (current, frames)
        issuedEnd = end
        parity ^= 1
        if let previous { try mixDown(parity: previous.parity, frames: previous.frames) }
    }

    /// Renders to `frame`, then masters and writes the mix and the stems.
    /// - Parameter quickly: a stop was asked for (a signal): master in one pass, without the
    ///   limiter or the final measurement (see `master`), so stopping stays fast.
    /// - Returns: the loudness and true peak of the written mix.
    /// - Throws: `SoundError.writeFailed` (e.g. a full disk: no file is left behind).
    public func finish(atFrame frame: Int64, quickly: Bool = false) throws(SoundError) -> MasteringReport {
        do {
            try render(toFrame: frame)
            pool.wait()
            if let last = inFlight { try mixDown(parity: last.parity, frames: last.frames) }
            inFlight = nil
            pool.shutDown()
            for spool in spools { try spool.flush() }
            let report = try master(quickly: quickly)
            isClosed = true
            return report
        } catch {
            abandon()
            throw error
        }
    }

    /// Stops the threads; nothing is written. Idempotent.
    public func abandon() {
        guard !isClosed else { return }
        isClosed = true
        pool.wait()
        pool.shutDown()
    }

    // MARK: - Mixing

    /// Sums the synths of each part (in synth order) and the parts (in part order) for one
    /// block of time; spools it and feeds the loudness meter.
    private func mixDown(parity: Int, frames: Int) throws(SoundError) {
        let count = frames * 2
        if mixBuffer.count < count { mixBuffer = [Float](repeating: 0, count: count) }
        if partBuffer.count < count { partBuffer = [Float](repeating: 0, count: count) }
        for part in parts.indices {
            let members = units.filter { $0.part == part }
            partBuffer.withUnsafeMutableBufferPointer { partSum in
                members[0].buffers[parity].withUnsafeBufferPointer { first in
                    for i in 0..<count { partSum[i] = first[i] }
                }
                for member in members.dropFirst() {
                    member.buffers[parity].withUnsafeBufferPointer { other in
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
        let isMixSpooled = stemsDirectory == nil
        var peak = samplePeak
        try mixBuffer.withUnsafeBufferPointer { (all) throws(SoundError) in
            let mix = UnsafeBufferPointer(rebasing: all[0..<count])
            if isMixSpooled { try spools[0].append(mix) }
            meter.add(mix)
            for value in mix { peak = max(peak, abs(value)) }
        }
        samplePeak = peak
    }

    // MARK: - Mastering

    /// After a stop (`quickly`) there is no time for the limiter and its analysis: one static
    /// gain brings the loudness measured while rendering to the target, lowered if needed so
    /// the sample peak stays `quickStopHeadroom` dB under the ceiling (inter-sample peaks
    /// rarely exceed sample peaks by more); the report then gives the expected loudness and
    /// the sample peak after the gain, not a measurement.
    private func master(quickly: Bool = false) throws(SoundError) -> MasteringReport {
        let measured = meter.integratedLoudness
        var gain = 0.0
        var ceiling: Double?
        if quickly {
            if let target = mastering.loudness, measured.isFinite {
                gain = min(Mastering.maximumGain, target - measured)
                if samplePeak > 0 {
                    gain = min(gain, mastering.truePeak - Self.quickStopHeadroom - 20 * log10(Double(samplePeak)))
                }
            }
        } else if let target = mastering.loudness {
            if measured.isFinite { gain = min(Mastering.maximumGain, target - measured) }
            ceiling = linear(mastering.truePeak - Mastering.limiterMargin)
            // The limiter lowers the loudness a little. When it will act, run it once without
            // writing and raise the gain by what it took from the loud (gated) part of the mix.
            // More gain means more limiting: when the first correction is large (over 1 dB),
            // measure again at the corrected gain (at most three analyses in all).
            if let ceiling, measured.isFinite, Double(samplePeak) * linear(gain) > ceiling / 2 {
                let base = gain
                for _ in 0..<3 {
                    let analysis = try process(gain: gain, ceiling: ceiling, writers: nil, unlimitedLoudness: measured)
                    let next = min(Mastering.maximumGain, base - analysis.loudnessChange)
                    let step = abs(next - gain)
                    gain = next
                    if step <= 1 { break }
                }
            }
        }
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
            var result = quickly ? (loudness: -Double.infinity, truePeak: -Double.infinity, smallestGain: 1.0, loudnessChange: 0.0)
                : try process(gain: gain, ceiling: ceiling, writers: writers)
            if quickly { try writeScaled(gain: gain, writers: writers) }
            for writer in writers { try writer.close() }
            for writer in writers { try writer.commit() }
            if quickly {
                result.loudness = measured + gain
                result.truePeak = samplePeak > 0 ? 20 * log10(Double(samplePeak)) + gain : -.infinity
            }
            return MasteringReport(loudness: result.loudness, truePeak: result.truePeak, gain: gain,
                                   limiting: result.smallestGain < 1 ? 20 * log10(result.smallestGain) : 0,
                                   partLoudness: partMeters.map(\.integratedLoudness))
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
                        if tracks > 1 { try writers[track + 1].write(UnsafeBufferPointer(rebasing: samples[0..<count])) }
                    }
                }
                for index in 0..<count { sum[index] *= gain }
                try writers[0].write(UnsafeBufferPointer(rebasing: sum[0..<count]))
            }
        }
    }

    /// Reads the spool(s) back, applies `gain` dB and the limiter and, with `writers` (mix
    /// first, then one per part), writes the result and measures it with libebur128.
    /// Without writers it only measures (libebur128, integrated) how much the limiter
    /// changes the loudness: limited loudness − (`unlimitedLoudness` + gain).
    private func process(gain decibels: Double, ceiling: Double?, writers: [SoundFileWriter]?, unlimitedLoudness: Double = -.infinity)
        throws(SoundError) -> (loudness: Double, truePeak: Double, smallestGain: Double, loudnessChange: Double) {
        let gain = Float(linear(decibels))
        let limiter = ceiling.map { TruePeakLimiter(ceiling: $0 / Double(gain), sampleRate: rate) }
        let delay = limiter?.delay ?? 0
        let finalMeter = writers == nil ? nil : try LoudnessMeter(sampleRate: rate, truePeak: true)
        let analysisMeter = writers == nil ? try LoudnessMeter(sampleRate: rate, truePeak: false) : nil
        // The final measurement (true peak: 4× oversampling) runs on a thread of its own,
        // one chunk behind, while this thread limits and writes.
        let meterThread = finalMeter == nil ? nil : WorkerPool(threads: 1)
        defer { meterThread?.wait(); meterThread?.shutDown() }
        let meterBuffers = MeterBuffers()
        let tracks = spools.count
        let chunk = 16_384
        var input = [[Float]](repeating: [Float](repeating: 0, count: chunk * 2), count: tracks)
        var mix = [Float](repeating: 0, count: chunk * 2)
        var chunkGains = [Float](repeating: 1, count: chunk)
        // Frames waiting for their gain: the mix, then each stem (when stems are spooled).
        let pendingTracks = tracks == 1 ? 1 : tracks + 1
        var pending = [[Float]](repeating: [], count: pendingTracks)
        var gains: [Float] = []
        var output = [Float](repeating: 0, count: (chunk + delay) * 2)
        var position: Int64 = 0
        var pushed = 0

        func emit() throws(SoundError) {
            let ready = gains.count
            guard ready > 0 else { return }
            if output.count < ready * 2 { output = [Float](repeating: 0, count: ready * 2) }
            for track in 0..<pendingTracks {
                pending[track].withUnsafeBufferPointer { samples in
                    gains.withUnsafeBufferPointer { g in
                        output.withUnsafeMutableBufferPointer { out in
                            for frame in 0..<ready {
                                let factor = gain * g[frame]
                                out[2 * frame] = samples[2 * frame] * factor
                                out[2 * frame + 1] = samples[2 * frame + 1] * factor
                            }
                        }
                    }
                }
                if let writers {
                    try output.withUnsafeBufferPointer { (all) throws(SoundError) in
                        let out = UnsafeBufferPointer(rebasing: all[0..<ready * 2])
                        if track == 0, let finalMeter, let meterThread {
                            meterThread.wait()
                            let buffer = meterBuffers.next(copying: out)
                            meterThread.start(jobs: 1) { _ in meterBuffers.measure(buffer, with: finalMeter) }
                        }
                        // With stems, writers and pending are both [mix, stem 0, stem 1, …].
                        try writers[track].write(out)
                    }
                } else if track == 0 {
                    output.withUnsafeBufferPointer { all in analysisMeter?.add(UnsafeBufferPointer(rebasing: all[0..<ready * 2])) }
                }
                if writers == nil { break }
                pending[track].removeFirst(ready * 2)
            }
            if writers == nil { pending[0].removeFirst(ready * 2) }
            gains.removeAll(keepingCapacity: true)
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
            if tracks > 1 && writers != nil {
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
        meterThread?.wait()
        var change = 0.0
        if let analysisMeter {
            let limited = analysisMeter.integratedLoudness
            if limited.isFinite, unlimitedLoudness.isFinite { change = limited - (unlimitedLoudness + decibels) }
        }
        return (finalMeter?.integratedLoudness ?? -.infinity, finalMeter?.truePeak ?? -.infinity,
                limiter?.smallestGain ?? 1, change)
    }

    // MARK: - Checks

    private static func checkDirectory(_ directory: String, for path: String, isStems: Bool) throws(SoundError) {
        var status = stat()
        guard stat(directory, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            if isStems { throw .stemsDirectoryUnusable(path: directory, reason: "it does not exist or is not a directory") }
            throw .outputDirectoryMissing(path: path)
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            if isStems { throw .stemsDirectoryUnusable(path: directory, reason: "it is not writable (\(errorText(errno)))") }
            throw .outputNotWritable(path: path, reason: "the directory \"\(directory)\" is not writable (\(errorText(errno)))")
        }
    }

    private static func checkSpace(_ needs: [(String, Double)], path: String) throws(SoundError) {
        var byDevice: [UInt64: (directory: String, bytes: Double, available: Double)] = [:]
        for (directory, bytes) in needs {
            var status = stat()
            var space = statvfs()
            guard stat(directory, &status) == 0, statvfs(directory, &space) == 0 else { continue }
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

/// Two alternating copies of mix chunks for the metering thread.
private final class MeterBuffers: @unchecked Sendable {
    private var buffers: [[Float]] = [[], []]
    private var current = 0

    /// Copies `samples` into the buffer not being measured; returns its index.
    func next(copying samples: UnsafeBufferPointer<Float>) -> Int {
        current ^= 1
        buffers[current].removeAll(keepingCapacity: true)
        buffers[current].append(contentsOf: samples)
        return current
    }

    func measure(_ index: Int, with meter: LoudnessMeter) {
        buffers[index].withUnsafeBufferPointer { meter.add($0) }
    }
}

/// One FluidSynth synth of a mix: some or all channels of one part.
final class SynthUnit: @unchecked Sendable {
    let part: Int
    let sampler: Sampler
    /// Events queued for the next block of time.
    var pending: [MixEvent] = []
    /// Two buffers, alternating between blocks: one rendered by a worker while the
    /// other is mixed.
    var buffers: [[Float]] = [[], []]
    private var batch: [MixEvent] = []
    private var start: Int64 = 0
    private var end: Int64 = 0
    private var parity = 0

    init(part: Int, channels: [PartChannel], configuration: SamplerConfiguration, sharing owner: Sampler?) throws(SoundError) {
        self.part = part
        sampler = try Sampler(configuration: configuration, sharing: owner)
        for channel in channels {
            sampler.select(channel: channel.channel, bank: channel.bank, program: channel.program)
            for controller in channel.placement + channel.controllers {
                sampler.controlChange(channel: channel.channel, controller: controller.number, value: controller.value)
            }
        }
        pending.reserveCapacity(1024)
        batch.reserveCapacity(1024)
    }

    /// Takes the queued events for the block [start, end) (called between blocks, on the mixing thread).
    func prepare(start: Int64, end: Int64, parity: Int) {
        swap(&batch, &pending)
        pending.removeAll(keepingCapacity: true)
        self.start = start
        self.end = end
        self.parity = parity
        let count = Int(end - start) * 2
        if buffers[parity].count != count { buffers[parity] = [Float](repeating: 0, count: count) }
    }

    /// Renders the block on a worker thread: 64 frames at a time, each event at the first
    /// block boundary at or after its frame.
    func renderBatch() {
        let synth = sampler.synth
        let block = Int64(Sampler.blockSize)
        let start = self.start
        var position = start
        buffers[parity].withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            func render(to frame: Int64) {
                while position < frame {
                    let offset = Int32((position - start) * 2)
                    fluid_synth_write_float(synth, Int32(block), base, offset, 2, base, offset + 1, 2)
                    position += block
                }
            }
            for event in batch {
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
        batch.removeAll(keepingCapacity: true)
    }
}
