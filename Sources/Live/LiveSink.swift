// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import FileOutput
import Performance
import Sinks
import Sound
import Studio
#if canImport(Glibc)
import Glibc
#endif

/// The synthesizer's gain for live play, which cannot look ahead: `sound.gain` raised by the
/// preset's `sound.liveGain` dB. Each bundled preset's is min(−16 − I, −1 − TP) dB, from the
/// integrated loudness I and true peak TP of its 60 s render (seed 1, default effects, this
/// mix plan, unnormalised), measured by ffmpeg and raised by the 7.96 dB between the live
/// synth gain and the offline one (0.4 ×): `Benchmarks/loudness.py --calibrate` prints them.
/// So live play reaches −16 LUFS where the preset's peaks allow and otherwise stops 1 dB
/// under full scale without a limiter. It is the preset's own value, not looked up by its
/// name: a copy keeps its calibration, and a file of the same name does not borrow one.
enum LiveCalibration {
    /// The synth gain for live play: `base` (`sound.gain`) raised by `liveGain` dB, at most the
    /// sampler's largest gain.
    static func synthGain(liveGain: Double, base: Double) -> Double {
        min(SamplerConfiguration.gainRange.upperBound, base * pow(10, liveGain / 20))
    }
}

/// Plays the session live through FluidSynth's audio driver; the simulator is paced to the wall clock.
public final class LiveSink: SessionSink {
    private let sampler: Sampler
    private let live: LiveAudio
    private let stop: StopSignal?

    /// Starts the audio driver (nil = FluidSynth's default). With the `file` driver, `fileName`
    /// receives the sound: FluidSynth writes a temporary file beside it, renamed into place at
    /// the end, and a file shorter than the time played (a full disk) is an error.
    /// With the `jack` driver, its ports go to the system's playback ports, or to
    /// `audioConnections` (`none`: nowhere).
    package init(samplerConfiguration: SamplerConfiguration, session: SessionPlan, driver: String?, fileName: String?,
         stop: StopSignal?, audioConnections: [String] = [], environment: [String: String] = [:]) throws(SessionError) {
        // Live play cannot look ahead: a gain calibrated per bundled preset instead of mastering.
        var calibrated = samplerConfiguration
        calibrated.gain = LiveCalibration.synthGain(liveGain: session.sound.liveGain, base: samplerConfiguration.gain)
        sampler = try SamplerFactory.make(calibrated, plan: MixPlan(session))
        router = NoteRouter(voices: session.voices)
        self.stop = stop
        self.fileName = fileName
        if let fileName {
            format = try OutputName.audioFormat(fileName)
            do {
                output = try OutputFile(path: fileName, byName: true)
            } catch {
                throw .cannotCreate("cannot write \(error.path): \(error.reason)")
            }
        }
        do {
            live = try LiveAudio(sampler: sampler, driver: driver, fileName: output.map { PathBytes.string($0.writePath) }, format: format,
                                 jackAutoconnect: audioConnections.isEmpty)
        } catch {
            // The file driver opens the temporary by its path: a directory moved since is the cause.
            if let moved = output?.abandonIfMoved() { throw .io(moved.description) }
            if case .audioDriverFailed = error, driver != "jack", JackServerProbe.answers() {
                throw .unavailable(error.description + " A JACK server (\"\(JackMIDIOutput.serverName(environment: environment))\") is running: "
                    + "add --audio-driver jack to play through it.")
            }
            throw SessionError(error)
        }
        if driver == "jack", !audioConnections.isEmpty, audioConnections != ["none"] {
            let client = LiveAudio.jackClientName
            do throws(StudioError) {
                try JackAudioConnections.connect(sources: [client + ":left", client + ":right"], to: audioConnections, environment: environment)
            } catch {
                live.stop()
                throw SessionError(error)
            }
        }
        started = WallClockPacer.now()
    }

    private let fileName: String?
    private var router: NoteRouter
    private var output: OutputFile?
    private var format: AudioFileFormat?
    private var started = 0.0

    /// Whether live sound could play through JACK now: FluidSynth has its JACK driver and a
    /// JACK server answers.
    package static func jackAnswers() -> Bool {
        LiveAudio.availableDrivers.contains("jack") && JackServerProbe.answers()
    }

    /// The driver actually in use.
    public var driver: String { live.driver }

    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            switch event {
            case .note, .control:
                router.forEachMessage(of: event) { _, _, message in sampler.play(message) }
            default:
                continue
            }
        }
    }

    public func finish(at time: Double) throws(SessionError) {
        sampler.allNotesOff()
        // Let the last notes ring briefly, unless the user asked to stop.
        if stop?.isRaised != true {
            let ring = min(1.0, sampler.configuration.tailDuration)
            var slept = 0.0
            while slept < ring && stop?.isRaised != true {
                usleep(50_000)
                slept += 0.05
            }
        }
        live.stop()
        try commitFile(rate: sampler.configuration.sampleRate)
    }

    /// Puts the file driver's output in place after checking that it holds what was played.
    /// Only 16-bit WAV has a size known in advance; FLAC and Ogg must at least hold more than
    /// their headers.
    private func commitFile(rate: Double) throws(SessionError) {
        guard let fileName, let output else { return }
        let played = WallClockPacer.now() - started
        let size = Double(output.writtenSize ?? 0)
        let expected = format == .wav ? 0.8 * played * rate * 4 - 65536 : (played > 1 ? 1024 : 1)
        guard size >= expected else {
            output.abandon()
            throw .io("cannot write \(fileName): the live file driver wrote less than was played (disk full?)")
        }
        do {
            try output.commit()
        } catch {
            throw .io("cannot write \(fileName): \(error.reason)")
        }
    }

    public func abandon() {
        sampler.allNotesOff()
        live.stop()
        output?.abandon()
    }
}
