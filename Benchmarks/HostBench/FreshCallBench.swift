// A fresh `wallet-host call` of the C extension, sandboxed (with control groups) against the
// same call with `--sandbox off --control-groups off`, and the two halves of the difference
// (each off alone), in shuffled order within each round so that load hits every variant alike.
// With `--base-cli`, another build's wallet-host (the commit before a change) runs the first two
// variants in the same rounds.
import Foundation

/// One way of calling: which wallet-host, and the extra command-line arguments.
struct FreshCallVariant {
    var name: String
    var commandLine: String
    var arguments: [String]
}

/// The variants of `commandLine` (and of `baseCommandLine`, if any: sandboxed and both off).
func freshCallVariants(commandLine: String, baseCommandLine: String?) -> [FreshCallVariant] {
    let bothOff = ["--sandbox", "off", "--control-groups", "off"]
    var variants = [
        FreshCallVariant(name: "sandboxed", commandLine: commandLine, arguments: []),
        FreshCallVariant(name: "--sandbox off --control-groups off", commandLine: commandLine, arguments: bothOff),
        FreshCallVariant(name: "--sandbox off", commandLine: commandLine, arguments: ["--sandbox", "off"]),
        FreshCallVariant(name: "--control-groups off", commandLine: commandLine, arguments: ["--control-groups", "off"]),
    ]
    if let baseCommandLine {
        variants += [FreshCallVariant(name: "base, sandboxed", commandLine: baseCommandLine, arguments: []),
                     FreshCallVariant(name: "base, --sandbox off --control-groups off", commandLine: baseCommandLine, arguments: bothOff)]
    }
    return variants
}

/// Runs `runs` rounds of every variant (after one unmeasured call of each, which makes the state
/// directory and its files) and prints each variant's medians, totalMs and wall time, and what
/// the sandbox and control groups add to a fresh call against the call with both off.
func freshCallBench(commandLine: String, baseCommandLine: String?, appex: String, runs: Int) throws {
    let variants = freshCallVariants(commandLine: commandLine, baseCommandLine: baseCommandLine)
    for variant in variants {
        _ = try? freshHostCall(commandLine: variant.commandLine, appex: appex, extraArguments: variant.arguments)
    }
    var totals: [String: [Double]] = [:]
    var walls: [String: [Double]] = [:]
    // A call that fails (a deadline missed on a loaded machine) is counted and left out.
    var failures: [String: Int] = [:]
    for _ in 0..<runs {
        for variant in variants.shuffled() {
            do {
                let (total, wall) = try freshHostCall(commandLine: variant.commandLine, appex: appex, extraArguments: variant.arguments)
                totals[variant.name, default: []].append(total)
                walls[variant.name, default: []].append(wall)
            } catch {
                failures[variant.name, default: 0] += 1
            }
        }
    }
    for (name, count) in failures.sorted(by: { $0.key < $1.key }) { print("fresh `wallet-host call`, \(name): \(count) failed calls left out") }
    for variant in variants {
        report("fresh `wallet-host call`, C ext, \(variant.name): totalMs", totals[variant.name] ?? [])
        report("fresh `wallet-host call`, C ext, \(variant.name): wall", walls[variant.name] ?? [])
    }
    func difference(_ sandboxed: String, _ off: String) {
        let (total, totalOff) = (totals[sandboxed] ?? [], totals[off] ?? [])
        let (wall, wallOff) = (walls[sandboxed] ?? [], walls[off] ?? [])
        print(String(format: "fresh call, %@ vs %@ (%d shuffled rounds): totalMs %.3f vs %.3f ms = %+.3f ms (target <= +3 ms); "
                     + "wall %.3f vs %.3f ms = %+.3f ms",
                     sandboxed, off, runs, median(total), median(totalOff), median(total) - median(totalOff),
                     median(wall), median(wallOff), median(wall) - median(wallOff)))
    }
    difference("sandboxed", "--sandbox off --control-groups off")
    if baseCommandLine != nil { difference("base, sandboxed", "base, --sandbox off --control-groups off") }
}
