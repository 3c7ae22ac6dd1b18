#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The running kernel's release, as `uname -r` prints it (`uname(2)`'s `release`), e.g.
/// `6.6.51+rpt-rpi-v8`; nil if `uname` fails.
package func kernelRelease() -> String? {
    var names = utsname()
    guard uname(&names) == 0 else { return nil }
    return withUnsafeBytes(of: &names.release) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
}
