import DebounceCore
import SystemPackage

/// Reading the header: timescale, scopes, variables, and the choice of the channel.
extension VCDReader {
    // MARK: Header

    /// Reads the header and chooses the channel, if not done yet (`open` and the first `next()` call it).
    public func readHeader() throws(TraceError) {
        guard !headerRead else { return }
        // The enclosing scopes' names, and their path `top.sub` (one string, shared by the channels in it).
        var scopes: [String] = []
        var scopePath = ""
        var first = true
        while true {
            guard try nextToken() else { throw malformed(VCDProblem.truncatedHeader, text: "") }
            if first {
                first = false
                if skipByteOrderMark(), tokenCount == 0 { continue }
            }
            if tokenIs("$enddefinitions") {
                try skipBlock("$enddefinitions")
                break
            } else if tokenIs("$timescale") {
                try readTimescale()
            } else if tokenIs("$scope") {
                let keywordLine = lineNumber
                let words = try blockWords("$scope", limit: 3)
                scopes.append(Self.text(words.count >= 2 ? words[1] : words.first ?? []))
                scopePath = scopes.joined(separator: ".")
                if scopePath.utf8.count > Self.maximumScopeBytes {
                    throw malformed(VCDProblem.scopeTooLong(Self.maximumScopeBytes), text: "$scope", line: keywordLine)
                }
            } else if tokenIs("$upscope") {
                try skipBlock("$upscope")
                _ = scopes.popLast()
                scopePath = scopes.joined(separator: ".")
            } else if tokenIs("$var") {
                let keywordLine = lineNumber
                guard channels.count < Self.maximumChannels else {
                    throw malformed(VCDProblem.tooManyChannels(Self.maximumChannels), text: "$var", line: keywordLine)
                }
                let words = try blockWords("$var", limit: 8)
                guard words.count >= 4, let width = Int(Self.text(words[1])), width > 0 else {
                    throw malformed(VCDProblem.badVar)
                }
                channels.append(
                    VCDChannel(
                        name: words[3...].map(Self.text).joined(), scope: scopePath, type: Self.text(words[0]), width: width,
                        identifier: Self.text(words[2])))
                identifierBytes.append(words[2])
            } else if tokenIs("$dumpvars") || tokenIs("$dumpall") || tokenIs("$dumpon") || tokenIs("$dumpoff")
                || token[0] == UInt8(ascii: "#")
            {
                throw malformed(VCDProblem.valuesInHeader)
            } else if token[0] == UInt8(ascii: "$"), !tokenIs("$end") {
                // $comment, $date, $version, and extensions such as $timezero or $attrbegin.
                try skipBlock(tokenText)
            } else {
                throw malformed(VCDProblem.notVCD)
            }
        }
        let oneBitCount = channels.count(where: \.isOneBit)
        if requestedChannels.count > 1, oneBitCount < requestedChannels.count {
            throw malformed(
                VCDProblem.tooFewChannels(oneBitCount, Self.list(channels.filter(\.isOneBit)), wanted: requestedChannels.count),
                text: "$enddefinitions")
        }
        var chosen: [Int] = []
        for wanted in requestedChannels.isEmpty ? [requestedChannel] : requestedChannels.map(Optional.some) {
            let index = try choose(wanted)
            if let same = chosen.first(where: { identifierBytes[$0] == identifierBytes[index] }) {
                throw malformed(
                    VCDProblem.sameChannel(requestedChannels[chosen.count], channels[same].fullName), text: "$enddefinitions")
            }
            chosen.append(index)
        }
        chosenChannels = chosen.map { channels[$0] }
        channel = chosenChannels.first
        chosenIdentifiers = chosen.map { identifierBytes[$0] }
        levels = Array(repeating: nil, count: chosen.count)
        headerRead = true
    }

    /// Skips a UTF-8 byte order mark at the start of the current token; whether there was one.
    func skipByteOrderMark() -> Bool {
        let bytes = token
        guard !tokenIsLong, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF else { return false }
        tokenStart += 3
        return true
    }

    var tokenCount: Int { tokenIsLong ? Int.max : tokenEnd - tokenStart }

