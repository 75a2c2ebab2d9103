import CCurl
import SystemSupport

/// libcurl, opened at run time rather than linked (CCurl's shim.h): only a sweep with pushes to
/// send loads it, with the libraries it brings. `CurlGlobal` loads it before any handle is made;
/// where the library or one of its functions is missing that fails with one line naming it.
public enum CurlLibrary {
    /// The soname of Debian's libcurl4 (OpenSSL flavour, HTTP/2 through nghttp2).
    public static let soname = "libcurl.so.4"

    /// Opened once, at the first use.
    static let loaded = SharedLibrary.table(soname) { liveactivity_curl_bind($0, $1) }

    /// Loads libcurl if it is not yet loaded.
    public static func load() throws(SharedLibraryError) { _ = try loaded.get() }

    /// Whether libcurl is loaded (a `CurlCode` names itself without it).
    static var isLoaded: Bool { (try? loaded.get()) != nil }

    /// Opens `name` as if it were libcurl, for tests of what a missing or wrong library reads as.
    public static func load(_ name: String) throws(SharedLibraryError) {
        _ = try SharedLibrary.table(name) { liveactivity_curl_bind($0, $1) }.get()
    }
}

/// The shim's table (`liveactivity_curl` in CCurl's shim.h). Every caller has loaded libcurl
/// before (`CurlGlobal.ensureInitialized()`), so the failure here is a call that skipped it.
@_cdecl("liveactivity_curl")
public func liveactivityCurlFunctions() -> UnsafePointer<liveactivity_curl_functions> {
    switch CurlLibrary.loaded {
    case .success(let table): return table.pointer
    case .failure(let error): fatalError("\(error)")
    }
}
