import Foundation
import XCTest

/// vocab-bench records every target it prints (a missed one fails the run): each benchmark's
/// file calls `BenchChecks.target` (or a check naming its target) at least as often as its
/// figures print a target. Issue 54 found a dozen printed and never recorded.
final class BenchTargetsTests: XCTestCase {
    func testEveryBenchmarkRecordsTheTargetsItPrints() throws {
        let folder = VocabRunner.repository + "/Sources/vocab-bench"
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix("Benchmark.swift") {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            // Every target a line prints counts (once a line printing four counted as one).
            let printed = text.split(separator: "\n").filter { !$0.contains("BenchChecks.") }
                .reduce(0) { $0 + $1.matches(of: #/\(target[ :<>]|target [<>]=?/#).count }
            let recorded = text.matches(of: #/BenchChecks\.target\(|BenchChecks\.require\([^\n]*target/#).count
            XCTAssertGreaterThanOrEqual(recorded, printed, "\(name) prints \(printed) targets and records \(recorded)")
            checked += printed
        }
        XCTAssertGreaterThan(checked, 20, "the benchmarks' targets were found")
    }
}
