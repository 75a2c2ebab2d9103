/// How `stats` prints its figures: text for a person at a terminal, `--json` for machines,
/// `--html` for the status page (SPEC 3), the page `GET /wakeup/status` serves.
enum StatsFormat: Equatable {
    case text, json, html

    init(arguments: [String]) throws(CommandFailure) {
        let formats = arguments.filter { $0 == "--json" || $0 == "--html" }
        if let unknown = arguments.first(where: { $0 != "--json" && $0 != "--html" }) {
            throw .configuration("stats: unknown option \(unknown.prefix(40)); try --help")
        }
        guard formats.count <= 1 else { throw .configuration("stats: give --json or --html, not both") }
        switch formats.first {
        case "--json": self = .json
        case "--html": self = .html
        default: self = .text
        }
    }
}
