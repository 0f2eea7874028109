// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// Gives each note its MIDI channel from the voices table: a note-on of a voice with several
/// channels goes to its key's zone (`Voice.channelIndex(forKey:)`); a note-off goes to the
/// channel of its note-on (the scheduler never sounds one pitch twice in a voice, so the
/// pitch identifies the note). Each sink keeps its own router; all see the same events.
public struct NoteRouter: Sendable {
    private let voices: [Voice]
    private var channelOfPitch: [[Int]]

    /// A router for the voices of `voices`.
    public init(voices: VoiceTable) {
        self.voices = voices.voices
        channelOfPitch = voices.voices.map { [Int](repeating: $0.channel, count: 128) }
    }

    /// The 0-based MIDI channel of `note`.
    public mutating func channel(for note: NoteEvent) -> Int {
        let voice = voices[note.voice.rawValue]
        guard voice.channels.count > 1 else { return voice.channel }
        if note.kind == .on {
            let channel = voice.channels[voice.channelIndex(forKey: note.cause.key ?? 0)].channel
            channelOfPitch[note.voice.rawValue][note.note] = channel
            return channel
        }
        return channelOfPitch[note.voice.rawValue][note.note]
    }

    /// Every channel of `voice` (a controller event goes to all of them).
    public func channels(of voice: VoiceID) -> [Voice.Channel] { voices[voice.rawValue].channels }
}
