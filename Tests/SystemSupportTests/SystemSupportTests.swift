import Foundation
import Synchronization
import SystemSupport
import Testing

/// What the programs now take from the system instead of Foundation, checked against what
/// Foundation (which the tests still use) says of the same process.
@Suite struct SystemSupportTests {
    @Test func theEnvironmentIsTheOneFoundationSees() {
        setenv("SYSTEM_SUPPORT_TEST", "a=b c", 1)
        defer { unsetenv("SYSTEM_SUPPORT_TEST") }
        let read = ProcessEnvironment.variables()
        #expect(read["SYSTEM_SUPPORT_TEST"] == "a=b c")
        #expect(read == ProcessInfo.processInfo.environment)
    }

    @Test func theHostNameAndTheProgramAreTheSystemsOwn() throws {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, 255)
        #expect(
            ProcessEnvironment.hostName()
                == String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        #expect(!ProcessEnvironment.hostName().isEmpty)
        let program = try #require(ProcessEnvironment.executablePath())
        #expect(program == (try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")))
    }

    @Test func aThreadRunsItsBodyWithItsNameAndAConditionHandsOverState() {
        let condition = ThreadCondition()
        let state = Mutex<(done: Bool, name: String)>((false, ""))
        let started = SystemThread.start(name: "support-test-thread-long-name") {
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            condition.withLock { state.withLock { $0 = (true, name.trimmingCharacters(in: .newlines)) } }
            condition.broadcast()
        }
        #expect(started)
        condition.lock()
        // Bounded: a thread that never ran fails the test, not the run.
        let deadline = Date().addingTimeInterval(60)
        while !state.withLock({ $0.done }) && Date() < deadline {
            condition.unlock()
            usleep(1000)
            condition.lock()
        }
        condition.unlock()
        #expect(state.withLock { $0.done })
        // The kernel keeps 15 bytes of a thread's name.
        #expect(state.withLock { $0.name } == "support-test-th")
    }

    @Test func waitersWakeOnSignalAndBroadcast() {
        let condition = ThreadCondition()
        let count = Mutex(0)
        let woken = Mutex(0)
        let released = Mutex(false)
        for index in 0..<3 {
            #expect(
                SystemThread.start(name: "waiter-\(index)") {
                    condition.lock()
                    count.withLock { $0 += 1 }
                    while !released.withLock({ $0 }) { condition.wait() }
                    condition.unlock()
                    woken.withLock { $0 += 1 }
                })
        }
        let deadline = Date().addingTimeInterval(60)
        while count.withLock({ $0 }) < 3 && Date() < deadline { usleep(1000) }
        #expect(count.withLock { $0 } == 3)
        condition.withLock { released.withLock { $0 = true } }
        condition.broadcast()
        while woken.withLock({ $0 }) < 3 && Date() < deadline { usleep(1000) }
        #expect(woken.withLock { $0 } == 3)
    }
}
