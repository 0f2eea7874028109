import CChipmunk

extension World {
    /// Chipmunk grows its ring of contact buffers in a space's first steps, one buffer a step
    /// until the oldest is older than the collision persistence (3 steps): 4 allocations. Steps
    /// of the still empty space grow it here, when the world is built (the LV2 plugin builds it
    /// on its worker), not in a real-time caller's first steps. Nothing is in the space, so
    /// nothing moves; the steps advance Chipmunk's time stamps, which it only ever compares
    /// with each other (the same notes, byte for byte).
    static func warmContactBuffers(_ space: OpaquePointer, step: Double) {
        for _ in 0..<(Int(cpSpaceGetCollisionPersistence(space)) + 1) { cpSpaceStep(space, step) }
    }
}
