/// Push tokens for tests: 64 lowercase hex characters, distinct per seed, easy to read
/// (`ab00…0` followed by the seed in hex).
public func sampleToken(_ seed: Int) -> String {
    let hex = String(seed, radix: 16)
    return "ab" + String(repeating: "0", count: 62 - hex.count) + hex
}

/// Push tokens for tests: 64 lowercase hex digits derived from `seed`, distinct per seed.
public func testToken(_ seed: Int, length: Int = 64) -> String {
    let hex = Array("0123456789abcdef")
    var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
    return String(
        (0..<length).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return hex[Int(state >> 60)]
        })
}
