import Foundation

extension TransportOptions {
    /// The options a serving executable's command line asks for (`arguments` without the program
    /// name). `--help` prints `synopsis` (one line each, after "usage: "), the flags and `settings`,
    /// and exits 0; a mistake is one line through `log` (the program's own, time-stamped) and exit 2.
    public static func fromCommandLine(
        _ arguments: [String], maximumBodySize: Int, program: String, synopsis: [String], settings: String,
        log: (String) -> Void
    ) -> TransportOptions {
        do {
            switch try parse(arguments, maximumBodySize: maximumBodySize) {
            case .serve(let options):
                return options
            case .help:
                for (index, line) in synopsis.enumerated() {
                    print((index == 0 ? "usage: " : "       ") + program + " " + line)
                }
                print("\n" + usage + "\n\n" + settings)
                exit(0)
            }
        } catch {
            log(error.description)
            exit(2)
        }
    }
}
