// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import EventLog
import Text
/// The progress line a long render shows on a terminal: simulated time, per cent, elapsed
/// wall time, speed (× real time) and the time left, then one line per stage after it.
package final class ProgressLine {
    private let output: TerminalOutput
    private let total: Double
    private let verb: String
    private let started = WallClockPacer.now()

    /// Shows progress of `verb` ("simulating") over `total` simulated seconds on `output`.
    package init(output: TerminalOutput, total: Double, verb: String) {
        self.output = output
        self.total = total
        self.verb = verb
    }

    /// The line at `fraction` done, e.g. "simulating 12.0 / 60.0 s  20%  0:03 elapsed, 4.0× real time, 0:12 left".
    func text(fraction: Double) -> String {
        let elapsed = WallClockPacer.now() - started
        var line = "  \(verb) \(Format.fixed(fraction * total, decimals: 1)) / \(Format.fixed(total, decimals: 1)) s  \(Int(fraction * 100 + 1e-6))%"
        line += "  \(Self.clock(elapsed)) elapsed"
        if elapsed > 0.05, fraction > 0 {
            line += ", \(Format.fixed(fraction * total / elapsed, decimals: 1))× real time, \(Self.clock(elapsed * (1 - fraction) / fraction)) left"
        }
        return line
    }

    /// Shows the line at `fraction` done.
    package func show(_ fraction: Double) {
        output.write("\r\u{1B}[K" + text(fraction: fraction))
        output.flush()
    }

    /// Shows a stage after the simulation ("mastering: pass 1 …"), with the time so far.
    package func stage(_ text: String) {
        output.write("\r\u{1B}[K  \(text)  (\(Self.clock(WallClockPacer.now() - started)) elapsed)")
        output.flush()
    }

    /// Clears the line.
    package func clear() {
        output.write("\r\u{1B}[K")
        output.flush()
    }

    /// Seconds as m:ss, or h:mm:ss from an hour.
    static func clock(_ seconds: Double) -> String {
        let whole = Int(max(0, seconds.isFinite ? seconds : 0).rounded())
        let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60)
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }
}
