#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixed set of threads that run numbered jobs: `start(jobs:)` hands out job indices
/// 0..<jobs to whichever thread is free, `wait()` returns when all are done. The caller's
/// thread is free meanwhile.
final class WorkerPool: @unchecked Sendable {
    /// Number of threads.
    let threadCount: Int
    private let lock = ConditionLock()
    private var threads: [pthread_t] = []
    // Guarded by `lock`:
    private var job: ((Int) -> Void)?
    private var jobCount = 0
    private var nextJob = 0
    private var remaining = 0
    private var isShuttingDown = false

    /// Starts `threads` threads (at least one).
    init(threads: Int) {
        threadCount = max(1, threads)
        for _ in 0..<threadCount {
            let context = Unmanaged.passRetained(self).toOpaque()
            var handle = pthread_t()
            let started = pthread_create(&handle, nil, { context in
                let pool = Unmanaged<WorkerPool>.fromOpaque(context!).takeRetainedValue()
                pool.loop()
                return nil
            }, context)
            if started == 0 {
                self.threads.append(handle)
            } else {
                Unmanaged<WorkerPool>.fromOpaque(context).release()
            }
        }
    }

    /// Runs `body(0)…body(jobs − 1)` on the pool's threads (on the caller's thread if no
    /// thread could be started). Call `wait()` before the next `start`.
    func start(jobs: Int, _ body: @escaping (Int) -> Void) {
        if threads.isEmpty {
            for index in 0..<jobs { body(index) }
            return
        }
        lock.withLock {
            job = body
            jobCount = jobs
            nextJob = 0
            remaining = jobs
            lock.broadcast()
        }
    }

    /// Waits until every job of the last `start` has finished.
    func wait() {
        lock.withLock {
            lock.wait { remaining == 0 }
            job = nil
        }
    }

    /// Stops and joins the threads (after the current jobs). Idempotent.
    func shutDown() {
        lock.withLock {
            isShuttingDown = true
            lock.broadcast()
        }
        for thread in threads { pthread_join(thread, nil) }
        threads.removeAll()
    }

    private func loop() {
        while true {
            let next: (body: (Int) -> Void, index: Int)? = lock.withLock {
                lock.wait { nextJob < jobCount || isShuttingDown }
                guard nextJob < jobCount, let body = job else { return nil }
                nextJob += 1
                return (body, nextJob - 1)
            }
            guard let next else { return }
            next.body(next.index)
            lock.withLock {
                remaining -= 1
                if remaining == 0 { lock.broadcast() }
            }
        }
    }
}
