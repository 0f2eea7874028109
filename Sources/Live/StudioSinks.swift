// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Engine
import Errors
import FileOutput
import MIDIWire
import Performance
import Studio
import Synchronization
import Text
import Theory
#if canImport(Glibc)
import Glibc
#endif

extension SessionError {
    /// The Session error (and exit status) for a Studio error.
    init(_ error: StudioError) {
        switch error {
        case .usage(let message): self = .usage(message)
        case .unavailable(let message): self = .unavailable(message)
        case .io(let message): self = .io(message)
        }
    }
}

/// Where `--midi-out` sends notes.
public enum MIDIOutKind: String, Sendable, CaseIterable {
    /// A JACK client `clumsy`, one MIDI output port per voice.
    case jack
    /// An ALSA sequencer client `Clumsy`, one readable, subscribable port per voice.
    case alsa
}

/// Live MIDI out: each voice's notes on its own port at their session time, and with
/// `--clock-out` a `clock` port with MIDI clock (24 pulses per quarter note at the session
/// tempo), Start at the first note and Stop at the end.
///
/// It is also the session's pacer (JACK mode follows the server's frame time) and a control
/// source that ends the session, cleanly, when the server goes away.
public final class LiveMIDISink: SessionSink, ControlSource {
    private let port: LiveMIDIPort
    private let stop: StopSignal?
    private let clockPort: Int?
    private var router: NoteRouter       // each note's channel, as the MIDI file has it
    private var pulseInterval: Double
    private var nextPulse = 0.0
    private var isClockRunning = false
    private var lastTime = 0.0
    /// Set when the server went away during the session (files are still completed).
    public private(set) var failure: SessionError?
    private let what: String

    /// Port names for a session: one per row of the voices table (`bass`, `keys`, `drums`, …),
    /// then `clock`.
    public static func portNames(voices: VoiceTable, clock: Bool) -> [String] {
        voices.voices.map(\.logName) + (clock ? ["clock"] : [])
    }

    /// Wraps an opened port (`ports` as `portNames(voices:clock:)`); `tempo` in bpm.
    public init(port: LiveMIDIPort, voices: VoiceTable, clock: Bool, tempo: Double, stop: StopSignal?, what: String) {
        self.port = port
        self.stop = stop
        self.what = what
        router = NoteRouter(voices: voices)
        clockPort = clock ? voices.count : nil
        pulseInterval = 60 / (tempo * 24)
    }

    /// Opens `--midi-out kind` for `plan`.
    public static func open(_ kind: MIDIOutKind, clock: Bool, connections: [String], clockConnections: [String] = [],
                            follows clockIn: (any MasterClock)? = nil, plan: SessionPlan,
                            environment: [String: String], stop: StopSignal?) throws(SessionError) -> LiveMIDISink {
        let names = portNames(voices: plan.voices, clock: clock)
        let tempo = plan.clock.tempo
        do throws(StudioError) {
            switch kind {
            case .jack:
                let output = try JackMIDIOutput(ports: names, connections: connections, clockConnections: clockConnections,
                                                environment: environment)
                if let clockIn {
                    clockIn.use { [unowned output] micros in output.frame(atMicroseconds: micros) }
                    output.timeline = { time in clockIn.frame(at: time) }
                    output.gate = { time in clockIn.isDue(time) }
                    output.isStopped = { stop?.isRaised == true }
                }
                return LiveMIDISink(port: output, voices: plan.voices, clock: clock, tempo: tempo, stop: stop,
                                    what: StudioError.jackServer(environment: environment))
            case .alsa:
                guard connections.isEmpty else { throw .usage("--connect works with --midi-out jack; with ALSA, subscribe with aconnect") }
                let output = try ALSASequencerOutput(ports: names)
                if let clockIn { output.gate = { time in clockIn.isDue(time) || stop?.isRaised == true } }
                return LiveMIDISink(port: output, voices: plan.voices, clock: clock, tempo: tempo, stop: stop, what: "the ALSA sequencer")
            }
        } catch {
            throw SessionError(error)
        }
    }

    private func send(_ message: MIDIBytes, port index: Int, at time: Double) {
        guard failure == nil else { return }
        if !port.send(message, port: index, at: time) {
            failure = SessionError(StudioError.wentAway(what))
        }
    }

