// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One MIDI channel of a mix part: its tone and where it sits in the mix, as the MIDI
/// file's bank select, program change, CC7 (channel volume) and CC10 (pan) say.
public struct PartChannel: Sendable, Hashable {
    /// MIDI channel, 0…15 (0 = MIDI channel 1).
    public var channel: Int
    /// SoundFont bank, 0…16383 (128 = General MIDI percussion kits).
    public var bank: Int
    /// SoundFont program, 0…127.
    public var program: Int
    /// Channel volume, CC7 0…127. FluidSynth (like General MIDI) turns it into a gain of
    /// 40·log10(volume/127) dB: 127 = 0 dB, 100 = −4.2 dB (FluidSynth's default), 64 = −11.9 dB.
    public var volume: Int
    /// Pan, 0…127: 0 = hard left, 64 = centre, 127 = hard right. Sent (and written to the
    /// MIDI file) as both CC10 (pan) and CC8 (balance): CC10 alone moves each sample of a
    /// stereo instrument (most of FluidR3_GM's) by the same offset, clamped, so "hard left"
    /// still leaves 7 dB in the right channel; CC8 then attenuates the opposite side, so the
    /// position is heard as given (measured: a hard-left marimba note puts nothing on the right).
    public var pan: Int
    /// Other controllers sent at the start, in order (e.g. 91 reverb send, 93 chorus send).
    public var controllers: [Controller]

    /// A controller number and value, both 0…127.
    public struct Controller: Sendable, Hashable {
        /// Controller number 0…127.
        public var number: Int
        /// Value 0…127.
        public var value: Int
        /// A controller `number` with `value`.
        public init(number: Int, value: Int) {
            self.number = number
            self.value = value
        }
    }

    /// A channel set-up; volume 100 and pan 64 are FluidSynth's own defaults.
    public init(channel: Int, bank: Int, program: Int, volume: Int = 100, pan: Int = 64, controllers: [Controller] = []) {
        self.channel = channel
        self.bank = bank
        self.program = program
        self.volume = volume
        self.pan = pan
        self.controllers = controllers
    }

    /// The controllers that place the channel: CC7 volume, CC10 pan, CC8 balance, in that order.
    public var placement: [Controller] {
        [Controller(number: 7, value: volume), Controller(number: 10, value: pan), Controller(number: 8, value: pan)]
    }
}

/// A part of the mix: one voice (bass, keys, …), rendered by its own FluidSynth synth with
/// the session's effects, written to its own stem, and summed into the mix in part order.
public struct MixPart: Sendable, Hashable {
    /// The part's name; its stem is `<name lowercased>.<ext>`.
    public var name: String
    /// The MIDI channels the part plays (each channel belongs to one part only).
    public var channels: [PartChannel]

    /// A part `name` playing `channels`.
    public init(name: String, channels: [PartChannel]) {
        self.name = name
        self.channels = channels
    }

    /// The stem file name for `format`: the part's name in lower case, e.g. `keys.wav`.
    public func stemFileName(_ format: AudioFileFormat) -> String {
        name.lowercased() + "." + format.fileExtension
    }
}

/// A channel message for a `MixRenderer`, at a frame of the output.
public struct MixEvent: Sendable, Hashable {
    /// The frame (per channel, from 0) at which the message is due; it sounds from the
    /// first 64-frame block boundary at or after it.
    public var frame: Int64
    /// The message (note-on, note-off or control change; others are ignored), on a channel
    /// that must belong to one of the renderer's parts.
    public var message: MIDIBytes
    /// MIDI channel 0…15.
    public var channel: Int { message.channel }

    /// `message` due at `frame`.
    public init(frame: Int64, message: MIDIBytes) {
        self.frame = frame
        self.message = message
    }
}
