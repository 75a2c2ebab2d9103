import Foundation
import LiveActivityStore
import TestSupport
import Testing

/// `liveactivity-sweep stats --html` (SPEC 7): the status page on stdout, from the database the
/// settings name; a wrong command line is one line and exit 2, as for every setting.
@Suite struct StatsHTMLCommandTests {
    let folder = TemporaryDirectory("stats-html")

    func stats(_ arguments: [String]) throws -> CommandResult {
        try runCommand(
            product("liveactivity-sweep"), ["stats"] + arguments,
            environment: ["LIVEACTIVITY_DB": folder.file("db.sqlite"), "PATH": "/usr/bin:/bin"])
    }

    @Test func thePageOfAnEmptyDatabaseSaysNoSweepWasRecorded() throws {
        try TestDatabase(sqliteFile: folder.file("db.sqlite")).reading { _ in }
        let result = try stats(["--html"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("<!DOCTYPE html>") && result.stdout.hasSuffix("</html>\n"))
        let alarm = result.stdout.contains("data-figure=\"alarms\" data-value=\"noSweepRecorded\"")
        #expect(alarm, "the page of an empty database should say no sweep was recorded")
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: [["--html", "--json"], ["--htm"], ["--html", "extra"]])
    func aWrongCommandLineIsOneLineAndExit2(_ arguments: [String]) throws {
        try TestDatabase(sqliteFile: folder.file("db.sqlite")).reading { _ in }
        let result = try stats(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("stats: "))
    }

    @Test func noDatabaseIsExit3WithOneLine() throws {
        let result = try stats(["--html"])
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no database at"))
    }
}
