#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CAvahi

/// The libavahi-client functions the advertisement calls, found at run time: `dlopen("libavahi-client.so.3")`
/// the first time a device is advertised, then `dlsym` for each (libavahi-common's, which the client
/// library links, through the same handle). A run without an `api:` section never opens it; a machine
/// without the library runs its device unadvertised (the log and `doctor` say how to add it by hand).
/// The library stays open for the rest of the process (never `dlclose`d).
///
/// The function types are those of avahi 0.6 to 0.8's headers (their ABI has not changed since 0.6);
/// `AvahiClient *`, `AvahiEntryGroup *`, `AvahiServiceBrowser *` and `AvahiStringList *` are `OpaquePointer`s.
struct AvahiLibrary: @unchecked Sendable {
    typealias ClientCallback = @convention(c) (OpaquePointer?, AvahiClientState, UnsafeMutableRawPointer?) -> Void
    typealias GroupCallback = @convention(c) (OpaquePointer?, AvahiEntryGroupState, UnsafeMutableRawPointer?) -> Void
    typealias BrowserCallback = @convention(c) (
        OpaquePointer?, AvahiIfIndex, AvahiProtocol, AvahiBrowserEvent, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
        AvahiLookupResultFlags, UnsafeMutableRawPointer?
    ) -> Void

    /// `avahi_client_new(poll, flags, callback, userdata, &error)`.
    let clientNew: @convention(c) (UnsafePointer<AvahiPoll>?, AvahiClientFlags, ClientCallback?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int32>?) -> OpaquePointer?
    let clientFree: @convention(c) (OpaquePointer?) -> Void
    let clientErrno: @convention(c) (OpaquePointer?) -> Int32
    let clientVersion: @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    let clientHostNameFQDN: @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    let groupNew: @convention(c) (OpaquePointer?, GroupCallback?, UnsafeMutableRawPointer?) -> OpaquePointer?
    /// `avahi_entry_group_add_service_strlst(group, interface, protocol, flags, name, type, domain, host, port, txt)`.
    let groupAddService: @convention(c) (
        OpaquePointer?, AvahiIfIndex, AvahiProtocol, AvahiPublishFlags, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
        UnsafePointer<CChar>?, UInt16, OpaquePointer?
    ) -> Int32
    let groupCommit: @convention(c) (OpaquePointer?) -> Int32
    let groupReset: @convention(c) (OpaquePointer?) -> Int32
    /// `avahi_service_browser_new(client, interface, protocol, type, domain, flags, callback, userdata)`.
    let browserNew: @convention(c) (
        OpaquePointer?, AvahiIfIndex, AvahiProtocol, UnsafePointer<CChar>?, UnsafePointer<CChar>?, AvahiLookupFlags, BrowserCallback?, UnsafeMutableRawPointer?
    ) -> OpaquePointer?
    let browserFree: @convention(c) (OpaquePointer?) -> Int32
    /// `avahi_string_list_new_from_array(strings, count)`: a TXT record's strings, freed by `stringListFree`.
    let stringListNew: @convention(c) (UnsafeMutablePointer<UnsafePointer<CChar>?>?, Int32) -> OpaquePointer?
    let stringListFree: @convention(c) (OpaquePointer?) -> Void
    let strerror: @convention(c) (Int32) -> UnsafePointer<CChar>?

    /// The library's file name: its soname, which Debian's `libavahi-client3` package installs.
    static let fileName = "libavahi-client.so.3"

    /// The library, opened once, on first use.
    static let shared: Result<AvahiLibrary, AdvertisementError> = {
        do throws(AdvertisementError) { return .success(try AvahiLibrary(opening: fileName)) } catch { return .failure(error) }
    }()

    /// The library if it could be opened, else the error that says how to install it.
    static func loaded() throws(AdvertisementError) -> AvahiLibrary { try shared.get() }

    /// avahi's words for error `code` (`avahi_strerror`).
    func message(_ code: Int32) -> String { strerror(code).map { String(cString: $0) } ?? "error \(code)" }

    /// Opens `file` (`dlopen`, `RTLD_NOW`: every symbol bound now) and finds each function (`dlsym`).
    private init(opening file: String) throws(AdvertisementError) {
        guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            throw .noLibrary(reason: dlerror().map { String(cString: $0) } ?? "not found")
        }
        func symbol<Function>(_ name: String, _: Function.Type = Function.self) throws(AdvertisementError) -> Function {
            guard let address = dlsym(handle, name) else { throw .noLibrary(reason: "\(file) has no \(name): it is not avahi's client library 0.6 or later") }
            return unsafeBitCast(address, to: Function.self)
        }
        clientNew = try symbol("avahi_client_new")
        clientFree = try symbol("avahi_client_free")
        clientErrno = try symbol("avahi_client_errno")
        clientVersion = try symbol("avahi_client_get_version_string")
        clientHostNameFQDN = try symbol("avahi_client_get_host_name_fqdn")
        groupNew = try symbol("avahi_entry_group_new")
        groupAddService = try symbol("avahi_entry_group_add_service_strlst")
        groupCommit = try symbol("avahi_entry_group_commit")
        groupReset = try symbol("avahi_entry_group_reset")
        browserNew = try symbol("avahi_service_browser_new")
        browserFree = try symbol("avahi_service_browser_free")
        stringListNew = try symbol("avahi_string_list_new_from_array")
        stringListFree = try symbol("avahi_string_list_free")
        strerror = try symbol("avahi_strerror")
    }
}
