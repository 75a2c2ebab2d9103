import Foundation

/// The one cluster ordinary tests share, each in a database of its own.
extension PostgresCluster {
    /// The environment variable naming the folder of the cluster scripts/test runs for the whole
    /// suite.
    public static let sharedFolderVariable = "LIVEACTIVITY_TEST_POSTGRES"

    /// The shared cluster: scripts/test's, when it runs one; otherwise (a developer's
    /// `swift test --filter`) one started here on first use and stopped when the process exits.
    public static func shared() throws -> PostgresCluster {
        let state = sharedState.update { state in
            if state == nil { state = Result { try makeShared() } }
            return state!
        }
        return try state.get()
    }

    private static let sharedState = LockedBox<Result<PostgresCluster, any Error>?>(nil)

    private static func makeShared() throws -> PostgresCluster {
        if let folder = ProcessInfo.processInfo.environment[sharedFolderVariable], !folder.isEmpty {
            let cluster = PostgresCluster(runningIn: folder)
            guard FileManager.default.fileExists(atPath: cluster.socketDirectory + "/.s.PGSQL.\(cluster.port)") else {
                throw ClusterError("\(sharedFolderVariable)=\(folder) names no running test cluster (no socket)")
            }
            return cluster
        }
        let cluster = try PostgresCluster("pg-shared")
        try cluster.start()
        atexit { PostgresCluster.stopSharedAtExit() }
        return cluster
    }

    /// Stops the shared cluster this process started and removes its folder (an `atexit` handler:
    /// a static is never released. A crash of the process ends the server anyway, through its
    /// parent-death signal, and leaves only the folder).
    private static func stopSharedAtExit() {
        guard case .success(let cluster)? = sharedState.get() else { return }
        cluster.stop()
        try? FileManager.default.removeItem(atPath: cluster.folder)
    }
}
