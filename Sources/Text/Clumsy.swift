// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// The program's identity, written into every MIDI file.
public enum Clumsy {
    /// Program name: the first word of the opening text event of every MIDI file Clumsy writes.
    public static let name = "Clumsy"
    // `version` is generated from the VERSION file at build time (Plugins/VersionPlugin).
}
