import Synchronization

/// A number that moves with every commit to the store (the pool's own and other processes'):
/// an open page polls it cheaply and reads again only when it moved.
public final class ChangeCounter: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    public var value: Int { count.load(ordering: .relaxed) }

    public func bump() { count.add(1, ordering: .relaxed) }
}
