import JSON

/// `null` for a missing value: optional fields are always present on the wire, so patches replace rather than add.
func nullable(_ value: String?) -> JSONValue { value.map { JSONValue($0) } ?? .null }
func nullable(_ value: Int?) -> JSONValue { value.map { JSONValue($0) } ?? .null }
func nullable(_ value: Double?) -> JSONValue { value.map { JSONValue($0) } ?? .null }
