import Foundation
import Testing
@testable import Sound

@Suite("BoundedQueue")
struct BoundedQueueTests {
    @Test("elements arrive in order across threads through a queue of three")
    func orderAndBound() async throws {
        let queue = BoundedQueue<Int>(capacity: 3)
        let received = LockedArray()
        let consumer = Thread {
            while let value = queue.pop() {
                received.append(value)
                usleep(200)
            }
        }
        consumer.start()
        for value in 0..<500 { #expect(queue.push(value)) }
        queue.close()
        while !received.isFinished(count: 500) { usleep(1_000) }
        #expect(received.values == Array(0..<500))
        #expect(!queue.push(501), "push after close is refused")
    }

    @Test("cancel wakes a waiting producer and drops what is queued")
    func cancel() {
        let queue = BoundedQueue<Int>(capacity: 1)
        #expect(queue.push(1))
        let started = Date()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { queue.cancel() }
        #expect(!queue.push(2), "a push into a full, then cancelled, queue returns false")
        #expect(Date().timeIntervalSince(started) >= 0.09)
        #expect(queue.pop() == nil)
    }
}

/// An array shared by two threads.
final class LockedArray: @unchecked Sendable {
    private let lock = ConditionLock()
    private var storage: [Int] = []
    func append(_ value: Int) { lock.withLock { storage.append(value) } }
    var values: [Int] { lock.withLock { storage } }
    func isFinished(count: Int) -> Bool { lock.withLock { storage.count >= count } }
}
