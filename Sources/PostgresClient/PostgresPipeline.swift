/// The statements of one pipeline, collected by the caller's closure and then sent together in
/// one round trip (libpq's pipeline mode). `sync()` ends a segment: without an explicit `BEGIN`,
/// a segment's statements run as one implicit transaction, committed at its end if all passed and
/// rolled back if one failed; the server skips a segment's statements after its first failure.
/// The pipeline ends with a sync of its own.
package final class PostgresPipeline {
    enum Entry {
        case run(PostgresStatement, [PostgresValue])
        case sync
    }

    private(set) var entries: [Entry] = []
    private let connection: PostgresConnection

    init(connection: PostgresConnection) { self.connection = connection }

    /// Adds a run of `statement` (prepared on this pipeline's connection) with `values`.
    package func run(_ statement: PostgresStatement, _ values: [PostgresValue] = []) {
        precondition(statement.belongs(to: connection), "a statement prepared on another connection")
        entries.append(.run(statement, values))
    }

    /// Ends the current segment (nothing happens for an empty one).
    package func sync() {
        if case .run = entries.last { entries.append(.sync) }
    }

    /// The runs, in order.
    var runs: [(statement: PostgresStatement, values: [PostgresValue])] {
        entries.compactMap { entry in
            if case .run(let statement, let values) = entry { (statement, values) } else { nil }
        }
    }
}

/// What became of one statement of a pipeline.
package enum PostgresPipelineOutcome {
    /// It ran; its result (rows, `rowsAffected`). If another statement of its segment failed, its
    /// work was rolled back with the segment (unless an explicit `COMMIT` came between them).
    case done(PostgresResult)
    /// It failed with this error (`pipelineItem` is its index). A failure of the segment's
    /// implicit commit is reported on the segment's last statement.
    case failed(PostgresError)
    /// It was not run: an earlier statement of its segment failed.
    case skipped

    /// The result, nil unless it ran.
    package var result: PostgresResult? {
        if case .done(let result) = self { result } else { nil }
    }
}
