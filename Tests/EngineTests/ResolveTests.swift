// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Testing
@testable import Engine

/// The resolver's door: one function from a preset reference to a plan, where a preset's file
/// is, and the fields an override may name.
@Suite struct ResolveTests {
    @Test("a bundled name and its file resolve to the same session; the plan knows its file; overrides apply")
    func nameAndPathAgree() throws {
        let byName = try SessionPlan.resolve(preset: "polska", duration: 20)
        let path = try PresetFiles.locate("polska")
        #expect(path.hasSuffix("/polska.json") && byName.source == path)
        let byPath = try SessionPlan.resolve(preset: path, duration: 20)
        #expect(byPath.world.pianoStarts == byName.world.pianoStarts && byPath.clock.tempo == byName.clock.tempo)
        #expect(byPath.stepCount == byName.stepCount && byName.name == "polska")
        var overrides = Overrides(seed: 7, gravity: 3.5)
        overrides.flags["tempo"] = "90"
        let changed = try SessionPlan.resolve(preset: "polska", overrides: overrides, duration: 20)
        #expect(changed.seed == 7 && changed.gravity == 3.5 && changed.clock.tempo == 90)
    }

    @Test("an unknown preset is 66 naming the nearest; a bad override is 64 naming the field")
    func refusals() throws {
        #expect(throws: SessionError.self) { try SessionPlan.resolve(preset: "polskaa", duration: 10) }
        do {
            _ = try SessionPlan.resolve(preset: "polskaa", duration: 10)
        } catch {
            #expect(error.exitStatus == 66 && error.description.contains("polska"), "\(error)")
        }
        do {
            _ = try SessionPlan.resolve(preset: "default", overrides: Overrides(gravity: 1e9), duration: 10)
            Issue.record("a gravity of 1e9 was accepted")
        } catch {
            #expect(error.exitStatus == 64 && error.description.contains("gravity") && error.description.contains("0…100"), "\(error)")
        }
        #expect(throws: SessionError.self) { try FieldAssignment(parsing: "piano.cuont=3") }
        #expect(PresetFiles.isPath("a/b.json") && PresetFiles.isPath("x.json") && !PresetFiles.isPath("polska"))
    }

    @Test("a trace's first seconds: the steps cut there, the rest of the plan the session's")
    func cut() throws {
        let plan = try SessionPlan.resolve(preset: "ballad-aaba", duration: 30)
        let cut = plan.cut(at: 2)
        #expect(cut.stepCount == Int64((2 / plan.world.timestep).rounded()) && cut.duration == 2)
        #expect(cut.ending == plan.ending && cut.form?.letters == plan.form?.letters && plan.stepCount > cut.stepCount)
    }

    @Test("the fields an override may name: by path, by flag, with their ranges")
    func fields() throws {
        let gravity = try #require(PresetField.flagged("gravity"))
        #expect(gravity.path == "gravity" && gravity.flagName == "--gravity" && gravity.numberRange == 0...100)
        #expect(PresetField.at("piano.count")?.type == "integer" && PresetField.at("nope") == nil)
        #expect(PresetField.flagged.allSatisfy { $0.flag != nil } && PresetField.paths.contains("key.tonic"))
    }
}
