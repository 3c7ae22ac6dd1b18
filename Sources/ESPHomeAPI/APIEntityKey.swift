/// How ESPHome names an entity to its clients: its object id, made from its name, and its key, made
/// from the object id. A key only has to be unique among the device's entities of one type; Home
/// Assistant keys an entity's unique id by the device's MAC address, the type and the object id
/// (`AA:BB:CC:DD:EE:FF-binary_sensor-front_door`), so both stay what they are as long as the name does.
package enum APIEntityKey {
    /// ESPHome's object id of a name (its C++ `str_snake_case` then `str_sanitize`, byte by byte over
    /// the UTF-8): ASCII letters in lower case, a space as `_`, and every other byte but digits, `_`
    /// and `-` as `_` (so `Tür` is `t__r`: `ü` is two bytes).
    package static func objectID(of name: String) -> String {
        let bytes = name.utf8.map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): byte
            default: UInt8(ascii: "_")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ESPHome's key of an object id: its 32-bit FNV-1 hash (`fnv1_hash`: multiply, then exclusive-or,
    /// over its UTF-8 bytes).
    package static func key(ofObjectID objectID: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in objectID.utf8 {
            hash = hash &* 16_777_619
            hash ^= UInt32(byte)
        }
        return hash
    }
}
