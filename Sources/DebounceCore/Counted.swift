/// `count` and the noun for it, singular for one: "1 press", "2 presses", "0 edges". Every message
/// that prints a count with a noun uses it.
package func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
