// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import FileOutput
import Geometry
import Performance
import Pictures
import Text
import Theory
import Vocabulary
import WorldDrawing
#if canImport(Glibc)
import Glibc
#endif

extension SessionError {
    /// The Session error (and exit status) for a Pictures error.
    package init(_ error: PictureError, path: String) {
        switch error {
        case .programMissing(let message): self = .unavailable(message)
        case .encoderFailed(let message), .io(let message): self = .io("cannot write \(path): \(message)")
        case .cairo(let message): self = .software("cannot draw \(path): \(message)")
        }
    }
}

/// What `--video` asked for.
public struct VideoRequest: Sendable {
    /// The video file (.mp4 or .webm).
    public var path: String
    /// Frames per second, 1…120.
    public var fps: Int
    /// Frame size.
    public var size: PictureSize

    /// Accepted frame rates.
    public static let rates = 1...120

    /// Creates a request.
    public init(path: String, fps: Int = 30, size: PictureSize = .standard) {
        self.path = path
        self.fps = fps
        self.size = size
    }

    /// Checks the extension, frame rate and size (even, for yuv420p); errors name the flag.
    public func validate() throws(SessionError) {
        guard VideoContainer(path: path) != nil, !OutputName.isOnlyExtension(path) else {
            throw .usage(OutputName.extensionProblem(path, flag: "--video", accepted: ".mp4 (H.264 + AAC) or .webm (VP9 + Opus)"))
        }
        guard Self.rates.contains(fps) else { throw .usage("--fps \(fps) is out of range; accepted: 1…120 frames per second") }
        guard size.width % 2 == 0 && size.height % 2 == 0 else {
            throw .usage("--size \(size.width)x\(size.height): a video needs an even width and height (yuv420p)")
        }
    }
}

/// The files a video is made of, all created before the session runs, the one way every
/// output's files are (`OutputFile`, `TemporaryName`: exclusively, locked while in use):
/// the output's temporary beside the target (or, for a special file, a scratch file in
/// `$TMPDIR` copied into it at the end), and two files without a name in the same
/// directory, the video-only stream and ffmpeg's log, which vanish however the run ends.
/// ffmpeg gets them open (`/proc/self/fd/N`), never by a name someone else could plant.
package final class VideoFiles {
    /// The video output.
    let output: OutputFile
    /// The scratch video-only (Matroska) file.
    let video: Int32
    /// ffmpeg's stderr.
    let log: Int32
    /// Where the scratch files are: the temporary's directory.
    let directory: String
    private let name: String

    package init(path: String) throws(SessionError) {
        do {
            output = try OutputFile(target: OutputTarget(path: path), seekable: true)
        } catch {
            throw .cannotCreate(error.description)
        }
        directory = PathName.directory(of: PathBytes.string(output.writePath))
        name = PathName.name(of: PathBytes.string(output.target.file))
        do {
            video = try TemporaryName.anonymous(in: directory, for: name + ".video.mkv").rawValue
        } catch {
            throw .cannotCreate("cannot create a scratch file for \(path) in '\(directory)': \(error.text)")
        }
        do {
            log = try TemporaryName.anonymous(in: directory, for: name + ".ffmpeg.log").rawValue
        } catch {
            close(video)
            throw .cannotCreate("cannot create a scratch file for \(path) in '\(directory)': \(error.text)")
        }
    }

    deinit {
        close(video)
        close(log)
    }

    /// A fresh, unguessable name for the session's sound when no `--audio` file is asked for
    /// (a `TemporaryName`: a run killed before removing it leaves it to the next run's cleanup).
    package func soundPath() -> String {
        directory + "/" + TemporaryName.make(for: name + ".audio.wav")
    }
}

