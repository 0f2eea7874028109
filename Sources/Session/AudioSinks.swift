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
            self = .preset(file: "", field: "", message: error.description)
        case .outputDirectoryMissing, .outputNotWritable, .openFailed:
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

/// Builds a FluidSynth sampler for a session: SoundFont, effects, programs and controllers.
enum SamplerFactory {
    /// The sampler configuration of a session (SoundFont already resolved).
    static func configuration(soundFont: String, sampleRate: Double, polyphony: Int, sound: SoundSettings) -> SamplerConfiguration {
        SamplerConfiguration(
            soundFont: soundFont, sampleRate: sampleRate, polyphony: polyphony,
            filter: sound.filter.map { LowPassFilter(cutoff: $0.cutoff, resonance: $0.resonance) },
            delay: sound.delay.map { Delay(time: $0.time, feedback: $0.feedback, mix: $0.mix) },
            reverb: sound.reverb.map { Reverb(level: $0.level, roomSize: $0.room) })
    }

    /// A sampler with each voice's program and controllers set, as the MIDI file has them.
    static func make(_ samplerConfiguration: SamplerConfiguration, session: Configuration) throws(SessionError) -> Sampler {
        let sampler: Sampler
        do {
            sampler = try Sampler(configuration: samplerConfiguration)
        } catch {
            throw SessionError(error)
        }
        for (voice, tone) in [(Voice.bass, session.bassTone), (Voice.keys, session.keysTone)] {
            let channel = Int(MIDIRecorder.channel(of: voice))
            sampler.select(channel: channel, bank: tone.bank, program: tone.program)
            for (controller, value) in session.sound.controllers where controller == 91 || controller == 93 {
                sampler.controlChange(channel: channel, controller: Int(controller), value: Int(value))
            }
        }
        return sampler
    }

    /// Sends one note event to a sampler.
    static func play(_ note: NoteEvent, on sampler: Sampler) {
        let channel = Int(MIDIRecorder.channel(of: note.voice))
        if note.kind == .on {
            sampler.noteOn(channel: channel, note: note.note, velocity: note.velocity)
        } else {
            sampler.noteOff(channel: channel, note: note.note)
        }
    }
}

/// Renders the session to an audio file through FluidSynth, faster than real time.
///
/// Each event sounds at frame round(t × rate), applied at FluidSynth's next 64-frame block
/// boundary (1.45 ms at 44.1 kHz). After the last event the file runs on for the sampler's
/// `tailDuration` so notes, echoes and reverb die away.
public final class AudioFileSink: SessionSink {
    private let sampler: Sampler
    private let renderer: AudioFileRenderer
    private let rate: Double
    /// The file being written.
    public let path: String

    /// Loads the SoundFont and opens `path` (format from its extension).
    init(path: String, samplerConfiguration: SamplerConfiguration, session: Configuration) throws(SessionError) {
        guard let format = AudioFileFormat(path: path) else {
            throw .usage("--audio \(path): the file name must end in .wav, .flac or .ogg")
        }
        self.path = path
        sampler = try SamplerFactory.make(samplerConfiguration, session: session)
        rate = samplerConfiguration.sampleRate
        do {
            renderer = try AudioFileRenderer(sampler: sampler, path: path, format: format)
        } catch {
            throw SessionError(error)
        }
    }

    /// Seconds of audio after the session's end.
    public var tailDuration: Double { sampler.configuration.tailDuration }

    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        do {
            for event in events {
                guard case .note(let note) = event else { continue }
                try renderer.render(toFrame: Int64((note.time * rate).rounded()))
                SamplerFactory.play(note, on: sampler)
            }
        } catch {
            throw SessionError(error)
        }
    }

    public func finish(at time: Double) throws(SessionError) {
        do {
            try renderer.render(toSeconds: time + tailDuration)
            try renderer.finish()
        } catch {
            throw SessionError(error)
        }
    }

    public func abandon() { renderer.abandon() }
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
        sampler = try SamplerFactory.make(samplerConfiguration, session: session)
        self.stop = stop
        self.fileName = fileName
        if let fileName {
            let slash = fileName.lastIndex(of: "/")
            let directory = slash.map { String(fileName[..<$0]) } ?? "."
            let base = slash.map { String(fileName[fileName.index(after: $0)...]) } ?? fileName
            temporaryName = (directory.isEmpty ? "" : directory) + "/." + base + ".\(getpid()).live.tmp"
            // FluidSynth picks the format from the extension: keep it on the temporary name.
            if let dot = base.lastIndex(of: ".") { temporaryName! += String(base[dot...]) }
            guard PresetLibrary.isDirectory(directory.isEmpty ? "/" : directory), access(directory.isEmpty ? "/" : directory, W_OK) == 0 else {
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
    private var temporaryName: String?
    private var started = 0.0

    /// The driver actually in use.
    public var driver: String { live.driver }

    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            if case .note(let note) = event { SamplerFactory.play(note, on: sampler) }
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
