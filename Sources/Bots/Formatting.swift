/// A number for people: no trailing `.0` on whole numbers.
func formatNumber(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}

/// A number with `digits` decimals.
func formatFixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int64(scaled / scale)
    var fraction = String(Int64(scaled) - whole * Int64(scale))
    while fraction.count < digits { fraction = "0" + fraction }
    let sign = value < 0 && scaled > 0 ? "-" : ""
    return digits == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
}

/// A latency: `850us`, `1.23ms`, `2.50s`.
func formatMicroseconds(_ microseconds: UInt64) -> String {
    if microseconds < 1000 { return "\(microseconds)us" }
    if microseconds < 1_000_000 { return formatFixed(Double(microseconds) / 1000, 2) + "ms" }
    return formatFixed(Double(microseconds) / 1e6, 2) + "s"
}

/// A size: `512 B`, `1.5 KiB`, `12.3 MiB`.
func formatBytes(_ bytes: Double) -> String {
    let magnitude = abs(bytes)
    if magnitude < 1024 { return formatFixed(bytes, 0) + " B" }
    if magnitude < 1024 * 1024 { return formatFixed(bytes / 1024, 1) + " KiB" }
    if magnitude < 1024 * 1024 * 1024 { return formatFixed(bytes / 1024 / 1024, 1) + " MiB" }
    return formatFixed(bytes / 1024 / 1024 / 1024, 2) + " GiB"
}

/// `text` right-aligned in `width` columns.
func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

/// `text` left-aligned in `width` columns.
func padRight(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
