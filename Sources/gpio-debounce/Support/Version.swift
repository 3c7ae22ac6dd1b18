import GPIODBackend

/// gpio-debounce's version: the one place it is written. The Debian package takes its version from
/// debian/changelog, and `scripts/package` refuses to build when the two differ (bump both with
/// `dch -v NEW-1` and here).
enum Version {
    static let number = "0.4.1"

    /// What `gpio-debounce --version` prints: the version, then the libgpiod it was built with.
    static var text: String {
        "\(number)\nbuilt with \(LibgpiodVersion.description)"
    }
}
