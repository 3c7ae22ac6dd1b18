// swift-tools-version: 6.1
// A separate package, so that `swift build` / `swift test` of gpio-debounce never builds the fuzz
// targets. One libFuzzer executable per parser, built with `-sanitize=fuzzer,address`; run them all
// from the repository root with scripts/fuzz (which builds with the right flags), or one by hand:
//     swift build --package-path Fuzz --scratch-path .build-fuzz \
//         -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
//     .build-fuzz/debug/fuzz-vcd .build-fuzz/corpus/vcd Fuzz/corpus/vcd -max_len=8192
import PackageDescription

let package = Package(
    name: "gpio-debounce-fuzz",
    dependencies: [
        .package(name: "gpio-debounce", path: ".."),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
    ],
    targets: [
        // What the targets share: feeding bytes to a reader through a pipe, reading it out, checking.
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "_TraceFormat", package: "gpio-debounce"),
                .product(name: "DebounceCore", package: "gpio-debounce"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The replay text format (`t_ns,level` lines): TraceReader.
        .executableTarget(name: "fuzz-trace", dependencies: ["FuzzSupport"]),
        // Value Change Dump: VCDReader, with and without a channel name.
        .executableTarget(name: "fuzz-vcd", dependencies: ["FuzzSupport"]),
        // Durations: DurationSyntax.parseNs.
        .executableTarget(name: "fuzz-duration", dependencies: ["FuzzSupport"]),
        // Strategies: DebounceStrategy(parsing:).
        .executableTarget(name: "fuzz-strategy", dependencies: ["FuzzSupport"]),
        // A state file of totals (as `counters`): StateFileFormat.parse, and format back.
        .executableTarget(name: "fuzz-counters", dependencies: ["FuzzSupport", .product(name: "_KeptState", package: "gpio-debounce")]),
        // A state file of signed values (as `positions`): StateFileFormat.parse, and format back.
        .executableTarget(name: "fuzz-positions", dependencies: ["FuzzSupport", .product(name: "_KeptState", package: "gpio-debounce")]),
        // A request line to the events socket: EventSocketRequest.parse.
        .executableTarget(
            name: "fuzz-request",
            dependencies: ["FuzzSupport", .product(name: "_EventSocket", package: "gpio-debounce")]
        ),
        // What an ESPHome API client sends: APIFrameReader, plaintext and Noise.
        .executableTarget(
            name: "fuzz-api-frames",
            dependencies: ["FuzzSupport", .product(name: "_ESPHomeAPI", package: "gpio-debounce")]
        ),
        // What an ESPHome API client sends, read whole: APISession (plaintext, Noise's handshake) and
        // each message decoded (APIClientMessage, swift-protobuf).
        .executableTarget(
            name: "fuzz-api-session",
            dependencies: ["FuzzSupport", .product(name: "_ESPHomeAPI", package: "gpio-debounce")]
        ),
        // The daemon's YAML configuration: ConfigurationLoader.load.
        .executableTarget(
            name: "fuzz-config",
            dependencies: ["FuzzSupport", .product(name: "_Inputs", package: "gpio-debounce")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
