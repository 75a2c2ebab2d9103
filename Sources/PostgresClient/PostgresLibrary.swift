import CPostgreSQL
import SystemSupport

/// libpq, opened at run time rather than linked (CPostgreSQL's shim.h): only a program whose
/// `LIVEACTIVITY_DB` names PostgreSQL loads it, with libssl, libcrypto and the rest it brings.
/// `load()` is called before anything else of this target (`PostgresConninfo` does); where the
/// library or one of its functions is missing it fails with one line naming the library.
package enum PostgresLibrary {
    /// The soname of Debian's libpq5 (`objdump -p` of a program linked with `-lpq` names it).
    package static let soname = "libpq.so.5"

    /// Opened once, at the first use.
    static let loaded = SharedLibrary.table(soname) { liveactivity_pq_bind($0, $1) }

    /// Loads libpq if it is not yet loaded.
    package static func load() throws(SharedLibraryError) { _ = try loaded.get() }

    /// Opens `name` as if it were libpq, for tests of what a missing or wrong library reads as.
    package static func load(_ name: String) throws(SharedLibraryError) {
        _ = try SharedLibrary.table(name) { liveactivity_pq_bind($0, $1) }.get()
    }
}

/// The shim's table (`liveactivity_pq` in CPostgreSQL's shim.h). Every caller has loaded libpq
/// before (`PostgresLibrary.load()`), so the failure here is a call that skipped it.
@_cdecl("liveactivity_pq")
public func liveactivityPQFunctions() -> UnsafePointer<liveactivity_pq_functions> {
    switch PostgresLibrary.loaded {
    case .success(let table): return table.pointer
    case .failure(let error): fatalError("\(error)")
    }
}
