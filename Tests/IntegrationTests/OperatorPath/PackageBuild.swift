import Foundation
import TestSupport

/// A built `liveactivity_<version>_<arch>.deb`.
struct BuiltPackage {
    let path: String
    let version: String
    var fileName: String { URL(fileURLWithPath: path).lastPathComponent }
}

/// The two versions the package test installs (SPEC 8): the first built by docs/INSTALL.md's build step
/// (`scripts/package` in this clone: after .ci/run's own run, an incremental build), the second
/// the same programs packaged again under the next version, as a maintainer's new changelog
/// entry makes one: a real, different package, without a second release build.
enum PackageBuild {
    /// The second version's number: the first's with `+1`, which dpkg orders after it.
    static func nextVersion(after version: String) -> String { version + "+1" }

    /// The first version, built once per test run.
    private static let built = LockedBox<BuiltPackage?>(nil)

    /// docs/INSTALL.md's build block, run in this clone, and the package it printed last; or the package
    /// .ci/run built with that same command just before the tests (`LIVEACTIVITY_TEST_PACKAGE`),
    /// so CI builds the release programs once.
    static func first(block: ReadmeDeployment.Block, scratch: String) throws -> BuiltPackage {
        guard block.text.trimmingCharacters(in: .whitespacesAndNewlines) == "scripts/package" else {
            throw SocketError("docs/INSTALL.md's build step is no longer `scripts/package`: update the package test")
        }
        if let package = built.get() { return package }
        if let path = ProcessInfo.processInfo.environment["LIVEACTIVITY_TEST_PACKAGE"], !path.isEmpty {
            guard FileManager.default.fileExists(atPath: path) else {
                throw SocketError("LIVEACTIVITY_TEST_PACKAGE names \(path), which does not exist")
            }
            let package = BuiltPackage(path: path, version: try version(of: path, scratch: scratch))
            built.set(package)
            return package
        }
        let package = try build(block: block, scratch: scratch)
        built.set(package)
        return package
    }

    private static func build(block: ReadmeDeployment.Block, scratch: String) throws -> BuiltPackage {
        let built = try HostCommand.shell(
            block.text, flags: ["-e"], in: packageRoot, environment: buildEnvironment, timeout: 1800, scratch: scratch)
        let path = built.output.split(separator: "\n").last.map(String.init) ?? ""
        guard built.status == 0, path.hasSuffix(".deb"), FileManager.default.fileExists(atPath: path) else {
            throw SocketError("docs/INSTALL.md's build step exited \(built.status): \(OperatorHost.tail(built.output, lines: 6))")
        }
        return BuiltPackage(path: path, version: try version(of: path, scratch: scratch))
    }

    /// The programs of `first`, packaged under the next version from a copy of the packaging
    /// files with one changelog entry more (`scripts/package --bin`). Its .deb is in `folder`.
    static func second(after first: BuiltPackage, in folder: TemporaryDirectory) throws -> BuiltPackage {
        let files = FileManager.default
        let clone = folder.file("clone")
        try files.createDirectory(atPath: clone, withIntermediateDirectories: true)
        // Sources too: debian/dlopen-probe reads the shims' function lists for the Depends.
        for item in ["debian", "cron", "nginx", "systemd", "scripts", "docs", "README.md", "Sources"] {
            try files.copyItem(atPath: packageRoot + "/" + item, toPath: clone + "/" + item)
        }
        let next = nextVersion(after: first.version)
        let changelog = clone + "/debian/changelog"
        let old = try String(contentsOfFile: changelog, encoding: .utf8)
        guard let trailer = old.split(separator: "\n").first(where: { $0.hasPrefix(" -- ") }),
            let maintainer = trailer.range(of: "  ").map({
                trailer[trailer.index(trailer.startIndex, offsetBy: 4)..<$0.lowerBound]
            })
        else { throw SocketError("debian/changelog has no trailer line") }
        let date = DateFormatter()
        date.locale = Locale(identifier: "en_US_POSIX")
        date.timeZone = TimeZone(identifier: "UTC")
        date.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let entry = """
            liveactivity (\(next)) unstable; urgency=medium

              * The same programs, packaged again under the next version (the package
                test's upgrade).

             -- \(maintainer)  \(date.string(from: Date()))


            """
        try (entry + old).write(toFile: changelog, atomically: true, encoding: .utf8)

        let programs = folder.file("programs")
        let unpacked = try HostCommand.run(
            [systemTool("dpkg-deb") ?? "/usr/bin/dpkg-deb", "-x", first.path, programs], scratch: folder.path)
        guard unpacked.status == 0 else { throw SocketError("dpkg-deb -x \(first.path): \(unpacked.output)") }
        let built = try HostCommand.run(
            [clone + "/scripts/package", "--bin", programs + "/usr/bin"], environment: buildEnvironment, timeout: 600,
            scratch: folder.path)
        let path = built.output.split(separator: "\n").last.map(String.init) ?? ""
        guard built.status == 0, path.hasSuffix(".deb") else {
            throw SocketError("scripts/package --bin exited \(built.status): \(OperatorHost.tail(built.output, lines: 6))")
        }
        let package = BuiltPackage(path: path, version: try version(of: path, scratch: folder.path))
        guard package.version == next else { throw SocketError("the second package is \(package.version), not \(next)") }
        return package
    }

    /// lintian's tags of severity error or warning for `package` (overrides with their reasons
    /// hide theirs), or lintian's failure.
    static func lintianComplaints(_ package: BuiltPackage, scratch: String) throws -> [String] {
        let run = try HostCommand.run(
            [systemTool("lintian") ?? "/usr/bin/lintian", "--fail-on", "error,warning", package.path], timeout: 600,
            scratch: scratch)
        let tags = run.output.split(separator: "\n").filter { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }.map(String.init)
        if run.status != 0 && tags.isEmpty { return ["lintian exited \(run.status): \(OperatorHost.tail(run.output))"] }
        return tags
    }

    /// The Version field of a .deb.
    static func version(of path: String, scratch: String) throws -> String {
        let field = try HostCommand.run(
            [systemTool("dpkg-deb") ?? "/usr/bin/dpkg-deb", "-f", path, "Version"], scratch: scratch)
        guard field.status == 0 else { throw SocketError("dpkg-deb -f \(path): \(field.output)") }
        return field.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A root shell's environment with the Swift toolchain the tests run with on PATH.
    static var buildEnvironment: [String: String] {
        var environment = HostCommand.rootEnvironment
        let inherited = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let toolchain = inherited.split(separator: ":").first {
            FileManager.default.isExecutableFile(atPath: "\($0)/swift")
        }.map(String.init)
        environment["PATH"] = [toolchain, environment["PATH"]].compactMap { $0 }.joined(separator: ":")
        return environment
    }
}