    /// Sends the clock pulses due at or before `time`.
    private func clock(through time: Double) {
        guard let clockPort, isClockRunning else { return }
        while nextPulse <= time + 1e-9 {
            send(.clock, port: clockPort, at: nextPulse)
            nextPulse += pulseInterval
        }
    }

    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            switch event {
            case .note(let note):
                if let clockPort, !isClockRunning {
                    isClockRunning = true
                    send(.start, port: clockPort, at: note.time)
                    nextPulse = note.time
                }
                clock(through: note.time)
                fallthrough
            case .control:
                // A note on its voice's port; a voice's controller on that port and every channel
                // of the voice (as in the MIDI file).
                router.forEachMessage(of: event) { time, voice, message in send(message, port: voice.rawValue, at: time) }
            case .live(let at, _, .tempo(let bpm)):
                clock(through: at)
                pulseInterval = 60 / (bpm * 24)
                if isClockRunning, nextPulse > at + pulseInterval { nextPulse = at + pulseInterval }
            default:
                break
            }
        }
        lastTime = time
    }

    /// Paces the session: sends the clock up to `time`, then waits until `time` is due on the
    /// port's clock (JACK's frame time, or the wall clock for ALSA).
    public func pace(until time: Double) {
        clock(through: time)
        port.wait(until: time) { [stop] in stop?.isRaised == true }
    }

    public func poll(step: Int64, into controls: inout [Control]) -> Bool {
        if failure == nil && port.isGone {
            failure = SessionError(StudioError.wentAway(what))
        }
        return failure == nil
    }

    public func finish(at time: Double) throws(SessionError) {
        clock(through: time)
        if let clockPort, isClockRunning { send(.stop, port: clockPort, at: time) }
        port.close(timeout: 2)
        if let report = port.deliveryReport { warn(report) }
    }

    public func abandon() { port.close(timeout: 0.5) }

    private func warn(_ text: String) {
        let line = "clumsy: " + text + "\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}

/// `--osc-out host:port`: every event as an OSC message (liblo), when the session reaches it.
///
/// `/clumsy/note s:voice i:note i:velocity` (velocity 0 ends the note), `/clumsy/chord
/// i:degree s:symbol` at every chord change (the session's chord events, named as the text
/// view and the event log name them), `/clumsy/hit i:ball s:target f:speed` for every
/// struck note (`target` is `degree N`, `key N`, or for drums `wall`, `floor` or `bass wall`), and `/clumsy/kick`, `/clumsy/drop
/// i:ball`, `/clumsy/escape i:ball`, `/clumsy/control s:name [f:value]` for a live control, and for
/// a live key change `/clumsy/key s:tonic s:mode` (the chord playing is then sent again, named in the new key).
public final class OSCOutSink: SessionSink {
    private let sender: OSCSender
    private let voiceNames: [String]

    /// Resolves `target` (`host:port`).
    public init(target: String, plan: SessionPlan) throws(SessionError) {
        do {
            sender = try OSCSender(target: target)
        } catch {
            throw SessionError(error)
        }
        voiceNames = plan.voices.voices.map(\.logName)
    }

    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            switch event {
            case .note(let note):
                let velocity = note.kind == .on ? note.velocity : 0
                sender.send(OSCMessage(path: "/clumsy/note", arguments: [.string(voiceNames[note.voice.rawValue]), .int(Int32(note.note)), .int(Int32(velocity))]))
                guard note.kind == .on, note.speed > 0 else { continue }
                let target: String
                switch note.cause {
                case .bassHit(let degree): target = "degree \(degree)"
                case .keyHit(let key, _), .melodyStep(let key, _): target = "key \(key)"
                case .drum(let source): target = note.ball == 0 ? "bass wall" : source.rawValue
                // A derived voice's note doubles another (no hit of its own); a leading note
                // approaches the next chord (not a chord, not a hit).
                case .opening, .ending, .leadingNote, .derived, .none: continue
                }
                sender.send(OSCMessage(path: "/clumsy/hit", arguments: [.int(Int32(note.ball)), .string(target), .float(Float(note.speed))]))
            case .chord(let chord):
                sender.send(OSCMessage(path: "/clumsy/chord", arguments: [.int(Int32(chord.degree)), .string(chord.name)]))
            case .kick:
                sender.send(OSCMessage(path: "/clumsy/kick", arguments: []))
            case .drop(_, let ball):
                sender.send(OSCMessage(path: "/clumsy/drop", arguments: [.int(Int32(ball))]))
            case .escape(_, let ball):
                sender.send(OSCMessage(path: "/clumsy/escape", arguments: [.int(Int32(ball))]))
            case .control:
                continue   // a voice's controller (pan): not an event of the performance
            case .live(_, _, .key(let key)):
                sender.send(OSCMessage(path: "/clumsy/key", arguments: [.string(key.spelledTonic.name(.ascii)), .string(key.scale.name)]))
            case .live(_, _, .level(let voice, let value)):
                sender.send(OSCMessage(path: "/clumsy/level", arguments: [.string(voice), .int(Int32(value))]))
            case .live(_, _, let control):
                // A control without a number (kick, drop, lift) sends its name alone, not a 0.
                let value = control.value.map { [OSCValue.float(Float($0))] } ?? []
                sender.send(OSCMessage(path: "/clumsy/control", arguments: [.string(control.name)] + value))
            }
        }
    }

    public func finish(at time: Double) throws(SessionError) {}
    public func abandon() {}
}

