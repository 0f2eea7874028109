// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CFluidSynth
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// FluidSynth's warnings and errors that were not part of a failing call.
///
/// The `Sound` module replaces FluidSynth's log function before its first call into
/// FluidSynth, so FluidSynth never prints to stdout or stderr. Messages logged on a thread
/// while a call that can fail is running there (loading the SoundFont, creating the
/// synthesizer, setting up the effects, starting a driver) become part of that call's
/// `SoundError` if it fails; when it succeeds, and for every other message (a note on a
/// synthesis thread, a live audio driver's thread), they are kept here for the program to
/// show: a SoundFont whose samples FluidSynth ignores plays without them, and the user
/// should hear why. A repeated message is kept once with a count; at most `capacity`
/// distinct messages are kept (later new ones are only counted, `droppedCount`).
/// Informational and debug messages are dropped.
public enum SoundDiagnostics {
    /// The most distinct messages kept.
    public static let capacity = 100

    /// One message FluidSynth logged, and how often.
    public struct Message: Sendable, Equatable, CustomStringConvertible {
        /// FluidSynth's level: "warning", "error" or "panic".
        public var level: String
        /// FluidSynth's text, as logged (not escaped).
        public var text: String
        /// Times it was logged.
        public var count: Int

        /// "fluidsynth: TEXT", with the level unless it is a warning and the count when above 1.
        public var description: String {
            "fluidsynth: " + (level == "warning" ? "" : level + ": ") + text + (count > 1 ? " (\(count) times)" : "")
        }
    }

    /// Returns and clears the kept messages, in the order each was first logged.
    public static func drainMessages() -> [Message] {
        FluidLog.install()
        return FluidLog.state.withLock { state in
            let messages = state.kept
            state.kept.removeAll()
            state.keptIndex.removeAll()
            state.dropped = 0
            return messages
        }
    }

    /// Distinct messages not kept since the last `drainMessages()` (past `capacity`).
    public static var droppedCount: Int {
        FluidLog.state.withLock { $0.dropped }
    }
}

/// Routes FluidSynth's logging into Swift (see `SoundDiagnostics`).
enum FluidLog {
    struct State {
        /// Messages being captured, per thread, each prefixed with its level ("warning: …").
        var captures: [UInt: [String]] = [:]
        /// Messages outside any capture or kept after a call that succeeded, first logged first.
        var kept: [SoundDiagnostics.Message] = []
        /// Where each (level, text) is in `kept`.
        var keptIndex: [String: Int] = [:]
        /// Distinct messages past `SoundDiagnostics.capacity`.
        var dropped = 0

        mutating func keep(level: String, text: String) {
            let key = level + ": " + text
            if let index = keptIndex[key] {
                kept[index].count += 1
            } else if kept.count < SoundDiagnostics.capacity {
                keptIndex[key] = kept.count
                kept.append(SoundDiagnostics.Message(level: level, text: text, count: 1))
            } else {
                dropped += 1
            }
        }
    }

    /// FluidSynth's levels kept, and the prefix of their captured lines.
    private static let levels = ["panic", "error", "warning"]

    static let state = Mutex(State())

    private static let installation: Bool = {
        let handler: fluid_log_function_t = { level, message, _ in
            FluidLog.receive(level: level, message: message.map { String(cString: $0) } ?? "")
        }
        for level in [FLUID_PANIC, FLUID_ERR, FLUID_WARN, FLUID_INFO, FLUID_DBG] {
            _ = fluid_set_log_function(Int32(level.rawValue), handler, nil)
        }
        return true
    }()

    /// Installs the log function; call before any other FluidSynth function. Idempotent.
    static func install() {
        _ = installation
    }

    private static func currentThread() -> UInt {
        #if canImport(Glibc)
        return UInt(pthread_self())
        #else
        return UInt(bitPattern: pthread_self())
        #endif
    }

    static func receive(level: Int32, message: String) {
        let name: String
        switch level {
        case Int32(FLUID_PANIC.rawValue): name = "panic"
        case Int32(FLUID_ERR.rawValue): name = "error"
        case Int32(FLUID_WARN.rawValue): name = "warning"
        default: return  // info and debug messages are not kept
        }
        let thread = currentThread()
        state.withLock { state in
            if state.captures[thread] != nil {
                state.captures[thread]!.append(name + ": " + message)
            } else {
                state.keep(level: name, text: message)
            }
        }
    }

    /// Keeps `messages` (lines returned by `capturing`) for `SoundDiagnostics`: those of a
    /// call that succeeded, which no error will carry.
    static func keep(_ messages: [String]) {
        guard !messages.isEmpty else { return }
        state.withLock { state in
            for line in messages {
                let level = levels.first { line.hasPrefix($0 + ": ") } ?? "warning"
                let text = line.hasPrefix(level + ": ") ? String(line.dropFirst(level.count + 2)) : line
                state.keep(level: level, text: text)
            }
        }
    }

    /// Runs `body` and returns its result with the warnings and errors FluidSynth logged
    /// on this thread meanwhile (nested captures also pass their messages outwards).
    static func capturing<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> (value: T, messages: [String]) {
        install()
        let thread = currentThread()
        let outer = state.withLock { state -> [String]? in
            let outer = state.captures[thread]
            state.captures[thread] = []
            return outer
        }
        func end() -> [String] {
            state.withLock { state -> [String] in
                let captured = state.captures[thread] ?? []
                if let outer {
                    state.captures[thread] = outer + captured
                } else {
                    state.captures[thread] = nil
                }
                return captured
            }
        }
        let value: T
        do {
            value = try body()
        } catch {
            _ = end()
            throw error
        }
        return (value, end())
    }
}
