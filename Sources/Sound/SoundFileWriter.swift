// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CSndfile
import FileOutput
import Vocabulary
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension BitDepth {
    /// Whether `format` can store this depth (FLAC has no floats; Ogg Vorbis has no bit depth
    /// and accepts every value, ignoring it).
    public func isSupported(by format: AudioFileFormat) -> Bool {
        !(format == .flac && self == .float32)
    }
}

/// Writes a stereo audio file through libsndfile, under a temporary name from `OutputFile`
/// (the one way to write a file: links followed, special files copied into); `commit()` puts
/// it in place, `abandon()` (or `deinit` without commit) removes it. Owns the `SNDFILE` handle.
final class SoundFileWriter {
    /// Where the finished file goes.
    let path: String
    /// The file being written.
    let temporaryPath: String
    private let output: OutputFile
    let format: AudioFileFormat
    let bitDepth: BitDepth
    /// `SNDFILE *`, owned; nil once closed.
    private var handle: OpaquePointer?
    private var isCommitted = false
    private var dither: TPDFDither
    private var shorts: [Int16] = []

    /// Opens the temporary file. `ditherSeed` picks the dither noise (16-bit only), so the
    /// same seed writes the same bytes.
    init(path: String, format: AudioFileFormat, bitDepth: BitDepth, sampleRate: Double, ditherSeed: UInt64) throws(SoundError) {
        guard !path.isEmpty, !path.hasSuffix("/") else {
            throw .outputNotWritable(path: path, reason: "the path does not name a file")
        }
        guard bitDepth.isSupported(by: format) else {
            throw .invalidConfiguration(field: "bitDepth", value: bitDepth.rawValue, accepted: "16 or 24 for FLAC")
        }
        let output = try Self.openOutput(path: path, descriptor: true)
        self.output = output
        self.path = path
        self.format = format
        self.bitDepth = bitDepth
        self.temporaryPath = PathBytes.string(output.writePath)
        self.dither = TPDFDither(seed: ditherSeed)

        var info = SF_INFO()
        info.samplerate = Int32(sampleRate.rounded())
        info.channels = 2
        let subtype: Int32
        switch bitDepth {
        case .int16: subtype = Int32(SF_FORMAT_PCM_16)
        case .int24: subtype = Int32(SF_FORMAT_PCM_24)
        case .float32: subtype = Int32(SF_FORMAT_FLOAT)
        }
        switch format {
        case .wav: info.format = Int32(SF_FORMAT_WAV) | subtype
        case .flac: info.format = Int32(SF_FORMAT_FLAC) | subtype
        case .ogg: info.format = Int32(SF_FORMAT_OGG) | Int32(SF_FORMAT_VORBIS)
        }
        // On the temporary's own descriptor when there is one: opened by name, libsndfile would
        // truncate the (empty) temporary, and ext4 then writes the whole file back to disk
        // while `close` waits (0.1 s for 600 s of audio), to protect files rewritten in place.
        let opened: OpaquePointer?
        if let descriptor = output.descriptor {
            opened = sf_open_fd(descriptor.rawValue, Int32(SFM_WRITE), &info, Int32(SF_FALSE))
        } else {
            opened = PathBytes.withCString(temporaryPath) { sf_open($0, Int32(SFM_WRITE), &info) }
        }
        guard let opened else {
            let reason = String(cString: sf_strerror(nil))
            let code = sf_error(nil)
            let onDescriptor = output.descriptor != nil
            output.abandon()
            // The temporary exists (it was just created): a system error here is the header's
            // write failing, e.g. a disk that filled since the session started.
            if onDescriptor && code == Int32(SF_ERR_SYSTEM) {
                throw .writeFailed(path: path, reason: "its header could not be written (\(reason))")
            }
            throw .openFailed(path: temporaryPath, format: format.rawValue, messages: [reason])
        }
        handle = opened
        // A float WAV's PEAK chunk carries the time of writing: leave it out so runs are byte-identical.
        sf_command(opened, Int32(SFC_SET_ADD_PEAK_CHUNK), nil, Int32(SF_FALSE))
        if format == .ogg {
            sf_command(opened, Int32(SFC_SET_NORM_FLOAT), nil, Int32(SF_TRUE))
        }
        // Floats beyond full scale are clipped when libsndfile converts them to integers (else they wrap).
        sf_command(opened, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
    }

    /// Creates the temporary for `path` the way every sound file is written, a failure told
    /// as the `SoundError` for a missing directory or an unwritable path. By name (FluidSynth
    /// opens it itself), or with the temporary's descriptor open when `descriptor` is true and
    /// the target is a regular file (a special file, which cannot seek, still goes by name
    /// through a scratch file).
    static func openOutput(path: String, descriptor: Bool = false) throws(SoundError) -> OutputFile {
        do {
            let target = try OutputTarget(path: path)
            return try OutputFile(target: target, byName: !descriptor || target.isSpecial)
        } catch {
            if case .cannotCreate = error, FileIdentity(path: PathName.directory(of: path)) == nil {
                throw .outputDirectoryMissing(path: path)
            }
            throw .outputNotWritable(path: path, reason: error.reason)
        }
    }

    deinit {
        if !isCommitted { abandon() }
    }

    /// Appends interleaved stereo frames (full scale ±1), converting to the file's depth.
    func write(_ samples: UnsafeBufferPointer<Float>) throws(SoundError) {
        guard let handle else { throw .rendererClosed(path: path) }
        let frames = samples.count / 2
        guard frames > 0 else { return }
        let written: Int64
        if format == .ogg || bitDepth == .float32 {
            written = sf_writef_float(handle, samples.baseAddress, Int64(frames))
        } else if bitDepth == .int16 {
            if shorts.count < samples.count { shorts = [Int16](repeating: 0, count: samples.count) }
            shorts.withUnsafeMutableBufferPointer { out in
                for frame in 0..<frames {
                    let left = samples[2 * frame], right = samples[2 * frame + 1]
                    let leftNoise = dither.next()
                    // A mono frame gets one dither value on both sides, so mono stays exactly mono.
                    let rightNoise = left == right ? leftNoise : dither.next()
                    out[2 * frame] = Int16(min(32767, max(-32768, (Double(left) * 32767 + leftNoise).rounded())))
                    out[2 * frame + 1] = Int16(min(32767, max(-32768, (Double(right) * 32767 + rightNoise).rounded())))
                }
            }
            written = shorts.withUnsafeBufferPointer { sf_writef_short(handle, $0.baseAddress, Int64(frames)) }
        } else {
            // 24-bit: libsndfile converts (rounds, and clips: see SFC_SET_CLIPPING in init).
            written = sf_writef_float(handle, samples.baseAddress, Int64(frames))
        }
        if written != Int64(frames) {
            let reason = String(cString: sf_strerror(handle))
            abandon()
            throw .writeFailed(path: path, reason: "only \(written) of \(frames) frames could be written (\(reason))")
        }
    }

    /// Completes the file (libsndfile writes the final header) under its temporary name.
    func close() throws(SoundError) {
        guard let handle else { throw .rendererClosed(path: path) }
        let pending = sf_error(handle)
        let result = sf_close(handle)
        self.handle = nil
        if pending != 0 || result != 0 {
            let code = pending != 0 ? pending : result
            output.abandon()
            throw .writeFailed(path: path, reason: "closing the file failed (" + String(cString: sf_error_number(code)) + ")")
        }
    }

    /// Puts the closed temporary file in place.
    func commit() throws(SoundError) {
        do {
            try output.commit()
        } catch {
            if case .commitFailed(_, let reason) = error { throw .commitFailed(path: path, reason: reason) }
            throw .writeFailed(path: path, reason: error.reason)
        }
        isCommitted = true
    }

    /// Closes (if open) and removes the temporary file; `path` is left untouched.
    func abandon() {
        if let handle {
            sf_close(handle)
            self.handle = nil
        }
        if !isCommitted { output.abandon() }
    }
}

/// Triangular (TPDF) dither noise in units of one least significant bit: the sum of two
/// independent uniform values in [−0.5, 0.5), so −1…+1 LSB, from a seeded SplitMix64.
struct TPDFDither {
    private var state: UInt64

    init(seed: UInt64) { state = seed ^ 0x5DEE_CE66_D1CE_4E5B }

    private mutating func uniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) * 0x1.0p-53 - 0.5
    }

    mutating func next() -> Double { uniform() + uniform() }
}
