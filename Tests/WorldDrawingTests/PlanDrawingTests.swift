// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Pictures
import Presets
import Testing
import WorldDrawing
@testable import Engine

@Suite struct PlanDrawingTests {
    @Test("A plan's drawing: its bouncers by degree with their numerals and chords, its keys with their tones, every ball at its start")
    func drawingOfAPlan() throws {
        let preset = try PresetLibrary.load(try #require(PresetLibrary.bundled().first { $0.name == "default" }).path)
        let plan = SessionPlan(configuration: try Configuration(preset: preset, duration: 10))
        let drawing = PlanDrawing.drawing(for: plan)
        #expect(drawing.areas.map(\.name) == ["bass", "piano"])
        #expect(drawing.bouncers.count == plan.layout.bouncers.count)
        // Bouncer colours are their degrees; the tonic's numeral is I or i.
        #expect(drawing.bouncers.map(\.hue) == plan.layout.bouncers.map { $0.tag - 1 })
        let tonic = try #require(drawing.bouncers.first { $0.hue == 0 })
        #expect(["I", "i"].contains(tonic.label), "\(tonic.label)")
        #expect(drawing.keys.count == plan.layout.keys.count && drawing.keys.map(\.hue) == plan.keyTones.map { $0 - 1 })
        #expect(drawing.balls.count == plan.layout.pianoStarts.count + 1 && drawing.balls[0].isBass && !drawing.balls[1].isBass)
        #expect(drawing.balls[0].start == plan.layout.bassStart)
        #expect(drawing.legend.first == "seed \(plan.seed)")
    }
}
