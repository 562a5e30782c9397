import Foundation
import Wallet
import WalletWire

/// `add-card --interactive` without `--issuer` or `--select`: Wallet's two lists, asked at the
/// terminal (or whatever feeds standard input, a pipe included): the banks Wallet lists, then
/// the cards the chosen bank offers. A single bank or card is taken without asking.
struct AddCardChooser: Sendable {
    let terminal: TerminalIO

    /// Lists the banks and reads the one picked; Return or the end of input takes the first.
    func chooseIssuer(_ listed: [DiscoveredIssuer]) async -> String? {
        guard listed.count > 1 else { return listed.first?.bundleIdentifier }
        var text = "Wallet lists \(listed.count) banks:\n"
        for (index, issuer) in listed.enumerated() {
            text += "  \(index + 1)) \(issuer.name) (\(issuer.bundleIdentifier))\n"
        }
        terminal.write(text)
        while true {
            terminal.write("Pick a bank [1-\(listed.count)] (Return: 1): ")
            guard let line = try? terminal.readLine(false)?.trimmingCharacters(in: .whitespaces), !line.isEmpty else {
                terminal.write("\n")
                return listed[0].bundleIdentifier
            }
            if let number = Int(line), listed.indices.contains(number - 1) { return listed[number - 1].bundleIdentifier }
            if let named = listed.first(where: { $0.name == line || $0.bundleIdentifier == line }) { return named.bundleIdentifier }
            terminal.write("\"\(line)\" is not one of them: type a number from 1 to \(listed.count).\n")
        }
    }

    /// Lists the usable cards and reads the ones picked; Return or the end of input takes all.
    func chooseEntries(_ entries: [WirePassEntry]) async -> EntrySelection? {
        guard entries.count > 1 else { return .all }
        var text = "The bank offers \(entries.count) cards:\n"
        for (index, entry) in entries.enumerated() {
            let suffix = entry.addRequestConfiguration.primaryAccountSuffix.map { " ••\($0)" } ?? ""
            text += "  \(index + 1)) \(entry.title)\(suffix) [\(entry.identifier)]\n"
        }
        terminal.write(text)
        while true {
            terminal.write("Add which cards? [numbers such as 1,3, or all] (Return: all): ")
            guard let line = try? terminal.readLine(false)?.trimmingCharacters(in: .whitespaces), !line.isEmpty else {
                terminal.write("\n")
                return .all
            }
            if line.lowercased() == "all" { return .all }
            let numbers = line.split(whereSeparator: { $0 == "," || $0 == " " }).map { Int($0) }
            if !numbers.isEmpty, numbers.allSatisfy({ $0.map { entries.indices.contains($0 - 1) } ?? false }) {
                return .identifiers(numbers.compactMap { $0 }.map { entries[$0 - 1].identifier })
            }
            terminal.write("\"\(line)\" is not a list of card numbers from 1 to \(entries.count), or all.\n")
        }
    }
}
