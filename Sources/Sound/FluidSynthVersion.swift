// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CFluidSynth

/// The FluidSynth library in use.
public enum FluidSynthVersion {
    /// Its version, as `fluid_version_str` gives it ("2.3.1").
    public static var text: String { String(cString: fluid_version_str()) }
}
