// swift-tools-version: 6.1
// A Swift program using gpio-debounce as a library. Build and run on the Pi:
//     swift run --package-path examples/swift-button button-lights 17
import PackageDescription

let package = Package(
    name: "swift-button",
    dependencies: [.package(name: "gpio-debounce", path: "../..")],
    targets: [
        .executableTarget(
            name: "button-lights",
            dependencies: [.product(name: "GPIODebounce", package: "gpio-debounce")]
        )
    ],
    swiftLanguageModes: [.v6]
)
