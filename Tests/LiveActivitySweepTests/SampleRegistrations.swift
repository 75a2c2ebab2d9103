import TestSupport

@testable import LiveActivityDomain
@testable import LiveActivityStore

/// Registers the sample tokens of `seeds` (charging) in `environment` at `time`, as the API does,
/// in the database of `configuration`.
func registerCharging(
    _ seeds: some Sequence<Int>, _ environment: APNsEnvironment = .production, at time: Int64,
    in configuration: Configuration
) throws {
    let store = try RegistrationStore(path: configuration.databasePath)
    for seed in seeds {
        try store.register(
            try PushToken(validating: sampleToken(seed)), type: .charging, environment: environment, now: time,
            expiresAt: time + configuration.expiryMilliseconds, cap: 100_000)
    }
}
