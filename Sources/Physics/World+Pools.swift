import CChipmunk
import CChipmunkPools

extension World {
    /// Grows a new space's pools when the world is built (the LV2 plugin builds it on its
    /// worker), not in a real-time caller's first steps. Chipmunk grows its ring of contact
    /// buffers in a space's first steps, one buffer a step until the oldest is older than the
    /// collision persistence (3 steps): steps of the still empty space grow it here. Nothing is
    /// in the space, so nothing moves; the steps advance Chipmunk's time stamps, which it only
    /// ever compares with each other (the same notes, byte for byte).
    static func growPools(_ space: OpaquePointer, step: Double) {
        for _ in 0..<(Int(cpSpaceGetCollisionPersistence(space)) + 1) { cpSpaceStep(space, step) }
        // Likewise the arbiter pool, filled at the first contact, and the step's arbiter array
        // (room for 64 contacts at once before it grows).
        clumsy_chipmunk_grow_pools(UnsafeMutableRawPointer(space), 64)
    }
}
