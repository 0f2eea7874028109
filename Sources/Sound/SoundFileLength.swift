// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CSndfile
import FileOutput

/// How long an audio file Clumsy wrote plays, read from its header by libsndfile (WAV, FLAC,
/// Ogg Vorbis alike): what a dataset's labels must cover.
public enum SoundFileLength {
    /// Seconds of sound in the file at `path`, or nil when libsndfile cannot read it.
    public static func seconds(of path: String) -> Double? {
        var info = SF_INFO()
        guard let file = PathBytes.withCString(path, { sf_open($0, Int32(SFM_READ), &info) }) else { return nil }
        defer { sf_close(file) }
        guard info.samplerate > 0, info.frames >= 0 else { return nil }
        return Double(info.frames) / Double(info.samplerate)
    }
}
