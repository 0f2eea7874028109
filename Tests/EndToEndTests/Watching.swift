// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Watchers that must act on time. A `CLI.run` watcher (`whileRunning`) that awaits between its
// looks resumes only when a thread of Swift Testing's pool is free, and on a loaded machine the
// pool's threads may be busy with in-process tests for seconds (a watcher beside two busy loops
// missed a whole 120 s live set). A watcher that fails its test when it acts late (it signals a
// short run, measures a time, or must see a file at a moment) waits on a thread of its own,
// with the blocking helpers below, which only such a thread may call.

/// Runs `body` on a thread of its own and waits for it without holding a pool thread; returns
/// what `body` returned.
func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { (done: CheckedContinuation<Value, Never>) in
        Thread.detachNewThread { done.resume(returning: body()) }
    }
}

/// Blocks the calling thread for `seconds` (a watcher's own thread only).
func sleepThread(_ seconds: Double) {
    usleep(UInt32(max(0, seconds) * 1e6))
}

/// `waitUntil` for a watcher's own thread: polls `condition` every `interval` seconds for up to
/// `timeout` seconds, blocking the thread; true once it holds.
@discardableResult
func blockUntil(timeout: Double, every interval: Double = 0.02, _ condition: () -> Bool) -> Bool {
    let start = Date()
    while Date().timeIntervalSince(start) < timeout {
        if condition() { return true }
        sleepThread(interval)
    }
    return false
}

/// Seconds of wall time from now until `pid` has exited (polled by `kill(pid, 0)`), at most
/// `limit`. Blocks: a watcher's own thread only.
func secondsUntilExit(_ pid: Int32, limit: Double = 10) -> Double {
    let start = Date()
    while kill(pid, 0) == 0 || errno != ESRCH {
        if Date().timeIntervalSince(start) > limit { break }
        // A zombie still answers kill(0); waitpid is the parent's (Process's) business.
        if let state = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), state.contains(") Z ") { break }
        sleepThread(0.002)
    }
    return Date().timeIntervalSince(start)
}

/// Waits (at most `limit` seconds) until `pid` has a child and returns the children.
/// Blocks: a watcher's own thread only.
func waitForChildren(of pid: Int32, limit: Double = 20) -> [Int32] {
    var children: [Int32] = []
    blockUntil(timeout: limit) {
        children = childProcesses(of: pid)
        return !children.isEmpty
    }
    return children
}
