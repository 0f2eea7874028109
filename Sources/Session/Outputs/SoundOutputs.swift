// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import FileOutput
import Live
import Performance
import Sinks
import Sound

/// `--audio file`: the rendered mix (`AudioFileSink`), or with `--live --audio-driver file`
/// the file the driver plays into (written by the live sound, see `LiveSoundOutput`).
struct AudioOutput: SessionOutput {
    let flags = ["--audio", "--sample-rate", "--soundfont"]

    func isRequested(_ request: RunRequest) -> Bool { request.audioPath != nil || request.liveFile != nil }
    func writesFiles(_ request: RunRequest) -> Bool { request.audioPath != nil }
    func needsSound(_ request: RunRequest) -> Bool { request.audioPath != nil }

    func validate(_ request: RunRequest) throws(SessionError) {
        if let audio = request.audioPath {
            if audio.isEmpty { throw .usage("--audio needs a file name") }
            _ = try OutputName.audioFormat(audio)
        }
        // The mix settings given (flags, or the replayed log's) must go with this render.
        let given = request.overrides.flags
        if given["true-peak"] != nil, given["loudness"]?.lowercased() == "off" {
            throw .usage("--true-peak needs the loudness normalisation on: drop --loudness off")
        }
        if given["bit-depth"] == "32f", let audio = request.audioPath, (try? OutputName.audioFormat(audio)) == .flac {
            throw .usage("--bit-depth 32f needs a .wav file: FLAC stores 16- or 24-bit integers")
        }
        for flag in ["loudness", "true-peak", "bit-depth"] where given[flag] != nil && !request.rendersAudioFile {
            throw .usage("--\(flag) applies to an audio render: add --audio <file> (and not --live)")
        }
    }

    func paths(_ run: OutputRun) throws(SessionError) -> [OutputCheck.Named] {
        let request = run.request
        if let liveFile = request.liveFile {
            // The file driver's own default name is never written over unasked.
            if request.audioPath == nil, FileIdentity(path: liveFile) != nil {
                throw .usage("--audio-driver file writes \(liveFile) when --audio is not given, and \(liveFile) exists here: "
                    + "name the output with --audio (a file named there is replaced)")
            }
            return [(request.audioPath == nil ? "the live file driver's default output" : "--audio", liveFile)]
        }
        return request.audioPath.map { [("--audio", $0)] } ?? []
    }

    /// Refuses a render that cannot fit on its disk (`AudioBudget`).
    func verify(_ run: OutputRun) throws(SessionError) {
        guard let path = run.request.audioPath, run.request.liveFile == nil, let soundFont = run.soundFont else { return }
        let sound = run.plan.sound
        let tail = SamplerFactory.configuration(soundFont: soundFont, sampleRate: run.request.sampleRate, polyphony: 256,
                                                sound: sound, tail: run.request.tail).tailDuration
        try AudioBudget.check(path: path, seconds: run.plan.duration + tail, rate: run.request.sampleRate,
                              bytesPerSample: sound.bitDepth.bytesPerSample)
    }

    func open(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {
        guard let path = run.request.audioPath, run.request.liveFile == nil, let configuration = wiring.samplerConfiguration else { return }
        let sink = try AudioFileSink(path: path, samplerConfiguration: configuration, session: run.plan, mix: wiring.mix, stop: run.stop)
        wiring.sinks.append(sink)
        wiring.audio = sink
    }

    func summary(_ run: OutputRun, _ wiring: OutputWiring) -> [String] {
        (run.request.audioPath ?? run.request.liveFile).map { [StandardOutputName.shown($0)] } ?? []
    }
}

/// `--stems dir`: one audio file per voice (written by the audio render) and one MIDI file
/// per voice (`MIDIRecorder` of one voice) beside each other in `dir`.
struct StemsOutput: SessionOutput {
    let flags = ["--stems"]

    func isRequested(_ request: RunRequest) -> Bool { request.mix.stemsDirectory != nil && request.rendersAudioFile }

    func validate(_ request: RunRequest) throws(SessionError) {
        guard let stems = request.mix.stemsDirectory else { return }
        if !request.rendersAudioFile { throw .usage("--stems applies to an audio render: add --audio <file> (and not --live)") }
        if stems.isEmpty { throw .usage("--stems needs a directory") }
    }

    /// The stems' MIDI files, one per voice in table order.
    static func midiPaths(_ request: RunRequest, plan: SessionPlan) -> [String] {
        guard let directory = request.mix.stemsDirectory, request.rendersAudioFile else { return [] }
        return plan.voices.voices.map { prefix(directory) + $0.logName + ".mid" }
    }

    private static func prefix(_ directory: String) -> String { directory.hasSuffix("/") ? directory : directory + "/" }

    func paths(_ run: OutputRun) throws(SessionError) -> [OutputCheck.Named] {
        guard let directory = run.request.mix.stemsDirectory, let audio = run.request.audioPath,
              let format = AudioFileFormat(path: audio) else { return [] }
        let midi = Self.midiPaths(run.request, plan: run.plan).map { ("--stems", $0) }
        return midi + run.plan.voices.voices.map { ("--stems", Self.prefix(directory) + $0.logName + "." + format.fileExtension) }
    }

