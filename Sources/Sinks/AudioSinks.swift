// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import FileOutput
import Performance
import Sound
#if canImport(Glibc)
import Glibc
#endif

extension SessionError {
    /// The Session error (and exit status) for a Sound error.
    package init(_ error: SoundError) {
        switch error {
        case .soundFontNotFound, .noSoundFont, .soundFontUnreadable:
            self = .noInput(error.description)
        case .notASoundFont, .soundFontTruncated, .soundFontLoadFailed:
            self = .data(error.description)
        case .outputDirectoryMissing, .outputNotWritable, .openFailed, .stemsDirectoryUnusable, .insufficientSpace:
            self = .cannotCreate(error.description)
        case .writeFailed, .commitFailed, .rendererClosed:
            self = .io(error.description)
        case .unknownAudioDriver, .invalidConfiguration:
            self = .usage(error.description)
        case .audioDriverFailed, .delayUnavailable:
            self = .unavailable(error.description)
        case .synthesizerFailed, .outputInUse:
            self = .software(error.description)
        }
    }
}

// MARK: - The mix plan: which voices become which parts (the one place to change)

/// How the session's voices become the mix's parts: one part per row of the voices table,
/// in table order, playing that voice's channels (a voice spread by position owns one
/// channel per pan zone, see `Voice.spread`), each with the voice's tone, its level (CC7)
/// and its channel's pan (CC10 and CC8). The MIDI files, the audio render, the stems and
/// live play all take their channels and controllers from here, so the sound is what the
/// MIDI file says.
package struct MixPlan: Sendable {
    /// The parts, in mixing order (the voices table's).
    package let parts: [MixPart]
    /// The voices, in table order (`parts[i]` is `voices[i]`).
    package let voices: [Voice]

    package init(_ session: SessionPlan) {
        voices = session.voices.voices
        let sends = session.sound.controllers
            .filter { $0.0 == 91 || $0.0 == 93 }
            .map { PartChannel.Controller(number: Int($0.0), value: Int($0.1)) }
        parts = voices.map { voice in
            MixPart(name: voice.name, channels: voice.channels.map { channel in
                PartChannel(channel: channel.channel, bank: voice.tone.bank, program: voice.tone.program,
                            volume: voice.level, pan: channel.pan, controllers: sends)
            })
        }
    }
}

/// Builds a FluidSynth sampler for a session: SoundFont, effects, programs and controllers.
package enum SamplerFactory {
    /// The sampler configuration of a session (SoundFont already resolved); `tail` (`--tail`)
    /// replaces the estimated tail.
    package static func configuration(soundFont: String, sampleRate: Double, polyphony: Int, sound: SoundPlan,
                              tail: Double? = nil) -> SamplerConfiguration {
        var configuration = SamplerConfiguration(
            soundFont: soundFont, sampleRate: sampleRate, polyphony: polyphony,
            filter: sound.filter, delay: sound.delay, reverb: sound.reverb, gain: sound.gain)
        configuration.tail = tail
        return configuration
    }

    /// One sampler playing every part's channels, set up as the MIDI file has them (live play).
    package static func make(_ samplerConfiguration: SamplerConfiguration, plan: MixPlan) throws(SessionError) -> Sampler {
        let sampler: Sampler
        do {
            sampler = try Sampler(configuration: samplerConfiguration)
        } catch {
            throw SessionError(error)
        }
        for channel in plan.parts.flatMap(\.channels) {
            sampler.select(channel: channel.channel, bank: channel.bank, program: channel.program)
            for controller in channel.placement + channel.controllers {
                sampler.controlChange(channel: channel.channel, controller: controller.number, value: controller.value)
            }
        }
        return sampler
    }
}

/// What `--stems` and `CLUMSY_THREADS` ask of an audio render (loudness, true peak and bit
/// depth are preset settings: `sound.loudness`, `sound.truePeak`, `sound.bitDepth`).
public struct MixRequest: Sendable, Equatable {
    /// Directory for one audio file and one MIDI file per voice; nil = no stems.
    public var stemsDirectory: String?
    /// Synthesis threads; nil = one per core (`CLUMSY_THREADS` in the environment sets it).
    public var threads: Int?

    /// The defaults: no stems, one thread per core.
    public init() {}
}

/// Renders the session to an audio file (and stems) through FluidSynth synths, one per part
/// (two for a part with several channels), faster than real time, then masters it (see `MixRenderer`).
///
/// Each event sounds at frame round(t × rate), applied at FluidSynth's next 64-frame block
/// boundary (1.45 ms at 44.1 kHz). After the last event the file runs on for the sampler's
/// `tailDuration` so notes, echoes and reverb die away.
///
/// Every half simulated second is a block for the synths, which `SlotPipeline`'s threads
/// render up to four blocks ahead while this thread simulates on and sums the blocks
/// already rendered, so on two cores the physics costs no wall time.
public final class AudioFileSink: SessionSink {
    private let mixer: MixRenderer
    private var router: NoteRouter
    private let rate: Double
    /// The file being written.
    public let path: String
    /// Loudness and true peak of the written mix, once finished.
    public private(set) var report: MasteringReport?
    /// Told each stage of the work after the simulation (the tail, each mastering pass), for
    /// the progress line.
    package var onStage: ((String) -> Void)?

