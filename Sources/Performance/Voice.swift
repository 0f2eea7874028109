// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Vocabulary

/// Which row of the session's voices table a note belongs to (its index in `VoiceTable.voices`).
///
/// The table always starts with the bass (`.bass`, row 0) and the keys (`.keys`, row 1);
/// further voices (percussion, derived voices) follow in table order.
public struct VoiceID: RawRepresentable, Sendable, Hashable, Comparable, Codable {
    /// Index into the voices table.
    public var rawValue: Int
    /// Creates the identifier of row `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The bass ball's voice, row 0.
    public static let bass = VoiceID(rawValue: 0)
    /// The piano balls' voice, row 1.
    public static let keys = VoiceID(rawValue: 1)
    public static func < (a: VoiceID, b: VoiceID) -> Bool { a.rawValue < b.rawValue }
}

/// One voice of a session: a row of the voices table. Every sink iterates the table.
public struct Voice: Sendable, Hashable {
    /// What produces a voice's notes.
    public enum Source: String, Sendable, Hashable, CaseIterable {
        /// The bass ball striking bouncers: the roots of the chords.
        case bassBall = "bass-ball"
        /// The piano balls striking keys: tones of the active chord.
        case pianoBalls = "piano-balls"
        /// Drum hits: balls against walls and floor, the stomp and the metronome (GM channel 10).
        case percussion
        /// Derived from another voice's notes by a rule of its own (`Voice.derived`): the second
        /// voice, and each voice of the preset's `voices` list.
        case derived
        /// The melody: a tune on top, moved by the piano balls' strikes (`MelodyPlayer`).
        case melody
    }

    /// How a voice is placed between the loudspeakers (a preset names it: `Vocabulary.Pan`).
    public typealias Pan = Vocabulary.Pan

    /// One MIDI channel of a voice and its place: a voice spread by position owns one channel
    /// per pan zone, each with a fixed pan, so a note never moves the pan of one still ringing.
    public struct Channel: Sendable, Hashable {
        /// MIDI channel, 0-based.
        public var channel: Int
        /// CC10 pan (and CC8 balance) value 0…127, 64 = centre.
        public var pan: Int
        /// A channel at `pan`.
        public init(channel: Int, pan: Int) {
            self.channel = channel
            self.pan = pan
        }
    }

    /// The name: the MIDI track name ("Bass"); in lower case, the event log's `voice`.
    public var name: String
    /// MIDI channels, 0-based (0 = MIDI channel 1; 9 = channel 10, the GM drum kit), each with its
    /// pan: one for a fixed pan, one per pan zone for `.position` (left to right).
    public var channels: [Channel]
    /// For a voice with several channels: the index into `channels` of key 1…K's notes (`keyZones[k - 1]`).
    public var keyZones: [Int] = []
    /// Bank and program.
    public var tone: Tone
    /// Velocity from impact speed, m/s.
    public var curve: VelocityCurve
    /// Note length, seconds (> 0).
    public var noteLength: Double
    /// Channel volume, MIDI CC7 0…127 (100 = the General MIDI default).
    public var level: Int
    /// Pan (CC10).
    public var pan: Pan
    /// What plays it.
    public var source: Source
    /// For a derived voice: the voice it follows and its rule (`Voice.Derivation`).
    public var derived: Derivation?
    /// One note at a time: each note-on ends the voice's note sounding (the melody's legato).
    public var isMonophonic = false

    /// Creates a voice row.
    public init(name: String, channel: Int, tone: Tone, curve: VelocityCurve, noteLength: Double,
                level: Int = 100, pan: Pan = .fixed(0), source: Source) {
        self.name = name
        self.channels = [Channel(channel: channel, pan: Self.openingPan(pan))]
        self.tone = tone
        self.curve = curve
        self.noteLength = noteLength
        self.level = level
        self.pan = pan
        self.source = source
    }

    /// The event log's name of the voice ("bass", "keys", "drums").
    public var logName: String { name.lowercased() }

    /// The CC10 value of a pan −1…1: 0 (hard left), 64 (centre), 127 (hard right).
    public static func panController(_ pan: Double) -> Int {
        let value = pan < 0 ? 64 + pan * 64 : 64 + pan * 63
        return min(127, max(0, Int(value.rounded())))
    }

    /// The CC10 value of a pan setting (a `.position` voice not yet spread is centred).
    static func openingPan(_ pan: Pan) -> Int {
        if case .fixed(let pan) = pan { return panController(pan) }
        return 64
    }

    /// The voice's first channel (its only one unless spread by position).
    public var channel: Int { channels[0].channel }

    /// The index into `channels` of the notes of key `key` (1-based; 0 = not a key: the first channel).
    public func channelIndex(forKey key: Int) -> Int {
        guard channels.count > 1, key >= 1, !keyZones.isEmpty else { return 0 }
        return keyZones[min(key, keyZones.count) - 1]
    }

    /// Outermost pan of a voice spread by position: the zones sit evenly from −`spreadWidth`
    /// (left) to +`spreadWidth` (right). Not ±1: a stereo sample pushed fully to one side
    /// loses its width, and 0.8 keeps `default`'s L/R correlation near 0.75.
    public static let spreadWidth = 0.8

    /// Spreads a `.position` voice over `channels` (one pan zone each, left to right): key k of
    /// `keyCount` plays in zone ⌊(k − 1) × zones / keyCount⌋. With fewer keys than channels,
    /// one zone per key. A fixed-pan voice is left as it is.
    public mutating func spread(over channels: [Int], keyCount: Int) {
        guard case .position = pan, !channels.isEmpty else { return }
        let keys = max(1, keyCount)
        let zones = min(keys, channels.count)
        self.channels = (0..<zones).map { zone in
            let place = zones == 1 ? 0 : -Self.spreadWidth + 2 * Self.spreadWidth * Double(zone) / Double(zones - 1)
            return Channel(channel: channels[zone], pan: Self.panController(place))
        }
        keyZones = (1...keys).map { key in min(zones - 1, (key - 1) * zones / keys) }
    }

    /// True when every channel of the voice is panned to the centre (CC10 64).
    public var isCentred: Bool { channels.allSatisfy { $0.pan == 64 } }
}

/// The session's voices, in table order (the MIDI file's track order).
public struct VoiceTable: Sendable, Hashable {
    /// The rows; row 0 is the bass, row 1 the keys.
    public private(set) var voices: [Voice]

    /// Creates a table; the first two rows must be the bass ball's and the piano balls' voices.
    public init(_ voices: [Voice]) {
        precondition(voices.count >= 2 && voices[0].source == .bassBall && voices[1].source == .pianoBalls,
                     "the voices table starts with the bass and the keys")
        self.voices = voices
    }

    /// Number of voices.
    public var count: Int { voices.count }
    /// Every voice's identifier, in table order.
    public var ids: [VoiceID] { voices.indices.map(VoiceID.init(rawValue:)) }
    /// The row of `id`.
    public subscript(id: VoiceID) -> Voice { voices[id.rawValue] }
    /// The first voice played by `source`, if any.
    public func id(of source: Voice.Source) -> VoiceID? {
        voices.firstIndex { $0.source == source }.map(VoiceID.init(rawValue:))
    }
}
