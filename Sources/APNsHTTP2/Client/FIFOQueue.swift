/// A first-in first-out queue over an array with a moving head, compacted as it drains, so
/// queueing 100,000 pushes and taking them one by one stays linear.
struct FIFOQueue<Element> {
    private var storage: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == storage.count }
    var count: Int { storage.count - head }

    mutating func append(_ element: Element) { storage.append(element) }

    mutating func append(contentsOf elements: some Sequence<Element>) { storage.append(contentsOf: elements) }

    /// Puts `element` before everything queued.
    mutating func prepend(_ element: Element) {
        if head > 0 {
            head -= 1
            storage[head] = element
        } else {
            storage.insert(element, at: 0)
        }
    }

    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Empties the queue, returning what was in it, in order.
    mutating func removeAll() -> [Element] {
        let rest = Array(storage[head...])
        storage.removeAll()
        head = 0
        return rest
    }

    /// Takes out the elements `matching` says, returning them in order; the rest keep theirs.
    mutating func remove(where matching: (Element) -> Bool) -> [Element] {
        var kept: [Element] = []
        var taken: [Element] = []
        for element in storage[head...] {
            if matching(element) { taken.append(element) } else { kept.append(element) }
        }
        storage = kept
        head = 0
        return taken
    }
}
