import Sound
import Performance
import FileOutput
import Synchronization
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
    static func configuration(soundFont: String, sampleRate: Double, polyphony: Int, sound: Preset.Sound) -> SamplerConfiguration {
        SamplerConfiguration(
            soundFont: soundFont, sampleRate: sampleRate, polyphony: polyphony,
            filter: sound.filter.map { LowPassFilter(cutoff: $0.cutoff, resonance: $0.resonance) },
            delay: sound.delay.map { Delay(time: $0.time, feedback: $0.feedback, mix: $0.mix) },
            reverb: sound.reverb.map { Reverb(level: $0.level, roomSize: $0.room) }, gain: sound.gain)
    }

    /// A sampler with each voice's program and controllers set, as the MIDI file has them.
    static func make(_ samplerConfiguration: SamplerConfiguration, session: SessionPlan) throws(SessionError) -> Sampler {
        let sampler: Sampler
        do {
            sampler = try Sampler(configuration: samplerConfiguration)
        } catch {
            throw SessionError(error)
        }
        for voice in session.voices.voices {
            sampler.select(channel: voice.channel, bank: voice.tone.bank, program: voice.tone.program)
            sampler.controlChange(channel: voice.channel, controller: 7, value: voice.level)
            sampler.controlChange(channel: voice.channel, controller: 10, value: voice.openingPan)
            for (controller, value) in session.sound.controllers where controller == 91 || controller == 93 {
                sampler.controlChange(channel: voice.channel, controller: Int(controller), value: Int(value))
            }
        }
        return sampler
    }

    /// Sends one note or controller event to a sampler on its voice's channel (`channels[voice]`).
    static func play(_ event: SessionEvent, channels: [Int], on sampler: Sampler) {
        switch event {
        case .note(let note):
            let channel = channels[note.voice.rawValue]
            if note.kind == .on {
                sampler.noteOn(channel: channel, note: note.note, velocity: note.velocity)
            } else {
                sampler.noteOff(channel: channel, note: note.note)
            }
        case .control(_, let voice, let controller, let value):
            sampler.controlChange(channel: channels[voice.rawValue], controller: controller, value: value)
        default:
            break
        }
    }

    /// True for the events a sampler plays (notes and controllers).
    static func isPlayed(_ event: SessionEvent) -> Bool {
        switch event {
        case .note, .control: return true
        default: return false
        }
    }
}

/// Renders the session to an audio file through FluidSynth, faster than real time.
///
/// Each event sounds at frame round(t × rate), applied at FluidSynth's next 64-frame block
/// boundary (1.45 ms at 44.1 kHz). After the last event the file runs on for the sampler's
/// `tailDuration` so notes, echoes and reverb die away.
///
/// Synthesis runs on its own thread, fed through a bounded queue, so on two cores the physics
/// costs no wall time: a whole run takes about as long as the synthesis alone. The sampler
/// sees exactly the same calls in the same order as it would on one thread, so the file is
/// byte-identical either way.
public final class AudioFileSink: SessionSink {
    private let worker: RenderWorker
    private let stop: StopSignal?
    /// The file being written.
    public let path: String

    /// Loads the SoundFont and opens `path` (format from its extension).
    init(path: String, samplerConfiguration: SamplerConfiguration, session: SessionPlan, stop: StopSignal?) throws(SessionError) {
        self.stop = stop
        guard let format = AudioFileFormat(path: path) else {
            throw .usage("--audio \(path): the file name must end in .wav, .flac or .ogg")
        }
        self.path = path
        let sampler = try SamplerFactory.make(samplerConfiguration, session: session)
        let renderer: AudioFileRenderer
        do {
            renderer = try AudioFileRenderer(sampler: sampler, path: path, format: format)
        } catch {
            throw SessionError(error)
        }
        worker = RenderWorker(sampler: sampler, renderer: renderer, rate: samplerConfiguration.sampleRate,
                              channels: session.voices.voices.map(\.channel))
    }

    /// Seconds of audio after the session's end.
    public var tailDuration: Double { worker.sampler.configuration.tailDuration }

    private var pending: [SessionEvent] = []
    private var pendingSince = 0.0

    /// Events are handed to the synthesis thread in batches of about half a simulated second,
    /// so the two threads meet a few times per second rather than every step.
    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events where SamplerFactory.isPlayed(event) { pending.append(event) }
        if time - pendingSince >= 0.5 || pending.count >= 4096 {
            try flush(through: time)
        }
    }

    private func flush(through time: Double) throws(SessionError) {
        pendingSince = time
        guard !pending.isEmpty else { return }
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        if let error = worker.enqueue(batch) { throw error }
    }

    /// After a stop signal the tail is cut to `interruptedTail` seconds, so stopping stays fast.
    public func finish(at time: Double) throws(SessionError) {
        try flush(through: time)
        let tail = stop?.isRaised == true ? min(tailDuration, Self.interruptedTail) : tailDuration
        if let error = worker.finish(at: time + tail) { throw error }
    }

    /// Seconds of tail after an interruption.
    public static let interruptedTail = 0.5

    public func abandon() { worker.abandon() }
}

