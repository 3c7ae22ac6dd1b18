// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "gpio-debounce",
    products: [
        .executable(name: "gpio-debounce", targets: ["gpio-debounce"]),
        .library(name: "GPIODebounce", targets: ["GPIODebounce"]),
        .library(name: "DebounceCore", targets: ["DebounceCore"]),
        .library(name: "LineBackends", targets: ["LineBackends"]),
        .library(name: "TraceFormat", targets: ["TraceFormat"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
    ],
    targets: [
        // The pure debouncing state machine: standard library only.
        .target(name: "DebounceCore"),
        // Line backends (simulated line, later libgpiod) and the driver loop that runs the core over them.
        .target(
            name: "LineBackends",
            dependencies: ["DebounceCore", .product(name: "SystemPackage", package: "swift-system")]
        ),
        // libgpiod 1.6 or 2.x through one small header-only shim.
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        // Real pins: chips, line requests and the libgpiod line backend.
        .target(
            name: "GPIODBackend",
            dependencies: [
                "CGPIOD", "DebounceCore", "LineBackends", .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The library face: `Button(line: 17).events`, over real pins or the simulated button.
        .target(name: "GPIODebounce", dependencies: ["DebounceCore", "LineBackends", "GPIODBackend"]),
        // The daemon: YAML configuration, gestures per button, groups, actions.
        .target(
            name: "ButtonService",
            dependencies: [
                "DebounceCore", "LineBackends", "GPIODBackend", "TraceFormat",
                .product(name: "Yams", package: "Yams"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Streaming reader of recorded traces and writers of events (text, JSON).
        .target(
            name: "TraceFormat",
            dependencies: ["DebounceCore", .product(name: "SystemPackage", package: "swift-system")]
        ),
        // Trace analysis: bursts, statistics, the smallest working windows, and SVG pictures.
        .target(name: "TraceAnalysis", dependencies: ["DebounceCore", "TraceFormat"]),
        .executableTarget(
            name: "gpio-debounce",
            dependencies: [
                "DebounceCore", "LineBackends", "TraceFormat", "GPIODBackend", "TraceAnalysis", "ButtonService",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "DebounceCoreTests",
            dependencies: [
                "DebounceCore", "LineBackends",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "LineBackendsTests", dependencies: ["LineBackends", "DebounceCore"]),
        .testTarget(name: "GPIODBackendTests", dependencies: ["GPIODBackend", "GPIODebounce"]),
        .testTarget(name: "ButtonServiceTests", dependencies: ["ButtonService", "DebounceCore", "LineBackends"]),
        .testTarget(name: "TraceAnalysisTests", dependencies: ["TraceAnalysis", "TraceFormat", "DebounceCore", "LineBackends"]),
        .testTarget(name: "TraceFormatTests", dependencies: ["TraceFormat", "DebounceCore", "LineBackends"]),
        .testTarget(name: "CLITests", dependencies: ["gpio-debounce"]),
    ],
    swiftLanguageModes: [.v6]
)
