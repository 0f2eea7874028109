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
/// FluidSynth, so FluidSynth never prints to stdout or stderr. Messages logged on a
/// thread while a `Sampler`, `AudioFileRenderer` or `LiveAudio` call is running there
/// become part of that call's `SoundError`; the others (for example from a live audio
/// driver's thread) are kept here, at most `capacity` of them, newest last.
/// Informational and debug messages are dropped.
public enum SoundDiagnostics {
    /// The most messages kept; older ones are dropped first.
    public static let capacity = 100

    /// Returns and clears the kept messages, oldest first, each prefixed with its level
    /// (`error:`, `warning:`, `panic:`).
    public static func drainMessages() -> [String] {
        FluidLog.install()
        return FluidLog.state.withLock { state in
            let messages = state.uncaptured
            state.uncaptured.removeAll()
            return messages
        }
    }
}

/// Routes FluidSynth's logging into Swift (see `SoundDiagnostics`).
enum FluidLog {
    struct State {
        /// Messages being captured, per thread.
        var captures: [UInt: [String]] = [:]
        /// Messages outside any capture.
        var uncaptured: [String] = []
    }

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
        let prefix: String
        switch level {
        case Int32(FLUID_PANIC.rawValue): prefix = "panic: "
        case Int32(FLUID_ERR.rawValue): prefix = "error: "
        case Int32(FLUID_WARN.rawValue): prefix = "warning: "
        default: return  // info and debug messages are not kept
        }
        let text = prefix + message
        let thread = currentThread()
        state.withLock { state in
            if state.captures[thread] != nil {
                state.captures[thread]!.append(text)
            } else {
                state.uncaptured.append(text)
                if state.uncaptured.count > SoundDiagnostics.capacity {
                    state.uncaptured.removeFirst(state.uncaptured.count - SoundDiagnostics.capacity)
                }
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
