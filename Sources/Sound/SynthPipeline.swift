#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Renders the synths of a mix on a few threads, several blocks of time ahead of the
/// mixing thread, with no meeting point between blocks.
///
/// The mixing thread issues blocks of time in order (`issue()`); each synth has `depth`
/// slots for its blocks and renders its own blocks in order, one at a time. A free thread
/// takes the synth whose next issued block comes earliest (the first such synth on a tie),
/// so a synth that finishes a block early goes on with its next one while the other
/// thread is still busy, instead of both meeting at the end of every block (measured on
/// 600 s of `default`: with a meeting point per half second, the two keys synths ran
/// 80 % of the render's wall time; the rest was waiting for the slower of the two). The
/// mixing thread sums block k once every synth has rendered it (`waitRendered(_:)`), and
/// may issue block k + depth only after that. Which thread renders which block never
/// changes a sample: every synth sees its own events in order.
final class SynthPipeline: @unchecked Sendable {
    /// Slots per synth: blocks issued but not yet summed.
    let depth: Int
    /// Threads started (0: every block is rendered by `issue()` on the caller's thread).
    var threadCount: Int { threads.count }

    private let units: [SynthUnit]
    private let lock = ConditionLock()
    private var threads: [pthread_t] = []
    // Guarded by `lock`:
    private var issued = 0
    private var rendered: [Int]
    private var busy: [Bool]
    private var isShuttingDown = false

    /// Starts `threads` threads (none when `threads` < 1 or none could be started).
    init(units: [SynthUnit], threads: Int, depth: Int) {
        precondition(depth >= 1, "a pipeline needs at least one slot per synth")
        self.units = units
        self.depth = depth
        rendered = [Int](repeating: 0, count: units.count)
        busy = [Bool](repeating: false, count: units.count)
        for thread in 0..<max(0, threads) {
            if let handle = startThread(running: { self.loop(thread) }) { self.threads.append(handle) }
        }
    }

    /// Hands the block just prepared in every synth's slot (block k goes into slot k % `depth`)
    /// to the threads. The caller must have summed block k − `depth` first.
    func issue() {
        if threads.isEmpty {
            let slot = issued % depth
            for unit in units { unit.render(slot: slot) }
            for index in rendered.indices { rendered[index] += 1 }
            issued += 1
            return
        }
        lock.withLock {
            issued += 1
            lock.broadcast()
        }
    }

    /// True when every synth has rendered block `block`.
    func isRendered(_ block: Int) -> Bool {
        lock.withLock { rendered.allSatisfy { $0 > block } }
    }

    /// Waits until every synth has rendered block `block` (which must have been issued).
    func waitRendered(_ block: Int) {
        lock.withLock {
            precondition(block < issued, "block \(block) was never issued")
            lock.wait { rendered.allSatisfy { $0 > block } }
        }
    }

    /// Stops and joins the threads, after the blocks they are rendering now (issued blocks
    /// not yet started are dropped). Idempotent.
    func shutDown() {
        lock.withLock {
            isShuttingDown = true
            lock.broadcast()
        }
        for thread in threads { pthread_join(thread, nil) }
        threads.removeAll()
    }

    private func loop(_ thread: Int) {
        // Each thread tries the synths from its own starting point, so that on a tie it keeps
        // to the same synth (its voices stay in that core's caches).
        let order = units.indices.map { units.count - 1 - (thread + $0) % units.count }
        while true {
            let next: (unit: Int, slot: Int)? = lock.withLock {
                var choice = -1
                lock.wait {
                    if isShuttingDown { return true }
                    choice = -1
                    for index in order where !busy[index] && rendered[index] < issued
                        && (choice < 0 || rendered[index] < rendered[choice]) {
                        choice = index
                    }
                    return choice >= 0
                }
                guard !isShuttingDown else { return nil }
                busy[choice] = true
                return (choice, rendered[choice] % depth)
            }
            guard let next else { return }
            units[next.unit].render(slot: next.slot)
            lock.withLock {
                busy[next.unit] = false
                rendered[next.unit] += 1
                lock.broadcast()
            }
        }
    }
}
