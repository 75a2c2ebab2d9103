/// Push tokens for tests: 64 lowercase hex characters, distinct per seed.
public func sampleToken(_ seed: Int) -> String {
    let hex = String(seed, radix: 16)
    return String(repeating: "a", count: 64 - hex.count) + hex
}