    func open(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {
        guard wiring.audio != nil else { return }
        for (index, path) in Self.midiPaths(run.request, plan: run.plan).enumerated() {
            wiring.sinks.append(try MIDIRecorder(path: path, plan: run.plan, only: VoiceID(rawValue: index)))
            wiring.stemMIDIPaths.append(path)
        }
    }

    func summary(_ run: OutputRun, _ wiring: OutputWiring) -> [String] {
        guard let directory = run.request.mix.stemsDirectory, let audio = wiring.audio else { return [] }
        let format = AudioFileFormat(path: audio.path) ?? .wav
        let names = MixPlan(run.plan).parts.map { $0.stemFileName(format) } + wiring.stemMIDIPaths.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
        return ["stems " + names.joined(separator: ", ") + " in " + directory]
    }
}

/// `--video file` (with `--fps`, `--size`): the session drawn with its sound, through ffmpeg
/// (`VideoSink`). Its sound is the audio render's, or a temporary WAV of the same mix.
struct VideoOutput: SessionOutput {
    let flags = ["--video", "--fps", "--size"]

    func isRequested(_ request: RunRequest) -> Bool { request.video != nil }
    func writesFiles(_ request: RunRequest) -> Bool { request.video != nil }
    func needsSound(_ request: RunRequest) -> Bool { request.video != nil }

    func validate(_ request: RunRequest) throws(SessionError) {
        guard let video = request.video else { return }
        try video.validate()
        if request.isLive { throw .usage("--video renders offline; it cannot be combined with --live") }
    }

    func prepare(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {
        guard let video = run.request.video else { return }
        wiring.ffmpeg = try VideoSink.prepare(video, isLive: run.request.isLive, environment: run.request.environment)
    }

    func paths(_ run: OutputRun) throws(SessionError) -> [OutputCheck.Named] { run.request.video.map { [("--video", $0.path)] } ?? [] }

    func open(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {
        guard let video = run.request.video, let ffmpeg = wiring.ffmpeg, let configuration = wiring.samplerConfiguration else { return }
        let files = try VideoFiles(path: video.path)
        var sound = wiring.audio
        if sound == nil {
            var temporaryMix = wiring.mix
            temporaryMix.stemsDirectory = nil
            let sink = try AudioFileSink(path: files.soundPath(), format: .wav, samplerConfiguration: configuration,
                                         session: run.plan, mix: temporaryMix, stop: run.stop)
            wiring.sinks.append(sink)
            sound = sink
        }
        guard let sound else { return }
        let sink = try VideoSink(request: video, files: files, plan: run.plan, ffmpeg: ffmpeg, audioPath: sound.path,
                                 removesAudio: wiring.audio == nil, tail: sound.tailDuration, stop: run.stop)
        wiring.sinks.append(sink)
        wiring.video = sink
    }

    func summary(_ run: OutputRun, _ wiring: OutputWiring) -> [String] { run.request.video.map { [$0.path] } ?? [] }
}

/// `--live` (with `--audio-driver`): the synthesizer played live through an audio driver
/// (`LiveSink`), unless live MIDI ports take the notes instead.
struct LiveSoundOutput: SessionOutput {
    let flags = ["--live", "--audio-driver", "--connect-audio"]

    func isRequested(_ request: RunRequest) -> Bool { request.isLive && request.playsInternalSound }
    func needsSound(_ request: RunRequest) -> Bool { isRequested(request) }

    /// The driver the synthesizer plays through: `--audio-driver`'s; without it, JACK when
    /// another flag asks for JACK (`--midi-in jack`, a JACK transport or clock master) and a
    /// server answers (on a JACK-only machine FluidSynth's default, ALSA, has no device);
    /// otherwise FluidSynth's default (nil).
    static func driver(_ request: RunRequest) -> String? {
        if let driver = request.audioDriver { return driver }
        let jack = request.asksForJack && LiveSink.jackAnswers()
        return jack ? "jack" : nil
    }

    func validate(_ request: RunRequest) throws(SessionError) {
        if request.audioDriver != nil && !request.isLive { throw .usage("--audio-driver only applies with --live") }
        let connections = request.audioConnections
        if !connections.isEmpty && !(request.isLive && request.audioDriver == "jack") {
            throw .usage("--connect-audio only applies with --live --audio-driver jack")
        }
        if connections.contains(where: \.isEmpty) || connections.count > 2 || (connections.count > 1 && connections.contains("none")) {
            throw .usage("--connect-audio takes a JACK audio input once (both channels) or twice (left, then right), or none once")
        }
    }

    func open(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {
        guard let configuration = wiring.samplerConfiguration else { return }
        let driver = Self.driver(run.request)
        wiring.sinks.append(try LiveSink(samplerConfiguration: configuration, session: run.plan,
                                         driver: driver, fileName: run.request.liveFile, stop: run.stop,
                                         audioConnections: run.request.audioConnections, environment: run.request.environment))
        // FluidSynth's JACK driver says nothing when the server goes away: a watch of Clumsy's ends the session then.
        if driver == "jack" {
            let watch = try JackServerWatch(environment: run.request.environment)
            wiring.controls.append(watch)
            wiring.failsWith { watch.failure }
            wiring.closesAtEnd(watch.close)
        }
    }
}
