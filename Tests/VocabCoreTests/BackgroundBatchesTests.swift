import XCTest
@testable import VocabCore

final class BackgroundBatchesTests: XCTestCase {
    private struct Broken: Error {}

    func testBatchesComeInOrderAndTheProducersErrorAfterThoseBeforeIt() throws {
        let batches = BackgroundBatches<Int>(ahead: 2) { hand in
            for number in 1...10 { _ = hand(number) }
            throw Broken()
        }
        defer { batches.finish() }
        var seen: [Int] = []
        XCTAssertThrowsError(try { while let number = try batches.next() { seen.append(number) } }()) { error in
            XCTAssertTrue(error is Broken)
        }
        XCTAssertEqual(seen, Array(1...10))
        XCTAssertNil(try batches.next(), "after its error, nothing more")
    }

    func testFinishingEarlyStopsTheProducerWhileItWaits() throws {
        let handed = LockedCounter()
        let batches = BackgroundBatches<Int>(ahead: 1) { hand in
            for number in 1... {
                guard hand(number) else { return }
                handed.add()
            }
        }
        XCTAssertEqual(try batches.next(), 1)
        batches.finish()  // returns only when the producer has returned
        XCTAssertLessThanOrEqual(handed.value, 3, "a producer one batch ahead stops at once")
    }
}

private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
