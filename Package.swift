// swift-tools-version: 6.0
import PackageDescription

let uncheckedExclusivityInRelease: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

let package = Package(
    name: "Clumsy",
    products: [
        .executable(name: "clumsy", targets: ["clumsy"]),
        .executable(name: "clumsy-bench", targets: ["clumsy-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // System libraries from Debian (libchipmunk-dev, libfluidsynth-dev).
        .systemLibrary(name: "CChipmunk", path: "Sources/CChipmunk"),
        .systemLibrary(name: "CFluidSynth", path: "Sources/CFluidSynth"),
        // Live MIDI and OSC (libjack-jackd2-dev, libasound2-dev, liblo-dev); only Studio imports them.
        .systemLibrary(name: "CJack", path: "Sources/CJack"),
        .systemLibrary(name: "CALSA", path: "Sources/CALSA"),
        .systemLibrary(name: "CLo", path: "Sources/CLo"),

        .target(name: "Theory"),
        // Runtime exclusivity checks cost a fifth of all instructions in the stepping loop
        // (measured with callgrind; outputs byte-identical without them). The compiler's static
        // checks still apply; debug builds and tests keep the runtime checks.
        .target(name: "Physics", dependencies: ["CChipmunk"], swiftSettings: uncheckedExclusivityInRelease),
        .target(name: "Performance", dependencies: ["Theory"]),
        .target(name: "FileOutput"),
        .target(name: "MIDIFile", dependencies: ["FileOutput"]),
        .target(name: "Sound", dependencies: ["CFluidSynth"]),
        .target(name: "Studio", dependencies: ["CJack", "CALSA", "CLo"]),
        .target(name: "Session", dependencies: ["Theory", "Physics", "Performance", "MIDIFile", "Sound", "FileOutput", "Studio"],
                swiftSettings: uncheckedExclusivityInRelease),
        .executableTarget(name: "clumsy", dependencies: [
            "Session",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // `make bench`: in-process bare Chipmunk stepping versus the full simulator (Benchmarks/bench.sh).
        .executableTarget(name: "clumsy-bench", dependencies: ["Session", "Physics"], path: "Sources/ClumsyBench"),

        .testTarget(name: "TheoryTests", dependencies: ["Theory"]),
        .testTarget(name: "PhysicsTests", dependencies: ["Physics"]),
        .testTarget(name: "PerformanceTests", dependencies: ["Performance", "Theory"]),
        .testTarget(name: "MIDIFileTests", dependencies: ["MIDIFile", "FileOutput"], exclude: ["make_small.py"], resources: [.copy("Golden")]),
        .testTarget(name: "SoundTests", dependencies: ["Sound"]),
        .testTarget(name: "SessionTests", dependencies: ["Session", "Studio", "MIDIFile"]),
        .testTarget(name: "StudioTests", dependencies: ["Studio"]),
        .testTarget(name: "EndToEndTests", dependencies: ["Session", "MIDIFile"], resources: [.copy("Golden")]),
    ],
    swiftLanguageModes: [.v6]
)
