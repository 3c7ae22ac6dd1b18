// swift-tools-version: 6.1
// The pure debouncing core on its own (the DebounceCore product: standard library only, no GPIO):
// feed it timestamped edges from anywhere (a microcontroller's log, a test), get events out.
//     swift run --package-path examples/swift-core bounce-core
// From a copy elsewhere, GPIO_DEBOUNCE_SOURCE names a checkout of gpio-debounce.
import PackageDescription

/// gpio-debounce's source: GPIO_DEBOUNCE_SOURCE if set, else the checkout this example is part of.
let source = Context.environment["GPIO_DEBOUNCE_SOURCE"] ?? "../.."

let package = Package(
    name: "swift-core",
    dependencies: [.package(name: "gpio-debounce", path: source)],
    targets: [
        .executableTarget(
            name: "bounce-core",
            dependencies: [.product(name: "DebounceCore", package: "gpio-debounce")]
        )
    ],
    swiftLanguageModes: [.v6]
)
