import APNsHTTP2
import LiveActivityDomain
import TestSupport
import Testing

/// A token of its own for push `number`.
func token(_ number: Int) -> PushToken { PushToken(trusted: testToken(number)) }

/// The bundle id of the stand-in's app (`TestKey`'s default): the topic of the tests' pushes.
let bundleID = "com.example.betterblue"

/// One push per number, its id the number, for the stand-in's app.
func pushes(_ numbers: some Sequence<Int>, expiration: Int64 = 1) -> [APNsPush] {
    numbers.map { APNsPush(id: $0, token: token($0), bundleID: bundleID, expiration: expiration) }
}

/// Every answer of `client`, driven with `next()` until nothing is left; no push may finish twice.
func drain(_ client: APNsClient) throws -> [Int: APNsAnswer] {
    var answers: [Int: APNsAnswer] = [:]
    while let completion = try client.next() {
        #expect(answers[completion.id] == nil, "push \(completion.id) finished twice")
        answers[completion.id] = completion.answer
    }
    return answers
}
