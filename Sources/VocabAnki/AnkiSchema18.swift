import VocabCore

/// Note types, decks and deck options of a collection in Anki's current format (schema 18: a
/// row each, its settings a protobuf message) as the JSON Anki's sync protocol carries them
/// (their schema 11 form, with the same names and defaults Anki writes when it goes back to
/// schema 11). What a message holds beyond the names known here (its `other`, JSON) is merged
/// in as Anki merges it, so nothing an app keeps there is lost.
enum AnkiSchema18 {
    /// A float as the JSON number Anki writes (its shortest form: 0.9, not 0.8999999761581421).
    static func number(_ value: Float) -> JSONValue { .double(Double(value.description) ?? Double(value)) }

    static func floats(_ values: [Float]) -> JSONValue { .array(values.map(number)) }

    /// `base` with the members of a message's `other` (JSON bytes) added, the reserved left out.
    static func merged(_ base: [(String, JSONValue)], other: [UInt8]?) -> JSONValue {
        var members = base
        if let other, !other.isEmpty, case .object(let extra)? = try? JSONParser.parse(other) {
            let taken = Set(members.map(\.0))
            members += extra.filter { !taken.contains($0.0) }
        }
        return .object(members)
    }

    // MARK: Note types

    /// A note type from its row, its fields' rows (ord, name, config) and its templates' rows
    /// (ord, name, config), in order.
    static func noteType(id: Int64, name: String, modified: Int64, usn: Int64, config: ProtobufFields,
                         fields: [(ord: Int64, name: String, config: ProtobufFields)],
                         templates: [(ord: Int64, name: String, config: ProtobufFields)]) -> JSONValue {
        let kinds = ["none", "any", "all"]
        let requirements: [JSONValue] = config.bytes(8).compactMap { try? ProtobufFields($0) }.map { requirement in
            .array([.int(requirement.int(1)), .string(kinds[min(Int(requirement.int(2)), 2)]),
                    .array(requirement.varints(3).map { .int(Int64($0)) })])
        }
        var members: [(String, JSONValue)] = [
            ("id", .int(id)), ("name", .string(name)), ("type", .int(config.int(1))), ("mod", .int(modified)), ("usn", .int(usn)),
            ("sortf", .int(config.int(2))), ("did", config.int(4) == 0 ? .null : .int(config.int(4))),
            ("tmpls", .array(templates.map(template))), ("flds", .array(fields.map(field))),
            ("css", .string(config.string(3) ?? "")), ("latexPre", .string(config.string(5) ?? "")),
            ("latexPost", .string(config.string(6) ?? "")), ("latexsvg", .bool(config.bool(7))), ("req", .array(requirements)),
        ]
        if config.int(9) != 0 { members.append(("originalStockKind", .int(config.int(9)))) }
        if config.has(10) { members.append(("originalId", .int(config.int(10)))) }
        return merged(members, other: config.bytes(255).last)
    }

    private static func field(_ row: (ord: Int64, name: String, config: ProtobufFields)) -> JSONValue {
        let c = row.config
        return merged([
            ("name", .string(row.name)), ("ord", .int(row.ord)), ("sticky", .bool(c.bool(1))), ("rtl", .bool(c.bool(2))),
            ("font", .string(c.string(3) ?? "")), ("size", .int(c.int(4))), ("description", .string(c.string(5) ?? "")),
            ("plainText", .bool(c.bool(6))), ("collapsed", .bool(c.bool(7))), ("excludeFromSearch", .bool(c.bool(8))),
            ("id", c.has(9) ? .int(c.int(9)) : .null), ("tag", c.has(10) ? .int(c.int(10)) : .null),
            ("preventDeletion", .bool(c.bool(11))),
        ], other: c.bytes(255).last)
    }

    private static func template(_ row: (ord: Int64, name: String, config: ProtobufFields)) -> JSONValue {
        let c = row.config
        return merged([
            ("name", .string(row.name)), ("ord", .int(row.ord)), ("qfmt", .string(c.string(1) ?? "")), ("afmt", .string(c.string(2) ?? "")),
            ("bqfmt", .string(c.string(3) ?? "")), ("bafmt", .string(c.string(4) ?? "")), ("did", c.int(5) > 0 ? .int(c.int(5)) : .null),
            ("bfont", .string(c.string(6) ?? "")), ("bsize", .int(c.int(7))), ("id", c.has(8) ? .int(c.int(8)) : .null),
        ], other: c.bytes(255).last)
    }

    // MARK: Decks