/// Draws the session as a video: frame n shows the world after the last step at or before
/// t = n / fps (stepped, not interpolated: at the default 240 Hz physics and 30 fps that is
/// exactly every 8th step). Frames go to ffmpeg as they are drawn; at the end the frames run
/// on through the audio's tail (the world still, flashes fading, the roll scrolling) and the
/// audio file is muxed in. Written beside the target and renamed at the end.
package final class VideoSink: SessionSink, StepObserver {
    let path: String
    private let fps: Double
    private let tail: Double
    private let stop: StopSignal?
    private let audioPath: String
    private let removesAudio: Bool
    /// False once a temporary sound has been opened and unlinked (`openSound`).
    private var isSoundNamed = true
    private let encoder: VideoEncoder
    private let renderer: VideoFrameRenderer
    private let files: VideoFiles
    private var nextFrame = 0
    private let bouncerIndex: [Int]   // degree 1…7 → bouncer index, or -1
    private let keyTones: [Int]
    private let performer: PerformerConfiguration
    private var queued: [SessionEvent] = []   // notes and chords not yet drawn
    private var observedTime = -Double.infinity
    /// Called once when the session has ended and the last frames and the mux begin.
    package var onFinishing: (() -> Void)?

    /// Starts ffmpeg. `audioPath` is the audio file that will exist when the session has
    /// finished (removed afterwards if `removesAudio`); `tail` is its length after the session
    /// (cut as the audio sink cuts it when `stop` was raised).
    package init(request: VideoRequest, files: VideoFiles, plan: SessionPlan, ffmpeg: String, audioPath: String, removesAudio: Bool,
         tail: Double, stop: StopSignal?) throws(SessionError) {
        path = request.path
        fps = Double(request.fps)
        self.tail = tail
        self.stop = stop
        self.audioPath = audioPath
        self.removesAudio = removesAudio
        let container = VideoContainer(path: request.path)!
        self.files = files
        let drawing = PlanDrawing.drawing(for: plan)
        performer = plan.performer
        keyTones = plan.keyTones
        var index = Array(repeating: -1, count: 8)
        for (i, b) in plan.layout.bouncers.enumerated() { index[b.tag] = i }
        bouncerIndex = index
        // One lane per voice of the table, the bar and beat lines from the session's tempo and meter.
        let roll = Roll(title: "", legend: [], lanes: PlanDrawing.lanes(for: plan),
                        notes: [], chords: [], secondsPerBeat: plan.clock.beatSeconds, beatsPerBar: plan.clock.meter.beats,
                        duration: plan.duration)
        do {
            renderer = try VideoFrameRenderer(drawing: drawing, width: request.size.width, height: request.size.height, roll: roll)
            renderer.roll.notes.reserveCapacity(4096)
            encoder = try VideoEncoder(ffmpeg: ffmpeg, container: container, video: files.video, log: files.log,
                                       width: request.size.width, height: request.size.height, fps: request.fps,
                                       isStopped: { stop?.isRaised == true })
        } catch {
            throw SessionError(error, path: request.path)
        }
        queued.reserveCapacity(256)
    }

    /// Checks a video request before anything runs and finds ffmpeg (69 naming the package if missing).
    package static func prepare(_ video: VideoRequest, isLive: Bool, environment: [String: String]) throws(SessionError) -> String {
        try video.validate()
        guard !isLive else { throw .usage("--video renders offline; it cannot be combined with --live") }
        let ffmpeg: String
        do {
            ffmpeg = try VideoEncoder.locateFFmpeg(searchPath: environment["PATH"])
        } catch {
            throw SessionError(error, path: video.path)
        }
        return ffmpeg
    }

    /// Notes and chords are queued and applied frame by frame: a note changes the picture from
    /// the first frame at or after the time it sounds (`t`, after quantisation), not at the
    /// physical hit; a chord from the first frame at or after it takes over.
    package func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            switch event {
            case .note: queued.append(event)
            case .chord: queued.append(event)
            default: break
            }
        }
    }

    /// Applies the queued notes that sound at or before `time`.
    private func apply(through time: Double) {
        var head = 0
        while head < queued.count && queued[head].time <= time + 1e-9 {
            switch queued[head] {
            case .note(let note): apply(note)
            case .chord(let chord): changeChord(to: chord)
            default: break
            }
            head += 1
        }
        if head > 0 { queued.removeFirst(head) }
    }

    private func apply(_ note: NoteEvent) {
        let lane = note.voice.rawValue
        if note.kind == .off {
            // Close the most recent sounding note of that pitch in that lane.
            var i = renderer.roll.notes.count - 1
            while i >= 0 && i >= renderer.roll.notes.count - 256 {
                let n = renderer.roll.notes[i]
                if n.lane == lane && n.pitch == note.note && n.end == .infinity {
                    renderer.roll.notes[i].end = note.time
                    break
                }
                i -= 1
            }
            return
        }
        renderer.roll.notes.append(Roll.Note(lane: lane, start: note.time, end: .infinity, pitch: note.note, velocity: note.velocity))
        switch note.cause {
        case .keyHit(let key, _), .melodyStep(let key, _):
            if key >= 1, key <= renderer.keyHits.count { renderer.keyHits[key - 1] = note.time }
        case .opening, .ending, .bassHit:
            // (A leading note approaches the next root: no bouncer was struck, no chord changes.)
            let b = bouncerIndex[max(0, min(7, note.degree))]
            if b >= 0 { renderer.bouncerHits[b] = note.time }
        case .leadingNote, .drum, .derived, .none:
            break
        }
    }

    /// The session's chord event: its name and numeral in the panel and the roll, and the
    /// notes the keys play under it.
    private func changeChord(to event: ChordEvent) {
        let key = event.key, newDegree = event.degree
        (renderer.chord, renderer.numeral) = Self.label(of: event)
        renderer.chordHue = newDegree - 1
        renderer.roll.chords.append(Roll.ChordMark(time: event.time, name: event.name, hue: newDegree - 1))
        guard (1...7).contains(newDegree) else { return }
        for i in keyTones.indices where i < renderer.keyNotes.count {
            let pitch = key.spell(Pitch(midi: performer.keysNote(degree: newDegree, tone: keyTones[i])))
            // Under smooth voicing the octave follows the voice leading: the name alone.
            renderer.keyNotes[i] = performer.voicing == .smooth ? pitch.spelling.name() : pitch.name()
        }
    }

    /// The video's label for a chord event: the chord's name in the panel ("E7") and below it
    /// its numeral in the key ("II7 of D major").
    static func label(of event: ChordEvent) -> (chord: String, numeral: String) {
        (event.name, event.numeral + " of " + event.key.description)
    }

    /// A step's world is drawn one step later, once the notes due by then have surely arrived:
    /// a note found in a step's last sub-step can carry a time a rounding error past that
    /// step's end and reach the sinks with the next step.
    package func observe(_ balls: BallPositions, at time: Double) throws(SessionError) {
        try frames(through: observedTime)
        for i in 0..<min(balls.count, renderer.positions.count) {
            // A ball out of the world (the `balls` control) is not drawn.
            renderer.positions[i] = balls.isIn(i) ? balls.position(of: i) : Vector(.nan, .nan)
        }
        observedTime = time
    }

    /// Draws and sends every frame due at or before `time`, each after the notes due by its instant.
    private func frames(through time: Double) throws(SessionError) {
        while Double(nextFrame) / fps <= time + 1e-9 {
            let instant = Double(nextFrame) / fps
            apply(through: instant)
            do {
                try renderer.render(at: instant)
                try encoder.write(renderer.canvas)
            } catch {
                throw SessionError(error, path: path)
            }
            nextFrame += 1
        }
    }

    /// Frames in a video of `seconds`: enough to cover them, less than one frame more.
    static func frameCount(seconds: Double, fps: Double) -> Int { Int((seconds * fps - 1e-9).rounded(.up)) }

    package func finish(at time: Double) throws(SessionError) {
        onFinishing?()
        // The audio's tail is cut short after a stop signal; the video ends with it.
        let tail = stop?.isRaised == true ? min(self.tail, AudioFileSink.interruptedTail) : self.tail
        let total = Self.frameCount(seconds: time + tail, fps: fps)
        // The sound is complete (its sink finished first): opened now, and a temporary sound
        // loses its name at once, before the tail frames, so no cleaner finds it unlocked.
        let audio: Int32
        do { audio = try openSound() } catch {
            cleanUp()
            throw SessionError(error, path: path)
        }
        defer { close(audio) }
        try frames(through: (Double(total) - 0.5) / fps)
        do {
            try encoder.finishVideo()
            try encoder.mux(audio: audio, into: files.output.descriptor!.rawValue)
        } catch {
            cleanUp()
            throw SessionError(error, path: path)
        }
        do {
            try files.output.commit()
        } catch {
            cleanUp()
            throw .io(error.description)
        }
        cleanUp()
    }

    /// Opens the sound for the muxer; a temporary sound loses its name at once.
    private func openSound() throws(PictureError) -> Int32 {
        let audio = PathBytes.withCString(audioPath) { open($0, O_RDONLY | O_CLOEXEC | (removesAudio ? O_NOFOLLOW : 0)) }
        guard audio >= 0 else { throw .io("cannot read the sound \(Quote.text(audioPath)): \(String(cString: strerror(errno)))") }
        if removesAudio {
            _ = PathBytes.withCString(audioPath) { unlink($0) }
            isSoundNamed = false
        }
        return audio
    }

    private func cleanUp() {
        files.output.abandon()
        if removesAudio && isSoundNamed { _ = PathBytes.withCString(audioPath) { unlink($0) } }
    }

    package func abandon() {
        encoder.abandon()
        cleanUp()
    }
}
