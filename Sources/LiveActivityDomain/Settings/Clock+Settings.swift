extension Clock {
    /// The largest `LIVEACTIVITY_TEST_CLOCK_OFFSET`: a year, in seconds. Tests move the clock by
    /// minutes to weeks; nothing a test needs comes near it, and no value can overflow milliseconds.
    public static let maximumTestOffsetSeconds = 366.0 * 86_400

    /// The clock the settings ask for: the wall clock, moved by `LIVEACTIVITY_TEST_CLOCK_OFFSET`
    /// seconds when a test sets it.
    public init(settings: Settings) throws(ConfigurationError) {
        let bound = Self.maximumTestOffsetSeconds
        guard let seconds = try settings.number("LIVEACTIVITY_TEST_CLOCK_OFFSET", in: -bound...bound, unit: "seconds")
        else {
            self.init()
            return
        }
        self.init(offsetMilliseconds: Int64(seconds * 1000))
    }
}
