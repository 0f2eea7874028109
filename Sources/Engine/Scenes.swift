// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Errors
import Presets
import Theory

/// A scene of the preset resolved for the session: the bar line at which its controls take effect.
public struct SceneCue: Sendable, Equatable {
    /// Whole bars before the line: the session's bar 1 is 0.
    public var bar: Int
    /// The controls, in the order they take effect.
    public var controls: [Control]
    /// The entry of the preset's `scenes` list (0-based), for messages.
    public var entry: Int
}

extension SessionPlan {
    /// The scenes of `preset` by bar line (stably: scenes at one bar in the list's order). A
    /// section's bar counts `form.bars` bars a section.
    static func sceneCues(_ preset: Preset) -> [SceneCue] {
        let cues = preset.scenes.enumerated().map { index, scene in
            let first = scene.section.map { ($0 - 1) * preset.form.bars } ?? 0
            return SceneCue(bar: first + scene.bar - 1, controls: scene.controls, entry: index)
        }
        return cues.enumerated().sorted { a, b in
            a.element.bar != b.element.bar ? a.element.bar < b.element.bar : a.offset < b.offset
        }.map(\.element)
    }
}

extension Configuration {
    /// Every problem of the preset's scenes that only the whole session shows, each naming the
    /// file and `scenes[i].field`: a `section` without a form, a section's `bar` past its
    /// length, a key the session cannot play (`SessionPlan.keyChange(to:)`, as for a live one),
    /// a level for a voice it does not have, more balls than it has.
    public func sceneProblems() -> [SessionError] {
        guard !preset.scenes.isEmpty else { return [] }
        let plan = SessionPlan(configuration: self)
        var problems: [SessionError] = []
        func fail(_ field: String, _ message: String) { problems.append(.preset(file: preset.source, field: field, message: message)) }
        for (index, scene) in preset.scenes.enumerated() {
            let path = "scenes[\(index)]"
            if scene.section != nil {
                if !preset.form.isOn {
                    fail(path + ".section", "counts the form's sections, and this session has no form; give \"bar\" (1-based, of the session) or a `form` block")
                } else if scene.bar > preset.form.bars {
                    fail(path + ".bar", "\(scene.bar) is not a bar of a section of \(preset.form.bars) bars; expected 1…\(preset.form.bars) with \"section\"")
                }
            }
            for control in scene.controls {
                guard let rejection = plan.rejection(of: control) else { continue }
                if case .level(let voice, _) = control { fail(path + ".level." + voice, rejection.description) } else { fail(path + "." + control.name, rejection.description) }
            }
        }
        return problems
    }
}

extension Simulator {
    /// Queues the controls of every scene whose bar line has come by the start of `step` (the
    /// first step at or after the line): `apply(at:)` then applies and logs them exactly as
    /// live controls, before any live control of the same step. A bar line is the clock's, so
    /// it follows tempo changes. Called once `sceneDue` has come, which it sets to the next
    /// scene's line (less `dueMargin`), or to infinity after the last.
    func cueScenes(at step: Int64) {
        let now = world.time
        let clock = scheduler.clock
        sceneDue = .infinity
        while nextScene < plan.scenes.count {
            let line = Double(plan.scenes[nextScene].bar) * clock.barSeconds - clock.shift - 1e-9
            guard now >= line else {
                sceneDue = line - Self.dueMargin
                break
            }
            controls.append(contentsOf: plan.scenes[nextScene].controls)
            nextScene += 1
        }
    }
}
