// swift-tools-version: 6.1
// A separate package, so that `swift build` / `swift test` of gpio-debounce never builds the
// benchmark framework. Run from the repository root with Benchmarks/run-benchmarks.sh, or:
//     swift package --package-path Benchmarks benchmark --no-progress --scale
import PackageDescription

let package = Package(
    name: "gpio-debounce-benchmarks",
    dependencies: [
        .package(name: "gpio-debounce", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
    ],
    targets: [
        .executableTarget(
            name: "DebounceBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DebounceCore", package: "gpio-debounce"),
                .product(name: "_Simulation", package: "gpio-debounce"),
                .product(name: "_TraceFormat", package: "gpio-debounce"),
                .product(name: "_EventOutput", package: "gpio-debounce"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Benchmarks/DebounceBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)
