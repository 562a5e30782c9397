// A fresh `wallet-host call` of the C extension, sandboxed (with control groups) against the
// same call with `--sandbox off --control-groups off`, and the two halves of the difference
// (each off alone), in shuffled order within each round so that load hits every variant alike.
import Foundation

/// The variants a fresh call is measured in: a name and the extra command-line arguments.
let freshCallVariants: [(name: String, arguments: [String])] = [
    ("sandboxed", []),
    ("--sandbox off --control-groups off", ["--sandbox", "off", "--control-groups", "off"]),
    ("--sandbox off", ["--sandbox", "off"]),
    ("--control-groups off", ["--control-groups", "off"]),
]

/// Runs `runs` rounds of every variant (after one unmeasured call of each, which makes the state
/// directory and its files) and prints each variant's medians, totalMs and wall time, and what
/// the sandbox and control groups add to a fresh call against the call with both off.
func freshCallBench(commandLine: String, appex: String, runs: Int) throws {
    for variant in freshCallVariants {
        _ = try freshHostCall(commandLine: commandLine, appex: appex, extraArguments: variant.arguments)
    }
    var totals: [String: [Double]] = [:]
    var walls: [String: [Double]] = [:]
    for _ in 0..<runs {
        for variant in freshCallVariants.shuffled() {
            let (total, wall) = try freshHostCall(commandLine: commandLine, appex: appex, extraArguments: variant.arguments)
            totals[variant.name, default: []].append(total)
            walls[variant.name, default: []].append(wall)
        }
    }
    for variant in freshCallVariants {
        report("fresh `wallet-host call`, C ext, \(variant.name): totalMs", totals[variant.name] ?? [])
        report("fresh `wallet-host call`, C ext, \(variant.name): wall", walls[variant.name] ?? [])
    }
    let baseline = freshCallVariants[1].name
    let (sandboxed, off) = (totals["sandboxed"] ?? [], totals[baseline] ?? [])
    let (sandboxedWall, offWall) = (walls["sandboxed"] ?? [], walls[baseline] ?? [])
    print(String(format: "fresh call, sandboxed vs %@ (%d shuffled rounds): totalMs %.3f vs %.3f ms = %+.3f ms (target <= +3 ms); "
                 + "wall %.3f vs %.3f ms = %+.3f ms",
                 baseline, runs, median(sandboxed), median(off), median(sandboxed) - median(off),
                 median(sandboxedWall), median(offWall), median(sandboxedWall) - median(offWall)))
}
