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
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var threads: [pthread_t] = []
    // Guarded by `mutex`:
    private var job: ((Int) -> Void)?
    private var jobCount = 0
    private var nextJob = 0
    private var remaining = 0
    private var isShuttingDown = false

    /// Starts `threads` threads (at least one).
    init(threads: Int) {
        threadCount = max(1, threads)
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
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

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// Runs `body(0)…body(jobs − 1)` on the pool's threads (on the caller's thread if no
    /// thread could be started). Call `wait()` before the next `start`.
    func start(jobs: Int, _ body: @escaping (Int) -> Void) {
        if threads.isEmpty {
            for index in 0..<jobs { body(index) }
            return
        }
        pthread_mutex_lock(&mutex)
        job = body
        jobCount = jobs
        nextJob = 0
        remaining = jobs
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }

    /// Waits until every job of the last `start` has finished.
    func wait() {
        pthread_mutex_lock(&mutex)
        while remaining > 0 { pthread_cond_wait(&changed, &mutex) }
        job = nil
        pthread_mutex_unlock(&mutex)
    }

    /// Stops and joins the threads (after the current jobs). Idempotent.
    func shutDown() {
        pthread_mutex_lock(&mutex)
        isShuttingDown = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
        for thread in threads { pthread_join(thread, nil) }
        threads.removeAll()
    }

    private func loop() {
        pthread_mutex_lock(&mutex)
        while true {
            while nextJob >= jobCount && !isShuttingDown { pthread_cond_wait(&changed, &mutex) }
            if nextJob < jobCount, let body = job {
                let index = nextJob
                nextJob += 1
                pthread_mutex_unlock(&mutex)
                body(index)
                pthread_mutex_lock(&mutex)
                remaining -= 1
                if remaining == 0 { pthread_cond_broadcast(&changed) }
                continue
            }
            if isShuttingDown { break }
        }
        pthread_mutex_unlock(&mutex)
    }
}
