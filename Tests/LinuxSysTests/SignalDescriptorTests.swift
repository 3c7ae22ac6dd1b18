#if canImport(Glibc)
import Glibc
#endif
import LinuxSys
import Testing

/// The signals a run watches arrive as records on its descriptor, each as the request it stands for.
/// Serialized: the signal mask is the process's.
@Suite(.serialized) struct SignalDescriptorTests {
    @Test func aHangupIsAReloadAndAUserSignalAReportNotAStop() throws {
        let signals = try SignalDescriptor(requests: [.reload, .report])
        #expect(try signals.take() == SignalDescriptor.Received())
        pthread_kill(pthread_self(), SIGHUP)
        pthread_kill(pthread_self(), SIGUSR1)
        let received = try signals.take()
        #expect(received.reload)
        #expect(received.report)
        #expect(received.stopSignal == nil)
    }

    @Test func aTerminationIsAStop() throws {
        let signals = try SignalDescriptor(requests: [.reload])
        pthread_kill(pthread_self(), SIGTERM)
        let received = try signals.take()
        #expect(received.stopSignal == SIGTERM)
        #expect(!received.reload)
    }
}
