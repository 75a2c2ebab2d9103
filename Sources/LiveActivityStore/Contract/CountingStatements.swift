import LiveActivityDomain

/// The counters' and figures' writes that the responder's batches and a sweep's outcome batches
/// both make, each in the caller's transaction: declared once, for both statement protocols.
public protocol CountingStatements: StoreConnection {
    /// Adds `deltas` to the counters of their groups (`TargetCounting` decides them: what a
    /// registration's writes changed, the targets a batch's deletions removed, those its 200s
    /// proved for the first time).
    func adjust(_ deltas: [GroupDelta]) throws

    /// Adds acks (judged by the responder, or with a sweep's batch) to the figures.
    func count(_ acks: [AckCount]) throws
}
