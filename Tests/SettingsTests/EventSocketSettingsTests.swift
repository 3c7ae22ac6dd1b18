import Settings
import Testing

/// Where the control socket goes beside an events socket.
@Suite struct EventSocketSettingsTests {
    @Test(arguments: [
        ("/run/gpio-debounce/events.sock", "/run/gpio-debounce/control.sock"),
        ("/tmp/panel.sock", "/tmp/panel-control.sock"),
        ("/tmp/panel", "/tmp/panel-control.sock"),
        ("events.sock", "control.sock"),
        ("/srv/a.sock.d/events", "/srv/a.sock.d/events-control.sock"),
    ])
    func theControlSocketIsBesideTheEventsSocket(events: String, control: String) {
        #expect(EventSocketSettings.controlPath(beside: events) == control)
    }
}
