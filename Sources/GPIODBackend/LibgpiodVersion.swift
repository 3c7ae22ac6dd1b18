import CGPIOD

/// The libgpiod this binary uses: the version string the library itself reports
/// (`gpiod_version_string()` in 1.6, `gpiod_api_version()` in 2.x, through the shim) and the C API
/// generation the shim was compiled against. When libgpiod is linked statically (the Debian
/// packages), that is exactly the libgpiod it was built against.
package enum LibgpiodVersion {
    /// The library's version, e.g. "1.6.3" or "2.2.1".
    package static var string: String { String(cString: gdb_libgpiod_version()) }
    /// 1 or 2: the C API generation this binary was compiled against.
    package static var apiMajor: Int { Int(gdb_libgpiod_major()) }
    /// "libgpiod 1.6.3 (C API v1)".
    package static var description: String { "libgpiod \(string) (C API v\(apiMajor))" }
}
