// swift-tools-version: 6.1
import PackageDescription

let system = Target.Dependency.product(name: "SystemPackage", package: "swift-system")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")

let package = Package(
    name: "gpio-debounce",
    products: [
        .executable(name: "gpio-debounce", targets: ["gpio-debounce"]),
        .library(name: "GPIODebounce", targets: ["GPIODebounce"]),
        .library(name: "DebounceCore", targets: ["DebounceCore"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "TraceFormat", targets: ["TraceFormat"]),
        .library(name: "EventOutput", targets: ["EventOutput"]),
        .library(name: "ConfigurationFile", targets: ["ConfigurationFile"]),
        .library(name: "Sinks", targets: ["Sinks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
    ],
    targets: [
        // Pure: the debouncing and gesture state machines, durations. Standard library only.
        // libm: Double's rounding calls round, rint, trunc, ceil and floor, which a program that links
        // only this product would otherwise lack.
        .target(name: "DebounceCore", linkerSettings: [.linkedLibrary("m")]),
        // Pure: the stages every mode runs (edges → debouncer → gestures and groups → outputs).
        .target(name: "Pipeline", dependencies: ["DebounceCore"]),
        // The C boundary: owned descriptors, the one ppoll, signalfd, eventfd, process groups.
        .target(name: "LinuxSys", dependencies: ["CLinuxSys", system]),
        // The Linux declarations Swift's Glibc module leaves out (ppoll, signalfd, eventfd, inotify).
        .systemLibrary(name: "CLinuxSys"),
        // The one event loop: descriptors, the run's clock, deadlines; sources in, sinks out.
        .target(name: "EventLoop", dependencies: ["DebounceCore", "Pipeline", "LinuxSys", system]),
        // Simulated bouncy lines as an edge source (virtual or real time).
        .target(name: "Simulation", dependencies: ["DebounceCore", "Pipeline", "EventLoop"]),
        // libgpiod 1.6 or 2.x through one small header-only shim.
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        // Real pins: chips, line lookup, line requests as an edge source.
        .target(name: "GPIODBackend", dependencies: ["CGPIOD", "DebounceCore", "Pipeline", "EventLoop", "LinuxSys", system]),
        // What writes events and bytes to a descriptor: OutputBuffer, ByteWriter, EventWriter and the
        // fields every event of a line carries, JSON and terminal text. A library product of its own:
        // TraceFormat's public writers take an OutputBuffer, and a program that writes events (the
        // Benchmarks package) needs EventWriter, so these few types are public API; the rest of the
        // module (EventFieldTable, JSONText, TerminalText) is `package`.
        .target(name: "EventOutput", dependencies: ["DebounceCore", "LinuxSys", system]),
        // Trace formats: streaming readers (text, VCD) and writers, the writers into EventOutput's buffer.
        // Formats only: no loop and no stages (a trace as a run's input is TraceInput).
        .target(name: "TraceFormat", dependencies: ["DebounceCore", "EventOutput", system]),
        // A recorded trace of one or more lines as an edge source (TraceEdgeSource), for a run in virtual
        // time: the input beside real pins (GPIODBackend) and simulated lines (Simulation).
        .target(name: "TraceInput", dependencies: ["DebounceCore", "Pipeline", "EventLoop", "TraceFormat"]),
        // Trace analysis: bursts, statistics, the smallest working windows, and SVG pictures.
        .target(name: "TraceAnalysis", dependencies: ["DebounceCore", "Pipeline", "TraceFormat"]),
        // Sinks: the event printer, the trace recorder, the action runner, the counters' store. A library
        // product only so that the Fuzz package can reach the counter state file's parser, the one public
        // part (CounterStateFile, CounterStateError); the rest of the module is `package`.
        .target(name: "Sinks", dependencies: ["DebounceCore", "Pipeline", "EventLoop", "LinuxSys", "EventOutput", "TraceFormat", logging, system]),
        // libmosquitto's declarations (Debian's libmosquitto-dev), plus epoll; the library itself is
        // opened at run time (MQTT's MosquittoLibrary), only by a run that publishes.
        .systemLibrary(name: "CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // The MQTT sink: events, states, availability and Home Assistant discovery, on the event loop.
        .target(name: "MQTT", dependencies: ["CMosquitto", "DebounceCore", "Pipeline", "EventLoop", "LinuxSys", "EventOutput", logging, system]),
        // libyaml, the YAML 1.1 parser (Debian's libyaml-dev), plus its nesting check.
        // No pkgConfig: yaml-0.1.pc's -L names the system's library folder, which SwiftPM would put
        // ahead of libgpiod.pc's, so that a build against a libgpiod 2 of its own (scripts/test-libgpiod2)
        // would link the system's libgpiod 1.6. yaml.h is in /usr/include; the packages link libyaml.a
        // from a folder of its own (-L, packaging/build-stage).
        .systemLibrary(name: "CYAML", providers: [.apt(["libyaml-dev"])]),
        // YAML text to a tree of nodes with their positions, through libyaml's events. Standard library only.
        .target(name: "YAMLDocument", dependencies: ["CYAML"]),
        // The daemon's configuration: YAML loading and checking, and the plan it makes for the loop.
        .target(name: "ConfigurationFile", dependencies: ["DebounceCore", "Pipeline", "Sinks", "GPIODBackend", "MQTT", "YAMLDocument"]),
        // The one assembly of a run: an input (pins, simulated lines, a trace) with its clock, the
        // stages and the sinks, as one event loop. Every command and the library's Button use it.
        .target(name: "Assembly", dependencies: ["DebounceCore", "Pipeline", "EventLoop", "LinuxSys", "Simulation", "GPIODBackend", "TraceInput"]),
        // The daemon of a configuration, assembled where it can be tested: the input (the configured pins or
        // a simulation of every input), the plan, the sinks (printer, actions or their preview, keys, the
        // counters' store, MQTT) and the loop; and `check`'s report. A module of its own above Assembly, so
        // that the library's `Button` (GPIODebounce, through Assembly) links no configuration, YAML or MQTT.
        .target(
            name: "Daemon",
            dependencies: [
                "DebounceCore", "Pipeline", "EventLoop", "LinuxSys", "Simulation", "GPIODBackend", "EventOutput", "Sinks", "MQTT", "ConfigurationFile",
                "Assembly", logging, system,
            ]),
        // The library face: `Button(line: 17).events`, over real pins or the simulated button.
        .target(name: "GPIODebounce", dependencies: ["DebounceCore", "Pipeline", "EventLoop", "LinuxSys", "Simulation", "GPIODBackend", "Assembly", system]),
        .executableTarget(
            name: "gpio-debounce",
            dependencies: [
                "DebounceCore", "Pipeline", "EventLoop", "LinuxSys", "Simulation", "EventOutput", "TraceFormat", "TraceInput", "GPIODBackend", "TraceAnalysis",
                "Sinks", "ConfigurationFile", "Assembly", "Daemon", logging, system,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "DebounceCoreTests",
            dependencies: [
                "DebounceCore", "Pipeline", "EventLoop", "Simulation",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Pure: the pipeline's stages over many lines, against each line's core stages driven alone.
        .testTarget(
            name: "PipelineTests",
            dependencies: ["Pipeline", "DebounceCore", "Simulation", "EventLoop", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "EventLoop", "Pipeline", "LinuxSys", "DebounceCore"]),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop", "Pipeline", "Simulation", "LinuxSys", "DebounceCore"]),
        // The system calls on this machine: processors, the virtual keyboard's errors.
        .testTarget(name: "LinuxSysTests", dependencies: ["LinuxSys"]),
        // Sinks on the event loop (real child processes for actions), and the key names.
        .testTarget(name: "SinksTests", dependencies: ["Sinks", "EventLoop", "Pipeline", "Simulation", "LinuxSys", "DebounceCore", logging]),
        .testTarget(name: "GPIODBackendTests", dependencies: ["GPIODBackend"]),
        // The library face as a user's program sees it: `import GPIODebounce` alone.
        .testTarget(name: "GPIODebounceTests", dependencies: ["GPIODebounce"]),
        .testTarget(name: "ConfigurationFileTests", dependencies: ["ConfigurationFile", "Pipeline", "EventLoop", "Simulation", "Sinks", "DebounceCore", logging]),
        .testTarget(name: "YAMLDocumentTests", dependencies: ["YAMLDocument"]),
        // A run put together: RunAssembly's inputs, and the daemon of a configuration (Daemon) simulated in virtual time.
        .testTarget(
            name: "AssemblyTests",
            dependencies: [
                "Assembly", "Daemon", "ConfigurationFile", "Sinks", "MQTT", "EventLoop", "EventOutput", "Simulation", "Pipeline", "LinuxSys", "DebounceCore",
                logging, system,
            ]),
        .testTarget(name: "TraceAnalysisTests", dependencies: ["TraceAnalysis", "TraceFormat", "DebounceCore", "Simulation"]),
        .testTarget(name: "TraceFormatTests", dependencies: ["TraceFormat", "EventOutput", "DebounceCore", "Simulation"]),
        // A trace as a run's input: its lines' initial levels, its edges through the loop, a bad line's end.
        .testTarget(name: "TraceInputTests", dependencies: ["TraceInput", "TraceFormat", "EventLoop", "Pipeline", "Simulation", "DebounceCore"]),
        .testTarget(name: "EventOutputTests", dependencies: ["EventOutput", "DebounceCore"]),
        .testTarget(name: "CLITests", dependencies: ["gpio-debounce", "LinuxSys"]),
        .testTarget(
            name: "MQTTTests",
            dependencies: [
                "MQTT", "ConfigurationFile", "YAMLDocument", "Simulation", "EventLoop", "Pipeline", "LinuxSys", "DebounceCore", "EventOutput", logging, system,
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
