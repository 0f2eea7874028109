// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Units that each handle numbered items in order, on threads, as soon as the caller issues
/// them: no unit waits for another, and the caller waits only when it is `depth` items ahead
/// of the slowest unit. Item k lives in slot k % `depth`; a unit is called with the slot.
/// Which thread runs which item never changes a result: every unit sees its items in order.
///
/// Two uses, one mechanism:
/// - the synths of a mix (`SynthBank`) on a few `shared` threads: a free thread takes the
///   unit whose next issued item comes earliest (the first such unit on a tie), so a synth
///   that finishes a block early goes on with its next one while the other thread is still
///   busy, instead of both meeting at the end of every block (measured on 600 s of
///   `default`: with a meeting point per half second, the two keys synths ran 80 % of the
///   render's wall time; the rest was waiting for the slower of the two);
/// - the helpers of a mastering pass (`LimitingPass`: the meter, the writers) on a thread
///   `perUnit`, each at its own pace.
final class SlotPipeline: @unchecked Sendable {
    /// How the units get threads.
    enum Threads {
        /// One thread per unit, which handles only that unit's items.
        case perUnit
        /// This many threads, taking whichever unit is furthest behind (0 or 1: none).
        case shared(Int)
    }

    /// Slots per unit: items issued but not yet handled by every unit.
    let depth: Int

    private let units: [(Int) -> Void]
    private let lock = ConditionLock()
    private var threads: [pthread_t] = []
    // Guarded by `lock`:
    private var issued = 0
    private var handled: [Int]
    private var busy: [Bool]
    private var isShuttingDown = false

    /// Starts the threads; when a thread cannot be started, runs on the caller's thread
    /// instead (`perUnit`), or with the threads that did start (`shared`).
    init(depth: Int, threads policy: Threads, units: [(Int) -> Void]) {
        precondition(depth >= 1 && !units.isEmpty, "a pipeline needs a slot and a unit")
        self.depth = depth
        self.units = units
        handled = [Int](repeating: 0, count: units.count)
        busy = [Bool](repeating: false, count: units.count)
        let orders: [[Int]] = switch policy {
        case .perUnit: units.indices.map { [$0] }
        // Each thread tries the units from its own starting point, so that on a tie it keeps
        // to the same unit (a synth's voices stay in that core's caches).
        case .shared(let count) where count > 1:
            (0..<count).map { thread in units.indices.map { units.count - 1 - (thread + $0) % units.count } }
        case .shared: []
        }
        for order in orders {
            guard let handle = startThread(running: { self.loop(order) }) else {
                if case .perUnit = policy { shutDown() }
                break
            }
            threads.append(handle)
        }
    }

    /// The slot of the next item, once every unit is done with the item that used it last.
    func nextSlot() -> Int {
        lock.withLock {
            lock.wait { handled.allSatisfy { $0 > issued - depth } }
            return issued % depth
        }
    }

    /// Hands the item prepared in slot `issued % depth` to the units.
    func issue() {
        if threads.isEmpty {
            let slot = issued % depth
            for unit in units { unit(slot) }
            issued += 1
            for index in handled.indices { handled[index] = issued }
            return
        }
        lock.withLock {
            issued += 1
            lock.broadcast()
        }
    }

    /// True when every unit has handled item `item`.
    func isHandled(_ item: Int) -> Bool {
        lock.withLock { handled.allSatisfy { $0 > item } }
    }

    /// Waits until every unit has handled item `item` (which must have been issued).
    func waitHandled(_ item: Int) {
        lock.withLock {
            precondition(item < issued, "item \(item) was never issued")
            lock.wait { handled.allSatisfy { $0 > item } }
        }
    }

    /// Waits until every unit has handled every issued item (or the pipeline shuts down).
    func drain() {
        lock.withLock { lock.wait { handled.allSatisfy { $0 == issued } || isShuttingDown } }
    }

    /// Stops and joins the threads, after the items they are handling now (issued items not
    /// yet started are dropped). Idempotent.
    func shutDown() {
        lock.withLock {
            isShuttingDown = true
            lock.broadcast()
        }
        for thread in threads { pthread_join(thread, nil) }
        threads.removeAll()
    }

    /// A thread: handles the next item of the unit of `order` furthest behind, until shut down.
    private func loop(_ order: [Int]) {
        while true {
            let next: (unit: Int, slot: Int)? = lock.withLock {
                var choice = -1
                lock.wait {
                    if isShuttingDown { return true }
                    choice = -1
                    for index in order where !busy[index] && handled[index] < issued
                        && (choice < 0 || handled[index] < handled[choice]) {
                        choice = index
                    }
                    return choice >= 0
                }
                guard !isShuttingDown else { return nil }
                busy[choice] = true
                return (choice, handled[choice] % depth)
            }
            guard let next else { return }
            units[next.unit](next.slot)
            lock.withLock {
                busy[next.unit] = false
                handled[next.unit] += 1
                lock.broadcast()
            }
        }
    }
}
