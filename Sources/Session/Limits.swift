/// The accepted ranges of every value a user can set, shared by presets, flags and the README.
public enum Limits {
    /// Gravity on the piano balls, m/s².
    public static let gravity: ClosedRange<Double> = 0...100
    /// Bass ball speed, m/s.
    public static let speed: ClosedRange<Double> = 0.1...20
    /// Session length, simulated seconds (up to one week).
    public static let duration: ClosedRange<Double> = 0.001...604_800
    /// MIDI file tempo, beats per minute.
    public static let tempo: ClosedRange<Double> = 20...400
    /// Fixed timestep, seconds (1/4000 … 1/240).
    public static let timestep: ClosedRange<Double> = (1.0 / 4000)...(1.0 / 240)
    /// Number of piano balls.
    public static let pianoBalls: ClosedRange<Int> = 0...1000
    /// Piano ball radius, metres.
    public static let pianoRadius: ClosedRange<Double> = 0.02...0.5
    /// Piano ball restitution.
    public static let restitution: ClosedRange<Double> = 0.5...1
    /// Piano ball friction coefficient.
    public static let friction: ClosedRange<Double> = 0...2
    /// Bass ball radius, metres.
    public static let bassRadius: ClosedRange<Double> = 0.05...0.6
    /// Bouncer radius, metres.
    public static let bouncerRadius: ClosedRange<Double> = 0.05...0.8
    /// Note length, seconds.
    public static let noteLength: ClosedRange<Double> = 0.01...20
    /// Seconds without a bouncer hit before the bass ball is kicked.
    public static let kickAfter: ClosedRange<Double> = 0.5...600
    /// Seconds without a key hit before a piano ball is dropped again.
    public static let redropAfter: ClosedRange<Double> = 0.5...3600
    /// Seconds a piano ball may lie still before it is dropped again.
    public static let restAfter: ClosedRange<Double> = 0.1...3600
    /// Impact speeds for velocity curves and minimum hit speeds, m/s (or fractions of the bass speed).
    public static let impactSpeed: ClosedRange<Double> = 0...200
    /// Velocity curve exponent.
    public static let exponent: ClosedRange<Double> = 0.1...10
    /// Lowest register pitch (MIDI) for bass and keys: C0…C7 so every voiced note stays in 0…127.
    public static let register: ClosedRange<Int> = 12...96
    /// Low-pass cutoff, Hz.
    public static let cutoff: ClosedRange<Double> = 20...20_000
    /// Low-pass resonance, dB.
    public static let resonance: ClosedRange<Double> = 0...20
    /// Delay time, seconds.
    public static let delayTime: ClosedRange<Double> = 0...5
    /// Delay feedback.
    public static let feedback: ClosedRange<Double> = 0...0.95
    /// Delay wet mix, reverb level and room size.
    public static let unit: ClosedRange<Double> = 0...1
    /// Output sample rate, Hz.
    public static let sampleRate: ClosedRange<Double> = 8_000...96_000
    /// Largest preset file read, bytes.
    public static let presetFileSize = 1 << 20

    /// "0…100" style text for messages.
    public static func text(_ range: ClosedRange<Double>, unit: String = "") -> String {
        let suffix = unit.isEmpty ? "" : " \(unit)"
        return "\(Format.plain(range.lowerBound))…\(Format.plain(range.upperBound))\(suffix)"
    }

    /// "0…1000" style text for messages.
    public static func text(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound)…\(range.upperBound)" }
}
