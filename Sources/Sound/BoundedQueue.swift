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

/// A first-in, first-out queue of at most `capacity` elements between one producer and one
/// consumer thread: `push` waits while it is full, `pop` while it is empty.
///
/// `close()` ends it from the producer's side (the consumer drains what is left, then `pop`
/// returns nil); `cancel()` ends it from either side at once (pending elements are dropped,
/// `push` returns false, `pop` returns nil).
public final class BoundedQueue<Element>: @unchecked Sendable {
    /// Most elements held at once.
    public let capacity: Int
    private let lock = ConditionLock()
    // Guarded by `lock`:
    private var elements: [Element?]
    private var head = 0
    private var count = 0
    private var isClosed = false
    private var isCancelled = false

    /// An empty queue holding at most `capacity` (> 0) elements.
    public init(capacity: Int) {
        precondition(capacity > 0, "a queue needs room for one element")
        self.capacity = capacity
        elements = Array(repeating: nil, count: capacity)
    }

    /// Appends `element`, waiting while the queue is full. False (and `element` dropped)
    /// once the queue was closed or cancelled.
    @discardableResult
    public func push(_ element: Element) -> Bool {
        lock.withLock {
            lock.wait { count < capacity || isClosed || isCancelled }
            guard !isClosed && !isCancelled else { return false }
            elements[(head + count) % capacity] = element
            count += 1
            lock.broadcast()
            return true
        }
    }

    /// The oldest element, waiting while the queue is empty; nil once it is closed and
    /// drained, or cancelled.
    public func pop() -> Element? {
        lock.withLock {
            lock.wait { count > 0 || isClosed || isCancelled }
            guard !isCancelled, count > 0 else { return nil }
            let element = elements[head]
            elements[head] = nil
            head = (head + 1) % capacity
            count -= 1
            lock.broadcast()
            return element
        }
    }

    /// No more elements will be pushed; the consumer gets what is queued, then nil.
    public func close() {
        lock.withLock {
            isClosed = true
            lock.broadcast()
        }
    }

    /// Drops what is queued and wakes both sides: `push` returns false, `pop` nil.
    public func cancel() {
        lock.withLock {
            isCancelled = true
            lock.broadcast()
        }
    }
}
