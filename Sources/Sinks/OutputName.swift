// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import FileOutput
import Sound

/// What is wrong with an output's name when its extension does not say a known format.
public enum OutputName {
    /// True for a name that is only an extension (".wav", "dir/.mp4"): a hidden file with no name.
    public static func isOnlyExtension(_ path: String) -> Bool {
        let name = PathName.name(of: path)
        return name.count > 1 && name.hasPrefix(".") && !name.dropFirst().contains(".")
    }

    /// The usage message for `path` given to `flag`: it needs a name before its extension,
    /// or its name must end in one of `accepted` (e.g. ".wav, .flac or .ogg").
    public static func extensionProblem(_ path: String, flag: String, accepted: String) -> String {
        if isOnlyExtension(path) {
            return "\(flag) \(path): the file needs a name before its extension, such as session\(PathName.name(of: path))"
        }
        return "\(flag) \(path): the file name must end in \(accepted)"
    }

    /// The format of the audio file `path` given to `--audio`, from its extension
    /// (`AudioFileFormat(path:)`): the one check of an audio output's name.
    /// - Throws: `SessionError.usage` when the extension names no format Clumsy writes.
    public static func audioFormat(_ path: String) throws(SessionError) -> AudioFileFormat {
        guard let format = AudioFileFormat(path: path) else {
            if StandardOutputName.isStandardOutput(path) {
                throw .usage("--audio \(path): standard output takes -, wav:-, flac:- or ogg:- (- is WAV)")
            }
            throw .usage(extensionProblem(path, flag: "--audio", accepted: ".wav, .flac or .ogg"))
        }
        return format
    }
}
