// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Presets

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
