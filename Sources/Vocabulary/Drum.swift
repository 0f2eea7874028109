// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A General MIDI drum sound (channel 10): a name a preset can use and its note number.
public struct Drum: Sendable, Hashable {
    /// The name used in presets ("closed-hat").
    public var name: String
    /// The GM percussion key number, 35…81.
    public var note: Int

    /// The drums a preset may name, from General MIDI Level 1's percussion map.
    public static let catalog: [Drum] = [
        Drum(name: "kick", note: 36), Drum(name: "rim", note: 37), Drum(name: "snare", note: 38),
        Drum(name: "clap", note: 39), Drum(name: "low-floor-tom", note: 41), Drum(name: "closed-hat", note: 42),
        Drum(name: "high-floor-tom", note: 43), Drum(name: "pedal-hat", note: 44), Drum(name: "low-tom", note: 45),
        Drum(name: "open-hat", note: 46), Drum(name: "mid-tom", note: 47), Drum(name: "high-tom", note: 50),
        Drum(name: "crash", note: 49), Drum(name: "ride", note: 51), Drum(name: "ride-bell", note: 53),
        Drum(name: "tambourine", note: 54), Drum(name: "cowbell", note: 56), Drum(name: "high-bongo", note: 60),
        Drum(name: "low-bongo", note: 61), Drum(name: "high-conga", note: 63), Drum(name: "low-conga", note: 64),
        Drum(name: "cabasa", note: 69), Drum(name: "maracas", note: 70), Drum(name: "claves", note: 75),
        Drum(name: "high-wood-block", note: 76), Drum(name: "low-wood-block", note: 77),
    ]

    /// The drum named `name`, or nil.
    public static func named(_ name: String) -> Drum? { catalog.first { $0.name == name } }

    /// The General MIDI drum kit as a tone: bank 128 (SoundFont percussion bank), program 0.
    public static let kit = Tone(name: "standard-kit", bank: 128, program: 0, summary: "GM standard drum kit on channel 10")
}

/// Where the percussion voice's notes come from.
public struct PercussionPlan: Sendable, Hashable {
    /// Drum played when the bass ball strikes a wall of its area, or nil.
    public var bassWalls: Drum?
    /// Drum played when a piano ball strikes a side wall, or nil.
    public var walls: Drum?
    /// Drum played when a piano ball strikes the floor between the keys, or nil.
    public var floor: Drum?
    /// Beats of the bar (1-based) on which the stomp sounds; empty for none.
    public var stompBeats: [Int]
    /// The stomp's drum.
    public var stomp: Drum
    /// Velocity of the stomp, 1…127 (before accents).
    public var stompVelocity: Int
    /// A metronome click on every beat (high wood block on beat 1, low on the others).
    public var metronome: Bool

    /// Creates a plan.
    public init(bassWalls: Drum? = nil, walls: Drum? = nil, floor: Drum? = nil, stompBeats: [Int] = [],
                stomp: Drum = Drum.named("kick")!, stompVelocity: Int = 90, metronome: Bool = false) {
        self.bassWalls = bassWalls
        self.walls = walls
        self.floor = floor
        self.stompBeats = stompBeats
        self.stomp = stomp
        self.stompVelocity = stompVelocity
        self.metronome = metronome
    }

    /// True when any wall or floor hit plays a drum (the world must then report those contacts).
    public var needsWallContacts: Bool { bassWalls != nil || walls != nil || floor != nil }
}
