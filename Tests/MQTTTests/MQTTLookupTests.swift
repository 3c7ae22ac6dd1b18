import DebounceCore
import EventLoop
import Foundation
import LinuxSys
import Logging
import InputModel
import Inputs
@testable import MQTT
import Pipeline
import Simulation
import Synchronization
import Testing

/// The broker's host name is looked up off the event loop: a resolver that takes seconds (DNS that
/// does not answer) holds no event back, and libmosquitto is handed the addresses it found.
/// (`scripts/test-mqtt-ha` does the same against a real resolver that never answers.)
@Suite(.serialized) struct MQTTLookupTests {
    typealias Base = MQTTSinkTests

    /// A resolver that answers `addresses` (or fails) after `delaySeconds`, counting its calls.
    final class SlowResolver: Sendable {
        let delaySeconds: Double
        let answer: Result<[String], HostLookup.LookupFailure>
        let calls = Mutex<[String]>([])
        init(delaySeconds: Double, answer: Result<[String], HostLookup.LookupFailure>) {
            self.delaySeconds = delaySeconds
            self.answer = answer
        }
        var resolve: HostLookup.Resolve {
            { host, _ in
                self.calls.withLock { $0.append(host) }
                Thread.sleep(forTimeInterval: self.delaySeconds)
                return self.answer
            }
        }
    }

    /// Runs the two simulated buttons through the loop with `sink`, in real time; returns each
    /// event's lateness (when the collector got it, less its own time) spread: largest minus smallest.
    static func runMeasuringLateness(_ sink: MQTTSink, cycles: Int, graceSeconds: Int64 = 10) throws -> (events: Int, spreadMs: Double) {
        var lateness: [Int64] = []
        let clock = LoopClock.realTime()
        let collector = CallbackSink { output in
            if case .event(_, let event) = output { lateness.append(clock.nowNs - event.timeNs) }
        }
        let loop = try EventLoop(
            clock: clock, source: Base.lines(cycles: cycles), plan: PipelinePlan(lines: Base.plans), sinks: [collector, sink],
            limits: LoopLimits(shutdownGraceNs: graceSeconds * 1_000_000_000))
        _ = try loop.run()
        guard let low = lateness.min(), let high = lateness.max() else { return (0, 0) }
        return (lateness.count, Double(high - low) / 1e6)
    }

    /// The name takes 3 s to resolve: the events meanwhile come out on time (the lookup does not
    /// block the loop: a blocking one would make them up to 3 s late; 1 s of slack is for a busy CI
    /// machine), and once it answers, every event reaches the broker at the address found.
    @Test func aSlowLookupHoldsNoEventBack() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/+/event"])
        let resolver = SlowResolver(delaySeconds: 3, answer: .success(["127.0.0.1"]))
        let sink = try MQTTSink(
            settings: Base.settings(broker, host: "broker.lookup.test"), inputs: Base.buttons, softwareVersion: "t",
            logger: Base.logger, resolve: resolver.resolve)
        let (count, spreadMs) = try Self.runMeasuringLateness(sink, cycles: 20)
        #expect(count >= 40)
        #expect(spreadMs < 1000, "events came out up to \(spreadMs) ms late while the name was being looked up")
        #expect(resolver.calls.withLock { $0 } == ["broker.lookup.test"])
        subscriber.wait { $0.count >= count }
        #expect(subscriber.messages.count == count)
        #expect(sink.statistics.connects == 1)
        #expect(sink.statistics.dropped == 0)
    }

    /// The name's first address refuses the connection (nothing listens on 127.0.0.2 at the broker's
    /// port): the next attempt takes the next address, and nothing is lost.
    @Test func addressesTakeTurnsAfterAFailedAttempt() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/+/event"])
        let resolver = SlowResolver(delaySeconds: 0, answer: .success(["127.0.0.2", "127.0.0.1"]))
        let sink = try MQTTSink(
            settings: Base.settings(broker, host: "two.lookup.test"), inputs: Base.buttons, softwareVersion: "t",
            logger: Base.logger, resolve: resolver.resolve)
        let events = try Base.run(Base.lines(cycles: 20), sink: sink)
        subscriber.wait { $0.count >= events.count }
        #expect(subscriber.messages.map(\.payload) == Base.expectedPayloads(events).map(\.payload))
        #expect(resolver.calls.withLock { $0.count } >= 2)  // looked up again before the second attempt
        #expect(sink.statistics.connects == 1)
    }

    /// A name that does not resolve: the sink says so with the resolver's reason, keeps trying, and
    /// the run still ends on time (the grace period) with its events counted as undelivered.
    @Test func aNameThatDoesNotResolveSaysWhy() throws {
        let resolver = SlowResolver(delaySeconds: 0.2, answer: .failure(HostLookup.LookupFailure(reason: "Name or service not known")))
        var settings = Base.settings(try Broker(), host: "nowhere.lookup.test")
        settings.queueLimit = 1000
        let sink = try MQTTSink(settings: settings, inputs: Base.buttons, softwareVersion: "t", logger: Base.logger, resolve: resolver.resolve)
        let started = MonotonicClock.nowNs
        let (count, spreadMs) = try Self.runMeasuringLateness(sink, cycles: 5, graceSeconds: 1)
        #expect(count > 0)
        #expect(spreadMs < 1000)
        #expect(sink.lastError == .lookup(host: "nowhere.lookup.test", reason: "Name or service not known"))
        #expect(sink.lastError?.description.contains("cannot resolve the broker's host name nowhere.lookup.test: Name or service not known") == true)
        #expect(sink.statistics.delivered == 0)
        #expect(MonotonicClock.nowNs - started < 10_000_000_000)
    }

    /// Numeric addresses are used as they are; names are not.
    @Test func numericAddressesNeedNoLookup() {
        #expect(HostLookup.isNumeric("127.0.0.1"))
        #expect(HostLookup.isNumeric("::1"))
        #expect(HostLookup.isNumeric("2001:db8::7"))
        #expect(!HostLookup.isNumeric("localhost"))
        #expect(!HostLookup.isNumeric("broker.local"))
        #expect(!HostLookup.isNumeric("127.0.0"))
    }

    /// The system's resolver, on names that need no DNS: /etc/hosts' localhost, and a numeric one.
    @Test func theSystemResolverAnswersLocalNames() throws {
        let local = try HostLookup.systemResolve("localhost", 1883).get()
        #expect(local.contains("127.0.0.1") || local.contains("::1"))
        #expect(try HostLookup.systemResolve("192.0.2.7", 1883).get() == ["192.0.2.7"])
    }
}
