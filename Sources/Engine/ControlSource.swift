// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls

/// A control and the step at whose start it takes effect.
public struct TimedControl: Sendable, Equatable {
    /// The step (0-based): step n runs from n·dt to (n+1)·dt.
    public var step: Int64
    /// The change.
    public var control: Control

    /// Creates a timed control.
    public init(step: Int64, control: Control) {
        self.step = step
        self.control = control
    }
}

/// Where live controls come from. The simulator polls it at the start of every step.
///
/// `poll` runs on the simulation thread once per step: it must not block and should not
/// allocate (append into the reused array it is given).
public protocol ControlSource: AnyObject {
    /// Appends the controls that take effect at the start of `step`. Returns false to end the
    /// session now (cleanly: every file is completed), e.g. when a live output has died.
    func poll(step: Int64, into controls: inout [Control]) -> Bool
}

/// Replays recorded controls at their steps (`clumsy replay`).
public final class ReplayControls: ControlSource {
    private let controls: [TimedControl]
    private var next = 0

    /// Plays `controls` (sorted by step here, stably).
    public init(_ controls: [TimedControl]) {
        self.controls = controls.enumerated().sorted { a, b in
            a.element.step != b.element.step ? a.element.step < b.element.step : a.offset < b.offset
        }.map(\.element)
    }

    public func poll(step: Int64, into controls: inout [Control]) -> Bool {
        while next < self.controls.count, self.controls[next].step <= step {
            controls.append(self.controls[next].control)
            next += 1
        }
        return true
    }
}

/// Several control sources polled in order; the session ends when any asks to.
public final class ControlSources: ControlSource {
    private let sources: [ControlSource]

    /// Polls `sources` in this order each step.
    public init(_ sources: [ControlSource]) { self.sources = sources }

    public func poll(step: Int64, into controls: inout [Control]) -> Bool {
        var keepGoing = true
        for source in sources where !source.poll(step: step, into: &controls) { keepGoing = false }
        return keepGoing
    }
}
