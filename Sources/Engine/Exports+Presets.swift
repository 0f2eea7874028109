// The preset format and the settings table are part of a session's vocabulary.
@_exported import Presets
