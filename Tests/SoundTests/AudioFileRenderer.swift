// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CFluidSynth
import FileOutput
@testable import Sound
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the tests render a single sampler with (the sessions use `MixRenderer`, which
/// calls FluidSynth's `write_float` itself): renders a sampler's output into an audio file, offline: exactly as many frames as
/// asked for (rounded up to whole 64-frame blocks), as fast as the CPU allows, never
/// reading the wall clock.
///
/// The file is created the one way every output is (`OutputFile`): FluidSynth writes a
/// hidden temporary beside the target (links followed; for a special file such as a FIFO,
/// a scratch file copied into it at the end), renamed to `path` by `finish()`, so `path`
/// either holds a complete file or is untouched. `abandon()`, a write error and `deinit`
/// (without `finish()`) remove the temporary file.
///
/// Owns FluidSynth's file renderer handle and keeps the sampler alive, so the renderer
/// is deleted before the synth.
final class AudioFileRenderer {
    /// The sampler being rendered.
    let sampler: Sampler
    /// Where the finished file goes.
    let path: String
    /// The file's format (16-bit samples; Vorbis for Ogg).
    let format: AudioFileFormat
    /// Frames (per channel) written so far; always a multiple of 64.
    private(set) var framesRendered: Int64 = 0

    /// The temporary file being written.
    var temporaryPath: String { output.writePath.string }
    private let output: OutputFile
    /// `fluid_file_renderer_t *`, owned; nil once closed.
    private var handle: OpaquePointer?
    private var isClosed = false

    /// Opens a temporary file next to `path` and attaches the renderer to `sampler`.
    /// - Parameters:
    ///   - sampler: the sampler to render; it must not already feed another output.
    ///   - path: destination file; an existing file there is replaced by `finish()`.
    ///   - format: file format; see `AudioFileFormat(path:)` to take it from the extension.
    /// - Throws: `SoundError.outputDirectoryMissing` or `.outputNotWritable` for a bad
    ///   directory, `.outputInUse` if the sampler already has an output, `.openFailed`
    ///   if FluidSynth cannot open the file.
    init(sampler: Sampler, path: String, format: AudioFileFormat) throws(SoundError) {
        FluidLog.install()
        let output = try SoundFileWriter.openOutput(path: path)
        let temporary = PathBytes.string(output.writePath)
        try sampler.attachOutput("an audio file renderer for \"\(path)\"")

        let settings = sampler.settings
        let (created, messages) = FluidLog.capturing { () -> OpaquePointer? in
            _ = PathBytes.withCString(temporary) { fluid_settings_setstr(settings, "audio.file.name", $0) }
            fluid_settings_setstr(settings, "audio.file.type", format.fluidFileType)
            fluid_settings_setstr(settings, "audio.file.format", "s16")
            fluid_settings_setstr(settings, "audio.file.endian", "auto")
            fluid_settings_setint(settings, "audio.period-size", Int32(Sampler.blockSize))
            return new_fluid_file_renderer(sampler.synth)
        }
        guard let created else {
            output.abandon()
            sampler.detachOutput()
            throw .openFailed(path: temporary, format: format.rawValue, messages: messages)
        }
        self.sampler = sampler
        self.path = path
        self.format = format
        self.output = output
        self.handle = created
    }

    deinit {
        if !isClosed { abandon() }
    }

    /// Renders until `framesRendered >= frame`, in whole 64-frame blocks; does nothing
    /// if `frame` is not ahead. Events sent to the sampler after this call sound from
    /// frame `framesRendered` (the next block boundary).
    /// - Throws: `SoundError.writeFailed` if the file cannot be written (e.g. the disk is
    ///   full; the temporary file is then removed and the renderer closed),
    ///   `.rendererClosed` after `finish()`, `abandon()` or a failure.
    func render(toFrame frame: Int64) throws(SoundError) {
        guard let handle, !isClosed else { throw .rendererClosed(path: path) }
        guard frame > framesRendered else { return }
        let block = Int64(Sampler.blockSize)
        var rendered = framesRendered
        let (succeeded, messages) = FluidLog.capturing { () -> Bool in
            while rendered < frame {
                if fluid_file_renderer_process_block(handle) != FLUID_OK { return false }
                rendered += block
            }
            return true
        }
        framesRendered = rendered
        if !succeeded {
            abandon()
            throw .writeFailed(
                path: path,
                reason: "the block after frame \(rendered) could not be written ("
                    + Self.reason(messages, fallback: "FluidSynth's file renderer reported an error") + ")")
        }
    }

    /// Renders until `framesRendered` covers `seconds` of audio (see `render(toFrame:)`).
    func render(toSeconds seconds: Double) throws(SoundError) {
        try render(toFrame: Int64((seconds * sampler.configuration.sampleRate).rounded(.up)))
    }

    /// Closes the file (libsndfile writes the final header) and renames it to `path`. Frees the sampler for another output.
    /// - Throws: `SoundError.writeFailed` if closing, flushing or renaming fails (the
    ///   temporary file is removed), `.rendererClosed` if already closed.
    func finish() throws(SoundError) {
        guard let handle, !isClosed else { throw .rendererClosed(path: path) }
        let (_, messages) = FluidLog.capturing { delete_fluid_file_renderer(handle) }
        self.handle = nil
        if !messages.isEmpty {
            abandon()
            throw .writeFailed(path: path, reason: Self.reason(messages, fallback: "closing the file failed"))
        }
        do {
            try output.commit()
        } catch {
            if case .commitFailed(_, let reason) = error {
                abandon()
                throw .commitFailed(path: path, reason: reason)
            }
            abandon()
            throw .writeFailed(path: path, reason: error.reason)
        }
        isClosed = true
        sampler.detachOutput()
    }

    /// Stops rendering and removes the temporary file; `path` is left untouched.
    /// Frees the sampler for another output. Does nothing if already closed.
    func abandon() {
        guard !isClosed else { return }
        if let handle {
            _ = FluidLog.capturing { delete_fluid_file_renderer(handle) }
            self.handle = nil
        }
        output.abandon()
        isClosed = true
        sampler.detachOutput()
    }

    private static func reason(_ messages: [String], fallback: String) -> String {
        messages.isEmpty ? fallback : messages.joined(separator: "; ")
    }
}
