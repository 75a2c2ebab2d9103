/// One `apns-push-type` as Apple documents it (APNS.md sections 2, 3 and 8), written out here
/// by hand: the stand-in checks each push against this table, not against the sender's own
/// `PushKind`, so a sender's wrong value is refused rather than agreed with (STYLE 26). A push
/// type the project sends and this table lacks is one row more, copied from Apple's page.
struct ApplePushType: Sendable {
    /// The `apns-push-type` header.
    let name: String
    /// What `apns-topic` adds to the app's bundle id ("" for the bundle id itself).
    let topicSuffix: String
    /// The `apns-priority` values APNs takes for it (a header left out is always taken).
    let priorities: Set<String>
    /// The `aps` dictionary, the whole of it, as JSON: nothing more, nothing less.
    let aps: String

    /// Every type the stand-in judges beyond the headers' own syntax.
    static let table: [ApplePushType] = [
        // "Always use priority 5. Using priority 10 is an error." The topic is the bundle id; `aps`
        // holds only content-available (no alert, badge or sound).
        ApplePushType(name: "background", topicSuffix: "", priorities: ["1", "5"], aps: #"{"content-available":1}"#),
        // iOS 26 WidgetKit: `<bundle id>.push-type.widgets`, no priority restriction, `aps` only
        // content-changed.
        ApplePushType(
            name: "widgets", topicSuffix: ".push-type.widgets", priorities: ["1", "5", "10"],
            aps: #"{"content-changed":true}"#),
    ]

    /// Every `apns-push-type` Apple lists; one outside it is InvalidPushType.
    static let known: Set<String> = [
        "alert", "background", "location", "voip", "complication", "fileprovider", "mdm", "liveactivity", "pushtotalk",
        "widgets",
    ]

    /// `apns-priority` values of any type.
    static let anyPriority: Set<String> = ["1", "5", "10"]

    /// The row of `name`; nil for a type the table does not judge (or none sent).
    static func named(_ name: String?) -> ApplePushType? { table.first { $0.name == name } }

    /// The topic suffixes a push may carry: the table's, the bundle id's own among them.
    static var topicSuffixes: [String] { [""] + table.map(\.topicSuffix).filter { !$0.isEmpty } }
}
