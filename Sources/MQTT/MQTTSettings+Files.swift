#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Settings

extension MQTTSettings {
    /// Reads what the settings name outside the configuration: the password (`PasswordSource.read()`;
    /// only with a `username`, as MQTT sends none without one) and, for `mqtts`, that the CA file can
    /// be opened. The client calls it before each new connection; `gpio-debounce check` calls it too,
    /// so that it refuses what a run would. Returns the password, or nil.
    package func readFiles() throws(MQTTError) -> String? {
        let password = username == nil ? nil : try password?.read()
        if transport == .mqtts, let caFile {
            let descriptor = open(caFile, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let code = errno
                throw MQTTError.caFile(path: caFile, reason: String(cString: strerror(code)), code: code)
            }
            close(descriptor)
        }
        return password
    }
}
