import XCTest
@testable import VocabArchives

/// The small rules of reading a sheet's cells, on values no well-made workbook holds.
final class XLSXCellTests: XCTestCase {
    func testCellReferencesGiveColumnsAndAbsurdOnesNone() {
        XCTAssertEqual(XLSXSheet.column(of: "A1"), 0)
        XCTAssertEqual(XLSXSheet.column(of: "B7"), 1)
        XCTAssertEqual(XLSXSheet.column(of: "AA10"), 26)
        XCTAssertEqual(XLSXSheet.column(of: "XFD1"), 16_383)
        XCTAssertNil(XLSXSheet.column(of: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1"), "no overflow, no column")
        XCTAssertNil(XLSXSheet.column(of: "12"))
        XCTAssertNil(XLSXSheet.column(of: nil))
    }

    func testDateFormatsAreTheBuiltInOnesOrCodesWithDayMonthOrYear() {
        XCTAssertTrue(XLSXSheet.isDateFormat(14, code: nil))
        XCTAssertTrue(XLSXSheet.isDateFormat(164, code: "yyyy-mm-dd"))
        XCTAssertFalse(XLSXSheet.isDateFormat(165, code: "0.00\"d\""), "a quoted d is text")
        XCTAssertFalse(XLSXSheet.isDateFormat(166, code: "[Red]0"), "a bracketed colour is not a date")
        XCTAssertFalse(XLSXSheet.isDateFormat(2, code: nil))
    }
}
