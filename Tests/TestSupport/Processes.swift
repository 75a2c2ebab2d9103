import Foundation

/// The PIDs whose parent is `pid`, from `/proc/*/stat` (a supervised responder's worker process).
public func childProcesses(of pid: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry -> Int32? in
        guard let candidate = Int32(entry),
            let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": state, then the parent's pid.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 2, Int32(fields[1]) == pid, fields[0] != "Z" else { return nil }
        return candidate
    }
}

/// The resident set size of `pid` in KiB (`VmRSS` in `/proc/PID/status`), nil once it is gone.
public func residentKilobytes(of pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
    return nil
}

/// The state letter of `pid` in `/proc/PID/stat` (`R`, `S`, `T` stopped, `Z` ended but not
/// reaped, ...), nil once it is gone.
public func processState(of pid: Int32) -> Character? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return nil }
    return stat[stat.index(after: close)...].split(separator: " ").first?.first
}
