// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Engine
import Text
#if canImport(Glibc)
import Glibc
#endif

/// The session's quarter notes against its seconds, across the tempo changes a master gives
/// (`ClockInSync`, `TransportSync`, `LinkSync`): `quarters` at session time `time`, `tempo`
/// (quarter notes a minute) since.
struct QuarterCount {
    private var time = 0.0, quarters = 0.0
    private(set) var tempo: Double

    init(tempo: Double) { self.tempo = tempo }

    /// Quarter notes at session time `time`, seconds.
    func at(_ time: Double) -> Double { quarters + (time - self.time) * tempo / 60 }

    /// `tempo` from session time `time` on; the quarters counted so far stay.
    mutating func change(to tempo: Double, at time: Double) {
        (quarters, self.time, self.tempo) = (at(time), time, tempo)
    }

    /// A master's `tempo` as a `tempo` control at session time `time`, when it differs from
    /// the count's by more than 0.5 % (rounded to 0.01 bpm, as logged), and counted from there.
    mutating func follow(_ tempo: Double, at time: Double) -> Control? {
        guard abs(tempo - self.tempo) > 0.005 * self.tempo else { return nil }
        let rounded = (tempo * 100).rounded() / 100
        guard case .success(let control) = Control.make(name: "tempo", value: rounded) else { return nil }
        change(to: rounded, at: time)
        return control
    }
}

/// A master's tempo that the session does not follow (`ClockInSync`, `LinkSync`,
/// `TransportSync`): outside the tempos a session plays at (the settings table's `tempo` row,
/// 20–400 bpm), or not a number. Said once on standard error, so a set never plays at a tempo
/// its files do not hold; not with `--quiet` (`isQuiet`), which prints nothing but errors, and
/// this is none: the session goes on.
struct TempoRefusal {
    /// The tempos a master is followed at, quarter notes a minute.
    static let tempos = Limits.tempo.range
    private var hasSaid = false
    /// True under `--quiet`: nothing is said.
    let isQuiet: Bool

    init(quiet: Bool = false) { isQuiet = quiet }

    /// `tempo` as the message shows it (`1000 bpm`, `inf bpm`).
    static func shown(_ tempo: Double) -> String {
        (tempo.isFinite ? Format.plain((tempo * 100).rounded() / 100) : "\(tempo)") + " bpm"
    }

    /// Says, the first time only, that `master`'s tempo `tempo` is not followed and what the
    /// session does instead.
    mutating func refuse(_ master: String, tempo: Double, instead: String) {
        let range = "\(Format.plain(Self.tempos.lowerBound))–\(Format.plain(Self.tempos.upperBound)) bpm"
        say("\(master)'s tempo, \(Self.shown(tempo)), is outside the \(range) a session plays at: \(instead)")
    }

    /// Says `text` on standard error (`clumsy: ` before it), the first time only.
    mutating func say(_ text: String) {
        guard !hasSaid else { return }
        hasSaid = true
        guard !isQuiet else { return }
        let line = "clumsy: " + text + "\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}
