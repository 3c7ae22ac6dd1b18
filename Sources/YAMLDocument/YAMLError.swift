/// Why YAML text could not be composed into a document. libyaml's own problems keep its words
/// (`did not find expected ',' or ']'`); the ones this module adds say what it refused and why.
package enum YAMLError: Error, Sendable, Equatable {
    /// The construct a problem was found in: libyaml's words (`while parsing a flow sequence`) and
    /// where that construct starts.
    package struct Context: Sendable, Equatable {
        package var text: String
        package var mark: YAMLMark

        package init(text: String, mark: YAMLMark) {
            self.text = text
            self.mark = mark
        }
    }

    /// libyaml's reader refused the text itself (`control characters are not allowed`): `byteOffset`
    /// is where, in bytes of UTF-8 from the start; `character` is the character refused, if any.
    case reader(problem: String, byteOffset: Int, character: Unicode.Scalar?)
    /// A scanner or parser problem from libyaml, or one found while composing (`found undefined
    /// alias`, `but found another document`), at `mark`.
    case syntax(problem: String, mark: YAMLMark, context: Context?)
    /// Lists and mappings nested deeper than `limit` levels (at `mark`, in the node that starts at
    /// `context.mark`): refused before they can exhaust memory or the stack.
    case nestedTooDeep(limit: Int, mark: YAMLMark, context: Context)
    /// A mapping holds two equal keys (the same text and resolved tag). `key` is the first key, in text
    /// order, that repeats one before it (nil for a list or mapping used as a key); `mark` is where it
    /// repeats, `first` where it stood first.
    case duplicateKey(key: String?, mark: YAMLMark, first: YAMLMark)
    /// The aliases (`*name`) would stand for more than `limit` nodes in all, as aliases of lists of
    /// aliases do after a few lines (a "billion laughs" document); `mark` is the alias that passed it.
    case aliasesExpandTooFar(limit: Int, mark: YAMLMark)
    /// libyaml could not allocate memory.
    case outOfMemory
}
