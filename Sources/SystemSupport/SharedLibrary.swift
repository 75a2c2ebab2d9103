#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A C library opened at run time (`dlopen`) rather than named in the program's `NEEDED` entries,
/// so that a run which does not need it does not pay for loading it and the libraries it brings
/// (libcurl alone brings some 35): the sweep loads libcurl and libcrypto only when it has pushes
/// to send or a token to sign, and either program loads libpq only for a PostgreSQL database.
/// Opened once and never closed: the process keeps it to its end.
public struct SharedLibrary {
    /// The handle `dlopen` gave.
    public let handle: UnsafeMutableRawPointer
    /// The name it was opened by (a versioned soname: `libcurl.so.4`).
    public let name: String

    /// Opens `name` with every symbol bound now (`RTLD_NOW`) and kept to itself (`RTLD_LOCAL`).
    public static func open(_ name: String) throws(SharedLibraryError) -> SharedLibrary {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            throw .notLoaded(library: name, reason: lastError())
        }
        return SharedLibrary(handle: handle, name: name)
    }

    /// Opens `name` and fills a table of its functions with `bind` (a shim's C function that
    /// looks each one up with `dlsym` and answers the first it did not find, or nil): the table,
    /// kept for the process's life, or why there is none. The shims' accessors keep the result
    /// in a `static let`, so this runs once, under Swift's lock for globals.
    public static func table<Table>(
        _ name: String, bind: (UnsafeMutablePointer<Table>, UnsafeMutableRawPointer) -> UnsafePointer<CChar>?
    ) -> Result<FunctionTable<Table>, SharedLibraryError> {
        let library: SharedLibrary
        do { library = try open(name) } catch { return .failure(error) }
        let table = UnsafeMutablePointer<Table>.allocate(capacity: 1)
        if let missing = bind(table, library.handle) {
            table.deallocate()
            return .failure(.missingSymbol(library: name, symbol: String(cString: missing)))
        }
        return .success(FunctionTable(pointer: UnsafePointer(table)))
    }

    /// `dlerror`'s text for the last failed call on this thread, on one line.
    static func lastError() -> String {
        guard let text = dlerror() else { return "unknown error" }
        return String(cString: text).split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// A shim's table of a library's functions, filled once and never written again, so threads may
/// share it. Unchecked `Sendable`: a C pointer, which the compiler cannot see is never written.
public struct FunctionTable<Table>: @unchecked Sendable {
    public let pointer: UnsafePointer<Table>
}

/// A C library a program needs could not be loaded, or lacks a function it calls: one line for
/// the operator, naming the library and what the loader said.
public enum SharedLibraryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `dlopen` failed: the library is not installed (or not this machine's).
    case notLoaded(library: String, reason: String)
    /// The library loaded but has no `symbol` (an older or other build of it).
    case missingSymbol(library: String, symbol: String)

    public var library: String {
        switch self {
        case .notLoaded(let library, _), .missingSymbol(let library, _): library
        }
    }

    public var description: String {
        switch self {
        case .notLoaded(let library, let reason):
            "\(library) could not be loaded: \(reason)"
        case .missingSymbol(let library, let symbol):
            "\(library) could not be loaded: it has no function \(symbol) (an older or other build of it)"
        }
    }
}
