import LinuxSys
import Testing

/// The virtual keyboard's device (`/dev/uinput`): what its errors tell the user to do.
@Suite struct UInputDeviceTests {
    @Test func aMissingUinputSaysToLoadTheModuleAndAFileThatIsNotUinputIsASystemError() throws {
        #expect(throws: UInputError.missing(path: "/nonexistent/uinput")) {
            try UInputDevice(name: "test", keys: [30], autorepeat: false, path: "/nonexistent/uinput")
        }
        #expect(UInputError.missing(path: "/dev/uinput").description.contains("sudo modprobe uinput"))
        #expect(UInputError.permissionDenied(path: "/dev/uinput").description.contains("group input"))
        do {
            _ = try UInputDevice(name: "test", keys: [30], autorepeat: false, path: "/dev/null")
            Issue.record("/dev/null made a keyboard")
        } catch {
            guard case .system(let failure) = error else { Issue.record("\(error)"); return }
            #expect(failure.operation == "UI_SET_EVBIT EV_KEY")
        }
    }
}
