import Glibc
import SystemSupport
import Testing

/// The one lock and condition of the programs: a wait ends at its deadline or when signalled,
/// and the value is reached only under the lock.
@Suite struct ConditionLockTests {
    @Test func aWaitNobodySignalsEndsAtItsDeadlineNotBefore() {
        let lock = ConditionLock(false)
        let clock = ContinuousClock()
        let start = clock.now
        let met = lock.wait(until: { $0 }, timeout: .milliseconds(200))
        let waited = clock.now - start
        #expect(!met)
        #expect(waited >= .milliseconds(200))
        #expect(waited < .seconds(30))
    }

    @Test func aWaitAlreadyMetDoesNotWaitAndANegativeTimeoutReturnsAtOnce() {
        let lock = ConditionLock(1)
        #expect(lock.wait(until: { $0 == 1 }, timeout: .seconds(60)))
        #expect(!lock.wait(until: { $0 == 2 }, timeout: .seconds(-1)))
    }

    @Test func aSignalledWaitReturnsWithTheValueTheSignallerSet() {
        let lock = ConditionLock(0)
        #expect(
            SystemThread.start(name: "signaller") {
                usleep(20_000)
                lock.withLock { $0 = 7 }
                lock.signal()
            })
        #expect(lock.wait(until: { $0 != 0 }, timeout: .seconds(60)))
        #expect(lock.withLock { $0 } == 7)
    }

    @Test func aBroadcastWakesEveryWaiter() {
        let lock = ConditionLock((released: false, waiting: 0, woken: 0))
        for index in 0..<3 {
            #expect(
                SystemThread.start(name: "waiter-\(index)") {
                    lock.withLock { $0.waiting += 1 }
                    lock.broadcast()
                    lock.withLock(when: { $0.released }, do: { $0.woken += 1 })
                    lock.broadcast()
                })
        }
        #expect(lock.wait(until: { $0.waiting == 3 }, timeout: .seconds(60)))
        lock.withLock { $0.released = true }
        lock.broadcast()
        #expect(lock.wait(until: { $0.woken == 3 }, timeout: .seconds(60)))
    }

    @Test func aLockedValueIsChangedByOneThreadAtATime() {
        let counter = LockedValue(0)
        let done = ConditionLock(0)
        let threads = 4
        let increments = 10_000
        for index in 0..<threads {
            #expect(
                SystemThread.start(name: "adder-\(index)") {
                    // A read and a write apart would lose increments; under the lock none is lost.
                    for _ in 0..<increments { counter.withLock { $0 += 1 } }
                    done.withLock { $0 += 1 }
                    done.broadcast()
                })
        }
        #expect(done.wait(until: { $0 == threads }, timeout: .seconds(60)))
        #expect(counter.withLock { $0 } == threads * increments)
    }
}
