import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// The programs' one way to read a small file whole, and each way it refuses one.
@Suite struct FileTextTests {
    let folder = TemporaryDirectory("file-text")

    @Test func aFileReadsWholeAsFoundationReadsIt() throws {
        let path = folder.file("settings")
        let text = "A=1\nB=\"two words\"\n" + String(repeating: "x", count: 200_000) + "\né\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try FileText.read(path) == text)
        #expect(try FileText.bytes(path) == Array(text.utf8))
        try "".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try FileText.read(path) == "")
    }

    @Test func eachRefusalIsNamed() throws {
        #expect(throws: FileText.Problem.noSuchFile) { try FileText.read(folder.file("absent")) }
        #expect(throws: FileText.Problem.noSuchFile) { try FileText.read(folder.file("absent/below")) }
        #expect(throws: FileText.Problem.notReadable) { try FileText.read(folder.path) }
        let binary = folder.file("binary")
        try Data([0x41, 0xFF, 0xFE, 0x42]).write(to: URL(fileURLWithPath: binary))
        #expect(throws: FileText.Problem.notUTF8) { try FileText.read(binary) }
        let large = folder.file("large")
        try Data(repeating: 0x41, count: 70_000).write(to: URL(fileURLWithPath: large))
        #expect(throws: FileText.Problem.notReadable) { try FileText.read(large, limit: 65_536) }
        #expect(try FileText.read(large, limit: 70_000).count == 70_000)
        #expect(FileText.Problem.notUTF8.description == "not UTF-8 text")
    }

    /// Root reads a file whatever its mode; anyone else is refused, and the refusal says so.
    @Test func aFileNotOursToReadIsPermissionDenied() throws {
        let path = folder.file("private")
        try "secret".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0)
        if geteuid() == 0 {
            #expect(try FileText.read(path) == "secret")
        } else {
            #expect(throws: FileText.Problem.permissionDenied) { try FileText.read(path) }
        }
    }
}
