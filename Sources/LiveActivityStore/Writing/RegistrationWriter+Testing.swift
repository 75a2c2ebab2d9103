/// The writer's test hooks, apart from the type the responder runs: tests reach them through
/// `@testable import`, and nothing on a write's path calls them.
extension RegistrationWriter {
    /// Writes waiting for the turn (tests wait on it).
    var queuedWrites: Int { turn.queuedCount }

    /// Runs `body` holding the writers' turn, as a commit would, with no write of its own: the
    /// writes queued meanwhile form one batch when it returns (tests make batches of a known size).
    func holdingTurn(_ body: () -> Void) {
        turn.waitAsHolder()
        body()
        turn.handOver()?.wake()
    }
}
