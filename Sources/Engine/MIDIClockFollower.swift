// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIWire

/// Follows a MIDI clock master: Start, Stop, Continue, Song Position Pointer and 24 pulses a
/// quarter note, each with the frame (of a sample clock, such as JACK's) it arrived at.
///
/// The position counts pulses since the song's start (Song Position Pointer: sixteenths,
/// six pulses each); as the MIDI specification says, the first pulse after Start or Continue
/// marks the position, and each later one moves it a pulse on. The tempo is the slope of a
/// least-squares line through the frames of the last `window` pulses, so the jitter of any one
/// pulse (a USB interface's, a busy master's) averages out, and a new tempo is followed within
/// one beat. Between pulses the position is extrapolated at that tempo, at most one pulse on:
/// a master that stops sending (a stalled clock) holds the position still.
///
/// A lost pulse (a JACK client that misses a cycle on a busy machine loses that cycle's MIDI)
/// would put every later note a pulse late. So, once the tempo is settled over a whole window,
/// a pulse that comes about two pulses after the last (1.6 to 2.4 times the measured spacing)
/// counts two, and the next pulse decides: one spacing after it (0.6 to 1.4) confirms the
/// loss; anything else takes the extra pulse back (late again: the master slowed down; soon
/// after: that pulse was only late), and no loss is inferred until a window has passed.
/// Until the next pulse decides, the position may run one pulse ahead.
public struct MIDIClockFollower: Sendable {
    /// Pulses per quarter note.
    public static let pulsesPerQuarter = 24
    /// The sample rate of the frames, Hz.
    public let sampleRate: Double
    /// Pulses the tempo is measured over (one beat).
    public let window: Int
    /// True between Start (or Continue) and Stop.
    public private(set) var isRunning = false
    /// The song position, in pulses, at the last pulse received.
    public private(set) var pulses = 0
    /// The pulses since the last Start, Continue or locate (the last `window` + 1): their
    /// positions and frames.
    private var points: [(pulse: Int, frame: Double)] = []
    /// The spacing against which the last pulse was counted two (a lost one before it), until
    /// the next pulse confirms the loss or takes it back.
    private var inferredLoss: Double?
    /// No loss is inferred before this position (a window after one was taken back).
    private var quietUntil = 0
    private var awaitingFirstPulse = false
    /// The pulse spacing measured before a Continue or a locate, used until three pulses of the
    /// new run have come: the position is known from the run's first pulse, so a session that
    /// sends its notes when due (ALSA) is not late for the first beat after Continue.
    private var heldPerPulse: Double?

    /// A follower of frames at `sampleRate`; the tempo over the last `window` pulses.
    public init(sampleRate: Double, window: Int = 24) {
        self.sampleRate = sampleRate
        self.window = max(2, window)
        points.reserveCapacity(self.window + 1)
    }

    /// What a message changed, for the session.
    public enum Change: Sendable, Equatable {
        /// Start: the song plays from its beginning.
        case started
        /// Continue: the song plays on from its position.
        case continued
        /// Stop.
        case stopped
        /// Song Position Pointer: the song's position moved (pulses).
        case located(Int)
    }

    /// Takes one message (a status byte and its data) that arrived at `frame`; returns what it
    /// changed, if anything a session must act on.
    public mutating func receive(_ message: MIDIBytes, at frame: Double) -> Change? {
        switch message.status {
        case 0xF8:
            guard isRunning else { return nil }
            if awaitingFirstPulse {
                awaitingFirstPulse = false
            } else {
                pulses += pulsesSinceLast(at: frame)
            }
            if points.count > window { points.removeFirst() }
            points.append((pulses, frame))
            return nil
        case 0xFA:
            (isRunning, pulses, awaitingFirstPulse) = (true, 0, true)
            startRun()
            heldPerPulse = nil   // a new song: its tempo is measured afresh
            return .started
        case 0xFB:
            guard !isRunning else { return nil }
            (isRunning, awaitingFirstPulse) = (true, true)
            heldPerPulse = framesPerPulse ?? heldPerPulse
            startRun()
            return .continued
        case 0xFC:
            guard isRunning else { return nil }
            isRunning = false
            return .stopped
        case 0xF2:
            guard message.count == 3 else { return nil }
            pulses = (Int(message.data1 & 127) | Int(message.data2 & 127) << 7) * 6
            heldPerPulse = framesPerPulse ?? heldPerPulse
            startRun()
            return .located(pulses)
        default:
            return nil
        }
    }

    private mutating func startRun() {
        points.removeAll(keepingCapacity: true)
        (inferredLoss, quietUntil) = (nil, 0)
    }

    /// How many pulses the one arriving at `frame` moves the position on: one, or two when one
    /// was lost before it (and one less when the pulse before it was wrongly counted two).
    private mutating func pulsesSinceLast(at frame: Double) -> Int {
        guard let last = points.last else { return 1 }
        let gap = frame - last.frame
        if let spacing = inferredLoss {
            inferredLoss = nil
            if !(0.6...1.4).contains(gap / spacing) {
                // No loss: late again (the master slowed down), or soon after a pulse that was
                // only late. The last pulse was one, not two.
                points[points.count - 1].pulse -= 1
                pulses -= 1
                quietUntil = pulses + window
                return 1
            }
        }
        guard points.count > window, pulses >= quietUntil, let spacing = framesPerPulse,
              (1.6...2.4).contains(gap / spacing) else { return 1 }
        inferredLoss = spacing
        return 2
    }

    /// Frames per pulse, from the last pulses (nil until three have come since a Start; after a
    /// Continue or a locate, the spacing measured before it until three have come again).
    public var framesPerPulse: Double? {
        let count = points.count
        guard count >= 3 else { return count >= 1 ? heldPerPulse : nil }
        // Least squares of frame against pulse position.
        let meanX = Double(points.reduce(0) { $0 + $1.pulse }) / Double(count)
        let meanY = points.reduce(0) { $0 + $1.frame } / Double(count)
        var sxy = 0.0, sxx = 0.0
        for point in points {
            let dx = Double(point.pulse) - meanX
            sxy += dx * (point.frame - meanY)
            sxx += dx * dx
        }
        guard sxx > 0 else { return nil }
        let slope = sxy / sxx
        return slope > 0 ? slope : nil
    }

    /// The master's tempo, quarter notes a minute (nil until three pulses have come).
    public var tempo: Double? {
        framesPerPulse.map { 60 * sampleRate / ($0 * Double(Self.pulsesPerQuarter)) }
    }

    /// The song position, in quarter notes, at `frame`: the last pulse's, extrapolated at the
    /// tempo by at most one pulse (nil before the first pulse of a run).
    public func quarters(atFrame frame: Double) -> Double? {
        guard let last = points.last?.frame else { return nil }
        var pulse = Double(pulses)
        if isRunning, let perPulse = framesPerPulse {
            pulse += min(1, max(0, (frame - last) / perPulse))
        }
        return pulse / Double(Self.pulsesPerQuarter)
    }

    /// The frame at which the song reaches `quarters`, extrapolated from the last pulse at
    /// the tempo (nil until the tempo is known).
    public func frame(atQuarters quarters: Double) -> Double? {
        guard let last = points.last?.frame, let perPulse = framesPerPulse else { return nil }
        return last + (quarters * Double(Self.pulsesPerQuarter) - Double(pulses)) * perPulse
    }
}