/// `--osc-in [addr:]port`: OSC messages that steer the running session.
///
/// Accepted: `/clumsy/gravity x` (m/s²), `/clumsy/speed x` (m/s), `/clumsy/tempo bpm`, each one
/// number (int or float) in its flag's range, `/clumsy/kick`, `/clumsy/drop` without
/// arguments, and `/clumsy/key tonic mode` (two strings, spelled as a preset's `key.tonic` and
/// `key.scale`) naming a key the session can play (`SessionPlan.keyChange(to:)`), and
/// `/clumsy/level voice value` (a voice's event-log name and a whole CC7 0…127), and
/// `/clumsy/balls count` (piano balls in play, a whole number 0…the session's count), and
/// `/clumsy/chord degree` (a whole number 1…7: that degree's chord takes over). Anything
/// else — unknown paths, wrong types or counts, NaN, values out of range, unknown tonics or
/// modes, a mode lacking a bouncer's degree, bundles, garbage — is ignored and logged once per
/// distinct problem on stderr. Accepted controls take effect at the start of the next step (at
/// most `perStep` per step).
public final class OSCControlSource: ControlSource, @unchecked Sendable {
    private var receiver: OSCReceiver?
    private let queue = Mutex<[Control]>([])
    private let queued = Atomic<Int>(0)
    private let logged = Mutex<Set<String>>([])

    /// Controls applied per step at most; the rest wait for the next steps.
    public static let perStep = 16
    /// What the controls of one step may cost at most (`Control.cost(pianoBalls:)`, balls
    /// moved); the first control waiting is always taken, whatever its cost, so one drop into
    /// a session of any size takes effect at once and a flood of them is spread over steps.
    public static let budget = 1024
    /// How many of the first `waiting` controls one step takes: the first always, whatever its
    /// cost, then as many as `perStep` and `budget` allow (MIDI in spends the same budget).
    static func affordable(_ waiting: [Control], pianoBalls: Int) -> Int {
        var count = 0, spent = 0
        while count < min(waiting.count, perStep) {
            let cost = waiting[count].cost(pianoBalls: pianoBalls)
            guard count == 0 || spent + cost <= budget else { break }
            spent += cost
            count += 1
        }
        return count
    }

    /// Controls that may wait; more are refused (and logged once).
    public static let capacity = 1024
    /// Distinct problems logged; after that, problems are ignored silently.
    public static let logLimit = 64

    /// The UDP port listened on.
    public var port: Int { receiver?.port ?? 0 }

    /// The session, which refuses the well-formed controls it cannot apply (`SessionPlan.rejection(of:)`).
    private let plan: SessionPlan

