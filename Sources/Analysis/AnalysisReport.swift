// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Text
import Theory

/// Writes a `MIDIAnalysis` as text for people (unicode spelling) or JSON for programs (ASCII spelling).
public enum AnalysisReport {
    /// Seconds with `decimals` decimals, C locale.
    static func fixed(_ value: Double, _ decimals: Int) -> String { Format.fixed(value, decimals: decimals) }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let gap = String(repeating: " ", count: max(0, width - text.count))
        return right ? gap + text : text + gap
    }

    /// `count` and `noun`, plural unless it is one ("1 note", "2 notes").
    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// The note name spelled in `key`, e.g. "E♭2".
    static func noteName(_ midi: Int, _ key: Key, _ style: SpellingStyle) -> String { key.spell(Pitch(midi: midi)).name(style) }

    /// The text report: a header, the key, the chord timeline, time per chord and per degree, the
    /// velocity histogram and the tracks.
    public static func text(_ analysis: MIDIAnalysis, file: String) -> String {
        let key = analysis.spellingKey
        var out = "\(Quote.text(file, limit: 4 * Quote.defaultLimit)): format \(analysis.format), \(analysis.tracks.count) track\(analysis.tracks.count == 1 ? "" : "s"), "
            + "\(analysis.ticksPerQuarter) ticks per quarter, \(fixed(analysis.duration, 3)) s, \(counted(analysis.noteCount, "note"))\n"
        if let estimate = analysis.key {
            out += "key: \(estimate.key) (correlation \(fixed(estimate.correlation, 3)); runner-up \(estimate.runnerUp) "
                + "\(fixed(estimate.runnerUpCorrelation, 3)), margin \(fixed(estimate.margin, 3)))\n"
        } else {
            out += "key: none (no pitched notes)\n"
        }
        out += chordTimeline(analysis)
        let total = analysis.duration > 0 ? analysis.duration : 1
        out += "\ntime per chord:\n"
        for (name, seconds) in analysis.timePerChord() {
            out += "  " + pad(name, 12) + pad(fixed(seconds, 3), 10, right: true) + " s" + pad(fixed(100 * seconds / total, 1), 7, right: true) + " %\n"
        }
        out += analysis.hasMarkedChords ? "\ntime per degree (estimated from the notes):\n" : "\ntime per degree:\n"
        let degrees = analysis.timePerDegree()
        // The time no degree was heard in (before the first notes, in rests) on its own line, so
        // that the lines add up to the whole file.
        let unheard = analysis.duration - degrees.reduce(0) { $0 + $1.seconds }
        for (name, seconds) in degrees + (unheard >= 0.0005 ? [("(none)", unheard)] : []) {
            out += "  " + pad(name, 12) + pad(fixed(seconds, 3), 10, right: true) + " s" + pad(fixed(100 * seconds / total, 1), 7, right: true) + " %\n"
        }
        out += "\nvelocity histogram:\n"
        let most = max(1, analysis.velocityHistogram.max() ?? 1)
        for (bin, count) in analysis.velocityHistogram.enumerated() {
            let low = bin * 16 + 1, high = min(127, bin * 16 + 16)
            let bar = String(repeating: "#", count: (count * 40 + most - 1) / most)
            out += "  " + pad(String(low), 3, right: true) + "–" + pad(String(high), 3) + " " + pad(String(count), 7, right: true) + "  " + bar + "\n"
        }
        out += "\ntracks:\n"
        for track in analysis.tracks {
            var line = "  " + pad(String(track.index), 3, right: true) + "  " + pad(track.name.map { "\"\(Quote.text($0))\"" } ?? "(no name)", 16)
                + pad(String(track.noteCount), 7, right: true) + (track.noteCount == 1 ? " note " : " notes")
            if !track.channels.isEmpty { line += "  channel " + track.channels.map { String($0 + 1) }.joined(separator: ",") }
            if let range = track.range { line += "  " + noteName(range.lowerBound, key, .unicode) + "–" + noteName(range.upperBound, key, .unicode) }
            out += line.trimmingTrailingSpaces() + "\n"
        }
        return out + repetitionText(analysis.repetition)
    }

    /// Most recurring bars listed one by one in the text report.
    static let listedBars = 64

    /// The text report's repetition section: fractions, passages, then the recurring bars.
    static func repetitionText(_ r: Repetition) -> String {
        var out = "\nrepetition (bars of \(r.barTicks) ticks; a bar recurs when an earlier one shares 80 % of the note-ons of each):\n"
        out += "  bars:            \(r.recurringBars.count) of \(r.bars) recur (\(fixed(100 * r.barFraction, 1)) %)\n"
        out += "  four-bar spans:  \(r.recurringSpans.count) of \(r.spans) recur (\(fixed(100 * r.spanFraction, 1)) %)\n"
        for passage in r.passages {
            let length = passage.end - passage.start
            out += "  bars \(passage.start)–\(passage.end) repeat bars \(passage.earlier)–\(passage.earlier + length)\n"
        }
        if !r.recurringBars.isEmpty {
            let listed = r.recurringBars.prefix(listedBars).map { "\($0.bar)=\($0.earlier)" }.joined(separator: " ")
            out += "  recurring bars (bar=earlier): " + listed + (r.recurringBars.count > listedBars ? " …" : "") + "\n"
        }
        return out
    }

    /// The chord timeline of the text report: the session's chords from a Clumsy file's
    /// markers, else the estimate from the notes (with its inversions); the heading says which.
    static func chordTimeline(_ analysis: MIDIAnalysis) -> String {
        if analysis.hasMarkedChords {
            var out = "\nchords (\(analysis.markedChords.count) changes, as the session played them: the file's chord markers):\n"
            for mark in analysis.markedChords { out += pad(fixed(mark.start, 3), 10, right: true) + " s  " + Quote.text(mark.name) + "\n" }
            return out
        }
        let key = analysis.spellingKey
        var out = "\nchords (\(counted(analysis.chords.filter { $0.identification != nil }.count, "span")); window \(analysis.windowTicks) ticks; estimated from the notes):\n"
        for span in analysis.chords {
            var line = pad(fixed(span.start, 3), 10, right: true) + " s  " + pad(span.symbol(in: key), 12) + pad(span.numeral(in: key), 7)
            if let found = span.identification { line += found.inversionName }
            out += line.trimmingTrailingSpaces() + "\n"
        }
        return out
    }

    /// The JSON report (one object, keys in a fixed order, ASCII spelling: "Eb", "Bm7b5", "bVII").
    /// Times are seconds; `correlation` is Pearson's r of the best key, `margin` its lead over the runner-up.
    public static func json(_ analysis: MIDIAnalysis, file: String) -> String {
        let key = analysis.spellingKey
        var out = "{\"file\":\(quote(file)),\"format\":\(analysis.format),\"ticksPerQuarter\":\(analysis.ticksPerQuarter),"
            + "\"duration\":\(fixed(analysis.duration, 6)),\"notes\":\(analysis.noteCount),\"windowTicks\":\(analysis.windowTicks),\"key\":"
        if let estimate = analysis.key {
            out += "{\"name\":\(quote(estimate.key.name(.ascii))),\"tonic\":\(quote(estimate.key.spelledTonic.name(.ascii))),"
                + "\"mode\":\(quote(estimate.key.scale.name)),\"correlation\":\(fixed(estimate.correlation, 6)),"
                + "\"runnerUp\":\(quote(estimate.runnerUp.name(.ascii))),\"runnerUpCorrelation\":\(fixed(estimate.runnerUpCorrelation, 6)),"
                + "\"margin\":\(fixed(estimate.margin, 6))}"
        } else {
            out += "null"
        }
        out += ",\"chords\":["
        out += analysis.chords.map { span -> String in
            var item = "{\"start\":\(fixed(span.start, 6)),\"end\":\(fixed(span.end, 6)),\"startTick\":\(span.startTick),\"endTick\":\(span.endTick),"
                + "\"symbol\":\(quote(span.symbol(in: key, style: .ascii)))"
            if let found = span.identification {
                let tones = key.spelledTones(of: found.chord).map { quote($0.name(.ascii)) }.joined(separator: ",")
                item += ",\"root\":\(quote(key.spell(found.chord.root).name(.ascii))),\"quality\":\(quote(found.chord.quality.rawValue)),"
                    + "\"tones\":[\(tones)],\"bass\":\(quote(found.spelledBass(in: key).name(.ascii))),"
                    + "\"inversion\":\(found.inversion.map(String.init) ?? "null"),\"numeral\":\(quote(span.numeral(in: key, style: .ascii)))"
            }
            return item + "}"
        }.joined(separator: ",")
        out += "],\"chordSource\":\(analysis.hasMarkedChords ? "\"markers\"" : "\"estimate\""),\"markedChords\":["
        out += analysis.markedChords.map {
            "{\"start\":\(fixed($0.start, 6)),\"end\":\(fixed($0.end, 6)),\"startTick\":\($0.startTick),\"symbol\":\(quote($0.name, ascii: true))}"
        }.joined(separator: ",")
        out += "],\"timePerChord\":[" + analysis.timePerChord(style: .ascii).map { "{\"chord\":\(quote($0.name, ascii: true)),\"seconds\":\(fixed($0.seconds, 6))}" }.joined(separator: ",")
        out += "],\"timePerDegree\":[" + analysis.timePerDegree(style: .ascii).map { "{\"degree\":\(quote($0.name)),\"seconds\":\(fixed($0.seconds, 6))}" }.joined(separator: ",")
        out += "],\"velocityHistogram\":[" + analysis.velocityHistogram.enumerated().map { bin, count in
            "{\"low\":\(bin * 16 + 1),\"high\":\(min(127, bin * 16 + 16)),\"count\":\(count)}"
        }.joined(separator: ",")
        out += "],\"tracks\":[" + analysis.tracks.map { track -> String in
            var item = "{\"index\":\(track.index),\"name\":\(track.name.map { quote($0) } ?? "null"),\"notes\":\(track.noteCount),"
                + "\"channels\":[\(track.channels.map { String($0 + 1) }.joined(separator: ","))]"
            if let range = track.range {
                item += ",\"lowest\":\(quote(noteName(range.lowerBound, key, .ascii))),\"highest\":\(quote(noteName(range.upperBound, key, .ascii)))"
            }
            return item + "}"
        }.joined(separator: ",")
        let r = analysis.repetition
        out += "],\"repetition\":{\"barTicks\":\(r.barTicks),\"bars\":\(r.bars),\"spans\":\(r.spans),"
            + "\"recurringBars\":[" + r.recurringBars.map { "{\"bar\":\($0.bar),\"earlier\":\($0.earlier)}" }.joined(separator: ",")
            + "],\"recurringSpans\":[" + r.recurringSpans.map { "{\"bar\":\($0.bar),\"earlier\":\($0.earlier)}" }.joined(separator: ",")
            + "],\"passages\":[" + r.passages.map { "{\"start\":\($0.start),\"end\":\($0.end),\"earlier\":\($0.earlier)}" }.joined(separator: ",")
        return out + "]}}\n"
    }

    /// A JSON string literal (escapes quotes, backslashes and control characters), with the
    /// characters that steer a terminal (`Quote.isControl`: C1 controls, DEL, bidirectional
    /// overrides) written as `\uXXXX` too: the same string to a JSON reader, inert on a terminal.
    /// With `ascii`, every character beyond ASCII is escaped too (a marker's "F♯m7" is "F\u266fm7").
    static func quote(_ text: String, ascii: Bool = false) -> String {
        var out = ""
        for scalar in Format.jsonString(text).unicodeScalars {
            if Quote.isControl(scalar) || (ascii && !scalar.isASCII) {
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    /// The string without trailing spaces.
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
