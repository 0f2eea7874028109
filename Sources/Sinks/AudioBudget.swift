// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import FileOutput
import Sound
import Text

/// The size of an audio render, estimated before it starts, so that a render that cannot
/// be stored is refused at once rather than after an hour (exit 73 with the estimate).
///
/// A stereo WAV is exactly 2 × bytes-per-sample a frame (6 at the default 24 bits) plus its header, and RIFF cannot
/// hold more than 4 GiB: past that (about 4.5 hours at 44.1 kHz and 24 bits) a WAV is refused, FLAC
/// or Ogg can take it. FLAC and Ogg sizes are not known in advance; only a lower bound is
/// checked (FLAC at least 1/8 of the PCM bytes, Ogg Vorbis 1/64), so only a render that
/// certainly cannot fit is refused.
package enum AudioBudget {
    /// Largest WAV, bytes (RIFF sizes are 32-bit).
    static let wavLimit = Int64(UInt32.max)

    /// Bytes a render of `seconds` at `rate` Hz needs at least, in `format`.
    static func minimumBytes(seconds: Double, rate: Double, format: AudioFileFormat, bytesPerSample: Int = 2) -> Int64 {
        let pcm = (seconds * rate).rounded(.up) * Double(2 * bytesPerSample) + 44
        switch format {
        case .wav: return Int64(min(pcm, 9e18))
        case .flac: return Int64(min(pcm / 8, 9e18))
        case .ogg: return Int64(min(pcm / 64, 9e18))
        }
    }

    /// - Throws: `SessionError.cannotCreate` when the render cannot be stored at `path`.
    package static func check(path: String, seconds: Double, rate: Double, bytesPerSample: Int = 2) throws(SessionError) {
        guard let format = AudioFileFormat(path: path), let target = try? OutputTarget(path: path) else { return }
        let bytes = minimumBytes(seconds: seconds, rate: rate, format: format, bytesPerSample: bytesPerSample)
        if format == .wav && bytes > wavLimit {
            throw .cannotCreate("--audio \(Quote.text(path)): \(Format.fixed(seconds, decimals: 0)) s at \(Format.plain(rate)) Hz is "
                + "\(gigabytes(bytes)) of WAV, past the format's 4 GiB limit; write .flac or .ogg, or shorten --duration")
        }
        guard !target.isSpecial else { return }
        if let short = DiskCheck.shortfall([(PathBytes.string(target.directory), Double(bytes))]) {
            throw .cannotCreate("--audio \(Quote.text(path)): the render needs \(format == .wav ? "" : "at least ")\(gigabytes(bytes)), "
                + "and only \(gigabytes(short.available)) is free there")
        }
    }

    private static func gigabytes(_ bytes: Int64) -> String {
        Format.fixed(Double(bytes) / 1e9, decimals: 2) + " GB"
    }
}
