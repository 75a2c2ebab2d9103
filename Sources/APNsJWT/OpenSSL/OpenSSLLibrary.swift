import COpenSSL
import SystemSupport

/// libcrypto, opened at run time rather than linked (COpenSSL's shim.h): a sweep loads it only to
/// sign a provider token (about every 50 minutes, and only when something is due), the stand-in to
/// check them. Every key is loaded through `EVPKey`, which loads libcrypto first; where the
/// library or one of its functions is missing that fails with one line naming it.
public enum OpenSSLLibrary {
    /// The soname of Debian's libssl3 package's libcrypto.
    public static let soname = "libcrypto.so.3"

    /// Opened once, at the first use.
    static let loaded = SharedLibrary.table(soname) { liveactivity_crypto_bind($0, $1) }

    /// Loads libcrypto if it is not yet loaded.
    public static func load() throws(SharedLibraryError) { _ = try loaded.get() }

    /// Opens `name` as if it were libcrypto, for tests of what a missing or wrong library reads as.
    public static func load(_ name: String) throws(SharedLibraryError) {
        _ = try SharedLibrary.table(name) { liveactivity_crypto_bind($0, $1) }.get()
    }
}

/// The shim's table (`liveactivity_crypto` in COpenSSL's shim.h). Every caller has loaded
/// libcrypto before (`EVPKey` does), so the failure here is a call that skipped it.
@_cdecl("liveactivity_crypto")
public func liveactivityCryptoFunctions() -> UnsafePointer<liveactivity_crypto_functions> {
    switch OpenSSLLibrary.loaded {
    case .success(let table): return table.pointer
    case .failure(let error): fatalError("\(error)")
    }
}
