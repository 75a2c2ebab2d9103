/// Schema step 8 → 9, appended to `Schema.migrations` after step 8.
extension Schema {
    /// 8 → 9: `delivered_environments` is kept by the sweep's outcome batch (one statement per
    /// environment with a 200 in it, `SweepStore.recordAnswered`), not by version 7's trigger. A
    /// trigger on the UPDATE every answer runs makes SQLite keep a statement journal for each of
    /// them; once it spilled to a temporary file, every page each UPDATE touched was written
    /// there too: four times the writes of the sweep's outcome thread, and 10% of its push rate
    /// at 100,000 registrations.
    static let toVersion9 = """
        DROP TRIGGER registrations_first_delivery;
        """
}
