extension Clock {
    /// The clock the settings ask for: the wall clock, moved by `LIVEACTIVITY_TEST_CLOCK_OFFSET`
    /// seconds when a test sets it.
    public init(settings: Settings) throws(ConfigurationError) {
        guard let offset = settings.text("LIVEACTIVITY_TEST_CLOCK_OFFSET") else {
            self.init()
            return
        }
        // Bounded (ten years either way), so no value can overflow the conversion to milliseconds.
        guard let seconds = Double(offset), seconds.isFinite, abs(seconds) <= 10 * 365 * 86_400 else {
            throw .malformed(name: "LIVEACTIVITY_TEST_CLOCK_OFFSET", expected: "seconds")
        }
        self.init(offsetMilliseconds: Int64(seconds * 1000))
    }
}
