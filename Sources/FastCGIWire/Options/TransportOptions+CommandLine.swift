import Foundation

extension TransportOptions {
    /// The options a serving executable's command line asks for (`arguments` without the program
    /// name). `--help` prints `synopsis` (one line each, after "usage: "), the flags and `settings`,
    /// and exits 0; a mistake prints one line naming `program` and exits 2.
    public static func fromCommandLine(
        _ arguments: [String], maximumBodySize: Int, program: String, synopsis: [String], settings: String
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
            FileHandle.standardError.write(Data("\(program): \(error.description)\n".utf8))
            exit(2)
        }
    }
}
