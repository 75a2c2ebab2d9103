import Foundation
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

    @Test func aThreadRunsItsBodyWithItsName() {
        let state = ConditionLock<(done: Bool, name: String)>((false, ""))
        let started = SystemThread.start(name: "support-test-thread-long-name") {
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            state.withLock { $0 = (true, name.trimmingCharacters(in: .newlines)) }
            state.broadcast()
        }
        #expect(started)
        // Bounded: a thread that never ran fails the test, not the run.
        #expect(state.wait(until: { $0.done }, timeout: .seconds(60)))
        // The kernel keeps 15 bytes of a thread's name.
        #expect(state.withLock { $0.name } == "support-test-th")
    }
}