    /// Refuses a `listen` (`[addr:]port`) that cannot be listened on (port 0, a port nobody is
    /// told; a bad address) before anything is built.
    package static func check(listen: String) throws(SessionError) {
        do throws(StudioError) {
            _ = try OSCReceiver.parse(listen)
        } catch {
            throw SessionError(error)
        }
    }

    /// Listens on `listen` (`[addr:]port`, address 127.0.0.1 unless given); `plan` refuses the
    /// key changes the session cannot play.
    public init(listen: String, plan: SessionPlan) throws(SessionError) {
        self.plan = plan
        do {
            receiver = try OSCReceiver(listen: listen) { [weak self] result in self?.receive(result) }
        } catch {
            throw SessionError(error)
        }
    }

    /// Stops listening.
    public func close() {
        receiver?.stop()
        receiver = nil
    }

    deinit { receiver?.stop() }

    /// What a message asks for, or why it is refused.
    public static func interpret(_ message: OSCMessage) -> Result<Control, ControlRejection> {
        let path = message.path
        let types = String(message.arguments.map { argument -> Character in
            switch argument {
            case .int: return "i"
            case .float: return "f"
            case .string: return "s"
            case .number(_, let type), .other(let type): return type
            }
        })
        let described = "OSC \(path) (types \"\(types)\")"
        guard let row = Control.table.first(where: { $0.path == path }) else {
            return .failure(ControlRejection("unknown OSC path \(path); accepted: \(Control.table.map(\.path).joined(separator: ", "))"))
        }
        let arguments = message.arguments
        // The arguments the row's shape takes; a wrong count or type is refused before the row checks values.
        let argument: ControlArgument?
        switch row.shape {
        case .none:
            argument = arguments.isEmpty ? ControlArgument.none : nil
        case .number, .whole:
            argument = arguments.count == 1 ? arguments[0].number.map(ControlArgument.number) : nil
        case .key:
            if arguments.count == 2, case .string(let tonic) = arguments[0], case .string(let mode) = arguments[1] {
                argument = .key(tonic: tonic, mode: mode)
            } else {
                argument = nil
            }
        case .level:
            if arguments.count == 2, case .string(let voice) = arguments[0], let value = arguments[1].number {
                argument = .level(voice: voice, value: value)
            } else {
                argument = nil
            }
        }
        guard let argument else { return .failure(ControlRejection("\(described): expected \(row.accepted)")) }
        return row.make(argument).mapError { ControlRejection("\(described): \($0.description)") }
    }

    private func receive(_ result: Result<OSCMessage, StudioError>) {
        switch result {
        case .failure(let error):
            log("OSC: \(error.description)", key: error.description)
        case .success(let message):
            var interpreted = Self.interpret(message)
            if case .success(let control) = interpreted, let rejection = plan.rejection(of: control) {
                interpreted = .failure(ControlRejection("OSC \(message.path): \(rejection.description)"))
            }
            switch interpreted {
            case .failure(let rejection):
                log(rejection.description, key: rejection.description)
            case .success(let control):
                let accepted = queue.withLock { queue -> Bool in
                    guard queue.count < Self.capacity else { return false }
                    queue.append(control)
                    return true
                }
                if accepted {
                    queued.add(1, ordering: .releasing)
                } else {
                    log("OSC: more than \(Self.capacity) controls waiting; later ones are ignored", key: "capacity")
                }
            }
        }
    }

    private func log(_ text: String, key: String) {
        let isNew = logged.withLock { set -> Bool in
            guard set.count < Self.logLimit, !set.contains(key) else { return false }
            set.insert(key)
            return true
        }
        guard isNew else { return }
        // The text quotes what the network sent (paths, strings): nothing of it may steer the terminal.
        let line = "clumsy: " + Quote.text(text, limit: 5 * Quote.defaultLimit) + "; ignored\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }

    public func poll(step: Int64, into controls: inout [Control]) -> Bool {
        guard queued.load(ordering: .acquiring) > 0 else { return true }
        let pianoBalls = plan.world.pianoStarts.count
        let taken = queue.withLock { queue -> Int in
            let count = Self.affordable(queue, pianoBalls: pianoBalls)
            controls.append(contentsOf: queue[0..<count])
            queue.removeFirst(count)
            return count
        }
        queued.subtract(taken, ordering: .releasing)
        return true
    }
}
