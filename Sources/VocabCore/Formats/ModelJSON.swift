import FoundationEssentials

/// The JSON shapes of books and words, with the field names of DESIGN.md §9.
extension Word {
    /// Every field (`WordFields`, times in ISO 8601); `book` is the book's name, after its id,
    /// for people reading the output.
    public func json(bookName: String?) -> JSONValue {
        var members: [(String, JSONValue)] = []
        for field in WordFields.all {
            let value: JSONValue
            switch field.read(self) {
            case .text(let text): value = .string(text)
            case .id(let id): value = .string(id.lowercaseText)
            case .time(let time): value = .string(time.iso8601)
            case .flag(let flag): value = .bool(flag)
            case .bytes: continue
            }
            members.append((field.name, value))
            if field.name == "bookId", let bookName { members.append(("book", .string(bookName))) }
        }
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
