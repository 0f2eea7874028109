import Testing
@testable import Session
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Random mutations of every bundled preset: clean errors or valid sessions, never a crash or hang.
/// CI runs a short campaign; `make fuzz` sets CLUMSY_FUZZ_ITERATIONS for a long one.
@Suite struct FuzzTests {
    static var iterations: Int {
        if let text = getenv("CLUMSY_FUZZ_ITERATIONS"), let n = Int(String(cString: text)) { return n }
        return 1500
    }

    @Test func mutatedPresetsGiveCleanErrorsOrValidSessions() throws {
        let corpus = try PresetLibrary.bundled().map { try Preset.readFile($0.path) }
        #expect(corpus.count >= 5)
        var fuzzer = PresetFuzzer(corpus: corpus, seed: 20261122)
        var ran = 0
        var rejected = 0
        let total = Self.iterations
        for index in 0..<total {
            let input = fuzzer.next()
            do {
                switch try PresetFuzzer.check(input, duration: 0.1) {
                case .ran: ran += 1
                case .rejected(let status):
                    #expect(status == 65 || status == 64)
                    rejected += 1
                }
            } catch {
                Issue.record("input \(index) gave \(error): \(String(decoding: input.prefix(300), as: UTF8.self))")
            }
        }
        print("fuzz: \(total) inputs, \(ran) ran, \(rejected) rejected cleanly")
        #expect(ran > 0 && rejected > 0)
    }

    @Test func writerRoundTripsEveryBundledPreset() throws {
        for entry in PresetLibrary.bundled() {
            let bytes = try Preset.readFile(entry.path)
            let value = try JSONParser.parse(bytes)
            let again = try JSONParser.parse(Array(JSONWriter.text(value).utf8))
            #expect(value == again)
        }
    }
}
