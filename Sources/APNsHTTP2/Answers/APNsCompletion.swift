/// A finished push: the caller's id for it and its answer.
public struct APNsCompletion: Sendable, Equatable {
    public var id: Int
    public var answer: APNsAnswer

    public init(id: Int, answer: APNsAnswer) {
        self.id = id
        self.answer = answer
    }
}
