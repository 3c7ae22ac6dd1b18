// swift-tools-version: 6.1
import PackageDescription

let system = Target.Dependency.product(name: "SystemPackage", package: "swift-system")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
// Tests keep what a run logs with swift-log's own InMemoryLogHandler (swift-log 1.8.0 and later).
let inMemoryLogging = Target.Dependency.product(name: "InMemoryLogging", package: "swift-log")

let package = Package(
    name: "gpio-debounce",
    products: [
        .executable(name: "gpio-debounce", targets: ["gpio-debounce"]),
        // The API: the library (`import GPIODebounce`: Button, ButtonSet, and the core's events and
        // strategies) and the pure core on its own (edges in, events out).
        .library(name: "GPIODebounce", targets: ["GPIODebounce"]),
        .library(name: "DebounceCore", targets: ["DebounceCore"]),
        // Not API: underscored products, as swift-nio's `_NIO…`, only for this repository's own Fuzz and
        // Benchmarks packages (packages of their own, which can reach nothing but public declarations).
        // In these modules `public` marks exactly what those packages call; everything else is `package`
        // (docs/architecture.md, "Access").
        .library(name: "_Simulation", targets: ["Simulation"]),
        .library(name: "_TraceFormat", targets: ["TraceFormat"]),
        .library(name: "_EventOutput", targets: ["EventOutput"]),
        .library(name: "_Inputs", targets: ["Inputs", "ConfigurationFile"]),
        .library(name: "_KeptState", targets: ["KeptState"]),
        .library(name: "_EventSocket", targets: ["EventSocket"]),
        .library(name: "_ESPHomeAPI", targets: ["ESPHomeAPI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.8.0"),
        // ESPHome's native API's messages (Sources/ESPHomeAPI/Messages): the runtime of the code
        // scripts/generate-api-messages made. No traits: its default ones bring Foundation's streams;
        // without them it imports FoundationEssentials only.
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0", traits: []),
        // The API's encryption (Noise_NNpsk0_25519_ChaChaPoly_SHA256): Curve25519, ChaChaPoly, SHA-256, HKDF.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
        // ESPHome API keys, written in base64 (`api: encryption: key:`).
        .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
    ],
    targets: [
        // Pure: the debouncing and gesture state machines, durations. Standard library only.
        // libm: Double's rounding calls round, rint, trunc, ceil and floor, which a program that links
        // only this product would otherwise lack.
        .target(name: "DebounceCore", linkerSettings: [.linkedLibrary("m")]),
        // Pure values the configuration is read into and the modules it configures take: a line's bias,
        // actions and their policies, the bindings of buttons', encoders' and contacts' events to actions
        // and keys, key codes and their names (KeyNames.swift, scripts/generate-key-names), the MQTT
        // broker's settings (MQTTSettings), and the nearest names to a misspelt one. Standard library only.
        .target(name: "Settings", dependencies: ["DebounceCore"]),
        // Pure: the stages every mode runs (edges → debouncer → gestures and groups → outputs).
        .target(name: "Pipeline", dependencies: ["DebounceCore"]),
        // The C boundary: owned descriptors, the one ppoll, signalfd, eventfd, process groups.
        .target(name: "LinuxSys", dependencies: ["CLinuxSys", system]),
        // The Linux declarations Swift's Glibc module leaves out (ppoll, signalfd, eventfd, inotify).
        .systemLibrary(name: "CLinuxSys"),
        // What every input source is and shares, below them all: the source protocol (EdgeSource), a
        // wakeup's batch of edges, a line's errors and a chip's availability, a matrix's port, and a
        // composite of sources. Knows no input kind.
        .target(name: "LineInput", dependencies: ["DebounceCore", "LinuxSys", system]),
        // The one event loop: descriptors, the run's clock, deadlines; sources in, sinks out.
        .target(name: "EventLoop", dependencies: ["DebounceCore", "LineInput", "Pipeline", "LinuxSys", system]),
        // Matrix keypads as an edge source of their keys: the scan (DebounceCore's MatrixScanner) over a
        // port that drives the columns and reads the rows (MatrixPort: real pins or a simulated matrix).
        .target(name: "Keypads", dependencies: ["DebounceCore", "LineInput", "LinuxSys", system]),
        // Simulated bouncy lines as an edge source (virtual or real time), and a simulated keypad matrix.
        .target(name: "Simulation", dependencies: ["DebounceCore", "LineInput", "Pipeline", "EventLoop"]),
        // libgpiod 1.6 or 2.x through one small header-only shim.
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        // Real pins: chips, line lookup, line requests as an edge source.
        .target(name: "GPIODBackend", dependencies: ["CGPIOD", "DebounceCore", "LineInput", "LinuxSys", "Settings", system]),
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
        .target(name: "TraceInput", dependencies: ["DebounceCore", "LineInput", "TraceFormat"]),
        // Trace analysis: bursts, statistics, the smallest working windows, and SVG pictures.
        .target(name: "TraceAnalysis", dependencies: ["DebounceCore", "Pipeline"]),
        // What a run writes out as it goes: each event as text or JSON (EventPrinter: watch, run, demo,
        // replay), the raw edges as a trace (TraceRecorder: record), and a line's raw and debounced
        // signals side by side as a VCD (SignalComparisonSink: `replay --format vcd`).
        .target(name: "Recording", dependencies: ["DebounceCore", "Pipeline", "EventLoop", "EventOutput", "TraceFormat", "InputModel", system]),
        // Actions: the sink that runs their commands, each in a process group of its own, with their
        // policies and timeouts (ActionRunner), and the one that shows what they would run (ActionPreview).
        .target(name: "Actions", dependencies: ["DebounceCore", "Pipeline", "EventLoop", "LinuxSys", "EventOutput", "Settings", "InputModel", logging, system]),
        // The virtual keyboard: events to key reports (KeyMapping, pure), the sink that sends them to a
        // uinput device (KeyboardSink), and the one that shows them (KeyPreview).
        .target(name: "Keys", dependencies: ["DebounceCore", "Pipeline", "EventLoop", "LinuxSys", "EventOutput", "Settings", "InputModel", logging, system]),
        // The values inputs keep across runs (a meter's total, a restored encoder's position): the sink that
        // keeps them (StateStore), the one format of their state files (StateFileFormat: a pure parser and
        // formatter; each file, a StateFile, is described by the kind that keeps values in it) and their
        // directory (StateDirectory, SimulationStateDirectory). A library product only so that the Fuzz
        // package can reach the state files' parser, the one public part (StateFileFormat, StateFile,
        // StateFileEntry, KeptStateError); the rest of the module is `package`.
        .target(name: "KeptState", dependencies: ["DebounceCore", "Pipeline", "EventLoop", "LinuxSys", logging, system]),
        // libmosquitto's declarations (Debian's libmosquitto-dev), plus epoll; the library itself is
        // opened at run time (MQTT's MosquittoLibrary), only by a run that publishes.
        .systemLibrary(name: "CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // The MQTT sink: events, states, availability and Home Assistant discovery, on the event loop.
        .target(
            name: "MQTT",
            dependencies: ["CMosquitto", "DebounceCore", "Pipeline", "EventLoop", "LineInput", "LinuxSys", "EventOutput", "InputModel", "Settings", logging, system]),
        // The events socket: every program on the machine gets the inputs' states and events as JSON lines,
        // from their descriptions (InputPresenter), on the event loop (one epoll descriptor).
        .target(
            name: "EventSocket",
            dependencies: ["DebounceCore", "Pipeline", "EventLoop", "LineInput", "LinuxSys", "EventOutput", "InputModel", "Recording", "Settings", "YAMLDocument", logging, system]),
        // ESPHome's native API, the device's side, pure: its frames, plaintext and Noise (APIFrameReader,
        // APIFrameWriter), as ESPHome and aioesphomeapi write them; the messages a device sends and reads
        // (APIMessageType, APIClientMessage; the protocol buffers generated from
        // Messages/*.proto); a connection's bytes both ways, with Noise's handshake and
        // ciphers (APISession, Noise/); and what a device answers each message (APIConnection).
        .target(
            name: "ESPHomeAPI",
            dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf"), .product(name: "Crypto", package: "swift-crypto")],
            exclude: [
                "Messages/api_connection.proto", "Messages/api_device.proto", "Messages/api_entity_kinds.proto", "Messages/api_sensor_listing.proto",
                "Messages/api_event_listing.proto", "Messages/api_states.proto", "Messages/README.md",
            ]),
        // The device Home Assistant's ESPHome integration sees: ESPHome's native API as a sink of the loop
        // (ESPHomeAPISink: a TCP port, its clients), the inputs' entities made from their descriptions
        // (APIEntityTable).
        .target(
            name: "ESPHomeDevice",
            dependencies: ["DebounceCore", "ESPHomeAPI", "EventLoop", "InputModel", "LineInput", "LinuxSys", "Pipeline", "ServiceAdvertisement", logging, system]),
        // avahi's client library (dlopen'd: only its ABI's types, declared in the module) and the mDNS
        // advertisement made with it, on the event loop: a service announced through avahi-daemon's D-Bus API.
        .systemLibrary(name: "CAvahi"),
        .target(name: "ServiceAdvertisement", dependencies: ["CAvahi", "LinuxSys", logging, system]),
        // What an input shows outside the daemon, whatever its kind: its description (entities, channels,
        // health), the updates its outputs make, the fields `run` prints after its lines' events
        // (InputPresenter) and how its other outputs print (InputPrinter). The sinks that show inputs work from it.
        .target(name: "InputModel", dependencies: ["DebounceCore", "Pipeline", "EventOutput", system]),
        // The input kinds, a folder each (Button/, Encoder/, Sensor/, Counter/, Keypad/: its plan, presenter,
        // actions, check lines, simulation, and a keypad's source), their registry (InputKinds), and DaemonPlan.
        .target(
            name: "Inputs",
            dependencies: [
                "DebounceCore", "Pipeline", "EventOutput", "InputModel", "ConfigurationFile", "Settings", "YAMLDocument", "Simulation", "Assembly", "GPIODBackend",
                "Keypads", "KeptState", system,
            ]),
        // libyaml, the YAML 1.1 parser (Debian's libyaml-dev), plus its nesting check.
        // No pkgConfig: yaml-0.1.pc's -L names the system's library folder, which SwiftPM would put
        // ahead of libgpiod.pc's, so that a build against a libgpiod 2 of its own (scripts/test-libgpiod2)
        // would link the system's libgpiod 1.6. yaml.h is in /usr/include; the packages link libyaml.a
        // from a folder of its own (-L, packaging/build-stage).
        .systemLibrary(name: "CYAML", providers: [.apt(["libyaml-dev"])]),
        // YAML text to a tree of nodes with their positions, through libyaml's events. Standard library only.
        .target(name: "YAMLDocument", dependencies: ["CYAML"]),
        // The daemon's configuration: YAML loading and checking, its roster of inputs and lines, and the
        // plan it makes for the loop. Values only: it opens no chip, runs no sink (so that the
        // configuration's fuzzer links neither libgpiod nor the sinks).
        .target(
            name: "ConfigurationFile",
            dependencies: ["DebounceCore", "Pipeline", "Settings", "YAMLDocument", .product(name: "ExtrasBase64", package: "swift-extras-base64")]),
        // The one assembly of a run: an input (pins, simulated lines, a trace) with its clock, the
        // stages and the sinks, as one event loop. Every command and the library's Button use it.
        .target(name: "Assembly", dependencies: ["DebounceCore", "Pipeline", "EventLoop", "LineInput", "LinuxSys", "Simulation", "GPIODBackend", "Settings", "TraceInput"]),
        // The daemon of a configuration, assembled where it can be tested: the input (the configured pins or
        // a simulation of every input), the plan, the sinks (printer, actions or their preview, keys, the
        // state store, MQTT) and the loop; `check`'s report; and `MachineCheck`, what `run` and `check`
        // check on this machine (the configured lines on its chips, the MQTT password and CA files). A module
        // of its own above Assembly, so that the library's `Button` (GPIODebounce, through Assembly) links no
        // configuration, YAML or MQTT.
        .target(
            name: "Daemon",
            dependencies: [
                "DebounceCore", "Pipeline", "EventLoop", "LineInput", "Keypads", "LinuxSys", "Simulation", "GPIODBackend", "EventOutput", "Settings", "Recording", "Actions",
                "Keys", "KeptState", "MQTT", "EventSocket", "ESPHomeAPI", "ESPHomeDevice", "ServiceAdvertisement", "InputModel", "Inputs", "ConfigurationFile", "Assembly",
                logging, system,
            ]),
        // The library face: `Button(line: 17).events`, over real pins or the simulated button.
        .target(name: "GPIODebounce", dependencies: ["DebounceCore", "Pipeline", "EventLoop", "LineInput", "LinuxSys", "Simulation", "GPIODBackend", "Settings", "Assembly", "EventSocket", system]),
        .executableTarget(
            name: "gpio-debounce",
            dependencies: [
                "DebounceCore", "Pipeline", "EventLoop", "LineInput", "LinuxSys", "Simulation", "EventOutput", "TraceFormat", "TraceInput", "GPIODBackend", "TraceAnalysis",
                "Settings", "Recording", "Actions", "Keypads", "KeptState", "MQTT", "EventSocket", "ESPHomeDevice", "ConfigurationFile", "InputModel", "Inputs", "Assembly", "Daemon", logging,
                system,
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
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "EventLoop", "Pipeline", "LinuxSys", "LineInput", "DebounceCore"]),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop", "Pipeline", "Simulation", "LinuxSys", "LineInput", "DebounceCore"]),
        // A keypad's keys through the loop: a simulated matrix scanned by KeypadSource, its chip going away and back.
        .testTarget(name: "KeypadsTests", dependencies: ["Keypads", "EventLoop", "Pipeline", "Simulation", "LinuxSys", "LineInput", "DebounceCore", system]),
        // The system calls on this machine: processors, the virtual keyboard's errors.
        .testTarget(name: "LineInputTests", dependencies: ["LineInput", "LinuxSys", "DebounceCore", system]),
        .testTarget(name: "LinuxSysTests", dependencies: ["LinuxSys", system]),
        // The values the configuration hands down: the key names.
        .testTarget(name: "SettingsTests", dependencies: ["Settings"]),
        // The action runner on the event loop, with real child processes.
        .testTarget(
            name: "ActionsTests",
            dependencies: ["Actions", "Settings", "EventLoop", "Pipeline", "Simulation", "LinuxSys", "EventOutput", "DebounceCore", "InputModel", "Inputs", logging, system]),
        // The event printer: what it writes, and that its rehearsal writes nothing.
        .testTarget(name: "RecordingTests", dependencies: ["Recording", "EventLoop", "EventOutput", "Pipeline", "DebounceCore", "InputModel", "Inputs", system]),
        // The keys a preview shows.
        .testTarget(name: "KeysTests", dependencies: ["Keys", "Settings", "EventOutput", "Pipeline", "DebounceCore", "Inputs", system]),
        // The state store (the values inputs keep) and its files, on the event loop.
        .testTarget(name: "KeptStateTests", dependencies: ["KeptState", "Inputs", "ConfigurationFile", "EventLoop", "Pipeline", "Simulation", "DebounceCore", logging, system]),
        .testTarget(name: "GPIODBackendTests", dependencies: ["GPIODBackend"]),
        // The library face as a user's program sees it: `import GPIODebounce` alone.
        .testTarget(name: "GPIODebounceTests", dependencies: ["GPIODebounce"]),
        .testTarget(
            name: "ConfigurationFileTests",
            dependencies: [
                "ConfigurationFile", "Settings", "Actions", "Keys", "Pipeline", "EventLoop", "Simulation", "LinuxSys", "DebounceCore", "Inputs", logging, inMemoryLogging,
            ]),
        .testTarget(name: "YAMLDocumentTests", dependencies: ["YAMLDocument"]),
        // A run put together: RunAssembly's inputs (pins, simulated lines, a trace) and its loop.
        .testTarget(name: "AssemblyTests", dependencies: ["Assembly", "EventLoop", "Simulation", "Pipeline", "DebounceCore"]),
        // The daemon of a configuration simulated in virtual time: its assembly, reload, health, check and doctor reports.
        .testTarget(
            name: "DaemonTests",
            dependencies: [
                "Assembly", "Daemon", "ConfigurationFile", "Settings", "Recording", "Actions", "Keys", "KeptState", "MQTT", "Inputs", "GPIODBackend",
                "ServiceAdvertisement", "EventLoop", "EventOutput", "Pipeline", "LinuxSys", "DebounceCore", logging, inMemoryLogging, system,
            ]),
        .testTarget(name: "InputModelTests", dependencies: ["InputModel"]),
        // The events socket's protocol and its sink on the event loop, with real sockets.
        .testTarget(
            name: "EventSocketTests",
            dependencies: ["EventSocket", "InputModel", "Inputs", "EventLoop", "Pipeline", "LineInput", "LinuxSys", "DebounceCore", "EventOutput", "Simulation", logging, system]),
        .testTarget(
            name: "InputsTests", dependencies: ["Inputs", "InputModel", "ConfigurationFile", "Pipeline", "DebounceCore", "EventOutput", "KeptState", "GPIODBackend", "Simulation"]),
        .testTarget(name: "ESPHomeAPITests", dependencies: ["ESPHomeAPI", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "ESPHomeDeviceTests", dependencies: ["ESPHomeDevice", "ESPHomeAPI", "InputModel", "Inputs", "Pipeline", "DebounceCore", "EventLoop", "LinuxSys", inMemoryLogging, logging, system]),
        .testTarget(name: "ServiceAdvertisementTests", dependencies: ["ServiceAdvertisement", "CAvahi", logging, inMemoryLogging]),
        .testTarget(name: "TraceAnalysisTests", dependencies: ["TraceAnalysis", "TraceFormat", "DebounceCore", "Simulation"]),
        .testTarget(name: "TraceFormatTests", dependencies: ["TraceFormat", "EventOutput", "DebounceCore", "Simulation"]),
        // A trace as a run's input: its lines' initial levels, its edges through the loop, a bad line's end.
        .testTarget(name: "TraceInputTests", dependencies: ["TraceInput", "TraceFormat", "EventLoop", "Pipeline", "Simulation", "LineInput", "DebounceCore"]),
        .testTarget(name: "EventOutputTests", dependencies: ["EventOutput", "DebounceCore"]),
        .testTarget(name: "CLITests", dependencies: ["gpio-debounce", "EventSocket", "GPIODebounce", "Settings", "LinuxSys", "DebounceCore"]),
        .testTarget(
            name: "MQTTTests",
            dependencies: [
                "MQTT", "InputModel", "Inputs", "ConfigurationFile", "Settings", "YAMLDocument", "Simulation", "EventLoop", "LineInput", "Pipeline", "LinuxSys", "DebounceCore", "EventOutput", logging,
                inMemoryLogging, system,
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
