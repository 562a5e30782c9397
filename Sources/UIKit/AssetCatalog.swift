import Foundation

/// Images in asset catalogs (`.xcassets` folders) kept in a bundle, as issuers keep card art.
///
/// On a device Xcode compiles catalogs into `Assets.car`; a bundle assembled for the host keeps
/// the source folder, so ``UIImage/init(named:)`` reads `NAME.imageset/Contents.json` in any
/// `.xcassets` at the bundle's resources or root (groups inside the catalog included) and takes
/// the PNG of the highest scale up to the simulated iPhone's 3x, `universal` or `iphone` idiom.
enum AssetCatalog {
    /// One image of an image set's `Contents.json`.
    private struct ImageSetContents: Decodable {
        struct Image: Decodable {
            var filename: String?
            var idiom: String?
            var scale: String?
        }

        var images: [Image]
    }

    /// The file and scale of image set `name` in `bundle`'s catalogs, or nil.
    static func image(named name: String, in bundle: Bundle) -> (path: String, scale: CGFloat)? {
        for catalog in catalogs(in: bundle) {
            guard let imageSet = imageSet(named: name, under: catalog) else { continue }
            if let best = bestImage(in: imageSet) { return best }
        }
        return nil
    }

    /// The `.xcassets` folders at the bundle's resources and root.
    private static func catalogs(in bundle: Bundle) -> [String] {
        let directories = Array(Set([bundle.resourcePath, bundle.bundlePath].compactMap { $0 })).sorted()
        return directories.flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
                .filter { $0.hasSuffix(".xcassets") }
                .sorted()
                .map { (directory as NSString).appendingPathComponent($0) }
        }
    }

    /// `name.imageset` anywhere under `folder` (catalogs group image sets in folders).
    private static func imageSet(named name: String, under folder: String) -> String? {
        let direct = (folder as NSString).appendingPathComponent("\(name).imageset")
        if FileManager.default.fileExists(atPath: direct) { return direct }
        guard let children = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        for child in children.sorted() where !child.contains(".") {
            let path = (folder as NSString).appendingPathComponent(child)
            if let found = imageSet(named: name, under: path) { return found }
        }
        return nil
    }

    /// The PNG of the highest scale up to 3x for an iPhone, from the set's `Contents.json`.
    private static func bestImage(in imageSet: String) -> (path: String, scale: CGFloat)? {
        let contentsPath = (imageSet as NSString).appendingPathComponent("Contents.json")
        guard let data = FileManager.default.contents(atPath: contentsPath),
              let contents = try? JSONDecoder().decode(ImageSetContents.self, from: data) else {
            print("UIImage(named:): \(contentsPath) is missing or not an image set's Contents.json")
            return nil
        }
        let candidates = contents.images.compactMap { image -> (path: String, scale: CGFloat)? in
            guard let filename = image.filename, ["universal", "iphone", nil].contains(image.idiom) else { return nil }
            let scale = image.scale.flatMap { Double($0.dropLast()) } ?? 1
            guard scale <= 3 else { return nil }
            return ((imageSet as NSString).appendingPathComponent(filename), CGFloat(scale))
        }
        return candidates.filter { FileManager.default.isReadableFile(atPath: $0.path) }.max { $0.scale < $1.scale }
    }
}
