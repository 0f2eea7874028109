// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the SoundFont to use.
public enum SoundFontLocator {
    /// The environment variable that names a SoundFont path: `CLUMSY_SOUNDFONT`.
    public static let environmentVariable = "CLUMSY_SOUNDFONT"

    /// Where SoundFonts are installed, best first: Debian/Ubuntu's packages
    /// (`fluid-soundfont-gm`, the `default-GM` alternatives, `timgm6mb-soundfont`,
    /// `musescore-general-soundfont`), then Fedora/Arch and Homebrew locations.
    public static let standardLocations: [String] = [
        "/usr/share/sounds/sf2/FluidR3_GM.sf2",
        "/usr/share/sounds/sf2/default-GM.sf2",
        "/usr/share/sounds/sf2/TimGM6mb.sf2",
        "/usr/share/sounds/sf3/MuseScore_General.sf3",
        "/usr/share/sounds/sf3/default-GM.sf3",
        "/usr/share/soundfonts/FluidR3_GM.sf2",
        "/usr/share/soundfonts/default.sf2",
        "/usr/share/soundfonts/FluidR3_GM2-2.sf2",
        "/usr/local/share/soundfonts/default.sf2",
        "/opt/homebrew/share/soundfonts/default.sf2",
    ]

    /// Returns the path of the SoundFont to use.
    ///
    /// Order: `explicit` (the `--soundfont` flag), then `environment["CLUMSY_SOUNDFONT"]`,
    /// then `preset` (the preset's choice; resolve a relative path against the preset's
    /// directory before calling), then the first of `standardLocations` that exists.
    /// An empty string counts as not given. A path that was given (by the flag, the
    /// environment or the preset) but does not exist is an error: there is no silent
    /// fall-back to another SoundFont. Only existence is checked here; `Sampler.init`
    /// checks the content.
    /// - Throws: `SoundError.soundFontNotFound` for a given path that does not exist,
    ///   `SoundError.noSoundFont` listing every path tried when nothing was given and no
    ///   standard location holds a SoundFont.
    public static func resolve(
        explicit: String?, environment: [String: String], preset: String?
    ) throws(SoundError) -> String {
        let choices: [(path: String?, source: String)] = [
            (explicit, "--soundfont"),
            (environment[environmentVariable], environmentVariable),
            (preset, "the preset's soundFont"),
        ]
        for choice in choices {
            guard let path = choice.path, !path.isEmpty else { continue }
            // Anything that exists goes on to the Sampler, whose header check says what is
            // wrong with it (a directory, no permission, not a SoundFont).
            var info = stat()
            guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else { throw .soundFontNotFound(path: path, source: choice.source) }
            return path
        }
        for path in standardLocations where fileExists(path) {
            return path
        }
        throw .noSoundFont(tried: standardLocations)
    }

    /// Checks that `path` is a readable, complete SoundFont (its RIFF header), before any
    /// output is created. - Throws: the `SoundError` that names the problem.
    public static func check(_ path: String) throws(SoundError) {
        try SoundFontFile.validate(path: path)
    }

    /// True when `path` names something that exists (following symbolic links) and is not a directory.
    static func fileExists(_ path: String) -> Bool {
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else { return false }
        return (info.st_mode & S_IFMT) != S_IFDIR
    }
}

/// Checks a SoundFont file's header before FluidSynth sees it.
enum SoundFontFile {
    /// Verifies that `path` is a readable file starting with `RIFF <size> sfbk` and at
    /// least as long as the RIFF size says (SF3 files share that header).
    static func validate(path: String) throws(SoundError) {
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw .soundFontNotFound(path: path, source: "SamplerConfiguration.soundFont")
            }
            throw .soundFontUnreadable(path: path, reason: errorText(code))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw .soundFontUnreadable(path: path, reason: "it is a directory")
        }
        // A FIFO or socket would block the read (and FluidSynth) for ever: refuse it.
        if (info.st_mode & S_IFMT) != S_IFREG {
            throw .soundFontUnreadable(path: path, reason: "it is not a regular file (a FIFO, socket or device)")
        }
        let fileSize = Int64(info.st_size)
        let descriptor = PathBytes.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else {
            throw .soundFontUnreadable(path: path, reason: errorText(errno))
        }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 12)
        let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 12) }
        guard count >= 0 else {
            throw .soundFontUnreadable(path: path, reason: errorText(errno))
        }
        guard count == 12 else {
            throw .notASoundFont(path: path, reason: "it has only \(count) bytes")
        }
        let riff = Array("RIFF".utf8)
        let sfbk = Array("sfbk".utf8)
        guard Array(header[0..<4]) == riff else {
            throw .notASoundFont(path: path, reason: "it starts with \(describe(header[0..<8])) instead of \"RIFF\"")
        }
        guard Array(header[8..<12]) == sfbk else {
            throw .notASoundFont(
                path: path, reason: "it is a RIFF file of type \(describe(header[8..<12])), not \"sfbk\"")
        }
        let riffSize = Int64(header[4]) | Int64(header[5]) << 8 | Int64(header[6]) << 16 | Int64(header[7]) << 24
        let expected = riffSize + 8
        if fileSize < expected {
            throw .soundFontTruncated(path: path, expectedBytes: expected, actualBytes: fileSize)
        }
    }

    private static func describe(_ bytes: ArraySlice<UInt8>) -> String {
        let printable = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        if printable {
            return "\"" + String(decoding: bytes, as: UTF8.self) + "\""
        }
        return "bytes " + bytes.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: " ")
    }
}

/// The text of a POSIX error number.
func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
