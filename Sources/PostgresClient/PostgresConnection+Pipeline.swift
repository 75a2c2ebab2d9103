import CPostgreSQL

/// Pipeline mode (libpq 14 and later: https://www.postgresql.org/docs/current/libpq-pipeline-mode.html):
/// many prepared runs sent in one round trip, their results read back in order.
extension PostgresConnection {
    /// Sends the runs `build` adds in one round trip and returns each one's result. Throws the
    /// first failure (`pipelineItem` says which run); a pipeline without `sync()` and without an
    /// explicit `COMMIT` inside is then wholly rolled back. A pipeline begun outside a transaction
    /// never leaves one open because a run failed.
    package func pipeline(_ build: (PostgresPipeline) throws(PostgresError) -> Void) throws(PostgresError) -> [PostgresResult] {
        var results: [PostgresResult] = []
        for (index, outcome) in try pipelineOutcomes(build).enumerated() {
            switch outcome {
            case .done(let result): results.append(result)
            case .failed(let error): throw error
            case .skipped:
                throw PostgresError(kind: .other, message: "run \(index) of the pipeline was skipped", pipelineItem: index)
            }
        }
        return results
    }

    /// Sends the runs `build` adds in one round trip and returns what became of each, in order.
    /// Throws only when the exchange itself fails (the server lost or silent: `unreachable`,
    /// and then which segments committed is unknown).
    package func pipelineOutcomes(
        _ build: (PostgresPipeline) throws(PostgresError) -> Void
    ) throws(PostgresError) -> [PostgresPipelineOutcome] {
        try checkUsable(nil)
        let pipeline = PostgresPipeline(connection: self)
        try build(pipeline)
        let runs = pipeline.runs
        guard !runs.isEmpty else { return [] }
        // Encoded first, so a value that cannot be sent fails before anything is.
        var encoded: [EncodedParameters] = []
        for run in runs { encoded.append(try EncodedParameters(run.values, sql: run.statement.sql)) }
        let beganIdle = PQtransactionStatus(handle) == PQTRANS_IDLE
        let deadline = CallDeadline(after: callTimeout)

        guard PQenterPipelineMode(handle) == 1 else { throw failed(nil) }
        do throws(PostgresError) {
            let outcomes = try exchangePipeline(pipeline.entries, runs: runs, encoded: encoded, deadline)
            guard PQexitPipelineMode(handle) == 1 else { throw failed(nil) }
            // A failed run inside an explicit BEGIN leaves the transaction aborted past the sync;
            // one this pipeline began is rolled back here, one the caller began is the caller's.
            if beganIdle, PQtransactionStatus(handle) == PQTRANS_INERROR { try execute("ROLLBACK") }
            return outcomes
        } catch {
            // Whatever failed here left the session in a state no later call could trust.
            breakConnection()
            throw error
        }
    }

    /// Sends every run and sync, then reads each run's outcome and each segment's sync.
    private func exchangePipeline(
        _ entries: [PostgresPipeline.Entry], runs: [(statement: PostgresStatement, values: [PostgresValue])],
        encoded: [EncodedParameters], _ deadline: CallDeadline
    ) throws(PostgresError) -> [PostgresPipelineOutcome] {
        var segments: [Int] = []  // each segment's number of runs
        var inSegment = 0
        var index = 0
        for entry in entries + [.sync] {
            switch entry {
            case .run(let statement, _):
                let sent = encoded[index].withArrays { PQsendQueryPrepared(handle, statement.name, $0, $1, $2, $3, 0) }
                guard sent == 1 else { throw failed(statement.sql) }
                index += 1
                inSegment += 1
            case .sync:
                guard inSegment > 0 else { continue }
                guard PQpipelineSync(handle) == 1 else { throw failed(nil) }
                segments.append(inSegment)
                inSegment = 0
            }
        }
        try flush(deadline, sql: nil)

        var outcomes: [PostgresPipelineOutcome] = []
        for count in segments {
            for _ in 0..<count {
                let sql = runs[outcomes.count].statement.sql
                outcomes.append(try readRun(index: outcomes.count, sql: sql, deadline))
            }
            // The segment ends with its sync; an error before it is its implicit commit failing.
            var nulls = 0
            while true {
                guard let raw = try nextResult(deadline, sql: nil) else {
                    nulls += 1
                    guard nulls < 3 else {
                        throw PostgresError(kind: .other, message: "the pipeline's results ended before its sync")
                    }
                    continue
                }
                let result = PostgresResult(owning: raw)
                if PQresultStatus(raw) == PGRES_PIPELINE_SYNC { break }
                if var error = error(in: result, sql: nil), case .done = outcomes[outcomes.count - 1] {
                    error.pipelineItem = outcomes.count - 1
                    outcomes[outcomes.count - 1] = .failed(settle(error))
                }
                try checkUsable(nil)
            }
        }
        return outcomes
    }

    /// Reads one run's result and the end of its results.
    private func readRun(index: Int, sql: String, _ deadline: CallDeadline) throws(PostgresError) -> PostgresPipelineOutcome {
        guard let raw = try nextResult(deadline, sql: sql) else { throw failed(sql) }
        let result = PostgresResult(owning: raw)
        let outcome: PostgresPipelineOutcome
        if PQresultStatus(raw) == PGRES_PIPELINE_ABORTED {
            outcome = .skipped
        } else if var error = error(in: result, sql: sql) {
            error.pipelineItem = index
            outcome = .failed(settle(error))
            try checkUsable(sql)
        } else {
            outcome = .done(result)
        }
        // Each run's results end with a null result.
        while let extra = try nextResult(deadline, sql: sql) { PQclear(extra) }
        return outcome
    }
}
