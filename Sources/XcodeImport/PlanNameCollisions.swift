/// Names two parts of a plan must not share: two package targets of one name (SwiftPM refuses the
/// manifest), two apps of one bundle name or two extensions of one app of one bundle name (one
/// would be assembled over the other).
enum PlanNameCollisions {
    /// - Throws: ``ImportError`` naming both targets and the name they share.
    static func check(_ plan: ImportPlan) throws {
        var packageTargets: [String: String] = [:]
        func claim(_ name: String, by owner: String) throws {
            if let other = packageTargets[name], other != owner {
                throw ImportError("\(other) and \(owner) would both be the package target \(name); give one another PRODUCT_MODULE_NAME")
            }
            packageTargets[name] = owner
        }
        var appBundles: [String: String] = [:]
        for app in plan.apps {
            if let other = appBundles[app.app.bundleName] {
                throw ImportError("targets \(other) and \(app.app.targetName) are both \(app.app.bundleName) (FULL_PRODUCT_NAME); "
                    + "one would be assembled over the other")
            }
            appBundles[app.app.bundleName] = app.app.targetName
            try claim(PackageWriter.standInTarget(of: app.app), by: "target \(app.app.targetName) (its stand-in)")
            var plugIns: [String: String] = [:]
            for bundle in app.extensions {
                try claim(bundle.moduleName, by: "target \(bundle.targetName)")
                if let other = plugIns[bundle.bundleName] {
                    throw ImportError("targets \(other) and \(bundle.targetName), both embedded by \(app.app.targetName), are both "
                        + "\(bundle.bundleName) (FULL_PRODUCT_NAME)")
                }
                plugIns[bundle.bundleName] = bundle.targetName
            }
        }
        for test in plan.tests { try claim(test.name, by: "test target \(test.name)") }
    }
}
