// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CFluidSynth
import MIDIWire

/// The synths of a mix and the threads that render them (the first stage of the audio
/// path: synth bank → `MixBus` → `MasteringPass`).
///
/// One FluidSynth synth per part, each with the whole effect chain of the configuration. A
/// part that plays several MIDI channels (the keys, one channel per key) is split over
/// `synthsPerPart` (2) synths, each set up with all its channels and the same effects
/// (mixing is linear, so their sum is the part): note-ons go to them in turn, a note struck
/// again while it sounds goes to the synth playing it (so FluidSynth ends the old voice as
/// it would in one synth), note-offs follow their note, and controllers go to all. Dealt in
/// turn, the notes load the synths evenly (measured on 600 s of `default`: 3.17 and 3.16 s
/// of CPU in the two keys synths, against 3.87 and 3.23 s when the keys were split by
/// channel; the render phase took 3.7–3.9 s instead of 5.0–5.1 s). The split never depends
/// on the number of cores, so neither does the output.
///
/// The threads (`SlotPipeline`, shared) render up to `pipelineDepth` blocks of time ahead of the
/// mixing thread and never wait for each other between blocks. Which thread renders which
/// block never changes a sample: every synth sees its own events in order.
final class SynthBank {
    /// The synths, part by part (a part's synths are neighbours).
    let units: [SynthUnit]
    /// The synths of each part (indices into `units`, in order).
    let shardsOfPart: [[Int]]

    private let partOfChannel: [Int]
    /// Which of a part's synths gets its next new note.
    private var nextShard: [Int]
    /// The synth playing each (channel × 128 + note) now, or −1.
    private var holder = [Int](repeating: -1, count: 16 * 128)
    private let pipeline: SlotPipeline
    /// The end of the time issued so far, frames.
    private var issuedEnd: Int64 = 0
    /// Blocks issued to the pipeline; frames of each slot's block.
    private(set) var issuedBlocks = 0
    private var blockFrames: [Int]

    /// Synths a part with several channels is split over (its notes dealt in turn): 2, the
    /// cores of the machine this was tuned on. Fixed, so that a render is byte-identical on any number of cores.
    static let synthsPerPart = 2

    /// Blocks of time (half a second each, as `AudioFileSink` asks) the synthesis threads
    /// may run ahead of the mixing thread: 4 blocks, 2 s, 0.7 MB of buffers per synth.
    static let pipelineDepth = 4

    /// Loads the synths of `parts` (the SoundFont once, shared by all) and starts at most
    /// `threads` threads (none for a single thread: the caller's thread renders).
    /// - Throws: `SoundError` for the SoundFont or the settings.
    init(parts: [MixPart], configuration: SamplerConfiguration, threads: Int) throws(SoundError) {
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
                units.append(try SynthUnit(channels: part.channels, configuration: configuration,
                                           sharing: units.first?.sampler, slots: Self.pipelineDepth))
            }
        }
        self.units = units
        self.shardsOfPart = shardsOfPart
        partOfChannel = channelMap
        nextShard = [Int](repeating: 0, count: parts.count)
        blockFrames = [Int](repeating: 0, count: Self.pipelineDepth)
        // One thread renders on the caller's thread (no thread at all).
        let threadCount = min(max(1, threads), units.count)
        pipeline = SlotPipeline(depth: Self.pipelineDepth, threads: .shared(threadCount), units: units.map { unit in { unit.render(slot: $0) } })
    }

    /// Queues a channel message for the synth that plays it. Messages must come in frame
    /// order, and none may be due before the end of the last block issued.
    func send(_ event: MixEvent) {
        let part = partOfChannel[event.channel]
        precondition(part >= 0, "MIDI channel \(event.channel) belongs to no part")
        let shards = shardsOfPart[part]
        if shards.count == 1 {
            units[shards[0]].pending.append(event)
            return
        }
        switch event.message.meaning {
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
        case .controlChange:
            for shard in shards { units[shard].pending.append(event) }
        case .other:
            break
        }
    }

    /// True when the time up to `frame` (rounded up to a 64-frame block) was issued already.
    func hasIssued(toFrame frame: Int64) -> Bool {
        Self.blockEnd(frame) <= issuedEnd
    }

    /// Issues the time up to `frame` (rounded up to a 64-frame block, which must be later
    /// than the time issued so far) to the threads as one block, with the messages queued so
    /// far. The caller must have summed the block `pipelineDepth` before it (its slot is reused).
    func issue(toFrame frame: Int64) {
        let end = Self.blockEnd(frame)
        precondition(end > issuedEnd, "the time up to frame \(frame) was issued already")
        let slot = issuedBlocks % Self.pipelineDepth
        for unit in units { unit.prepare(slot: slot, start: issuedEnd, end: end) }
        blockFrames[slot] = Int(end - issuedEnd)
        pipeline.issue()
        issuedBlocks += 1
        issuedEnd = end
    }

    /// `frame` rounded up to FluidSynth's 64-frame block.
    private static func blockEnd(_ frame: Int64) -> Int64 {
        let block = Int64(Sampler.blockSize)
        return (frame + block - 1) / block * block
    }

    /// The slot and length (frames) of block `block` once every synth has rendered it (waiting
    /// for them when `waiting`); nil when it is not rendered yet and `waiting` is false.
    func rendered(_ block: Int, waiting: Bool) -> (slot: Int, frames: Int)? {
        if waiting {
            pipeline.waitHandled(block)
        } else if !pipeline.isHandled(block) {
            return nil
        }
        let slot = block % Self.pipelineDepth
        return (slot, blockFrames[slot])
    }

    /// Stops and joins the threads. Idempotent.
    func shutDown() {
        pipeline.shutDown()
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

    init(channels: [PartChannel], configuration: SamplerConfiguration, sharing owner: Sampler?,
         slots: Int) throws(SoundError) {
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
                sampler.play(event.message)
            }
            render(to: end)
        }
    }
}

