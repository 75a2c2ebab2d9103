import SystemSupport
import Testing

@testable import PostgresClient

/// libpq is opened at run time (CPostgreSQL's shim.h), when LIVEACTIVITY_DB names PostgreSQL: a
/// missing library, or one without a function the client calls, is one line naming it.
@Suite struct PostgresLibraryTests {
    @Test func aMissingLibraryIsOneLineNamingIt() {
        do throws(SharedLibraryError) {
            try PostgresLibrary.load("libliveactivity-missing.so.5")
            Issue.record("a library that does not exist loaded")
        } catch {
            guard case .notLoaded(let library, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(library == "libliveactivity-missing.so.5")
            #expect(reason.contains("cannot open shared object file"), "\(reason)")
            #expect(error.description.hasPrefix("libliveactivity-missing.so.5 could not be loaded: "))
        }
    }

    @Test func aLibraryWithoutLibpqsFunctionsNamesTheFirstMissing() {
        do throws(SharedLibraryError) {
            try PostgresLibrary.load("libc.so.6")
            Issue.record("libc passed for libpq")
        } catch {
            #expect(error == .missingSymbol(library: "libc.so.6", symbol: "PQbackendPID"))
        }
    }

    @Test func debiansLibpqLoadsByItsSoname() throws {
        #expect(PostgresLibrary.soname == "libpq.so.5")
        try PostgresLibrary.load()
    }
}
