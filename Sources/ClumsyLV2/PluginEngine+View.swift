// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CClumsyLV2
import Geometry
import Physics

/// What an open UI is told about the world (a `ClumsyFrame` on the notify port, about 30
/// times a second): where each ball is, quantised to 16 bits across the world's box, which
/// bouncers and keys were struck since the last frame, the chord playing and the beat.
/// Real-time safe: it reads the world and writes into the shim's frame, nothing else.
extension PluginEngine {
    /// Metres around the bass and piano areas that a frame's box also spans (walls, bouncers
    /// that overhang them, a ball a little outside before it is put back).
    static let frameMargin = 0.5

    /// Notes the bouncers and keys the last step's contacts struck.
    func noteHits(_ contacts: [Contact]) {
        for contact in contacts {
            switch contact.target {
            case .bouncer(let degree) where (1...16).contains(degree): hits |= 1 << UInt32(degree - 1)
            case .key(let key) where (1...16).contains(key): hits |= 1 << UInt32(16 + key - 1)
            default: break
            }
        }
    }

    /// A UI opened or closed.
    func view(open: Bool) {
        isViewOpen = open
        hits = 0
    }

    /// Fills `frame` with the world as it stands; false without a session.
    func fill(_ frame: UnsafeMutablePointer<ClumsyFrame>) -> Bool {
        guard let simulator else { return false }
        let box = simulator.plan.layout.bassArea.union(simulator.plan.layout.pianoArea).inset(by: -Self.frameMargin)
        frame.pointee.box = (Float(box.minX), Float(box.minY), Float(box.maxX), Float(box.maxY))
        frame.pointee.beats = Float(beats)
        frame.pointee.beats_per_bar = Float(simulator.plan.clock.meter.beats)
        frame.pointee.degree = Int32(chordDegree)
        frame.pointee.hits = hits
        hits = 0
        let world = simulator.world
        let count = min(world.ballCount, Int(CLUMSY_FRAME_BALLS))
        frame.pointee.count = UInt32(count)
        let xy = clumsy_frame_xy(frame)!
        for ball in 0..<count {
            let p = world.position(ofBall: ball)
            let inWorld = world.isIn(ball: ball) && p.isFinite
            xy[2 * ball] = inWorld ? Self.quantised(p.x, from: box.minX, to: box.maxX) : UInt16(CLUMSY_FRAME_OUT)
            xy[2 * ball + 1] = inWorld ? Self.quantised(p.y, from: box.minY, to: box.maxY) : UInt16(CLUMSY_FRAME_OUT)
        }
        return true
    }

    /// What plays now, for the control output ports: the chord's degree, the bar, the form's
    /// section (all 0 without a session). Real-time safe: it reads numbers.
    var outputs: ClumsyOutputs {
        guard let simulator else { return ClumsyOutputs(degree: 0, bar: 0, section: 0) }
        return ClumsyOutputs(degree: Float(simulator.chordDegree), bar: Float(simulator.bar), section: Float(simulator.formSection))
    }

    /// `value` as 0…65534 across `low`…`high` (clamped).
    static func quantised(_ value: Double, from low: Double, to high: Double) -> UInt16 {
        let share = (value - low) / (high - low)
        return UInt16((min(max(share, 0), 1) * Double(CLUMSY_FRAME_OUT - 1)).rounded())
    }
}
