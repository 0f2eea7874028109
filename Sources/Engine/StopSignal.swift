import Synchronization

/// A request to stop a running session, safe to set from a signal handler.
public final class StopSignal: Sendable {
    private let signal = Atomic<Int32>(0)

    /// A signal nobody has raised yet.
    public init() {}

    /// Records a stop request; the first signal number wins.
    public func raise(_ number: Int32) {
        _ = signal.compareExchange(expected: 0, desired: number, ordering: .relaxed)
    }

    /// The signal number that asked to stop, or 0.
    public var raised: Int32 { signal.load(ordering: .relaxed) }

    /// True once a stop was requested.
    public var isRaised: Bool { raised != 0 }
}
