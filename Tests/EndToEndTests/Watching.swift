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
