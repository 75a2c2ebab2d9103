/// A value handed to one thread that is its only user until that thread is done with it (a
/// connection lent to the outcome writer, or to a due page read ahead). Unchecked `Sendable`:
/// what it lends is a connection over a C handle, which is not.
final class ThreadOwned<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
