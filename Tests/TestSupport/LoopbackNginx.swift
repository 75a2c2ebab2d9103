import Foundation

/// Starts an unprivileged nginx for a test on a free loopback port: `render` turns the port into
/// the configuration, written to `prefix/nginx.conf`. A free port can be taken by a parallel
/// test before nginx binds it, so a few ports are tried.
public enum LoopbackNginx {
    public static func start(prefix: String, outputPath: String, render: (Int) throws -> String) throws -> (
        port: Int, process: ChildProcess
    ) {
        guard let nginxPath = systemTool("nginx") else { throw SocketError("nginx is not installed") }
        let pidFile = prefix + "/nginx.pid"
        for _ in 0..<5 {
            let candidate = freePort()
            try? FileManager.default.removeItem(atPath: pidFile)
            try render(candidate).write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
            let process = try spawn(nginxPath, prefix: prefix, outputPath: outputPath)
            // nginx writes its pid file only once its port is bound: a connect alone could reach
            // another test's nginx on the same port while this one still retries bind(2).
            if waitUntil(timeout: 60, { !process.isRunning || FileManager.default.fileExists(atPath: pidFile) }),
                process.isRunning, waitUntil(timeout: 60, { (try? RawSocket(port: candidate, timeout: 1)) != nil })
            {
                return (candidate, process)
            }
            process.stop()
        }
        throw SocketError("nginx did not start: \((try? String(contentsOfFile: prefix + "/error.log", encoding: .utf8)) ?? "")")
    }

    /// Runs nginx with `prefix/nginx.conf`. The tests' nginx runs without a master process, and
    /// such an nginx reads a signal's flag only after its event loop wakes: a SIGTERM that lands
    /// after the loop's check and before it sleeps in `epoll_wait` waits for the next event or
    /// timer, which an idle nginx may not have for minutes (issue 26: "did not end on SIGTERM
    /// within its bound and was killed"). Its stop sends SIGTERM again every 250 ms; each one
    /// interrupts the sleep. (`timer_resolution` would wake it too, but makes nginx's clock
    /// coarse, and the per-client limit then refuses a burst that passes without it.)
    public static func spawn(_ nginxPath: String, prefix: String, outputPath: String) throws -> ChildProcess {
        try ChildProcess(
            nginxPath, ["-p", prefix + "/", "-c", prefix + "/nginx.conf", "-e", prefix + "/error.log"],
            outputPath: outputPath, resendsStop: true)
    }
}
