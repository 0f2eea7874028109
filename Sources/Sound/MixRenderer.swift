// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Renders a mix of parts offline and writes it as the mix file and, if asked, one stem
/// file per part. The audio path, one stage per file:
///
/// 1. `SynthBank`: one FluidSynth synth per part (two for a part with several channels),
///    each with the whole effect chain of `configuration`, rendered in parallel by
///    `SlotPipeline`'s threads up to a few blocks ahead of this thread.
/// 2. `MixBus`: sums the blocks in a fixed order (folding to mono when every channel is
///    centred), spools the floats and measures them as they pass.
/// 3. `MasteringPass`: reads the spool back, applies the loudness gain and the true-peak
///    limiter (`LimitingPass`), writes and measures the files.
///
/// Which thread renders which block never changes a sample (every synth sees its own events
/// in order, sums are taken in a fixed order), so the output is byte-identical run to run.
/// An event due at frame f sounds from the first 64-frame block boundary at or after f.
/// Before anything runs, the directories and the free disk space are checked (`DiskCheck`).
/// Files appear only when everything was written: each is written under a temporary name
/// and all are renamed at the end; any failure removes them all.
public final class MixRenderer {
    /// Synthesizer settings shared by every part's synth.
    public let configuration: SamplerConfiguration
    /// Where the mix goes.
    private let mixPath: String

    private let bank: SynthBank
    private let bus: MixBus
    private let masteringPass: MasteringPass
    /// Blocks summed by the bus.
    private var mixedBlocks = 0
    private var isClosed = false

    /// Memory for the floats of the render, shared by its spools (the rest goes to scratch
    /// files): 512 MiB, 25 minutes of a stereo mix at 44.1 kHz.
    public static let spoolMemoryBytes: Int64 = 512 << 20

