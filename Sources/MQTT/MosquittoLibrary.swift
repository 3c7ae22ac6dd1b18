#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CMosquitto

/// The libmosquitto functions the MQTT client calls, found at run time: `dlopen("libmosquitto.so.1")`
/// the first time a client is made, then `dlsym` for each. A run without an `mqtt:` section never
/// opens it, so it never maps libmosquitto and the OpenSSL it links (about 1.8 MiB resident for every
/// daemon otherwise). The library stays open for the rest of the process (never `dlclose`d).
///
/// The function types are those of `mosquitto.h` (libmosquitto 1.6 and 2.0 have the same ABI for
/// these); `struct mosquitto *` is an `OpaquePointer`.
struct MosquittoLibrary: @unchecked Sendable {
    typealias ConnectCallback = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Void
    typealias MessageCallback = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafePointer<mosquitto_message>?) -> Void
    /// `on_subscribe(mosq, userdata, mid, qos_count, granted_qos)`: the broker's SUBACK.
    typealias SubscribeCallback = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32, Int32, UnsafePointer<Int32>?) -> Void

    let libInit: @convention(c) () -> Int32
    let libVersion: @convention(c) (UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Int32
    let strerror: @convention(c) (Int32) -> UnsafePointer<CChar>?
    let new: @convention(c) (UnsafePointer<CChar>?, Bool, UnsafeMutableRawPointer?) -> OpaquePointer?
    let destroy: @convention(c) (OpaquePointer?) -> Void
    let userDataSet: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void
    let connectCallbackSet: @convention(c) (OpaquePointer?, ConnectCallback?) -> Void
    let disconnectCallbackSet: @convention(c) (OpaquePointer?, ConnectCallback?) -> Void
    let publishCallbackSet: @convention(c) (OpaquePointer?, ConnectCallback?) -> Void
    let messageCallbackSet: @convention(c) (OpaquePointer?, MessageCallback?) -> Void
    let subscribeCallbackSet: @convention(c) (OpaquePointer?, SubscribeCallback?) -> Void
    let usernamePasswordSet: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    let willSet: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32, Bool) -> Int32
    typealias PasswordCallback = @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    let tlsSet: @convention(c) (
        OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, PasswordCallback?
    ) -> Int32
    let tlsInsecureSet: @convention(c) (OpaquePointer?, Bool) -> Int32
    let connectAsync: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, Int32) -> Int32
    let reconnectAsync: @convention(c) (OpaquePointer?) -> Int32
    let disconnect: @convention(c) (OpaquePointer?) -> Int32
    let socket: @convention(c) (OpaquePointer?) -> Int32
    let wantWrite: @convention(c) (OpaquePointer?) -> Bool
    let loopRead: @convention(c) (OpaquePointer?, Int32) -> Int32
    let loopWrite: @convention(c) (OpaquePointer?, Int32) -> Int32
    let loopMisc: @convention(c) (OpaquePointer?) -> Int32
    let publish: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32, Bool) -> Int32
    let subscribe: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?, Int32) -> Int32
    let unsubscribe: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?) -> Int32

    /// The library's file name: its soname, which Debian's `libmosquitto1` package installs.
    static let fileName = "libmosquitto.so.1"

    /// The library, opened and initialized (`mosquitto_lib_init`) once, on first use.
    static let shared: Result<MosquittoLibrary, MQTTError> = {
        do throws(MQTTError) {
            let library = try MosquittoLibrary(opening: fileName)
            guard library.libInit() == Int32(MOSQ_ERR_SUCCESS.rawValue) else {
                return .failure(.library(call: "mosquitto_lib_init", reason: "failed"))
            }
            return .success(library)
        } catch {
            return .failure(error)
        }
    }()

    /// The library if it could be opened, else the error that says how to install it.
    static func loaded() throws(MQTTError) -> MosquittoLibrary { try shared.get() }

    /// Opens `file` (`dlopen`, `RTLD_NOW`: every symbol bound now) and finds each function (`dlsym`).
    private init(opening file: String) throws(MQTTError) {
        guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw .library(
                call: "opening \(file)",
                reason: "\(reason) (MQTT needs the libmosquitto client library: sudo apt install libmosquitto1)")
        }
        func symbol<Function>(_ name: String, _: Function.Type = Function.self) throws(MQTTError) -> Function {
            guard let address = dlsym(handle, name) else {
                throw .library(call: "finding \(name) in \(file)", reason: "the library is too old or not libmosquitto (install libmosquitto1 1.6 or later)")
            }
            return unsafeBitCast(address, to: Function.self)
        }
        libInit = try symbol("mosquitto_lib_init")
        libVersion = try symbol("mosquitto_lib_version")
        strerror = try symbol("mosquitto_strerror")
        new = try symbol("mosquitto_new")
        destroy = try symbol("mosquitto_destroy")
        userDataSet = try symbol("mosquitto_user_data_set")
        connectCallbackSet = try symbol("mosquitto_connect_callback_set")
        disconnectCallbackSet = try symbol("mosquitto_disconnect_callback_set")
        publishCallbackSet = try symbol("mosquitto_publish_callback_set")
        messageCallbackSet = try symbol("mosquitto_message_callback_set")
        subscribeCallbackSet = try symbol("mosquitto_subscribe_callback_set")
        usernamePasswordSet = try symbol("mosquitto_username_pw_set")
        willSet = try symbol("mosquitto_will_set")
        tlsSet = try symbol("mosquitto_tls_set")
        tlsInsecureSet = try symbol("mosquitto_tls_insecure_set")
        connectAsync = try symbol("mosquitto_connect_async")
        reconnectAsync = try symbol("mosquitto_reconnect_async")
        disconnect = try symbol("mosquitto_disconnect")
        socket = try symbol("mosquitto_socket")
        wantWrite = try symbol("mosquitto_want_write")
        loopRead = try symbol("mosquitto_loop_read")
        loopWrite = try symbol("mosquitto_loop_write")
        loopMisc = try symbol("mosquitto_loop_misc")
        publish = try symbol("mosquitto_publish")
        subscribe = try symbol("mosquitto_subscribe")
        unsubscribe = try symbol("mosquitto_unsubscribe")
    }
}