/// The synthesis thread of an `AudioFileSink`: a bounded queue of event batches in, audio out.
final class RenderWorker: @unchecked Sendable {
    let sampler: Sampler
    private let renderer: AudioFileRenderer
    private let rate: Double
    private let channels: [Int]
    private enum Message {
        case batch([SessionEvent])
        case end(Double)
    }
    private let queue = BoundedQueue<Message>(capacity: RenderWorker.capacity)
    private let failure = Mutex<SessionError?>(nil)
    private var thread: pthread_t?

    /// Batches (about half a simulated second each) that may wait before the simulator is
    /// held back: enough to keep both threads busy, few enough that a stop renders at most
    /// about 1 s of queued audio before the tail.
    static let capacity = 2

    init(sampler: Sampler, renderer: AudioFileRenderer, rate: Double, channels: [Int]) {
        self.channels = channels
        self.sampler = sampler
        self.renderer = renderer
        self.rate = rate
        let context = Unmanaged.passRetained(self).toOpaque()
        var handle = pthread_t()
        let started = pthread_create(&handle, nil, { context in
            let worker = Unmanaged<RenderWorker>.fromOpaque(context!).takeRetainedValue()
            worker.loop()
            return nil
        }, context)
        if started == 0 {
            thread = handle
        } else {
            Unmanaged<RenderWorker>.fromOpaque(context).release()
            failure.withLock { $0 = .software("cannot start the audio rendering thread") }
            queue.cancel()
        }
    }

    /// Hands a batch to the thread (waiting while the queue is full); returns the thread's error, if any.
    func enqueue(_ events: [SessionEvent]) -> SessionError? {
        if queue.push(.batch(events)) { return nil }
        return failure.withLock { $0 } ?? .software("the audio rendering thread stopped early")
    }

    /// Renders everything queued, then up to `end` seconds, and completes the file.
    func finish(at end: Double) -> SessionError? {
        queue.push(.end(end))
        queue.close()
        join()
        let result = failure.withLock { $0 }
        if result != nil { renderer.abandon() }
        return result
    }

    /// Stops the thread and removes the partial file.
    func abandon() {
        queue.cancel()
        join()
        renderer.abandon()
    }

    private func join() {
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
    }

    private func loop() {
        while let message = queue.pop() {
            switch message {
            case .batch(let events):
                if let error = render(events) {
                    failure.withLock { $0 = $0 ?? error }
                    queue.cancel()
                    return
                }
            case .end(let end):
                if let error = complete(at: end) {
                    failure.withLock { $0 = $0 ?? error }
                }
                return
            }
        }
    }

    private func render(_ events: [SessionEvent]) -> SessionError? {
        do {
            for event in events where SamplerFactory.isPlayed(event) {
                try renderer.render(toFrame: Int64((event.time * rate).rounded()))
                SamplerFactory.play(event, channels: channels, on: sampler)
            }
            return nil
        } catch {
            return SessionError(error)
        }
    }

    private func complete(at end: Double) -> SessionError? {
        do {
            try renderer.render(toSeconds: end)
            try renderer.finish()
            return nil
        } catch {
            return SessionError(error)
        }
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
    init(samplerConfiguration: SamplerConfiguration, session: SessionPlan, driver: String?, fileName: String?,
         stop: StopSignal?) throws(SessionError) {
        sampler = try SamplerFactory.make(samplerConfiguration, session: session)
        channels = session.voices.voices.map(\.channel)
        self.stop = stop
        self.fileName = fileName
        if let fileName {
            guard let format = AudioFileFormat(path: fileName) else {
                throw .usage("--audio \(fileName): the file name must end in .wav, .flac or .ogg")
            }
            self.format = format
            do {
                output = try OutputFile(path: fileName, byName: true)
            } catch {
                throw .cannotCreate("cannot write \(error.path): \(error.reason)")
            }
        }
        do {
            live = try LiveAudio(sampler: sampler, driver: driver, fileName: output?.writePath.string, format: format)
        } catch {
            throw SessionError(error)
        }
        started = WallClockPacer.now()
    }

    private let fileName: String?
    private let channels: [Int]
    private var output: OutputFile?
    private var format: AudioFileFormat?
    private var started = 0.0

    /// The driver actually in use.
    public var driver: String { live.driver }

    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events { SamplerFactory.play(event, channels: channels, on: sampler) }
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
