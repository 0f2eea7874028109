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

/// Consumers that each handle numbered items in order, one thread per consumer, as soon as
/// the producer publishes them: no consumer waits for another, and the producer waits only
/// when it is `slots` items ahead of the slowest consumer. Item k lives in slot k % `slots`;
/// a consumer is called with the slot.
final class OrderedStages: @unchecked Sendable {
    /// Items that may be published and not yet handled by every consumer.
    let slots: Int
    private let consumers: [(Int) -> Void]
    private let lock = ConditionLock()
    private var threads: [pthread_t] = []
    // Guarded by `lock`:
    private var published = 0
    private var handled: [Int]
    private var isShuttingDown = false

    /// Starts one thread per consumer (when a thread cannot be started, `publish()` calls
    /// every consumer on the caller's thread instead).
    init(slots: Int, consumers: [(Int) -> Void]) {
        precondition(slots >= 1 && !consumers.isEmpty, "stages need a slot and a consumer")
        self.slots = slots
        self.consumers = consumers
        handled = [Int](repeating: 0, count: consumers.count)
        for index in consumers.indices {
            let context = Unmanaged.passRetained(Box(stages: self, index: index)).toOpaque()
            var handle = pthread_t()
            let started = pthread_create(&handle, nil, { context in
                let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
                box.stages.loop(box.index)
                return nil
            }, context)
            if started == 0 {
                threads.append(handle)
            } else {
                Unmanaged<Box>.fromOpaque(context).release()
                shutDown()
                break
            }
        }
    }

    private final class Box {
        let stages: OrderedStages
        let index: Int
        init(stages: OrderedStages, index: Int) {
            self.stages = stages
            self.index = index
        }
    }

    /// The slot of the next item, once every consumer is done with the item that used it last.
    func nextSlot() -> Int {
        lock.withLock {
            lock.wait { handled.allSatisfy { $0 > published - slots } }
            return published % slots
        }
    }

    /// Hands the item filled in `nextSlot()` to the consumers.
    func publish() {
        if threads.isEmpty {
            let slot = published % slots
            for consumer in consumers { consumer(slot) }
            published += 1
            for index in handled.indices { handled[index] = published }
            return
        }
        lock.withLock {
            published += 1
            lock.broadcast()
        }
    }

    /// Waits until every consumer has handled every published item.
    func drain() {
        lock.withLock { lock.wait { handled.allSatisfy { $0 == published } || isShuttingDown } }
    }

    /// Stops and joins the threads after the items they are handling now (items not started
    /// are dropped). Idempotent.
    func shutDown() {
        lock.withLock {
            isShuttingDown = true
            lock.broadcast()
        }
        for thread in threads { pthread_join(thread, nil) }
        threads.removeAll()
    }

    private func loop(_ index: Int) {
        while true {
            let slot: Int? = lock.withLock {
                lock.wait { handled[index] < published || isShuttingDown }
                return isShuttingDown ? nil : handled[index] % slots
            }
            guard let slot else { return }
            consumers[index](slot)
            lock.withLock {
                handled[index] += 1
                lock.broadcast()
            }
        }
    }
}