    /// The number of cores this process may use.
    public static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Loads the synths (`SynthBank`), checks the output paths and the free disk space for
    /// `expectedSeconds` of audio, and starts the threads (at most `threads`, never more than
    /// the synths). `spoolMemory` bytes of the render's floats are kept in memory, the rest in
    /// scratch files beside the mix.
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
        self.configuration = configuration
        self.mixPath = mixPath
        let mixDirectory = PathName.directory(of: mixPath)
        try Self.checkDirectory(mixDirectory, for: mixPath, isStems: false)
        if let stemsDirectory { try Self.checkDirectory(stemsDirectory, for: stemsDirectory, isStems: true) }
        let stemPaths = stemsDirectory.map { directory in parts.map { directory + "/" + $0.stemFileName(format) } }
        bank = try SynthBank(parts: parts, configuration: configuration, threads: threads)
        do throws(SoundError) {
            // Disk space for the scratch files and the outputs (after the SoundFont, whose errors come first).
            let floatsInMemoryPerTrack = try Self.checkSpace(seconds: expectedSeconds, configuration: configuration, format: format,
                                                     mastering: mastering, mixDirectory: mixDirectory,
                                                     stemsDirectory: stemsDirectory, parts: parts.count, spoolMemory: spoolMemory)
            bus = try MixBus(bank: bank, parts: parts, mixPath: mixPath, stemPaths: stemPaths, scratchDirectory: mixDirectory,
                             floatsInMemoryPerTrack: floatsInMemoryPerTrack, sampleRate: configuration.sampleRate, mastering: mastering,
                             expectedSeconds: expectedSeconds)
        } catch {
            bank.shutDown()
            throw error
        }
        masteringPass = MasteringPass(bus: bus, mastering: mastering, sampleRate: configuration.sampleRate,
                                      mixPath: mixPath, stemPaths: stemPaths, format: format)
    }

    deinit {
        abandon()
    }

    /// Queues a channel message. Messages must come in frame order, and none may be due
    /// before the frame of the last `render(toFrame:)`.
    public func send(_ event: MixEvent) {
        bank.send(event)
    }

    /// Issues the time up to `frame` (rounded up to a 64-frame block) to the synthesis
    /// threads as one block, and mixes and spools the blocks they have finished on this
    /// thread (waiting for the oldest when `SynthBank.pipelineDepth` blocks are outstanding).
    public func render(toFrame frame: Int64) throws(SoundError) {
        guard !isClosed else { throw .rendererClosed(path: mixPath) }
        guard !bank.hasIssued(toFrame: frame) else { return }
        // The block's slot is free once the block `depth` before it is summed.
        while mixedBlocks <= bank.issuedBlocks - SynthBank.pipelineDepth { try mixNext(waiting: true) }
        bank.issue(toFrame: frame)
        while mixedBlocks < bank.issuedBlocks, try mixNext(waiting: false) {}
    }

    /// Sums and spools the oldest block not yet summed, if every synth has rendered it
    /// (waiting for them when `waiting`). Returns whether it did.
    @discardableResult
    private func mixNext(waiting: Bool) throws(SoundError) -> Bool {
        guard let block = bank.rendered(mixedBlocks, waiting: waiting) else { return false }
        try bus.mixDown(slot: block.slot, frames: block.frames)
        mixedBlocks += 1
        return true
    }

    /// Renders to `frame`, then masters and writes the mix and the stems (`MasteringPass`).
    /// - Parameters:
    ///   - quickly: a stop was asked for (a signal): master in one pass, without the
    ///     limiter or the final measurement, so stopping stays fast.
    ///   - interrupted: asked between chunks while mastering; when it turns true (a stop
    ///     asked for during mastering), the pass under way is dropped and the quick pass follows.
    /// - Returns: the loudness and true peak of the written mix.
    /// - Throws: `SoundError.writeFailed` (e.g. a full disk: no file is left behind).
    public func finish(atFrame frame: Int64, quickly: Bool = false, interrupted: () -> Bool = { false },
                       stage: (String) -> Void = { _ in }) throws(SoundError) -> MasteringReport {
        do {
            stage("rendering the sound's tail")
            try render(toFrame: frame)
            while mixedBlocks < bank.issuedBlocks { try mixNext(waiting: true) }
            bank.shutDown()
            try bus.flush()
            let report = try masteringPass.run(quickly: quickly, interrupted: interrupted, stage: stage)
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
        bank.shutDown()
    }

    // MARK: - Checks

    private static func checkDirectory(_ directory: String, for path: String, isStems: Bool) throws(SoundError) {
        switch DiskCheck.problem(directory: directory) {
        case nil:
            return
        case .missing:
            if isStems { throw .stemsDirectoryUnusable(path: directory, reason: "it does not exist or is not a directory") }
            throw .outputDirectoryMissing(path: path)
        case .notWritable(let reason):
            if isStems { throw .stemsDirectoryUnusable(path: directory, reason: "it is not writable (\(reason))") }
            throw .outputNotWritable(path: path, reason: "the directory \"\(directory)\" is not writable (\(reason))")
        }
    }

    /// Checks that the scratch files and the outputs of `seconds` of audio (plus the tail) fit
    /// on their file systems. Returns the floats each spooled track keeps in memory.
    private static func checkSpace(seconds: Double, configuration: SamplerConfiguration, format: AudioFileFormat,
                                   mastering: Mastering, mixDirectory: String, stemsDirectory: String?, parts: Int,
                                   spoolMemory: Int64) throws(SoundError) -> Int64 {
        let tracks = stemsDirectory == nil ? 1 : parts
        let frames = (seconds + configuration.tailDuration + 1) * configuration.sampleRate
        let bytesPerFrame = Double(2 * (format == .ogg ? 1 : mastering.bitDepth.bytesPerSample))
        let floatsInMemoryPerTrack = max(0, spoolMemory) / Int64(tracks) / 4
        let scratchBytes = Double(tracks) * max(0, 8 * frames - 4 * Double(floatsInMemoryPerTrack))
        var needs: [(directory: String, bytes: Double)] = [(mixDirectory, scratchBytes + frames * bytesPerFrame)]
        if let stemsDirectory { needs.append((stemsDirectory, frames * bytesPerFrame * Double(parts))) }
        if let short = DiskCheck.shortfall(needs) {
            throw .insufficientSpace(directory: short.directory, needed: short.needed, available: short.available)
        }
        return floatsInMemoryPerTrack
    }
}
