/// The program's identity, written into every MIDI file.
public enum Clumsy {
    /// Program name: the first word of the opening text event of every MIDI file Clumsy writes.
    public static let name = "Clumsy"
    /// Program version.
    public static let version = "0.1.0"
}
