// swift-tools-version: 6.1
// A Swift program using gpio-debounce as a library. Build and run it on the Pi, from a checkout of
// gpio-debounce:
//     swift run --package-path examples/swift-button button-lights 17
// or from a copy elsewhere (such as /usr/share/doc/gpio-debounce/examples/swift-button), with
// GPIO_DEBOUNCE_SOURCE naming a checkout of gpio-debounce:
//     GPIO_DEBOUNCE_SOURCE=~/gpio-debounce swift run button-lights 17
import PackageDescription

/// gpio-debounce's source: GPIO_DEBOUNCE_SOURCE if set, else the checkout this example is part of.
let source = Context.environment["GPIO_DEBOUNCE_SOURCE"] ?? "../.."

let package = Package(
    name: "swift-button",
    dependencies: [.package(name: "gpio-debounce", path: source)],
    targets: [
        .executableTarget(
            name: "button-lights",
            dependencies: [.product(name: "GPIODebounce", package: "gpio-debounce")]
        )
    ],
    swiftLanguageModes: [.v6]
)
