@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Where the demo prints: plain lines, or on a terminal a table of values that is redrawn in place while
/// it is the last thing printed, with the values that just changed highlighted.
public final class DemoConsole: Sendable {
    /// How the console prints.
    public enum Style: Sendable, Equatable {
        /// Plain lines, one per fact: for logs, pipes, tests and `--plain`.
        case plain
        /// ANSI escapes: tables updated in place, changes highlighted.
        case live
    }

    /// How this console prints.
    public let style: Style
    private let write: @Sendable (String) -> Void
    /// The lines of the table printed last, while nothing has been printed after it.
    private let liveTableHeight = Locked<Int?>(nil)

    /// Creates a console that hands each piece of text to `write`.
    /// - Parameters:
    ///   - style: Plain lines or a live table.
    ///   - write: Receives the text, newlines included.
    public init(style: Style, write: @escaping @Sendable (String) -> Void) {
        self.style = style
        self.write = write
    }

    /// A console on standard output: live when it is a terminal that can take escapes and `plain` is false.
    /// - Parameter plain: Whether `--plain` was given.
    /// - Returns: The console.
    public static func standardOutput(plain: Bool) -> DemoConsole {
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        let isCapableTerminal = isatty(STDOUT_FILENO) == 1 && !term.isEmpty && term != "dumb"
        return DemoConsole(style: !plain && isCapableTerminal ? .live : .plain) { text in
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    /// Prints a line as it is.
    func line(_ text: String = "") {
        emit(text + "\n")
    }

    /// Prints the heading of step `number`.
    func step(_ number: Int, of total: Int, _ title: String) {
        emit("\n" + styled("[\(number)/\(total)] \(title)", .bold) + "\n")
    }

    /// Prints an indented line of narration.
    func note(_ text: String) {
        emit("    " + text + "\n")
    }

    /// Prints that a check held.
    func passed(_ text: String) {
        emit("    " + styled("ok", .green) + " " + text + "\n")
    }

    /// Prints why the demo failed.
    func failed(_ text: String) {
        emit("\n" + styled(text, .red) + "\n")
    }

    /// Prints a table whose first row is its header. On a live console a table printed right after another
    /// one replaces it, and the rows whose first cell is in `changed` are highlighted.
    func table(_ rows: [[String]], changed: Set<String> = []) {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.map { $0.count > column ? $0[column].count : 0 }.max() ?? 0 }
        let lines = rows.enumerated().map { index, row in
            let text = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
            if index == 0 { return "    " + styled(text, .dim) }
            return "    " + (changed.contains(row.first ?? "") ? styled(text, .greenBold) : text)
        }
        guard style == .live else {
            emit(lines.map { $0 + "\n" }.joined())
            return
        }
        let text = lines.map { "\r\u{1B}[2K" + $0 + "\n" }.joined()
        liveTableHeight.withLock { height in
            let rewind = height.map { "\u{1B}[\($0)A" } ?? ""
            write(rewind + text)
            height = lines.count
        }
    }

    private func emit(_ text: String) {
        liveTableHeight.withLock { height in
            height = nil
            write(text)
        }
    }

    private enum Emphasis: String {
        case bold = "1"
        case dim = "2"
        case green = "32"
        case greenBold = "1;32"
        case red = "1;31"
    }

    private func styled(_ text: String, _ emphasis: Emphasis) -> String {
        style == .live ? "\u{1B}[\(emphasis.rawValue)m\(text)\u{1B}[0m" : text
    }
}
