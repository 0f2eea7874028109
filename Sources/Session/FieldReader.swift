/// Reads typed fields out of a parsed preset, tracking the JSON field path for errors.
struct FieldReader {
    /// The file name used in every message.
    let file: String

    func fail(_ path: String, _ message: String) -> SessionError {
        .preset(file: file, field: path, message: message)
    }

    /// The members of an object, rejecting any field not in `allowed`.
    func object(_ value: JSONValue, at path: String, allowed: [String]) throws(SessionError) -> [String: JSONValue] {
        guard case .object(let members) = value else {
            throw fail(path, "expected an object ({ … }), found \(value.typeName)")
        }
        var result: [String: JSONValue] = [:]
        for member in members {
            guard allowed.contains(member.key) else {
                let where_ = path.isEmpty ? member.key : "\(path).\(member.key)"
                throw fail(where_, "unknown field; accepted fields here: \(allowed.joined(separator: ", "))")
            }
            result[member.key] = member.value
        }
        return result
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// A number in `range`, or `fallback` when the field is absent.
    func number(_ fields: [String: JSONValue], _ key: String, in path: String, range: ClosedRange<Double>,
                unit: String, default fallback: Double) throws(SessionError) -> Double {
        let where_ = Self.join(path, key)
        guard let value = fields[key] else { return fallback }
        guard case .number(let number) = value else {
            throw fail(where_, "expected a number (\(Limits.text(range, unit: unit))), found \(value.typeName)")
        }
        guard range.contains(number) else {
            throw fail(where_, "\(Format.plain(number)) is out of range; accepted: \(Limits.text(range, unit: unit))")
        }
        return number
    }

    /// A whole number in `range`, or `fallback` when absent.
    func integer(_ fields: [String: JSONValue], _ key: String, in path: String, range: ClosedRange<Int>,
                 default fallback: Int) throws(SessionError) -> Int {
        let where_ = Self.join(path, key)
        guard let value = fields[key] else { return fallback }
        guard case .number(let number) = value else {
            throw fail(where_, "expected a whole number (\(Limits.text(range))), found \(value.typeName)")
        }
        guard number == number.rounded(), number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw fail(where_, "\(Format.plain(number)) is not accepted; expected a whole number in \(Limits.text(range))")
        }
        return Int(number)
    }

    /// A boolean, or `fallback` when absent.
    func boolean(_ fields: [String: JSONValue], _ key: String, in path: String, default fallback: Bool) throws(SessionError) -> Bool {
        guard let value = fields[key] else { return fallback }
        guard case .bool(let flag) = value else {
            throw fail(Self.join(path, key), "expected true or false, found \(value.typeName)")
        }
        return flag
    }

    /// A string, or `fallback` when absent.
    func string(_ fields: [String: JSONValue], _ key: String, in path: String, default fallback: String?,
                expected: String = "a string") throws(SessionError) -> String? {
        let where_ = Self.join(path, key)
        guard let value = fields[key] else { return fallback }
        guard case .string(let text) = value else {
            throw fail(where_, "expected \(expected), found \(value.typeName)")
        }
        return text
    }

    /// A string that must be one of `choices`.
    func choice(_ fields: [String: JSONValue], _ key: String, in path: String, choices: [String],
                default fallback: String) throws(SessionError) -> String {
        let text = try string(fields, key, in: path, default: fallback, expected: "one of \(choices.joined(separator: ", "))")!
        guard choices.contains(text) else {
            throw fail(Self.join(path, key), "\"\(text)\" is not accepted; expected one of: \(choices.joined(separator: ", "))")
        }
        return text
    }

    /// A list of distinct whole numbers from `range`, between 1 and `maximumCount` long.
    func integerList(_ fields: [String: JSONValue], _ key: String, in path: String, range: ClosedRange<Int>,
                     maximumCount: Int, default fallback: [Int], what: String) throws(SessionError) -> [Int] {
        let where_ = Self.join(path, key)
        guard let value = fields[key] else { return fallback }
        guard case .array(let elements) = value else {
            throw fail(where_, "expected an array of \(what) (\(Limits.text(range))), found \(value.typeName)")
        }
        guard !elements.isEmpty else { throw fail(where_, "must list at least one \(what) (\(Limits.text(range)))") }
        guard elements.count <= maximumCount else { throw fail(where_, "lists \(elements.count) entries; at most \(maximumCount)") }
        var result: [Int] = []
        for (index, element) in elements.enumerated() {
            guard case .number(let number) = element, number == number.rounded(),
                  number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
                throw fail("\(where_)[\(index)]", "expected a whole number in \(Limits.text(range)), found \(element.typeName == "a number" ? describe(element) : element.typeName)")
            }
            guard !result.contains(Int(number)) else { throw fail("\(where_)[\(index)]", "\(Int(number)) is listed twice") }
            result.append(Int(number))
        }
        return result
    }

    private func describe(_ value: JSONValue) -> String {
        if case .number(let n) = value { return Format.plain(n) }
        return value.typeName
    }

    /// An optional sub-object: absent gives `fallback`, `false` or `null` gives nil (switched off).
    func optionalBlock(_ fields: [String: JSONValue], _ key: String) -> (present: Bool, value: JSONValue?) {
        guard let value = fields[key] else { return (false, nil) }
        switch value {
        case .null, .bool(false): return (true, nil)
        default: return (true, value)
        }
    }
}
