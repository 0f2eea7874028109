// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Clumsy",
    products: [
        .executable(name: "clumsy", targets: ["clumsy"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // System libraries from Debian (libchipmunk-dev, libfluidsynth-dev).
        .systemLibrary(name: "CChipmunk", path: "Sources/CChipmunk"),
        .systemLibrary(name: "CFluidSynth", path: "Sources/CFluidSynth"),

        .target(name: "Theory"),
        .target(name: "Physics", dependencies: ["CChipmunk"]),
        .target(name: "Performance", dependencies: ["Theory"]),
        .target(name: "FileOutput"),
        .target(name: "MIDIFile", dependencies: ["FileOutput"]),
        .target(name: "Sound", dependencies: ["CFluidSynth"]),
        .target(name: "Session", dependencies: ["Theory", "Physics", "Performance", "MIDIFile", "Sound", "FileOutput"]),
        .executableTarget(name: "clumsy", dependencies: [
            "Session",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "TheoryTests", dependencies: ["Theory"]),
        .testTarget(name: "PhysicsTests", dependencies: ["Physics"]),
        .testTarget(name: "PerformanceTests", dependencies: ["Performance", "Theory"]),
        .testTarget(name: "MIDIFileTests", dependencies: ["MIDIFile", "FileOutput"], exclude: ["make_small.py"], resources: [.copy("Golden")]),
        .testTarget(name: "SoundTests", dependencies: ["Sound"]),
        .testTarget(name: "SessionTests", dependencies: ["Session"]),
        .testTarget(name: "EndToEndTests", dependencies: ["Session", "MIDIFile"], resources: [.copy("Golden")]),
    ],
    swiftLanguageModes: [.v6]
)
