/// Removes the masking of a single complete frame: clears the mask bit, drops the key, unmasks the payload, so that
/// client-role frames (masked with random keys) compare deterministically.
public func unmaskFrame(_ frame: [UInt8]) -> [UInt8] {
    guard frame.count >= 2, frame[1] & 0x80 != 0 else { return frame }
    let short = Int(frame[1] & 0x7F)
    let lengthBytes = short == 127 ? 8 : (short == 126 ? 2 : 0)
    let keyStart = 2 + lengthBytes
    let key = Array(frame[keyStart ..< keyStart + 4])
    var result = Array(frame[..<keyStart])
    result[1] &= 0x7F
    for (index, byte) in frame[(keyStart + 4)...].enumerated() {
        result.append(byte ^ key[index % 4])
    }
    return result
}
