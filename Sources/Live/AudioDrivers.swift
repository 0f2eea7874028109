// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Sound

/// The audio drivers of the FluidSynth this program is linked with (for `--audio-driver`'s
/// help), asked of FluidSynth itself rather than written down: Debian 12's has no
/// `pipewire`, for one.
public enum AudioDrivers {
    /// Names, sorted, e.g. "alsa, file, jack, oss, pulseaudio, sdl2" on Debian 12.
    public static var list: String { names.joined(separator: ", ") }

    /// The names, sorted (what the shell completes after `--audio-driver`).
    public static var names: [String] { LiveAudio.availableDrivers.sorted() }
}
