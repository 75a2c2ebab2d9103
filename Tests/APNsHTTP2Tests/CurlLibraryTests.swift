import Glibc
import SystemSupport
import Testing

@testable import APNsHTTP2

/// libcurl is opened at run time (CCurl's shim.h): a missing library, or one without a function
/// the client calls, is one line naming it, never a crash.
@Suite struct CurlLibraryTests {
    @Test func aMissingLibraryIsOneLineNamingIt() {
        do throws(SharedLibraryError) {
            try CurlLibrary.load("libliveactivity-missing.so.4")
            Issue.record("a library that does not exist loaded")
        } catch {
            guard case .notLoaded(let library, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(library == "libliveactivity-missing.so.4")
            #expect(reason.contains("cannot open shared object file"), "\(reason)")
            #expect(error.description.hasPrefix("libliveactivity-missing.so.4 could not be loaded: "))
            #expect(!error.description.contains("\n"))
        }
    }

    /// A function is looked up in the process's global scope first, as a linked program's is
    /// (a preloaded library interposes). This test bundle links Foundation's networking, which
    /// links libcurl into that scope once it is loaded: then libc "has" libcurl's functions, and
    /// the missing function shows only where the global scope lacks them, as in the programs
    /// (`LibraryLoadingTests` checks the sweep's line).
    @Test func aLibraryWithoutLibcurlsFunctionsNamesTheFirstMissing() {
        let inTheGlobalScope = dlsym(nil, "curl_easy_cleanup") != nil
        do throws(SharedLibraryError) {
            try CurlLibrary.load("libc.so.6")
            #expect(inTheGlobalScope, "libc passed for libcurl")
        } catch {
            #expect(!inTheGlobalScope)
            #expect(error == .missingSymbol(library: "libc.so.6", symbol: "curl_easy_cleanup"))
            #expect(error.description.hasPrefix("libc.so.6 could not be loaded: it has no function curl_easy_cleanup"))
        }
    }

    @Test func debiansLibcurlLoadsByItsSoname() throws {
        #expect(CurlLibrary.soname == "libcurl.so.4")
        try CurlLibrary.load()
        #expect(CurlCode.couldNotConnect.description == "Couldn't connect to server")
    }
}
