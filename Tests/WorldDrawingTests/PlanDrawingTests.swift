// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Pictures
import Presets
import TestSupport
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

    @Test("The video's roll has a lane per voice covering every note that voice can play")
    func videoLanes() throws {
        let plan = SessionPlan(configuration: try Configuration(preset: try PresetLibrary.load("pulse"), duration: 1))
        let lanes = PlanDrawing.lanes(for: plan)
        #expect(lanes.map(\.name) == plan.voices.voices.map(\.name))
        let drums = try #require(lanes.last)
        for note in [42, 37, 36] { #expect(drums.pitches.contains(note), "drum \(note) outside \(drums.pitches)") }
    }

    @Test("the video's piano roll gives the second voice a lane of its own spanning every note it can double")
    func rollLane() throws {
        let preset = try decode(#"{"second": {"interval": -6}}"#)
        let plan = SessionPlan(configuration: try Configuration(preset: preset, duration: 5))
        let lanes = PlanDrawing.lanes(for: plan)
        #expect(lanes.map(\.name) == ["Bass", "Keys", "Second"])
        let derivation = try #require(plan.voices.voices[2].derived)
        let doubled = (1...7).flatMap { d in plan.keyTones.map { derivation.notes[plan.performer.keysNote(degree: d, tone: $0)] } }
        #expect(doubled.allSatisfy { lanes[2].pitches.contains($0) })
        #expect(lanes[2].pitches.lowerBound == doubled.min() && lanes[2].pitches.lowerBound < lanes[1].pitches.lowerBound)
    }
}
