import Testing
import YAMLDocument

/// YAML 1.1's implicit types for plain scalars, which decide which mapping keys are equal.
@Suite struct YAMLTagResolverTests {
    @Test(arguments: [
        ("on", "bool"), ("No", "bool"), ("TRUE", "bool"), ("oN", "str"),
        ("0", "int"), ("17", "int"), ("-17", "int"), ("+3", "int"), ("017", "int"), ("0o17", "int"), ("0_7", "int"), ("1_000", "int"),
        ("0b101", "int"), ("0x1F", "int"), ("1:30", "int"), ("190:20:30", "int"), ("08", "float"), ("0o", "str"), ("0b2", "str"),
        ("1:60", "str"), ("0:30", "str"),
        ("1.5", "float"), ("1.", "float"), ("1e5", "float"), ("-1.5E+3", "float"), (".5", "float"), (".5e+3", "float"), (".5e3", "str"),
        ("1:30.5", "float"), (".inf", "float"), ("-.Inf", "float"), (".NaN", "float"), ("-.nan", "str"), ("1e", "str"),
        ("<<", "merge"), ("", "null"), ("~", "null"), ("Null", "null"), ("nULL", "str"),
        ("2001-12-14", "timestamp"), ("2001-1-4", "str"), ("2001-12-14t21:59:43.10-05:00", "timestamp"),
        ("2001-12-14 21:59:43.10 Z", "timestamp"), ("2001-12-14 21:59:43", "timestamp"), ("2001-12-14T21:59", "str"),
        ("2001-12-14 21:59:43 +5:", "str"),
        ("=", "value"), ("GPIO17", "str"), ("17ms", "str"), ("defer:10ms", "str"), ("-", "str"), ("+", "str"),
    ])
    func plainScalarsResolveAsYAML11Says(text: String, type: String) {
        #expect(YAMLTagResolver.tag(ofPlain: text) == "tag:yaml.org,2002:" + type, "\(text)")
    }
}
