#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// Makes a failed write to standard output an error: at exit, stdio's buffers (standard output, as
/// `print` and the argument parser's help use it) are flushed (`fflush(NULL)`), and if that fails
/// (`gpio-debounce list > /dev/full`), the command says so and exits 74 instead of 0.
func reportStandardOutputErrorsAtExit() {
    atexit {
        if fflush(nil) != 0 {
            let message = "gpio-debounce: error: cannot write to standard output: \(String(cString: strerror(errno)))\n"
            _ = try? FileDescriptor.standardError.writeAll(message.utf8)
            _exit(74)
        }
    }
}
