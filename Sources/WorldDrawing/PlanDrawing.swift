// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Performance
import Pictures
import Text
import Theory

/// A session plan as the plain values `Pictures` draws: one module that `clumsy draw`, the
/// video and the LV2 plugin's UI share (the plugin links no Session: JACK, ALSA, liblo), so
/// the UI draws the world exactly as `clumsy draw` does.
public enum PlanDrawing {
    /// The world of `plan` at its start: areas, walls, bouncers labelled with their degree and
    /// chord, keys with the chord tone they play, balls at their starts, a legend.
    public static func drawing(for plan: SessionPlan) -> Drawing {
        let layout = plan.layout
        let key = plan.key
        // Each bouncer's chord as the session plays it (`bass.chords`) and names it (`ChordNames`).
        let names = ChordNames.of(plan.performer.chords, in: key)
        let bouncers = layout.bouncers.map { b -> Drawing.Bouncer in
            Drawing.Bouncer(center: b.center, radius: b.radius, label: names.numerals[b.tag - 1],
                          detail: names.symbols[b.tag - 1], hue: b.tag - 1)
        }
        let keys = layout.keys.map { k -> Drawing.Key in
            let tone = plan.keyTones[k.tag - 1]
            return Drawing.Key(box: k.frame, label: Chord.toneName(tone), hue: tone - 1)
        }
        var balls = [Drawing.Ball(start: layout.bassStart, radius: plan.world.bassRadius, isBass: true)]
        balls += layout.pianoStarts.map { Drawing.Ball(start: $0, radius: plan.rules.pianoRadius, isBass: false) }
        let pianoBalls = layout.pianoStarts.count
        let legend = [
            "seed \(plan.seed)",
            "key \(key.description)",
            "\(Format.plain(plan.clock.tempo)) bpm, \(plan.clock.meter.description)",
            "gravity \(Format.plain(plan.gravity)) m/s²",
            "bass speed \(Format.fixed(plan.speed, decimals: 2)) m/s",
            "\(pianoBalls) piano ball\(pianoBalls == 1 ? "" : "s"), \(layout.keys.count) keys",
        ]
        return Drawing(areas: [Drawing.Area(box: layout.bassArea, name: "bass"),
                             Drawing.Area(box: layout.pianoArea, name: "piano")],
                     fillers: layout.fillers, bouncers: bouncers, keys: keys, balls: balls,
                     title: Quote.text(plan.name), legend: legend)
    }
}
