// The preset format and the settings table are part of a session's vocabulary.
@_exported import Presets

/// The program's identity, written into every MIDI file.
public enum Clumsy {
    /// Program name.
    public static let name = "Clumsy"
    /// Program version.
    public static let version = "0.1.0"
}
