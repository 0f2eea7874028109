/// The program's identity, written into every MIDI file.
public enum Clumsy {
    /// Program name.
    public static let name = "Clumsy"
    /// Program version.
    public static let version = "0.1.0"
}
