/// A different word of ten letters a-z for every number below 26^10: its digits in base 26.
///
/// Word lists of any length for tests of the custom-list limits, with no word repeated and none a real word the
/// built-in lists could hold.
public func tenLetterWord(_ number: Int) -> String {
    var rest = number
    var word = ""
    for _ in 0..<10 {
        word.append(Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(rest % 26))))
        rest /= 26
    }
    return word
}
