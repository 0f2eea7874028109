// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// The life of a writer whose output appears only when it finishes: open, then exactly one of
/// finished (committed), failed with an error, or abandoned. `AtomicFile` and
/// `MIDIFileWriter` keep one each.
///
/// - `check(_:)` before every use: returns while open, throws the remembered error after a
///   failure, and stops the program (a programmer error) after `finish()` or `abandon`.
/// - `fail(_:cleanUp:)` cleans up (only the first time) and remembers the error.
/// - `abandon(cleanUp:)` cleans up if still open; idempotent, nothing after `finish()`.
///
/// A plain value (the state and two static names): checking costs a switch and allocates
/// nothing; the message is built only when the check fails.
public struct WriterLifecycle<Failure: Error> {
    @usableFromInline
    enum State {
        case open
        case failed(Failure)
        case finished
        case abandoned
    }

    @usableFromInline var state: State = .open
    /// What the owner is called in the message for a misuse, before the quoted path:
    /// "AtomicFile", "MIDIFileWriter for".
    @usableFromInline let owner: StaticString
    /// The owner's finishing call, named in the message for a use after it: "commit()".
    @usableFromInline let finishName: StaticString

    /// A lifecycle that starts open. Both names only go into precondition messages.
    @inlinable
    public init(owner: StaticString, finishName: StaticString) {
        self.owner = owner
        self.finishName = finishName
    }

    /// True until the writer finishes, fails or is abandoned.
    @inlinable
    public var isOpen: Bool {
        if case .open = state { return true }
        return false
    }

    /// True once `finish()` has been called.
    @inlinable
    public var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// Returns while open; throws the error of an earlier failure; after `finish()` or an
    /// abandon, a precondition failure "<owner> '<path>' used after <finishName>" (or
    /// "after abandon()"), reported at the caller's `file` and `line`.
    @inlinable
    public func check(_ path: @autoclosure () -> String,
                      file: StaticString = #fileID, line: UInt = #line) throws(Failure) {
        switch state {
        case .open: return
        case .failed(let error): throw error
        case .finished: preconditionFailure("\(owner) '\(path())' used after \(finishName)", file: file, line: line)
        case .abandoned: preconditionFailure("\(owner) '\(path())' used after abandon()", file: file, line: line)
        }
    }

    /// Runs `cleanUp` if still open, then remembers `error` for every later `check`; returns
    /// `error` to throw.
    @inlinable
    public mutating func fail(_ error: Failure, cleanUp: () -> Void) -> Failure {
        if case .open = state { cleanUp() }
        state = .failed(error)
        return error
    }

    /// Runs `cleanUp` if still open. Idempotent; does nothing after `finish()`; after a
    /// failure (already cleaned up) only the state changes.
    @inlinable
    public mutating func abandon(cleanUp: () -> Void) {
        switch state {
        case .open:
            cleanUp()
            state = .abandoned
        case .failed:
            state = .abandoned
        case .finished, .abandoned:
            break
        }
    }

    /// Marks the writer finished: its output is in place.
    @inlinable
    public mutating func finish() {
        state = .finished
    }
}
