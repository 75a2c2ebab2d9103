import Testing

@testable import PostgresClient

/// The classification of SQLSTATEs into what they mean for a caller (the codes a test cannot
/// easily make a real server send: a crash shutdown, a disk full, corruption, ...).
@Suite struct PostgresErrorKindTests {
    @Test(arguments: [
        ("08006", PostgresError.Kind.unreachable), ("08001", .unreachable), ("08003", .unreachable),
        ("57P01", .unreachable), ("57P02", .unreachable), ("57P03", .unreachable),
        ("08P01", .other),
        ("28P01", .authentication), ("28000", .authentication),
        ("3D000", .missingDatabase), ("42501", .insufficientPrivilege), ("25006", .readOnly),
        ("55P03", .busy), ("40001", .busy), ("40P01", .busy), ("53300", .busy), ("57014", .busy),
        ("53100", .full), ("53200", .full), ("53400", .full),
        ("XX001", .corrupt), ("XX002", .corrupt), ("XX000", .other),
        ("23505", .constraintViolation), ("23503", .constraintViolation), ("23502", .constraintViolation),
        ("42P01", .other), ("42601", .other), ("22P02", .other),
    ])
    func eachSQLSTATEHasItsKind(sqlstate: String, kind: PostgresError.Kind) {
        #expect(PostgresError(sqlstate: sqlstate, message: "m", sql: nil).kind == kind)
    }

    @Test func aMissingRoleIsToldFromARefusedLoginByTheMessage() {
        #expect(PostgresError(sqlstate: "28000", message: "role \"x\" does not exist", sql: nil).kind == .missingRole)
        #expect(
            PostgresError(sqlstate: "28000", message: "no pg_hba.conf entry for host \"[local]\"", sql: nil).kind
                == .authentication)
    }

    @Test func aVerboseConnectMessageGivesUpItsSQLSTATEAndLosesItsLocation() {
        let (sqlstate, message) = PostgresConnection.withoutCodeAndLocation(
            "connection to server on socket \"/tmp/s/.s.PGSQL.5432\" failed: FATAL:  3D000: database \"x\" does not exist\nLOCATION:  InitPostgres, postinit.c:941\n"
        )
        #expect(sqlstate == "3D000")
        #expect(
            message == "connection to server on socket \"/tmp/s/.s.PGSQL.5432\" failed: FATAL:  database \"x\" does not exist")
        let plain = PostgresConnection.withoutCodeAndLocation(
            "connection to server on socket \"/x/.s.PGSQL.5432\" failed: No such file or directory\n\tIs the server running locally and accepting connections on that socket?\n"
        )
        #expect(plain.sqlstate == nil)
        #expect(
            plain.message.hasSuffix(
                "No such file or directory Is the server running locally and accepting connections on that socket?"))
    }
}
