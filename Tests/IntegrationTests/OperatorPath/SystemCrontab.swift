import Foundation
import TestSupport

/// A system crontab (`/etc/cron.d` format) as cron reads it: each entry is a schedule, a user
/// and a command for `/bin/sh -c`. The test runs these commands itself, the way cron would.
struct SystemCrontab {
    struct Entry {
        /// `@reboot`, or the five time fields joined by spaces.
        let schedule: String
        let user: String
        let command: String
    }

    let entries: [Entry]

    init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var entries: [Entry] = []
        for raw in text.components(separatedBy: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // An environment line (NAME=value) has no schedule.
            if let first = fields.first, first.contains("=") { continue }
            let timeFields = fields.first?.hasPrefix("@") == true ? 1 : 5
            guard fields.count > timeFields + 1 else { throw SocketError("short crontab line: \(line)") }
            // cron reads everything after the user as the command, spaces and all.
            var rest = Substring(line)
            for _ in 0..<(timeFields + 1) {
                rest = rest.drop { $0 != " " }.drop { $0 == " " }
            }
            entries.append(
                Entry(
                    schedule: fields[0..<timeFields].joined(separator: " "), user: String(fields[timeFields]),
                    command: String(rest)))
        }
        self.entries = entries
    }

    /// The `@reboot` entry.
    func reboot() throws -> Entry {
        guard let entry = entries.first(where: { $0.schedule == "@reboot" }) else {
            throw SocketError("the crontab has no @reboot line")
        }
        return entry
    }

    /// The entry whose command runs `program`.
    func entry(running program: String) throws -> Entry {
        guard let entry = entries.first(where: { $0.schedule != "@reboot" && $0.command.contains(program) }) else {
            throw SocketError("the crontab has no line running \(program)")
        }
        return entry
    }
}
