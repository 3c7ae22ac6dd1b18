import Testing

@testable import ESPHomeAPI

/// A client's conversation with the device, message by message, in Home Assistant's order and in others.
@Suite struct APIConnectionTests {
    static let second: Int64 = 1_000_000_000
    static let porch = APIMessageTests.porch
    static let hello = APIClientMessage.hello(clientInfo: "Home Assistant 2024.3.3", major: 1, minor: 9)

    @Test func homeAssistantsOrderIsAnsweredStepByStep() {
        var connection = APIConnection(identity: Self.porch, openedAtNs: 0)
        #expect(connection.receive(Self.hello, atNs: 1) == [.send(APIMessage(Self.porch.helloResponse))])
        #expect(connection.clientInfo == "Home Assistant 2024.3.3")
        // aioesphomeapi before 37.1 sends its empty password and waits for the answer.
        #expect(connection.receive(.authentication, atNs: 2) == [.send(APIMessage(type: 4, payload: []))])
        #expect(connection.receive(.deviceInfo, atNs: 3) == [.send(APIMessage(Self.porch.deviceInfo))])
        #expect(connection.receive(.listEntities, atNs: 4) == [.listEntities])
        #expect(!connection.subscribesStates)
        #expect(connection.receive(.subscribeStates, atNs: 5) == [.sendStates])
        #expect(connection.subscribesStates)
        #expect(connection.receive(.subscribeHomeAssistant, atNs: 6) == [])
        #expect(connection.receive(.subscribeHomeAssistant, atNs: 7) == [])
        #expect(connection.receive(.ping, atNs: 20 * Self.second) == [.send(APIMessage(type: 8, payload: []))])
        #expect(connection.receive(.disconnect, atNs: 21 * Self.second) == [.send(APIMessage(type: 6, payload: [])), .close(.clientDisconnected)])
        #expect(connection.phase == .closed)
        #expect(connection.deadlineNs == nil)
        #expect(connection.receive(.ping, atNs: 22 * Self.second) == [])
    }

    @Test func deviceInfoIsAnsweredWithoutAPassword() {
        // Home Assistant's configuration flow: hello, device info, disconnect.
        var connection = APIConnection(identity: Self.porch, openedAtNs: 0)
        _ = connection.receive(Self.hello, atNs: 1)
        #expect(connection.receive(.deviceInfo, atNs: 2) == [.send(APIMessage(Self.porch.deviceInfo))])
    }

    @Test func aFirstMessageThatIsNotAHelloClosesTheConnection() {
        var connection = APIConnection(identity: Self.porch, openedAtNs: 0)
        #expect(connection.receive(.deviceInfo, atNs: 1) == [.close(.noHello)])
        #expect(connection.phase == .closed)
    }

    @Test func aClientOfAnotherMajorVersionIsClosed() {
        var connection = APIConnection(identity: Self.porch, openedAtNs: 0)
        #expect(connection.receive(.hello(clientInfo: "future", major: 2, minor: 0), atNs: 1) == [.close(.unsupportedVersion(major: 2))])
    }

    @Test func aClientThatSaysNoHelloIn60sIsClosed() {
        var connection = APIConnection(identity: Self.porch, openedAtNs: 5 * Self.second)
        #expect(connection.deadlineNs == 65 * Self.second)
        #expect(connection.deadlinePassed(atNs: 65 * Self.second - 1) == [])
        #expect(connection.deadlinePassed(atNs: 65 * Self.second) == [.close(.noHello)])
    }

    /// A client pings every 20 s of silence, so each ping moves the deadline on: the device never wakes
    /// for a client that is there, and gives up on one silent for 150 s.
    @Test func everyMessageMovesTheSilenceDeadlineOn() {
        var connection = APIConnection(identity: Self.porch, openedAtNs: 0)
        _ = connection.receive(Self.hello, atNs: Self.second)
        #expect(connection.deadlineNs == 151 * Self.second)
        for ping in stride(from: 21, through: 401, by: 20) {
            _ = connection.receive(.ping, atNs: Int64(ping) * Self.second)
            #expect(connection.deadlineNs == Int64(ping + 150) * Self.second)
        }
        #expect(connection.deadlinePassed(atNs: 550 * Self.second) == [])
        #expect(connection.deadlinePassed(atNs: 551 * Self.second) == [.close(.silent)])
    }

    @Test func theDeviceDisconnectsAndTheClientsAnswerCloses() {
        var connection = APIConnection(identity: Self.porch, openedAtNs: 0)
        _ = connection.receive(Self.hello, atNs: 1)
        #expect(connection.disconnect() == [.send(APIMessage(type: 5, payload: []))])
        #expect(connection.receive(.disconnectAnswered, atNs: 2) == [.close(.deviceDisconnected)])
        var unopened = APIConnection(identity: Self.porch, openedAtNs: 0)
        #expect(unopened.disconnect() == [.close(.deviceDisconnected)])
    }
}
