// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import ArgumentParser
import Controls
import Errors
import Session
import Sinks
import Text

/// The output flags `clumsy run` and `clumsy replay` share, with one help text each (with
/// `VideoFlags`, which `run`'s help lists after its live flags). The sample rate is checked
/// here, so a bad one is the user's error (exit 64) in `replay` too, never blamed on the log
/// it replays; `SessionOutputs.validate` checks the other values.
struct OutputFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Write a Standard MIDI File (format 1, a track per voice: Bass, Keys, Drums); - writes it to standard output.", valueName: "file.mid"), completion: Completions.files("mid"))
    var midi: String?

    @Option(help: ArgumentHelp("Write the event log as JSON Lines; - writes it to standard output.", valueName: "file.jsonl"), completion: Completions.files("jsonl"))
    var events: String?

    @Option(help: ArgumentHelp("Render audio to a .wav, .flac or .ogg file through FluidSynth; - writes WAV to standard output (flac:- FLAC, ogg:- Ogg), for a pipe into sox.", valueName: "file"), completion: Completions.files("wav", "flac", "ogg"))
    var audio: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Audio sample rate in Hz, a whole number (\(Limits.text(Limits.sampleRate)); default 44100).", valueName: "Hz"))
    var sampleRate: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds of sound after the session's end (notes ringing, echoes, reverb), \(Limits.text(Limits.tail)); default: as long as the effects need, at most 30.", valueName: "s"))
    var tail: String?

    @Option(help: ArgumentHelp("SoundFont file (.sf2/.sf3). Else $CLUMSY_SOUNDFONT, the preset's, then Debian's (FluidR3_GM first).", valueName: "file"), completion: Completions.files("sf2", "sf3"))
    var soundfont: String?

    @Option(help: ArgumentHelp("Also write one audio file per voice (bass.wav, keys.wav, … in --audio's format) and one MIDI file per voice (bass.mid, keys.mid, …) into this existing directory; they sum to the mix.", valueName: "dir"), completion: .directory)
    var stems: String?

    @Option(help: ArgumentHelp("Write the session as a LilyPond score: chord names over a staff per voice, in sixteenths.", valueName: "file.ly"), completion: Completions.files("ly"))
    var score: String?

    /// The files named, each under its flag (`RunRequest.files`).
    var files: [String: String] {
        [("--midi", midi), ("--events", events), ("--audio", audio), ("--score", score)]
            .reduce(into: [:]) { files, pair in if let path = pair.1 { files[pair.0] = path } }
    }

    /// The sample rate: a whole number in `Limits.sampleRate` (checked in `validate()`).
    var sampleRateValue: Int { sampleRate.flatMap { Int($0) } ?? 44_100 }

    /// The tail in seconds, nil for the default (checked in `validate()`).
    var tailValue: Double? { tail.flatMap(Double.init) }

    /// The flags given, as `clumsy run` arguments.
    var arguments: [String] {
        let files = self.files.sorted { $0.key < $1.key }.map { ($0.key, Optional($0.value)) }
        return ([("--sample-rate", sampleRate), ("--tail", tail), ("--soundfont", soundfont), ("--stems", stems)] + files)
            .flatMap { flag, value in value.map { [flag, $0] } ?? [] }
    }

    func validate() throws {
        if let sampleRate {
            guard let rate = Int(sampleRate), Limits.sampleRate.contains(rate) else {
                throw ValidationError("--sample-rate \(sampleRate) is not accepted; expected a whole number of Hz in \(Limits.text(Limits.sampleRate))")
            }
        }
        if let tail {
            guard let seconds = Double(tail), seconds.isFinite, Limits.tail.contains(seconds) else {
                throw ValidationError("--tail \(Quote.text(tail)) is not accepted; expected seconds, a number in \(Limits.text(Limits.tail))")
            }
        }
    }
}

/// The video flags `clumsy run` and `clumsy replay` share.
struct VideoFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Render a video of the session with its sound: .mp4 (H.264 + AAC) or .webm (VP9 + Opus), through ffmpeg.", valueName: "file"), completion: Completions.files("mp4", "webm"))
    var video: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Video frames per second, 1…120 (default 30).", valueName: "n"))
    var fps: Int?

    @Option(help: ArgumentHelp("Video size in pixels, 64x64…3840x2160, even (default 1280x720).", valueName: "WxH"))
    var size: String?

    /// The flags given, as `clumsy run` arguments.
    var arguments: [String] {
        [("--video", video), ("--fps", fps.map(String.init)), ("--size", size)].flatMap { flag, value in value.map { [flag, $0] } ?? [] }
    }

    /// The flags as a request (nil without --video).
    func request() throws -> VideoRequest? {
        guard let video else { return nil }
        if video.isEmpty { throw ValidationError("--video needs a file name") }
        do {
            return VideoRequest(path: video, fps: fps ?? 30, size: try size.map { (text) throws(SessionError) in try PictureSize(parsing: text) } ?? .standard)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func validate() throws {
        if video == nil && (fps != nil || size != nil) { throw ValidationError("--fps and --size only apply with --video") }
    }
}
