#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxSys
import SystemPackage

/// Why a virtual keyboard could not be made or written to, with what to do about it.
package enum UInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `/dev/uinput` does not exist: the uinput module is not loaded.
    case missing(path: String)
    /// `/dev/uinput` is not writable by this user.
    case permissionDenied(path: String)
    /// Another system call failed (the kernel refused the setup, a write failed).
    case system(SystemError)

    package var description: String {
        switch self {
        case .missing(let path):
            "no \(path): load the uinput module (`sudo modprobe uinput`; to load it at every boot, `echo uinput | sudo tee /etc/modules-load.d/uinput.conf`)"
        case .permissionDenied(let path):
            "permission denied on \(path): install udev/60-gpio-debounce.rules (it gives group input write access) and add yourself to group input (`sudo usermod -aG input $USER`, then log in again)"
        case .system(let error):
            "the virtual keyboard: \(error.description)"
        }
    }
}

/// One key going down or up, or a step on a relative axis (a wheel).
package struct KeyChange: Sendable, Hashable {
    /// The key's code, as in `linux/input-event-codes.h` (`KEY_ENTER` is 28), or the axis's (`REL_WHEEL` is 8).
    package var code: UInt16
    /// `true`: the key goes down; `false`: it comes up. For an axis: whether `relativeValue` is positive.
    package var down: Bool
    /// For a relative axis (`EV_REL`): how far it moved, e.g. +1 or -1 for a wheel's notch; `nil` for a key.
    package var relativeValue: Int32?

    package init(code: UInt16, down: Bool) {
        self.code = code
        self.down = down
    }

    /// A move of relative axis `code` by `value`.
    package init(axis code: UInt16, value: Int32) {
        self.code = code
        self.down = value > 0
        self.relativeValue = value
    }
}

/// A virtual keyboard made through `/dev/uinput`: it exists from `init` until `destroy()` (or the
/// descriptor's close), and has only the keys it was made with. Owns its descriptor.
package final class UInputDevice {
    /// The uinput control device.
    package static let defaultPath = "/dev/uinput"
    /// The longest device name the kernel keeps, in bytes (`UINPUT_MAX_NAME_SIZE` - 1).
    package static let maximumNameBytes = Int(clinuxsys_uinput_max_name_size) - 1

    private let handle: OwnedDescriptor
    private var isDestroyed = false
    /// The device's name under /sys/class/input, e.g. "input7" (`UI_GET_SYSNAME`); nil if the kernel
    /// cannot say.
    package let systemName: String?

    /// Makes the device: opens `path` (`open(2)`), declares `EV_KEY` and each of `keys`
    /// (`UI_SET_EVBIT`, `UI_SET_KEYBIT`), `EV_REP` only with `autorepeat` (then the kernel repeats a held
    /// key by itself), names it (`UI_DEV_SETUP`, cut to `maximumNameBytes`) and creates it
    /// (`UI_DEV_CREATE`).
    package init(
        name: String, keys: [UInt16], relativeAxes: [UInt16] = [], autorepeat: Bool, path: String = UInputDevice.defaultPath
    ) throws(UInputError) {
        do {
            handle = try OwnedDescriptor(operation: "open \(path)") { open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC) }
        } catch {
            switch error.errno.rawValue {
            case ENOENT, ENODEV, ENXIO: throw .missing(path: path)
            case EACCES, EPERM: throw .permissionDenied(path: path)
            default: throw .system(error)
            }
        }
        let raw = handle.descriptor.rawValue
        func check(_ operation: String, _ call: () -> Int32) throws(UInputError) {
            do {
                _ = try retryingInterrupts(call)
            } catch {
                throw .system(SystemError(operation, error))
            }
        }
        try check("UI_SET_EVBIT EV_KEY") { clinuxsys_uinput_set_evbit(raw, EV_KEY) }
        if autorepeat {
            try check("UI_SET_EVBIT EV_REP") { clinuxsys_uinput_set_evbit(raw, EV_REP) }
        }
        for key in Set(keys).sorted() {
            try check("UI_SET_KEYBIT \(key)") { clinuxsys_uinput_set_keybit(raw, Int32(key)) }
        }
        if !relativeAxes.isEmpty {
            try check("UI_SET_EVBIT EV_REL") { clinuxsys_uinput_set_evbit(raw, EV_REL) }
            for axis in Set(relativeAxes).sorted() {
                try check("UI_SET_RELBIT \(axis)") { clinuxsys_uinput_set_relbit(raw, Int32(axis)) }
            }
        }
        try check("UI_DEV_SETUP") { clinuxsys_uinput_setup(raw, name, 0, 0) }
        try check("UI_DEV_CREATE") { clinuxsys_uinput_create(raw) }
        var buffer = [CChar](repeating: 0, count: 64)
        let named = buffer.withUnsafeMutableBufferPointer { clinuxsys_uinput_sysname(raw, $0.baseAddress, UInt32($0.count)) }
        systemName = named >= 0 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    /// The device's event node, e.g. "/dev/input/event3" (the `eventN` entry of its directory in
    /// /sys/class/input); nil if it cannot be found. udev may still be setting its permissions.
    package var eventNode: String? {
        guard let systemName, let directory = opendir("/sys/class/input/\(systemName)") else { return nil }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("event") { return "/dev/input/\(name)" }
        }
        return nil
    }

    /// Reports `changes` and then one `SYN_REPORT`, in one `write(2)`: readers see them as one report.
    /// Does nothing for no changes.
    package func report(_ changes: [KeyChange]) throws(UInputError) {
        guard !changes.isEmpty, !isDestroyed else { return }
        var events = changes.map { change in
            var event = input_event()
            event.type = UInt16(change.relativeValue == nil ? EV_KEY : EV_REL)
            event.code = change.code
            event.value = change.relativeValue ?? (change.down ? 1 : 0)
            return event
        }
        var sync = input_event()
        sync.type = UInt16(EV_SYN)
        sync.code = UInt16(SYN_REPORT)
        events.append(sync)
        let size = MemoryLayout<input_event>.stride * events.count
        let written: Int
        do {
            written = try retryingInterrupts { events.withUnsafeBytes { write(handle.descriptor.rawValue, $0.baseAddress, size) } }
        } catch {
            throw .system(SystemError("write to the virtual keyboard", error))
        }
        guard written == size else { throw .system(SystemError("write to the virtual keyboard (short)", .ioError)) }
    }

    /// Removes the device (`UI_DEV_DESTROY`) and closes the descriptor; later calls do nothing.
    package func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        _ = clinuxsys_uinput_destroy(handle.descriptor.rawValue)
        handle.close()
    }
}
