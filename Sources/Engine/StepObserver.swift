// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Geometry
import Physics

/// Read-only view of the balls after a step: how many, and where each is (metres).
public struct BallPositions {
    let world: World
    /// Number of balls; index 0 is the bass ball, 1…N the piano balls.
    public var count: Int { world.ballCount }
    /// Position of ball `index`, metres.
    public func position(of index: Int) -> Vector { world.position(ofBall: index) }
    /// True when ball `index` is in the world (not taken out by the `balls` control).
    public func isIn(_ index: Int) -> Bool { world.isIn(ball: index) }
    /// The contacts the last step found (bouncers and keys; walls and floor when recorded).
    public var contacts: [Contact] { world.contacts }
}

/// Something that looks at the world after every step (pictures, video): it may read the
/// balls' positions, never change them. Called after the step's events reached the sinks.
public protocol StepObserver: AnyObject {
    /// The world as it stands at simulated time `time`, seconds (0 before the first step).
    func observe(_ balls: BallPositions, at time: Double) throws(SessionError)
}
