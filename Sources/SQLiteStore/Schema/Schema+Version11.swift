/// Schema step 10 → 11, appended to `Schema.migrations` after step 10 (hardening, issue 30).
extension Schema {
    /// 10 → 11:
    /// - `registrations.guard_holds`: how many times the mass-deletion guard held the row as a
    ///   fresh deployment's junk; a row never proven is deleted at its third hold (SPEC 5), so
    ///   junk cannot fill the unproven cap.
    static let toVersion11 = """
        ALTER TABLE registrations ADD COLUMN guard_holds INTEGER NOT NULL DEFAULT 0;
        """
}
