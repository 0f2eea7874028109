// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
import Vocabulary
/// Everything that can go wrong in the `Sound` module.
///
/// Each case says what was wrong, which file, driver or field it concerns, what was
/// tried and what would fix it. FluidSynth's own log messages (warnings and errors)
/// that were emitted during the failing call are carried in `messages` instead of
/// being printed.
public enum SoundError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A SoundFont path that was chosen explicitly does not exist.
    /// `source` names where the choice came from: `--soundfont`, `CLUMSY_SOUNDFONT`,
    /// `the preset's soundFont` or `SamplerConfiguration.soundFont`.
    case soundFontNotFound(path: String, source: String)
    /// No SoundFont was given and none exists at any of the standard locations;
    /// `tried` lists every path that was checked, in order.
    case noSoundFont(tried: [String])
    /// The SoundFont path exists but cannot be read (a directory, no permission, I/O error).
    case soundFontUnreadable(path: String, reason: String)
    /// The file is not a SoundFont 2 (or SF3) file: its header is not `RIFF….sfbk`.
    case notASoundFont(path: String, reason: String)
    /// The file starts like a SoundFont but is shorter than its RIFF header says.
    case soundFontTruncated(path: String, expectedBytes: Int64, actualBytes: Int64)
    /// FluidSynth refused to load the SoundFont (`fluid_synth_sfload` failed).
    case soundFontLoadFailed(path: String, messages: [String])
    /// A configuration value is out of range; `field` is the Swift property path.
    case invalidConfiguration(field: String, value: String, accepted: String)
    /// FluidSynth could not create or configure the synthesizer.
    case synthesizerFailed(operation: String, messages: [String])
    /// The LADSPA delay could not be set up (plugin missing, FluidSynth without LADSPA, …).
    case delayUnavailable(reason: String)
    /// The sampler already feeds a file renderer or a live audio driver.
    case outputInUse(requested: String)
    /// The directory that should hold the output file does not exist.
    case outputDirectoryMissing(path: String)
    /// The output file cannot be created in its directory.
    case outputNotWritable(path: String, reason: String)
    /// FluidSynth's file renderer could not open the (temporary) output file.
    case openFailed(path: String, format: String, messages: [String])
    /// Writing, closing or renaming the output file failed (e.g. the disk is full).
    case writeFailed(path: String, reason: String)
    /// The finished file could not be put in place (e.g. its directory was moved during the run).
    case commitFailed(path: String, reason: String)
    /// The stems directory does not exist, is not a directory or is not writable.
    case stemsDirectoryUnusable(path: String, reason: String)
    /// Too little free disk space for a render's scratch files and outputs.
    case insufficientSpace(directory: String, needed: Int64, available: Int64)
    /// The renderer was already finished, abandoned or failed; it cannot render any more.
    case rendererClosed(path: String)
    /// The audio driver name is not one this FluidSynth build knows.
    case unknownAudioDriver(name: String, available: [String])
    /// The audio driver exists but could not start (no device, no server, …); `messages`
    /// holds FluidSynth's errors and the last lines the audio library printed to stderr.
    case audioDriverFailed(driver: String, messages: [String], available: [String])

    /// A sentence (or a few) a user can act on.
    public var description: String {
        switch self {
        case let .soundFontNotFound(path, source):
            return "The SoundFont \(quoted(path)) (from \(source)) does not exist. "
                + "Check the path, or give none to use an installed SoundFont "
                + "(on Debian/Ubuntu: sudo apt install fluid-soundfont-gm)."
        case let .noSoundFont(tried):
            return "No SoundFont found. Tried, in order:\n"
                + tried.map { "  - \($0)" }.joined(separator: "\n")
                + "\nInstall one (on Debian/Ubuntu: sudo apt install fluid-soundfont-gm), "
                + "or pass --soundfont PATH, or set CLUMSY_SOUNDFONT=PATH."
        case let .soundFontUnreadable(path, reason):
            return "The SoundFont \(quoted(path)) cannot be read: \(reason). "
                + "Give the path of a readable .sf2 or .sf3 file."
        case let .notASoundFont(path, reason):
            return "\(quoted(path)) is not a SoundFont: \(reason). "
                + "A SoundFont 2 file starts with \"RIFF\" and the form type \"sfbk\"; "
                + "give an .sf2 or .sf3 file (on Debian/Ubuntu: sudo apt install fluid-soundfont-gm)."
        case let .soundFontTruncated(path, expected, actual):
            return "The SoundFont \(quoted(path)) is truncated: its header announces \(expected) bytes "
                + "but the file has \(actual). Download or copy it again "
                + "(on Debian/Ubuntu: sudo apt install --reinstall fluid-soundfont-gm)."
        case let .soundFontLoadFailed(path, messages):
            return "FluidSynth could not load the SoundFont \(quoted(path))"
                + details(messages)
                + ". The file may be damaged; try another SoundFont "
                + "(on Debian/Ubuntu: sudo apt install fluid-soundfont-gm)."
        case let .invalidConfiguration(field, value, accepted):
            return "Invalid sound setting \(field) = \(value); accepted: \(accepted)."
        case let .synthesizerFailed(operation, messages):
            return "FluidSynth failed to \(operation)" + details(messages) + "."
        case let .delayUnavailable(reason):
            return "The delay effect cannot be set up: \(reason). "
                + "It needs FluidSynth with LADSPA support and the cmt plugins "
                + "(on Debian/Ubuntu: sudo apt install cmt), or turn the delay off."
        case let .outputInUse(requested):
            return "Cannot attach \(requested): this sampler already feeds a file renderer or a live "
                + "audio driver. Finish or abandon the renderer (or stop the live audio) first, "
                + "or create a second Sampler."
        case let .outputDirectoryMissing(path):
            return "Cannot write \(quoted(path)): the directory \(quoted(directoryName(path))) does not exist. "
                + "Create it first or choose another output path."
        case let .outputNotWritable(path, reason):
            // A reason that says what to do (a missing $TMPDIR: set TMPDIR) needs no other advice.
            return "Cannot write \(quoted(path)): \(reason)" + (reason.contains("; ") ? "." : ". Choose a path in a writable directory.")
        case let .openFailed(path, format, messages):
            return "FluidSynth could not open \(quoted(path)) for writing as \(format)"
                + details(messages) + ". Check that the directory is writable and has free space."
        case let .writeFailed(path, reason) where StandardOutputName.isStandardOutput(path):
            // A reader that stops early (`| head -c 1000`) closes the pipe: nothing to free.
            return "Writing the audio to standard output failed: \(reason)"
                + (reason.contains("Broken pipe") ? " (the program reading it stopped early)." : ".")
        case let .writeFailed(path, reason):
            return "Writing the audio file \(quoted(path)) failed: \(reason). "
                + "The partial file was removed. Free some disk space or choose another directory."
        case let .commitFailed(path, reason):
            return "The audio file \(quoted(path)) could not be put in place: \(reason)."
        case let .stemsDirectoryUnusable(path, reason):
            return "Cannot write stems into \(quoted(path)): \(reason). Create the directory (mkdir -p) "
                + "or give a writable one to --stems."
        case let .insufficientSpace(directory, needed, available):
            return "Not enough free disk space in \(quoted(directory)): the render needs about \(megabytes(needed)) MB "
                + "(its float scratch files beyond what stays in memory, 8 bytes per frame per track, and the outputs) but \(megabytes(available)) MB "
                + "are free. Free some space, shorten --duration, or write elsewhere."
        case let .rendererClosed(path):
            return "The renderer for \(quoted(path)) is already finished or abandoned; "
                + "create a new renderer to render again."
        case let .unknownAudioDriver(name, available):
            return "Unknown audio driver \(quoted(name))\(Suggestion.didYouMean(name, in: available)). This FluidSynth supports: "
                + available.joined(separator: ", ") + "."
        case let .audioDriverFailed(driver, messages, available):
            return "The audio driver \(quoted(driver)) could not start"
                + details(messages)
                + ". Check that a sound device or sound server is available, or choose another driver ("
                + available.joined(separator: ", ")
                + "); the \"file\" driver works without sound hardware."
        }
    }
}

private func megabytes(_ bytes: Int64) -> Int64 { (bytes + 999_999) / 1_000_000 }

private func quoted(_ text: String) -> String { "\"\(text)\"" }

private func details(_ messages: [String]) -> String {
    messages.isEmpty ? "" : " (reported: " + messages.joined(separator: "; ") + ")"
}

private func directoryName(_ path: String) -> String { PathName.directory(of: path) }
