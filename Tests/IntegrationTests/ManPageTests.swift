import Foundation
import TestSupport
import Testing

/// The package's man pages as a Debian operator reads them (issue 33): each renders without a
/// warning at 80 columns, each program's page names every option of its `--help` and has an
/// EXIT STATUS section, and `--version` says the version debian/changelog gives.
@Suite("Man pages and --version")
struct ManPageTests {
    static let pages = ["liveactivity-fcgi.8", "liveactivity-sweep.8", "liveactivity.conf.5"]

    /// A page's text with roff's escapes of `-` undone, as options are searched for.
    static func source(_ page: String) throws -> String {
        try Documents.text("debian/man/" + page).replacingOccurrences(of: "\\-", with: "-")
    }

    @Test(.enabled(if: systemTool("man") != nil, "man is not installed"))
    func everyPageRendersWithoutAWarning() throws {
        for page in Self.pages {
            let run = try runCommand(
                systemTool("man")!, ["--warnings", "-l", packageRoot + "/debian/man/" + page],
                environment: ["MANWIDTH": "80", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "MAN_KEEP_FORMATTING": ""])
            #expect(run.status == 0, "man -l \(page) exited \(run.status): \(run.stderr)")
            #expect(run.stderr.isEmpty, "man --warnings -l \(page): \(run.stderr)")
            #expect(run.stdout.split(separator: "\n").count > 20, "\(page) renders \(run.stdout.count) characters")
        }
    }

    /// Every option `--help` lists is in the program's page, with an EXIT STATUS section; the
    /// sweep's page names its subcommands too.
    @Test func eachProgramsPageHasEveryOptionOfItsHelp() throws {
        for program in ["liveactivity-fcgi", "liveactivity-sweep"] {
            let help = try runCommand(product(program), ["--help"])
            #expect(help.status == 0, "\(program) --help exited \(help.status)")
            #expect(!help.stdout.contains("SPEC"), "\(program) --help cites the specification, not docs/")
            let options = Set(
                help.stdout.matches(of: /(^|[^A-Za-z-])(--[a-z][a-z-]+)/.anchorsMatchLineEndings()).map { String($0.output.2) })
            #expect(options.count >= 3, "\(program) --help lists \(options.sorted())")
            let page = try Self.source(program + ".8")
            for option in options.sorted() {
                #expect(page.contains(option), "\(program).8 does not describe \(option) of --help")
            }
            #expect(page.contains(".SH EXIT STATUS"), "\(program).8 has no EXIT STATUS")
        }
        let sweep = try Self.source("liveactivity-sweep.8")
        for command in [".B stats", ".BI history", ".B 0", ".B 1", ".B 2", ".B 3"] {
            #expect(sweep.contains(command), "liveactivity-sweep.8 lacks \(command)")
        }
    }

    /// The package installs the three pages.
    @Test func thePackageInstallsEveryPage() throws {
        let listed = try Documents.text("debian/liveactivity.manpages").split(separator: "\n").map(String.init)
        #expect(listed.sorted() == Self.pages.map { "debian/man/" + $0 }.sorted(), "\(listed)")
    }

    /// `--version` of both programs prints the program's name and debian/changelog's version.
    @Test func bothProgramsSayTheChangelogsVersion() throws {
        let changelog = try Documents.text("debian/changelog")
        let first = try #require(changelog.split(separator: "\n").first)
        let version = try #require(first.firstMatch(of: /^liveactivity \(([^)]+)\)/)?.output.1, "\(first)")
        for program in ["liveactivity-fcgi", "liveactivity-sweep"] {
            let run = try runCommand(product(program), ["--version"], environment: ["PATH": "/usr/bin:/bin"])
            #expect(
                run.status == 0 && run.stdout == "\(program) \(version)\n", "\(program) --version: \(run.stdout)\(run.stderr)")
        }
    }
}
