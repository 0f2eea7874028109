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

/// Runs `executable arguments…`, a short helper such as oscsend, to its end from a watcher's own
/// thread (`CLI.run` would await the busy pool between launches): no shell, stdin and output to
/// /dev/null, the tests' environment; killed after `timeout` seconds. Returns its exit status,
/// nil when it could not start or was killed. Blocks: a watcher's own thread only.
@discardableResult
func runToEnd(_ executable: String, _ arguments: [String], timeout: Double = 5) -> Int32? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = CLI.environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    do { try process.run() } catch { return nil }
    // Waits on the semaphore, not in waitUntilExit, which polls a run loop with nothing in it.
    let timedOut = ended.wait(timeout: .now() + timeout) == .timedOut
    if timedOut {
        kill(process.processIdentifier, SIGKILL)
        ended.wait()
    }
    process.waitUntilExit()
    return timedOut ? nil : process.terminationStatus
}

/// Whether a UDP socket on this machine is bound to `port` (a run's `--osc-in` is open then, and
/// what is sent to it is queued until the session reads it).
func isUDPPortBound(_ port: Int) -> Bool {
    let suffix = String(format: ":%04X", port)
    return ["/proc/net/udp", "/proc/net/udp6"].contains { table in
        let lines = ((try? String(contentsOfFile: table, encoding: .utf8)) ?? "").split(separator: "\n").dropFirst()
        // Each line: "sl local_address rem_address …", the address as hex IP:port.
        return lines.contains { $0.split(separator: " ").dropFirst().first?.hasSuffix(suffix) == true }
    }
}

/// Whether `directory` holds a non-empty entry whose name starts with `prefix` (a run's temporary
/// output once it has something in it: a live session's first audio).
func hasNonEmptyEntry(withPrefix prefix: String, in directory: String) -> Bool {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.contains { $0.hasPrefix(prefix) && fileSize((directory as NSString).appendingPathComponent($0)) > 0 }
}
