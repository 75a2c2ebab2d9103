import LiveActivityDomain

/// A scope read back, the same on every SQL engine.
extension PushScope {
    /// The scope of a row's environment, kind and app (its first three columns); nil for one
    /// this build does not know.
    public init?(stored row: some StoredRow) {
        guard let environment = APNsEnvironment(name: row.text(0) ?? ""), let kind = PushKind(name: row.text(1) ?? ""),
            let app = row.text(2).flatMap(AppName.init)
        else { return nil }
        self.init(environment: environment, kind: kind, app: app)
    }

    /// Counts read back per scope, summed; a scope this build does not know left out.
    public static func tally(_ counts: [(PushScope?, Int)]) -> [PushScope: Int] {
        var result: [PushScope: Int] = [:]
        for case (let scope?, let count) in counts { result[scope, default: 0] += count }
        return result
    }
}