    /// The words of a block up to its `$end`, byte for byte (at most `limit` words of at most
    /// `maximumNameBytes` each, or it is malformed).
    func blockWords(_ keyword: String, limit: Int) throws(TraceError) -> [[UInt8]] {
        var words: [[UInt8]] = []
        while true {
            guard try nextToken() else { throw malformed(VCDProblem.unterminated(keyword), text: "") }
            if tokenIs("$end") { return words }
            if tokenIsLong { throw malformed(VCDProblem.tokenTooLong) }
            if tokenCount > Self.maximumNameBytes { throw malformed(VCDProblem.nameTooLong(Self.maximumNameBytes)) }
            guard words.count < limit else {
                throw malformed(keyword == "$var" ? VCDProblem.badVar : VCDProblem.unterminated(keyword))
            }
            words.append(Array(token))
        }
    }

    /// A header word as text (bytes that are not UTF-8 read as U+FFFD).
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    func skipBlock(_ keyword: String) throws(TraceError) {
        while true {
            guard try nextToken() else { throw malformed(VCDProblem.unterminated(keyword), text: "") }
            if tokenIs("$end") { return }
        }
    }

    func readTimescale() throws(TraceError) {
        let keywordLine = lineNumber
        var text: [UInt8] = []
        while true {
            guard try nextToken() else { throw malformed(VCDProblem.unterminated("$timescale"), text: "") }
            if tokenIs("$end") { break }
            let bytes = token
            if text.count < 32 { text.append(contentsOf: bytes.prefix(32 - text.count)) }
        }
        var index = 0
        var factor: UInt64 = 0
        while index < text.count, text[index] &- UInt8(ascii: "0") < 10, factor < 1000 {
            factor = factor * 10 + UInt64(text[index] &- UInt8(ascii: "0"))
            index += 1
        }
        let unit = String(decoding: text[index...], as: UTF8.self)
        let exponent: Int? =
            switch unit {
            case "s": 0
            case "ms": -3
            case "us": -6
            case "ns": -9
            case "ps": -12
            case "fs": -15
            default: nil
            }
        guard factor == 1 || factor == 10 || factor == 100, let exponent else {
            throw malformed(
                VCDProblem.unknownTimescale(String(decoding: text, as: UTF8.self)), text: "$timescale", line: keywordLine)
        }
        var power: UInt64 = 1
        for _ in 0..<abs(exponent + 9) { power *= 10 }
        if exponent + 9 >= 0 {
            multiplier = factor * power
            divisor = 1
        } else {
            multiplier = factor
            divisor = power
        }
        timescale = "\(factor) \(unit)"
    }

    /// The index in `channels` of the channel asked for, or an error naming the available ones.
    func choose(_ wanted: String?) throws(TraceError) -> Int {
        let oneBitIndices = channels.indices.filter { channels[$0].isOneBit }
        let oneBit = oneBitIndices.map { channels[$0] }
        guard let wanted else {
            if oneBit.count == 1 { return oneBitIndices[0] }
            throw malformed(
                oneBit.isEmpty ? VCDProblem.noChannels : VCDProblem.chooseChannel(Self.list(oneBit)), text: "$enddefinitions")
        }
        let matches = channels.indices.filter {
            let channel = channels[$0]
            return channel.name == wanted || channel.fullName == wanted || channel.name.prefix(while: { $0 != "[" }) == wanted
        }
        if !matches.isEmpty {
            let usable = matches.filter { channels[$0].isOneBit }
            guard let chosen = usable.first else {
                let first = channels[matches[0]]
                throw malformed(VCDProblem.notOneBit(wanted, width: first.width, type: first.type), text: "$enddefinitions")
            }
            if usable.contains(where: { identifierBytes[$0] != identifierBytes[chosen] }) {
                throw malformed(
                    VCDProblem.ambiguousChannel(wanted, usable.map { channels[$0].fullName }.joined(separator: ", ")),
                    text: "$enddefinitions")
            }
            return chosen
        }
        if let index = Int(wanted), index >= 0, index < oneBit.count { return oneBitIndices[index] }
        throw malformed(
            oneBit.isEmpty ? VCDProblem.noChannels : VCDProblem.unknownChannel(wanted, Self.list(oneBit)),
            text: "$enddefinitions")
    }

    /// The channels' names (with their scopes if names repeat), at most 64 of them.
    static func list(_ channels: [VCDChannel]) -> String {
        let unique = Set(channels.map(\.name)).count == channels.count
        var names = channels.prefix(64).map { unique ? $0.name : $0.fullName }
        if channels.count > 64 { names.append("… (\(channels.count) in all)") }
        return names.joined(separator: ", ")
    }
}
