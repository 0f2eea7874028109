#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
            guard let handle = startThread(running: { self.loop(index) }) else {
                shutDown()
                break
            }
            threads.append(handle)
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
