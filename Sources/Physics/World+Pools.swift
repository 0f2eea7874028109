// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CChipmunkPools

extension World {
    /// Grows a new, empty space's pools when the world is built (the LV2 plugin builds it on
    /// its worker), not in a real-time caller's steps, where Chipmunk would grow them the
    /// first times balls touch (`clumsy_chipmunk_grow_pools` says how, and why the notes stay
    /// the same byte for byte). Room for four touching pairs a ball (a ball on a key, against a
    /// wall and between two others) and 64 more: an arbiter is kept for three steps after its
    /// pair parts, so this is the most a step holds at once, not a count of hits.
    static func growPools(_ space: OpaquePointer, step: Double, balls: Int) {
        clumsy_chipmunk_grow_pools(UnsafeMutableRawPointer(space), Int32(4 * balls + 64), step)
    }
}
