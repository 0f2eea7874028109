// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Testing

/// `FormPlan`'s arithmetic: which returns keep the bass ball, where a return is nudged.
@Suite struct FormPlanTests {
    @Test func newChangesComeOnASecondTimeFromTheSecondTimeThroughTheTune() throws {
        var plan = try #require(FormPlan(bars: 8, letters: "AABB", variation: 0))
        #expect((0..<12).filter(plan.hasNewChanges).isEmpty, "every return the same by default")
        #expect((0..<8).map(plan.isSecondTime) == [false, true, false, true, false, true, false, true])
        plan.secondTime = .newChanges
        // The first time through, the second A and B are as their first times; then new changes.
        #expect((0..<12).filter(plan.hasNewChanges) == [5, 7, 9, 11])
        var ballad = try #require(FormPlan(bars: 8, letters: "AABA", variation: 0))
        ballad.secondTime = .newChanges
        // A A B A | A A B A: the last A and the next time's first A are two in a row too.
        #expect((0..<12).filter(ballad.hasNewChanges) == [4, 5, 8, 9])
    }

    @Test func aTravellingTuneMovesEachTimeThroughFromTheThird() throws {
        var plan = try #require(FormPlan(bars: 8, letters: "AB", variation: 0))
        plan.transpositions = [0, 7]
        #expect((0..<6).map(plan.semitones(at:)) == [0, 7, 0, 7, 0, 7], "no travel: each letter in its own key")
        plan.travel = 5
        // Twice at home, then up a fourth each time (taken as the nearest move: +5, −2, +3, …).
        #expect((0..<10).map(plan.semitones(at:)) == [0, 7, 0, 7, 5, 12, -2, 5, 3, 10])
        #expect(Set(plan.allSemitones) == Set(-6...12), "twelve keys for each letter, A −6…5 and B 1…12")
        plan.travelFrom = 5
        // Four times at home, then up a fourth each time.
        #expect((0..<14).map(plan.semitones(at:)) == [0, 7, 0, 7, 0, 7, 0, 7, 5, 12, -2, 5, 3, 10])
        #expect(Set(plan.allSemitones) == Set(-6...12), "still twelve keys for each letter")
    }

    @Test func variationLeavesItsShareOfTheSectionToDrift() throws {
        #expect(FormPlan(bars: 8, letters: "AABB", variation: 0)?.nudgeBar == nil)
        #expect(FormPlan(bars: 8, letters: "AABB", variation: 0.125)?.nudgeBar == 7)
        #expect(FormPlan(bars: 16, letters: "AABB", variation: 0.2)?.nudgeBar == 12)
        #expect(FormPlan(bars: 4, letters: "AABB", variation: 0.01)?.nudgeBar == 3, "at least one bar drifts")
    }
}
