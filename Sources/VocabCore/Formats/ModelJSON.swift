import Foundation

/// The JSON shapes of books and words, with the field names of DESIGN.md §9.
extension Word {
    /// `book` is the book's name, included for people reading the output.
    public func json(bookName: String?) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(id.lowercaseText)),
            ("bookId", .string(bookId.lowercaseText)),
        ]
        if let bookName { members.append(("book", .string(bookName))) }
        members += [
            ("word", .string(word)),
            ("definition", .string(definition)),
            ("detail", .string(detail)),
            ("pronunciation", .string(pronunciation)),
            ("synonym", .string(synonym)),
            ("antonym", .string(antonym)),
            ("date", .string(date.iso8601)),
            ("memorized", .bool(memorized)),
            ("createdAt", .string(createdAt.iso8601)),
            ("modifiedAt", .string(modifiedAt.iso8601)),
        ]
        return .object(members)
    }
}

extension Book {
    /// With `includeImage`, the cover image travels as base64 (`image`); otherwise only its
    /// type and size are given.
    public func json(wordCount: Int? = nil, memorizedCount: Int? = nil, includeImage: Bool = false) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(id.lowercaseText)),
            ("name", .string(name)),
            ("explain", .string(explain)),
            ("meaning", .string(meaning)),
            ("coverWord", .string(coverWord)),
            ("imageType", imageKind.map { .string($0.rawValue) } ?? .null),
            ("imageBytes", .int(Int64(image?.count ?? 0))),
        ]
        if includeImage {
            members.append(("image", image.map { .string(Base64.encode($0)) } ?? .null))
        }
        if let wordCount { members.append(("wordCount", .int(Int64(wordCount)))) }
        if let memorizedCount { members.append(("memorizedCount", .int(Int64(memorizedCount)))) }
        members += [
            ("createdAt", .string(createdAt.iso8601)),
            ("modifiedAt", .string(modifiedAt.iso8601)),
        ]
        return .object(members)
    }
}

/// Base64 through Foundation, kept behind one name.
public enum Base64 {
    public static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    public static func decode(_ text: String) -> [UInt8]? {
        Data(base64Encoded: text).map { [UInt8]($0) }
    }
}
