// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Presets
import Vocabulary

/// An ending (`form.ending`): the session is as long as a whole number of phrases, its last bar
/// is on the tonic chord, and the notes sounding at its end ring on before their note-offs.
public struct EndingPlan: Sendable, Hashable {
    /// Bars in the session: a multiple of the form's `bars`.
    public var bars: Int
    /// Seconds of a bar at the preset's tempo and meter.
    public var barSeconds: Double
    /// Seconds of a beat.
    public var beatSeconds: Double
    /// Seconds the last notes ring after the end of the last bar.
    public var ring: Double

    /// When the last bar ends, seconds: the last step of the physics.
    public var end: Double { Double(bars) * barSeconds }
    /// When the last bar begins: I's root sounds in the bass, seconds.
    public var lastBar: Double { Double(bars - 1) * barSeconds }
    /// From one beat before the last bar, every bouncer the bass ball strikes is heard as I's, seconds.
    public var homeFrom: Double { lastBar - beatSeconds }

    /// The ending of `preset` for a session of at least `duration` seconds, or nil without one.
    public init?(preset: Preset, duration: Double) {
        guard preset.form.isOn, preset.form.ending > 0 else { return nil }
        let clock = Clock(tempo: preset.tempo, meter: preset.meter)
        let phrase = preset.form.bars
        // The first phrase line at or after `duration` (a duration on a line, give or take
        // rounding, is that line).
        let phrases = max(1, Int((duration / (clock.barSeconds * Double(phrase)) - 1e-9).rounded(.up)))
        bars = phrases * phrase
        barSeconds = clock.barSeconds
        beatSeconds = clock.beatSeconds
        ring = preset.form.ending
    }
}

extension EndingPlan {
    /// The simulated length of a session of `preset` asked to last `asked` seconds: with an
    /// ending, the end of the first phrase at or after it ("at least"). `exactly` (a replay,
    /// whose log recorded the seconds a live run lasted, its ring included): the ending is
    /// kept only when those seconds are a phrase's end and its ring, else it is taken off
    /// `preset` (the live run was stopped before it), and the length is never changed.
    static func length(of preset: inout Preset, asked: Double, exactly: Bool) -> Double {
        guard let plan = EndingPlan(preset: preset, duration: asked) else { return asked }
        guard exactly else { return plan.end }
        let end = asked - plan.ring
        if let ended = EndingPlan(preset: preset, duration: end), abs(ended.end - end) < preset.timestep / 2 { return ended.end }
        preset.form.ending = 0
        return asked
    }
}

/// An intro (`form.intro`): when each ball's strikes are first heard, seconds by ball (0 = the
/// bass ball, heard from the start). The balls move as ever before: only their notes wait.
public struct IntroPlan: Sendable, Hashable {
    /// The first time each ball's strikes are played, by ball.
    public var heardFrom: [Double]

    /// The intro of `preset`, or nil when every ball plays from the start.
    public init?(preset: Preset) {
        guard preset.form.isOn, preset.form.intro != .none else { return nil }
        let bar = Clock(tempo: preset.tempo, meter: preset.meter).barSeconds
        let phrase = bar * Double(preset.form.bars)
        heardFrom = [0] + (1...max(1, preset.piano.count)).map { ball in
            preset.form.intro == .bass ? phrase : Double(ball) * bar
        }
    }

    /// True when `ball`'s strike at `time` is played (a ball added live is heard at once).
    public func hears(ball: Int, at time: Double) -> Bool {
        ball >= heardFrom.count || time >= heardFrom[ball] - 1e-9
    }
}

/// How a session with an ending ended (`Summary.ending`).
public struct Ended: Sendable, Equatable {
    /// The last bar played (from 1): the end of a phrase.
    public var bar: Int
    /// The chord it ended on, as a numeral in the session's key ("i") and by name ("Dm").
    public var numeral: String
    /// The chord's name.
    public var name: String

    /// "ended at bar 64, the end of a phrase, on i (Dm)".
    public var description: String { "ended at bar \(bar), the end of a phrase, on \(numeral) (\(name))" }
}
