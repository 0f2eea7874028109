// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex and a condition variable whose C storage lives on the heap, at an address that
/// never changes (a `pthread_mutex_t` stored inline in a Swift class property may be moved
/// by the compiler; this is swift-nio's `Lock` shape).
public final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// A fresh, unlocked lock.
    public init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Inside `withLock`: waits until `isDone()` is true, releasing the lock while waiting.
    public func wait(until isDone: () -> Bool) {
        while !isDone() { pthread_cond_wait(condition, mutex) }
    }

    /// Wakes every waiter (call inside `withLock` after changing what they wait for).
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }
}

/// Starts a POSIX thread that runs `body`; nil when the system will not start one (the
/// caller then does the work on its own thread). Join it with `pthread_join`.
func startThread(running body: @escaping () -> Void) -> pthread_t? {
    final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    var handle = pthread_t()
    let started = pthread_create(&handle, nil, { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
    }, context)
    guard started == 0 else {
        Unmanaged<Body>.fromOpaque(context).release()
        return nil
    }
    return handle
}