    /// A deck from its row: its name with `::` between levels, what it shares with every deck
    /// (`common`) and its kind (a normal deck, or a filtered one).
    static func deck(id: Int64, name: String, modified: Int64, usn: Int64, common: ProtobufFields, kind: ProtobufFields) -> JSONValue {
        let day = common.int(3)
        var members: [(String, JSONValue)] = [
            ("id", .int(id)), ("mod", .int(modified)), ("name", .string(name.replacingText("\u{1F}", with: "::"))), ("usn", .int(usn)),
            ("lrnToday", .array([.int(day), .int(common.int(6))])), ("revToday", .array([.int(day), .int(common.int(5))])),
            ("newToday", .array([.int(day), .int(common.int(4))])), ("timeToday", .array([.int(day), .int(common.int(7))])),
            ("collapsed", .bool(common.bool(1))), ("browserCollapsed", .bool(common.bool(2))),
        ]
        if let filtered = kind.message(2) {
            members += [
                ("desc", .string("")), ("dyn", .int(1)), ("resched", .bool(filtered.bool(1))),
                ("terms", .array(filtered.bytes(2).compactMap { try? ProtobufFields($0) }.map { term in
                    .array([.string(term.string(1) ?? ""), .int(term.int(2)), .int(term.int(3))])
                })),
                ("separate", .bool(true)), ("delays", filtered.floats(3).isEmpty ? .null : floats(filtered.floats(3))),
                ("previewDelay", .int(filtered.int(4))), ("previewAgainSecs", .int(filtered.int(7))),
                ("previewHardSecs", .int(filtered.int(5))), ("previewGoodSecs", .int(filtered.int(6))),
            ]
        } else {
            let normal = kind.message(1) ?? .empty
            func dayLimit(_ number: Int) -> JSONValue {
                guard let limit = normal.message(number) else { return .null }
                return .object([("limit", .int(limit.int(1))), ("today", .int(limit.int(2)))])
            }
            members.append(("desc", .string(normal.string(4) ?? "")))
            if normal.bool(5) { members.append(("md", .bool(true))) }
            members += [
                ("dyn", .int(0)), ("conf", .int(normal.int(1))), ("extendNew", .int(normal.int(2))), ("extendRev", .int(normal.int(3))),
                ("reviewLimit", normal.has(6) ? .int(normal.int(6)) : .null), ("newLimit", normal.has(7) ? .int(normal.int(7)) : .null),
                ("reviewLimitToday", dayLimit(8)), ("newLimitToday", dayLimit(9)),
                ("desiredRetention", normal.has(10) ? number(normal.float(10)) : .null),
            ]
        }
        return merged(members, other: common.bytes(255).last)
    }

    // MARK: Deck options

    /// Deck options from their row: the settings grouped as schema 11 groups them (new cards,
    /// reviews, lapses), the 2021 scheduler's and FSRS's beside them.
    static func deckConfig(id: Int64, name: String, modified: Int64, usn: Int64, config c: ProtobufFields) -> JSONValue {
        var other: [(String, JSONValue)] = []
        if let bytes = c.bytes(255).last, !bytes.isEmpty, case .object(let members)? = try? JSONParser.parse(bytes) { other = members }
        func extra(_ group: String) -> [(String, JSONValue)] {
            guard case .object(let members)? = other.first(where: { $0.0 == group })?.1 else { return [] }
            return members
        }
        func group(_ base: [(String, JSONValue)], _ name: String) -> JSONValue {
            let taken = Set(base.map(\.0))
            return .object(base + extra(name).filter { !taken.contains($0.0) })
        }
        let new = group([
            ("bury", .bool(c.bool(27))), ("delays", floats(c.floats(1))), ("initialFactor", .int(Int64((c.float(11) * 1000).rounded()))),
            ("ints", .array([.int(c.int(18)), .int(c.int(19)), .int(0)])), ("order", .int(c.int(20) == 1 ? 0 : 1)),
            ("perDay", .int(c.int(9))),
        ], "new")
        let rev = group([
            ("bury", .bool(c.bool(28))), ("ease4", number(c.float(12))), ("ivlFct", number(c.float(15))), ("maxIvl", .int(c.int(16))),
            ("perDay", .int(c.int(10))), ("hardFactor", number(c.float(13))),
        ], "rev")
        let lapse = group([
            ("delays", floats(c.floats(2))), ("leechAction", .int(c.int(21))), ("leechFails", .int(c.int(22))),
            ("minInt", .int(c.int(17))), ("mult", number(c.float(14))),
        ], "lapse")
        let members: [(String, JSONValue)] = [
            ("id", .int(id)), ("mod", .int(modified)), ("name", .string(name)), ("usn", .int(usn)),
            ("maxTaken", .int(c.int(24))), ("autoplay", .bool(!c.bool(23))), ("timer", .int(c.bool(25) ? 1 : 0)),
            ("replayq", .bool(!c.bool(26))), ("new", new), ("rev", rev), ("lapse", lapse), ("dyn", .bool(false)),
            ("newMix", .int(c.int(30))), ("newPerDayMinimum", .int(c.int(35))), ("interdayLearningMix", .int(c.int(31))),
            ("reviewOrder", .int(c.int(33))), ("newSortOrder", .int(c.int(32))), ("newGatherPriority", .int(c.int(34))),
            ("buryInterdayLearning", .bool(c.bool(29))), ("fsrsWeights", floats(c.floats(3))), ("fsrsParams5", floats(c.floats(5))),
            ("fsrsParams6", floats(c.floats(6))), ("desiredRetention", number(c.float(37))),
            ("ignoreRevlogsBeforeDate", .string(c.string(46) ?? "")), ("easyDaysPercentages", floats(c.floats(4))),
            ("stopTimerOnAnswer", .bool(c.bool(38))), ("secondsToShowQuestion", number(c.float(41))),
            ("secondsToShowAnswer", number(c.float(42))), ("questionAction", .int(c.int(36))), ("answerAction", .int(c.int(43))),
            ("waitForAudio", .bool(c.bool(44))), ("sm2Retention", number(c.float(40))), ("weightSearch", .string(c.string(45) ?? "")),
        ]
        let taken = Set(members.map(\.0))
        return .object(members + other.filter { !taken.contains($0.0) && !["new", "rev", "lapse"].contains($0.0) })
    }
}