    /// Loads the SoundFont once for the mix's synths and checks `path` (format from its extension) and the stems directory.
    /// `format`, when given, is used whatever the name (a temporary's).
    package init(path: String, format: AudioFileFormat? = nil, samplerConfiguration: SamplerConfiguration, session: SessionPlan, mix: MixRequest,
         stop: StopSignal?) throws(SessionError) {
        let format = if let format { format } else { try OutputName.audioFormat(path) }
        let bitDepth = session.sound.bitDepth
        guard bitDepth.isSupported(by: format) else {
            throw .usage("--audio \(path): bit depth 32f (sound.bitDepth, --bit-depth) needs a .wav file; FLAC stores 16- or 24-bit integers")
        }
        self.path = path
        self.stop = stop
        let plan = MixPlan(session)
        router = NoteRouter(voices: session.voices)
        rate = samplerConfiguration.sampleRate
        // FluidSynth ends a voice once it falls below a noise floor relative to the synth's
        // gain; at fluidsynth's own default gain (0.2) quiet tails end sooner than at 0.5 and
        // synthesis is cheaper. Mastering sets the level afterwards anyway; with the loudness
        // off, `sound.gain` still scales the render (0.5, the default, renders at 0.2).
        var renderConfiguration = samplerConfiguration
        renderConfiguration.gain = samplerConfiguration.gain * AudioFileSink.renderGainScale
        do {
            mixer = try MixRenderer(parts: plan.parts, configuration: renderConfiguration, mixPath: path,
                                    stemsDirectory: mix.stemsDirectory, format: format,
                                    mastering: Mastering(loudness: session.sound.loudness, truePeak: session.sound.truePeak,
                                                         bitDepth: bitDepth),
                                    expectedSeconds: session.duration, threads: mix.threads ?? MixRenderer.coreCount)
        } catch {
            throw SessionError(error)
        }
    }

    /// Seconds of audio after the session's end.
    public var tailDuration: Double { mixer.configuration.tailDuration }

    /// Offline renders run at this fraction of `sound.gain`: the default 0.5 becomes 0.2,
    /// FluidSynth's own default.
    static let renderGainScale = 0.4

    /// Seconds of tail after an interruption, so stopping stays fast.
    public static let interruptedTail = 0.5

    private let stop: StopSignal?

    private var renderedThrough = 0.0

    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            switch event {
            case .note, .control:
                router.forEachMessage(of: event) { time, _, message in
                    mixer.send(MixEvent(frame: Int64((time * rate).rounded()), message: message))
                }
            default:
                continue
            }
        }
        // Half a simulated second at a time: a block for each synth's thread (`SlotPipeline`).
        if time - renderedThrough >= 0.5 {
            renderedThrough = time
            do {
                try mixer.render(toFrame: Int64((time * rate).rounded()))
            } catch {
                throw SessionError(error)
            }
        }
    }

    /// After a stop signal the tail is cut to `interruptedTail` seconds and the mix is mastered
    /// in one quick pass (`MixRenderer.finish(atFrame:quickly:)`).
    public func finish(at time: Double) throws(SessionError) {
        let stopped = stop?.isRaised == true
        let tail = stopped ? min(tailDuration, Self.interruptedTail) : tailDuration
        do {
            let stop = self.stop
            report = try mixer.finish(atFrame: Int64(((time + tail) * rate).rounded(.up)), quickly: stopped,
                                      interrupted: { stop?.isRaised == true }, stage: onStage ?? { _ in })
        } catch {
            throw SessionError(error)
        }
    }

    public func abandon() { mixer.abandon() }
}

/// Holds the simulation to the wall clock ("fix your timestep" with a clamped accumulator):
/// if the loop falls behind by more than `maximumLag` it forgets the debt instead of
/// racing to catch up, so timing never drifts and never bursts.
public final class WallClockPacer {
    private var origin: Double
    /// Largest lag, seconds, before the pacer resets its origin.
    public let maximumLag: Double

    /// Starts pacing now.
    public init(maximumLag: Double = 0.25) {
        origin = Self.now()
        self.maximumLag = maximumLag
    }

    /// Monotonic wall time, seconds.
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }

    /// Waits until simulated time `time` is due on the wall clock.
    public func wait(until time: Double) {
        let target = origin + time
        let ahead = target - Self.now()
        if ahead > 0 {
            var request = timespec(tv_sec: Int(ahead), tv_nsec: Int((ahead - Double(Int(ahead))) * 1e9))
            var remaining = timespec()
            while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
        } else if -ahead > maximumLag {
            origin = Self.now() - time
        }
    }
}
