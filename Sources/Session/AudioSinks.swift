import Sound
import Performance
#if canImport(Glibc)
import Glibc
#endif

extension SessionError {
    /// The Session error (and exit status) for a Sound error.
    init(_ error: SoundError) {
        switch error {
        case .soundFontNotFound, .noSoundFont, .soundFontUnreadable:
            self = .noInput(error.description)
        case .notASoundFont, .soundFontTruncated, .soundFontLoadFailed:
            self = .data(error.description)
        case .outputDirectoryMissing, .outputNotWritable, .openFailed, .stemsDirectoryUnusable, .insufficientSpace:
            self = .cannotCreate(error.description)
        case .writeFailed, .rendererClosed:
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

/// How the session's voices become the mix's parts: each voice's MIDI channels, tone,
/// level (CC7) and pan (CC10). The MIDI file, the audio render, the stems and live play
/// all take their channels and controllers from here, so the sound is what the MIDI file
/// says. When the voices table arrives, `parts` and `NoteRouter` read it instead.
///
/// Today: the bass on MIDI channel 1, centred, at CC7 78 (−8.5 dB); the keys spread left
/// to right by position (`keysPan` = position): key k of K plays on one of up to four
/// channels (MIDI 2–5), one per pan zone from −0.8 (left) to +0.8 (right), at CC7 127
/// (0 dB). Measured on `default` (60 s, pyloudnorm on the stems), that puts the keys about
/// 2 LU above the bass (they were 2 LU below at equal levels).
struct MixPlan: Sendable {
    /// Keys' pan positions: the outermost zones sit at ∓`keysSpread`.
    static let keysSpread = 0.8
    /// The MIDI channels (0-based) of the keys' pan zones, left to right.
    static let keysChannels = [1, 2, 3, 4]
    /// CC7 of the bass and of the keys.
    static let bassVolume = 78
    static let keysVolume = 127

    /// The parts, in mixing order: Bass, Keys.
    let parts: [MixPart]
    /// Number of keys (positions 1…keyCount).
    let keyCount: Int
    /// Keys' pan zones in use (1…4).
    let zoneCount: Int

    init(_ session: Configuration) {
        keyCount = max(1, session.world.keys.count)
        zoneCount = min(keyCount, Self.keysChannels.count)
        let synthControllers = session.sound.controllers
            .filter { $0.0 == 91 || $0.0 == 93 }
            .map { PartChannel.Controller(number: Int($0.0), value: Int($0.1)) }
        let bass = PartChannel(channel: 0, bank: session.bassTone.bank, program: session.bassTone.program,
                               volume: Self.bassVolume, pan: 64, controllers: synthControllers)
        let zones = zoneCount
        let keys = (0..<zones).map { zone in
            let position = zones == 1 ? 0 : -Self.keysSpread + 2 * Self.keysSpread * Double(zone) / Double(zones - 1)
            return PartChannel(channel: Self.keysChannels[zone], bank: session.keysTone.bank, program: session.keysTone.program,
                               volume: Self.keysVolume, pan: PartChannel.panValue(position), controllers: synthControllers)
        }
        parts = [MixPart(name: Voice.bass.name, channels: [bass]), MixPart(name: Voice.keys.name, channels: keys)]
    }

    /// The part (index into `parts`) of a voice.
    func part(of voice: Voice) -> Int { voice == .bass ? 0 : 1 }

    /// The pan zone channel of key 1…keyCount.
    func keysChannel(key: Int) -> Int {
        let zone = min(zoneCount - 1, max(0, (key - 1) * zoneCount / keyCount))
        return Self.keysChannels[zone]
    }
}

/// Gives each note its MIDI channel from the mix plan. A note-off goes to the channel of
/// its note-on (the performer never sounds one pitch twice in a voice, so the pitch
/// identifies the note). Each sink keeps its own router; all see the same events.
struct NoteRouter {
    let plan: MixPlan
    private var keysChannelOfPitch = [Int](repeating: MixPlan.keysChannels[0], count: 128)

    init(plan: MixPlan) { self.plan = plan }

    /// The 0-based MIDI channel of `note`.
    mutating func channel(for note: NoteEvent) -> Int {
        guard note.voice == .keys else { return 0 }
        if note.kind == .on, note.key > 0 {
            let channel = plan.keysChannel(key: note.key)
            keysChannelOfPitch[note.note] = channel
            return channel
        }
        return keysChannelOfPitch[note.note]
    }
}

/// Per-preset gains for live play, which cannot look ahead: min(−16 − I, −1 − TP) dB, from
/// the integrated loudness I and true peak TP of each bundled preset's 60 s render (seed 1,
/// default effects, this mix plan, unnormalised), measured by ffmpeg:
/// `clumsy run <preset> --duration 60 --seed 1 --audio x.wav --loudness off --bit-depth 32f`
/// then `ffmpeg -i x.wav -af ebur128=peak=true -f null -`, when offline renders used the
/// live gain 0.5 (they now use 0.2, 7.96 dB lower: add that to today's measurement). So live play reaches −16 LUFS
/// where the preset's peaks allow and otherwise stops 1 dB under full scale without a
/// limiter. Unknown presets (files) get `fallbackLiveGain`.
enum LiveCalibration {
    static let gains: [String: Double] = [
        "default": 8.4,            // I −28.1 LUFS, TP −9.4 dBTP
        "dorian-drift": 5.7,       // I −22.9, TP −6.7
        "lydian-moon": 6.8,        // I −25.0, TP −7.8
        "minor-storm": 0.6,        // I −25.7, TP −1.6
        "phrygian-scatter": 3.8,   // I −25.6, TP −4.8
        "swarm": 4.6,              // I −30.3, TP −5.6
    ]
    /// dB for a preset that was not measured.
    static let fallbackLiveGain = 0.0

    /// The synth gain for live play of `preset`: FluidSynth's 0.5 raised by its calibrated dB.
    static func synthGain(preset: String, base: Double) -> Double {
        min(SamplerConfiguration.gainRange.upperBound, base * pow(10, (gains[preset] ?? fallbackLiveGain) / 20))
    }
}

/// Builds a FluidSynth sampler for a session: SoundFont, effects, programs and controllers.
enum SamplerFactory {
    /// The sampler configuration of a session (SoundFont already resolved).
    static func configuration(soundFont: String, sampleRate: Double, polyphony: Int, sound: Preset.Sound) -> SamplerConfiguration {
        SamplerConfiguration(
            soundFont: soundFont, sampleRate: sampleRate, polyphony: polyphony,
            filter: sound.filter.map { LowPassFilter(cutoff: $0.cutoff, resonance: $0.resonance) },
            delay: sound.delay.map { Delay(time: $0.time, feedback: $0.feedback, mix: $0.mix) },
            reverb: sound.reverb.map { Reverb(level: $0.level, roomSize: $0.room) })
    }

    /// One sampler playing every part's channels, set up as the MIDI file has them (live play).
    static func make(_ samplerConfiguration: SamplerConfiguration, plan: MixPlan) throws(SessionError) -> Sampler {
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

/// What `--stems`, `--loudness`, `--true-peak` and `--bit-depth` asked for.
public struct MixRequest: Sendable, Equatable {
    /// Directory for one audio file and one MIDI file per voice; nil = no stems.
    public var stemsDirectory: String?
    /// Target loudness, LUFS; nil = off.
    public var loudness: Double? = -16
    /// True-peak ceiling, dBTP.
    public var truePeak: Double = -1
    /// WAV/FLAC sample format: "16", "24" or "32f".
    public var bitDepth: String = BitDepth.standard.rawValue
    /// Synthesis threads; nil = one per core (`CLUMSY_THREADS` in the environment sets it).
    public var threads: Int?

    /// The defaults: no stems, −16 LUFS, −1 dBTP, 24-bit.
    public init() {}

    /// Why `bitDepth` cannot be used for the audio file `audioPath`, or nil if it can.
    public static func problem(bitDepth: String, audioPath: String?) -> String? {
        guard let depth = BitDepth(rawValue: bitDepth) else {
            return "--bit-depth \(bitDepth) is not accepted; accepted: " + BitDepth.allCases.map(\.rawValue).joined(separator: ", ")
        }
        if let audioPath, let format = AudioFileFormat(path: audioPath), !depth.isSupported(by: format) {
            return "--bit-depth 32f needs a .wav file: FLAC stores 16- or 24-bit integers"
        }
        return nil
    }
}

/// Renders the session to an audio file (and stems) through one FluidSynth synth per part,
/// faster than real time, then masters it (see `MixRenderer`).
///
/// Each event sounds at frame round(t × rate), applied at FluidSynth's next 64-frame block
/// boundary (1.45 ms at 44.1 kHz). After the last event the file runs on for the sampler's
/// `tailDuration` so notes, echoes and reverb die away.
///
/// Every half simulated second the synths render that stretch on the worker threads while
/// this thread simulates on and mixes the stretch before, so on two cores the physics
/// costs no wall time.
public final class AudioFileSink: SessionSink {
    private let mixer: MixRenderer
    private var router: NoteRouter
    private let rate: Double
    /// The file being written.
    public let path: String
    /// Loudness and true peak of the written mix, once finished.
    public private(set) var report: MasteringReport?

    /// Loads the SoundFont into each part's synth and checks `path` (format from its extension) and the stems directory.
    init(path: String, samplerConfiguration: SamplerConfiguration, session: Configuration, mix: MixRequest) throws(SessionError) {
        guard let format = AudioFileFormat(path: path) else {
            throw .usage("--audio \(path): the file name must end in .wav, .flac or .ogg")
        }
        guard let bitDepth = BitDepth(rawValue: mix.bitDepth) else {
            throw .usage("--bit-depth \(mix.bitDepth) is not accepted; accepted: 16, 24, 32f")
        }
        self.path = path
        let plan = MixPlan(session)
        router = NoteRouter(plan: plan)
        rate = samplerConfiguration.sampleRate
        // FluidSynth ends a voice once it falls below a noise floor relative to the synth's
        // gain; at fluidsynth's own default gain (0.2) quiet tails end sooner than at 0.5 and
        // synthesis is cheaper. Mastering sets the level afterwards anyway.
        var renderConfiguration = samplerConfiguration
        renderConfiguration.gain = AudioFileSink.renderGain
        do {
            mixer = try MixRenderer(parts: plan.parts, configuration: renderConfiguration, mixPath: path,
                                    stemsDirectory: mix.stemsDirectory, format: format,
                                    mastering: Mastering(loudness: mix.loudness, truePeak: mix.truePeak, bitDepth: bitDepth),
                                    expectedSeconds: session.duration, threads: mix.threads ?? MixRenderer.coreCount)
        } catch {
            throw SessionError(error)
        }
    }

    /// Seconds of audio after the session's end.
    public var tailDuration: Double { mixer.configuration.tailDuration }

    /// FluidSynth's master gain for offline renders (its own default).
    static let renderGain = 0.2

    private var renderedThrough = 0.0

    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            guard case .note(let note) = event else { continue }
            let channel = router.channel(for: note)
            let frame = Int64((note.time * rate).rounded())
            mixer.send(MixEvent(frame: frame, channel: channel,
                                kind: note.kind == .on ? .noteOn(note: note.note, velocity: note.velocity) : .noteOff(note: note.note)))
        }
        // Half a simulated second at a time, so the threads meet a few times per second.
        if time - renderedThrough >= 0.5 {
            renderedThrough = time
            do {
                try mixer.render(toFrame: Int64((time * rate).rounded()))
            } catch {
                throw SessionError(error)
            }
        }
    }

    public func finish(at time: Double) throws(SessionError) {
        do {
            report = try mixer.finish(atFrame: Int64(((time + tailDuration) * rate).rounded(.up)))
        } catch {
            throw SessionError(error)
        }
    }

    public func abandon() { mixer.abandon() }
}

/// Plays the session live through FluidSynth's audio driver; the simulator is paced to the wall clock.
public final class LiveSink: SessionSink {
    private let sampler: Sampler
    private let live: LiveAudio
    private let stop: StopSignal?

    /// Starts the audio driver (nil = FluidSynth's default). With the `file` driver, `fileName`
    /// receives the sound: FluidSynth writes a temporary file beside it, renamed into place at
    /// the end, and a file shorter than the time played (a full disk) is an error.
    init(samplerConfiguration: SamplerConfiguration, session: Configuration, driver: String?, fileName: String?,
         stop: StopSignal?) throws(SessionError) {
        var calibrated = samplerConfiguration
        calibrated.gain = LiveCalibration.synthGain(preset: session.preset.name, base: samplerConfiguration.gain)
        let plan = MixPlan(session)
        router = NoteRouter(plan: plan)
        sampler = try SamplerFactory.make(calibrated, plan: plan)
        self.stop = stop
        self.fileName = fileName
        if let fileName {
            let directory = PresetLibrary.parent(of: fileName)
            let base = fileName.split(separator: "/").last.map(String.init) ?? fileName
            // FluidSynth picks the format from the extension: keep it on the temporary name.
            let suffix = base.lastIndex(of: ".").map { String(base[$0...]) } ?? ""
            temporaryName = (directory == "/" ? "" : directory) + "/." + base + ".\(getpid()).live.tmp" + suffix
            guard PresetLibrary.isDirectory(directory), access(directory, W_OK) == 0 else {
                throw .cannotCreate("cannot write \(fileName): the directory must exist and be writable")
            }
        }
        do {
            live = try LiveAudio(sampler: sampler, driver: driver, fileName: temporaryName)
        } catch {
            throw SessionError(error)
        }
        started = WallClockPacer.now()
    }

    private let fileName: String?
    private var router: NoteRouter
    private var temporaryName: String?
    private var started = 0.0

    /// The driver actually in use.
    public var driver: String { live.driver }

    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            guard case .note(let note) = event else { continue }
            let channel = router.channel(for: note)
            if note.kind == .on {
                sampler.noteOn(channel: channel, note: note.note, velocity: note.velocity)
            } else {
                sampler.noteOff(channel: channel, note: note.note)
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

    /// Renames the file driver's output into place after checking that it holds what was played.
    private func commitFile(rate: Double) throws(SessionError) {
        guard let fileName, let temporaryName else { return }
        var info = stat()
        let played = WallClockPacer.now() - started
        let expected = played * rate * 4   // 16-bit stereo
        guard stat(temporaryName, &info) == 0, Double(info.st_size) >= 0.8 * expected - 65536 else {
            unlink(temporaryName)
            throw .io("cannot write \(fileName): the live file driver wrote less than was played (disk full?)")
        }
        guard rename(temporaryName, fileName) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryName)
            throw .io("cannot write \(fileName): \(reason)")
        }
    }

    public func abandon() {
        sampler.allNotesOff()
        live.stop()
        if let temporaryName { unlink(temporaryName) }
    }
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
