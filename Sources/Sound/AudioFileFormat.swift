// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput

/// The audio file formats FluidSynth's renderer writes (through libsndfile), all
/// stereo at the sampler's sample rate.
public enum AudioFileFormat: String, Sendable, CaseIterable, Codable {
    /// RIFF WAVE, 16-bit signed PCM. Byte-identical for identical input.
    case wav
    /// FLAC, lossless, 16-bit.
    case flac
    /// Ogg Vorbis, lossy. Its bytes differ between runs (libsndfile picks a random Ogg
    /// stream serial number), the decoded audio does not.
    case ogg

    /// The format named by the extension of `path`, case-insensitive: `.wav`/`.wave`,
    /// `.flac`, `.ogg`/`.oga`; nil for anything else.
    public init?(path: String) {
        if StandardOutputName.isStandardOutput(path) {
            // `-` is WAV, as sox's default for a pipe; `flac:-` names its format.
            guard let word = StandardOutputName.format(of: path) else { self = .wav; return }
            self.init(path: "-." + word)
            return
        }
        let name = PathName.name(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "wav", "wave": self = .wav
        case "flac": self = .flac
        case "ogg", "oga": self = .ogg
        default: return nil
        }
    }

    /// The usual file name extension, without the dot.
    public var fileExtension: String { rawValue }

    /// FluidSynth's `audio.file.type` value (libsndfile's name for the container).
    var fluidFileType: String {
        switch self {
        case .wav: return "wav"
        case .flac: return "flac"
        case .ogg: return "oga"
        }
    }
}
